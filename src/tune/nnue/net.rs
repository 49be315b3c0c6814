//! The float network the trainer fits, its forward and backward passes, and its quantisation
//! into the engine's integer [`Network`].

use crate::core::Position;
use crate::eval::nnue::{
    feature, output_bucket, Network, HIDDEN, INPUTS, OUTPUT_BUCKETS, QA, QB, SCALE, WEIGHT_CLIP,
};

use crate::tune::Rng;

/// Number of parameters: first-layer weights and biases, each bucket's output weights, each
/// bucket's output bias (named apart from `eval::params::NUM_PARAMS`, the hand-crafted
/// evaluation's weights).
pub const NET_PARAMS: usize = INPUTS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * (2 * HIDDEN + 1);
const L1_BIAS: usize = INPUTS * HIDDEN;
const OUT_W: usize = L1_BIAS + HIDDEN;
const OUT_B: usize = OUT_W + OUTPUT_BUCKETS * 2 * HIDDEN;

/// Where bucket `b`'s output weights start.
const fn out_w(b: usize) -> usize {
    OUT_W + b * 2 * HIDDEN
}

/// The network's parameters as one flat vector (so the optimizer treats them alike):
/// `[first-layer weights, input-major | first-layer biases | each bucket's output weights
/// (side to move's half first) | each bucket's output bias]`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// The parameters.
    pub params: Vec<f32>,
}

/// The active inputs of a position from both perspectives, side to move first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// The side to move's inputs.
    pub us: Vec<u16>,
    /// The other side's inputs.
    pub them: Vec<u16>,
}

impl Features {
    /// The inputs of `pos`.
    pub fn of(pos: &Position) -> Features {
        let stm = pos.side_to_move();
        let mut f = Features::default();
        for sq in pos.occupied().iter() {
            if let Some(p) = pos.piece_at(sq) {
                f.us.push(feature(stm, p, sq) as u16);
                f.them.push(feature(!stm, p, sq) as u16);
            }
        }
        f
    }

    /// The output bucket of the position (its piece count is its number of inputs).
    pub fn bucket(&self) -> usize {
        output_bucket(self.us.len() as u32)
    }

    /// The inputs of the position mirrored left to right (files a and h swapped), from the
    /// same perspectives.
    pub fn mirrored(mut self) -> Features {
        // An input's square is its low six bits (see `feature`); `^ 7` swaps its file.
        for i in self.us.iter_mut().chain(self.them.iter_mut()) {
            *i ^= 7;
        }
        self
    }
}

