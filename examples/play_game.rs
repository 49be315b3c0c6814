//! Plays a game through the rules API and prints it as PGN.
//!
//! Both sides follow a tiny fixed policy (mate if possible, else the most valuable capture,
//! else a move chosen by a seeded generator), so every run plays the same game. Along the way
//! it shows a refused move with its reason and an undo.
//!
//! Run with `cargo run --release --example play_game`.

use ferrum::core::{Move, PieceKind};
use ferrum::rules::{Game, Outcome, PgnGame};

fn value(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Knight | PieceKind::Bishop => 3,
        PieceKind::Rook => 5,
        PieceKind::Queen => 9,
        PieceKind::King => 0,
    }
}

fn choose(game: &Game, seed: &mut u64) -> Option<Move> {
    let moves = game.legal_moves();
    let mates = moves.iter().copied().find(|&m| {
        let mut after = game.clone();
        after.play_move(m).is_ok() && matches!(after.outcome(), Outcome::Checkmate { .. })
    });
    if mates.is_some() {
        return mates;
    }
    let pos = game.position();
    let best_capture = moves
        .iter()
        .copied()
        .filter_map(|m| pos.captured_piece(m).map(|p| (value(p.kind), m)))
        .max_by_key(|&(v, _)| v)
        .map(|(_, m)| m);
    if best_capture.is_some() {
        return best_capture;
    }
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let n = moves.len();
    (n > 0).then(|| moves[(*seed >> 33) as usize % n])
}

fn main() {
    let mut game = Game::new();

    // A person's moves are text, in SAN or UCI; a refused one says why and changes nothing.
    game.play("e4").expect("a legal opening move");
    if let Err(refused) = game.play("e4e5") {
        println!("refused: {refused}");
    }
    game.play("e7e5").expect("a legal reply");
    game.play("Qh5").expect("legal");
    let taken_back = game.undo().expect("a move to take back");
    println!("took back {}", taken_back.to_uci(false));

    let mut seed = 2024;
    while !game.outcome().is_over() && game.ply() < 300 {
        match choose(&game, &mut seed) {
            Some(m) => game.play_move(m).expect("chosen from the legal moves"),
            None => break,
        }
        if game.outcome() == Outcome::Ongoing && !game.claimable_draws().is_empty() {
            let claimed = game.claim_draw().expect("a claimable draw");
            println!("draw claimed: {claimed}");
        }
    }
    println!("outcome: {}\n", game.outcome());

    let mut pgn = PgnGame::new(game);
    for (tag, value) in [
        ("Event", "Ferrum rules API example"),
        ("Site", "examples/play_game.rs"),
        ("White", "greedy policy"),
        ("Black", "greedy policy"),
    ] {
        pgn.set_tag(tag, value);
    }
    print!("{}", pgn.to_pgn());
}
