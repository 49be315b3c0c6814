//! Tablebases in the search: the settings a search gets ([`TbConfig`]), the root-move filter
//! that keeps only moves preserving the tables' best outcome, and the in-tree WDL probe with its
//! scores on the search's scale.
//!
//! Scores: a tablebase win found `ply` plies from the root scores [`TB_WIN`]` - ply`, just below
//! every mate score, so that a real mate is still preferred and a nearer tablebase win beats a
//! farther one. With the fifty-move rule on, cursed wins and blessed losses are draws (±1, a
//! nudge towards the side the tables favour in case the other errs).

use std::sync::Arc;

use crate::core::{Move, Position};
use crate::tb::{RootProbe, Tablebases, Wdl, MAX_PIECES};

use super::tt::Bound;
use super::{Job, MATE_BOUND, MAX_PLY};

/// The score of a tablebase win at the root; a win `ply` plies away scores `TB_WIN - ply`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this (in absolute value) are tablebase wins or mates.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// The tablebase settings of one search (the UCI options `SyzygyPath`, `SyzygyProbeDepth`,
/// `Syzygy50MoveRule` and `SyzygyProbeLimit`).
#[derive(Clone, Debug)]
pub struct TbConfig {
    /// The open tables; `None`: no probing at all.
    pub tables: Option<Arc<Tablebases>>,
    /// Probe positions with as many pieces as the limit only this deep or deeper (smaller ones
    /// at any depth).
    pub probe_depth: i32,
    /// Count cursed wins and blessed losses as draws.
    pub rule50: bool,
    /// Probe only positions with at most this many pieces (kings included).
    pub probe_limit: u32,
}

impl Default for TbConfig {
    /// No tables; Stockfish's defaults for the rest.
    fn default() -> Self {
        TbConfig {
            tables: None,
            probe_depth: 1,
            rule50: true,
            probe_limit: MAX_PIECES as u32,
        }
    }
}

/// What one search does with the tables, worked out once before the workers start.
#[derive(Debug, Default)]
pub(crate) struct TbSearch {
    tables: Option<Arc<Tablebases>>,
    /// Positions with more pieces are not probed in the tree; 0 turns probing off.
    pub cardinality: u32,
    probe_depth: i32,
    rule50: bool,
    /// When the root is in the tables: the root moves that keep its best outcome.
    pub root_moves: Option<Vec<Move>>,
    /// Probes made at the root (counted in `tbhits`).
    pub root_hits: u64,
    /// The tables' score of the root, shown instead of the search's unless that is a mate.
    root_score: Option<i32>,
}

impl TbSearch {
    /// Probes the root of `job` and settles the in-tree probing.
    pub(crate) fn prepare(job: &Job) -> TbSearch {
        let cfg = &job.tb;
        let Some(tables_arc) = cfg.tables.clone() else {
            return TbSearch::default();
        };
        let tables: &Tablebases = &tables_arc;
        let max = tables.max_pieces();
        let mut s = TbSearch {
            tables: Some(Arc::clone(&tables_arc)),
            cardinality: cfg.probe_limit.min(max),
            // With a limit above the largest tables, the largest are probed at every depth.
            probe_depth: if cfg.probe_limit > max {
                0
            } else {
                cfg.probe_depth
            },
            rule50: cfg.rule50,
            root_moves: None,
            root_hits: 0,
            root_score: None,
        };
        let pos = &job.position;
        if s.cardinality == 0 || pos.occupied().count() > s.cardinality || !tables.covers(pos) {
            return s;
        }
        let allowed =
            |m: Move| job.limits.searchmoves.is_empty() || job.limits.searchmoves.contains(&m);
        let repeated = job.history.contains(&pos.key());
        if let Some(root) = tables.probe_root(pos) {
            let ranked = dtz_ranks(&root, pos.halfmove_clock(), s.rule50, repeated);
            s.root_hits = root.moves.len() as u64;
            s.root_score = Some(root_score(&root, pos.halfmove_clock(), s.rule50));
            s.root_moves = best_group(ranked.into_iter().filter(|(m, _)| allowed(*m)));
            // DTZ keeps the win on course by itself; probes below would only blur the search's
            // choice among the moves left (as in Stockfish).
            s.cardinality = 0;
        } else if let Some(ranked) = wdl_ranks(tables, pos, s.rule50) {
            s.root_hits = ranked.len() as u64;
            let winning = ranked.iter().any(|&(_, r)| r > 0);
            s.root_moves = best_group(ranked.into_iter().filter(|(m, _)| allowed(*m)));
            // Without DTZ the tree must find the way to convert; a draw or loss needs no help.
            if !winning {
                s.cardinality = 0;
            }
        }
        s
    }

