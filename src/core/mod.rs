//! The board: squares, bitboards, pieces, moves, attack tables, positions with make/unmake and
//! Zobrist keys, FEN, legal move generation and perft. It knows nothing of games, search or UCI
//! and does no I/O.

pub mod attacks;
pub mod bitboard;
pub mod castling;
pub mod fen;
mod material;
pub mod movegen;
pub mod mv;
pub mod perft;
pub mod piece;
pub mod position;
pub mod square;
pub mod zobrist;

#[cfg(feature = "serde")]
pub use crate::serde_impls::MoveSeed;
pub use bitboard::Bitboard;
pub use castling::{CastleSide, Castling, CastlingRights};
pub use fen::{FenError, STARTPOS};
pub use material::insufficient_material;
pub use movegen::{MoveList, MAX_MOVES};
pub use mv::{Move, MoveKind, UciMoveError};
pub use perft::{divide, perft};
pub use piece::{Color, Piece, PieceKind};
pub use position::{castle_destinations, Position, Undo};
pub use square::{ParseSquareError, Square};
