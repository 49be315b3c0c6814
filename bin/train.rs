//! The `train` subcommand: fits the neural evaluation to self-play games.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use ferrum::core::Position;
use ferrum::eval::nnue::Network;
use ferrum::eval::Evaluator;
use ferrum::tune::filter::Filter;
use ferrum::tune::nnue::data;
use ferrum::tune::nnue::net::{Features, FloatNet};
use ferrum::tune::nnue::train::{scale_factor, static_eval_loss, TrainConfig, Trainer};

/// What `ferrum train` was asked to do (its command-line options).
#[derive(clap::Args)]
pub struct TrainArgs {
    /// Data set directories (repeat for several).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Where checkpoints, networks and the log go.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Positions per optimizer step.
    #[arg(long, default_value_t = 16384)]
    pub batch_size: usize,
    /// AdamW's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Epochs (1-based) from which the learning rate is multiplied by --lr-drop.
    #[arg(long, value_delimiter = ',', default_value = "20,27")]
    pub lr_drop_epochs: Vec<usize>,
    /// See --lr-drop-epochs.
    #[arg(long, default_value_t = 0.3)]
    pub lr_drop: f32,
    /// AdamW's weight decay.
    #[arg(long, default_value_t = 0.01)]
    pub weight_decay: f32,
    /// Share of the game result in the target (the rest: the search score). 0 by default:
    /// with gen0's ~10,000 games the result is the noisier target (see TRAINING.md).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f32,
    /// Centipawns to win chance in the loss, `sigmoid(cp / scale)`. With --lambda above 0 it
    /// must fit the data, or the result and the score ask for different evaluations: for
    /// gen6, whose win/draw/loss fit gives an expected score of 73% at about 150 cp, about
    /// 150 (TRAINING.md). With --lambda 0 it only weighs the errors.
    #[arg(long, default_value_t = 400.0)]
    pub eval_scale: f32,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Per cent of the games held out to measure the loss on.
    #[arg(long, default_value_t = 2)]
    pub holdout_percent: u32,
    /// Skip the first plies of each game.
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Skip positions scored beyond this many centipawns.
    #[arg(long, default_value_t = 3000)]
    pub max_score: i32,
    /// Go on from the checkpoint in --out.
    #[arg(long)]
    pub resume: bool,
    /// Train on only the first N training positions (in chunk order; the held-out games
    /// stay the same), to measure how the loss grows with the data.
    #[arg(long)]
    pub train_positions: Option<usize>,
    /// Read only the chunks numbered below N (chunk-000000 .. chunk-N-1), so that a
    /// network's data set stays fixed while datagen goes on. Once for every directory, or
    /// once per --data in the same order (e.g. --data gen0 --chunks 76 --data gen1 --chunks 40).
    #[arg(long, value_name = "N")]
    pub chunks: Vec<u64>,
    /// Show half of the positions mirrored left to right (a different half each epoch).
    #[arg(long)]
    pub mirror: bool,
    /// Train one output layer shared by all output buckets (their mean to start with, written
    /// into every bucket): for fine-tuning a network whose buckets are copies of one layer.
    #[arg(long)]
    pub tied_buckets: bool,
    /// Start from this network file (fine-tuning) instead of random weights; ignored when
    /// --resume finds a checkpoint.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Also write each epoch's network brought to this network's scale (`embedded` for the
    /// embedded one) as `net-eNNN-scaled.nnue`: its output layer multiplied by the factor that
    /// makes its scores on the held-out positions match the reference's on average. Each
    /// generation otherwise scores larger than the last (TRAINING.md), which narrows the
    /// search's margins.
    #[arg(long, value_name = "NET")]
    pub scale_like: Option<PathBuf>,
}

/// Scores beyond this many centipawns (either network's) do not set a scale factor.
const SCALE_WINDOW: i32 = 1000;

