//! Self-play data generation: games at a soft node limit per move from varied openings, each
//! kept whole (every move and its search score, and the result) in the binary game format of
//! [`super::gamefile`].
//!
//! Openings alternate between the start position with 8–12 random legal plies and a position
//! of the opening file with 2–4 random plies; an opening whose first searched score is beyond
//! [`Config::max_start_score`] is dropped. Games are adjudicated once the score has stayed
//! decisive (or near zero late in the game) for several plies, or, with tablebases, as soon
//! as a position the tables cover is reached after a capture or a pawn move.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

use crate::core::{Color, Move, Position};
use crate::eval::nnue::Network;
use crate::rules::{Game, Outcome};
use crate::search::{
    run_single, see_ge, Job, Limits, SearchMemory, Signals, SilentReporter, TranspositionTable,
    MATE,
};
use crate::tb::{Tablebases, Wdl};

use super::gamefile::{GameRecord, RecordResult, ScoredMove, Termination};
use super::Rng;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Config {
    /// Soft node limit per move: no new iteration once this many nodes are searched.
    pub soft_nodes: u64,
    /// Hard node limit per move: the search stops here even inside an iteration.
    pub hard_nodes: u64,
    /// Random plies from the start position: at least this many…
    pub startpos_plies_min: usize,
    /// …and at most this many.
    pub startpos_plies_max: usize,
    /// Random plies after a position of the opening file: at least this many…
    pub book_plies_min: usize,
    /// …and at most this many.
    pub book_plies_max: usize,
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
    /// Syzygy tables that end a game once they know its result (see [`tablebase_end`]).
    pub tablebases: Option<Arc<Tablebases>>,
    /// The network both sides evaluate with (default: the embedded one; `None`: the
    /// hand-crafted evaluation, which made gen0): each generation's data comes from the last
    /// generation's net.
    pub net: Option<Arc<Network>>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            soft_nodes: 5_000,
            hard_nodes: 50_000,
            startpos_plies_min: 8,
            startpos_plies_max: 12,
            book_plies_min: 2,
            book_plies_max: 4,
            max_start_score: 400,
            win_score: 1_000,
            win_plies: 8,
            draw_from_ply: 80,
            draw_score: 8,
            draw_plies: 16,
            max_plies: 400,
            hash_mb: 4,
            tablebases: None,
            net: crate::eval::nnue::embedded(),
        }
    }
}

/// True when `pos` is quiet enough to train a static evaluation on: not in check and no
/// capture that wins material by static exchange.
pub fn is_quiet(pos: &Position) -> bool {
    !pos.in_check() && !pos.legal_captures().iter().any(|&m| see_ge(pos, m, 1))
}

/// The random seed of game `index` of a run seeded with `seed`: games of one run differ, and
/// runs with different seeds share no game.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64()
}

/// The opening of a game: odd game seeds start from the start position with 8–12 random plies,
/// even ones from a position of `openings` (when there are any) with 2–4 random plies.
/// `None` when the random moves ended the game.
pub fn opening(openings: &[Position], cfg: &Config, rng: &mut Rng) -> Option<Game> {
    let from_book = !openings.is_empty() && rng.next_u64() % 2 == 0;
    let (start, min, max) = if from_book {
        let p = openings[rng.below(openings.len())].clone();
        (p, cfg.book_plies_min, cfg.book_plies_max)
    } else {
        (
            Position::startpos(),
            cfg.startpos_plies_min,
            cfg.startpos_plies_max,
        )
    };
    let plies = min + rng.below(max.saturating_sub(min) + 1);
    let mut game = Game::from_position(start);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.play_move(moves[rng.below(moves.len())]).ok()?;
    }
    (!game.outcome().is_over()).then_some(game)
}

/// Counts plies in a row for the adjudication rules.
#[derive(Default)]
struct Adjudicator {
    white_wins: usize,
    black_wins: usize,
    quiet: usize,
}

