//! Static evaluation: how good a position is for the side to move, in centipawns.
//!
//! Ferrum evaluates with a neural network ([`nnue`]; the one built into the binary, or a file
//! given by `EvalFile`), trained only on its own self-play games (`TRAINING.md`). The
//! hand-crafted evaluation beside it is what the network started from and what the strength
//! levels were calibrated with: `Use NNUE false` and [`Evaluator::new`] select it. Endgames known
//! by rule ([`endgame`]) override either.
//!
//! The search talks to an [`Evaluator`] only through [`Evaluator::evaluate`] and the move
//! notifications that keep the network's accumulators in step with the line; each search thread
//! owns one, so it keeps its caches (accumulators, the pawn-structure cache) without locks. In
//! the hand-crafted evaluation every weight lives in [`weights`], every term is one function
//! that adds a middlegame/endgame pair [`S`] per side, and [`Evaluator::trace`] shows the terms
//! one by one (the UCI `eval` command prints them, with the network's score).
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::eval::Evaluator;
//! let mut ev = Evaluator::new();
//! let start = ev.evaluate(&Position::startpos());
//! assert!(start.abs() < 50, "the start position is balanced");
//! let queen_up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
//! assert!(ev.evaluate(&queen_up) > 800);
//! ```

pub mod endgame;
pub mod nnue;
pub mod params;
pub mod pawns;
mod pieces;
mod score;
pub mod wdl;
pub mod weights;

use std::fmt;
use std::sync::Arc;

use crate::core::{Color, Move, PieceKind, Position};

use nnue::{AccumulatorStack, Delta, Network};

pub use score::{MAX_PHASE, S};

use params::{BISHOP_PAIR, MATERIAL, PSQT};
use weights::{
    DRAWISH_DIVISOR, DRAWISH_MARGIN, MOP_UP_CLOSE, MOP_UP_EDGE, OPPOSITE_BISHOPS_SCALE,
    PHASE_WEIGHT, TEMPO, W,
};

/// Where the evaluation terms write: each term adds `W[param] * n` for one side. The search's
/// sink sums the weights; the trace sums them per term; the tuner's sink keeps the counts.
pub trait Sink {
    /// True when the sink only needs sums, so cached sums (the pawn cache) may stand in for
    /// the terms themselves.
    const SUMS_ONLY: bool;
    /// `color` gets `n` times weight `param`.
    fn add(&mut self, color: Color, param: usize, n: i32);
    /// `color` gets the already summed `score` (a cached pawn-structure score); only called
    /// when [`Sink::SUMS_ONLY`].
    fn add_sum(&mut self, color: Color, score: S);
}

/// Sums the weights per side (what the search uses).
#[derive(Default)]
struct SumSink([S; 2]);

impl Sink for SumSink {
    const SUMS_ONLY: bool = true;
    #[inline(always)]
    fn add(&mut self, color: Color, param: usize, n: i32) {
        self.0[color.index()] += W[param] * n;
    }
    #[inline(always)]
    fn add_sum(&mut self, color: Color, score: S) {
        self.0[color.index()] += score;
    }
}

/// Sums the weights per term and side (the `eval` command).
struct TraceSink {
    terms: Vec<&'static str>,
    sums: Vec<[S; 2]>,
}

impl Sink for TraceSink {
    const SUMS_ONLY: bool = false;
    fn add(&mut self, color: Color, param: usize, n: i32) {
        let term = params::group_of(param).map_or("?", |g| g.term);
        if let Some(i) = self.terms.iter().position(|&t| t == term) {
            self.sums[i][color.index()] += W[param] * n;
        }
    }
    fn add_sum(&mut self, _: Color, _: S) {}
}

/// The evaluation as a linear function of the weights: for each weight, White's count minus
/// Black's. `W · coefficients` (per phase half) is exactly the evaluation's middlegame and
/// endgame sum before the phase blend and scaling.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coefficients {
    /// `(weight index, White's count minus Black's)`, sorted by index, no zero counts.
    pub entries: Vec<(u16, i16)>,
}

impl Sink for Coefficients {
    const SUMS_ONLY: bool = false;
    fn add(&mut self, color: Color, param: usize, n: i32) {
        let n = match color {
            Color::White => n,
            Color::Black => -n,
        };
        self.entries.push((param as u16, n as i16));
    }
    fn add_sum(&mut self, _: Color, _: S) {}
}

