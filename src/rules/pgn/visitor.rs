//! A streaming PGN reader ([`PgnParser`]) that tells a [`Visitor`] what it reads: tags, moves,
//! comments, NAGs, variations and results, one game at a time, from any [`BufRead`]. It checks
//! the syntax only; what the moves mean is the visitor's business (the rules' own visitor plays
//! them through [`Game`](crate::rules::Game), see [`PgnStream`](super::PgnStream)).
//!
//! ```
//! use ferrum::rules::{Location, PgnParser, Visitor};
//!
//! /// Counts moves and collects clock comments.
//! #[derive(Default)]
//! struct Clocks { moves: usize, clocks: Vec<String> }
//!
//! impl Visitor for Clocks {
//!     type Output = (usize, Vec<String>);
//!     fn san(&mut self, _text: &str, _at: Location) {
//!         self.moves += 1;
//!     }
//!     fn comment(&mut self, text: &str, _at: Location) {
//!         for (name, args) in ferrum::rules::comment_commands(text) {
//!             if name == "clk" {
//!                 self.clocks.push(args.to_string());
//!             }
//!         }
//!     }
//!     fn end_game(&mut self) -> Self::Output {
//!         (std::mem::take(&mut self.moves), std::mem::take(&mut self.clocks))
//!     }
//! }
//!
//! let pgn = "[Event \"x\"]\n\n1. e4 { [%clk 0:03:00] [%eval 0.17] } e5 { [%clk 0:02:59] } *\n";
//! let mut parser = PgnParser::new(pgn.as_bytes());
//! let (moves, clocks) = parser.read_game(&mut Clocks::default()).unwrap().unwrap();
//! assert_eq!((moves, clocks), (2, vec!["0:03:00".to_string(), "0:02:59".to_string()]));
//! assert!(parser.read_game(&mut Clocks::default()).unwrap().is_none());
//! ```

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead};

/// Where something is in the input: line and column, both counted from 1 (the column in
/// characters).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// What is wrong with the text of a PGN file (see [`SyntaxError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxErrorKind {
    /// A `[` that does not start a `[Name "value"]` tag pair; holds the rest of its line.
    BadTag(String),
    /// A `{` comment still open at the end of the input.
    UnclosedComment,
    /// A `}` outside a comment.
    UnmatchedBrace,
    /// A `)` without a variation to close.
    UnmatchedParenthesis,
    /// A `(` variation still open when its game ended.
    UnclosedVariation,
    /// A `$` without a number from 0 to 255, or a run of `!`/`?` that is no annotation.
    BadNag(String),
    /// A `[%` in a comment without a command name or its closing `]` (as in `[%clk 0:03:00]`).
    BadCommand(String),
    /// A game result inside a variation.
    ResultInVariation(String),
    /// A `"` or `]` outside a tag pair.
    Unexpected(char),
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxErrorKind::BadTag(t) => write!(f, "not a tag pair: {t}"),
            SyntaxErrorKind::UnclosedComment => {
                f.write_str("a comment opened here is never closed")
            }
            SyntaxErrorKind::UnmatchedBrace => f.write_str("a } outside a comment"),
            SyntaxErrorKind::UnmatchedParenthesis => {
                f.write_str("a ) without a variation to close")
            }
            SyntaxErrorKind::UnclosedVariation => {
                f.write_str("a variation opened here is still open at the end of the game")
            }
            SyntaxErrorKind::BadNag(t) => {
                write!(f, "{t} is not a NAG ($0 to $255, !, ?, !!, ??, !? or ?!)")
            }
            SyntaxErrorKind::BadCommand(t) => {
                write!(f, "{t} is not a comment command like [%clk 0:03:00]")
            }
            SyntaxErrorKind::ResultInVariation(t) => write!(f, "a result ({t}) inside a variation"),
            SyntaxErrorKind::Unexpected(c) => write!(f, "a {c} outside a tag pair"),
        }
    }
}

/// A syntax error and where it is. The parser reports it to [`Visitor::error`] and reads on:
/// the rest of the game and the following games are read as well as they can be.
///
/// ```
/// use ferrum::rules::{Location, SyntaxError, SyntaxErrorKind};
/// let e = SyntaxError { kind: SyntaxErrorKind::UnmatchedParenthesis, at: Location { line: 3, column: 9 } };
/// assert_eq!(e.to_string(), "line 3, column 9: a ) without a variation to close");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong.
    pub kind: SyntaxErrorKind,
    /// Where: the first character of the faulty text (the opening `{` or `(` of one never
    /// closed).
    pub at: Location,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.kind)
    }
}

