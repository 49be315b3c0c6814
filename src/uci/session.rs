//! The UCI loop: reads commands, keeps the game state, writes replies.
//!
//! The thread that calls [`Session::run`] only reads and answers; searches run on the
//! [`Engine`]'s own thread, so `isready`, `stop`, `ponderhit` and `quit` are answered at once
//! whatever the search is doing. Both threads write through one locked output.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use crate::core::{Move, Position};
use crate::eval::wdl::{material, wdl};
use crate::eval::Evaluator;
use crate::rules::{answer, Game};
use crate::search::{Engine, Job, Limits, Signals, BENCH_DEPTH};

use super::book::BookOptions;
use super::command::{parse_bytes, Command, GoParams, OptionValue, StartPosition};
use super::eval_options::EvalOptions;
use super::input::{clean, lossy_note, read_line, Read, MAX_LINE};

/// The most `info string` notes one `go` line gets (unknown words, values read another way).
const GO_NOTES_SHOWN: usize = 8;
use super::options::{declarations, parse_setoption, Change, Options};
use super::report::{write_lines, UciReporter};
use super::strength_options::StrengthOptions;
use super::syzygy::SyzygyOptions;
use super::tasks;

/// Whether the loop goes on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The engine name sent in reply to `uci`: `Ferrum` and [`crate::VERSION`], e.g.
/// `Ferrum 0.3.0 (abc1234)`, so a GUI's log and a tournament's PGN name the build.
pub const ENGINE_NAME: &str = concat!("Ferrum ", crate::version_text!());
/// The author line.
pub const ENGINE_AUTHOR: &str = "the Ferrum developers";

