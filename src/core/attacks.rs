//! Attack tables: leapers precomputed, sliders by magic bitboards, and between/line tables.
//!
//! Every table is computed at compile time (`const`), so nothing is initialised at startup and
//! the hot lookups are plain array reads.

use super::bitboard::Bitboard;
use super::piece::{Color, PieceKind};
use super::square::Square;

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if on_board(nf, nr) {
                bits |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

const fn pawn_table() -> [[Bitboard; 64]; 2] {
    [
        leaper_table(&[(-1, 1), (1, 1)]),
        leaper_table(&[(-1, -1), (1, -1)]),
    ]
}

/// Slider attacks by walking rays: the slow reference the magic tables are built from.
const fn slide(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The relevant-occupancy mask: the rays without their last square.
const fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// One square's magic entry: index = ((occ & mask) * magic) >> shift, plus the table offset.
#[derive(Copy, Clone)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

const fn magic_entries(magics: &[u64; 64], dirs: &[(i8, i8); 4]) -> ([Magic; 64], usize) {
    let mut entries = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = 0;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        entries[sq] = Magic {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    (entries, offset)
}

const fn magic_table<const N: usize>(entries: &[Magic; 64], dirs: &[(i8, i8); 4]) -> [Bitboard; N] {
    let mut table = [Bitboard::EMPTY; N];
    let mut sq = 0;
    while sq < 64 {
        let e = entries[sq];
        // Enumerate every subset of the mask (Carry-Rippler).
        let mut subset = 0u64;
        loop {
            let idx = e.offset + (subset.wrapping_mul(e.magic) >> e.shift) as usize;
            table[idx] = Bitboard(slide(sq, subset, dirs));
            subset = subset.wrapping_sub(e.mask) & e.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

/// Magic multipliers, found once by a random search with a fixed seed. The test
/// `magic_lookups_match_ray_walking` checks every occupancy of every square against ray walking.
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

const ROOK_ENTRIES: ([Magic; 64], usize) = magic_entries(&ROOK_MAGICS, &ROOK_DIRS);
const BISHOP_ENTRIES: ([Magic; 64], usize) = magic_entries(&BISHOP_MAGICS, &BISHOP_DIRS);
const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;
const _: () = assert!(ROOK_ENTRIES.1 == ROOK_TABLE_SIZE && BISHOP_ENTRIES.1 == BISHOP_TABLE_SIZE);

static ROOK_MAGIC: [Magic; 64] = ROOK_ENTRIES.0;
static BISHOP_MAGIC: [Magic; 64] = BISHOP_ENTRIES.0;
static ROOK_TABLE: [Bitboard; ROOK_TABLE_SIZE] = magic_table(&ROOK_ENTRIES.0, &ROOK_DIRS);
static BISHOP_TABLE: [Bitboard; BISHOP_TABLE_SIZE] = magic_table(&BISHOP_ENTRIES.0, &BISHOP_DIRS);
static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = leaper_table(&KING_STEPS);
static PAWN: [[Bitboard; 64]; 2] = pawn_table();

const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bb = 1u64 << b;
            let dirs = [ROOK_DIRS, BISHOP_DIRS];
            let mut k = 0;
            while k < 2 {
                if slide(a, 0, &dirs[k]) & bb != 0 {
                    let ab = (1u64 << a) | bb;
                    between[a][b] =
                        Bitboard(slide(a, bb, &dirs[k]) & slide(b, 1u64 << a, &dirs[k]));
                    line[a][b] = Bitboard((slide(a, 0, &dirs[k]) & slide(b, 0, &dirs[k])) | ab);
                }
                k += 1;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

const LINE_TABLES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();
static BETWEEN: [[Bitboard; 64]; 64] = LINE_TABLES.0;
static LINE: [[Bitboard; 64]; 64] = LINE_TABLES.1;

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks (captures diagonally forward).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// Squares a rook on `sq` attacks given the occupied squares `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let m = &ROOK_MAGIC[sq.index()];
    ROOK_TABLE[m.offset + ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Squares a bishop on `sq` attacks given the occupied squares `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let m = &BISHOP_MAGIC[sq.index()];
    BISHOP_TABLE[m.offset + ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Squares a queen on `sq` attacks given the occupied squares `occ`.
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares a piece of `kind` (and `color`, for pawns) on `sq` attacks given `occ`.
#[inline]
pub fn attacks(kind: PieceKind, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(color, sq),
        PieceKind::Knight => knight_attacks(sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Queen => queen_attacks(sq, occ),
        PieceKind::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (edge to edge) through `a` and `b` when they share one; else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The magic tables must agree with ray walking for every square and every relevant occupancy.
    #[test]
    fn magic_lookups_match_ray_walking() {
        for sq in Square::ALL {
            for (dirs, lookup) in [
                (&ROOK_DIRS, rook_attacks as fn(Square, Bitboard) -> Bitboard),
                (&BISHOP_DIRS, bishop_attacks),
            ] {
                let mask = relevant_mask(sq.index(), dirs);
                let mut subset = 0u64;
                loop {
                    // Squares outside the mask must not change the answer.
                    let occ = subset | (!mask & 0x8142_2418_1824_4281);
                    assert_eq!(
                        lookup(sq, Bitboard(occ)).0,
                        slide(sq.index(), occ, dirs),
                        "{sq}"
                    );
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn leaper_counts() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::D4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(pawn_attacks(Color::White, Square::A2), Square::B3.bb());
        assert_eq!(
            pawn_attacks(Color::Black, Square::E5),
            Square::D4.bb() | Square::F4.bb()
        );
        assert_eq!(pawn_attacks(Color::White, Square::E8), Bitboard::EMPTY);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::D4),
            Square::B2.bb() | Square::C3.bb()
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E2), Bitboard::EMPTY);
        assert_eq!(line(Square::A1, Square::B2).count(), 8);
        assert_eq!(line(Square::E1, Square::E5), Bitboard::file(4));
        assert_eq!(line(Square::A1, Square::C2), Bitboard::EMPTY);
    }
}
