//! Behaviour of the whole search: mates, draws, limits, MultiPV, searchmoves, threads, stop.

use std::sync::{Arc, Mutex};

use super::*;

fn fen(f: &str) -> Position {
    Position::from_fen(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn search(job: &Job, threads: usize) -> SearchResult {
    let tt = TranspositionTable::with_mb(8).expect("8 MB");
    run(job, &tt, &Signals::new(), threads, &SilentReporter)
}

#[derive(Default)]
struct Collect(Mutex<Vec<Info>>);

impl Reporter for Collect {
    fn info(&self, info: &Info) {
        if let Ok(mut v) = self.0.lock() {
            v.push(info.clone());
        }
    }
}

#[test]
fn finds_mate_in_two_and_reports_it_as_mate() {
    // 1. Kf7 Kh7 2. Rh1#.
    let pos = fen("7k/8/5K2/8/8/8/8/6R1 w - - 0 1");
    let job = Job::new(pos.clone(), depth(6));
    let r = search(&job, 1);
    assert_eq!(Score::from_internal(r.score), Score::Mate(2), "{r:?}");
    let best = r.best.expect("a move");
    assert_eq!(best.to_uci(false), "f6f7");
}

#[test]
fn mated_and_stalemated_positions_have_no_best_move() {
    let mated = fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let r = search(&Job::new(mated, depth(3)), 1);
    assert_eq!(r.best, None);
    assert_eq!(r.score, -MATE);
    let stalemate = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let r = search(&Job::new(stalemate, depth(3)), 1);
    assert_eq!((r.best, r.score), (None, 0));
}

#[test]
fn avoids_stalemating_when_winning() {
    // Qf7 would stalemate; anything sensible keeps the win.
    let pos = fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    let r = search(&Job::new(pos.clone(), depth(6)), 1);
    let best = r.best.expect("a move");
    let mut after = pos.clone();
    after.make(best);
    assert!(
        after.in_check() || after.has_legal_moves(),
        "{best:?} stalemates"
    );
    assert!(r.score > 500);
}

#[test]
fn repetition_in_the_game_history_counts_as_a_draw() {
    // A rook up, but every position White can move to already occurred in the game (each two
    // plies before a position with White to move), so every line is a repetition: a draw.
    let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 90 60");
    let mut job = Job::new(pos.clone(), depth(1));
    let plain = search(&job, 1);
    assert!(plain.score > 300, "{plain:?}");
    let mut history = Vec::new();
    for m in pos.legal_moves().iter() {
        let mut p = pos.clone();
        p.make(*m);
        // An unrelated position keeps the side-to-move parity of the history.
        history.push(0);
        history.push(p.key());
    }
    job.history = history;
    let r = search(&job, 1);
    assert_eq!(r.score, 0, "{r:?}");
}

#[test]
fn insufficient_material_is_recognised() {
    use crate::core::insufficient_material;
    assert!(insufficient_material(&fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")));
    assert!(insufficient_material(&fen(
        "4k3/8/8/8/8/8/8/3NK3 w - - 0 1"
    )));
    // c1 and d6 are both dark squares; c6 is light.
    assert!(insufficient_material(&fen(
        "4k3/8/3b4/8/8/8/8/2B1K3 w - - 0 1"
    )));
    assert!(!insufficient_material(&fen(
        "4k3/8/2b5/8/8/8/8/2B1K3 w - - 0 1"
    )));
    assert!(!insufficient_material(&fen(
        "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1"
    )));
    assert!(!insufficient_material(&fen(
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"
    )));
}

#[test]
fn multipv_reports_distinct_lines_and_caps_at_the_move_count() {
    let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let legal = pos.legal_moves().len();
    let mut job = Job::new(pos, depth(4));
    job.multipv = 500;
    let tt = TranspositionTable::with_mb(8).expect("8 MB");
    let collect = Collect::default();
    run(&job, &tt, &Signals::new(), 1, &collect);
    let infos = collect.0.lock().expect("lock").clone();
    let last_depth: Vec<&PvInfo> = infos
        .iter()
        .filter_map(|i| match i {
            Info::Pv(p) if p.depth == 4 => Some(p),
            _ => None,
        })
        .collect();
    assert_eq!(last_depth.len(), legal);
    let mut firsts: Vec<Move> = last_depth.iter().map(|p| p.pv[0]).collect();
    firsts.sort_by_key(|m| m.to_bits());
    firsts.dedup();
    assert_eq!(
        firsts.len(),
        legal,
        "each line starts with a different move"
    );
    let scores: Vec<i32> = last_depth
        .iter()
        .map(|p| match p.score {
            Score::Cp(c) => c,
            Score::Mate(m) => MATE * m.signum() - m,
        })
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = Position::startpos();
    let only = pos.parse_uci("a2a3").expect("legal");
    let mut limits = depth(5);
    limits.searchmoves = vec![only];
    let r = search(&Job::new(pos, limits), 1);
    assert_eq!(r.best, Some(only));
}

#[test]
fn immediate_stop_still_gives_a_legal_move() {
    let pos = fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let job = Job::new(
        pos.clone(),
        Limits {
            infinite: true,
            ..Limits::default()
        },
    );
    let tt = TranspositionTable::with_mb(8).expect("8 MB");
    let signals = Signals::new();
    signals.stop();
    let r = run(&job, &tt, &signals, 2, &SilentReporter);
    assert!(r.best.is_some_and(|m| pos.is_legal(m)), "{r:?}");
}

#[test]
fn zero_clock_answers_at_once_with_a_legal_move() {
    let pos = Position::startpos();
    let job = Job::new(
        pos.clone(),
        Limits {
            wtime: Some(-100),
            btime: Some(1000),
            ..Limits::default()
        },
    );
    let start = std::time::Instant::now();
    let r = search(&job, 1);
    assert!(r.best.is_some_and(|m| pos.is_legal(m)));
    assert!(start.elapsed().as_millis() < 200, "{:?}", start.elapsed());
}

#[test]
fn node_limit_is_respected_roughly() {
    let job = Job::new(
        Position::startpos(),
        Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
    );
    let r = search(&job, 1);
    assert!(r.nodes >= 20_000 && r.nodes < 20_000 + 2_048, "{}", r.nodes);
}

#[test]
fn two_threads_agree_on_a_forced_win() {
    let pos = fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let r = search(&Job::new(pos.clone(), depth(6)), 2);
    assert_eq!(r.best.map(|m| m.to_uci(false)), Some("d1d8".to_string()));
    assert_eq!(Score::from_internal(r.score), Score::Mate(1));
}

#[test]
fn ponder_search_waits_for_ponderhit() {
    let job = Job::new(
        Position::startpos(),
        Limits {
            depth: Some(2),
            ponder: true,
            ..Limits::default()
        },
    );
    let tt = TranspositionTable::with_mb(8).expect("8 MB");
    let signals = Signals::new();
    signals.prepare(true);
    std::thread::scope(|s| {
        let h = s.spawn(|| run(&job, &tt, &signals, 1, &SilentReporter));
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(!h.is_finished(), "returned while still pondering");
        signals.ponderhit();
        let r = h.join().expect("search thread");
        assert!(r.best.is_some());
    });
}

#[test]
fn score_conversion_to_moves() {
    assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
    assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
    assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
    assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
    assert_eq!(Score::from_internal(57), Score::Cp(57));
}

#[test]
fn extreme_limits_neither_overflow_nor_hang() {
    let pos = fen("7k/8/5K2/8/8/8/8/6R1 w - - 0 1");
    for limits in [
        Limits {
            depth: Some(u32::MAX),
            mate: Some(u32::MAX),
            nodes: Some(5_000),
            ..Limits::default()
        },
        Limits {
            mate: Some(u32::MAX),
            ..Limits::default()
        },
        Limits {
            mate: Some(0),
            depth: Some(0),
            ..Limits::default()
        },
        Limits {
            movetime: Some(i64::MIN),
            ..Limits::default()
        },
        Limits {
            wtime: Some(i64::MAX),
            winc: Some(i64::MAX),
            movestogo: Some(0),
            nodes: Some(5_000),
            ..Limits::default()
        },
    ] {
        let r = search(&Job::new(pos.clone(), limits.clone()), 1);
        assert!(r.best.is_some_and(|m| pos.is_legal(m)), "{limits:?}");
    }
}

/// What a search said, in order: the first move of each multipv-1 line, then the answer.
#[derive(Default)]
struct Transcript(Mutex<Vec<(bool, Option<Move>)>>);

impl Reporter for Transcript {
    fn info(&self, info: &Info) {
        if let (Info::Pv(p), Ok(mut v)) = (info, self.0.lock()) {
            if p.multipv == 1 {
                v.push((false, p.pv.first().copied()));
            }
        }
    }
    fn best_move(&self, result: &SearchResult) {
        if let Ok(mut v) = self.0.lock() {
            v.push((true, result.best));
        }
    }
}

/// A small deterministic generator, so a failure names the stop times that caused it.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn the_last_pv_before_bestmove_starts_with_the_move_played_wherever_the_stop_falls() {
    let positions = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "1r4k1/5pp1/p3p2p/8/3Q4/1P2q3/P4PPP/5RK1 b - - 0 28",
    ];
    let mut engine = Engine::new(8, 1);
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut checked = 0;
    for round in 0..240 {
        if round == 120 {
            engine.set_threads(2).expect("threads");
        }
        let pos = fen(positions[round % positions.len()]);
        let said = Arc::new(Transcript::default());
        let job = Job::new(
            pos,
            Limits {
                infinite: true,
                ..Limits::default()
            },
        );
        engine
            .go(job, Arc::clone(&said) as Arc<dyn Reporter>)
            .expect("go");
        let wait_us = xorshift(&mut seed) % 60_000;
        std::thread::sleep(Duration::from_micros(wait_us));
        engine.stop();
        engine.wait();
        let said = said.0.lock().expect("lock").clone();
        let Some((true, best)) = said.last().copied() else {
            panic!("round {round}: no answer last: {said:?}");
        };
        // With no line reported at all (stopped inside the first iteration), nothing can
        // disagree.
        if let Some(&(_, pv)) = said.iter().rev().nth(1) {
            assert_eq!(pv, best, "round {round}, stop after {wait_us} µs: {said:?}");
            checked += 1;
        }
    }
    assert!(checked > 150, "only {checked} searches reported a line");
}

// ---- strength levels ----

/// Middlegame and endgame positions where moves differ in value.
const SKILL_FENS: [&str; 8] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 25",
    "1r4k1/5pp1/p3p2p/8/3Q4/1P2q3/P4PPP/5RK1 b - - 0 28",
    "3r1rk1/p4ppp/1p2p3/8/2P5/4B3/PP3PPP/3R1RK1 b - - 0 20",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn skill_job(pos: Position, elo: u32, seed: u64, limits: Limits) -> Job {
    Job {
        skill: Some(Skill::new(elo, seed)),
        ..Job::new(pos, limits)
    }
}

/// The first move of the last `multipv 1` line before the answer, and the answer.
fn last_pv_and_answer(said: &[(bool, Option<Move>)]) -> (Option<Move>, Option<Move>) {
    let answer = match said.last() {
        Some(&(true, best)) => best,
        _ => panic!("no answer last: {said:?}"),
    };
    let pv = said.iter().rev().nth(1).and_then(|&(_, m)| m);
    (pv, answer)
}

#[test]
fn a_weak_level_sometimes_plays_another_move_never_an_illegal_one() {
    let mut differs = 0;
    let mut total = 0;
    for f in SKILL_FENS {
        let pos = fen(f);
        let full = search(&Job::new(pos.clone(), depth(6)), 1).best;
        for seed in 0..3 {
            let job = skill_job(pos.clone(), 1000, seed, Limits::default());
            let tt = TranspositionTable::with_mb(8).expect("8 MB");
            let said = Transcript::default();
            let r = run(&job, &tt, &Signals::new(), 1, &said);
            let best = r.best.expect("a move");
            assert!(pos.is_legal(best), "{f}: {best:?}");
            said.best_move(&r);
            let said = said.0.lock().expect("lock").clone();
            assert_eq!(last_pv_and_answer(&said), (Some(best), Some(best)), "{f}");
            // The same seed plays the same move.
            assert_eq!(search(&job, 1).best, Some(best), "{f} seed {seed}");
            total += 1;
            differs += usize::from(Some(best) != full);
        }
    }
    assert!(differs > 0, "always the full-strength move");
    assert!(differs < total, "never the full-strength move");
}

/// Positions where the side to move mates in one.
const MATE_IN_ONE: [&str; 4] = [
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "7k/8/6K1/8/8/8/Q7/8 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",
];

#[test]
fn every_level_above_the_lowest_plays_a_mate_in_one() {
    for f in MATE_IN_ONE {
        let pos = fen(f);
        for elo in (Skill::MIN_ELO + 1..=Skill::MAX_ELO).step_by(300) {
            for seed in 0..4 {
                let r = search(&skill_job(pos.clone(), elo, seed, Limits::default()), 1);
                let best = r.best.expect("a move");
                let mut after = pos.clone();
                after.make(best);
                assert!(
                    after.in_check() && !after.has_legal_moves(),
                    "{f} at {elo}, seed {seed}: {best:?}"
                );
            }
        }
    }
}

#[test]
fn a_level_keeps_to_its_node_cap_and_plays_alone_whatever_the_threads() {
    let pos = fen(SKILL_FENS[1]);
    let job = skill_job(pos, 1900, 5, Limits::default());
    let cap = Skill::new(1900, 5).node_cap();
    let one = search(&job, 1);
    assert!(one.nodes <= cap + 64, "{} nodes, cap {cap}", one.nodes);
    let two = search(&job, 2);
    assert_eq!(
        (two.best, two.nodes),
        (one.best, one.nodes),
        "helpers stay idle"
    );
}

#[test]
fn a_level_waits_for_stop_in_an_infinite_search_and_answers_at_once_on_movetime() {
    let mut engine = Engine::new(8, 2);
    for (limits, stop_after_ms) in [
        (
            Limits {
                infinite: true,
                ..Limits::default()
            },
            Some(150),
        ),
        (
            Limits {
                movetime: Some(5_000),
                ..Limits::default()
            },
            None,
        ),
    ] {
        let pos = fen(SKILL_FENS[0]);
        let said = Arc::new(Transcript::default());
        let job = skill_job(pos.clone(), 1200, 9, limits.clone());
        let start = std::time::Instant::now();
        engine
            .go(job, Arc::clone(&said) as Arc<dyn Reporter>)
            .expect("go");
        if let Some(ms) = stop_after_ms {
            std::thread::sleep(Duration::from_millis(ms));
            let early = said.0.lock().expect("lock").iter().any(|e| e.0);
            assert!(!early, "answered before stop: {limits:?}");
            engine.stop();
        }
        engine.wait();
        // The node cap, not the 5 s of movetime, ends the search (a generous bound: a debug
        // build on a loaded machine took over 2 s once).
        assert!(start.elapsed() < Duration::from_millis(4_000), "{limits:?}");
        let said = said.0.lock().expect("lock").clone();
        let (pv, best) = last_pv_and_answer(&said);
        assert!(best.is_some_and(|m| pos.is_legal(m)), "{limits:?}");
        assert_eq!(pv, best, "{limits:?}: {said:?}");
    }
}

#[test]
fn a_node_limit_in_an_infinite_search_waits_for_stop() {
    let mut engine = Engine::new(8, 2);
    let pos = Position::startpos();
    let said = Arc::new(Transcript::default());
    let limits = Limits {
        infinite: true,
        nodes: Some(2_000),
        ..Limits::default()
    };
    let job = Job::new(pos.clone(), limits);
    engine
        .go(job, Arc::clone(&said) as Arc<dyn Reporter>)
        .expect("go");
    // 2,000 nodes take well under a millisecond; the answer must still wait for `stop`.
    std::thread::sleep(Duration::from_millis(200));
    let early = said.0.lock().expect("lock").iter().any(|e| e.0);
    assert!(!early, "answered before stop");
    engine.stop();
    engine.wait();
    let said = said.0.lock().expect("lock").clone();
    let (pv, best) = last_pv_and_answer(&said);
    assert!(best.is_some_and(|m| pos.is_legal(m)));
    assert_eq!(pv, best, "{said:?}");
}

#[test]
fn a_level_plays_with_the_hand_crafted_evaluation_whatever_the_network() {
    // A network that scores every position +400 for the side to move.
    let mut net = crate::eval::nnue::Network::zeroed();
    net.set_first_layer_bias(0, 255);
    net.set_output_weight(0, 64);
    let net = Some(Arc::new(net));
    let pos = Position::startpos();
    let full = search(
        &Job {
            net: net.clone(),
            ..Job::new(pos.clone(), depth(4))
        },
        1,
    );
    assert!(
        (300..=450).contains(&full.score.abs()),
        "the network decides at full strength: {}",
        full.score
    );
    let level = search(
        &Job {
            net,
            ..skill_job(pos, Skill::MAX_ELO, 1, depth(4))
        },
        1,
    );
    assert!(level.score.abs() < 100, "{}", level.score);
}
