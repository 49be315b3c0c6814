//! Why a move is not legal, for the error message. Legality itself is decided elsewhere, by
//! membership in the core's legal move list; this module runs only after a move was refused
//! and only chooses the words.

use crate::core::attacks::{attacks, between, pawn_attacks};
use crate::core::{
    Bitboard, CastleSide, Castling, CastlingRights, Color, Move, MoveKind, Piece, PieceKind,
    Position, Square,
};

use super::error::{CastlingRefusal, MoveErrorKind};

/// Why a castling move of the side to move on `side` is not in the legal list.
pub(crate) fn castling(pos: &Position, side: CastleSide) -> MoveErrorKind {
    let us = pos.side_to_move();
    let c = pos.castling();
    if !c.rights.contains(CastlingRights::of(us, side)) {
        return MoveErrorKind::Castling(CastlingRefusal::NoRight { color: us, side });
    }
    if pos.in_check() {
        return MoveErrorKind::Castling(CastlingRefusal::InCheck { color: us });
    }
    let i = Castling::index(us, side);
    let king = pos.king_square(us);
    let rook = c.rook_square(i);
    let dest = Move::new(king, rook, MoveKind::Castle).king_destination();
    // Squares in the order the king (then the rook) meets them.
    let blocked = in_order_from(king, c.empty_path(i) & pos.occupied());
    if let Some(&square) = blocked.first() {
        return MoveErrorKind::Castling(CastlingRefusal::Blocked { square });
    }
    let vacated = pos.occupied() ^ king.bb() ^ rook.bb();
    for square in in_order_from(king, c.king_path(i)) {
        if pos.is_attacked(square, !us, vacated) {
            let refusal = if square == dest {
                CastlingRefusal::IntoCheck { square }
            } else {
                CastlingRefusal::ThroughCheck { square }
            };
            return MoveErrorKind::Castling(refusal);
        }
    }
    // The generator refused it for a reason not named above; say the king would be in check.
    MoveErrorKind::LeavesKingInCheck {
        color: us,
        king_move: true,
    }
}

/// The squares of `set`, nearest to `origin` first.
fn in_order_from(origin: Square, set: Bitboard) -> Vec<Square> {
    let mut v: Vec<Square> = set.iter().collect();
    v.sort_by_key(|s| s.distance(origin));
    v
}

/// True when the king move `from`→`to` is an attempt to castle on the returned side: the king
/// "takes" its own rook, or (standard chess) steps two files from its home square.
pub(crate) fn castle_attempt(pos: &Position, from: Square, to: Square) -> Option<CastleSide> {
    let us = pos.side_to_move();
    let side = if to.file() > from.file() {
        CastleSide::King
    } else {
        CastleSide::Queen
    };
    if pos.piece_at(to) == Some(Piece::new(us, PieceKind::Rook)) && to.rank() == from.rank() {
        return Some(side);
    }
    let home = Square::from_coords(4, us.back_rank());
    let two_files = from.rank() == to.rank() && from.file().abs_diff(to.file()) == 2;
    if !pos.is_chess960() && from == home && two_files {
        return Some(side);
    }
    // Chess960: the king going from its starting square two or more files along the back
    // rank to the c- or g-file counts as castling (a one-square step is a king move).
    let far = from.rank() == to.rank() && from.file().abs_diff(to.file()) >= 2;
    if pos.is_chess960()
        && from == pos.castling().king_square(us)
        && from.rank() == us.back_rank()
        && far
        && (to.file() == 2 || to.file() == 6)
    {
        return Some(side);
    }
    None
}

/// The kind of refusal for `piece` on `from` (of the side to move) going to `to`, a move
/// known not to be legal. `ep_target` is the square a pawn skipped on the last move (whether
/// or not an en-passant capture onto it is legal).
pub(crate) fn piece_move(
    pos: &Position,
    piece: Piece,
    from: Square,
    to: Square,
    ep_target: Option<Square>,
) -> MoveErrorKind {
    let us = pos.side_to_move();
    if reaches(pos, piece, from, to, ep_target) {
        return MoveErrorKind::LeavesKingInCheck {
            color: us,
            king_move: piece.kind == PieceKind::King,
        };
    }
    MoveErrorKind::CannotMoveThere {
        piece,
        from: Some(from),
        to,
        obstacle: obstacle(pos, piece, from, to),
    }
}

/// True when `piece` on `from` could go to `to` if its own king did not matter: the piece's
/// movement on this board, captures of enemy pieces, pawn pushes over empty squares, and en
/// passant onto `ep_target`.
pub(crate) fn reaches(
    pos: &Position,
    piece: Piece,
    from: Square,
    to: Square,
    ep_target: Option<Square>,
) -> bool {
    let us = piece.color;
    let occ = pos.occupied();
    if pos.color_bb(us).has(to) {
        return false;
    }
    if piece.kind != PieceKind::Pawn {
        return attacks(piece.kind, us, from, occ).has(to);
    }
    if pawn_attacks(us, from).has(to) {
        return pos.color_bb(!us).has(to) || ep_target == Some(to);
    }
    let up: i8 = if us == Color::White { 1 } else { -1 };
    let one = from.offset(0, up);
    let start_rank = if us == Color::White { 1 } else { 6 };
    match one {
        Some(one) if one == to => !occ.has(one),
        Some(one) => {
            from.rank() == start_rank
                && one.offset(0, up) == Some(to)
                && !occ.has(one)
                && !occ.has(to)
        }
        None => false,
    }
}

/// True when `piece` on `from` could go to `to` on an empty board (pawns: a push from their
/// file, two squares from the start rank, or a diagonal capture).
pub(crate) fn geometry(piece: Piece, from: Square, to: Square) -> bool {
    if piece.kind != PieceKind::Pawn {
        return attacks(piece.kind, piece.color, from, Bitboard::EMPTY).has(to);
    }
    pawn_push(piece.color, from, to) || pawn_attacks(piece.color, from).has(to)
}

/// True when `to` is one square ahead of a pawn of `color` on `from`, or two from its start.
fn pawn_push(color: Color, from: Square, to: Square) -> bool {
    let (dir, start_rank) = match color {
        Color::White => (1, 1),
        Color::Black => (-1, 6),
    };
    from.offset(0, dir) == Some(to)
        || (from.rank() == start_rank && from.offset(0, 2 * dir) == Some(to))
}

fn obstacle(pos: &Position, piece: Piece, from: Square, to: Square) -> Option<Square> {
    if pos.color_bb(piece.color).has(to) {
        return Some(to);
    }
    let path = if piece.kind == PieceKind::Pawn {
        if !pawn_push(piece.color, from, to) {
            return None;
        }
        between(from, to) | to.bb()
    } else if geometry(piece, from, to) {
        between(from, to)
    } else {
        return None;
    };
    in_order_from(from, path & pos.occupied()).first().copied()
}

/// The legal-or-not verdict for SAN with no legal match: the pieces of the side to move that
/// the SAN could name and that reach `to` when kings are ignored.
pub(crate) fn san_candidates(
    pos: &Position,
    piece: PieceKind,
    file: Option<u8>,
    rank: Option<u8>,
    to: Square,
    ep_target: Option<Square>,
) -> Vec<Square> {
    let us = pos.side_to_move();
    pos.pieces_of(us, piece)
        .iter()
        .filter(|s| file.is_none_or(|f| s.file() == f) && rank.is_none_or(|r| s.rank() == r))
        .filter(|&s| piece != PieceKind::Pawn || file.is_some() || s.file() == to.file())
        .filter(|&s| reaches(pos, Piece::new(us, piece), s, to, ep_target))
        .collect()
}
