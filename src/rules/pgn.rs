//! PGN: writing a game ([`write_pgn`], [`PgnGame::to_pgn`]) and reading a file of games
//! ([`read_pgn`], [`PgnReader`]). Every move read is played through [`Game::play`], so a file
//! is accepted exactly when its moves are legal.

use std::fmt;

use crate::core::{FenError, Position, STARTPOS};

use super::error::MoveError;
use super::game::Game;

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
}

impl PgnGame {
    /// A game with no tags yet (the roster is filled with `?` when written).
    pub fn new(game: Game) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            game,
            marker: None,
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

    /// The game as PGN text (see [`write_pgn`]); a game without a valid `Result` tag takes
    /// its result from the movetext's termination marker.
    pub fn to_pgn(&self) -> String {
        let result = self.result();
        if self.tag("Result") == Some(result) {
            return write_pgn(&self.game, &self.tags);
        }
        let mut tags = self.tags.clone();
        match tags.iter_mut().find(|(n, _)| n == "Result") {
            Some((_, v)) => *v = result.to_string(),
            None => tags.push(("Result".to_string(), result.to_string())),
        }
        write_pgn(&self.game, &tags)
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

    let mut words: Vec<String> = Vec::with_capacity(game.ply() * 3 / 2 + 2);
    let mut pos: Position = start.clone();
    for (i, &m) in game.history().iter().enumerate() {
        // A move number stays on the line of its move.
        let san = super::san::san_unchecked(&pos, m);
        let white = pos.side_to_move() == crate::core::Color::White;
        words.push(if white {
            format!("{}. {san}", pos.fullmove_number())
        } else if i == 0 {
            format!("{}... {san}", pos.fullmove_number())
        } else {
            san
        });
        pos.make(m);
    }
    if outcome.is_over() {
        words.push(format!("{{{outcome}}}"));
    }
    words.push(result.to_string());
    let mut line_len = 0;
    for w in words {
        if line_len > 0 && line_len + 1 + w.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += w.len();
        out.push_str(&w);
    }
    out.push_str("\n\n");
    out
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

fn is_result(r: &str) -> bool {
    matches!(r, "1-0" | "0-1" | "1/2-1/2" | "*")
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

// ---- reading ----

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
pub enum PgnErrorKind {
    /// A move that is illegal or unreadable (the refusal says which and why).
    Move(MoveError),
    /// The `FEN` tag does not hold a valid position.
    Fen(FenError),
    /// A `Variant` other than standard chess and Chess960.
    UnsupportedVariant(String),
    /// A tag pair that is not `[Name "value"]`.
    BadTag(String),
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

/// Reads every game of a PGN text. Each game is `Ok` when all its moves were legal, or an
/// [`PgnError`] naming the game, the ply and the move (the other games are read regardless).
///
/// Accepts several games in one text, `{comments}` and `;` comments, NAGs (`$1`) and `!`/`?`
/// marks, `(variations)` (skipped, nested or not), `%` escape lines, move numbers written
/// `12.`, `12...` or glued to the move (`12.e4`), and the tolerant move forms of
/// [`Game::parse_move`].
///
/// ```
/// use ferrum::rules::read_pgn;
/// let text = "% exported by a tool\n[Event \"?\"]\n\n1. e4 {best by test} e5 $1 (1... c5 2. Nf3) 2. Nf3 1-0\n";
/// let games = read_pgn(text);
/// let game = games[0].as_ref().unwrap();
/// assert_eq!(game.game.san_history(), ["e4", "e5", "Nf3"]);
/// assert_eq!(game.marker.as_deref(), Some("1-0"));
/// ```
pub fn read_pgn(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    PgnReader::new(text).collect()
}

/// An iterator over the games of a PGN text, one at a time (see [`read_pgn`]).
///
/// ```
/// use ferrum::rules::PgnReader;
/// let text = "[White \"A\"]\n\n1. e4 e5 1/2-1/2\n\n[White \"B\"]\n\n1. d4 Nf9 *\n";
/// let mut reader = PgnReader::new(text);
/// assert_eq!(reader.next().unwrap().unwrap().game.ply(), 2);
/// assert_eq!(reader.next().unwrap().unwrap_err().move_text.as_deref(), Some("Nf9"));
/// assert!(reader.next().is_none());
/// ```
pub struct PgnReader<'a> {
    lexer: Lexer<'a>,
    pending: Option<Token<'a>>,
    number: usize,
    /// The text ended in a game that had tags but no moves yet (more tags could follow).
    ended_in_tags: bool,
}

impl<'a> PgnReader<'a> {
    /// A reader over `text`.
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader::continuing(text, 1, 1)
    }

    /// A reader over `text` that is a later part of a file: its first game is game `game` and
    /// its first line is line `line` of the file (so errors name the file's numbers).
    fn continuing(text: &'a str, game: usize, line: usize) -> PgnReader<'a> {
        let mut lexer = Lexer::new(text);
        lexer.line = line;
        lexer.token_line = line;
        PgnReader {
            lexer,
            pending: None,
            number: game.saturating_sub(1),
            ended_in_tags: false,
        }
    }

    fn next_token(&mut self) -> Option<Token<'a>> {
        self.pending.take().or_else(|| self.lexer.next())
    }
}

/// A game being read.
struct Reading {
    number: usize,
    tags: Vec<(String, String)>,
    game: Option<Game>,
    error: Option<PgnError>,
    marker: Option<String>,
    started: bool,
}

impl Reading {
    fn fail(
        &mut self,
        ply: Option<usize>,
        move_text: Option<&str>,
        line: usize,
        kind: PgnErrorKind,
    ) {
        if self.error.is_some() {
            return;
        }
        self.error = Some(PgnError {
            game: self.number,
            ply,
            move_text: move_text.map(str::to_string),
            line,
            kind,
            partial: None,
        });
    }

    /// The game's starting position, from the `FEN`, `SetUp` and `Variant` tags, set up
    /// the first time it is needed.
    fn game(&mut self, line: usize) -> Option<&mut Game> {
        if self.game.is_none() && self.error.is_none() {
            match setup(&self.tags) {
                Ok(g) => self.game = Some(g),
                Err(kind) => self.fail(None, None, line, kind),
            }
        }
        self.game.as_mut()
    }

    fn play(&mut self, text: &str, line: usize) {
        if self.error.is_some() {
            return;
        }
        let Some(game) = self.game(line) else {
            return;
        };
        let ply = game.ply() + 1;
        if let Err(e) = game.play(text) {
            self.fail(Some(ply), Some(text), line, PgnErrorKind::Move(e));
        }
    }

    fn finish(mut self, line: usize) -> Result<PgnGame, PgnError> {
        self.game(line);
        let partial = self.game.map(|game| PgnGame {
            tags: self.tags,
            game,
            marker: self.marker,
        });
        match (self.error, partial) {
            (None, Some(g)) => Ok(g),
            (Some(mut e), partial) => {
                e.partial = partial.map(Box::new);
                Err(e)
            }
            (None, None) => Err(PgnError {
                game: self.number,
                ply: None,
                move_text: None,
                line,
                kind: PgnErrorKind::BadTag(String::new()),
                partial: None,
            }),
        }
    }
}

fn setup(tags: &[(String, String)]) -> Result<Game, PgnErrorKind> {
    let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.trim());
    let chess960 = match tag("Variant") {
        None => false,
        Some(v) => {
            let v = v.to_ascii_lowercase();
            if v.is_empty() || v == "standard" || v == "chess" || v == "normal" {
                false
            } else if v.contains("960") || v.contains("fischer") {
                true
            } else {
                return Err(PgnErrorKind::UnsupportedVariant(v));
            }
        }
    };
    let fen = tag("FEN").unwrap_or(STARTPOS);
    let game = if chess960 {
        Game::from_fen_960(fen)
    } else {
        Game::from_fen(fen)
    };
    game.map_err(PgnErrorKind::Fen)
}

impl<'a> Iterator for PgnReader<'a> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut reading = Reading {
            number: self.number + 1,
            tags: Vec::new(),
            game: None,
            error: None,
            marker: None,
            started: false,
        };
        let mut depth = 0usize;
        let mut any = false;
        // The line of the game's last token: where a problem found at its end is reported
        // (not the lexer's position, which may already be in the next game).
        let mut last_line = self.lexer.line;
        while let Some(token) = self.next_token() {
            let line = self.lexer.token_line;
            if !(reading.started && matches!(token, Token::Tag(..) | Token::BadTag(_))) {
                last_line = line;
            }
            match token {
                Token::Tag(name, value) => {
                    if reading.started {
                        self.pending = Some(Token::Tag(name, value));
                        break;
                    }
                    any = true;
                    reading.tags.push((name, value));
                }
                Token::BadTag(text) => {
                    if reading.started {
                        self.pending = Some(Token::BadTag(text));
                        break;
                    }
                    any = true;
                    reading.fail(None, None, line, PgnErrorKind::BadTag(text));
                }
                Token::Open => {
                    any = true;
                    reading.started = true;
                    depth += 1;
                }
                Token::Close => depth = depth.saturating_sub(1),
                Token::Nag => {}
                Token::Symbol(s) => {
                    any = true;
                    reading.started = true;
                    if depth > 0 {
                        continue;
                    }
                    if is_result(s) {
                        reading.marker = Some(s.to_string());
                        break;
                    }
                    let s = strip_move_number(s);
                    if s.is_empty()
                        || s.bytes().all(|b| b == b'!' || b == b'?')
                        || s == "e.p."
                        || s == "ep"
                    {
                        continue;
                    }
                    reading.play(s, line);
                }
            }
        }
        if !any {
            return None;
        }
        self.ended_in_tags = !reading.started && self.pending.is_none();
        self.number += 1;
        Some(reading.finish(last_line))
    }
}

