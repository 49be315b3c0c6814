//! Polyglot books: published test keys, keys against python-chess and against a from-scratch
//! reference, both interop directions with python-chess (fixtures checked on the Python side by
//! `tests/polyglot_interop.py`), the default book against its source, malformed input, choosing
//! by weight and the builder's options.
//!
//! `FERRUM_BLESS=1 cargo test --release --test book` rewrites the two books Ferrum builds
//! (`book/ferrum.bin`, `tests/data/interop_ferrum.bin`) instead of comparing against them.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::ferrum;
use ferrum::book::{
    polyglot_key, Book, BookBuilder, BookError, BookPosition, BuildOptions, Choice, Entry,
    GameResult, PolyglotMove, RANDOM64,
};
use ferrum::core::{Color, Move, MoveKind, PieceKind, Position, Square};
use proptest::prelude::*;

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read_text(path: &str) -> String {
    std::fs::read_to_string(root(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Compares `bytes` with the committed file, or rewrites the file under `FERRUM_BLESS=1`.
fn check_or_bless(path: &str, bytes: &[u8]) {
    if std::env::var_os("FERRUM_BLESS").is_some() {
        std::fs::write(root(path), bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        return;
    }
    let committed = std::fs::read(root(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(
        committed == bytes,
        "{path} is not what Ferrum builds from its source ({} bytes committed, {} built); \
         rebuild it with FERRUM_BLESS=1 cargo test --release --test book",
        committed.len(),
        bytes.len()
    );
}

fn play_all(moves: &[&str]) -> BookPosition {
    let mut pos = BookPosition::startpos();
    for m in moves {
        pos.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos
}

fn hex(key: u64) -> String {
    format!("{key:016x}")
}

// ---- keys --------------------------------------------------------------------------------

/// The test positions published with the Polyglot book format: moves, the FEN given there,
/// and the key.
const PUBLISHED: [(&str, &str, u64); 9] = [
    (
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        0x463b96181691fc9c,
    ),
    (
        "e2e4",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        0x823c9b50fd114196,
    ),
    (
        "e2e4 d7d5",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
        0x0756b94461c50fb0,
    ),
    (
        "e2e4 d7d5 e4e5",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        0x662fafb965db29d4,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        0x22a48b5a8e47ff78,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5 e1e2",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
        0x652a607ca3f242c1,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7",
        "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
        0x00fdd303c946bdd9,
    ),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4",
        "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
        0x3c8123ea7b067637,
    ),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3",
        "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
        0x5c3f9b829b279560,
    ),
];

#[test]
fn published_test_keys() {
    for (moves, fen, key) in PUBLISHED {
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let played = play_all(&moves);
        assert_eq!(hex(played.key()), hex(key), "after {moves:?}");
        let parsed = BookPosition::from_fen(fen).unwrap();
        assert_eq!(hex(parsed.key()), hex(key), "{fen}");
        // The core's position alone is enough whenever no en-passant capture is only
        // pseudo-legal, which holds for all of these.
        assert_eq!(polyglot_key(played.position(), None), key, "{fen}");
    }
}

#[test]
fn pseudo_legal_en_passant_counts_but_a_lone_double_push_does_not() {
    // d4xe3 would expose the black king on a4 to the queen on h4: illegal, yet Polyglot counts
    // the e-file because a black pawn stands beside the pushed one.
    let mut pos = BookPosition::from_fen("8/8/8/8/k2p3Q/8/4P3/4K3 w - - 0 1").unwrap();
    pos.play_uci("e2e4").unwrap();
    assert_eq!(pos.ep_target(), Some(Square::E3));
    assert_eq!(pos.position().en_passant(), None, "the capture is illegal");
    let without = polyglot_key(pos.position(), None);
    assert_eq!(pos.key() ^ without, RANDOM64[772 + 4], "the e-file key");
    // The FEN's en-passant field carries the same information.
    let from_fen = BookPosition::from_fen("8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(from_fen.key(), pos.key());

    // A double push with no pawn of the side to move beside it changes nothing.
    let lone = play_all(&["e2e4"]);
    assert_eq!(lone.ep_target(), Some(Square::E3));
    assert_eq!(lone.key(), polyglot_key(lone.position(), None));
}

#[test]
fn keys_equal_python_chess_keys() {
    let text = read_text("tests/data/polyglot_keys.txt");
    let mut count = 0;
    for line in text.lines() {
        let (key, fen) = line.split_once(' ').unwrap();
        let pos = BookPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(hex(pos.key()), key, "{fen}");
        count += 1;
    }
    assert!(count > 500, "only {count} positions in the fixture");
}

/// A from-scratch Polyglot key, written independently of `ferrum::book`: from FEN text, with
/// the file of the last double push (if any) tracked by the caller.
fn reference_key(fen: &str, double_push_file: Option<usize>) -> u64 {
    let fields: Vec<&str> = fen.split(' ').collect();
    let mut board = [[' '; 8]; 8];
    for (i, row) in fields[0].split('/').enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => file += n as usize,
                None => {
                    board[rank][file] = c;
                    file += 1;
                }
            }
        }
    }
    let mut key = 0u64;
    for (rank, row) in board.iter().enumerate() {
        for (file, &c) in row.iter().enumerate() {
            if let Some(kind) = "pnbrqk".find(c.to_ascii_lowercase()) {
                let white = usize::from(c.is_ascii_uppercase());
                key ^= RANDOM64[64 * (2 * kind + white) + 8 * rank + file];
            }
        }
    }
    for (i, c) in "KQkq".chars().enumerate() {
        if fields[2].contains(c) {
            key ^= RANDOM64[768 + i];
        }
    }
    let white_to_move = fields[1] == "w";
    if let Some(f) = double_push_file {
        let (rank, own) = if white_to_move { (4, 'P') } else { (3, 'p') };
        let beside = (f > 0 && board[rank][f - 1] == own) || (f < 7 && board[rank][f + 1] == own);
        if beside {
            key ^= RANDOM64[772 + f];
        }
    }
    if white_to_move {
        key ^= RANDOM64[780];
    }
    key
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn key_equals_reference_along_random_games(choices in prop::collection::vec(any::<u32>(), 1..160)) {
        let mut pos = BookPosition::startpos();
        let mut double_push_file = None;
        for c in choices {
            let fen = pos.position().fen();
            prop_assert_eq!(pos.key(), reference_key(&fen, double_push_file), "{}", fen);
            let moves = pos.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            let text = m.to_uci(false);
            let (from, to) = (&text[0..2], &text[2..4]);
            let pawn = pos.position().piece_at(m.from()).map(|p| p.kind) == Some(PieceKind::Pawn);
            let two = from.as_bytes()[1].abs_diff(to.as_bytes()[1]) == 2;
            double_push_file = (pawn && two).then(|| usize::from(from.as_bytes()[0] - b'a'));
            pos.play(m).unwrap();
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200), sort in any::<bool>()) {
        let mut bytes = bytes;
        if sort {
            // Give the parser sorted books too, with whatever moves.
            let mut entries: Vec<[u8; 16]> = bytes
                .chunks_exact(16)
                .map(|c| <[u8; 16]>::try_from(c).unwrap())
                .collect();
            entries.sort();
            bytes = entries.concat();
        }
        let len = bytes.len();
        match Book::from_bytes(bytes) {
            Ok(book) => {
                prop_assert_eq!(book.len() * 16, len);
                for e in book.entries() {
                    let pos = BookPosition::startpos();
                    let _ = e.mv.to_move(pos.position());
                }
                let _ = book.probe(&BookPosition::startpos());
                let _ = book.choose(&BookPosition::startpos(), Choice::Weighted(len as u64));
            }
            Err(BookError::Truncated { len: l }) => prop_assert!(l % 16 != 0),
            Err(BookError::Unsorted { index }) => prop_assert!(!sort && index > 0),
            Err(e) => prop_assert!(false, "unexpected error {}", e),
        }
    }
}

// ---- moves ---------------------------------------------------------------------------------

#[test]
fn move_encoding_round_trips_for_every_kind_of_move() {
    let pos = Position::from_fen("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1").unwrap();
    let cases = [
        ("e5d6", 0x092b), // en passant
        ("b7a8q", 0x4c78),
        ("b7a8r", 0x3c78),
        ("b7a8b", 0x2c78),
        ("b7a8n", 0x1c78),
        ("g7g8n", 0x1dbe),
        ("a1a2", 0x0008),
    ];
    for (text, bits) in cases {
        let m = pos.parse_uci(text).unwrap();
        let pm = PolyglotMove::from_move(m);
        assert_eq!(pm.bits(), bits, "{text}: {pm}");
        assert_eq!(pm.to_move(&pos), Some(m), "{text}");
    }
    let black = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    for (text, written) in [("e8g8", "e8h8"), ("e8c8", "e8a8")] {
        let m = black.parse_uci(text).unwrap();
        assert!(m.is_castle());
        let pm = PolyglotMove::from_move(m);
        assert_eq!(pm.to_string(), written);
        assert_eq!(pm.to_move(&black), Some(m));
        // Books that write castling as the king's step are understood too.
        let step = PolyglotMove::from_bits(
            (m.king_destination().to_u8() as u16) | (m.from().to_u8() as u16) << 6,
        );
        assert_eq!(step.to_move(&black), Some(m));
    }
    // A promotion code Polyglot does not define, bit 15, or an illegal move decode to nothing.
    assert_eq!(
        PolyglotMove::from_bits(0x5c78).to_move(&pos),
        None,
        "promotion code 5"
    );
    assert_eq!(
        PolyglotMove::from_bits(0x8008).to_move(&pos),
        None,
        "bit 15"
    );
    assert_eq!(PolyglotMove::from_bits(0x0136).to_move(&pos), None, "e1g7");
    // A promotion without its piece is not a move.
    assert_eq!(PolyglotMove::from_bits(0x0c78).to_move(&pos), None, "b7a8");
}

// ---- reading, choosing, malformed input ------------------------------------------------------

fn entry(key: u64, pos: &Position, uci: &str, weight: u16, learn: u32) -> Entry {
    Entry {
        key,
        mv: PolyglotMove::from_move(pos.parse_uci(uci).unwrap()),
        weight,
        learn,
    }
}

fn book_of(entries: &[Entry]) -> Book {
    Book::from_bytes(entries.iter().flat_map(Entry::to_bytes).collect()).unwrap()
}

#[test]
fn probe_finds_a_position_among_others_and_sorts_best_first() {
    let start = BookPosition::startpos();
    let s = start.position();
    let k = start.key();
    let book = book_of(&[
        entry(1, s, "a2a3", 9, 0),
        entry(k - 1, s, "b2b3", 9, 0),
        entry(k, s, "g1f3", 5, 7),
        entry(k, s, "e2e4", 20, 0),
        Entry {
            key: k,
            mv: PolyglotMove::from_move(Move::new(Square::E1, Square::E2, MoveKind::Normal)),
            weight: 30,
            learn: 0,
        }, // not legal: skipped
        entry(k, s, "d2d4", 20, 0),
        entry(k, s, "c2c4", 0, 0),
        entry(k + 1, s, "h2h3", 9, 0),
        entry(u64::MAX, s, "h2h4", 9, 0),
    ]);
    let got: Vec<(String, u16, u32)> = book
        .probe(&start)
        .iter()
        .map(|b| (b.mv.to_uci(false), b.weight, b.learn))
        .collect();
    let want = [
        ("e2e4", 20, 0),
        ("d2d4", 20, 0),
        ("g1f3", 5, 7),
        ("c2c4", 0, 0),
    ];
    let want: Vec<(String, u16, u32)> = want
        .iter()
        .map(|&(m, w, l)| (m.to_string(), w, l))
        .collect();
    assert_eq!(got, want);
    assert_eq!(book.entries_for_key(k).count(), 5);
    assert_eq!(book.entries_for_key(2).count(), 0);
    assert_eq!(book.entries_for_key(u64::MAX).count(), 1);
    let best = book.choose(&start, Choice::Best).unwrap();
    assert_eq!(
        best.mv.to_uci(false),
        "e2e4",
        "first of the best in file order"
    );
}

#[test]
fn weighted_choice_follows_the_weights_and_never_picks_weight_zero() {
    let start = BookPosition::startpos();
    let s = start.position();
    let k = start.key();
    let book = book_of(&[
        entry(k, s, "d2d4", 1, 0),
        entry(k, s, "e2e4", 3, 0),
        entry(k, s, "c2c4", 0, 0),
    ]);
    let mut counts: HashMap<String, u32> = HashMap::new();
    let n = 4000u64;
    for i in 0..n {
        // Evenly spread over the whole range: i / n of the way up.
        let r = ((u128::from(i) << 64) / u128::from(n)) as u64;
        let m = book.choose(&start, Choice::Weighted(r)).unwrap();
        *counts.entry(m.mv.to_uci(false)).or_default() += 1;
    }
    assert_eq!(counts.get("e2e4"), Some(&3000));
    assert_eq!(counts.get("d2d4"), Some(&1000));
    assert_eq!(counts.get("c2c4"), None);

    let zero = book_of(&[entry(k, s, "c2c4", 0, 0)]);
    assert_eq!(zero.probe(&start).len(), 1);
    assert_eq!(zero.choose(&start, Choice::Best), None);
    assert_eq!(zero.choose(&start, Choice::Weighted(u64::MAX)), None);
    assert_eq!(Book::default().choose(&start, Choice::Best), None);
}

#[test]
fn malformed_books_are_refused_with_a_reason() {
    let e = Entry {
        key: 5,
        mv: PolyglotMove::from_bits(0x031c),
        weight: 1,
        learn: 0,
    };
    let mut bytes = [e, e].iter().flat_map(Entry::to_bytes).collect::<Vec<u8>>();
    bytes.pop();
    let err = Book::from_bytes(bytes).unwrap_err();
    assert!(matches!(err, BookError::Truncated { len: 31 }), "{err:?}");
    assert!(err.to_string().contains("31 bytes"), "{err}");

    let later = Entry { key: 4, ..e };
    let err =
        Book::from_bytes([e, e, later].iter().flat_map(Entry::to_bytes).collect()).unwrap_err();
    assert!(matches!(err, BookError::Unsorted { index: 2 }), "{err:?}");
    assert!(err.to_string().contains("entry 2"), "{err}");

    let missing = root("tests/data/no-such-book.bin");
    let err = Book::open(&missing).unwrap_err();
    assert!(matches!(err, BookError::Io { .. }), "{err:?}");
    assert!(err.to_string().contains("no-such-book.bin"), "{err}");

    let empty = Book::from_bytes(Vec::new()).unwrap();
    assert!(empty.is_empty());
    assert!(empty.probe(&BookPosition::startpos()).is_empty());
}

#[test]
fn bad_fen_and_illegal_moves_are_errors_that_change_nothing() {
    assert!(BookPosition::from_fen("8/8/8 w - - 0 1").is_err());
    assert!(BookPosition::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e6 0 1").is_err());
    let mut pos = BookPosition::startpos();
    assert!(pos.play_uci("e2e5").is_err());
    assert!(pos.play_uci("junk").is_err());
    assert!(pos.play(Move::NULL).is_err());
    assert_eq!(pos, BookPosition::startpos());
}

// ---- building ----------------------------------------------------------------------------------

fn weights(builder: &BookBuilder, pos: &BookPosition) -> Vec<(String, u16)> {
    let book = Book::from_bytes(builder.finish().to_bytes()).unwrap();
    book.probe(pos)
        .iter()
        .map(|b| (b.mv.to_uci(false), b.weight))
        .collect()
}

fn pairs(list: &[(&str, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|&(m, w)| (m.to_string(), w)).collect()
}

#[test]
fn builder_weighs_by_results_and_honours_its_options() {
    let start = BookPosition::startpos();
    let after_e4 = play_all(&["e2e4"]);
    let games = [
        ("1-0", "e2e4 e7e5 g1f3"),
        ("0-1", "e2e4 c7c5 g1f3"),
        ("1/2-1/2", "e2e4 e7e5 f1c4"),
        ("*", "d2d4 d7d5"),
        ("1-0", "d2d4 g8f6"),
    ];
    let build = |options: BuildOptions| {
        let mut b = BookBuilder::new(options);
        for (result, moves) in games {
            let result: GameResult = result.parse().unwrap();
            b.add_uci_game(&start, moves.split_whitespace(), result)
                .unwrap();
        }
        assert_eq!(b.games(), 5);
        b
    };

    let all = build(BuildOptions::default());
    // e2e4: win 2 + loss 0 + draw 1; d2d4: unknown 1 + win 2.
    // Equal weights: the writer orders them by move (d2d4 is encoded below e2e4).
    assert_eq!(weights(&all, &start), pairs(&[("d2d4", 3), ("e2e4", 3)]));
    // Black: e7e5 lost once (0) and drew once (1); c7c5 won (2).
    assert_eq!(weights(&all, &after_e4), pairs(&[("c7c5", 2), ("e7e5", 1)]));

    let min2 = build(BuildOptions {
        min_games: 2,
        ..BuildOptions::default()
    });
    assert_eq!(weights(&min2, &after_e4), pairs(&[("e7e5", 1)]));

    let short = build(BuildOptions {
        max_ply: 1,
        ..BuildOptions::default()
    });
    assert!(weights(&short, &after_e4).is_empty());
    assert_eq!(weights(&short, &start).len(), 2);

    let white_wins = build(BuildOptions {
        only_wins_of: vec![Color::White],
        ..BuildOptions::default()
    });
    assert_eq!(
        weights(&white_wins, &start),
        pairs(&[("d2d4", 2), ("e2e4", 2)])
    );
    assert!(weights(&white_wins, &after_e4).is_empty(), "no Black moves");
    let black_wins = build(BuildOptions {
        only_wins_of: vec![Color::Black],
        ..BuildOptions::default()
    });
    assert_eq!(weights(&black_wins, &after_e4), pairs(&[("c7c5", 2)]));
    assert!(weights(&black_wins, &start).is_empty());
}

#[test]
fn builder_refuses_a_bad_game_whole_and_merges_transpositions() {
    let start = BookPosition::startpos();
    let mut b = BookBuilder::new(BuildOptions::default());
    let err = b
        .add_uci_game(&start, ["e2e4", "e7e5", "e1e3"], GameResult::Draw)
        .unwrap_err();
    assert_eq!(err.ply, 3);
    assert_eq!(b.games(), 0);
    assert_eq!(b.positions(), 0, "nothing of the refused game was added");

    // 1.Nf3 Nf6 2.c4 and 1.c4 Nf6 2.Nf3 reach the same position: its moves merge.
    b.add_uci_game(&start, "g1f3 g8f6 c2c4 e7e6".split(' '), GameResult::Draw)
        .unwrap();
    b.add_uci_game(&start, "c2c4 g8f6 g1f3 e7e6".split(' '), GameResult::Draw)
        .unwrap();
    let moves: Vec<Move> = ["g1f3", "g8f6", "c2c4"]
        .iter()
        .scan(Position::startpos(), |p, t| {
            let m = p.parse_uci(t).unwrap();
            p.make(m);
            Some(m)
        })
        .collect();
    b.add_game(&start, moves, GameResult::Unknown).unwrap();
    let there = play_all(&["c2c4", "g8f6", "g1f3"]);
    assert_eq!(weights(&b, &there), pairs(&[("e7e6", 2)]));

    let lines = b
        .add_uci_lines("# comment\n\n1-0 e2e4\n*  d2d4 d7d5\n")
        .unwrap();
    assert_eq!(lines, 2);
    let err = b.add_uci_lines("1-0 e2e4\n2-0 d2d4\n").unwrap_err();
    assert_eq!(err.line, 2);
    let err = b.add_uci_lines("* e2e4 e2e4\n").unwrap_err();
    assert!(err.to_string().contains("line 1: ply 2"), "{err}");
}

// ---- the default book --------------------------------------------------------------------------

#[test]
fn default_book_is_built_from_its_source() {
    let source = read_text("book/ferrum.pgn");
    let mut builder = BookBuilder::new(BuildOptions::default());
    let added = builder.add_pgn(&source);
    assert!(added.skipped.is_empty(), "{:?}", added.skipped);
    assert!(added.games >= 250, "only {} lines", added.games);
    let bytes = builder.finish().to_bytes();
    check_or_bless("book/ferrum.bin", &bytes);

    let embedded = Book::embedded();
    assert_eq!(
        embedded.as_bytes(),
        &bytes[..],
        "the embedded book is the built one"
    );
    // Every line of the source is in the book, move by move, and nothing else is.
    let mut positions = 0;
    for line in ferrum::rules::read_pgn(&source) {
        let line = line.expect("checked above");
        let mut pos = BookPosition::startpos();
        for &m in line.game.history() {
            let found = embedded.probe(&pos);
            assert!(
                found.iter().any(|b| b.mv == m && b.weight > 0),
                "{:?}: {m:?}",
                line.tag("Opening")
            );
            positions += 1;
            pos.play(m).unwrap();
        }
    }
    let total: usize = embedded.entries().map(|e| usize::from(e.weight)).sum();
    assert_eq!(
        total, positions,
        "weights count the lines through each move"
    );
    let root = embedded.probe(&BookPosition::startpos());
    let names: Vec<String> = root.iter().map(|b| b.mv.to_uci(false)).collect();
    assert_eq!(names[..2], ["e2e4", "d2d4"]);
}

// ---- interop with python-chess -------------------------------------------------------------------

fn parse_token(token: &str) -> (String, u16, u16, u32) {
    let f: Vec<&str> = token.split(',').collect();
    (
        f[0].to_string(),
        u16::from_str_radix(f[1], 16).unwrap(),
        f[2].parse().unwrap(),
        f[3].parse().unwrap(),
    )
}

/// Ferrum's reading of `pos` in `book`, as `(uci, raw, weight, learn)` in file order.
fn raw_reading(book: &Book, pos: &BookPosition) -> Vec<(String, u16, u16, u32)> {
    book.entries_for_key(pos.key())
        .map(|e| {
            let m = e.mv.to_move(pos.position()).expect("a legal move");
            (m.to_uci(false), e.mv.bits(), e.weight, e.learn)
        })
        .collect()
}

/// What `probe` must return given the entries in file order: best first, stable.
fn best_first(mut tokens: Vec<(String, u16, u16, u32)>) -> Vec<(String, u16, u32)> {
    tokens.sort_by_key(|t| std::cmp::Reverse(t.2));
    tokens.into_iter().map(|(m, _, w, l)| (m, w, l)).collect()
}

fn probed(book: &Book, pos: &BookPosition) -> Vec<(String, u16, u32)> {
    book.probe(pos)
        .iter()
        .map(|b| (b.mv.to_uci(false), b.weight, b.learn))
        .collect()
}

#[test]
fn ferrum_written_book_reads_as_python_chess_reads_it() {
    let games = read_text("tests/data/interop_games.uci");
    let mut builder = BookBuilder::new(BuildOptions::default());
    builder.add_uci_lines(&games).unwrap();
    let bytes = builder.finish().to_bytes();
    check_or_bless("tests/data/interop_ferrum.bin", &bytes);
    let book = Book::from_bytes(bytes).unwrap();

    // python-chess's reading of every position of the games (tests/polyglot_interop.py).
    let listing = read_text("tests/data/interop_ferrum.txt");
    let mut expected: HashMap<String, Vec<(String, u16, u16, u32)>> = HashMap::new();
    for line in listing.lines() {
        let mut words = line.split_whitespace();
        let key = words.next().unwrap().to_string();
        expected.insert(key, words.map(parse_token).collect());
    }
    let mut checked = 0;
    for line in games.lines().filter(|l| !l.starts_with('#')) {
        let mut pos = BookPosition::startpos();
        for text in line.split_whitespace().skip(1) {
            let want = expected
                .get(&hex(pos.key()))
                .unwrap_or_else(|| panic!("key {} not in the listing", hex(pos.key())));
            assert_eq!(&raw_reading(&book, &pos), want, "{}", pos.position().fen());
            assert_eq!(probed(&book, &pos), best_first(want.clone()));
            checked += 1;
            pos.play_uci(text).unwrap();
        }
    }
    assert!(checked > 500 && expected.len() > 500, "{checked} positions");
}

#[test]
fn python_chess_written_book_reads_identically_in_ferrum() {
    let book = Book::open(root("tests/data/interop_python.bin")).unwrap();
    let listing = read_text("tests/data/interop_python.txt");
    let mut entries = 0;
    let mut castles = 0;
    let mut promotions = 0;
    for line in listing.lines() {
        let fields: Vec<&str> = line.split('|').collect();
        let pos = BookPosition::from_fen(fields[0]).unwrap();
        assert_eq!(hex(pos.key()), fields[1], "{}", fields[0]);
        let want: Vec<_> = fields[2].split_whitespace().map(parse_token).collect();
        assert_eq!(raw_reading(&book, &pos), want, "{}", fields[0]);
        assert_eq!(
            probed(&book, &pos),
            best_first(want.clone()),
            "{}",
            fields[0]
        );
        for b in book.probe(&pos) {
            castles += usize::from(b.mv.is_castle());
            promotions += usize::from(b.mv.promotion().is_some());
        }
        entries += want.len();
    }
    assert_eq!(
        entries,
        book.len(),
        "every entry belongs to a listed position"
    );
    assert!(
        castles >= 4 && promotions >= 16,
        "{castles} castles, {promotions} promotions"
    );
}

// ---- the command line ----------------------------------------------------------------------------

#[test]
fn command_line_builds_and_probes_books() {
    // The embedded book, by moves and by FEN (published key after e4 d5 e5 f5).
    let (ok, out, _) = ferrum(&["book", "probe"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "key 463b96181691fc9c");
    let root: Vec<String> = Book::embedded()
        .probe(&BookPosition::startpos())
        .iter()
        .map(|b| format!("{} {}", b.mv.to_uci(false), b.weight))
        .collect();
    assert_eq!(lines[1..], root[..]);
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let (ok, out, _) = ferrum(&["book", "probe", "--fen", fen]);
    assert!(ok);
    assert_eq!(out.lines().next(), Some("key 22a48b5a8e47ff78"));
    let (ok, out, _) = ferrum(&["book", "probe", "e2e4", "d7d5", "e4e5", "f7f5"]);
    assert!(ok);
    assert_eq!(out.lines().next(), Some("key 22a48b5a8e47ff78"));

    // Build from a game list, then probe the result.
    let dir = std::env::temp_dir();
    let games = dir.join(format!("ferrum-cli-games-{}.uci", std::process::id()));
    let book = dir.join(format!("ferrum-cli-book-{}.bin", std::process::id()));
    std::fs::write(&games, "1-0 e2e4 e7e5 g1f3\n0-1 e2e4 c7c5\n1-0 d2d4 d7d5\n").unwrap();
    let (games_s, book_s) = (games.to_str().unwrap(), book.to_str().unwrap());
    let (ok, _, err) = ferrum(&[
        "book",
        "build",
        games_s,
        "-o",
        book_s,
        "--only-wins-of",
        "white",
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("3 games"),
        "progress and summary on stderr: {err}"
    );
    let (ok, out, _) = ferrum(&["book", "probe", "--book", book_s]);
    assert!(ok);
    assert_eq!(
        out.lines().skip(1).collect::<Vec<_>>(),
        ["d2d4 2", "e2e4 2"]
    );
    let (ok, out, _) = ferrum(&["book", "probe", "--book", book_s, "e2e4"]);
    assert!(ok);
    assert_eq!(
        out.lines().count(),
        1,
        "no Black moves with --only-wins-of white: {out}"
    );

    // Bad input: a clear message and a failing exit status, never a panic.
    std::fs::write(&games, "1-0 e2e4\n1-0 e2e5\n").unwrap();
    let (ok, _, err) = ferrum(&["book", "build", games_s, "-o", book_s]);
    assert!(
        !ok && err.contains("line 2") && err.contains("e2e5"),
        "{err}"
    );
    std::fs::write(&book, [0u8; 17]).unwrap();
    let (ok, _, err) = ferrum(&["book", "probe", "--book", book_s]);
    assert!(!ok && err.contains("17 bytes"), "{err}");
    let (ok, _, err) = ferrum(&["book", "probe", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert!(!ok && err.contains("bad --fen"), "{err}");
    let (ok, _, err) = ferrum(&["book", "probe", "e2e5"]);
    assert!(!ok && err.contains("e2e5"), "{err}");
    let _ = std::fs::remove_file(&games);
    let _ = std::fs::remove_file(&book);
}
