//! The exact-rules game API (issue 3): every acceptance rule, each test written so that it
//! fails if the rule were implemented wrongly. One integration binary; modules by topic.

use ferrum::core::{insufficient_material, CastlingRights, Color, Move, Piece, PieceKind, Square};
use ferrum::rules::{
    answer, read_pgn, referee, write_pgn, CastlingRefusal, DrawClaim, Game, GameError, MoveError,
    MoveErrorKind, Outcome, PgnErrorKind, PgnGame, PipeCommand, SharedGame, SubmitError,
};

// ---- helpers ----

fn game(fen: &str) -> Game {
    match Game::from_fen(fen) {
        Ok(g) => g,
        Err(e) => panic!("{fen}: {e}"),
    }
}

fn play_all(game: &mut Game, moves: &[&str]) {
    for m in moves {
        if let Err(e) = game.play(m) {
            panic!("{m} refused in {}: {e}", game.fen());
        }
    }
}

/// Everything observable about a game, to check that a refusal changed nothing.
fn state(game: &Game) -> (String, Vec<Move>, usize, Outcome, Vec<DrawClaim>, usize) {
    (
        game.fen(),
        game.history().to_vec(),
        game.ply(),
        game.outcome(),
        game.claimable_draws(),
        game.repetitions(),
    )
}

/// Plays `text`, expects a refusal, checks the game is unchanged, returns the error.
fn refused(game: &mut Game, text: &str) -> MoveError {
    let before = state(game);
    let err = match game.play(text) {
        Ok(m) => panic!("{text} was accepted as {m:?} in {}", before.0),
        Err(e) => e,
    };
    assert_eq!(state(game), before, "refusing {text} changed the game");
    err
}

/// Text with every run of whitespace made one space (PGN lines wrap anywhere).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Expects `text` to be refused because the game is over.
fn assert_game_over(game: &mut Game, text: &str) {
    let err = refused(game, text);
    assert!(
        matches!(err.kind(), MoveErrorKind::GameOver { .. }),
        "{text}: {err}"
    );
}

fn uci_set(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.into_iter().map(|m| m.to_uci(false)).collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn moves_from(game: &Game, sq: Square) -> Vec<String> {
    uci_set(
        game.legal_moves()
            .iter()
            .copied()
            .filter(|m| m.from() == sq),
    )
}

/// A small deterministic generator for random games (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random game of at most `max_plies` plies from `start`, stopping when it ends.
fn random_game(rng: &mut Rng, start: Game, max_plies: usize) -> Game {
    let mut g = start;
    for _ in 0..max_plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        g.play_move(m).unwrap();
    }
    g
}

mod legality {
    use super::*;

    #[test]
    fn a_pinned_piece_moves_along_the_pin_and_not_off_it() {
        // Rook e4 pinned on the e-file by the rook on e8.
        let mut g = game("4r1k1/8/8/8/4R3/8/8/4K3 w - - 0 1");
        assert_eq!(
            moves_from(&g, Square::E4),
            sorted(&["e4e2", "e4e3", "e4e5", "e4e6", "e4e7", "e4e8"])
        );
        let err = refused(&mut g, "Rd4");
        assert_eq!(
            err.kind(),
            &MoveErrorKind::LeavesKingInCheck {
                color: Color::White,
                king_move: false
            }
        );
        assert_eq!(err.to_string(), "Rd4 leaves the white king in check");
        g.play("Re6").unwrap();

        // Bishop d2 pinned on the diagonal by the bishop on c3: only the capture of the pinner.
        let g = game("6k1/p7/8/8/8/2b5/3B4/4K3 w - - 0 1");
        assert_eq!(moves_from(&g, Square::D2), sorted(&["d2c3"]));

        // A pinned knight has no move at all; the issue's own message.
        let mut g = game("4r1k1/8/8/8/4N3/8/8/4K3 w - - 0 1");
        assert!(moves_from(&g, Square::E4).is_empty());
        assert_eq!(
            refused(&mut g, "e4d6").to_string(),
            "e4d6 leaves the white king in check"
        );
    }

    #[test]
    fn a_king_cannot_retreat_along_the_line_of_the_checking_slider() {
        let mut g = game("4r1k1/8/8/4K3/8/8/8/8 w - - 0 1");
        assert!(g.is_check());
        assert_eq!(
            moves_from(&g, Square::E5),
            sorted(&["e5d4", "e5d5", "e5d6", "e5f4", "e5f5", "e5f6"])
        );
        for away in ["Ke4", "e5e4", "Ke6"] {
            let err = refused(&mut g, away);
            assert_eq!(
                err.kind(),
                &MoveErrorKind::LeavesKingInCheck {
                    color: Color::White,
                    king_move: true
                },
                "{away}"
            );
        }
        assert_eq!(
            refused(&mut g, "Ke4").to_string(),
            "Ke4 puts the white king in check"
        );
    }

    #[test]
    fn a_pinned_enemy_piece_still_attacks_the_squares_it_covers() {
        // The black bishop e6 is pinned to its king by the rook e2, yet it still covers f5 and
        // g4, so the white king may not step there.
        let mut g = game("4k3/8/4b3/8/5K2/8/4R3/8 w - - 0 1");
        assert_eq!(
            moves_from(&g, Square::F4),
            sorted(&["f4e3", "f4e4", "f4e5", "f4f3", "f4g3", "f4g5"])
        );
        for into in ["Kf5", "Kg4"] {
            assert!(matches!(
                refused(&mut g, into).kind(),
                MoveErrorKind::LeavesKingInCheck {
                    king_move: true,
                    ..
                }
            ));
        }
        // And the pinned bishop itself has no legal move.
        let g = game("4k3/8/4b3/8/5K2/8/4R3/8 b - - 0 1");
        assert!(moves_from(&g, Square::E6).is_empty());
    }

    #[test]
    fn in_double_check_only_king_moves_are_legal() {
        // Rook e1 and bishop b5 both check e8. Capturing the rook or blocking the bishop
        // answers one check only.
        let mut g = game("4k3/8/8/1B6/8/8/3q4/K3R3 b - - 0 1");
        assert_eq!(g.position().checkers().count(), 2);
        assert_eq!(
            uci_set(g.legal_moves().iter().copied()),
            sorted(&["e8d8", "e8f7", "e8f8"])
        );
        for single in ["Qxe1", "Qd7", "d2e1"] {
            assert!(
                matches!(
                    refused(&mut g, single).kind(),
                    MoveErrorKind::LeavesKingInCheck {
                        king_move: false,
                        ..
                    }
                ),
                "{single}"
            );
        }
    }

    /// The one gate: every 16-bit move value is accepted by `play_move` exactly when it is in
    /// the legal list, and a refused value changes nothing (and never panics).
    #[test]
    fn play_move_accepts_exactly_the_legal_list() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let mut g = game(fen);
            let legal = g.legal_moves();
            let before = state(&g);
            let mut accepted = 0;
            for bits in 0..=u16::MAX {
                let m = Move::from_bits(bits);
                match g.play_move(m) {
                    Ok(()) => {
                        assert!(legal.contains(&m), "{m:?} accepted in {fen}");
                        accepted += 1;
                        g.undo().unwrap();
                        g = game(fen); // forget the redo list
                    }
                    Err(e) => {
                        assert!(!legal.contains(&m), "{m:?} refused in {fen}: {e}");
                        assert!(!e.reason().is_empty());
                    }
                }
                assert_eq!(state(&g), before);
            }
            assert_eq!(accepted, legal.len(), "{fen}");
        }
    }

    #[test]
    fn arbitrary_text_never_panics_and_never_changes_the_game() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let alphabet: Vec<char> = "abcdefgh12345678KQRBNPkqrbnpxO0-=+#!?()/:. e"
            .chars()
            .collect();
        let mut g = Game::new();
        play_all(&mut g, &["e4", "d5", "e5", "f5"]);
        let before = state(&g);
        let legal = g.legal_moves();
        for _ in 0..50_000 {
            let len = 1 + rng.below(7);
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            match g.parse_move(&text) {
                Ok(m) => assert!(legal.contains(&m)),
                Err(e) => assert!(!e.to_string().is_empty()),
            }
            assert_eq!(state(&g), before);
        }
    }
}

mod castling {
    use super::*;

