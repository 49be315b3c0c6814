//! Serde support (feature `serde`): every type is written as the text chess already has for it,
//! so the JSON (or any other format) is readable and other chess software understands it.
//!
//! | type | form | example |
//! |---|---|---|
//! | [`Square`] | its name | `"e4"` |
//! | [`Color`] | lower case | `"white"` |
//! | [`Move`] | UCI, castling as king takes rook | `"e2e4"`, `"e1h1"`, `"e7e8q"` |
//! | [`Position`] | FEN (Shredder-FEN for Chess960) | `"rnbqkbnr/… w KQkq - 0 1"` |
//! | [`Outcome`] | tagged by [`Outcome::name`] | `{"outcome":"checkmate","winner":"black"}` |
//! | [`DrawClaim`] | [`DrawClaim::name`] | `"fifty_moves"` |
//! | [`Game`] | start position, moves, the players' decision | see below |
//! | [`SharedGame`] | the [`Game`] it holds, read under its lock | as [`Game`] |
//!
//! A [`Move`] is only serialized: UCI text cannot say whether `e1h1` is castling or a rook
//! move, nor whether `e5d6` takes en passant, and a move with the wrong kind would corrupt the
//! position it is made in. [`MoveSeed`] reads one back against the position it is played in,
//! where the text is exact (and the move is checked to be legal).
//!
//! A [`Game`] is `{"start": FEN, "chess960": bool, "moves": [UCI…], "decision": Outcome}`, the
//! decision (a resignation, an agreement or a claimed draw) only when there is one. Reading it
//! replays the moves through the rules, so a game read back is legal and has the same outcome,
//! repetitions and clocks; the moves taken back with [`Game::undo`] (the redo list) are not kept.
//!
//! ```
//! use ferrum::rules::Game;
//! let mut game = Game::new();
//! for m in ["f3", "e5", "g4", "Qh4#"] {
//!     game.play(m).unwrap();
//! }
//! let json = serde_json::to_string(&game).unwrap();
//! assert_eq!(
//!     json,
//!     r#"{"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","chess960":false,"moves":["f2f3","e7e5","g2g4","d8h4"]}"#
//! );
//! let back: Game = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.outcome(), game.outcome());
//! ```

use std::fmt;
use std::str::FromStr;

use serde::de::{DeserializeSeed, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::core::{Move, Position, Square};
use crate::rules::{DrawClaim, Game, Outcome, SharedGame};

/// Reads a value from its text form with `parse`, turning a refusal into the format's error.
fn from_text<'de, D, T, E>(d: D, parse: impl FnOnce(&str) -> Result<T, E>) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    E: fmt::Display,
{
    let text = String::deserialize(d)?;
    parse(&text).map_err(D::Error::custom)
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        from_text(d, Square::from_str)
    }
}

impl Serialize for Move {
    /// UCI text with castling as king takes rook (the [`Display`](fmt::Display) form): the
    /// same text in standard chess and Chess960, and exact in both.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Reads a [`Move`] written in UCI against the position it is played in: the move must be
/// legal there. Castling may be written either way (`e1g1` or `e1h1`).
///
/// ```
/// use ferrum::core::{MoveSeed, Position};
/// use serde::de::DeserializeSeed;
/// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
/// let castle = pos.parse_uci("e1g1").unwrap();
/// let json = serde_json::to_string(&castle).unwrap();
/// assert_eq!(json, "\"e1h1\"");
/// let mut de = serde_json::Deserializer::from_str(&json);
/// assert_eq!(MoveSeed(&pos).deserialize(&mut de).unwrap(), castle);
/// let mut de = serde_json::Deserializer::from_str("\"e1e3\"");
/// assert!(MoveSeed(&pos).deserialize(&mut de).is_err()); // not legal here
/// ```
#[derive(Copy, Clone, Debug)]
pub struct MoveSeed<'a>(pub &'a Position);

impl<'de> DeserializeSeed<'de> for MoveSeed<'_> {
    type Value = Move;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Move, D::Error> {
        from_text(d, |text| self.0.parse_uci(text))
    }
}

impl Serialize for Position {
    /// The FEN; a Chess960 position uses Shredder-FEN castling letters (`HAha`), which read
    /// back as Chess960. A Chess960 position without castling rights reads back as standard
    /// chess: the two play the same moves and have the same key and FEN.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_chess960() {
            s.serialize_str(&self.fen_shredder())
        } else {
            s.serialize_str(&self.fen())
        }
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        from_text(d, Position::from_fen)
    }
}

/// The stored form of a [`Game`] (see the module's documentation).
#[derive(Serialize, Deserialize)]
#[serde(rename = "Game", deny_unknown_fields)]
struct GameRecord {
    start: String,
    #[serde(default)]
    chess960: bool,
    moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    decision: Option<Outcome>,
}

impl GameRecord {
    fn of(game: &Game) -> GameRecord {
        let chess960 = game.is_chess960();
        let start = game.start_position();
        GameRecord {
            start: if chess960 {
                start.fen_shredder()
            } else {
                start.fen()
            },
            chess960,
            moves: game.history().iter().map(|m| m.to_uci(chess960)).collect(),
            decision: Some(game.outcome()).filter(|o| o.is_over() && !o.is_automatic()),
        }
    }

    /// The game replayed through the rules; the first move or decision they refuse is the
    /// error.
    fn replay(self) -> Result<Game, String> {
        let start = if self.chess960 {
            Game::from_fen_960(&self.start)
        } else {
            Game::from_fen(&self.start)
        };
        let mut game = start.map_err(|e| format!("start position: {e}"))?;
        for (i, text) in self.moves.iter().enumerate() {
            let refused = |e: &dyn fmt::Display| format!("move {} ({text}): {e}", i + 1);
            let m = game.position().parse_uci(text).map_err(|e| refused(&e))?;
            game.play_move(m).map_err(|e| refused(&e))?;
        }
        // The rules check the decision too: a draw claimed where none can be, or a decision
        // after checkmate, is refused.
        let decided = match self.decision {
            None => return Ok(game),
            Some(Outcome::Resignation { winner }) => game.resign(!winner),
            Some(Outcome::Agreement) => game.agree_draw(),
            Some(Outcome::ThreefoldRepetition) => game.claim(DrawClaim::ThreefoldRepetition),
            Some(Outcome::FiftyMoves) => game.claim(DrawClaim::FiftyMoves),
            Some(other) => {
                return Err(format!(
                    "decision: {} is not a player's decision",
                    other.name()
                ))
            }
        };
        decided.map_err(|e| format!("decision: {e}"))?;
        Ok(game)
    }
}

impl Serialize for Game {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        GameRecord::of(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        GameRecord::deserialize(d)?
            .replay()
            .map_err(D::Error::custom)
    }
}

impl Serialize for SharedGame {
    /// The game as it is at one moment: read under the lock, so no move lands half-way.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.read(GameRecord::of).serialize(s)
    }
}

impl<'de> Deserialize<'de> for SharedGame {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SharedGame, D::Error> {
        Game::deserialize(d).map(SharedGame::new)
    }
}

#[cfg(test)]
mod tests;
