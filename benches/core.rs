//! Core speed: legal move generation over a set of positions, make/unmake, and perft 5.
//! Run with `cargo bench --bench core`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ferrum::core::{perft, Position};

const POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .collect()
}

fn movegen(c: &mut Criterion) {
    let set = positions();
    let moves: u64 = set.iter().map(|p| p.legal_moves().len() as u64).sum();
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(moves));
    g.bench_function("legal_moves (6 positions)", |b| {
        b.iter(|| {
            set.iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    g.bench_function("count_legal_moves (6 positions)", |b| {
        b.iter(|| {
            set.iter()
                .map(|p| black_box(p).count_legal_moves())
                .sum::<usize>()
        })
    });
    g.finish();
}

fn make_unmake(c: &mut Criterion) {
    let mut set = positions();
    let lists: Vec<_> = set.iter().map(|p| p.legal_moves()).collect();
    let moves: u64 = lists.iter().map(|l| l.len() as u64).sum();
    let mut g = c.benchmark_group("make_unmake");
    g.throughput(Throughput::Elements(moves));
    g.bench_function("every legal move of 6 positions", |b| {
        b.iter(|| {
            for (pos, list) in set.iter_mut().zip(&lists) {
                for &m in list.iter() {
                    let undo = pos.make(m);
                    black_box(pos.key());
                    pos.unmake(m, &undo);
                }
            }
        })
    });
    g.finish();
}

fn perft5(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(20);
    g.throughput(Throughput::Elements(4_865_609));
    g.bench_function("startpos perft 5", |b| {
        let mut pos = Position::startpos();
        b.iter(|| assert_eq!(perft(&mut pos, 5), 4_865_609))
    });
    g.finish();
}

criterion_group!(benches, movegen, make_unmake, perft5);
criterion_main!(benches);
