//! The UCI loop: reads commands, keeps the game state, writes replies.

use std::io::{BufRead, Write};

use crate::core::{divide, Position, Square};
use crate::rules::{answer, Game};

use super::book::BookOptions;
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
    /// The game `position` set up, with its moves: the rules apply them (one gate) and the
    /// pipe commands (`legalmoves`, `play`, `undo`, `outcome`) act on it.
    game: Game,
    /// The game's current position (what `go` and `d` use).
    position: Position,
    /// Keys of the positions before the current one since the last irreversible move; the
    /// search's repetition detection reads them.
    history: Vec<u64>,
    /// The square the last move's double pawn push skipped (the book's key needs it).
    ep_target: Option<Square>,
    chess960: bool,
    book: BookOptions,
}

impl<W: Write> Session<W> {
    /// A session at the start position, replying on `out`.
    pub fn new(out: W) -> Session<W> {
        Session {
            out,
            game: Game::new(),
            position: Position::startpos(),
            history: Vec::new(),
            ep_target: None,
            chess960: false,
            book: BookOptions::new(),
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
                for line in BookOptions::UCI_OPTIONS {
                    self.send(line);
                }
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
            // Answered only here, between searches: the pipe's lines never interleave with a
            // search's output.
            Command::Rules(rules) => {
                let line = answer(&mut self.game, &rules);
                self.sync_position();
                self.send(&line);
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
            let on = self.chess960 || self.game.is_chess960();
            self.game.set_chess960(on);
            self.sync_position();
        } else if BookOptions::handles(name) {
            if let Err(e) = self.book.set(name, value) {
                self.info_string(&e);
            }
        } else {
            self.info_string(&format!("unknown option '{name}'"));
        }
    }

    /// Sets up the position. A bad FEN leaves the previous position in place; an illegal move
    /// stops the move list there (the moves before it stay played), as GUIs expect. The moves
    /// are played through the rules' [`Game`], the one gate for legality.
    fn set_position(&mut self, start: StartPosition, moves: &[String]) {
        let parsed = match &start {
            StartPosition::StartPos => Ok(Game::new()),
            StartPosition::Fen(fen) if self.chess960 => Game::from_fen_960(fen),
            StartPosition::Fen(fen) => Game::from_fen(fen),
        };
        let mut game = match parsed {
            Ok(g) => g,
            Err(e) => return self.info_string(&format!("invalid FEN: {e}; position unchanged")),
        };
        if self.chess960 {
            game.set_chess960(true);
        }
        for text in moves {
            if let Err(e) = game.play(text) {
                self.info_string(&format!("{e}; moves after it ignored"));
                break;
            }
        }
        self.game = game;
        self.sync_position();
    }

    /// Copies the game's current position, and the keys of the positions before it since the
    /// last capture or pawn move (what the search's repetition detection reads).
    fn sync_position(&mut self) {
        self.position = self.game.position().clone();
        let keys: Vec<u64> = self.game.keys().collect();
        let before = keys.len() - 1;
        let reversible = (self.position.halfmove_clock() as usize).min(before);
        self.history = keys[before - reversible..before].to_vec();
        self.ep_target = self.game.en_passant_target();
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
        } else if let Some(m) = self.book_move(&go) {
            let text = m.to_uci(self.position.is_chess960());
            self.info_string(&format!("book move {text}"));
            self.send(&format!("bestmove {text}"));
        } else {
            self.info_string("search is not available yet");
        }
    }

