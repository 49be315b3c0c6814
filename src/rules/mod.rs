//! The exact rules of chess as a game API, on top of the [`core`](crate::core) board.
//!
//! - [`Game`]: play moves written in UCI or SAN, undo and redo, the outcome, draw claims,
//!   resignation and agreement, FEN for standard chess and Chess960.
//! - [`MoveError`]: every refused move with its typed reason ([`MoveErrorKind`]) and a message
//!   a person understands; the game is unchanged after any refusal.
//! - [`Outcome`] and [`DrawClaim`]: checkmate, stalemate, insufficient material, repetition
//!   and move-count rules, resignation, agreement.
//! - [`san()`]: Standard Algebraic Notation out; PGN out ([`write_pgn`]) and in
//!   ([`read_pgn`], [`PgnStream`]) with comments, NAGs and variations ([`Notes`]); a streaming
//!   PGN reader for any use ([`PgnParser`] and its [`Visitor`]).
//! - [`referee`]: the verdict on every game of a PGN file (what `ferrum pgn` prints).
//! - [`SharedGame`]: one game shared by threads for online play, refusing stale moves.
//! - [`PipeCommand`] and [`answer`]: the same API as one-line commands beside UCI.
//!
//! One gate: a move is legal exactly when it is in the core's list of legal moves. Nothing
//! here decides legality; the diagnosis of a refused move only chooses the words.
//!
//! ```
//! use ferrum::rules::{Game, MoveErrorKind, Outcome};
//! use ferrum::core::Color;
//!
//! let mut game = Game::new();
//! for m in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"] {
//!     game.play(m).unwrap();
//! }
//! let err = game.play("Ke3").unwrap_err();
//! assert!(matches!(err.kind(), MoveErrorKind::CannotMoveThere { .. }));
//! game.play("Qxf7#").unwrap();
//! assert_eq!(game.outcome(), Outcome::Checkmate { winner: Color::White });
//! assert!(matches!(game.play("Ke7").unwrap_err().kind(), MoveErrorKind::GameOver { .. }));
//! ```

// Private modules whose items are re-exported below, so each has one path (`rules::Game`, not
// also `rules::game::Game`); the PGN reader's parser and visitor types too.
mod diagnose;
pub(crate) mod error;
pub(crate) mod game;
pub(crate) mod outcome;
pub(crate) mod pgn;
pub(crate) mod pipe;
pub(crate) mod report;
pub(crate) mod san;
pub(crate) mod shared;

pub use error::{CastlingRefusal, GameError, MoveError, MoveErrorKind};
pub use game::Game;
pub use outcome::{DrawClaim, Outcome};
pub use pgn::{
    comment_commands, read_pgn, write_pgn, Location, Notes, PgnError, PgnErrorKind, PgnGame,
    PgnParser, PgnReader, PgnStream, SyntaxError, SyntaxErrorKind, Variation, VariationMove,
    Visitor, SEVEN_TAG_ROSTER,
};
pub use pipe::{answer, PipeCommand};
pub use report::{referee, referee_stream, GameReport, ReportError};
pub use san::san;
pub use shared::{SharedGame, SubmitError, Submitted};
