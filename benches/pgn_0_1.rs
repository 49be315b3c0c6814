//! The PGN reader of version 0.1.0, kept unchanged as the benchmark's reference: `pgn/import`
//! reads the same text with it and with the reader on the visitor, so the comparison is made
//! on the same machine in the same run. It skips comments, NAGs and variations (the current
//! reader keeps them). Not used elsewhere.

#![allow(dead_code)]

use ferrum::core::{FenError, STARTPOS};
use ferrum::rules::{Game, MoveError};

/// A game read: tags, the game, the termination marker.
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub game: Game,
    pub marker: Option<String>,
}

/// Why a game could not be read.
pub struct PgnError {
    pub game: usize,
    pub ply: Option<usize>,
    pub move_text: Option<String>,
    pub line: usize,
    pub kind: PgnErrorKind,
    pub partial: Option<Box<PgnGame>>,
}

pub enum PgnErrorKind {
    Move(MoveError),
    Fen(FenError),
    UnsupportedVariant(String),
    BadTag(String),
}

/// Every game of `text`, as version 0.1.0 read them.
pub fn read_pgn(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    PgnReader::new(text).collect()
}

fn is_result(r: &str) -> bool {
    matches!(r, "1-0" | "0-1" | "1/2-1/2" | "*")
}

pub struct PgnReader<'a> {
    lexer: Lexer<'a>,
    pending: Option<Token<'a>>,
    number: usize,
    /// The text ended in a game that had tags but no moves yet (more tags could follow).
    ended_in_tags: bool,
}

impl<'a> PgnReader<'a> {
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
