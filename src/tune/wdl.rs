//! Fitting the win/draw/loss model ([`crate::eval::wdl`]) to self-play games by maximum
//! likelihood, and measuring its calibration on held-out games. The games are `datagen`
//! records or PGN files from a tournament runner whose comments carry the engines' scores.

use rayon::prelude::*;

use crate::core::Color;
use crate::eval::wdl::{material, WdlModel};
use crate::rules::PgnGame;

use super::filter::Filter;
use super::gamefile::GameRecord;

/// One position: its search score, material and result, side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlSample {
    /// The search score in centipawns.
    pub score: i32,
    /// [`material`] of the position.
    pub material: i32,
    /// 0 loss, 1 draw, 2 win.
    pub result: u8,
}

/// The samples `filter` picks from `games`.
pub fn samples(games: &[GameRecord], filter: &Filter) -> Vec<WdlSample> {
    games
        .par_iter()
        .flat_map_iter(|g| {
            filter.positions(g).map(|t| WdlSample {
                score: t.score,
                material: material(&t.pos),
                result: (t.result * 2.0).round() as u8,
            })
        })
        .collect()
}

/// The score an engine gave in a move's comment, as cutechess and fastchess write it
/// (`+0.30/18 0.389s`: pawns from the mover's view, a slash, the depth), in centipawns.
/// `None` for mate scores (`+M5/12`), book moves and any other comment.
///
/// ```
/// use ferrum::tune::wdl::comment_score;
/// assert_eq!(comment_score("+0.30/18 0.389s"), Some(30));
/// assert_eq!(comment_score("-1.05/9 0.1s"), Some(-105));
/// assert_eq!(comment_score("0.00/1 0s"), Some(0));
/// assert_eq!(comment_score("+M5/12 0.2s"), None);
/// assert_eq!(comment_score("book"), None);
/// ```
pub fn comment_score(comment: &str) -> Option<i32> {
    let (pawns, _) = comment.trim_start().split_once('/')?;
    let digits = pawns.trim_start_matches(['+', '-']);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let value: f64 = pawns.parse().ok()?;
    Some((value * 100.0).round() as i32)
}

/// The samples of a PGN game with a result whose moves carry their engine's score
/// ([`comment_score`]): each scored position from the `skip_plies`-th ply on with a score
/// within `max_score`, played by one of `players` (the `White`/`Black` tag; every player when
/// `players` is empty). Positions in check and before captures are kept: the score an engine
/// reports is a search score, whatever the position.
pub fn pgn_samples(
    game: &PgnGame,
    players: &[String],
    skip_plies: usize,
    max_score: i32,
) -> Vec<WdlSample> {
    let white_result = match game.result() {
        "1-0" => 2,
        "0-1" => 0,
        "1/2-1/2" => 1,
        _ => return Vec::new(),
    };
    let counts = |tag: &str| {
        players.is_empty()
            || game
                .tag(tag)
                .is_some_and(|name| players.iter().any(|p| p == name))
    };
    let (white, black) = (counts("White"), counts("Black"));
    let mut pos = game.game.start_position().clone();
    let mut samples = Vec::new();
    for (ply, &mv) in game.game.history().iter().enumerate() {
        let white_moves = pos.side_to_move() == Color::White;
        let score = game
            .notes
            .get(ply + 1)
            .and_then(|n| n.comments.first())
            .and_then(|c| comment_score(c));
        if let Some(score) = score {
            if ply >= skip_plies
                && score.abs() <= max_score
                && (if white_moves { white } else { black })
            {
                samples.push(WdlSample {
                    score,
                    material: material(&pos),
                    result: if white_moves {
                        white_result
                    } else {
                        2 - white_result
                    },
                });
            }
        }
        pos.make(mv);
    }
    samples
}

/// `a` and `b` are fitted as 100 × these, so that every parameter is of order 1.
const UNIT: f64 = 100.0;

