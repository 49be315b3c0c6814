//! The terms that look at pieces and attacks: mobility, king safety (shelter, storm, open
//! files, attacks on the king zone, safe checks), passed pawns against pieces and kings, rooks
//! on open files and the seventh, outposts and threats. One pass collects what each side
//! attacks; the terms read it.

use crate::core::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::core::{Bitboard, Color, PieceKind, Position, Square};

use super::params::{
    HANGING, KING_FILE, KS_ATTACKERS, KS_ATTACKS, KS_SAFE_CHECK, MOBILITY, OUTPOST, PASSED_FREE,
    PASSED_OUR_KING, PASSED_THEIR_KING, ROOK_FILE, ROOK_SEVENTH, SHELTER, STORM, THREAT_MINOR,
    THREAT_PAWN, THREAT_ROOK,
};
use super::pawns::{adjacent_files, front_span};
use super::Sink;

/// What each side attacks, by piece kind.
struct Attacks {
    by: [[Bitboard; 6]; 2],
    all: [Bitboard; 2],
}

fn pawn_span(pawns: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => pawns.north().east() | pawns.north().west(),
        Color::Black => pawns.south().east() | pawns.south().west(),
    }
}

fn relative_rank(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 7 - sq.rank() as usize,
    }
}

/// Every term of this module, for both sides.
pub(super) fn evaluate<K: Sink>(pos: &Position, sink: &mut K) {
    let mut at = Attacks {
        by: [[Bitboard::EMPTY; 6]; 2],
        all: [Bitboard::EMPTY; 2],
    };
    for color in Color::BOTH {
        let c = color.index();
        let pawns = pawn_span(pos.pieces_of(color, PieceKind::Pawn), color);
        let king = king_attacks(pos.king_square(color));
        at.by[c][PieceKind::Pawn.index()] = pawns;
        at.by[c][PieceKind::King.index()] = king;
        at.all[c] = pawns | king;
    }
    for color in Color::BOTH {
        pieces(pos, color, &mut at, sink);
    }
    for color in Color::BOTH {
        king_danger(pos, color, &at, sink);
        threats(pos, color, &at, sink);
        passers(pos, color, sink);
        shelter(pos, color, sink);
    }
}

/// Mobility, king-zone attacks, rooks on files and the seventh, outposts; fills `at` for the
/// knights, bishops, rooks and queens of `color`.
fn pieces<K: Sink>(pos: &Position, color: Color, at: &mut Attacks, sink: &mut K) {
    let c = color.index();
    let them = !color;
    let our_pawns = pos.pieces_of(color, PieceKind::Pawn);
    let their_pawns = pos.pieces_of(them, PieceKind::Pawn);
    let area = !(pos.color_bb(color) | at.by[them.index()][PieceKind::Pawn.index()]);
    let occ = pos.occupied();
    let zone = {
        let k = pos.king_square(them);
        king_attacks(k) | k.bb()
    };
    let mut attackers = 0usize;
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let k = kind.index();
        for sq in pos.pieces_of(color, kind) {
            let reach = match kind {
                PieceKind::Knight => knight_attacks(sq),
                PieceKind::Bishop => bishop_attacks(sq, occ),
                PieceKind::Rook => rook_attacks(sq, occ),
                _ => queen_attacks(sq, occ),
            };
            at.by[c][k] |= reach;
            at.all[c] |= reach;
            sink.add(color, MOBILITY[k] + (reach & area).count() as usize, 1);
            let hits = (reach & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                sink.add(color, KS_ATTACKS + k, hits);
            }
            let file = Bitboard::file(sq.file());
            let rank = relative_rank(sq, color);
            match kind {
                PieceKind::Rook => {
                    if (file & our_pawns).is_empty() {
                        let open = (file & their_pawns).is_empty() as usize;
                        sink.add(color, ROOK_FILE + open, 1);
                    }
                    if rank == 6 {
                        sink.add(color, ROOK_SEVENTH, 1);
                    }
                }
                PieceKind::Knight | PieceKind::Bishop => {
                    let guarded = (pawn_attacks(them, sq) & our_pawns).any();
                    let safe = (front_span(sq, color) & adjacent_files(sq.file()) & their_pawns)
                        .is_empty();
                    if (3..=5).contains(&rank) && guarded && safe {
                        sink.add(color, OUTPOST + (k - 1), 1);
                    }
                }
                _ => {}
            }
        }
    }
    if attackers > 0 {
        sink.add(color, KS_ATTACKERS + attackers.min(7), 1);
    }
}

