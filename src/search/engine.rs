//! Runs searches on threads of their own (a pool kept across searches), so the caller (the UCI
//! input loop) stays free to answer `isready`, `stop`, `ponderhit` and `quit` at once.

use std::sync::Arc;

use super::pool::{Busy, Order, Pool};
use super::{EngineError, Job, Reporter, Signals, TranspositionTable};

/// Stack for search threads: the recursion keeps a move list per ply.
pub(crate) const SEARCH_STACK_BYTES: usize = 16 << 20;

/// The search as a service: the hash table and the search threads (both made on demand), and
/// whether they are busy.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use ferrum::core::Position;
/// use ferrum::search::{Engine, Info, Job, Limits, Reporter, SearchResult};
///
/// // Keeps the best move; the search calls it from its own thread.
/// #[derive(Default)]
/// struct Best(Mutex<Option<String>>);
/// impl Reporter for Best {
///     fn info(&self, _: &Info) {}
///     fn best_move(&self, result: &SearchResult) {
///         *self.0.lock().unwrap() = result.best.map(|m| m.to_uci(false));
///     }
/// }
///
/// let mut engine = Engine::new(1, 1); // a 1 MB table and one thread
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
/// let job = Job::new(pos, Limits { depth: Some(4), ..Limits::default() });
/// let best = Arc::new(Best::default());
/// engine.go(job, best.clone())?; // returns at once; the search runs on the engine's thread
/// engine.wait(); // until it has reported
/// assert_eq!(best.0.lock().unwrap().as_deref(), Some("d1d8")); // back-rank mate
/// # Ok::<(), ferrum::search::EngineError>(())
/// ```
pub struct Engine {
    hash_mb: usize,
    threads: usize,
    tt: Option<Arc<TranspositionTable>>,
    signals: Arc<Signals>,
    pool: Option<Pool>,
    busy: Arc<Busy>,
    /// The last order was a task (`go perft`, `bench`), not a search.
    task: bool,
    /// The next search starts a new game: its threads forget their move-ordering tables.
    new_game: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(16, 1)
    }
}