/// One UCI conversation: the position the GUI set up, the options, the engine, and where
/// replies go.
pub struct Session<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    /// The game `position` set up, with its moves: the rules apply them (one gate) and the
    /// pipe commands (`legalmoves`, `play`, `undo`, `outcome`) act on it. The one record of the
    /// game: the current position, the keys the search's repetition detection reads and the
    /// book's en-passant square are all read from it when needed, never copied.
    game: Game,
    options: Options,
    engine: Engine,
    book: BookOptions,
    syzygy: SyzygyOptions,
    eval: EvalOptions,
    strength: StrengthOptions,
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session at the start position, replying on `out`. Nothing is printed and no hash
    /// table is allocated until the GUI asks.
    pub fn new(out: W) -> Session<W> {
        let options = Options::default();
        Session {
            out: Arc::new(Mutex::new(out)),
            game: Game::new(),
            engine: Engine::new(options.hash_mb, options.threads),
            options,
            book: BookOptions::new(),
            syzygy: SyzygyOptions::default(),
            eval: EvalOptions::default(),
            strength: StrengthOptions::default(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
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
    /// stopped (and still answers, so every `go` gets its `bestmove`). Lines are bytes: one
    /// that is not UTF-8, ends in CRLF, holds a NUL or is longer than [`MAX_LINE`] is read
    /// as well as it can be or skipped with an `info string`, never a reason to stop.
    pub fn run<R: BufRead>(&mut self, mut input: R) {
        let mut line = Vec::new();
        loop {
            // A read error (stdin gone) ends the conversation like end of input.
            let flow = match read_line(&mut input, &mut line, MAX_LINE) {
                Ok(Read::Line) => self.handle_bytes(&line),
                Ok(Read::TooLong(len)) => self.handle_too_long(&line, len),
                Ok(Read::End) | Err(_) => Flow::Quit,
            };
            if flow == Flow::Quit {
                break;
            }
        }
        self.engine.stop();
        self.engine.wait();
    }

    /// A line longer than [`MAX_LINE`] (its first `MAX_LINE` bytes in `head`) is ignored with
    /// an `info string`, unless it is a `go`: the GUI waits for that one's `bestmove`, so it is
    /// carried out up to the last whole word of its head.
    fn handle_too_long(&mut self, head: &[u8], len: usize) -> Flow {
        let is_go = head
            .split(|b| b.is_ascii_whitespace())
            .find(|w| !w.is_empty())
            == Some(b"go");
        if !is_go {
            self.info_string(&format!(
                "a line of {len} bytes ignored: longer than {MAX_LINE}"
            ));
            return Flow::Continue;
        }
        self.info_string(&format!(
            "a go line of {len} bytes: read up to byte {MAX_LINE}, the rest ignored"
        ));
        let whole_words = head
            .iter()
            .rposition(|b| b.is_ascii_whitespace())
            .map_or(head, |end| &head[..end]);
        self.handle_bytes(whole_words)
    }

    /// Parses and carries out one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.handle_bytes(line.as_bytes())
    }

    /// Parses and carries out one input line given as bytes, without its `\n`: a trailing
    /// `\r` is dropped, NUL bytes read as spaces, and a line that is not UTF-8 is read with
    /// U+FFFD for its bad bytes (saying so in an `info string`), except a `setoption` value,
    /// which keeps them for a file path.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Flow {
        let line = clean(line);
        if let Some(note) = lossy_note(&line) {
            self.info_string(&note);
        }
        match parse_bytes(&line) {
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
                lines.extend(BookOptions::UCI_OPTIONS.iter().map(|l| l.to_string()));
                lines.extend(EvalOptions::UCI_OPTIONS.iter().map(|l| l.to_string()));
                lines.extend(SyzygyOptions::UCI_OPTIONS.iter().map(|l| l.to_string()));
                lines.extend(StrengthOptions::UCI_OPTIONS.iter().map(|l| l.to_string()));
                lines.push("uciok".to_string());
                write_lines(&self.out, &lines);
            }
            Command::IsReady => {
                // The GUI has set its options by now: a good moment to allocate the table, but
                // never while a search runs (readyok must come at once then).
                if !self.engine.searching() {
                    let ready = self.engine.ensure_hash();
                    if let Err(e) = ready.and_then(|()| self.engine.ensure_pool()) {
                        self.info_string(&e.to_string());
                    }
                }
                self.send("readyok");
            }
            Command::UciNewGame => {
                if self.idle("ucinewgame") {
                    self.engine.clear_hash();
                }
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_ref()),
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
                let text = self.game.position().to_string();
                let lines: Vec<String> = text.lines().map(str::to_string).collect();
                write_lines(&self.out, &lines);
            }
            Command::Eval => {
                let lines = self.eval_lines();
                write_lines(&self.out, &lines);
            }
            Command::Bench { depth } => {
                if self.idle("bench") {
                    let out = Arc::clone(&self.out);
                    let depth = depth.unwrap_or(BENCH_DEPTH);
                    let net = self.eval.network();
                    self.run_task(move |signals| tasks::bench(depth, net, signals, &out));
                }
            }
            // Answered only between searches: the pipe's lines never interleave with a
            // search's output.
            Command::Rules(rules) => {
                if self.idle(rules.name()) {
                    let line = answer(&mut self.game, &rules);
                    self.send(&line);
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

    /// `eval`: the hand-crafted evaluation term by term, the network's score when one is in
    /// use (`Use NNUE`, the default), an endgame rule's score where one applies, and the
    /// win/draw/loss chances of the score the search uses.
    fn eval_lines(&self) -> Vec<String> {
        let pos = self.game.position();
        let mut hce = Evaluator::new();
        let mut lines: Vec<String> = hce
            .trace(pos)
            .to_string()
            .lines()
            .map(str::to_string)
            .collect();
        let in_use = match self.eval.network() {
            Some(net) => {
                let score = net.evaluate(pos);
                // `describe` names the network in use, e.g. "network <name> (embedded): 21 cp ...".
                lines.push(format!(
                    "{}: {score} cp for the side to move",
                    self.eval.describe()
                ));
                score
            }
            None => hce.evaluate(pos),
        };
        // The search scores such an ending by its rule, whatever the evaluation says.
        let in_use = match crate::eval::endgame::known(pos) {
            Some(score) => {
                lines.push(format!(
                    "endgame known by rule: {score} cp for the side to move (the search's score)"
                ));
                score
            }
            None => in_use,
        };
        let [w, d, l] = wdl(in_use, material(pos));
        lines.push(format!(
            "win/draw/loss for the side to move: {w} {d} {l} per mille (score {in_use} cp)"
        ));
        lines
    }

    /// A file option: its path from the value's bytes (see [`OptionValue::to_os_string`]).
    /// `false` when `name` is no file option.
    fn set_file_option(&mut self, name: &str, value: Option<&OptionValue>) -> bool {
        let path = || value.map(OptionValue::to_os_string).unwrap_or_default();
        let name = name.trim();
        if name.eq_ignore_ascii_case("BookFile") {
            if let Err(e) = self.book.set_file(&path()) {
                self.info_string(&e.to_string());
            }
        } else if name.eq_ignore_ascii_case("EvalFile") {
            match self.eval.set_file(&path()) {
                Ok(note) => self.info_string(&note),
                Err(e) => self.info_string(&e.to_string()),
            }
        } else if SyzygyOptions::is_path(name) {
            // A new path waits for the search to end: the search holds the tables.
            if self.idle(&format!("setoption {name}")) {
                let lines = self.syzygy.set_path(&path());
                lines.iter().for_each(|l| self.info_string(l));
            }
        } else {
            return false;
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&OptionValue>) {
        if self.set_file_option(name, value) {
            return;
        }
        let text = value.map(OptionValue::text);
        let value = text.as_deref();
        if EvalOptions::handles(name) {
            match self.eval.set(name, value) {
                Ok(Some(note)) => self.info_string(&note),
                Ok(None) => {}
                Err(e) => self.info_string(&e.to_string()),
            }
            return;
        }
        if BookOptions::handles(name) {
            if let Err(e) = self.book.set(name, value) {
                self.info_string(&e.to_string());
            }
            return;
        }
        if SyzygyOptions::handles(name) {
            return self.set_syzygy_option(name, value);
        }
        // Read at the next `go`: no need to wait for a running search.
        if StrengthOptions::handles(name) {
            if let Err(e) = self.strength.set(name, value) {
                self.info_string(&e.to_string());
            }
            return;
        }
        let change = match parse_setoption(name, value) {
            Ok(c) => c,
            Err(e) => return self.info_string(&e.to_string()),
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
                        self.info_string(&e.to_string());
                    }
                }
            },
            Change::Threads(n) => {
                self.options.threads = n;
                if let Err(e) = self.engine.set_threads(n) {
                    self.info_string(&e.to_string());
                }
            }
            Change::MultiPv(n) => self.options.multipv = n,
            Change::Ponder(on) => self.options.ponder = on,
            Change::MoveOverhead(ms) => self.options.move_overhead = ms,
            Change::ClearHash => self.engine.clear_hash(),
            Change::AnalyseMode(on) => self.options.analyse_mode = on,
            #[cfg(feature = "tune-search")]
            Change::SearchParam { name, value } => {
                if let Err(e) = crate::search::params::set(name, value) {
                    self.info_string(&e.to_string());
                }
            }
            Change::Chess960(on) => {
                self.options.chess960 = on;
                let on = on || self.game.is_chess960();
                self.game.set_chess960(on);
            }
        }
    }

    /// A Syzygy option other than the path (see [`Session::set_file_option`]).
    fn set_syzygy_option(&mut self, name: &str, value: Option<&str>) {
        match self.syzygy.set(name, value) {
            Ok(lines) => lines.iter().for_each(|l| self.info_string(l)),
            Err(e) => self.info_string(&e.to_string()),
        }
    }

    /// Sets up the position. A bad FEN leaves the previous position in place; an illegal move
    /// stops the move list there (the moves before it stay played), as GUIs expect. The moves
    /// are played through the rules' [`Game`], the one gate for legality.
    fn set_position(&mut self, start: StartPosition, moves: &[String]) {
        let chess960 = self.options.chess960;
        let parsed = match &start {
            StartPosition::StartPos => Ok(Game::new()),
            StartPosition::Fen(fen) if chess960 => Game::from_fen_960(fen),
            StartPosition::Fen(fen) => Game::from_fen(fen),
        };
        let mut game = match parsed {
            Ok(g) => g,
            Err(e) => return self.info_string(&format!("invalid FEN: {e}; position unchanged")),
        };
        if chess960 {
            game.set_chess960(true);
        }
        for text in moves {
            if let Err(e) = game.play(text) {
                self.info_string(&format!("{e}; moves after it ignored"));
                break;
            }
        }
        self.game = game;
    }

    /// Keys of the positions before the current one since the last capture or pawn move, oldest
    /// first: what the search's repetition detection reads.
    fn search_history(&self) -> Vec<u64> {
        let keys: Vec<u64> = self.game.keys().collect();
        let before = keys.len().saturating_sub(1);
        let reversible = (self.game.position().halfmove_clock() as usize).min(before);
        keys[before - reversible..before].to_vec()
    }

    fn go(&mut self, go: GoParams) {
        // A `go` during a search replaces it, as the engine does (a `go perft` only replaces
        // one told to stop): the old search stops and answers first, so its `bestmove` comes
        // before anything about this `go`, and the book is consulted on a quiet engine.
        if go.perft.is_none() || self.engine.stopping() {
            self.engine.stop();
            self.engine.wait();
        }
        // A line of garbage could hold thousands of unknown words: the first few are named.
        for note in go.notes.iter().take(GO_NOTES_SHOWN) {
            self.info_string(note);
        }
        if go.notes.len() > GO_NOTES_SHOWN {
            let more = go.notes.len() - GO_NOTES_SHOWN;
            self.info_string(&format!("go: {more} more notes like these not shown"));
        }
        if let Some(depth) = go.perft {
            if self.idle("go perft") {
                let out = Arc::clone(&self.out);
                let pos = self.game.position().clone();
                self.run_task(move |signals| tasks::perft(&pos, depth, signals, &out));
            }
            return;
        }
        let mut limits = go.limits;
        limits.searchmoves = self.root_moves(&go.searchmoves);
        if let Some(m) = self.book_move(&limits, !go.searchmoves.is_empty()) {
            let text = m.to_uci(self.game.position().is_chess960());
            self.info_string(&format!("book move {text}"));
            self.send(&format!("bestmove {text}"));
            return;
        }
        let job = Job {
            position: self.game.position().clone(),
            history: self.search_history(),
            limits,
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            net: self.eval.network(),
            tb: self.syzygy.config(),
            skill: self.strength.next_skill(self.game.position().key()),
        };
        let mut reporter =
            UciReporter::new(Arc::clone(&self.out), self.game.position().is_chess960());
        if self.eval.show_wdl() {
            reporter = reporter.with_wdl(material(self.game.position()));
        }
        let reporter = Arc::new(reporter);
        if let Err(e) = self.engine.go(job, reporter) {
            // No search (no memory for the table, no thread), but the GUI still waits for an
            // answer: any legal move beats a lost game on time.
            self.info_string(&format!("{e}; playing the first legal move"));
            let pos = self.game.position();
            let first = pos.legal_moves().iter().next().copied();
            let text = first.map_or("0000".to_string(), |m| m.to_uci(pos.is_chess960()));
            self.send(&format!("bestmove {text}"));
        }
    }

    /// Runs a long command on the engine's thread, where `stop` reaches it.
    fn run_task(&mut self, task: impl FnOnce(&Signals) + Send + 'static) {
        if let Err(e) = self.engine.run_task(task) {
            self.info_string(&e.to_string());
        }
    }

    /// The `searchmoves` of a `go`, read once against the current position for the book and
    /// the search alike; each that is not a legal move is named in an `info string` and left out.
    fn root_moves(&mut self, texts: &[String]) -> Vec<Move> {
        let mut moves = Vec::with_capacity(texts.len());
        for text in texts {
            match self.game.position().parse_uci(text) {
                Ok(m) => moves.push(m),
                Err(e) => self.info_string(&format!("searchmoves: {e}; ignored")),
            }
        }
        moves
    }

    /// With `OwnBook` on, a book move for the current position (never while pondering or
    /// searching without limit, which must wait for `stop`), among `limits.searchmoves` if the
    /// `go` named any (`restricted`: when none of them was legal, the book has no say).
    fn book_move(&mut self, limits: &Limits, restricted: bool) -> Option<Move> {
        if limits.ponder || limits.infinite {
            return None;
        }
        if restricted && limits.searchmoves.is_empty() {
            return None;
        }
        let ep = self.game.en_passant_target();
        self.book
            .pick(self.game.position(), ep, &limits.searchmoves)
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

    /// Runs a whole session on `input` (bytes, through [`Session::run`]) and returns the
    /// output without timing.
    fn run_bytes(input: &[u8]) -> Vec<String> {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        s.run(input);
        drop(s);
        out.lines().iter().map(|l| without_timing(l)).collect()
    }

    /// Like [`run_bytes`], but through [`read_line`] and [`Session::handle_bytes`] (what
    /// [`Session::run`] does) waiting for each search to end, so the output is the same from
    /// run to run (lines a slow machine adds, `currmove` and bounds, left out).
    fn run_bytes_waiting(mut input: &[u8]) -> Vec<String> {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        let mut line = Vec::new();
        while let Ok(Read::Line) = read_line(&mut input, &mut line, MAX_LINE) {
            let flow = s.handle_bytes(&line);
            s.wait_for_search();
            if flow == Flow::Quit {
                break;
            }
        }
        drop(s);
        let lines = out.lines();
        let steady = lines
            .iter()
            .filter(|l| !l.contains(" currmove ") && !l.contains("bound "));
        // Bench's `N nodes M nps`: the speed differs from run to run.
        let untimed = |l: &String| match l.strip_suffix(" nps") {
            Some(rest) => rest.rsplit_once(' ').map_or(rest, |(n, _)| n).to_string(),
            None => without_timing(l),
        };
        steady.map(untimed).collect()
    }

    #[test]
    fn every_command_reads_the_same_with_crlf_endings() {
        let path = one_move_book(&crate::book::BookPosition::startpos(), "b2b3", "crlf");
        let book = format!("setoption name BookFile value {}", path.display());
        let commands = [
            "uci",
            "debug on",
            "isready",
            "setoption name MultiPV value 2",
            "setoption name OwnBook value true",
            &book,
            "setoption name Clear Hash",
            "ucinewgame",
            "go depth 3",
            "position startpos moves e2e4 e7e5",
            "setoption name OwnBook value false",
            "go depth 3 searchmoves g1f3 d2d4",
            "position fen 4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1 moves d2d7",
            "d",
            "eval",
            "legalmoves",
            "play Kf8",
            "undo",
            "outcome",
            "go perft 2",
            "bench 1",
            "register later",
            "flap",
            "quit",
            "isready",
        ];
        let lf: String = commands.iter().map(|c| format!("{c}\n")).collect();
        let crlf: String = commands.iter().map(|c| format!("{c}\r\n")).collect();
        let (lf, crlf) = (
            run_bytes_waiting(lf.as_bytes()),
            run_bytes_waiting(crlf.as_bytes()),
        );
        let _ = std::fs::remove_file(&path);
        assert_eq!(crlf, lf);
        assert!(lf.contains(&"info string book move b2b3".to_string()));
        assert!(lf.contains(&"played e8f8 Kf8 ongoing".to_string()));
        assert_eq!(
            lf.last().map(String::as_str),
            Some("info string unknown command 'flap'")
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_is_read_lossily_once_said() {
        let out = run_bytes(b"isready\n\xe9\xe9 isready\r\nis\xffready\nisready");
        assert_eq!(
            out,
            [
                "readyok",
                "info string input is not UTF-8 from byte 0: read with U+FFFD for the bad bytes \
                 (a file path keeps its bytes)",
                "info string unknown command '\u{fffd}\u{fffd}'",
                "info string input is not UTF-8 from byte 2: read with U+FFFD for the bad bytes \
                 (a file path keeps its bytes)",
                "info string unknown command 'is\u{fffd}ready'",
                "readyok",
            ]
        );
    }

    /// `EvalFile` in a directory whose name is not UTF-8 loads: the path keeps its bytes.
    #[cfg(unix)]
    #[test]
    fn eval_file_path_that_is_not_utf8_loads() {
        use std::os::unix::ffi::OsStrExt;
        let mut name = b"ferrum-net-\xe9-".to_vec();
        name.extend(std::process::id().to_string().bytes());
        let dir = std::env::temp_dir().join(std::ffi::OsStr::from_bytes(&name));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("n.nnue");
        let mut net = crate::eval::nnue::Network::zeroed();
        net.set_first_layer_bias(0, 255);
        net.set_output_weight(0, 64);
        std::fs::write(&path, net.to_bytes()).expect("write net");
        let mut input = b"setoption name EvalFile value ".to_vec();
        input.extend(path.as_os_str().as_bytes());
        input.extend(b"\neval\n");
        let out = run_bytes(&input);
        let _ = std::fs::remove_dir_all(&dir);
        let shown = path.to_string_lossy();
        assert!(
            out.iter()
                .any(|l| l.starts_with("network ") && l.contains(&*shown) && l.contains(" 400 cp")),
            "{out:?}"
        );
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
    fn analyse_mode_is_accepted_quietly_and_refused_if_not_a_boolean() {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        s.handle_line("setoption name UCI_AnalyseMode value true");
        assert!(s.options().analyse_mode && out.lines().is_empty());
        s.handle_line("setoption name uci_analysemode value maybe");
        assert!(s.options().analyse_mode, "kept");
        assert_eq!(out.lines().len(), 1, "{:?}", out.lines());
        s.handle_line("setoption name UCI_AnalyseMode value false");
        assert!(!s.options().analyse_mode);
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
            "UCI_AnalyseMode",
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
        // An ending known by rule says so, and the chances follow the rule's score.
        let kbnk = "8/8/8/8/8/1K6/8/k1BN4 w - - 0 1";
        let (out, _) = run(&[&format!("position fen {kbnk}"), "eval"]);
        let rule = Position::from_fen(kbnk)
            .ok()
            .and_then(|pos| crate::eval::endgame::known(&pos))
            .expect("a KBN v K position");
        let said = format!("endgame known by rule: {rule} cp");
        assert!(out.iter().any(|l| l.starts_with(&said)), "{out:?}");
        assert!(out
            .iter()
            .any(|l| l.ends_with(&format!("(score {rule} cp)"))));
        let (start, _) = run(&["eval"]);
        assert!(!start.iter().any(|l| l.contains("known by rule")));
    }

    /// The `wdl` triple of an info line, if it has one.
    fn wdl_of(line: &str) -> Option<[u32; 3]> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words.iter().position(|w| *w == "wdl")?;
        let n = |k: usize| words.get(i + k).and_then(|w| w.parse().ok());
        Some([n(1)?, n(2)?, n(3)?])
    }

    #[test]
    fn show_wdl_adds_a_triple_to_every_scored_line_and_only_then() {
        let (plain, _) = run(&["position startpos", "go depth 4"]);
        assert!(plain.iter().all(|l| wdl_of(l).is_none()));
        let (out, _) = run(&[
            "setoption name UCI_ShowWDL value true",
            "setoption name MultiPV value 3",
            "position fen 4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1",
            "go depth 5",
        ]);
        let scored: Vec<&String> = out.iter().filter(|l| l.contains(" score ")).collect();
        assert!(scored.len() >= 10);
        for l in scored {
            let [w, d, l3] = wdl_of(l).unwrap_or_else(|| panic!("no wdl: {l}"));
            assert_eq!(w + d + l3, 1000, "{l}");
            assert!(w > 900, "a queen up wins: {l}");
        }
        let (mated, _) = run(&[
            "setoption name UCI_ShowWDL value true",
            "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "go depth 3",
        ]);
        assert!(
            mated.iter().any(|l| wdl_of(l) == Some([0, 0, 1000])),
            "{mated:?}"
        );
    }

    #[test]
    fn eval_file_loads_a_network_or_keeps_the_evaluation() {
        let path = std::env::temp_dir().join(format!("ferrum-net-{}.nnue", std::process::id()));
        let mut net = crate::eval::nnue::Network::zeroed();
        net.set_first_layer_bias(0, 255);
        net.set_output_weight(0, 64);
        std::fs::write(&path, net.to_bytes()).expect("write net");
        let file = path.display().to_string();
        let (out, _) = run(&[
            "setoption name EvalFile value no/such/net.nnue",
            "eval",
            &format!("setoption name EvalFile value {file}"),
            "eval",
            "go depth 3",
            "setoption name Use NNUE value false",
            "eval",
            "setoption name Use NNUE value true",
            "setoption name EvalFile value <embedded>",
            "eval",
        ]);
        let _ = std::fs::remove_file(&path);
        assert!(out
            .iter()
            .any(|l| l.starts_with("info string EvalFile no/such/net.nnue")
                && l.ends_with("keeping the embedded network")));
        let net_lines: Vec<&String> = out.iter().filter(|l| l.starts_with("network")).collect();
        assert_eq!(net_lines.len(), 3, "none with Use NNUE false: {out:?}");
        let embedded = format!("network {} (embedded)", crate::eval::nnue::EMBEDDED_NAME);
        assert!(net_lines[0].contains(&embedded), "{out:?}");
        assert!(
            net_lines[1].contains(&file) && net_lines[1].contains(" 400 cp"),
            "this net scores every position 400: {out:?}"
        );
        assert!(net_lines[2].contains(&embedded), "{out:?}");
        assert!(out.iter().any(|l| l.contains("score cp 400")), "{out:?}");
        assert!(bestmove(&out).is_some());
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

    /// An output line without its timing (`time`, `nps`), which differs from run to run.
    fn without_timing(line: &str) -> String {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut kept = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if matches!(words[i], "time" | "nps") {
                i += 2;
                continue;
            }
            kept.push(words[i]);
            i += 1;
        }
        kept.join(" ")
    }

    /// Like [`run`], but each `go` and `bench` is waited for before the next line: a `go`
    /// during a search would replace it, and `bench` would be refused.
    fn run_waiting(lines: &[&str]) -> Vec<String> {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        for l in lines {
            s.handle_line(l);
            if l.starts_with("go") || l.starts_with("bench") {
                s.wait_for_search();
            }
        }
        drop(s);
        out.lines()
    }

    /// A search's output without timing, and bench's node count. Lines a slow machine adds
    /// (`currmove`, and bounds after 2 s) are left out: they depend on the clock.
    fn search_and_bench(options: &[&str]) -> (Vec<String>, Option<String>) {
        let mut lines: Vec<&str> = options.to_vec();
        lines.extend(["position startpos moves e2e4", "go depth 7", "bench 4"]);
        let out = run_waiting(&lines);
        let searched = out
            .iter()
            .filter(|l| !l.ends_with(" nps") && !l.starts_with("info string"))
            .filter(|l| !l.contains(" currmove ") && !l.contains("bound "))
            .map(|l| without_timing(l))
            .collect();
        let bench = out
            .last()
            .and_then(|l| l.strip_suffix(" nps"))
            .and_then(|l| l.split_whitespace().next().map(str::to_string));
        (searched, bench)
    }

    #[test]
    fn skill_level_20_and_no_limit_leave_search_and_bench_unchanged() {
        let plain = search_and_bench(&[]);
        assert!(plain.1.is_some() && plain.0.len() > 7, "{plain:?}");
        let full = search_and_bench(&[
            "setoption name Skill Level value 20",
            "setoption name UCI_LimitStrength value false",
            "setoption name UCI_Elo value 1000",
        ]);
        assert_eq!(full, plain);
        // UCI_AnalyseMode is stored only: the same search.
        let analysing = search_and_bench(&["setoption name UCI_AnalyseMode value true"]);
        assert_eq!(analysing, plain);
        // The options do reach the search: one level lower changes it.
        let limited = search_and_bench(&["setoption name Skill Level value 19"]);
        assert_ne!(limited.0, plain.0);
        assert_eq!(limited.1, plain.1, "bench never plays at a level");
    }

    /// The bestmoves of a session at UCI_Elo 1000 with seed 11 over a few positions.
    fn limited_moves(seed: &str) -> Vec<Option<String>> {
        let seed = format!("setoption name Skill Seed value {seed}");
        let mut lines = vec![
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 1000",
            &seed,
        ];
        let fens = [
            "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "position startpos moves d2d4 d7d5 c2c4",
        ];
        for f in &fens {
            lines.extend([*f, "go depth 3", *f, "go depth 3"]);
        }
        run_waiting(&lines)
            .iter()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .map(|b| b.split_whitespace().next().map(str::to_string))
            .collect()
    }

    #[test]
    fn a_fixed_skill_seed_repeats_the_moves_of_a_session() {
        let first = limited_moves("11");
        assert_eq!(first.len(), 6);
        assert_eq!(limited_moves("11"), first);
    }

    #[test]
    fn a_limited_level_answers_on_every_kind_of_go_with_an_agreeing_pv() {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        for l in [
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 1300",
            "setoption name MultiPV value 2",
            "setoption name Threads value 2",
            "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ] {
            s.handle_line(l);
        }
        for go in [
            "go infinite",
            "go movetime 300",
            "go wtime 3000 btime 3000 winc 100 binc 100",
            "go depth 20",
        ] {
            let before = out.lines().len();
            s.handle_line(go);
            if go == "go infinite" {
                std::thread::sleep(std::time::Duration::from_millis(100));
                assert_eq!(
                    bestmove(&out.lines()[before..]),
                    None,
                    "bestmove before stop"
                );
                s.handle_line("stop");
            }
            s.wait_for_search();
            let said = out.lines()[before..].to_vec();
            let best = bestmove(&said).unwrap_or_else(|| panic!("{go}: {said:?}"));
            assert!(s.position().parse_uci(&best[..4]).is_ok(), "{go}: {best}");
            let last_first = said
                .iter()
                .rev()
                .find(|l| l.contains(" multipv 1 "))
                .and_then(|l| l.split(" pv ").nth(1))
                .and_then(|pv| pv.split_whitespace().next());
            assert_eq!(last_first, Some(&best[..4]), "{go}: {said:?}");
            assert!(
                said.iter()
                    .filter(|l| l.starts_with("info depth"))
                    .all(|l| l.contains(" multipv 1 ") || l.contains(" multipv 2 ")),
                "only the lines the GUI asked for: {said:?}"
            );
        }
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
    fn a_perft_too_deep_to_finish_is_capped_and_stops() {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        s.handle_line("go perft 4000000000");
        std::thread::sleep(std::time::Duration::from_millis(50));
        s.handle_line("stop");
        s.wait_for_search();
        let lines = out.lines();
        assert_eq!(lines[0], "info string perft depth 4000000000 capped at 128");
        assert!(lines
            .last()
            .is_some_and(|l| l.starts_with("info string perft stopped: ")));
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
    fn rules_commands_wait_for_the_search_to_end() {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        s.handle_line("position startpos");
        s.handle_line("go infinite");
        s.handle_line("play e4");
        s.handle_line("stop");
        s.wait_for_search();
        s.handle_line("play e4");
        let lines = out.lines();
        assert!(lines
            .iter()
            .any(|l| l.starts_with("info string play ignored: a search is running")));
        assert_eq!(
            lines.last().map(String::as_str),
            Some("played e2e4 e4 ongoing")
        );
    }

    #[test]
    fn position_keeps_the_keys_since_the_last_irreversible_move() {
        let mut s = Session::new(Shared::default());
        s.handle_line("position startpos moves g1f3 g8f6 e2e4 b8c6 f3g1 c6b8");
        assert_eq!(s.search_history().len(), 3); // the positions before ...Nc6, Ng1 and ...Nb8
        let mut replay = Position::startpos();
        let mut keys = Vec::new();
        for m in ["g1f3", "g8f6", "e2e4", "b8c6", "f3g1", "c6b8"] {
            keys.push(replay.key());
            let m = replay.parse_uci(m).unwrap();
            replay.make(m);
        }
        assert_eq!(s.search_history(), keys[3..]);
        s.handle_line("play Nf3");
        assert_eq!(s.search_history().len(), 4);
        assert_eq!(s.search_history()[3], replay.key());
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

    fn book_moves(out: &[String]) -> Vec<String> {
        out.iter()
            .filter_map(|l| l.strip_prefix("info string book move ").map(str::to_string))
            .collect()
    }

    #[test]
    fn own_book_plays_a_book_move_only_when_on() {
        let (out, _) = run(&["uci"]);
        assert!(out.contains(&"option name OwnBook type check default false".to_string()));
        assert!(out.contains(&"option name BookFile type string default <empty>".to_string()));

        let (out, _) = run(&["position startpos moves e2e4", "go depth 2"]);
        assert!(
            book_moves(&out).is_empty(),
            "OwnBook is off by default: {out:?}"
        );
        assert!(bestmove(&out).is_some());

        let (out, _) = run(&[
            "setoption name OwnBook value true",
            "position startpos moves e2e4",
            "go wtime 1000 btime 1000",
        ]);
        let m = bestmove(&out).expect("a book move");
        assert_eq!(book_moves(&out), std::slice::from_ref(&m), "{out:?}");
        assert!(
            !out.iter().any(|l| l.starts_with("info depth")),
            "no search: {out:?}"
        );
        let mut after = crate::book::BookPosition::startpos();
        after.play_uci("e2e4").unwrap();
        let book = crate::book::Book::embedded().probe(&after);
        assert!(book.iter().any(|b| b.mv.to_uci(false) == m && b.weight > 0));

        // Pondering and infinite analysis search until stop; searchmoves restricts the choice.
        for go in ["go infinite", "go ponder wtime 1000 btime 1000"] {
            let (out, _) = run(&["setoption name OwnBook value true", go, "stop"]);
            assert!(book_moves(&out).is_empty(), "{go}: {out:?}");
        }
        let (out, _) = run(&["setoption name OwnBook value true", "go searchmoves d2d4"]);
        assert_eq!(book_moves(&out), ["d2d4"]);
        // The moves are read once, for the book and the search: a bad one is named once, even
        // when the book answers, and no searchmoves legal leaves the book out.
        let (out, _) = run(&[
            "setoption name OwnBook value true",
            "go searchmoves e2e5 d2d4",
        ]);
        assert_eq!(book_moves(&out), ["d2d4"]);
        let bad: Vec<_> = out.iter().filter(|l| l.contains("searchmoves:")).collect();
        assert_eq!(bad.len(), 1, "{out:?}");
        let (out, _) = run(&[
            "setoption name OwnBook value true",
            "go depth 1 searchmoves e2e5",
        ]);
        assert!(book_moves(&out).is_empty(), "{out:?}");
        let (out, _) = run(&[
            "setoption name OwnBook value true",
            "go depth 2 searchmoves a2a3",
        ]);
        assert!(book_moves(&out).is_empty(), "a2a3 is not in the book");
        assert_eq!(bestmove(&out).as_deref().map(|b| &b[..4]), Some("a2a3"));
        // Out of book: the search answers.
        let (out, _) = run(&[
            "setoption name OwnBook value true",
            "position fen 8/8/8/8/8/8/6k1/4K2R w K - 0 1",
            "go depth 1",
        ]);
        assert!(book_moves(&out).is_empty());
        assert!(bestmove(&out).is_some());
    }

    #[test]
    fn book_file_is_loaded_or_refused_with_a_message() {
        let missing = std::env::temp_dir().join("ferrum-no-such-book.bin");
        let (out, _) = run(&[
            "setoption name OwnBook value true",
            &format!("setoption name BookFile value {}", missing.display()),
            "go depth 1",
        ]);
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string BookFile: cannot read book file")),
            "{out:?}"
        );
        assert!(book_moves(&out).is_empty(), "no book once the file failed");

        // A one-entry book of our own: 1.b3 only; and a truncated copy of it.
        let path = one_move_book(&crate::book::BookPosition::startpos(), "b2b3", "b3");
        let truncated = std::env::temp_dir().join(format!("ferrum-bad-{}.bin", std::process::id()));
        std::fs::write(&truncated, &std::fs::read(&path).unwrap()[..9]).unwrap();
        let (out, _) = run(&[
            &format!("setoption name BookFile value {}", path.display()),
            "setoption name OwnBook value true",
            "go depth 1",
            &format!("setoption name BookFile value {}", truncated.display()),
            "go depth 1",
            "setoption name BookFile value <empty>",
            "position startpos moves e2e4",
            "go depth 1",
        ]);
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&truncated);
        let from_book = book_moves(&out);
        assert_eq!(from_book.len(), 2, "{out:?}");
        assert_eq!(from_book[0], "b2b3");
        assert!(
            out.iter()
                .any(|l| l.contains("not a Polyglot book: 9 bytes")),
            "{out:?}"
        );
        assert_ne!(from_book[1], "b2b3", "back to the embedded book");
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
            "go depth 1",
            "position fen 8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1",
            "go depth 1",
        ]);
        let _ = std::fs::remove_file(&path);
        assert_eq!(book_moves(&out), ["a4a5", "a4a5"], "{out:?}");
    }

    /// The node count of the last `info depth` line among `out[from..]`.
    fn last_nodes(out: &[String], from: usize) -> u64 {
        out[from..]
            .iter()
            .rev()
            .filter(|l| l.starts_with("info depth"))
            .find_map(|l| {
                let mut words = l.split_whitespace().skip_while(|w| *w != "nodes");
                words.nth(1).and_then(|n| n.parse().ok())
            })
            .unwrap_or_else(|| panic!("no info line in {:?}", &out[from..]))
    }

    #[test]
    fn move_ordering_tables_last_the_game_and_a_new_game_clears_them() {
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        let position =
            "position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8";
        // The same search four times; the node count (one thread, fixed depth: deterministic)
        // shows what it started from.
        let mut search = |setup: &[&str]| {
            for line in setup {
                s.handle_line(line);
            }
            let from = out.lines().len();
            s.handle_line(position);
            s.handle_line("go depth 7");
            s.wait_for_search();
            last_nodes(&out.lines(), from)
        };
        let fresh = search(&[]);
        // A new table but the same threads: what they learnt changes the search.
        let learnt = search(&["setoption name Hash value 16"]);
        assert_ne!(learnt, fresh, "the tables did not outlive the search");
        // ucinewgame and Clear Hash empty the move-ordering tables with the hash table.
        assert_eq!(search(&["ucinewgame"]), fresh, "ucinewgame kept the tables");
        search(&[]);
        assert_eq!(
            search(&["setoption name Clear Hash"]),
            fresh,
            "Clear Hash kept them"
        );
    }
}
