//! How a game ends: the [`Outcome`] of a game, the draws a player may claim ([`DrawClaim`]),
//! and the insufficient-material rule.

use std::fmt;

use crate::core::Color;

/// Where a game stands: still going, or how it ended.
///
/// Checkmate, stalemate, insufficient material, fivefold repetition and the seventy-five-move
/// rule follow from the position and the moves alone (a game reaches them by itself, and
/// [`Game::undo`](super::Game::undo) takes them back). Threefold repetition and the fifty-move
/// rule end a game only when a player claims them
/// ([`Game::claim_draw`](super::Game::claim_draw)); resignation and agreement are players'
/// decisions. Those four cannot be undone.
///
/// ```
/// use ferrum::rules::{Game, Outcome};
/// use ferrum::core::Color;
/// let mut game = Game::new();
/// for m in ["f3", "e5", "g4", "Qh4#"] {
///     game.play(m).unwrap();
/// }
/// assert_eq!(game.outcome(), Outcome::Checkmate { winner: Color::Black });
/// assert_eq!(game.outcome().name(), "checkmate");
/// assert_eq!(game.outcome().result(), "0-1");
/// ```
///
/// With the `serde` feature an outcome is an object whose `outcome` key holds
/// [`Outcome::name`], with `winner` (`"white"` or `"black"`) when there is one:
/// `{"outcome":"checkmate","winner":"black"}`, `{"outcome":"stalemate"}`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "outcome", rename_all = "snake_case"))]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The side to move is in check and has no legal move.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move is not in check and has no legal move: a draw.
    Stalemate,
    /// No sequence of legal moves could end in mate: a draw.
    InsufficientMaterial,
    /// The same position arose for the fifth time: a draw without a claim.
    FivefoldRepetition,
    /// Seventy-five moves by each side without a capture or a pawn move: a draw without a
    /// claim (unless the move reaching the limit gave mate).
    SeventyFiveMoves,
    /// A player claimed a draw because the position arose for the third time.
    ThreefoldRepetition,
    /// A player claimed a draw after fifty moves by each side without a capture or pawn move.
    FiftyMoves,
    /// A player resigned.
    Resignation {
        /// The side that did not resign.
        winner: Color,
    },
    /// The players agreed a draw.
    Agreement,
}

impl Outcome {
    /// The outcome as one lower-case word, the form used by `ferrum pgn --json` and the pipe
    /// commands: `ongoing`, `checkmate`, `stalemate`, `insufficient_material`,
    /// `fivefold_repetition`, `seventy_five_moves`, `threefold_repetition`, `fifty_moves`,
    /// `resignation`, `agreement`.
    ///
    /// ```
    /// use ferrum::rules::Outcome;
    /// assert_eq!(Outcome::SeventyFiveMoves.name(), "seventy_five_moves");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Ongoing => "ongoing",
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::Stalemate => "stalemate",
            Outcome::InsufficientMaterial => "insufficient_material",
            Outcome::FivefoldRepetition => "fivefold_repetition",
            Outcome::SeventyFiveMoves => "seventy_five_moves",
            Outcome::ThreefoldRepetition => "threefold_repetition",
            Outcome::FiftyMoves => "fifty_moves",
            Outcome::Resignation { .. } => "resignation",
            Outcome::Agreement => "agreement",
        }
    }

    /// The winner of a decided game; `None` while it goes on and after a draw.
    ///
    /// ```
    /// use ferrum::core::Color;
    /// use ferrum::rules::Outcome;
    /// assert_eq!(Outcome::Resignation { winner: Color::White }.winner(), Some(Color::White));
    /// assert_eq!(Outcome::Stalemate.winner(), None);
    /// ```
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } | Outcome::Resignation { winner } => Some(winner),
            _ => None,
        }
    }

    /// True once the game has ended.
    ///
    /// ```
    /// use ferrum::rules::Outcome;
    /// assert!(!Outcome::Ongoing.is_over());
    /// assert!(Outcome::Agreement.is_over());
    /// ```
    pub const fn is_over(self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }

    /// True for a game that ended drawn.
    ///
    /// ```
    /// use ferrum::rules::Outcome;
    /// assert!(Outcome::FiftyMoves.is_draw());
    /// assert!(!Outcome::Ongoing.is_draw());
    /// ```
    pub const fn is_draw(self) -> bool {
        self.is_over() && self.winner().is_none()
    }

    /// True when the position and the moves decide this outcome by themselves (checkmate,
    /// stalemate, insufficient material, fivefold repetition, seventy-five moves), false for
    /// the endings a player chooses (claims, resignation, agreement) and for `Ongoing`.
    ///
    /// ```
    /// use ferrum::rules::Outcome;
    /// assert!(Outcome::FivefoldRepetition.is_automatic());
    /// assert!(!Outcome::ThreefoldRepetition.is_automatic());
    /// ```
    pub const fn is_automatic(self) -> bool {
        matches!(
            self,
            Outcome::Checkmate { .. }
                | Outcome::Stalemate
                | Outcome::InsufficientMaterial
                | Outcome::FivefoldRepetition
                | Outcome::SeventyFiveMoves
        )
    }

    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    ///
    /// ```
    /// use ferrum::rules::Outcome;
    /// assert_eq!(Outcome::Stalemate.result(), "1/2-1/2");
    /// assert_eq!(Outcome::Ongoing.result(), "*");
    /// ```
    pub const fn result(self) -> &'static str {
        match self {
            Outcome::Ongoing => "*",
            _ => match self.winner() {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            },
        }
    }
}