impl Engine {
    /// An idle engine that will use `hash_mb` megabytes and `threads` threads. Nothing is
    /// allocated yet.
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Engine {
            hash_mb: hash_mb.max(1),
            threads: threads.max(1),
            tt: None,
            signals: Arc::new(Signals::new()),
            pool: None,
            busy: Arc::new(Busy::default()),
            task: false,
            new_game: false,
        }
    }

    /// Resizes the hash table now (the GUI has chosen its size). Waits for a running search.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), EngineError> {
        self.wait();
        self.tt = None;
        self.hash_mb = mb.max(1);
        self.tt = Some(Arc::new(TranspositionTable::with_mb(self.hash_mb)?));
        Ok(())
    }

    /// The configured hash size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Sets the number of search threads and starts them (the old ones end first; the same
    /// number keeps the running ones). Waits for a running search.
    pub fn set_threads(&mut self, n: usize) -> Result<(), EngineError> {
        // The same count keeps the running threads (and what they have learned this game).
        if n.max(1) == self.threads && self.pool.is_some() {
            return Ok(());
        }
        self.wait();
        self.pool = None;
        self.threads = n.max(1);
        self.ensure_pool()
    }

    /// Starts the search threads if they are not running yet.
    pub fn ensure_pool(&mut self) -> Result<(), EngineError> {
        if self.pool.is_none() {
            self.pool = Some(Pool::start(self.threads, Arc::clone(&self.busy))?);
        }
        Ok(())
    }

    /// Empties the hash table and, before the next search, the threads' move-ordering tables
    /// (`Clear Hash`, `ucinewgame`: a new game). Waits for a running search.
    pub fn clear_hash(&mut self) {
        self.wait();
        if let Some(tt) = &self.tt {
            tt.clear();
        }
        // The move-ordering tables the threads keep for the game go with it.
        self.new_game = true;
    }

    /// Allocates the table at the configured size if that has not happened yet.
    pub fn ensure_hash(&mut self) -> Result<(), EngineError> {
        if self.tt.is_none() {
            self.tt = Some(Arc::new(TranspositionTable::with_mb(self.hash_mb)?));
        }
        Ok(())
    }

    /// Starts a search on the search threads; the result goes to `reporter.best_move`. A search
    /// still running is stopped first.
    pub fn go(&mut self, job: Job, reporter: Arc<dyn Reporter>) -> Result<(), EngineError> {
        self.stop();
        self.wait();
        self.ensure_hash()?;
        let tt = match &self.tt {
            Some(tt) => Arc::clone(tt),
            None => return Err(EngineError::NoHashTable),
        };
        // Prepared here, before the order is sent, so that a `stop` right after `go` is kept.
        self.signals.prepare(job.limits.ponder);
        self.task = false;
        let order = Order::Search {
            job: Box::new(job),
            tt,
            signals: Arc::clone(&self.signals),
            reporter,
            new_game: std::mem::take(&mut self.new_game),
        };
        self.send(order)
    }

    /// Runs `task` on the lead search thread, where [`Engine::stop`] reaches it through the
    /// signals it is given (it should look at [`Signals::cancelled`] often) and where it keeps
    /// the caller free to answer. The engine is busy until it returns. A search still running
    /// is stopped first.
    pub fn run_task(
        &mut self,
        task: impl FnOnce(&Signals) + Send + 'static,
    ) -> Result<(), EngineError> {
        self.stop();
        self.wait();
        self.signals.prepare(false);
        self.task = true;
        let signals = Arc::clone(&self.signals);
        self.send(Order::Run(Box::new(move || task(&signals))))
    }

    fn send(&mut self, order: Order) -> Result<(), EngineError> {
        self.ensure_pool()?;
        match &self.pool {
            Some(pool) => pool.send(order),
            None => Err(EngineError::NoSearchThread),
        }
    }

    /// Asks a running search to stop (it still reports its best move), or a task to end.
    pub fn stop(&self) {
        self.signals.cancel();
    }

    /// The pondered move was played: the search continues on the clock.
    pub fn ponderhit(&self) {
        self.signals.ponderhit();
    }

    /// True once the running (or last) search was told to stop, or the running task cancelled.
    pub fn stopping(&self) -> bool {
        // A bench sets and clears the stop flag around each of its searches: only a cancel
        // means it is ending.
        self.signals.cancelled() || (!self.task && self.signals.stopped())
    }

    /// True from `go` until the search has written its answer.
    pub fn searching(&self) -> bool {
        self.busy.is_busy()
    }

    /// Blocks until the running search (if any) has finished and reported.
    pub fn wait(&mut self) {
        self.busy.wait_idle();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
        // Dropping the pool ends and joins its threads.
        self.pool = None;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::thread::ThreadId;

    use super::*;
    use crate::core::Position;
    use crate::search::{Info, Limits, SearchResult};

    /// Records the thread each answer came from.
    #[derive(Default)]
    struct Threads(Mutex<Vec<ThreadId>>);

    impl Reporter for Threads {
        fn info(&self, _: &Info) {}
        fn best_move(&self, _: &SearchResult) {
            if let Ok(mut v) = self.0.lock() {
                v.push(std::thread::current().id());
            }
        }
    }

    fn go(engine: &mut Engine, reporter: &Arc<Threads>) {
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let job = Job::new(Position::startpos(), limits);
        let r: Arc<dyn Reporter> = Arc::clone(reporter) as Arc<dyn Reporter>;
        engine.go(job, r).expect("go");
        engine.wait();
    }

    #[test]
    fn searches_run_on_threads_kept_until_the_thread_count_changes() {
        let mut engine = Engine::new(1, 2);
        let seen = Arc::new(Threads::default());
        for _ in 0..3 {
            go(&mut engine, &seen);
        }
        engine.set_threads(2).expect("threads");
        go(&mut engine, &seen);
        engine.set_threads(1).expect("threads");
        go(&mut engine, &seen);
        let ids = seen.0.lock().expect("lock").clone();
        assert_eq!(ids.len(), 5);
        assert!(
            ids[..4].iter().all(|&id| id == ids[0]),
            "the same count keeps them: {ids:?}"
        );
        assert_ne!(ids[4], ids[0], "a new count starts new threads");
        assert!(!engine.searching());
    }
}
