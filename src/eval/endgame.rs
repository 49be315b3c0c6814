//! Endgames whose evaluation is known better than any network learns it, scored by rule.
//!
//! - **King, bishop and knight against a bare king** is won, but the mate needs the weak king
//!   in a corner of the bishop's colour, up to 33 moves away. The network (trained on games
//!   that tablebases adjudicate at four pieces, so it never saw this ending played out) scores
//!   the position about +8 wherever the kings stand; without tablebases Ferrum then shuffled
//!   until the fifty-move rule, twice in 400 games against Ethereal 12. Here the score grows as
//!   the weak king nears a right corner and the kings close in, which the search can follow.
//! - **A bishop of the wrong colour and rook pawns against a bare king** is drawn once the weak
//!   king reaches the promotion corner (or stands next to it: no piece of the strong side can
//!   stop it stepping in, for the bishop never covers the corner and its own king may not come
//!   next to the other). The network scored such a position +7.
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::eval::endgame::known;
//! // The weak king in a corner of the bishop's colour (c1 and a1 are dark): near mate.
//! let right = Position::from_fen("8/8/8/8/8/1K6/8/k1BN4 w - - 0 1").unwrap();
//! // The same in a corner of the other colour: a long way still.
//! let wrong = Position::from_fen("k7/8/1K6/8/8/8/8/2BN4 w - - 0 1").unwrap();
//! assert!(known(&right).unwrap() > known(&wrong).unwrap());
//! // An h-pawn, which promotes on a dark square, with a light-squared bishop (d1), the weak
//! // king in the corner: a draw.
//! let fortress = Position::from_fen("7k/8/6K1/7P/8/8/8/3B4 w - - 0 1").unwrap();
//! assert_eq!(known(&fortress), Some(0));
//! ```

use crate::core::{Bitboard, Color, PieceKind, Position, Square};

/// The base score of king, bishop and knight against a king: a clear win, well below mate and
/// tablebase scores.
const KBNK_BASE: i32 = 900;
/// Per step (Manhattan distance, 0..=7) the weak king is nearer a corner of the bishop's colour.
const KBNK_CORNER: i32 = 40;
/// Per step (king distance, 1..=7) the strong king is nearer the weak one.
const KBNK_KINGS: i32 = 10;

/// The score of `pos` for the side to move when it is an endgame known by rule, else `None`.
#[inline]
pub fn known(pos: &Position) -> Option<i32> {
    // Every rule here has a bare king on one side: a cheap test first.
    let bare = |c: Color| pos.color_bb(c).count() == 1;
    let strong = match (bare(Color::White), bare(Color::Black)) {
        (false, true) => Color::White,
        (true, false) => Color::Black,
        _ => return None,
    };
    let for_strong = kbnk(pos, strong).or_else(|| wrong_bishop(pos, strong))?;
    Some(if pos.side_to_move() == strong {
        for_strong
    } else {
        -for_strong
    })
}

/// King, bishop and knight against a bare king: the score for `strong`.
fn kbnk(pos: &Position, strong: Color) -> Option<i32> {
    let ours = pos.color_bb(strong);
    let bishops = pos.pieces_of(strong, PieceKind::Bishop);
    if ours.count() != 3
        || bishops.count() != 1
        || pos.pieces_of(strong, PieceKind::Knight).count() != 1
    {
        return None;
    }
    let bishop = bishops.first()?;
    let weak_king = pos.king_square(!strong);
    let corners = if Bitboard::LIGHT.has(bishop) {
        [Square::from_coords(7, 0), Square::from_coords(0, 7)]
    } else {
        [Square::from_coords(0, 0), Square::from_coords(7, 7)]
    };
    let manhattan = |a: Square, b: Square| {
        i32::from(a.file().abs_diff(b.file())) + i32::from(a.rank().abs_diff(b.rank()))
    };
    // Opposite corners: the nearer one is at most 7 steps away.
    let corner = manhattan(weak_king, corners[0]).min(manhattan(weak_king, corners[1]));
    let kings = i32::from(pos.king_square(strong).distance(weak_king));
    Some(KBNK_BASE + KBNK_CORNER * (7 - corner) + KBNK_KINGS * (7 - kings))
}

