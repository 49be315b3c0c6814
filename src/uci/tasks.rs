//! The long commands that are not searches, `go perft N` and `bench [depth]`, as tasks for the
//! engine's lead thread: there the input thread stays free to answer `isready`, and `stop` or
//! `quit` end them within milliseconds.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::core::{perft_until, Position};
use crate::eval::nnue::Network;
use crate::search::{bench_with_net, Signals, BENCH_FENS, MAX_PLY};

use super::report::write_lines;

/// The deepest `go perft`: the count recurses once per ply on the search thread's stack, and
/// a depth this large would not end in any case (only `stop` ends it).
const MAX_PERFT_DEPTH: u32 = MAX_PLY as u32;

/// `go perft depth`: one `move: count` line per root move as each is counted, then a blank line
/// and `Nodes searched: N`. Once cancelled it stops within a few milliseconds and, instead of a
/// total it does not have, writes `info string perft stopped: …`.
pub(crate) fn perft<W: Write>(pos: &Position, depth: u32, signals: &Signals, out: &Mutex<W>) {
    if depth > MAX_PERFT_DEPTH {
        let note = format!("info string perft depth {depth} capped at {MAX_PERFT_DEPTH}");
        write_lines(out, &[note]);
    }
    let depth = depth.min(MAX_PERFT_DEPTH);
    if depth == 0 {
        return finish(
            signals,
            out,
            &[String::new(), "Nodes searched: 1".to_string()],
        );
    }
    let chess960 = pos.is_chess960();
    let moves = pos.legal_moves();
    let mut total = 0;
    for (done, &m) in moves.iter().enumerate() {
        let mut child = pos.clone();
        child.make(m);
        let Some(n) = perft_until(&mut child, depth - 1, &|| signals.cancelled()) else {
            let line = format!(
                "info string perft stopped: {done} of {} root moves counted, {total} nodes",
                moves.len()
            );
            return finish(signals, out, &[line]);
        };
        total += n;
        write_lines(out, &[format!("{}: {n}", m.to_uci(chess960))]);
    }
    finish(
        signals,
        out,
        &[String::new(), format!("Nodes searched: {total}")],
    );
}

/// Writes a task's last lines, marking it as ending first: a GUI may send its next command
/// the moment it reads them, before the engine is idle, and that command must then wait the
/// instant it takes rather than be refused as arriving during a running task.
fn finish<W: Write>(signals: &Signals, out: &Mutex<W>, lines: &[String]) {
    signals.cancel();
    write_lines(out, lines);
}

/// `bench [depth]`: `N nodes M nps`, or once cancelled (within milliseconds)
/// `info string bench stopped: …` and no count, which would not be the bench's.
/// It evaluates with `net` when one is loaded (`EvalFile`).
pub(crate) fn bench<W: Write>(
    depth: u32,
    net: Option<Arc<Network>>,
    signals: &Signals,
    out: &Mutex<W>,
) {
    let r = bench_with_net(depth, signals, net);
    let line = if r.positions == BENCH_FENS.len() {
        format!("{} nodes {} nps", r.nodes, r.nps())
    } else {
        format!(
            "info string bench stopped: {} of {} positions searched",
            r.positions,
            BENCH_FENS.len()
        )
    };
    finish(signals, out, &[line]);
}
