//! The board state and how moves change it: make/unmake with a small undo record, the null
//! move, and incremental Zobrist keys.

use std::fmt;

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::castling::{Castling, CastlingRights};
use super::mv::{Move, MoveKind};
use super::piece::{Color, Piece, PieceKind};
use super::square::Square;
use super::zobrist;

/// A chess position: piece placement, side to move, castling rights, the en-passant square
/// (kept only when an en-passant capture is actually legal), the clocks and the hash keys.
///
/// ```
/// use ferrum::core::Position;
/// let mut pos = Position::startpos();
/// let moves = pos.legal_moves();
/// assert_eq!(moves.len(), 20);
/// let undo = pos.make(moves[0]);
/// assert_eq!(pos.key(), pos.key_from_scratch());
/// pos.unmake(moves[0], &undo);
/// assert_eq!(pos, Position::startpos());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) board: [Option<Piece>; 64],
    pub(crate) side: Color,
    pub(crate) castling: Castling,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    pub(crate) pawn_key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) chess960: bool,
}

/// What [`Position::make`] needs to take a move back.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    captured: Option<Piece>,
    rights: CastlingRights,
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    pawn_key: u64,
    checkers: Bitboard,
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        match Position::from_fen(super::fen::STARTPOS) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    /// An empty board with White to move and no rights (the FEN parser fills it).
    pub(crate) fn empty() -> Position {
        Position {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            board: [None; 64],
            side: Color::White,
            castling: Castling::default(),
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            pawn_key: 0,
            checkers: Bitboard::EMPTY,
            chess960: false,
        }
    }

    // ---- queries ----

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Squares holding pieces of `kind`, both colours.
    #[inline(always)]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Squares holding `color`'s pieces.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Rooks and queens of `color` (the pieces that attack along ranks and files).
    #[inline(always)]
    pub fn rook_movers(&self, color: Color) -> Bitboard {
        (self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Queen.index()])
            & self.by_color[color.index()]
    }

    /// Bishops and queens of `color` (the pieces that attack along diagonals).
    #[inline(always)]
    pub fn bishop_movers(&self, color: Color) -> Bitboard {
        (self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Queen.index()])
            & self.by_color[color.index()]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Where `color`'s king stands.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces_of(color, PieceKind::King).lsb()
    }

    /// Castling rights and geometry.
    #[inline(always)]
    pub fn castling(&self) -> &Castling {
        &self.castling
    }

    /// The castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling.rights
    }

    /// The en-passant target square, present only when an en-passant capture is legal.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The move number, starting at 1 and counting up after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key of the whole position (placement, side, rights, available en passant).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key of the pawns alone (for an evaluation cache).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// True when castling is written as king-takes-rook and FEN castling fields use Chess960
    /// notation.
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switch Chess960 notation on or off (it changes only how moves and FENs are written).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Pieces of either colour attacking `sq`, were the board occupied as `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, PieceKind::Pawn))
            | (knight_attacks(sq) & self.pieces(PieceKind::Knight))
            | (king_attacks(sq) & self.pieces(PieceKind::King))
            | (rook_attacks(sq, occ)
                & (self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen)))
            | (bishop_attacks(sq, occ)
                & (self.pieces(PieceKind::Bishop) | self.pieces(PieceKind::Queen)))
    }

    /// The pieces attacking `color`'s king (kings never give check, so they are left out).
    #[inline(always)]
    fn attacks_on_king(&self, color: Color) -> Bitboard {
        let ksq = self.king_square(color);
        let enemy = !color;
        let occ = self.occupied();
        ((knight_attacks(ksq) & self.by_kind[PieceKind::Knight.index()])
            | (pawn_attacks(color, ksq) & self.by_kind[PieceKind::Pawn.index()]))
            & self.by_color[enemy.index()]
            | (rook_attacks(ksq, occ) & self.rook_movers(enemy))
            | (bishop_attacks(ksq, occ) & self.bishop_movers(enemy))
    }

    /// True when a piece of `by` attacks `sq`, were the board occupied as `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        (knight_attacks(sq) & self.by_kind[PieceKind::Knight.index()] & them).any()
            || (pawn_attacks(!by, sq) & self.by_kind[PieceKind::Pawn.index()] & them).any()
            || (king_attacks(sq) & self.by_kind[PieceKind::King.index()] & them).any()
            || (rook_attacks(sq, occ) & self.rook_movers(by)).any()
            || (bishop_attacks(sq, occ) & self.bishop_movers(by)).any()
    }

    // ---- changing the board ----

    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bb();
        self.by_kind[piece.kind.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.board[sq.index()] = Some(piece);
    }

    #[inline(always)]
    fn take(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bb();
        self.by_kind[piece.kind.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.board[sq.index()] = None;
    }

    /// Place a piece while building a position (FEN parsing, tests); keys are set afterwards.
    pub(crate) fn place(&mut self, piece: Piece, sq: Square) {
        if let Some(old) = self.board[sq.index()] {
            self.take(old, sq);
        }
        self.put(piece, sq);
    }

    /// Plays `m` if it is legal here; otherwise refuses it and leaves the position as it was.
    ///
    /// ```
    /// use ferrum::core::{IllegalMove, Position};
    /// let mut pos = Position::startpos();
    /// let e4 = pos.parse_uci("e2e4").unwrap();
    /// let undo = pos.try_make(e4).unwrap();
    /// // The same move again, now by Black, is refused.
    /// assert_eq!(pos.try_make(e4).unwrap_err(), IllegalMove(e4));
    /// pos.unmake(e4, &undo);
    /// assert_eq!(pos, Position::startpos());
    /// ```
    pub fn try_make(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        if self.is_legal(m) {
            Ok(self.make(m))
        } else {
            Err(IllegalMove(m))
        }
    }

    /// Plays `m` **unchecked**: it must be legal in this position (from
    /// [`Position::legal_moves`] or checked with [`Position::is_legal`]). Returns what
    /// [`Position::unmake`] needs. An illegal move is not detected (it is the search's inner
    /// loop) and leaves the position corrupt; moves from outside go through
    /// [`Position::try_make`] or [`crate::Game::play_move`].
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = self.undo_record();
        let us = self.side;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.board[from.index()] else {
            debug_assert!(false, "make: no piece on {from} for {m:?}");
            return undo;
        };
        let mut key = self.key ^ zobrist::side_key();
        if let Some(ep) = self.ep.take() {
            key ^= zobrist::en_passant_key(ep.file());
        }
        // Saturating: a FEN may carry clocks near u16::MAX; unmake restores them from the record.
        self.halfmove = self.halfmove.saturating_add(1);
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        let mut captured = None;

        match m.kind() {
            MoveKind::Castle => {
                let rook = Piece::new(us, PieceKind::Rook);
                let (king_to, rook_to) = castle_destinations(from, to);
                self.take(mover, from);
                self.take(rook, to);
                self.put(mover, king_to);
                self.put(rook, rook_to);
                key ^= zobrist::piece_key(mover, from)
                    ^ zobrist::piece_key(mover, king_to)
                    ^ zobrist::piece_key(rook, to)
                    ^ zobrist::piece_key(rook, rook_to);
            }
            MoveKind::EnPassant => {
                let cap_sq = Square::new(to.to_u8() ^ 8);
                let victim = Piece::new(them, PieceKind::Pawn);
                self.take(victim, cap_sq);
                self.take(mover, from);
                self.put(mover, to);
                let delta = zobrist::piece_key(victim, cap_sq)
                    ^ zobrist::piece_key(mover, from)
                    ^ zobrist::piece_key(mover, to);
                key ^= delta;
                self.pawn_key ^= delta;
                self.halfmove = 0;
                captured = Some(victim);
            }
            kind => {
                if let Some(victim) = self.board[to.index()] {
                    self.take(victim, to);
                    let k = zobrist::piece_key(victim, to);
                    key ^= k;
                    if victim.kind == PieceKind::Pawn {
                        self.pawn_key ^= k;
                    }
                    self.halfmove = 0;
                    captured = Some(victim);
                }
                self.take(mover, from);
                let placed = match m.promotion() {
                    Some(p) => Piece::new(us, p),
                    None => mover,
                };
                self.put(placed, to);
                key ^= zobrist::piece_key(mover, from) ^ zobrist::piece_key(placed, to);
                if mover.kind == PieceKind::Pawn {
                    self.halfmove = 0;
                    self.pawn_key ^= zobrist::piece_key(mover, from);
                    if kind == MoveKind::Normal {
                        self.pawn_key ^= zobrist::piece_key(mover, to);
                        if from.to_u8() ^ to.to_u8() == 16 {
                            let ep = Square::new((from.to_u8() + to.to_u8()) / 2);
                            if self.en_passant_capture_possible(ep, them) {
                                self.ep = Some(ep);
                                key ^= zobrist::en_passant_key(ep.file());
                            }
                        }
                    }
                }
            }
        }

        let rights = self.castling.after_move(from, to);
        if rights != self.castling.rights {
            key ^= zobrist::castling_key(self.castling.rights) ^ zobrist::castling_key(rights);
            self.castling.rights = rights;
        }
        self.side = them;
        self.key = key;
        self.checkers = self.attacks_on_king(them);
        Undo { captured, ..undo }
    }

    /// Takes back `m`, which must be the last move made, with the record `make` returned.
    pub fn unmake(&mut self, m: Move, undo: &Undo) {
        let them = self.side;
        let us = !them;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castle => {
                let king = Piece::new(us, PieceKind::King);
                let rook = Piece::new(us, PieceKind::Rook);
                let (king_to, rook_to) = castle_destinations(from, to);
                self.take(king, king_to);
                self.take(rook, rook_to);
                self.put(king, from);
                self.put(rook, to);
            }
            MoveKind::EnPassant => {
                let pawn = Piece::new(us, PieceKind::Pawn);
                self.take(pawn, to);
                self.put(pawn, from);
                self.put(
                    Piece::new(them, PieceKind::Pawn),
                    Square::new(to.to_u8() ^ 8),
                );
            }
            _ => {
                if let Some(placed) = self.board[to.index()] {
                    self.take(placed, to);
                    let mover = match m.promotion() {
                        Some(_) => Piece::new(us, PieceKind::Pawn),
                        None => placed,
                    };
                    self.put(mover, from);
                }
                if let Some(victim) = undo.captured {
                    self.put(victim, to);
                }
            }
        }
        self.side = us;
        self.fullmove = undo.fullmove;
        self.castling.rights = undo.rights;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.pawn_key = undo.pawn_key;
        self.checkers = undo.checkers;
    }

    /// What `unmake` and `unmake_null` restore, taken before a move changes it (the captured
    /// piece is filled in by `make` when there is one).
    #[inline(always)]
    fn undo_record(&self) -> Undo {
        Undo {
            captured: None,
            rights: self.castling.rights,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.key,
            pawn_key: self.pawn_key,
            checkers: self.checkers,
        }
    }

    /// Passes the move to the opponent (for null-move pruning). The side to move must not be in
    /// check.
    pub fn make_null(&mut self) -> Undo {
        let undo = self.undo_record();
        self.key ^= zobrist::side_key();
        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant_key(ep.file());
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = !self.side;
        self.checkers = Bitboard::EMPTY;
        undo
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self, undo: &Undo) {
        self.side = !self.side;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.checkers = undo.checkers;
    }

    /// True when `by` (the side to move after a double push) has a legal en-passant capture
    /// onto `ep`: a pawn beside the pushed one whose capture does not expose its own king.
    pub(crate) fn en_passant_capture_possible(&self, ep: Square, by: Color) -> bool {
        let pushed = Square::new(ep.to_u8() ^ 8);
        let candidates = pawn_attacks(!by, ep) & self.pieces_of(by, PieceKind::Pawn);
        if candidates.is_empty() {
            return false;
        }
        let ksq = self.king_square(by);
        let enemy = !by;
        candidates.iter().any(|from| {
            let occ = (self.occupied() ^ from.bb() ^ pushed.bb()) | ep.bb();
            let attackers =
                self.attackers_to(ksq, occ) & self.by_color[enemy.index()] & !pushed.bb();
            attackers.is_empty()
        })
    }

    /// The key computed from nothing; always equal to [`Position::key`] (tests check it).
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece_key(p, sq);
            }
        }
        if self.side == Color::Black {
            key ^= zobrist::side_key();
        }
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant_key(ep.file());
        }
        key ^ zobrist::castling_key(self.castling.rights)
    }

    /// The pawn key computed from nothing.
    pub fn pawn_key_from_scratch(&self) -> u64 {
        self.pieces(PieceKind::Pawn)
            .iter()
            .filter_map(|sq| self.board[sq.index()].map(|p| zobrist::piece_key(p, sq)))
            .fold(0, |a, b| a ^ b)
    }

    /// Recomputes keys and checkers after the position was built square by square.
    pub(crate) fn refresh(&mut self) {
        self.key = self.key_from_scratch();
        self.pawn_key = self.pawn_key_from_scratch();
        self.checkers = self.attacks_on_king(self.side);
    }

    /// The piece that `m` moves, if there is one on its origin.
    #[inline]
    pub fn moved_piece(&self, m: Move) -> Option<Piece> {
        self.board[m.from().index()]
    }

    /// The piece `m` captures (the pawn beside the target for en passant), if any.
    #[inline]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::Castle => None,
            MoveKind::EnPassant => Some(Piece::new(!self.side, PieceKind::Pawn)),
            _ => self.board[m.to().index()],
        }
    }

    /// True when `m` captures something.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.captured_piece(m).is_some()
    }

    /// True when `m` is a capture or a promotion: the moves the search orders and prunes
    /// apart from quiet ones, and the best moves training data leaves out.
    #[inline]
    pub fn is_tactical(&self, m: Move) -> bool {
        m.promotion().is_some() || self.is_capture(m)
    }
}

