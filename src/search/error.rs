//! Why the engine could not do what it was asked: the hash table or the search threads could
//! not be had. The messages are the ones the UCI loop sends as `info string`.

use std::collections::TryReserveError;
use std::fmt;

/// The hash table could not be allocated (see [`TranspositionTable::with_mb`]).
///
/// [`TranspositionTable::with_mb`]: super::TranspositionTable::with_mb
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashAllocError {
    /// The size asked for, in megabytes.
    pub mb: usize,
    /// What the allocator said.
    pub source: TryReserveError,
}

impl fmt::Display for HashAllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate a {} MB hash table: {}",
            self.mb, self.source
        )
    }
}

/// The allocator's reason is already in the message, so no `source` is chained (error reports
/// would otherwise print it twice).
impl std::error::Error for HashAllocError {}

/// Why an [`Engine`](super::Engine) could not start a search or a task, or resize its table.
#[derive(Debug)]
#[non_exhaustive]
pub enum EngineError {
    /// The hash table could not be allocated.
    Hash(HashAllocError),
    /// The operating system would not start the lead search thread.
    SpawnThread(std::io::Error),
    /// The lead search thread has ended (it panicked), so it takes no more orders.
    ThreadGone,
    /// No hash table after allocating one: an internal inconsistency, reported, not a panic.
    NoHashTable,
    /// No search thread after starting one: an internal inconsistency, reported, not a panic.
    NoSearchThread,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Hash(e) => e.fmt(f),
            EngineError::SpawnThread(e) => write!(f, "cannot start the search thread: {e}"),
            EngineError::ThreadGone => f.write_str("the search thread has gone"),
            EngineError::NoHashTable => f.write_str("no hash table"),
            EngineError::NoSearchThread => f.write_str("no search thread"),
        }
    }
}

/// The underlying reason is already in the message, so no `source` is chained.
impl std::error::Error for EngineError {}

impl From<HashAllocError> for EngineError {
    fn from(e: HashAllocError) -> EngineError {
        EngineError::Hash(e)
    }
}
