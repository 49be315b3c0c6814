//! The board: squares, bitboards, pieces, moves, attack tables, positions with make/unmake and
//! Zobrist keys, FEN, legal move generation and perft. It knows nothing of games, search or UCI
//! and does no I/O.

// Attack tables and Zobrist keys are sets of functions with no re-exports: they keep their
// module paths (`core::attacks::rook_attacks`). The other modules are private and their items
// are re-exported below, so each item has one path (`core::Position`, not also
// `core::position::Position`).
pub mod attacks;
pub(crate) mod bitboard;
pub(crate) mod castling;
pub(crate) mod fen;
mod material;
pub(crate) mod movegen;
pub(crate) mod mv;
pub(crate) mod perft;
pub(crate) mod piece;
pub(crate) mod position;
pub(crate) mod square;
pub mod zobrist;

#[cfg(feature = "serde")]
pub use crate::serde_impls::MoveSeed;
pub use bitboard::{BitIter, Bitboard};
pub use castling::{CastleSide, Castling, CastlingRights};
pub use fen::{FenError, STARTPOS};
pub use material::insufficient_material;
pub use movegen::{MoveList, MAX_MOVES};
pub use mv::{Move, MoveKind, UciMoveError};
pub use perft::{divide, divide_each, perft, perft_until};
pub use piece::{Color, Piece, PieceKind};
pub use position::{castle_destinations, IllegalMove, Position, Undo};
pub use square::{ParseSquareError, Square};
