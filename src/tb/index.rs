//! The Syzygy position index: how a placement of pieces becomes a number in a table.
//!
//! The format removes symmetry first (mirroring files, and for pawnless tables ranks and the
//! a1–h8 diagonal) so that the leading piece or pawn sits in a small region, then numbers the
//! leading group by a table of its own and every further group of like pieces by combinations
//! of the squares still free. The group order and sizes come from the table's header (see
//! [`super::table`]); this module holds the fixed numbering tables and the arithmetic.
//!
//! Squares are 0..64 from a1, as in [`crate::core::Square::index`].

use std::sync::LazyLock;

/// Most pieces of one kind a group can hold (7 pieces less the two kings).
const MAX_GROUP: usize = 5;
/// Index of the leading group of pawnless tables whose two kings are the only unique pieces.
pub(crate) const KK_PLACEMENTS: u64 = 462;
/// Index of the leading group of pawnless tables with a third unique piece.
pub(crate) const UNIQUE3_PLACEMENTS: u64 = 31332;
/// [`Maps::kk`] for two kings that cannot stand so (the index is never used by the format).
const NO_KK: u16 = u16::MAX;

/// The fixed numbering tables of the format, built once.
pub(crate) struct Maps {
    /// `binomial[k][n]`: ways to choose k of n squares.
    pub binomial: [[u64; 65]; MAX_GROUP + 2],
    /// Squares below the a1–h8 diagonal numbered 0..28.
    below_diagonal: [u8; 64],
    /// The a1–d1–d4 triangle numbered 0..10, its diagonal squares last.
    triangle: [u8; 64],
    /// `kk[triangle code][other king]`: the 462 placements of two kings.
    kk: [[u16; 64]; 10],
    /// Pawn squares a2..h7 numbered so that the higher number is the leading pawn: nearer the
    /// edge, then lower.
    pub pawn: [u8; 64],
    /// `lead_index[n][square]`: the first index of `n` leading pawns led from `square`.
    lead_index: [[u64; 64]; MAX_GROUP + 1],
    /// `lead_size[n][file]`: how many indices `n` leading pawns on file a..d use.
    pub lead_size: [[u64; 4]; MAX_GROUP + 1],
}

/// Rank minus file: 0 on the a1–h8 diagonal, negative below it.
pub(crate) fn off_diagonal(sq: u8) -> i32 {
    i32::from(sq >> 3) - i32::from(sq & 7)
}

/// The numbering tables (built at the first probe).
pub(crate) static MAPS: LazyLock<Maps> = LazyLock::new(Maps::build);

impl Maps {
    fn build() -> Maps {
        let mut m = Maps {
            binomial: [[0; 65]; MAX_GROUP + 2],
            below_diagonal: [0; 64],
            triangle: [0; 64],
            kk: [[NO_KK; 64]; 10],
            pawn: [0; 64],
            lead_index: [[0; 64]; MAX_GROUP + 1],
            lead_size: [[0; 4]; MAX_GROUP + 1],
        };
        for n in 0..65 {
            for k in 0..MAX_GROUP + 2 {
                m.binomial[k][n] = match (k, n) {
                    (0, _) => 1,
                    (_, 0) => 0,
                    _ => m.binomial[k - 1][n - 1] + m.binomial[k][n - 1],
                };
            }
        }
        let below: Vec<u8> = (0..64).filter(|&s| off_diagonal(s) < 0).collect();
        for (code, &s) in below.iter().enumerate() {
            m.below_diagonal[usize::from(s)] = code as u8;
        }
        // The triangle: its six squares below the diagonal first, then a1, b2, c3, d4.
        let in_triangle = |s: u8| s & 7 <= 3 && s >> 3 <= 3 && off_diagonal(s) <= 0;
        let strictly: Vec<u8> = (0..64)
            .filter(|&s| in_triangle(s) && off_diagonal(s) < 0)
            .collect();
        let diagonal: Vec<u8> = (0..64)
            .filter(|&s| in_triangle(s) && off_diagonal(s) == 0)
            .collect();
        for (code, &s) in strictly.iter().chain(&diagonal).enumerate() {
            m.triangle[usize::from(s)] = code as u8;
        }
        m.build_kk(strictly.iter().chain(&diagonal).copied().collect());
        m.build_pawns();
        m
    }

    /// Numbers the placements of two kings, the first in the triangle; with the first on the
    /// diagonal the second is not above it, and placements with both on the diagonal come last.
    fn build_kk(&mut self, triangle: Vec<u8>) {
        let mut code = 0u16;
        let mut both_on_diagonal = Vec::new();
        for (t, &k1) in triangle.iter().enumerate() {
            for k2 in 0..64u8 {
                let touching = (i32::from(k1 & 7) - i32::from(k2 & 7)).abs() <= 1
                    && (i32::from(k1 >> 3) - i32::from(k2 >> 3)).abs() <= 1;
                let (d1, d2) = (off_diagonal(k1), off_diagonal(k2));
                if touching || (d1 == 0 && d2 > 0) {
                    continue;
                }
                if d1 == 0 && d2 == 0 {
                    both_on_diagonal.push((t, k2));
                } else {
                    self.kk[t][usize::from(k2)] = code;
                    code += 1;
                }
            }
        }
        for (t, k2) in both_on_diagonal {
            self.kk[t][usize::from(k2)] = code;
            code += 1;
        }
        debug_assert_eq!(u64::from(code), KK_PLACEMENTS);
    }