impl std::error::Error for SyntaxError {}

/// What a [`PgnParser`] reports, in the order of the text. Every method but
/// [`end_game`](Visitor::end_game) does nothing by default.
///
/// For each game: [`begin_game`](Visitor::begin_game), then tags, moves, comments, NAGs,
/// variations and errors as they come, then [`end_game`](Visitor::end_game), whose value
/// [`PgnParser::read_game`] returns. Variations are always balanced: one left open when the
/// game ends is reported as an error and closed.
pub trait Visitor {
    /// What the visitor makes of one game.
    type Output;

    /// A game starts; `number` counts the games of the input from 1.
    fn begin_game(&mut self, number: usize) {
        let _ = number;
    }

    /// A tag pair `[name "value"]`, the value unescaped.
    fn tag(&mut self, name: &str, value: &str, at: Location) {
        let _ = (name, value, at);
    }

    /// A move as written, without its move number and `!`/`?` marks (those come as a NAG).
    /// The parser does not check it: it may be any word that is not something else.
    fn san(&mut self, text: &str, at: Location) {
        let _ = (text, at);
    }

    /// A Numeric Annotation Glyph: `$n`, or `!` (1), `?` (2), `!!` (3), `??` (4), `!?` (5),
    /// `?!` (6) after a move.
    fn nag(&mut self, nag: u8, at: Location) {
        let _ = (nag, at);
    }

    /// A comment: the text between `{` and `}` as it is (line breaks included), or after `;`
    /// to the end of its line.
    fn comment(&mut self, text: &str, at: Location) {
        let _ = (text, at);
    }

    /// A `(` variation starts: the moves up to its end replace the last move before it.
    fn begin_variation(&mut self, at: Location) {
        let _ = at;
    }

    /// The innermost variation ends.
    fn end_variation(&mut self, at: Location) {
        let _ = at;
    }

    /// The game's termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`. The game ends with it.
    fn result(&mut self, marker: &str, at: Location) {
        let _ = (marker, at);
    }

    /// A syntax error; reading goes on.
    fn error(&mut self, error: SyntaxError) {
        let _ = error;
    }

    /// The game has ended: at its result, before the next game's first tag, or at the end of
    /// the input.
    fn end_game(&mut self) -> Self::Output;
}

/// Reads the games of a PGN file from any [`BufRead`], a block of lines (64 KB) in memory at a
/// time (a comment that spans lines is kept whole), and reports each to a [`Visitor`]. Bytes that are not UTF-8
/// (old Latin-1 files) are read lossily; a byte-order mark at the start is skipped; lines
/// starting with `%` are escape lines and skipped.
///
/// A game ends at its result, or where the next game's tags start, or at the end of the input.
/// Comments and NAGs before a game's first tag belong to no game and are not reported.
pub struct PgnParser<R> {
    input: R,
    /// Whole lines read ahead from `input` (about [`BLOCK`] bytes), checked as UTF-8 at once
    /// and read in place: no copy or check per line.
    text: String,
    /// Whether `text` is ASCII (then a column is a byte offset plus one).
    ascii: bool,
    /// The next byte of `text` to read.
    pos: usize,
    /// Where the current line starts in `text`.
    line_start: usize,
    /// The current line's number (0 before the first).
    line_no: usize,
    games: usize,
    /// A reused buffer for comments that span lines.
    long_comment: String,
}

/// The size of the blocks of lines a [`PgnParser`] reads at a time.
const BLOCK: usize = 64 * 1024;

/// What a game being read has seen so far.
#[derive(Default)]
struct GameState {
    begun: bool,
    /// A move, result or variation has been read: a tag now starts the next game.
    movetext: bool,
    /// Where each open variation started.
    open: Vec<Location>,
    /// Comments and NAGs read before anything showed that a game has started.
    pending: Vec<(Pending, Location)>,
}

enum Pending {
    Comment(String),
    Nag(u8),
}

/// What the main loop does after a token.
enum Next {
    Read,
    EndGame,
}

