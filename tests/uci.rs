//! The UCI engine end to end, through the built binary and its pipes: what a GUI sees.

mod common;

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

/// Runs the engine on `input` (then end of input) and returns its output and whether it exited
/// with status 0, or panics after 60 s: an engine that hangs fails the test.
fn run_on_bytes(input: &[u8]) -> (Vec<String>, bool) {
    let mut child = common::spawn_uci();
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Written from a thread: an engine that stopped reading must not block the test.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut bytes);
        let _ = tx.send(bytes);
    });
    let Ok(bytes) = rx.recv_timeout(Duration::from_secs(60)) else {
        let _ = child.kill();
        panic!("no end of output within 60 s");
    };
    let _ = writer.join();
    let ok = child.wait().is_ok_and(|s| s.success());
    let text = String::from_utf8_lossy(&bytes);
    (text.lines().map(str::to_string).collect(), ok)
}

fn count(out: &[String], prefix: &str) -> usize {
    out.iter().filter(|l| l.starts_with(prefix)).count()
}

/// A Windows GUI sends a path in its code page (Latin-1 é, one byte 0xE9): the engine reads
/// the line lossily, says so, and answers everything after it.
#[test]
fn a_line_that_is_not_utf8_does_not_end_the_session() {
    let (out, ok) = run_on_bytes(
        b"isready\nsetoption name SyzygyPath value C:\\Users\\Jos\xe9\\tb\nisready\ngo depth 2\n",
    );
    assert!(ok, "{out:?}");
    assert_eq!(count(&out, "readyok"), 2, "{out:?}");
    assert_eq!(count(&out, "bestmove "), 1, "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string input is not UTF-8 from byte 44")),
        "{out:?}"
    );
}

/// A NUL byte (a GUI writing C strings) reads as a space: the command before it still works.
#[test]
fn nul_bytes_in_a_line_read_as_spaces() {
    let (out, ok) = run_on_bytes(b"isready\0\n\0\ngo depth 1\0\0\n\0isready\n");
    assert!(ok, "{out:?}");
    assert_eq!(count(&out, "readyok"), 2, "{out:?}");
    assert_eq!(count(&out, "bestmove "), 1, "{out:?}");
    assert_eq!(count(&out, "info string"), 0, "{out:?}");
}

/// A 10 MB line is skipped in bounded time and memory with one short `info string`, not sent
/// back whole; the next line is answered.
#[test]
fn a_ten_megabyte_line_is_skipped_and_the_next_answered() {
    let mut input = b"isready\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', 10_000_000));
    input.extend(b"\nisready\nposition startpos moves ");
    input.extend(b"e2e4 ".repeat(2_000_000));
    input.extend(b"\nisready\n");
    let started = Instant::now();
    let (out, ok) = run_on_bytes(&input);
    let took = started.elapsed();
    assert!(ok);
    assert_eq!(count(&out, "readyok"), 3, "{out:?}");
    let size: usize = out.iter().map(|l| l.len() + 1).sum();
    assert!(size < 1_000, "{size} bytes of output");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// A `go` line of 10 MB still gets its `bestmove` (the GUI waits for it): it is read up to
/// `MAX_LINE`, with a few notes on its unknown words, not one per word.
#[test]
fn a_ten_megabyte_go_line_gets_a_bestmove() {
    let mut input = b"go depth 2 ".to_vec();
    input.extend(b"x ".repeat(5_000_000));
    input.extend(b"\nisready\n");
    let (out, ok) = run_on_bytes(&input);
    assert!(ok);
    assert_eq!(
        count(&out, "bestmove "),
        1,
        "{:?}",
        &out[..out.len().min(20)]
    );
    assert_eq!(count(&out, "readyok"), 1);
    assert!(
        count(&out, "info string") <= 12,
        "{} info strings",
        count(&out, "info string")
    );
}

/// A line of only `\r` (a CRLF blank line) is a blank line.
#[test]
fn a_line_of_only_cr_is_blank() {
    let (out, ok) = run_on_bytes(b"\r\nisready\r\n\r\n\r\nisready\n\r");
    assert!(ok);
    assert_eq!(out, ["readyok", "readyok"]);
}

/// A whole session with CRLF line endings, as a Windows GUI sends it.
#[test]
fn crlf_line_endings_work_for_a_whole_session() {
    let (out, ok) = run_on_bytes(
        b"uci\r\nisready\r\nposition startpos moves e2e4\r\ngo depth 3\r\nisready\r\nquit\r\n",
    );
    assert!(ok, "{out:?}");
    assert!(out[0].starts_with("id name Ferrum"), "{out:?}");
    assert_eq!(count(&out, "uciok"), 1, "{out:?}");
    assert_eq!(count(&out, "readyok"), 2, "{out:?}");
    assert_eq!(count(&out, "info string"), 0, "{out:?}");
    assert!(count(&out, "info depth 3 ") > 0, "{out:?}");
    let best = out.iter().find_map(|l| l.strip_prefix("bestmove "));
    let mv = best.and_then(|b| b.split_whitespace().next()).unwrap_or("");
    let mut pos = ferrum::core::Position::startpos();
    let e4 = pos.parse_uci("e2e4").expect("e2e4");
    pos.make(e4);
    assert!(pos.parse_uci(mv).is_ok(), "a move for Black: {out:?}");
}

/// Input closed while the engine ponders or analyses without limit: the search stops, still
/// answers with its `bestmove`, and the engine exits with status 0.
#[test]
fn end_of_input_during_go_ponder_or_infinite_still_answers() {
    for go in ["go ponder wtime 10000 btime 10000", "go infinite"] {
        let input = format!("position startpos moves e2e4\n{go}\n");
        let (out, ok) = run_on_bytes(input.as_bytes());
        assert!(ok, "{go}: {out:?}");
        assert_eq!(count(&out, "bestmove "), 1, "{go}: {out:?}");
        assert!(out.last().is_some_and(|l| l.starts_with("bestmove ")));
    }
}

/// A new directory under the system's temporary one whose name holds the byte 0xE9 (Latin-1
/// é, not UTF-8): `ferrum-<what>-\xe9-<pid>`.
#[cfg(unix)]
fn non_utf8_temp_dir(what: &str) -> std::path::PathBuf {
    use std::os::unix::ffi::OsStrExt;
    let mut name = format!("ferrum-{what}-").into_bytes();
    name.push(0xe9);
    name.extend(format!("-{}", std::process::id()).bytes());
    let dir = std::env::temp_dir().join(std::ffi::OsStr::from_bytes(&name));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// On Unix a path is bytes: a `BookFile` in a directory whose name holds the byte 0xE9 (not
/// UTF-8) is opened as sent, not through a lossy text.
#[cfg(unix)]
#[test]
fn a_book_file_path_that_is_not_utf8_is_opened() {
    use std::os::unix::ffi::OsStrExt;
    let dir = non_utf8_temp_dir("book");
    let book = dir.join("ferrum.bin");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/book/ferrum.bin"),
        &book,
    )
    .expect("copy");
    let line = |path: &std::path::Path| {
        let mut l = b"setoption name BookFile value ".to_vec();
        l.extend(path.as_os_str().as_bytes());
        l.push(b'\n');
        l
    };
    let mut input = b"setoption name OwnBook value true\n".to_vec();
    input.extend(line(&book));
    input.extend(b"go depth 1\n");
    // The same directory, a file that is not there: the path really is read.
    input.extend(line(&dir.join("missing.bin")));
    let (out, ok) = run_on_bytes(&input);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "{out:?}");
    let said: Vec<&String> = out.iter().filter(|l| l.contains("BookFile")).collect();
    assert_eq!(said.len(), 1, "{out:?}");
    assert!(
        said[0].contains("cannot read book file") && said[0].contains("missing.bin"),
        "{out:?}"
    );
    assert_eq!(count(&out, "info string book move "), 1, "{out:?}");
    assert_eq!(count(&out, "bestmove "), 1, "{out:?}");
}

