//! Syzygy tablebases end to end: opening paths good and bad, probes through the library, the
//! UCI options through the binary, and won and drawn endgames played out by the engine against
//! itself through the rules API.
//!
//! Two sets of tables: the five 3-piece tables shipped in `tests/data/syzygy` (always there),
//! and the 3- and 4-piece set in the directory named by the environment variable
//! `FERRUM_SYZYGY` (CI sets it to `../shared/syzygy`). Without the variable the 4-piece checks
//! are skipped with one line on stderr saying so; with it, the directory must hold the tables or
//! the tests fail, so a run with the variable set never passes by skipping.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ferrum::core::Position;
use ferrum::rules::{Game, Outcome};
use ferrum::search::{run, Job, Limits, Signals, SilentReporter, TbConfig, TranspositionTable};
use ferrum::tb::{Tablebases, TbError, Wdl};

/// The five 3-piece tables shipped with the tests.
fn shipped_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

/// The 3- and 4-piece set named by `FERRUM_SYZYGY` (relative to the crate), or `None` after one
/// line on stderr saying that `skipped` was skipped, when the variable is not set.
fn four_piece_dir(skipped: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("FERRUM_SYZYGY") else {
        // Written to the stream itself: `eprintln!` in a passing test is captured by the test
        // harness and never shown, and a skip must be seen.
        let _ = writeln!(
            std::io::stderr(),
            "syzygy: FERRUM_SYZYGY is not set; skipped the 4-piece checks: {skipped}"
        );
        return None;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    assert!(
        dir.join("KQvK.rtbw").is_file() && dir.join("KQvKR.rtbw").is_file(),
        "FERRUM_SYZYGY names {}, which holds no 3- and 4-piece Syzygy tables",
        dir.display()
    );
    Some(dir)
}

fn open(dir: &Path) -> Arc<Tablebases> {
    Arc::new(Tablebases::open(dir).expect("the tables open"))
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("a valid FEN")
}

/// What any set holding the 3-piece tables answers.
fn check_three_pieces(tb: &Tablebases) {
    let kqk = pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    assert_eq!(tb.probe_wdl(&kqk), Some(Wdl::Win));
    let root = tb.probe_root(&kqk).expect("in the tables");
    assert_eq!(root.dtz, 11);
    let best: Vec<String> = root.best_moves().iter().map(|m| m.to_uci(false)).collect();
    assert_eq!(best, ["b1e4"]);
    // Drawn (the king takes the queen), lost, mated, stalemated.
    assert_eq!(
        tb.probe_wdl(&pos("8/8/8/8/8/8/1Qk5/7K b - - 0 1")),
        Some(Wdl::Draw)
    );
    assert_eq!(
        tb.probe_wdl(&pos("8/8/8/8/8/2k5/8/KQ6 b - - 0 1")),
        Some(Wdl::Loss)
    );
    assert_eq!(
        tb.probe_dtz(&pos("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")),
        Some(-1)
    );
    assert_eq!(
        tb.probe_dtz(&pos("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")),
        Some(0)
    );
    // Not covered: five pieces, castling rights.
    assert_eq!(tb.probe_wdl(&pos("8/8/8/8/8/2k5/1r6/KQ5R w - - 0 1")), None);
    assert_eq!(tb.probe_wdl(&pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")), None);
}

#[test]
fn the_tables_answer_wdl_dtz_and_best_moves() {
    let shipped = open(&shipped_dir());
    let r = shipped.report();
    assert_eq!((r.wdl[3], r.wdl[4], r.dtz[3], r.dtz[4]), (5, 0, 5, 0));
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(shipped.max_pieces(), 3);
    check_three_pieces(&shipped);
    // Four pieces are beyond this set.
    assert_eq!(tb_wdl(&shipped, "8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1"), None);
    let Some(dir) = four_piece_dir("the full set's report and answers") else {
        return;
    };
    // Any number of sets may be open at once, and they do not disturb each other.
    let tb = open(&dir);
    let r = tb.report();
    assert_eq!(
        (r.wdl[3], r.wdl[4], r.dtz[3], r.dtz[4]),
        (5, 30, 5, 30),
        "{}",
        r.summary()
    );
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(tb.max_pieces(), 4);
    check_three_pieces(&tb);
    check_three_pieces(&shipped);
    assert_eq!(
        tb_wdl(&tb, "8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1"),
        Some(Wdl::Win)
    );
    let again = Tablebases::open(&dir).expect("a second copy opens");
    assert_eq!(again.report(), tb.report());
}

fn tb_wdl(tb: &Tablebases, fen: &str) -> Option<Wdl> {
    tb.probe_wdl(&pos(fen))
}

/// A directory with an empty file, a truncated table, a file with the wrong magic number and two
/// good tables.
fn damaged_dir() -> PathBuf {
    let src = shipped_dir();
    let dir = std::env::temp_dir().join(format!("ferrum-syzygy-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("KQvK.rtbw"), b"").expect("write");
    let krk = std::fs::read(src.join("KRvK.rtbw")).expect("read");
    std::fs::write(dir.join("KRvK.rtbw"), &krk[..krk.len() / 2]).expect("write");
    let mut foreign = std::fs::read(src.join("KBvK.rtbw")).expect("read");
    foreign[..4].copy_from_slice(b"JUNK");
    std::fs::write(dir.join("KBvK.rtbw"), &foreign).expect("write");
    for name in ["KNvK.rtbw", "KNvK.rtbz"] {
        std::fs::copy(src.join(name), dir.join(name)).expect("copy");
    }
    dir
}

#[test]
fn bad_paths_and_damaged_files_are_reported_and_never_probed() {
    match Tablebases::open("/no/such/dir") {
        Err(TbError::NoTables(r)) => assert_eq!(r.problems.len(), 1, "{:?}", r.problems),
        other => panic!("expected NoTables, got {other:?}"),
    }
    let dir = damaged_dir();
    let path = format!("{}{}/no/such/dir", dir.display(), ferrum::tb::SEPARATOR);
    let tb = Tablebases::open(&path).expect("the good tables still open");
    assert_eq!(tb.report().problems.len(), 4, "{:?}", tb.report().problems);
    assert_eq!((tb.report().wdl[3], tb.report().dtz[3]), (1, 1));
    assert_eq!(
        tb.probe_wdl(&pos("8/8/8/3k4/8/8/8/KN6 w - - 0 1")),
        Some(Wdl::Draw)
    );
    for fen in [
        "8/8/8/3k4/8/8/8/KQ6 w - - 0 1",  // empty file
        "8/8/8/3k4/8/8/8/KR6 w - - 0 1",  // truncated
        "8/8/8/3k4/8/8/8/KB6 w - - 0 1",  // wrong magic
        "8/8/8/3k4/8/8/1P6/K7 w - - 0 1", // promotes into the bad ones
    ] {
        assert_eq!(tb.probe_wdl(&pos(fen)), None, "{fen}");
        assert_eq!(tb.probe_root(&pos(fen)), None, "{fen}");
    }
    drop(tb);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the binary on `input` (one command per line) and returns its output; `go` lines are
/// followed by waiting for `bestmove`.
fn uci(input: &[&str]) -> Vec<String> {
    let mut child = common::spawn_uci();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut out = Vec::new();
    for cmd in input {
        writeln!(stdin, "{cmd}").expect("write");
        stdin.flush().expect("flush");
        let wait_for = if cmd.starts_with("go") {
            "bestmove"
        } else {
            "readyok"
        };
        if !cmd.starts_with("go") {
            writeln!(stdin, "isready").expect("write");
            stdin.flush().expect("flush");
        }
        for line in lines.by_ref() {
            let line = line.expect("read");
            let done = line.starts_with(wait_for);
            out.push(line);
            if done {
                break;
            }
        }
    }
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    assert!(child.wait().expect("exit").success());
    out
}

#[test]
fn uci_options_report_the_tables_and_searches_count_tbhits() {
    let Some(dir) = four_piece_dir("the UCI options' report and tbhits of a search") else {
        return;
    };
    let damaged = damaged_dir();
    let path = format!("setoption name SyzygyPath value {}", dir.display());
    let bad = format!("setoption name SyzygyPath value {}", damaged.display());
    let out = uci(&[
        "uci",
        "setoption name SyzygyPath value /no/such/dir",
        &bad,
        &path,
        "setoption name SyzygyProbeDepth value 0",
        "position fen 4k3/8/8/8/3n4/8/3PP3/4K3 b - - 0 1",
        "go depth 12",
    ]);
    let text = out.join("\n");
    for want in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "info string Syzygy: no usable tables in /no/such/dir; playing without tablebases",
        "info string Syzygy: found 1 WDL and 1 DTZ tables of up to 3 pieces",
        "info string Syzygy: found 35 WDL and 35 DTZ tables of up to 4 pieces",
        "SyzygyProbeDepth must be between 1 and 100",
    ] {
        assert!(text.contains(want), "missing '{want}' in:\n{text}");
    }
    assert_eq!(text.matches("truncated?").count(), 2, "{text}");
    let hits: u64 = out
        .iter()
        .filter_map(|l| l.split(" tbhits ").nth(1)?.split(' ').next()?.parse().ok())
        .max()
        .unwrap_or(0);
    assert!(
        hits > 0,
        "a five-piece search into four-piece endings probes:\n{text}"
    );
    assert!(out.last().is_some_and(|l| l.starts_with("bestmove ")));
    let _ = std::fs::remove_dir_all(&damaged);
}

/// Plays `fen` out, Ferrum against itself at a fixed node count per move with the tables, until
/// the game ends, a draw can be claimed, or `max_plies`.
fn play_out(tb: &Arc<Tablebases>, fen: &str, max_plies: usize) -> Game {
    let mut game = Game::from_fen(fen).expect("a valid FEN");
    let tt = TranspositionTable::with_mb(16).expect("table");
    let signals = Signals::new();
    let mut history: Vec<u64> = Vec::new();
    for _ in 0..max_plies {
        if game.outcome() != Outcome::Ongoing || !game.claimable_draws().is_empty() {
            break;
        }
        let pos = game.position().clone();
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let mut job = Job::new(pos.clone(), limits);
        job.history = history.clone();
        job.tb = TbConfig {
            tables: Some(Arc::clone(tb)),
            ..TbConfig::default()
        };
        signals.prepare(false);
        let best = run(&job, &tt, &signals, 1, &SilentReporter).best;
        game.play_move(best.expect("a legal move")).expect("legal");
        if game.position().halfmove_clock() == 0 {
            history.clear();
        } else {
            history.push(pos.key());
        }
    }
    game
}

#[test]
fn won_endgames_are_converted_within_the_fifty_move_rule() {
    let mut endings = vec![
        ("KQvK", "Q7/8/8/8/5k2/8/8/K7 w - - 0 1"),
        ("KRvK", "K7/8/8/8/8/4k3/8/5R2 w - - 0 1"),
        ("KPvK", "8/8/8/7k/8/8/2P4K/8 w - - 0 1"),
        ("KPvK, Black wins", "8/2p5/2k5/8/8/8/8/7K b - - 0 1"),
    ];
    let tb = match four_piece_dir("the won KBNvK and KQvKR endings") {
        Some(dir) => {
            endings.push(("KBNvK, DTZ 64", "N7/k7/8/8/8/8/8/K1B5 w - - 0 1"));
            endings.push(("KQvKR", "8/8/8/8/8/8/4rk2/1Q5K w - - 0 1"));
            open(&dir)
        }
        None => open(&shipped_dir()),
    };
    for (name, fen) in endings {
        assert!(
            matches!(tb.probe_wdl(&pos(fen)), Some(Wdl::Win)),
            "{name} is a win"
        );
        let game = play_out(&tb, fen, 300);
        let winner = pos(fen).side_to_move();
        eprintln!("{name}: {:?} after {} plies", game.outcome(), game.ply());
        assert_eq!(
            game.outcome(),
            Outcome::Checkmate { winner },
            "{name}: {} after {} plies, draw claims {:?}",
            game.fen(),
            game.ply(),
            game.claimable_draws()
        );
    }
}

#[test]
fn drawn_endgames_are_held() {
    let Some(dir) = four_piece_dir("the drawn KRvKB and KRvKN endings") else {
        return;
    };
    let tb = open(&dir);
    for (name, fen) in [
        ("KRvKB", "8/4R3/2k5/6K1/8/b7/8/8 w - - 0 1"),
        ("KRvKN", "8/4R2K/8/2n5/8/8/3k4/8 w - - 0 1"),
    ] {
        assert_eq!(tb.probe_wdl(&pos(fen)), Some(Wdl::Draw), "{name} is a draw");
        let game = play_out(&tb, fen, 160);
        eprintln!(
            "{name}: {:?}, draw claims {:?} after {} plies",
            game.outcome(),
            game.claimable_draws(),
            game.ply()
        );
        assert!(
            !matches!(game.outcome(), Outcome::Checkmate { .. }),
            "{name}: {} after {} plies",
            game.fen(),
            game.ply()
        );
        // Still a draw in the tables where the game stopped.
        let end = game.position();
        assert_ne!(
            tb.probe_wdl(end).map(|w| w.signed().abs()),
            Some(2),
            "{name}: the defence slipped: {}",
            game.fen()
        );
    }
}

/// Nodes and best move of a fixed-depth search of each bench position.
fn bench_like(tb: TbConfig) -> Vec<(u64, String)> {
    ferrum::search::BENCH_FENS
        .iter()
        .take(6)
        .map(|fen| {
            let mut job = Job::new(
                pos(fen),
                Limits {
                    depth: Some(7),
                    ..Limits::default()
                },
            );
            job.tb = tb.clone();
            let tt = TranspositionTable::with_mb(4).expect("table");
            let signals = Signals::new();
            signals.prepare(false);
            let r = run(&job, &tt, &signals, 1, &SilentReporter);
            (r.nodes, r.best.map(|m| m.to_uci(false)).unwrap_or_default())
        })
        .collect()
}

#[test]
fn tables_switched_off_change_nothing() {
    let off = bench_like(TbConfig::default());
    // The full set when there is one (this test needs no more than some tables).
    let dir = std::env::var_os("FERRUM_SYZYGY").map_or_else(shipped_dir, |_| {
        four_piece_dir("").expect("the variable is set")
    });
    let tables = Some(open(&dir));
    let limit_zero = bench_like(TbConfig {
        tables: tables.clone(),
        probe_limit: 0,
        ..TbConfig::default()
    });
    assert_eq!(
        off, limit_zero,
        "SyzygyProbeLimit 0 must search exactly as no tables"
    );
    // Positions out of the tables' reach (no capture gets them to four pieces in seven plies)
    // are searched exactly alike with the tables on.
    let on = bench_like(TbConfig {
        tables,
        ..TbConfig::default()
    });
    assert_eq!(
        off[..2],
        on[..2],
        "the opening positions never reach the tables"
    );
}

/// A directory holding copies of `names` from the shared tables.
fn dir_with(src: &Path, tag: &str, names: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrum-syzygy-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    for name in names {
        std::fs::copy(src.join(name), dir.join(name)).expect("copy");
    }
    dir
}

#[test]
fn wdl_only_and_incomplete_sets_answer_what_they_can() {
    let Some(src) = four_piece_dir("WDL-only and incomplete sets of KQvKR") else {
        return;
    };
    let kqkr = "8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1";
    // WDL files only: WDL answers, DTZ does not, and asking for DTZ loses nothing.
    let dir = dir_with(&src, "wdl-only", &["KQvK.rtbw", "KRvK.rtbw", "KQvKR.rtbw"]);
    let tb = open(&dir);
    assert_eq!(tb.probe_root(&pos(kqkr)), None);
    assert_eq!(tb.probe_wdl(&pos(kqkr)), Some(Wdl::Win));
    assert_eq!(
        tb.probe_wdl(&pos("8/8/8/3k4/8/8/8/K1Q5 w - - 0 1")),
        Some(Wdl::Win)
    );
    // Asking for a missing DTZ table leaves the material's WDL table answering.
    let lost = pos("8/8/8/3k4/8/8/1r6/K1Q5 b - - 0 1");
    assert_eq!(tb.probe_root(&lost), None);
    assert_eq!(tb.probe_wdl(&lost), Some(Wdl::Loss));
    // The search ranks the root by WDL and plays a winning move.
    let game = play_out(&tb, kqkr, 1);
    let after = game.position();
    assert_eq!(
        tb.probe_wdl(after).map(Wdl::signed),
        Some(-2),
        "{}",
        game.fen()
    );
    drop(tb);
    let _ = std::fs::remove_dir_all(&dir);
    // A table whose sub-tables are missing is not probed at all.
    let dir = dir_with(&src, "no-subtables", &["KQvKR.rtbw", "KQvKR.rtbz"]);
    let tb = open(&dir);
    assert_eq!(tb.probe_wdl(&pos(kqkr)), None);
    assert_eq!(tb.probe_root(&pos(kqkr)), None);
    drop(tb);
    let _ = std::fs::remove_dir_all(&dir);
}

// Data generation is behind the `tune` feature (the default build has it).
#[cfg(feature = "tune")]
#[test]
fn datagen_ends_games_with_the_tables_result_after_a_capture_or_pawn_move() {
    use ferrum::search::SearchMemory;
    use ferrum::tune::datagen::{play_game, tablebase_end, Config};
    use ferrum::tune::gamefile::{RecordResult, Termination};
    let Some(dir) = four_piece_dir("data generation's tablebase endings") else {
        return;
    };
    let tb = open(&dir);
    let cfg = Config {
        tablebases: Some(Arc::clone(&tb)),
        ..Config::default()
    };
    let at = |fen: &str| Game::from_fen(fen).expect("a valid FEN");
    // Won and lost for the side to move, drawn (KRvKB), and a win the fifty-move counter
    // leaves open.
    let kqkr_w = "8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1";
    let kqkr_b = "8/8/8/3k4/8/8/1r6/K1Q5 b - - 0 1";
    let krkb = "8/4R3/2k5/6K1/8/b7/8/8 w - - 0 1";
    let won = Some((RecordResult::WhiteWins, Termination::Tablebase));
    assert_eq!(tablebase_end(&at(kqkr_w), &cfg), won);
    assert_eq!(tablebase_end(&at(kqkr_b), &cfg), won);
    let drawn = Some((RecordResult::Draw, Termination::Tablebase));
    assert_eq!(tablebase_end(&at(krkb), &cfg), drawn);
    assert_eq!(
        tablebase_end(&at("8/8/8/3k4/8/8/1r6/K1Q5 w - - 7 40"), &cfg),
        None
    );
    // Beyond the tables, or without them, nothing is settled.
    let five = "4k3/8/8/8/8/8/3r3P/3QK3 w - - 0 1";
    assert_eq!(tablebase_end(&at(five), &cfg), None);
    assert_eq!(tablebase_end(&at(kqkr_w), &Config::default()), None);

    // A whole game: from five pieces White takes the rook (queen or king: the only good moves)
    // and the tables end the game there with White's win, one move in.
    let openings = [pos(five)];
    let quick = Config {
        book_plies_min: 0,
        book_plies_max: 0,
        max_start_score: 10_000,
        soft_nodes: 2_000,
        hard_nodes: 20_000,
        ..cfg
    };
    // Even seeds' first draw picks the opening file (see `datagen::opening`).
    let seed = (0..)
        .find(|&s| ferrum::tune::Rng::new(s).next_u64() % 2 == 0)
        .expect("some seed starts from the file");
    let tt = TranspositionTable::with_mb(1).expect("1 MB");
    let record = play_game(&openings, &quick, seed, &tt, &mut SearchMemory::new())
        .expect("the opening is kept");
    assert_eq!(record.termination, Termination::Tablebase);
    assert_eq!(record.result, RecordResult::WhiteWins);
    assert_eq!(record.moves.len(), 1, "{:?}", record.moves);
    let taken = record.moves[0].mv.to_string();
    assert!(["d1d2", "e1d2"].contains(&taken.as_str()), "{taken}");
}
