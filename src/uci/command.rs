//! The UCI command parser: one input line in, one [`Command`] out. Pure, so it is tested on its
//! own; the loop in [`super::session`] acts on the result.

use std::borrow::Cow;
use std::ffi::OsString;
use std::fmt;

use crate::rules::PipeCommand;
use crate::search::Limits;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `position startpos`
    StartPos,
    /// `position fen <fen>`: the FEN fields joined by single spaces.
    Fen(String),
}

/// The limits and modes of a `go` command. Times are in milliseconds.
///
/// The search's limits are read straight into a [`Limits`], so a new limit is added there and
/// in the parser alone. Only the root moves wait: they are read against the position, which
/// the parser does not know.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// The clocks, depth, nodes, mate, movetime, infinite and ponder of the line
    /// ([`Limits::searchmoves`] stays empty: see [`GoParams::searchmoves`]).
    pub limits: Limits,
    /// Restrict the root to these moves (UCI text, checked against the position later).
    pub searchmoves: Vec<String>,
    /// `go perft N`: count the move tree instead of searching.
    pub perft: Option<u32>,
    /// What the line held that could not be used as written: unknown tokens and bad or
    /// out-of-range numbers, one message each. They were skipped or clamped; the loop sends
    /// each as an `info string` and still searches with the rest (a `go` always gets its
    /// `bestmove`, or a GUI waiting for one hangs).
    pub notes: Vec<String>,
}

/// One UCI input line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line: nothing to do.
    Empty,
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    UciNewGame,
    /// `setoption name <name> [value <value>]`; both may contain spaces.
    SetOption {
        /// The option's name, its words joined by single spaces.
        name: String,
        /// The value, if any (buttons have none): everything after ` value ` as sent, inner
        /// spaces kept.
        value: Option<OptionValue>,
    },
    /// `position startpos|fen <fen> [moves <m1> <m2> …]`
    Position {
        /// The starting position.
        start: StartPosition,
        /// The moves played from it, as text.
        moves: Vec<String>,
    },
    /// `go …`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `quit`
    Quit,
    /// `d`: show the board, FEN and key.
    Display,
    /// `eval`: show the static evaluation.
    Eval,
    /// `bench [depth]`: the fixed benchmark.
    Bench {
        /// Override of the benchmark depth.
        depth: Option<u32>,
    },
    /// `debug on|off` (accepted, no effect).
    Debug(bool),
    /// `register …` (accepted, no effect).
    Register,
    /// The rules API on the pipe: `legalmoves`, `play <move>`, `undo`, `outcome`, applied to
    /// the game that `position` set up (see [`PipeCommand`]).
    Rules(PipeCommand),
}

/// A `setoption` value as the GUI sent it: the bytes after ` value `, trimmed of ASCII
/// whitespace at both ends, inner spaces kept. A file option builds its path from the bytes,
/// which need not be UTF-8 (a Windows GUI sends paths in its code page); every other option
/// reads [`OptionValue::text`].
///
/// ```
/// use ferrum::uci::{parse_bytes, Command, OptionValue};
/// let cmd = parse_bytes(b"setoption name BookFile value /tmp/Jos\xe9/my  book.bin").unwrap();
/// let Command::SetOption { value: Some(value), .. } = cmd else { panic!("{cmd:?}") };
/// assert_eq!(value.as_bytes(), b"/tmp/Jos\xe9/my  book.bin");
/// assert_eq!(value.text(), "/tmp/Jos\u{fffd}/my  book.bin");
/// assert_eq!(OptionValue::from("50").text(), "50");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionValue {
    bytes: Vec<u8>,
}

impl OptionValue {
    /// A value of these bytes (kept as they are).
    pub fn from_bytes(bytes: Vec<u8>) -> OptionValue {
        OptionValue { bytes }
    }

    /// The bytes as sent.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The value as text; bytes that are not UTF-8 read as U+FFFD.
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }

    /// True when the bytes are UTF-8 (the text is exactly what was sent).
    pub fn is_utf8(&self) -> bool {
        std::str::from_utf8(&self.bytes).is_ok()
    }

    /// The value as a path, with its bytes exactly as sent on Unix, where a path is any bytes;
    /// elsewhere (Windows paths are UTF-16) from [`OptionValue::text`].
    pub fn to_os_string(&self) -> OsString {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            OsString::from_vec(self.bytes.clone())
        }
        #[cfg(not(unix))]
        {
            OsString::from(self.text().into_owned())
        }
    }
}