impl Coefficients {
    fn normalise(&mut self) {
        self.entries.sort_unstable_by_key(|e| e.0);
        let mut out: Vec<(u16, i16)> = Vec::with_capacity(self.entries.len());
        for &(i, n) in &self.entries {
            match out.last_mut() {
                Some(last) if last.0 == i => last.1 += n,
                _ => out.push((i, n)),
            }
        }
        out.retain(|e| e.1 != 0);
        self.entries = out;
    }

    /// `weights · self`, per phase half.
    pub fn dot(&self, weights: &[S]) -> S {
        let mut s = S::ZERO;
        for &(i, n) in &self.entries {
            if let Some(&w) = weights.get(i as usize) {
                s += w * n as i32;
            }
        }
        s
    }
}

/// The evaluation of one search thread. It owns its caches (the pawn-structure cache, the
/// network's accumulators), so the evaluation can grow them without the search changing or
/// threads sharing locks.
///
/// With a network it evaluates with the network, and the search tells it each move
/// ([`Evaluator::delta`], [`Evaluator::push`], [`Evaluator::pop`]) so that the accumulators
/// follow the line incrementally; without one it uses the hand-crafted evaluation and those
/// calls cost nothing.
#[derive(Default, Clone, Debug)]
pub struct Evaluator {
    pawns: pawns::PawnCache,
    nnue: Option<NnueState>,
}

/// The network and the accumulators of the line being searched.
#[derive(Clone, Debug)]
struct NnueState {
    net: Arc<Network>,
    stack: AccumulatorStack,
    /// The key of each position on the stack, to notice a position the stack does not hold.
    keys: Vec<u64>,
}

/// Network scores are kept within this bound, far from mate scores.
pub const NNUE_SCORE_LIMIT: i32 = 20_000;

impl Evaluator {
    /// A fresh evaluator (hand-crafted evaluation).
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// An evaluator that uses `net` when it is given, the hand-crafted evaluation otherwise,
    /// with the search's root position `root`.
    pub fn with_network(net: Option<Arc<Network>>, root: &Position) -> Evaluator {
        Evaluator {
            pawns: pawns::PawnCache::default(),
            nnue: net.map(|net| NnueState {
                stack: AccumulatorStack::new(&net, root),
                keys: vec![root.key()],
                net,
            }),
        }
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Network> {
        self.nnue.as_ref().map(|n| n.net.as_ref())
    }

    /// What move `m` will change in `pos` (before it is made); `None` without a network.
    #[inline]
    pub fn delta(&self, pos: &Position, m: Move) -> Option<Delta> {
        self.nnue.as_ref().map(|_| Delta::of(pos, m))
    }

    /// A move with change `delta` (`None`: a null move) was made; `key` is the new position's.
    #[inline]
    pub fn push(&mut self, delta: Option<Delta>, key: u64) {
        if let Some(n) = &mut self.nnue {
            n.stack.push(delta.unwrap_or_default());
            n.keys.push(key);
        }
    }

    /// The last pushed move was unmade.
    #[inline]
    pub fn pop(&mut self) {
        if let Some(n) = &mut self.nnue {
            n.stack.pop();
            n.keys.pop();
        }
    }

    /// The score of `pos` for the side to move, in centipawns. Endgames known by rule
    /// ([`endgame::known`]: king, bishop and knight against a king; the wrong bishop's rook
    /// pawn) take the rule's score, with either evaluation.
    ///
    /// With a network, `pos` is normally the position reached by the pushed moves; any other
    /// position (a new root) resets the accumulators to it.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        if let Some(score) = endgame::known(pos) {
            return score;
        }
        match &mut self.nnue {
            Some(n) => {
                if n.keys.last() != Some(&pos.key()) {
                    n.stack.reset(&n.net, pos);
                    n.keys.clear();
                    n.keys.push(pos.key());
                }
                n.stack
                    .evaluate(&n.net, pos.side_to_move(), pos.occupied().count())
                    .clamp(-NNUE_SCORE_LIMIT, NNUE_SCORE_LIMIT)
            }
            None => self.hand_crafted(pos),
        }
    }

    /// The hand-crafted evaluation of `pos`, for the side to move.
    pub fn hand_crafted(&mut self, pos: &Position) -> i32 {
        let mut sink = SumSink::default();
        terms(pos, &mut sink, Some(&mut self.pawns));
        let w = Color::White.index();
        let b = Color::Black.index();
        Shape::of(pos).score(sink.0[w] - sink.0[b], pos.side_to_move())
    }

    /// The evaluation taken apart term by term (for the UCI `eval` command and for tests).
    pub fn trace(&mut self, pos: &Position) -> Trace {
        let names = params::terms();
        let mut sink = TraceSink {
            sums: vec![[S::ZERO; 2]; names.len()],
            terms: names,
        };
        terms(pos, &mut sink, None);
        let shape = Shape::of(pos);
        Trace {
            side: pos.side_to_move(),
            score: self.hand_crafted(pos),
            terms: sink.terms.into_iter().zip(sink.sums).collect(),
            shape,
        }
    }
}