    fn castling_refusal(g: &mut Game, text: &str) -> CastlingRefusal {
        match refused(g, text).kind() {
            MoveErrorKind::Castling(r) => *r,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn queen_side_castling_is_legal_with_b1_attacked_and_refused_with_d1_attacked() {
        let mut g = game("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        g.play("O-O-O").unwrap();
        assert_eq!(
            g.position().piece_at(Square::C1).map(|p| p.kind),
            Some(PieceKind::King)
        );
        assert_eq!(
            g.position().piece_at(Square::D1).map(|p| p.kind),
            Some(PieceKind::Rook)
        );
        let mut g = game("r3k3/8/8/8/8/8/8/1R2K3 b q - 0 1");
        g.play("O-O-O").unwrap();
        assert_eq!(
            g.position().piece_at(Square::C8).map(|p| p.kind),
            Some(PieceKind::King)
        );

        let mut g = game("3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(
            castling_refusal(&mut g, "O-O-O"),
            CastlingRefusal::ThroughCheck { square: Square::D1 }
        );
        let mut g = game("r3k3/8/8/8/8/8/8/3RK3 b q - 0 1");
        assert_eq!(
            castling_refusal(&mut g, "O-O-O"),
            CastlingRefusal::ThroughCheck { square: Square::D8 }
        );
    }

    #[test]
    fn castling_out_of_through_or_into_check_is_refused_with_the_castling_reason() {
        let mut g = game("4k3/8/8/8/4r3/8/8/R3K2R w KQ - 0 1");
        for text in ["O-O", "O-O-O", "e1g1", "e1h1", "e1c1", "0-0"] {
            assert_eq!(
                castling_refusal(&mut g, text),
                CastlingRefusal::InCheck {
                    color: Color::White
                }
            );
        }
        let err = refused(&mut g, "O-O");
        assert_eq!(
            err.reason(),
            "castling is not allowed: the white king is in check"
        );

        let mut g = game("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        for text in ["O-O", "e1g1", "e1h1"] {
            assert_eq!(
                castling_refusal(&mut g, text),
                CastlingRefusal::ThroughCheck { square: Square::F1 }
            );
        }
        let err = refused(&mut g, "e1g1");
        assert_eq!(err.reason(), "castling is not allowed: f1 is attacked");
        assert_eq!(
            err.to_string(),
            "e1g1: castling is not allowed: f1 is attacked"
        );
        g.play("O-O-O").unwrap(); // the other side is fine

        let mut g = game("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(
            castling_refusal(&mut g, "O-O"),
            CastlingRefusal::IntoCheck { square: Square::G1 }
        );

        let mut g = game("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
        assert_eq!(
            castling_refusal(&mut g, "O-O-O"),
            CastlingRefusal::Blocked { square: Square::B1 }
        );
        // The same refusal for a Move value.
        let m = Move::new(Square::E1, Square::A1, ferrum::core::MoveKind::Castle);
        let err = g.play_move(m).unwrap_err();
        assert_eq!(
            err.kind(),
            &MoveErrorKind::Castling(CastlingRefusal::Blocked { square: Square::B1 })
        );
    }

    #[test]
    fn a_rook_that_moved_away_and_back_has_lost_its_right() {
        let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        play_all(&mut g, &["Rh2", "Rh7", "Rh1", "Rh8"]);
        assert_eq!(
            g.position().castling_rights(),
            CastlingRights::WHITE_QUEEN | CastlingRights::BLACK_QUEEN
        );
        assert_eq!(
            castling_refusal(&mut g, "O-O"),
            CastlingRefusal::NoRight {
                color: Color::White,
                side: ferrum::core::CastleSide::King
            }
        );
        // A king that moved and came back loses both.
        play_all(&mut g, &["Ke2", "Kd8", "Ke1", "Ke8"]);
        assert!(g.position().castling_rights().is_empty());
        assert!(matches!(
            castling_refusal(&mut g, "O-O-O"),
            CastlingRefusal::NoRight { .. }
        ));
    }

    #[test]
    fn capturing_the_h1_rook_removes_the_right_and_undo_restores_both() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
        let mut g = game(fen);
        let m = g.play("Rxh1+").unwrap();
        assert!(g.is_check());
        assert_eq!(
            g.position().castling_rights(),
            CastlingRights::WHITE_QUEEN | CastlingRights::BLACK_QUEEN
        );
        assert_eq!(g.undo(), Ok(m));
        assert_eq!(
            g.position().piece_at(Square::H1),
            Some(Piece::new(Color::White, PieceKind::Rook))
        );
        assert_eq!(g.position().castling_rights(), CastlingRights::all());
        assert_eq!(g.fen(), fen);
    }

    #[test]
    fn castling_text_in_every_accepted_form() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let g = game(fen);
        let short: Vec<Move> = ["O-O", "0-0", "e1g1", "e1h1", "O-O+"]
            .iter()
            .map(|t| g.parse_move(t).unwrap())
            .collect();
        assert!(short.iter().all(|m| *m == short[0] && m.is_castle()));
        let long = g.parse_move("0-0-0").unwrap();
        assert_eq!(long, g.parse_move("e1c1").unwrap());
        assert_eq!(long, g.parse_move("e1a1").unwrap());
        assert_eq!(g.san(long).unwrap(), "O-O-O");
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
        let mut g = Game::from_fen_960(fen).unwrap();
        let m = g.parse_move("b1h1").unwrap();
        assert_eq!(g.parse_move("O-O").unwrap(), m);
        assert!(answer(&mut g, &PipeCommand::LegalMoves).contains(" b1h1"));
        assert_eq!(
            answer(&mut g, &PipeCommand::Play("O-O".into())),
            "played b1h1 O-O ongoing"
        );
        assert_eq!(g.fen(), "rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1");
        assert_eq!(answer(&mut g, &PipeCommand::Undo), "undone b1h1");
        // Castling through an attacked square is refused here too.
        let mut g = Game::from_fen_960("rk3r2/8/8/8/8/8/8/RK5R w HA - 0 1").unwrap();
        assert!(matches!(
            refused(&mut g, "O-O").kind(),
            MoveErrorKind::Castling(CastlingRefusal::ThroughCheck { square: Square::F1 })
        ));
    }

    #[test]
    fn every_chess960_start_is_distinct_and_well_formed() {
        let mut fens = std::collections::HashSet::new();
        for n in 0..960 {
            let g = Game::chess960(n).unwrap();
            let pos = g.position();
            let back: Vec<PieceKind> = (0..8)
                .filter_map(|f| pos.piece_at(Square::from_coords(f, 0)).map(|p| p.kind))
                .collect();
            let file_of = |k: PieceKind| back.iter().position(|&p| p == k).unwrap();
            let rooks: Vec<usize> = (0..8).filter(|&f| back[f] == PieceKind::Rook).collect();
            let king = file_of(PieceKind::King);
            assert!(rooks[0] < king && king < rooks[1], "{n}: {}", g.fen());
            let bishops: Vec<usize> = (0..8).filter(|&f| back[f] == PieceKind::Bishop).collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}");
            assert_eq!(pos.castling_rights(), CastlingRights::all());
            assert!(fens.insert(g.fen()));
        }
        assert_eq!(fens.len(), 960);
        assert_eq!(Game::chess960(518).unwrap().fen(), Game::new().fen());
    }
}

mod en_passant {
    use super::*;

    #[test]
    fn only_on_the_very_next_move() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "a6", "e5", "d5"]);
        let m = g.parse_move("exd6").unwrap();
        assert!(m.is_en_passant());
        play_all(&mut g, &["Nf3", "Nf6"]);
        let err = refused(&mut g, "exd6");
        assert!(
            matches!(err.kind(), MoveErrorKind::CannotMoveThere { .. }),
            "{err}"
        );
        assert!(matches!(
            refused(&mut g, "e5d6").kind(),
            MoveErrorKind::CannotMoveThere { .. }
        ));
    }

    #[test]
    fn it_removes_the_pawn_beside_the_target_and_undo_puts_it_back() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "a6", "e5", "d5"]);
        let before = g.fen();
        let m = g.play("exd6").unwrap();
        let pos = g.position();
        assert_eq!(pos.piece_at(Square::D5), None);
        assert_eq!(pos.piece_at(Square::E5), None);
        assert_eq!(
            pos.piece_at(Square::D6),
            Some(Piece::new(Color::White, PieceKind::Pawn))
        );
        assert_eq!(pos.pieces_of(Color::Black, PieceKind::Pawn).count(), 7);
        assert_eq!(g.undo(), Ok(m));
        assert_eq!(
            g.position().piece_at(Square::D5),
            Some(Piece::new(Color::Black, PieceKind::Pawn))
        );
        assert_eq!(g.position().piece_at(Square::D6), None);
        assert_eq!(g.fen(), before);
        assert!(g.parse_move("exd6").is_ok());
    }

    #[test]
    fn the_capture_that_would_expose_the_king_along_the_rank_is_refused() {
        let mut g = game("2k5/2p5/8/KP5r/8/8/8/8 b - - 0 1");
        g.play("c5").unwrap();
        // Both pawns would leave the fifth rank, opening it from h5 to a5.
        assert_eq!(g.position().en_passant(), None);
        for text in ["bxc6", "b5c6"] {
            let err = refused(&mut g, text);
            assert_eq!(
                err.kind(),
                &MoveErrorKind::LeavesKingInCheck {
                    color: Color::White,
                    king_move: false
                }
            );
            assert_eq!(
                err.to_string(),
                format!("{text} leaves the white king in check")
            );
        }
        g.play("b6").unwrap();
    }
}

mod promotion {
    use super::*;

