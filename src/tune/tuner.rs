//! The Texel tuner: every weight of [`W`](crate::eval::weights::W) at once, by gradient
//! descent (Adam) on the mean squared error between `sigmoid(K · eval)` and the game results.
//!
//! The evaluation of each position is linear in the weights ([`crate::eval::linear`]): the
//! middlegame and endgame sums are `W · c` for a coefficient vector `c`, blended by the phase
//! and scaled. So the gradient is exact and cheap, and it is summed over the positions with
//! rayon.

use rayon::prelude::*;

use crate::core::{Color, Position};
use crate::eval::params::{GROUPS, NUM_PARAMS};
use crate::eval::{linear, MAX_PHASE, S};

use super::filter::Filter;
use super::gamefile::GameRecord;
use super::parse_sample;

/// One training position, reduced to what the model needs (named apart from `book::Entry`,
/// the Polyglot entry).
#[derive(Clone, Debug)]
pub struct TunerEntry {
    /// `(weight index, White's count minus Black's)`.
    coefficients: Box<[(u16, i16)]>,
    /// Middlegame share of the blend (`phase / MAX_PHASE`).
    rho: f32,
    /// Endgame scaling.
    scale: f32,
    /// The untuned part (tempo, known-win bonus) from White's view.
    offset: f32,
    /// The target: the game result for White (or a blend with the search score).
    target: f32,
    /// The search score from White's view.
    score: f32,
}

/// The tuning entry of `pos`, with its search score and result from White's view.
fn entry(pos: &Position, score: f32, result: f32) -> TunerEntry {
    let lin = linear(pos);
    TunerEntry {
        coefficients: lin.coefficients.entries.into_boxed_slice(),
        rho: lin.phase as f32 / MAX_PHASE as f32,
        scale: lin.scale as f32,
        offset: lin.offset as f32,
        target: result,
        score,
    }
}

/// A data set ready for tuning.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    /// The positions.
    pub entries: Vec<TunerEntry>,
}

/// Why a data file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for DataError {}

impl DataSet {
    /// Parses data lines (`FEN | score | result`; blank and `#` lines skipped). Any bad line
    /// is an error naming it.
    pub fn parse(text: &str) -> Result<DataSet, DataError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let entries = lines
            .par_iter()
            .map(|&(line, text)| {
                let sample = parse_sample(text).map_err(|e| DataError {
                    line,
                    reason: e.to_string(),
                })?;
                let pos = Position::from_fen(&sample.fen).map_err(|e| DataError {
                    line,
                    reason: format!("bad FEN: {e}"),
                })?;
                Ok(entry(&pos, sample.score as f32, sample.result as f32))
            })
            .collect::<Result<Vec<TunerEntry>, DataError>>()?;
        Ok(DataSet { entries })
    }

    /// The positions `filter` picks from self-play games (the binary chunks of `datagen`).
    pub fn from_games(games: &[GameRecord], filter: &Filter) -> DataSet {
        let entries = games
            .par_iter()
            .flat_map_iter(|g| filter.positions(g))
            .map(|t| {
                let white = t.pos.side_to_move() == Color::White;
                let (score, result) = if white {
                    (t.score, t.result)
                } else {
                    (-t.score, 1.0 - t.result)
                };
                entry(&t.pos, score as f32, result)
            })
            .collect();
        DataSet { entries }
    }

    /// Adds another data set's positions.
    pub fn extend(&mut self, other: DataSet) {
        self.entries.extend(other.entries);
    }

    /// Replaces each target by `lambda · result + (1 - lambda) · sigmoid(K · search score)`.
    pub fn blend_targets(&mut self, lambda: f64, k: f64) {
        if lambda >= 1.0 {
            return;
        }
        for e in &mut self.entries {
            let from_search = sigmoid(k, e.score as f64);
            e.target = (lambda * e.target as f64 + (1.0 - lambda) * from_search) as f32;
        }
    }
}

/// Weights as floats, middlegame and endgame.
pub type Weights = Vec<[f64; 2]>;

/// The weights as floats.
pub fn to_float(w: &[S]) -> Weights {
    w.iter().map(|s| [s.mg() as f64, s.eg() as f64]).collect()
}

/// The weights rounded to centipawns.
pub fn to_int(w: &Weights) -> Vec<S> {
    w.iter()
        .map(|x| S(x[0].round() as i32, x[1].round() as i32))
        .collect()
}

/// The expected score of an evaluation of `eval` centipawns.
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

fn eval_of(e: &TunerEntry, w: &Weights) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in e.coefficients.iter() {
        let x = w[i as usize];
        mg += x[0] * n as f64;
        eg += x[1] * n as f64;
    }
    let rho = e.rho as f64;
    e.scale as f64 * (mg * rho + eg * (1.0 - rho)) + e.offset as f64
}

/// The mean squared error of `w` on `data` with scaling constant `k`.
pub fn error(data: &DataSet, w: &Weights, k: f64) -> f64 {
    let n = data.entries.len().max(1) as f64;
    let sum: f64 = data
        .entries
        .par_iter()
        .map(|e| {
            let d = e.target as f64 - sigmoid(k, eval_of(e, w));
            d * d
        })
        .sum();
    sum / n
}

