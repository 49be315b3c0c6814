//! The rules API as one-line commands and answers, for programs that referee games through
//! Ferrum's stdin/stdout beside UCI: `legalmoves`, `play <move>`, `undo`, `outcome`.
//!
//! The UCI loop reads a line, [`PipeCommand::parse`] recognises it, [`answer`] applies it to
//! the loop's game and returns the one line to print.
//!
//! ```
//! use ferrum::rules::{answer, Game, PipeCommand};
//! let mut game = Game::new();
//! let mut ask = |line: &str| answer(&mut game, &PipeCommand::parse(line).unwrap());
//! assert_eq!(ask("play e4"), "played e2e4 e4 ongoing");
//! assert_eq!(ask("play e2e4"), "illegal e2e4 there is no piece on e2");
//! assert_eq!(ask("undo"), "undone e2e4");
//! assert_eq!(ask("undo"), "illegal undo no move has been played");
//! assert_eq!(ask("outcome"), "outcome ongoing");
//! ```

use super::game::Game;

/// A rules command of the pipe protocol.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PipeCommand {
    /// `legalmoves`: answered `legalmoves <uci> <uci> …` (just `legalmoves` when there are
    /// none).
    LegalMoves,
    /// `play <move>` (UCI or SAN): answered `played <uci> <san> <outcome>`, or
    /// `illegal <text> <reason>` with the game unchanged.
    Play(String),
    /// `undo`: answered `undone <uci>` or `illegal undo <reason>`.
    Undo,
    /// `outcome`: answered `outcome <outcome> [winner <white|black>] [claimable <rule>…]`.
    Outcome,
}

impl PipeCommand {
    /// The command's word, as typed: `legalmoves`, `play`, `undo` or `outcome`.
    pub fn name(&self) -> &'static str {
        match self {
            PipeCommand::LegalMoves => "legalmoves",
            PipeCommand::Play(_) => "play",
            PipeCommand::Undo => "undo",
            PipeCommand::Outcome => "outcome",
        }
    }
}

impl PipeCommand {
    /// The rules command on `line`, or `None` when the line is not one (it may be UCI).
    ///
    /// ```
    /// use ferrum::rules::PipeCommand;
    /// assert_eq!(PipeCommand::parse("  play   Nf3 "), Some(PipeCommand::Play("Nf3".into())));
    /// assert_eq!(PipeCommand::parse("legalmoves"), Some(PipeCommand::LegalMoves));
    /// assert_eq!(PipeCommand::parse("go depth 3"), None);
    /// ```
    pub fn parse(line: &str) -> Option<PipeCommand> {
        let mut words = line.split_whitespace();
        let command = match words.next()? {
            "legalmoves" => PipeCommand::LegalMoves,
            "play" => PipeCommand::Play(words.by_ref().collect::<Vec<_>>().join(" ")),
            "undo" => PipeCommand::Undo,
            "outcome" => PipeCommand::Outcome,
            _ => return None,
        };
        Some(command)
    }
}

/// Applies `command` to `game` and returns the answer line (without a newline). Castling is
/// written king-takes-rook (`e1h1`) in a Chess960 game and as the king's move (`e1g1`)
/// otherwise.
///
/// ```
/// use ferrum::rules::{answer, Game, PipeCommand};
/// let mut game = Game::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
/// assert_eq!(answer(&mut game, &PipeCommand::Play("Ra8".into())), "played a1a8 Ra8# checkmate");
/// assert_eq!(answer(&mut game, &PipeCommand::Outcome), "outcome checkmate winner white");
/// assert_eq!(answer(&mut game, &PipeCommand::LegalMoves), "legalmoves");
/// ```
pub fn answer(game: &mut Game, command: &PipeCommand) -> String {
    let chess960 = game.is_chess960();
    match command {
        PipeCommand::LegalMoves => {
            let mut line = String::from("legalmoves");
            for m in game.legal_moves().iter() {
                line.push(' ');
                line.push_str(&m.to_uci(chess960));
            }
            line
        }
        PipeCommand::Play(text) => {
            if text.trim().is_empty() {
                return "illegal (none) no move was given: write play e2e4 or play Nf3".into();
            }
            let played = game
                .parse_move(text)
                .and_then(|m| Ok((m, game.play_move_san(m)?)));
            match played {
                Ok((m, san)) => format!(
                    "played {} {san} {}",
                    m.to_uci(chess960),
                    game.outcome().name()
                ),
                Err(e) => format!("illegal {} {}", e.text(), e.reason()),
            }
        }
        PipeCommand::Undo => match game.undo() {
            Ok(m) => format!("undone {}", m.to_uci(chess960)),
            Err(e) => format!("illegal undo {e}"),
        },
        PipeCommand::Outcome => outcome_line(game),
    }
}

/// `outcome <outcome> [winner <white|black>] [claimable <rule>…]` for `game`.
fn outcome_line(game: &Game) -> String {
    let outcome = game.outcome();
    let mut line = format!("outcome {}", outcome.name());
    if let Some(w) = outcome.winner() {
        line.push_str(" winner ");
        line.push_str(w.name());
    }
    let claims = game.claimable_draws();
    if !claims.is_empty() {
        line.push_str(" claimable");
        for c in claims {
            line.push(' ');
            line.push_str(c.name());
        }
    }
    line
}
