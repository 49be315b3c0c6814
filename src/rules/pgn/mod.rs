//! PGN: writing a game ([`write_pgn`], [`PgnGame::to_pgn`]) and reading a file of games
//! ([`read_pgn`], [`PgnReader`], [`PgnStream`]). Every move read is played through
//! [`Game::play`], so a file is accepted exactly when its moves are legal; comments, NAGs and
//! variations are kept ([`Notes`]) and written back.
//!
//! Underneath is a streaming reader for any use: [`PgnParser`] reports what it reads to a
//! [`Visitor`] (tags, moves, comments, NAGs, variations, results and typed
//! [`SyntaxError`]s with their line and column).

use std::fmt;

use crate::core::{FenError, STARTPOS};

use super::error::MoveError;
use super::game::Game;

mod notes;
mod read;
mod visitor;

pub use notes::{Notes, Variation, VariationMove};
pub use read::{read_pgn, PgnReader, PgnStream};
pub use visitor::{comment_commands, Location, PgnParser, SyntaxError, SyntaxErrorKind, Visitor};

use notes::Words;
use visitor::is_result;

/// The Seven Tag Roster, in the order PGN writes it.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// A game read from (or to be written as) PGN: its tags, in order, and the game.
///
/// ```
/// use ferrum::rules::{Game, PgnGame};
/// let mut game = Game::new();
/// for m in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
///     game.play(m).unwrap();
/// }
/// let mut pgn = PgnGame::new(game);
/// pgn.set_tag("White", "Scholar");
/// let text = pgn.to_pgn();
/// assert!(text.contains("[White \"Scholar\"]"));
/// assert!(text.contains("[Result \"1-0\"]"));
/// assert!(text.contains("4. Qxf7# {checkmate, white wins} 1-0"));
/// ```
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The tags as read or set, in order (the roster is written first whatever the order).
    pub tags: Vec<(String, String)>,
    /// The game: starting position (from the `FEN` tag) and moves.
    pub game: Game,
    /// The termination marker that ended the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub marker: Option<String>,
    /// The comments, NAGs and variations of the main line: `notes[0]` before the first move,
    /// `notes[i]` after the `i`-th move (missing entries are empty).
    pub notes: Vec<Notes>,
}

impl PgnGame {
    /// A game with no tags yet (the roster is filled with `?` when written).
    pub fn new(game: Game) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            game,
            marker: None,
            notes: Vec::new(),
        }
    }

    /// The value of tag `name`, if present.
    ///
    /// ```
    /// use ferrum::rules::read_pgn;
    /// let games = read_pgn("[White \"Morphy\"]\n\n1. e4 *\n");
    /// let game = games[0].as_ref().unwrap();
    /// assert_eq!(game.tag("White"), Some("Morphy"));
    /// assert_eq!(game.tag("Black"), None);
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The result to write: the rules' outcome when the game is over, else the `Result` tag
    /// when it is a valid result, else the movetext's termination marker, else `*`.
    pub fn result(&self) -> &str {
        match (self.tag("Result"), self.marker.as_deref()) {
            (Some(r), _) if is_result(r) => result_of(&self.game, &self.tags),
            (_, Some(m)) if is_result(m) && !self.game.outcome().is_over() => m,
            _ => result_of(&self.game, &self.tags),
        }
    }

    /// The game as PGN text (see [`write_pgn`]) with its notes; a game without a valid
    /// `Result` tag takes its result from the movetext's termination marker.
    ///
    /// ```
    /// use ferrum::rules::read_pgn;
    /// let text = "1. e4 {[%clk 0:03:00] [%eval 0.17]} e5 $2 (1... c5 {Sicilian}) 2. Nf3 *\n";
    /// let game = read_pgn(text).remove(0).unwrap();
    /// let written = game.to_pgn();
    /// assert!(written.ends_with(
    ///     "1. e4 {[%clk 0:03:00] [%eval 0.17]} 1... e5 $2 (1... c5 {Sicilian}) 2. Nf3 *\n\n"
    /// ));
    /// assert_eq!(read_pgn(&written).remove(0).unwrap().notes, game.notes);
    /// ```
    pub fn to_pgn(&self) -> String {
        let result = self.result();
        if self.tag("Result") == Some(result) {
            return write_with_notes(&self.game, &self.tags, &self.notes);
        }
        let mut tags = self.tags.clone();
        match tags.iter_mut().find(|(n, _)| n == "Result") {
            Some((_, v)) => *v = result.to_string(),
            None => tags.push(("Result".to_string(), result.to_string())),
        }
        write_with_notes(&self.game, &tags, &self.notes)
    }
}

