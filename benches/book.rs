//! Opening-book cost: the Polyglot key of a position, a probe of the embedded book (key, binary
//! search, decoding the moves) for a position in the book and one out of it, and a weighted
//! choice. Run with `cargo bench --bench book`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ferrum::book::{Book, BookPosition, Choice};

fn positions() -> (BookPosition, BookPosition) {
    let mut inside = BookPosition::startpos();
    for m in [
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6",
    ] {
        if inside.play_uci(m).is_err() {
            panic!("{m} is legal");
        }
    }
    let outside = match BookPosition::from_fen(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ) {
        Ok(pos) => pos,
        Err(e) => panic!("{e}"),
    };
    (inside, outside)
}

fn book(c: &mut Criterion) {
    let book = Book::embedded();
    let (inside, outside) = positions();
    assert!(
        !book.probe(&inside).is_empty(),
        "the Sicilian is in the book"
    );
    assert!(book.probe(&outside).is_empty());
    let mut g = c.benchmark_group("book");
    g.bench_function("polyglot key", |b| b.iter(|| black_box(&inside).key()));
    g.bench_function("probe, position in book", |b| {
        b.iter(|| book.probe(black_box(&inside)))
    });
    g.bench_function("probe, position not in book", |b| {
        b.iter(|| book.probe(black_box(&outside)))
    });
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    g.bench_function("choose weighted", |b| {
        b.iter(|| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            book.choose(black_box(&inside), Choice::Weighted(seed))
        })
    });
    g.finish();
}

criterion_group!(benches, book);
criterion_main!(benches);
