//! Correction history: how far the static evaluation has been from what the search found, by
//! pawn structure. The network misjudges some pawn structures in a consistent direction
//! (a blocked centre, a passed pawn it under- or over-rates); nodes that share the pawns share
//! the error, so the average error seen at finished nodes corrects the next node's static
//! evaluation, and with it every pruning decision that reads it.

use crate::core::Position;

use super::params;

/// Entries per side, indexed by the low bits of the pawn key.
const SIZE: usize = 16_384;
/// Corrections are kept in 1/GRAIN of a centipawn, so small weights still move them.
const GRAIN: i32 = 256;
/// The weight of a new observation is `min(depth + 1, params::corr_max_weight())` /
/// WEIGHT_SCALE.
const WEIGHT_SCALE: i32 = 256;

/// The table of corrections, one per side to move and pawn-key slot.
pub struct CorrectionHistory {
    table: Box<[[i32; SIZE]; 2]>,
}

impl CorrectionHistory {
    /// An empty table (every correction zero).
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            table: Box::new([[0; SIZE]; 2]),
        }
    }

    /// Forgets every correction.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|side| side.fill(0));
    }

    #[inline]
    fn slot(pos: &Position) -> (usize, usize) {
        (
            pos.side_to_move().index(),
            (pos.pawn_key() as usize) & (SIZE - 1),
        )
    }

    /// The correction for `pos`, in centipawns from the side to move's view.
    #[inline]
    pub fn get(&self, pos: &Position) -> i32 {
        let (side, i) = Self::slot(pos);
        self.table[side][i] / GRAIN
    }

    /// A search of `depth` found `score` where the evaluation function said `raw_eval`: move
    /// the correction towards the difference, more for deeper searches. The difference is
    /// taken from the uncorrected evaluation, so a persistent error is learnt whole (an
    /// average of errors measured from the corrected evaluation would settle at half of it).
    pub fn update(&mut self, pos: &Position, depth: i32, raw_eval: i32, score: i32) {
        let (side, i) = Self::slot(pos);
        let max_cp = params::corr_max_cp();
        let diff = (score - raw_eval).clamp(-max_cp, max_cp) * GRAIN;
        let weight = (depth + 1).clamp(1, params::corr_max_weight());
        let e = &mut self.table[side][i];
        *e = ((*e * (WEIGHT_SCALE - weight) + diff * weight) / WEIGHT_SCALE)
            .clamp(-max_cp * GRAIN, max_cp * GRAIN);
    }
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_errors_of_their_pawn_structure_only() {
        let a = Position::startpos();
        let b = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
            .unwrap();
        let mut c = CorrectionHistory::new();
        assert_eq!(c.get(&a), 0);
        // The evaluation keeps saying 0 where searches find 40.
        for _ in 0..200 {
            c.update(&a, 10, 0, 40);
        }
        // The table learns the whole persistent error of 40 cp.
        assert!((38..=40).contains(&c.get(&a)), "{}", c.get(&a));
        assert_eq!(c.get(&b), 0, "another pawn structure is untouched");
        for _ in 0..400 {
            c.update(&a, 10, 0, -1_000);
        }
        // Each error is clamped to corr_max_cp, and the entry approaches it from inside.
        let max_cp = params::corr_max_cp();
        assert!(
            (-max_cp..=-max_cp + 1).contains(&c.get(&a)),
            "{}",
            c.get(&a)
        );
        c.clear();
        assert_eq!(c.get(&a), 0);
    }

    #[test]
    fn a_shallow_search_moves_the_correction_less_than_a_deep_one() {
        let a = Position::startpos();
        let mut shallow = CorrectionHistory::new();
        let mut deep = CorrectionHistory::new();
        shallow.update(&a, 1, 0, 50);
        deep.update(&a, 12, 0, 50);
        assert!(deep.table[0].iter().sum::<i32>() > shallow.table[0].iter().sum::<i32>());
        assert!(shallow.table[0].iter().sum::<i32>() > 0);
    }
}