impl TrainArgs {
    /// Which positions are used.
    fn filter(&self) -> Filter {
        Filter {
            skip_plies: self.skip_plies,
            max_score: self.max_score,
            ..Default::default()
        }
    }

    /// The optimisation.
    fn config(&self) -> TrainConfig {
        TrainConfig {
            epochs: self.epochs,
            batch_size: self.batch_size,
            lr: self.lr,
            lr_drop_epochs: self.lr_drop_epochs.clone(),
            lr_drop: self.lr_drop,
            weight_decay: self.weight_decay,
            lambda: self.lambda,
            eval_scale: self.eval_scale,
            seed: self.seed,
            mirror: self.mirror,
            tied_buckets: self.tied_buckets,
        }
    }
}

/// A new run's trainer with its output buckets tied when the run trains them tied (a resumed
/// run's checkpoint already has them as its first epoch left them).
fn tied_if(mut trainer: Trainer, cfg: &TrainConfig) -> Trainer {
    if cfg.tied_buckets {
        trainer.net.tie_outputs();
    }
    trainer
}

/// Appends a line to the run's log and prints it.
fn log(out: &std::path::Path, line: &str) -> Result<()> {
    eprintln!("{line}");
    let path = out.join("train.log");
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(f, "{line}").with_context(|| format!("cannot write {}", path.display()))
}

/// Pairs each data directory with its chunk limit (`--chunks`: none, one for all, or one each).
pub fn chunk_limits(dirs: &[PathBuf], chunks: &[u64]) -> Result<Vec<(PathBuf, Option<u64>)>> {
    let limit = |i: usize| {
        match chunks {
        [] => Ok(None),
        [n] => Ok(Some(*n)),
        many if many.len() == dirs.len() => Ok(Some(many[i])),
        many => bail!(
            "--chunks given {} times for {} --data directories: give it once for all, or once per directory",
            many.len(),
            dirs.len()
        ),
    }
    };
    dirs.iter()
        .enumerate()
        .map(|(i, d)| Ok((d.clone(), limit(i)?)))
        .collect()
}

/// The network `--scale-like` names: `embedded`, or a network file.
fn scale_reference(arg: &std::path::Path) -> Result<Network> {
    if arg.as_os_str() == "embedded" {
        return ferrum::eval::nnue::embedded()
            .map(|net| (*net).clone())
            .context("the embedded network does not load");
    }
    Network::load(arg).with_context(|| format!("cannot read --scale-like {}", arg.display()))
}

/// Positions on which quantisation's shift of the output is measured and taken back out
/// ([`FloatNet::quantise_on`]): about 65,536 training positions spread evenly over the set
/// (chunk order, so every part of the data is in it).
fn bias_sample(train: &[data::Packed]) -> Vec<Features> {
    let step = (train.len() / 65_536).max(1);
    train.iter().step_by(step).map(|p| p.features()).collect()
}

/// Writes `net` (whose quantised form, as saved at `path`, is `quantised`) brought to
/// `reference`'s scale on `holdout` beside `path` (`-scaled`), and says by what factor and how
/// closely the quantised result meets it.
fn write_scaled(
    net: &FloatNet,
    quantised: &Network,
    reference: &Network,
    holdout: &[data::Packed],
    sample: &[Features],
    path: &std::path::Path,
) -> Result<String> {
    let Some(factor) = scale_factor(holdout, quantised, reference, SCALE_WINDOW) else {
        return Ok("no held-out position to scale on".to_string());
    };
    let mut scaled = net.clone();
    let clipped = scaled.scale_output(factor as f32);
    let quantised = scaled.quantise_on(sample);
    let left = scale_factor(holdout, &quantised, reference, SCALE_WINDOW).unwrap_or(f64::NAN);
    let out = path.with_file_name(format!(
        "{}-scaled.nnue",
        path.file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned())
    ));
    std::fs::write(&out, quantised.to_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    Ok(format!(
        "scaled x{factor:.3} to the reference ({clipped} output weights clipped; factor left after quantising {left:.3}) -> {}",
        out.display()
    ))
}

