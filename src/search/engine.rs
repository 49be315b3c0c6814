//! Runs searches on a thread of their own, so the caller (the UCI input loop) stays free to
//! answer `isready`, `stop`, `ponderhit` and `quit` at once.

use std::sync::Arc;
use std::thread::JoinHandle;

use super::{run, Job, Reporter, Signals, TranspositionTable};

/// Stack for search threads: the recursion keeps a move list per ply.
pub(crate) const SEARCH_STACK_BYTES: usize = 16 << 20;

/// The search as a service: the hash table (allocated on demand), the thread count, and the
/// running search if any.
pub struct Engine {
    hash_mb: usize,
    threads: usize,
    tt: Option<Arc<TranspositionTable>>,
    signals: Arc<Signals>,
    handle: Option<JoinHandle<()>>,
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
            handle: None,
        }
    }

    /// Resizes the hash table now (the GUI has chosen its size). Waits for a running search.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
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

    /// True once the table has been allocated.
    pub fn hash_allocated(&self) -> bool {
        self.tt.is_some()
    }

    /// Sets the number of search threads for the next search.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Empties the hash table (`Clear Hash`, `ucinewgame`). Waits for a running search.
    pub fn clear_hash(&mut self) {
        self.wait();
        if let Some(tt) = &self.tt {
            tt.clear();
        }
    }

    /// Allocates the table at the configured size if that has not happened yet.
    pub fn ensure_hash(&mut self) -> Result<(), String> {
        if self.tt.is_none() {
            self.tt = Some(Arc::new(TranspositionTable::with_mb(self.hash_mb)?));
        }
        Ok(())
    }

    /// Starts a search on its own thread; the result goes to `reporter.best_move`. A search still
    /// running is stopped first.
    pub fn go(&mut self, job: Job, reporter: Arc<dyn Reporter>) -> Result<(), String> {
        self.stop();
        self.wait();
        self.ensure_hash()?;
        let tt = match &self.tt {
            Some(tt) => Arc::clone(tt),
            None => return Err("no hash table".to_string()),
        };
        // Prepared here, before the thread exists, so that a `stop` right after `go` is kept.
        self.signals.prepare(job.limits.ponder);
        let signals = Arc::clone(&self.signals);
        let threads = self.threads;
        let handle = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let result = run(&job, &tt, &signals, threads, reporter.as_ref());
                reporter.best_move(&result);
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.handle = Some(handle);
        Ok(())
    }

    /// Asks a running search to stop (it still reports its best move).
    pub fn stop(&self) {
        self.signals.stop();
    }

    /// The pondered move was played: the search continues on the clock.
    pub fn ponderhit(&self) {
        self.signals.ponderhit();
    }

    /// True once the running (or last) search was told to stop.
    pub fn stopping(&self) -> bool {
        self.signals.stopped()
    }

    /// True while a search thread is running.
    pub fn searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Blocks until the running search (if any) has finished and reported.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
