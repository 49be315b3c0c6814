//! The `ferrum` binary: with no subcommand it speaks UCI on stdin/stdout; subcommands run
//! perft, build and probe opening books, and the other tools from the command line.

#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use ferrum::book::{Book, BookBuilder, BookPosition, BuildOptions};
use ferrum::core::{divide_each, Color, Position};
use ferrum::rules::referee_stream;
use ferrum::uci::Session;

mod tb;
mod train;
mod tune;

#[derive(Parser)]
// `--version` prints `Ferrum 0.3.0 (abc1234)`, as the UCI `id name` does: the display name
// is what clap writes before the version; usage lines still say `ferrum`.
#[command(
    name = "ferrum",
    display_name = "Ferrum",
    version = ferrum::VERSION,
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
        #[command(flatten)]
        eval: EvalChoice,
    },
    /// Generate training data by self-play at a soft node limit per move: whole games (every
    /// move, its search score and the result) in binary chunks of a data set directory.
    /// Runs until --games are kept or it is stopped; a new run in the same directory appends.
    Datagen(tune::DatagenArgs),
    /// Train the neural evaluation on `datagen` games (AdamW on the CPU); writes a checkpoint
    /// and a quantised `.nnue` network into --out after every epoch, and resumes from the
    /// checkpoint there with --resume.
    Train(train::TrainArgs),
    /// Fit the win/draw/loss model (UCI_ShowWDL) to `datagen` games or to PGN games whose
    /// comments carry the engines' scores: prints the coefficients for src/eval/wdl.rs and the
    /// calibration on held-out games (every fifth game) and on any --test-pgn games.
    Wdl(tune::WdlArgs),
    /// Summarise a data set directory: games, positions and results per chunk, and any damage.
    Datainfo {
        /// The data set directory.
        dir: PathBuf,
    },
    /// Fit every evaluation weight to `datagen` data (Texel method: Adam on the error between
    /// sigmoid(K * eval) and the results) and write a new weights file.
    Tune(tune::TuneArgs),
    /// Print the search's tuning parameters in OpenBench's SPSA input format, one per line
    /// (`name, int, value, min, max, step, learning rate`). A build with the `tune-search`
    /// feature declares each as a UCI spin option of the same name.
    Spsa,
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
    let Some(command) = Cli::parse().command else {
        Session::new(io::stdout()).run(io::stdin().lock());
        return ExitCode::SUCCESS;
    };
    let name = command.name();
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader left early (`| head`): not an error of ours, and nothing to say.
        Err(e) if is_broken_pipe(&e) => ExitCode::from(141),
        // The one place a failure is reported, so that every subcommand's reads the same:
        // `ferrum: <subcommand>: <what failed>: <why>` (the causes joined by anyhow's `{:#}`).
        Err(e) => {
            eprintln!("ferrum: {name}: {e:#}");
            ExitCode::FAILURE
        }
    }
}

impl Cmd {
    /// The subcommand's name on the command line, for its error messages.
    fn name(&self) -> &'static str {
        match self {
            Cmd::Perft { .. } => "perft",
            Cmd::Pgn { .. } => "pgn",
            Cmd::Book {
                command: BookCmd::Build { .. },
            } => "book build",
            Cmd::Book {
                command: BookCmd::Probe { .. },
            } => "book probe",
            Cmd::Tb { .. } => "tb probe",
            Cmd::Bench { .. } => "bench",
            Cmd::Datagen(_) => "datagen",
            Cmd::Train(_) => "train",
            Cmd::Wdl(_) => "wdl",
            Cmd::Datainfo { .. } => "datainfo",
            Cmd::Tune(_) => "tune",
            Cmd::Spsa => "spsa",
        }
    }
}

