//! Rules API speed: `Game::play` + `Game::outcome` per move (from UCI and from SAN text), and
//! PGN import of a 1,000-game file made of random games (generated here, not stored).
//! Run with `cargo bench --bench rules`; criterion prints the throughput in moves/s and
//! games/s (elements/s).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ferrum::rules::{read_pgn, write_pgn, Game};

/// Deterministic xorshift64* so every run measures the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// `count` random games of at most `max_plies` plies (fewer when one ends by the rules).
fn random_games(count: usize, max_plies: usize, seed: u64) -> Vec<Game> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| {
            let mut g = Game::new();
            for _ in 0..max_plies {
                let moves = g.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                if g.play_move(m).is_err() {
                    break;
                }
            }
            g
        })
        .collect()
}

fn play_and_outcome(c: &mut Criterion) {
    let games = random_games(100, 160, 0x5eed);
    let uci: Vec<Vec<String>> = games
        .iter()
        .map(|g| g.history().iter().map(|m| m.to_uci(false)).collect())
        .collect();
    let san: Vec<Vec<String>> = games.iter().map(|g| g.san_history()).collect();
    let plies: u64 = uci.iter().map(|g| g.len() as u64).sum();
    eprintln!("play: {} games, {plies} plies", games.len());
    let mut group = c.benchmark_group("rules");
    group.throughput(Throughput::Elements(plies));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(5));
    for (name, texts) in [
        ("play(uci) + outcome per move", &uci),
        ("play(san) + outcome per move", &san),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                for moves in texts {
                    let mut g = Game::new();
                    for m in moves {
                        if g.play(black_box(m)).is_err() {
                            break;
                        }
                        black_box(g.outcome());
                    }
                }
            })
        });
    }
    group.finish();
}

fn pgn_import(c: &mut Criterion) {
    let games = random_games(1000, 160, 0xfeed);
    let text: String = games.iter().map(|g| write_pgn(g, &[])).collect();
    let plies: usize = games.iter().map(Game::ply).sum();
    eprintln!(
        "pgn: {} games, {plies} plies, {} bytes",
        games.len(),
        text.len()
    );
    let mut group = c.benchmark_group("pgn");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("import 1,000 random games", |b| {
        b.iter(|| {
            let read = read_pgn(black_box(&text));
            assert_eq!(read.len(), 1000);
            read.iter().filter(|r| r.is_ok()).count()
        })
    });
    group.finish();
}

criterion_group!(benches, play_and_outcome, pgn_import);
criterion_main!(benches);
