//! The referee's verdict on each game of a PGN file ([`referee`], [`GameReport`]): what
//! `ferrum pgn` prints, as a line for people or a JSON object for programs.

use std::fmt;
use std::fmt::Write as _;

use crate::core::Color;

use super::outcome::{DrawClaim, Outcome};
use super::pgn::{PgnError, PgnGame};

/// What the rules say about one game of a PGN file.
///
/// ```
/// use ferrum::rules::referee;
/// let text = "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
/// let report = referee(text).next().unwrap();
/// assert_eq!(report.plies, 4);
/// assert_eq!(report.outcome.name(), "checkmate");
/// assert_eq!(
///     report.to_json(),
///     "{\"game\":1,\"plies\":4,\"result\":\"0-1\",\"outcome\":\"checkmate\",\"winner\":\"black\",\
///      \"claimable\":[],\"fen\":\"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\",\
///      \"error\":null}"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// Plies played (up to the refused move, when there is one).
    pub plies: usize,
    /// The `Result` tag, if the game has one.
    pub result: Option<String>,
    /// The outcome the rules reach at the end of the movetext (or before the refused move):
    /// `ongoing` or one of the automatic endings.
    pub outcome: Outcome,
    /// The draws that could be claimed in the final position (empty when the game is over).
    pub claimable: Vec<DrawClaim>,
    /// The FEN of the final position (the position before the refused move), or `None` when
    /// the starting position could not be set up.
    pub fen: Option<String>,
    /// The first illegal or unreadable move, or the problem with the tags.
    pub error: Option<ReportError>,
}

/// The refused move (or tag problem) of a [`GameReport`].
///
/// ```
/// use ferrum::rules::referee;
/// let report = referee("1. e4 e5 2. Ke3 *\n").next().unwrap();
/// let e = report.error.unwrap();
/// assert_eq!(e.to_string(), "ply 3 (Ke3): the white king on e1 cannot move to e3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportError {
    /// The 1-based ply of the refused move; `None` for a problem with the tags.
    pub ply: Option<usize>,
    /// The move as written in the file.
    pub move_text: Option<String>,
    /// Why it was refused, in words.
    pub reason: String,
}

impl fmt::Display for ReportError {
    /// `ply 3 (Ke3): the white king on e1 cannot move to e3`, or the reason alone for a problem
    /// with the tags.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(ply) = self.ply {
            write!(f, "ply {ply}")?;
            if self.move_text.is_none() {
                f.write_str(": ")?;
            }
        }
        if let Some(m) = &self.move_text {
            if self.ply.is_some() {
                f.write_str(" ")?;
            }
            write!(f, "({m}): ")?;
        }
        f.write_str(&self.reason)
    }
}

impl std::error::Error for ReportError {}

impl GameReport {
    fn from_read(read: Result<PgnGame, PgnError>, number: usize) -> GameReport {
        let (game, error) = match read {
            Ok(g) => (Some(g), None),
            Err(e) => {
                let report_error = ReportError {
                    ply: e.ply,
                    move_text: e.move_text.clone(),
                    reason: e.reason(),
                };
                (e.partial.map(|b| *b), Some(report_error))
            }
        };
        let (plies, result, outcome, claimable, fen) = match &game {
            Some(g) => (
                g.game.ply(),
                g.tag("Result").map(str::to_string),
                g.game.outcome(),
                g.game.claimable_draws(),
                Some(g.game.fen()),
            ),
            None => (0, None, Outcome::Ongoing, Vec::new(), None),
        };
        GameReport {
            game: number,
            plies,
            result,
            outcome,
            claimable,
            fen,
            error,
        }
    }

    /// The winner the rules give (checkmate), if any.
    pub fn winner(&self) -> Option<Color> {
        self.outcome.winner()
    }

