//! Pawn structure: passed, doubled, isolated, backward, supported and phalanx pawns. It depends on the pawns alone, so the
//! result is cached by the position's pawn key.

use crate::core::{Bitboard, Color, PieceKind, Position, Square};

use super::params::{BACKWARD, DOUBLED, ISOLATED, PASSED, PHALANX, SUPPORTED};
use super::score::S;
use super::{Sink, SumSink};
use crate::core::attacks::pawn_attacks;

/// Entries in the pawn cache (a power of two).
const CACHE_SIZE: usize = 1 << 14;

/// A direct-mapped cache of pawn-structure scores, White minus Black, by pawn key.
#[derive(Clone, Debug)]
pub struct PawnCache {
    entries: Vec<(u64, S)>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            // Key 0 with score 0 is also the true value of "no pawns at all", so an empty slot
            // can never give a wrong answer.
            entries: vec![(0, S::ZERO); CACHE_SIZE],
        }
    }
}

impl PawnCache {
    /// The pawn-structure score of `pos` for White, from the cache when it is there.
    pub fn probe(&mut self, pos: &Position) -> S {
        let key = pos.pawn_key();
        let i = (key as usize) & (CACHE_SIZE - 1);
        if let Some(&(k, s)) = self.entries.get(i) {
            if k == key {
                return s;
            }
        }
        let mut sink = SumSink::default();
        structure(pos, Color::White, &mut sink);
        structure(pos, Color::Black, &mut sink);
        let s = sink.0[0] - sink.0[1];
        if let Some(e) = self.entries.get_mut(i) {
            *e = (key, s);
        }
        s
    }
}

pub(super) fn adjacent_files(file: u8) -> Bitboard {
    let f = Bitboard::file(file);
    f.east() | f.west()
}

/// Squares strictly in front of `sq` (from `color`'s side) on its file and the two beside it.
pub(super) fn front_span(sq: Square, color: Color) -> Bitboard {
    let files = Bitboard::file(sq.file()) | adjacent_files(sq.file());
    let r = sq.rank() as u32;
    let ahead = match color {
        Color::White if r < 7 => !0u64 << (8 * (r + 1)),
        Color::Black => (1u64 << (8 * r)) - 1,
        _ => 0,
    };
    files & Bitboard(ahead)
}

/// The pawn-structure terms of `color`'s pawns, written into `sink`.
pub fn structure<K: Sink>(pos: &Position, color: Color, sink: &mut K) {
    let ours = pos.pieces_of(color, PieceKind::Pawn);
    let theirs = pos.pieces_of(!color, PieceKind::Pawn);
    let forward: i8 = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    for sq in ours {
        let rel_rank = match color {
            Color::White => sq.rank(),
            Color::Black => 7 - sq.rank(),
        } as usize;
        if (front_span(sq, color) & theirs).is_empty() {
            sink.add(color, PASSED + rel_rank, 1);
        }
        let neighbours = adjacent_files(sq.file()) & ours;
        if neighbours.is_empty() {
            sink.add(color, ISOLATED, 1);
        } else if let Some(stop) = sq.offset(0, forward) {
            // Backward: every neighbour is ahead of it, and an enemy pawn guards its advance.
            let level_or_behind = neighbours & !front_span(sq, color);
            if level_or_behind.is_empty() && (pawn_attacks(color, stop) & theirs).any() {
                sink.add(color, BACKWARD, 1);
            }
        }
        if (pawn_attacks(!color, sq) & ours).any() {
            sink.add(color, SUPPORTED + rel_rank, 1);
        }
        if ((sq.bb().east() | sq.bb().west()) & ours).any() {
            sink.add(color, PHALANX + rel_rank, 1);
        }
    }
    for file in 0..8 {
        let n = (Bitboard::file(file) & ours).count() as i32;
        if n > 1 {
            sink.add(color, DOUBLED, n - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::weights::W;
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn structure_of(p: &Position, color: Color) -> S {
        let mut sink = SumSink::default();
        structure(p, color, &mut sink);
        sink.0[color.index()]
    }

    #[test]
    fn passed_doubled_isolated() {
        let w = |i: usize| W[i];
        // White: a passed pawn on d6; Black: nothing passed.
        let p = pos("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(structure_of(&p, Color::White), w(PASSED + 5) + w(ISOLATED));
        // A pawn facing one on an adjacent file ahead is not passed.
        let p = pos("4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1");
        assert_eq!(structure_of(&p, Color::White), w(ISOLATED));
        // Doubled and isolated: two pawns on c.
        let p = pos("4k3/8/8/8/2P5/2P5/8/4K3 w - - 0 1");
        assert_eq!(
            structure_of(&p, Color::White),
            w(PASSED + 3) + w(PASSED + 2) + w(ISOLATED) * 2 + w(DOUBLED)
        );
        // Black's pawns are seen from Black's side: a pawn on d3 is on its 6th rank.
        let p = pos("4k3/8/8/8/8/3p4/8/4K3 w - - 0 1");
        assert_eq!(structure_of(&p, Color::Black), w(PASSED + 5) + w(ISOLATED));
    }

    #[test]
    fn cache_returns_what_it_computed() {
        let mut cache = PawnCache::default();
        let p = pos("4k3/pp3ppp/8/3P4/8/8/PP3PPP/4K3 w - - 0 1");
        let direct = structure_of(&p, Color::White) - structure_of(&p, Color::Black);
        assert_eq!(cache.probe(&p), direct);
        assert_eq!(cache.probe(&p), direct);
        assert_eq!(cache.probe(&Position::startpos()), S::ZERO);
    }
}
