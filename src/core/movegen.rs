//! Legal move generation: all moves, captures (with promotions) only, quiets only, and
//! `is_legal` for untrusted moves. One generator serves every use; what it produces goes to a
//! sink, so the same code fills a move list or only counts (perft's bulk counting).

use std::ops::{Deref, DerefMut};

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::castling::{CastleSide, Castling, CastlingRights};
use super::mv::{Move, MoveKind};
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::square::Square;

/// More than the most legal moves any position has (218).
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack.
///
/// ```
/// use ferrum::core::Position;
/// let moves = Position::startpos().legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|m| m.to_uci(false) == "g1f3"));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Where the generator puts moves. Groups of moves arrive as bitboards so that a counting sink
/// never has to build them.
trait Sink {
    fn add(&mut self, m: Move);
    /// Normal moves from `from` to each square of `targets`.
    fn piece_moves(&mut self, from: Square, targets: Bitboard);
    /// Normal pawn moves to each square of `targets`, from `delta` squares behind.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8);
    /// All four promotions to each square of `targets`, from `delta` squares behind.
    fn promotions(&mut self, targets: Bitboard, delta: i8);
}

#[inline(always)]
fn origin(to: Square, delta: i8) -> Square {
    Square::new((to.to_u8() as i8 - delta) as u8)
}

impl Sink for MoveList {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }

    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::new(origin(to, delta), to, MoveKind::Normal));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = origin(to, delta);
            for kind in [
                MoveKind::PromoteQueen,
                MoveKind::PromoteKnight,
                MoveKind::PromoteRook,
                MoveKind::PromoteBishop,
            ] {
                self.push(Move::new(from, to, kind));
            }
        }
    }
}

struct Counter(usize);

impl Sink for Counter {
    #[inline(always)]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn piece_moves(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _: i8) {
        self.0 += targets.count() as usize;
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _: i8) {
        self.0 += 4 * targets.count() as usize;
    }
}

const ALL: u8 = 0;
/// Captures (en passant included) and every promotion, capturing or not.
const CAPTURES: u8 = 1;
/// Everything else: non-capturing, non-promoting moves, castling included.
const QUIETS: u8 = 2;

impl Position {
    /// Every legal move.
    ///
    /// ```
    /// use ferrum::core::Position;
    /// // The white king is in check from the rook on e8: only king moves and the block Be3.
    /// let pos = Position::from_fen("4r1k1/8/8/8/8/8/3B4/4K3 w - - 0 1").unwrap();
    /// let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci(false)).collect();
    /// moves.sort();
    /// assert_eq!(moves, ["d2e3", "e1d1", "e1f1", "e1f2"]);
    /// ```
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate::<ALL, _>(self, Bitboard::FULL, &mut list);
        list
    }

    /// Every legal capture (en passant included) and every legal promotion.
    #[inline]
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.append_legal_captures(&mut list);
        list
    }

    /// Every legal move that neither captures nor promotes (castling included).
    #[inline]
    pub fn legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.append_legal_quiets(&mut list);
        list
    }

    /// Appends [`Position::legal_captures`] to `list` (no list is built and copied: the move
    /// picker fills its own).
    #[inline]
    pub fn append_legal_captures(&self, list: &mut MoveList) {
        generate::<CAPTURES, _>(self, Bitboard::FULL, list);
    }

    /// Appends [`Position::legal_quiets`] to `list`.
    #[inline]
    pub fn append_legal_quiets(&self, list: &mut MoveList) {
        generate::<QUIETS, _>(self, Bitboard::FULL, list);
    }

    /// Appends the legal moves of the pieces standing on `origins` to `list`.
    pub fn legal_moves_from(&self, origins: Bitboard, list: &mut MoveList) {
        generate::<ALL, _>(self, origins, list);
    }

    /// The number of legal moves, counted without building them.
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = Counter(0);
        generate::<ALL, _>(self, Bitboard::FULL, &mut counter);
        counter.0
    }

    /// True when the side to move has at least one legal move.
    #[inline]
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// True when `m` is legal here. Safe for any 16 bits (hash-table moves, user input): it
    /// asks the generator for the moves of the piece on `m`'s origin.
    pub fn is_legal(&self, m: Move) -> bool {
        match self.piece_at(m.from()) {
            Some(p) if p.color == self.side && !m.is_null() => {
                let mut list = MoveList::new();
                generate::<ALL, _>(self, m.from().bb(), &mut list);
                list.contains(&m)
            }
            _ => false,
        }
    }

    /// Pieces of the side to move pinned to their own king.
    pub fn pinned(&self) -> Bitboard {
        let us = self.side;
        let them = !us;
        let ksq = self.king_square(us);
        let their = self.color_bb(them);
        let occ = self.occupied();
        let snipers = (rook_attacks(ksq, their) & self.rook_movers(them))
            | (bishop_attacks(ksq, their) & self.bishop_movers(them));
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = between(ksq, s) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.color_bb(us)
    }
}