impl From<&str> for OptionValue {
    fn from(text: &str) -> OptionValue {
        OptionValue::from_bytes(text.as_bytes().to_vec())
    }
}

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is not a command we know.
    Unknown(String),
    /// A known command with arguments that make no sense.
    Invalid {
        /// The command.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(word) => write!(f, "unknown command '{word}'"),
            ParseError::Invalid { command, reason } => write!(f, "{command}: {reason}"),
        }
    }
}

impl std::error::Error for ParseError {}

fn invalid(command: &'static str, reason: impl Into<String>) -> ParseError {
    ParseError::Invalid {
        command,
        reason: reason.into(),
    }
}

/// Parses one line of UCI input. Whitespace of any kind and amount separates tokens.
///
/// ```
/// use ferrum::uci::{parse, Command, GoParams};
/// assert_eq!(parse("isready"), Ok(Command::IsReady));
/// let go = parse("go wtime 1000 btime 900 movestogo 2").unwrap();
/// let Command::Go(GoParams { limits, .. }) = go else { panic!("{go:?}") };
/// assert_eq!((limits.wtime, limits.movestogo), (Some(1000), Some(2)));
/// assert!(parse("fly away").is_err());
/// ```
pub fn parse(line: &str) -> Result<Command, ParseError> {
    parse_bytes(line.as_bytes())
}

/// Parses one line of UCI input given as bytes, without its line ending. Bytes that are not
/// UTF-8 read as U+FFFD, except in a `setoption` value, which keeps them (see
/// [`OptionValue`]).
///
/// ```
/// use ferrum::uci::{parse_bytes, Command};
/// assert_eq!(parse_bytes(b"isready"), Ok(Command::IsReady));
/// assert!(parse_bytes(b"\xe9isready").is_err());
/// ```
pub fn parse_bytes(raw: &[u8]) -> Result<Command, ParseError> {
    let text = String::from_utf8_lossy(raw);
    let line: &str = &text;
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(Command::Empty);
    };
    match head {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        // From the bytes: the value keeps them, and its inner spaces.
        "setoption" => split_setoption(raw),
        "position" => parse_position(rest),
        "go" => Ok(Command::Go(parse_go(rest))),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "bench" => match rest.first() {
            None => Ok(Command::Bench { depth: None }),
            Some(d) => {
                number(d, "bench", "depth").map(|depth| Command::Bench { depth: Some(depth) })
            }
        },
        "debug" => match rest.first().copied() {
            Some("on") => Ok(Command::Debug(true)),
            Some("off") | None => Ok(Command::Debug(false)),
            Some(other) => Err(invalid(
                "debug",
                format!("expected on or off, found '{other}'"),
            )),
        },
        "register" => Ok(Command::Register),
        "legalmoves" | "play" | "undo" | "outcome" => PipeCommand::parse(line)
            .map(Command::Rules)
            .ok_or_else(|| ParseError::Unknown(head.to_string())),
        other => Err(ParseError::Unknown(shortened(other))),
    }
}

/// An unknown word as the error names it: its first 40 characters, so a line of megabytes is
/// not sent back whole.
fn shortened(word: &str) -> String {
    const KEEP: usize = 40;
    match word.char_indices().nth(KEEP) {
        Some((end, _)) => format!("{}...", &word[..end]),
        None => word.to_string(),
    }
}

fn number<T: std::str::FromStr>(
    text: &str,
    command: &'static str,
    what: &str,
) -> Result<T, ParseError> {
    text.parse()
        .map_err(|_| invalid(command, format!("{what} needs a number, found '{text}'")))
}

