//! The `datagen` and `tune` subcommands: self-play training data and the Texel tuner.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use ferrum::core::Position;
use ferrum::eval::wdl::WdlModel;
use ferrum::tb::Tablebases;
use ferrum::tune::chunks::{
    chunk_files, chunk_number, game_hash, read_chunk, set_digest, ChunkWriter,
};
use ferrum::tune::datagen::{self, Config};
use ferrum::tune::filter::Filter;
use ferrum::tune::gamefile::{GameRecord, RecordResult};
use ferrum::tune::wdl::WdlSample;
use rayon::prelude::*;

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

/// What `ferrum datagen` was asked to do (its command-line options).
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// The data set directory; default `$FERRUM_DATA/<--name>`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The data set's name (a directory under `$FERRUM_DATA` when --out is not given).
    #[arg(long, default_value = "selfplay")]
    pub name: String,
    /// Opening positions, one EPD/FEN per line (e.g. ../shared/openings/balanced.epd); half
    /// the games start from them, the other half from the start position.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games to keep (default: until stopped).
    #[arg(long)]
    pub games: Option<u64>,
    /// Soft node limit per move (no new iteration past it).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Hard node limit per move (default ten times --nodes).
    #[arg(long)]
    pub hard_nodes: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The run's seed (default: from the clock; it is printed and stored in each chunk). A seed
    /// already in the directory is refused: its games would repeat.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games per chunk file.
    #[arg(long, default_value_t = 250)]
    pub chunk_games: usize,
    /// Syzygy tables (directories separated by `:`, e.g. ../shared/syzygy): a game ends
    /// with the tables' result as soon as they cover it after a capture or a pawn move.
    #[arg(long)]
    pub syzygy: Option<String>,
    #[command(flatten)]
    pub eval: crate::EvalChoice,
}

impl DatagenArgs {
    /// How the games are played: node limits, evaluation and tables.
    fn config(&self) -> Result<Config> {
        let cfg = Config {
            soft_nodes: self.nodes,
            hard_nodes: self.hard_nodes.unwrap_or(self.nodes.saturating_mul(10)),
            net: self.eval.load()?,
            ..Default::default()
        };
        with_tablebases(cfg, self.syzygy.as_deref())
    }
}

/// `cfg` with the Syzygy tables of `path` (`None`: without tables); says on stderr what was
/// opened.
fn with_tablebases(mut cfg: Config, path: Option<&str>) -> Result<Config> {
    let Some(path) = path else {
        return Ok(cfg);
    };
    let tables = Tablebases::open(path).with_context(|| format!("--syzygy {path}"))?;
    eprintln!("tablebases: {}", tables.report().summary());
    cfg.tablebases = Some(Arc::new(tables));
    Ok(cfg)
}

/// The data set directory: `--out`, else `$FERRUM_DATA/<name>`.
fn data_dir(out: Option<PathBuf>, name: &str) -> Result<PathBuf> {
    if let Some(dir) = out {
        return Ok(dir);
    }
    match std::env::var_os("FERRUM_DATA") {
        Some(root) if !root.is_empty() => Ok(PathBuf::from(root).join(name)),
        _ => bail!("no data directory: give --out DIR or set FERRUM_DATA"),
    }
}

/// A seed from the clock and the process id, so runs started without --seed differ.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// Counts for the progress lines.
#[derive(Default)]
struct GameCounts {
    games: u64,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
}

impl GameCounts {
    fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        self.positions += g.moves.len() as u64;
        match g.result {
            RecordResult::WhiteWins => self.wins += 1,
            RecordResult::Draw => self.draws += 1,
            RecordResult::BlackWins => self.losses += 1,
        }
    }

    fn line(&self, secs: f64) -> String {
        format!(
            "{} games (+{} ={} -{} for White), {} positions, {:.0} positions/s",
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.positions,
            self.positions as f64 / secs.max(1e-9)
        )
    }
}

