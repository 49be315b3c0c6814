//! Static exchange evaluation: does a move win at least a given amount of material once every
//! piece that bears on the target square has had its turn to capture, cheapest first?

use crate::core::attacks::{bishop_attacks, rook_attacks};
use crate::core::{Move, PieceKind, Position};

/// Piece values for exchanges (pawn, knight, bishop, rook, queen, king).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// The exchange value of a piece kind.
#[inline(always)]
pub fn value(kind: PieceKind) -> i32 {
    SEE_VALUE[kind.index()]
}

/// True when the exchange started by the legal move `m` gains at least `threshold` centipawns
/// for the mover. Pins are ignored, as usual for SEE.
///
/// ```
/// use ferrum::core::Position;
/// use ferrum::search::see_ge;
/// // Rook takes a pawn defended by a pawn: loses the exchange.
/// let pos = Position::from_fen("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
/// let m = pos.parse_uci("d1d5").unwrap();
/// assert!(see_ge(&pos, m, -400));
/// assert!(!see_ge(&pos, m, 0));
/// ```
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return 0 >= threshold;
    }
    let from = m.from();
    let to = m.to();
    let Some(mover) = pos.moved_piece(m) else {
        return false;
    };
    let gained = pos.captured_piece(m).map_or(0, |p| value(p.kind));
    let promo_gain = m
        .promotion()
        .map_or(0, |k| value(k) - value(PieceKind::Pawn));
    let mut swap = gained + promo_gain - threshold;
    if swap < 0 {
        return false;
    }
    let on_square = m.promotion().unwrap_or(mover.kind);
    swap = value(on_square) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occ = pos.occupied() ^ from.bb() ^ to.bb();
    if m.is_en_passant() {
        occ ^= crate::core::Square::new(to.to_u8() ^ 8).bb();
    }
    let mut stm = mover.color;
    let mut attackers = pos.attackers_to(to, occ);
    let diagonal = pos.pieces(PieceKind::Bishop) | pos.pieces(PieceKind::Queen);
    let straight = pos.pieces(PieceKind::Rook) | pos.pieces(PieceKind::Queen);
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let ours = attackers & pos.color_bb(stm);
        if ours.is_empty() {
            break;
        }
        res = !res;
        // The cheapest attacker captures next; removing it may uncover a slider behind it.
        let mut next = None;
        for kind in PieceKind::ALL {
            let bb = ours & pos.pieces(kind);
            if bb.any() {
                next = Some((kind, bb.lsb()));
                break;
            }
        }
        let Some((kind, sq)) = next else {
            break;
        };
        if kind == PieceKind::King {
            // The king may only take last: if the other side still attacks, it cannot.
            return if (attackers & pos.color_bb(!stm)).any() {
                !res
            } else {
                res
            };
        }
        swap = value(kind) - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= sq.bb();
        match kind {
            PieceKind::Pawn | PieceKind::Bishop => {
                attackers |= bishop_attacks(to, occ) & diagonal;
            }
            PieceKind::Rook => attackers |= rook_attacks(to, occ) & straight,
            PieceKind::Queen => {
                attackers |=
                    (bishop_attacks(to, occ) & diagonal) | (rook_attacks(to, occ) & straight);
            }
            _ => {}
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, uci: &str, at_least: i32, not: i32) {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
        assert!(
            see_ge(&pos, m, at_least),
            "{fen} {uci} should gain >= {at_least}"
        );
        assert!(
            !see_ge(&pos, m, not),
            "{fen} {uci} should not gain >= {not}"
        );
    }

    #[test]
    fn exchanges() {
        // Free pawn.
        check("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100, 101);
        // Pawn defended by a pawn: rook lost for a pawn.
        check("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", -400, -399);
        // Knight takes a pawn defended by a knight, the rook behind recaptures: N for P+N.
        check("4k3/8/2n5/4p3/8/3N4/8/4RK2 w - - 0 1", "d3e5", 100, 101);
        // Queen takes a pawn defended by a bishop: loses the queen for a pawn.
        check("4k3/8/2b5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", -850, -849);
        // X-ray: doubled rooks win a pawn defended by one rook.
        check("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100, 101);
        // Quiet move onto an attacked square loses the piece.
        check("4k3/8/8/2p5/8/8/2N5/4K3 w - - 0 1", "c2d4", -320, -319);
        // The king may recapture only when nothing else attacks the square.
        check("4k3/8/8/8/8/8/4p3/3QK3 w - - 0 1", "d1e2", 100, 101);
        // Queen takes, knight retakes, king takes the knight last.
        check("4k3/8/8/8/8/8/4p3/3QK1n1 w - - 0 1", "d1e2", -530, -529);
        // En passant wins a pawn.
        check("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100, 101);
    }
}