#[inline(always)]
fn generate<const MODE: u8, S: Sink>(pos: &Position, origins: Bitboard, sink: &mut S) {
    let us = pos.side_to_move();
    let them = !us;
    let our = pos.color_bb(us);
    let their = pos.color_bb(them);
    let occ = our | their;
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();
    let landing = match MODE {
        ALL => !our,
        CAPTURES => their,
        _ => !occ,
    };

    if origins.has(ksq) {
        let without_king = occ ^ ksq.bb();
        let mut safe = Bitboard::EMPTY;
        for to in king_attacks(ksq) & landing {
            if !pos.is_attacked(to, them, without_king) {
                safe |= to.bb();
            }
        }
        sink.piece_moves(ksq, safe);
        if MODE != CAPTURES && checkers.is_empty() {
            castling(pos, us, ksq, occ, sink);
        }
    }
    if checkers.more_than_one() {
        return;
    }
    let check_mask = match checkers.first() {
        Some(c) => between(ksq, c) | c.bb(),
        None => Bitboard::FULL,
    };
    let pinned = pos.pinned();
    let targets = landing & check_mask;

    for from in pos.pieces_of(us, PieceKind::Knight) & origins & !pinned {
        sink.piece_moves(from, knight_attacks(from) & targets);
    }
    for from in pos.bishop_movers(us) & origins {
        let mut t = bishop_attacks(from, occ) & targets;
        if pinned.has(from) {
            t &= line(ksq, from);
        }
        sink.piece_moves(from, t);
    }
    for from in pos.rook_movers(us) & origins {
        let mut t = rook_attacks(from, occ) & targets;
        if pinned.has(from) {
            t &= line(ksq, from);
        }
        sink.piece_moves(from, t);
    }

    let pawns = pos.pieces_of(us, PieceKind::Pawn) & origins;
    pawn_moves::<MODE, S>(us, pawns & !pinned, occ, their, check_mask, sink);
    for p in pawns & pinned {
        pawn_moves::<MODE, S>(us, p.bb(), occ, their, check_mask & line(ksq, p), sink);
    }
    if MODE != QUIETS {
        if let Some(ep) = pos.en_passant() {
            en_passant(pos, us, ksq, ep, pawns, sink);
        }
    }
}

/// Pawn pushes, captures and promotions of `pawns`, landing only on `allowed`.
#[inline(always)]
fn pawn_moves<const MODE: u8, S: Sink>(
    us: Color,
    pawns: Bitboard,
    occ: Bitboard,
    their: Bitboard,
    allowed: Bitboard,
    sink: &mut S,
) {
    if pawns.is_empty() {
        return;
    }
    let empty = !occ;
    let (seventh, third, up) = match us {
        Color::White => (Bitboard::RANK_7, Bitboard::RANK_3, 8i8),
        Color::Black => (Bitboard::rank(1), Bitboard::RANK_6, -8i8),
    };
    let forward = |b: Bitboard| b.forward(us);
    if MODE != CAPTURES {
        let push1 = forward(pawns & !seventh) & empty;
        let push2 = forward(push1 & third) & empty & allowed;
        sink.pawn_moves(push1 & allowed, up);
        sink.pawn_moves(push2, 2 * up);
    }
    if MODE != QUIETS {
        let promoting = pawns & seventh;
        sink.promotions(forward(promoting) & empty & allowed, up);
        let victims = their & allowed;
        // Captures towards the a-file, then towards the h-file.
        let west = forward(pawns).west() & victims;
        let east = forward(pawns).east() & victims;
        let last = Bitboard::RANK_1 | Bitboard::RANK_8;
        sink.pawn_moves(west & !last, up - 1);
        sink.pawn_moves(east & !last, up + 1);
        sink.promotions(west & last, up - 1);
        sink.promotions(east & last, up + 1);
    }
}