/// `ferrum train`: loads the data, starts or resumes the trainer, and runs the epochs.
pub fn train(args: TrainArgs) -> Result<()> {
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be between 0 and 1");
    }
    if !(args.eval_scale.is_finite() && args.eval_scale > 0.0) {
        bail!("--eval-scale must be a positive number of centipawns");
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build_global()
        .context("cannot start the thread pool")?;
    let (filter, cfg) = (args.filter(), args.config());
    let start = Instant::now();
    let data = load_data(&args, &filter)?;
    let scale_like = args
        .scale_like
        .as_deref()
        .map(scale_reference)
        .transpose()?;
    // Only once the inputs are known good: a run that fails on them leaves no empty --out.
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let yardsticks = yardsticks(&data.holdout, &cfg);
    let checkpoint = args.out.join("checkpoint.bin");
    let mut trainer = start_trainer(&args, &cfg, &checkpoint)?;
    log(
        &args.out,
        &format!(
            "data: {} chunks, {} games, {} training and {} held-out positions (loaded in {:.1} s); {yardsticks}; {:?}; {:?}; starting after epoch {}",
            data.chunks,
            data.games,
            data.train.len(),
            data.holdout.len(),
            start.elapsed().as_secs_f64(),
            filter,
            cfg,
            trainer.epoch
        ),
    )?;
    log_buckets(&args.out, &trainer, &data.holdout, &cfg, "start")?;
    let sample = bias_sample(&data.train);
    // The ETA counts this run's epochs only: a resumed run's earlier ones took other time.
    let (first, run_start) = (trainer.epoch, Instant::now());
    while trainer.epoch < cfg.epochs {
        run_epoch(
            &mut trainer,
            &data,
            &sample,
            &cfg,
            &args.out,
            scale_like.as_ref(),
        )?;
        let done = (trainer.epoch - first) as u64;
        let target = cfg.epochs.saturating_sub(first) as u64;
        let secs = run_start.elapsed().as_secs_f64();
        eprintln!("epochs: {}", crate::eta(done, target, secs));
        if trainer.epoch == cfg.epochs {
            log_buckets(&args.out, &trainer, &data.holdout, &cfg, "end")?;
        }
    }
    Ok(())
}

/// The positions of `--data` that `filter` keeps, cut to `--train-positions`.
fn load_data(args: &TrainArgs, filter: &Filter) -> Result<data::TrainingData> {
    let mut data = data::load(
        &chunk_limits(&args.data, &args.chunks)?,
        filter,
        args.holdout_percent,
        |e| eprintln!("warning: {e}; the chunk's later games are skipped"),
    )?;
    if let Some(n) = args.train_positions {
        data.train.truncate(n);
    }
    if data.train.is_empty() {
        bail!("the data holds no training positions");
    }
    Ok(data)
}

/// The losses a new network is measured against on the held-out positions: the hand-crafted
/// evaluation's and the embedded network's (the one it has to beat).
fn yardsticks(holdout: &[data::Packed], cfg: &TrainConfig) -> String {
    let hce = static_eval_loss(holdout, cfg, || {
        let mut e = Evaluator::new();
        move |pos: &Position| e.hand_crafted(pos)
    });
    let embedded = ferrum::eval::nnue::embedded().map_or(String::new(), |net| {
        let loss = static_eval_loss(holdout, cfg, || {
            let net = net.clone();
            move |pos: &Position| net.evaluate(pos)
        });
        format!(
            "; the embedded network {}'s {loss:.6}",
            ferrum::eval::nnue::EMBEDDED_NAME
        )
    });
    format!("hand-crafted evaluation's holdout loss {hce:.6}{embedded}")
}

