//! Notes through a read, write and read; syntax errors as the rules' readers report them.

use super::*;
use crate::rules::Outcome;

/// A game as a server exports it, plus every kind of note in awkward places.
const RICH: &str = r#"[Event "Rich"]
{a comment among the tags}
[Black "B"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]

{before the first move} 1... e5 { [%clk 0:03:00] [%eval 0.17] } 2. Nf3!? $14
( 2. Bc4 {the bishop} ( 2. d4 exd4 ) 2... Nf6 $2 ) ( {empty-handed} ) 2... Nc6 ; a } in it
3. Bb5 a6 $1 $32 {two
lines} *
"#;

fn read_one(text: &str) -> PgnGame {
    match read_pgn(text).into_iter().next() {
        Some(Ok(game)) => game,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn every_note_is_kept_where_it_was() {
    let game = read_one(RICH);
    assert_eq!(game.game.ply(), 5);
    assert_eq!(
        game.notes[0].comments,
        ["a comment among the tags", "before the first move"]
    );
    assert_eq!(game.notes[1].comments, [" [%clk 0:03:00] [%eval 0.17] "]);
    let after_nf3 = &game.notes[2];
    assert_eq!(after_nf3.nags, [5, 14]);
    assert_eq!(after_nf3.variations.len(), 2);
    let bc4 = &after_nf3.variations[0];
    assert_eq!(bc4.moves[0].san, "Bc4");
    assert_eq!(bc4.moves[0].notes.comments, ["the bishop"]);
    assert_eq!(bc4.moves[0].notes.variations[0].moves.len(), 2);
    assert_eq!(bc4.moves[1].notes.nags, [2]);
    assert_eq!(after_nf3.variations[1].intro.comments, ["empty-handed"]);
    assert_eq!(game.notes[3].comments, [" a } in it"]);
    assert_eq!(game.notes[5].nags, [1, 32]);
    assert_eq!(game.notes[5].comments, ["two\nlines"]);
}

#[test]
fn notes_survive_a_read_write_read() {
    let game = read_one(RICH);
    let written = game.to_pgn();
    let again = read_one(&written);
    assert_eq!(again.notes, game.notes, "{written}");
    assert_eq!(again.game.history(), game.game.history());
    assert_eq!(again.to_pgn(), written, "writing is not stable");
    // Black's moves are numbered after a comment or a variation, as export format asks.
    assert!(written.contains("1... e5"), "{written}");
    assert!(written.contains("2... Nc6"), "{written}");
}

#[test]
fn the_ending_is_said_once() {
    let mut game = Game::new();
    for m in ["f3", "e5", "g4", "Qh4#"] {
        game.play(m).expect("legal");
    }
    let once = PgnGame::new(game).to_pgn();
    let twice = read_one(&once).to_pgn();
    assert_eq!(twice, once);
    assert_eq!(
        twice.matches("{checkmate, black wins}").count(),
        1,
        "{twice}"
    );
    assert_eq!(
        read_one(&twice).game.outcome(),
        Outcome::Checkmate {
            winner: crate::core::Color::Black
        }
    );
}

#[test]
fn malformed_text_is_an_error_with_its_place() {
    let text = "[Event \"x\"]\n\n1. e4 e5 ) 2. Nf3 *\n\n[Event \"y\"]\n\n1. d4 *\n";
    let read = read_pgn(text);
    let Err(e) = &read[0] else {
        panic!("a stray ) must be an error")
    };
    let PgnErrorKind::Syntax(syntax) = &e.kind else {
        panic!("{e}")
    };
    assert_eq!((syntax.at.line, syntax.at.column), (3, 10));
    assert_eq!(e.line, 3);
    assert_eq!(
        e.to_string(),
        "game 1: line 3, column 10: a ) without a variation to close"
    );
    // The moves before it are kept; the next game is read as usual.
    assert_eq!(e.partial.as_ref().map(|p| p.game.ply()), Some(2));
    assert!(read[1].is_ok());
}

/// A reader that fails after its first line.
struct Failing(bool);

impl std::io::Read for Failing {
    fn read(&mut self, _buf: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("disk on fire"))
    }
}

impl std::io::BufRead for Failing {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.0 {
            return Err(std::io::Error::other("disk on fire"));
        }
        Ok(b"1. e4 e5 *\n")
    }
    fn consume(&mut self, _amt: usize) {
        self.0 = true;
    }
}

#[test]
fn a_read_error_ends_the_stream_with_an_error() {
    let read: Vec<_> = PgnStream::new(Failing(false)).collect();
    assert_eq!(read.len(), 2, "{read:?}");
    assert!(read[0].is_ok());
    let Err(e) = &read[1] else { panic!("{read:?}") };
    assert_eq!(e.kind, PgnErrorKind::Io("disk on fire".to_string()));
}
