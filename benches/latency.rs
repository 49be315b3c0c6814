//! Latency of the UCI loop during searches, measured through the binary's pipes, as a GUI sees
//! it: the time from `isready` to `readyok` and from `stop` to `bestmove` while a search runs.
//!
//! `cargo bench --bench latency [-- --trials N]` prints median, 99th percentile and worst per
//! thread count. The searches run for a random 5–400 ms before each probe, from varied positions,
//! so the probes land at every depth the search reaches.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const POSITIONS: [&str; 6] = [
    "position startpos",
    "position startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn start(threads: u32) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferrum"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start ferrum");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            child,
            stdin,
            lines,
        };
        e.send("uci");
        e.wait_for("uciok");
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("setoption name Hash value 64");
        e.send("isready");
        e.wait_for("readyok");
        e
    }

    fn send(&mut self, line: &str) -> Instant {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
        Instant::now()
    }

    /// The arrival time of the first line starting with `prefix`.
    fn wait_for(&self, prefix: &str) -> Instant {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(10)) {
                Ok((t, line)) if line.starts_with(prefix) => return t,
                Ok(_) => {}
                Err(_) => panic!("no '{prefix}' within 10 s"),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn summary(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<34} n={:<5} median {:>7.3} ms   p99 {:>7.3} ms   worst {:>7.3} ms",
        ms.len(),
        at(0.5),
        at(0.99),
        ms[ms.len() - 1]
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let trials = args
        .iter()
        .position(|a| a == "--trials")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(150usize);
    let mut seed = 0x1a7e_9c11u64;
    let mut random_ms = |lo: u64, hi: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        lo + seed % (hi - lo)
    };
    for threads in [1, 2] {
        let mut engine = Engine::start(threads);
        let (mut ready, mut stop) = (Vec::new(), Vec::new());
        for i in 0..trials {
            engine.send(POSITIONS[i % POSITIONS.len()]);
            engine.send("go infinite");
            std::thread::sleep(Duration::from_millis(random_ms(5, 400)));
            let sent = engine.send("isready");
            ready.push(
                engine
                    .wait_for("readyok")
                    .duration_since(sent)
                    .as_secs_f64()
                    * 1e3,
            );
            std::thread::sleep(Duration::from_millis(random_ms(1, 50)));
            let sent = engine.send("stop");
            stop.push(
                engine
                    .wait_for("bestmove")
                    .duration_since(sent)
                    .as_secs_f64()
                    * 1e3,
            );
        }
        summary(&format!("isready -> readyok, Threads={threads}"), ready);
        summary(&format!("stop -> bestmove, Threads={threads}"), stop);
    }
}
