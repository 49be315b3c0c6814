//! The training loop: mini-batches of shuffled positions, the gradient summed over a fixed
//! split of each batch (so the result does not depend on the number of threads), AdamW, weight
//! clipping, a held-out loss per epoch, and checkpoints that hold the optimizer's state so a
//! stopped run resumes where it was.

use std::path::Path;

use rayon::prelude::*;

use super::data::Packed;
use super::net::{Features, FloatNet, NET_PARAMS};
use crate::core::zobrist::mix64;
use crate::core::Position;
use crate::eval::nnue::{Network, OUTPUT_BUCKETS};
use crate::tune::Rng;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimizer step.
    pub batch_size: usize,
    /// AdamW's learning rate.
    pub lr: f32,
    /// The learning rate is multiplied by [`TrainConfig::lr_drop`] at each of these epochs
    /// (1-based: the drop applies from that epoch on).
    pub lr_drop_epochs: Vec<usize>,
    /// See [`TrainConfig::lr_drop_epochs`].
    pub lr_drop: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// Share of the game result in the target; the rest is the search score's win chance.
    pub lambda: f32,
    /// Centipawns to win chance: `sigmoid(cp / eval_scale)`.
    pub eval_scale: f32,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
    /// Show half of the positions (a different half each epoch) mirrored left to right: the
    /// network sees no castling rights, so a mirrored position is as good a sample, and the
    /// data goes twice as far against overfitting.
    pub mirror: bool,
    /// Train one output layer shared by every output bucket (its gradient summed over the
    /// buckets) instead of one per bucket: for a network whose buckets start equal, such as
    /// one trained before buckets existed. Each untied bucket learns from its share of the
    /// positions only.
    pub tied_buckets: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 30,
            batch_size: 16_384,
            lr: 0.001,
            lr_drop_epochs: vec![20, 27],
            lr_drop: 0.3,
            weight_decay: 0.01,
            lambda: 0.0,
            eval_scale: 400.0,
            seed: 1,
            mirror: false,
            tied_buckets: false,
        }
    }
}

impl TrainConfig {
    /// The learning rate in `epoch` (1-based).
    pub fn lr_at(&self, epoch: usize) -> f32 {
        let drops = self.lr_drop_epochs.iter().filter(|&&e| epoch >= e).count();
        self.lr * self.lr_drop.powi(drops as i32)
    }
}

/// The gradient is summed over this many parts of each batch, always the same split, then the
/// parts are added in order: threads change the speed, never the result.
const PARTS: usize = 32;

/// The whole state of a run: the network, Adam's moments, where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Trainer {
    /// The network.
    pub net: FloatNet,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Epochs completed.
    pub epoch: usize,
    /// Optimizer steps taken.
    pub step: u64,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target win chance of a position: the result blended with the score's win chance.
fn target(p: &Packed, cfg: &TrainConfig) -> f32 {
    let from_score = sigmoid(f32::from(p.score) / cfg.eval_scale);
    cfg.lambda * p.result() + (1.0 - cfg.lambda) * from_score
}

/// The loss of one position whose evaluation is `cp` centipawns for the side to move: the
/// squared difference of its win chance and the target's.
fn squared_error(cp: f32, p: &Packed, cfg: &TrainConfig) -> f64 {
    let e = sigmoid(cp / cfg.eval_scale) - target(p, cfg);
    f64::from(e * e)
}

