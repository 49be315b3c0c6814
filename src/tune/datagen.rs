//! Self-play data generation: games at a fixed number of nodes per move from opening
//! positions, each position kept only when it is quiet, labelled with the game's result.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::core::{Color, Move, Position};
use crate::rules::{Game, Outcome};
use crate::search::{
    run, see_ge, Job, Limits, Signals, SilentReporter, TranspositionTable, MATE_BOUND,
};

use super::Rng;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Config {
    /// Nodes per move.
    pub nodes: u64,
    /// Random moves played after the opening position (each game differs even from the same
    /// opening).
    pub random_plies: usize,
    /// A game whose first searched score is further than this from 0 is dropped (the random
    /// moves unbalanced it).
    pub max_start_score: i32,
    /// Adjudicated as won once the score stays at least this high for [`Config::win_plies`].
    pub win_score: i32,
    /// See [`Config::win_score`].
    pub win_plies: usize,
    /// Adjudicated as drawn from this ply on once the score stays within
    /// [`Config::draw_score`] for [`Config::draw_plies`].
    pub draw_from_ply: usize,
    /// See [`Config::draw_from_ply`].
    pub draw_score: i32,
    /// See [`Config::draw_from_ply`].
    pub draw_plies: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// Hash table per game, in MB.
    pub hash_mb: usize,
    /// The seed; game `i` uses `seed + i`, so two runs repeat each other's games unless their
    /// seeds are at least the number of games apart.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            nodes: 5_000,
            random_plies: 4,
            max_start_score: 200,
            win_score: 1_000,
            win_plies: 8,
            draw_from_ply: 80,
            draw_score: 8,
            draw_plies: 16,
            max_plies: 400,
            hash_mb: 4,
            seed: 1,
        }
    }
}

/// One finished game: its quiet positions (FEN, score for White) and its result for White.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The kept positions and their search scores from White's view.
    pub positions: Vec<(String, i32)>,
    /// 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f64,
}

impl GameRecord {
    /// The data lines of this game (`FEN | score | result`).
    pub fn lines(&self) -> String {
        let mut out = String::new();
        for (fen, score) in &self.positions {
            out.push_str(&format!("{fen} | {score} | {:.1}\n", self.result));
        }
        out
    }
}

/// True when `pos` is quiet enough to train on: not in check and no capture that wins material
/// by static exchange.
pub fn is_quiet(pos: &Position) -> bool {
    !pos.in_check() && !pos.legal_captures().iter().any(|&m| see_ge(pos, m, 1))
}

fn is_tactical(pos: &Position, m: Move) -> bool {
    pos.is_capture(m) || m.promotion().is_some()
}

