//! The probing rules on top of the table lookups: what the files leave out (captures that
//! decide a position, en passant, which the tables never store, and DTZ files that hold one
//! side to move only) is resolved by a small search, as the format requires.
//!
//! Values follow python-chess and the Syzygy tools: WDL −2..=2 for the side to move (±1: the
//! fifty-move rule turns the result), DTZ in plies to the next zeroing move with cursed wins
//! and blessed losses 100 further out.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::material::Material;
use super::scan::Kind;
use super::table::LazyTable;
use crate::core::{Move, MoveList, PieceKind, Position};

/// The DTZ of a position by its WDL value when a zeroing move decides it (index WDL + 2).
const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];
/// "No move found" in the search for the shortest winning DTZ (python-chess's value).
const NO_WIN_FOUND: i32 = 0xffff;

/// How many plies a DTZ probe may search for replies its file stores, when it stores the other
/// side to move. One is the rule (a file holds one side or the other, and a piece move keeps
/// the pawns' file); like-sided pawn tables may need a little more, and a damaged file saying
/// "the other side" everywhere would otherwise recurse without end.
const REPLY_SEARCHES: u8 = 3;

/// The table files of a set, by material and kind, opened at their first probe.
#[derive(Debug, Default)]
pub(crate) struct Set {
    tables: HashMap<u64, LazyTable, BuildHasherDefault<KeyHasher>>,
}

/// The map's key for a material and kind: every probe looks one up, so it is a number.
fn key(material: Material, kind: Kind) -> u64 {
    material.packed() << 1 | u64::from(kind == Kind::Dtz)
}

/// Hashes the packed keys with one multiplication (they are few and already distinct; the
/// default hasher's resistance to chosen keys buys nothing here).
#[derive(Debug, Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

impl Set {
    /// Adds a file (the first one added for a material and kind is kept).
    pub(crate) fn add(&mut self, material: Material, kind: Kind, table: LazyTable) {
        self.tables.entry(key(material, kind)).or_insert(table);
    }

    /// The WDL value of `pos` for the side to move, captures and en passant resolved.
    pub(crate) fn wdl(&self, pos: &Position) -> Option<i32> {
        let mut pos = pos.clone();
        let (mut v, _) = self.ab(&mut pos, -2, 2)?;
        if pos.en_passant().is_none() {
            return Some(v);
        }
        // The tables know no en passant: a legal capture is looked at on its own.
        let Some(v1) = self.best_en_passant(&mut pos)? else {
            return Some(v);
        };
        if v1 >= v || (v == 0 && only_en_passant(&pos)) {
            v = v1;
        }
        Some(v)
    }

    /// The DTZ of `pos` (see the module's conventions).
    pub(crate) fn dtz(&self, pos: &Position) -> Option<i32> {
        let mut pos = pos.clone();
        self.dtz_in(&mut pos, REPLY_SEARCHES)
    }

    fn dtz_in(&self, pos: &mut Position, searches: u8) -> Option<i32> {
        let mut v = self.dtz_no_ep(pos, searches)?;
        if pos.en_passant().is_none() {
            return Some(v);
        }
        let Some(wdl) = self.best_en_passant(pos)? else {
            return Some(v);
        };
        // An en-passant capture is a zeroing move: it replaces the stored DTZ when it keeps a
        // better outcome.
        let v1 = WDL_TO_DTZ[(wdl + 2) as usize];
        let better = match v {
            ..-100 => v1 >= 0,
            -100..0 => !(-100..0).contains(&v1),
            101.. => v1 > 0,
            1..=100 => v1 == 1,
            0 => v1 >= 0 || only_en_passant(pos),
        };
        if better {
            v = v1;
        }
        Some(v)
    }

    /// The best WDL value (for the side to move) of its legal en-passant captures, `None`
    /// inside when there is none.
    fn best_en_passant(&self, pos: &mut Position) -> Option<Option<i32>> {
        let mut best = None;
        for m in pos.legal_captures().iter().copied() {
            if m.is_en_passant() {
                let v = -self.after(pos, m, |s, p| s.ab(p, -2, 2))?.0;
                best = best.max(Some(v));
            }
        }
        Some(best)
    }

    /// The value of `pos` within (alpha, beta) by its captures (en passant aside) and its
    /// table, and how it was found: 1 from the table, 2 when a capture decides it (then DTZ is
    /// the zeroing move's).
    fn ab(&self, pos: &mut Position, mut alpha: i32, beta: i32) -> Option<(i32, u8)> {
        let mut captures = MoveList::new();
        pos.append_legal_captures(&mut captures);
        for m in captures.iter().copied() {
            if m.is_en_passant() || !pos.is_capture(m) {
                continue;
            }
            let v = -self.after(pos, m, |s, p| s.ab(p, -beta, -alpha))?.0;
            if v > alpha {
                if v >= beta {
                    return Some((v, 2));
                }
                alpha = v;
            }
        }
        let v = self.wdl_table(pos)?;
        Some(if alpha >= v {
            (alpha, 1 + u8::from(alpha > 0))
        } else {
            (v, 1)
        })
    }

