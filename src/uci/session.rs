//! The UCI loop: reads commands, keeps the game state, writes replies.
//!
//! The thread that calls [`Session::run`] only reads and answers; searches run on the
//! [`Engine`]'s own thread, so `isready`, `stop`, `ponderhit` and `quit` are answered at once
//! whatever the search is doing. Both threads write through one locked output.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use crate::core::{divide, Move, Position};
use crate::eval::Evaluator;
use crate::search::{bench, Engine, Job, Limits, BENCH_DEPTH};

use super::command::{parse, Command, GoParams, StartPosition};
use super::options::{declarations, parse_setoption, Change, Options};
use super::report::{write_lines, UciReporter};

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

/// One UCI conversation: the position the GUI set up, the options, the engine, and where
/// replies go.
pub struct Session<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    position: Position,
    /// Keys of the positions before the current one since the last irreversible move; the
    /// search's repetition detection reads them.
    history: Vec<u64>,
    options: Options,
    engine: Engine,
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session at the start position, replying on `out`. Nothing is printed and no hash
    /// table is allocated until the GUI asks.
    pub fn new(out: W) -> Session<W> {
        let options = Options::default();
        Session {
            out: Arc::new(Mutex::new(out)),
            position: Position::startpos(),
            history: Vec::new(),
            engine: Engine::new(options.hash_mb, options.threads),
            options,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The current option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Blocks until a running search has finished and written its `bestmove`.
    pub fn wait_for_search(&mut self) {
        self.engine.wait();
    }

    /// Reads lines from `input` until `quit` or end of input; a running search is then
    /// stopped (and still answers).
    pub fn run<R: BufRead>(&mut self, input: R) {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if self.handle_line(&line) == Flow::Quit {
                break;
            }
        }
        self.engine.stop();
        self.engine.wait();
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
                let mut lines = vec![
                    format!("id name {ENGINE_NAME}"),
                    format!("id author {ENGINE_AUTHOR}"),
                ];
                lines.extend(declarations());
                lines.push("uciok".to_string());
                write_lines(&self.out, &lines);
            }
            Command::IsReady => {
                // The GUI has set its options by now: a good moment to allocate the table, but
                // never while a search runs (readyok must come at once then).
                if !self.engine.searching() {
                    if let Err(e) = self.engine.ensure_hash() {
                        self.info_string(&e);
                    }
                }
                self.send("readyok");
            }
            Command::UciNewGame => {
                if self.idle("ucinewgame") {
                    self.engine.clear_hash();
                }
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go(go) => self.go(go),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                self.engine.stop();
                self.engine.wait();
                return Flow::Quit;
            }
            Command::Display => {
                let text = self.position.to_string();
                let lines: Vec<String> = text.lines().map(str::to_string).collect();
                write_lines(&self.out, &lines);
            }
            Command::Eval => {
                let trace = Evaluator::new().trace(&self.position);
                let lines: Vec<String> = trace.to_string().lines().map(str::to_string).collect();
                write_lines(&self.out, &lines);
            }
            Command::Bench { depth } => {
                if self.idle("bench") {
                    let r = bench(depth.unwrap_or(BENCH_DEPTH));
                    self.send(&format!("{} nodes {} nps", r.nodes, r.nps()));
                }
            }
        }
        Flow::Continue
    }

    /// True when no search is running. A search that was told to stop is waited for (it ends
    /// within milliseconds); one still running makes `what` refused with an `info string`.
    fn idle(&mut self, what: &str) -> bool {
        if self.engine.searching() && !self.engine.stopping() {
            self.info_string(&format!(
                "{what} ignored: a search is running (send stop first)"
            ));
            return false;
        }
        self.engine.wait();
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match parse_setoption(name, value) {
            Ok(c) => c,
            Err(e) => return self.info_string(&e),
        };
        let needs_idle = matches!(
            change,
            Change::Hash(_) | Change::Threads(_) | Change::ClearHash
        );
        if needs_idle && !self.idle(&format!("setoption {name}")) {
            return;
        }
        match change {
            Change::Hash(mb) => match self.engine.set_hash(mb) {
                Ok(()) => self.options.hash_mb = mb,
                Err(e) => {
                    self.info_string(&format!("{e}; keeping {} MB", self.options.hash_mb));
                    if let Err(e) = self.engine.set_hash(self.options.hash_mb) {
                        self.info_string(&e);
                    }
                }
            },
            Change::Threads(n) => {
                self.options.threads = n;
                self.engine.set_threads(n);
            }
            Change::MultiPv(n) => self.options.multipv = n,
            Change::Ponder(on) => self.options.ponder = on,
            Change::MoveOverhead(ms) => self.options.move_overhead = ms,
            Change::ClearHash => self.engine.clear_hash(),
            Change::Chess960(on) => {
                self.options.chess960 = on;
                self.position
                    .set_chess960(on || self.position.is_chess960());
            }
        }
    }

    /// Sets up the position. A bad FEN leaves the previous position in place; an illegal move
    /// stops the move list there (the moves before it stay played), as GUIs expect.
    fn set_position(&mut self, start: StartPosition, moves: &[String]) {
        let chess960 = self.options.chess960;
        let parsed = match &start {
            StartPosition::StartPos => Ok(Position::startpos()),
            StartPosition::Fen(fen) if chess960 => Position::from_fen_960(fen),
            StartPosition::Fen(fen) => Position::from_fen(fen),
        };
        let mut pos = match parsed {
            Ok(p) => p,
            Err(e) => return self.info_string(&format!("invalid FEN: {e}; position unchanged")),
        };
        if chess960 {
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
            if !self.idle("go perft") {
                return;
            }
            let split = divide(&self.position, depth, 1);
            let chess960 = self.position.is_chess960();
            let mut lines = Vec::with_capacity(split.len() + 2);
            let mut total = 0;
            for (m, n) in &split {
                total += n;
                lines.push(format!("{}: {n}", m.to_uci(chess960)));
            }
            if depth == 0 {
                total = 1;
            }
            lines.push(String::new());
            lines.push(format!("Nodes searched: {total}"));
            write_lines(&self.out, &lines);
            return;
        }
        let mut searchmoves: Vec<Move> = Vec::new();
        for text in &go.searchmoves {
            match self.position.parse_uci(text) {
                Ok(m) => searchmoves.push(m),
                Err(e) => self.info_string(&format!("searchmoves: {e}; ignored")),
            }
        }
        let limits = Limits {
            wtime: go.wtime,
            btime: go.btime,
            winc: go.winc,
            binc: go.binc,
            movestogo: go.movestogo,
            movetime: go.movetime,
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
        };
        let job = Job {
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
        };
        let reporter = Arc::new(UciReporter::new(
            Arc::clone(&self.out),
            self.position.is_chess960(),
        ));
        if let Err(e) = self.engine.go(job, reporter) {
            self.info_string(&e);
        }
    }

    fn info_string(&mut self, text: &str) {
        self.send(&format!("info string {text}"));
    }

    fn send(&mut self, line: &str) {
        write_lines(&self.out, &[line.to_string()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output both the session and the test can see.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            match self.0.lock() {
                Ok(mut v) => v.write(buf),
                Err(_) => Ok(buf.len()),
            }
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn lines(&self) -> Vec<String> {
            let bytes = self.0.lock().map(|v| v.clone()).unwrap_or_default();
            String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::to_string)
                .collect()
        }
    }

    /// Feeds `lines`, waits for any search to finish, and returns the output and position.
    fn run(lines: &[&str]) -> (Vec<String>, Position) {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        for l in lines {
            s.handle_line(l);
        }
        s.wait_for_search();
        let pos = s.position().clone();
        drop(s);
        (out.lines(), pos)
    }

    fn bestmove(out: &[String]) -> Option<String> {
        out.iter()
            .find_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
    }

    #[test]
    fn go_depth_answers_with_info_and_a_legal_bestmove() {
        let (out, pos) = run(&["position startpos moves e2e4", "go depth 4"]);
        let best = bestmove(&out).expect("bestmove");
        let first = best.split_whitespace().next().unwrap_or("");
        assert!(pos.parse_uci(first).is_ok(), "{best}");
        assert!(out
            .iter()
            .any(|l| l.starts_with("info depth 4 ") && l.contains(" pv ")));
        assert!(!out.iter().any(|l| l.starts_with("info depth 5 ")));
    }

    #[test]
    fn no_legal_move_gives_bestmove_0000() {
        let (out, _) = run(&["position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3"]);
        assert_eq!(bestmove(&out).as_deref(), Some("0000"));
        assert!(out.contains(&"info depth 0 score mate 0".to_string()));
    }

    #[test]
    fn infinite_search_answers_isready_and_waits_for_stop() {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        s.handle_line("position startpos");
        s.handle_line("go infinite");
        s.handle_line("isready");
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(out.lines().contains(&"readyok".to_string()));
        assert_eq!(bestmove(&out.lines()), None, "bestmove before stop");
        s.handle_line("stop");
        s.wait_for_search();
        assert!(bestmove(&out.lines()).is_some());
    }

    #[test]
    fn options_are_applied_or_refused_with_a_message() {
        let (out, _) = run(&[
            "setoption name Hash value 0",
            "setoption name Threads value 2",
            "setoption name MultiPV value 3",
            "setoption name Nonsense value 1",
            "go depth 3",
        ]);
        let strings: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(strings.len(), 2, "{strings:?}");
        assert!(out
            .iter()
            .any(|l| l.starts_with("info depth 3 ") && l.contains("multipv 3")));
        assert!(bestmove(&out).is_some());
    }

    #[test]
    fn uci_lists_the_options_and_prints_nothing_before() {
        let (out, _) = run(&["uci"]);
        for name in [
            "Hash",
            "Threads",
            "MultiPV",
            "Ponder",
            "Move Overhead",
            "Clear Hash",
            "UCI_Chess960",
        ] {
            assert!(
                out.iter()
                    .any(|l| l.starts_with(&format!("option name {name} type"))),
                "{name}"
            );
        }
        let (out, _) = run(&[]);
        assert!(out.is_empty());
    }

    #[test]
    fn eval_and_bench_print_their_results() {
        let (out, _) = run(&["eval", "bench 3"]);
        assert!(out.iter().any(|l| l.starts_with("final evaluation")));
        let last = out.last().cloned().unwrap_or_default();
        let words: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(words.len(), 4, "{last}");
        assert!(words[0].parse::<u64>().is_ok() && words[1] == "nodes" && words[3] == "nps");
    }

    #[test]
    fn chess960_search_writes_king_takes_rook() {
        // Castling is the only move that avoids mate... simpler: only king moves are castling.
        let fen = "4k3/8/8/8/8/8/3PPP2/3QK2R w K - 0 1";
        let (out, _) = run(&[
            "setoption name UCI_Chess960 value true",
            &format!("position fen {fen}"),
            "go depth 1 searchmoves e1h1",
        ]);
        assert_eq!(bestmove(&out).as_deref().map(|b| &b[..4]), Some("e1h1"));
        let (out, _) = run(&[
            &format!("position fen {fen}"),
            "go depth 1 searchmoves e1g1",
        ]);
        assert_eq!(bestmove(&out).as_deref().map(|b| &b[..4]), Some("e1g1"));
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