/// `12.e4` → `e4`, `12...` → ``, `e4` → `e4`; `0-0`, `1-0` are left alone.
fn strip_move_number(s: &str) -> &str {
    let digits = s.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 && s.as_bytes().get(digits) == Some(&b'.') {
        s[digits..].trim_start_matches('.')
    } else {
        s
    }
}

#[derive(Debug)]
enum Token<'a> {
    Tag(String, String),
    BadTag(String),
    Symbol(&'a str),
    Open,
    Close,
    Nag,
}

/// The games of a PGN file read from any [`BufRead`], one game in memory at a time: the same
/// games, errors, game numbers and line numbers as [`PgnReader`] over the whole text, for files
/// of any size. Bytes that are not UTF-8 (old Latin-1 files) are read lossily.
///
/// ```
/// use ferrum::rules::{PgnReader, PgnStream};
/// let text = "[White \"A\"]\n\n1. e4 {a [comment]\n[not a tag]} e5 *\n[White \"B\"]\n1. d4 Nf9 *\n";
/// let streamed: Vec<_> = PgnStream::new(text.as_bytes()).collect();
/// assert_eq!(streamed.len(), 2);
/// assert_eq!(streamed[0].as_ref().unwrap().game.ply(), 2);
/// let err = streamed[1].as_ref().unwrap_err();
/// assert_eq!((err.game, err.line), (2, 6));
/// let whole: Vec<_> = PgnReader::new(text).collect();
/// assert_eq!(whole[1].as_ref().unwrap_err().line, 6);
/// ```
pub struct PgnStream<R> {
    input: R,
    /// The line read but not yet used: the candidate first line of the next game.
    carry: Vec<u8>,
    /// Games read and not yet returned, in order.
    ready: std::collections::VecDeque<Result<PgnGame, PgnError>>,
    next_game: usize,
    next_line: usize,
    done: bool,
}

