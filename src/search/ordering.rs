//! Move ordering: the hash move first, then captures that win or keep material (best victim,
//! cheapest attacker), the killers and the counter-move, the other quiet moves by history, and
//! the captures that lose material last. Moves are produced in stages, so a cutoff by the hash
//! move or a capture never pays for generating the quiet moves.
//!
//! A quiet move's history score is the sum of three tables: the butterfly table (side, from,
//! to), and two continuation tables that ask how the move (piece, destination) did right after
//! the move one ply back and the move two plies back. The butterfly table knows a move is good;
//! the continuation tables know it is good *as an answer to that*.

use crate::core::{Color, Move, MoveList, Piece, PieceKind, Position, MAX_MOVES};

use super::correction::CorrectionHistory;
use super::see::{see_ge, value};

/// History scores saturate here (the update below keeps them within it).
pub const HISTORY_MAX: i32 = 16_384;

/// A move as continuation history sees it: the piece that moved and the square it reached
/// (the side is in the piece).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ContKey(u16);

/// Pieces times squares: the rows and columns of a continuation table.
const CONT_SIZE: usize = 12 * 64;

impl ContKey {
    /// The key of `m` played by `piece`.
    #[inline]
    pub fn new(piece: Piece, m: Move) -> ContKey {
        ContKey((piece.index() * 64 + m.to().index()) as u16)
    }

