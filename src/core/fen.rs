//! FEN in and out, with X-FEN and Shredder-FEN castling fields for Chess960.

use std::fmt;

use super::bitboard::Bitboard;
use super::castling::{CastleSide, Castling, CastlingRights};
use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square::Square;

/// The standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was refused. Each variant names the problem precisely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// The placement field does not have 8 ranks separated by `/`.
    RankCount(usize),
    /// A character in the placement field that is neither a piece letter nor a digit 1-8.
    BadPieceChar(char),
    /// A rank (numbered 1-8) that does not describe exactly 8 squares.
    RankLength {
        /// The rank, 1 to 8.
        rank: u8,
        /// How many squares it described.
        squares: usize,
    },
    /// A side does not have exactly one king.
    KingCount {
        /// Whose kings.
        color: Color,
        /// How many there are.
        count: u32,
    },
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// The side-to-move field is not `w` or `b`.
    BadSideToMove(String),
    /// The side that is not to move is in check (it could be captured).
    OpponentInCheck(Color),
    /// The castling field has a character that is not `KQkq`, a file letter or `-`.
    BadCastlingChar(char),
    /// A castling right is given but the king and rook it needs are not in place.
    CastlingWithoutPieces(char),
    /// The same castling right appears twice.
    DuplicateCastling(char),
    /// The en-passant field is not `-` or a square.
    BadEnPassant(String),
    /// The en-passant square is a real square, but no double pawn push can have led to it.
    ImpossibleEnPassant(Square),
    /// The halfmove clock or fullmove number is not a number in range.
    BadClock(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => {
                write!(f, "a FEN has 6 fields (4 are accepted), this one has {n}")
            }
            FenError::RankCount(n) => write!(
                f,
                "the placement field needs 8 ranks separated by '/', found {n}"
            ),
            FenError::BadPieceChar(c) => write!(
                f,
                "'{c}' is not a piece letter (PNBRQK/pnbrqk) or a digit 1-8"
            ),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares instead of 8")
            }
            FenError::KingCount { color, count } => {
                write!(f, "{color} has {count} kings instead of one")
            }
            FenError::PawnOnBackRank(sq) => {
                write!(f, "a pawn stands on {sq}, on the first or last rank")
            }
            FenError::BadSideToMove(s) => write!(f, "side to move must be 'w' or 'b', found '{s}'"),
            FenError::OpponentInCheck(c) => {
                write!(f, "{c} is in check but it is not {c}'s turn to move")
            }
            FenError::BadCastlingChar(c) => write!(f, "'{c}' is not valid in the castling field"),
            FenError::CastlingWithoutPieces(c) => {
                write!(
                    f,
                    "castling right '{c}' needs its king and rook on their squares"
                )
            }
            FenError::DuplicateCastling(c) => write!(f, "castling right '{c}' is given twice"),
            FenError::BadEnPassant(s) => write!(f, "'{s}' is not an en-passant square or '-'"),
            FenError::ImpossibleEnPassant(sq) => {
                write!(
                    f,
                    "en-passant square {sq} is impossible: no pawn can have just passed it"
                )
            }
            FenError::BadClock(s) => write!(f, "'{s}' is not a valid move clock"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses a FEN (6 fields; 4 or 5 are accepted, the clocks defaulting to `0 1`).
    ///
    /// The castling field may be standard (`KQkq`), X-FEN (`KQkq` meaning the outermost rook,
    /// or a rook's file letter) or Shredder-FEN (`HAha`). The position is marked Chess960 when
    /// its castling geometry is not the standard one or file letters are used.
    ///
    /// ```
    /// use ferrum::core::{FenError, Position};
    /// let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
    /// assert_eq!(pos.legal_moves().len(), 3);
    /// assert!(matches!(Position::from_fen("8/8/8/8/8/8/8/K6X w - - 0 1"), Err(FenError::BadPieceChar('X'))));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse(fen, false)
    }

    /// Parses a FEN for Chess960: the position always uses Chess960 notation.
    pub fn from_fen_960(fen: &str) -> Result<Position, FenError> {
        parse(fen, true)
    }

    /// The FEN of this position. Castling is `KQkq` in standard chess and X-FEN in Chess960
    /// (a file letter only where `K`/`Q` would be ambiguous). The en-passant square is written
    /// only when an en-passant capture is legal.
    pub fn fen(&self) -> String {
        self.fen_with(false)
    }

    /// The FEN with a Shredder-FEN castling field: the castling rooks' file letters (`HAha`).
    pub fn fen_shredder(&self) -> String {
        self.fen_with(true)
    }

    fn fen_with(&self, shredder: bool) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.fen_char());
        s.push(' ');
        let castling = self.castling_field(shredder);
        s.push_str(&castling);
        s.push(' ');
        match self.ep {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    fn castling_field(&self, shredder: bool) -> String {
        let mut out = String::new();
        for color in Color::BOTH {
            for side in [CastleSide::King, CastleSide::Queen] {
                let i = Castling::index(color, side);
                if !self
                    .castling
                    .rights
                    .contains(CastlingRights::of(color, side))
                {
                    continue;
                }
                let rook = self.castling.rook_square(i);
                let letter =
                    shredder || (self.chess960 && self.outer_rook(color, side) != Some(rook));
                let c = match side {
                    _ if letter => (b'a' + rook.file()) as char,
                    CastleSide::King => 'k',
                    CastleSide::Queen => 'q',
                };
                out.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }

    /// The outermost rook of `color` on `side` of its king, on the back rank.
    fn outer_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        let ksq = self.king_square(color);
        let rooks = self.pieces_of(color, PieceKind::Rook) & Bitboard::rank(color.back_rank());
        let beyond = rooks
            .iter()
            .filter(|r| (side == CastleSide::King) == (r.file() > ksq.file()))
            .collect::<Bitboard>();
        match side {
            CastleSide::King => beyond.any().then(|| beyond.msb()),
            CastleSide::Queen => beyond.first(),
        }
    }
}

fn parse(fen: &str, chess960: bool) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    let mut pos = Position::empty();
    parse_placement(&mut pos, fields[0])?;
    check_kings_and_pawns(&pos)?;
    pos.side = match fields[1] {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => return Err(FenError::BadSideToMove(other.to_string())),
    };
    check_not_left_in_check(&pos)?;
    pos.chess960 = chess960;
    parse_castling(&mut pos, fields[2])?;
    parse_en_passant(&mut pos, fields[3])?;
    if let Some(h) = fields.get(4) {
        pos.halfmove = h
            .parse::<u16>()
            .map_err(|_| FenError::BadClock(h.to_string()))?;
    }
    if let Some(fm) = fields.get(5) {
        let n = fm
            .parse::<u16>()
            .map_err(|_| FenError::BadClock(fm.to_string()))?;
        // Some tools write move number 0; read it as the first move.
        pos.fullmove = n.max(1);
    }
    pos.refresh();
    Ok(pos)
}

