//! `ferrum wdl` on PGN files: the command reads the engines' scores from the move comments,
//! holds out every fifth game and measures the model on `--test-pgn` games.

mod common;

use std::path::PathBuf;

use common::ferrum;

/// `games` games of the Ruy Lopez, White ("A") scoring itself `+0.k0` at move k of game i,
/// Black ("B") the opposite; the results cycle through win, draw and loss.
fn scored_games(games: usize) -> String {
    let line = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5",
    ];
    let mut text = String::new();
    for i in 0..games {
        let result = ["1-0", "1/2-1/2", "0-1"][i % 3];
        text += &format!("[White \"A\"]\n[Black \"B\"]\n[Result \"{result}\"]\n\n");
        for (ply, mv) in line.iter().enumerate() {
            let white_view = (i % 3) as i32 * -100 + 100 + ply as i32;
            let score = if ply % 2 == 0 {
                white_view
            } else {
                -white_view
            };
            if ply % 2 == 0 {
                text += &format!("{}. ", ply / 2 + 1);
            }
            text += &format!("{mv} {{{:+.2}/12 0.1s}} ", f64::from(score) / 100.0);
        }
        text += &format!("{result}\n\n");
    }
    text
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("ferrum-wdl-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("write a temporary PGN");
    path
}

#[test]
fn wdl_fits_pgn_games_and_measures_test_games() {
    let fit = temp_file("fit.pgn", &scored_games(10));
    let test = temp_file("test.pgn", &scored_games(3));
    let (fit_arg, test_arg) = (fit.to_string_lossy(), test.to_string_lossy());
    let args = [
        "wdl",
        "--pgn",
        &fit_arg,
        "--test-pgn",
        &test_arg,
        "--iterations",
        "50",
    ];
    let (ok, out, err) = ferrum(&args);
    // Plies 8 to 11 of each game are scored: 4 positions a game, games 4 and 9 held out.
    assert!(ok, "{err}");
    assert!(
        err.contains("10 games: 32 positions to fit, 8 held out"),
        "{err}"
    );
    assert!(
        out.contains("--test-pgn (12 positions) mean log-loss"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("a: [")), "{out}");
    // One player's scores only: half the positions.
    let (ok, _, err) = ferrum(&[&args[..], &["--player", "B"]].concat());
    assert!(
        ok && err.contains("16 positions to fit, 4 held out"),
        "{err}"
    );
    // Datagen chunks and PGN files together: the games of both are counted.
    let dir = std::env::temp_dir().join(format!("ferrum-wdl-{}-data", std::process::id()));
    let dir_arg = dir.to_string_lossy();
    let (ok, _, err) = ferrum(&[
        "datagen",
        "--out",
        &dir_arg,
        "--games",
        "10",
        "--nodes",
        "200",
        "--threads",
        "1",
    ]);
    assert!(ok, "{err}");
    let (ok, _, err) = ferrum(&[
        "wdl",
        "--data",
        &dir_arg,
        "--pgn",
        &fit_arg,
        "--iterations",
        "5",
    ]);
    assert!(ok && err.contains("20 games: "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let (ok, _, err) = ferrum(&["wdl", "--iterations", "5"]);
    assert!(!ok && err.contains("give --data or --pgn"), "{err}");
    let _ = (std::fs::remove_file(fit), std::fs::remove_file(test));
}
