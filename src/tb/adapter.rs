//! Ferrum's attack tables, as the prober asks for them.

use pyrrhic_rs::EngineAdapter;

use crate::core::attacks;
use crate::core::{Bitboard, Color, Square};

/// Plugs [`crate::core::attacks`] into pyrrhic-rs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Adapter;

/// The prober passes squares 0..64; anything else would be its bug, answered with no attacks.
fn square(sq: u64) -> Option<Square> {
    Square::from_index(u8::try_from(sq).ok()?)
}

fn with(sq: u64, f: impl Fn(Square) -> Bitboard) -> u64 {
    square(sq).map_or(0, |s| f(s).0)
}

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let c = if color == pyrrhic_rs::Color::White {
            Color::White
        } else {
            Color::Black
        };
        with(sq, |s| attacks::pawn_attacks(c, s))
    }
    fn knight_attacks(sq: u64) -> u64 {
        with(sq, attacks::knight_attacks)
    }
    fn bishop_attacks(sq: u64, occ: u64) -> u64 {
        with(sq, |s| attacks::bishop_attacks(s, Bitboard(occ)))
    }
    fn rook_attacks(sq: u64, occ: u64) -> u64 {
        with(sq, |s| attacks::rook_attacks(s, Bitboard(occ)))
    }
    fn queen_attacks(sq: u64, occ: u64) -> u64 {
        with(sq, |s| attacks::queen_attacks(s, Bitboard(occ)))
    }
    fn king_attacks(sq: u64) -> u64 {
        with(sq, attacks::king_attacks)
    }
}
