//! The UCI command parser: one input line in, one [`Command`] out. Pure, so it is tested on its
//! own; the loop in [`super::session`] acts on the result.

use std::fmt;

use crate::rules::PipeCommand;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `position startpos`
    StartPos,
    /// `position fen <fen>`: the FEN fields joined by single spaces.
    Fen(String),
}

/// The limits and modes of a `go` command. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// White's remaining clock (may be zero or negative when a GUI is late).
    pub wtime: Option<i64>,
    /// Black's remaining clock.
    pub btime: Option<i64>,
    /// White's increment per move.
    pub winc: Option<i64>,
    /// Black's increment per move.
    pub binc: Option<i64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search this many plies.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<i64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search in ponder mode until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (UCI text, checked against the position later).
    pub searchmoves: Vec<String>,
    /// `go perft N`: count the move tree instead of searching.
    pub perft: Option<u32>,
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
        /// The option's name as written.
        name: String,
        /// The value, if any (buttons have none).
        value: Option<String>,
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
    /// the game that `position` set up (see [`crate::rules::pipe`]).
    Rules(PipeCommand),
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
/// assert!(matches!(go, Command::Go(GoParams { wtime: Some(1000), movestogo: Some(2), .. })));
/// assert!(parse("fly away").is_err());
/// ```
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(Command::Empty);
    };
    match head {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest).map(Command::Go),
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
        other => Err(ParseError::Unknown(other.to_string())),
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

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    if rest.first() != Some(&"name") {
        return Err(invalid(
            "setoption",
            "expected 'setoption name <name> [value <value>]'",
        ));
    }
    let body = &rest[1..];
    let value_at = body.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(i) => (body[..i].join(" "), Some(body[i + 1..].join(" "))),
        None => (body.join(" "), None),
    };
    if name.is_empty() {
        return Err(invalid("setoption", "the option name is missing"));
    }
    Ok(Command::SetOption { name, value })
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

fn parse_go(rest: &[&str]) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let arg = rest.get(i + 1).copied();
        let need = |what: &str| arg.ok_or_else(|| invalid("go", format!("{what} needs a value")));
        let mut consumed = 2;
        match key {
            "wtime" => go.wtime = Some(number(need(key)?, "go", key)?),
            "btime" => go.btime = Some(number(need(key)?, "go", key)?),
            "winc" => go.winc = Some(number(need(key)?, "go", key)?),
            "binc" => go.binc = Some(number(need(key)?, "go", key)?),
            "movestogo" => go.movestogo = Some(number(need(key)?, "go", key)?),
            "depth" => go.depth = Some(number(need(key)?, "go", key)?),
            "nodes" => go.nodes = Some(number(need(key)?, "go", key)?),
            "mate" => go.mate = Some(number(need(key)?, "go", key)?),
            "movetime" => go.movetime = Some(number(need(key)?, "go", key)?),
            "perft" => go.perft = Some(number(need(key)?, "go", key)?),
            "infinite" => {
                go.infinite = true;
                consumed = 1;
            }
            "ponder" => {
                go.ponder = true;
                consumed = 1;
            }
            "searchmoves" => {
                // Every following token that is not another keyword is a move.
                let moves: Vec<String> = rest[i + 1..]
                    .iter()
                    .take_while(|t| !GO_KEYWORDS.contains(t))
                    .map(|s| s.to_string())
                    .collect();
                consumed = 1 + moves.len();
                go.searchmoves = moves;
            }
            other => return Err(invalid("go", format!("unknown parameter '{other}'"))),
        }
        i += consumed;
    }
    Ok(go)
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
        assert_eq!(go.wtime, Some(-20));
        assert_eq!(go.btime, Some(0));
        assert_eq!(go.depth, Some(7));
        assert_eq!(go.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert_eq!(
            parse("go perft 5"),
            Ok(Command::Go(GoParams {
                perft: Some(5),
                ..GoParams::default()
            }))
        );
        assert!(matches!(
            parse("go infinite"),
            Ok(Command::Go(GoParams { infinite: true, .. }))
        ));
        assert!(parse("go depth").is_err());
        assert!(parse("go depth x").is_err());
        assert!(parse("go sideways 3").is_err());
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
        assert_eq!(
            parse("xyzzy").unwrap_err().to_string(),
            "unknown command 'xyzzy'"
        );
    }
}