fn powers(material: i32) -> [f64; 4] {
    let x = f64::from(material.clamp(17, 78)) / 58.0;
    [1.0, x, x * x, x * x * x]
}

/// The negative log-likelihood of `s` and its gradient over the 8 scaled coefficients.
fn nll_and_gradient(model: &WdlModel, s: &WdlSample) -> (f64, [f64; 8]) {
    let (a, b) = model.params(s.material);
    let v = f64::from(s.score);
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let (pw, pl) = (sigmoid((v - a) / b), sigmoid((-v - a) / b));
    // d/da and d/db of the win and loss chances.
    let (dw_a, dw_b) = (-pw * (1.0 - pw) / b, -pw * (1.0 - pw) * (v - a) / (b * b));
    let (dl_a, dl_b) = (-pl * (1.0 - pl) / b, -pl * (1.0 - pl) * (-v - a) / (b * b));
    let (p, dp_a, dp_b) = match s.result {
        2 => (pw, dw_a, dw_b),
        0 => (pl, dl_a, dl_b),
        _ => (1.0 - pw - pl, -dw_a - dl_a, -dw_b - dl_b),
    };
    let p = p.max(1e-9);
    let xs = powers(s.material);
    let mut g = [0.0; 8];
    for k in 0..4 {
        g[k] = -dp_a / p * xs[k] * UNIT;
        g[4 + k] = -dp_b / p * xs[k] * UNIT;
    }
    (-p.ln(), g)
}

/// Mean negative log-likelihood of `samples` under `model`.
pub fn mean_nll(model: &WdlModel, samples: &[WdlSample]) -> f64 {
    let sum: f64 = samples
        .par_iter()
        .map(|s| nll_and_gradient(model, s).0)
        .sum();
    sum / samples.len().max(1) as f64
}