impl Adjudicator {
    /// Takes the score (White's view) of the position at `ply`; returns the adjudicated result
    /// once a rule is met.
    fn update(&mut self, cfg: &Config, ply: usize, white_score: i32) -> Option<GameRecordEnd> {
        let bump = |n: usize, yes: bool| if yes { n + 1 } else { 0 };
        self.white_wins = bump(self.white_wins, white_score >= cfg.win_score);
        self.black_wins = bump(self.black_wins, white_score <= -cfg.win_score);
        self.quiet = bump(
            self.quiet,
            ply >= cfg.draw_from_ply && white_score.abs() <= cfg.draw_score,
        );
        if self.white_wins >= cfg.win_plies {
            Some((RecordResult::WhiteWins, Termination::AdjudicatedWin))
        } else if self.black_wins >= cfg.win_plies {
            Some((RecordResult::BlackWins, Termination::AdjudicatedWin))
        } else if self.quiet >= cfg.draw_plies {
            Some((RecordResult::Draw, Termination::AdjudicatedDraw))
        } else {
            None
        }
    }
}

type GameRecordEnd = (RecordResult, Termination);

/// The result when the rules or the ply limit have ended `game`.
fn rules_end(game: &Game, cfg: &Config) -> Option<GameRecordEnd> {
    match game.outcome() {
        Outcome::Ongoing => {}
        o => {
            let result = o.winner().map_or(RecordResult::Draw, RecordResult::win_for);
            return Some((result, Termination::Rules));
        }
    }
    if !game.claimable_draws().is_empty() {
        return Some((RecordResult::Draw, Termination::Rules));
    }
    (game.ply() >= cfg.max_plies).then_some((RecordResult::Draw, Termination::MaxPlies))
}

/// The tables' result of `game`'s current position, when they cover it and its fifty-move
/// counter is zero (a capture or a pawn move has just been played, so the tables' cursed wins
/// and blessed losses are exactly the games the fifty-move rule draws; with moves already on
/// the counter a win may come too late, and the game plays on to its next capture or pawn
/// move).
pub fn tablebase_end(game: &Game, cfg: &Config) -> Option<(RecordResult, Termination)> {
    let pos = game.position();
    if pos.halfmove_clock() != 0 {
        return None;
    }
    let mover = pos.side_to_move();
    let result = match cfg.tablebases.as_ref()?.probe_wdl(pos)? {
        Wdl::Win => RecordResult::win_for(mover),
        Wdl::Loss => RecordResult::win_for(!mover),
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => RecordResult::Draw,
    };
    Some((result, Termination::Tablebase))
}

/// The result when the rules, the ply limit or the tables have ended `game`.
fn settled(game: &Game, cfg: &Config) -> Option<GameRecordEnd> {
    rules_end(game, cfg).or_else(|| tablebase_end(game, cfg))
}

/// Searches the game's current position at the configured node limits.
fn search(
    game: &Game,
    cfg: &Config,
    tt: &TranspositionTable,
    memory: &mut SearchMemory,
) -> Option<(Move, i32)> {
    let pos = game.position().clone();
    let keys: Vec<u64> = game.keys().collect();
    let mut job = Job::new(
        pos,
        Limits {
            nodes: Some(cfg.hard_nodes.max(cfg.soft_nodes)),
            soft_nodes: Some(cfg.soft_nodes),
            ..Limits::default()
        },
    );
    job.history = keys[..keys.len().saturating_sub(1)].to_vec();
    job.net = cfg.net.clone();
    let r = run_single(&job, tt, &Signals::new(), memory, &SilentReporter);
    Some((r.best?, r.score))
}