/// Writes `game` as PGN: the Seven Tag Roster (values from `tags`, `?` when missing), `SetUp`
/// and `FEN` when the game does not start from the standard position, `Variant "Chess960"`
/// for Chess960, `Termination`, the remaining `tags`, then the moves in SAN with move numbers,
/// a comment naming how the game ended, and the result.
///
/// The result is the rules' outcome when the game is over, otherwise the `Result` tag of
/// `tags` when it is valid, otherwise `*`.
///
/// ```
/// use ferrum::rules::{write_pgn, Game};
/// let mut game = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
/// game.play("O-O-O").unwrap();
/// let pgn = write_pgn(&game, &[("Event".into(), "Test".into())]);
/// assert!(pgn.starts_with("[Event \"Test\"]\n[Site \"?\"]"));
/// assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]"));
/// assert!(pgn.contains("1. O-O-O *"));
/// ```
pub fn write_pgn(game: &Game, tags: &[(String, String)]) -> String {
    write_with_notes(game, tags, &[])
}

/// [`write_pgn`] with the main line's notes (see [`PgnGame::notes`]).
fn write_with_notes(game: &Game, tags: &[(String, String)], notes: &[Notes]) -> String {
    let result = result_of(game, tags);
    let outcome = game.outcome();
    let mut out = String::new();
    let lookup = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => result,
            "Date" => lookup(name).unwrap_or("????.??.??"),
            _ => lookup(name).unwrap_or("?"),
        };
        push_tag(&mut out, name, value);
    }
    let start = game.start_position();
    let standard_start = !game.is_chess960() && start.fen() == STARTPOS;
    if !standard_start {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &start.fen());
    }
    if game.is_chess960() {
        push_tag(&mut out, "Variant", "Chess960");
    }
    let termination = match lookup("Termination") {
        Some(t) => t.to_string(),
        None if outcome.is_over() => "normal".to_string(),
        None if result != "*" => "normal".to_string(),
        None => "unterminated".to_string(),
    };
    push_tag(&mut out, "Termination", &termination);
    const OURS: [&str; 11] = [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "SetUp",
        "FEN",
        "Variant",
        "Termination",
    ];
    for (name, value) in tags {
        if !OURS.contains(&name.as_str()) && is_tag_name(name) {
            push_tag(&mut out, name, value);
        }
    }
    out.push('\n');

    write_movetext(&mut out, game, notes, result);
    out.push_str("\n\n");
    out
}

/// The moves in SAN with their numbers and notes, a comment naming how the game ended (unless
/// the notes after the last move already say it), and the result.
fn write_movetext(out: &mut String, game: &Game, notes: &[Notes], result: &str) {
    let start = game.start_position();
    let mut words = Words::new(start, game.ply() * 3 / 2 + 2);
    if let Some(intro) = notes.first() {
        words.push_notes(intro, 0);
    }
    let mut pos = start.clone();
    for (i, &m) in game.history().iter().enumerate() {
        words.push_move(i, &super::san::san_unchecked(&pos, m));
        if let Some(after) = notes.get(i + 1) {
            words.push_notes(after, i + 1);
        }
        pos.make(m);
    }
    let outcome = game.outcome();
    if outcome.is_over() {
        let said = outcome.to_string();
        if !notes
            .get(game.ply())
            .is_some_and(|n| n.comments.contains(&said))
        {
            words.push_comment(&said);
        }
    }
    words.words.push(result.to_string());
    words.write_into(out);
}

