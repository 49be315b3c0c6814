//! The `ferrum` subcommands as a user meets them: one error style (`ferrum: <subcommand>:
//! <what>: <why>` on stderr, status 1), nothing created on a failure, no input bytes echoed,
//! and `perft --divide` lines as they are counted.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `ferrum` with `args`.
fn ferrum(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ferrum")
}

/// A fresh path in the temporary directory (nothing there yet).
fn scratch(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("ferrum-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    let _ = std::fs::remove_file(&p);
    p
}

/// Checks that `out` failed with status 1 and exactly one stderr line in the house style for
/// `subcommand`; returns that line.
fn one_error_line(out: &Output, subcommand: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected: {err}");
    let prefix = format!("ferrum: {subcommand}: ");
    assert!(lines[0].starts_with(&prefix), "{err}");
    assert!(
        !lines[0][prefix.len()..].contains("ferrum:"),
        "doubled prefix: {err}"
    );
    lines[0].to_string()
}

#[test]
fn datainfo_on_a_missing_directory_names_the_os_error_once() {
    let dir = scratch("datainfo");
    let dir = dir.to_string_lossy();
    let line = one_error_line(&ferrum(&["datainfo", &dir]), "datainfo");
    assert!(line.contains(&*dir), "{line}");
    assert_eq!(line.matches("os error").count(), 1, "{line}");
}

#[test]
fn train_on_missing_data_fails_and_creates_no_out_directory() {
    let (data, out) = (scratch("train-data"), scratch("train-out"));
    let run = ferrum(&[
        "train",
        "--data",
        &data.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
    ]);
    let line = one_error_line(&run, "train");
    assert_eq!(line.matches("os error").count(), 1, "{line}");
    assert!(!out.exists(), "--out was created: {}", out.display());
}

#[test]
fn pgn_on_a_binary_file_says_so_and_echoes_none_of_it() {
    let file = scratch("binary.pgn");
    // An escape sequence that would clear a terminal, a NUL, and bytes that are not UTF-8.
    let bytes = b"\x1b[2J\x1b[31m\x00\x00\xff\xfe1. e4 *\n";
    std::fs::write(&file, bytes).expect("write the binary file");
    let run = ferrum(&["pgn", &file.to_string_lossy()]);
    let _ = std::fs::remove_file(&file);
    let line = one_error_line(&run, "pgn");
    assert!(line.contains("not a PGN file: binary data"), "{line}");
    assert!(run.stdout.is_empty(), "{:?}", run.stdout);
    assert!(!run.stderr.iter().any(|&b| b == 0x1b || b == 0), "{line:?}");
}

#[test]
fn pgn_with_an_illegal_game_prints_every_line_then_one_error() {
    let file = scratch("illegal.pgn");
    std::fs::write(&file, "1. e4 e5 *\n\n1. e4 e5 2. Ke3 *\n").expect("write the PGN");
    let run = ferrum(&["pgn", &file.to_string_lossy()]);
    let _ = std::fs::remove_file(&file);
    let line = one_error_line(&run, "pgn");
    assert!(
        line.ends_with("1 of 2 games have an illegal or unreadable move"),
        "{line}"
    );
    assert_eq!(String::from_utf8_lossy(&run.stdout).lines().count(), 2);
}

#[test]
fn every_subcommand_fails_in_the_one_style() {
    let missing = scratch("missing");
    let missing = missing.to_string_lossy();
    one_error_line(&ferrum(&["perft", "2", "--threads", "0"]), "perft");
    one_error_line(&ferrum(&["perft", "2", "--fen", "not a fen"]), "perft");
    one_error_line(&ferrum(&["pgn", &missing]), "pgn");
    one_error_line(
        &ferrum(&["book", "probe", "--book", &missing]),
        "book probe",
    );
    let line = one_error_line(&ferrum(&["bench", "--eval-file", &missing]), "bench");
    // The path and the OS error once each, though two layers know them.
    assert_eq!(line.matches(&*missing).count(), 1, "{line}");
    assert_eq!(line.matches("os error").count(), 1, "{line}");
    let out = scratch("book-out");
    let build = ["book", "build", &missing, "-o", &out.to_string_lossy()];
    one_error_line(&ferrum(&build), "book build");
    assert!(!out.exists());
}

#[test]
fn perft_divide_prints_each_root_move_in_order_then_the_total() {
    let run = ferrum(&["perft", "3", "--divide"]);
    assert!(run.status.success());
    let text = String::from_utf8_lossy(&run.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 22, "{text}");
    // Generation order (pawn moves come after the knights'), with Stockfish's counts.
    assert_eq!(&lines[..3], ["b1a3: 400", "b1c3: 440", "g1f3: 440"]);
    assert!(lines.contains(&"e2e4: 600"), "{text}");
    let sum: u64 = lines[..20]
        .iter()
        .map(|l| {
            l.split_once(": ")
                .and_then(|(_, n)| n.parse::<u64>().ok())
                .unwrap_or(0)
        })
        .sum();
    assert_eq!(sum, 8902);
    assert_eq!(&lines[20..], ["", "Nodes searched: 8902"]);
    // With threads the lines come as the counts finish: the same lines, in some order.
    let threaded = ferrum(&["perft", "3", "--divide", "--threads", "2"]);
    let mut a: Vec<&str> = lines[..20].to_vec();
    let t = String::from_utf8_lossy(&threaded.stdout).into_owned();
    let mut b: Vec<&str> = t.lines().take(20).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
    assert!(t.ends_with("\nNodes searched: 8902\n"), "{t}");
}

#[test]
fn perft_divide_streams_its_first_line_before_the_count_ends() {
    // Depth 6 is 119 million leaves; the first root move holds a small part of them. Its line
    // must arrive while the rest is still being counted (it used to come with the total).
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(["perft", "6", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run ferrum");
    let mut first = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("read the first line");
    let still_running = child.try_wait().expect("poll").is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(first, "b1a3: 4856835\n");
    assert!(still_running, "the first line came only at the end");
}

#[test]
fn train_prints_each_epoch_with_an_eta_for_the_run() {
    let (data, out) = (scratch("eta-data"), scratch("eta-out"));
    let (data_s, out_s) = (data.to_string_lossy(), out.to_string_lossy());
    let made = ferrum(&[
        "datagen", "--out", &data_s, "--games", "4", "--nodes", "200", "--seed", "1",
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let run = ferrum(&["train", "--data", &data_s, "--out", &out_s, "--epochs", "2"]);
    let _ = std::fs::remove_dir_all(&data);
    let _ = std::fs::remove_dir_all(&out);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    let progress: Vec<&str> = err.lines().filter(|l| l.starts_with("epochs: ")).collect();
    assert_eq!(progress.len(), 2, "{err}");
    assert!(
        progress[0].starts_with("epochs: 1 of 2 (50%), ETA "),
        "{err}"
    );
    assert_eq!(progress[1], "epochs: 2 of 2 (100%), ETA 0s");
    // Progress is for a person: stdout stays clean.
    assert!(run.stdout.is_empty());
}