/// The mean loss on `data` of another static evaluation (centipawns for the side to move)
/// measured the way the network's is: the yardstick a network has to beat, on the same
/// positions and targets. Positions that do not unpack are skipped.
pub fn static_eval_loss<E, F>(data: &[Packed], cfg: &TrainConfig, new_eval: F) -> f64
where
    F: Fn() -> E + Sync,
    E: FnMut(&Position) -> i32 + Send,
{
    let (sum, n) = data
        .par_iter()
        .fold(
            || (0.0f64, 0usize, new_eval()),
            |(sum, n, mut eval), p| match p.position() {
                Some(pos) => {
                    let loss = squared_error(eval(&pos) as f32, p, cfg);
                    (sum + loss, n + 1, eval)
                }
                None => (sum, n, eval),
            },
        )
        .map(|(sum, n, _)| (sum, n))
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// The factor that brings `new`'s evaluations to `reference`'s scale on `data`: the
/// least-squares slope through the origin of the reference's score on the new one's,
/// Σ ref·new / Σ new² (1 for the same network; 0.5 when `new` calls every position twice what
/// `reference` does). Positions that do not unpack, and those either network scores beyond
/// ±`within` centipawns, are left out, so a few won positions do not set the scale. `None`
/// when no position is left or the new network scores them all 0.
pub fn scale_factor(
    data: &[Packed],
    new: &Network,
    reference: &Network,
    within: i32,
) -> Option<f64> {
    let (cross, square) = data
        .par_iter()
        .filter_map(|p| p.position())
        .map(|pos| {
            (
                f64::from(new.evaluate(&pos)),
                f64::from(reference.evaluate(&pos)),
            )
        })
        .filter(|(n, r)| n.abs() <= f64::from(within) && r.abs() <= f64::from(within))
        .map(|(n, r)| (n * r, n * n))
        .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    (square > 0.0).then(|| cross / square)
}

/// Whether training position `i` is shown mirrored in the epoch whose draw is `flip`: about
/// half of them, a different half each epoch.
fn mirror_now(i: u32, flip: u64) -> bool {
    mix64(u64::from(i) ^ flip) & 1 == 1
}

/// What one epoch did.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// 1-based epoch.
    pub epoch: usize,
    /// Mean loss over the epoch's batches (before each step).
    pub train_loss: f64,
    /// Mean loss on the held-out positions after the epoch.
    pub holdout_loss: Option<f64>,
    /// The learning rate used.
    pub lr: f32,
    /// Positions per second of the epoch.
    pub positions_per_second: f64,
}

impl Trainer {
    /// A new run: random weights from the seed.
    pub fn new(cfg: &TrainConfig) -> Trainer {
        Trainer {
            net: FloatNet::random(cfg.seed),
            m: vec![0.0; NET_PARAMS],
            v: vec![0.0; NET_PARAMS],
            epoch: 0,
            step: 0,
        }
    }

    /// A new run that starts from `net` (fine-tuning) with a fresh optimizer.
    pub fn from_net(net: FloatNet) -> Trainer {
        Trainer {
            net,
            ..Trainer::new(&TrainConfig::default())
        }
    }