/// Where the words of `raw` start and end, split at whitespace as [`str::split_whitespace`]
/// splits the line's text (bytes that are not UTF-8 are never whitespace), so the offsets
/// point into the bytes as sent.
fn words(raw: &[u8]) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut start = None;
    let mut at = 0;
    for chunk in raw.utf8_chunks() {
        for (i, c) in chunk.valid().char_indices() {
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    words.push((s, at + i));
                    start = None;
                }
                (false, None) => start = Some(at + i),
                _ => {}
            }
        }
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() && start.is_none() {
            start = Some(at);
        }
        at += chunk.invalid().len();
    }
    words.extend(start.map(|s| (s, raw.len())));
    words
}

/// `setoption name <name> [value <value>]` from the line's bytes: the name is the words between
/// `name` and the first `value`, the value the bytes from the word after that `value` to the
/// end of the last word, so a path keeps its inner spaces and its bytes as sent. Only the
/// syntax: whether the option exists and takes the value is [`super::parse_setoption`]'s
/// (and the option groups') to say, at the one place the session sets options.
fn split_setoption(raw: &[u8]) -> Result<Command, ParseError> {
    let words = words(raw);
    let word = |&(start, end): &(usize, usize)| &raw[start..end];
    if words.get(1).map(word) != Some(b"name") {
        return Err(invalid(
            "setoption",
            "expected 'setoption name <name> [value <value>]'",
        ));
    }
    let body = words.get(2..).unwrap_or_default();
    let value_at = body.iter().position(|w| word(w) == b"value");
    let name_words = &body[..value_at.unwrap_or(body.len())];
    let name: Vec<Cow<str>> = name_words
        .iter()
        .map(|w| String::from_utf8_lossy(word(w)))
        .collect();
    if name.is_empty() {
        return Err(invalid("setoption", "the option name is missing"));
    }
    let value = value_at.map(|i| match (body.get(i + 1), body.last()) {
        (Some(&(start, _)), Some(&(_, end))) => OptionValue::from_bytes(raw[start..end].to_vec()),
        _ => OptionValue::default(),
    });
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (
            &rest[..i],
            rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        ),
        None => (rest, Vec::new()),
    };
    let start = match setup.split_first() {
        Some((&"startpos", [])) => StartPosition::StartPos,
        Some((&"startpos", extra)) => {
            return Err(invalid(
                "position",
                format!("unexpected '{}' after startpos", extra.join(" ")),
            ))
        }
        Some((&"fen", [])) => return Err(invalid("position", "fen needs a FEN")),
        Some((&"fen", fen)) => StartPosition::Fen(fen.join(" ")),
        _ => return Err(invalid("position", "expected 'startpos' or 'fen <fen>'")),
    };
    Ok(Command::Position { start, moves })
}

/// Reads a `go` line leniently, as Stockfish does: whatever cannot be used is noted in
/// [`GoParams::notes`] and skipped, never a reason to refuse the whole line.
fn parse_go(rest: &[&str]) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 0;
    while let Some(&key) = rest.get(i) {
        i += 1;
        match key {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "searchmoves" => {
                // Every following token that is not another keyword is a move.
                let moves: Vec<String> = rest[i..]
                    .iter()
                    .take_while(|t| !GO_KEYWORDS.contains(t))
                    .map(|s| s.to_string())
                    .collect();
                i += moves.len();
                go.searchmoves = moves;
            }
            _ if GO_KEYWORDS.contains(&key) => {
                // A keyword never serves as another keyword's value: `go depth infinite` is an
                // infinite search with a missing depth, not a depth of "infinite".
                match rest.get(i).filter(|t| !GO_KEYWORDS.contains(t)) {
                    Some(text) => {
                        i += 1;
                        go.set_number(key, text);
                    }
                    None => go.notes.push(format!("go: {key} needs a value; ignored")),
                }
            }
            other => go
                .notes
                .push(format!("go: unknown parameter '{other}' ignored")),
        }
    }
    go
}

