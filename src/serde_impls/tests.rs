//! Round trips through JSON for every serializable type, and the refusals of bad input.

use serde::de::DeserializeSeed;

use super::MoveSeed;
use crate::core::{Color, Move, Position, Square};
use crate::rules::{DrawClaim, Game, Outcome, SharedGame};

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("serializing to a string cannot fail")
}

fn back<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str(text)
}

const FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

#[test]
fn squares_are_their_names() {
    for sq in Square::ALL {
        let text = json(&sq);
        assert_eq!(text, format!("\"{sq}\""));
        assert_eq!(back::<Square>(&text).ok(), Some(sq));
    }
    assert!(back::<Square>("\"i9\"").is_err());
    assert!(back::<Square>("4").is_err());
}

#[test]
fn colors_are_lower_case() {
    assert_eq!(json(&Color::White), "\"white\"");
    assert_eq!(back::<Color>("\"black\"").ok(), Some(Color::Black));
    assert!(back::<Color>("\"Black\"").is_err());
}

#[test]
fn every_legal_move_reads_back_in_its_position() {
    for fen in FENS {
        let pos = Position::from_fen(fen).expect("test FEN");
        for &m in pos.legal_moves().iter() {
            let text = json(&m);
            assert_eq!(text, format!("\"{}\"", m.to_uci(true)));
            let mut de = serde_json::Deserializer::from_str(&text);
            assert_eq!(
                MoveSeed(&pos).deserialize(&mut de).ok(),
                Some(m),
                "{text} in {fen}"
            );
        }
    }
}

#[test]
fn a_move_seed_refuses_illegal_and_malformed_moves() {
    let pos = Position::startpos();
    for text in ["\"e2e5\"", "\"e2\"", "\"0000\"", "17"] {
        let mut de = serde_json::Deserializer::from_str(text);
        assert!(MoveSeed(&pos).deserialize(&mut de).is_err(), "{text}");
    }
    assert_eq!(json(&Move::NULL), "\"0000\"");
}

#[test]
fn positions_are_fens() {
    for fen in FENS {
        let pos = Position::from_fen(fen).expect("test FEN");
        let text = json(&pos);
        let again: Position = back(&text).expect("a FEN we wrote");
        assert!(again == pos, "{fen} came back as {}", again.fen());
        assert_eq!(again.is_chess960(), pos.is_chess960());
    }
    // Chess960 at the standard arrangement keeps its flag through the Shredder letters.
    let game = Game::chess960(518).expect("position 518");
    let text = json(game.position());
    assert!(text.contains(" HAha "), "{text}");
    assert!(back::<Position>(&text).expect("our FEN").is_chess960());
    assert!(back::<Position>("\"8/8/8 w - - 0 1\"").is_err());
}

#[test]
fn chess960_without_castling_rights_reads_back_as_the_same_position() {
    let pos = Position::from_fen_960("4k3/8/8/8/8/8/8/4K3 w - - 0 1").expect("test FEN");
    let again: Position = back(&json(&pos)).expect("our FEN");
    assert_eq!((again.fen(), again.key()), (pos.fen(), pos.key()));
    assert_eq!(again.legal_moves().len(), pos.legal_moves().len());
}