impl Position {
    /// A position from its pieces and the side to move, with no castling rights, no en passant
    /// square and the move counters at their start, checked as a FEN's board is (one king each,
    /// no pawn on a back rank, the side not to move not in check); a square given twice holds
    /// the last piece.
    // The trainer's packed positions are its only user outside the tests.
    #[cfg(any(test, feature = "tune"))]
    pub(crate) fn from_pieces(
        pieces: impl IntoIterator<Item = (Square, Piece)>,
        side: Color,
    ) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        for (sq, piece) in pieces {
            pos.place(piece, sq);
        }
        check_kings_and_pawns(&pos)?;
        pos.side = side;
        check_not_left_in_check(&pos)?;
        pos.refresh();
        Ok(pos)
    }
}

/// One king of each colour and no pawn on the first or last rank.
fn check_kings_and_pawns(pos: &Position) -> Result<(), FenError> {
    for color in Color::BOTH {
        let count = pos.pieces_of(color, PieceKind::King).count();
        if count != 1 {
            return Err(FenError::KingCount { color, count });
        }
    }
    let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
    match (pos.pieces(PieceKind::Pawn) & back_ranks).first() {
        Some(sq) => Err(FenError::PawnOnBackRank(sq)),
        None => Ok(()),
    }
}

/// The side that has just moved is not in check.
fn check_not_left_in_check(pos: &Position) -> Result<(), FenError> {
    let them = !pos.side;
    if pos.is_attacked(pos.king_square(them), pos.side, pos.occupied()) {
        return Err(FenError::OpponentInCheck(them));
    }
    Ok(())
}