/// What the tuner needs to know of one position besides its coefficients: the evaluation is
/// `scale · taper(W · coefficients, phase) + offset` for White.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    /// The coefficients of the weights.
    pub coefficients: Coefficients,
    /// The game phase (0..=[`MAX_PHASE`]).
    pub phase: i32,
    /// The endgame scaling applied to the blended sum, decided with the current weights.
    pub scale: f64,
    /// The untuned part from White's view: the tempo bonus (+[`TEMPO`] with White to move,
    /// -[`TEMPO`] otherwise) and the known-win bonus.
    pub offset: i32,
}

/// The evaluation of `pos` as a linear function of the weights.
pub fn linear(pos: &Position) -> Linear {
    let mut coefficients = Coefficients::default();
    terms(pos, &mut coefficients, None);
    coefficients.normalise();
    let shape = Shape::of(pos);
    let white = coefficients.dot(&W).taper(shape.phase);
    Linear {
        coefficients,
        phase: shape.phase.clamp(0, MAX_PHASE),
        scale: shape.scale(white) as f64 / 64.0,
        offset: shape.mop_up
            + match pos.side_to_move() {
                Color::White => TEMPO,
                Color::Black => -TEMPO,
            },
    }
}

/// Every term of the evaluation, written into `sink`.
fn terms<K: Sink>(pos: &Position, sink: &mut K, cache: Option<&mut pawns::PawnCache>) {
    match cache {
        Some(cache) if K::SUMS_ONLY => sink.add_sum(Color::White, cache.probe(pos)),
        _ => {
            pawns::structure(pos, Color::White, sink);
            pawns::structure(pos, Color::Black, sink);
        }
    }
    for color in Color::BOTH {
        for kind in PieceKind::ALL {
            let bb = pos.pieces_of(color, kind);
            let k = kind.index();
            sink.add(color, MATERIAL + k, bb.count() as i32);
            for sq in bb {
                let rel = match color {
                    Color::White => sq,
                    Color::Black => sq.flip_rank(),
                };
                sink.add(color, PSQT + 64 * k + rel.index(), 1);
            }
        }
        if pos.pieces_of(color, PieceKind::Bishop).more_than_one() {
            sink.add(color, BISHOP_PAIR, 1);
        }
    }
    pieces::evaluate(pos, sink);
}

/// The parts of the final score that are not sums of weights: the phase, the endgame scaling
/// and the known-win bonus.
#[derive(Clone, Debug)]
struct Shape {
    phase: i32,
    /// Endgame value of the pieces other than pawns, per side.
    pieces_eg: [i32; 2],
    pawnless: [bool; 2],
    /// Only kings, pawns and one bishop each, on squares of opposite colours.
    opposite_bishops: bool,
    /// A known win against a bare king: the bonus for White for driving it to the edge.
    mop_up: i32,
}