/// En-passant captures onto `ep`, each checked by looking at the king after the capture (this
/// covers pins, the rank pin through both pawns, and checks).
#[cold]
fn en_passant<S: Sink>(
    pos: &Position,
    us: Color,
    ksq: Square,
    ep: Square,
    pawns: Bitboard,
    sink: &mut S,
) {
    let victim = Square::new(ep.to_u8() ^ 8);
    let occ = pos.occupied();
    for from in pawn_attacks(!us, ep) & pawns {
        let after = (occ ^ from.bb() ^ victim.bb()) | ep.bb();
        let attackers = pos.attackers_to(ksq, after) & pos.color_bb(!us) & !victim.bb();
        if attackers.is_empty() {
            sink.add(Move::new(from, ep, MoveKind::EnPassant));
        }
    }
}

/// Castling moves, as king-takes-own-rook. The king must not be in check (the caller knows),
/// the squares between king, rook and their destinations must be empty, and no square the king
/// crosses or lands on may be attacked once king and rook have left their squares.
#[inline(always)]
fn castling<S: Sink>(pos: &Position, us: Color, ksq: Square, occ: Bitboard, sink: &mut S) {
    let c = pos.castling();
    if !c.rights.intersects(CastlingRights::color(us)) {
        return;
    }
    for side in [CastleSide::King, CastleSide::Queen] {
        if !c.rights.contains(CastlingRights::of(us, side)) {
            continue;
        }
        let i = Castling::index(us, side);
        let rook = c.rook_square(i);
        if (c.empty_path(i) & occ).any() {
            continue;
        }
        let vacated = occ ^ ksq.bb() ^ rook.bb();
        if c.king_path(i)
            .iter()
            .all(|sq| !pos.is_attacked(sq, !us, vacated))
        {
            sink.add(Move::new(ksq, rook, MoveKind::Castle));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_uci(list: &MoveList) -> Vec<String> {
        let mut v: Vec<String> = list.iter().map(|m| m.to_uci(false)).collect();
        v.sort();
        v
    }

    #[test]
    fn captures_and_quiets_partition_all_moves() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let all = pos.legal_moves();
            let mut both = pos.legal_captures();
            for m in pos.legal_quiets().iter() {
                assert!(!both.contains(m), "{m:?} in both lists");
                both.push(*m);
            }
            assert_eq!(sorted_uci(&all), sorted_uci(&both), "{fen}");
            assert_eq!(pos.count_legal_moves(), all.len());
            for m in pos.legal_captures().iter() {
                assert!(pos.is_capture(*m) || m.promotion().is_some());
            }
        }
    }

    #[test]
    fn is_legal_accepts_exactly_the_generated_moves() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let legal = pos.legal_moves();
        let mut accepted = 0;
        for bits in 0..=u16::MAX {
            let m = Move::from_bits(bits);
            if pos.is_legal(m) {
                assert!(legal.contains(&m), "{m:?}");
                accepted += 1;
            }
        }
        assert_eq!(accepted, legal.len());
    }

    #[test]
    fn double_check_allows_only_king_moves() {
        // Black king e8 in check from the rook on e1 and the bishop on b5. It may not retreat
        // along the rook's line (e7) nor step onto the bishop's diagonal (d7).
        let pos = Position::from_fen("4k3/8/8/1B6/8/8/8/K3R3 b - - 0 1").unwrap();
        assert_eq!(pos.checkers().count(), 2);
        let moves = pos.legal_moves();
        assert!(moves.iter().all(|m| m.from() == Square::E8));
        assert_eq!(sorted_uci(&moves), vec!["e8d8", "e8f7", "e8f8"]);
    }

    #[test]
    fn queen_side_castling_with_b1_attacked_but_not_d1() {
        let b1 = Position::from_fen("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
        assert!(b1.legal_moves().iter().any(|m| m.is_castle()));
        let d1 = Position::from_fen("3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
        assert!(!d1.legal_moves().iter().any(|m| m.is_castle()));
    }

    #[test]
    fn chess960_castling_with_rook_shielding_the_destination() {
        // King b1 castles queen side with the rook on a1... here: king g1, rook b1, enemy rook a1
        // attacks c1 only once the castling rook has left b1.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/rR4K1 w B - 0 1").unwrap();
        assert!(!pos.legal_moves().iter().any(|m| m.is_castle()));
        // Without the attacker the same castling is legal.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/1R4K1 w B - 0 1").unwrap();
        assert!(pos.legal_moves().iter().any(|m| m.is_castle()));
    }
}
