//! Integration tests of the bitboard core: perft suites, a differential test against an
//! independent move generator (cozy-chess), and property tests of the FEN parser.

use ferrum::core::{perft, Move, Position};

/// A small deterministic generator, so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

mod perft_suites {
    use super::*;

    /// (fen, [(depth, nodes)]) from an EPD perft file.
    fn read_suite(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|line| {
                let mut parts = line.split(';');
                let fen = parts.next().unwrap_or("").trim().to_string();
                let depths = parts
                    .filter_map(|p| {
                        let (d, n) = p.trim().split_once(' ')?;
                        Some((d.strip_prefix('D')?.parse().ok()?, n.trim().parse().ok()?))
                    })
                    .collect();
                (fen, depths)
            })
            .collect()
    }

    /// Every position, at every depth whose count is at most `max_nodes`.
    fn check(text: &str, chess960: bool, max_nodes: u64) {
        let suite = read_suite(text);
        assert!(suite.len() > 40, "suite too small: {}", suite.len());
        let mut checked = 0;
        for (fen, depths) in suite {
            let pos = if chess960 {
                Position::from_fen_960(&fen)
            } else {
                Position::from_fen(&fen)
            };
            let mut pos = pos.unwrap_or_else(|e| panic!("{fen}: {e}"));
            for (depth, nodes) in depths.into_iter().filter(|&(_, n)| n <= max_nodes) {
                assert_eq!(perft(&mut pos, depth), nodes, "{fen} depth {depth}");
                checked += 1;
            }
        }
        assert!(checked > 150, "only {checked} checks");
    }

    #[test]
    fn standard_suite() {
        check(include_str!("data/standard.epd"), false, 3_000_000);
    }

    #[test]
    fn chess960_suite() {
        check(include_str!("data/chess960.epd"), true, 3_000_000);
    }
}

mod differential {
    use super::*;
    use cozy_chess::{Board, Piece as CozyPiece};

    fn cozy_moves(board: &Board) -> Vec<String> {
        let mut out = Vec::new();
        board.generate_moves(|moves| {
            for m in moves {
                out.push(m.to_string());
            }
            false
        });
        out.sort();
        out
    }

    fn our_moves(pos: &Position) -> Vec<String> {
        let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci(true)).collect();
        v.sort();
        v
    }

    fn to_cozy(m: Move) -> cozy_chess::Move {
        let sq = |s: ferrum::core::Square| cozy_chess::Square::index(s.index());
        let promotion = m.promotion().map(|p| match p {
            ferrum::core::PieceKind::Knight => CozyPiece::Knight,
            ferrum::core::PieceKind::Bishop => CozyPiece::Bishop,
            ferrum::core::PieceKind::Rook => CozyPiece::Rook,
            _ => CozyPiece::Queen,
        });
        cozy_chess::Move {
            from: sq(m.from()),
            to: sq(m.to()),
            promotion,
        }
    }

    /// Checks one position in every way we can; returns the number of moves.
    fn check_position(pos: &mut Position, board: &Board) -> usize {
        let ours = our_moves(pos);
        assert_eq!(ours, cozy_moves(board), "move sets differ in {}", pos.fen());
        assert_eq!(pos.count_legal_moves(), ours.len());
        assert_eq!(pos.key(), pos.key_from_scratch());
        assert_eq!(pos.pawn_key(), pos.pawn_key_from_scratch());
        assert_eq!(
            pos.legal_captures().len() + pos.legal_quiets().len(),
            ours.len()
        );
        let before = pos.clone();
        for &m in pos.clone().legal_moves().iter() {
            assert!(pos.is_legal(m));
            let undo = pos.make(m);
            assert_eq!(
                pos.key(),
                pos.key_from_scratch(),
                "key after {m:?} in {}",
                before.fen()
            );
            assert_eq!(
                pos.pawn_key(),
                pos.pawn_key_from_scratch(),
                "pawn key after {m:?}"
            );
            pos.unmake(m, &undo);
            assert!(
                *pos == before,
                "unmake of {m:?} did not restore {}",
                before.fen()
            );
        }
        // The FEN we write describes the same position.
        let again = Position::from_fen_960(&pos.fen_shredder()).expect("our own FEN parses");
        assert_eq!(again.fen_shredder(), pos.fen_shredder());
        assert_eq!(again.key(), pos.key());
        ours.len()
    }

    /// Random games from `start`, checking every position; returns positions checked.
    fn random_games(start: &str, games: usize, rng: &mut Rng) -> usize {
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = Position::from_fen_960(start).expect("start FEN");
            let mut board: Board = start.parse().expect("cozy parses the start");
            for _ply in 0..250 {
                let n = check_position(&mut pos, &board);
                checked += 1;
                if n == 0 || pos.halfmove_clock() >= 100 {
                    break;
                }
                let m = pos.legal_moves()[rng.below(n)];
                board.play(to_cozy(m));
                pos.make(m);
            }
        }
        checked
    }

    #[test]
    fn standard_games_agree_with_cozy_chess() {
        let mut rng = Rng(0x5eed_0001);
        let starts = [
            ferrum::core::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let mut total = 0;
        for (i, start) in starts.iter().enumerate() {
            total += random_games(start, if i == 0 { 300 } else { 60 }, &mut rng);
        }
        eprintln!("standard: {total} positions checked against cozy-chess");
        assert!(total >= 60_000, "only {total} positions");
    }

    #[test]
    fn chess960_games_agree_with_cozy_chess() {
        let mut rng = Rng(0x5eed_0960);
        let mut total = 0;
        for n in (0..960).step_by(3) {
            let start = format!("{:#}", Board::chess960_startpos(n));
            total += random_games(&start, 1, &mut rng);
        }
        eprintln!("chess960: {total} positions checked against cozy-chess");
        assert!(total >= 40_000, "only {total} positions");
    }
}

