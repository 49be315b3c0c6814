//! Castling rights, with the rook each right belongs to so that standard chess and Chess960
//! share one code path.

use bitflags::bitflags;

use super::attacks::between;
use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::Square;

bitflags! {
    /// Which castling moves are still allowed (the rights, not whether the move is legal now).
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
    pub struct CastlingRights: u8 {
        /// White may castle on the king side (towards the h-file).
        const WHITE_KING = 1;
        /// White may castle on the queen side (towards the a-file).
        const WHITE_QUEEN = 2;
        /// Black may castle on the king side.
        const BLACK_KING = 4;
        /// Black may castle on the queen side.
        const BLACK_QUEEN = 8;
    }
}

/// One of the four castling moves.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CastleSide {
    /// Towards the h-file: king ends on g, rook on f.
    King,
    /// Towards the a-file: king ends on c, rook on d.
    Queen,
}

impl CastlingRights {
    /// The single right of `color` on `side`.
    #[inline(always)]
    pub const fn of(color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights::from_bits_truncate(1 << Castling::index(color, side))
    }

    /// Both rights of `color`.
    #[inline(always)]
    pub const fn color(color: Color) -> CastlingRights {
        CastlingRights::from_bits_truncate(3 << (2 * color as u8))
    }
}

/// Castling rights plus the fixed geometry of each right: where its rook stands, which squares
/// must be empty and which the king crosses. The geometry is set once per game (from the FEN) and
/// does not change; only `rights` does. Two values are equal when they hold the same rights
/// with the same rooks (the geometry of rights already lost does not matter).
#[derive(Clone, Debug)]
pub struct Castling {
    /// The rights still held.
    pub rights: CastlingRights,
    rook: [Square; 4],
    king: [Square; 2],
    empty: [Bitboard; 4],
    king_path: [Bitboard; 4],
    /// For each square, the rights that survive a move from or to it.
    keep: [u8; 64],
}

impl Default for Castling {
    fn default() -> Self {
        Castling {
            rights: CastlingRights::empty(),
            rook: [Square::H1, Square::A1, Square::H8, Square::A8],
            king: [Square::E1, Square::E8],
            empty: [Bitboard::EMPTY; 4],
            king_path: [Bitboard::EMPTY; 4],
            keep: [0x0f; 64],
        }
    }
}

impl PartialEq for Castling {
    fn eq(&self, other: &Castling) -> bool {
        let held = |c: &Castling, i: usize| c.rights.bits() & (1 << i) != 0;
        self.rights == other.rights
            && (0..4).all(|i| {
                !held(self, i)
                    || (self.rook[i] == other.rook[i] && self.king[i / 2] == other.king[i / 2])
            })
    }
}

impl Eq for Castling {}

impl Castling {
    /// 0..4: White king side, White queen side, Black king side, Black queen side.
    #[inline(always)]
    pub const fn index(color: Color, side: CastleSide) -> usize {
        color as usize * 2
            + match side {
                CastleSide::King => 0,
                CastleSide::Queen => 1,
            }
    }

    /// Adds the right of `color` on `side`, with its king on `king` and its rook on `rook`
    /// (both on the colour's back rank; the caller checks that).
    pub fn add(&mut self, color: Color, side: CastleSide, king: Square, rook: Square) {
        let i = Castling::index(color, side);
        let rank = color.back_rank();
        let (king_to, rook_to) = match side {
            CastleSide::King => (Square::from_coords(6, rank), Square::from_coords(5, rank)),
            CastleSide::Queen => (Square::from_coords(2, rank), Square::from_coords(3, rank)),
        };
        self.rights |= CastlingRights::from_bits_truncate(1 << i);
        self.rook[i] = rook;
        self.king[color.index()] = king;
        let king_span = between(king, king_to) | king_to.bb();
        let rook_span = between(rook, rook_to) | rook_to.bb();
        self.empty[i] = (king_span | rook_span) & !(king.bb() | rook.bb());
        self.king_path[i] = king_span;
        self.keep[king.index()] &= !CastlingRights::color(color).bits();
        self.keep[rook.index()] &= !(1 << i);
    }

    /// The rook square of right `i` (see [`Castling::index`]).
    #[inline(always)]
    pub fn rook_square(&self, i: usize) -> Square {
        self.rook[i]
    }

    /// The king's starting square for `color` (meaningful while it holds a right).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.king[color.index()]
    }

    /// Squares that must be empty (apart from the king and the rook) to castle with right `i`.
    #[inline(always)]
    pub fn empty_path(&self, i: usize) -> Bitboard {
        self.empty[i]
    }

    /// Squares the king crosses, including where it lands, for right `i`.
    #[inline(always)]
    pub fn king_path(&self, i: usize) -> Bitboard {
        self.king_path[i]
    }

    /// The rights left after a move touching `from` and `to`.
    #[inline(always)]
    pub fn after_move(&self, from: Square, to: Square) -> CastlingRights {
        CastlingRights::from_bits_truncate(
            self.rights.bits() & self.keep[from.index()] & self.keep[to.index()],
        )
    }

    /// The right (index) whose rook stands on `rook` for `color`, if any is held.
    pub fn right_with_rook(&self, color: Color, rook: Square) -> Option<usize> {
        (color.index() * 2..color.index() * 2 + 2)
            .find(|&i| self.rights.bits() & (1 << i) != 0 && self.rook[i] == rook)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_geometry() {
        let mut c = Castling::default();
        c.add(Color::White, CastleSide::Queen, Square::E1, Square::A1);
        let i = Castling::index(Color::White, CastleSide::Queen);
        assert_eq!(
            c.empty_path(i),
            Square::B1.bb() | Square::C1.bb() | Square::D1.bb()
        );
        assert_eq!(c.king_path(i), Square::C1.bb() | Square::D1.bb());
        assert!(c.after_move(Square::A1, Square::A2).is_empty());
        assert_eq!(
            c.after_move(Square::H1, Square::H2),
            CastlingRights::WHITE_QUEEN
        );
    }

    #[test]
    fn chess960_king_already_on_its_destination() {
        let mut c = Castling::default();
        c.add(Color::White, CastleSide::King, Square::G1, Square::H1);
        let i = Castling::index(Color::White, CastleSide::King);
        assert_eq!(c.empty_path(i), Square::F1.bb());
        assert_eq!(c.king_path(i), Square::G1.bb());
    }
}
