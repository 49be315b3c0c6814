//! 64-bit sets of squares.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::piece::Color;
use super::square::Square;

/// A set of squares, one bit per square (bit 0 = a1).
///
/// ```
/// use ferrum::core::{Bitboard, Square};
/// let bb = Square::E4.bb() | Square::D5.bb();
/// assert_eq!(bb.count(), 2);
/// assert_eq!(bb.iter().collect::<Vec<_>>(), vec![Square::E4, Square::D5]);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// The first rank.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// The second rank.
    pub const RANK_2: Bitboard = Bitboard(0xff00);
    /// The third rank.
    pub const RANK_3: Bitboard = Bitboard(0xff_0000);
    /// The sixth rank.
    pub const RANK_6: Bitboard = Bitboard(0x0000_ff00_0000_0000);
    /// The seventh rank.
    pub const RANK_7: Bitboard = Bitboard(0x00ff_0000_0000_0000);
    /// The eighth rank.
    pub const RANK_8: Bitboard = Bitboard(0xff00_0000_0000_0000);
    /// The light squares.
    pub const LIGHT: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The dark squares.
    pub const DARK: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    /// The file with index `file` (0 = a).
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Self::FILE_A.0 << (file & 7))
    }

    /// The rank with index `rank` (0 = first rank).
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(Self::RANK_1.0 << (8 * (rank & 7)))
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no square.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set holds at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True when the set holds two squares or more.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & (1u64 << sq.to_u8()) != 0
    }

    /// The lowest square of a non-empty set (a1 for an empty one).
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// The highest square of a non-empty set.
    #[inline(always)]
    pub const fn msb(self) -> Square {
        Square::new(63 - self.0.leading_zeros() as u8)
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(self.lsb())
        }
    }

    /// The squares one rank towards the opponent of `color` (north for White).
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// North (towards rank 8).
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// South (towards rank 1).
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// East (towards the h-file), dropping squares that would wrap.
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 1)
    }

    /// West (towards the a-file), dropping squares that would wrap.
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 1)
    }

    /// Iterate the squares from a1 upwards.
    #[inline(always)]
    pub const fn iter(self) -> BitIter {
        BitIter(self.0)
    }

    /// The set with the board mirrored top to bottom (a1 ↔ a8).
    #[inline]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

/// Iterator over the squares of a bitboard, lowest first.
#[derive(Clone)]
pub struct BitIter(u64);

impl Iterator for BitIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    #[inline(always)]
    fn into_iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |bb, sq| bb | sq.bb())
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = if self.has(Square::from_coords(file, rank)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_do_not_wrap_around_the_edges() {
        assert_eq!(Bitboard::FILE_H.east(), Bitboard::EMPTY);
        assert_eq!(Bitboard::FILE_A.west(), Bitboard::EMPTY);
        assert_eq!(Bitboard::FILE_A.east(), Bitboard::file(1));
        assert_eq!(Bitboard::RANK_8.north(), Bitboard::EMPTY);
        assert_eq!(Bitboard::RANK_1.forward(Color::White), Bitboard::RANK_2);
        assert_eq!(Bitboard::RANK_2.forward(Color::Black), Bitboard::RANK_1);
        assert_eq!(Bitboard::RANK_6, Bitboard::rank(5));
    }

    #[test]
    fn counting_and_iteration_agree() {
        let bb = Bitboard(0x8100_0000_0000_1881);
        assert_eq!(bb.count(), 6);
        assert_eq!(bb.iter().count(), 6);
        assert_eq!(bb.iter().collect::<Bitboard>(), bb);
        assert!(bb.more_than_one());
        assert!(!Square::C3.bb().more_than_one());
        assert_eq!(bb.lsb(), Square::A1);
        assert_eq!(bb.msb(), Square::H8);
        assert_eq!((Bitboard::LIGHT | Bitboard::DARK), Bitboard::FULL);
        assert!(Bitboard::DARK.has(Square::A1));
    }
}