/// `ferrum datagen`: self-play games into the chunks of a data set directory.
pub fn datagen(args: DatagenArgs) -> Result<()> {
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    let dir = data_dir(args.out.clone(), &args.name)?;
    let cfg = args.config()?;
    let evaluation = args.eval.name();
    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let soft = u32::try_from(cfg.soft_nodes).unwrap_or(u32::MAX);
    let (mut writer, salvage) = ChunkWriter::open(&dir, seed, soft, args.chunk_games)?;
    if salvage.chunks > 0 {
        eprintln!(
            "salvaged {} games from {} chunk(s) a stopped run left ({} bytes of unfinished games dropped)",
            salvage.games, salvage.chunks, salvage.bytes_dropped
        );
    }
    eprintln!(
        "datagen: {} seed {seed}, {} threads, {} soft / {} hard nodes per move, {}, chunks from number {}",
        dir.display(),
        args.threads,
        cfg.soft_nodes,
        cfg.hard_nodes,
        evaluation,
        writer.next_number()
    );
    let run = datagen::Run {
        threads: args.threads,
        games: args.games,
        seed,
    };
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut counts = GameCounts::default();
    let mut failure = None;
    datagen::generate(&openings, &cfg, &run, |g| {
        if let Err(e) = writer.write(&g) {
            failure = Some(e);
            return false;
        }
        counts.add(&g);
        if last_report.elapsed().as_secs() >= 30 {
            last_report = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            // With a target the line says how far and how long; without, the run is open-ended.
            let toward = args.games.map_or(String::new(), |n| {
                format!("; {}", crate::eta(counts.games, n, secs))
            });
            eprintln!("{}{toward}", counts.line(secs));
        }
        true
    })
    .map_err(anyhow::Error::msg)?;
    writer.finish()?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    eprintln!("done: {}", counts.line(start.elapsed().as_secs_f64()));
    Ok(())
}

/// `ferrum datainfo`: one line per chunk and the totals.
pub fn datainfo(dir: &Path) -> Result<()> {
    let mut total = GameCounts::default();
    let mut bytes = 0u64;
    let mut damaged = 0usize;
    let mut hashes = Vec::new();
    for path in chunk_files(dir, true)? {
        let read = read_chunk(&path);
        let mut t = GameCounts::default();
        read.games.iter().for_each(|g| t.add(g));
        let chunk_hashes: Vec<u64> = read.games.iter().map(game_hash).collect();
        hashes.extend_from_slice(&chunk_hashes);
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        let seed = read
            .header
            .map_or(String::from("?"), |h| h.seed.to_string());
        println!(
            "{} {size} bytes, seed {seed}: {} games, {} positions (+{} ={} -{}), digest {:016x}",
            path.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            t.games,
            t.positions,
            t.wins,
            t.draws,
            t.losses,
            set_digest(chunk_hashes)
        );
        if let Some(e) = read.error {
            println!("  damaged: {e}");
            damaged += 1;
        }
        bytes += size;
        read.games.iter().for_each(|g| total.add(g));
    }
    println!(
        "total: {} games, {} positions, {bytes} bytes ({:.2} bytes per position), {damaged} damaged chunk(s), digest {:016x}",
        total.games,
        total.positions,
        bytes as f64 / total.positions.max(1) as f64,
        set_digest(hashes)
    );
    Ok(())
}