/// Past this size a chunk is no longer cut (only garbage gets there): it is read whole.
const MAX_CHUNK: usize = 1 << 20;

impl<R: std::io::BufRead> PgnStream<R> {
    /// A stream over `input`.
    pub fn new(input: R) -> PgnStream<R> {
        PgnStream {
            input,
            carry: Vec::new(),
            ready: std::collections::VecDeque::new(),
            next_game: 1,
            next_line: 1,
            done: false,
        }
    }

    fn read_line(&mut self) -> Option<Vec<u8>> {
        if !self.carry.is_empty() {
            return Some(std::mem::take(&mut self.carry));
        }
        let mut line = Vec::new();
        match self.input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line),
        }
    }

    /// Reads lines until a line that starts with `[` could begin a new game, then lets the
    /// reader itself say whether it does: the text so far must end outside a comment and not
    /// in the middle of a game's tags. Only then are its games returned, so cutting the file
    /// never changes what is read.
    fn fill(&mut self) {
        let mut chunk: Vec<u8> = Vec::new();
        let mut lines = 0;
        while let Some(line) = self.read_line() {
            let candidate = !chunk.is_empty()
                && chunk.len() < MAX_CHUNK
                && line.trim_ascii_start().starts_with(b"[");
            if candidate && self.parse(&chunk, lines, true) {
                self.carry = line;
                return;
            }
            chunk.extend_from_slice(&line);
            lines += 1;
        }
        self.done = true;
        self.parse(&chunk, lines, false);
    }

    /// Reads the games of `chunk` (`lines` lines); with `only_if_clean`, keeps them only when
    /// the chunk ends where a game may begin. Returns whether they were kept.
    fn parse(&mut self, chunk: &[u8], lines: usize, only_if_clean: bool) -> bool {
        let text = String::from_utf8_lossy(chunk);
        let mut reader = PgnReader::continuing(&text, self.next_game, self.next_line);
        let games: Vec<_> = reader.by_ref().collect();
        if only_if_clean && (reader.ended_in_tags || reader.lexer.unclosed_comment) {
            return false;
        }
        self.next_game += games.len();
        self.next_line += lines;
        self.ready.extend(games);
        true
    }
}