#[test]
fn outcomes_are_tagged_by_their_names() {
    let all = [
        Outcome::Ongoing,
        Outcome::Checkmate {
            winner: Color::Black,
        },
        Outcome::Stalemate,
        Outcome::InsufficientMaterial,
        Outcome::FivefoldRepetition,
        Outcome::SeventyFiveMoves,
        Outcome::ThreefoldRepetition,
        Outcome::FiftyMoves,
        Outcome::Resignation {
            winner: Color::White,
        },
        Outcome::Agreement,
    ];
    for outcome in all {
        let text = json(&outcome);
        let value: serde_json::Value = back(&text).expect("our JSON");
        assert_eq!(value["outcome"], outcome.name(), "{text}");
        assert_eq!(
            value.get("winner").and_then(|w| w.as_str()),
            outcome.winner().map(Color::name)
        );
        assert_eq!(back::<Outcome>(&text).ok(), Some(outcome));
    }
    assert!(back::<Outcome>(r#"{"outcome":"checkmate"}"#).is_err());
    for claim in [DrawClaim::ThreefoldRepetition, DrawClaim::FiftyMoves] {
        let text = json(&claim);
        assert_eq!(text, format!("\"{}\"", claim.name()));
        assert_eq!(back::<DrawClaim>(&text).ok(), Some(claim));
    }
}

/// Deterministic pseudo-random games, so a failure is reproducible.
fn random_game(mut game: Game, seed: u64, plies: usize) -> Game {
    let mut x = seed;
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = moves[(x % moves.len() as u64) as usize];
        assert!(game.play_move(m).is_ok());
    }
    game
}

fn assert_same_game(a: &Game, b: &Game) {
    assert_eq!(a.history(), b.history());
    assert_eq!(a.start_position().fen(), b.start_position().fen());
    assert_eq!(a.fen(), b.fen());
    assert_eq!(a.is_chess960(), b.is_chess960());
    assert_eq!(a.outcome(), b.outcome());
    assert_eq!(a.repetitions(), b.repetitions());
    assert_eq!(a.claimable_draws(), b.claimable_draws());
}

#[test]
fn games_round_trip_through_their_moves() {
    for seed in 1..=40u64 {
        let start = match seed % 4 {
            0 => Game::chess960((seed * 37 % 960) as u16).expect("in range"),
            1 => Game::from_fen(FENS[1]).expect("test FEN"),
            _ => Game::new(),
        };
        let game = random_game(start, seed, 30 + 10 * seed as usize);
        let text = json(&game);
        let again: Game = back(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_same_game(&again, &game);
    }
}

#[test]
fn decisions_round_trip() {
    let mut resigned = random_game(Game::new(), 7, 11);
    resigned.resign(Color::Black).expect("ongoing game");
    let mut agreed = Game::new();
    agreed.agree_draw().expect("ongoing game");
    // Both claims are possible here; the game records which one was made.
    let mut fifty = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 96 80").expect("test FEN");
    for m in ["Ra2", "Kd8", "Ra1", "Ke8", "Ra2", "Kd8", "Ra1", "Ke8"] {
        fifty.play(m).expect("legal");
    }
    assert_eq!(fifty.claimable_draws().len(), 2);
    let mut threefold = fifty.clone();
    fifty.claim(DrawClaim::FiftyMoves).expect("claimable");
    threefold.claim_draw().expect("claimable");
    for game in [resigned, agreed, fifty, threefold] {
        let text = json(&game);
        assert!(text.contains("\"decision\""), "{text}");
        let again: Game = back(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_same_game(&again, &game);
    }
}

#[test]
fn games_that_break_the_rules_are_refused() {
    let start = r#""start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1""#;
    let bad = [
        format!(r#"{{{start},"moves":["e2e4","e2e4"]}}"#),
        format!(r#"{{{start},"moves":["e2e4"],"decision":{{"outcome":"fifty_moves"}}}}"#),
        format!(r#"{{{start},"moves":[],"decision":{{"outcome":"stalemate"}}}}"#),
        format!(r#"{{{start},"moves":[],"extra":1}}"#),
        r#"{"start":"not a fen","moves":[]}"#.to_string(),
    ];
    for text in &bad {
        assert!(back::<Game>(text).is_err(), "{text}");
    }
    let ok = format!(r#"{{{start},"moves":["e2e4"]}}"#);
    assert_eq!(back::<Game>(&ok).map(|g| g.ply()).ok(), Some(1));
}

#[test]
fn a_shared_game_is_its_snapshot() {
    let shared = SharedGame::new(random_game(Game::new(), 3, 20));
    let text = json(&shared);
    assert_eq!(text, json(&shared.snapshot()));
    let again: SharedGame = back(&text).expect("our JSON");
    assert_same_game(&again.snapshot(), &shared.snapshot());
}