/// The `K` that minimises the error of `w` (golden-section search over 0.1..4).
pub fn fit_k(data: &DataSet, w: &Weights) -> f64 {
    let (mut a, mut b) = (0.1f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (error(data, w, c), error(data, w, d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = error(data, w, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = error(data, w, d);
        }
    }
    (a + b) / 2.0
}

fn gradient(data: &DataSet, w: &Weights, k: f64) -> Weights {
    let n = data.entries.len().max(1) as f64;
    let scale = k * std::f64::consts::LN_10 / 400.0;
    data.entries
        .par_chunks(4096)
        .map(|chunk| {
            let mut g = vec![[0.0f64; 2]; w.len()];
            for e in chunk {
                let s = sigmoid(k, eval_of(e, w));
                // d/d eval of (target - s)^2
                let d = -2.0 * (e.target as f64 - s) * s * (1.0 - s) * scale * e.scale as f64;
                let rho = e.rho as f64;
                for &(i, c) in e.coefficients.iter() {
                    let gi = &mut g[i as usize];
                    gi[0] += d * c as f64 * rho;
                    gi[1] += d * c as f64 * (1.0 - rho);
                }
            }
            g
        })
        .reduce(
            || vec![[0.0f64; 2]; w.len()],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                a
            },
        )
        .into_iter()
        .map(|x| [x[0] / n, x[1] / n])
        .collect()
}

/// How the descent runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Print progress every this many epochs (0: never).
    pub report_every: usize,
    /// Strength of the pull back to the starting weights (L2, per squared centipawn). With
    /// a few thousand games, weights that few positions use (a knight on a8, a king on the
    /// seventh) otherwise fit the noise of those games; the pull keeps them near the start
    /// unless the data insists.
    pub l2: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            epochs: 2000,
            learning_rate: 1.0,
            report_every: 100,
            l2: 0.0,
        }
    }
}

/// Adam on the whole data set (full batch) from `w`, with `k` fixed. `report(epoch, error,
/// weights)` is called every `settings.report_every` epochs.
pub fn tune(
    data: &DataSet,
    mut w: Weights,
    k: f64,
    settings: &Settings,
    mut report: impl FnMut(usize, f64, &Weights),
) -> Weights {
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0f64; 2]; w.len()];
    let mut v = vec![[0.0f64; 2]; w.len()];
    let start = w.clone();
    for epoch in 1..=settings.epochs {
        let mut g = gradient(data, &w, k);
        if settings.l2 > 0.0 {
            for ((gi, wi), si) in g.iter_mut().zip(&w).zip(&start) {
                for h in 0..2 {
                    gi[h] += 2.0 * settings.l2 * (wi[h] - si[h]);
                }
            }
        }
        let t = epoch as i32;
        for i in 0..w.len() {
            for h in 0..2 {
                m[i][h] = b1 * m[i][h] + (1.0 - b1) * g[i][h];
                v[i][h] = b2 * v[i][h] + (1.0 - b2) * g[i][h] * g[i][h];
                let mh = m[i][h] / (1.0 - b1.powi(t));
                let vh = v[i][h] / (1.0 - b2.powi(t));
                w[i][h] -= settings.learning_rate * mh / (vh.sqrt() + eps);
            }
        }
        if settings.report_every > 0 && epoch % settings.report_every == 0 {
            report(epoch, error(data, &w, k), &w);
        }
    }
    w
}

