//! Win/draw/loss chances from a score: the model behind `UCI_ShowWDL`.
//!
//! The chance that the side to move wins is `σ((v − a) / b)` and that it loses `σ((−v − a) / b)`
//! for a score `v` in centipawns; a draw is the rest. `a` (the score at which a win becomes as
//! likely as not) and `b` (how fast the chance grows) depend on the material left, as cubic
//! polynomials in `m / 58` (`m`: pawns 1, minor pieces 3, rooks 5, queens 9, both sides, within
//! 17..78). The coefficients are fitted to Ferrum's own self-play games by `ferrum wdl`
//! (`TRAINING.md` has the data, the fit and its calibration on held-out games).
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::eval::wdl::{material, wdl};
//! let m = material(&Position::startpos());
//! let [w, d, l] = wdl(300, m);
//! assert_eq!(w + d + l, 1000);
//! assert!(w > l);
//! assert_eq!(wdl(-300, m), [l, d, w]);
//! ```

use crate::core::{Color, PieceKind, Position};

/// The model's coefficients: `a` and `b` as cubic polynomials in `m / 58`, lowest power first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// Coefficients of `a`.
    pub a: [f64; 4],
    /// Coefficients of `b`.
    pub b: [f64; 4],
}

/// The fitted model (see `TRAINING.md`).
pub const MODEL: WdlModel = WdlModel {
    a: [680.497, -1768.100, 1783.649, -610.600],
    b: [97.404, -65.695, 144.664, -81.649],
};

/// Scores at or beyond this are mates or tablebase results: a sure win (or loss).
const DECIDED: i32 = 20_000;

/// The material count the model uses: pawns 1, knights and bishops 3, rooks 5, queens 9, both
/// sides together, kept within 17..=78.
pub fn material(pos: &Position) -> i32 {
    let value = |kind, v: i32| {
        Color::BOTH
            .iter()
            .map(|&c| pos.pieces_of(c, kind).count() as i32 * v)
            .sum::<i32>()
    };
    let m = value(PieceKind::Pawn, 1)
        + value(PieceKind::Knight, 3)
        + value(PieceKind::Bishop, 3)
        + value(PieceKind::Rook, 5)
        + value(PieceKind::Queen, 9);
    m.clamp(17, 78)
}

impl WdlModel {
    /// `a` and `b` for material `m`.
    pub fn params(&self, material: i32) -> (f64, f64) {
        let x = f64::from(material.clamp(17, 78)) / 58.0;
        let poly = |c: &[f64; 4]| ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
        (poly(&self.a), poly(&self.b).max(1.0))
    }

    /// The chances of a win, a draw and a loss for the side to move (floats summing to 1).
    pub fn probabilities(&self, score: i32, material: i32) -> [f64; 3] {
        if score >= DECIDED {
            return [1.0, 0.0, 0.0];
        }
        if score <= -DECIDED {
            return [0.0, 0.0, 1.0];
        }
        let (a, b) = self.params(material);
        let v = f64::from(score);
        let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
        let win = sigmoid((v - a) / b);
        let loss = sigmoid((-v - a) / b);
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// Win, draw and loss in per mille, summing to 1000; a score and its negation give the
    /// same draw and swapped win and loss.
    pub fn per_mille(&self, score: i32, material: i32) -> [u32; 3] {
        let [w, _, l] = self.probabilities(score, material);
        let w = (w * 1000.0).round() as u32;
        let l = (l * 1000.0).round() as u32;
        let (w, l) = (w.min(1000), l.min(1000 - w.min(1000)));
        [w, 1000 - w - l, l]
    }
}

/// [`WdlModel::per_mille`] of the fitted [`MODEL`].
pub fn wdl(score: i32, material: i32) -> [u32; 3] {
    MODEL.per_mille(score, material)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_1000_symmetric_and_monotone() {
        for m in [17, 30, 58, 78] {
            let mut last = wdl(-3000, m);
            for v in (-3000..=3000).step_by(7) {
                let [w, d, l] = wdl(v, m);
                assert_eq!(w + d + l, 1000, "v {v} m {m}");
                assert_eq!(wdl(-v, m), [l, d, w], "v {v} m {m}");
                assert!(w >= last[0] && l <= last[2], "not monotone at {v}, m {m}");
                last = [w, d, l];
            }
        }
        assert_eq!(wdl(31_990, 40), [1000, 0, 0]);
        assert_eq!(wdl(-31_990, 40), [0, 0, 1000]);
        let [w, d, l] = wdl(0, 58);
        assert!(
            w == l && d > w,
            "level: a draw is the likeliest single result"
        );
        assert!(wdl(1500, 58)[0] > 900, "15 pawns up wins");
    }

    #[test]
    fn the_readme_example_is_the_model_s_answer() {
        // README.md, "UCI": `score cp 35 wdl 370 411 219` at 58 of material. A refit changes
        // these figures; this test makes the README's example change with them.
        assert_eq!(wdl(35, 58), [370, 411, 219]);
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&Position::startpos()), 78);
        let kq = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").expect("fen");
        assert_eq!(material(&kq), 17, "clamped up");
    }
}