/// Runs one subcommand.
fn run(command: Cmd) -> Result<()> {
    match command {
        Cmd::Perft {
            depth,
            fen,
            chess960,
            divide,
            threads,
        } => perft(depth, fen.as_deref(), chess960, divide, threads),
        Cmd::Pgn { file, json } => pgn(&file, json),
        Cmd::Book {
            command:
                BookCmd::Build {
                    games,
                    output,
                    max_ply,
                    min_games,
                    only_wins_of,
                },
        } => {
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
        Cmd::Book {
            command: BookCmd::Probe { book, fen, moves },
        } => book_probe(book.as_deref(), fen.as_deref(), &moves),
        Cmd::Tb {
            command:
                TbCmd::Probe {
                    path,
                    fen,
                    batch,
                    moves,
                },
        } => match fen {
            Some(fen) if !batch => tb::probe_one(&path, &fen),
            _ => tb::probe_batch(&path, moves),
        },
        Cmd::Bench { depth, eval } => eval.load().and_then(|net| bench(depth, net)),
        Cmd::Datagen(args) => tune::datagen(args),
        Cmd::Datainfo { dir } => tune::datainfo(&dir),
        Cmd::Wdl(args) => tune::wdl(args),
        Cmd::Train(args) => train::train(args),
        Cmd::Tune(args) => tune::tune(args),
        Cmd::Spsa => {
            print!("{}", ferrum::search::params::spsa_input());
            Ok(())
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
    let mut out = io::stdout().lock();
    let chess960 = pos.is_chess960();
    // Each line is written and flushed as its move is counted: a deep divide runs for minutes,
    // and a reader sees where it is (as UCI `go perft` does). A write error ends the count's
    // output but not the count, which cannot be interrupted; it is reported at the end.
    let mut written = Ok(());
    let split = divide_each(&pos, depth, threads, |m, n| {
        if show_divide && written.is_ok() {
            written = writeln!(out, "{}: {n}", m.to_uci(chess960)).and_then(|()| out.flush());
        }
    });
    written?;
    let total: u64 = if depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
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

/// Referees every game of `file` (`-` for stdin), one line per game on stdout; fails when a
/// game had an error (after all the lines) or when the input is not PGN text at all.
fn pgn(file: &str, json: bool) -> Result<()> {
    // One game in memory at a time, whatever the file's size.
    let mut input: Box<dyn BufRead> = if file == "-" {
        Box::new(io::stdin().lock())
    } else {
        let f = File::open(file).with_context(|| format!("cannot open {file}"))?;
        Box::new(BufReader::new(f))
    };
    let peek = input
        .fill_buf()
        .with_context(|| format!("cannot read {file}"))?;
    if let Some(why) = not_text(peek) {
        bail!("{file}: not a PGN file: {why}");
    }
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
        // JSON escapes its strings itself; the text line is escaped here.
        let line = if json {
            report.to_json()
        } else {
            printable(&report.to_line()).into_owned()
        };
        writeln!(out, "{line}")?;
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
    out.flush()?;
    if failed > 0 {
        bail!("{file}: {failed} of {games} games have an illegal or unreadable move");
    }
    Ok(())
}

/// `line` with any control character escaped (`\u{1b}`): a report quotes its game's move and
/// result text, and bytes from the input must not reach a terminal as they are.
fn printable(line: &str) -> Cow<'_, str> {
    if !line.chars().any(char::is_control) {
        return Cow::Borrowed(line);
    }
    let escape = |c: char| match c.is_control() {
        true => c.escape_default().to_string(),
        false => c.to_string(),
    };
    Cow::Owned(line.chars().map(escape).collect())
}

/// Why `head`, the start of an input, is no PGN text: a NUL or another control byte that text
/// does not hold (a binary file, whose bytes must not reach the terminal), named by its value
/// and offset and never echoed. `None` for text, which may be UTF-8 or a code page such as
/// Latin-1 (the PGN reader reads those lossily).
fn not_text(head: &[u8]) -> Option<String> {
    // Tab, line feed, form feed, carriage return and DOS's end-of-file mark occur in text.
    let binary =
        |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | 0x1a)) || b == 0x7f;
    let at = head.iter().position(|&b| binary(b))?;
    Some(format!(
        "binary data, not text (byte 0x{:02x} at offset {at})",
        head[at]
    ))
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

/// Which evaluation a command plays with: the embedded network, a network file or the
/// hand-crafted evaluation (the options of `bench` and `datagen`).
#[derive(clap::Args)]
pub struct EvalChoice {
    /// Evaluate with this network file (`.nnue`) instead of the embedded network.
    #[arg(long, conflicts_with = "hand_crafted")]
    pub eval_file: Option<PathBuf>,
    /// Evaluate with the hand-crafted evaluation instead of a network (as gen0 was played).
    #[arg(long)]
    pub hand_crafted: bool,
}

impl EvalChoice {
    /// The network to play with: none with `--hand-crafted`, else the `--eval-file`, else the
    /// embedded one.
    pub fn load(&self) -> Result<Option<std::sync::Arc<ferrum::eval::nnue::Network>>> {
        if self.hand_crafted {
            return Ok(None);
        }
        let Some(path) = &self.eval_file else {
            return Ok(ferrum::eval::nnue::embedded());
        };
        // The load error names the file already: the context only says which option it was.
        let net = ferrum::eval::nnue::Network::load(path).context("--eval-file")?;
        Ok(Some(std::sync::Arc::new(net)))
    }

    /// What [`EvalChoice::load`] plays with, for a log line.
    pub fn name(&self) -> String {
        match (&self.eval_file, self.hand_crafted) {
            (_, true) => "the hand-crafted evaluation".to_string(),
            (Some(p), false) => format!("the network {}", p.display()),
            (None, false) => format!("the embedded network {}", ferrum::eval::nnue::EMBEDDED_NAME),
        }
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

/// `12 of 100 (12%), ETA 3m 05s`: how far a run with a known target is, and how long the rest
/// takes at the rate so far (`secs` of work for `done`). For the progress lines of `datagen
/// --games` and `train`.
pub fn eta(done: u64, target: u64, secs: f64) -> String {
    let percent = done as f64 * 100.0 / target.max(1) as f64;
    let left = if done == 0 {
        "unknown".to_string()
    } else {
        let rest = secs / done as f64 * target.saturating_sub(done) as f64;
        duration(rest)
    };
    format!("{done} of {target} ({percent:.0}%), ETA {left}")
}

/// `1h 02m`, `3m 05s` or `42s`: a duration for a person, to the precision that matters.
fn duration(secs: f64) -> String {
    // Saturating: a rate of almost nothing gives a huge but printable figure.
    let s = secs.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eta_is_the_rest_at_the_rate_so_far() {
        assert_eq!(eta(0, 100, 5.0), "0 of 100 (0%), ETA unknown");
        assert_eq!(eta(25, 100, 60.0), "25 of 100 (25%), ETA 3m 00s");
        assert_eq!(eta(1, 3, 1800.0), "1 of 3 (33%), ETA 1h 00m");
        assert_eq!(eta(9, 10, 9.0), "9 of 10 (90%), ETA 1s");
        // Past the target (a resumed run): nothing left.
        assert_eq!(eta(12, 10, 9.0), "12 of 10 (120%), ETA 0s");
    }

    #[test]
    fn binary_input_is_named_by_its_first_control_byte() {
        assert_eq!(not_text(b"[Event \"x\"]\r\n\t1. e4 *\x0c\x1a"), None);
        // Latin-1 is text the PGN reader reads lossily, not binary.
        assert_eq!(not_text(b"[White \"Jos\xe9\"]"), None);
        let why = not_text(b"PK\x03\x04rest").unwrap_or_default();
        assert_eq!(why, "binary data, not text (byte 0x03 at offset 2)");
        assert!(not_text(b"ab\x7f").is_some());
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert!(matches!(printable("game 1: 2 plies"), Cow::Borrowed(_)));
        assert_eq!(printable("(\u{1b}[2J\u{0}é)"), "(\\u{1b}[2J\\u{0}é)");
    }
}
