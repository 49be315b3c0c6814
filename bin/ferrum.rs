//! The `ferrum` binary: with no subcommand it speaks UCI on stdin/stdout; subcommands run
//! perft and the other tools from the command line.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use ferrum::core::{divide, Position};
use ferrum::uci::Session;

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
    /// Search the fixed bench positions to a fixed depth on one thread; the last line is
    /// `N nodes M nps` (the node count is the search's signature).
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = ferrum::search::BENCH_DEPTH)]
        depth: u32,
    },
}

fn main() -> ExitCode {
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
        Some(Cmd::Bench { depth }) => {
            let r = ferrum::search::bench(depth);
            println!("{} nodes {} nps", r.nodes, r.nps());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ferrum: {e:#}");
            ExitCode::FAILURE
        }
    }
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
