//! The invariants the fuzz targets check, shared with `tests/core.rs`, which replays the
//! committed corpora through them on every `cargo test`.

// Each fuzz target uses one of these functions.
#![allow(dead_code)]

use ferrum::book::{Book, BookPosition};
use ferrum::core::Position;
use ferrum::rules::{read_pgn, Game, PgnGame, PgnStream};
use ferrum::rules::{Location, Notes, PgnParser, SyntaxError, Visitor};
use ferrum::uci::{parse_bytes, Command, Session};

/// FEN text: parsing never panics; a parsed position writes a FEN that parses back to the same
/// position; every legal move makes and unmakes cleanly with exact keys.
pub fn check_fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for mut pos in [Position::from_fen(text), Position::from_fen_960(text)]
        .into_iter()
        .flatten()
    {
        let again = Position::from_fen_960(&pos.fen_shredder()).expect("our own FEN must parse");
        assert_eq!(again.fen_shredder(), pos.fen_shredder());
        assert_eq!(again.key(), pos.key());
        assert_eq!(pos.key(), pos.key_from_scratch());
        let before = pos.clone();
        for &m in before.legal_moves().iter() {
            let undo = pos.make(m);
            assert_eq!(pos.key(), pos.key_from_scratch());
            pos.unmake(m, &undo);
            assert!(pos == before, "unmake of {m:?} in {text:?}");
        }
    }
}

/// An output the session writes to and the check reads afterwards.
#[derive(Clone, Default)]
struct SharedOut(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for SharedOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("output lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `line` (bytes, without its `\n`) as the session reads it: one trailing `\r` dropped and NUL
/// bytes read as spaces (see `Session::handle_bytes`).
fn as_read(line: &[u8]) -> Vec<u8> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.iter()
        .map(|&b| if b == 0 { b' ' } else { b })
        .collect()
}

/// True when `line` is a `go` that must be answered by one `bestmove` (every `go` but a
/// well-formed `go perft N`, which counts instead).
fn wants_bestmove(line: &[u8]) -> bool {
    matches!(parse_bytes(&as_read(line)), Ok(Command::Go(go)) if go.perft.is_none())
}

/// UCI input: parsing never panics; every `go` line, however malformed, gets exactly one
/// `bestmove` (each is stopped at once, as are `go perft` and `bench`, which must stop too);
/// and the session still answers `isready`. The lines are bytes as a GUI could send them:
/// not UTF-8, with `\r` endings or NUL bytes.
pub fn check_uci_lines(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = parse_bytes(data);
    let out = SharedOut::default();
    let mut gos = 0;
    {
        let mut session = Session::new(out.clone());
        for line in data.split(|&b| b == b'\n').take(8) {
            session.handle_bytes(line);
            // The first word as the parser splits it (at Unicode whitespace too).
            let read = as_read(line);
            let first = String::from_utf8_lossy(&read)
                .split_whitespace()
                .next()
                .map(str::to_string);
            if matches!(first.as_deref(), Some("go" | "bench")) {
                gos += usize::from(wants_bestmove(line));
                session.handle_line("stop");
                session.wait_for_search();
            }
        }
        session.handle_line("isready");
    }
    let bytes = out.0.lock().expect("output lock").clone();
    let reply = String::from_utf8_lossy(&bytes);
    assert!(
        reply.trim_end().ends_with("readyok"),
        "no readyok after {text:?}: {reply}"
    );
    let answers = reply.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(answers, gos, "one bestmove per go after {text:?}: {reply}");
}

/// PGN text: reading never panics; the parser's events are well formed (games numbered from 1,
/// variations balanced, locations in reading order and on real lines); every game read exports
/// to PGN that reads back to the same moves, result, comments, NAGs and variations, and exports
/// again to the same text; every error names a reason.
pub fn check_pgn(data: &[u8]) {
    check_pgn_events(data);
    let text = String::from_utf8_lossy(data);
    // Reading the file a game at a time gives exactly what reading it whole gives.
    let whole = read_pgn(&text);
    let streamed: Vec<_> = PgnStream::new(data).collect();
    assert_eq!(
        whole.len(),
        streamed.len(),
        "game count, streamed vs whole: {text:?}"
    );
    for (a, b) in whole.iter().zip(&streamed) {
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.game.history(), b.game.history());
                assert_eq!(a.tags, b.tags);
                assert_eq!(a.marker, b.marker);
                assert_eq!(a.notes, b.notes);
            }
            (Err(a), Err(b)) => {
                assert_eq!((a.game, a.ply, a.line), (b.game, b.ply, b.line), "{text:?}");
                assert_eq!((&a.move_text, &a.kind), (&b.move_text, &b.kind));
            }
            _ => panic!("streamed and whole readings differ: {text:?}"),
        }
    }
    for read in whole {
        match read {
            Ok(pgn) => check_pgn_round_trip(&pgn),
            Err(e) => assert!(!e.reason().is_empty()),
        }
    }
}