    /// The score to show for a root line that searched to `score`: the tables' verdict when the
    /// root is in them, so a won ending reads as won and a drawn one as 0 (a mate found by the
    /// search is shown as the mate).
    pub(crate) fn shown_score(&self, score: i32) -> i32 {
        match self.root_score {
            Some(tb) if score.abs() < MATE_BOUND => tb,
            _ => score,
        }
    }

    /// The tables' score and bound for `pos` at `ply`, when it is to be probed: a capture or
    /// pawn move just happened (so no DTZ subtlety is lost), few enough pieces, deep enough.
    pub(crate) fn probe(&self, pos: &Position, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let tables = self.tables.as_deref()?;
        let pieces = pos.occupied().count();
        if pos.halfmove_clock() != 0
            || pieces > self.cardinality
            || (pieces == self.cardinality && depth < self.probe_depth)
        {
            return None;
        }
        let wdl = tables.probe_wdl(pos)?;
        Some(wdl_score(wdl, ply, self.rule50))
    }
}

/// A WDL value as a score `ply` plies from the root, and what the score bounds: a win is at
/// least a tablebase win (a mate may be better), a loss at most a tablebase loss.
pub(crate) fn wdl_score(wdl: Wdl, ply: usize, rule50: bool) -> (i32, Bound) {
    let win = TB_WIN - ply as i32;
    match (wdl, rule50) {
        (Wdl::Win, _) | (Wdl::CursedWin, false) => (win, Bound::Lower),
        (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => (-win, Bound::Upper),
        (Wdl::CursedWin, true) => (1, Bound::Exact),
        (Wdl::BlessedLoss, true) => (-1, Bound::Exact),
        (Wdl::Draw, _) => (0, Bound::Exact),
    }
}

/// Ranks for wins that no fifty-move count can spoil; everything else ranks below.
const SURE: i32 = 1 << 20;

/// Each root move's rank from its DTZ: higher is better, equal ranks are equally good.
///
/// A win the fifty-move rule cannot spoil (its next zeroing move comes with the counter below
/// 100, one ply kept in hand for the tables' rounding) ranks the same for every move that keeps
/// it, so the search chooses among them; once the position has repeated, only the fastest
/// progress ranks first, so the game cannot go round in circles. Slower wins rank by speed,
/// then draws, then losses with the longest resistance first (the opponent may yet err or run
/// into the fifty-move rule).
fn dtz_ranks(root: &RootProbe, clock: u16, rule50: bool, repeated: bool) -> Vec<(Move, i32)> {
    let clock = i32::from(clock);
    root.moves
        .iter()
        .map(|m| {
            let plies = m.dtz.abs() + clock;
            let rank = match m.dtz.signum() {
                1 if (!rule50 || plies <= 99) && !repeated => SURE,
                1 => SURE - plies,
                0 => 0,
                _ => -SURE + plies,
            };
            (m.mv, rank)
        })
        .collect()
}

/// The root's value on the search's scale: a tablebase win or loss when the next zeroing move
/// comes before the fifty-move count runs out (or the rule is off), else a draw (±1).
fn root_score(root: &RootProbe, clock: u16, rule50: bool) -> i32 {
    let in_time = !rule50 || root.dtz.abs() + i32::from(clock) <= 100;
    match (root.dtz.signum(), in_time) {
        (1, true) => TB_WIN,
        (-1, true) => -TB_WIN,
        (s, _) => s,
    }
}

/// Root ranks from the WDL tables alone (no DTZ table): the outcome each move leaves.
fn wdl_ranks(tables: &Tablebases, pos: &Position, rule50: bool) -> Option<Vec<(Move, i32)>> {
    let mut child = pos.clone();
    let mut out = Vec::new();
    for m in pos.legal_moves().iter().copied() {
        let undo = child.make(m);
        let wdl = tables.probe_wdl(&child);
        child.unmake(m, &undo);
        let theirs = wdl?.signed();
        let ours = if rule50 {
            -theirs
        } else {
            -2 * theirs.signum()
        };
        out.push((m, ours));
    }
    Some(out)
}

/// The moves of the best rank (`None` when there are none).
fn best_group(ranked: impl Iterator<Item = (Move, i32)>) -> Option<Vec<Move>> {
    let ranked: Vec<(Move, i32)> = ranked.collect();
    let best = ranked.iter().map(|&(_, r)| r).max()?;
    Some(
        ranked
            .iter()
            .filter(|&&(_, r)| r == best)
            .map(|&(m, _)| m)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tb::RootMove;

    fn root(pos: &Position, dtzs: &[(&str, i32)]) -> RootProbe {
        RootProbe {
            wdl: Wdl::Win,
            dtz: 1,
            moves: dtzs
                .iter()
                .map(|&(m, dtz)| RootMove {
                    mv: pos.parse_uci(m).expect("legal"),
                    dtz,
                })
                .collect(),
        }
    }

    fn best(r: &RootProbe, clock: u16, rule50: bool, repeated: bool) -> Vec<String> {
        let g = best_group(dtz_ranks(r, clock, rule50, repeated).into_iter()).expect("moves");
        g.iter().map(|m| m.to_uci(false)).collect()
    }

    #[test]
    fn sure_wins_rank_together_until_the_counter_or_a_repetition_says_hurry() {
        let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").expect("fen");
        let r = root(
            &pos,
            &[("b1e4", 11), ("b1d1", 13), ("b1b3", 0), ("a1a2", -3)],
        );
        assert_eq!(best(&r, 0, true, false), ["b1e4", "b1d1"]);
        assert_eq!(best(&r, 87, true, false), ["b1e4"]);
        assert_eq!(best(&r, 0, true, true), ["b1e4"]);
        // Only a draw and a loss: the draw.
        let r = root(&pos, &[("b1b3", 0), ("a1a2", -3)]);
        assert_eq!(best(&r, 0, true, false), ["b1b3"]);
        // Losing everywhere: the longest resistance.
        let r = root(&pos, &[("b1b3", -9), ("a1a2", -3)]);
        assert_eq!(best(&r, 0, true, false), ["b1b3"]);
    }

    #[test]
    fn the_root_score_follows_the_fifty_move_count() {
        let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").expect("fen");
        let r = root(&pos, &[("b1e4", 11)]);
        let dtz = |d: i32| RootProbe {
            dtz: d,
            ..r.clone()
        };
        assert_eq!(root_score(&dtz(11), 0, true), TB_WIN);
        assert_eq!(root_score(&dtz(11), 95, true), 1);
        assert_eq!(root_score(&dtz(11), 95, false), TB_WIN);
        assert_eq!(root_score(&dtz(-11), 10, true), -TB_WIN);
        assert_eq!(root_score(&dtz(0), 10, true), 0);
    }

    #[test]
    fn wdl_scores_sit_below_mates_and_respect_the_fifty_move_rule() {
        let (s, b) = wdl_score(Wdl::Win, 3, true);
        assert!(s > TB_WIN_BOUND && s < MATE_BOUND && b == Bound::Lower);
        assert_eq!(wdl_score(Wdl::CursedWin, 3, true), (1, Bound::Exact));
        assert_eq!(wdl_score(Wdl::CursedWin, 3, false).1, Bound::Lower);
        assert_eq!(wdl_score(Wdl::BlessedLoss, 3, true), (-1, Bound::Exact));
        assert_eq!(wdl_score(Wdl::Loss, 3, true), (-(TB_WIN - 3), Bound::Upper));
    }
}