/// What `ferrum tune` was asked to do (its command-line options).
#[derive(clap::Args)]
pub struct TuneArgs {
    /// Data files of `FEN | score | result` lines (repeat for several).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// The weights file to write (e.g. src/eval/weights.rs).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Full passes over the data.
    #[arg(long, default_value_t = 2000)]
    pub epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Use this K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Share of the game result in the target; the rest is sigmoid(K * search score).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Pull of each weight back to its starting value (L2 strength per squared
    /// centipawn); tames the weights that few positions use.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Held-out data (other games than --data): its error against the results is only
    /// measured, before, during and after, to show overfitting.
    #[arg(long)]
    pub holdout: Option<PathBuf>,
}

/// Reads one data file of text lines, or a data set directory of binary chunks (its games
/// filtered by the default [`Filter`]; a damaged chunk is reported and skipped).
fn read_data(path: &Path) -> Result<ferrum::tune::tuner::DataSet> {
    if path.is_dir() {
        let games = read_games(&[(path.to_path_buf(), None)])?;
        return Ok(ferrum::tune::tuner::DataSet::from_games(
            &games,
            &Filter::default(),
        ));
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read data file {}", path.display()))?;
    ferrum::tune::tuner::DataSet::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// `ferrum tune`: fits every weight to the data and writes the weights file.
pub fn tune(args: TuneArgs) -> Result<()> {
    use ferrum::eval::weights::W;
    use ferrum::tune::tuner::{self, Settings};
    check_tune_args(&args)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build_global()
        .context("cannot start the thread pool")?;
    let start = Instant::now();
    let mut data = load_tune_data(&args.data)?;
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
        learning_rate: args.lr,
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
    let rounded_float = tuner::to_float(&rounded);
    let after = tuner::error(&data, &rounded_float, k);
    eprintln!("error after {after:.6} (rounded weights)");
    let held = holdout
        .as_ref()
        .zip(holdout_before)
        .map(|(h, b)| (h.entries.len(), b, tuner::error(h, &rounded_float, k)));
    let errors = TuneErrors {
        k,
        positions: data.entries.len(),
        before,
        after,
        holdout: held,
    };
    let provenance = tune_provenance(&args, &errors);
    let text = tuner::weights_file(&rounded, &provenance);
    std::fs::write(&args.output, text)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("{provenance}");
    println!("wrote {}", args.output.display());
    Ok(())
}

/// Refuses settings `tune` cannot use before anything is read.
fn check_tune_args(args: &TuneArgs) -> Result<()> {
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
    Ok(())
}

/// Every `--data` file's positions in one set (each file's count on stderr).
fn load_tune_data(paths: &[PathBuf]) -> Result<ferrum::tune::tuner::DataSet> {
    let mut data = ferrum::tune::tuner::DataSet::default();
    for path in paths {
        let part = read_data(path)?;
        eprintln!("{}: {} positions", path.display(), part.entries.len());
        data.extend(part);
    }
    if data.entries.is_empty() {
        bail!("the data files hold no positions");
    }
    Ok(data)
}

/// The errors a tuning run reports in its weights file.
struct TuneErrors {
    k: f64,
    positions: usize,
    before: f64,
    after: f64,
    /// With `--holdout`: its positions, and its error before and after.
    holdout: Option<(usize, f64, f64)>,
}

/// The weights file's provenance: the data, the errors and the command that reproduces it.
fn tune_provenance(args: &TuneArgs, e: &TuneErrors) -> String {
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let (held_line, held_arg) = match (e.holdout, &args.holdout) {
        (Some((n, b, a)), Some(path)) => (
            format!(
                "\nHoldout: {n} positions from {}; error {b:.6} before, {a:.6} after.",
                path.display()
            ),
            format!(" --holdout {}", path.display()),
        ),
        _ => (String::new(), String::new()),
    };
    format!(
        "Data: {} positions from {}.\nK = {:.4}; mean squared error {:.6} before, {:.6} after.{held_line}\n\
         Command: ferrum tune --data {} --epochs {} --lr {} --lambda {} --l2 {}{held_arg}",
        e.positions,
        files.join(", "),
        e.k,
        e.before,
        e.after,
        files.join(" --data "),
        args.epochs,
        args.lr,
        args.lambda,
        args.l2,
    )
}

/// Every game of the data set directories, each read up to its chunk limit (damaged chunks
/// are reported and read up to the damage).
fn read_games(dirs: &[(PathBuf, Option<u64>)]) -> Result<Vec<GameRecord>> {
    let mut games = Vec::new();
    for (dir, limit) in dirs {
        let below = |c: &PathBuf| limit.is_none_or(|n| chunk_number(c).is_some_and(|i| i < n));
        for chunk in chunk_files(dir, false)?.into_iter().filter(below) {
            let read = read_chunk(&chunk);
            if let Some(e) = read.error {
                eprintln!("warning: {e}; the chunk's later games are skipped");
            }
            games.extend(read.games);
        }
    }
    Ok(games)
}

/// `ferrum wdl`'s arguments.
#[derive(clap::Args)]
pub struct WdlArgs {
    /// Data set directories (repeat for several).
    #[arg(long)]
    data: Vec<PathBuf>,
    /// Read only the chunks numbered below N: once for every directory, or once per --data in
    /// the same order (as `train --chunks`).
    #[arg(long, value_name = "N")]
    chunks: Vec<u64>,
    /// PGN files of finished games with the engines' scores in the move comments, as
    /// fastchess and cutechess write them (`{+0.30/18 0.389s}`); repeat for several.
    #[arg(long, value_name = "FILE")]
    pgn: Vec<PathBuf>,
    /// PGN files whose games are only used to measure the model, before and after the fit.
    #[arg(long, value_name = "FILE")]
    test_pgn: Vec<PathBuf>,
    /// Take the scores of this player only (the White/Black tag) from every PGN file; repeat
    /// for several. Without it, every player's scores are taken.
    #[arg(long, value_name = "NAME")]
    player: Vec<String>,
    /// Adam iterations.
    #[arg(long, default_value_t = 500)]
    iterations: usize,
}

/// The first plies of a game are skipped (close to the opening, whether random plies or a
/// book's): the same choice for datagen and PGN games.
const WDL_SKIP_PLIES: usize = 8;

/// The samples of the PGN files, game by game (so that whole games can be held out).
fn pgn_games(files: &[PathBuf], players: &[String], max_score: i32) -> Result<Vec<Vec<WdlSample>>> {
    let mut games = Vec::new();
    for path in files {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        for read in ferrum::rules::PgnStream::new(BufReader::new(file)) {
            match read {
                Ok(game) => games.push(ferrum::tune::wdl::pgn_samples(
                    &game,
                    players,
                    WDL_SKIP_PLIES,
                    max_score,
                )),
                Err(e) => eprintln!("warning: {}: {e}; the game is skipped", path.display()),
            }
        }
    }
    Ok(games)
}

/// `ferrum wdl`: fits the win/draw/loss model and prints its calibration on held-out games.
pub fn wdl(args: WdlArgs) -> Result<()> {
    use ferrum::tune::wdl;
    let filter = Filter {
        quiet_best_move: false,
        skip_plies: WDL_SKIP_PLIES,
        ..Filter::default()
    };
    let dirs = crate::train::chunk_limits(&args.data, &args.chunks)?;
    let mut games: Vec<Vec<WdlSample>> = read_games(&dirs)?
        .par_iter()
        .map(|g| wdl::samples(std::slice::from_ref(g), &filter))
        .collect();
    games.extend(pgn_games(&args.pgn, &args.player, filter.max_score)?);
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    let game_count = games.len();
    for (i, game) in games.into_iter().enumerate() {
        if i % 5 == 4 { &mut held } else { &mut fit }.extend(game);
    }
    if fit.is_empty() || held.is_empty() {
        bail!("not enough games to fit and to hold out (give --data or --pgn)");
    }
    let test: Vec<WdlSample> = pgn_games(&args.test_pgn, &args.player, filter.max_score)?
        .into_iter()
        .flatten()
        .collect();
    let start = ferrum::eval::wdl::MODEL;
    eprintln!(
        "{game_count} games: {} positions to fit, {} held out",
        fit.len(),
        held.len()
    );
    let model = wdl::fit(&fit, start, args.iterations);
    let losses = |what: &str, samples: &[WdlSample]| {
        println!(
            "{what} mean log-loss: {:.5} before, {:.5} after",
            wdl::mean_nll(&start, samples),
            wdl::mean_nll(&model, samples)
        )
    };
    losses("held-out", &held);
    if !test.is_empty() {
        losses(&format!("--test-pgn ({} positions)", test.len()), &test);
    }
    let coefficients = |c: &[f64; 4]| {
        c.iter()
            .map(|x| format!("{x:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("a: [{}],", coefficients(&model.a));
    println!("b: [{}],", coefficients(&model.b));
    print_calibration("held-out games", &model, &held);
    if !test.is_empty() {
        print_calibration("--test-pgn games, the fitted model", &model, &test);
        print_calibration("--test-pgn games, the model before", &start, &test);
    }
    Ok(())
}

/// The calibration table of `model` on `samples`, 100 cp buckets within ±800.
fn print_calibration(title: &str, model: &WdlModel, samples: &[WdlSample]) {
    use ferrum::tune::wdl;
    println!("{title}:\nscore bucket | positions | predicted W/D/L % | observed W/D/L %");
    let pct = |x: [f64; 3]| {
        format!(
            "{:.1}/{:.1}/{:.1}",
            100.0 * x[0],
            100.0 * x[1],
            100.0 * x[2]
        )
    };
    for b in wdl::calibration(model, samples, 100, 800) {
        println!(
            "[{}, {}) | {} | {} | {}",
            b.low,
            b.high,
            b.count,
            pct(b.predicted),
            pct(b.observed)
        );
    }
}