impl Shape {
    fn of(pos: &Position) -> Shape {
        let mut shape = Shape {
            phase: 0,
            pieces_eg: [0; 2],
            pawnless: [false; 2],
            opposite_bishops: false,
            mop_up: 0,
        };
        let mut bare = [false; 2];
        for color in Color::BOTH {
            let c = color.index();
            for kind in PieceKind::ALL {
                let n = pos.pieces_of(color, kind).count() as i32;
                shape.phase += PHASE_WEIGHT[kind.index()] * n;
                if kind != PieceKind::Pawn {
                    shape.pieces_eg[c] += W[MATERIAL + kind.index()].eg() * n;
                }
            }
            shape.pawnless[c] = pos.pieces_of(color, PieceKind::Pawn).is_empty();
            bare[c] = pos.color_bb(color).count() == 1;
        }
        let bishops = pos.pieces(PieceKind::Bishop);
        let others = pos.pieces(PieceKind::Knight)
            | pos.pieces(PieceKind::Rook)
            | pos.pieces(PieceKind::Queen);
        if others.is_empty() && bishops.count() == 2 {
            let light = |c: Color| {
                pos.pieces_of(c, PieceKind::Bishop)
                    .first()
                    .map(|sq| (sq.file() + sq.rank()) % 2 == 1)
            };
            if let (Some(w), Some(b)) = (light(Color::White), light(Color::Black)) {
                shape.opposite_bishops = w != b;
            }
        }
        let rook = W[MATERIAL + PieceKind::Rook.index()].eg();
        for (strong, sign) in [(Color::White, 1), (Color::Black, -1)] {
            let weak = !strong;
            if bare[weak.index()] && shape.pieces_eg[strong.index()] >= rook {
                let k = pos.king_square(weak);
                let centre = |x: u8| if x < 4 { 3 - x } else { x - 4 } as i32;
                let edge = centre(k.file()) + centre(k.rank());
                let kings = pos.king_square(strong).distance(k) as i32;
                shape.mop_up = sign * (MOP_UP_EDGE * edge + MOP_UP_CLOSE * (7 - kings));
            }
        }
        shape
    }

    /// The scale (in 64ths) for a blended score `white` from White's view.
    fn scale(&self, white: i32) -> i32 {
        if self.drawish(white) {
            64 / DRAWISH_DIVISOR
        } else if self.opposite_bishops {
            OPPOSITE_BISHOPS_SCALE
        } else {
            64
        }
    }

    /// The blended score for `side`, scaled down in endgames the stronger side cannot win
    /// easily, plus the known-win bonus and the tempo bonus.
    fn score(&self, white_total: S, side: Color) -> i32 {
        let white = white_total.taper(self.phase);
        let scaled = white * self.scale(white) / 64 + self.mop_up;
        let ours = match side {
            Color::White => scaled,
            Color::Black => -scaled,
        };
        ours + TEMPO
    }

    /// True when the side ahead (by the blended score `white`) has no pawns and leads by little
    /// more than a minor piece.
    fn drawish(&self, white: i32) -> bool {
        let s = if white >= 0 { 0 } else { 1 };
        self.pawnless[s] && self.pieces_eg[s] - self.pieces_eg[1 - s] <= DRAWISH_MARGIN
    }
}

/// The evaluation of one position, term by term.
#[derive(Clone, Debug)]
pub struct Trace {
    side: Color,
    score: i32,
    terms: Vec<(&'static str, [S; 2])>,
    shape: Shape,
}

impl Trace {
    /// The final score for the side to move (what [`Evaluator::evaluate`] returns).
    pub fn score(&self) -> i32 {
        self.score
    }

    /// The game phase, 0 (endgame) to [`MAX_PHASE`].
    pub fn phase(&self) -> i32 {
        self.shape.phase
    }

    /// The terms: name, then White's and Black's middlegame/endgame sums.
    pub fn terms(&self) -> &[(&'static str, [S; 2])] {
        &self.terms
    }
}

impl fmt::Display for Trace {
    /// A table of the terms per side, middlegame and endgame, White minus Black, then the final
    /// score.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "       term|   white mg    eg |   black mg    eg |   total mg    eg"
        )?;
        for (name, v) in &self.terms {
            let d = v[0] - v[1];
            writeln!(
                f,
                "{name:>11}|{:>11}{:>6} |{:>11}{:>6} |{:>11}{:>6}",
                v[0].mg(),
                v[0].eg(),
                v[1].mg(),
                v[1].eg(),
                d.mg(),
                d.eg()
            )?;
        }
        let white = (self
            .terms
            .iter()
            .fold(S::ZERO, |acc, (_, v)| acc + v[0] - v[1]))
        .taper(self.shape.phase);
        writeln!(
            f,
            "phase {} of {MAX_PHASE}, tempo {TEMPO}, endgame scale {}/64, known-win bonus {} (White)",
            self.shape.phase,
            self.shape.scale(white),
            self.shape.mop_up
        )?;
        write!(
            f,
            "final evaluation {} cp for {} (side to move)",
            self.score,
            self.side.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        match Position::from_fen(fen) {
            Ok(pos) => Evaluator::new().evaluate(&pos),
            Err(e) => panic!("bad test FEN {fen}: {e}"),
        }
    }

