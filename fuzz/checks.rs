//! The invariants the fuzz targets check, shared with `tests/core.rs`, which replays the
//! committed corpora through them on every `cargo test`.

// Each fuzz target uses one of these functions.
#![allow(dead_code)]

use ferrum::book::{Book, BookPosition};
use ferrum::core::Position;
use ferrum::rules::{read_pgn, Game};
use ferrum::uci::{parse, Session};

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

/// UCI input: parsing never panics, and a session fed the lines still answers `isready`.
pub fn check_uci_lines(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = parse(&text);
    let out = SharedOut::default();
    {
        let mut session = Session::new(out.clone());
        for line in text.lines().take(8) {
            // Deep perft or long searches from fuzzed input would only measure patience.
            if line.contains("perft")
                || line.contains("bench")
                || line.trim_start().starts_with("go")
            {
                continue;
            }
            session.handle_line(line);
        }
        session.handle_line("isready");
    }
    let bytes = out.0.lock().expect("output lock").clone();
    let reply = String::from_utf8_lossy(&bytes);
    assert!(
        reply.trim_end().ends_with("readyok"),
        "no readyok after {text:?}: {reply}"
    );
}

/// PGN text: reading never panics; every game read exports to PGN that reads back to the same
/// moves and result; every error names a reason.
pub fn check_pgn(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for read in read_pgn(&text) {
        match read {
            Ok(pgn) => {
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
            }
            Err(e) => assert!(!e.reason().is_empty()),
        }
    }
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
