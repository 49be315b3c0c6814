//! `bench`: a fixed set of positions searched to a fixed depth on one thread. The node count is
//! deterministic, so it identifies the search's behaviour (OpenBench compares it between builds).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::core::Position;
use crate::eval::nnue::Network;

use super::{run, Job, Limits, Signals, SilentReporter, TranspositionTable};

/// The default bench depth.
pub const BENCH_DEPTH: u32 = 11;

/// The bench positions: openings, middlegames with tactics, and endgames.
pub const BENCH_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 25",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/R4RK1 w - - 2 11",
    "6k1/5p1p/6p1/8/3R4/6P1/5P1P/6K1 w - - 0 40",
    "8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 0 47",
    "8/5pk1/6p1/7p/5P1P/6P1/4K3/8 w - - 0 50",
    "1r4k1/5pp1/p3p2p/8/3Q4/1P2q3/P4PPP/5RK1 b - - 0 28",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 w - - 0 13",
    "3r1rk1/p4ppp/1p2p3/8/2P5/4B3/PP3PPP/3R1RK1 b - - 0 20",
];

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Positions searched to the end: all of [`BENCH_FENS`] unless the run was cancelled.
    pub positions: usize,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Searches every bench position to `depth` with one thread, the embedded network and a 16 MB
/// table cleared between positions.
///
/// ```
/// use ferrum::search::{bench, BENCH_FENS};
/// let result = bench(2);
/// assert_eq!(result.positions, BENCH_FENS.len());
/// assert!(result.nodes > 0);
/// println!("{} nodes, {} nps", result.nodes, result.nps());
/// ```
pub fn bench(depth: u32) -> BenchResult {
    bench_with(depth, &Signals::new())
}

/// [`bench()`], ended early by [`Signals::cancel`] (within a few milliseconds: the search looks
/// at the signals every 1,024 nodes); `positions` then says how far it got.
pub fn bench_with(depth: u32, signals: &Signals) -> BenchResult {
    bench_with_net(depth, signals, crate::eval::nnue::embedded())
}

/// [`bench_with`] evaluating with `net` (`None`: the hand-crafted evaluation).
pub fn bench_with_net(depth: u32, signals: &Signals, net: Option<Arc<Network>>) -> BenchResult {
    let tt = match TranspositionTable::with_mb(16) {
        Ok(tt) => tt,
        Err(_) => TranspositionTable::empty(),
    };
    let start = Instant::now();
    let mut nodes = 0;
    let mut positions = 0;
    for fen in BENCH_FENS {
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        tt.clear();
        let mut job = Job::new(
            pos,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        );
        job.net = net.clone();
        signals.prepare_next();
        nodes += run(&job, &tt, signals, 1, &SilentReporter).nodes;
        if signals.cancelled() {
            break;
        }
        positions += 1;
    }
    BenchResult {
        nodes,
        elapsed: start.elapsed(),
        positions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_parse_and_node_count_is_deterministic() {
        for fen in BENCH_FENS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
        let a = bench(5);
        let b = bench(5);
        assert!(a.nodes > 1_000);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.positions, BENCH_FENS.len());
    }

    #[test]
    fn a_cancelled_bench_ends_within_the_position_it_was_in() {
        let signals = Signals::new();
        let started = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                signals.cancel();
            });
            let r = bench_with(40, &signals);
            assert_eq!(r.positions, 0, "depth 40 never finishes a position");
        });
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
