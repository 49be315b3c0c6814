//! The `datagen` and `tune` subcommands: self-play training data and the Texel tuner.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use ferrum::core::Position;
use ferrum::tune::datagen::{self, Config, GameRecord, Progress};

/// Reads opening positions: one EPD or FEN per line (the first four fields are the position;
/// the clocks default to `0 1`). Blank and `#` lines are skipped; a bad line is an error naming it.
pub fn read_openings(path: &Path) -> Result<Vec<Position>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line =
            line.with_context(|| format!("{}: cannot read line {}", path.display(), n + 1))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let pos = Position::from_fen(&fields.join(" "))
            .with_context(|| format!("{}: line {}: not a position", path.display(), n + 1))?;
        out.push(pos);
    }
    if out.is_empty() {
        bail!("{}: no opening positions", path.display());
    }
    Ok(out)
}

/// `ferrum datagen`: plays `games` self-play games and appends their quiet positions to `output`.
pub fn datagen(
    openings: &Path,
    output: &Path,
    games: usize,
    threads: usize,
    cfg: Config,
) -> Result<()> {
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let openings = read_openings(openings)?;
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(output)
        .with_context(|| format!("cannot open {} for writing", output.display()))?;
    let mut out = BufWriter::new(file);
    let progress = Progress::default();
    let start = Instant::now();
    let mut write_error: Option<std::io::Error> = None;
    let mut done = 0usize;
    let (mut wins, mut draws, mut losses) = (0usize, 0usize, 0usize);
    {
        let sink = Mutex::new(|g: &GameRecord| -> bool {
            if let Err(e) = out
                .write_all(g.lines().as_bytes())
                .and_then(|_| out.flush())
            {
                write_error = Some(e);
                return false;
            }
            done += 1;
            match g.result {
                r if r > 0.75 => wins += 1,
                r if r < 0.25 => losses += 1,
                _ => draws += 1,
            }
            if done % 100 == 0 {
                let secs = start.elapsed().as_secs_f64();
                eprintln!(
                    "{done} games (+{wins} ={draws} -{losses}), {} positions, {:.1} games/s",
                    progress.positions.load(Ordering::Relaxed),
                    done as f64 / secs.max(1e-9)
                );
            }
            true
        });
        datagen::generate(&openings, &cfg, games, threads, &progress, &sink)
            .map_err(anyhow::Error::msg)?;
    }
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("cannot write {}", output.display()));
    }
    eprintln!(
        "done: {} games, {} positions in {:.0} s",
        progress.games.load(Ordering::Relaxed),
        progress.positions.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// What `ferrum tune` was asked to do.
pub struct TuneArgs {
    /// Data files (`FEN | score | result` lines).
    pub data: Vec<std::path::PathBuf>,
    /// Where to write the new weights file.
    pub output: std::path::PathBuf,
    /// Full-batch Adam epochs.
    pub epochs: usize,
    /// Adam step size.
    pub learning_rate: f64,
    /// Fixed K (fitted when absent).
    pub k: Option<f64>,
    /// Weight of the game result in the target (the rest: the search score).
    pub lambda: f64,
    /// Threads for the gradient.
    pub threads: usize,
    /// L2 pull to the starting weights.
    pub l2: f64,
    /// Held-out data, measured but not fitted.
    pub holdout: Option<std::path::PathBuf>,
}

/// Reads and parses one data file.
fn read_data(path: &Path) -> Result<ferrum::tune::tuner::DataSet> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read data file {}", path.display()))?;
    ferrum::tune::tuner::DataSet::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// `ferrum tune`: fits every weight to the data and writes the weights file.
pub fn tune(args: TuneArgs) -> Result<()> {
    use ferrum::eval::weights::W;
    use ferrum::tune::tuner::{self, DataSet, Settings};
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    if args.l2.is_nan() || args.l2 < 0.0 {
        bail!("--l2 must be 0 or more");
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be between 0 and 1");
    }
    if args.data.is_empty() {
        bail!("no data file given (--data FILE)");
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build_global()
        .context("cannot start the thread pool")?;
    let start = Instant::now();
    let mut data = DataSet::default();
    for path in &args.data {
        let part = read_data(path)?;
        eprintln!("{}: {} positions", path.display(), part.entries.len());
        data.extend(part);
    }
    if data.entries.is_empty() {
        bail!("the data files hold no positions");
    }
    eprintln!(
        "{} positions loaded in {:.1} s",
        data.entries.len(),
        start.elapsed().as_secs_f64()
    );
    let w0 = tuner::to_float(&W);
    let k = match args.k {
        Some(k) => k,
        None => tuner::fit_k(&data, &w0),
    };
    data.blend_targets(args.lambda, k);
    let before = tuner::error(&data, &w0, k);
    eprintln!("K = {k:.4}, error before {before:.6}");
    // The held-out targets stay the pure results: that is what the weights should predict.
    let holdout = match &args.holdout {
        Some(path) => Some(read_data(path)?),
        None => None,
    };
    let holdout_before = holdout.as_ref().map(|h| tuner::error(h, &w0, k));
    if let (Some(h), Some(e)) = (&holdout, holdout_before) {
        eprintln!(
            "holdout: {} positions, error before {e:.6}",
            h.entries.len()
        );
    }
    let settings = Settings {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        report_every: 50,
        l2: args.l2,
    };
    let tuned = tuner::tune(&data, w0, k, &settings, |epoch, e, w| {
        let held = holdout
            .as_ref()
            .map(|h| format!(", holdout {:.6}", tuner::error(h, w, k)))
            .unwrap_or_default();
        eprintln!(
            "epoch {epoch}: error {e:.6}{held} ({:.0} s)",
            start.elapsed().as_secs_f64()
        );
    });
    let rounded = tuner::to_int(&tuned);
    let after = tuner::error(&data, &tuner::to_float(&rounded), k);
    eprintln!("error after {after:.6} (rounded weights)");
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let (held_line, held_arg) = match (&holdout, holdout_before, &args.holdout) {
        (Some(h), Some(b), Some(path)) => (
            format!(
                "\nHoldout: {} positions from {}; error {b:.6} before, {:.6} after.",
                h.entries.len(),
                path.display(),
                tuner::error(h, &tuner::to_float(&rounded), k)
            ),
            format!(" --holdout {}", path.display()),
        ),
        _ => (String::new(), String::new()),
    };
    let provenance = format!(
        "Data: {} positions from {}.\nK = {k:.4}; mean squared error {before:.6} before, {after:.6} after.{held_line}\n\
         Command: ferrum tune --data {} --epochs {} --lr {} --lambda {} --l2 {}{held_arg}",
        data.entries.len(),
        files.join(", "),
        files.join(" --data "),
        args.epochs,
        args.learning_rate,
        args.lambda,
        args.l2,
    );
    let text = tuner::weights_file(&rounded, &provenance);
    std::fs::write(&args.output, text)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("{provenance}");
    println!("wrote {}", args.output.display());
    Ok(())
}
