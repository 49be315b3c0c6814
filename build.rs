//! Build script: names the commit the build comes from, so `ferrum --version` and the UCI
//! `id name` tell one build from another (`Ferrum 0.3.0 (abc1234)`; `-dirty` after the hash
//! when the files that go into the build differ from that commit). Outside a git checkout of
//! this package (a crates.io download, or no `git` installed) the suffix is empty and the
//! version is the package's alone.
//!
//! It sets `FERRUM_COMMIT_SUFFIX` for `ferrum::VERSION`, and asks cargo to run it again only
//! when the commit or those files change: a rebuild with nothing changed recompiles nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The files whose changes make a build differ from its commit (and so `-dirty`).
const BUILD_INPUTS: [&str; 6] = [
    "src",
    "bin",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "book/ferrum.bin",
];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    let suffix = match commit(&root) {
        Some(commit) => {
            watch_git(&root);
            // build.rs is watched above, git or not.
            let sources = BUILD_INPUTS.iter().filter(|p| **p != "build.rs");
            sources.for_each(|p| println!("cargo:rerun-if-changed={p}"));
            format!(" ({commit})")
        }
        None => String::new(),
    };
    println!("cargo:rustc-env=FERRUM_COMMIT_SUFFIX={suffix}");
}

/// `git` run in `root`: its output, trimmed, if it ran and succeeded.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    out.status.success().then(|| text.trim().to_string())
}

/// The short hash of HEAD, with `-dirty` if a build input differs from it; `None` unless
/// `root` is the top of a git work tree (a package unpacked inside some other repository,
/// as `cargo package` does under `target/`, must not take that repository's commit).
fn commit(root: &Path) -> Option<String> {
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    let same = |a: &Path, b: &Path| a.canonicalize().ok() == b.canonicalize().ok();
    if !same(Path::new(&top), root) {
        return None;
    }
    let hash = git(root, &["rev-parse", "--short=7", "HEAD"])?;
    let mut diff = vec!["diff", "--quiet", "HEAD", "--"];
    diff.extend(BUILD_INPUTS);
    // `git diff --quiet` exits 1 when there are differences; run only for its status.
    let clean = Command::new("git")
        .args(&diff)
        .current_dir(root)
        .status()
        .map_or(true, |s| s.success());
    Some(if clean { hash } else { format!("{hash}-dirty") })
}

/// Asks cargo to run the script again when HEAD moves: HEAD itself (in a worktree it lives
/// under the worktree's own git directory, and `.git` is a file), the branch it points to and
/// the packed refs (both in the common git directory). `--git-path` finds each; only files
/// that exist are named, since cargo reruns every time for a missing one.
fn watch_git(root: &Path) {
    let mut paths = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        paths.push(branch);
    }
    for name in paths {
        let Some(path) = git(root, &["rev-parse", "--git-path", &name]) else {
            continue;
        };
        let path = root.join(path);
        let watched = if path.exists() {
            Some(path.as_path())
        } else if name.starts_with("refs/") {
            // A packed branch appears as a file in its directory when it moves.
            path.parent().filter(|dir| dir.exists())
        } else {
            None
        };
        if let Some(p) = watched {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
}