/// `pgn` written and read back: the same game and notes (plus the comment the writer adds
/// to name a finished game's ending), and written again, the same text.
fn check_pgn_round_trip(pgn: &PgnGame) {
    let exported = pgn.to_pgn();
    let again = read_pgn(&exported);
    assert_eq!(
        again.len(),
        1,
        "export of one game read as {}: {exported}",
        again.len()
    );
    let Some(Ok(back)) = again.into_iter().next() else {
        panic!("our own export does not read back: {exported}");
    };
    assert_eq!(back.game.history(), pgn.game.history(), "{exported}");
    assert_eq!(back.game.fen(), pgn.game.fen());
    assert_eq!(back.result(), pgn.result());
    let mut expected = pgn.notes.clone();
    let outcome = pgn.game.outcome();
    if outcome.is_over() {
        let ply = pgn.game.ply();
        if expected.len() <= ply {
            expected.resize_with(ply + 1, Notes::default);
        }
        let said = outcome.to_string();
        if !expected[ply].comments.contains(&said) {
            expected[ply].comments.push(said);
        }
    }
    assert_eq!(trimmed(&back.notes), trimmed(&expected), "{exported}");
    assert_eq!(back.to_pgn(), exported, "a second export differs");
}

/// Notes without the empty entries at the end (which the writer cannot show).
fn trimmed(notes: &[Notes]) -> &[Notes] {
    let len = notes
        .iter()
        .rposition(|n| !n.is_empty())
        .map_or(0, |i| i + 1);
    &notes[..len]
}

/// Checks the order and shape of what the parser reports.
#[derive(Default)]
struct EventCheck {
    games: usize,
    depth: usize,
    last: Location,
}

impl EventCheck {
    fn at(&mut self, at: Location) {
        assert!(at.line >= 1 && at.column >= 1, "{at:?}");
        assert!(at.line >= self.last.line, "{at:?} after {:?}", self.last);
        self.last = at;
    }
}

impl Visitor for EventCheck {
    type Output = ();
    fn begin_game(&mut self, number: usize) {
        self.games += 1;
        assert_eq!(number, self.games);
        assert_eq!(self.depth, 0);
    }
    fn tag(&mut self, name: &str, _value: &str, at: Location) {
        assert!(!name.is_empty());
        self.at(at);
    }
    fn san(&mut self, text: &str, at: Location) {
        assert!(!text.is_empty() && !text.ends_with(['!', '?']), "{text:?}");
        self.at(at);
    }
    fn nag(&mut self, _nag: u8, at: Location) {
        self.at(at);
    }
    fn comment(&mut self, text: &str, at: Location) {
        assert!(!text.contains('}') || !text.contains('\n'), "{text:?}");
        self.at(at);
    }
    fn begin_variation(&mut self, at: Location) {
        self.depth += 1;
        self.at(at);
    }
    fn end_variation(&mut self, at: Location) {
        assert!(self.depth > 0, "a variation closed that was not open");
        self.depth -= 1;
        self.at(at);
    }
    fn result(&mut self, marker: &str, at: Location) {
        assert_eq!(self.depth, 0, "result {marker} inside a variation");
        self.at(at);
    }
    fn error(&mut self, error: SyntaxError) {
        assert!(!error.to_string().is_empty());
        // An unclosed comment or variation is reported where it opened, earlier.
        assert!(error.at.line >= 1 && error.at.column >= 1);
    }
    fn end_game(&mut self) {
        assert_eq!(self.depth, 0, "variations left open");
    }
}