/// Safe checks `color` could give, and the pawn storm and open files around the enemy king.
fn king_danger<K: Sink>(pos: &Position, color: Color, at: &Attacks, sink: &mut K) {
    let c = color.index();
    let them = !color;
    let ksq = pos.king_square(them);
    let occ = pos.occupied();
    let safe = !(at.all[them.index()] | pos.color_bb(color));
    let checks = [
        (PieceKind::Knight, knight_attacks(ksq)),
        (PieceKind::Bishop, bishop_attacks(ksq, occ)),
        (PieceKind::Rook, rook_attacks(ksq, occ)),
        (PieceKind::Queen, queen_attacks(ksq, occ)),
    ];
    for (kind, squares) in checks {
        let n = (squares & safe & at.by[c][kind.index()]).count() as i32;
        if n > 0 {
            sink.add(color, KS_SAFE_CHECK + kind.index(), n);
        }
    }
    // Storm and files, scored for `color` (the side whose king it is: `them` here).
    let our_pawns = pos.pieces_of(them, PieceKind::Pawn);
    let storm_pawns = pos.pieces_of(color, PieceKind::Pawn);
    let kfile = ksq.file() as i8;
    for f in (kfile - 1).max(0)..=(kfile + 1).min(7) {
        let file = Bitboard::file(f as u8);
        if (file & our_pawns).is_empty() {
            let open = (file & storm_pawns).is_empty() as usize;
            sink.add(them, KING_FILE + open, 1);
        }
        // The nearest enemy pawn in front of the king on this file.
        let ahead = front_span(ksq, them) & file;
        let nearest = match them {
            Color::White => (ahead & storm_pawns).first(),
            Color::Black => (ahead & storm_pawns).iter().last(),
        };
        let d = nearest.map_or(0, |sq| {
            (sq.rank() as i8 - ksq.rank() as i8).unsigned_abs() as usize
        });
        sink.add(them, STORM + d.min(7), 1);
    }
}

/// Enemy pieces attacked by pawns, minor pieces and rooks of `color`, and hanging ones.
fn threats<K: Sink>(pos: &Position, color: Color, at: &Attacks, sink: &mut K) {
    let c = color.index();
    let them = !color;
    let by = &at.by[c];
    let minors = by[PieceKind::Knight.index()] | by[PieceKind::Bishop.index()];
    let undefended = !at.all[them.index()];
    for kind in [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let k = kind.index();
        let victims = pos.pieces_of(them, kind);
        if victims.is_empty() {
            continue;
        }
        if kind != PieceKind::Pawn {
            let n = (victims & by[PieceKind::Pawn.index()]).count() as i32;
            if n > 0 {
                sink.add(color, THREAT_PAWN + k, n);
            }
        }
        let n = (victims & minors).count() as i32;
        if n > 0 {
            sink.add(color, THREAT_MINOR + k, n);
        }
        let n = (victims & by[PieceKind::Rook.index()]).count() as i32;
        if n > 0 {
            sink.add(color, THREAT_ROOK + k, n);
        }
        let n = (victims & at.all[c] & undefended).count() as i32;
        if n > 0 {
            sink.add(color, HANGING + k, n);
        }
    }
}

/// Passed pawns against the pieces and kings: a free path, and the kings' distances to the
/// square in front.
fn passers<K: Sink>(pos: &Position, color: Color, sink: &mut K) {
    let ours = pos.pieces_of(color, PieceKind::Pawn);
    let theirs = pos.pieces_of(!color, PieceKind::Pawn);
    let occ = pos.occupied();
    let our_king = pos.king_square(color);
    let their_king = pos.king_square(!color);
    let step: i8 = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    for sq in ours {
        if (front_span(sq, color) & theirs).any() {
            continue;
        }
        let rank = relative_rank(sq, color);
        let Some(stop) = sq.offset(0, step) else {
            continue;
        };
        let path = front_span(sq, color) & Bitboard::file(sq.file());
        if (path & occ).is_empty() {
            sink.add(color, PASSED_FREE + rank, 1);
        }
        sink.add(
            color,
            PASSED_OUR_KING + rank,
            our_king.distance(stop) as i32,
        );
        sink.add(
            color,
            PASSED_THEIR_KING + rank,
            their_king.distance(stop) as i32,
        );
    }
}

/// Pawns in front of a king still at home: each of the (up to) three files around it scores
/// by how close its nearest shielding pawn stands.
pub(super) fn shelter<K: Sink>(pos: &Position, color: Color, sink: &mut K) {
    let ksq = pos.king_square(color);
    let home_rank = color.back_rank();
    let rel = (ksq.rank() as i32 - home_rank as i32).abs();
    if rel > 1 {
        return;
    }
    let pawns = pos.pieces_of(color, PieceKind::Pawn);
    let step: i8 = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    for df in -1i8..=1 {
        let near = ksq.offset(df, step);
        let far = ksq.offset(df, 2 * step);
        let Some(near) = near else { continue };
        let i = if pawns.has(near) {
            0
        } else if far.is_some_and(|f| pawns.has(f)) {
            1
        } else {
            2
        };
        sink.add(color, SHELTER + i, 1);
    }
}