    #[test]
    fn a_pawn_reaching_the_last_rank_yields_four_moves() {
        let g = game("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let sans: Vec<String> = g
            .legal_moves()
            .iter()
            .filter(|m| m.from() == Square::A7)
            .map(|&m| g.san(m).unwrap())
            .collect();
        let mut sans = sans;
        sans.sort();
        assert_eq!(sans, sorted(&["a8=B", "a8=N", "a8=Q+", "a8=R+"]));
        // Pushing and capturing: four each.
        let g = game("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(moves_from(&g, Square::A7).len(), 8);
    }

    #[test]
    fn only_the_knight_promotion_avoids_mate_next_move() {
        // Black threatens Ra1#. Only e8=N+ (check, so Black must answer it) stops the mate.
        let g = game("1b6/1b2P1k1/8/8/8/4p3/r4PPP/7K w - - 0 1");
        let mut safe = Vec::new();
        for &m in g.legal_moves().iter() {
            let mut after = g.clone();
            after.play_move(m).unwrap();
            let mated = after.legal_moves().iter().any(|&reply| {
                let mut next = after.clone();
                next.play_move(reply).unwrap();
                matches!(next.outcome(), Outcome::Checkmate { .. })
            });
            if !mated {
                safe.push(g.san(m).unwrap());
            }
        }
        assert_eq!(safe, ["e8=N+"]);
    }

    #[test]
    fn a_promotion_without_a_piece_is_refused_never_defaulted() {
        let mut g = game("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        for text in ["a8", "a7a8", "a8+"] {
            assert_eq!(
                refused(&mut g, text).kind(),
                &MoveErrorKind::PromotionRequired
            );
        }
        for (text, piece) in [
            ("a8=K", PieceKind::King),
            ("a7a8k", PieceKind::King),
            ("a7a8p", PieceKind::Pawn),
        ] {
            assert_eq!(
                refused(&mut g, text).kind(),
                &MoveErrorKind::InvalidPromotion {
                    piece,
                    promotes: true
                },
                "{text}"
            );
        }
        assert_eq!(
            refused(&mut g, "e1e2q").kind(),
            &MoveErrorKind::InvalidPromotion {
                piece: PieceKind::Queen,
                promotes: false
            }
        );
        assert_eq!(refused(&mut g, "Ke2=Q").kind(), &MoveErrorKind::NotAMove);
        for (text, piece) in [
            ("a8=N", PieceKind::Knight),
            ("a8Q", PieceKind::Queen),
            ("a7a8r", PieceKind::Rook),
            ("a8=B", PieceKind::Bishop),
        ] {
            let m = g.parse_move(text).unwrap();
            assert_eq!(m.promotion(), Some(piece), "{text}");
        }
    }
}

mod endings {
    use super::*;

    fn fools_mate() -> Game {
        let mut g = Game::new();
        play_all(&mut g, &["f3", "e5", "g4", "Qh4#"]);
        g
    }

    #[test]
    fn fools_mate_is_checkmate_and_the_next_move_is_refused() {
        let mut g = fools_mate();
        assert_eq!(
            g.outcome(),
            Outcome::Checkmate {
                winner: Color::Black
            }
        );
        assert_eq!(g.outcome().result(), "0-1");
        assert!(g.is_check());
        assert!(g.legal_moves().is_empty());
        assert!(g.claimable_draws().is_empty());
        for text in ["a3", "Kf2", "nonsense"] {
            assert_eq!(
                refused(&mut g, text).kind(),
                &MoveErrorKind::GameOver {
                    outcome: Outcome::Checkmate {
                        winner: Color::Black
                    }
                }
            );
        }
        assert_eq!(
            g.resign(Color::White),
            Err(GameError::GameOver {
                outcome: Outcome::Checkmate {
                    winner: Color::Black
                }
            })
        );
    }

    #[test]
    fn undo_after_mate_resumes_the_game() {
        let mut g = fools_mate();
        let m = g.undo().unwrap();
        assert_eq!(m.to_uci(false), "d8h4");
        assert_eq!(g.outcome(), Outcome::Ongoing);
        g.play("Qe7").unwrap();
        assert_eq!(g.ply(), 4);
    }

    #[test]
    fn undo_after_resignation_agreement_or_a_claimed_draw_is_refused() {
        let mut g = Game::new();
        g.play("e4").unwrap();
        assert_eq!(
            g.resign(Color::Black),
            Ok(Outcome::Resignation {
                winner: Color::White
            })
        );
        let before = state(&g);
        assert!(matches!(g.undo(), Err(GameError::Decided { .. })));
        assert_eq!(state(&g), before);
        assert_game_over(&mut g, "e5");

        let mut g = Game::new();
        g.play("d4").unwrap();
        g.agree_draw().unwrap();
        assert_eq!(
            g.undo(),
            Err(GameError::Decided {
                outcome: Outcome::Agreement
            })
        );
        assert!(g.agree_draw().is_err());

        let mut g = Game::new();
        play_all(
            &mut g,
            &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
        );
        g.claim_draw().unwrap();
        assert_eq!(
            g.undo(),
            Err(GameError::Decided {
                outcome: Outcome::ThreefoldRepetition
            })
        );
    }

    #[test]
    fn king_and_queen_against_king_stalemate() {
        let mut g = game("7k/8/6K1/8/8/8/5Q2/8 w - - 0 1");
        let m = g.parse_move("Qf7").unwrap();
        assert_eq!(g.san(m).unwrap(), "Qf7"); // no check sign
        g.play_move(m).unwrap();
        assert_eq!(g.outcome(), Outcome::Stalemate);
        assert_eq!(g.outcome().winner(), None);
        assert_eq!(g.outcome().result(), "1/2-1/2");
        assert!(!g.is_check());
        assert!(g.undo().is_ok());
        assert_eq!(g.outcome(), Outcome::Ongoing);
    }

    #[test]
    fn insufficient_material_is_exactly_the_table() {
        let cases = [
            ("8/8/4k3/8/8/8/8/4K3 w - - 0 1", true),         // K v K
            ("8/8/4k3/8/8/8/8/2B1K3 w - - 0 1", true),       // K+B v K
            ("8/8/4k3/8/8/8/8/1N2K3 b - - 0 1", true),       // K+N v K
            ("8/8/4k3/8/8/4b3/8/2B1K3 w - - 0 1", true),     // bishops all on dark squares
            ("8/2b5/4k3/8/8/4b3/8/2B1KB2 w - - 0 1", false), // f1 is light
            ("8/8/4k3/8/8/3b4/8/2B1K3 w - - 0 1", false),    // opposite colours
            ("8/8/4k3/8/8/8/8/1N2K1N1 w - - 0 1", false),    // K+N+N v K
            ("8/8/4k3/8/8/4n3/8/2B1K3 w - - 0 1", false),    // K+B v K+N
            ("8/8/4k3/8/3n4/8/8/1N2K3 w - - 0 1", false),    // K+N v K+N
            ("8/8/4k3/8/8/8/4P3/4K3 w - - 0 1", false),      // a pawn
            ("8/8/4k3/8/8/8/8/R3K3 w - - 0 1", false),       // a rook
        ];
        for (fen, expected) in cases {
            let g = game(fen);
            assert_eq!(insufficient_material(g.position()), expected, "{fen}");
            assert_eq!(
                g.outcome() == Outcome::InsufficientMaterial,
                expected,
                "{fen}"
            );
        }
        // Reached by a capture: the game ends, and undo resumes it.
        let mut g = game("8/8/4k3/8/8/8/4r3/4K3 w - - 0 1");
        g.play("Kxe2").unwrap();
        assert_eq!(g.outcome(), Outcome::InsufficientMaterial);
        assert_game_over(&mut g, "Kd6");
        g.undo().unwrap();
        assert_eq!(g.outcome(), Outcome::Ongoing);
    }

    const KNIGHTS_OUT_AND_BACK: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

    #[test]
    fn threefold_repetition_is_claimable_not_automatic() {
        let mut g = Game::new();
        play_all(&mut g, &KNIGHTS_OUT_AND_BACK);
        assert_eq!(g.repetitions(), 2);
        assert!(g.claimable_draws().is_empty());
        assert_eq!(g.claim_draw(), Err(GameError::NoDrawToClaim));
        play_all(&mut g, &KNIGHTS_OUT_AND_BACK);
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.outcome(), Outcome::Ongoing);
        assert_eq!(g.claimable_draws(), [DrawClaim::ThreefoldRepetition]);
        assert_eq!(g.claim_draw(), Ok(Outcome::ThreefoldRepetition));
        assert_eq!(g.outcome(), Outcome::ThreefoldRepetition);
        assert_game_over(&mut g, "e4");
    }

    #[test]
    fn fivefold_repetition_ends_the_game_by_itself() {
        let mut g = Game::new();
        for _ in 0..3 {
            play_all(&mut g, &KNIGHTS_OUT_AND_BACK);
        }
        assert_eq!(g.repetitions(), 4);
        assert_eq!(g.outcome(), Outcome::Ongoing);
        play_all(&mut g, &KNIGHTS_OUT_AND_BACK);
        assert_eq!(g.outcome(), Outcome::FivefoldRepetition);
        assert!(g.legal_moves().is_empty());
        assert_game_over(&mut g, "Nf3");
        // An automatic ending can be undone.
        g.undo().unwrap();
        assert_eq!(g.outcome(), Outcome::Ongoing);
    }

    #[test]
    fn fifty_moves_are_claimable_and_a_pawn_move_resets_the_count() {
        let mut g = game("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80");
        assert!(g.claimable_draws().is_empty());
        g.play("Rb1").unwrap();
        assert_eq!(g.position().halfmove_clock(), 100);
        assert_eq!(g.outcome(), Outcome::Ongoing);
        assert_eq!(g.claimable_draws(), [DrawClaim::FiftyMoves]);
        g.undo().unwrap();
        g.play("a3").unwrap();
        assert!(g.claimable_draws().is_empty());
        g.undo().unwrap();
        g.play("Rb1").unwrap();
        assert_eq!(g.claim_draw(), Ok(Outcome::FiftyMoves));
    }

    #[test]
    fn seventy_five_moves_end_the_game_by_themselves() {
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 148 120");
        g.play("Rb1").unwrap();
        assert_eq!(g.outcome(), Outcome::Ongoing);
        assert_eq!(g.claimable_draws(), [DrawClaim::FiftyMoves]);
        g.play("Kd7").unwrap();
        assert_eq!(g.outcome(), Outcome::SeventyFiveMoves);
        assert_game_over(&mut g, "Ra1");
        g.undo().unwrap();
        assert_eq!(g.outcome(), Outcome::Ongoing);
    }

    #[test]
    fn mate_on_the_move_that_reaches_a_count_limit_is_still_mate() {
        for clock in [99, 149] {
            let mut g = game(&format!("7k/8/6K1/8/8/8/8/R7 w - - {clock} 120"));
            g.play("Ra8#").unwrap();
            assert_eq!(g.position().halfmove_clock(), clock + 1);
            assert_eq!(
                g.outcome(),
                Outcome::Checkmate {
                    winner: Color::White
                }
            );
            assert!(g.claimable_draws().is_empty());
        }
        let mut g = game("7k/8/6K1/8/8/8/5Q2/8 w - - 149 120");
        g.play("Qf7").unwrap();
        assert_eq!(g.outcome(), Outcome::Stalemate);
    }

    #[test]
    fn positions_differing_only_in_castling_rights_are_not_repetitions() {
        let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let start_placement = g.fen()[..g.fen().find(' ').unwrap()].to_string();
        let rooks_out_and_back = ["Rh2", "Rh7", "Rh1", "Rh8"];
        play_all(&mut g, &rooks_out_and_back);
        play_all(&mut g, &rooks_out_and_back);
        // The placement and side to move have now occurred three times, but the first time
        // both sides could still castle king side.
        assert!(g.fen().starts_with(&start_placement));
        assert_eq!(g.repetitions(), 2);
        assert!(g.claimable_draws().is_empty());
        play_all(&mut g, &rooks_out_and_back);
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.claimable_draws(), [DrawClaim::ThreefoldRepetition]);
    }

