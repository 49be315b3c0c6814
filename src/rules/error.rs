//! Why a move or a game action was refused: [`MoveError`] (with its typed
//! [`MoveErrorKind`] and [`CastlingRefusal`]) and [`GameError`].

use std::fmt;

use crate::core::{CastleSide, Color, Piece, PieceKind, Square};

use super::outcome::Outcome;

/// A refused move: the text (or UCI of the move) that was refused, and the typed reason.
///
/// The game is exactly as it was before the refused call. [`MoveError::kind`] says why, for a
/// program; [`fmt::Display`] says it for a person, starting with the move text:
///
/// ```
/// use ferrum::rules::{Game, MoveErrorKind};
/// // The knight on e4 shields its king from the rook on e8.
/// let mut game = Game::from_fen("4r1k1/8/8/8/4N3/8/8/4K3 w - - 0 1").unwrap();
/// let err = game.play("e4d6").unwrap_err();
/// assert!(matches!(err.kind(), MoveErrorKind::LeavesKingInCheck { .. }));
/// assert_eq!(err.to_string(), "e4d6 leaves the white king in check");
/// assert_eq!(game.ply(), 0);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveError {
    text: String,
    kind: MoveErrorKind,
}

/// Why a move was refused. One variant per reason; parse errors ([`MoveErrorKind::NotAMove`],
/// [`MoveErrorKind::Ambiguous`]) are their own kinds.
///
/// ```
/// use ferrum::core::{Color, Piece, PieceKind, Square};
/// use ferrum::rules::{Game, MoveErrorKind};
/// let game = Game::new();
/// let kind = |text: &str| game.parse_move(text).unwrap_err().kind().clone();
/// assert_eq!(kind("Zz9"), MoveErrorKind::NotAMove);
/// assert_eq!(kind("e3e4"), MoveErrorKind::NoPiece { square: Square::E3 });
/// assert_eq!(
///     kind("d7d5"),
///     MoveErrorKind::NotYourTurn { piece: Piece::new(Color::Black, PieceKind::Pawn), square: Square::D7 }
/// );
/// assert!(matches!(kind("Bc4"), MoveErrorKind::CannotMoveThere { from: Some(Square::F1), obstacle: Some(Square::E2), .. }));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveErrorKind {
    /// The text is neither UCI (`e2e4`, `e7e8q`) nor SAN (`Nf3`, `O-O`, `e8=Q`).
    NotAMove,
    /// SAN that fits more than one legal move (`Nd2` when both knights can go there).
    Ambiguous {
        /// The legal moves it could mean, in SAN.
        candidates: Vec<String>,
    },
    /// The move starts from an empty square.
    NoPiece {
        /// The empty origin square.
        square: Square,
    },
    /// The move starts from a square holding a piece of the side that is not to move.
    NotYourTurn {
        /// The piece on the origin square.
        piece: Piece,
        /// The origin square.
        square: Square,
    },
    /// The piece does not move that way, whatever the position of the kings.
    CannotMoveThere {
        /// The piece asked to move.
        piece: Piece,
        /// Its square; `None` when SAN named no single piece (no piece of that kind can go
        /// there).
        from: Option<Square>,
        /// The destination asked for.
        to: Square,
        /// The first occupied square on the way, or the destination itself when a piece of
        /// the mover's colour stands there.
        obstacle: Option<Square>,
    },
    /// The piece moves that way, but afterwards the mover's king would be attacked (a pinned
    /// piece, a check not answered, the king stepping onto an attacked square, an en-passant
    /// capture that opens a line to the king).
    LeavesKingInCheck {
        /// The side whose king would be attacked (the side to move).
        color: Color,
        /// True when the move is the king's own step.
        king_move: bool,
    },
    /// A castling move that the rules do not allow now.
    Castling(CastlingRefusal),
    /// A pawn move to the last rank that does not say which piece the pawn becomes. A
    /// promotion is never defaulted to a queen.
    PromotionRequired,
    /// A promotion piece that is not allowed: a king or a pawn, or any piece on a move that
    /// does not promote.
    InvalidPromotion {
        /// The piece asked for.
        piece: PieceKind,
        /// True when the move itself is a promotion (then the piece is a king or a pawn).
        promotes: bool,
    },
    /// The game has ended; no move is accepted until it is undone (when that is allowed).
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
}

