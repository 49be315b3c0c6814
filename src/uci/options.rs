//! The UCI options: how they are declared to the GUI and how a `setoption` is checked. Pure, so
//! the rules (names are case-insensitive, values must be in range) are tested on their own.

use crate::search::DEFAULT_MOVE_OVERHEAD;

use super::OptionError;

/// The option values the loop uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Hash table size in megabytes.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// The GUI may send `go ponder`.
    pub ponder: bool,
    /// Milliseconds kept back per move.
    pub move_overhead: u64,
    /// Castling written king-takes-rook, Chess960 FENs.
    pub chess960: bool,
    /// `UCI_AnalyseMode`: the GUI says it is analysing, not playing a game. Stored and nothing
    /// more: the search has nothing that differs between play and analysis (no contempt, no
    /// time-saving shortcuts; `go infinite` and `go ponder` already skip the book), so the
    /// same `go` gives the same search either way.
    pub analyse_mode: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: spin(SpinKind::Hash).default as usize,
            threads: spin(SpinKind::Threads).default as usize,
            multipv: spin(SpinKind::MultiPv).default as usize,
            ponder: false,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            chess960: false,
            analyse_mode: false,
        }
    }
}

/// One accepted `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// `Hash`, in MB.
    Hash(usize),
    /// `Threads`.
    Threads(usize),
    /// `MultiPV`.
    MultiPv(usize),
    /// `Ponder`.
    Ponder(bool),
    /// `Move Overhead`, in ms.
    MoveOverhead(u64),
    /// The `Clear Hash` button.
    ClearHash,
    /// `UCI_Chess960`.
    Chess960(bool),
    /// `UCI_AnalyseMode` (stored; see [`Options::analyse_mode`]).
    AnalyseMode(bool),
    /// One of the search's tuning parameters (`tune-search` builds; see
    /// [`crate::search::params`]), checked against its range.
    #[cfg(feature = "tune-search")]
    SearchParam {
        /// The parameter's name.
        name: &'static str,
        /// Its new value.
        value: i32,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SpinKind {
    Hash,
    Threads,
    MultiPv,
    MoveOverhead,
}

struct Spin {
    kind: SpinKind,
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
}

const SPINS: [Spin; 4] = [
    Spin {
        kind: SpinKind::Hash,
        name: "Hash",
        default: 16,
        min: 1,
        max: 65_536,
    },
    Spin {
        kind: SpinKind::Threads,
        name: "Threads",
        default: 1,
        min: 1,
        max: 256,
    },
    Spin {
        kind: SpinKind::MultiPv,
        name: "MultiPV",
        default: 1,
        min: 1,
        max: 256,
    },
    Spin {
        kind: SpinKind::MoveOverhead,
        name: "Move Overhead",
        default: DEFAULT_MOVE_OVERHEAD as i64,
        min: 0,
        max: 5_000,
    },
];

fn spin(kind: SpinKind) -> &'static Spin {
    let mut found = &SPINS[0];
    for s in &SPINS {
        if s.kind == kind {
            found = s;
        }
    }
    found
}

/// The `option …` lines sent in reply to `uci`.
pub fn declarations() -> Vec<String> {
    let mut lines: Vec<String> = SPINS
        .iter()
        .map(|s| {
            format!(
                "option name {} type spin default {} min {} max {}",
                s.name, s.default, s.min, s.max
            )
        })
        .collect();
    lines.push("option name Ponder type check default false".to_string());
    lines.push("option name Clear Hash type button".to_string());
    lines.push("option name UCI_Chess960 type check default false".to_string());
    lines.push("option name UCI_AnalyseMode type check default false".to_string());
    #[cfg(feature = "tune-search")]
    lines.extend(crate::search::params::PARAMS.iter().map(|p| {
        let value = crate::search::params::get(p.name).unwrap_or(p.default);
        format!(
            "option name {} type spin default {value} min {} max {}",
            p.name, p.min, p.max
        )
    }));
    lines
}

/// Reads a `check` option's value, `true` or `false` in any case. Every option module uses it,
/// so all refuse a bad value in the same words.
pub(crate) fn parse_check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(OptionError::NotBoolean {
            name: name.to_string(),
        }),
    }
}

/// Reads a `spin` option's value: a whole number in `min..=max`. A value out of range is
/// refused (the option keeps its value), not clamped.
pub(crate) fn parse_spin(
    name: &str,
    value: Option<&str>,
    min: i64,
    max: i64,
) -> Result<i64, OptionError> {
    let text = value.map(str::trim).unwrap_or("");
    let v: i64 = text.parse().map_err(|_| OptionError::NotANumber {
        name: name.to_string(),
        found: text.to_string(),
    })?;
    if v < min || v > max {
        return Err(OptionError::OutOfRange {
            name: name.to_string(),
            min,
            max,
            value: v,
        });
    }
    Ok(v)
}

