//! Every number the evaluation uses, in one place, so that a tuner can rewrite this file alone.
//!
//! The piece-square tables are our own: each is built at compile time from a few plain ideas
//! (centralise knights, keep the king sheltered in the middlegame and active in the endgame,
//! push pawns as the board empties), not copied from another engine. Tables are written from
//! White's point of view, indexed by square (a1 = 0, h8 = 63); Black reads them mirrored.

use super::params::*;
use super::score::S;

/// Material per piece kind (pawn, knight, bishop, rook, queen, king).
const H_MATERIAL: [S; 6] = [
    S(82, 100),
    S(330, 305),
    S(345, 325),
    S(465, 540),
    S(1000, 980),
    S(0, 0),
];

/// How much each piece kind counts towards the game phase (0 = endgame .. 24 = all pieces on).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Bonus for keeping both bishops.
const H_BISHOP_PAIR: S = S(28, 52);

/// Value of each square a piece can go to (knight, bishop, rook, queen; pawn and king unused),
/// counted from [`MOBILITY_TYPICAL`] so the material values keep their meaning.
const H_MOBILITY: [S; 6] = [S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)];

/// A typical number of safe squares per piece kind, the zero point of [`MOBILITY`].
const H_MOBILITY_TYPICAL: [i32; 6] = [0, 4, 6, 6, 12, 0];

/// Bonus for a passed pawn by rank from its own side (rank 2 = index 1 .. rank 7 = index 6),
/// on top of the piece-square value.
const H_PASSED_PAWN: [S; 8] = [
    S(0, 0),
    S(0, 5),
    S(0, 8),
    S(5, 18),
    S(12, 32),
    S(25, 55),
    S(40, 90),
    S(0, 0),
];

/// Penalty per extra pawn on a file.
const H_DOUBLED_PAWN: S = S(-10, -20);

/// Penalty for a pawn with no friendly pawn on either neighbouring file.
const H_ISOLATED_PAWN: S = S(-10, -12);

/// King shelter, per file on and beside the king's (king on its first two ranks): a pawn of its
/// own one square ahead, two squares ahead, or none ahead at all.
const H_SHELTER: [S; 3] = [S(12, 0), S(6, 0), S(-12, 0)];

/// Bonus for the side to move: a move in hand is worth something in quiet positions.
pub const TEMPO: i32 = 14;

/// When the stronger side has no pawns and leads by at most this much material (in endgame
/// centipawns), it can rarely win: its score is divided by [`DRAWISH_DIVISOR`].
pub const DRAWISH_MARGIN: i32 = 400;

/// See [`DRAWISH_MARGIN`].
pub const DRAWISH_DIVISOR: i32 = 4;

/// Endgames with only pawns and one bishop each, on opposite colours: the score is scaled
/// to this many 64ths.
pub const OPPOSITE_BISHOPS_SCALE: i32 = 32;

/// Against a bare king (known wins): bonus per step of the lone king from the centre.
pub const MOP_UP_EDGE: i32 = 12;

/// Against a bare king: bonus per step the attacking king is closer than 7.
pub const MOP_UP_CLOSE: i32 = 6;

/// Distance (0..=3) of a square from the four centre squares, measured like a king walks.
const fn ring(sq: usize) -> i32 {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    let df = if file < 4 { 3 - file } else { file - 4 };
    let dr = if rank < 4 { 3 - rank } else { rank - 4 };
    if df > dr {
        df
    } else {
        dr
    }
}

const fn file_of(sq: usize) -> i32 {
    (sq % 8) as i32
}

const fn rank_of(sq: usize) -> i32 {
    (sq / 8) as i32
}

const fn pawn_sq(sq: usize) -> S {
    let rank = rank_of(sq);
    let file = file_of(sq);
    if rank == 0 || rank == 7 {
        return S(0, 0);
    }
    // Advancing is worth more as the pieces come off; in the middlegame the central pawns
    // matter most, and leaving d2/e2 at home blocks the bishops.
    let advance_mg = [0, 0, 2, 5, 10, 20, 45, 0][rank as usize];
    let advance_eg = [0, 0, 4, 10, 22, 45, 85, 0][rank as usize];
    let central = file == 3 || file == 4;
    let near_central = file == 2 || file == 5;
    let mut mg = advance_mg;
    if central {
        mg += match rank {
            1 => -12,
            2 => 4,
            3 => 16,
            4 => 20,
            _ => 8,
        };
    } else if near_central {
        mg += match rank {
            2 => 4,
            3 => 8,
            _ => 0,
        };
    } else if rank >= 3 {
        // Flank pawns pushed early weaken the king's cover more than they gain space.
        mg -= 4;
    }
    S(mg, advance_eg)
}