/// Plays one game with random opening moves drawn from `seed`; `None` when the opening went
/// wrong (the random moves ended the game or unbalanced it). `tt` and `memory` are cleared
/// first and kept from move to move, as in a game against the UCI engine.
pub fn play_game(
    openings: &[Position],
    cfg: &Config,
    seed: u64,
    tt: &TranspositionTable,
    memory: &mut SearchMemory,
) -> Option<GameRecord> {
    let mut rng = Rng::new(seed);
    let mut game = opening(openings, cfg, &mut rng)?;
    let start = game.position().clone();
    tt.clear();
    memory.clear();
    let mut moves = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let (result, termination) = loop {
        if let Some(end) = settled(&game, cfg) {
            break end;
        }
        let (best, score) = search(&game, cfg, tt, memory)?;
        if moves.is_empty() && score.abs() > cfg.max_start_score {
            return None;
        }
        let white = if game.side_to_move() == Color::White {
            score
        } else {
            -score
        };
        moves.push(ScoredMove {
            mv: best,
            score: score.clamp(-MATE, MATE) as i16,
        });
        game.play_move(best).ok()?;
        // The score belongs to the position before the move; a rule or the tables ending the
        // game now take precedence over adjudication at the next turn.
        if let Some(end) = adjudicator.update(cfg, game.ply(), white) {
            if settled(&game, cfg).is_none() {
                break end;
            }
        }
    };
    Some(GameRecord {
        start,
        moves,
        result,
        termination,
    })
}

/// A generation run: how many games on how many threads, from which seed.
#[derive(Clone, Debug)]
pub struct Run {
    /// Games played at once, one search thread each.
    pub threads: usize,
    /// Games to keep; `None` runs until the sink says stop.
    pub games: Option<u64>,
    /// The run's seed (see [`game_seed`]).
    pub seed: u64,
}

/// A generation thread could not be started (see [`generate`]).
#[derive(Debug)]
pub struct SpawnError {
    /// What the operating system said.
    pub source: std::io::Error,
}

impl std::fmt::Display for SpawnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot start a data generation thread: {}", self.source)
    }
}

/// The operating system's reason is already in the message, so no `source` is chained.
impl std::error::Error for SpawnError {}

