//! The search: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search, quiescence, a shared lockless transposition table and Lazy SMP.
//!
//! The search prints nothing. Progress goes to a [`Reporter`] (the UCI loop formats it) and the
//! result comes back from [`run`], or through [`Reporter::best_move`] when an [`Engine`] runs
//! the search on its own thread.
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::search::{run, Job, Limits, Signals, SilentReporter, TranspositionTable};
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
//! let job = Job::new(pos, Limits { depth: Some(4), ..Limits::default() });
//! let tt = TranspositionTable::with_mb(1).unwrap();
//! let result = run(&job, &tt, &Signals::new(), 1, &SilentReporter);
//! assert_eq!(result.best.unwrap().to_uci(false), "d1d8"); // back-rank mate
//! ```

mod bench;
mod correction;
mod engine;
mod error;
mod ordering;
pub mod params;
mod pool;
mod see;
mod skill;
mod tb;
mod time;
mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::core::{Move, Position};
use crate::eval::nnue::Network;

pub use bench::{bench, bench_with, bench_with_net, BenchResult, BENCH_DEPTH, BENCH_FENS};
pub use engine::Engine;
pub(crate) use engine::SEARCH_STACK_BYTES;
pub use error::{EngineError, HashAllocError};
pub use see::see_ge;
pub use skill::{skill_seed, Skill};
pub use tb::{TbConfig, TB_WIN, TB_WIN_BOUND};
pub use time::Budget;
// The table's entries, probes and stores are the search's business (`tt::Entry` is crate-only):
// a library user sizes, clears and shares a table but never reads one.
pub use tt::{Bound, TranspositionTable};

use ordering::Heuristics;
use worker::Worker;

/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// A score above every real one.
pub const INFINITY: i32 = 32_001;
/// The score of delivering mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The limits of one search, as `go` gives them. Times in milliseconds; negative clocks are
/// allowed (they mean "no time left").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's clock.
    pub wtime: Option<i64>,
    /// Black's clock.
    pub btime: Option<i64>,
    /// White's increment.
    pub winc: Option<i64>,
    /// Black's increment.
    pub binc: Option<i64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Exactly this long.
    pub movetime: Option<i64>,
    /// No deeper than this.
    pub depth: Option<u32>,
    /// No more nodes than this (all threads together).
    pub nodes: Option<u64>,
    /// No new iteration once this many nodes are searched (all threads together); the
    /// iteration under way finishes unless `nodes` stops it. Data generation uses it, so that
    /// every move ends on a completed iteration.
    pub soft_nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// Everything one search needs besides the shared table and signals.
#[derive(Clone, Debug)]
pub struct Job {
    /// The position to search.
    pub position: Position,
    /// Keys of the positions of the game before this one, oldest first (for repetitions).
    pub history: Vec<u64>,
    /// Limits from `go`.
    pub limits: Limits,
    /// How many best lines to report (MultiPV).
    pub multipv: usize,
    /// Milliseconds kept back per move for communication delays.
    pub move_overhead: u64,
    /// The neural network to evaluate with ([`Job::new`]: the embedded one,
    /// [`crate::eval::nnue::embedded`]); `None` uses the hand-crafted evaluation. A strength
    /// level ([`Job::skill`]) ignores it.
    pub net: Option<Arc<Network>>,
    /// Syzygy tablebases (none by default).
    pub tb: TbConfig,
    /// A strength level for people (`None`: full strength, the default). A level searches on
    /// the lead thread only, under a node cap, and picks its move among several root lines;
    /// see [`Skill`]. Levels play with the hand-crafted evaluation whatever [`Job::net`] says:
    /// their calibration (README, Strength levels) was measured with it.
    pub skill: Option<Skill>,
}

impl Job {
    /// A job with no game history, one line, the default overhead and the embedded network.
    pub fn new(position: Position, limits: Limits) -> Job {
        Job {
            position,
            history: Vec::new(),
            limits,
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            net: crate::eval::nnue::embedded(),
            tb: TbConfig::default(),
            skill: None,
        }
    }
}

/// The default `Move Overhead` in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD: u64 = 50;

/// A score as the GUI sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// One principal variation, as reported after an iteration (or an aspiration failure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based line number.
    pub multipv: usize,
    /// The line's score.
    pub score: Score,
    /// `Some` when the score is only a bound (the aspiration window failed).
    pub bound: Option<Bound>,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table fill in permille.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads (`None` when no tables are in use).
    pub tbhits: Option<u64>,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The line, starting with the root move.
    pub pv: Vec<Move>,
}

