//! Reading games through the rules: a [`Visitor`] that plays every main-line move through
//! [`Game::play`] and keeps the notes, behind [`read_pgn`], [`PgnReader`] and [`PgnStream`].

use std::io::BufRead;

use super::notes::{Notes, Variation, VariationMove};
use super::visitor::{Location, PgnParser, SyntaxError, SyntaxErrorKind, Visitor};
use super::{PgnError, PgnErrorKind, PgnGame};
use crate::core::STARTPOS;
use crate::rules::Game;

/// Reads every game of a PGN text. Each game is `Ok` when all its moves were legal and its
/// text well formed, or a [`PgnError`] naming the game and the ply and move (or the line and
/// column of the malformed text); the other games are read regardless.
///
/// Accepts several games in one text, `{comments}` and `;` comments, NAGs (`$1`) and `!`/`?`
/// marks, `(variations)` (nested or not; their moves are kept as written, not played), `%`
/// escape lines, move numbers written `12.`, `12...` or glued to the move (`12.e4`), and the
/// tolerant move forms of [`Game::parse_move`].
///
/// ```
/// use ferrum::rules::read_pgn;
/// let text = "% exported by a tool\n[Event \"?\"]\n\n1. e4 {best by test} e5 $1 (1... c5 2. Nf3) 2. Nf3 1-0\n";
/// let games = read_pgn(text);
/// let game = games[0].as_ref().unwrap();
/// assert_eq!(game.game.san_history(), ["e4", "e5", "Nf3"]);
/// assert_eq!(game.marker.as_deref(), Some("1-0"));
/// assert_eq!(game.notes[1].comments, ["best by test"]);
/// assert_eq!(game.notes[2].variations[0].moves.len(), 2);
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
    stream: PgnStream<&'a [u8]>,
}

impl<'a> PgnReader<'a> {
    /// A reader over `text`.
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader {
            stream: PgnStream::new(text.as_bytes()),
        }
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.stream.next()
    }
}

/// The games of a PGN file read from any [`BufRead`], one game in memory at a time: the same
/// games, errors, game numbers and line numbers as [`PgnReader`] over the whole text, for files
/// of any size. Bytes that are not UTF-8 (old Latin-1 files) are read lossily. An error reading
/// the input ends the stream with a [`PgnErrorKind::Io`] error.
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
    parser: PgnParser<R>,
    reader: GameReader,
    done: bool,
}

impl<R: BufRead> PgnStream<R> {
    /// A stream over `input`.
    pub fn new(input: R) -> PgnStream<R> {
        PgnStream {
            parser: PgnParser::new(input),
            reader: GameReader {
                keep_notes: true,
                ..GameReader::default()
            },
            done: false,
        }
    }

    /// The same games without their notes ([`PgnGame::notes`] stays empty): the verdicts and
    /// errors are the same, and a file whose every move carries a comment reads about 1.9x as
    /// fast (the rules bench). The referee and the book builder read this way.
    ///
    /// ```
    /// use ferrum::rules::PgnStream;
    /// let text = "1. e4 {[%clk 0:03:00]} e5 (1... c5) *\n";
    /// let game = PgnStream::new(text.as_bytes()).without_notes().next().unwrap().unwrap();
    /// assert_eq!((game.game.ply(), game.notes.len()), (2, 0));
    /// ```
    pub fn without_notes(mut self) -> PgnStream<R> {
        self.reader.keep_notes = false;
        self
    }
}

impl<R: BufRead> Iterator for PgnStream<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.parser.read_game(&mut self.reader) {
            Ok(Some(read)) => Some(read),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(PgnError {
                    game: self.parser.games() + 1,
                    ply: None,
                    move_text: None,
                    line: self.reader.last_line,
                    kind: PgnErrorKind::Io(e.to_string()),
                    partial: None,
                }))
            }
        }
    }
}