const fn knight_sq(sq: usize) -> S {
    let r = ring(sq);
    let rank = rank_of(sq);
    let mut mg = [18, 10, -6, -32][r as usize];
    let eg = [14, 8, -6, -26][r as usize];
    // Outposts deep in the enemy camp are strong; the back rank is where knights start.
    if rank == 4 || rank == 5 {
        mg += 6;
    }
    if rank == 0 {
        mg -= 8;
    }
    S(mg, eg)
}

const fn bishop_sq(sq: usize) -> S {
    let r = ring(sq);
    let file = file_of(sq);
    let rank = rank_of(sq);
    let mut mg = [10, 8, 2, -8][r as usize];
    let eg = [8, 5, 0, -8][r as usize];
    // The long diagonals.
    if file == rank || file + rank == 7 {
        mg += 6;
    }
    if rank == 0 {
        mg -= 6;
    }
    S(mg, eg)
}

const fn rook_sq(sq: usize) -> S {
    let file = file_of(sq);
    let rank = rank_of(sq);
    let mut mg = 0;
    let mut eg = 0;
    if rank == 6 {
        mg += 18;
        eg += 12;
    }
    if file == 3 || file == 4 {
        mg += 6;
    } else if file == 0 || file == 7 {
        mg -= 4;
    }
    S(mg, eg)
}

const fn queen_sq(sq: usize) -> S {
    let r = ring(sq);
    let rank = rank_of(sq);
    let mut mg = [4, 4, 0, -6][r as usize];
    let eg = [12, 8, 0, -12][r as usize];
    if rank == 0 {
        mg += 2;
    }
    S(mg, eg)
}

const fn king_sq(sq: usize) -> S {
    let r = ring(sq);
    let file = file_of(sq);
    let rank = rank_of(sq);
    // Middlegame: tucked away behind the pawns, on the wings; every step up the board is a risk.
    let wing = [22, 30, 12, -8, -8, 6, 30, 22][file as usize];
    let mg = match rank {
        0 => wing,
        1 => wing / 2 - 12,
        _ => -24 - 14 * (rank - 2),
    };
    // Endgame: the king is a fighting piece and belongs in the centre.
    let eg = [36, 22, 4, -22][r as usize];
    S(mg, eg)
}

macro_rules! table {
    ($f:ident) => {{
        let mut t = [S(0, 0); 64];
        let mut sq = 0;
        while sq < 64 {
            t[sq] = $f(sq);
            sq += 1;
        }
        t
    }};
}

/// Piece-square tables by piece kind, White's point of view, material not included.
const H_PSQT: [[S; 64]; 6] = [
    table!(pawn_sq),
    table!(knight_sq),
    table!(bishop_sq),
    table!(rook_sq),
    table!(queen_sq),
    table!(king_sq),
];

/// Every tunable weight, laid out as [`super::params`] says.
pub const W: [S; NUM_PARAMS] = build();

const fn build() -> [S; NUM_PARAMS] {
    let mut w = [S(0, 0); NUM_PARAMS];
    let mut k = 0;
    while k < 6 {
        w[MATERIAL + k] = H_MATERIAL[k];
        let mut sq = 0;
        while sq < 64 {
            w[PSQT + 64 * k + sq] = H_PSQT[k][sq];
            sq += 1;
        }
        k += 1;
    }
    let max = [0, 8, 13, 14, 27, 0];
    let mut k = 1;
    while k < 5 {
        let start = MOBILITY[k];
        let mut n = 0;
        while n <= max[k] {
            let m = H_MOBILITY[k];
            let d = n as i32 - H_MOBILITY_TYPICAL[k];
            w[start + n] = S(m.0 * d, m.1 * d);
            n += 1;
        }
        k += 1;
    }
    w[BISHOP_PAIR] = H_BISHOP_PAIR;
    let mut r = 0;
    while r < 8 {
        w[PASSED + r] = H_PASSED_PAWN[r];
        r += 1;
    }
    w[DOUBLED] = H_DOUBLED_PAWN;
    w[ISOLATED] = H_ISOLATED_PAWN;
    w[SHELTER] = H_SHELTER[0];
    w[SHELTER + 1] = H_SHELTER[1];
    w[SHELTER + 2] = H_SHELTER[2];
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_the_intended_shape() {
        let kn = &H_PSQT[1];
        assert!(kn[27].mg() > kn[0].mg(), "a knight on d4 beats one on a1");
        let king = &H_PSQT[5];
        assert!(
            king[6].mg() > king[27].mg(),
            "castled king beats a central one in the middlegame"
        );
        assert!(
            king[27].eg() > king[6].eg(),
            "and loses to it in the endgame"
        );
        let pawn = &H_PSQT[0];
        assert!(
            pawn[48].eg() > pawn[16].eg(),
            "a 7th-rank pawn is worth more late"
        );
        assert_eq!(pawn[0], S(0, 0));
    }
}