/// What the search reports while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// A principal variation.
    Pv(PvInfo),
    /// The root move being searched (sent only on long searches).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its 1-based number in the root move order.
        number: usize,
    },
}

/// Where the search sends its progress. Implementations must be cheap: they are called from
/// the search thread.
pub trait Reporter: Send + Sync {
    /// A progress report.
    fn info(&self, info: &Info);
    /// The final answer of a search started by [`Engine::go`]. `best` is `None` only when the
    /// position has no legal move.
    fn best_move(&self, result: &SearchResult) {
        let _ = result;
    }
}

/// A reporter that discards everything (bench, tests).
pub struct SilentReporter;

impl Reporter for SilentReporter {
    fn info(&self, _: &Info) {}
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only with no legal move.
    pub best: Option<Move>,
    /// The expected reply, when known.
    pub ponder: Option<Move>,
    /// The score of `best` (internal units: centipawns or mate distance).
    pub score: i32,
    /// The last completed iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The position searched, for printing the moves in the right notation.
    pub chess960: bool,
}

/// Flags shared between the caller and the running search.
#[derive(Debug)]
pub struct Signals {
    stop: AtomicBool,
    /// The caller's `stop` ([`Signals::cancel`]): it ends a task of several searches (bench)
    /// too, where `stop` only ends the current search.
    cancelled: AtomicBool,
    pondering: AtomicBool,
    /// Milliseconds after the start at which `ponderhit` came (u64::MAX: not yet).
    ponderhit_ms: AtomicU64,
    start: std::sync::Mutex<Instant>,
}

impl Default for Signals {
    fn default() -> Self {
        Signals::new()
    }
}

