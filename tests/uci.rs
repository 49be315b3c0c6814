//! The UCI engine end to end, through the built binary and its pipes: what a GUI sees.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
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
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Sends `line` and returns when it was sent.
    fn send_timed(&mut self, line: &str) -> Instant {
        self.send(line);
        Instant::now()
    }

    /// Lines until one starts with `prefix` (returned last), or `None` after `timeout`.
    fn until(&self, prefix: &str, timeout: Duration) -> Option<Vec<String>> {
        let end = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = end.checked_duration_since(Instant::now())?;
            let line = self.lines.recv_timeout(left).ok()?;
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return Some(seen);
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn silent_until_uci_then_handshake() {
    let mut e = Engine::start();
    assert!(
        e.lines.recv_timeout(Duration::from_millis(200)).is_err(),
        "printed before uci"
    );
    e.send("uci");
    let lines = e.until("uciok", Duration::from_secs(5)).expect("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name Ferrum")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
}

#[test]
fn responsive_during_infinite_search_and_quick_to_stop() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", Duration::from_secs(5)).expect("uciok");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(2)).expect("readyok");
    assert!(asked.elapsed() < Duration::from_secs(1));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    let asked = Instant::now();
    e.send("stop");
    let lines = e
        .until("bestmove", Duration::from_secs(2))
        .expect("bestmove");
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "{:?}",
        asked.elapsed()
    );
    let best = lines.last().cloned().unwrap_or_default();
    assert!(
        best.split_whitespace().nth(1).is_some_and(|m| m.len() >= 4),
        "{best}"
    );
    e.send("quit");
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) {
        if let Ok(Some(status)) = e.child.try_wait() {
            assert!(status.success());
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("did not exit after quit");
}

#[test]
fn ponder_waits_for_ponderhit_then_plays_on_the_clock() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 2000 btime 2000");
    let early = e.until("bestmove", Duration::from_millis(700));
    assert!(early.is_none(), "bestmove while pondering: {early:?}");
    e.send("ponderhit");
    let lines = e
        .until("bestmove", Duration::from_secs(3))
        .expect("bestmove after ponderhit");
    assert!(lines.last().is_some_and(|l| l.len() > "bestmove ".len()));
}

#[test]
fn bench_command_line_ends_with_nodes_and_nps() {
    let out = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(["bench", "4"])
        .output()
        .expect("run bench");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default().to_string();
    let w: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(w.len(), 4, "{last}");
    assert!(
        w[0].parse::<u64>().is_ok() && w[1] == "nodes" && w[3] == "nps",
        "{last}"
    );
    // Deterministic: the same count twice.
    let again = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(["bench", "4"])
        .output()
        .expect("run bench");
    let again = String::from_utf8_lossy(&again.stdout);
    assert_eq!(
        again
            .lines()
            .last()
            .and_then(|l| l.split_whitespace().next()),
        Some(w[0])
    );
}

/// The position a table row starts from, as a `position` command and as a position.
fn setup(fen: Option<&str>) -> (String, ferrum::core::Position) {
    match fen {
        None => (
            "position startpos".into(),
            ferrum::core::Position::startpos(),
        ),
        Some(f) => (
            format!("position fen {f}"),
            ferrum::core::Position::from_fen(f).expect("test FEN"),
        ),
    }
}

/// Sends `go` (and `stop` after 150 ms unless `ends_by_itself`), then `isready`; returns every
/// line up to `readyok`, which comes after the search's `bestmove` (a second `bestmove` would
/// be among them).
fn go_and_settle(e: &mut Engine, go: &str, ends_by_itself: bool) -> Vec<String> {
    e.send(go);
    if !ends_by_itself {
        std::thread::sleep(Duration::from_millis(150));
        e.send("stop");
    }
    let mut lines = e
        .until("bestmove", Duration::from_secs(10))
        .unwrap_or_else(|| panic!("{go}: no bestmove"));
    std::thread::sleep(Duration::from_millis(50));
    e.send("isready");
    lines.extend(e.until("readyok", Duration::from_secs(5)).expect("readyok"));
    lines
}