impl GoParams {
    /// Stores the numeric parameter `key`, read from `text` and clamped to what it can hold.
    fn set_number(&mut self, key: &str, text: &str) {
        let clock = (i64::MIN as i128, i64::MAX as i128);
        let count32 = (0, u32::MAX as i128);
        let (lo, hi) = match key {
            "wtime" | "btime" | "winc" | "binc" | "movetime" => clock,
            "nodes" => (0, u64::MAX as i128),
            _ => count32,
        };
        let Some(v) = self.read_number(key, text, lo, hi) else {
            return;
        };
        // In range by the clamp above, so none of these conversions can fail.
        let as_i64 = || i64::try_from(v).unwrap_or_default();
        let as_u32 = || u32::try_from(v).unwrap_or_default();
        let limits = &mut self.limits;
        match key {
            "wtime" => limits.wtime = Some(as_i64()),
            "btime" => limits.btime = Some(as_i64()),
            "winc" => limits.winc = Some(as_i64()),
            "binc" => limits.binc = Some(as_i64()),
            "movetime" => limits.movetime = Some(as_i64()),
            "nodes" => limits.nodes = Some(u64::try_from(v).unwrap_or_default()),
            "movestogo" => limits.movestogo = Some(as_u32()),
            "depth" => limits.depth = Some(as_u32()),
            "mate" => limits.mate = Some(as_u32()),
            _ => self.perft = Some(as_u32()),
        }
    }

    /// `text` as a whole number within `lo..=hi`. A decimal or exponent form (`1e6`, `2.5`) is
    /// rounded and a number out of range is clamped, each with a note; text that is no number
    /// at all is noted and gives `None`.
    fn read_number(&mut self, key: &str, text: &str, lo: i128, hi: i128) -> Option<i128> {
        let exact = text.parse::<i128>().ok();
        let value = match exact {
            Some(v) => v,
            None => match text.parse::<f64>() {
                // Saturating: a huge float becomes i128's bound, clamped below.
                Ok(f) if f.is_finite() => f.round() as i128,
                _ => {
                    self.notes
                        .push(format!("go: {key} needs a number, found '{text}'; ignored"));
                    return None;
                }
            },
        };
        let clamped = value.clamp(lo, hi);
        if exact != Some(clamped) {
            self.notes
                .push(format!("go: {key} '{text}' read as {clamped}"));
        }
        Some(clamped)
    }
}

