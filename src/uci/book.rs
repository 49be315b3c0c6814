//! The opening-book options of the UCI loop: `OwnBook` and `BookFile`.

use std::ffi::OsStr;

use crate::book::{Book, BookMove, BookPosition, Choice};
use crate::core::zobrist::splitmix;
use crate::core::{Move, Position, Square};

use super::options::parse_check;
use super::OptionError;

/// `OwnBook` (off by default, as tournament tools expect) and `BookFile` (the embedded book when
/// empty), and the random numbers for choosing among book moves by weight.
pub struct BookOptions {
    own_book: bool,
    /// `None`: the embedded book; `Some(None)`: a book file that could not be loaded.
    file: Option<Option<Book>>,
    rng: u64,
}

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions::new()
    }
}

impl BookOptions {
    /// The option lines sent in reply to `uci`.
    pub const UCI_OPTIONS: [&'static str; 2] = [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
    ];

    /// Book off, the embedded book selected, random numbers seeded from the clock.
    pub fn new() -> BookOptions {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        BookOptions::with_seed(nanos)
    }

    /// Like [`BookOptions::new`] with a fixed seed (reproducible choices).
    pub fn with_seed(seed: u64) -> BookOptions {
        BookOptions {
            own_book: false,
            file: None,
            rng: seed,
        }
    }

    /// True when `name` is one of the book options.
    pub fn handles(name: &str) -> bool {
        name.eq_ignore_ascii_case("OwnBook") || name.eq_ignore_ascii_case("BookFile")
    }

    /// Sets `OwnBook` or `BookFile`. A book file is read and checked at once; on
    /// [`OptionError::BookFile`] the engine plays without a book file.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        if name.eq_ignore_ascii_case("OwnBook") {
            self.own_book = parse_check("OwnBook", value)?;
            return Ok(());
        }
        self.set_file(OsStr::new(value.map(str::trim).unwrap_or_default()))
    }

    /// Sets `BookFile` to `path` (empty or `<empty>`: the embedded book), read and checked at
    /// once. The loop passes the value's bytes as sent, so a path that is not UTF-8 still
    /// opens where the platform allows it (see [`crate::uci::OptionValue`]).
    pub fn set_file(&mut self, path: &OsStr) -> Result<(), OptionError> {
        if path.is_empty() || path == "<empty>" {
            self.file = None;
            return Ok(());
        }
        match Book::open(path) {
            Ok(book) => {
                self.file = Some(Some(book));
                Ok(())
            }
            Err(e) => {
                self.file = Some(None);
                Err(OptionError::BookFile {
                    reason: e.to_string(),
                })
            }
        }
    }

    /// The book in use, if `OwnBook` is on and the selected book is loaded.
    fn book(&self) -> Option<&Book> {
        if !self.own_book {
            return None;
        }
        match &self.file {
            None => Some(Book::embedded()),
            Some(loaded) => loaded.as_ref(),
        }
    }

    /// A book move for `pos` (reached by a move that skipped `ep_target` with a double pawn
    /// push, if any), chosen at random by weight, among `allowed` when it is not empty.
    pub fn pick(
        &mut self,
        pos: &Position,
        ep_target: Option<Square>,
        allowed: &[Move],
    ) -> Option<Move> {
        let book = self.book()?;
        let mut moves: Vec<BookMove> = book.probe(&BookPosition::new(pos.clone(), ep_target));
        if !allowed.is_empty() {
            moves.retain(|b| allowed.contains(&b.mv));
        }
        let random = splitmix(&mut self.rng);
        Choice::Weighted(random).pick(&moves).map(|b| b.mv)
    }
}