    /// The mean loss of the network on `data` (parallel).
    pub fn loss(&self, data: &[Packed], cfg: &TrainConfig) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let sum: f64 = data
            .par_iter()
            .map(|p| self.position_loss(&p.features(), p, cfg))
            .sum();
        sum / data.len() as f64
    }

    /// One position's loss: the network's output in centipawns against its label.
    fn position_loss(&self, f: &Features, p: &Packed, cfg: &TrainConfig) -> f64 {
        squared_error(self.net.forward(f).out * 400.0, p, cfg)
    }

    /// The mean loss on `data` of the positions in each output bucket, with their number (0
    /// where a bucket has none): where a network gains or loses against another.
    pub fn loss_by_bucket(&self, data: &[Packed], cfg: &TrainConfig) -> Vec<(usize, f64)> {
        let sums = data
            .par_iter()
            .fold(
                || vec![(0usize, 0.0f64); OUTPUT_BUCKETS],
                |mut sums, p| {
                    let f = p.features();
                    let slot = &mut sums[f.bucket()];
                    *slot = (slot.0 + 1, slot.1 + self.position_loss(&f, p, cfg));
                    sums
                },
            )
            .reduce(
                || vec![(0, 0.0); OUTPUT_BUCKETS],
                |a, b| {
                    a.iter()
                        .zip(&b)
                        .map(|(x, y)| (x.0 + y.0, x.1 + y.1))
                        .collect()
                },
            );
        sums.into_iter()
            .map(|(n, sum)| (n, if n == 0 { 0.0 } else { sum / n as f64 }))
            .collect()
    }

    /// The gradient of the batch's summed loss, and that loss.
    fn gradient(
        &self,
        batch: &[(&Packed, bool)],
        cfg: &TrainConfig,
        parts: &mut [Vec<f32>],
    ) -> f64 {
        let per_part = batch.len().div_ceil(PARTS).max(1);
        let losses: Vec<f64> = parts
            .par_iter_mut()
            .zip(batch.par_chunks(per_part))
            .map(|(grad, chunk)| {
                grad.iter_mut().for_each(|g| *g = 0.0);
                let mut loss = 0.0f64;
                for &(p, mirrored) in chunk {
                    let f = if mirrored {
                        p.features().mirrored()
                    } else {
                        p.features()
                    };
                    let fw = self.net.forward(&f);
                    // out · 400 centipawns, through the same sigmoid as the target.
                    let k = 400.0 / cfg.eval_scale;
                    let pred = sigmoid(fw.out * k);
                    let e = pred - target(p, cfg);
                    loss += f64::from(e * e);
                    let d_out = 2.0 * e * pred * (1.0 - pred) * k;
                    self.net.backward(&f, &fw, d_out, grad);
                }
                loss
            })
            .collect();
        losses.iter().sum()
    }

    /// One AdamW step with the summed gradient `g` of a batch of `n` positions.
    fn adamw(&mut self, g: &[f32], n: usize, lr: f32, cfg: &TrainConfig) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - B2.powi(self.step.min(i32::MAX as u64) as i32);
        let scale = 1.0 / n.max(1) as f32;
        let params = self.net.params.iter_mut().zip(g);
        for ((w, &gi), (m, v)) in params.zip(self.m.iter_mut().zip(self.v.iter_mut())) {
            let gi = gi * scale;
            *m = B1 * *m + (1.0 - B1) * gi;
            *v = B2 * *v + (1.0 - B2) * gi * gi;
            let update = (*m / c1) / ((*v / c2).sqrt() + EPS);
            *w -= lr * (update + cfg.weight_decay * *w);
        }
        self.net.clip();
    }

    /// Trains one epoch over `train` (shuffled by the seed and the epoch) and measures the
    /// held-out loss.
    pub fn epoch(
        &mut self,
        train: &[Packed],
        holdout: &[Packed],
        cfg: &TrainConfig,
    ) -> EpochReport {
        let start = std::time::Instant::now();
        let epoch = self.epoch + 1;
        let lr = cfg.lr_at(epoch);
        let order = shuffled(
            train.len(),
            cfg.seed ^ (epoch as u64).wrapping_mul(0xA24B_AED4_963E_E407),
        );
        let mut parts = vec![vec![0.0f32; NET_PARAMS]; PARTS];
        let mut total = vec![0.0f32; NET_PARAMS];
        let mut loss = 0.0f64;
        let flip = cfg.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for idx in order.chunks(cfg.batch_size.max(1)) {
            let batch: Vec<(&Packed, bool)> = idx
                .iter()
                .map(|&i| (&train[i as usize], cfg.mirror && mirror_now(i, flip)))
                .collect();
            loss += self.gradient(&batch, cfg, &mut parts);
            total.iter_mut().for_each(|t| *t = 0.0);
            for part in &parts[..batch.len().min(PARTS)] {
                for (t, g) in total.iter_mut().zip(part) {
                    *t += g;
                }
            }
            if cfg.tied_buckets {
                FloatNet::tie_gradient(&mut total);
            }
            self.adamw(&total, batch.len(), lr, cfg);
        }
        self.epoch = epoch;
        let secs = start.elapsed().as_secs_f64();
        EpochReport {
            epoch,
            train_loss: loss / train.len().max(1) as f64,
            holdout_loss: (!holdout.is_empty()).then(|| self.loss(holdout, cfg)),
            lr,
            positions_per_second: train.len() as f64 / secs.max(1e-9),
        }
    }
}

/// A permutation of `0..n` from `seed` (Fisher–Yates).
pub fn shuffled(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let mut v: Vec<u32> = (0..n as u32).collect();
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
    v
}

/// The first bytes of a checkpoint file.
const CHECKPOINT_MAGIC: [u8; 8] = *b"FRMCKPT1";

