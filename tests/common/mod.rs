//! Helpers shared by the integration tests that run the `ferrum` binary.

/// Runs `ferrum` with `args`: whether it succeeded, its standard output and its standard error.
pub fn ferrum(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(args)
        .output()
        .expect("run ferrum");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