/// The rules' visitor: plays the main line through [`Game`] (set up from the `FEN`, `SetUp`
/// and `Variant` tags at the first move), keeps tags, notes and variations, and keeps the first
/// error of the game.
#[derive(Default)]
struct GameReader {
    /// Whether comments, NAGs and variations are kept.
    keep_notes: bool,
    number: usize,
    tags: Vec<(String, String)>,
    game: Option<Game>,
    error: Option<PgnError>,
    marker: Option<String>,
    notes: Vec<Notes>,
    /// The variations being read, innermost last.
    open: Vec<Variation>,
    /// The line of the game's last token: where a problem found at its end is reported.
    last_line: usize,
}

impl GameReader {
    /// Notes that the game has reached `at` (errors found at its end are reported on its last
    /// line; an unclosed variation's error points back to its start, hence the maximum).
    fn seen(&mut self, at: Location) {
        self.last_line = self.last_line.max(at.line);
    }

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

    /// Where notes go now: after the last move of the innermost open variation (or before its
    /// first), else after the last main-line move; `None` once the main line has an error.
    fn notes(&mut self) -> Option<&mut Notes> {
        if !self.keep_notes {
            return None;
        }
        if let Some(variation) = self.open.last_mut() {
            return Some(match variation.moves.last_mut() {
                Some(m) => &mut m.notes,
                None => &mut variation.intro,
            });
        }
        if self.error.is_some() {
            return None;
        }
        let ply = self.game.as_ref().map_or(0, Game::ply);
        if self.notes.len() <= ply {
            self.notes.resize_with(ply + 1, Notes::default);
        }
        self.notes.get_mut(ply)
    }
}

impl Visitor for GameReader {
    type Output = Result<PgnGame, PgnError>;

    fn begin_game(&mut self, number: usize) {
        *self = GameReader {
            number,
            last_line: self.last_line,
            keep_notes: self.keep_notes,
            ..GameReader::default()
        };
    }

    fn tag(&mut self, name: &str, value: &str, at: Location) {
        self.seen(at);
        self.tags.push((name.to_string(), value.to_string()));
    }

    fn san(&mut self, text: &str, at: Location) {
        self.seen(at);
        if let Some(variation) = self.open.last_mut() {
            if self.keep_notes {
                variation.moves.push(VariationMove {
                    san: text.to_string(),
                    notes: Notes::default(),
                });
            }
            return;
        }
        if self.error.is_some() {
            return;
        }
        let Some(game) = self.game(at.line) else {
            return;
        };
        let ply = game.ply() + 1;
        if let Err(e) = game.play(text) {
            self.fail(Some(ply), Some(text), at.line, PgnErrorKind::Move(e));
        }
    }

    fn nag(&mut self, nag: u8, at: Location) {
        self.seen(at);
        if let Some(notes) = self.notes() {
            notes.nags.push(nag);
        }
    }

    fn comment(&mut self, text: &str, at: Location) {
        self.seen(at);
        if let Some(notes) = self.notes() {
            // Most points carry one comment: room for one rather than the four a first push
            // reserves shrinks what a game with a comment on every move holds. Only the first:
            // exact reservations after it would copy the list at every push.
            if notes.comments.is_empty() {
                notes.comments.reserve_exact(1);
            }
            notes.comments.push(text.to_string());
        }
    }

    fn begin_variation(&mut self, at: Location) {
        self.seen(at);
        self.open.push(Variation::default());
    }

    fn end_variation(&mut self, at: Location) {
        self.seen(at);
        let Some(done) = self.open.pop() else {
            return;
        };
        if let Some(notes) = self.notes() {
            notes.variations.push(done);
        }
    }

    fn result(&mut self, marker: &str, at: Location) {
        self.seen(at);
        self.marker = Some(marker.to_string());
    }

    fn error(&mut self, error: SyntaxError) {
        self.seen(error.at);
        let line = error.at.line;
        let kind = match error.kind {
            SyntaxErrorKind::BadTag(text) => PgnErrorKind::BadTag(text),
            _ => PgnErrorKind::Syntax(error),
        };
        self.fail(None, None, line, kind);
    }

    fn end_game(&mut self) -> Result<PgnGame, PgnError> {
        let line = self.last_line;
        self.game(line);
        let partial = self.game.take().map(|game| PgnGame {
            tags: std::mem::take(&mut self.tags),
            game,
            marker: self.marker.take(),
            notes: std::mem::take(&mut self.notes),
        });
        match (self.error.take(), partial) {
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
