//! Move text: Standard Algebraic Notation out ([`san`]), and reading what a person or a file
//! writes (UCI, SAN and the common tolerant forms) into a move description that the game resolves
//! against its legal moves.

use crate::core::{CastleSide, Color, Move, MoveList, PieceKind, Position, Square};

/// SAN of `m` in `pos`: piece letter, minimal disambiguation (file, else rank, else both),
/// `x` for captures, `=Q` for promotions, `O-O`/`O-O-O` for castling, `+` for check and `#`
/// for mate. `None` when `m` is not legal in `pos`.
///
/// ```
/// use ferrum::core::Position;
/// use ferrum::rules::san;
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
/// let m = pos.parse_uci("e1c1").unwrap();
/// assert_eq!(san(&pos, m).as_deref(), Some("O-O-O"));
/// let m = pos.parse_uci("a1a8").unwrap();
/// assert_eq!(san(&pos, m).as_deref(), Some("Ra8+"));
/// ```
pub fn san(pos: &Position, m: Move) -> Option<String> {
    if !pos.is_legal(m) {
        return None;
    }
    Some(san_unchecked(pos, m))
}

/// SAN of a move already known to be legal in `pos`.
pub(crate) fn san_unchecked(pos: &Position, m: Move) -> String {
    let mut s = san_without_check(pos, m);
    let mut after = pos.clone();
    after.make(m);
    if after.in_check() {
        s.push(if after.has_legal_moves() { '+' } else { '#' });
    }
    s
}

fn san_without_check(pos: &Position, m: Move) -> String {
    if m.is_castle() {
        return if m.to().file() > m.from().file() {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        };
    }
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        return m.to_uci(pos.is_chess960());
    };
    let capture = pos.is_capture(m);
    let mut s = String::with_capacity(8);
    if piece.kind == PieceKind::Pawn {
        if capture {
            s.push(file_char(from.file()));
        }
    } else {
        s.push(piece.kind.char().to_ascii_uppercase());
        // Other pieces of the same kind that can legally go to the same square.
        let others = pos.pieces_of(piece.color, piece.kind) & !from.bb();
        if others.any() {
            let mut list = MoveList::new();
            pos.legal_moves_from(others, &mut list);
            let rivals: Vec<Square> = list
                .iter()
                .filter(|o| o.to() == to && !o.is_castle())
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|r| r.file() == from.file());
                let same_rank = rivals.iter().any(|r| r.rank() == from.rank());
                if !same_file {
                    s.push(file_char(from.file()));
                } else if !same_rank {
                    s.push(rank_char(from.rank()));
                } else {
                    s.push(file_char(from.file()));
                    s.push(rank_char(from.rank()));
                }
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&to.to_string());
    if let Some(p) = m.promotion() {
        s.push('=');
        s.push(p.char().to_ascii_uppercase());
    }
    s
}

fn file_char(file: u8) -> char {
    (b'a' + file) as char
}

fn rank_char(rank: u8) -> char {
    (b'1' + rank) as char
}

/// What a move text says, before it is matched against the legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum MoveText {
    /// `e2e4`, `e7e8q`, `e1g1`, `e1h1`.
    Uci {
        from: Square,
        to: Square,
        /// Any piece letter, so that `e7e8k` can be refused with its own reason.
        promotion: Option<PieceKind>,
    },
    /// `O-O`, `0-0-0`, ...
    Castle(CastleSide),
    /// `Nf3`, `exd6`, `R1e2`, `e8=Q`, `Qh4xe1`, ...
    San {
        piece: PieceKind,
        file: Option<u8>,
        rank: Option<u8>,
        to: Square,
        promotion: Option<PieceKind>,
    },
}

/// Reads `text` (already trimmed) as UCI or SAN, tolerating `0-0`, a missing or extra
/// `+`/`#`, annotation marks (`!`, `?`), `e.p.`, `e8Q`, `e8q`, `e8(Q)`, `e8/Q`, a long
/// algebraic `Ng1-f3` or `Ng1xf3`, and a `P` for pawns.
pub(crate) fn read(text: &str) -> Option<MoveText> {
    if !text.is_ascii() {
        return None;
    }
    if let Some(uci) = read_uci(text.as_bytes()) {
        return Some(uci);
    }
    let mut t = text.trim_end_matches(['+', '#', '!', '?']);
    for suffix in ["e.p.", "ep"] {
        if let Some(rest) = t.strip_suffix(suffix) {
            t = rest.trim_end();
        }
    }
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    match t {
        "O-O" | "0-0" | "o-o" | "OO" | "00" => return Some(MoveText::Castle(CastleSide::King)),
        "O-O-O" | "0-0-0" | "o-o-o" | "OOO" | "000" => {
            return Some(MoveText::Castle(CastleSide::Queen))
        }
        _ => {}
    }
    read_san(t.as_bytes())
}

