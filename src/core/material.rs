//! The dead-position test both the rules (an automatic draw) and the search (a draw score) use.

use super::{Bitboard, PieceKind, Position};

/// True when no sequence of legal moves could end in mate: king against king, king and one
/// minor piece against king, and positions where every piece besides the kings is a bishop and
/// all those bishops stand on squares of one colour.
///
/// ```
/// use ferrum::core::Position;
/// use ferrum::core::insufficient_material;
/// let kbk = Position::from_fen("8/8/4k3/8/8/2B5/8/4K3 w - - 0 1").unwrap();
/// assert!(insufficient_material(&kbk));
/// let knk_n = Position::from_fen("8/8/4k3/8/3n4/2N5/8/4K3 w - - 0 1").unwrap();
/// assert!(!insufficient_material(&knk_n)); // a helpmate exists
/// ```
pub fn insufficient_material(pos: &Position) -> bool {
    let heavy =
        pos.pieces(PieceKind::Pawn) | pos.pieces(PieceKind::Rook) | pos.pieces(PieceKind::Queen);
    if heavy.any() {
        return false;
    }
    let knights = pos.pieces(PieceKind::Knight);
    let bishops = pos.pieces(PieceKind::Bishop);
    let minors = knights | bishops;
    if minors.count() <= 1 {
        return true;
    }
    knights.is_empty()
        && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty())
}