/// The activations of one forward pass, kept for the backward pass.
pub struct Forward {
    acc: [[f32; HIDDEN]; 2],
    bucket: usize,
    /// The output (in units of [`SCALE`] centipawns).
    pub out: f32,
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// A network initialised at random from `seed`: first-layer weights uniform in
    /// ±1/√(32) scaled down for the 768 inputs of which about 30 are on, output weights small.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform =
            |r: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r;
        let mut params = vec![0.0f32; NET_PARAMS];
        for p in &mut params[..L1_BIAS] {
            *p = uniform(0.1);
        }
        for p in &mut params[OUT_W..OUT_B] {
            *p = uniform(1.0 / (2.0 * HIDDEN as f32).sqrt());
        }
        FloatNet { params }
    }

    /// The float network that the quantised `net` stands for (each integer divided by its
    /// scale): where a run that fine-tunes an earlier network starts. Quantising it gives
    /// `net` back.
    pub fn from_network(net: &Network) -> FloatNet {
        let mut params = vec![0.0f32; NET_PARAMS];
        for (i, row) in net.l1_weights.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                params[i * HIDDEN + j] = f32::from(w) / QA as f32;
            }
        }
        for (j, &b) in net.l1_bias.iter().enumerate() {
            params[L1_BIAS + j] = f32::from(b) / QA as f32;
        }
        for (j, &w) in net.out_weights.iter().flatten().enumerate() {
            params[OUT_W + j] = f32::from(w) / QB as f32;
        }
        for (b, &bias) in net.out_bias.iter().enumerate() {
            params[OUT_B + b] = bias as f32 / (QA * QB) as f32;
        }
        FloatNet { params }
    }

    /// The forward pass.
    pub fn forward(&self, f: &Features) -> Forward {
        let p = &self.params;
        let mut acc = [[0.0f32; HIDDEN]; 2];
        for (side, inputs) in [&f.us, &f.them].into_iter().enumerate() {
            acc[side].copy_from_slice(&p[L1_BIAS..OUT_W]);
            for &i in inputs {
                let row = &p[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
                for (a, w) in acc[side].iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
        let bucket = f.bucket();
        let mut out = p[OUT_B + bucket];
        for side in 0..2 {
            let w = &p[out_w(bucket) + side * HIDDEN..out_w(bucket) + (side + 1) * HIDDEN];
            out += acc[side]
                .iter()
                .zip(w)
                .map(|(&a, &w)| screlu(a) * w)
                .sum::<f32>();
        }
        Forward { acc, bucket, out }
    }

    /// The score in centipawns for the side to move (float inference).
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.forward(&Features::of(pos)).out * SCALE as f32
    }

    /// Adds to `grad` the gradient of the loss for one position, given d(loss)/d(out).
    pub fn backward(&self, f: &Features, fw: &Forward, d_out: f32, grad: &mut [f32]) {
        let p = &self.params;
        grad[OUT_B + fw.bucket] += d_out;
        for (side, inputs) in [&f.us, &f.them].into_iter().enumerate() {
            let half = out_w(fw.bucket) + side * HIDDEN..out_w(fw.bucket) + (side + 1) * HIDDEN;
            let w = &p[half.clone()];
            let mut d_acc = [0.0f32; HIDDEN];
            let g_out = &mut grad[half];
            for j in 0..HIDDEN {
                let a = fw.acc[side][j];
                g_out[j] += d_out * screlu(a);
                d_acc[j] = if a > 0.0 && a < 1.0 {
                    d_out * w[j] * 2.0 * a
                } else {
                    0.0
                };
            }
            for (g, d) in grad[L1_BIAS..OUT_W].iter_mut().zip(&d_acc) {
                *g += d;
            }
            for &i in inputs {
                let row = &mut grad[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
                for (g, d) in row.iter_mut().zip(&d_acc) {
                    *g += d;
                }
            }
        }
    }

    /// Keeps every weight within ±[`WEIGHT_CLIP`] (the quantised sums rely on it; biases are
    /// left free but saturate when quantised).
    pub fn clip(&mut self) {
        let (first, rest) = self.params.split_at_mut(L1_BIAS);
        let outputs = &mut rest[HIDDEN..OUT_B - L1_BIAS];
        for w in first.iter_mut().chain(outputs.iter_mut()) {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// Multiplies the output layer (weights and bias) by `factor`, so that every evaluation is
    /// `factor` times what it was (before quantisation), and keeps the weights within
    /// ±[`WEIGHT_CLIP`]. Returns how many output weights the clip had to cut (then the
    /// largest evaluations grow by less than `factor`). The quantised output weights are
    /// integers of 1/[`QB`], so [`quantise`](FloatNet::quantise) meets the factor only to within
    /// that rounding: measure the quantised network again.
    pub fn scale_output(&mut self, factor: f32) -> usize {
        let mut clipped = 0;
        for w in &mut self.params[OUT_W..OUT_B] {
            let scaled = *w * factor;
            *w = scaled.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            clipped += usize::from(*w != scaled);
        }
        self.params[OUT_B..].iter_mut().for_each(|b| *b *= factor);
        clipped
    }

    /// Makes every bucket's output layer their mean, so that the buckets start tied (see
    /// [`FloatNet::tie_gradient`]). A network trained with one output layer and copied into
    /// every bucket is unchanged.
    pub fn tie_outputs(&mut self) {
        tie(&mut self.params, 1.0 / OUTPUT_BUCKETS as f32);
    }

    /// Turns the gradient `grad` of a network whose buckets are tied into that of one shared
    /// output layer: each output parameter's gradient summed over the buckets, written into
    /// every bucket. Tied buckets given the same updates stay tied, and the network is then
    /// one output layer stored eight times (the engine's file format keeps its buckets).
    pub fn tie_gradient(grad: &mut [f32]) {
        tie(grad, 1.0);
    }

    /// The engine's integer network: first layer × [`QA`], output weights × [`QB`], output bias
    /// × `QA · QB`, rounded and saturated.
    pub fn quantise(&self) -> Network {
        let q16 = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut net = Network::zeroed();
        for (i, row) in net.l1_weights.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = q16(self.params[i * HIDDEN + j], QA);
            }
        }
        for (j, b) in net.l1_bias.iter_mut().enumerate() {
            *b = q16(self.params[L1_BIAS + j], QA);
        }
        for (j, w) in net.out_weights.iter_mut().flatten().enumerate() {
            *w = q16(self.params[OUT_W + j], QB);
        }
        for (b, bias) in net.out_bias.iter_mut().enumerate() {
            *bias = (self.params[OUT_B + b] * (QA * QB) as f32).round() as i32;
        }
        net
    }

    /// [`quantise`](FloatNet::quantise), then each bucket's output bias moved by the mean
    /// amount rounding moved the output on `sample`'s positions of that bucket (buckets with no
    /// position keep theirs). Why: rounding the output weights to steps of 1/[`QB`] is not noise
    /// that averages out. Many hidden neurons are active in nearly every position, so their
    /// rounding errors add up to an almost constant shift; and a fine-tune's small moves
    /// away from an earlier network's grid round back towards it, so the shift opposes the
    /// fine-tune's own change of scale. One `g4-483t` fine-tune's sixth epoch came out 33.6
    /// centipawns above its float network on average (mean absolute difference 33.6: nearly
    /// all of it the shift), and its held-out loss 0.002863 against the float network's 0.002517.
    pub fn quantise_on(&self, sample: &[Features]) -> Network {
        let mut net = self.quantise();
        let back = FloatNet::from_network(&net);
        let mut shift = [(0usize, 0.0f64); OUTPUT_BUCKETS];
        for f in sample {
            let d = f64::from(self.forward(f).out) - f64::from(back.forward(f).out);
            let slot = &mut shift[f.bucket()];
            *slot = (slot.0 + 1, slot.1 + d);
        }
        for (bias, (n, sum)) in net.out_bias.iter_mut().zip(shift) {
            if n > 0 {
                *bias += (sum / n as f64 * f64::from(QA * QB)).round() as i32;
            }
        }
        net
    }
}

/// Writes into every bucket's slot of the output layer (weights and bias) the sum over the
/// buckets times `factor`.
fn tie(v: &mut [f32], factor: f32) {
    for j in 0..2 * HIDDEN {
        let sum: f32 = (0..OUTPUT_BUCKETS).map(|b| v[out_w(b) + j]).sum();
        (0..OUTPUT_BUCKETS).for_each(|b| v[out_w(b) + j] = sum * factor);
    }
    let sum: f32 = v[OUT_B..OUT_B + OUTPUT_BUCKETS].iter().sum();
    v[OUT_B..OUT_B + OUTPUT_BUCKETS]
        .iter_mut()
        .for_each(|b| *b = sum * factor);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_inputs_are_those_of_the_mirrored_position() {
        for (fen, mirror) in [
            (
                "r3k2r/pppq1ppp/2np1n2/2b1p3/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R b - - 4 8",
                "r2k3r/ppp1qppp/2n1pn2/3p1b2/1b1P1B2/2N1PN2/PPP1QPPP/R2K3R b - - 4 8",
            ),
            (
                "8/5k2/8/1P6/8/8/6K1/8 w - - 0 1",
                "8/2k5/8/6P1/8/8/1K6/8 w - - 0 1",
            ),
        ] {
            let sorted = |mut f: Features| {
                f.us.sort_unstable();
                f.them.sort_unstable();
                f
            };
            let a = Features::of(&Position::from_fen(fen).expect("fen")).mirrored();
            let b = Features::of(&Position::from_fen(mirror).expect("fen"));
            assert_eq!(sorted(a), sorted(b), "{fen}");
        }
    }

    #[test]
    fn a_quantised_network_comes_back_from_its_float_form() {
        let mut float = FloatNet::random(9);
        float.params[L1_BIAS..OUT_W]
            .iter_mut()
            .for_each(|b| *b = 0.25);
        float.params[OUT_B..]
            .iter_mut()
            .enumerate()
            .for_each(|(b, p)| *p = -0.4 + 0.1 * b as f32);
        let net = float.quantise();
        let back = FloatNet::from_network(&net);
        assert!(
            back.quantise() == net,
            "from_network then quantise changed the network"
        );
        let pos = Position::startpos();
        assert!((back.evaluate(&pos) - net.evaluate(&pos) as f32).abs() <= 1.0);
        // And it is the float network within the quantisation step.
        let worst = float
            .params
            .iter()
            .zip(&back.params)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst <= 0.5 / QB as f32 + 1e-6, "{worst}");
    }

    /// Output weights just below the middle of their quantisation step all round the same way:
    /// plain quantisation shifts every score, `quantise_on` takes the shift back out.
    #[test]
    fn quantise_on_removes_the_output_rounding_shift() {
        let mut float = FloatNet::random(7);
        for b in &mut float.params[L1_BIAS..OUT_W] {
            *b = 0.3;
        }
        for (j, w) in float.params[OUT_W..OUT_B].iter_mut().enumerate() {
            *w = ((j % 5) as f32 - 2.0 + 0.45) / QB as f32;
        }
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "rnbq1rk1/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R2QKB1R w KQ - 4 6",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ];
        let sample: Vec<Features> = fens
            .iter()
            .map(|fen| Features::of(&Position::from_fen(fen).expect("fen")))
            .collect();
        let mean_shift = |net: &Network| {
            let back = FloatNet::from_network(net);
            let sum: f32 = sample
                .iter()
                .map(|f| (back.forward(f).out - float.forward(f).out) * SCALE as f32)
                .sum();
            sum / sample.len() as f32
        };
        let plain = mean_shift(&float.quantise());
        let corrected = mean_shift(&float.quantise_on(&sample));
        assert!(
            plain < -5.0,
            "plain quantisation moved the scores by only {plain} cp"
        );
        assert!(corrected.abs() < 0.5, "corrected shift {corrected} cp");
    }

    /// Integer inference must follow the trainer's float network: this catches perspective
    /// flips, square mirroring and scale mismatches between the two.
    #[test]
    fn quantised_inference_matches_the_float_network() {
        let mut float = FloatNet::random(5);
        // Biases as a trained net has them, so that neurons sit inside SCReLU's ramp.
        for b in &mut float.params[L1_BIAS..OUT_W] {
            *b = 0.3;
        }
        // Output weights of a trained net's size (the random start is much smaller, and so
        // coarser at QB = 64 steps than any trained net).
        for w in &mut float.params[OUT_W..OUT_B] {
            *w *= 12.0;
        }
        float.params[OUT_B..].iter_mut().for_each(|b| *b = 0.05);
        // First on the quantisation grid, where only the integer divisions may differ.
        let mut grid = float.clone();
        for (i, p) in grid.params.iter_mut().enumerate() {
            let q = match i {
                _ if i < OUT_W => QA,
                _ if i < OUT_B => QB,
                _ => QA * QB,
            } as f32;
            *p = (*p * q).round() / q;
        }
        let grid_net = grid.quantise();
        let net = float.quantise();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let (f, q) = (grid.evaluate(&pos), grid_net.evaluate(&pos) as f32);
            assert!(
                (f - q).abs() <= 1.0,
                "{fen}: on the grid, float {f}, quantised {q}"
            );
        }
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1",
        ];
        let mut spread = Vec::new();
        for fen in fens {
            let pos = Position::from_fen(fen).expect("fen");
            let f = float.evaluate(&pos);
            let q = net.evaluate(&pos) as f32;
            // Off the grid, rounding each of ~30 × 256 first-layer weights to 1/255 moves a
            // random net's score by up to a few tens of centipawns (trained nets, with many
            // neurons off or saturated, move less; TRAINING.md gives the measured figure).
            assert!(
                (f - q).abs() <= 30.0 + 0.05 * f.abs(),
                "{fen}: float {f}, quantised {q}"
            );
            spread.push(f);
        }
        let (lo, hi) = spread
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), &x| (l.min(x), h.max(x)));
        assert!(
            hi - lo > 20.0,
            "the positions must score differently: {spread:?}"
        );
    }
}