/// The result to write for `game` with `tags` (see [`PgnGame::result`]).
fn result_of<'a>(game: &Game, tags: &'a [(String, String)]) -> &'a str {
    let outcome = game.outcome();
    if outcome.is_over() {
        return outcome.result();
    }
    match tags.iter().find(|(n, _)| n == "Result") {
        Some((_, r)) if is_result(r) => r,
        _ => "*",
    }
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

// ---- errors ----

/// Why a PGN game could not be read completely.
///
/// ```
/// use ferrum::rules::{read_pgn, PgnErrorKind};
/// let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n";
/// let games = read_pgn(text);
/// assert!(games[0].is_ok());
/// let err = games[1].as_ref().unwrap_err();
/// assert_eq!((err.game, err.ply, err.move_text.as_deref()), (2, Some(3), Some("Ke3")));
/// assert!(matches!(err.kind, PgnErrorKind::Move(_)));
/// assert_eq!(err.to_string(), "game 2, ply 3 (2. Ke3): the white king on e1 cannot move to e3");
/// // The moves before the error are kept.
/// assert_eq!(err.partial.as_ref().unwrap().game.ply(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct PgnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The 1-based ply of the refused move; `None` for a problem with the tags.
    pub ply: Option<usize>,
    /// The refused move as written (with its move number in [`PgnError::at`]).
    pub move_text: Option<String>,
    /// The line of the file where the problem was found (from 1).
    pub line: usize,
    /// What went wrong.
    pub kind: PgnErrorKind,
    /// The game as far as it could be read (tags and the moves before the error), or `None`
    /// when its starting position could not be set up.
    pub partial: Option<Box<PgnGame>>,
}

/// What went wrong in a PGN game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A move that is illegal or unreadable (the refusal says which and why).
    Move(MoveError),
    /// The `FEN` tag does not hold a valid position.
    Fen(FenError),
    /// A `Variant` other than standard chess and Chess960.
    UnsupportedVariant(String),
    /// A tag pair that is not `[Name "value"]`.
    BadTag(String),
    /// Malformed text: a comment, variation or NAG that is not closed or not valid (the error
    /// names its line and column).
    Syntax(SyntaxError),
    /// The input could not be read (the message of the I/O error); reading stops there.
    Io(String),
}

impl PgnError {
    /// Where in the game, for people: the refused move with its number, `12... Nf6`.
    pub fn at(&self) -> Option<String> {
        let text = self.move_text.as_deref()?;
        let pos = self.partial.as_ref()?.game.position();
        let dots = if pos.side_to_move() == crate::core::Color::White {
            "."
        } else {
            "..."
        };
        Some(format!("{}{dots} {text}", pos.fullmove_number()))
    }

    /// The reason in words, without the game and ply.
    pub fn reason(&self) -> String {
        match &self.kind {
            PgnErrorKind::Move(e) => e.reason_with_text(),
            PgnErrorKind::Fen(e) => format!("the FEN tag is not a valid position: {e}"),
            PgnErrorKind::UnsupportedVariant(v) => {
                format!("variant \"{v}\" is not supported (only standard chess and Chess960)")
            }
            PgnErrorKind::BadTag(t) => format!("line {} is not a tag pair: {t}", self.line),
            PgnErrorKind::Syntax(e) => e.to_string(),
            PgnErrorKind::Io(e) => format!("cannot read on: {e}"),
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        if let Some(at) = self.at() {
            write!(f, " ({at})")?;
        }
        write!(f, ": {}", self.reason())
    }
}

impl std::error::Error for PgnError {}

impl MoveError {
    /// The reason, starting with the move text only when the reason needs a subject
    /// (`Nf6 leaves the black king in check`, but `there is no piece on e3`).
    pub(crate) fn reason_with_text(&self) -> String {
        let full = self.to_string();
        match full
            .strip_prefix(self.text())
            .and_then(|r| r.strip_prefix(": "))
        {
            Some(rest) => rest.to_string(),
            None => full,
        }
    }
}

#[cfg(test)]
mod tests;
