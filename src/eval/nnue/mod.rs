//! The neural evaluation (NNUE): 768 inputs per perspective (piece, square, seen from that
//! side) → [`HIDDEN`] neurons per perspective → one output, with the side to move's half
//! first, SCReLU activation, and integer arithmetic (`i16` accumulators, `i32` output). The
//! output layer has [`OUTPUT_BUCKETS`] sets of weights, one chosen by the number of pieces on
//! the board ([`output_bucket`]), so the hidden features can weigh differently in the opening,
//! the middlegame and the endgame.
//!
//! The float network of the trainer (`ferrum train`) is quantised by [`QA`] (first layer) and
//! [`QB`] (output layer); the output, divided by `QA · QB`, is multiplied by [`SCALE`] to give
//! centipawns. The accumulators are updated with each move ([`accumulator`]), so a node's
//! evaluation costs the two changed rows of the first layer and one pass over the output layer.
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::eval::nnue::Network;
//! // A network whose only weight is +1 on "the side to move's first neuron" sees nothing at
//! // the start position until the bias makes that neuron fire.
//! let mut net = Network::zeroed();
//! net.set_first_layer_bias(0, 255);
//! net.set_output_weight(0, 64);
//! let score = net.evaluate(&Position::startpos());
//! assert_eq!(score, 400, "screlu(1) · 1 · SCALE");
//! ```

pub mod accumulator;
mod embedded;
mod file;

use crate::core::{Color, Piece, Position, Square};

pub use accumulator::{Accumulator, AccumulatorStack, Delta};
pub use embedded::{embedded, EMBEDDED_NAME};
pub use file::NetError;

/// Neurons per perspective in the hidden layer.
pub const HIDDEN: usize = 128;
/// Inputs per perspective: 12 pieces × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the first layer (weights, biases and so activations: 1.0 is `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output layer's weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's float output.
pub const SCALE: i32 = 400;
/// Sets of output weights; a position uses the one its piece count picks ([`output_bucket`]).
pub const OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces on the board, kings included:
/// 2–5 pieces use bucket 0, 6–9 bucket 1, …, 30–32 bucket 7.
#[inline(always)]
pub fn output_bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(OUTPUT_BUCKETS - 1)
}

/// Largest weight magnitude the trainer allows (so that no integer sum can overflow: see
/// [`Network::evaluate_accumulators`]).
pub const WEIGHT_CLIP: f32 = 1.98;
/// Largest output weight magnitude a network may have: [`WEIGHT_CLIP`] · [`QB`], rounded.
/// Inference multiplies activations by output weights in 16 bits, so the file loader refuses a
/// network beyond it.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// The input index of `piece` on `sq` seen from `perspective`: the perspective's own pieces
/// come first, and Black sees the board mirrored top to bottom, so both sides see their pieces
/// marching up the board.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let (own, sq) = match perspective {
        Color::White => (piece.color == Color::White, sq.index()),
        Color::Black => (piece.color == Color::Black, sq.index() ^ 56),
    };
    (!own as usize) * 384 + piece.kind.index() * 64 + sq
}

/// A quantised network, ready for integer inference.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First layer: for each input, its [`HIDDEN`] weights (so one input is one row).
    pub(crate) l1_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// First layer biases.
    pub(crate) l1_bias: [i16; HIDDEN],
    /// Output weights per bucket: the side to move's half, then the other side's.
    pub(crate) out_weights: [[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
    /// Output bias per bucket, in units of `QA · QB`.
    pub(crate) out_bias: [i32; OUTPUT_BUCKETS],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}->{HIDDEN}x2->1x{OUTPUT_BUCKETS}, biases {:?})",
            self.out_bias
        )
    }
}

/// Σ screlu(a) · w, where screlu(a)² is computed as v · (v · w) with v = clamp(a, 0, QA).
///
/// v · w is formed in 16 bits on purpose: it fits (|v · w| ≤ 255 · 127, the file loader
/// refuses larger output weights), so x86 computes it with `pmullw` and the widening second
/// product with `pmaddwd` instead of two 32-bit `pmulld` (at `x86-64-v2`, LLVM uses `pmaddwd`
/// on four zero-extended lanes, not eight).
#[inline(always)]
fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(weights) {
        let v = a.clamp(0, QA as i16);
        let vw = v.wrapping_mul(w);
        sum += i32::from(vw) * i32::from(v);
    }
    sum
}

impl Network {
    /// A network with every weight and bias zero (it scores every position 0).
    pub fn zeroed() -> Network {
        Network {
            l1_weights: vec![[0i16; HIDDEN]; INPUTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| Box::new([[0; HIDDEN]; INPUTS])),
            l1_bias: [0; HIDDEN],
            out_weights: [[0; 2 * HIDDEN]; OUTPUT_BUCKETS],
            out_bias: [0; OUTPUT_BUCKETS],
        }
    }

    /// Sets first-layer bias `i` (quantised by [`QA`]).
    pub fn set_first_layer_bias(&mut self, i: usize, value: i16) {
        if let Some(b) = self.l1_bias.get_mut(i) {
            *b = value;
        }
    }

    /// Sets output weight `i` (`0..2 · HIDDEN`: the side to move's neurons, then the other
    /// side's; quantised by [`QB`]) in every bucket, clamped to ±[`MAX_OUTPUT_WEIGHT`].
    pub fn set_output_weight(&mut self, i: usize, value: i16) {
        for bucket in 0..OUTPUT_BUCKETS {
            self.set_bucket_output_weight(bucket, i, value);
        }
    }

    /// Sets output weight `i` of one bucket (see [`set_output_weight`](Self::set_output_weight)).
    pub fn set_bucket_output_weight(&mut self, bucket: usize, i: usize, value: i16) {
        if let Some(w) = self.out_weights.get_mut(bucket).and_then(|b| b.get_mut(i)) {
            *w = value.clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT);
        }
    }

    /// The score in centipawns, for the side to move, of the two perspectives' accumulators,
    /// with the output weights of `bucket` (see [`output_bucket`]; a bucket beyond the last
    /// uses the last).
    ///
    /// No sum can overflow: activations are at most [`QA`] = 255 and every output weight is
    /// within [`MAX_OUTPUT_WEIGHT`] = 127 (the trainer clips to [`WEIGHT_CLIP`] · [`QB`], the
    /// loader refuses more), so each activation-weight product fits 16 bits, each term is
    /// below 255² · 127 and 256 of them stay below 2³¹.
    #[inline]
    pub fn evaluate_accumulators(
        &self,
        us: &Accumulator,
        them: &Accumulator,
        bucket: usize,
    ) -> i32 {
        let bucket = bucket.min(OUTPUT_BUCKETS - 1);
        let (ours, theirs) = self.out_weights[bucket].split_at(HIDDEN);
        let sum = screlu_dot(&us.0, ours) + screlu_dot(&them.0, theirs);
        // The activations carry QA², the weights QB: one QA goes here, the bias has QA · QB.
        let out = sum / QA + self.out_bias[bucket];
        (i64::from(out) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The score of `pos` for the side to move, from accumulators built from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let white = Accumulator::refresh(self, pos, Color::White);
        let black = Accumulator::refresh(self, pos, Color::Black);
        let bucket = output_bucket(pos.occupied().count());
        match pos.side_to_move() {
            Color::White => self.evaluate_accumulators(&white, &black, bucket),
            Color::Black => self.evaluate_accumulators(&black, &white, bucket),
        }
    }
}

#[cfg(test)]
mod tests;