/// Why a castling move is not allowed.
///
/// ```
/// use ferrum::core::Square;
/// use ferrum::rules::{CastlingRefusal, Game, MoveErrorKind};
/// // The rook on f8 attacks f1, which the king would cross.
/// let game = Game::from_fen("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
/// let err = game.parse_move("O-O").unwrap_err();
/// assert_eq!(err.kind(), &MoveErrorKind::Castling(CastlingRefusal::ThroughCheck { square: Square::F1 }));
/// assert_eq!(err.reason(), "castling is not allowed: f1 is attacked");
/// assert!(game.parse_move("O-O-O").is_ok());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CastlingRefusal {
    /// The right is gone: the king or that rook has moved (moving back does not restore it),
    /// or the rook was captured.
    NoRight {
        /// The side to move.
        color: Color,
        /// Which castling.
        side: CastleSide,
    },
    /// A square between the king, the rook and their destinations is occupied.
    Blocked {
        /// The first occupied square.
        square: Square,
    },
    /// The king is in check: no castling out of check.
    InCheck {
        /// The side to move.
        color: Color,
    },
    /// A square the king crosses is attacked: no castling through check.
    ThroughCheck {
        /// The attacked square.
        square: Square,
    },
    /// The square the king lands on is attacked: no castling into check.
    IntoCheck {
        /// The attacked square.
        square: Square,
    },
}

impl fmt::Display for CastlingRefusal {
    /// `castling is not allowed: f1 is attacked`, and so on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("castling is not allowed: ")?;
        match self {
            CastlingRefusal::NoRight { color, side } => {
                let side = match side {
                    CastleSide::King => "king",
                    CastleSide::Queen => "queen",
                };
                write!(
                    f,
                    "{color} has lost the right to castle on the {side} side (the king or that \
                     rook has moved, or the rook was captured)"
                )
            }
            CastlingRefusal::Blocked { square } => write!(f, "{square} is not empty"),
            CastlingRefusal::InCheck { color } => write!(f, "the {color} king is in check"),
            CastlingRefusal::ThroughCheck { square } => write!(f, "{square} is attacked"),
            CastlingRefusal::IntoCheck { square } => {
                write!(f, "{square} is attacked and the king would land there")
            }
        }
    }
}

impl MoveError {
    /// A refusal of `text` for `kind`.
    pub fn new(text: impl Into<String>, kind: MoveErrorKind) -> MoveError {
        MoveError {
            text: text.into(),
            kind,
        }
    }

    /// The refused text, as given (trimmed); the UCI form for a refused [`Move`].
    ///
    /// [`Move`]: crate::core::Move
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The typed reason.
    pub fn kind(&self) -> &MoveErrorKind {
        &self.kind
    }

