//! Building a book from games: every position of a game's opening, with the move played and
//! what the game's result says about it.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use crate::core::{Color, Move, UciMoveError};

use super::entry::{Entry, PolyglotMove};
use super::key::BookPosition;
use super::writer::BookWriter;

/// How a game ended, as the PGN `Result` tag says.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown or unfinished.
    Unknown,
}

impl GameResult {
    /// The PGN text of this result.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The winner, if the game was won.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }

    /// Points for a move by `mover`: 2 when `mover` won, 0 when it lost, 1 for a draw or an
    /// unknown result (Polyglot's scoring, with `*` counted like a draw so that lines without a
    /// result, like those of a repertoire, weigh by how often they occur).
    pub fn points_for(self, mover: Color) -> u64 {
        match self.winner() {
            Some(winner) if winner == mover => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that is not a game result (see [`GameResult`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseResultError {
    /// The word found.
    pub found: String,
}

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a game result (1-0, 0-1, 1/2-1/2 or *)",
            self.found
        )
    }
}

impl std::error::Error for ParseResultError {}

impl FromStr for GameResult {
    type Err = ParseResultError;

    /// Parses `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unknown),
            other => Err(ParseResultError {
                found: other.to_string(),
            }),
        }
    }
}

/// What goes into a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Only the first `max_ply` moves (half-moves) of each game are used.
    pub max_ply: usize,
    /// A move enters the book only if it was played in at least this many games in its
    /// position.
    pub min_games: u32,
    /// When not empty, only moves of these colours in games they won are used (for example
    /// `[White]`: White's moves from White's wins).
    pub only_wins_of: Vec<Color>,
}

impl Default for BuildOptions {
    /// Every ply (up to 1024, Polyglot's default), every move, all games.
    fn default() -> Self {
        BuildOptions {
            max_ply: 1024,
            min_games: 1,
            only_wins_of: Vec::new(),
        }
    }
}

/// A game the builder refused: a move that is not legal where it was played. Nothing of the
/// game was added. (Not to be confused with [`rules::GameError`](crate::rules::GameError), a
/// game refusing an undo or a claim.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddGameError {
    /// The half-move (counting from 1) that failed.
    pub ply: usize,
    /// Why.
    pub error: UciMoveError,
}

impl fmt::Display for AddGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: {}", self.ply, self.error)
    }
}

impl std::error::Error for AddGameError {}

#[derive(Copy, Clone, Default, Debug)]
struct MoveStats {
    games: u32,
    points: u64,
}

/// Builds a Polyglot book from games: each game is a start position, its moves and its
/// result. A move's weight is the sum over the games that played it in that position of 2
/// for a win of the side that played it, 1 for a draw (or an unknown result) and 0 for a
/// loss; moves of weight 0 are left out. Transpositions merge, since entries are keyed by
/// position.
///
/// The PGN front end (through the rules API) feeds games here; so can anything that has moves.
///
/// ```
/// use ferrum::book::{Book, BookBuilder, BookPosition, BuildOptions, GameResult};
/// let mut builder = BookBuilder::new(BuildOptions::default());
/// let start = BookPosition::startpos();
/// builder.add_uci_game(&start, ["e2e4", "e7e5", "g1f3"], GameResult::WhiteWins).unwrap();
/// builder.add_uci_game(&start, ["e2e4", "c7c5"], GameResult::Draw).unwrap();
/// builder.add_uci_game(&start, ["d2d4", "d7d5"], GameResult::BlackWins).unwrap();
/// assert!(builder.add_uci_game(&start, ["e2e4", "e2e4"], GameResult::Draw).is_err());
/// let book = Book::from_bytes(builder.finish().to_bytes()).unwrap();
/// let root: Vec<_> = book.probe(&start).iter().map(|m| (m.mv.to_uci(false), m.weight)).collect();
/// assert_eq!(root, [("e2e4".to_string(), 3)]); // 2 (win) + 1 (draw); d2d4 lost: weight 0
/// ```
#[derive(Clone, Debug, Default)]
pub struct BookBuilder {
    options: BuildOptions,
    stats: HashMap<(u64, PolyglotMove), MoveStats>,
    games: u64,
}

