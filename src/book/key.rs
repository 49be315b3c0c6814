//! Polyglot position keys, and [`BookPosition`]: a position together with the one fact the core
//! does not keep and the key needs (the square a double pawn push just skipped).

use crate::core::attacks::pawn_attacks;
use crate::core::{Color, FenError, Move, Piece, PieceKind, Position, Square, UciMoveError};

use super::random::RANDOM64;

/// Offset of the four castling keys in the random table.
const CASTLING: usize = 768;
/// Offset of the eight en-passant file keys.
const EN_PASSANT: usize = 772;
/// The key XORed in when White is to move.
const TURN: usize = 780;

/// The Polyglot key of `pos`.
///
/// The key is the XOR of the published random numbers for each piece on its square, each
/// castling right held, the side to move (when White) and the en-passant file. Polyglot counts
/// the en-passant file when the opponent has just pushed a pawn two squares and a pawn of the
/// side to move stands beside it, whether or not the capture is legal. The core keeps its
/// en-passant square only when the capture is legal, so that fact is lost when the capturing
/// pawn is pinned; `ep_target` supplies it: the square the last move's double pawn push skipped
/// (the FEN en-passant field as standard FEN writers set it), or `None` when the last move was
/// not a double push or is unknown. With `None` the key is still exact unless a pseudo-legal but
/// illegal en-passant capture exists. [`BookPosition`] tracks `ep_target` for you.
///
/// ```
/// use ferrum::book::polyglot_key;
/// use ferrum::core::Position;
/// assert_eq!(polyglot_key(&Position::startpos(), None), 0x463B_9618_1691_FC9C);
/// // After 1.e4 d5 2.e5 f5 White's e5 pawn may take on f6: the en-passant file counts.
/// let pos = Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
///     .unwrap();
/// assert_eq!(polyglot_key(&pos, "f6".parse().ok()), 0x22A4_8B5A_8E47_FF78);
/// ```
pub fn polyglot_key(pos: &Position, ep_target: Option<Square>) -> u64 {
    let mut key = 0;
    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            key ^= RANDOM64[64 * piece_index(piece) + sq.index()];
        }
    }
    let rights = pos.castling_rights().bits();
    for i in 0..4 {
        if rights & (1 << i) != 0 {
            key ^= RANDOM64[CASTLING + i];
        }
    }
    if let Some(file) = en_passant_file(pos, pos.en_passant().or(ep_target)) {
        key ^= RANDOM64[EN_PASSANT + file as usize];
    }
    if pos.side_to_move() == Color::White {
        key ^= RANDOM64[TURN];
    }
    key
}

/// Polyglot's piece numbering: black pawn 0, white pawn 1, black knight 2, ... white king 11.
#[inline]
fn piece_index(piece: Piece) -> usize {
    2 * piece.kind.index() + usize::from(piece.color == Color::White)
}

/// The file whose en-passant key counts: `target` must be the square just behind an enemy pawn
/// that stands on its fourth rank (from its side), and a pawn of the side to move must stand
/// beside that pawn. Legality of the capture does not matter.
fn en_passant_file(pos: &Position, target: Option<Square>) -> Option<u8> {
    let target = target?;
    let us = pos.side_to_move();
    let (target_rank, pushed_rank) = match us {
        Color::White => (5, 4),
        Color::Black => (2, 3),
    };
    if target.rank() != target_rank {
        return None;
    }
    let pushed = Square::from_coords(target.file(), pushed_rank);
    if pos.piece_at(pushed) != Some(Piece::new(!us, PieceKind::Pawn)) {
        return None;
    }
    // The squares from which a pawn of ours would attack `target` are the two beside `pushed`.
    let beside = pawn_attacks(!us, target) & pos.pieces_of(us, PieceKind::Pawn);
    beside.any().then_some(target.file())
}

/// The square a double pawn push skipped, if `m` (about to be played in `before`) is one.
pub fn double_push_target(before: &Position, m: Move) -> Option<Square> {
    let (from, to) = (m.from(), m.to());
    let is_pawn = before.piece_at(from).map(|p| p.kind) == Some(PieceKind::Pawn);
    (is_pawn && from.file() == to.file() && from.rank().abs_diff(to.rank()) == 2)
        .then(|| Square::from_coords(from.file(), (from.rank() + to.rank()) / 2))
}

/// The square in the en-passant field of `fen`, if it names one. Meant for a FEN that
/// [`Position::from_fen`] accepted (which checks that a double push can have skipped it); the
/// core's position keeps the square only when the capture is legal, the Polyglot key needs it
/// whenever a pawn stands beside the pushed one.
pub fn fen_ep_target(fen: &str) -> Option<Square> {
    fen.split_whitespace()
        .nth(3)
        .and_then(|field| field.parse().ok())
}

/// A position with what its Polyglot key needs beyond the core's [`Position`]: the square the
/// last move's double pawn push skipped, if it was one (see [`polyglot_key`]).
///
/// ```
/// use ferrum::book::BookPosition;
/// let mut pos = BookPosition::startpos();
/// for m in ["e2e4", "d7d5", "e4e5", "f7f5"] {
///     pos.play_uci(m).unwrap();
/// }
/// assert_eq!(pos.key(), 0x22A4_8B5A_8E47_FF78);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPosition {
    pos: Position,
    ep_target: Option<Square>,
}

impl BookPosition {
    /// The standard starting position.
    pub fn startpos() -> BookPosition {
        BookPosition::new(Position::startpos(), None)
    }

    /// `pos`, reached by a move that skipped `ep_target` with a double pawn push (or `None`).
    pub fn new(pos: Position, ep_target: Option<Square>) -> BookPosition {
        BookPosition { pos, ep_target }
    }

    /// Parses a FEN, keeping its en-passant field even when no en-passant capture is legal
    /// (FEN writers set it after every double push; Polyglot's key may need it).
    ///
    /// ```
    /// use ferrum::book::BookPosition;
    /// // d4xe3 would expose the black king to the queen, yet Polyglot counts the e-file.
    /// let pinned = "8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1";
    /// let with_field = BookPosition::from_fen(pinned).unwrap();
    /// let without = BookPosition::from_fen("8/8/8/8/k2pP2Q/8/8/4K3 b - - 0 1").unwrap();
    /// assert_eq!(with_field.position(), without.position());
    /// assert_ne!(with_field.key(), without.key());
    /// ```
    pub fn from_fen(fen: &str) -> Result<BookPosition, FenError> {
        let pos = Position::from_fen(fen)?;
        Ok(BookPosition::new(pos, fen_ep_target(fen)))
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The square the last move's double pawn push skipped, if known.
    pub fn ep_target(&self) -> Option<Square> {
        self.ep_target
    }

    /// The Polyglot key.
    pub fn key(&self) -> u64 {
        polyglot_key(&self.pos, self.ep_target)
    }

    /// Plays `m` if it is legal here; otherwise changes nothing and says why.
    pub fn play(&mut self, m: Move) -> Result<(), UciMoveError> {
        if !self.pos.is_legal(m) {
            return Err(UciMoveError::Illegal(m.to_uci(self.pos.is_chess960())));
        }
        self.ep_target = double_push_target(&self.pos, m);
        self.pos.make(m);
        Ok(())
    }

    /// Plays the move written `text` in UCI notation (castling as `e1g1` or `e1h1`).
    pub fn play_uci(&mut self, text: &str) -> Result<Move, UciMoveError> {
        let m = self.pos.parse_uci(text)?;
        self.play(m)?;
        Ok(m)
    }
}

impl Default for BookPosition {
    fn default() -> Self {
        BookPosition::startpos()
    }
}