/// The trainer to go on with: the checkpoint in `--out` with `--resume`, else the `--init`
/// network, else random weights.
fn start_trainer(
    args: &TrainArgs,
    cfg: &TrainConfig,
    checkpoint: &std::path::Path,
) -> Result<Trainer> {
    if args.resume && checkpoint.exists() {
        let bytes = std::fs::read(checkpoint)
            .with_context(|| format!("cannot read {}", checkpoint.display()))?;
        return Trainer::from_bytes(&bytes).with_context(|| {
            format!(
                "{} is not a checkpoint of this network",
                checkpoint.display()
            )
        });
    }
    if let Some(path) = &args.init {
        let net =
            Network::load(path).with_context(|| format!("cannot start from {}", path.display()))?;
        return Ok(tied_if(
            Trainer::from_net(FloatNet::from_network(&net)),
            cfg,
        ));
    }
    Ok(tied_if(Trainer::new(cfg), cfg))
}

/// One epoch: trains, saves the checkpoint and the epoch's quantised network (and its
/// `--scale-like` copy), and logs the losses.
fn run_epoch(
    trainer: &mut Trainer,
    data: &data::TrainingData,
    sample: &[Features],
    cfg: &TrainConfig,
    out: &std::path::Path,
    scale_like: Option<&Network>,
) -> Result<()> {
    let r = trainer.epoch(&data.train, &data.holdout, cfg);
    let held = r
        .holdout_loss
        .map_or(String::new(), |l| format!(", holdout loss {l:.6}"));
    let checkpoint = out.join("checkpoint.bin");
    trainer
        .save(&checkpoint)
        .with_context(|| format!("cannot write {}", checkpoint.display()))?;
    let net_path = out.join(format!("net-e{:03}.nnue", r.epoch));
    let quantised = trainer.net.quantise_on(sample);
    std::fs::write(&net_path, quantised.to_bytes())
        .with_context(|| format!("cannot write {}", net_path.display()))?;
    log(
        out,
        &format!(
            "epoch {}: train loss {:.6}{held}, lr {:.2e}, {:.0} positions/s -> {}",
            r.epoch,
            r.train_loss,
            r.lr,
            r.positions_per_second,
            net_path.display()
        ),
    )?;
    if let Some(reference) = scale_like {
        let line = write_scaled(
            &trainer.net,
            &quantised,
            reference,
            &data.holdout,
            sample,
            &net_path,
        )?;
        log(out, &format!("epoch {}: {line}", r.epoch))?;
    }
    Ok(())
}

/// Logs the held-out loss of each output bucket (its positions in brackets): where a run
/// gains, since the buckets from the fewest pieces up hold very different numbers of positions.
/// With `--epochs 0` it measures the `--init` network alone.
fn log_buckets(
    out: &std::path::Path,
    trainer: &Trainer,
    holdout: &[data::Packed],
    cfg: &TrainConfig,
    when: &str,
) -> Result<()> {
    let cells: Vec<String> = trainer
        .loss_by_bucket(holdout, cfg)
        .iter()
        .enumerate()
        .map(|(b, (n, loss))| format!("{b}: {loss:.6} ({n})"))
        .collect();
    let line = format!(
        "holdout loss by output bucket, {when}: {}",
        cells.join(", ")
    );
    log(out, &line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_limits_are_none_one_for_all_or_one_per_directory() {
        let dirs = [PathBuf::from("gen0"), PathBuf::from("gen1")];
        let limits = |chunks: &[u64]| {
            chunk_limits(&dirs, chunks).map(|v| v.into_iter().map(|(_, n)| n).collect::<Vec<_>>())
        };
        assert_eq!(limits(&[]).ok(), Some(vec![None, None]));
        assert_eq!(limits(&[5]).ok(), Some(vec![Some(5), Some(5)]));
        assert_eq!(limits(&[76, 3]).ok(), Some(vec![Some(76), Some(3)]));
        let err = limits(&[1, 2, 3]).expect_err("three limits for two directories");
        assert!(err.to_string().contains("3 times for 2"), "{err}");
    }
}