/// King, one bishop and pawns all on one rook file against a bare king, the bishop not of the
/// promotion square's colour and the weak king on or next to that square: a draw.
fn wrong_bishop(pos: &Position, strong: Color) -> Option<i32> {
    let bishops = pos.pieces_of(strong, PieceKind::Bishop);
    let pawns = pos.pieces_of(strong, PieceKind::Pawn);
    if bishops.count() != 1 || pawns.is_empty() || pos.color_bb(strong).count() != 2 + pawns.count()
    {
        return None;
    }
    let file = pawns.first()?.file();
    if (file != 0 && file != 7) || pawns.iter().any(|p| p.file() != file) {
        return None;
    }
    let promotion = Square::from_coords(file, if strong == Color::White { 7 } else { 0 });
    let covers = Bitboard::LIGHT.has(bishops.first()?) == Bitboard::LIGHT.has(promotion);
    (!covers && pos.king_square(!strong).distance(promotion) <= 1).then_some(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(f: &str) -> Position {
        Position::from_fen(f).expect("valid fen")
    }

    /// White: Ke5, a dark-squared bishop on h2 and Nh1; Black's king on the a-file, rank
    /// `rank` (0 for a1).
    fn king_on_the_a_file(rank: usize) -> Position {
        // Each row from b to h, rank 8 first; every one starts with empty squares, which an
        // empty a-square joins.
        let rest = ["7", "7", "7", "3K3", "7", "7", "6B", "6N"];
        let rows: Vec<String> = rest
            .iter()
            .enumerate()
            .map(|(i, r)| {
                if 7 - i == rank {
                    return format!("k{r}");
                }
                let (empty, tail) = r.split_at(1);
                format!("{}{tail}", empty.parse::<u8>().unwrap_or(0) + 1)
            })
            .collect();
        fen(&format!("{} w - - 0 1", rows.join("/")))
    }

    #[test]
    fn kbnk_drives_the_king_to_the_bishop_s_corner() {
        // a1 and h8 are the dark bishop's corners. The weak king on a8 (wrong), then on every
        // step down the a-file to a1 (right), scores higher for White.
        let mut last = i32::MIN;
        for rank in (0..=7).rev() {
            let score = known(&king_on_the_a_file(rank)).expect("kbnk");
            assert!(score > last, "a{}: {score} after {last}", rank + 1);
            last = score;
        }
        // Nearer kings score higher too.
        let far = fen("7K/8/8/8/8/8/7B/k6N w - - 0 1");
        let near = fen("8/8/8/8/8/2K5/7B/k6N w - - 0 1");
        assert!(known(&near) > known(&far));
    }

    #[test]
    fn scores_are_for_the_side_to_move_and_colour_symmetric() {
        let white = fen("8/8/8/4k3/8/8/8/2BNK3 w - - 0 1");
        let black_to_move = fen("8/8/8/4k3/8/8/8/2BNK3 b - - 0 1");
        let flipped = fen("2bnk3/8/8/8/4K3/8/8/8 b - - 0 1");
        let s = known(&white).expect("kbnk");
        assert!(s >= KBNK_BASE);
        assert_eq!(known(&black_to_move), Some(-s));
        assert_eq!(known(&flipped), Some(s));
    }

    #[test]
    fn other_endings_are_left_to_the_evaluation() {
        for f in [
            "8/8/8/4k3/8/8/8/2BBK3 w - - 0 1",  // two bishops
            "8/8/8/4k3/8/8/p7/2BNK3 w - - 0 1", // the weak side has a pawn
            "8/8/8/4k3/8/8/8/2BNKN2 w - - 0 1", // an extra knight
            "7k/8/6K1/7P/8/8/8/2B5 w - - 0 1",  // the right bishop (dark, for h8)
            "8/8/8/8/3k4/6K1/7P/3B4 w - - 0 1", // the weak king far from the corner
            "7k/8/6K1/6PP/8/8/8/3B4 w - - 0 1", // a pawn off the rook file
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            assert_eq!(known(&fen(f)), None, "{f}");
        }
    }

    #[test]
    fn the_wrong_bishop_draws_for_either_colour() {
        assert_eq!(known(&fen("7k/8/6K1/7P/8/8/8/3B4 w - - 0 1")), Some(0));
        assert_eq!(known(&fen("8/6k1/8/7P/7P/8/1K6/3B4 b - - 0 1")), Some(0));
        // Black's a-pawn promotes on a1 (dark): g1's dark-squared bishop covers it, f5's
        // light-squared one does not.
        assert_eq!(known(&fen("8/8/8/8/p7/2K5/8/k5b1 w - - 0 1")), None);
        assert_eq!(known(&fen("8/8/8/5b2/p6k/8/8/1K6 w - - 0 1")), Some(0));
    }
}