const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "perft",
    "infinite",
    "ponder",
    "searchmoves",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_and_padded_lines() {
        assert_eq!(parse(""), Ok(Command::Empty));
        assert_eq!(parse(" \t "), Ok(Command::Empty));
        assert_eq!(parse("  isready\t "), Ok(Command::IsReady));
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 50"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("50".into())
            })
        );
        assert_eq!(
            parse("setoption name BookFile value /tmp/my books/a.bin"),
            Ok(Command::SetOption {
                name: "BookFile".into(),
                value: Some("/tmp/my books/a.bin".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        // The value as sent, not its words joined again: a path with two spaces keeps them.
        assert_eq!(
            parse("setoption  name  BookFile value   /tmp/my  books/a.bin \t"),
            Ok(Command::SetOption {
                name: "BookFile".into(),
                value: Some("/tmp/my  books/a.bin".into())
            })
        );
        let latin1 = parse_bytes(b"setoption name SyzygyPath value C:\\tb\xe9 x");
        assert_eq!(
            latin1,
            Ok(Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some(OptionValue::from_bytes(b"C:\\tb\xe9 x".to_vec()))
            })
        );
        // Whitespace is what splits the other commands, Unicode's included.
        assert_eq!(
            parse("setoption\u{2000}name Hash\u{3000}value\u{a0}64\u{2000}"),
            Ok(Command::SetOption {
                name: "Hash".into(),
                value: Some("64".into())
            })
        );
        assert!(parse("setoption Hash 3").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                start: StartPosition::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position   fen 8/8/8/8/8/8/8/K6k   w - - 0 1"),
            Ok(Command::Position {
                start: StartPosition::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos e2e4").is_err());
    }

    #[test]
    fn go_parameters() {
        let go = match parse("go wtime -20 btime 0 winc 100 binc 100 searchmoves e2e4 d2d4 depth 7")
        {
            Ok(Command::Go(go)) => go,
            other => panic!("{other:?}"),
        };
        assert_eq!(go.limits.wtime, Some(-20));
        assert_eq!(go.limits.btime, Some(0));
        assert_eq!(go.limits.depth, Some(7));
        assert_eq!(go.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert_eq!(
            parse("go perft 5"),
            Ok(Command::Go(GoParams {
                perft: Some(5),
                ..GoParams::default()
            }))
        );
        assert!(self::go("go infinite").limits.infinite);
    }

    /// Parses a `go` line, which never fails.
    fn go(line: &str) -> GoParams {
        match parse(line) {
            Ok(Command::Go(go)) => go,
            other => panic!("{line}: {other:?}"),
        }
    }

    /// A `go` table row: the line, then depth, nodes, wtime and infinite as read, then the
    /// notes it must give.
    type GoRow = (
        &'static str,
        Option<u32>,
        Option<u64>,
        Option<i64>,
        bool,
        &'static [&'static str],
    );

    #[test]
    fn go_skips_what_it_cannot_use_and_says_so() {
        let table: [GoRow; 9] = [
            (
                "go depth x",
                None,
                None,
                None,
                false,
                &["depth needs a number, found 'x'"],
            ),
            (
                "go nodes 1e6",
                None,
                Some(1_000_000),
                None,
                false,
                &["nodes '1e6' read as 1000000"],
            ),
            (
                "go wtime 10000 foo 3",
                None,
                None,
                Some(10_000),
                false,
                &["unknown parameter 'foo'", "unknown parameter '3'"],
            ),
            (
                "go depth",
                None,
                None,
                None,
                false,
                &["depth needs a value"],
            ),
            (
                "go depth infinite",
                None,
                None,
                None,
                true,
                &["depth needs a value"],
            ),
            (
                "go depth -4 nodes -1",
                Some(0),
                Some(0),
                None,
                false,
                &["depth '-4' read as 0", "nodes '-1' read as 0"],
            ),
            (
                "go depth 99999999999",
                Some(u32::MAX),
                None,
                None,
                false,
                &["depth '99999999999' read as 4294967295"],
            ),
            (
                "go wtime 9e99 depth 2.4",
                Some(2),
                None,
                Some(i64::MAX),
                false,
                &["wtime '9e99' read as", "depth '2.4' read as 2"],
            ),
            (
                "go depth 3 depth nan",
                Some(3),
                None,
                None,
                false,
                &["depth needs a number"],
            ),
        ];
        for (line, depth, nodes, wtime, infinite, notes) in table {
            let g = go(line);
            assert_eq!(
                (
                    g.limits.depth,
                    g.limits.nodes,
                    g.limits.wtime,
                    g.limits.infinite
                ),
                (depth, nodes, wtime, infinite),
                "{line}"
            );
            assert_eq!(g.notes.len(), notes.len(), "{line}: {:?}", g.notes);
            for (note, want) in g.notes.iter().zip(notes) {
                assert!(
                    note.starts_with("go: ") && note.contains(want),
                    "{line}: {note}"
                );
            }
        }
        assert!(go("go wtime 100 btime 100 winc 1 binc 1 movestogo 3")
            .notes
            .is_empty());
    }

    #[test]
    fn rules_commands() {
        assert_eq!(
            parse("legalmoves"),
            Ok(Command::Rules(PipeCommand::LegalMoves))
        );
        assert_eq!(
            parse("play  Nf3 "),
            Ok(Command::Rules(PipeCommand::Play("Nf3".into())))
        );
        assert_eq!(
            parse("play"),
            Ok(Command::Rules(PipeCommand::Play("".into())))
        );
        assert_eq!(parse("undo"), Ok(Command::Rules(PipeCommand::Undo)));
        assert_eq!(parse("\toutcome"), Ok(Command::Rules(PipeCommand::Outcome)));
        assert!(parse("played e2e4").is_err());
    }

    #[test]
    fn unknown_commands_are_named() {
        assert_eq!(parse("xyzzy 1 2"), Err(ParseError::Unknown("xyzzy".into())));
        // A huge word is named by its start, not sent back whole.
        let long = "é".repeat(100_000);
        assert_eq!(
            parse(&long),
            Err(ParseError::Unknown(format!("{}...", "é".repeat(40))))
        );
        assert_eq!(
            parse("xyzzy").unwrap_err().to_string(),
            "unknown command 'xyzzy'"
        );
    }
}