/// Plays games on `run.threads` threads and hands each kept game to `sink` on the calling
/// thread, in the order they finish, until `run.games` are kept or `sink` returns false.
pub fn generate<F: FnMut(GameRecord) -> bool>(
    openings: &[Position],
    cfg: &Config,
    run: &Run,
    mut sink: F,
) -> Result<(), SpawnError> {
    let stop = AtomicBool::new(false);
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::sync_channel::<GameRecord>(4 * run.threads.max(1));
    std::thread::scope(|s| -> Result<(), SpawnError> {
        for id in 0..run.threads.max(1) {
            let tx = tx.clone();
            let (stop, next) = (&stop, &next);
            std::thread::Builder::new()
                .name(format!("datagen {id}"))
                .stack_size(crate::search::SEARCH_STACK_BYTES)
                .spawn_scoped(s, move || {
                    let tt = TranspositionTable::with_mb(cfg.hash_mb)
                        .unwrap_or_else(|_| TranspositionTable::empty());
                    let mut memory = SearchMemory::new();
                    while !stop.load(Ordering::Relaxed) {
                        let seed = game_seed(run.seed, next.fetch_add(1, Ordering::Relaxed));
                        let Some(game) = play_game(openings, cfg, seed, &tt, &mut memory) else {
                            continue;
                        };
                        if tx.send(game).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|source| SpawnError { source })?;
        }
        drop(tx);
        let mut kept = 0u64;
        while let Ok(game) = rx.recv() {
            kept += 1;
            if !sink(game) || run.games.is_some_and(|n| kept >= n) {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
        // Dropping the receiver wakes any thread blocked on a full channel.
        drop(rx);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_played_with_the_network_given() {
        let tt = TranspositionTable::with_mb(1).expect("tt");
        let hce = Config {
            soft_nodes: 300,
            hard_nodes: 3_000,
            max_plies: 30,
            ..Config::default()
        };
        // A network that scores every position 0: every search score is 0 but mates'.
        let flat = Config {
            net: Some(Arc::new(Network::zeroed())),
            ..hce.clone()
        };
        let mut memory = SearchMemory::new();
        let mut scores = |cfg: &Config| -> Vec<i16> {
            (0..6)
                .filter_map(|seed| play_game(&[], cfg, seed, &tt, &mut memory))
                .flat_map(|g| g.moves.into_iter().map(|m| m.score))
                .collect()
        };
        let with_net = scores(&flat);
        assert!(!with_net.is_empty());
        assert!(
            with_net
                .iter()
                .all(|&s| s == 0 || i32::from(s).abs() > 20_000),
            "{with_net:?}"
        );
        assert!(scores(&hce).iter().any(|&s| s != 0));
    }

    #[test]
    fn a_short_game_replays_to_its_result() {
        let tt = TranspositionTable::with_mb(1).expect("tt");
        let cfg = Config {
            soft_nodes: 300,
            hard_nodes: 3_000,
            max_plies: 40,
            ..Config::default()
        };
        let mut played = 0;
        for seed in 0..4 {
            let Some(g) = play_game(&[], &cfg, seed, &tt, &mut SearchMemory::new()) else {
                continue;
            };
            played += 1;
            assert!(!g.moves.is_empty());
            let mut game = Game::from_position(g.start.clone());
            for m in &g.moves {
                game.play_move(m.mv).expect("legal");
            }
            if g.termination == Termination::Rules {
                let over = game.outcome().is_over() || !game.claimable_draws().is_empty();
                assert!(over, "a game ended by the rules is over");
            }
            if g.termination == Termination::MaxPlies {
                assert_eq!(g.result, RecordResult::Draw);
                // These games start from the start position, so the start's move number
                // tells how many random plies came before the record.
                let start = &g.start;
                let before = 2 * (start.fullmove_number() as usize - 1)
                    + (start.side_to_move() == Color::Black) as usize;
                assert_eq!(before + game.ply(), 40);
            }
        }
        assert!(played > 0);
    }

    #[test]
    fn openings_are_varied_and_legal() {
        let cfg = Config::default();
        let book = [Position::from_fen(
            "r1bqk2r/pppp1ppp/n4n2/2b1p3/N1P5/6P1/PP1PPP1P/R1BQKBNR w KQkq - 0 1",
        )
        .expect("fen")];
        let mut fens = std::collections::HashSet::new();
        for seed in 0..40 {
            let mut rng = Rng::new(game_seed(7, seed));
            if let Some(g) = opening(&book, &cfg, &mut rng) {
                let plies = g.ply();
                assert!((2..=12).contains(&plies), "{plies} random plies");
                fens.insert(g.fen());
            }
        }
        assert!(fens.len() > 30, "only {} distinct openings", fens.len());
    }

    #[test]
    fn adjudication_needs_plies_in_a_row() {
        let cfg = Config::default();
        let mut a = Adjudicator::default();
        for ply in 0..cfg.win_plies - 1 {
            assert_eq!(a.update(&cfg, ply, 1_500), None);
        }
        assert_eq!(
            a.update(&cfg, 30, 0),
            None,
            "a level score resets the count"
        );
        for ply in 0..cfg.win_plies - 1 {
            assert_eq!(a.update(&cfg, ply, -1_500), None);
        }
        assert_eq!(
            a.update(&cfg, 40, -1_500),
            Some((RecordResult::BlackWins, Termination::AdjudicatedWin))
        );
    }

    #[test]
    fn a_run_keeps_the_games_asked_for_on_two_threads() {
        let cfg = Config {
            soft_nodes: 200,
            hard_nodes: 2_000,
            max_plies: 30,
            hash_mb: 1,
            ..Config::default()
        };
        let run = Run {
            threads: 2,
            games: Some(3),
            seed: 11,
        };
        let mut games = Vec::new();
        generate(&[], &cfg, &run, |g| {
            games.push(g);
            true
        })
        .expect("run");
        assert_eq!(games.len(), 3);
        assert!(games.iter().all(|g| !g.moves.is_empty()));
    }

    #[test]
    fn quiet_means_no_winning_capture_and_no_check() {
        let hanging = Position::from_fen("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1").expect("fen");
        assert!(!is_quiet(&hanging));
        assert!(is_quiet(&Position::startpos()));
    }
}
