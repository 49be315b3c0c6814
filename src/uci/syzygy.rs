//! The Syzygy options of the UCI loop, with Stockfish's names and meanings: `SyzygyPath`,
//! `SyzygyProbeDepth`, `Syzygy50MoveRule` and `SyzygyProbeLimit`.

use std::ffi::OsStr;
use std::sync::Arc;

use crate::search::TbConfig;
use crate::tb::{Tablebases, TbError, MAX_PIECES};

use super::options::{parse_check, parse_spin};
use super::OptionError;

/// The options' values and the open tables.
#[derive(Debug, Default)]
pub struct SyzygyOptions {
    config: TbConfig,
}

impl SyzygyOptions {
    /// The option lines sent in reply to `uci`.
    pub const UCI_OPTIONS: [&'static str; 4] = [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ];

    /// True when `name` is one of these options (names are case-insensitive).
    pub fn handles(name: &str) -> bool {
        [
            "SyzygyPath",
            "SyzygyProbeDepth",
            "Syzygy50MoveRule",
            "SyzygyProbeLimit",
        ]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name.trim()))
    }

    /// True when `name` is `SyzygyPath` (the loop must be idle to change it: a running search
    /// holds the tables).
    pub fn is_path(name: &str) -> bool {
        name.trim().eq_ignore_ascii_case("SyzygyPath")
    }

    /// Applies one option. `Ok` carries lines for the GUI (`info string` text: what a path held
    /// and what was wrong with it); `Err` a refusal (the option keeps its value). A path without
    /// usable tables is not an error: the engine plays on without them and says so.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Vec<String>, OptionError> {
        let name = name.trim();
        let text = value.map(str::trim).unwrap_or_default();
        if Self::is_path(name) {
            return Ok(self.set_path(OsStr::new(text)));
        }
        if name.eq_ignore_ascii_case("Syzygy50MoveRule") {
            self.config.rule50 = parse_check("Syzygy50MoveRule", Some(text))?;
        } else if name.eq_ignore_ascii_case("SyzygyProbeDepth") {
            self.config.probe_depth = parse_spin(name, Some(text), 1, 100)? as i32;
        } else {
            self.config.probe_limit = parse_spin(name, Some(text), 0, MAX_PIECES as i64)? as u32;
        }
        Ok(Vec::new())
    }

    /// Sets `SyzygyPath` (empty or `<empty>`: no tables) and returns the lines for the GUI, as
    /// [`SyzygyOptions::set`] does. The loop passes the value's bytes as sent.
    pub fn set_path(&mut self, path: &OsStr) -> Vec<String> {
        // A new path replaces the old tables, whether or not it opens: a GUI that names no
        // usable directory means to play without them.
        self.config.tables = None;
        if path.is_empty() || path == "<empty>" {
            return Vec::new();
        }
        // The tables open from the bytes as sent (a Windows code page, a non-UTF-8 Unix name);
        // the GUI is told the path as text.
        let opened = Tablebases::open(path);
        let path = path.to_string_lossy();
        match opened {
            Ok(tb) => {
                let mut lines = vec![format!("Syzygy: {} in {path}", tb.report().summary())];
                lines.extend(tb.report().problems.iter().map(|p| format!("Syzygy: {p}")));
                self.config.tables = Some(Arc::new(tb));
                lines
            }
            Err(TbError::NoTables(report)) => {
                let mut lines = vec![format!(
                    "Syzygy: no usable tables in {path}; playing without tablebases"
                )];
                lines.extend(report.problems.iter().map(|p| format!("Syzygy: {p}")));
                lines
            }
        }
    }

    /// The settings for the next search.
    pub fn config(&self) -> TbConfig {
        self.config.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_and_bad_paths_only_inform() {
        let mut s = SyzygyOptions::default();
        assert!(SyzygyOptions::handles("syzygypath"));
        assert!(!SyzygyOptions::handles("Hash"));
        assert_eq!(s.set("SyzygyProbeDepth", Some("5")), Ok(vec![]));
        assert_eq!(s.config().probe_depth, 5);
        assert!(s.set("SyzygyProbeDepth", Some("0")).is_err());
        assert!(s.set("SyzygyProbeLimit", Some("8")).is_err());
        assert!(s.set("Syzygy50MoveRule", Some("maybe")).is_err());
        assert_eq!(s.set("Syzygy50MoveRule", Some("false")), Ok(vec![]));
        assert!(!s.config().rule50);
        let lines = s.set("SyzygyPath", Some("/no/such/dir")).expect("informs");
        assert!(lines[0].contains("playing without tablebases"), "{lines:?}");
        assert!(s.config().tables.is_none());
        assert_eq!(s.set("SyzygyPath", Some("<empty>")), Ok(vec![]));
    }

    #[test]
    fn declarations_match_the_defaults() {
        let c = SyzygyOptions::default().config();
        assert!(c.tables.is_none() && c.rule50);
        assert_eq!((c.probe_depth, c.probe_limit), (1, 7));
        assert!(SyzygyOptions::UCI_OPTIONS[1].contains("default 1 "));
        assert!(SyzygyOptions::UCI_OPTIONS[3].contains("default 7 "));
    }
}