impl BookBuilder {
    /// An empty builder.
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder {
            options,
            stats: HashMap::new(),
            games: 0,
        }
    }

    /// The options in use.
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Distinct position and move pairs seen so far (before filtering).
    pub fn positions(&self) -> usize {
        self.stats.len()
    }

    /// Adds a game from `start` with `moves`, or refuses it (adding nothing) if a move within
    /// the first `max_ply` is not legal.
    pub fn add_game(
        &mut self,
        start: &BookPosition,
        moves: impl IntoIterator<Item = Move>,
        result: GameResult,
    ) -> Result<(), AddGameError> {
        self.add_with(start, moves, result, |pos, m| pos.play(m).map(|()| m))
    }

    /// Adds a game whose moves are written in UCI notation (castling as `e1g1` or `e1h1`).
    pub fn add_uci_game<'a>(
        &mut self,
        start: &BookPosition,
        moves: impl IntoIterator<Item = &'a str>,
        result: GameResult,
    ) -> Result<(), AddGameError> {
        self.add_with(start, moves, result, |pos, text| pos.play_uci(text))
    }

    fn add_with<T>(
        &mut self,
        start: &BookPosition,
        moves: impl IntoIterator<Item = T>,
        result: GameResult,
        mut play: impl FnMut(&mut BookPosition, T) -> Result<Move, UciMoveError>,
    ) -> Result<(), AddGameError> {
        let mut pos = start.clone();
        let mut seen = Vec::new();
        for (i, m) in moves.into_iter().take(self.options.max_ply).enumerate() {
            let key = pos.key();
            let mover = pos.position().side_to_move();
            let m = play(&mut pos, m).map_err(|error| AddGameError { ply: i + 1, error })?;
            seen.push((key, PolyglotMove::from_move(m), mover));
        }
        self.games += 1;
        let only = &self.options.only_wins_of;
        let wanted = |mover: Color| {
            only.is_empty() || (only.contains(&mover) && result.winner() == Some(mover))
        };
        // A position and move repeated within one game counts once for that game.
        let mut counted = HashSet::with_capacity(seen.len());
        for (key, mv, mover) in seen {
            if wanted(mover) && counted.insert((key, mv)) {
                let stats = self.stats.entry((key, mv)).or_default();
                stats.games = stats.games.saturating_add(1);
                stats.points += result.points_for(mover);
            }
        }
        Ok(())
    }

    /// The book: moves played in at least `min_games` games, with weight above 0.
    pub fn finish(&self) -> BookWriter {
        let mut writer = BookWriter::new();
        for (&(key, mv), stats) in &self.stats {
            if stats.games >= self.options.min_games && stats.points > 0 {
                writer.add_weight(key, mv, stats.points, 0);
            }
        }
        writer
    }

    /// The book's entries in file order (see [`BookBuilder::finish`]).
    pub fn entries(&self) -> Vec<Entry> {
        self.finish().entries()
    }
}

/// Why one line of a UCI game list could not be used (see [`BookBuilder::add_uci_line`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciLineError {
    /// The first word is not a game result.
    Result(ParseResultError),
    /// A move of the game is not legal where it was played.
    Game(AddGameError),
}

impl fmt::Display for UciLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciLineError::Result(e) => e.fmt(f),
            UciLineError::Game(e) => e.fmt(f),
        }
    }
}

/// The cause's message is the whole message, so no `source` is chained.
impl std::error::Error for UciLineError {}

/// A line of a UCI game list that could not be used (see [`BookBuilder::add_uci_lines`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The line number, counting from 1.
    pub line: usize,
    /// What is wrong with it.
    pub error: UciLineError,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for LineError {}

