//! The 16-byte Polyglot entry and Polyglot's 16-bit move encoding.

use std::fmt;

use crate::core::{Move, MoveList, PieceKind, Position, Square};

/// A move as Polyglot writes it: bits 0-5 the destination square, bits 6-11 the origin (both
/// numbered a1 = 0 ... h8 = 63), bits 12-14 the promotion piece (0 none, 1 knight, 2 bishop,
/// 3 rook, 4 queen). Castling is written as the king taking its own rook (`e1h1`, `e1a1`,
/// `e8h8`, `e8a8` in standard chess), like Ferrum's own [`Move`].
///
/// ```
/// use ferrum::book::PolyglotMove;
/// use ferrum::core::Position;
/// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
/// let castle = pos.parse_uci("e1g1").unwrap();
/// let pm = PolyglotMove::from_move(castle);
/// assert_eq!(pm.to_string(), "e1h1");
/// assert_eq!(pm.bits(), 7 | 4 << 6);
/// assert_eq!(pm.to_move(&pos), Some(castle));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PolyglotMove(u16);

impl PolyglotMove {
    /// The move with these raw bits (anything is accepted; [`PolyglotMove::to_move`] checks).
    pub const fn from_bits(bits: u16) -> PolyglotMove {
        PolyglotMove(bits)
    }

    /// The raw 16 bits.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The Polyglot encoding of a Ferrum move.
    pub const fn from_move(m: Move) -> PolyglotMove {
        let promotion = match m.promotion() {
            Some(PieceKind::Knight) => 1,
            Some(PieceKind::Bishop) => 2,
            Some(PieceKind::Rook) => 3,
            Some(_) => 4,
            None => 0,
        };
        PolyglotMove(m.to().to_u8() as u16 | (m.from().to_u8() as u16) << 6 | promotion << 12)
    }

    /// Origin square.
    pub const fn from(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u8)
    }

    /// Destination square (the rook's square for castling).
    pub const fn to(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The promotion piece, `Ok(None)` for none, `Err(code)` for a code Polyglot does not
    /// define (5 to 7, or bit 15 set).
    pub const fn promotion(self) -> Result<Option<PieceKind>, u16> {
        match self.0 >> 12 {
            0 => Ok(None),
            1 => Ok(Some(PieceKind::Knight)),
            2 => Ok(Some(PieceKind::Bishop)),
            3 => Ok(Some(PieceKind::Rook)),
            4 => Ok(Some(PieceKind::Queen)),
            code => Err(code),
        }
    }

    /// The legal move of `pos` this entry means, or `None` (an undefined promotion code, or a
    /// move that is not legal there: a key collision or a corrupt book). Castling written the
    /// non-standard way, as the king's two-square step (`e1g1`), is accepted too.
    pub fn to_move(self, pos: &Position) -> Option<Move> {
        let promotion = self.promotion().ok()?;
        let (from, to) = (self.from(), self.to());
        let mut list = MoveList::new();
        pos.legal_moves_from(from.bb(), &mut list);
        let exact = list
            .iter()
            .find(|m| m.to() == to && m.promotion() == promotion);
        let castle = || {
            list.iter()
                .find(|m| promotion.is_none() && m.is_castle() && m.king_destination() == to)
        };
        exact.or_else(castle).copied()
    }
}

impl fmt::Display for PolyglotMove {
    /// The raw move as text: origin, destination and promotion letter (`e1h1`, `a7a8q`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        match self.promotion() {
            Ok(Some(p)) => write!(f, "{}", p.char()),
            Ok(None) => Ok(()),
            Err(code) => write!(f, "?{code}"),
        }
    }
}

impl fmt::Debug for PolyglotMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PolyglotMove({self})")
    }
}

/// One book entry: the position's key, a move, its weight (how often to play it relative to
/// the position's other moves) and the `learn` field (unused by Ferrum, kept as read).
///
/// On disk an entry is 16 bytes, big-endian: key (8), move (2), weight (2), learn (4).
///
/// ```
/// use ferrum::book::{Entry, PolyglotMove};
/// let e = Entry { key: 0x463B_9618_1691_FC9C, mv: PolyglotMove::from_bits(0x031C), weight: 7, learn: 0 };
/// let bytes = e.to_bytes();
/// assert_eq!(&bytes[..10], &[0x46, 0x3B, 0x96, 0x18, 0x16, 0x91, 0xFC, 0x9C, 0x03, 0x1C]);
/// assert_eq!(Entry::from_bytes(&bytes), e);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Entry {
    /// The Polyglot key of the position.
    pub key: u64,
    /// The move.
    pub mv: PolyglotMove,
    /// Relative weight; 0 means "known, never play".
    pub weight: u16,
    /// The learn field.
    pub learn: u32,
}

impl Entry {
    /// Bytes per entry on disk.
    pub const SIZE: usize = 16;

    /// The 16 bytes of this entry.
    pub fn to_bytes(&self) -> [u8; Entry::SIZE] {
        let mut b = [0u8; Entry::SIZE];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.mv.bits().to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    /// The entry stored in these 16 bytes.
    pub fn from_bytes(b: &[u8; Entry::SIZE]) -> Entry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3] = *b;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            mv: PolyglotMove::from_bits(u16::from_be_bytes([m0, m1])),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }
}
