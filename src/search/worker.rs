//! One search thread: iterative deepening at the root, the principal-variation search below it
//! and the quiescence search at its leaves. Lazy SMP runs several workers on the same root that
//! share only the transposition table (and the stop signal).

use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(not(feature = "tune-search"))]
use std::sync::LazyLock;

use crate::core::{insufficient_material, Move, Piece, PieceKind, Position, Undo};
use crate::eval::Evaluator;

use super::ordering::{ContKey, Heuristics, Lineage, MovePicker, PickBuffer};
use super::params;
use super::see::{see_ge, value};
use super::tb::{TbSearch, TB_WIN_BOUND};
use super::tt::{Bound, Entry, TranspositionTable};
use super::{
    time::Settledness, Budget, Info, Job, PvInfo, Reporter, Score, SearchResult, Signals, INFINITY,
    MATE, MATE_BOUND, MAX_PLY,
};

/// What all workers of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub signals: &'a Signals,
    /// Nodes per worker, published every few thousand nodes.
    pub counters: &'a [AtomicU64],
    pub budget: Budget,
    /// Tablebase use, settled at the root.
    pub tb: &'a TbSearch,
    /// Tablebase probes that answered, all workers.
    pub tb_hits: &'a AtomicU64,
}

/// How often (in nodes, minus one) a worker looks at the stop flag, the clock and node limits.
const POLL_MASK: u64 = 1023;
/// The same under a strength level, whose node caps start at a few hundred nodes.
const SKILL_POLL_MASK: u64 = 63;

/// No static evaluation (the side to move is in check).
const NO_EVAL: i32 = -INFINITY;

/// The late-move reduction formula: a constant plus ln(depth) × ln(move number) over a divisor
/// (both in hundredths of a ply, so 0.75 and 2.25 are exact).
fn lmr_formula(depth: usize, moves: usize) -> i32 {
    let base = f64::from(params::lmr_base()) / 100.0;
    let divisor = f64::from(params::lmr_divisor()) / 100.0;
    (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32
}

/// Late-move reductions by depth and move number, computed once (the parameters are constants).
#[cfg(not(feature = "tune-search"))]
static LMR: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(d, m);
        }
    }
    t
});

#[cfg(not(feature = "tune-search"))]
#[inline]
fn lmr(depth: i32, moves: usize) -> i32 {
    LMR[(depth as usize).min(63)][moves.min(63)]
}

/// With `tune-search` the parameters may change between searches: the formula every time.
#[cfg(feature = "tune-search")]
fn lmr(depth: i32, moves: usize) -> i32 {
    match ((depth as usize).min(63), moves.min(63)) {
        (0, _) | (_, 0) => 0,
        (d, m) => lmr_formula(d, m),
    }
}

/// What a node knows of its position before trying moves.
struct NodeEval {
    /// The evaluation function's own verdict (`NO_EVAL` in check), which the table stores.
    raw_eval: i32,
    /// The static evaluation corrected by correction history (`NO_EVAL` in check).
    static_eval: i32,
    /// The static evaluation, or the table's score where its bound makes that a better guess.
    eval: i32,
    /// Better than the static evaluation two plies back.
    improving: bool,
    in_check: bool,
    /// The side to move has a piece other than pawns and king (null moves are safe).
    has_pieces: bool,
}

/// What a move's late-move reduction depends on besides its node.
struct LateMove {
    /// Its place among the moves searched at the node (1 for the first).
    searched: usize,
    /// Its history score if it is quiet (tactical moves are not reduced).
    quiet_score: Option<i32>,
    gives_check: bool,
    /// A killer or the counter move.
    refutation: bool,
}

/// Late-move reduction: quiet moves late in the order get a shallower search, less so at PV
/// nodes, in improving positions, for refutations, checks and moves with a good history.
fn late_move_reduction(w: &Window, node: &NodeEval, late: &LateMove, new_depth: i32) -> i32 {
    let Some(quiet_score) = late.quiet_score else {
        return 0;
    };
    if w.depth < params::lmr_min_depth() || late.searched <= 1 + w.pv_node as usize {
        return 0;
    }
    (lmr(w.depth, late.searched) + !w.pv_node as i32 + !node.improving as i32 + w.cut_node as i32
        - late.gives_check as i32
        - late.refutation as i32
        - quiet_score / params::lmr_history_divisor())
    .clamp(0, (new_depth - 1).max(0))
}

/// A node's search window and kind, as its move loop sees them.
#[derive(Copy, Clone)]
struct Window {
    alpha: i32,
    beta: i32,
    depth: i32,
    ply: usize,
    pv_node: bool,
    cut_node: bool,
}

/// What the move loop found.
struct MovesOutcome {
    best_score: i32,
    best_move: Move,
    /// Legal moves seen (the excluded move not counted).
    legal: usize,
}