fn check_pgn_events(data: &[u8]) {
    let mut parser = PgnParser::new(data);
    let mut check = EventCheck::default();
    while let Ok(Some(())) = parser.read_game(&mut check) {}
    assert_eq!(parser.games(), check.games);
}

/// Positions the SAN target plays its text in, chosen by the first input byte.
const SAN_POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "R6R/8/1k6/2N1N3/8/2N1N3/8/1K6 w - - 0 1",
    "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1",
];

/// SAN (or UCI) text against a position: a move is played only when it is legal, its SAN reads
/// back as the same move, and a refusal leaves the game exactly as it was.
pub fn check_san(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let fen = SAN_POSITIONS[pick as usize % SAN_POSITIONS.len()];
    let Ok(mut game) = Game::from_fen(fen) else {
        panic!("fixed FEN {fen}")
    };
    let text = String::from_utf8_lossy(rest);
    let before_fen = game.fen();
    let legal = game.legal_moves();
    match game.play(&text) {
        Ok(m) => {
            assert!(legal.contains(&m), "{text:?} played an illegal move");
            let mut replay = Game::from_fen(fen).expect("fixed FEN");
            let san = replay.san(m).expect("SAN of a legal move");
            assert_eq!(
                replay.play(&san).ok(),
                Some(m),
                "SAN {san} does not read back"
            );
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert_eq!(
                game.fen(),
                before_fen,
                "a refused {text:?} changed the game"
            );
            assert_eq!(game.ply(), 0);
        }
    }
}

/// Polyglot book bytes: loading never panics; a loaded book's probes return only legal moves.
pub fn check_book(data: &[u8]) {
    let Ok(book) = Book::from_bytes(data.to_vec()) else {
        return;
    };
    let mut pos = BookPosition::startpos();
    for _ in 0..4 {
        let moves = book.probe(&pos);
        for m in &moves {
            assert!(
                pos.position().is_legal(m.mv),
                "book gave an illegal move {:?}",
                m.mv
            );
        }
        let Some(first) = moves.first() else { break };
        let mut next = pos.position().clone();
        next.make(first.mv);
        pos = BookPosition::new(next, None);
    }
}

/// Moves the `uci_session` target may write into `position … moves` and `play`: real moves of
/// the usual positions mixed with nonsense.
const MOVE_WORDS: [&str; 16] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "e1g1", "e1h1", "d7d8q", "a7a8n", "e5d6", "Nf3", "O-O", "exd6",
    "0000", "e9e4", "Qxf7#", "h1h8",
];

/// Words for the malformed `go` lines of the `uci_session` target: keywords (perft among
/// them, which a bad value turns into a search) and values, good and bad, in any order.
const GO_WORDS: [&str; 16] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "perft",
    "infinite",
    "searchmoves",
    "mate",
    "x",
    "1e3",
    "-7",
    "2.5",
    "99999999999",
    "foo",
    "e2e4",
    "nan",
];

/// A `go` line of two to four words from [`GO_WORDS`], chosen by `arg`.
fn malformed_go(arg: usize) -> String {
    let words = 2 + arg % 3;
    let mut line = "go".to_string();
    let mut rest = arg;
    for _ in 0..words {
        line.push(' ');
        line.push_str(GO_WORDS[rest % GO_WORDS.len()]);
        rest = rest / GO_WORDS.len() + 7;
    }
    line
}

/// The positions the `uci_session` target starts from.
const SESSION_STARTS: [&str; 5] = [
    "position startpos",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
    "position fen 4k3/1P6/8/3pP3/8/8/8/4K2R w K d6 0 1",
    "position fen rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1",
];

/// One `uci_session` command line, as bytes, from `op` and `arg`; a raw line (op bytes
/// `0xd0..0xe0`) takes its bytes from `next`.
fn session_line(op: u8, arg: usize, next: &mut impl FnMut() -> Option<u8>) -> Vec<u8> {
    if (0xd0..0xe0).contains(&op) {
        // Raw bytes, UTF-8 or not, NULs and `\r` included: `arg % 24` of them.
        return (0..arg % 24).map_while(|_| next()).collect();
    }
    session_command(op, arg).into_bytes()
}