/// The text of `src/eval/weights.rs` for the weights `w`: the fixed (untuned) numbers as they
/// are, then the tuned vector block by block. `provenance` goes into the file's doc comment.
pub fn weights_file(w: &[S], provenance: &str) -> String {
    use crate::eval::weights::{
        DRAWISH_DIVISOR, DRAWISH_MARGIN, MOP_UP_CLOSE, MOP_UP_EDGE, OPPOSITE_BISHOPS_SCALE,
        PHASE_WEIGHT, TEMPO,
    };
    let mut out = String::new();
    out.push_str("//! Every number the evaluation uses, in one place.\n//!\n");
    out.push_str("//! GENERATED by `ferrum tune` (src/tune/tuner.rs): rerun the tuner rather than edit the\n");
    out.push_str("//! vector by hand. The layout of [`W`] is [`super::params`]; the untuned numbers above it are\n");
    out.push_str(
        "//! copied through from the previous file. Provenance (see src/eval/TUNING.md):\n//!\n",
    );
    for line in provenance.lines() {
        out.push_str(&format!("//! {line}\n").replace("//! \n", "//!\n"));
    }
    out.push_str("\nuse super::params::NUM_PARAMS;\nuse super::score::S;\n\n");
    out.push_str("/// How much each piece kind counts towards the game phase (0 = endgame .. 24 = all pieces on).\n");
    out.push_str(&format!(
        "pub const PHASE_WEIGHT: [i32; 6] = {PHASE_WEIGHT:?};\n\n"
    ));
    out.push_str(
        "/// Bonus for the side to move: a move in hand is worth something in quiet positions.\n",
    );
    out.push_str(&format!("pub const TEMPO: i32 = {TEMPO};\n\n"));
    out.push_str("/// When the stronger side has no pawns and leads by at most this much material (in endgame\n/// centipawns), it can rarely win: its score is divided by [`DRAWISH_DIVISOR`].\n");
    out.push_str(&format!(
        "pub const DRAWISH_MARGIN: i32 = {DRAWISH_MARGIN};\n\n"
    ));
    out.push_str("/// See [`DRAWISH_MARGIN`].\n");
    out.push_str(&format!(
        "pub const DRAWISH_DIVISOR: i32 = {DRAWISH_DIVISOR};\n\n"
    ));
    out.push_str("/// Endgames with only pawns and one bishop each, on opposite colours: the score is scaled\n/// to this many 64ths.\n");
    out.push_str(&format!(
        "pub const OPPOSITE_BISHOPS_SCALE: i32 = {OPPOSITE_BISHOPS_SCALE};\n\n"
    ));
    out.push_str(
        "/// Against a bare king (known wins): bonus per step of the lone king from the centre.\n",
    );
    out.push_str(&format!("pub const MOP_UP_EDGE: i32 = {MOP_UP_EDGE};\n\n"));
    out.push_str("/// Against a bare king: bonus per step the attacking king is closer than 7.\n");
    out.push_str(&format!(
        "pub const MOP_UP_CLOSE: i32 = {MOP_UP_CLOSE};\n\n"
    ));
    out.push_str("/// Every tunable weight, laid out as [`super::params`] says.\n");
    out.push_str("#[rustfmt::skip]\npub const W: [S; NUM_PARAMS] = [\n");
    for g in GROUPS {
        out.push_str(&format!("    // {} ({})\n", g.name, g.len));
        let per_line = if g.len == 64 { 8 } else { 6 };
        for row in w[g.start..g.start + g.len].chunks(per_line) {
            out.push_str("   ");
            for s in row {
                out.push_str(&format!(" S({}, {}),", s.mg(), s.eg()));
            }
            out.push('\n');
        }
    }
    out.push_str("];\n");
    debug_assert_eq!(w.len(), NUM_PARAMS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::W;
    use crate::eval::Evaluator;

    const DATA: &str = "\
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 | 20 | 0.5
4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1.0
# a comment
3qk3/8/8/8/8/8/8/4K3 b - - 0 1 | -900 | 0.0
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 10 | 0.5
";

    #[test]
    fn the_model_matches_the_evaluation() {
        let data = DataSet::parse(DATA).expect("data");
        assert_eq!(data.entries.len(), 4);
        let w = to_float(&W);
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "3qk3/8/8/8/8/8/8/4K3 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut ev = Evaluator::new();
        for (e, fen) in data.entries.iter().zip(fens) {
            let pos = Position::from_fen(fen).expect("fen");
            let stm = ev.evaluate(&pos);
            let white = if pos.side_to_move() == crate::core::Color::White {
                stm
            } else {
                -stm
            };
            assert!((eval_of(e, &w) - white as f64).abs() <= 1.0, "{fen}");
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let err = DataSet::parse("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1.0\nnonsense\n")
            .expect_err("bad line");
        assert_eq!(err.line, 2);
        let err =
            DataSet::parse("4k3/8/8/8/8/8/8/3QZ3 w - - 0 1 | 900 | 1.0\n").expect_err("bad fen");
        assert!(err.reason.contains("FEN"), "{err}");
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        let data = DataSet::parse(DATA).expect("data");
        let w = to_float(&W);
        let k = 1.0;
        let g = gradient(&data, &w, k);
        // Material of the queen, endgame half: compare with a finite difference.
        let i = crate::eval::params::MATERIAL + 4;
        let h = 1e-3;
        let mut up = w.clone();
        up[i][1] += h;
        let mut down = w.clone();
        down[i][1] -= h;
        let numeric = (error(&data, &up, k) - error(&data, &down, k)) / (2.0 * h);
        assert!(
            (numeric - g[i][1]).abs() < 1e-6 + 1e-3 * numeric.abs(),
            "{numeric} vs {}",
            g[i][1]
        );
    }

    #[test]
    fn tuning_lowers_the_error_and_the_file_has_every_weight() {
        let data = DataSet::parse(DATA).expect("data");
        let w = to_float(&W);
        let k = fit_k(&data, &w);
        let before = error(&data, &w, k);
        let settings = Settings {
            epochs: 50,
            learning_rate: 1.0,
            report_every: 0,
            l2: 0.0,
        };
        let tuned = tune(&data, w, k, &settings, |_, _, _| {});
        assert!(error(&data, &tuned, k) < before);
        let text = weights_file(&to_int(&tuned), "test");
        assert_eq!(text.matches("S(").count(), NUM_PARAMS);
    }
}
