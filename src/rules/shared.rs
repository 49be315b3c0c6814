//! [`SharedGame`]: one game behind one lock, for online play where moves arrive from several
//! connections, retried requests and out-of-date screens.

use std::fmt;
use std::sync::{Mutex, MutexGuard};

use crate::core::{Color, Move};

use super::error::{GameError, MoveError};
use super::game::Game;
use super::outcome::Outcome;

/// A [`Game`] that many threads share (`Send + Sync`). Each submitted move carries the ply it
/// was made at: it is played only if that is still the current ply, so of two moves made on
/// the same position only the first counts, and a retried request of a move already played is
/// refused as stale. Spectators and reconnecting players read the moves from any ply on.
///
/// ```
/// use ferrum::rules::{SharedGame, SubmitError};
/// let game = SharedGame::default();
/// let played = game.submit(0, "e4").unwrap();
/// assert_eq!(played.ply, 1);
/// assert_eq!(played.san, "e4");
/// // The same request again (a retry) is stale and changes nothing.
/// assert!(matches!(game.submit(0, "e4"), Err(SubmitError::Stale { current: 1, .. })));
/// game.submit(1, "e5").unwrap();
/// // A spectator who has seen one move catches up:
/// let update = game.moves_from(1);
/// assert_eq!(update.len(), 1);
/// assert_eq!(update[0].to_uci(false), "e7e5");
/// ```
#[derive(Default)]
pub struct SharedGame {
    game: Mutex<Game>,
}

/// A move a [`SharedGame`] accepted.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Submitted {
    /// The move.
    pub mv: Move,
    /// Its SAN, in the position it was played in.
    pub san: String,
    /// The ply after it (the ply the next move must be submitted at).
    pub ply: usize,
    /// How the game stands after it.
    pub outcome: Outcome,
}

/// Why a [`SharedGame`] refused a submitted move. Either way the game is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SubmitError {
    /// The move was made at a ply that is no longer the current one (another move came first,
    /// or this one was already played and the request was retried).
    Stale {
        /// The ply the move was made at.
        submitted: usize,
        /// The game's current ply.
        current: usize,
    },
    /// The move is refused by the rules.
    Move(MoveError),
}

impl fmt::Display for SubmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubmitError::Stale { submitted, current } => write!(
                f,
                "stale move: it was made at ply {submitted} but the game is at ply {current}"
            ),
            SubmitError::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SubmitError {}

impl SharedGame {
    /// Shares `game`.
    pub fn new(game: Game) -> SharedGame {
        SharedGame {
            game: Mutex::new(game),
        }
    }

    /// The lock. A panic while it was held cannot leave the game half-changed (every change
    /// is one call on [`Game`] that either completes or refuses), so a poisoned lock is used
    /// as it is.
    fn lock(&self) -> MutexGuard<'_, Game> {
        self.game
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Plays the move written `text` (UCI or SAN) if `ply` is the current ply and the move is
    /// legal; checking the ply and playing the move are one step under the lock.
    ///
    /// ```
    /// use ferrum::rules::{SharedGame, SubmitError};
    /// let game = SharedGame::default();
    /// game.submit(0, "d4").unwrap();
    /// // Black's screen still showed the start position: stale.
    /// assert!(matches!(game.submit(0, "d5"), Err(SubmitError::Stale { submitted: 0, current: 1 })));
    /// // At the right ply an illegal move is refused by the rules.
    /// assert!(matches!(game.submit(1, "Ke7"), Err(SubmitError::Move(_))));
    /// assert_eq!(game.submit(1, "d5").unwrap().ply, 2);
    /// ```
    pub fn submit(&self, ply: usize, text: &str) -> Result<Submitted, SubmitError> {
        let mut game = self.lock();
        check_ply(&game, ply)?;
        let m = game.parse_move(text).map_err(SubmitError::Move)?;
        play(&mut game, m)
    }

    /// [`SharedGame::submit`] for a [`Move`] value.
    ///
    /// ```
    /// use ferrum::rules::SharedGame;
    /// let game = SharedGame::default();
    /// let m = game.snapshot().position().parse_uci("d2d4").unwrap();
    /// assert!(game.submit_move(0, m).is_ok());
    /// assert!(game.submit_move(0, m).is_err());
    /// ```
    pub fn submit_move(&self, ply: usize, m: Move) -> Result<Submitted, SubmitError> {
        let mut game = self.lock();
        check_ply(&game, ply)?;
        play(&mut game, m)
    }

    /// The current ply: the number of moves played.
    pub fn ply(&self) -> usize {
        self.lock().ply()
    }

    /// The moves played from ply `ply` on: what a spectator or a reconnecting player who has
    /// seen `ply` moves is missing. Empty when `ply` is current (or beyond).
    pub fn moves_from(&self, ply: usize) -> Vec<Move> {
        self.lock().moves_from(ply).to_vec()
    }

    /// How the game stands.
    pub fn outcome(&self) -> Outcome {
        self.lock().outcome()
    }

    /// A copy of the game as it is now.
    pub fn snapshot(&self) -> Game {
        self.lock().clone()
    }

    /// Runs `f` on the game under the lock (for reads that must see one consistent state).
    ///
    /// ```
    /// use ferrum::rules::SharedGame;
    /// let game = SharedGame::default();
    /// let (ply, fen) = game.read(|g| (g.ply(), g.fen()));
    /// assert_eq!(ply, 0);
    /// assert!(fen.starts_with("rnbqkbnr"));
    /// ```
    pub fn read<R>(&self, f: impl FnOnce(&Game) -> R) -> R {
        f(&self.lock())
    }

    /// `color` resigns (see [`Game::resign`]).
    pub fn resign(&self, color: Color) -> Result<Outcome, GameError> {
        self.lock().resign(color)
    }

    /// The players agree a draw (see [`Game::agree_draw`]).
    pub fn agree_draw(&self) -> Result<Outcome, GameError> {
        self.lock().agree_draw()
    }

    /// A player claims a draw (see [`Game::claim_draw`]).
    pub fn claim_draw(&self) -> Result<Outcome, GameError> {
        self.lock().claim_draw()
    }
}

fn check_ply(game: &Game, ply: usize) -> Result<(), SubmitError> {
    let current = game.ply();
    if ply != current {
        return Err(SubmitError::Stale {
            submitted: ply,
            current,
        });
    }
    Ok(())
}

fn play(game: &mut Game, m: Move) -> Result<Submitted, SubmitError> {
    let san = game.play_move_san(m).map_err(SubmitError::Move)?;
    Ok(Submitted {
        mv: m,
        san,
        ply: game.ply(),
        outcome: game.outcome(),
    })
}