impl BookBuilder {
    /// Adds the game on one line of a UCI game list: the result, then the moves in UCI
    /// notation from the start position (`1-0 e2e4 e7e5 g1f3`). Returns `Ok(false)` for a
    /// blank line or a `#` comment, `Ok(true)` when a game was added.
    pub fn add_uci_line(&mut self, line: &str) -> Result<bool, UciLineError> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(false);
        }
        let mut words = line.split_whitespace();
        let result: GameResult = words
            .next()
            .unwrap_or_default()
            .parse()
            .map_err(UciLineError::Result)?;
        self.add_uci_game(&BookPosition::startpos(), words, result)
            .map_err(UciLineError::Game)?;
        Ok(true)
    }

    /// Adds the games of a UCI game list (see [`BookBuilder::add_uci_line`]). Returns the
    /// number of games added; on the first bad line it stops with an error (games of earlier
    /// lines stay added).
    pub fn add_uci_lines(&mut self, text: &str) -> Result<u64, LineError> {
        let mut added = 0;
        for (i, line) in text.lines().enumerate() {
            let game = self
                .add_uci_line(line)
                .map_err(|error| LineError { line: i + 1, error })?;
            added += u64::from(game);
        }
        Ok(added)
    }
}

/// What [`BookBuilder::add_pgn`] did with a PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnAdded {
    /// Games added to the book.
    pub games: u64,
    /// One note per game left out, saying which and why.
    pub skipped: Vec<String>,
}

impl BookBuilder {
    /// Adds every standard-chess game of a PGN text, read through the rules API (so only legal
    /// games get in), with the weight its `Result` tag gives. A game that cannot be read, or a
    /// Chess960 game (Polyglot's keys know only standard castling), is left out with a note.
    ///
    /// ```
    /// use ferrum::book::{BookBuilder, BookPosition, BuildOptions};
    /// let mut b = BookBuilder::new(BuildOptions::default());
    /// let added = b.add_pgn("[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n\n1. e4 Ke7?? Kf8 *\n");
    /// assert_eq!((added.games, added.skipped.len()), (1, 1));
    /// // White won: its two moves enter the book; the loser's moves weigh 0 and stay out.
    /// assert_eq!(b.finish().entries().len(), 2);
    /// ```
    pub fn add_pgn(&mut self, text: &str) -> PgnAdded {
        self.add_pgn_stream(text.as_bytes())
    }

    /// [`BookBuilder::add_pgn`] for a PGN file of any size, read from `input` one game at a
    /// time (see [`PgnStream`](crate::rules::PgnStream)).
    ///
    /// ```
    /// use ferrum::book::{BookBuilder, BuildOptions};
    /// let mut b = BookBuilder::new(BuildOptions::default());
    /// let pgn = "[Result \"1/2-1/2\"]\n\n1. d4 {[%clk 0:03:00]} d5 (1... Nf6) 1/2-1/2\n";
    /// assert_eq!(b.add_pgn_stream(pgn.as_bytes()).games, 1);
    /// assert_eq!(b.finish().entries().len(), 2); // the variation is not a move played
    /// ```
    pub fn add_pgn_stream<R: std::io::BufRead>(&mut self, input: R) -> PgnAdded {
        let mut added = PgnAdded::default();
        let games = crate::rules::PgnStream::new(input).without_notes();
        for (i, read) in games.enumerate() {
            let pgn = match read {
                Ok(pgn) if pgn.game.is_chess960() => {
                    added
                        .skipped
                        .push(format!("game {}: a Chess960 game", i + 1));
                    continue;
                }
                Ok(pgn) => pgn,
                Err(e) => {
                    added.skipped.push(format!("game {}: {e}", i + 1));
                    continue;
                }
            };
            let start = match BookPosition::from_fen(&pgn.game.start_position().fen()) {
                Ok(start) => start,
                Err(e) => {
                    added.skipped.push(format!("game {}: {e}", i + 1));
                    continue;
                }
            };
            let result = pgn.result().parse().unwrap_or(GameResult::Unknown);
            match self.add_game(&start, pgn.game.history().iter().copied(), result) {
                Ok(()) => added.games += 1,
                Err(e) => added.skipped.push(format!("game {}: {e}", i + 1)),
            }
        }
        added
    }
}
