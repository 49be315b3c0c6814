//! The UCI loop: reads commands, keeps the game state, writes replies.

use std::io::{BufRead, Write};

use crate::core::{divide, Position};

use super::command::{parse, Command, GoParams, StartPosition};

/// Whether the loop goes on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The engine name and author sent in reply to `uci`.
pub const ENGINE_NAME: &str = concat!("Ferrum ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub const ENGINE_AUTHOR: &str = "the Ferrum developers";

/// One UCI conversation: the position the GUI set up, the options, and where replies go.
pub struct Session<W: Write> {
    out: W,
    position: Position,
    /// Keys of the positions before the current one since the last irreversible move; the
    /// search's repetition detection reads them.
    history: Vec<u64>,
    chess960: bool,
}

impl<W: Write> Session<W> {
    /// A session at the start position, replying on `out`.
    pub fn new(out: W) -> Session<W> {
        Session {
            out,
            position: Position::startpos(),
            history: Vec::new(),
            chess960: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Reads lines from `input` until `quit` or end of input.
    pub fn run<R: BufRead>(&mut self, input: R) {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if self.handle_line(&line) == Flow::Quit {
                break;
            }
        }
    }

    /// Parses and carries out one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match parse(line) {
            Ok(cmd) => self.handle(cmd),
            Err(e) => {
                self.info_string(&e.to_string());
                Flow::Continue
            }
        }
    }

    /// Carries out one command.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Empty | Command::Debug(_) | Command::Register => {}
            Command::Uci => {
                self.send(&format!("id name {ENGINE_NAME}"));
                self.send(&format!("id author {ENGINE_AUTHOR}"));
                self.send("option name UCI_Chess960 type check default false");
                self.send("uciok");
            }
            Command::IsReady => self.send("readyok"),
            Command::UciNewGame => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go(go) => self.go(go),
            Command::Stop | Command::PonderHit => {}
            Command::Quit => return Flow::Quit,
            Command::Display => {
                let text = self.position.to_string();
                for line in text.lines() {
                    self.send(line);
                }
            }
            Command::Eval | Command::Bench { .. } => {
                self.info_string("this command is not available yet");
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => self.chess960 = true,
                Some("false") => self.chess960 = false,
                _ => return self.info_string("UCI_Chess960 takes true or false"),
            }
            self.position
                .set_chess960(self.chess960 || self.position.is_chess960());
        } else {
            self.info_string(&format!("unknown option '{name}'"));
        }
    }

    /// Sets up the position. A bad FEN leaves the previous position in place; an illegal move
    /// stops the move list there (the moves before it stay played), as GUIs expect.
    fn set_position(&mut self, start: StartPosition, moves: &[String]) {
        let parsed = match &start {
            StartPosition::StartPos => Ok(Position::startpos()),
            StartPosition::Fen(fen) if self.chess960 => Position::from_fen_960(fen),
            StartPosition::Fen(fen) => Position::from_fen(fen),
        };
        let mut pos = match parsed {
            Ok(p) => p,
            Err(e) => return self.info_string(&format!("invalid FEN: {e}; position unchanged")),
        };
        if self.chess960 {
            pos.set_chess960(true);
        }
        let mut history = Vec::new();
        for text in moves {
            match pos.parse_uci(text) {
                Ok(m) => {
                    if pos.captured_piece(m).is_some()
                        || pos
                            .moved_piece(m)
                            .is_some_and(|p| p.kind == crate::core::PieceKind::Pawn)
                    {
                        history.clear();
                    } else {
                        history.push(pos.key());
                    }
                    pos.make(m);
                }
                Err(e) => {
                    self.info_string(&format!("{e}; moves after it ignored"));
                    break;
                }
            }
        }
        self.position = pos;
        self.history = history;
    }

    fn go(&mut self, go: GoParams) {
        if let Some(depth) = go.perft {
            let split = divide(&self.position, depth, 1);
            let chess960 = self.position.is_chess960();
            let mut total = 0;
            for (m, n) in &split {
                total += n;
                self.send(&format!("{}: {n}", m.to_uci(chess960)));
            }
            if depth == 0 {
                total = 1;
            }
            self.send("");
            self.send(&format!("Nodes searched: {total}"));
        } else {
            self.info_string("search is not available yet");
        }
    }

    fn info_string(&mut self, text: &str) {
        self.send(&format!("info string {text}"));
    }

    fn send(&mut self, line: &str) {
        // A closed output means the GUI has gone; there is nobody left to tell.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lines: &[&str]) -> (Vec<String>, Position) {
        let mut out = Vec::new();
        let mut s = Session::new(&mut out);
        for l in lines {
            s.handle_line(l);
        }
        let pos = s.position().clone();
        drop(s);
        (
            String::from_utf8_lossy(&out)
                .lines()
                .map(str::to_string)
                .collect(),
            pos,
        )
    }

    #[test]
    fn uci_handshake() {
        let (out, _) = run(&["uci", "isready"]);
        assert!(out[0].starts_with("id name Ferrum"));
        assert!(out.contains(&"uciok".to_string()));
        assert_eq!(out.last().map(String::as_str), Some("readyok"));
    }

    #[test]
    fn go_perft_prints_divide_and_total() {
        let (out, _) = run(&["position startpos moves e2e4", "go perft 2"]);
        assert_eq!(out.len(), 20 + 2);
        assert!(
            out.contains(&"e7e5: 31".to_string()) || out.iter().any(|l| l.starts_with("e7e5: "))
        );
        assert_eq!(out.last().map(String::as_str), Some("Nodes searched: 600"));
        let sum: u64 = out[..20]
            .iter()
            .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, 600);
    }

    #[test]
    fn bad_input_keeps_a_valid_state() {
        let (out, pos) = run(&[
            "position startpos moves e2e4",
            "position fen 8/8/8/8 w - - 0 1",
            "flap",
        ]);
        assert_eq!(pos, {
            let mut p = Position::startpos();
            let m = p.parse_uci("e2e4").unwrap();
            p.make(m);
            p
        });
        assert!(out.iter().all(|l| l.starts_with("info string")));
        assert_eq!(out.len(), 2);
        let (out, pos) = run(&["position startpos moves e2e4 e7e5 e1e3 g1f3"]);
        assert_eq!(pos.fullmove_number(), 2);
        assert!(out[0].contains("e1e3"));
    }

    #[test]
    fn chess960_castling_text() {
        let fen = "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1";
        let (out, _) = run(&[
            "setoption name UCI_Chess960 value true",
            &format!("position fen {fen}"),
            "go perft 1",
        ]);
        assert!(out.iter().any(|l| l == "b1a1: 1"), "{out:?}");
        let (out, _) = run(&[
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "go perft 1",
        ]);
        assert!(
            out.iter().any(|l| l == "e1g1: 1") && out.iter().any(|l| l == "e1c1: 1"),
            "{out:?}"
        );
    }
}
