//! Polyglot opening books: position keys, reading and probing, choosing a move by weight,
//! writing, and building books from games. Ferrum's own default book is embedded
//! ([`Book::embedded`]).
//!
//! The format, as published with Polyglot: a file of 16-byte big-endian entries (key, move,
//! weight, learn) sorted by key. The key is a Zobrist hash over 781 published random numbers
//! ([`polyglot_key`]); a move is 16 bits, castling written as the king taking its own rook
//! ([`PolyglotMove`]).
//!
//! ```
//! use ferrum::book::{Book, BookPosition, Choice};
//! let mut pos = BookPosition::startpos();
//! pos.play_uci("e2e4").unwrap();
//! assert_eq!(pos.key(), 0x823C_9B50_FD11_4196);
//! let reply = Book::embedded().choose(&pos, Choice::Best).unwrap();
//! assert!(pos.position().is_legal(reply.mv));
//! ```

mod builder;
mod entry;
mod key;
mod random;
mod reader;
mod writer;

pub use builder::{
    AddGameError, BookBuilder, BuildOptions, GameResult, LineError, ParseResultError, PgnAdded,
    UciLineError,
};
pub use entry::{Entry, PolyglotMove};
pub use key::{double_push_target, fen_ep_target, polyglot_key, BookPosition};
pub use random::RANDOM64;
pub use reader::{Book, BookError, BookMove, Choice};
pub use writer::BookWriter;