impl<R: BufRead> PgnParser<R> {
    /// A parser over `input`.
    pub fn new(input: R) -> PgnParser<R> {
        PgnParser {
            input,
            text: String::new(),
            ascii: true,
            pos: 0,
            line_start: 0,
            line_no: 0,
            games: 0,
            long_comment: String::new(),
        }
    }

    /// How many games have been read so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Reads the next game and returns what `visitor` made of it, or `None` at the end of the
    /// input. An error reading the input is returned as it is; syntax errors are reported to
    /// the visitor.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        let mut game = GameState::default();
        loop {
            let Some(&b) = self.text.as_bytes().get(self.pos) else {
                if !self.next_block(true)? {
                    break;
                }
                continue;
            };
            // Most blanks are single spaces between tokens.
            if b == b' ' {
                self.pos += 1;
                continue;
            }
            if b == b'\n' {
                self.pos += 1;
                self.begin_line(true);
                continue;
            }
            if b.is_ascii_whitespace() {
                self.pos += 1;
                continue;
            }
            if let Next::EndGame = self.token(b, &mut game, visitor)? {
                return Ok(Some(self.finish(game, visitor)));
            }
        }
        if !game.begun {
            return Ok(None);
        }
        Ok(Some(self.finish(game, visitor)))
    }

    /// Reads the token starting with byte `b` at `self.pos`.
    fn token<V: Visitor>(&mut self, b: u8, g: &mut GameState, v: &mut V) -> io::Result<Next> {
        let at = self.at(self.pos);
        match b {
            b'[' if g.movetext => return Ok(Next::EndGame),
            b'[' => self.tag(g, v, at),
            b'{' => self.brace_comment(g, v, at)?,
            b';' => {
                let start = self.pos + 1;
                let end = self.line_content_end().max(start);
                self.pos = end;
                comment(&mut self.games, &self.text[start..end], false, g, v, at);
            }
            b'(' => {
                self.pos += 1;
                begin(&mut self.games, g, v);
                g.movetext = true;
                g.open.push(at);
                v.begin_variation(at);
            }
            b')' => {
                self.pos += 1;
                begin(&mut self.games, g, v);
                match g.open.pop() {
                    Some(_) => v.end_variation(at),
                    None => error(v, SyntaxErrorKind::UnmatchedParenthesis, at),
                }
            }
            b'$' => self.dollar_nag(g, v, at),
            b'}' | b'"' | b']' => {
                self.pos += 1;
                begin(&mut self.games, g, v);
                let kind = match b {
                    b'}' => SyntaxErrorKind::UnmatchedBrace,
                    _ => SyntaxErrorKind::Unexpected(b as char),
                };
                error(v, kind, at);
            }
            _ => return Ok(self.symbol(g, v)),
        }
        Ok(Next::Read)
    }

    /// Notes that a line starts at `self.pos` when it is inside the block (a line break at the
    /// block's end starts the next block's first line). With `escape`, a line starting with
    /// `%` is skipped up to its line break.
    fn begin_line(&mut self, escape: bool) {
        if self.pos >= self.text.len() {
            return;
        }
        self.line_no += 1;
        self.line_start = self.pos;
        if escape && self.text.as_bytes()[self.pos] == b'%' {
            self.pos = self.line_end();
        }
    }

    /// The offset of the current line's line break, or the end of the block (for tags, `;`
    /// comments and escape lines: the rest of the movetext never looks for it).
    fn line_end(&self) -> usize {
        let rest = &self.text[self.pos..];
        self.pos + rest.find('\n').unwrap_or(rest.len())
    }

    /// Where the current line's text ends: before its line break and a `\r` ahead of it.
    fn line_content_end(&self) -> usize {
        let end = self.line_end();
        if end > self.line_start && self.text.as_bytes()[end - 1] == b'\r' {
            end - 1
        } else {
            end
        }
    }

    /// Reads the next block of whole lines (the last one may end the input without a line
    /// break) and starts its first line (see [`begin_line`](Self::begin_line) for `escape`);
    /// false at the end of the input. Bytes that are not UTF-8 are read lossily.
    fn next_block(&mut self, escape: bool) -> io::Result<bool> {
        let first = self.line_no == 0;
        let mut raw = std::mem::take(&mut self.text).into_bytes();
        raw.clear();
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            // Whole lines only, up to what the input has ready and about BLOCK bytes: a pipe
            // that delivers one game at a time gets each game read as it comes.
            let room = BLOCK.saturating_sub(raw.len());
            let cut = buf[..buf.len().min(room)]
                .iter()
                .rposition(|&b| b == b'\n')
                .or_else(|| buf.iter().position(|&b| b == b'\n'));
            match cut {
                Some(i) => {
                    raw.extend_from_slice(&buf[..=i]);
                    self.input.consume(i + 1);
                    break;
                }
                None => {
                    let n = buf.len();
                    raw.extend_from_slice(buf);
                    self.input.consume(n);
                }
            }
        }
        // A byte-order mark is not part of the text.
        if first && raw.starts_with(b"\xef\xbb\xbf") {
            raw.drain(..3);
        }
        // A block ends at a line break (or the input's end), so a character is never cut.
        self.text = match String::from_utf8(raw) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        self.ascii = self.text.is_ascii();
        self.pos = 0;
        // At the end of the input the last line is still the current one, its column 1 where
        // anything left is reported.
        self.line_start = 0;
        if self.text.is_empty() {
            return Ok(false);
        }
        self.begin_line(escape);
        Ok(true)
    }

    /// The location of byte `pos` of the current line.
    fn at(&self, pos: usize) -> Location {
        let column = if self.ascii {
            pos - self.line_start
        } else {
            self.text
                .get(self.line_start..pos)
                .map_or(pos - self.line_start, |s| s.chars().count())
        };
        Location {
            line: self.line_no,
            column: column + 1,
        }
    }

    fn tag<V: Visitor>(&mut self, g: &mut GameState, v: &mut V, at: Location) {
        // Comments before a game's first tag belong to no game.
        if !g.begun {
            g.pending.clear();
        }
        begin(&mut self.games, g, v);
        let start = self.pos;
        let end = self.line_content_end();
        match parse_tag(&self.text[start..end]) {
            Some((name, value, len)) => {
                self.pos = start + len;
                v.tag(name, &value, at);
            }
            None => {
                self.pos = end;
                let text = self.text[start..end].trim().to_string();
                error(v, SyntaxErrorKind::BadTag(text), at);
            }
        }
    }

    fn brace_comment<V: Visitor>(
        &mut self,
        g: &mut GameState,
        v: &mut V,
        at: Location,
    ) -> io::Result<()> {
        let start = self.pos + 1;
        let scan = scan_comment(&self.text.as_bytes()[start..]);
        if let (Some(i), false) = (scan.end, scan.lines) {
            self.pos = start + i + 1;
            let text = &self.text[start..start + i];
            comment(&mut self.games, text, scan.clean, g, v, at);
            return Ok(());
        }
        // Over several lines: the text is their text joined by `\n` (without `\r`), and the
        // lines are counted.
        let mut text = std::mem::take(&mut self.long_comment);
        text.clear();
        self.pos = start;
        // Whether the text read last ended with its line's break (nothing after it).
        let mut at_line_break = false;
        let closed = loop {
            let rest = &self.text.as_bytes()[self.pos..];
            let close = rest.iter().position(|&b| b == b'}');
            let stop = self.pos + close.unwrap_or(rest.len());
            // Line by line up to the `}` or the block's end; lines inside a comment are text,
            // `%` at their start included.
            while let Some(nl) = self.text.as_bytes()[self.pos..stop]
                .iter()
                .position(|&b| b == b'\n')
            {
                let line = &self.text[self.pos..self.pos + nl];
                text.push_str(line.strip_suffix('\r').unwrap_or(line));
                text.push('\n');
                self.pos += nl + 1;
                self.begin_line(false);
            }
            let line = &self.text[self.pos..stop];
            if close.is_some() {
                text.push_str(line);
                self.pos = stop + 1;
                break true;
            }
            at_line_break = line.is_empty();
            text.push_str(line.strip_suffix('\r').unwrap_or(line));
            self.pos = stop;
            if !self.next_block(false)? {
                break false;
            }
        };
        if !closed {
            // The input's last line break ends its last line: it is not part of the text.
            if at_line_break {
                text.pop();
            }
            begin(&mut self.games, g, v);
            error(v, SyntaxErrorKind::UnclosedComment, at);
        }
        comment(&mut self.games, &text, false, g, v, at);
        self.long_comment = text;
        Ok(())
    }

    fn nag<V: Visitor>(&mut self, nag: u8, g: &mut GameState, v: &mut V, at: Location) {
        if g.begun {
            v.nag(nag, at);
        } else {
            g.pending.push((Pending::Nag(nag), at));
        }
    }

    fn dollar_nag<V: Visitor>(&mut self, g: &mut GameState, v: &mut V, at: Location) {
        let start = self.pos;
        self.pos += 1;
        let digits = self.text.as_bytes()[self.pos..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        self.pos += digits;
        match self.text[start + 1..self.pos].parse::<u8>() {
            Ok(nag) => self.nag(nag, g, v, at),
            Err(_) => {
                begin(&mut self.games, g, v);
                let text = self.text[start..self.pos].to_string();
                error(v, SyntaxErrorKind::BadNag(text), at);
            }
        }
    }

    /// A word of movetext: a result, a move (with its number and marks), or a mark alone.
    fn symbol<V: Visitor>(&mut self, g: &mut GameState, v: &mut V) -> Next {
        let start = self.pos;
        let len = self.text.as_bytes()[start..]
            .iter()
            .take_while(|&&c| !ENDS_WORD[usize::from(c)])
            .count();
        self.pos = start + len;
        begin(&mut self.games, g, v);
        g.movetext = true;
        let token = &self.text[start..self.pos];
        if is_result(token) {
            let at = self.at(start);
            if g.open.is_empty() {
                v.result(token, at);
                return Next::EndGame;
            }
            error(v, SyntaxErrorKind::ResultInVariation(token.to_string()), at);
            return Next::Read;
        }
        // Most words are moves, not move numbers.
        let word = if token.as_bytes().first().is_some_and(u8::is_ascii_digit) {
            strip_move_number(token)
        } else {
            token
        };
        if word.is_empty() || word == "e.p." || word == "ep" {
            return Next::Read;
        }
        let word_start = start + (token.len() - word.len());
        // Bytes, not chars: `!` and `?` are ASCII, so the cut is at a character boundary.
        let body_len = word
            .bytes()
            .rposition(|b| b != b'!' && b != b'?')
            .map_or(0, |i| i + 1);
        let body = &word[..body_len];
        if !body.is_empty() {
            v.san(body, self.at(word_start));
        }
        let marks = &word[body.len()..];
        if !marks.is_empty() {
            let at = self.at(word_start + body.len());
            match nag_of_marks(marks) {
                Some(nag) => v.nag(nag, at),
                None => error(v, SyntaxErrorKind::BadNag(marks.to_string()), at),
            }
        }
        Next::Read
    }

    /// Ends the game: closes the variations left open, then asks the visitor for its verdict.
    fn finish<V: Visitor>(&mut self, g: GameState, v: &mut V) -> V::Output {
        if let Some(&first) = g.open.first() {
            error(v, SyntaxErrorKind::UnclosedVariation, first);
            let here = self.at(self.pos);
            for _ in &g.open {
                v.end_variation(here);
            }
        }
        v.end_game()
    }
}

