//! Static evaluation: how good a position is for the side to move, in centipawns.
//!
//! The search talks to an [`Evaluator`] only through [`Evaluator::evaluate`]; each search thread
//! owns one, so it can keep caches (a pawn-structure cache belongs here) without locks. Every
//! weight lives in [`weights`], every evaluation term is one function below that adds a
//! middlegame/endgame pair [`S`] per side, and [`Evaluator::trace`] shows the terms one by one
//! (the UCI `eval` command prints it).
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

pub mod params;
pub mod pawns;
mod score;
pub mod weights;

use std::fmt;

use crate::core::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::core::{Color, PieceKind, Position};

pub use score::{MAX_PHASE, S};

use params::{BISHOP_PAIR, MATERIAL, MOBILITY, PSQT, SHELTER};
use weights::{DRAWISH_DIVISOR, DRAWISH_MARGIN, PHASE_WEIGHT, TEMPO, W};

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

/// The evaluation of one search thread. It owns its caches (the pawn-structure cache today), so
/// the evaluation can grow them without the search changing or threads sharing locks.
#[derive(Default, Clone, Debug)]
pub struct Evaluator {
    pawns: pawns::PawnCache,
}

impl Evaluator {
    /// A fresh evaluator.
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// The score of `pos` for the side to move, in centipawns.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
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
            score: self.evaluate(pos),
            terms: sink.terms.into_iter().zip(sink.sums).collect(),
            shape,
        }
    }
}

/// What the tuner needs to know of one position besides its coefficients: the evaluation is
/// `scale · taper(W · coefficients, phase) + tempo` for White.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    /// The coefficients of the weights.
    pub coefficients: Coefficients,
    /// The game phase (0..=[`MAX_PHASE`]).
    pub phase: i32,
    /// The endgame scaling applied to the blended sum (1 or `1 / DRAWISH_DIVISOR` today),
    /// decided with the current weights.
    pub scale: f64,
    /// The tempo bonus from White's view (+[`TEMPO`] with White to move, -[`TEMPO`] otherwise).
    pub tempo: i32,
}

/// The evaluation of `pos` as a linear function of the weights.
pub fn linear(pos: &Position) -> Linear {
    let mut coefficients = Coefficients::default();
    terms(pos, &mut coefficients, None);
    coefficients.normalise();
    let shape = Shape::of(pos);
    let white = coefficients.dot(&W).taper(shape.phase);
    let scale = if shape.drawish(white) {
        1.0 / DRAWISH_DIVISOR as f64
    } else {
        1.0
    };
    Linear {
        coefficients,
        phase: shape.phase.clamp(0, MAX_PHASE),
        scale,
        tempo: match pos.side_to_move() {
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
        mobility(pos, color, sink);
        shelter(pos, color, sink);
    }
}

/// The parts of the final score that are not sums of weights: the phase, and what the endgame
/// scaling needs to know.
#[derive(Clone, Debug)]
struct Shape {
    phase: i32,
    /// Endgame value of the pieces other than pawns, per side.
    pieces_eg: [i32; 2],
    pawnless: [bool; 2],
}

impl Shape {
    fn of(pos: &Position) -> Shape {
        let mut shape = Shape {
            phase: 0,
            pieces_eg: [0; 2],
            pawnless: [false; 2],
        };
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
        }
        shape
    }

    /// The blended score for `side`, scaled down in endgames the stronger side cannot win, plus
    /// the tempo bonus.
    fn score(&self, white_total: S, side: Color) -> i32 {
        let white = white_total.taper(self.phase);
        let scaled = if self.drawish(white) {
            white / DRAWISH_DIVISOR
        } else {
            white
        };
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

/// Piece mobility: for each knight, bishop, rook and queen, the squares it attacks that hold no
/// piece of its own side and no enemy pawn's attack; each count has its own weight.
fn mobility<K: Sink>(pos: &Position, color: Color, sink: &mut K) {
    let them = !color;
    let enemy_pawns = pos.pieces_of(them, PieceKind::Pawn);
    let pawn_guarded = match them {
        Color::White => enemy_pawns.north().east() | enemy_pawns.north().west(),
        Color::Black => enemy_pawns.south().east() | enemy_pawns.south().west(),
    };
    let area = !(pos.color_bb(color) | pawn_guarded);
    let occ = pos.occupied();
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let start = MOBILITY[kind.index()];
        for sq in pos.pieces_of(color, kind) {
            let reach = match kind {
                PieceKind::Knight => knight_attacks(sq),
                PieceKind::Bishop => bishop_attacks(sq, occ),
                PieceKind::Rook => rook_attacks(sq, occ),
                _ => queen_attacks(sq, occ),
            };
            sink.add(color, start + (reach & area).count() as usize, 1);
        }
    }
}

/// Pawns in front of a king still at home: each of the (up to) three files around it scores
/// by how close its nearest shielding pawn stands.
fn shelter<K: Sink>(pos: &Position, color: Color, sink: &mut K) {
    let ksq = pos.king_square(color);
    let home_rank = color.back_rank();
    let rel = (ksq.rank() as i32 - home_rank as i32).abs();
    if rel > 1 {
        return;
    }
    let pawns = pos.pieces_of(color, PieceKind::Pawn);
    let step: i8 = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    for df in -1i8..=1 {
        let near = ksq.offset(df, step);
        let far = ksq.offset(df, 2 * step);
        let Some(near) = near else { continue };
        let i = if pawns.has(near) {
            0
        } else if far.is_some_and(|f| pawns.has(f)) {
            1
        } else {
            2
        };
        sink.add(color, SHELTER + i, 1);
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
            "       term|   white mg   eg |   black mg   eg |   total mg   eg"
        )?;
        for (name, v) in &self.terms {
            let d = v[0] - v[1];
            writeln!(
                f,
                "{name:>11}|{:>11}{:>5} |{:>11}{:>5} |{:>11}{:>5}",
                v[0].mg(),
                v[0].eg(),
                v[1].mg(),
                v[1].eg(),
                d.mg(),
                d.eg()
            )?;
        }
        writeln!(
            f,
            "phase {} of {MAX_PHASE}, tempo {TEMPO}",
            self.shape.phase
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
                shelter(&p, color, &mut sink);
                sink.0[color.index()]
            }
            Err(e) => panic!("{f}: {e}"),
        };
        let w = |i: usize| W[SHELTER + i];
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

    const VARIED: [&str; 6] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/5N2/PP2PPPP/RNBQKB1R w KQkq - 0 4",
        "6k1/5ppp/8/8/8/8/5PPP/3B2K1 b - - 0 1",
        "4k3/8/8/8/8/8/8/3NK3 b - - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b KQ - 1 8",
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
                lin.scale * (s.mg() as f64 * rho + s.eg() as f64 * (1.0 - rho)) + lin.tempo as f64;
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