/// Fits the model to `samples` with `iterations` full-batch Adam steps from `start`.
pub fn fit(samples: &[WdlSample], start: WdlModel, iterations: usize) -> WdlModel {
    let mut theta: Vec<f64> = start.a.iter().chain(&start.b).map(|c| c / UNIT).collect();
    let (mut m, mut v) = (vec![0.0; 8], vec![0.0; 8]);
    let model_of = |t: &[f64]| WdlModel {
        a: [t[0] * UNIT, t[1] * UNIT, t[2] * UNIT, t[3] * UNIT],
        b: [t[4] * UNIT, t[5] * UNIT, t[6] * UNIT, t[7] * UNIT],
    };
    let n = samples.len().max(1) as f64;
    for step in 1..=iterations {
        let model = model_of(&theta);
        let grad = samples
            .par_iter()
            .map(|s| nll_and_gradient(&model, s).1)
            .reduce(
                || [0.0; 8],
                |mut x, y| {
                    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
                    x
                },
            );
        let lr = 0.02;
        for k in 0..8 {
            let g = grad[k] / n;
            m[k] = 0.9 * m[k] + 0.1 * g;
            v[k] = 0.999 * v[k] + 0.001 * g * g;
            let mh = m[k] / (1.0 - 0.9f64.powi(step as i32));
            let vh = v[k] / (1.0 - 0.999f64.powi(step as i32));
            theta[k] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
    model_of(&theta)
}

/// One score bucket of a calibration table.
#[derive(Clone, Debug, PartialEq)]
pub struct Bucket {
    /// Lowest score in the bucket.
    pub low: i32,
    /// One past the highest.
    pub high: i32,
    /// Positions in it.
    pub count: usize,
    /// The model's mean win, draw and loss chances.
    pub predicted: [f64; 3],
    /// How often the games were won, drawn and lost.
    pub observed: [f64; 3],
}

/// Predicted against observed win/draw/loss frequencies per score bucket of `width`
/// centipawns between `-limit` and `limit`.
pub fn calibration(model: &WdlModel, samples: &[WdlSample], width: i32, limit: i32) -> Vec<Bucket> {
    let mut buckets: Vec<Bucket> = (-limit..limit)
        .step_by(width.max(1) as usize)
        .map(|low| Bucket {
            low,
            high: low + width,
            count: 0,
            predicted: [0.0; 3],
            observed: [0.0; 3],
        })
        .collect();
    for s in samples {
        let Some(b) = buckets
            .iter_mut()
            .find(|b| (b.low..b.high).contains(&s.score))
        else {
            continue;
        };
        b.count += 1;
        let p = model.probabilities(s.score, s.material);
        b.predicted.iter_mut().zip(p).for_each(|(x, p)| *x += p);
        b.observed[2 - s.result as usize] += 1.0;
    }
    for b in &mut buckets {
        let n = b.count.max(1) as f64;
        b.predicted.iter_mut().for_each(|x| *x /= n);
        b.observed.iter_mut().for_each(|x| *x /= n);
    }
    buckets.retain(|b| b.count > 0);
    buckets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;
    use crate::tune::Rng;

    #[test]
    fn pgn_samples_take_the_mover_s_score_position_and_result() {
        let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
            1. e4 {+0.30/18 0.3s} e5 {-0.25/17 0.2s} 2. Qh5 {book} Nc6 {+M3/9 0.1s} \
            3. Bc4 {+0.10/15 0.1s} Nf6 {+35.00/14 0.1s} 0-1\n";
        let game = crate::rules::read_pgn(text).remove(0).expect("valid pgn");
        let all = pgn_samples(&game, &[], 0, 3000);
        let start = material(&Position::startpos());
        let sample = |score, result| WdlSample {
            score,
            material: start,
            result,
        };
        // White lost: White's scores count as losses, Black's as wins; the book move, the
        // mate score and the score beyond 3000 are left out.
        assert_eq!(all, [sample(30, 0), sample(-25, 2), sample(10, 0)]);
        assert_eq!(pgn_samples(&game, &["B".into()], 0, 3000), [sample(-25, 2)]);
        assert_eq!(pgn_samples(&game, &[], 2, 3000), [sample(10, 0)]);
        let unfinished = crate::rules::read_pgn("1. e4 {+0.30/18 0.3s} *\n").remove(0);
        assert!(pgn_samples(&unfinished.expect("valid"), &[], 0, 3000).is_empty());
    }

    /// Samples drawn from a known model: the fit must find it again.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = WdlModel {
            a: [150.0, 60.0, 0.0, 0.0],
            b: [70.0, 30.0, 0.0, 0.0],
        };
        let mut rng = Rng::new(3);
        let mut data = Vec::new();
        for _ in 0..60_000 {
            let score = rng.below(1200) as i32 - 600;
            let material = 17 + rng.below(62) as i32;
            let [w, d, _] = truth.probabilities(score, material);
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let result = if u < w {
                2
            } else if u < w + d {
                1
            } else {
                0
            };
            data.push(WdlSample {
                score,
                material,
                result,
            });
        }
        let start = WdlModel {
            a: [200.0, 0.0, 0.0, 0.0],
            b: [100.0, 0.0, 0.0, 0.0],
        };
        let fitted = fit(&data, start, 600);
        assert!(mean_nll(&fitted, &data) < mean_nll(&start, &data));
        for m in [20, 40, 60, 78] {
            let (a, b) = fitted.params(m);
            let (ta, tb) = truth.params(m);
            assert!(
                (a - ta).abs() < 20.0 && (b - tb).abs() < 12.0,
                "m {m}: {a} {b} vs {ta} {tb}"
            );
        }
        let table = calibration(&fitted, &data, 200, 600);
        assert_eq!(table.len(), 6);
        for b in &table {
            for k in 0..3 {
                assert!((b.predicted[k] - b.observed[k]).abs() < 0.03, "{b:?}");
            }
        }
    }
}