/// Starts the game if nothing has yet: numbers it (`games` counts the input's games) and hands
/// over what was held back. A free function, so that it can run while a line is borrowed.
#[inline]
fn begin<V: Visitor>(games: &mut usize, g: &mut GameState, v: &mut V) {
    // Called before every token: the check stays in the caller, the start does not.
    if !g.begun {
        start_game(games, g, v);
    }
}

#[inline(never)]
fn start_game<V: Visitor>(games: &mut usize, g: &mut GameState, v: &mut V) {
    g.begun = true;
    *games += 1;
    v.begin_game(*games);
    for (pending, at) in g.pending.drain(..) {
        match pending {
            Pending::Comment(text) => v.comment(&text, at),
            Pending::Nag(nag) => v.nag(nag, at),
        }
    }
}

/// Reports a comment (held back if no game has started yet), after the malformed commands in
/// it; `clean` when they are known to be all well formed (see [`scan_comment`]).
fn comment<V: Visitor>(
    games: &mut usize,
    text: &str,
    clean: bool,
    g: &mut GameState,
    v: &mut V,
    at: Location,
) {
    let mut bad = (!clean)
        .then(|| command_errors(text, at))
        .into_iter()
        .flatten();
    if let Some(first) = bad.next() {
        begin(games, g, v);
        v.error(first);
        bad.for_each(|e| v.error(e));
    }
    if g.begun {
        v.comment(text, at);
    } else {
        g.pending.push((Pending::Comment(text.to_string()), at));
    }
}

