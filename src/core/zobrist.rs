//! Zobrist hashing keys, generated at compile time from a fixed seed.

use super::castling::CastlingRights;
use super::piece::Piece;
use super::square::Square;

/// The random keys a position's hash is the XOR of.
pub struct Keys {
    piece: [[u64; 64]; 12],
    castling: [u64; 16],
    en_passant: [u64; 8],
    side: u64,
}

/// SplitMix64: the next value of the sequence with state `state` (also the UCI loop's book RNG
/// and the tuners' generator).
pub(crate) const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    mix64(*state)
}

/// SplitMix64's finaliser: spreads every bit of `z` over all 64 (a hash of a counter or of a
/// weakly mixed value, e.g. which games are held out of training).
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn make_keys() -> Keys {
    let mut state = 0x4665_7272_756d_2121; // "Ferrum!!"
    let mut piece = [[0u64; 64]; 12];
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            piece[p][sq] = splitmix(&mut state);
            sq += 1;
        }
        p += 1;
    }
    // Each castling right gets a key; a set of rights hashes as the XOR of its members.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        single[i] = splitmix(&mut state);
        i += 1;
    }
    let mut castling = [0u64; 16];
    let mut set = 0;
    while set < 16 {
        let mut bit = 0;
        while bit < 4 {
            if set & (1 << bit) != 0 {
                castling[set] ^= single[bit];
            }
            bit += 1;
        }
        set += 1;
    }
    let mut en_passant = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        en_passant[f] = splitmix(&mut state);
        f += 1;
    }
    Keys {
        piece,
        castling,
        en_passant,
        side: splitmix(&mut state),
    }
}

static KEYS: Keys = make_keys();

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.piece[piece.index()][sq.index()]
}

/// Key of a set of castling rights.
#[inline(always)]
pub fn castling_key(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.bits() as usize & 15]
}

/// Key of an available en-passant capture on `file`.
#[inline(always)]
pub fn en_passant_key(file: u8) -> u64 {
    KEYS.en_passant[file as usize & 7]
}

/// Key XORed in when Black is to move.
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.side
}