    /// The reason in words, without the move text: the part after `illegal <text>` in the
    /// pipe protocol.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// let err = game.play("e3e4").unwrap_err();
    /// assert_eq!(err.reason(), "there is no piece on e3");
    /// assert_eq!(err.to_string(), "e3e4: there is no piece on e3");
    /// ```
    pub fn reason(&self) -> String {
        match &self.kind {
            MoveErrorKind::NotAMove => {
                "is not a move (write UCI like e2e4 or e7e8q, or SAN like Nf3, O-O or e8=Q)"
                    .to_string()
            }
            MoveErrorKind::Ambiguous { candidates } => {
                format!("is ambiguous: it could be {}", candidates.join(" or "))
            }
            MoveErrorKind::NoPiece { square } => format!("there is no piece on {square}"),
            MoveErrorKind::NotYourTurn { piece, square } => format!(
                "the {} on {square} is {}'s, and it is {}'s turn",
                piece.kind.name(),
                piece.color,
                !piece.color
            ),
            MoveErrorKind::CannotMoveThere {
                piece,
                from,
                to,
                obstacle,
            } => {
                let mut s = match from {
                    Some(from) => format!(
                        "the {} {} on {from} cannot move to {to}",
                        piece.color,
                        piece.kind.name()
                    ),
                    None => format!("no {} {} can move to {to}", piece.color, piece.kind.name()),
                };
                match obstacle {
                    Some(sq) if sq == to => {
                        s.push_str(&format!(": a {} piece stands there", piece.color))
                    }
                    Some(sq) => s.push_str(&format!(": {sq} is in the way")),
                    None => {}
                }
                s
            }
            MoveErrorKind::LeavesKingInCheck { color, king_move } => {
                if *king_move {
                    format!("puts the {color} king in check")
                } else {
                    format!("leaves the {color} king in check")
                }
            }
            MoveErrorKind::Castling(refusal) => refusal.to_string(),
            MoveErrorKind::PromotionRequired => {
                "a pawn reaching the last rank must become a queen, rook, bishop or knight: say \
                 which (e7e8q, e8=Q, e8=N)"
                    .to_string()
            }
            MoveErrorKind::InvalidPromotion { piece, promotes } => {
                if *promotes {
                    format!("a pawn cannot become a {}", piece.name())
                } else {
                    format!(
                        "this move does not promote, so it cannot name a piece ({})",
                        piece.name()
                    )
                }
            }
            MoveErrorKind::GameOver { outcome } => format!("the game is over ({outcome})"),
        }
    }

    /// True when the reason reads as a predicate of the move text (`e4d6 leaves the white king
    /// in check`) rather than a sentence of its own (`e1g1: castling is not allowed: ...`).
    fn reason_is_predicate(&self) -> bool {
        matches!(
            self.kind,
            MoveErrorKind::NotAMove
                | MoveErrorKind::Ambiguous { .. }
                | MoveErrorKind::LeavesKingInCheck { .. }
        )
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.reason_is_predicate() {
            " "
        } else {
            ": "
        };
        write!(f, "{}{sep}{}", self.text, self.reason())
    }
}

impl std::error::Error for MoveError {}

/// A refused game action: undo, redo, a draw claim, a resignation or a draw agreement.
///
/// ```
/// use ferrum::core::Color;
/// use ferrum::rules::{Game, GameError};
/// let mut game = Game::new();
/// assert_eq!(game.undo(), Err(GameError::NothingToUndo));
/// game.play("e4").unwrap();
/// game.resign(Color::Black).unwrap();
/// assert!(matches!(game.undo(), Err(GameError::Decided { .. })));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameError {
    /// No move has been played (from the starting position of the game).
    NothingToUndo,
    /// No undone move is waiting to be played again.
    NothingToRedo,
    /// The game ended by a player's decision (resignation, agreement, a claimed draw), which
    /// cannot be taken back.
    Decided {
        /// How it ended.
        outcome: Outcome,
    },
    /// The game is already over, so it cannot be resigned, drawn or claimed.
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// A draw claim when neither threefold repetition nor the fifty-move rule applies.
    NoDrawToClaim,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::NothingToUndo => f.write_str("no move has been played"),
            GameError::NothingToRedo => f.write_str("there is no undone move to play again"),
            GameError::Decided { outcome } => {
                write!(
                    f,
                    "the game was decided ({outcome}) and that cannot be taken back"
                )
            }
            GameError::GameOver { outcome } => write!(f, "the game is over ({outcome})"),
            GameError::NoDrawToClaim => f.write_str(
                "no draw can be claimed: the position has not arisen three times and fifty \
                 moves have not passed without a capture or a pawn move",
            ),
        }
    }
}

impl std::error::Error for GameError {}