/// The offset of the `}` that closes a `{` comment whose text starts `bytes` (`None` when it
/// is not in `bytes`), whether the text up to it spans lines, and whether it is clean: every
/// `[%` in it starts a well-formed command (the rules of [`command_len`]). One pass for all
/// three, as exported games comment every move; a text that is not clean is checked again by
/// [`command_errors`], which says what is wrong and where.
fn scan_comment(bytes: &[u8]) -> Scan {
    let mut scan = Scan {
        end: None,
        clean: true,
        lines: false,
    };
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match COMMENT_STOPS[usize::from(b)] {
            CLOSE => {
                scan.end = Some(i);
                return scan;
            }
            OPEN if bytes.get(i + 1) == Some(&b'%') => {
                i += 2;
                // A name's characters are none of the stops, so it need only check that there
                // is one; the comment's text ends at its `}`: a command must close before it.
                let named = bytes
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
                loop {
                    match bytes.get(i).map(|&c| COMMENT_STOPS[usize::from(c)]) {
                        Some(OTHER) => i += 1,
                        Some(LINE) => {
                            scan.lines = true;
                            i += 1;
                        }
                        Some(END) if named => {
                            i += 1;
                            break;
                        }
                        // Left where it stopped: a `}` or `[` is read again above.
                        _ => {
                            scan.clean = false;
                            break;
                        }
                    }
                }
            }
            LINE => {
                scan.lines = true;
                i += 1;
            }
            _ => i += 1,
        }
    }
    scan
}