#[test]
fn every_go_gets_one_legal_bestmove_whatever_else_is_on_the_line() {
    const BLACK: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2";
    // (FEN or start position, go line, ends without stop, a note it must send)
    let table: [(Option<&str>, &str, bool, &str); 17] = [
        (None, "go depth x", false, "depth needs a number, found 'x'"),
        (None, "go nodes 1e6", true, "nodes '1e6' read as 1000000"),
        (
            None,
            "go wtime 10000 foo 3",
            true,
            "unknown parameter 'foo'",
        ),
        (None, "go depth", false, "depth needs a value"),
        (
            None,
            "go movetime 100 sideways",
            true,
            "unknown parameter 'sideways'",
        ),
        (None, "go depth -3", true, "depth '-3' read as 0"),
        (None, "go perft", false, "perft needs a value"),
        (None, "go perft x depth 2", true, "perft needs a number"),
        (None, "go searchmoves e2e4 zz9 depth 3", true, "zz9"),
        (None, "go wtime -5 btime abc", true, "btime needs a number"),
        (
            None,
            "go infinite depth 2 x",
            false,
            "unknown parameter 'x'",
        ),
        (None, "go depth 99999999999", false, "read as 4294967295"),
        (
            None,
            "go movestogo 0 wtime 500 btime 500 bogus",
            true,
            "'bogus'",
        ),
        (
            Some(BLACK),
            "go btime 300 wtime x",
            true,
            "wtime needs a number",
        ),
        (
            Some(BLACK),
            "go mate x nodes 5000",
            true,
            "mate needs a number",
        ),
        (
            Some(BLACK),
            "go ponder depth two",
            false,
            "depth needs a number",
        ),
        (
            Some(BLACK),
            "go 5 movetime 50",
            true,
            "unknown parameter '5'",
        ),
    ];
    let mut e = Engine::start();
    for (fen, go, ends, note) in table {
        let (command, pos) = setup(fen);
        e.send(&command);
        let lines = go_and_settle(&mut e, go, ends);
        let best: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .collect();
        assert_eq!(best.len(), 1, "{go}: {lines:?}");
        let mv = best[0].split_whitespace().next().unwrap_or("");
        assert!(pos.parse_uci(mv).is_ok(), "{go}: illegal bestmove {mv}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string ") && l.contains(note)),
            "{go}: no note '{note}': {lines:?}"
        );
        if go.contains("searchmoves e2e4") {
            assert_eq!(mv, "e2e4");
        }
    }
}

/// How long `isready`, `stop` and `quit` may take during `go perft` and `bench` (they are
/// answered within a few milliseconds on an idle machine; the bound leaves room for a busy one).
const TASK_BOUND: Duration = Duration::from_millis(500);

/// Starts `command` (a long `go perft` or `bench`) and checks that `isready` and `stop` are
/// answered within [`TASK_BOUND`] while it runs, `stop` with `stopped_line`; returns the
/// latencies for the record.
fn stop_during(command: &str, stopped_line: &str) -> (Duration, Duration) {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send(command);
    std::thread::sleep(Duration::from_millis(300));
    let asked = e.send_timed("isready");
    let lines = e.until("readyok", Duration::from_secs(5)).expect("readyok");
    let ready = asked.elapsed();
    assert!(ready < TASK_BOUND, "{command}: readyok after {ready:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with(stopped_line)),
        "{lines:?}"
    );
    let asked = e.send_timed("stop");
    let lines = e
        .until(stopped_line, Duration::from_secs(5))
        .expect(stopped_line);
    let stopped = asked.elapsed();
    assert!(stopped < TASK_BOUND, "{command}: stopped after {stopped:?}");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("Nodes searched") || l.ends_with(" nps")),
        "a stopped task gives no total: {lines:?}"
    );
    // Still answering, and back to normal: a search after it.
    e.send("go depth 2");
    e.until("bestmove", Duration::from_secs(5))
        .expect("bestmove");
    (ready, stopped)
}

/// Starts `command`, sends `quit` while it runs, and checks the process exits within
/// [`TASK_BOUND`].
fn quit_during(command: &str) -> Duration {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send(command);
    std::thread::sleep(Duration::from_millis(300));
    let asked = e.send_timed("quit");
    while asked.elapsed() < Duration::from_secs(5) {
        if let Ok(Some(status)) = e.child.try_wait() {
            assert!(status.success());
            let took = asked.elapsed();
            assert!(took < TASK_BOUND, "{command}: exit after {took:?}");
            return took;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("{command}: no exit after quit");
}

#[test]
fn stop_isready_and_quit_reach_go_perft_and_bench() {
    let perft = stop_during("go perft 7", "info string perft stopped");
    let bench = stop_during("bench 20", "info string bench stopped");
    let quit = (quit_during("go perft 7"), quit_during("bench 20"));
    eprintln!("perft (isready, stop) {perft:?}, bench {bench:?}, quit (perft, bench) {quit:?}");
}

/// Found by `perft_check.py`: a `go perft` sent as soon as the previous total was read was
/// refused ("a search is running") when it arrived before the engine had marked itself idle.
#[test]
fn perft_and_bench_answered_then_asked_again_at_once() {
    let mut e = Engine::start();
    for i in 0..300 {
        e.send("position startpos");
        e.send("go perft 2");
        let lines = e
            .until("Nodes searched", Duration::from_secs(5))
            .unwrap_or_else(|| panic!("perft {i}: no total"));
        assert!(!lines.iter().any(|l| l.contains("ignored")), "{lines:?}");
        if i % 60 == 0 {
            e.send("bench 1");
            let end = Instant::now() + Duration::from_secs(30);
            loop {
                let left = end
                    .checked_duration_since(Instant::now())
                    .expect("bench result");
                let line = e.lines.recv_timeout(left).expect("bench result");
                assert!(!line.contains("ignored"), "{line}");
                if line.ends_with(" nps") {
                    break;
                }
            }
        }
    }
}
