//! Helpers shared by the integration tests that run the `ferrum` binary. Each test file uses
//! some of them, so the others are dead code there.
#![allow(dead_code)]

use std::process::{Child, Command, Stdio};

/// Runs `ferrum` with `args`: whether it succeeded, its standard output and its standard error.
pub fn ferrum(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(args)
        .output()
        .expect("run ferrum");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Starts `ferrum` with no arguments (the UCI loop), its standard input and output piped.
pub fn spawn_uci() -> Child {
    Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start ferrum")
}
