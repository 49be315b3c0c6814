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
/// Pawn storm, per file on and beside the king's: the nearest enemy pawn in front of the king
/// on that file by its rank distance from the king (1..=7; 0: none).
pub const STORM: usize = SHELTER + 3;
/// Files on and beside the king's: no own pawn (semi-open), no pawn at all (open).
pub const KING_FILE: usize = STORM + 8;
/// Pieces attacking the enemy king zone, by their number (1..=7; 0 unused).
pub const KS_ATTACKERS: usize = KING_FILE + 2;
/// Squares of the enemy king zone attacked, per attacking piece kind.
pub const KS_ATTACKS: usize = KS_ATTACKERS + 8;
/// Squares from which a piece of this kind would give check and that the enemy does not
/// guard, per piece kind.
pub const KS_SAFE_CHECK: usize = KS_ATTACKS + 6;
/// Passed pawn whose path to promotion is empty, by rank.
pub const PASSED_FREE: usize = KS_SAFE_CHECK + 6;
/// Passed pawn, per rank: times the distance of its own king to the square in front of it.
pub const PASSED_OUR_KING: usize = PASSED_FREE + 8;
/// Passed pawn, per rank: times the distance of the enemy king to the square in front of it.
pub const PASSED_THEIR_KING: usize = PASSED_OUR_KING + 8;
/// A pawn that no own pawn can support and whose advance square an enemy pawn guards.
pub const BACKWARD: usize = PASSED_THEIR_KING + 8;
/// A pawn protected by an own pawn, by rank.
pub const SUPPORTED: usize = BACKWARD + 1;
/// A pawn with an own pawn beside it on the same rank, by rank.
pub const PHALANX: usize = SUPPORTED + 8;
/// Rook on a file without own pawns (semi-open), without any pawn (open).
pub const ROOK_FILE: usize = PHALANX + 8;
/// Rook on the seventh rank.
pub const ROOK_SEVENTH: usize = ROOK_FILE + 2;
/// Knight, bishop on an outpost: ranks 4 to 6, protected by an own pawn, out of reach of
/// enemy pawns.
pub const OUTPOST: usize = ROOK_SEVENTH + 1;
/// Enemy piece attacked by an own pawn, by the victim's kind.
pub const THREAT_PAWN: usize = OUTPOST + 2;
/// Enemy piece attacked by an own knight or bishop, by the victim's kind.
pub const THREAT_MINOR: usize = THREAT_PAWN + 6;
/// Enemy piece attacked by an own rook, by the victim's kind.
pub const THREAT_ROOK: usize = THREAT_MINOR + 6;
/// Enemy piece attacked and not defended, by its kind.
pub const HANGING: usize = THREAT_ROOK + 6;
/// The number of weights.
pub const NUM_PARAMS: usize = HANGING + 6;

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
    Group {
        term: "king safety",
        name: "pawn storm by distance",
        start: STORM,
        len: 8,
    },
    Group {
        term: "king safety",
        name: "king on semi-open, open file",
        start: KING_FILE,
        len: 2,
    },
    Group {
        term: "king attack",
        name: "king zone attackers by number",
        start: KS_ATTACKERS,
        len: 8,
    },
    Group {
        term: "king attack",
        name: "king zone squares attacked by kind",
        start: KS_ATTACKS,
        len: 6,
    },
    Group {
        term: "king attack",
        name: "safe checks by kind",
        start: KS_SAFE_CHECK,
        len: 6,
    },
    Group {
        term: "passers",
        name: "passed pawn with a free path by rank",
        start: PASSED_FREE,
        len: 8,
    },
    Group {
        term: "passers",
        name: "passed pawn: own king distance by rank",
        start: PASSED_OUR_KING,
        len: 8,
    },
    Group {
        term: "passers",
        name: "passed pawn: enemy king distance by rank",
        start: PASSED_THEIR_KING,
        len: 8,
    },
    Group {
        term: "pawns",
        name: "backward pawn",
        start: BACKWARD,
        len: 1,
    },
    Group {
        term: "pawns",
        name: "supported pawn by rank",
        start: SUPPORTED,
        len: 8,
    },
    Group {
        term: "pawns",
        name: "phalanx pawn by rank",
        start: PHALANX,
        len: 8,
    },
    Group {
        term: "rooks",
        name: "rook on semi-open, open file",
        start: ROOK_FILE,
        len: 2,
    },
    Group {
        term: "rooks",
        name: "rook on the seventh",
        start: ROOK_SEVENTH,
        len: 1,
    },
    Group {
        term: "outposts",
        name: "knight, bishop outpost",
        start: OUTPOST,
        len: 2,
    },
    Group {
        term: "threats",
        name: "attacked by a pawn, by victim",
        start: THREAT_PAWN,
        len: 6,
    },
    Group {
        term: "threats",
        name: "attacked by a minor, by victim",
        start: THREAT_MINOR,
        len: 6,
    },
    Group {
        term: "threats",
        name: "attacked by a rook, by victim",
        start: THREAT_ROOK,
        len: 6,
    },
    Group {
        term: "threats",
        name: "hanging, by kind",
        start: HANGING,
        len: 6,
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
