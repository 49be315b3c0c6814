//! The `ferrum` binary: with no subcommand it speaks UCI on stdin/stdout; subcommands run
//! perft, build and probe opening books, and the other tools from the command line.

#![forbid(unsafe_code)]

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use ferrum::book::{Book, BookBuilder, BookPosition, BuildOptions};
use ferrum::core::{divide, Color, Position};
use ferrum::rules::referee_stream;
use ferrum::uci::Session;

mod tb;
mod train;
mod tune;

#[derive(Parser)]
#[command(
    name = "ferrum",
    version,
    about = "Ferrum chess engine. Without a subcommand it speaks UCI on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count the leaves of the legal move tree (perft), Stockfish-style output.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Read the FEN as Chess960 and write castling as king-takes-rook.
        #[arg(long)]
        chess960: bool,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Threads to split the root moves over.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Referee a PGN file: replay every game through the rules and print one line per game
    /// (game number, plies, result tag, the rules' outcome, final FEN, or the first illegal
    /// move). Exits with status 1 when a game has an illegal or unreadable move.
    Pgn {
        /// The PGN file, or `-` for standard input.
        file: String,
        /// Print one JSON object per game instead.
        #[arg(long)]
        json: bool,
    },
    /// Polyglot opening books: build one from games, or look a position up.
    Book {
        #[command(subcommand)]
        command: BookCmd,
    },
    /// Syzygy endgame tablebases.
    Tb {
        #[command(subcommand)]
        command: TbCmd,
    },
    /// Search the fixed bench positions to a fixed depth on one thread; the last line is
    /// `N nodes M nps` (the node count is the search's signature).
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = ferrum::search::BENCH_DEPTH)]
        depth: u32,
        /// Evaluate with this network file (default: the embedded network).
        #[arg(long, conflicts_with = "hand_crafted")]
        eval_file: Option<PathBuf>,
        /// Evaluate with the hand-crafted evaluation instead of a network.
        #[arg(long)]
        hand_crafted: bool,
    },
    /// Generate training data by self-play at a soft node limit per move: whole games (every
    /// move, its search score and the result) in binary chunks of a data set directory.
    /// Runs until --games are kept or it is stopped; a new run in the same directory appends.
    Datagen {
        /// The data set directory; default `$FERRUM_DATA/<--name>`.
        #[arg(long)]
        out: Option<PathBuf>,
        /// The data set's name (a directory under `$FERRUM_DATA` when --out is not given).
        #[arg(long, default_value = "selfplay")]
        name: String,
        /// Opening positions, one EPD/FEN per line (e.g. ../shared/openings/balanced.epd); half
        /// the games start from them, the other half from the start position.
        #[arg(long)]
        openings: Option<PathBuf>,
        /// Games to keep (default: until stopped).
        #[arg(long)]
        games: Option<u64>,
        /// Soft node limit per move (no new iteration past it).
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Hard node limit per move (default ten times --nodes).
        #[arg(long)]
        hard_nodes: Option<u64>,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// The run's seed (default: from the clock; it is printed and stored in each chunk). A seed
        /// already in the directory is refused: its games would repeat.
        #[arg(long)]
        seed: Option<u64>,
        /// Games per chunk file.
        #[arg(long, default_value_t = 250)]
        chunk_games: usize,
        /// Syzygy tables (directories separated by `:`, e.g. ../shared/syzygy): a game ends
        /// with the tables' result as soon as they cover it after a capture or a pawn move.
        #[arg(long)]
        syzygy: Option<String>,
        /// Play with this network (`.nnue`) instead of the embedded one.
        #[arg(long, conflicts_with = "hand_crafted")]
        eval_file: Option<PathBuf>,
        /// Play with the hand-crafted evaluation (as gen0 did) instead of a network.
        #[arg(long)]
        hand_crafted: bool,
    },
    /// Train the neural evaluation on `datagen` games (AdamW on the CPU); writes a checkpoint
    /// and a quantised `.nnue` network into --out after every epoch, and resumes from the
    /// checkpoint there with --resume.
    Train {
        /// Data set directories (repeat for several).
        #[arg(long, required = true)]
        data: Vec<PathBuf>,
        /// Where checkpoints, networks and the log go.
        #[arg(long)]
        out: PathBuf,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        /// Positions per optimizer step.
        #[arg(long, default_value_t = 16384)]
        batch_size: usize,
        /// AdamW's learning rate.
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// Epochs (1-based) from which the learning rate is multiplied by --lr-drop.
        #[arg(long, value_delimiter = ',', default_value = "20,27")]
        lr_drop_epochs: Vec<usize>,
        /// See --lr-drop-epochs.
        #[arg(long, default_value_t = 0.3)]
        lr_drop: f32,
        /// AdamW's weight decay.
        #[arg(long, default_value_t = 0.01)]
        weight_decay: f32,
        /// Share of the game result in the target (the rest: the search score). 0 by default:
        /// with gen0's ~10,000 games the result is the noisier target (see TRAINING.md).
        #[arg(long, default_value_t = 0.0)]
        lambda: f32,
        /// Seed of the initial weights and the shuffles.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Per cent of the games held out to measure the loss on.
        #[arg(long, default_value_t = 2)]
        holdout_percent: u32,
        /// Skip the first plies of each game.
        #[arg(long, default_value_t = 8)]
        skip_plies: usize,
        /// Skip positions scored beyond this many centipawns.
        #[arg(long, default_value_t = 3000)]
        max_score: i32,
        /// Go on from the checkpoint in --out.
        #[arg(long)]
        resume: bool,
        /// Train on only the first N training positions (in chunk order; the held-out games
        /// stay the same), to measure how the loss grows with the data.
        #[arg(long)]
        train_positions: Option<usize>,
        /// Read only the chunks numbered below N (chunk-000000 .. chunk-N-1), so that a
        /// network's data set stays fixed while datagen goes on. Once for every directory, or
        /// once per --data in the same order (e.g. --data gen0 --chunks 76 --data gen1 --chunks 40).
        #[arg(long, value_name = "N")]
        chunks: Vec<u64>,
        /// Show half of the positions mirrored left to right (a different half each epoch).
        #[arg(long)]
        mirror: bool,
    },
    /// Fit the win/draw/loss model (UCI_ShowWDL) to `datagen` games: prints the coefficients
    /// for src/eval/wdl.rs and the calibration on held-out games (every fifth game).
    Wdl {
        /// Data set directories (repeat for several).
        #[arg(long, required = true)]
        data: Vec<PathBuf>,
        /// Adam iterations.
        #[arg(long, default_value_t = 500)]
        iterations: usize,
        /// Read only the chunks numbered below N: once for every directory, or once per
        /// --data in the same order (as `train --chunks`).
        #[arg(long, value_name = "N")]
        chunks: Vec<u64>,
    },
    /// Summarise a data set directory: games, positions and results per chunk, and any damage.
    Datainfo {
        /// The data set directory.
        dir: PathBuf,
    },
    /// Fit every evaluation weight to `datagen` data (Texel method: Adam on the error between
    /// sigmoid(K * eval) and the results) and write a new weights file.
    Tune {
        /// Data files of `FEN | score | result` lines (repeat for several).
        #[arg(long, required = true)]
        data: Vec<PathBuf>,
        /// The weights file to write (e.g. src/eval/weights.rs).
        #[arg(short, long)]
        output: PathBuf,
        /// Full passes over the data.
        #[arg(long, default_value_t = 2000)]
        epochs: usize,
        /// Adam's step size in centipawns.
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Use this K instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Share of the game result in the target; the rest is sigmoid(K * search score).
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
        /// Threads for the gradient.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Pull of each weight back to its starting value (L2 strength per squared
        /// centipawn); tames the weights that few positions use.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// Held-out data (other games than --data): its error against the results is only
        /// measured, before, during and after, to show overfitting.
        #[arg(long)]
        holdout: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum BookCmd {
    /// Build a Polyglot book from games. Weights come from results: 2 per win, 1 per draw (or
    /// unknown result), 0 per loss of the side that played the move.
    Build {
        /// The games: a PGN file (`.pgn`, read through the rules; bad games are skipped), or
        /// a UCI game list (one game per line: result, then UCI moves from the start
        /// position).
        games: PathBuf,
        /// Where to write the book.
        #[arg(short, long)]
        output: PathBuf,
        /// Use only the first N plies of each game.
        #[arg(long, default_value_t = 1024)]
        max_ply: usize,
        /// Keep a move only if at least N games played it in its position.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
        /// Use only the moves of COLOR in games COLOR won (repeat for both colours).
        #[arg(long, value_enum)]
        only_wins_of: Vec<ColorArg>,
    },
    /// Print a position's Polyglot key (`key <16 hex digits>`), then its book moves as
    /// `<uci move> <weight>`, best first.
    Probe {
        /// The book (default: Ferrum's embedded book).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The position (default: the start position). Its en-passant field counts.
        #[arg(long)]
        fen: Option<String>,
        /// Moves (UCI) to play from the position first.
        moves: Vec<String>,
    },
}

#[derive(Subcommand)]
enum TbCmd {
    /// Print a position's WDL (-2 loss … 2 win), DTZ (signed plies to the next capture or pawn
    /// move), its best moves and every move's DTZ. With --batch, read one FEN per line from
    /// standard input and print `WDL DTZ` (or `none`) per line.
    Probe {
        /// Table directories, separated by ':' (';' on Windows).
        #[arg(long)]
        path: String,
        /// The position.
        #[arg(long, required_unless_present = "batch")]
        fen: Option<String>,
        /// Read FENs from standard input.
        #[arg(long, conflicts_with = "fen")]
        batch: bool,
        /// With --batch, also print `move:dtz` for every legal move.
        #[arg(long, requires = "batch")]
        moves: bool,
    },
}

#[derive(Copy, Clone, ValueEnum)]
enum ColorArg {
    White,
    Black,
}

/// A reader that closes the pipe early (`ferrum pgn big.pgn | head`) makes `println!` panic on
/// the next line; leave quietly as Unix tools do (status 141, 128 + SIGPIPE) instead of printing
/// a panic message and a backtrace hint.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            Session::new(io::stdout()).run(io::stdin().lock());
            Ok(())
        }
        Some(Cmd::Perft {
            depth,
            fen,
            chess960,
            divide,
            threads,
        }) => perft(depth, fen.as_deref(), chess960, divide, threads),
        Some(Cmd::Pgn { file, json }) => match pgn(&file, json) {
            Ok(0) => Ok(()),
            Ok(_) => return ExitCode::FAILURE,
            Err(e) => Err(e),
        },
        Some(Cmd::Book {
            command:
                BookCmd::Build {
                    games,
                    output,
                    max_ply,
                    min_games,
                    only_wins_of,
                },
        }) => {
            let only_wins_of = only_wins_of
                .iter()
                .map(|c| match c {
                    ColorArg::White => Color::White,
                    ColorArg::Black => Color::Black,
                })
                .collect();
            let options = BuildOptions {
                max_ply,
                min_games,
                only_wins_of,
            };
            book_build(&games, &output, options)
        }
        Some(Cmd::Book {
            command: BookCmd::Probe { book, fen, moves },
        }) => book_probe(book.as_deref(), fen.as_deref(), &moves),
        Some(Cmd::Tb {
            command:
                TbCmd::Probe {
                    path,
                    fen,
                    batch,
                    moves,
                },
        }) => match fen {
            Some(fen) if !batch => tb::probe_one(&path, &fen),
            _ => tb::probe_batch(&path, moves),
        },
        Some(Cmd::Bench {
            depth,
            eval_file,
            hand_crafted,
        }) => load_net(eval_file.as_deref(), hand_crafted).and_then(|net| bench(depth, net)),
        Some(Cmd::Datagen {
            out,
            name,
            openings,
            games,
            nodes,
            hard_nodes,
            threads,
            seed,
            chunk_games,
            syzygy,
            eval_file,
            hand_crafted,
        }) => (|| {
            let cfg = ferrum::tune::datagen::Config {
                soft_nodes: nodes,
                hard_nodes: hard_nodes.unwrap_or(nodes.saturating_mul(10)),
                net: load_net(eval_file.as_deref(), hand_crafted)?,
                ..Default::default()
            };
            tune::datagen(tune::DatagenArgs {
                dir: tune::data_dir(out, &name)?,
                openings,
                games,
                threads,
                seed,
                chunk_games,
                cfg: tune::with_tablebases(cfg, syzygy.as_deref())?,
                evaluation: net_name(eval_file.as_deref(), hand_crafted),
            })
        })(),
        Some(Cmd::Datainfo { dir }) => tune::datainfo(&dir),
        Some(Cmd::Wdl {
            data,
            iterations,
            chunks,
        }) => train::chunk_limits(&data, &chunks).and_then(|dirs| tune::wdl(&dirs, iterations)),
        Some(Cmd::Train {
            data,
            out,
            epochs,
            batch_size,
            lr,
            lr_drop_epochs,
            lr_drop,
            weight_decay,
            lambda,
            seed,
            threads,
            holdout_percent,
            skip_plies,
            max_score,
            resume,
            train_positions,
            chunks,
            mirror,
        }) => train::train(train::TrainArgs {
            data,
            chunks,
            out,
            threads,
            holdout_percent,
            resume,
            train_positions,
            filter: ferrum::tune::filter::Filter {
                skip_plies,
                max_score,
                ..Default::default()
            },
            cfg: ferrum::tune::nnue::train::TrainConfig {
                epochs,
                batch_size,
                lr,
                lr_drop_epochs,
                lr_drop,
                weight_decay,
                lambda,
                seed,
                mirror,
                ..Default::default()
            },
        }),

        Some(Cmd::Tune {
            data,
            output,
            epochs,
            lr,
            k,
            lambda,
            threads,
            l2,
            holdout,
        }) => tune::tune(tune::TuneArgs {
            data,
            output,
            epochs,
            learning_rate: lr,
            k,
            lambda,
            threads,
            l2,
            holdout,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader left early (`| head`): not an error of ours, and nothing to say.
        Err(e) if is_broken_pipe(&e) => ExitCode::from(141),
        Err(e) => {
            eprintln!("ferrum: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// True when `e` comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn perft(
    depth: u32,
    fen: Option<&str>,
    chess960: bool,
    show_divide: bool,
    threads: usize,
) -> Result<()> {
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let mut pos = match fen {
        Some(f) if chess960 => Position::from_fen_960(f),
        Some(f) => Position::from_fen(f),
        None => Ok(Position::startpos()),
    }
    .context("bad --fen")?;
    if chess960 {
        pos.set_chess960(true);
    }
    let start = Instant::now();
    let split = divide(&pos, depth, threads);
    let total: u64 = if depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    let mut out = io::stdout().lock();
    if show_divide {
        for (m, n) in &split {
            writeln!(out, "{}: {n}", m.to_uci(pos.is_chess960()))?;
        }
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} Mnps",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

/// Referees every game of `file` (`-` for stdin); returns how many games had an error.
fn pgn(file: &str, json: bool) -> Result<usize> {
    // One game in memory at a time, whatever the file's size.
    let input: Box<dyn BufRead> = if file == "-" {
        Box::new(io::stdin().lock())
    } else {
        let f = File::open(file).with_context(|| format!("reading {file}"))?;
        Box::new(BufReader::new(f))
    };
    let progress = io::stderr().is_terminal();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = 0;
    let mut games = 0;
    let start = Instant::now();
    for report in referee_stream(input) {
        games += 1;
        if report.error.is_some() {
            failed += 1;
        }
        let line = if json {
            report.to_json()
        } else {
            report.to_line()
        };
        if writeln!(out, "{line}").is_err() {
            // The reader has gone (a closed pipe): nothing more to say.
            return Ok(failed);
        }
        if progress && games % 1000 == 0 {
            eprint!(
                "\r{games} games, {failed} with errors, {:.1} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
    if progress && games >= 1000 {
        eprintln!(
            "\r{games} games, {failed} with errors, {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    let _ = out.flush();
    Ok(failed)
}

fn book_build(games: &Path, output: &Path, options: BuildOptions) -> Result<()> {
    let mut builder = BookBuilder::new(options);
    let start = Instant::now();
    let pgn = games
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let skipped = if pgn {
        add_pgn_games(&mut builder, games)?
    } else {
        add_uci_list(&mut builder, games)?;
        0
    };
    let writer = builder.finish();
    let mut out =
        File::create(output).with_context(|| format!("cannot create {}", output.display()))?;
    writer
        .write_to(&mut out)
        .with_context(|| format!("cannot write {}", output.display()))?;
    eprintln!(
        "{} games{} -> {} entries in {} ({:.1} s)",
        builder.games(),
        if pgn {
            format!(" ({skipped} skipped)")
        } else {
            String::new()
        },
        writer.len(),
        output.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Adds the games of a UCI game list; stops at the first bad line.
fn add_uci_list(builder: &mut BookBuilder, games: &Path) -> Result<()> {
    let file = File::open(games).with_context(|| format!("cannot open {}", games.display()))?;
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", games.display()))?;
        let added = builder
            .add_uci_line(&line)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("{} line {}", games.display(), i + 1))?;
        if added && builder.games() % 10_000 == 0 {
            eprintln!(
                "{} games, {} positions and moves",
                builder.games(),
                builder.positions()
            );
        }
    }
    Ok(())
}

/// Adds the games of a PGN file through the rules, one game in memory at a time; a game that
/// cannot be used is skipped with a note on stderr. Returns how many were skipped.
fn add_pgn_games(builder: &mut BookBuilder, games: &Path) -> Result<usize> {
    let file = File::open(games).with_context(|| format!("cannot open {}", games.display()))?;
    let added = builder.add_pgn_stream(BufReader::new(file));
    for note in &added.skipped {
        eprintln!("skipping {}, {note}", games.display());
    }
    Ok(added.skipped.len())
}

/// The network to play with: none with `hand_crafted`, else the one in `path`, else the
/// embedded one.
fn load_net(
    path: Option<&Path>,
    hand_crafted: bool,
) -> Result<Option<std::sync::Arc<ferrum::eval::nnue::Network>>> {
    if hand_crafted {
        return Ok(None);
    }
    let Some(path) = path else {
        return Ok(ferrum::eval::nnue::embedded());
    };
    let net = ferrum::eval::nnue::Network::load(path)
        .with_context(|| format!("cannot load the network {}", path.display()))?;
    Ok(Some(std::sync::Arc::new(net)))
}

/// What `load_net` with these arguments plays with, for a log line.
fn net_name(path: Option<&Path>, hand_crafted: bool) -> String {
    match (path, hand_crafted) {
        (_, true) => "the hand-crafted evaluation".to_string(),
        (Some(p), false) => format!("the network {}", p.display()),
        (None, false) => format!("the embedded network {}", ferrum::eval::nnue::EMBEDDED_NAME),
    }
}

/// `ferrum bench`: the bench positions with `net` (`None`: the hand-crafted evaluation).
fn bench(depth: u32, net: Option<std::sync::Arc<ferrum::eval::nnue::Network>>) -> Result<()> {
    let r = ferrum::search::bench_with_net(depth, &ferrum::search::Signals::new(), net);
    println!("{} nodes {} nps", r.nodes, r.nps());
    Ok(())
}

fn book_probe(path: Option<&Path>, fen: Option<&str>, moves: &[String]) -> Result<()> {
    let loaded;
    let book = match path {
        Some(p) => {
            loaded = Book::open(p)?;
            &loaded
        }
        None => Book::embedded(),
    };
    let mut pos = match fen {
        Some(f) => BookPosition::from_fen(f).context("bad --fen")?,
        None => BookPosition::startpos(),
    };
    for m in moves {
        pos.play_uci(m)?;
    }
    let mut out = io::stdout().lock();
    writeln!(out, "key {:016x}", pos.key())?;
    let chess960 = pos.position().is_chess960();
    for b in book.probe(&pos) {
        writeln!(out, "{} {}", b.mv.to_uci(chess960), b.weight)?;
    }
    Ok(())
}
