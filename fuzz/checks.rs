//! The invariants the fuzz targets check, shared with `tests/core.rs`, which replays the
//! committed corpora through them on every `cargo test`.

// Each fuzz target uses one of these functions.
#![allow(dead_code)]

use ferrum::core::Position;
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

/// UCI input: parsing never panics, and a session fed the lines still answers `isready`.
pub fn check_uci_lines(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = parse(&text);
    let mut out = Vec::new();
    {
        let mut session = Session::new(&mut out);
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
    let reply = String::from_utf8_lossy(&out);
    assert!(
        reply.trim_end().ends_with("readyok"),
        "no readyok after {text:?}: {reply}"
    );
}