fn parse_placement(pos: &mut Position, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_fen_char(c) {
                if file < 8 {
                    pos.place(piece, Square::from_coords(file as u8, rank));
                }
                file += 1;
            } else {
                return Err(FenError::BadPieceChar(c));
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(())
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let mut nonstandard = false;
    for c in field.chars() {
        if !matches!(c.to_ascii_lowercase(), 'k' | 'q' | 'a'..='h') {
            return Err(FenError::BadCastlingChar(c));
        }
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = color.back_rank();
        let ksq = pos.king_square(color);
        if ksq.rank() != rank {
            return Err(FenError::CastlingWithoutPieces(c));
        }
        let (side, rook) = match c.to_ascii_lowercase() {
            'k' => (CastleSide::King, pos.outer_rook(color, CastleSide::King)),
            'q' => (CastleSide::Queen, pos.outer_rook(color, CastleSide::Queen)),
            f @ 'a'..='h' => {
                nonstandard = true;
                let sq = Square::from_coords(f as u8 - b'a', rank);
                let side = if sq.file() > ksq.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                let is_rook = pos.piece_at(sq) == Some(Piece::new(color, PieceKind::Rook));
                (side, is_rook.then_some(sq))
            }
            _ => return Err(FenError::BadCastlingChar(c)),
        };
        let Some(rook) = rook else {
            return Err(FenError::CastlingWithoutPieces(c));
        };
        if pos
            .castling
            .rights
            .contains(CastlingRights::of(color, side))
        {
            return Err(FenError::DuplicateCastling(c));
        }
        let standard_rook = if side == CastleSide::King { 7 } else { 0 };
        if ksq.file() != 4 || rook.file() != standard_rook {
            nonstandard = true;
        }
        pos.castling.add(color, side, ksq, rook);
    }
    if nonstandard {
        pos.chess960 = true;
    }
    Ok(())
}

fn parse_en_passant(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let sq: Square = field
        .parse()
        .map_err(|_| FenError::BadEnPassant(field.to_string()))?;
    let us = pos.side;
    let them = !us;
    // The pawn that just moved two squares stands in front of the target (from our side), and
    // both the target and the square it came from are empty.
    let (target_rank, pushed, origin) = match us {
        Color::White => (5, sq.offset(0, -1), sq.offset(0, 1)),
        Color::Black => (2, sq.offset(0, 1), sq.offset(0, -1)),
    };
    let valid = sq.rank() == target_rank
        && pos.piece_at(sq).is_none()
        && pushed.is_some_and(|p| pos.piece_at(p) == Some(Piece::new(them, PieceKind::Pawn)))
        && origin.is_some_and(|o| pos.piece_at(o).is_none());
    if !valid {
        return Err(FenError::ImpossibleEnPassant(sq));
    }
    if pos.en_passant_capture_possible(sq, us) {
        pos.ep = Some(sq);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(STARTPOS).unwrap();
        assert_eq!(pos.fen(), STARTPOS);
        assert!(!pos.is_chess960());
    }

    #[test]
    fn a_board_from_its_pieces_is_its_fen_and_is_checked_like_one() {
        let fen = "r3k2r/pp3ppp/2n5/3qp3/8/2N5/PP3PPP/R2QK2R b - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let pieces = || {
            Square::ALL
                .into_iter()
                .filter_map(|sq| Some((sq, pos.piece_at(sq)?)))
        };
        let rebuilt = Position::from_pieces(pieces(), Color::Black).unwrap();
        assert_eq!(rebuilt.fen(), fen);
        assert_eq!(rebuilt.key(), pos.key());
        let e1 = Square::from_coords(4, 0);
        let two_kings = pieces().chain([(
            Square::from_coords(0, 3),
            Piece::new(Color::White, PieceKind::King),
        )]);
        assert_eq!(
            Position::from_pieces(two_kings, Color::Black),
            Err(FenError::KingCount {
                color: Color::White,
                count: 2
            })
        );
        let pawn_on_8 = pieces().chain([(
            Square::from_coords(3, 7),
            Piece::new(Color::Black, PieceKind::Pawn),
        )]);
        assert!(matches!(
            Position::from_pieces(pawn_on_8, Color::Black),
            Err(FenError::PawnOnBackRank(_))
        ));
        // A black rook on e2 checks White's king on e1: Black cannot be the side to move.
        let check = pieces().chain([(
            Square::from_coords(4, 1),
            Piece::new(Color::Black, PieceKind::Rook),
        )]);
        assert_eq!(
            Position::from_pieces(check, Color::Black),
            Err(FenError::OpponentInCheck(Color::White))
        );
        assert_eq!(
            pos.piece_at(e1),
            Some(Piece::new(Color::White, PieceKind::King))
        );
    }

    #[test]
    fn each_error_is_named() {
        let cases: &[(&str, FenError)] = &[
            ("8/8/8/8 w - -", FenError::RankCount(4)),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
                FenError::FieldCount(3),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                FenError::BadPieceChar('X'),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                FenError::RankLength {
                    rank: 1,
                    squares: 7,
                },
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::BadPieceChar('9'),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1",
                FenError::KingCount {
                    color: Color::White,
                    count: 0,
                },
            ),
            (
                "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
                FenError::PawnOnBackRank(Square::A1),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
                FenError::BadSideToMove("x".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
                FenError::OpponentInCheck(Color::Black),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                FenError::CastlingWithoutPieces('K'),
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",
                FenError::DuplicateCastling('K'),
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w X - 0 1",
                FenError::BadCastlingChar('X'),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
                FenError::BadEnPassant("e9".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
                FenError::ImpossibleEnPassant(Square::E6),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - x 1",
                FenError::BadClock("x".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 -3",
                FenError::BadClock("-3".into()),
            ),
        ];
        for (fen, err) in cases {
            assert_eq!(Position::from_fen(fen).as_ref().err(), Some(err), "{fen}");
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn en_passant_square_kept_only_when_capture_is_legal() {
        // No black pawn can capture: the square is dropped.
        let pos = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(pos.en_passant(), None);
        // A black pawn on d4 can capture.
        let pos = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(pos.en_passant(), Some(Square::E3));
        // The capture would expose the black king along the rank: dropped.
        let pos = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(pos.en_passant(), None);
    }

    /// Found by the `fen` fuzz target: a standard position's Shredder-FEN said `k`, which a
    /// Chess960 reader takes for the outermost rook and writes back as `h`.
    #[test]
    fn shredder_fen_uses_file_letters_for_standard_positions_too() {
        let pos = Position::from_fen("4k2r/8/8/8/8/8/8/5K2 b k - 0 1").unwrap();
        assert_eq!(pos.fen_shredder(), "4k2r/8/8/8/8/8/8/5K2 b h - 0 1");
        assert_eq!(pos.fen(), "4k2r/8/8/8/8/8/8/5K2 b k - 0 1");
        let back = Position::from_fen_960(&pos.fen_shredder()).unwrap();
        assert_eq!(back.fen_shredder(), pos.fen_shredder());
    }

    #[test]
    fn chess960_castling_fields() {
        let shredder = "rkbnrqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBNRQNB w EAea - 0 1";
        let pos = Position::from_fen(shredder).unwrap();
        assert!(pos.is_chess960());
        assert_eq!(pos.fen_shredder(), shredder);
        // E is the outermost king-side rook and A the outermost queen-side: X-FEN says KQkq.
        assert_eq!(
            pos.fen(),
            "rkbnrqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBNRQNB w KQkq - 0 1"
        );
        assert_eq!(Position::from_fen_960(&pos.fen()).unwrap(), pos);
        // Two rooks on one side: the inner one needs its letter in X-FEN.
        let inner = Position::from_fen("1r2k1rr/8/8/8/8/8/8/1R2K1RR w Gg - 0 1").unwrap();
        assert_eq!(inner.fen(), "1r2k1rr/8/8/8/8/8/8/1R2K1RR w Gg - 0 1");
    }
}