    /// Colour-flipping a position (mirror ranks, swap colours and side to move) must give the same
    /// score: the evaluation has no colour bias.
    #[test]
    fn symmetric_under_colour_flip() {
        for fen in VARIED {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let flipped = flip(&pos);
            let mut ev = Evaluator::new();
            assert_eq!(
                ev.evaluate(&pos),
                ev.evaluate(&flipped),
                "{fen} vs {}",
                flipped.fen()
            );
        }
    }

    /// Every term is colour-blind, whatever its weight: the flipped position's coefficients
    /// are the negated originals (this covers terms whose weights are still zero).
    #[test]
    fn coefficients_are_antisymmetric_under_colour_flip() {
        for fen in VARIED {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let a = linear(&pos).coefficients.entries;
            let b: Vec<(u16, i16)> = linear(&flip(&pos))
                .coefficients
                .entries
                .into_iter()
                .map(|(i, n)| (i, -n))
                .collect();
            assert_eq!(a, b, "{fen}");
        }
    }

    #[test]
    fn a_bare_king_is_driven_to_the_edge() {
        // K+Q v K and K+R v K: the lone king on the edge (and the kings close) scores higher.
        let pairs = [
            (
                "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
                "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
            ),
            (
                "k7/8/1K6/8/8/8/8/7R w - - 0 1",
                "8/8/8/3k4/8/8/8/K6R w - - 0 1",
            ),
            (
                "8/8/8/8/8/1k6/7q/K7 b - - 0 1",
                "8/8/8/3k4/8/8/7q/4K3 b - - 0 1",
            ),
        ];
        for (edge, centre) in pairs {
            assert!(
                eval(edge) > eval(centre),
                "{edge}: {} vs {centre}: {}",
                eval(edge),
                eval(centre)
            );
        }
    }

    #[test]
    fn opposite_bishops_halve_the_score() {
        let ocb =
            Shape::of(&Position::from_fen("4k3/5p2/2b5/8/8/8/4PPP1/2B1K3 w - - 0 1").expect("fen"));
        assert!(ocb.opposite_bishops);
        assert_eq!(ocb.scale(100), OPPOSITE_BISHOPS_SCALE);
        let same =
            Shape::of(&Position::from_fen("4k3/5p2/8/2b5/8/8/4PPP1/2B1K3 w - - 0 1").expect("fen"));
        assert!(!same.opposite_bishops);
        assert_eq!(same.scale(100), 64);
    }

