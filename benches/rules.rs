//! Rules API speed: `Game::play` + `Game::outcome` per move (from UCI and from SAN text), and
//! PGN import of a 1,000-game file made of random games (generated here, not stored), bare and
//! annotated (a clock and eval comment on every move, NAGs, variations), each read by the
//! current reader (on the visitor, keeping the notes or not, as the referee reads) and by
//! version 0.1.0's (`pgn_0_1.rs`, which skipped them) for comparison.
//! Run with `cargo bench --bench rules`; criterion prints the throughput in moves/s and
//! games/s (elements/s). `PGN_AB=1 cargo bench --bench rules` times the PGN readers in
//! alternation instead, which a busy machine measures more fairly.

use std::time::Duration;

use criterion::{black_box, criterion_group, Criterion, Throughput};
use ferrum::rules::{read_pgn, write_pgn, Game, PgnGame, PgnStream};
use ferrum::rules::{Notes, Variation, VariationMove};

mod pgn_0_1;

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

/// `game` with the notes a server's export has: a clock and eval comment after every move, a
/// NAG every 7th move and a two-move variation every 20th.
fn annotated(game: &Game) -> String {
    let sans = game.san_history();
    let mut pgn = PgnGame::new(game.clone());
    pgn.notes = (0..=sans.len())
        .map(|ply| {
            let mut notes = Notes::default();
            if ply == 0 {
                return notes;
            }
            let secs = 180 - ply.min(179);
            let eval = (ply as f64 * 0.37).sin() * 2.0;
            notes.comments.push(format!(
                "[%clk 0:{:02}:{:02}] [%eval {eval:.2}]",
                secs / 60,
                secs % 60
            ));
            if ply % 7 == 0 {
                notes.nags.push(1 + (ply % 6) as u8);
            }
            if ply % 20 == 0 {
                let line = sans[ply - 1..].iter().take(2);
                notes.variations.push(Variation {
                    intro: Notes::default(),
                    moves: line
                        .map(|san| VariationMove {
                            san: san.clone(),
                            notes: Notes::default(),
                        })
                        .collect(),
                });
            }
            notes
        })
        .collect();
    pgn.to_pgn()
}

fn pgn_import(c: &mut Criterion) {
    let games = random_games(1000, 160, 0xfeed);
    let bare: String = games.iter().map(|g| write_pgn(g, &[])).collect();
    let rich: String = games.iter().map(annotated).collect();
    let plies: usize = games.iter().map(Game::ply).sum();
    eprintln!(
        "pgn: {} games, {plies} plies, {} bytes bare, {} bytes annotated",
        games.len(),
        bare.len(),
        rich.len()
    );
    let mut group = c.benchmark_group("pgn");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for (name, text) in [("1,000 random games", &bare), ("annotated", &rich)] {
        group.bench_function(format!("import {name}, visitor"), |b| {
            b.iter(|| {
                let read = read_pgn(black_box(text));
                assert_eq!(read.len(), 1000);
                read.iter().filter(|r| r.is_ok()).count()
            })
        });
        group.bench_function(format!("import {name}, visitor without notes"), |b| {
            b.iter(|| {
                let read: Vec<_> = PgnStream::new(black_box(text.as_bytes()))
                    .without_notes()
                    .collect();
                assert_eq!(read.len(), 1000);
                read.iter().filter(|r| r.is_ok()).count()
            })
        });
        group.bench_function(format!("import {name}, 0.1.0 reader"), |b| {
            b.iter(|| {
                let read = pgn_0_1::read_pgn(black_box(text));
                assert_eq!(read.len(), 1000);
                read.iter().filter(|r| r.is_ok()).count()
            })
        });
    }
    group.finish();
}

/// The PGN readers side by side: 25 rounds, each timing the 0.1.0 reader, then the visitor
/// keeping notes, then without them, on both texts; prints the median time of each and the
/// median of the per-round speed ratios (neighbours in time, so a machine whose load drifts
/// still compares like with like). Run with `PGN_AB=1 cargo bench --bench rules`.
fn pgn_side_by_side() {
    let games = random_games(1000, 160, 0xfeed);
    let bare: String = games.iter().map(|g| write_pgn(g, &[])).collect();
    let rich: String = games.iter().map(annotated).collect();
    let time = |read: &dyn Fn() -> usize| {
        let start = std::time::Instant::now();
        assert_eq!(read(), 1000);
        start.elapsed().as_secs_f64()
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (name, text) in [("bare", &bare), ("annotated", &rich)] {
        let old = || pgn_0_1::read_pgn(text).iter().filter(|r| r.is_ok()).count();
        let notes = || read_pgn(text).iter().filter(|r| r.is_ok()).count();
        let moves = || {
            let stream = PgnStream::new(text.as_bytes()).without_notes();
            stream.filter(|r| r.is_ok()).count()
        };
        let mut rounds = Vec::new();
        for _ in 0..25 {
            rounds.push([time(&old), time(&notes), time(&moves)]);
        }
        let column = |i: usize| median(rounds.iter().map(|r| r[i] * 1e3).collect());
        let ratio = |i: usize| median(rounds.iter().map(|r| r[0] / r[i]).collect());
        println!(
            "{name}: 0.1.0 {:.1} ms, visitor with notes {:.1} ms ({:.2}x), without notes {:.1} ms ({:.2}x)",
            column(0),
            column(1),
            ratio(1),
            column(2),
            ratio(2)
        );
    }
}

criterion_group!(benches, play_and_outcome, pgn_import);

/// One PGN reader on one text in a loop, for a profiler: `PGN_PROF=<reader>-<text>` with
/// `<reader>` `old`, `notes` or `moves` and `<text>` `bare` or `annotated`, run for
/// `PGN_PROF_SECS` seconds (default 10).
fn pgn_profile(what: &str) {
    let games = random_games(1000, 160, 0xfeed);
    let text: String = if what.ends_with("annotated") {
        games.iter().map(annotated).collect()
    } else {
        games.iter().map(|g| write_pgn(g, &[])).collect()
    };
    let secs: f64 = std::env::var("PGN_PROF_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    let start = std::time::Instant::now();
    let mut rounds = 0;
    while start.elapsed().as_secs_f64() < secs {
        let ok = if what.starts_with("old") {
            pgn_0_1::read_pgn(&text)
                .iter()
                .filter(|r| r.is_ok())
                .count()
        } else if what.starts_with("notes") {
            read_pgn(&text).iter().filter(|r| r.is_ok()).count()
        } else {
            let stream = PgnStream::new(text.as_bytes()).without_notes();
            stream.filter(|r| r.is_ok()).count()
        };
        assert_eq!(ok, 1000);
        rounds += 1;
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / f64::from(rounds);
    println!("{what}: {rounds} rounds, {ms:.1} ms each");
}

fn main() {
    if let Ok(what) = std::env::var("PGN_PROF") {
        pgn_profile(&what);
        return;
    }
    if std::env::var_os("PGN_AB").is_some() {
        pgn_side_by_side();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
