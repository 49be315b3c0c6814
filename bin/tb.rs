//! `ferrum tb probe`: a position's WDL, DTZ and best moves from the Syzygy tables, or many
//! positions' WDL and DTZ in a batch (for comparing with other probers).

use std::io::{self, BufRead, Write};

use anyhow::{bail, Context, Result};
use ferrum::core::Position;
use ferrum::tb::{RootProbe, Tablebases, Wdl};

/// Opens `path` and reports what it found (and what was wrong) on standard error.
fn open(path: &str) -> Result<Tablebases> {
    let tb = Tablebases::open(path).with_context(|| format!("tablebases at {path}"))?;
    for p in &tb.report().problems {
        eprintln!("warning: {p}");
    }
    eprintln!("{}", tb.report().summary());
    Ok(tb)
}

fn wdl_word(w: Wdl) -> &'static str {
    match w {
        Wdl::Loss => "loss",
        Wdl::BlessedLoss => "blessed loss",
        Wdl::Draw => "draw",
        Wdl::CursedWin => "cursed win",
        Wdl::Win => "win",
    }
}

/// `tb probe --fen F`: the verdict and every move's DTZ, best moves first.
pub fn probe_one(path: &str, fen: &str) -> Result<()> {
    let tb = open(path)?;
    let pos = Position::from_fen(fen).context("bad --fen")?;
    let Some(root) = tb.probe_root(&pos) else {
        bail!("the position is not in the tables (castling rights, too many pieces or a missing table)");
    };
    print_root(&root);
    Ok(())
}

fn print_root(root: &RootProbe) {
    println!("wdl {} ({})", root.wdl.signed(), wdl_word(root.wdl));
    println!("dtz {}", root.dtz);
    let best: Vec<String> = root.best_moves().iter().map(|m| m.to_uci(false)).collect();
    println!("best {}", best.join(" "));
    let mut moves = root.moves.clone();
    // Wins first (fastest first), then draws, then losses (slowest first).
    moves.sort_by_key(|m| (-m.dtz.signum(), m.dtz.abs() * m.dtz.signum()));
    for m in moves {
        println!("move {} dtz {}", m.mv.to_uci(false), m.dtz);
    }
}

/// `tb probe --batch`: one FEN per input line, one `WDL DTZ` line out (or `none` when the
/// tables do not cover it, `error <why>` for a bad FEN), followed by ` move:dtz` for every
/// legal move (sorted by move) when `moves` is set.
pub fn probe_batch(path: &str, moves: bool) -> Result<()> {
    let tb = open(path)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in io::stdin().lock().lines() {
        let line = line.context("reading standard input")?;
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        let answer = match Position::from_fen(fen) {
            Err(e) => format!("error {e}"),
            Ok(pos) => match (tb.probe_wdl(&pos), tb.probe_root(&pos)) {
                (Some(w), Some(root)) if moves => {
                    format!("{} {}{}", w.signed(), root.dtz, move_list(&root))
                }
                (Some(w), Some(root)) => format!("{} {}", w.signed(), root.dtz),
                (Some(w), None) => format!("{} none", w.signed()),
                _ => "none".to_string(),
            },
        };
        writeln!(out, "{answer}")?;
    }
    out.flush()?;
    Ok(())
}

/// ` e1e2:-5 e1f1:3 …`, sorted by move text.
fn move_list(root: &RootProbe) -> String {
    let mut items: Vec<String> = root
        .moves
        .iter()
        .map(|m| format!(" {}:{}", m.mv.to_uci(false), m.dtz))
        .collect();
    items.sort();
    items.concat()
}