    /// DTZ as if `pos` had no en-passant capture.
    fn dtz_no_ep(&self, pos: &mut Position, searches: u8) -> Option<i32> {
        let (wdl, how) = self.ab(pos, -2, 2)?;
        if wdl == 0 {
            return Some(0);
        }
        if how == 2 {
            return Some(before_zeroing(wdl));
        }
        if wdl > 0 {
            // A pawn move (not a capture) that keeps the win zeroes at once.
            for m in pos.legal_moves().iter().copied() {
                if is_pawn(pos, m) && !pos.is_capture(m) {
                    let v = -self.after(pos, m, |s, p| s.wdl(p))?;
                    if v == wdl {
                        return Some(before_zeroing(wdl));
                    }
                }
            }
        }
        if let Some(d) = self.dtz_table(pos, wdl)? {
            return Some(before_zeroing(wdl) + if wdl > 0 { d } else { -d });
        }
        // The file holds the other side to move: one ply of search over what it does hold.
        let searches = searches.checked_sub(1)?;
        if wdl > 0 {
            self.shortest_win(pos, searches)
        } else {
            self.longest_loss(pos, wdl, searches)
        }
    }

    /// The smallest DTZ of a winning move, among piece moves that do not capture (pawn moves and
    /// captures were looked at already).
    fn shortest_win(&self, pos: &mut Position, searches: u8) -> Option<i32> {
        let mut best = NO_WIN_FOUND;
        for m in pos.legal_moves().iter().copied() {
            if is_pawn(pos, m) || pos.is_capture(m) {
                continue;
            }
            let (v, mate) = self.after(pos, m, |s, p| {
                let v = -s.dtz_in(p, searches)?;
                Some((v, v == 1 && p.in_check() && !p.has_legal_moves()))
            })?;
            if mate {
                best = 1;
            } else if v > 0 && v + 1 < best {
                best = v + 1;
            }
        }
        Some(best)
    }

    /// The DTZ of a lost position: the longest resistance over every move.
    fn longest_loss(&self, pos: &mut Position, wdl: i32, searches: u8) -> Option<i32> {
        let mut best = -1;
        for m in pos.legal_moves().iter().copied() {
            let zeroing = is_pawn(pos, m) || pos.is_capture(m);
            let v = self.after(pos, m, |s, p| {
                Some(match (zeroing, wdl) {
                    (true, -2) => -1,
                    (true, _) => {
                        if s.ab(p, 1, 2)?.0 == 2 {
                            0
                        } else {
                            -101
                        }
                    }
                    (false, _) => -s.dtz_in(p, searches)? - 1,
                })
            })?;
            best = best.min(v);
        }
        Some(best)
    }

    /// `f` of the position after `m`, the move taken back after.
    fn after<T>(
        &self,
        pos: &mut Position,
        m: Move,
        f: impl FnOnce(&Set, &mut Position) -> Option<T>,
    ) -> Option<T> {
        let undo = pos.make(m);
        let out = f(self, pos);
        pos.unmake(m, &undo);
        out
    }

    /// The WDL table's value for `pos` (two bare kings are a draw without one).
    fn wdl_table(&self, pos: &Position) -> Option<i32> {
        if pos.occupied().count() == 2 {
            return Some(0);
        }
        self.table(pos, Kind::Wdl)?.wdl(pos)
    }

    /// The DTZ table's value for `pos`, `Some(None)` when it stores the other side.
    fn dtz_table(&self, pos: &Position, wdl: i32) -> Option<Option<i32>> {
        self.table(pos, Kind::Dtz)?.dtz(pos, wdl)
    }

    fn table(&self, pos: &Position, kind: Kind) -> Option<&super::table::Table> {
        self.tables.get(&key(Material::of(pos), kind))?.get()
    }
}

/// The DTZ of a position whose best move zeroes (capture or pawn move) with result `wdl`.
fn before_zeroing(wdl: i32) -> i32 {
    WDL_TO_DTZ[(wdl + 2) as usize]
}

fn is_pawn(pos: &Position, m: Move) -> bool {
    pos.moved_piece(m)
        .is_some_and(|p| p.kind == PieceKind::Pawn)
}

/// Whether every legal move of `pos` is an en-passant capture.
fn only_en_passant(pos: &Position) -> bool {
    pos.legal_moves().iter().all(|m| m.is_en_passant())
}