    #[test]
    fn positions_differing_only_in_an_available_en_passant_capture_are_not_repetitions() {
        let kings = ["Ke2", "Ke7", "Ke1", "Ke8"];
        // After ...d5 White may take en passant; after the kings' round trip it may not.
        let mut g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
        g.play("d5").unwrap();
        assert_eq!(g.position().en_passant(), Some(Square::D6));
        play_all(&mut g, &kings);
        play_all(&mut g, &kings);
        assert_eq!(g.repetitions(), 2);
        assert!(g.claimable_draws().is_empty());
        play_all(&mut g, &kings);
        assert_eq!(g.claimable_draws(), [DrawClaim::ThreefoldRepetition]);

        // A double push that no pawn can capture leaves the position the same as later ones.
        let mut g = game("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1");
        g.play("d5").unwrap();
        assert_eq!(g.position().en_passant(), None);
        play_all(&mut g, &kings);
        play_all(&mut g, &kings);
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.claimable_draws(), [DrawClaim::ThreefoldRepetition]);
    }

    #[test]
    fn outcome_words_and_results() {
        let all = [
            (Outcome::Ongoing, "ongoing", "*"),
            (
                Outcome::Checkmate {
                    winner: Color::White,
                },
                "checkmate",
                "1-0",
            ),
            (Outcome::Stalemate, "stalemate", "1/2-1/2"),
            (
                Outcome::InsufficientMaterial,
                "insufficient_material",
                "1/2-1/2",
            ),
            (
                Outcome::FivefoldRepetition,
                "fivefold_repetition",
                "1/2-1/2",
            ),
            (Outcome::SeventyFiveMoves, "seventy_five_moves", "1/2-1/2"),
            (
                Outcome::ThreefoldRepetition,
                "threefold_repetition",
                "1/2-1/2",
            ),
            (Outcome::FiftyMoves, "fifty_moves", "1/2-1/2"),
            (
                Outcome::Resignation {
                    winner: Color::Black,
                },
                "resignation",
                "0-1",
            ),
            (Outcome::Agreement, "agreement", "1/2-1/2"),
        ];
        for (o, name, result) in all {
            assert_eq!((o.name(), o.result()), (name, result));
        }
    }
}

mod errors {
    use super::*;

    #[test]
    fn every_refusal_has_its_own_reason_and_a_message() {
        let mut g = Game::new();
        let cases: [(&str, MoveErrorKind, &str); 9] = [
            ("hello", MoveErrorKind::NotAMove, "hello is not a move"),
            ("e9e4", MoveErrorKind::NotAMove, "e9e4 is not a move"),
            ("0000", MoveErrorKind::NotAMove, "0000 is not a move"),
            (
                "e3e4",
                MoveErrorKind::NoPiece { square: Square::E3 },
                "e3e4: there is no piece on e3",
            ),
            (
                "e7e5",
                MoveErrorKind::NotYourTurn {
                    piece: Piece::new(Color::Black, PieceKind::Pawn),
                    square: Square::E7,
                },
                "e7e5: the pawn on e7 is black's, and it is white's turn",
            ),
            (
                "a1a3",
                MoveErrorKind::CannotMoveThere {
                    piece: Piece::new(Color::White, PieceKind::Rook),
                    from: Some(Square::A1),
                    to: Square::A3,
                    obstacle: Some(Square::A2),
                },
                "a1a3: the white rook on a1 cannot move to a3: a2 is in the way",
            ),
            (
                "a1a2",
                MoveErrorKind::CannotMoveThere {
                    piece: Piece::new(Color::White, PieceKind::Rook),
                    from: Some(Square::A1),
                    to: Square::A2,
                    obstacle: Some(Square::A2),
                },
                "a1a2: the white rook on a1 cannot move to a2: a white piece stands there",
            ),
            (
                "Nf4",
                MoveErrorKind::CannotMoveThere {
                    piece: Piece::new(Color::White, PieceKind::Knight),
                    from: None,
                    to: Square::F4,
                    obstacle: None,
                },
                "Nf4: no white knight can move to f4",
            ),
            (
                "Ke2",
                MoveErrorKind::CannotMoveThere {
                    piece: Piece::new(Color::White, PieceKind::King),
                    from: Some(Square::E1),
                    to: Square::E2,
                    obstacle: Some(Square::E2),
                },
                "Ke2: the white king on e1 cannot move to e2: a white piece stands there",
            ),
        ];
        for (text, kind, message) in cases {
            let err = refused(&mut g, text);
            assert_eq!(err.kind(), &kind, "{text}");
            assert!(err.to_string().starts_with(message), "{text}: {err}");
            assert_eq!(err.text(), text);
        }
        // SAN naming two bishops, only one of which moves that way: that one is explained.
        assert_eq!(
            refused(&mut g, "Bc4").to_string(),
            "Bc4: the white bishop on f1 cannot move to c4: e2 is in the way"
        );
        for text in ["e2d3", "e2e5", "g1g3", "Bb5"] {
            assert!(
                matches!(
                    refused(&mut g, text).kind(),
                    MoveErrorKind::CannotMoveThere { .. }
                ),
                "{text}"
            );
        }
        // Surrounding spaces are not part of the move.
        assert_eq!(refused(&mut g, "  e3e4 ").text(), "e3e4");
    }

    #[test]
    fn ambiguous_san_names_the_candidates() {
        let mut g = game("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        let err = refused(&mut g, "Nd2");
        assert_eq!(
            err.kind(),
            &MoveErrorKind::Ambiguous {
                candidates: vec!["Nbd2".into(), "Nfd2".into()]
            }
        );
        assert_eq!(
            err.to_string(),
            "Nd2 is ambiguous: it could be Nbd2 or Nfd2"
        );
        g.play("Nfd2").unwrap();
    }

    #[test]
    fn san_for_an_illegal_move_explains_itself() {
        let g = Game::new();
        let m = Move::new(Square::E2, Square::E5, ferrum::core::MoveKind::Normal);
        let err = g.san(m).unwrap_err();
        assert!(matches!(err.kind(), MoveErrorKind::CannotMoveThere { .. }));
        assert_eq!(err.text(), "e2e5");
    }
}

mod notation {
    use super::*;

    fn san_of(fen: &str, uci: &str) -> String {
        let g = game(fen);
        let m = g.position().parse_uci(uci).unwrap();
        g.san(m).unwrap()
    }

