//! The engine's search threads, started when the thread count is set and kept from one `go` to
//! the next: starting threads (and zeroing their tables) on every move costs time the clock
//! pays for, and threads that live for the game can keep what they learn.
//!
//! Each thread keeps its move-ordering tables (killers, history, continuation history,
//! counter-moves) for the game: what refuted a move one search ago mostly still does. A new
//! game (`ucinewgame`, `Clear Hash`) clears them before the next search.
//!
//! Thread 0 leads: it takes orders from the engine, runs searches (sharing each with the
//! helpers, threads 1..n) and other long tasks (`go perft`, `bench`), and reports. The
//! engine's [`Busy`] flag is up from the moment an order is sent until its answer is written.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use super::worker::{Shared, Worker};
use super::{
    lead, EngineError, Job, Reporter, SearchMemory, SearchResult, Signals, SilentReporter, Tally,
    TranspositionTable, SEARCH_STACK_BYTES,
};

/// Whether the pool is working on an order; the engine waits on it.
#[derive(Default)]
pub(crate) struct Busy {
    flag: Mutex<bool>,
    changed: Condvar,
}

impl Busy {
    fn set(&self, busy: bool) {
        if let Ok(mut f) = self.flag.lock() {
            *f = busy;
        }
        self.changed.notify_all();
    }

    /// True from an order's dispatch until its answer is written.
    pub(crate) fn is_busy(&self) -> bool {
        self.flag.lock().is_ok_and(|f| *f)
    }

    /// Blocks until the pool is idle.
    pub(crate) fn wait_idle(&self) {
        let Ok(mut f) = self.flag.lock() else { return };
        while *f {
            f = match self.changed.wait(f) {
                Ok(f) => f,
                Err(_) => return,
            };
        }
    }
}

/// Lowers the busy flag when dropped, so that even a task that panics cannot leave the engine
/// waiting forever.
struct IdleOnDrop(Arc<Busy>);

impl Drop for IdleOnDrop {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// A task for the lead thread other than a search (`go perft`, `bench`).
pub(crate) type Task = Box<dyn FnOnce() + Send>;

/// What the engine asks of the lead thread.
pub(crate) enum Order {
    /// Search `job`; the answer goes to `reporter`.
    Search {
        job: Box<Job>,
        tt: Arc<TranspositionTable>,
        signals: Arc<Signals>,
        reporter: Arc<dyn Reporter>,
        /// A new game began since the last search: forget the move-ordering tables first.
        new_game: bool,
    },
    /// Run a task.
    Run(Task),
}

/// One search as every thread of the pool sees it.
struct SearchContext {
    new_game: bool,
    job: Job,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    tally: Tally,
}

impl SearchContext {
    fn shared(&self) -> Shared<'_> {
        self.tally.shared(&self.tt, &self.signals)
    }
}

/// The running threads: a channel to the lead, which owns the helpers.
pub(crate) struct Pool {
    orders: Option<Sender<Order>>,
    lead: Option<JoinHandle<()>>,
    busy: Arc<Busy>,
}

impl Pool {
    /// Starts `threads` threads (at least the lead; a helper that cannot be started only makes
    /// searches a little weaker).
    pub(crate) fn start(threads: usize, busy: Arc<Busy>) -> Result<Pool, EngineError> {
        let (orders, inbox) = channel();
        let lead_busy = Arc::clone(&busy);
        let lead = std::thread::Builder::new()
            .name("search 0".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || Lead::new(threads).serve(&inbox, &lead_busy))
            .map_err(EngineError::SpawnThread)?;
        Ok(Pool {
            orders: Some(orders),
            lead: Some(lead),
            busy,
        })
    }

    /// Hands `order` to the lead thread, marking the pool busy until it is done.
    pub(crate) fn send(&self, order: Order) -> Result<(), EngineError> {
        self.busy.set(true);
        let sent = self.orders.as_ref().is_some_and(|o| o.send(order).is_ok());
        if !sent {
            self.busy.set(false);
            return Err(EngineError::ThreadGone);
        }
        Ok(())
    }
}

impl Drop for Pool {
    /// Ends the threads once their current order is done (the engine stops it first).
    fn drop(&mut self) {
        self.orders = None;
        if let Some(h) = self.lead.take() {
            let _ = h.join();
        }
    }
}

/// A helper thread as the lead sees it.
struct Helper {
    orders: Sender<Arc<SearchContext>>,
    handle: JoinHandle<()>,
}

/// The lead thread's state: its tables, its helpers, and where they say they are done.
struct Lead {
    /// Threads asked for, the lead included: worker ids run below it even when a helper
    /// could not be started.
    threads: usize,
    memory: SearchMemory,
    helpers: Vec<Helper>,
    done: Receiver<()>,
}

impl Lead {
    fn new(threads: usize) -> Lead {
        let threads = threads.max(1);
        let (done_tx, done) = channel();
        let helpers = (1..threads)
            .filter_map(|id| spawn_helper(id, done_tx.clone()))
            .collect();
        Lead {
            threads,
            memory: SearchMemory::new(),
            helpers,
            done,
        }
    }

    /// Carries out orders until the engine drops its end of the channel, then ends the helpers.
    fn serve(mut self, inbox: &Receiver<Order>, busy: &Arc<Busy>) {
        while let Ok(order) = inbox.recv() {
            let _idle = IdleOnDrop(Arc::clone(busy));
            match order {
                Order::Search {
                    job,
                    tt,
                    signals,
                    reporter,
                    new_game,
                } => {
                    if new_game {
                        self.memory.clear();
                    }
                    let result = self.search(*job, tt, signals, reporter.as_ref(), new_game);
                    reporter.best_move(&result);
                }
                Order::Run(task) => task(),
            }
        }
        for h in self.helpers {
            drop(h.orders);
            let _ = h.handle.join();
        }
    }

    /// One search over all threads; returns after every helper has stopped.
    fn search(
        &mut self,
        job: Job,
        tt: Arc<TranspositionTable>,
        signals: Arc<Signals>,
        reporter: &dyn Reporter,
        new_game: bool,
    ) -> SearchResult {
        let tally = Tally::start(&job, &tt, self.threads);
        let ctx = Arc::new(SearchContext {
            new_game,
            job,
            tt,
            signals,
            tally,
        });
        let started = self
            .helpers
            .iter()
            .filter(|h| h.orders.send(Arc::clone(&ctx)).is_ok())
            .count();
        let shared = ctx.shared();
        let result = lead(&ctx.job, &shared, &mut self.memory.0, reporter);
        for _ in 0..started {
            let _ = self.done.recv();
        }
        ctx.tally.total(result)
    }
}

/// Starts helper `id`: it searches each context it is sent, then says so on `done`.
fn spawn_helper(id: usize, done: Sender<()>) -> Option<Helper> {
    let (orders, inbox) = channel::<Arc<SearchContext>>();
    let handle = std::thread::Builder::new()
        .name(format!("search {id}"))
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(move || {
            let mut memory = SearchMemory::new();
            while let Ok(ctx) = inbox.recv() {
                if ctx.new_game {
                    memory.clear();
                }
                let shared = ctx.shared();
                Worker::new(id, &ctx.job, &shared, &mut memory.0).iterate(&SilentReporter);
                drop(ctx);
                if done.send(()).is_err() {
                    break;
                }
            }
        })
        .ok()?;
    Some(Helper { orders, handle })
}