impl Trainer {
    /// The checkpoint bytes: magic, epoch, step, then the parameters and both moment vectors
    /// as little-endian f32.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + 12 * NET_PARAMS);
        out.extend_from_slice(&CHECKPOINT_MAGIC);
        out.extend_from_slice(&(self.epoch as u64).to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        for v in [&self.net.params, &self.m, &self.v] {
            v.iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        out
    }

    /// Reads checkpoint bytes; `None` when they are not a checkpoint of this network's shape.
    pub fn from_bytes(bytes: &[u8]) -> Option<Trainer> {
        if bytes.len() != 24 + 12 * NET_PARAMS || bytes[..8] != CHECKPOINT_MAGIC {
            return None;
        }
        let epoch = u64::from_le_bytes(bytes[8..16].try_into().ok()?) as usize;
        let step = u64::from_le_bytes(bytes[16..24].try_into().ok()?);
        let floats: Vec<f32> = bytes[24..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let (params, rest) = floats.split_at(NET_PARAMS);
        let (m, v) = rest.split_at(NET_PARAMS);
        Some(Trainer {
            net: FloatNet {
                params: params.to_vec(),
            },
            m: m.to_vec(),
            v: v.to_vec(),
            epoch,
            step,
        })
    }

    /// Writes a checkpoint atomically (a temporary file renamed over the old one).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;

    fn tiny_data() -> Vec<Packed> {
        // White is a queen up in half of them and the score says so; the rest are level.
        let up = Position::from_fen("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1").expect("fen");
        let down = Position::from_fen("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1").expect("fen");
        let level = Position::from_fen("4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1").expect("fen");
        let mut v = Vec::new();
        for _ in 0..64 {
            v.push(Packed::new(&up, 900, 1.0));
            v.push(Packed::new(&down, -900, 0.0));
            v.push(Packed::new(&level, 0, 0.5));
        }
        v
    }

    #[test]
    fn a_static_evaluation_is_measured_against_the_targets() {
        let cfg = TrainConfig {
            lambda: 0.0,
            ..TrainConfig::default()
        };
        let data = tiny_data();
        // The queen counted from the side to move's view matches every target exactly.
        let exact = || {
            |pos: &Position| {
                let queens = pos.pieces(crate::core::PieceKind::Queen);
                match (queens.is_empty(), pos.side_to_move()) {
                    (true, _) => 0,
                    (false, Color::White) => 900,
                    (false, Color::Black) => -900,
                }
            }
        };
        assert!(static_eval_loss(&data, &cfg, exact) < 1e-9);
        let blind = static_eval_loss(&data, &cfg, || |_: &Position| 0);
        let far = 1.0 / (1.0 + (-900.0f64 / 400.0).exp()) - 0.5;
        assert!((blind - 2.0 / 3.0 * far * far).abs() < 1e-4, "{blind}");
    }

    #[test]
    fn the_scale_factor_brings_a_network_to_the_reference_scale() {
        let Some(reference) = crate::eval::nnue::embedded() else {
            panic!("the embedded network loads");
        };
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1",
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        ];
        let data: Vec<Packed> = fens
            .iter()
            .map(|f| Packed::new(&Position::from_fen(f).expect("fen"), 0, 0.5))
            .collect();
        let same = scale_factor(&data, &reference, &reference, 3000);
        assert_eq!(same, Some(1.0));
        // Output weights are integers of 1/QB: with even ones, halving is exact.
        let mut reference = (*reference).clone();
        reference
            .out_weights
            .iter_mut()
            .flatten()
            .for_each(|w| *w -= *w % 2);
        reference.out_bias.iter_mut().for_each(|b| *b -= *b % 2);
        // A copy that calls everything half as good needs twice its scores.
        let mut half = FloatNet::from_network(&reference);
        assert_eq!(half.scale_output(0.5), 0, "halving clips nothing");
        let half = half.quantise();
        let f = scale_factor(&data, &half, &reference, 3000).expect("scored positions");
        assert!((f - 2.0).abs() < 0.02, "{f}");
        // Scaled by that factor it is back on the reference's scale.
        let mut back = FloatNet::from_network(&half);
        back.scale_output(f as f32);
        let again = scale_factor(&data, &back.quantise(), &reference, 3000).expect("scored");
        assert!((again - 1.0).abs() < 0.02, "{again}");
        // Beyond the clip, the weights stop growing and say so.
        assert!(FloatNet::from_network(&reference).scale_output(3.0) > 0);
        // Nothing inside the window: no factor.
        assert_eq!(scale_factor(&data, &reference, &reference, -1), None);
    }

    /// Forty epochs at a high learning rate: enough for the tiny data to be learnt.
    fn quick_config() -> TrainConfig {
        TrainConfig {
            epochs: 40,
            batch_size: 32,
            lr: 0.01,
            lr_drop_epochs: vec![],
            ..TrainConfig::default()
        }
    }

    /// A run of `cfg.epochs` epochs on `data` from random weights.
    fn trained(data: &[Packed], cfg: &TrainConfig) -> Trainer {
        let mut t = Trainer::new(cfg);
        for _ in 0..cfg.epochs {
            t.epoch(data, &[], cfg);
        }
        t
    }

    #[test]
    fn training_lowers_the_loss_and_learns_the_queen() {
        let cfg = quick_config();
        let data = tiny_data();
        let before = Trainer::new(&cfg).loss(&data, &cfg);
        let t = trained(&data, &cfg);
        let after = t.loss(&data, &cfg);
        assert!(after < before / 4.0, "loss {before} -> {after}");
        let up = Position::from_fen("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1").expect("fen");
        assert!(t.net.evaluate(&up) > 300.0, "{}", t.net.evaluate(&up));
    }

    #[test]
    fn fine_tuning_starts_from_the_given_network_with_a_fresh_optimizer() {
        let cfg = quick_config();
        let data = tiny_data();
        let trained = trained(&data, &cfg);
        // Through the engine's file format and back, as `train --init` reads it.
        let file = trained.net.quantise().to_bytes();
        let net = crate::eval::nnue::Network::from_bytes(&file).expect("network");
        let tuned = Trainer::from_net(FloatNet::from_network(&net));
        assert_eq!((tuned.epoch, tuned.step), (0, 0));
        assert!(tuned.m.iter().chain(&tuned.v).all(|&x| x == 0.0));
        let (fresh, start, end) = (
            Trainer::new(&cfg).loss(&data, &cfg),
            tuned.loss(&data, &cfg),
            trained.loss(&data, &cfg),
        );
        assert!(
            start < fresh / 4.0 && (start - end).abs() < 0.1 * fresh,
            "random {fresh}, fine-tuning start {start}, trained {end}"
        );
    }

    /// Positions in the first output bucket (3 and 4 pieces: `tiny_data`) and in the last
    /// (the full board, 31 and 32 pieces).
    fn two_bucket_data() -> Vec<Packed> {
        let mut data = tiny_data();
        let start = Position::startpos();
        let down = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("fen");
        for _ in 0..64 {
            data.push(Packed::new(&start, 30, 0.5));
            data.push(Packed::new(&down, 900, 1.0));
        }
        data
    }

    #[test]
    fn the_loss_by_bucket_splits_the_loss() {
        let cfg = quick_config();
        let data = two_bucket_data();
        let t = trained(
            &tiny_data(),
            &TrainConfig {
                epochs: 3,
                ..cfg.clone()
            },
        );
        let by_bucket = t.loss_by_bucket(&data, &cfg);
        let last = OUTPUT_BUCKETS - 1;
        let counts: Vec<usize> = by_bucket.iter().map(|b| b.0).collect();
        let mut expected = vec![0; last + 1];
        (expected[0], expected[last]) = (192, 128);
        assert_eq!(counts, expected);
        // The buckets' losses weighted by their positions make the whole loss.
        let weighted: f64 = by_bucket.iter().map(|&(n, l)| n as f64 * l).sum();
        let whole = t.loss(&data, &cfg);
        assert!((weighted / data.len() as f64 - whole).abs() < 1e-9 * whole.max(1.0));
        // Trained on the first bucket's positions only, it knows those better.
        assert!(by_bucket[0].1 < by_bucket[last].1, "{by_bucket:?}");
    }

    #[test]
    fn tied_buckets_train_one_shared_output_layer() {
        let data = two_bucket_data();
        let run = |tied: bool| {
            let cfg = TrainConfig {
                epochs: 5,
                tied_buckets: tied,
                ..quick_config()
            };
            let mut t = Trainer::new(&cfg);
            if tied {
                t.net.tie_outputs();
            }
            let before = t.net.quantise();
            for _ in 0..cfg.epochs {
                t.epoch(&data, &[], &cfg);
            }
            (before, t.net.quantise())
        };
        let (before, tied) = run(true);
        let (first, last) = (0, OUTPUT_BUCKETS - 1);
        assert!(tied.out_weights.iter().all(|w| *w == tied.out_weights[0]));
        assert!(tied.out_bias.iter().all(|b| *b == tied.out_bias[0]));
        assert!(
            tied.out_weights[0] != before.out_weights[0],
            "the shared layer trained"
        );
        // Untied, the two buckets the data reaches move apart.
        let (_, untied) = run(false);
        assert!(untied.out_weights[first] != untied.out_weights[last]);
    }

    #[test]
    fn a_run_is_reproducible_and_a_checkpoint_resumes_it_exactly() {
        let cfg = TrainConfig {
            batch_size: 50,
            ..TrainConfig::default()
        };
        let data = tiny_data();
        let mut a = Trainer::new(&cfg);
        a.epoch(&data, &[], &cfg);
        let saved = a.to_bytes();
        a.epoch(&data, &[], &cfg);
        let mut b = Trainer::from_bytes(&saved).expect("checkpoint");
        assert_eq!(b.epoch, 1);
        b.epoch(&data, &[], &cfg);
        assert_eq!(a, b, "resumed run differs");
        let mut c = Trainer::new(&cfg);
        c.epoch(&data, &[], &cfg);
        c.epoch(&data, &[], &cfg);
        assert_eq!(a, c, "same seed, same run");
        assert!(Trainer::from_bytes(&saved[..saved.len() - 1]).is_none());
    }
}