fn white_view(score: i32, side: Color) -> i32 {
    match side {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Plays one game from `opening`; `None` when the random start went wrong (the game ended or
/// became lopsided before it began).
pub fn play_game(
    opening: &Position,
    cfg: &Config,
    seed: u64,
    tt: &TranspositionTable,
) -> Option<GameRecord> {
    let mut rng = Rng::new(seed);
    let mut game = Game::from_position(opening.clone());
    for _ in 0..cfg.random_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.below(moves.len())];
        game.play_move(m).ok()?;
    }
    if game.outcome().is_over() {
        return None;
    }
    tt.clear();
    let mut positions = Vec::new();
    let (mut white_wins, mut black_wins, mut quiet_draw) = (0usize, 0usize, 0usize);
    let mut first = true;
    let result = loop {
        match game.outcome() {
            Outcome::Ongoing => {}
            o => {
                break match o.winner() {
                    Some(Color::White) => 1.0,
                    Some(Color::Black) => 0.0,
                    None => 0.5,
                };
            }
        }
        if !game.claimable_draws().is_empty() || game.ply() >= cfg.max_plies {
            break 0.5;
        }
        let pos = game.position().clone();
        let keys: Vec<u64> = game.keys().collect();
        let mut job = Job::new(
            pos.clone(),
            Limits {
                nodes: Some(cfg.nodes),
                ..Limits::default()
            },
        );
        job.history = keys[..keys.len().saturating_sub(1)].to_vec();
        let r = run(&job, tt, &Signals::new(), 1, &SilentReporter);
        let best = r.best?;
        let score = white_view(r.score, pos.side_to_move());
        if first {
            if score.abs() > cfg.max_start_score {
                return None;
            }
            first = false;
        }
        if score.abs() < MATE_BOUND && !is_tactical(&pos, best) && is_quiet(&pos) {
            positions.push((pos.fen(), score));
        }
        white_wins = if score >= cfg.win_score {
            white_wins + 1
        } else {
            0
        };
        black_wins = if score <= -cfg.win_score {
            black_wins + 1
        } else {
            0
        };
        quiet_draw = if game.ply() >= cfg.draw_from_ply && score.abs() <= cfg.draw_score {
            quiet_draw + 1
        } else {
            0
        };
        if white_wins >= cfg.win_plies {
            break 1.0;
        }
        if black_wins >= cfg.win_plies {
            break 0.0;
        }
        if quiet_draw >= cfg.draw_plies {
            break 0.5;
        }
        game.play_move(best).ok()?;
    };
    Some(GameRecord { positions, result })
}

/// Running totals of a generation run.
#[derive(Debug, Default)]
pub struct Progress {
    /// Games finished (kept).
    pub games: AtomicUsize,
    /// Positions written.
    pub positions: AtomicU64,
}

/// Plays `games` games on `threads` threads from `openings` (game `i` starts from opening
/// `(seed + i) % len`, then random moves), handing each finished game to `sink` (in the order
/// they finish). Stops early when `sink` returns false.
pub fn generate<F: FnMut(&GameRecord) -> bool + Send>(
    openings: &[Position],
    cfg: &Config,
    games: usize,
    threads: usize,
    progress: &Progress,
    sink: &Mutex<F>,
) -> Result<(), String> {
    if openings.is_empty() {
        return Err("no opening positions".to_string());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(crate::search::SEARCH_STACK_BYTES)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    pool.install(|| {
        (0..games).into_par_iter().for_each_init(
            || {
                TranspositionTable::with_mb(cfg.hash_mb)
                    .unwrap_or_else(|_| TranspositionTable::empty())
            },
            |tt, i| {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let seed = cfg.seed.wrapping_add(i as u64);
                let opening = &openings[(seed % openings.len() as u64) as usize];
                let Some(record) =
                    play_game(opening, cfg, seed.wrapping_mul(0x2545_F491_4F6C_DD1D), tt)
                else {
                    return;
                };
                progress.games.fetch_add(1, Ordering::Relaxed);
                progress
                    .positions
                    .fetch_add(record.positions.len() as u64, Ordering::Relaxed);
                if let Ok(mut f) = sink.lock() {
                    if !f(&record) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            },
        );
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_game_ends_with_a_result_and_quiet_positions() {
        let tt = TranspositionTable::with_mb(1).expect("tt");
        let cfg = Config {
            nodes: 300,
            max_plies: 40,
            ..Config::default()
        };
        let mut kept = 0;
        for seed in 0..4 {
            if let Some(g) = play_game(&Position::startpos(), &cfg, seed, &tt) {
                assert!([0.0, 0.5, 1.0].contains(&g.result));
                for (fen, _) in &g.positions {
                    let p = Position::from_fen(fen).expect("fen");
                    assert!(is_quiet(&p), "{fen}");
                }
                for line in g.lines().lines() {
                    assert!(super::super::parse_sample(line).is_ok(), "{line}");
                }
                kept += g.positions.len();
            }
        }
        assert!(kept > 0);
    }

    #[test]
    fn quiet_means_no_winning_capture_and_no_check() {
        let hanging = Position::from_fen("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1").expect("fen");
        assert!(!is_quiet(&hanging));
        assert!(is_quiet(&Position::startpos()));
    }
}
