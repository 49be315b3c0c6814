//! Perft: counting the leaves of the legal move tree, the proof that move generation is exact.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

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
    // `|| false` is folded away: this is the plain count, with no check at any node.
    perft_until(pos, depth, &|| false).unwrap_or_default()
}

/// [`perft`] that gives up (`None`) once `stop` returns true, for a count that can be
/// cancelled (UCI `go perft` and `stop`). `stop` is asked at every node three or more plies
/// from the leaves: under each lie at most a few thousand leaves, tens of microseconds of work.
///
/// ```
/// use ferrum::core::{perft_until, Position};
/// assert_eq!(perft_until(&mut Position::startpos(), 3, &|| false), Some(8902));
/// assert_eq!(perft_until(&mut Position::startpos(), 3, &|| true), None);
/// ```
pub fn perft_until(pos: &mut Position, depth: u32, stop: &impl Fn() -> bool) -> Option<u64> {
    match depth {
        0 => return Some(1),
        1 => return Some(pos.count_legal_moves() as u64),
        _ => {}
    }
    if depth >= 3 && stop() {
        return None;
    }
    let mut nodes = 0;
    for &m in pos.legal_moves().iter() {
        let undo = pos.make(m);
        let n = perft_until(pos, depth - 1, stop);
        pos.unmake(m, &undo);
        nodes += n?;
    }
    Some(nodes)
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
    divide_each(pos, depth, threads, |_, _| {})
}

/// [`divide`] that also hands each root move's count to `counted` the moment it is known, on
/// the calling thread, so a caller can print it then (a deep divide runs for minutes). With
/// one thread the calls come in generation order, with more in the order the counts finish;
/// the returned list is in generation order either way.
///
/// ```
/// use ferrum::core::{divide_each, Position};
/// let mut seen = Vec::new();
/// let split = divide_each(&Position::startpos(), 2, 1, |m, n| seen.push((m, n)));
/// assert_eq!(seen, split);
/// ```
pub fn divide_each(
    pos: &Position,
    depth: u32,
    threads: usize,
    mut counted: impl FnMut(Move, u64),
) -> Vec<(Move, u64)> {
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
        let each = |&m: &Move| {
            let n = count(m);
            counted(m, n);
            (m, n)
        };
        return moves.iter().map(each).collect();
    }
    // std's scoped threads instead of a thread pool: the library needs no dependency for this.
    // The workers send each count here, where `counted` runs (it need not be `Send`).
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut found: Vec<(usize, u64)> = std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            s.spawn(|| {
                let tx = tx;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&m) = moves.get(i) else { break };
                    // The receiver lives until every worker has ended: the send cannot fail.
                    let _ = tx.send((i, count(m)));
                }
            });
        }
        drop(tx);
        rx.iter().inspect(|&(i, n)| counted(moves[i], n)).collect()
    });
    found.sort_unstable_by_key(|&(i, _)| i);
    found.into_iter().map(|(i, n)| (moves[i], n)).collect()
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

    #[test]
    fn divide_each_reports_every_move_once_and_perft_until_stops() {
        let pos = Position::startpos();
        for threads in [1, 3] {
            let mut seen = Vec::new();
            let split = divide_each(&pos, 3, threads, |m, n| seen.push((m, n)));
            assert_eq!(split, divide(&pos, 3, 1));
            seen.sort_unstable_by_key(|&(m, _)| split.iter().position(|&(s, _)| s == m));
            assert_eq!(seen, split, "{threads} threads");
        }
        // Asked once at the root (depth 4 >= 3), it stops there; below depth 3 it is not asked.
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            true
        };
        assert_eq!(perft_until(&mut pos.clone(), 4, &stop), None);
        assert_eq!(asked.get(), 1);
        assert_eq!(perft_until(&mut pos.clone(), 2, &stop), Some(400));
        assert_eq!(asked.get(), 1);
    }
}