impl<R: std::io::BufRead> Iterator for PgnStream<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.ready.is_empty() && !self.done {
            self.fill();
        }
        self.ready.pop_front()
    }
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// The line the last token started on.
    token_line: usize,
    /// The text ended inside a `{comment}`.
    unclosed_comment: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        // A byte-order mark is not part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer {
            text,
            pos: 0,
            line: 1,
            token_line: 1,
            unclosed_comment: false,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text.as_bytes().get(self.pos - 1) == Some(&b'\n')
    }

    fn skip_line(&mut self) {
        while let Some(b) = self.bump() {
            if b == b'\n' {
                break;
            }
        }
    }

    /// The rest of the current line, for an error message.
    fn rest_of_line(&mut self) -> String {
        let start = self.pos;
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        self.skip_line();
        self.text[start..end].trim().to_string()
    }

    fn tag(&mut self) -> Token<'a> {
        let (start, start_line) = (self.pos, self.line);
        let bad = |lexer: &mut Lexer<'a>| {
            // Back to the tag's start, line count included: the scan may have passed a newline.
            lexer.pos = start;
            lexer.line = start_line;
            let text = lexer.rest_of_line();
            Token::BadTag(text)
        };
        self.bump(); // '['
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
        let name_start = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.bump();
        }
        let name = self.text[name_start..self.pos].to_string();
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
        if name.is_empty() || self.peek() != Some(b'"') {
            return bad(self);
        }
        self.bump();
        let mut value = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let Some(i) = rest.find(['"', '\\', '\n']) else {
                return bad(self);
            };
            value.push_str(&rest[..i]);
            self.pos += i;
            match self.bump() {
                Some(b'"') => break,
                Some(b'\\') => match self.peek() {
                    Some(c @ (b'"' | b'\\')) => {
                        self.bump();
                        value.push(c as char);
                    }
                    _ => value.push('\\'),
                },
                _ => return bad(self),
            }
        }
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
        if self.peek() != Some(b']') {
            return bad(self);
        }
        self.bump();
        Token::Tag(name, value)
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        loop {
            if self.peek() == Some(b'%') && self.at_line_start() {
                self.skip_line();
                continue;
            }
            let b = self.peek()?;
            self.token_line = self.line;
            match b {
                b if b.is_ascii_whitespace() => {
                    self.bump();
                }
                b'{' => {
                    self.unclosed_comment = true;
                    while let Some(c) = self.bump() {
                        if c == b'}' {
                            self.unclosed_comment = false;
                            break;
                        }
                    }
                }
                b';' => self.skip_line(),
                b'[' => return Some(self.tag()),
                b'(' => {
                    self.bump();
                    return Some(Token::Open);
                }
                b')' => {
                    self.bump();
                    return Some(Token::Close);
                }
                b'$' => {
                    self.bump();
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                    return Some(Token::Nag);
                }
                _ => {
                    let start = self.pos;
                    while let Some(c) = self.peek() {
                        if c.is_ascii_whitespace() || b"{}()[];$\"".contains(&c) {
                            break;
                        }
                        self.bump();
                    }
                    if self.pos == start {
                        // A lone '"', '}' or ']' outside a tag: skip it.
                        self.bump();
                        continue;
                    }
                    return Some(Token::Symbol(&self.text[start..self.pos]));
                }
            }
        }
    }
}