    #[test]
    fn san_uses_minimal_disambiguation() {
        let two_knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        assert_eq!(san_of(two_knights, "b1d2"), "Nbd2");
        assert_eq!(san_of(two_knights, "f3d2"), "Nfd2");
        assert_eq!(san_of(two_knights, "f3e5"), "Ne5");
        let two_rooks = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
        assert_eq!(san_of(two_rooks, "a1a3"), "R1a3");
        assert_eq!(san_of(two_rooks, "a5a3"), "R5a3");
        let three_queens = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
        assert_eq!(san_of(three_queens, "a1b2"), "Qa1b2");
        assert_eq!(san_of(three_queens, "a3b2"), "Q3b2");
        assert_eq!(san_of(three_queens, "c1b2"), "Qcb2");
        // A rival that is pinned cannot go there, so it does not count.
        assert_eq!(san_of("3k4/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "b1d2"), "Nd2");
        // Each text reads back as the same move.
        for (fen, san) in [
            (two_knights, "Nbd2"),
            (two_rooks, "R1a3"),
            (three_queens, "Qa1b2"),
        ] {
            let g = game(fen);
            let m = g.parse_move(san).unwrap();
            assert_eq!(g.san(m).unwrap(), san);
        }
    }

    #[test]
    fn san_marks_captures_promotions_checks_mates_and_castling() {
        let promo = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(san_of(promo, "a7b8q"), "axb8=Q+");
        assert_eq!(san_of(promo, "a7b8n"), "axb8=N");
        assert_eq!(san_of(promo, "a7a8r"), "a8=R");
        assert_eq!(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
        assert_eq!(san_of("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8"), "O-O-O");
        assert_eq!(san_of("7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8"), "Ra8#");
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(san_of(ep, "e5f6"), "exf6");
        assert_eq!(san_of(ep, "e5e6"), "e6");
        assert_eq!(san_of(Game::new().fen().as_str(), "g1f3"), "Nf3");
    }

    #[test]
    fn tolerant_input_forms() {
        let g = game("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
        let q = g.parse_move("e7e8q").unwrap();
        for text in [
            "e8=Q", "e8Q", "e8q", "e8=Q+", "e8Q+", "e7e8Q", "e8(Q)", "e8/Q", "e8=Q!",
        ] {
            assert_eq!(g.parse_move(text), Ok(q), "{text}");
        }
        let mut g = Game::new();
        play_all(&mut g, &["f3", "e5", "g4"]);
        for text in ["Qh4", "Qh4#", "Qh4+", "d8h4", "Qd8h4", "Qd8-h4", "Qh4#!!"] {
            assert_eq!(g.parse_move(text).unwrap().to_uci(false), "d8h4", "{text}");
        }
        let g = Game::new();
        for text in ["Nf3", "Nf3+", "Ng1f3", "Ng1-f3", "g1f3", " Nf3 "] {
            assert_eq!(g.parse_move(text).unwrap().to_uci(false), "g1f3", "{text}");
        }
        let mut g = Game::new();
        play_all(&mut g, &["e4", "a6", "e5", "d5"]);
        for text in ["exd6", "exd6e.p.", "exd6ep", "e5d6", "Pe5xd6"] {
            assert!(g.parse_move(text).unwrap().is_en_passant(), "{text}");
        }
        // A pawn capture needs its file: "d6" alone is a push, and there is none.
        assert!(g.parse_move("d6").is_err());
    }

    /// For every legal move of many positions from random games, SAN and UCI (both castling
    /// forms) read back as the same move, and SAN without its check sign too.
    #[test]
    fn every_move_of_random_games_round_trips_through_san_and_uci() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut checked = 0;
        for i in 0..60 {
            let start = if i % 3 == 2 {
                Game::chess960(rng.below(960) as u16).unwrap()
            } else {
                Game::new()
            };
            let mut g = start;
            for _ in 0..160 {
                let moves = g.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let san = g.san(m).unwrap();
                    assert_eq!(g.parse_move(&san), Ok(m), "{san} in {}", g.fen());
                    let bare = san.trim_end_matches(['+', '#']);
                    assert_eq!(g.parse_move(bare), Ok(m), "{bare} in {}", g.fen());
                    assert_eq!(g.parse_move(&m.to_uci(true)), Ok(m), "{}", g.fen());
                    if !g.is_chess960() {
                        assert_eq!(g.parse_move(&m.to_uci(false)), Ok(m), "{}", g.fen());
                    }
                    checked += 1;
                }
                let m = moves[rng.below(moves.len())];
                g.play_move(m).unwrap();
            }
        }
        assert!(checked > 50_000, "{checked}");
    }
}

mod undo_redo {
    use super::*;

    #[test]
    fn undo_walks_back_to_the_start_and_redo_replays() {
        let mut rng = Rng(42);
        let g = random_game(&mut rng, Game::new(), 80);
        let fens: Vec<String> = {
            let mut replay = Game::new();
            let mut v = vec![replay.fen()];
            for &m in g.history() {
                replay.play_move(m).unwrap();
                v.push(replay.fen());
            }
            v
        };
        let mut g = g;
        let plies = g.ply();
        for i in (0..plies).rev() {
            g.undo().unwrap();
            assert_eq!(g.fen(), fens[i]);
        }
        assert_eq!(g.undo(), Err(GameError::NothingToUndo));
        for fen in fens.iter().skip(1) {
            g.redo().unwrap();
            assert_eq!(&g.fen(), fen);
        }
        assert_eq!(g.redo(), Err(GameError::NothingToRedo));
    }

    #[test]
    fn a_different_move_forgets_the_undone_ones() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "e5"]);
        g.undo().unwrap();
        g.undo().unwrap();
        g.play("e4").unwrap(); // the expected next move keeps the rest
        assert_eq!(g.redo().unwrap().to_uci(false), "e7e5");
        g.undo().unwrap();
        g.play("c5").unwrap();
        assert_eq!(g.redo(), Err(GameError::NothingToRedo));
    }
}

mod pgn {
    use super::*;