/// What [`scan_comment`] found.
struct Scan {
    /// The offset of the closing `}`.
    end: Option<usize>,
    /// Every command up to it is well formed.
    clean: bool,
    /// The text up to it holds a line break.
    lines: bool,
}

/// The bytes a comment scan stops at, by class (a table: one look per byte).
const COMMENT_STOPS: [u8; 256] = {
    let mut table = [OTHER; 256];
    table[b'}' as usize] = CLOSE;
    table[b'[' as usize] = OPEN;
    table[b']' as usize] = END;
    table[b'\n' as usize] = LINE;
    table
};
const OTHER: u8 = 0;
const CLOSE: u8 = 1;
const OPEN: u8 = 2;
const END: u8 = 3;
const LINE: u8 = 4;

/// The length of a well-formed command's name, arguments and `]` at the start of `bytes`
/// (what follows its `[%`): a name of letters, digits and `_`, then anything up to a `]` that
/// comes before any `[`.
fn command_len(bytes: &[u8]) -> Option<usize> {
    let named = bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    // The name's characters are neither, so the search may start with it.
    let close = bytes.iter().position(|&b| b == b']' || b == b'[')?;
    (named && bytes[close] == b']').then_some(close + 1)
}

/// The bytes that end a word of movetext: whitespace and the characters that start or end
/// another token.
const ENDS_WORD: [bool; 256] = {
    let mut table = [false; 256];
    let ends = b" \t\n\r\x0c{}()[];$\"";
    let mut i = 0;
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    table
};

fn error<V: Visitor>(v: &mut V, kind: SyntaxErrorKind, at: Location) {
    v.error(SyntaxError { kind, at });
}

/// `[Name "value"]` at the start of `text`: the name, the unescaped value and the length of the
/// tag pair in bytes; `None` when it is not one.
fn parse_tag(text: &str) -> Option<(&str, Cow<'_, str>, usize)> {
    let bytes = text.as_bytes();
    let skip_blanks = |mut i: usize| {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let name_start = skip_blanks(1);
    let name_len = bytes[name_start..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let name = &text[name_start..name_start + name_len];
    let quote = skip_blanks(name_start + name_len);
    if name.is_empty() || bytes.get(quote) != Some(&b'"') {
        return None;
    }
    let (value, after) = tag_value(&text[quote + 1..])?;
    let close = skip_blanks(quote + 1 + after);
    (bytes.get(close) == Some(&b']')).then_some((name, value, close + 1))
}

/// A quoted value up to its closing `"` (with `\"` and `\\` escapes): the value and the length
/// read, closing quote included.
fn tag_value(text: &str) -> Option<(Cow<'_, str>, usize)> {
    let end = text.find(['"', '\\'])?;
    if text.as_bytes()[end] == b'"' {
        return Some((Cow::Borrowed(&text[..end]), end + 1));
    }
    let mut value = String::with_capacity(text.len());
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((Cow::Owned(value), i + 1)),
            '\\' => match chars.clone().next() {
                Some((_, e @ ('"' | '\\'))) => {
                    chars.next();
                    value.push(e);
                }
                _ => value.push('\\'),
            },
            c => value.push(c),
        }
    }
    None
}