    fn flip(pos: &Position) -> Position {
        let mut rows = Vec::new();
        for rank in (0..8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8 {
                let sq = crate::core::Square::from_coords(file, rank).flip_rank();
                match pos.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = p.fen_char();
                        row.push(if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        });
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = match pos.side_to_move() {
            Color::White => "b",
            Color::Black => "w",
        };
        let fen = format!("{} {side} - - 0 1", rows.join("/"));
        Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn more_material_is_better_and_side_matters() {
        let white_rook_up = "4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1";
        let black_view = "4k3/pppp4/8/8/8/8/PPPP4/R3K3 b - - 0 1";
        assert!(eval(white_rook_up) > 350);
        assert!(eval(black_view) < -350);
    }

    #[test]
    fn pawnless_small_lead_is_scaled_towards_a_draw() {
        // A lone knight cannot win; a rook against a bare king can.
        let knight = eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1");
        let rook = eval("4k3/8/8/8/8/8/8/3RK3 w - - 0 1");
        assert!(knight < 120, "K+N v K scored {knight}");
        assert!(rook > 450, "K+R v K scored {rook}");
    }

    #[test]
    fn a_free_piece_beats_a_boxed_in_one() {
        // The same material; White's bishop on the long diagonal vs hemmed in on h1.
        let free = eval("4k3/8/8/8/8/8/8/B3K3 w - - 0 1");
        let boxed = eval("4k3/8/8/8/8/8/6P1/4K2B w - - 0 1");
        let free_with_pawn = eval("4k3/8/8/8/8/8/6P1/B3K3 w - - 0 1");
        assert!(free_with_pawn > boxed, "{free_with_pawn} vs {boxed}");
        assert!(free > 0);
    }

    #[test]
    fn a_sheltered_king_beats_an_exposed_one() {
        let at = |f: &str, color: Color| match Position::from_fen(f) {
            Ok(p) => {
                let mut sink = SumSink::default();
                pieces::shelter(&p, color, &mut sink);
                sink.0[color.index()]
            }
            Err(e) => panic!("{f}: {e}"),
        };
        let w = |i: usize| W[params::SHELTER + i];
        let white = Color::White;
        assert_eq!(at("r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", white), w(0) * 3);
        assert_eq!(at("r5k1/5ppp/8/8/8/5PPP/8/R5K1 w - - 0 1", white), w(1) * 3);
        assert_eq!(at("r5k1/5ppp/8/8/8/8/PPP5/R5K1 w - - 0 1", white), w(2) * 3);
        // A king on the edge has two files; one that left home has no shelter term.
        assert_eq!(at("r5k1/5ppp/8/8/8/8/6PP/R6K w - - 0 1", white), w(0) * 2);
        assert_eq!(at("r5k1/5ppp/8/8/8/6K1/6PP/R7 w - - 0 1", white), S::ZERO);
        // Black's shelter is mirrored.
        assert_eq!(
            at("r5k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", Color::Black),
            w(0) * 3
        );
    }

    const VARIED: [&str; 11] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/5N2/PP2PPPP/RNBQKB1R w KQkq - 0 4",
        "6k1/5ppp/8/8/8/8/5PPP/3B2K1 b - - 0 1",
        "4k3/8/8/8/8/8/8/3NK3 b - - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b KQ - 1 8",
        // Rook on the seventh, an outpost, backward and supported pawns.
        "2r3k1/1R3ppp/p2p4/2nPp3/4P3/P1N2P2/1PP3PP/6K1 w - - 0 1",
        // Attacks on a castled king, safe checks, threats.
        "r1b2rk1/pp3ppp/2n1p3/q2pP1N1/3P2Q1/2PB4/P4PPP/R3K2R w KQ - 0 1",
        // Opposite castling with pawn storms and open files by the kings.
        "1k1r3r/pp1q1ppp/2n1b3/4p1P1/4P2P/2N2P2/PPPQ4/2KR3R w - - 0 1",
        // Passed pawns racing the kings, phalanx pawns.
        "6k1/pp3p1p/6p1/3PP3/8/1K6/5PPP/8 w - - 0 1",
        // A known win against a bare king.
        "8/8/8/3k4/8/8/8/K6R b - - 0 1",
    ];

    /// The tuner's linear model is the evaluation: the coefficients times the weights give
    /// the evaluation's sums exactly, and the blended, scaled score up to rounding.
    #[test]
    fn coefficients_reproduce_the_evaluation() {
        let mut ev = Evaluator::new();
        for fen in VARIED {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut sink = SumSink::default();
            terms(&pos, &mut sink, None);
            let lin = linear(&pos);
            assert_eq!(lin.coefficients.dot(&W), sink.0[0] - sink.0[1], "{fen}");
            let s = lin.coefficients.dot(&W);
            let rho = lin.phase as f64 / MAX_PHASE as f64;
            let model =
                lin.scale * (s.mg() as f64 * rho + s.eg() as f64 * (1.0 - rho)) + lin.offset as f64;
            let white = match pos.side_to_move() {
                Color::White => ev.evaluate(&pos),
                Color::Black => -ev.evaluate(&pos),
            };
            assert!(
                (model - white as f64).abs() <= 1.0,
                "{fen}: {model} vs {white}"
            );
        }
    }

    #[test]
    fn trace_agrees_with_evaluate() {
        let pos = Position::startpos();
        let mut ev = Evaluator::new();
        let trace = ev.trace(&pos);
        assert_eq!(trace.score(), ev.evaluate(&pos));
        assert_eq!(trace.phase(), MAX_PHASE);
        let text = trace.to_string();
        assert!(text.contains("material") && text.contains("final evaluation"));
    }
}
