//! Where each tunable weight sits in the flat weight vector [`W`](super::weights::W).
//!
//! The evaluation is a sum, per side, of weights times counts (`W[i] * n`): each term names the
//! weight it uses by an index from this file. That one fact serves three readers: the search
//! (which wants the sum), the UCI `eval` command (which wants the sum per term) and the tuner
//! (which wants the counts, the coefficient of each weight), so the tuner's linear model is the
//! evaluation itself, not a copy of it.

/// A block of consecutive weights that belong to one evaluation term.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The term's name, as `eval` prints it (several blocks may share one term).
    pub term: &'static str,
    /// The block's name in the weights file.
    pub name: &'static str,
    /// Index of the first weight.
    pub start: usize,
    /// Number of weights.
    pub len: usize,
}

/// Material per piece kind (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: usize = 0;
/// Piece-square tables: `PSQT + 64 * kind + square` (White's view; Black reads them mirrored).
pub const PSQT: usize = MATERIAL + 6;
/// Knight mobility by the number of safe squares (0..=8).
pub const MOB_KNIGHT: usize = PSQT + 6 * 64;
/// Bishop mobility by the number of safe squares (0..=13).
pub const MOB_BISHOP: usize = MOB_KNIGHT + 9;
/// Rook mobility by the number of safe squares (0..=14).
pub const MOB_ROOK: usize = MOB_BISHOP + 14;
/// Queen mobility by the number of safe squares (0..=27).
pub const MOB_QUEEN: usize = MOB_ROOK + 15;
/// Both bishops.
pub const BISHOP_PAIR: usize = MOB_QUEEN + 28;
/// Passed pawn by its rank from its own side (0..=7; 0 and 7 unused).
pub const PASSED: usize = BISHOP_PAIR + 1;
/// Each extra pawn on a file.
pub const DOUBLED: usize = PASSED + 8;
/// A pawn with no own pawn on the neighbouring files.
pub const ISOLATED: usize = DOUBLED + 1;
/// King shelter per file around a king at home: own pawn one ahead, two ahead, none.
pub const SHELTER: usize = ISOLATED + 1;
/// The number of weights.
pub const NUM_PARAMS: usize = SHELTER + 3;

/// Mobility table start per piece kind (pawn and king have none).
pub const MOBILITY: [usize; 6] = [
    usize::MAX,
    MOB_KNIGHT,
    MOB_BISHOP,
    MOB_ROOK,
    MOB_QUEEN,
    usize::MAX,
];

/// Every block, in order, covering `0..NUM_PARAMS` without gaps.
pub const GROUPS: &[Group] = &[
    Group {
        term: "material",
        name: "material",
        start: MATERIAL,
        len: 6,
    },
    Group {
        term: "psqt",
        name: "pawn psqt",
        start: PSQT,
        len: 64,
    },
    Group {
        term: "psqt",
        name: "knight psqt",
        start: PSQT + 64,
        len: 64,
    },
    Group {
        term: "psqt",
        name: "bishop psqt",
        start: PSQT + 128,
        len: 64,
    },
    Group {
        term: "psqt",
        name: "rook psqt",
        start: PSQT + 192,
        len: 64,
    },
    Group {
        term: "psqt",
        name: "queen psqt",
        start: PSQT + 256,
        len: 64,
    },
    Group {
        term: "psqt",
        name: "king psqt",
        start: PSQT + 320,
        len: 64,
    },
    Group {
        term: "mobility",
        name: "knight mobility",
        start: MOB_KNIGHT,
        len: 9,
    },
    Group {
        term: "mobility",
        name: "bishop mobility",
        start: MOB_BISHOP,
        len: 14,
    },
    Group {
        term: "mobility",
        name: "rook mobility",
        start: MOB_ROOK,
        len: 15,
    },
    Group {
        term: "mobility",
        name: "queen mobility",
        start: MOB_QUEEN,
        len: 28,
    },
    Group {
        term: "bishop pair",
        name: "bishop pair",
        start: BISHOP_PAIR,
        len: 1,
    },
    Group {
        term: "pawns",
        name: "passed pawn by rank",
        start: PASSED,
        len: 8,
    },
    Group {
        term: "pawns",
        name: "doubled pawn",
        start: DOUBLED,
        len: 1,
    },
    Group {
        term: "pawns",
        name: "isolated pawn",
        start: ISOLATED,
        len: 1,
    },
    Group {
        term: "king safety",
        name: "shelter (pawn 1 ahead, 2 ahead, none)",
        start: SHELTER,
        len: 3,
    },
];

/// The group holding weight `i`.
pub fn group_of(i: usize) -> Option<&'static Group> {
    GROUPS
        .iter()
        .find(|g| (g.start..g.start + g.len).contains(&i))
}

/// The distinct term names, in order of first appearance.
pub fn terms() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for g in GROUPS {
        if !out.contains(&g.term) {
            out.push(g.term);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_cover_the_vector_in_order() {
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(g.start, next, "{}", g.name);
            next += g.len;
        }
        assert_eq!(next, NUM_PARAMS);
    }
}
