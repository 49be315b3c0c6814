//! The 16-bit move.

use std::fmt;

use super::piece::PieceKind;
use super::square::Square;

/// What kind of move, stored in the top four bits of a [`Move`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum MoveKind {
    /// Any move that is none of the others, including double pawn pushes and captures.
    Normal = 0,
    /// Promotion to a knight.
    PromoteKnight = 1,
    /// Promotion to a bishop.
    PromoteBishop = 2,
    /// Promotion to a rook.
    PromoteRook = 3,
    /// Promotion to a queen.
    PromoteQueen = 4,
    /// En-passant capture; `to` is the square the pawn lands on.
    EnPassant = 5,
    /// Castling; encoded as the king "capturing" its own rook, so `to` is the rook's square.
    Castle = 6,
}

/// A move in 16 bits: origin (6), destination (6), kind (4).
///
/// Castling is stored as king-takes-own-rook so that standard chess and Chess960 share one
/// code path; [`Move::to_uci`] prints `e1g1` or `e1h1` as the mode asks.
///
/// ```
/// use ferrum::core::{Move, MoveKind, PieceKind, Square};
/// let m = Move::new(Square::E7, Square::E8, MoveKind::PromoteQueen);
/// assert_eq!(m.promotion(), Some(PieceKind::Queen));
/// assert_eq!(m.to_uci(false), "e7e8q");
/// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castle);
/// assert_eq!(castle.to_uci(false), "e1g1");
/// assert_eq!(castle.to_uci(true), "e1h1");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The null move (`0000`): never a legal move.
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to` of `kind`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.to_u8() as u16 | (to.to_u8() as u16) << 6 | (kind as u16) << 12)
    }

    /// The promotion move to `piece` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion_to(from: Square, to: Square, piece: PieceKind) -> Move {
        let kind = match piece {
            PieceKind::Knight => MoveKind::PromoteKnight,
            PieceKind::Bishop => MoveKind::PromoteBishop,
            PieceKind::Rook => MoveKind::PromoteRook,
            _ => MoveKind::PromoteQueen,
        };
        Move::new(from, to, kind)
    }

    /// The raw 16 bits (for hash tables).
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// A move from raw bits; anything is accepted, so check it with `is_legal` before use.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// True for the null move.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// Destination square (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u8)
    }

    /// The move's kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            1 => MoveKind::PromoteKnight,
            2 => MoveKind::PromoteBishop,
            3 => MoveKind::PromoteRook,
            4 => MoveKind::PromoteQueen,
            5 => MoveKind::EnPassant,
            6 => MoveKind::Castle,
            _ => MoveKind::Normal,
        }
    }

    /// The piece promoted to, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.0 >> 12 {
            1 => Some(PieceKind::Knight),
            2 => Some(PieceKind::Bishop),
            3 => Some(PieceKind::Rook),
            4 => Some(PieceKind::Queen),
            _ => None,
        }
    }

    /// True for castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == MoveKind::Castle as u16
    }

    /// True for en passant.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == MoveKind::EnPassant as u16
    }

    /// For castling, the square the king ends on (g- or c-file); otherwise `to`.
    #[inline]
    pub const fn king_destination(self) -> Square {
        if self.is_castle() {
            let file = if self.to().file() > self.from().file() {
                6
            } else {
                2
            };
            Square::from_coords(file, self.from().rank())
        } else {
            self.to()
        }
    }

    /// UCI long algebraic text. Castling is `e1g1` (king to its destination) unless `chess960`,
    /// where it is king-takes-rook `e1h1`. The null move is `0000`.
    pub fn to_uci(self, chess960: bool) -> String {
        if self.is_null() {
            return "0000".to_string();
        }
        let to = if chess960 {
            self.to()
        } else {
            self.king_destination()
        };
        match self.promotion() {
            Some(p) => format!("{}{}{}", self.from(), to, p.char()),
            None => format!("{}{}", self.from(), to),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}, {:?})", self.to_uci(true), self.kind())
    }
}

impl fmt::Display for Move {
    /// Chess960-neutral form: castling is shown as king-takes-rook.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci(true))
    }
}

/// Why a UCI move text was refused by [`Position::parse_uci`](super::Position::parse_uci).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciMoveError {
    /// The text is not of the form `e2e4` / `e7e8q`.
    Syntax(String),
    /// The text is well formed but names no legal move in the position.
    Illegal(String),
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Syntax(t) => write!(
                f,
                "'{t}' is not a move in UCI notation (like e2e4 or e7e8q)"
            ),
            UciMoveError::Illegal(t) => write!(f, "{t} is not a legal move in this position"),
        }
    }
}

impl std::error::Error for UciMoveError {}

impl super::Position {
    /// The legal move written `text` in UCI notation. Castling is accepted both as the king's
    /// two-square move (`e1g1`) and as king-takes-rook (`e1h1`), whatever the mode.
    ///
    /// ```
    /// use ferrum::core::Position;
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    /// assert_eq!(pos.parse_uci("e1g1"), pos.parse_uci("e1h1"));
    /// assert!(pos.parse_uci("e1g1").unwrap().is_castle());
    /// assert!(pos.parse_uci("e1e3").is_err());
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciMoveError> {
        let b = text.as_bytes();
        let syntax = || UciMoveError::Syntax(text.to_string());
        if !(b.len() == 4 || b.len() == 5) || !text.is_ascii() {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promo = match b.get(4) {
            None => None,
            Some(&c) => match PieceKind::from_char(c as char) {
                Some(
                    k
                    @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
                ) => Some(k),
                _ => return Err(syntax()),
            },
        };
        let mut list = super::MoveList::new();
        self.legal_moves_from(from.bb(), &mut list);
        // An exact match first: in Chess960 a king step onto the castling destination (b1c1
        // with the rook on a1) is a normal move, not castling.
        let exact = list.iter().find(|m| m.promotion() == promo && m.to() == to);
        let castle = || {
            list.iter()
                .find(|m| m.is_castle() && m.king_destination() == to)
        };
        exact
            .or_else(castle)
            .copied()
            .ok_or_else(|| UciMoveError::Illegal(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_survive_packing() {
        for from in Square::ALL {
            for to in [Square::A1, Square::H8, Square::E4] {
                for kind in [
                    MoveKind::Normal,
                    MoveKind::PromoteRook,
                    MoveKind::EnPassant,
                    MoveKind::Castle,
                ] {
                    let m = Move::new(from, to, kind);
                    assert_eq!((m.from(), m.to(), m.kind()), (from, to, kind));
                    assert_eq!(Move::from_bits(m.to_bits()), m);
                }
            }
        }
    }

    #[test]
    fn castling_text_follows_the_mode() {
        let long = Move::new(Square::E8, Square::A8, MoveKind::Castle);
        assert_eq!(long.to_uci(false), "e8c8");
        assert_eq!(long.to_uci(true), "e8a8");
        assert_eq!(Move::NULL.to_uci(false), "0000");
        let under = Move::promotion_to(Square::B2, Square::A1, PieceKind::Knight);
        assert_eq!(under.to_uci(false), "b2a1n");
    }
}