    /// Five famous master games, as published (public facts).
    const MASTER_GAMES: &str = r#"[Event "Casual game"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0

[Event "London"]
[Site "London ENG"]
[Date "1851.06.21"]
[Round "?"]
[White "Adolf Anderssen"]
[Black "Lionel Kieseritzky"]
[Result "1-0"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5
8. Nh4 Qg5 9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8
15. Bxf4 Qf6 16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6
21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0

[Event "Berlin"]
[Site "Berlin GER"]
[Date "1852.??.??"]
[Round "?"]
[White "Adolf Anderssen"]
[Black "Jean Dufresne"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4 Bxb4 5. c3 Ba5 6. d4 exd4 7. O-O d3 8. Qb3
Qf6 9. e5 Qg6 10. Re1 Nge7 11. Ba3 b5 12. Qxb5 Rb8 13. Qa4 Bb6 14. Nbd2 Bb7
15. Ne4 Qf5 16. Bxd3 Qh5 17. Nf6+ gxf6 18. exf6 Rg8 19. Rad1 Qxf3 20. Rxe7+ Nxe7
21. Qxd7+ Kxd7 22. Bf5+ Ke8 23. Bd7+ Kf8 24. Bxe7# 1-0

[Event "Third Rosenwald Trophy"]
[Site "New York, NY USA"]
[Date "1956.10.17"]
[Round "8"]
[White "Donald Byrne"]
[Black "Robert James Fischer"]
[Result "0-1"]

1. Nf3 Nf6 2. c4 g6 3. Nc3 Bg7 4. d4 O-O 5. Bf4 d5 6. Qb3 dxc4 7. Qxc4 c6 8. e4
Nbd7 9. Rd1 Nb6 10. Qc5 Bg4 11. Bg5 Na4 12. Qa3 Nxc3 13. bxc3 Nxe4 14. Bxe7 Qb6
15. Bc4 Nxc3 16. Bc5 Rfe8+ 17. Kf1 Be6 18. Bxb6 Bxc4+ 19. Kg1 Ne2+ 20. Kf1 Nxd4+
21. Kg1 Ne2+ 22. Kf1 Nc3+ 23. Kg1 axb6 24. Qb4 Ra4 25. Qxb6 Nxd1 26. h3 Rxa2
27. Kh2 Nxf2 28. Re1 Rxe1 29. Qd8+ Bf8 30. Nxe1 Bd5 31. Nf3 Ne4 32. Qb8 b5
33. h4 h5 34. Ne5 Kg7 35. Kg1 Bc5+ 36. Kf1 Ng3+ 37. Ke1 Bb4+ 38. Kd1 Bb3+
39. Kc1 Ne2+ 40. Kb1 Nc3+ 41. Kc1 Rc2# 0-1

[Event "Hoogovens"]
[Site "Wijk aan Zee NED"]
[Date "1999.01.20"]
[Round "4"]
[White "Garry Kasparov"]
[Black "Veselin Topalov"]
[Result "1-0"]

1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 7. Nge2 Nbd7 8. Bh6
Bxh6 9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 12. Kb1 a6 13. Nc1 O-O-O 14. Nb3 exd4
15. Rxd4 c5 16. Rd1 Nb6 17. g3 Kb8 18. Na5 Ba8 19. Bh3 d5 20. Qf4+ Ka7 21. Rhe1
d4 22. Nd5 Nbxd5 23. exd5 Qd6 24. Rxd4 cxd4 25. Re7+ Kb6 26. Qxd4+ Kxa5 27. b4+
Ka4 28. Qc3 Qxd5 29. Ra7 Bb7 30. Rxb7 Qc4 31. Qxf6 Kxa3 32. Qxa6+ Kxb4 33. c3+
Kxc3 34. Qa1+ Kd2 35. Qb2+ Kd1 36. Bf1 Rd2 37. Rd7 Rxd7 38. Bxc4 bxc4 39. Qxh8
Rd3 40. Qa8 c3 41. Qa4+ Ke1 42. f4 f5 43. Kc1 Rd2 44. Qa7 1-0
"#;

    /// A game holding every special move: en passant by both sides, promotion to all four
    /// pieces (with and without capture), castling on both sides, check, disambiguation by
    /// file and by rank, and mate.
    const SPECIAL_MOVES: &str = r#"[Event "Every special move"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]

1. e4 d5 2. e5 f5 3. exf6 c5 4. fxg7 c4 5. d4 cxd3 6. gxh8=Q dxc2 7. Nf3 cxb1=N
8. Bb5+ Bd7 9. O-O Nc6 10. Qe2 Qa5 11. Rxb1 O-O-O 12. Qxh7 Qb6 13. h4 a5 14. h5
a4 15. h6 a3 16. Qhd3 axb2 17. h7 bxc1=B 18. Rbxc1 Qa5 19. h8=R Kb8 20. Qed2 Ka7
21. Q3c2 Nf6 22. Qf4 Kb6 23. Qc5# 1-0
"#;

    /// The SAN words of a movetext as written (no numbers, no result).
    fn written_sans(pgn: &str) -> Vec<Vec<String>> {
        pgn.split("[Event")
            .skip(1)
            .map(|chunk| {
                let movetext = chunk.split("\n\n").nth(1).unwrap();
                movetext
                    .split_whitespace()
                    .filter(|w| !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w))
                    .map(str::to_string)
                    .collect()
            })
            .collect()
    }

    fn read_all_ok(text: &str) -> Vec<PgnGame> {
        read_pgn(text)
            .into_iter()
            .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    /// Import, export, re-import: the same moves and result, and the export is a fixed point.
    fn round_trip(games: &[PgnGame]) {
        for g in games {
            let text = g.to_pgn();
            let again = read_all_ok(&text);
            assert_eq!(again.len(), 1, "{text}");
            let again = &again[0];
            assert_eq!(again.game.history(), g.game.history(), "{text}");
            assert_eq!(again.tag("Result"), Some(g.result()), "{text}");
            assert_eq!(again.result(), g.result());
            assert_eq!(again.game.outcome(), g.game.outcome());
            assert_eq!(again.to_pgn(), text);
            for (name, value) in &g.tags {
                if name != "Result" {
                    assert_eq!(again.tag(name), Some(value.as_str()), "{name}");
                }
            }
        }
    }

    #[test]
    fn master_games_import_export_and_reimport_to_the_same_moves_and_result() {
        let games = read_all_ok(MASTER_GAMES);
        let expect = [
            (
                33,
                "1-0",
                Outcome::Checkmate {
                    winner: Color::White,
                },
            ),
            (
                45,
                "1-0",
                Outcome::Checkmate {
                    winner: Color::White,
                },
            ),
            (
                47,
                "1-0",
                Outcome::Checkmate {
                    winner: Color::White,
                },
            ),
            (
                82,
                "0-1",
                Outcome::Checkmate {
                    winner: Color::Black,
                },
            ),
            (87, "1-0", Outcome::Ongoing),
        ];
        assert_eq!(games.len(), expect.len());
        for ((g, (plies, result, outcome)), written) in
            games.iter().zip(expect).zip(written_sans(MASTER_GAMES))
        {
            assert_eq!(g.game.ply(), plies);
            assert_eq!(g.tag("Result"), Some(result));
            assert_eq!(g.marker.as_deref(), Some(result));
            assert_eq!(g.game.outcome(), outcome);
            assert_eq!(g.result(), result);
            // Our SAN is the SAN the publications print, move for move.
            assert_eq!(g.game.san_history(), written);
        }
        round_trip(&games);
        // Kasparov's 44. Qa7 is not mate: the export keeps the tag's result, and says the
        // game was ended by a decision outside the rules with Termination "normal".
        let kasparov = games[4].to_pgn();
        assert!(kasparov.contains("[Result \"1-0\"]"), "{kasparov}");
        assert!(flat(&kasparov).ends_with("44. Qa7 1-0"), "{kasparov}");
    }

    #[test]
    fn the_game_with_every_special_move_round_trips() {
        let games = read_all_ok(SPECIAL_MOVES);
        let g = &games[0];
        let history = g.game.history();
        assert_eq!(history.len(), 45);
        assert_eq!(history.iter().filter(|m| m.is_en_passant()).count(), 2);
        assert_eq!(history.iter().filter(|m| m.is_castle()).count(), 2);
        let mut promoted: Vec<PieceKind> = history.iter().filter_map(|m| m.promotion()).collect();
        promoted.sort();
        assert_eq!(
            promoted,
            [
                PieceKind::Knight,
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::Queen
            ]
        );
        assert_eq!(
            g.game.outcome(),
            Outcome::Checkmate {
                winner: Color::White
            }
        );
        assert_eq!(g.game.san_history(), written_sans(SPECIAL_MOVES)[0]);
        round_trip(&games);
        let text = g.to_pgn();
        assert!(
            flat(&text).ends_with("23. Qc5# {checkmate, white wins} 1-0"),
            "{text}"
        );
        assert!(text.contains("[Termination \"normal\"]"));
        assert!(!text.contains("SetUp"));
    }

    #[test]
    fn comments_nags_variations_and_escape_lines_are_skipped() {
        let text = "% a line for the software that wrote this file\n\
            [Event \"Commented \\\"quoted\\\" \\\\ event\"]\n\
            [White \"A\"]\n\
            \n\
            1. e4 {a comment\nover two lines (with parens)} e5!? 2.Nf3 $1 Nc6 ; 3. Bc4 ignored\n\
            3. Bb5 (3. Bc4 Bc5 (3... Nf6 {inner}) 4. c3) 3... a6 $14 4. Ba4 Nf6 5. O-O 1/2-1/2\n\
            \n\
            1. d4 d5 *\n\
            \n\
            [Event \"third\"]\n\
            1. c4 e5 2. Nc3 0-1";
        let games = read_all_ok(text);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].tag("Event"), Some("Commented \"quoted\" \\ event"));
        assert_eq!(
            games[0].game.san_history(),
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]
        );
        assert_eq!(games[0].marker.as_deref(), Some("1/2-1/2"));
        assert_eq!(games[1].game.san_history(), ["d4", "d5"]);
        assert!(games[1].tags.is_empty());
        assert_eq!(games[2].game.ply(), 3);
        assert_eq!(games[2].marker.as_deref(), Some("0-1"));
        // The quoted tag survives export and re-import.
        round_trip(&games);
    }

    #[test]
    fn an_illegal_or_unreadable_move_names_the_game_and_the_move_and_the_file_goes_on() {
        let text = "[Event \"one\"]\n\n1. e4 e5 *\n\n\
                    [Event \"two\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ke3 Nf6 *\n\n\
                    [Event \"three\"]\n\n1. d4 Nf9 *\n\n\
                    [Event \"four\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
                    [Event \"five\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n\
                    [Event \"six\"]\n\n1. c4 *\n";
        let read = read_pgn(text);
        assert_eq!(read.len(), 6);
        assert!(read[0].is_ok());
        assert!(read[5].is_ok());

        let e = read[1].as_ref().unwrap_err();
        assert_eq!(
            (e.game, e.ply, e.move_text.as_deref()),
            (2, Some(5), Some("Ke3"))
        );
        assert_eq!(e.at().as_deref(), Some("3. Ke3"));
        assert_eq!(e.line, 7);
        assert!(
            matches!(&e.kind, PgnErrorKind::Move(m) if matches!(m.kind(), MoveErrorKind::CannotMoveThere { .. }))
        );
        assert_eq!(
            e.to_string(),
            "game 2, ply 5 (3. Ke3): the white king on e1 cannot move to e3"
        );
        let partial = e.partial.as_ref().unwrap();
        assert_eq!(partial.game.ply(), 4);
        assert_eq!(partial.tag("Event"), Some("two"));

        let e = read[2].as_ref().unwrap_err();
        assert_eq!(
            (e.game, e.ply, e.move_text.as_deref()),
            (3, Some(2), Some("Nf9"))
        );
        assert!(matches!(&e.kind, PgnErrorKind::Move(m) if m.kind() == &MoveErrorKind::NotAMove));
        assert_eq!(e.to_string(), "game 3, ply 2 (1... Nf9): Nf9 is not a move (write UCI like e2e4 or e7e8q, or SAN like Nf3, O-O or e8=Q)");

        let e = read[3].as_ref().unwrap_err();
        assert_eq!((e.game, e.ply), (4, None));
        assert!(matches!(e.kind, PgnErrorKind::Fen(_)));
        assert!(e.partial.is_none());

        let e = read[4].as_ref().unwrap_err();
        assert!(matches!(e.kind, PgnErrorKind::UnsupportedVariant(_)));
    }

    #[test]
    fn a_move_after_mate_is_refused_as_game_over() {
        let e = read_pgn("1. f3 e5 2. g4 Qh4# 3. a3 0-1")
            .remove(0)
            .unwrap_err();
        assert_eq!(e.ply, Some(5));
        assert!(
            matches!(&e.kind, PgnErrorKind::Move(m) if matches!(m.kind(), MoveErrorKind::GameOver { .. }))
        );
    }

    #[test]
    fn games_from_a_position_and_chess960_carry_setup_fen_and_variant() {
        // From a FEN with Black to move: "1..." numbering, SetUp and FEN tags.
        let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 30");
        play_all(&mut g, &["O-O", "O-O-O", "Rf7"]);
        let text = write_pgn(&g, &[]);
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 30\"]"),
            "{text}"
        );
        assert!(flat(&text).ends_with("30... O-O 31. O-O-O Rf7 *"), "{text}");
        assert!(text.contains("[Termination \"unterminated\"]"));
        let again = read_all_ok(&text);
        assert_eq!(again[0].game.history(), g.history());

        // Chess960 from a numbered start, with castling.
        let mut rng = Rng(7);
        for n in [0u16, 518, 959, 314] {
            let mut g = Game::chess960(n).unwrap();
            let moves = g.legal_moves();
            let m = moves[rng.below(moves.len())];
            g.play_move(m).unwrap();
            let g = random_game(&mut rng, g, 120);
            let text = write_pgn(&g, &[]);
            assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
            assert!(text.contains("[SetUp \"1\"]"), "{text}");
            let again = read_all_ok(&text);
            assert!(again[0].game.is_chess960());
            assert_eq!(again[0].game.history(), g.history(), "{text}");
        }
        let mut g = Game::from_fen_960("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1").unwrap();
        play_all(&mut g, &["O-O", "O-O-O"]);
        let again = read_all_ok(&write_pgn(&g, &[]));
        assert_eq!(again[0].game.history(), g.history());
        assert_eq!(again[0].game.fen(), g.fen());
    }

    #[test]
    fn decisions_are_written_as_results_and_terminations() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "e5"]);
        g.resign(Color::White).unwrap();
        let text = write_pgn(&g, &[("White".into(), "Quitter".into())]);
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("[Termination \"normal\"]"));
        assert!(
            flat(&text).ends_with("1. e4 e5 {white resigned, black wins} 0-1"),
            "{text}"
        );
        let again = read_all_ok(&text);
        assert_eq!(again[0].tag("Result"), Some("0-1"));
        assert_eq!(again[0].result(), "0-1");
    }

    /// Found by the `pgn` fuzz target (streamed and whole readings disagreed): a tag whose value
    /// runs past the end of its line counted that newline twice, so every later error named the
    /// wrong line.
    #[test]
    fn a_broken_tag_does_not_shift_later_line_numbers() {
        let text = "[Event \"unterminated\n1. e4 e5 *\n[White \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
        let games = read_pgn(text);
        assert_eq!(games.len(), 2);
        let err = games[0].as_ref().unwrap_err();
        assert_eq!(err.line, 1);
        let err = games[1].as_ref().unwrap_err();
        assert_eq!((err.ply, err.line), (Some(3), 5), "{err}");
        let streamed: Vec<_> = ferrum::rules::PgnStream::new(text.as_bytes()).collect();
        assert_eq!(streamed[1].as_ref().unwrap_err().line, 5);
    }

    /// A file read a game at a time gives the same games, numbers and errors as read whole,
    /// with comments that hold brackets and tags in the middle of a line.
    #[test]
    fn streamed_and_whole_readings_agree() {
        let text = "[Event \"a\"]\n\n1. e4 {[not a tag]\n[still a comment]} e5 2. Nf3 1-0\n\
                    [Event \"b\"]\n1. d4 ; [rest of line]\n[Event \"c\"]\n\n1. Nf3 Ke7 *\n\
                    1. c4 [Event \"d\"] 1. e4 *\n";
        let whole = read_pgn(text);
        let streamed: Vec<_> = ferrum::rules::PgnStream::new(text.as_bytes()).collect();
        assert_eq!(whole.len(), 5);
        assert_eq!(streamed.len(), whole.len());
        for (a, b) in whole.iter().zip(&streamed) {
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.game.history(), b.game.history());
                    assert_eq!(a.tags, b.tags);
                }
                (Err(a), Err(b)) => assert_eq!((a.game, a.ply, a.line), (b.game, b.ply, b.line)),
                _ => panic!("{a:?} vs {b:?}"),
            }
        }
    }

    /// Random text, including unclosed comments, tags and quotes and multi-byte characters,
    /// never makes the reader or the referee panic, and every game it returns is consistent.
    #[test]
    fn garbage_never_panics() {
        let pieces = [
            "[",
            "]",
            "\"",
            "\\",
            "{",
            "}",
            "(",
            ")",
            ";",
            "%",
            "$1",
            "\n",
            " ",
            "1.",
            "1...",
            "e4",
            "e5",
            "Nf3",
            "O-O",
            "0-1",
            "*",
            "1/2-1/2",
            "[Event \"x\"]",
            "[FEN \"",
            "é",
            "♞",
            "\u{feff}",
            "exd6",
            "e8=Q",
            "Kxx",
            "\r\n",
            "\t",
        ];
        let mut rng = Rng(0xdead_beef);
        for _ in 0..3000 {
            let n = 1 + rng.below(40);
            let text: String = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
            for read in read_pgn(&text) {
                match read {
                    Ok(g) => assert_eq!(g.game.history().len(), g.game.ply()),
                    Err(e) => assert!(!e.to_string().is_empty()),
                }
            }
            for report in referee(&text) {
                assert!(report.to_json().starts_with("{\"game\":"));
            }
        }
    }

    #[test]
    fn random_games_round_trip() {
        let mut rng = Rng(99);
        let mut text = String::new();
        let mut games = Vec::new();
        for _ in 0..40 {
            let g = random_game(&mut rng, Game::new(), 300);
            text.push_str(&write_pgn(&g, &[]));
            games.push(g);
        }
        let read = read_all_ok(&text);
        assert_eq!(read.len(), games.len());
        for (r, g) in read.iter().zip(&games) {
            assert_eq!(r.game.history(), g.history());
            assert_eq!(r.game.outcome(), g.outcome());
        }
    }
}