/// On Unix a `SyzygyPath` is bytes too: tables in a directory whose name holds the byte 0xE9
/// are found (the shipped 3-piece tables, copied there).
#[cfg(unix)]
#[test]
fn a_syzygy_path_that_is_not_utf8_is_opened() {
    use std::os::unix::ffi::OsStrExt;
    let dir = non_utf8_temp_dir("tb");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    for entry in std::fs::read_dir(&shipped)
        .expect("tests/data/syzygy")
        .flatten()
    {
        let _ = std::fs::copy(entry.path(), dir.join(entry.file_name()));
    }
    let mut input = b"setoption name SyzygyPath value ".to_vec();
    input.extend(dir.as_os_str().as_bytes());
    input.extend(b"\nposition fen 8/8/8/8/8/2k5/8/KQ6 w - - 0 1\ngo depth 3\n");
    let (out, ok) = run_on_bytes(&input);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.contains("Syzygy: found 5 WDL and 5 DTZ tables")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.contains(" tbhits ")), "{out:?}");
    assert_eq!(count(&out, "bestmove "), 1, "{out:?}");
}

/// `ferrum --version` and the UCI `id name` name the same build: `Ferrum`, the package version
/// and, from a git checkout, the commit (`Ferrum 0.3.0 (abc1234)`).
#[test]
fn version_and_id_name_agree_and_name_the_build() {
    let out = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .arg("--version")
        .output()
        .expect("run ferrum --version");
    assert!(out.status.success());
    let version = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
    assert_eq!(version, format!("Ferrum {}", ferrum::VERSION));
    assert_eq!(ferrum::uci::ENGINE_NAME, version);
    let (lines, ok) = run_on_bytes(b"uci\n");
    assert!(ok);
    assert_eq!(lines[0], format!("id name {version}"));
    // The version, then either nothing (no git) or ` (` seven hex digits [`-dirty`] `)`.
    let rest = ferrum::VERSION
        .strip_prefix(env!("CARGO_PKG_VERSION"))
        .expect("package version first");
    if let Some(commit) = rest.strip_prefix(" (").and_then(|r| r.strip_suffix(')')) {
        let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
        assert!(
            hash.len() == 7 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
            "{version}"
        );
    } else {
        assert_eq!(rest, "", "{version}");
    }
}