mod fen_properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Any string at all: an error or a position, never a panic; a position writes a FEN
        /// that reads back as the same position.
        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,120}") {
            if let Ok(pos) = Position::from_fen(&s) {
                prop_assert_eq!(Position::from_fen(&pos.fen()).map(|p| p.fen()), Ok(pos.fen()));
            }
        }

        /// Text made of FEN's own alphabet, so the parser gets deep before it fails.
        #[test]
        fn fen_shaped_text_never_panics(
            ranks in proptest::collection::vec("[pnbrqkPNBRQK1-8]{0,9}", 6..10),
            side in "[wbx]",
            castling in "[KQkqA-Ha-h-]{1,5}",
            ep in "(-|[a-h][1-8]|[a-z]{2})",
            clocks in "[0-9]{1,3} [0-9]{1,4}",
        ) {
            let fen = format!("{} {side} {castling} {ep} {clocks}", ranks.join("/"));
            for pos in [Position::from_fen(&fen), Position::from_fen_960(&fen)].into_iter().flatten() {
                let again = Position::from_fen_960(&pos.fen_shredder());
                prop_assert_eq!(again.map(|p| p.key()), Ok(pos.key()));
                prop_assert!(pos.king_square(pos.side_to_move()) != pos.king_square(!pos.side_to_move()));
            }
        }

        /// Positions from random games: FEN out, FEN in, the same position and the same text.
        #[test]
        fn random_positions_round_trip(seed in any::<u64>(), plies in 0usize..120) {
            let mut rng = Rng(seed | 1);
            let mut pos = Position::startpos();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                pos.make(m);
            }
            let fen = pos.fen();
            let back = Position::from_fen(&fen);
            prop_assert_eq!(back.as_ref().map(Position::fen), Ok(fen.clone()));
            prop_assert!(back.ok() == Some(pos), "{}", fen);
        }
    }
}

/// Replays the committed fuzz corpora (`fuzz/corpus/*`) through the fuzz targets' checks, so
/// every input the fuzzer ever found interesting stays covered without a fuzzer in CI.
#[path = "../fuzz/checks.rs"]
mod checks;
#[cfg(feature = "tune")]
#[path = "../fuzz/checks_data.rs"]
mod checks_data;

mod fuzz_corpus_replay {
    use super::checks;

    fn replay(target: &str, check: fn(&[u8])) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/corpus")
            .join(target);
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("corpus entry").path();
            check(&std::fs::read(&path).expect("corpus file"));
            files += 1;
        }
        assert!(files > 20, "{target}: only {files} corpus files");
    }

    #[test]
    fn fen_corpus() {
        replay("fen", checks::check_fen);
    }

    #[test]
    fn uci_line_corpus() {
        replay("uci_line", checks::check_uci_lines);
    }

    #[test]
    fn pgn_corpus() {
        replay("pgn", checks::check_pgn);
    }

    #[test]
    fn san_corpus() {
        replay("san", checks::check_san);
    }

    #[test]
    fn uci_session_corpus() {
        replay("uci_session", checks::check_uci_session);
    }

    #[test]
    fn book_corpus() {
        replay("book", checks::check_book);
    }

    #[cfg(feature = "tune")]
    #[test]
    fn data_chunk_corpus() {
        replay("data_chunk", super::checks_data::check_data_chunk);
    }

    #[test]
    fn network_corpus() {
        replay("network", checks::check_network);
    }
}