/// A `uci_session` command chosen by `op` and `arg`.
fn session_command(op: u8, arg: usize) -> String {
    match op % 16 {
        // The top eighth of the op bytes: a malformed `go`.
        _ if op >= 0xe0 => malformed_go(arg * 32 + usize::from(op - 0xe0)),
        0 => SESSION_STARTS[arg % SESSION_STARTS.len()].to_string(),
        1 => format!(
            "{} moves {} {}",
            SESSION_STARTS[arg % SESSION_STARTS.len()],
            MOVE_WORDS[arg % MOVE_WORDS.len()],
            MOVE_WORDS[(arg / 3) % MOVE_WORDS.len()]
        ),
        2 => format!("go depth {}", 1 + arg % 3),
        3 => format!("go nodes {}", 1 + arg * 8),
        4 => format!("go movetime {}", arg % 6),
        5 => "go infinite".to_string(),
        6 => format!("go wtime {} btime {} winc 0 binc 0", arg as i64 - 20, arg),
        7 => "stop".to_string(),
        8 => "isready".to_string(),
        9 => format!("setoption name Threads value {}", 1 + arg % 2),
        10 => format!("setoption name MultiPV value {}", 1 + arg % 4),
        11 => format!("setoption name UCI_Chess960 value {}", arg % 2 == 0),
        12 => format!("play {}", MOVE_WORDS[arg % MOVE_WORDS.len()]),
        13 => ["undo", "legalmoves", "outcome", "ucinewgame"][arg % 4].to_string(),
        14 => format!("setoption name Hash value {}", 1 + arg % 4),
        _ => [
            "d",
            "eval",
            "ponderhit",
            "setoption name OwnBook value true",
        ][arg % 4]
            .to_string(),
    }
}

/// The whole UCI loop fed a command sequence chosen by the input bytes (positions, short
/// searches, malformed `go` lines, stop, options, the rules pipe, raw lines of arbitrary bytes,
/// interleaved without waiting), as bytes through `Session::handle_bytes`:
/// every `go` but a `go perft` gets exactly one `bestmove`, legal in the position it searched
/// (or `0000` when there was no legal move), and the loop still answers `isready` at the end.
pub fn check_uci_session(data: &[u8]) {
    let out = SharedOut::default();
    let mut session = Session::new(out.clone());
    // The position each `go` searched, in order: searches answer in the order they started,
    // because a new `go` stops the previous search and waits for its answer.
    let mut searched: Vec<Position> = Vec::new();
    let mut bytes = data.iter().copied().take(48);
    let mut next = move || bytes.next();
    while let Some(op) = next() {
        let arg = next().unwrap_or(0) as usize;
        let raw = session_line(op, arg, &mut next);
        // A raw line may hold `\n`: the loop reads it as several lines.
        for line in raw.split(|&b| b == b'\n') {
            if wants_bestmove(line) {
                searched.push(session.position().clone());
            }
            session.handle_bytes(line);
        }
    }
    session.handle_line("stop");
    session.wait_for_search();
    session.handle_line("isready");
    let bytes = out.0.lock().expect("output lock").clone();
    let reply = String::from_utf8_lossy(&bytes).into_owned();
    assert!(
        reply.trim_end().ends_with("readyok"),
        "no readyok at the end: {reply}"
    );
    let best: Vec<&str> = reply
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), searched.len(), "one bestmove per go: {reply}");
    for (answer, pos) in best.iter().zip(&searched) {
        let mv = answer.split_whitespace().next().unwrap_or("");
        if mv == "0000" {
            assert!(
                !pos.has_legal_moves(),
                "0000 with legal moves in {}",
                pos.fen()
            );
        } else {
            assert!(
                pos.parse_uci(mv).is_ok(),
                "bestmove {mv} is illegal in {}: {reply}",
                pos.fen()
            );
        }
    }
}

/// Network file bytes: loading never panics, and a network that loads writes back the same
/// bytes and evaluates the start position.
pub fn check_network(data: &[u8]) {
    use ferrum::eval::nnue::Network;
    if let Ok(net) = Network::from_bytes(data) {
        assert_eq!(net.to_bytes(), data);
        let _ = net.evaluate(&Position::startpos());
    }
}