mod referee_reports {
    use super::*;

    #[test]
    fn json_lines_have_the_issue_keys_in_order() {
        let text = "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
                    [Result \"*\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n\n\
                    [Result \"1-0\"]\n\n1. e4 e5 2. Ke3 *\n\n\
                    [FEN \"bad\"]\n\n1. e4 *\n";
        let reports: Vec<String> = referee(text).map(|r| r.to_json()).collect();
        assert_eq!(
            reports,
            [
                "{\"game\":1,\"plies\":4,\"result\":\"0-1\",\"outcome\":\"checkmate\",\"winner\":\"black\",\"claimable\":[],\"fen\":\"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\",\"error\":null}",
                "{\"game\":2,\"plies\":8,\"result\":\"*\",\"outcome\":\"ongoing\",\"winner\":null,\"claimable\":[\"threefold_repetition\"],\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5\",\"error\":null}",
                "{\"game\":3,\"plies\":2,\"result\":\"1-0\",\"outcome\":\"ongoing\",\"winner\":null,\"claimable\":[],\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\",\"error\":{\"ply\":3,\"move\":\"Ke3\",\"reason\":\"the white king on e1 cannot move to e3\"}}",
                "{\"game\":4,\"plies\":0,\"result\":null,\"outcome\":\"ongoing\",\"winner\":null,\"claimable\":[],\"fen\":null,\"error\":{\"ply\":null,\"move\":null,\"reason\":\"the FEN tag is not a valid position: a FEN has 6 fields (4 are accepted), this one has 1\"}}",
            ]
        );
        let lines: Vec<String> = referee(text).map(|r| r.to_line()).collect();
        assert_eq!(
            lines[0],
            "game 1: 4 plies, result 0-1, checkmate (black wins), fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
        );
        assert!(lines[1].contains(", ongoing, claimable threefold_repetition, fen "));
        assert!(lines[2].starts_with("game 3: error at ply 3 (Ke3): the white king on e1 cannot move to e3; 2 plies read, result 1-0, ongoing, fen "));
        assert!(lines[3].starts_with("game 4: error: the FEN tag is not a valid position"));
    }

    #[test]
    fn the_automatic_endings_are_reported() {
        let text = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 149 120\"]\n\n1. Rb1 *\n\n\
                    [FEN \"7k/8/6K1/8/8/8/5Q2/8 w - - 0 1\"]\n\n1. Qf7 1/2-1/2\n\n\
                    [FEN \"8/8/4k3/8/8/8/4r3/4K3 w - - 0 1\"]\n\n1. Kxe2 1/2-1/2\n";
        let outcomes: Vec<&str> = referee(text).map(|r| r.outcome.name()).collect();
        assert_eq!(
            outcomes,
            ["seventy_five_moves", "stalemate", "insufficient_material"]
        );
    }
}

mod pipe {
    use super::*;

    fn ask(g: &mut Game, line: &str) -> String {
        answer(g, &PipeCommand::parse(line).unwrap())
    }