/// Checks a `setoption`. Names are matched without regard to case; a spin value out of its
/// range is refused (the option keeps its value), not clamped.
///
/// ```
/// use ferrum::uci::{parse_setoption, Change};
/// assert_eq!(parse_setoption("move overhead", Some("50")), Ok(Change::MoveOverhead(50)));
/// assert!(parse_setoption("Hash", Some("0")).is_err());
/// assert_eq!(parse_setoption("Clear Hash", None), Ok(Change::ClearHash));
/// ```
pub fn parse_setoption(name: &str, value: Option<&str>) -> Result<Change, OptionError> {
    let lower = name.trim().to_ascii_lowercase();
    if let Some(s) = SPINS.iter().find(|s| s.name.to_ascii_lowercase() == lower) {
        let v = parse_spin(s.name, value, s.min, s.max)?;
        return Ok(match s.kind {
            SpinKind::Hash => Change::Hash(v as usize),
            SpinKind::Threads => Change::Threads(v as usize),
            SpinKind::MultiPv => Change::MultiPv(v as usize),
            SpinKind::MoveOverhead => Change::MoveOverhead(v as u64),
        });
    }
    #[cfg(feature = "tune-search")]
    if let Some(p) = crate::search::params::find(&lower) {
        let v = parse_spin(p.name, value, p.min.into(), p.max.into())?;
        return Ok(Change::SearchParam {
            name: p.name,
            value: v as i32,
        });
    }
    match lower.as_str() {
        "ponder" => parse_check("Ponder", value).map(Change::Ponder),
        "uci_chess960" => parse_check("UCI_Chess960", value).map(Change::Chess960),
        "uci_analysemode" => parse_check("UCI_AnalyseMode", value).map(Change::AnalyseMode),
        "clear hash" => Ok(Change::ClearHash),
        _ => Err(OptionError::Unknown {
            name: name.trim().to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_well_formed_and_unique() {
        let lines = declarations();
        let mut names: Vec<String> = lines
            .iter()
            .map(|l| {
                let rest = l.strip_prefix("option name ").expect("prefix");
                rest[..rest.find(" type ").expect("type")].to_string()
            })
            .collect();
        // With `tune-search`, one spin option per search parameter follows the eight.
        #[cfg(feature = "tune-search")]
        let eight = 8 + crate::search::params::PARAMS.len();
        #[cfg(not(feature = "tune-search"))]
        let eight = 8;
        assert_eq!(names.len(), eight);
        names.sort();
        names.dedup();
        assert_eq!(names.len(), eight);
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".into()));
    }

    #[test]
    fn values_are_checked() {
        assert_eq!(parse_setoption("HASH", Some("64")), Ok(Change::Hash(64)));
        assert_eq!(
            parse_setoption("Threads", Some(" 2 ")),
            Ok(Change::Threads(2))
        );
        assert_eq!(
            parse_setoption("multipv", Some("3")),
            Ok(Change::MultiPv(3))
        );
        assert!(parse_setoption("Threads", Some("0")).is_err());
        assert!(parse_setoption("Threads", Some("999")).is_err());
        assert!(parse_setoption("Hash", Some("lots")).is_err());
        assert!(parse_setoption("Hash", None).is_err());
        assert!(parse_setoption("Move Overhead", Some("-1")).is_err());
        assert_eq!(
            parse_setoption("Ponder", Some("TRUE")),
            Ok(Change::Ponder(true))
        );
        assert!(parse_setoption("Ponder", Some("yes")).is_err());
        assert_eq!(
            parse_setoption("uci_chess960", Some("false")),
            Ok(Change::Chess960(false))
        );
        assert_eq!(
            parse_setoption("UCI_AnalyseMode", Some("true")),
            Ok(Change::AnalyseMode(true))
        );
        assert!(parse_setoption("uci_analysemode", Some("on")).is_err());
        assert!(parse_setoption("Contempt", Some("10")).is_err());
    }

    #[cfg(feature = "tune-search")]
    #[test]
    fn search_parameters_are_options_with_their_ranges() {
        assert_eq!(
            parse_setoption("RFP_MARGIN", Some("96")),
            Ok(Change::SearchParam {
                name: "rfp_margin",
                value: 96
            })
        );
        assert!(parse_setoption("rfp_margin", Some("5000")).is_err());
        let lines = declarations();
        assert!(lines.contains(&"option name asp_delta type spin default 25 min 5 max 100".into()));
    }

    /// The UCI declarations and `ferrum spsa`'s lines name the same parameters with the same
    /// defaults and ranges as the table (run before any test sets one).
    #[cfg(feature = "tune-search")]
    #[test]
    fn uci_options_and_spsa_lines_agree_with_the_defaults() {
        use crate::search::params::{spsa_input, PARAMS, TEST_LOCK};
        let _quiet = TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let lines = declarations();
        let spsa = spsa_input();
        let spsa: Vec<&str> = spsa.lines().collect();
        assert_eq!(spsa.len(), PARAMS.len());
        for (p, line) in PARAMS.iter().zip(&spsa) {
            let uci = format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            );
            assert!(lines.contains(&uci), "{uci} not declared");
            let want = format!("{}, int, {}, {}, {}, ", p.name, p.default, p.min, p.max);
            assert!(line.starts_with(&want), "{line} is not {want}…");
        }
    }

    #[cfg(not(feature = "tune-search"))]
    #[test]
    fn without_tune_search_the_parameters_are_not_options() {
        assert!(parse_setoption("rfp_margin", Some("80")).is_err());
        assert!(!declarations().iter().any(|l| l.contains("rfp_margin")));
    }

    #[test]
    fn defaults_match_the_declarations() {
        let o = Options::default();
        assert_eq!((o.hash_mb, o.threads, o.multipv), (16, 1, 1));
        assert_eq!(o.move_overhead, DEFAULT_MOVE_OVERHEAD);
        assert!(!o.ponder && !o.chess960 && !o.analyse_mode);
    }
}