    /// With `OwnBook` on, a book move for the current position (never while pondering or
    /// searching without limit, which must wait for `stop`), among `searchmoves` if given.
    fn book_move(&mut self, go: &GoParams) -> Option<crate::core::Move> {
        if go.ponder || go.infinite {
            return None;
        }
        let allowed: Vec<_> = go
            .searchmoves
            .iter()
            .filter_map(|t| self.position.parse_uci(t).ok())
            .collect();
        if !go.searchmoves.is_empty() && allowed.is_empty() {
            return None;
        }
        self.book.pick(&self.position, self.ep_target, &allowed)
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
    fn rules_commands_act_on_the_position_that_position_set() {
        let (out, pos) = run(&[
            "position startpos moves f2f3 e7e5",
            "legalmoves",
            "play g4",
            "play Qh4",
            "outcome",
            "play a3",
            "undo",
            "play Ke3",
            "go perft 1",
        ]);
        // 19 legal moves after 1. f3 e5.
        assert!(out[0].starts_with("legalmoves ") && out[0].split(' ').count() == 1 + 19);
        assert_eq!(out[1], "played g2g4 g4 ongoing");
        assert_eq!(out[2], "played d8h4 Qh4# checkmate");
        assert_eq!(out[3], "outcome checkmate winner black");
        assert_eq!(
            out[4],
            "illegal a3 the game is over (checkmate, black wins)"
        );
        assert_eq!(out[5], "undone d8h4");
        assert_eq!(out[6], "illegal Ke3 the black king on e8 cannot move to e3");
        // go perft sees the position after the pipe's moves: Black to move after 1. f3 e5 2. g4.
        assert_eq!(out.last().map(String::as_str), Some("Nodes searched: 30"));
        assert_eq!(pos.fullmove_number(), 2);
        // A new `position` replaces the game.
        let (out, _) = run(&["position startpos", "play e4", "position startpos", "undo"]);
        assert_eq!(
            out,
            [
                "played e2e4 e4 ongoing",
                "illegal undo no move has been played"
            ]
        );
    }

    #[test]
    fn position_keeps_the_keys_since_the_last_irreversible_move() {
        let mut out = Vec::new();
        let mut s = Session::new(&mut out);
        s.handle_line("position startpos moves g1f3 g8f6 e2e4 b8c6 f3g1 c6b8");
        assert_eq!(s.history.len(), 3); // the positions before ...Nc6, Ng1 and ...Nb8
        let mut replay = Position::startpos();
        let mut keys = Vec::new();
        for m in ["g1f3", "g8f6", "e2e4", "b8c6", "f3g1", "c6b8"] {
            keys.push(replay.key());
            let m = replay.parse_uci(m).unwrap();
            replay.make(m);
        }
        assert_eq!(s.history, keys[3..]);
        s.handle_line("play Nf3");
        assert_eq!(s.history.len(), 4);
        assert_eq!(s.history[3], replay.key());
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

    /// Writes a book holding only `uci` in `pos` to a temporary file named after `tag`.
    fn one_move_book(pos: &crate::book::BookPosition, uci: &str, tag: &str) -> std::path::PathBuf {
        let m = pos.position().parse_uci(uci).unwrap();
        let entry = crate::book::Entry {
            key: pos.key(),
            mv: crate::book::PolyglotMove::from_move(m),
            weight: 1,
            learn: 0,
        };
        let path = std::env::temp_dir().join(format!("ferrum-{tag}-{}.bin", std::process::id()));
        std::fs::write(&path, entry.to_bytes()).unwrap();
        path
    }

    fn bestmove(out: &[String]) -> Option<String> {
        out.iter()
            .find_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
    }

    #[test]
    fn own_book_plays_a_book_move_only_when_on() {
        let (out, _) = run(&["uci"]);
        assert!(out.contains(&"option name OwnBook type check default false".to_string()));
        assert!(out.contains(&"option name BookFile type string default <empty>".to_string()));

        let (out, _) = run(&["position startpos moves e2e4", "go movetime 10"]);
        assert_eq!(bestmove(&out), None, "OwnBook is off by default: {out:?}");

        let (out, _) = run(&[
            "setoption name OwnBook value true",
            "position startpos moves e2e4",
            "go wtime 1000 btime 1000",
        ]);
        let m = bestmove(&out).expect("a book move");
        assert!(
            out.contains(&format!("info string book move {m}")),
            "{out:?}"
        );
        let mut after = crate::book::BookPosition::startpos();
        after.play_uci("e2e4").unwrap();
        let book = crate::book::Book::embedded().probe(&after);
        assert!(book.iter().any(|b| b.mv.to_uci(false) == m && b.weight > 0));

        // Pondering and infinite analysis wait for stop; searchmoves restricts the choice.
        for go in ["go infinite", "go ponder wtime 1000 btime 1000"] {
            let (out, _) = run(&["setoption name OwnBook value true", go]);
            assert_eq!(bestmove(&out), None, "{go}");
        }
        let (out, _) = run(&["setoption name OwnBook value true", "go searchmoves d2d4"]);
        assert_eq!(bestmove(&out).as_deref(), Some("d2d4"));
        let (out, _) = run(&["setoption name OwnBook value true", "go searchmoves a2a3"]);
        assert_eq!(bestmove(&out), None, "a2a3 is not in the book");
        // Out of book: no book move.
        let (out, _) = run(&[
            "setoption name OwnBook value true",
            "position fen 8/8/8/8/8/8/6k1/4K2R w K - 0 1",
            "go depth 1",
        ]);
        assert_eq!(bestmove(&out), None);
    }

    #[test]
    fn book_file_is_loaded_or_refused_with_a_message() {
        let missing = std::env::temp_dir().join("ferrum-no-such-book.bin");
        let (out, _) = run(&[
            "setoption name OwnBook value true",
            &format!("setoption name BookFile value {}", missing.display()),
            "go movetime 10",
        ]);
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string BookFile: cannot read book file")),
            "{out:?}"
        );
        assert_eq!(bestmove(&out), None, "no book once the file failed");

        // A one-entry book of our own: 1.b3 only; and a truncated copy of it.
        let path = one_move_book(&crate::book::BookPosition::startpos(), "b2b3", "b3");
        let truncated = std::env::temp_dir().join(format!("ferrum-bad-{}.bin", std::process::id()));
        std::fs::write(&truncated, &std::fs::read(&path).unwrap()[..9]).unwrap();
        let (out, _) = run(&[
            &format!("setoption name BookFile value {}", path.display()),
            "setoption name OwnBook value true",
            "go movetime 10",
            &format!("setoption name BookFile value {}", truncated.display()),
            "go movetime 10",
            "setoption name BookFile value <empty>",
            "position startpos moves e2e4",
            "go movetime 10",
        ]);
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&truncated);
        let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 2, "{out:?}");
        assert_eq!(best[0], "bestmove b2b3");
        assert!(
            out.iter()
                .any(|l| l.contains("not a Polyglot book: 9 bytes")),
            "{out:?}"
        );
        assert_ne!(best[1], "bestmove b2b3", "back to the embedded book");
    }

    #[test]
    fn book_key_keeps_a_pseudo_legal_en_passant() {
        // After 1...d4 2.e4 with the d4 pawn pinned, Polyglot's key counts the e-file; a book
        // with a move under that key only is found.
        let mut pos =
            crate::book::BookPosition::from_fen("8/8/8/8/k2p3Q/8/4P3/4K3 w - - 0 1").unwrap();
        pos.play_uci("e2e4").unwrap();
        let path = one_move_book(&pos, "a4a5", "ep");
        let (out, _) = run(&[
            "setoption name OwnBook value true",
            &format!("setoption name BookFile value {}", path.display()),
            "position fen 8/8/8/8/k2p3Q/8/4P3/4K3 w - - 0 1 moves e2e4",
            "go movetime 10",
            "position fen 8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1",
            "go movetime 10",
        ]);
        let _ = std::fs::remove_file(&path);
        let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best, ["bestmove a4a5", "bestmove a4a5"], "{out:?}");
    }
}