    /// Numbers pawn squares (a2 47, h2 46, a3 45 … then the b and g files …) and the leading
    /// pawn groups per file.
    fn build_pawns(&mut self) {
        let mut available = 47u8;
        for file in 0..4u8 {
            for rank in 1..7u8 {
                let sq = rank * 8 + file;
                self.pawn[usize::from(sq)] = available;
                self.pawn[usize::from(sq ^ 7)] = available - 1;
                available = available.saturating_sub(2);
            }
        }
        for n in 1..=MAX_GROUP {
            for file in 0..4u8 {
                let mut index = 0;
                for rank in 1..7u8 {
                    let sq = usize::from(rank * 8 + file);
                    self.lead_index[n][sq] = index;
                    index += self.binomial[n - 1][usize::from(self.pawn[sq])];
                }
                self.lead_size[n][usize::from(file)] = index;
            }
        }
    }
}

/// The index of the leading group of a pawnless table. `squares` are already mirrored so that
/// the first lies in the a1–d1–d4 triangle and, on its diagonal, the first piece off the
/// diagonal lies below it; `unique` says whether the group is three unique pieces (else it is
/// the two kings). `None` for placements the format has no number for.
pub(crate) fn pawnless_lead(m: &Maps, squares: &[u8], unique: bool) -> Option<u64> {
    let t = |s: u8| u64::from(m.triangle[usize::from(s)]);
    if !unique {
        let (k1, k2) = (*squares.first()?, *squares.get(1)?);
        let code = m.kk.get(usize::from(m.triangle[usize::from(k1)]))?[usize::from(k2 & 63)];
        return (code != NO_KK).then_some(u64::from(code));
    }
    let [s0, s1, s2] = [*squares.first()?, *squares.get(1)?, *squares.get(2)?];
    let rank = |s: u8| u64::from(s >> 3);
    let below = |s: u8| u64::from(m.below_diagonal[usize::from(s)]);
    let adjust1 = u64::from(s1 > s0);
    let adjust2 = u64::from(s2 > s0) + u64::from(s2 > s1);
    let (d0, d1, d2) = (off_diagonal(s0), off_diagonal(s1), off_diagonal(s2));
    // The four cases are numbered one after the other: first piece off the diagonal; on it with
    // the second off; the first two on it; all three on it.
    const FIRST_OFF: u64 = 6 * 63 * 62;
    const SECOND_OFF: u64 = 4 * 28 * 62;
    const THIRD_OFF: u64 = 4 * 7 * 28;
    let index = if d0 != 0 {
        (t(s0) * 63 + u64::from(s1) - adjust1) * 62 + u64::from(s2) - adjust2
    } else if d1 != 0 {
        (6 * 63 + rank(s0) * 28 + below(s1)) * 62 + u64::from(s2) - adjust2
    } else if d2 != 0 {
        FIRST_OFF + SECOND_OFF + rank(s0) * 7 * 28 + (rank(s1) - adjust1) * 28 + below(s2)
    } else {
        FIRST_OFF
            + SECOND_OFF
            + THIRD_OFF
            + rank(s0) * 7 * 6
            + (rank(s1) - adjust1) * 6
            + (rank(s2) - adjust2)
    };
    Some(index)
}

/// The index of `n` leading pawns, `squares[0]` the leader (on files a..d) and the rest in any
/// order (they are sorted here).
pub(crate) fn pawn_lead(m: &Maps, squares: &mut [u8]) -> u64 {
    let n = squares.len().min(MAX_GROUP);
    let mut index = m.lead_index[n][usize::from(squares[0] & 63)];
    let rest = &mut squares[1..];
    rest.sort_by_key(|&s| m.pawn[usize::from(s & 63)]);
    for (i, &s) in rest.iter().enumerate() {
        index += m.binomial[i + 1][usize::from(m.pawn[usize::from(s & 63)])];
    }
    index
}

/// The index of a further group of like pieces on `group` (sorted here), given the squares of
/// every group before it. Pawns of the second colour leave out the first rank's eight squares.
pub(crate) fn group(m: &Maps, before: &[u8], group: &mut [u8], pawns: bool) -> Option<u64> {
    group.sort_unstable();
    let mut index = 0;
    for (i, &s) in group.iter().enumerate() {
        let lower = before.iter().filter(|&&b| b < s).count() as u64;
        let free = u64::from(s)
            .checked_sub(lower)?
            .checked_sub(if pawns { 8 } else { 0 })?;
        index += m.binomial.get(i + 1)?.get(usize::try_from(free).ok()?)?;
    }
    Some(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_have_the_sizes_of_the_format() {
        let m = &*MAPS;
        assert_eq!(m.binomial[2][62], 62 * 61 / 2);
        assert_eq!(m.binomial[0][0], 1);
        let kk: std::collections::HashSet<u16> =
            m.kk.iter()
                .flatten()
                .copied()
                .filter(|&c| c != NO_KK)
                .collect();
        assert_eq!(kk.len() as u64, KK_PLACEMENTS);
        assert_eq!(*kk.iter().max().expect("codes"), 461);
        // a2 leads, then h2; every pawn square has its own number 0..48.
        assert_eq!((m.pawn[8], m.pawn[15]), (47, 46));
        let mut pawns: Vec<u8> = (8..56).map(|s| m.pawn[s]).collect();
        pawns.sort_unstable();
        assert_eq!(pawns, (0..48).collect::<Vec<u8>>());
        // One leading pawn: six squares per file.
        assert_eq!(m.lead_size[1], [6, 6, 6, 6]);
    }

    #[test]
    fn three_unique_pieces_fill_their_range_exactly() {
        let m = &*MAPS;
        // The largest index: all three on the diagonal, as high as they go.
        let top = pawnless_lead(m, &[27, 63, 54], true).expect("numbered");
        assert_eq!(top, UNIQUE3_PLACEMENTS - 1);
        assert_eq!(pawnless_lead(m, &[1, 0, 2], true), Some(0));
    }
}
