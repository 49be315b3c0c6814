//! Perft: counting the leaves of the legal move tree, the proof that move generation is exact.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::mv::Move;
use super::position::Position;

/// The number of leaf nodes of the legal move tree of `depth` plies (bulk counting: the last
/// ply is counted without being played).
///
/// ```
/// use ferrum::core::{perft, Position};
/// assert_eq!(perft(&mut Position::startpos(), 3), 8902);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut nodes = 0;
            for &m in pos.legal_moves().iter() {
                let undo = pos.make(m);
                nodes += perft(pos, depth - 1);
                pos.unmake(m, &undo);
            }
            nodes
        }
    }
}

/// Perft per root move (the "divide"), in generation order. With `threads` above 1 the root
/// moves are shared out over that many scoped threads, each taking the next move not yet
/// counted (so one deep subtree does not leave the other threads idle).
///
/// ```
/// use ferrum::core::{divide, Position};
/// let split = divide(&Position::startpos(), 2, 1);
/// assert_eq!(split.len(), 20);
/// assert!(split.iter().all(|&(_, n)| n == 20));
/// assert_eq!(divide(&Position::startpos(), 3, 2), divide(&Position::startpos(), 3, 1));
/// ```
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    let count = |m: Move| {
        let mut p = pos.clone();
        p.make(m);
        perft(&mut p, depth - 1)
    };
    let threads = threads.min(moves.len());
    if threads <= 1 {
        return moves.iter().map(|&m| (m, count(m))).collect();
    }
    // std's scoped threads instead of a thread pool: the library needs no dependency for this.
    let next = AtomicUsize::new(0);
    let mut counted: Vec<(usize, u64)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break mine };
                        mine.push((i, count(m)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    counted.sort_unstable_by_key(|&(i, _)| i);
    counted.into_iter().map(|(i, n)| (moves[i], n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kiwipete_and_position_3() {
        let mut kiwi = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(perft(&mut kiwi, 3), 97862);
        let mut p3 = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap();
        assert_eq!(perft(&mut p3, 5), 674624);
        let total: u64 = divide(&p3, 4, 2).iter().map(|&(_, n)| n).sum();
        assert_eq!(total, 43238);
    }
}