    /// The key of the move `m` in `pos` (before it is made); `None` for the null move.
    #[inline]
    pub fn of(pos: &Position, m: Move) -> Option<ContKey> {
        pos.moved_piece(m).map(|p| ContKey::new(p, m))
    }

    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// The moves one and two plies before a node, the lines continuation history is kept by
/// (`None` at the root, after a null move, or where there is no such ply).
pub type Lineage = [Option<ContKey>; 2];

/// Moves the score `h` by `delta` with gravity: it is pulled towards the bound in proportion
/// to how far it is from it, so it stays in range and old lessons fade.
#[inline]
fn nudge(h: i32, delta: i32) -> i32 {
    h + delta - h * delta.abs() / HISTORY_MAX
}

/// What the search learns about quiet moves while it runs.
pub struct Heuristics {
    /// Butterfly history by side, from and to square.
    history: Box<[[[i32; 64]; 64]; 2]>,
    /// Continuation history: one row per earlier move (piece, destination), one column per
    /// reply (piece, destination). i16 keeps the table at 1.2 MB; scores stay within
    /// `HISTORY_MAX`.
    cont: Vec<[i16; CONT_SIZE]>,
    /// The quiet move that last refuted each (piece, destination) move of the opponent.
    counter: Box<[Move; CONT_SIZE]>,
    /// Two quiet moves per ply that caused a cutoff there.
    killers: Vec<[Move; 2]>,
    /// Not move ordering, but learnt and kept alike: the static evaluation's error by pawn
    /// structure.
    pub corr: CorrectionHistory,
}

impl Heuristics {
    /// Empty tables for plies up to `max_ply`.
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            history: Box::new([[[0; 64]; 64]; 2]),
            cont: vec![[0; CONT_SIZE]; CONT_SIZE],
            counter: Box::new([Move::NULL; CONT_SIZE]),
            killers: vec![[Move::NULL; 2]; max_ply + 2],
            corr: CorrectionHistory::new(),
        }
    }

    /// Forgets everything learnt: the tables as [`Heuristics::new`] made them.
    pub fn clear(&mut self) {
        for side in self.history.iter_mut() {
            side.iter_mut().for_each(|row| row.fill(0));
        }
        self.cont.iter_mut().for_each(|row| row.fill(0));
        self.counter.fill(Move::NULL);
        self.killers.fill([Move::NULL; 2]);
        self.corr.clear();
    }

    /// The history score of a quiet move for `side`.
    #[inline]
    pub fn history(&self, side: Color, m: Move) -> i32 {
        self.history[side.index()][m.from().index()][m.to().index()]
    }

    /// The continuation-history score of the reply `key` to the earlier move `prev`.
    #[inline]
    pub fn continuation(&self, prev: ContKey, key: ContKey) -> i32 {
        i32::from(self.cont[prev.index()][key.index()])
    }

    /// How promising the quiet move `m` of `pos` is after the moves of `lineage`: its
    /// butterfly score plus its continuation scores under the two earlier moves.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, m: Move, lineage: &Lineage) -> i32 {
        let mut score = self.history(pos.side_to_move(), m);
        if let Some(key) = ContKey::of(pos, m) {
            for prev in lineage.iter().flatten() {
                score += self.continuation(*prev, key);
            }
        }
        score
    }

    /// The killers at `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers.get(ply).copied().unwrap_or([Move::NULL; 2])
    }

    /// Forgets the killers of `ply` (its children's killers mean nothing for a new node).
    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [Move::NULL; 2];
        }
    }

    /// The counter-move to the opponent's last move, the first move of `lineage`.
    #[inline]
    pub fn counter(&self, lineage: &Lineage) -> Move {
        lineage[0].map_or(Move::NULL, |prev| self.counter[prev.index()])
    }

    /// A quiet move `best` of `pos` caused a beta cutoff at `ply` and `depth`, after the moves
    /// of `lineage`: reward it (and make it the counter to the last move), and punish the quiet
    /// moves `tried` before it.
    pub fn on_cutoff(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        lineage: &Lineage,
    ) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != best {
                k[1] = k[0];
                k[0] = best;
            }
        }
        if let Some(prev) = lineage[0] {
            self.counter[prev.index()] = best;
        }
        let bonus = (depth * depth * 16).min(1_600);
        let side = pos.side_to_move();
        for &m in tried {
            let delta = if m == best { bonus } else { -bonus };
            let h = &mut self.history[side.index()][m.from().index()][m.to().index()];
            *h = nudge(*h, delta);
            let Some(key) = ContKey::of(pos, m) else {
                continue;
            };
            for prev in lineage.iter().flatten() {
                let c = &mut self.cont[prev.index()][key.index()];
                // `nudge` keeps the score within ±HISTORY_MAX, which i16 holds.
                *c = nudge(i32::from(*c), delta) as i16;
            }
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    HashMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// The moves a [`MovePicker`] generates and their scores: the losing captures (kept at the
/// front, in the order they were found), then the other captures, then the quiet moves. One
/// list, so a node fills and copies no other; held by the search, one per ply, and lent to the
/// picker at each step, so that a node does not clear 1.5 KB of arrays it mostly never reads
/// (most nodes are cut off after a move or two).
#[derive(Clone)]
pub struct PickBuffer {
    list: MoveList,
    scores: [i32; MAX_MOVES],
}

impl PickBuffer {
    /// An empty buffer.
    pub fn new() -> PickBuffer {
        PickBuffer {
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
        }
    }
}

impl Default for PickBuffer {
    fn default() -> Self {
        PickBuffer::new()
    }
}

/// Hands out the legal moves of a position one at a time in search order.
pub struct MovePicker {
    stage: Stage,
    hash_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// The earlier moves quiet moves are scored after (continuation history).
    lineage: Lineage,
    /// Quiet moves already handed out by the killer/counter stages.
    special: [Move; 3],
    next: usize,
    bad_len: usize,
    bad_next: usize,
    /// When false (quiescence), no quiet moves and no losing captures are produced.
    quiets: bool,
    skip_quiets: bool,
}

impl MovePicker {
    /// A picker for a full-width node. `hash_move` must already be legal (or null); `lineage`
    /// names the moves before this node, by which quiet moves are scored.
    pub fn new(hash_move: Move, killers: [Move; 2], counter: Move, lineage: Lineage) -> MovePicker {
        MovePicker {
            stage: Stage::HashMove,
            hash_move,
            killers,
            counter,
            lineage,
            special: [Move::NULL; 3],
            next: 0,
            bad_len: 0,
            bad_next: 0,
            quiets: true,
            skip_quiets: false,
        }
    }

    /// A picker for quiescence out of check: captures and promotions that do not lose material
    /// (the hash move only if it is one of those).
    pub fn captures_only(hash_move: Move) -> MovePicker {
        let mut p = MovePicker::new(hash_move, [Move::NULL; 2], Move::NULL, [None; 2]);
        p.quiets = false;
        p
    }

    /// Stop producing quiet moves (late-move pruning decided the rest are not worth it).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn capture_score(pos: &Position, m: Move) -> i32 {
        let victim = pos.captured_piece(m).map_or(0, |p| value(p.kind));
        let attacker = pos.moved_piece(m).map_or(0, |p| p.kind.index() as i32);
        let promo = match m.promotion() {
            Some(PieceKind::Queen) => 2_000,
            Some(_) => -2_000,
            None => 0,
        };
        victim * 8 - attacker + promo
    }

    /// Picks the highest-scored remaining move of `list` (selection sort, one step).
    fn take_best(&mut self, buf: &mut PickBuffer) -> Option<Move> {
        let len = buf.list.len();
        if self.next >= len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..len {
            if buf.scores[i] > buf.scores[best] {
                best = i;
            }
        }
        buf.list.swap(self.next, best);
        buf.scores.swap(self.next, best);
        let m = buf.list[self.next];
        self.next += 1;
        Some(m)
    }

    fn usable_special(&self, pos: &Position, m: Move) -> bool {
        !m.is_null()
            && m != self.hash_move
            && !self.special.contains(&m)
            && !pos.is_tactical(m)
            && pos.is_legal(m)
    }

    /// The next move, or `None` when every legal move (not pruned away) has been produced.
    /// `buf` is this picker's from its first call to its last (another picker may use it
    /// before the first call: the hash move is produced before anything is generated).
    pub fn next(
        &mut self,
        pos: &Position,
        heur: &Heuristics,
        buf: &mut PickBuffer,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenCaptures;
                    let m = self.hash_move;
                    if !m.is_null() && (self.quiets || pos.is_tactical(m)) {
                        return Some(m);
                    }
                }
                Stage::GenCaptures => {
                    buf.list.clear();
                    pos.append_legal_captures(&mut buf.list);
                    for i in 0..buf.list.len() {
                        buf.scores[i] = Self::capture_score(pos, buf.list[i]);
                    }
                    self.next = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.take_best(buf) {
                    Some(m) if m == self.hash_move => {}
                    Some(m) => {
                        let under = matches!(m.promotion(), Some(k) if k != PieceKind::Queen);
                        if under || !see_ge(pos, m, 0) {
                            // Everything before `next` has been handed out or set aside:
                            // the slot at `bad_len` is free to take it.
                            buf.list.swap(self.bad_len, self.next - 1);
                            self.bad_len += 1;
                        } else {
                            return Some(m);
                        }
                    }
                    None => {
                        self.stage = if self.quiets {
                            Stage::Killer1
                        } else {
                            Stage::Done
                        };
                    }
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let (m, slot, next) = match self.stage {
                        Stage::Killer1 => (self.killers[0], 0, Stage::Killer2),
                        Stage::Killer2 => (self.killers[1], 1, Stage::Counter),
                        _ => (self.counter, 2, Stage::GenQuiets),
                    };
                    self.stage = next;
                    if !self.skip_quiets && self.usable_special(pos, m) {
                        self.special[slot] = m;
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    if !self.skip_quiets {
                        let start = buf.list.len();
                        pos.append_legal_quiets(&mut buf.list);
                        for i in start..buf.list.len() {
                            buf.scores[i] = heur.quiet_score(pos, buf.list[i], &self.lineage);
                        }
                        self.next = start;
                    }
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.take_best(buf) {
                        Some(m) if m == self.hash_move || self.special.contains(&m) => {}
                        Some(m) => return Some(m),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_next < self.bad_len {
                        self.bad_next += 1;
                        return Some(buf.list[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_from(pos: &Position, mut p: MovePicker) -> Vec<Move> {
        let heur = Heuristics::new(8);
        let mut out = Vec::new();
        // A buffer another picker has filled: the picker must not read what it left.
        let mut buf = PickBuffer::new();
        let mut other = MovePicker::new(Move::NULL, [Move::NULL; 2], Move::NULL, [None; 2]);
        let start = Position::startpos();
        while other.next(&start, &heur, &mut buf).is_some() {}
        while let Some(m) = p.next(pos, &heur, &mut buf) {
            out.push(m);
        }
        out
    }

    #[test]
    fn every_legal_move_exactly_once_with_hash_move_first() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(fen).expect("kiwipete");
        let legal = pos.legal_moves();
        let hash = pos.parse_uci("e2a6").expect("legal");
        let killer = pos.parse_uci("a2a3").expect("legal");
        let bogus = pos.parse_uci("a2a4").expect("legal"); // legal, used as counter
        let got = all_from(
            &pos,
            MovePicker::new(hash, [killer, hash], bogus, [None; 2]),
        );
        assert_eq!(got[0], hash);
        assert_eq!(got.len(), legal.len(), "{got:?}");
        let mut a: Vec<u16> = got.iter().map(|m| m.to_bits()).collect();
        let mut b: Vec<u16> = legal.iter().map(|m| m.to_bits()).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // Winning captures come before the killer, the killer before other quiets.
        let k = got
            .iter()
            .position(|&m| m == killer)
            .expect("killer produced");
        let first_quiet = got
            .iter()
            .position(|&m| !pos.is_tactical(m) && m != hash)
            .expect("quiets exist");
        assert_eq!(k, first_quiet);
    }

    #[test]
    fn losing_captures_come_last_after_every_quiet_move() {
        // The queen can take three defended pawns (each loses the queen for a pawn) and an
        // undefended knight.
        let fen = "4k3/2p1p3/1p1p1p2/8/n2Q4/8/3R4/4K3 w - - 0 1";
        let pos = Position::from_fen(fen).expect("fen");
        let legal = pos.legal_moves();
        let got = all_from(
            &pos,
            MovePicker::new(Move::NULL, [Move::NULL; 2], Move::NULL, [None; 2]),
        );
        assert_eq!(got.len(), legal.len());
        let losing: Vec<usize> = got
            .iter()
            .enumerate()
            .filter(|&(_, &m)| pos.is_capture(m) && !see_ge(&pos, m, 0))
            .map(|(i, _)| i)
            .collect();
        assert!(losing.len() >= 3, "{losing:?}");
        let last_quiet = got
            .iter()
            .rposition(|&m| !pos.is_tactical(m))
            .expect("quiets");
        assert!(
            losing.iter().all(|&i| i > last_quiet),
            "{losing:?} {last_quiet}"
        );
        let mut a: Vec<u16> = got.iter().map(|m| m.to_bits()).collect();
        let mut b: Vec<u16> = legal.iter().map(|m| m.to_bits()).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn illegal_killers_are_never_produced() {
        let pos = Position::startpos();
        let other = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").expect("fen");
        let foreign = other.parse_uci("a1a8").expect("legal there");
        let got = all_from(
            &pos,
            MovePicker::new(Move::NULL, [foreign, Move::NULL], foreign, [None; 2]),
        );
        assert_eq!(got.len(), 20);
        assert!(!got.contains(&foreign));
    }

    #[test]
    fn quiescence_picker_skips_quiets_and_losing_captures() {
        // Rxd5 wins a pawn, Qxb5?? would lose the queen to the pawn.
        let pos = Position::from_fen("4k3/8/p7/1p1p4/8/8/3R4/1Q2K3 w - - 0 1").expect("fen");
        let got = all_from(&pos, MovePicker::captures_only(Move::NULL));
        let text: Vec<String> = got.iter().map(|m| m.to_uci(false)).collect();
        assert_eq!(text, vec!["d2d5".to_string()], "{text:?}");
    }

    #[test]
    fn history_rewards_the_cutoff_move_and_stays_bounded() {
        let pos = Position::startpos();
        let a = pos.parse_uci("e2e4").expect("legal");
        let b = pos.parse_uci("d2d4").expect("legal");
        let mut h = Heuristics::new(8);
        for _ in 0..1000 {
            h.on_cutoff(&pos, 1, 20, a, &[b, a], &[None; 2]);
        }
        assert!(h.history(Color::White, a) > 0 && h.history(Color::White, a) <= HISTORY_MAX);
        assert!(h.history(Color::White, b) < 0 && h.history(Color::White, b) >= -HISTORY_MAX);
        assert_eq!(h.killers(1)[0], a);
    }

    #[test]
    fn continuation_history_is_kept_per_preceding_move() {
        // After 1.e4 e5, a cutoff by Nf3 is learned under 1...e5 (one ply back) and 1.e4 (two
        // back); under an unrelated line (1.d4 d5) Nf3 keeps its butterfly score alone.
        let start = Position::startpos();
        let e4 = start.parse_uci("e2e4").expect("legal");
        let d4 = start.parse_uci("d2d4").expect("legal");
        let mut after_e4 = start.clone();
        after_e4.make(e4);
        let e5 = after_e4.parse_uci("e7e5").expect("legal");
        let mut after_d4 = start.clone();
        after_d4.make(d4);
        let d5 = after_d4.parse_uci("d7d5").expect("legal");
        let mut pos = after_e4.clone();
        pos.make(e5);
        let nf3 = pos.parse_uci("g1f3").expect("legal");
        let a3 = pos.parse_uci("a2a3").expect("legal");

        let open = [ContKey::of(&after_e4, e5), ContKey::of(&start, e4)];
        let queens = [ContKey::of(&after_d4, d5), ContKey::of(&start, d4)];
        assert!(open.iter().chain(&queens).all(Option::is_some));

        let mut h = Heuristics::new(8);
        h.on_cutoff(&pos, 2, 6, nf3, &[a3, nf3], &open);
        let butterfly = h.history(Color::White, nf3);
        assert!(butterfly > 0);
        let under_open = h.quiet_score(&pos, nf3, &open);
        assert_eq!(
            under_open,
            3 * butterfly,
            "butterfly plus both continuation entries"
        );
        assert_eq!(h.quiet_score(&pos, nf3, &queens), butterfly);
        assert_eq!(h.quiet_score(&pos, nf3, &[None; 2]), butterfly);
        // The move tried before the cutoff is punished under the same line.
        assert!(h.quiet_score(&pos, a3, &open) < h.quiet_score(&pos, a3, &queens));
        assert!(h.quiet_score(&pos, a3, &queens) < 0);
    }
}