/// Where king and rook end up for a castling move written king-takes-rook from `king` to `rook`.
#[inline(always)]
pub fn castle_destinations(king: Square, rook: Square) -> (Square, Square) {
    let rank = king.rank();
    if rook.file() > king.file() {
        (Square::from_coords(6, rank), Square::from_coords(5, rank))
    } else {
        (Square::from_coords(2, rank), Square::from_coords(3, rank))
    }
}

impl fmt::Display for Position {
    /// A diagram of the board, White at the bottom, then the FEN and the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = self.board[Square::from_coords(file, rank).index()]
                    .map_or(' ', |p| p.fen_char());
                write!(f, " | {c}")?;
            }
            writeln!(f, " | {}", rank + 1)?;
            writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.fen())?;
        write!(f, "Key: {:016X}", self.key)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_move_passes_the_turn_and_comes_back() {
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        let mut pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.en_passant(), Some(Square::F6));
        let before = pos.clone();
        let undo = pos.make_null();
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(pos.en_passant(), None);
        assert_eq!(pos.key(), pos.key_from_scratch());
        assert_ne!(pos.key(), before.key());
        pos.unmake_null(&undo);
        assert_eq!(pos, before);
        assert_eq!(pos.fen(), fen);
    }

    /// Clocks at the top of their range (a FEN may say anything) neither wrap nor panic.
    #[test]
    fn clocks_saturate_and_unmake_restores_them() {
        let fen = "4k3/8/8/8/8/8/8/4K3 b - - 65535 65535";
        let mut pos = Position::from_fen(fen).unwrap();
        let m = pos.legal_moves()[0];
        let undo = pos.make(m);
        assert_eq!(
            (pos.halfmove_clock(), pos.fullmove_number()),
            (65535, 65535)
        );
        pos.unmake(m, &undo);
        assert_eq!(pos.fen(), fen);
        let undo = pos.make_null();
        assert_eq!(pos.halfmove_clock(), 65535);
        pos.unmake_null(&undo);
        assert_eq!(pos.fen(), fen);
    }

    #[test]
    fn checkers_are_found_after_each_kind_of_move() {
        // Discovered check by castling's rook, en passant that discovers check, promotion check.
        let cases = [
            ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 1),
            ("8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", "e4d3", 0),
            ("7k/8/8/3pP3/8/8/8/B3K3 w - d6 0 1", "e5d6", 1),
            ("7k/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", 1),
        ];
        for (fen, uci, checks) in cases {
            let mut pos = Position::from_fen(fen).unwrap();
            let m = pos.parse_uci(uci).unwrap();
            pos.make(m);
            assert_eq!(pos.checkers().count(), checks, "{fen} {uci}");
            let fresh = Position::from_fen(&pos.fen()).unwrap();
            assert_eq!(fresh.checkers(), pos.checkers());
        }
    }
}

/// A move refused by [`Position::try_make`]: it is not legal in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is not a legal move in this position",
            self.0.to_uci(false)
        )
    }
}

impl std::error::Error for IllegalMove {}