/// The tablebases' verdict on a node.
enum TbBounds {
    /// It settles the window: return this score.
    Cut(i32),
    /// The node's score lies within these bounds.
    Within { floor: i32, ceiling: i32 },
}

/// The singular-extension test's answer.
enum Singular {
    No,
    /// The hash move is singular: extend it.
    Yes,
    /// Other moves reach beta too: cut with this score.
    MultiCut(i32),
    Stopped,
}

/// What the move loop does with a move.
enum MovePruning {
    Search,
    Skip,
    /// Skip it and every quiet move after it.
    SkipQuiets,
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
    seldepth: usize,
    /// Nodes searched below this move in this search (all iterations).
    nodes: u64,
}

/// Per-ply facts the children look back at.
#[derive(Copy, Clone, Default)]
struct Frame {
    static_eval: i32,
    mv: Move,
    piece: Option<Piece>,
    /// The move a singular-extension search leaves out at this ply (null: none).
    excluded: Move,
}

pub(crate) struct Worker<'a> {
    id: usize,
    shared: &'a Shared<'a>,
    job: &'a Job,
    pos: Position,
    /// Keys of the game's and the current line's earlier positions, oldest first.
    keys: Vec<u64>,
    root_moves: Vec<RootMove>,
    /// The thread's move-ordering tables: borrowed, so that a thread that outlives the search
    /// (the engine's pool) decides what they start from.
    heur: &'a mut Heuristics,
    eval: Evaluator,
    stack: Vec<Frame>,
    /// The move lists of the nodes on the current line, one per ply (see [`PickBuffer`]).
    picks: Vec<PickBuffer>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    completed_depth: u32,
    /// The first move of the last line 1 reported (null: none yet); the answer must agree.
    reported: Move,
    /// Null-move verification: no null move below this ply while verifying.
    nmp_min_ply: usize,
    stopped: bool,
    /// Nodes between two looks at the limits, minus one.
    poll_mask: u64,
    /// Under a strength level: the root lines of the last completed iteration, best first,
    /// which the level chooses among (an unfinished iteration's lines are not comparable).
    completed_lines: Vec<RootMove>,
    /// The main worker's view of how settled its iterations are (time management).
    settledness: Settledness,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(
        id: usize,
        job: &'a Job,
        shared: &'a Shared<'a>,
        heur: &'a mut Heuristics,
    ) -> Worker<'a> {
        let pos = job.position.clone();
        let mut keys = Vec::with_capacity(job.history.len() + MAX_PLY + 8);
        keys.extend_from_slice(&job.history);
        let all = pos.legal_moves();
        let wanted: Vec<Move> = all
            .iter()
            .copied()
            .filter(|m| job.limits.searchmoves.contains(m))
            .collect();
        // `searchmoves` that name no legal move are ignored rather than leaving nothing to play.
        let mut moves: Vec<Move> = if wanted.is_empty() {
            all.to_vec()
        } else {
            wanted
        };
        // A root in the tablebases keeps only the moves that keep its best outcome.
        if let Some(tb_moves) = &shared.tb.root_moves {
            if moves.iter().any(|m| tb_moves.contains(m)) {
                moves.retain(|m| tb_moves.contains(m));
            }
        }
        let root_moves = moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                prev_score: -INFINITY,
                pv: vec![mv],
                seldepth: 0,
                nodes: 0,
            })
            .collect();
        Worker {
            id,
            shared,
            job,
            pos,
            keys,
            root_moves,
            heur,
            // Levels were calibrated with the hand-crafted evaluation (see `Job::skill`).
            eval: Evaluator::with_network(
                job.net.clone().filter(|_| job.skill.is_none()),
                &job.position,
            ),
            stack: vec![Frame::default(); MAX_PLY + 4],
            picks: vec![PickBuffer::new(); MAX_PLY + 4],
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            completed_depth: 0,
            reported: Move::NULL,
            nmp_min_ply: 0,
            stopped: false,
            poll_mask: if job.skill.is_some() {
                SKILL_POLL_MASK
            } else {
                POLL_MASK
            },
            completed_lines: Vec::new(),
            settledness: Settledness::default(),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    // ---- moves: one path for every move the search plays and takes back ----

    /// Plays the legal move `m` at `ply`: the frame records it (the children's history and
    /// continuation lookups read it), the key of the position it leaves joins the repetition
    /// list, and the position and the evaluation's accumulators move together.
    #[inline]
    fn play(&mut self, ply: usize, m: Move) -> Undo {
        self.stack[ply].mv = m;
        self.stack[ply].piece = self.pos.moved_piece(m);
        self.keys.push(self.pos.key());
        let delta = self.eval.delta(&self.pos, m);
        let undo = self.pos.make(m);
        self.eval.push(delta, self.pos.key());
        undo
    }

    /// Takes back what [`Worker::play`] did.
    #[inline]
    fn take_back(&mut self, m: Move, undo: &Undo) {
        self.pos.unmake(m, undo);
        self.eval.pop();
        self.keys.pop();
    }

    /// [`Worker::play`] for a null move (the side to move passes).
    #[inline]
    fn play_null(&mut self, ply: usize) -> Undo {
        self.stack[ply].mv = Move::NULL;
        self.stack[ply].piece = None;
        self.keys.push(self.pos.key());
        let undo = self.pos.make_null();
        self.eval.push(None, self.pos.key());
        undo
    }

    /// Takes back what [`Worker::play_null`] did.
    #[inline]
    fn take_back_null(&mut self, undo: &Undo) {
        self.pos.unmake_null(undo);
        self.eval.pop();
        self.keys.pop();
    }

    // ---- limits ----

    #[inline]
    fn poll(&mut self) -> bool {
        if !self.stopped && self.nodes & self.poll_mask == 0 {
            self.check_limits();
        }
        self.stopped
    }

    fn total_nodes(&self) -> u64 {
        self.shared
            .counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }

    fn publish_nodes(&self) {
        if let Some(c) = self.shared.counters.get(self.id) {
            c.store(self.nodes, Ordering::Relaxed);
        }
    }

    fn check_limits(&mut self) {
        self.publish_nodes();
        let signals = self.shared.signals;
        if signals.stopped() {
            self.stopped = true;
            return;
        }
        // The first iteration always finishes, so there is always a searched move to play.
        if !self.is_main() || self.completed_depth == 0 {
            return;
        }
        // A level's node cap ends the search but is not a `stop`: an infinite or pondering
        // search still waits for the GUI before it answers.
        if self.over_skill_cap() {
            self.stopped = true;
            return;
        }
        let over_nodes = self
            .job
            .limits
            .nodes
            .is_some_and(|n| self.total_nodes() >= n);
        let over_time = !signals.pondering()
            && self
                .shared
                .budget
                .hard
                .is_some_and(|h| signals.clock_elapsed() >= h);
        if over_nodes || over_time {
            // An infinite or pondering search must not answer before `stop` or `ponderhit`
            // (UCI), so its own node limit ends only this worker's iterations and the answer
            // waits; otherwise the whole search stops.
            if !(self.job.limits.infinite || signals.pondering()) {
                signals.stop();
            }
            self.stopped = true;
        }
    }

    /// True once a strength level's node cap is reached (only the lead searches then).
    fn over_skill_cap(&self) -> bool {
        self.job.skill.is_some_and(|s| self.nodes >= s.node_cap())
    }

    // ---- iterative deepening ----

    fn max_depth(&self) -> i32 {
        let l = &self.job.limits;
        let cap = MAX_PLY as i32 - 1;
        match (l.depth, l.mate) {
            (Some(d), _) => (d.min(cap as u32) as i32).max(1),
            (None, Some(m))
                if l.nodes.is_none()
                    && l.movetime.is_none()
                    && l.wtime.is_none()
                    && l.btime.is_none()
                    && !l.infinite =>
            {
                // A mate search with no other limit ends once a mate this long would surely
                // have been seen.
                (4 * m.min(MAX_PLY as u32) as i32 + 6).clamp(1, cap)
            }
            _ => cap,
        }
    }

    /// Runs iterative deepening until a limit or the stop signal; the main worker reports.
    pub(crate) fn iterate(&mut self, reporter: &dyn Reporter) {
        // A strength level searches on the lead alone: its node cap is the whole budget, and
        // one thread keeps its choice deterministic for a seed.
        if self.root_moves.is_empty() || (self.job.skill.is_some() && !self.is_main()) {
            return;
        }
        let max_depth = self.max_depth();
        // `shown` lines are reported; a level searches more (`multipv`) to choose among.
        let shown = self.job.multipv.clamp(1, self.root_moves.len());
        let multipv = self
            .job
            .skill
            .map_or(shown, |s| s.lines().max(shown))
            .min(self.root_moves.len());
        let mut depth = 1;
        while depth <= max_depth {
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.aspiration(depth, pv_idx, reporter);
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth as u32;
            if self.is_main() {
                if self.job.skill.is_some() {
                    self.completed_lines = self.root_moves[..multipv].to_vec();
                }
                self.report_lines(reporter, shown, depth as u32, None);
                let best = &self.root_moves[0];
                self.settledness.update(best.mv, best.score);
                if self.should_end_after_iteration() {
                    break;
                }
            }
            depth += 1;
        }
        if self.is_main() && !self.completed_lines.is_empty() {
            self.play_skill_choice(reporter, shown);
        } else if self.is_main()
            && !self.reported.is_null()
            && self.root_moves[0].mv != self.reported
        {
            // An iteration cut short keeps a move that beat the last reported one (or that the
            // re-sort after a failed aspiration put first): report that line again at the
            // depth it was chosen, so that the last line before `bestmove` starts with the
            // move played.
            self.report_lines(reporter, shown, self.root_depth as u32, None);
        }
        self.publish_nodes();
    }

    /// Under a strength level: puts the chosen line of the last completed iteration first
    /// (the answer is `root_moves[0]`) and reports the shown lines again, so that the last
    /// `multipv 1` line before `bestmove` starts with the move played.
    fn play_skill_choice(&mut self, reporter: &dyn Reporter, shown: usize) {
        let Some(skill) = self.job.skill else { return };
        let mut lines = std::mem::take(&mut self.completed_lines);
        let scores: Vec<i32> = lines.iter().map(|l| l.score).collect();
        let chosen = lines.remove(skill.choose(&scores).min(lines.len() - 1));
        lines.insert(0, chosen);
        let chosen_moves: Vec<Move> = lines.iter().map(|l| l.mv).collect();
        self.root_moves.retain(|r| !chosen_moves.contains(&r.mv));
        lines.append(&mut self.root_moves);
        self.root_moves = lines;
        self.report_lines(reporter, shown, self.completed_depth, None);
    }

    fn should_end_after_iteration(&self) -> bool {
        let signals = self.shared.signals;
        if self.over_skill_cap() {
            return true;
        }
        let best = self.root_moves[0].score;
        if let Some(m) = self.job.limits.mate {
            if best >= MATE - (2 * m.min(MAX_PLY as u32) as i32 - 1) {
                return true;
            }
        }
        if signals.pondering() {
            return false;
        }
        if self
            .job
            .limits
            .soft_nodes
            .is_some_and(|n| self.total_nodes() >= n)
        {
            return true;
        }
        // A single legal move needs no thought when the clock is running.
        if self.root_moves.len() == 1 && self.shared.budget.soft.is_some() {
            return true;
        }
        let share = self.root_moves[0].nodes as f64 / self.nodes.max(1) as f64;
        self.shared
            .budget
            .soft_limit(self.settledness.scale(share))
            .is_some_and(|limit| signals.clock_elapsed() >= limit)
    }

    fn aspiration(&mut self, depth: i32, pv_idx: usize, reporter: &dyn Reporter) {
        self.seldepth = 0;
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = params::asp_delta();
        let (mut alpha, mut beta) = if depth >= params::asp_min_depth() && prev.abs() < MATE_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, pv_idx, reporter);
            self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                Bound::Lower
            } else {
                return;
            };
            if self.is_main()
                && self.job.multipv == 1
                && self.job.skill.is_none()
                && self.shared.signals.elapsed().as_millis() > 2_000
            {
                self.report_lines(reporter, 1, depth as u32, Some(bound));
            }
            delta += delta / 2;
            if delta > params::asp_full_width() {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_idx: usize,
        reporter: &dyn Reporter,
    ) -> i32 {
        let mut best = -INFINITY;
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.is_main() && self.shared.signals.elapsed().as_millis() > 3_000 {
                reporter.info(&Info::CurrMove {
                    depth: depth as u32,
                    mv: m,
                    number: i + 1,
                });
            }
            let quiet = !self.pos.is_tactical(m);
            let undo = self.play(0, m);
            let nodes_before = self.nodes;
            self.nodes += 1;
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let first = i == pv_idx;
            let r = if !first
                && depth >= params::lmr_min_depth()
                && quiet
                && !gives_check
                && i >= pv_idx + params::root_lmr_moves() as usize
            {
                (lmr(depth, i - pv_idx) - 1).clamp(0, new_depth - 1)
            } else {
                0
            };
            let root = Window {
                alpha,
                beta,
                depth,
                ply: 0,
                pv_node: true,
                cut_node: false,
            };
            let score = self.search_child(&root, alpha, new_depth, r, first);
            self.take_back(m, &undo);
            if self.stopped {
                break;
            }
            let child_len = self.pv_len[1];
            let seldepth = self.seldepth;
            let rm = &mut self.root_moves[i];
            rm.nodes += self.nodes - nodes_before;
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][..child_len]);
            } else {
                rm.score = -INFINITY;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    // ---- the tree ----

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child = self
            .pv_len
            .get(ply + 1)
            .copied()
            .unwrap_or(0)
            .min(MAX_PLY - ply);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = m;
        if let Some(next) = tail.first() {
            row[1..=child].copy_from_slice(&next[..child]);
        }
        self.pv_len[ply] = child + 1;
    }

    fn is_draw(&self) -> bool {
        let pos = &self.pos;
        if pos.halfmove_clock() >= 100 {
            // Mate on the hundredth half-move still counts.
            return !pos.in_check() || pos.has_legal_moves();
        }
        let n = self.keys.len();
        let reach = (pos.halfmove_clock() as usize).min(n);
        let key = pos.key();
        let mut back = 2;
        while back <= reach {
            if self.keys[n - back] == key {
                return true;
            }
            back += 2;
        }
        insufficient_material(pos)
    }

    /// The stored move, if it is legal here (the key may have collided, or another thread may
    /// have written the slot).
    fn hash_move(&self, tte: Option<Entry>) -> Move {
        match tte {
            Some(e) if !e.mv.is_null() && self.pos.is_legal(e.mv) => e.mv,
            _ => Move::NULL,
        }
    }

    /// The moves one and two plies before `ply`, for continuation history.
    fn lineage(&self, ply: usize) -> Lineage {
        let key = |back: usize| {
            let f = self.stack.get(ply.checked_sub(back)?)?;
            f.piece.map(|p| ContKey::new(p, f.mv))
        };
        [key(1), key(2)]
    }

    fn evaluate(&mut self) -> i32 {
        self.eval.evaluate(&self.pos)
    }

    /// A node's static evaluation, as the main search and the quiescence search both read
    /// it: the evaluation function's verdict (the one its table entry stored, or a new one)
    /// and that verdict corrected by correction history; both `NO_EVAL` in check.
    fn static_evals(&mut self, tte: Option<Entry>, in_check: bool) -> (i32, i32) {
        if in_check {
            return (NO_EVAL, NO_EVAL);
        }
        let raw = match tte {
            Some(e) if e.eval != NO_EVAL => e.eval,
            _ => self.evaluate(),
        };
        (raw, self.corrected(raw))
    }

    /// `raw` corrected by correction history, kept clear of mate and tablebase scores.
    fn corrected(&self, raw: i32) -> i32 {
        (raw + self.heur.corr.get(&self.pos)).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Tells correction history how far the static evaluation was from the node's score,
    /// where that score says something about it: out of check, when the best move is quiet
    /// (a capture's gain is not the evaluation's error), not a mate or tablebase score, and
    /// not a bound on the wrong side of the evaluation (a fail-high above it says only
    /// "at least", which an evaluation above the score does not contradict).
    fn learn_correction(
        &mut self,
        node: &NodeEval,
        best_move: Move,
        score: i32,
        bound: Bound,
        depth: i32,
    ) {
        if node.in_check
            || score.abs() >= TB_WIN_BOUND
            || (!best_move.is_null() && self.pos.is_tactical(best_move))
            || (bound == Bound::Lower && score <= node.static_eval)
            || (bound == Bound::Upper && score >= node.static_eval)
        {
            return;
        }
        self.heur
            .corr
            .update(&self.pos, depth, node.raw_eval, score);
    }

    /// The alpha-beta search of a node (principal variation search), in steps: the table and
    /// the tablebases, the node's evaluation, pruning before any move, the singular
    /// extension, the moves, and the table's new entry.
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.poll() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let in_check = self.pos.in_check();

        if self.is_draw() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        // Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = self.pos.key();
        let excluded = self.stack[ply].excluded;
        // A search that leaves a move out is a different search: it neither reads nor writes
        // the table's entry for this position.
        let tte = if excluded.is_null() {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = self.hash_move(tte);
        if let Some(e) = tte {
            // Near the fifty-move limit a stored score may hide a draw that is now closer.
            if !pv_node && e.depth >= depth && self.pos.halfmove_clock() < 90 && e.cuts(alpha, beta)
            {
                return e.score;
            }
        }
        let tb_bounds = if self.shared.tb.cardinality > 0 && excluded.is_null() {
            match self.tablebase_bounds(key, depth, ply, pv_node, alpha, beta) {
                TbBounds::Cut(score) => return score,
                TbBounds::Within { floor, ceiling } => {
                    alpha = alpha.max(floor);
                    (floor, ceiling)
                }
            }
        } else {
            (-INFINITY, INFINITY)
        };

        let node = self.node_eval(tte, in_check, ply);
        self.heur.clear_killers(ply + 1);
        if !pv_node && !in_check && excluded.is_null() {
            if let Some(score) = self.prune_node(&node, beta, depth, ply, cut_node) {
                return score;
            }
        }

        // Without a hash move this node was not searched before: spend less on it.
        if depth >= params::iir_depth() && tt_move.is_null() && (pv_node || cut_node) {
            depth -= 1;
        }
        let singular = match self.singular(tte, tt_move, depth, ply, beta, cut_node) {
            Singular::Stopped => return 0,
            Singular::MultiCut(score) => return score,
            Singular::Yes => true,
            Singular::No => false,
        };

        let window = Window {
            alpha,
            beta,
            depth,
            ply,
            pv_node,
            cut_node,
        };
        let Some(outcome) = self.search_moves(window, tt_move, singular, &node) else {
            return 0;
        };
        if outcome.legal == 0 {
            if !excluded.is_null() {
                // Only the excluded move was legal: it is singular.
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if !excluded.is_null() {
            return outcome.best_score;
        }
        let best_score = outcome.best_score.max(tb_bounds.0).min(tb_bounds.1);
        let bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && !outcome.best_move.is_null() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            ply,
            outcome.best_move,
            best_score,
            node.raw_eval,
            depth,
            bound,
        );
        self.learn_correction(&node, outcome.best_move, best_score, bound, depth);
        best_score
    }

    /// After a capture or pawn move into the tablebases, their verdict bounds the node: it
    /// cuts when it settles the window, and otherwise bounds what a PV node may return.
    fn tablebase_bounds(
        &mut self,
        key: u64,
        depth: i32,
        ply: usize,
        pv_node: bool,
        alpha: i32,
        beta: i32,
    ) -> TbBounds {
        let within = TbBounds::Within {
            floor: -INFINITY,
            ceiling: INFINITY,
        };
        let Some((score, bound)) = self.shared.tb.probe(&self.pos, depth, ply) else {
            return within;
        };
        self.shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        let enough = match bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        if enough {
            let d = (depth + 6).min(MAX_PLY as i32 - 1);
            self.shared
                .tt
                .store(key, ply, Move::NULL, score, NO_EVAL, d, bound);
            return TbBounds::Cut(score);
        }
        // A PV node still searches for the best line, within what the tables allow.
        match bound {
            Bound::Lower if pv_node => TbBounds::Within {
                floor: score,
                ceiling: INFINITY,
            },
            _ if pv_node => TbBounds::Within {
                floor: -INFINITY,
                ceiling: score,
            },
            _ => within,
        }
    }

    /// The node's static evaluation (from the table when it has one), the better guess the
    /// table's score allows, and whether the side to move is doing better than two plies ago.
    fn node_eval(&mut self, tte: Option<Entry>, in_check: bool, ply: usize) -> NodeEval {
        let (raw_eval, static_eval) = self.static_evals(tte, in_check);
        // The table's score is a better guess than the static evaluation when its bound allows.
        let eval = match tte {
            Some(e) if !in_check => match e.bound {
                Bound::Lower if e.score > static_eval => e.score,
                Bound::Upper if e.score < static_eval => e.score,
                Bound::Exact => e.score,
                _ => static_eval,
            },
            _ => static_eval,
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && (self.stack[ply - 2].static_eval == NO_EVAL
                || static_eval > self.stack[ply - 2].static_eval);
        let us = self.pos.side_to_move();
        let has_pieces = (self.pos.color_bb(us)
            & !(self.pos.pieces(PieceKind::Pawn) | self.pos.pieces(PieceKind::King)))
        .any();
        NodeEval {
            raw_eval,
            static_eval,
            eval,
            improving,
            in_check,
            has_pieces,
        }
    }

    /// Pruning before any move is tried, at non-PV nodes out of check: the score to return
    /// when reverse futility or the null move proves the node fails high.
    fn prune_node(
        &mut self,
        node: &NodeEval,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let eval = node.eval;
        // Reverse futility: far above beta with little depth left, a quiet move will not
        // bring it back down. Not against a mated beta: the evaluation says nothing about
        // escaping a mate the search has already found.
        if depth <= params::rfp_depth()
            && eval.abs() < MATE_BOUND
            && beta > -MATE_BOUND
            && eval - params::rfp_margin() * (depth - node.improving as i32) >= beta
        {
            return Some(eval);
        }
        // Null move: if passing still fails high, a real move will too. Not without pieces
        // (zugzwang), not twice in a row, and verified at great depth.
        if depth < params::nmp_min_depth()
            || eval < beta
            || !node.has_pieces
            || ply < self.nmp_min_ply
            || beta <= -MATE_BOUND
            || self.stack[ply - 1].mv == Move::NULL
        {
            return None;
        }
        let r = params::nmp_base()
            + depth / params::nmp_depth_divisor()
            + ((eval - beta) / params::nmp_eval_divisor()).min(params::nmp_eval_max());
        let undo = self.play_null(ply);
        let null = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
        self.take_back_null(&undo);
        if self.stopped {
            return Some(0);
        }
        if null < beta {
            return None;
        }
        // An unproven mate or tablebase win is not returned from a null move.
        let null = if null >= TB_WIN_BOUND { beta } else { null };
        if self.nmp_min_ply > 0 || depth < params::nmp_verify_depth() {
            return Some(null);
        }
        self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
        let v = self.search(beta - 1, beta, depth - r, ply, false);
        self.nmp_min_ply = 0;
        (v >= beta).then_some(null)
    }

    /// Singular extension: when the hash move is much better than every other move (they all
    /// fail low against a margin below its stored score, in a reduced search), it is
    /// searched one ply deeper. If even the others reach beta, more than one move refutes
    /// the parent's move here: cut (multi-cut).
    fn singular(
        &mut self,
        tte: Option<Entry>,
        tt_move: Move,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
    ) -> Singular {
        let Some(e) = tte else {
            return Singular::No;
        };
        if depth < params::se_depth()
            || ply == 0
            || tt_move.is_null()
            || e.depth < depth - params::se_tt_depth_margin()
            || e.bound == Bound::Upper
            || e.score.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let s_beta = e.score - params::se_margin() * depth;
        self.stack[ply].excluded = tt_move;
        let s = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
        self.stack[ply].excluded = Move::NULL;
        if self.stopped {
            Singular::Stopped
        } else if s < s_beta {
            Singular::Yes
        } else if s_beta >= beta {
            Singular::MultiCut(s_beta)
        } else {
            Singular::No
        }
    }

    /// Searches the node's moves in order: late-move, futility and SEE pruning, the check
    /// and singular extensions, late-move reductions with re-searches, and the history
    /// updates at a cutoff. `None` when the search was stopped.
    fn search_moves(
        &mut self,
        w: Window,
        tt_move: Move,
        singular: bool,
        node: &NodeEval,
    ) -> Option<MovesOutcome> {
        let Window {
            mut alpha,
            beta,
            depth,
            ply,
            pv_node,
            ..
        } = w;
        let excluded = self.stack[ply].excluded;
        let lineage = self.lineage(ply);
        let killers = self.heur.killers(ply);
        let counter = self.heur.counter(&lineage);
        let mut picker = MovePicker::new(tt_move, killers, counter, lineage);
        let mut out = MovesOutcome {
            best_score: -INFINITY,
            best_move: Move::NULL,
            legal: 0,
        };
        let mut searched = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut n_quiets = 0usize;
        let lmp_limit =
            (params::lmp_base() + depth * depth) as usize / (2 - node.improving as usize);

        while let Some(m) = picker.next(&self.pos, self.heur, &mut self.picks[ply]) {
            if m == excluded {
                continue;
            }
            out.legal += 1;
            let quiet = !self.pos.is_tactical(m);
            let quiet_score = if quiet {
                self.heur.quiet_score(&self.pos, m, &lineage)
            } else {
                0
            };
            if out.best_score > -MATE_BOUND && node.has_pieces {
                match self.prune_move(m, quiet, node, depth, alpha, out.legal > lmp_limit) {
                    MovePruning::Search => {}
                    MovePruning::Skip => continue,
                    MovePruning::SkipQuiets => {
                        picker.skip_quiets();
                        continue;
                    }
                }
            }

            let undo = self.play(ply, m);
            self.shared.tt.prefetch(self.pos.key());
            let gives_check = self.pos.in_check();
            let extension = ((gives_check || (singular && m == tt_move))
                && ply < 2 * self.root_depth as usize) as i32;
            let new_depth = depth - 1 + extension;
            searched += 1;

            let late = LateMove {
                searched,
                quiet_score: quiet.then_some(quiet_score),
                gives_check,
                refutation: m == killers[0] || m == killers[1] || m == counter,
            };
            let r = late_move_reduction(&w, node, &late, new_depth);
            let score = self.search_child(&w, alpha, new_depth, r, searched == 1);
            self.take_back(m, &undo);
            if self.stopped {
                return None;
            }
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = m;
                n_quiets += 1;
            }
            if score > out.best_score {
                out.best_score = score;
                if score > alpha {
                    out.best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.heur.on_cutoff(
                                &self.pos,
                                ply,
                                depth,
                                m,
                                &quiets_tried[..n_quiets],
                                &lineage,
                            );
                        }
                        break;
                    }
                }
            }
        }
        Some(out)
    }

    /// Searches the position after a move (made by the caller) from the window `w` with
    /// `alpha` raised by the moves before it: the first move with the whole window; a later one
    /// with a null window at `new_depth - r`, again at full depth if it beats alpha after a
    /// reduction, and at a PV node with the whole window if it lands inside it. The root
    /// (`w.ply == 0`) comes here too.
    fn search_child(&mut self, w: &Window, alpha: i32, new_depth: i32, r: i32, first: bool) -> i32 {
        let (beta, ply) = (w.beta, w.ply + 1);
        if first {
            return -self.search(-beta, -alpha, new_depth, ply, !w.pv_node && !w.cut_node);
        }
        let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, ply, true);
        if s > alpha && r > 0 {
            // The root's re-search has always asked for a non-cut child, where other PV nodes
            // ask for a cut child as Stockfish does at both; making the root the same changes
            // the tree, so it waits for its SPRT (experiments/root-research-cut.diff).
            let cut = !w.cut_node && w.ply > 0;
            s = -self.search(-alpha - 1, -alpha, new_depth, ply, cut);
        }
        if w.pv_node && s > alpha && s < beta {
            s = -self.search(-beta, -alpha, new_depth, ply, false);
        }
        s
    }

    /// Whether a move is worth searching at this node: late quiet moves at low depth
    /// (late-move pruning), quiet moves that cannot lift a hopeless evaluation to alpha
    /// (futility pruning: the rest of the quiet moves go too) and moves that lose too much
    /// material by static exchange are skipped.
    fn prune_move(
        &self,
        m: Move,
        quiet: bool,
        node: &NodeEval,
        depth: i32,
        alpha: i32,
        late: bool,
    ) -> MovePruning {
        if !quiet {
            return if depth <= params::see_depth()
                && !see_ge(&self.pos, m, -params::see_noisy_margin() * depth)
            {
                MovePruning::Skip
            } else {
                MovePruning::Search
            };
        }
        if !node.in_check && depth <= params::lmp_depth() && late {
            return MovePruning::SkipQuiets;
        }
        // Futility: not when alpha is a mate, which only another mate can beat, and a quiet move
        // can mate (the rook's 1. Kf7 Kh7 2. Rh1# was pruned for 1. Rh1+, a mate in three).
        if !node.in_check
            && depth <= params::fp_depth()
            && alpha < MATE_BOUND
            && node.eval + params::fp_base() + params::fp_per_depth() * depth <= alpha
        {
            return MovePruning::SkipQuiets;
        }
        if depth <= params::see_depth()
            && !see_ge(&self.pos, m, -params::see_quiet_margin() * depth * depth)
        {
            return MovePruning::Skip;
        }
        MovePruning::Search
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.poll() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        if self.is_draw() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key, ply);
        if let Some(e) = tte {
            if !pv_node && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        let tt_move = self.hash_move(tte);

        let (raw_eval, static_eval) = self.static_evals(tte, in_check);
        let mut best;
        if in_check {
            best = -INFINITY;
        } else {
            best = static_eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        let mut picker = if in_check {
            MovePicker::new(tt_move, [Move::NULL; 2], Move::NULL, [None; 2])
        } else {
            MovePicker::captures_only(tt_move)
        };
        let mut best_move = Move::NULL;
        let mut legal = 0;
        while let Some(m) = picker.next(&self.pos, self.heur, &mut self.picks[ply]) {
            legal += 1;
            if !in_check {
                // Delta pruning: even winning the piece outright would not reach alpha.
                if m.promotion().is_none() {
                    let gain = self.pos.captured_piece(m).map_or(0, |p| value(p.kind));
                    if static_eval + gain + params::qs_delta() <= alpha {
                        continue;
                    }
                }
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
            }
            let undo = self.play(ply, m);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.take_back(m, &undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, ply, best_move, best, raw_eval, 0, bound);
        best
    }

    // ---- reporting ----

    fn report_lines(
        &mut self,
        reporter: &dyn Reporter,
        lines: usize,
        depth: u32,
        bound: Option<Bound>,
    ) {
        self.publish_nodes();
        let nodes = self.total_nodes();
        let elapsed = self.shared.signals.elapsed();
        let ms = elapsed.as_millis() as u64;
        let nps = (nodes as u128 * 1000 / (elapsed.as_millis().max(1))) as u64;
        let hashfull = self.shared.tt.hashfull();
        for (i, rm) in self.root_moves.iter().take(lines).enumerate() {
            let score = if rm.score == -INFINITY {
                rm.prev_score
            } else {
                rm.score
            };
            if score == -INFINITY {
                continue;
            }
            if i == 0 {
                self.reported = rm.mv;
            }
            reporter.info(&Info::Pv(PvInfo {
                depth,
                seldepth: rm.seldepth.max(1) as u32,
                multipv: i + 1,
                score: Score::from_internal(self.shared.tb.shown_score(score)),
                bound,
                nodes,
                nps,
                hashfull,
                tbhits: self
                    .job
                    .tb
                    .tables
                    .as_ref()
                    .map(|_| self.shared.tb_hits.load(Ordering::Relaxed)),
                time_ms: ms,
                pv: rm.pv.clone(),
            }));
        }
    }

    /// The best root move, the expected reply and the score.
    pub(crate) fn result(&self) -> SearchResult {
        let chess960 = self.pos.is_chess960();
        let Some(rm) = self.root_moves.first() else {
            return SearchResult {
                best: None,
                ponder: None,
                score: if self.pos.in_check() { -MATE } else { 0 },
                depth: 0,
                nodes: self.nodes,
                chess960,
            };
        };
        let ponder = rm.pv.get(1).copied().or_else(|| {
            let mut p = self.pos.clone();
            p.make(rm.mv);
            self.shared
                .tt
                .probe(p.key(), 1)
                .map(|e| e.mv)
                .filter(|&m| !m.is_null() && p.is_legal(m))
        });
        SearchResult {
            best: Some(rm.mv),
            ponder,
            score: if rm.score == -INFINITY {
                rm.prev_score
            } else {
                rm.score
            },
            depth: self.completed_depth,
            nodes: self.nodes,
            chess960,
        }
    }
}