impl Signals {
    /// Fresh signals: not stopped, not pondering.
    pub fn new() -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            cancelled: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponderhit_ms: AtomicU64::new(u64::MAX),
            start: std::sync::Mutex::new(Instant::now()),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Stops the search and the task it belongs to (every later search of a bench).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        self.stop();
    }

    /// True once [`Signals::cancel`] was called for the current task.
    pub fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// True once a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the search goes on under its clock limits.
    pub fn ponderhit(&self) {
        let now = self.elapsed().as_millis() as u64;
        self.ponderhit_ms.store(now, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// True while the search is pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Resets the signals for a new search that starts now (pondering if `ponder`). Call it
    /// before handing the signals to [`run`], on the thread that may call [`Signals::stop`], so
    /// that a `stop` sent right after `go` cannot be lost.
    pub fn prepare(&self, ponder: bool) {
        self.cancelled.store(false, Ordering::SeqCst);
        self.restart(ponder);
    }

    /// Resets the signals for the next search of the same task (bench's next position): as
    /// [`Signals::prepare`], but a cancelled task stays cancelled. Safe against a `cancel` at
    /// any moment: one that comes before the check below is seen by it, one after it stops the
    /// search itself.
    pub fn prepare_next(&self) {
        self.restart(false);
        if self.cancelled() {
            self.stop();
        }
    }

    fn restart(&self, ponder: bool) {
        if let Ok(mut s) = self.start.lock() {
            *s = Instant::now();
        }
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        self.ponderhit_ms.store(u64::MAX, Ordering::SeqCst);
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.lock().map_or(Duration::ZERO, |s| s.elapsed())
    }

    /// Time that counts against the clock: since `ponderhit` when pondering was hit.
    pub(crate) fn clock_elapsed(&self) -> Duration {
        let all = self.elapsed();
        match self.ponderhit_ms.load(Ordering::Relaxed) {
            u64::MAX => all,
            hit => all.saturating_sub(Duration::from_millis(hit)),
        }
    }
}

/// Runs one search to completion on the calling thread (plus `threads - 1` helper threads that
/// share `tt`) and returns the best move. It honours `signals` (stop, ponderhit; see
/// [`Signals::prepare`]) and returns only after `stop` or `ponderhit` when the limits say
/// `infinite` or `ponder`.
pub fn run(
    job: &Job,
    tt: &TranspositionTable,
    signals: &Signals,
    threads: usize,
    reporter: &dyn Reporter,
) -> SearchResult {
    search_with(
        job,
        tt,
        signals,
        threads,
        &mut Heuristics::new(MAX_PLY),
        reporter,
    )
}

/// What a search learns about move ordering (history, continuation history, counter moves,
/// killers). The UCI engine keeps it from one move of a game to the next and clears it for a
/// new game; [`run_single`] lets another caller that searches a game move after move (such as
/// self-play data generation) do the same, instead of [`run`]'s empty tables each move.
pub struct SearchMemory(Heuristics);

impl SearchMemory {
    /// Empty tables.
    pub fn new() -> SearchMemory {
        SearchMemory(Heuristics::new(MAX_PLY))
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl Default for SearchMemory {
    fn default() -> Self {
        SearchMemory::new()
    }
}

/// [`run`] on the calling thread alone, ordering moves with `memory` and leaving in it what
/// this search learnt.
pub fn run_single(
    job: &Job,
    tt: &TranspositionTable,
    signals: &Signals,
    memory: &mut SearchMemory,
    reporter: &dyn Reporter,
) -> SearchResult {
    search_with(job, tt, signals, 1, &mut memory.0, reporter)
}

/// What the threads of one search count together besides the table and the signals: nodes per
/// thread, the time budget and the tablebase settings of the root. Built once per search, by
/// [`run`] and by the engine's thread pool alike.
struct Tally {
    counters: Vec<AtomicU64>,
    budget: Budget,
    /// Tablebase use, settled once at the root for every thread.
    tb: tb::TbSearch,
    tb_hits: AtomicU64,
}

impl Tally {
    /// Starts a search of `job` over `threads` threads: ages `tt` and settles the root.
    fn start(job: &Job, tt: &TranspositionTable, threads: usize) -> Tally {
        tt.new_search();
        let tb = tb::TbSearch::prepare(job);
        Tally {
            counters: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            budget: Budget::new(&job.limits, job.position.side_to_move(), job.move_overhead),
            tb_hits: AtomicU64::new(tb.root_hits),
            tb,
        }
    }

    /// The workers' view of this search.
    fn shared<'a>(
        &'a self,
        tt: &'a TranspositionTable,
        signals: &'a Signals,
    ) -> worker::Shared<'a> {
        worker::Shared {
            tt,
            signals,
            counters: &self.counters,
            budget: self.budget,
            tb: &self.tb,
            tb_hits: &self.tb_hits,
        }
    }

    /// `result` with the nodes of every thread.
    fn total(&self, result: SearchResult) -> SearchResult {
        SearchResult {
            nodes: self
                .counters
                .iter()
                .map(|c| c.load(Ordering::Relaxed))
                .sum(),
            ..result
        }
    }
}

/// [`run`] with the main worker's move-ordering tables given (helpers start empty).
fn search_with(
    job: &Job,
    tt: &TranspositionTable,
    signals: &Signals,
    threads: usize,
    heur: &mut Heuristics,
    reporter: &dyn Reporter,
) -> SearchResult {
    let tally = Tally::start(job, tt, threads);
    let shared = tally.shared(tt, signals);
    let result = std::thread::scope(|s| {
        for id in 1..threads.max(1) {
            let shared = &shared;
            // A helper that cannot be started only makes the search a little weaker.
            let _ = std::thread::Builder::new()
                .name(format!("helper {id}"))
                .stack_size(engine::SEARCH_STACK_BYTES)
                .spawn_scoped(s, move || {
                    let mut heur = Heuristics::new(MAX_PLY);
                    Worker::new(id, job, shared, &mut heur).iterate(&SilentReporter);
                });
        }
        lead(job, &shared, heur, reporter)
    });
    tally.total(result)
}

/// The main worker's part of a search, on the thread that reports: iterative deepening, then
/// holding the answer while the search is infinite or pondering, then stopping the helpers.
/// The result's node count is the main worker's alone.
fn lead(
    job: &Job,
    shared: &worker::Shared<'_>,
    heur: &mut Heuristics,
    reporter: &dyn Reporter,
) -> SearchResult {
    let signals = shared.signals;
    let mut main = Worker::new(0, job, shared, heur);
    main.iterate(reporter);
    // An infinite or pondering search must not answer before it is told to.
    while (job.limits.infinite || signals.pondering()) && !signals.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
    signals.stop();
    main.result()
}

#[cfg(test)]
mod tests;
