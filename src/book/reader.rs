//! Reading a Polyglot book: validation, probing by binary search, choosing a move by weight.

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::core::Move;

use super::entry::Entry;
use super::key::BookPosition;

/// Why a book could not be loaded.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The size is not a whole number of 16-byte entries: the file is truncated or not a
    /// Polyglot book.
    Truncated {
        /// The size in bytes.
        len: usize,
    },
    /// Entries are not sorted by key, as the format requires (probing could not find them).
    Unsorted {
        /// The first entry (counting from 0) whose key is smaller than its predecessor's.
        index: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, source } => {
                write!(f, "cannot read book file {}: {source}", path.display())
            }
            BookError::Truncated { len } => write!(
                f,
                "not a Polyglot book: {len} bytes is not a whole number of 16-byte entries"
            ),
            BookError::Unsorted { index } => write!(
                f,
                "not a valid Polyglot book: entry {index} is out of key order"
            ),
        }
    }
}

/// The message already includes the operating system's reason, so no `source` is chained
/// (error reports would otherwise print it twice).
impl std::error::Error for BookError {}

/// A legal move found in the book for a position, with its entry's weight and learn field.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct BookMove {
    /// The move, legal in the probed position.
    pub mv: Move,
    /// Its weight in the book.
    pub weight: u16,
    /// Its learn field.
    pub learn: u32,
}

/// How [`Book::choose`] (or [`Choice::pick`]) picks among a position's book moves. Moves of
/// weight 0 are never picked.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Choice {
    /// The move of highest weight (the first in the file among equals).
    Best,
    /// A move at random, each with probability proportional to its weight; the number is the
    /// caller's uniformly random 64-bit value (so the caller owns the generator and its seed).
    Weighted(u64),
}

/// A Polyglot opening book held in memory (the bytes of the file, probed in place).
///
/// ```
/// use ferrum::book::{Book, BookPosition, Choice};
/// let book = Book::embedded();
/// let start = BookPosition::startpos();
/// let moves = book.probe(&start);
/// assert!(!moves.is_empty());
/// // Best first: each weight is at least the next one's.
/// assert!(moves.windows(2).all(|w| w[0].weight >= w[1].weight));
/// let best = book.choose(&start, Choice::Best).unwrap();
/// assert_eq!(best, moves[0]);
/// let random = book.choose(&start, Choice::Weighted(0x9E37_79B9_7F4A_7C15)).unwrap();
/// assert!(moves.contains(&random));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Book {
    data: Cow<'static, [u8]>,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Book({} entries)", self.len())
    }
}

/// The default book, built from `book/ferrum.pgn` and embedded in the library.
static EMBEDDED_BYTES: &[u8] = include_bytes!("../../book/ferrum.bin");

static EMBEDDED: std::sync::LazyLock<Book> = std::sync::LazyLock::new(|| {
    // The embedded file is checked by the tests; were it ever invalid, an empty book is the
    // safe answer (the engine then simply searches).
    Book::from_static(EMBEDDED_BYTES).unwrap_or_default()
});

impl Default for Book {
    /// The empty book.
    fn default() -> Self {
        Book {
            data: Cow::Borrowed(&[]),
        }
    }
}

