//! # Ferrum
//!
//! A chess engine and an exact chess-rules library.
//!
//! - [`core`]: bitboards, magic attack tables, positions with make/unmake and Zobrist keys,
//!   FEN (with Chess960 X-FEN and Shredder-FEN), legal move generation and perft.
//! - [`rules`]: the exact-rules game API on the core: [`Game`] (UCI and SAN moves, undo,
//!   outcomes, draw claims), typed [`MoveError`]s, SAN and PGN, [`SharedGame`] for online play.
//! - [`book`]: Polyglot opening books (keys, probing, writing, building) and Ferrum's
//!   embedded default book.
//! - [`eval`]: the static evaluation: a neural network trained only on Ferrum's own games
//!   (built in, or loaded from a file), and the hand-crafted evaluation it grew from.
//! - [`tb`]: Syzygy endgame tablebases (WDL and DTZ probes).
//! - [`search`]: iterative deepening PVS with a shared lockless hash table and Lazy SMP; its
//!   tuning numbers are named in [`search::params`].
//! - [`uci`]: the UCI command parser and loop.
//! - Feature `serde`: serde support for squares, moves, positions, outcomes and games (as
//!   square names, UCI, FEN and start position plus moves).
//! - `tune` (feature `tune`, on by default through `cli`): self-play data, the network's
//!   trainer, the Texel tuner and the win/draw/loss fit.
//!
//! The types most programs start from are also at the crate root: [`Game`], [`SharedGame`],
//! [`Outcome`], [`DrawClaim`], [`MoveError`], [`GameError`], [`Position`], [`Move`],
//! [`Square`], [`Color`], [`Piece`] and [`PieceKind`].
//!
//! ```
//! use ferrum::{Game, Outcome, Color};
//! let mut game = Game::new();
//! for san in ["f3", "e5", "g4", "Qh4#"] {
//!     game.play(san).unwrap();
//! }
//! assert_eq!(game.outcome(), Outcome::Checkmate { winner: Color::Black });
//! ```
//!
//! ```
//! use ferrum::core::perft;
//! use ferrum::Position;
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(perft(&mut pos, 4), 197_281);
//! ```

#![warn(missing_docs)]
// Nothing here needs `unsafe`; forbidding it keeps the Miri/sanitizer question closed.
#![forbid(unsafe_code)]

pub mod book;
pub mod core;
// The engine (feature `engine`, on by default): without it the library is the rules alone.
#[cfg(feature = "engine")]
pub mod eval;
pub mod rules;
#[cfg(feature = "engine")]
pub mod search;
#[cfg(feature = "engine")]
pub mod tb;
// Training tools, not needed to play or referee chess; they bring rayon (feature `tune`).
#[cfg(feature = "tune")]
pub mod tune;
#[cfg(feature = "engine")]
pub mod uci;

// Serialize and Deserialize impls; the module is private, its one public type is re-exported
// by `core`.
#[cfg(feature = "serde")]
mod serde_impls;

// The types a program needs first, at the crate root as in shakmaty (`ferrum::Position`). Their
// home paths (`ferrum::core::Position`, `ferrum::rules::Game`) are the canonical ones in the
// documentation; these are the one accepted second path.
pub use core::{Color, Move, Piece, PieceKind, Position, Square};
pub use rules::{DrawClaim, Game, GameError, MoveError, Outcome, SharedGame};

/// The version text of [`VERSION`], as a literal for `concat!` (it also makes
/// [`uci::ENGINE_NAME`]).
macro_rules! version_text {
    () => {
        concat!(env!("CARGO_PKG_VERSION"), env!("FERRUM_COMMIT_SUFFIX"))
    };
}
#[cfg(feature = "engine")]
pub(crate) use version_text;

/// This build's version: the package version and, for a build from a git checkout, the
/// commit's short hash (with `-dirty` when the sources differ from it), e.g. `0.3.0 (abc1234)`;
/// just `0.3.0` from a crates.io download or without `git` (see `build.rs`). `ferrum
/// --version` prints it after `Ferrum`, and the UCI `id name` is `Ferrum` and it.
///
/// ```
/// assert!(ferrum::VERSION.starts_with(env!("CARGO_PKG_VERSION")));
/// assert_eq!(ferrum::uci::ENGINE_NAME, format!("Ferrum {}", ferrum::VERSION));
/// ```
pub const VERSION: &str = version_text!();

/// The README's code examples, compiled and run as doctests so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The examples of `docs/library.md`, compiled and run as doctests for the same reason (they
/// include the tablebases, so they need the engine).
#[cfg(all(doctest, feature = "engine"))]
#[doc = include_str!("../docs/library.md")]
pub struct LibraryDoctests;