    /// One JSON object on one line, with the keys `game`, `plies`, `result`, `outcome`,
    /// `winner`, `claimable`, `fen` and `error` (`null`, or an object with `ply`, `move` and
    /// `reason`).
    pub fn to_json(&self) -> String {
        let mut s = String::with_capacity(160);
        let _ = write!(s, "{{\"game\":{},\"plies\":{}", self.game, self.plies);
        s.push_str(",\"result\":");
        json_opt_str(&mut s, self.result.as_deref());
        s.push_str(",\"outcome\":");
        json_str(&mut s, self.outcome.name());
        s.push_str(",\"winner\":");
        json_opt_str(&mut s, self.winner().map(Color::name));
        s.push_str(",\"claimable\":[");
        for (i, c) in self.claimable.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            json_str(&mut s, c.name());
        }
        s.push_str("],\"fen\":");
        json_opt_str(&mut s, self.fen.as_deref());
        s.push_str(",\"error\":");
        match &self.error {
            None => s.push_str("null"),
            Some(e) => {
                s.push_str("{\"ply\":");
                match e.ply {
                    Some(p) => {
                        let _ = write!(s, "{p}");
                    }
                    None => s.push_str("null"),
                }
                s.push_str(",\"move\":");
                json_opt_str(&mut s, e.move_text.as_deref());
                s.push_str(",\"reason\":");
                json_str(&mut s, &e.reason);
                s.push('}');
            }
        }
        s.push('}');
        s
    }

    /// One line for people:
    /// `game 1: 4 plies, result 0-1, checkmate (black wins), fen rnb1kbnr/...`, or for a game
    /// with a refused move
    /// `game 2: error at ply 3 (Ke3): ...; 2 plies read, result *, ongoing, fen ...`.
    ///
    /// ```
    /// use ferrum::rules::referee;
    /// let text = "[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
    /// let line = referee(text).next().unwrap().to_line();
    /// assert!(line.starts_with("game 1: error at ply 3 (Ke3): the white king on e1 cannot move to e3; 2 plies read, result *, ongoing, fen "), "{line}");
    /// ```
    pub fn to_line(&self) -> String {
        let mut s = format!("game {}: ", self.game);
        if let Some(e) = &self.error {
            s.push_str("error");
            if let Some(ply) = e.ply {
                let _ = write!(s, " at ply {ply}");
            }
            if let Some(m) = &e.move_text {
                let _ = write!(s, " ({m})");
            }
            let _ = write!(s, ": {}; {} plies read", e.reason, self.plies);
        } else {
            let _ = write!(s, "{} plies", self.plies);
        }
        let _ = write!(s, ", result {}", self.result.as_deref().unwrap_or("(none)"));
        let _ = write!(s, ", {}", self.outcome.name());
        if let Some(w) = self.winner() {
            let _ = write!(s, " ({w} wins)");
        }
        if !self.claimable.is_empty() {
            let names: Vec<&str> = self.claimable.iter().map(|c| c.name()).collect();
            let _ = write!(s, ", claimable {}", names.join(" "));
        }
        match &self.fen {
            Some(fen) => {
                let _ = write!(s, ", fen {fen}");
            }
            None => s.push_str(", no position"),
        }
        s
    }
}

/// Replays every game of a PGN text through [`Game`](super::Game) and reports on each, in
/// order; a game with an illegal or unreadable move gets its report (naming the ply, the move
/// and the reason) and the next game is read regardless.
///
/// ```
/// use ferrum::rules::referee;
/// let text = "1. e4 e5 *\n\n1. e4 e5 2. Qxf7 *\n\n1. d4 *\n";
/// let reports: Vec<_> = referee(text).collect();
/// assert_eq!(reports.len(), 3);
/// assert!(reports[0].error.is_none());
/// assert_eq!(reports[1].error.as_ref().unwrap().ply, Some(3));
/// assert_eq!(reports[2].plies, 1);
/// ```
pub fn referee(text: &str) -> impl Iterator<Item = GameReport> + '_ {
    referee_stream(text.as_bytes())
}

/// [`referee`] over a PGN file of any size, read from `input` one game at a time
/// (see [`PgnStream`](super::PgnStream)).
///
/// ```
/// use ferrum::rules::referee_stream;
/// let pgn = "1. f3 e5 2. g4 Qh4# 0-1\n\n[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
/// let reports: Vec<_> = referee_stream(pgn.as_bytes()).collect();
/// assert_eq!(reports[0].outcome.to_string(), "checkmate, black wins");
/// assert_eq!(reports[1].error.as_ref().unwrap().ply, Some(3));
/// ```
pub fn referee_stream<R: std::io::BufRead>(input: R) -> impl Iterator<Item = GameReport> {
    // A verdict needs the moves only: the notes are not kept.
    super::PgnStream::new(input)
        .without_notes()
        .enumerate()
        .map(|(i, read)| GameReport::from_read(read, i + 1))
}

/// Appends `v` as a JSON string.
pub(crate) fn json_str(out: &mut String, v: &str) {
    out.push('"');
    for c in v.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_opt_str(out: &mut String, v: Option<&str>) {
    match v {
        Some(v) => json_str(out, v),
        None => out.push_str("null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        let mut s = String::new();
        json_str(&mut s, "a\"b\\c\nd\u{1}é");
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }
}