impl Book {
    /// A book from the bytes of a Polyglot file, checked: a whole number of entries, sorted by
    /// key.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Book, BookError> {
        Book::checked(Cow::Owned(bytes))
    }

    /// A book from static bytes (for example `include_bytes!`), checked like
    /// [`Book::from_bytes`].
    pub fn from_static(bytes: &'static [u8]) -> Result<Book, BookError> {
        Book::checked(Cow::Borrowed(bytes))
    }

    /// Reads and checks a Polyglot book file.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| BookError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Book::from_bytes(bytes)
    }

    /// Ferrum's default book (`book/ferrum.bin`, built from `book/ferrum.pgn`).
    pub fn embedded() -> &'static Book {
        &EMBEDDED
    }

    fn checked(data: Cow<'static, [u8]>) -> Result<Book, BookError> {
        if data.len() % Entry::SIZE != 0 {
            return Err(BookError::Truncated { len: data.len() });
        }
        let book = Book { data };
        let mut previous = 0;
        for index in 0..book.len() {
            let key = book.key_at(index);
            if key < previous {
                return Err(BookError::Unsorted { index });
            }
            previous = key;
        }
        Ok(book)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.data.len() / Entry::SIZE
    }

    /// True for a book without entries.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The file's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    fn raw(&self, index: usize) -> &[u8; Entry::SIZE] {
        let start = index * Entry::SIZE;
        match self.data[start..start + Entry::SIZE].try_into() {
            Ok(bytes) => bytes,
            Err(_) => unreachable!("a slice of Entry::SIZE bytes"),
        }
    }

    #[inline]
    fn key_at(&self, index: usize) -> u64 {
        let b = self.raw(index);
        u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }

    /// The entry at `index` (in file order), if there is one.
    pub fn entry(&self, index: usize) -> Option<Entry> {
        (index < self.len()).then(|| Entry::from_bytes(self.raw(index)))
    }

    /// All entries in file order.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        (0..self.len()).map(|i| Entry::from_bytes(self.raw(i)))
    }

    /// The entries stored under `key`, in file order, found by binary search.
    pub fn entries_for_key(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        let first = partition_point(self.len(), |i| self.key_at(i) < key);
        (first..self.len())
            .take_while(move |&i| self.key_at(i) == key)
            .map(|i| Entry::from_bytes(self.raw(i)))
    }

    /// The book moves of `pos`, best first (by weight, then file order). Entries whose move is
    /// not legal in `pos` (a key collision or a corrupt book) are left out, and a move listed
    /// twice appears once, with its higher weight.
    pub fn probe(&self, pos: &BookPosition) -> Vec<BookMove> {
        let mut moves: Vec<BookMove> = Vec::new();
        for entry in self.entries_for_key(pos.key()) {
            let Some(mv) = entry.mv.to_move(pos.position()) else {
                continue;
            };
            match moves.iter_mut().find(|b| b.mv == mv) {
                Some(known) if known.weight >= entry.weight => {}
                Some(known) => {
                    known.weight = entry.weight;
                    known.learn = entry.learn;
                }
                None => moves.push(BookMove {
                    mv,
                    weight: entry.weight,
                    learn: entry.learn,
                }),
            }
        }
        // Stable: equal weights keep file order.
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }

    /// A book move for `pos` chosen as `choice` says, or `None` when the position is not in
    /// the book or all its moves have weight 0.
    pub fn choose(&self, pos: &BookPosition, choice: Choice) -> Option<BookMove> {
        choice.pick(&self.probe(pos))
    }
}

impl Choice {
    /// The move this choice picks among `moves` (as [`Book::probe`] returns them, or a subset
    /// of them); `None` when all have weight 0 or there are none.
    pub fn pick(self, moves: &[BookMove]) -> Option<BookMove> {
        match self {
            // The first of the heaviest.
            Choice::Best => moves
                .iter()
                .filter(|m| m.weight > 0)
                .fold(None, |best: Option<&BookMove>, m| match best {
                    Some(b) if b.weight >= m.weight => Some(b),
                    _ => Some(m),
                })
                .copied(),
            Choice::Weighted(random) => {
                let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
                // Scale the random value into 0..total (high bits, no modulo bias to speak of).
                let mut target = ((u128::from(random) * u128::from(total)) >> 64) as u64;
                moves
                    .iter()
                    .find(|m| {
                        let w = u64::from(m.weight);
                        if target < w {
                            true
                        } else {
                            target -= w;
                            false
                        }
                    })
                    .copied()
            }
        }
    }
}

/// The first index in `0..len` for which `below` is false (`below` must be true then false).
fn partition_point(len: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}