/// True for a termination marker.
pub(crate) fn is_result(r: &str) -> bool {
    matches!(r, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// `12.e4` → `e4`, `12...` → ``, `e4` → `e4`; `0-0`, `1-0` are left alone. Repeated
/// (`1.2.e4` → `e4`), so that a move read never looks like a move number with a move.
#[inline]
fn strip_move_number(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j == i || j == b.len() || b[j] != b'.' {
            // Cut after ASCII digits and dots: a character boundary.
            return &s[i..];
        }
        while j < b.len() && b[j] == b'.' {
            j += 1;
        }
        i = j;
    }
}

/// The NAG of a traditional move mark.
fn nag_of_marks(marks: &str) -> Option<u8> {
    Some(match marks {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// The commands embedded in a comment, `[%name args]`, as `(name, args)` with the arguments
/// trimmed (`[%clk 0:03:00]` is `("clk", "0:03:00")`); malformed ones are left out (the parser
/// reports them as [`SyntaxErrorKind::BadCommand`]).
///
/// ```
/// use ferrum::rules::comment_commands;
/// let found: Vec<_> = comment_commands(" [%clk 0:03:00] [%eval 0.17] good move").collect();
/// assert_eq!(found, [("clk", "0:03:00"), ("eval", "0.17")]);
/// ```
pub fn comment_commands(text: &str) -> impl Iterator<Item = (&str, &str)> {
    command_starts(text).filter_map(|i| {
        let (name, len) = command_at(text, i)?;
        Some((name, text[i + 2 + name.len()..i + len - 1].trim()))
    })
}

/// The byte offset of each `[%` in `text`. A plain byte loop: exported games comment every
/// move, and on such short texts it is quicker than a search that has to be set up each time.
fn command_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while let Some(pair) = bytes.get(i..i + 2) {
            i += 1;
            if pair == b"[%" {
                return Some(i - 1);
            }
        }
        None
    })
}

/// The well-formed command starting at byte `i` (`[%`): its name and its length up to and
/// including its `]`.
fn command_at(text: &str, i: usize) -> Option<(&str, usize)> {
    let rest = &text[i + 2..];
    let len = command_len(rest.as_bytes())?;
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    Some((&rest[..name_len], len + 2))
}

/// The malformed commands of the comment `text` that opened at `at`, located in the file.
fn command_errors(text: &str, at: Location) -> impl Iterator<Item = SyntaxError> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        let start = next_bad_command(bytes, &mut i)?;
        let snippet: String = text[start..]
            .chars()
            .take(16)
            .take_while(|&c| c != '\n')
            .collect();
        Some(SyntaxError {
            kind: SyntaxErrorKind::BadCommand(snippet),
            at: location_in(text, start, at),
        })
    })
}

/// The offset of the next malformed `[%` command from byte `*i` on; `*i` is left where the
/// scan stopped.
fn next_bad_command(bytes: &[u8], i: &mut usize) -> Option<usize> {
    while *i + 1 < bytes.len() {
        if bytes[*i] != b'[' || bytes[*i + 1] != b'%' {
            *i += 1;
            continue;
        }
        let start = *i;
        match command_len(&bytes[start + 2..]) {
            Some(len) => *i = start + 2 + len,
            None => {
                *i = start + 2;
                return Some(start);
            }
        }
    }
    None
}

/// Where byte `offset` of a comment's text is, the comment's `{` being at `open`.
fn location_in(text: &str, offset: usize, open: Location) -> Location {
    let before = &text[..offset];
    match before.rfind('\n') {
        None => Location {
            line: open.line,
            column: open.column + 1 + before.chars().count(),
        },
        Some(nl) => Location {
            line: open.line + before.matches('\n').count(),
            column: before[nl + 1..].chars().count() + 1,
        },
    }
}

#[cfg(test)]
mod tests;