    #[test]
    fn the_pipe_answers_follow_the_issue_formats() {
        let mut g = Game::new();
        let legal = ask(&mut g, "legalmoves");
        let words: Vec<&str> = legal.split(' ').collect();
        assert_eq!(words[0], "legalmoves");
        assert_eq!(words.len(), 21);
        assert!(words.contains(&"e2e4") && words.contains(&"g1f3"));
        assert_eq!(ask(&mut g, "play f3"), "played f2f3 f3 ongoing");
        assert_eq!(ask(&mut g, "play e7e5"), "played e7e5 e5 ongoing");
        assert_eq!(
            ask(&mut g, "play Ke3"),
            "illegal Ke3 the white king on e1 cannot move to e3"
        );
        assert_eq!(ask(&mut g, "play g4"), "played g2g4 g4 ongoing");
        assert_eq!(ask(&mut g, "play Qh4"), "played d8h4 Qh4# checkmate");
        assert_eq!(ask(&mut g, "outcome"), "outcome checkmate winner black");
        assert_eq!(ask(&mut g, "legalmoves"), "legalmoves");
        assert_eq!(
            ask(&mut g, "play a3"),
            "illegal a3 the game is over (checkmate, black wins)"
        );
        assert_eq!(ask(&mut g, "undo"), "undone d8h4");
        assert_eq!(ask(&mut g, "outcome"), "outcome ongoing");
        assert_eq!(
            ask(&mut g, "play"),
            "illegal (none) no move was given: write play e2e4 or play Nf3"
        );
        assert_eq!(ask(&mut g, "play e4e5 x"), "illegal e4e5 x is not a move (write UCI like e2e4 or e7e8q, or SAN like Nf3, O-O or e8=Q)");
        for _ in 0..3 {
            ask(&mut g, "undo");
        }
        assert_eq!(ask(&mut g, "undo"), "illegal undo no move has been played");
        assert_eq!(PipeCommand::parse("position startpos"), None);
        assert_eq!(PipeCommand::parse(""), None);
    }

    #[test]
    fn outcome_lists_the_claimable_draws() {
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        assert!(ask(&mut g, "play Nf3").starts_with("illegal Nf3"));
        assert_eq!(ask(&mut g, "play Ra2"), "played a1a2 Ra2 ongoing");
        assert_eq!(
            ask(&mut g, "outcome"),
            "outcome ongoing claimable fifty_moves"
        );
        let mut g = Game::new();
        for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
            ask(&mut g, &format!("play {m}"));
        }
        assert_eq!(
            ask(&mut g, "outcome"),
            "outcome ongoing claimable threefold_repetition"
        );
    }
}

mod shared {
    use super::*;
    use std::sync::Barrier;

    #[test]
    fn shared_game_is_send_and_sync() {
        fn both<T: Send + Sync>() {}
        both::<SharedGame>();
    }

    #[test]
    fn eight_threads_race_for_ply_zero_and_exactly_one_wins() {
        let openings = ["e4", "d4", "Nf3", "c4", "g3", "b3", "f4", "Nc3"];
        for _ in 0..200 {
            let game = SharedGame::default();
            let barrier = Barrier::new(openings.len());
            let results: Vec<(usize, Result<ferrum::rules::Submitted, SubmitError>)> =
                std::thread::scope(|s| {
                    let handles: Vec<_> = openings
                        .iter()
                        .enumerate()
                        .map(|(i, text)| {
                            let game = &game;
                            let barrier = &barrier;
                            s.spawn(move || {
                                barrier.wait();
                                (i, game.submit(0, text))
                            })
                        })
                        .collect();
                    handles.into_iter().map(|h| h.join().unwrap()).collect()
                });
            let winners: Vec<&(usize, Result<_, _>)> =
                results.iter().filter(|(_, r)| r.is_ok()).collect();
            assert_eq!(winners.len(), 1);
            let stale = results
                .iter()
                .filter(|(_, r)| {
                    matches!(
                        r,
                        Err(SubmitError::Stale {
                            submitted: 0,
                            current: 1
                        })
                    )
                })
                .count();
            assert_eq!(stale, openings.len() - 1);
            let (i, Ok(played)) = winners[0] else {
                unreachable!()
            };
            assert_eq!(game.ply(), 1);
            assert_eq!(played.ply, 1);
            assert_eq!(played.san, openings[*i]);
            let history = game.moves_from(0);
            assert_eq!(history, [played.mv]);
            // A retry of the move that won is stale too, and changes nothing.
            assert!(matches!(
                game.submit(0, openings[*i]),
                Err(SubmitError::Stale { .. })
            ));
            assert_eq!(game.ply(), 1);
        }
    }

    #[test]
    fn spectators_read_from_any_ply_and_refusals_change_nothing() {
        let game = SharedGame::default();
        let moves = ["e4", "c5", "Nf3", "d6", "d4"];
        for (ply, m) in moves.iter().enumerate() {
            game.submit(ply, m).unwrap();
        }
        let all = game.moves_from(0);
        assert_eq!(all.len(), 5);
        for from in 0..=6 {
            assert_eq!(
                game.moves_from(from),
                all.get(from..).unwrap_or(&[]).to_vec()
            );
        }
        // An out-of-date screen (ply 3) and an illegal move at the right ply.
        assert!(matches!(
            game.submit(3, "Nc6"),
            Err(SubmitError::Stale {
                submitted: 3,
                current: 5
            })
        ));
        match game.submit(5, "Ke7") {
            Err(SubmitError::Move(e)) => {
                assert!(matches!(e.kind(), MoveErrorKind::CannotMoveThere { .. }))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(game.ply(), 5);
        game.resign(Color::Black).unwrap();
        assert!(matches!(
            game.submit(5, "cxd4"),
            Err(SubmitError::Move(e)) if matches!(e.kind(), MoveErrorKind::GameOver { .. })
        ));
        assert_eq!(
            game.outcome(),
            Outcome::Resignation {
                winner: Color::White
            }
        );
    }
}

/// The binary: `ferrum pgn` and the pipe commands beside UCI.
mod binary {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};

    #[test]
    fn a_reader_that_closes_the_pipe_early_gets_no_panic() {
        // `ferrum perft 3 --divide | head -1`: the output goes on after the reader has left.
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferrum"))
            .args(["perft", "3", "--divide"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty());
        // The reader is gone (dropped above); the binary's next lines meet a closed pipe.
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!err.contains("panicked"), "{err}");
        assert!(matches!(status.code(), Some(0) | Some(141)), "{status:?}");
    }

    fn run(args: &[&str], input: &str) -> (String, i32) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferrum"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            out.status.code().unwrap_or(-1),
        )
    }

    const FILE: &str =
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 2. Ke3 *\n\n1. d4 *\n";

    #[test]
    fn pgn_prints_one_line_per_game_and_goes_on_after_an_error() {
        let (out, code) = run(&["pgn", "-"], FILE);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[0].starts_with("game 1: 4 plies, result 0-1, checkmate (black wins), fen "));
        assert!(
            lines[1].starts_with("game 2: error at ply 3 (Ke3): "),
            "{out}"
        );
        assert!(lines[2].starts_with("game 3: 1 plies, result (none), ongoing, fen "));
        assert_eq!(code, 1, "a game with an error makes the exit status 1");

        let (out, code) = run(&["pgn", "-", "--json"], FILE);
        let expected: Vec<String> = ferrum::rules::referee(FILE).map(|r| r.to_json()).collect();
        assert_eq!(out.lines().collect::<Vec<_>>(), expected);
        assert_eq!(code, 1);

        let (out, code) = run(&["pgn", "-"], "1. e4 e5 1-0\n");
        assert_eq!(code, 0, "{out}");
        let (_, code) = run(&["pgn", "/no/such/file.pgn"], "");
        assert_ne!(code, 0);
    }

    #[test]
    fn book_build_reads_pgn_through_the_rules() {
        let dir = std::env::temp_dir().join(format!("ferrum-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("games.pgn");
        let book = dir.join("book.bin");
        // Two white wins with 1. e4, a black win with 1. d4, a bad game that is skipped.
        std::fs::write(
            &pgn,
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
             [Result \"1-0\"]\n\n1. e4 c5 2. Ke3 1-0\n\n\
             [Result \"1-0\"]\n\n1. e4 c5 *\n\n\
             1. d4 e5 2. dxe5 Qh4 0-1\n",
        )
        .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_ferrum"))
            .args(["book", "build"])
            .arg(&pgn)
            .arg("-o")
            .arg(&book)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("3 games (1 skipped)"));
        let probe = Command::new(env!("CARGO_BIN_EXE_ferrum"))
            .args(["book", "probe", "--book"])
            .arg(&book)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&probe.stdout);
        let moves: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(moves, ["e2e4 4"], "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pipe_commands_answer_beside_uci() {
        let (out, _) = run(
            &[],
            "uci\nposition startpos moves e2e4\nplay e5\nplay Ke2\nlegalmoves\nundo\noutcome\nisready\nquit\n",
        );
        let lines: Vec<&str> = out.lines().collect();
        let after_uciok = lines.iter().position(|l| *l == "uciok").unwrap() + 1;
        assert_eq!(lines[after_uciok], "played e7e5 e5 ongoing");
        assert_eq!(lines[after_uciok + 1], "played e1e2 Ke2 ongoing");
        assert!(lines[after_uciok + 2].starts_with("legalmoves "));
        assert_eq!(lines[after_uciok + 3], "undone e1e2");
        assert_eq!(lines[after_uciok + 4], "outcome ongoing");
        assert_eq!(lines[after_uciok + 5], "readyok");
    }
}