fn is_file(c: u8) -> bool {
    (b'a'..=b'h').contains(&c)
}

fn is_rank(c: u8) -> bool {
    (b'1'..=b'8').contains(&c)
}

fn square(file: u8, rank: u8) -> Square {
    Square::from_coords(file - b'a', rank - b'1')
}

fn read_uci(b: &[u8]) -> Option<MoveText> {
    if !(b.len() == 4 || b.len() == 5)
        || !is_file(b[0])
        || !is_rank(b[1])
        || !is_file(b[2])
        || !is_rank(b[3])
    {
        return None;
    }
    let promotion = match b.get(4) {
        None => None,
        Some(&c) => Some(PieceKind::from_char(c as char)?),
    };
    Some(MoveText::Uci {
        from: square(b[0], b[1]),
        to: square(b[2], b[3]),
        promotion,
    })
}

fn read_san(b: &[u8]) -> Option<MoveText> {
    let (piece, rest) = match b.first()? {
        b'K' => (PieceKind::King, &b[1..]),
        b'Q' => (PieceKind::Queen, &b[1..]),
        b'R' => (PieceKind::Rook, &b[1..]),
        b'B' => (PieceKind::Bishop, &b[1..]),
        b'N' => (PieceKind::Knight, &b[1..]),
        b'P' => (PieceKind::Pawn, &b[1..]),
        _ => (PieceKind::Pawn, b),
    };
    // The destination is the last file-rank pair: promotion letters are never digits.
    let at = (0..rest.len().saturating_sub(1))
        .rev()
        .find(|&i| is_file(rest[i]) && is_rank(rest[i + 1]))?;
    let to = square(rest[at], rest[at + 1]);
    let (mut file, mut rank) = (None, None);
    for &c in &rest[..at] {
        match c {
            b'x' | b':' | b'-' => {}
            c if is_file(c) && file.is_none() && rank.is_none() => file = Some(c - b'a'),
            c if is_rank(c) && rank.is_none() => rank = Some(c - b'1'),
            _ => return None,
        }
    }
    let tail = &rest[at + 2..];
    let promotion = match tail {
        [] => None,
        [c] | [b'=' | b'/', c] | [b'(', c, b')'] | [b'=', b'(', c, b')'] => {
            Some(PieceKind::from_char(*c as char)?)
        }
        _ => return None,
    };
    if promotion.is_some() && piece != PieceKind::Pawn {
        return None;
    }
    Some(MoveText::San {
        piece,
        file,
        rank,
        to,
        promotion,
    })
}

/// The castling side of a castling move (king-takes-rook encoding).
pub(crate) fn castle_side(m: Move) -> CastleSide {
    if m.to().file() > m.from().file() {
        CastleSide::King
    } else {
        CastleSide::Queen
    }
}

/// The rank a pawn of `color` promotes on.
pub(crate) fn last_rank(color: Color) -> u8 {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_tolerant_forms() {
        let e8q = Some(PieceKind::Queen);
        for t in [
            "e8=Q", "e8Q", "e8q", "e8(Q)", "e8/Q", "e8=Q+", "e8=Q#", "Pe8=Q",
        ] {
            match read(t) {
                Some(MoveText::San {
                    piece,
                    to,
                    promotion,
                    ..
                }) => {
                    assert_eq!(
                        (piece, to, promotion),
                        (PieceKind::Pawn, Square::E8, e8q),
                        "{t}"
                    )
                }
                other => panic!("{t}: {other:?}"),
            }
        }
        assert_eq!(read("0-0"), Some(MoveText::Castle(CastleSide::King)));
        assert_eq!(read("O-O-O+"), Some(MoveText::Castle(CastleSide::Queen)));
        assert!(matches!(
            read("Ng1-f3"),
            Some(MoveText::San {
                file: Some(6),
                rank: Some(0),
                ..
            })
        ));
        assert!(matches!(
            read("exd6e.p."),
            Some(MoveText::San { file: Some(4), .. })
        ));
        for junk in [
            "", "x", "Nf9", "Kf3=Q", "e4e", "Zf3", "e2e4x", "é4", "N1bd2",
        ] {
            assert_eq!(read(junk), None, "{junk}");
        }
    }
}