impl fmt::Display for Outcome {
    /// A sentence for people: `checkmate, white wins`, `draw by stalemate`, `game in progress`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("game in progress"),
            Outcome::Checkmate { winner } => write!(f, "checkmate, {winner} wins"),
            Outcome::Resignation { winner } => write!(f, "{} resigned, {winner} wins", !*winner),
            Outcome::Stalemate => f.write_str("draw by stalemate"),
            Outcome::InsufficientMaterial => f.write_str("draw by insufficient material"),
            Outcome::FivefoldRepetition => f.write_str("draw by fivefold repetition"),
            Outcome::SeventyFiveMoves => f.write_str("draw by the seventy-five-move rule"),
            Outcome::ThreefoldRepetition => f.write_str("draw claimed by threefold repetition"),
            Outcome::FiftyMoves => f.write_str("draw claimed by the fifty-move rule"),
            Outcome::Agreement => f.write_str("draw by agreement"),
        }
    }
}

/// A draw a player may claim (and that does not end the game by itself).
///
/// ```
/// use ferrum::rules::DrawClaim;
/// assert_eq!(DrawClaim::FiftyMoves.name(), "fifty_moves");
/// ```
///
/// With the `serde` feature a claim is its [`DrawClaim::name`] as a string.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DrawClaim {
    /// The current position has arisen at least three times.
    ThreefoldRepetition,
    /// At least fifty moves by each side without a capture or a pawn move.
    FiftyMoves,
}

impl DrawClaim {
    /// `threefold_repetition` or `fifty_moves`.
    pub const fn name(self) -> &'static str {
        match self {
            DrawClaim::ThreefoldRepetition => "threefold_repetition",
            DrawClaim::FiftyMoves => "fifty_moves",
        }
    }

    /// The outcome a successful claim gives the game.
    ///
    /// ```
    /// use ferrum::rules::{DrawClaim, Outcome};
    /// assert_eq!(DrawClaim::FiftyMoves.outcome(), Outcome::FiftyMoves);
    /// ```
    pub const fn outcome(self) -> Outcome {
        match self {
            DrawClaim::ThreefoldRepetition => Outcome::ThreefoldRepetition,
            DrawClaim::FiftyMoves => Outcome::FiftyMoves,
        }
    }
}

impl fmt::Display for DrawClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
