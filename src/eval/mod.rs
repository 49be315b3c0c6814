//! Static evaluation: how good a position is for the side to move, in centipawns.
//!
//! The search talks to an [`Evaluator`] only through [`Evaluator::evaluate`]; each search thread
//! owns one, so it can keep caches (a pawn-structure cache belongs here) without locks. Every
//! weight lives in [`weights`], every evaluation term is one function below that adds a
//! middlegame/endgame pair [`S`] per side, and [`Evaluator::trace`] shows the terms one by one
//! (the UCI `eval` command prints it).
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::eval::Evaluator;
//! let mut ev = Evaluator::new();
//! let start = ev.evaluate(&Position::startpos());
//! assert!(start.abs() < 50, "the start position is balanced");
//! let queen_up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
//! assert!(ev.evaluate(&queen_up) > 800);
//! ```

pub mod pawns;
mod score;
pub mod weights;

use std::fmt;

use crate::core::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::core::{Color, PieceKind, Position};

pub use score::{MAX_PHASE, S};

use weights::{
    BISHOP_PAIR, DRAWISH_DIVISOR, DRAWISH_MARGIN, MATERIAL, MOBILITY, MOBILITY_TYPICAL,
    PHASE_WEIGHT, PSQT, SHELTER, TEMPO,
};

/// The evaluation of one search thread. It owns its caches (the pawn-structure cache today), so
/// the evaluation can grow them without the search changing or threads sharing locks.
#[derive(Default, Clone, Debug)]
pub struct Evaluator {
    pawns: pawns::PawnCache,
}

impl Evaluator {
    /// A fresh evaluator.
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// The score of `pos` for the side to move, in centipawns.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        Terms::of(pos, &mut self.pawns).score(pos.side_to_move())
    }

    /// The evaluation taken apart term by term (for the UCI `eval` command and for tests).
    pub fn trace(&mut self, pos: &Position) -> Trace {
        let terms = Terms::of(pos, &mut self.pawns);
        Trace {
            side: pos.side_to_move(),
            score: terms.score(pos.side_to_move()),
            terms,
        }
    }
}

/// Each term's contribution per side, before the phase blend.
#[derive(Clone, Debug, Default)]
struct Terms {
    material: [S; 2],
    psqt: [S; 2],
    bishop_pair: [S; 2],
    mobility: [S; 2],
    pawn_structure: [S; 2],
    shelter: [S; 2],
    phase: i32,
    /// Endgame value of the pieces other than pawns, per side.
    pieces_eg: [i32; 2],
    pawnless: [bool; 2],
}

impl Terms {
    fn of(pos: &Position, pawn_cache: &mut pawns::PawnCache) -> Terms {
        let mut t = Terms::default();
        // The cache holds White minus Black; the trace shows it on White's side.
        t.pawn_structure[Color::White.index()] = pawn_cache.probe(pos);
        for color in Color::BOTH {
            let c = color.index();
            for kind in PieceKind::ALL {
                let bb = pos.pieces_of(color, kind);
                let k = kind.index();
                t.material[c] += MATERIAL[k] * bb.count() as i32;
                t.phase += PHASE_WEIGHT[k] * bb.count() as i32;
                for sq in bb {
                    let rel = match color {
                        Color::White => sq,
                        Color::Black => sq.flip_rank(),
                    };
                    t.psqt[c] += PSQT[k][rel.index()];
                }
            }
            let pawns = pos.pieces_of(color, PieceKind::Pawn);
            t.pawnless[c] = pawns.is_empty();
            t.pieces_eg[c] =
                t.material[c].eg() - MATERIAL[PieceKind::Pawn.index()].eg() * pawns.count() as i32;
            if pos.pieces_of(color, PieceKind::Bishop).more_than_one() {
                t.bishop_pair[c] = BISHOP_PAIR;
            }
            t.mobility[c] = mobility(pos, color);
            t.shelter[c] = shelter(pos, color);
        }
        t
    }

    /// The sum of the terms for White, per phase half.
    fn white_total(&self) -> S {
        let w = Color::White.index();
        let b = Color::Black.index();
        (self.material[w] - self.material[b])
            + (self.psqt[w] - self.psqt[b])
            + (self.bishop_pair[w] - self.bishop_pair[b])
            + (self.mobility[w] - self.mobility[b])
            + (self.pawn_structure[w] - self.pawn_structure[b])
            + (self.shelter[w] - self.shelter[b])
    }

    /// The blended score for `side`, scaled down in endgames the stronger side cannot win, plus
    /// the tempo bonus.
    fn score(&self, side: Color) -> i32 {
        let white = self.white_total().taper(self.phase);
        let stronger = if white >= 0 {
            Color::White
        } else {
            Color::Black
        };
        let scaled = if self.drawish(stronger) {
            white / DRAWISH_DIVISOR
        } else {
            white
        };
        let ours = match side {
            Color::White => scaled,
            Color::Black => -scaled,
        };
        ours + TEMPO
    }

    /// True when `stronger` has no pawns and leads by little more than a minor piece.
    fn drawish(&self, stronger: Color) -> bool {
        let s = stronger.index();
        self.pawnless[s] && self.pieces_eg[s] - self.pieces_eg[1 - s] <= DRAWISH_MARGIN
    }
}

/// Piece mobility: for each knight, bishop, rook and queen, the squares it attacks that hold no
/// piece of its own side and no enemy pawn's attack, counted against a typical number.
fn mobility(pos: &Position, color: Color) -> S {
    let them = !color;
    let enemy_pawns = pos.pieces_of(them, PieceKind::Pawn);
    let pawn_guarded = match them {
        Color::White => enemy_pawns.north().east() | enemy_pawns.north().west(),
        Color::Black => enemy_pawns.south().east() | enemy_pawns.south().west(),
    };
    let area = !(pos.color_bb(color) | pawn_guarded);
    let occ = pos.occupied();
    let mut total = S::ZERO;
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
            let n = (reach & area).count() as i32;
            total += MOBILITY[k] * (n - MOBILITY_TYPICAL[k]);
        }
    }
    total
}

/// Pawns in front of a king still at home: each of the (up to) three files around it scores
/// by how close its nearest shielding pawn stands.
fn shelter(pos: &Position, color: Color) -> S {
    let ksq = pos.king_square(color);
    let home_rank = color.back_rank();
    let rel = (ksq.rank() as i32 - home_rank as i32).abs();
    if rel > 1 {
        return S::ZERO;
    }
    let pawns = pos.pieces_of(color, PieceKind::Pawn);
    let step: i8 = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    let mut total = S::ZERO;
    for df in -1i8..=1 {
        let near = ksq.offset(df, step);
        let far = ksq.offset(df, 2 * step);
        let Some(near) = near else { continue };
        total += if pawns.has(near) {
            SHELTER[0]
        } else if far.is_some_and(|f| pawns.has(f)) {
            SHELTER[1]
        } else {
            SHELTER[2]
        };
    }
    total
}

/// The evaluation of one position, term by term.
#[derive(Clone, Debug)]
pub struct Trace {
    side: Color,
    score: i32,
    terms: Terms,
}

impl Trace {
    /// The final score for the side to move (what [`Evaluator::evaluate`] returns).
    pub fn score(&self) -> i32 {
        self.score
    }

    /// The game phase, 0 (endgame) to [`MAX_PHASE`].
    pub fn phase(&self) -> i32 {
        self.terms.phase
    }
}

impl fmt::Display for Trace {
    /// A table of the terms, White minus Black, middlegame and endgame, then the final score.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.terms;
        writeln!(
            f,
            "       term|   white mg   eg |   black mg   eg |   total mg   eg"
        )?;
        let rows: [(&str, &[S; 2]); 6] = [
            ("material", &t.material),
            ("psqt", &t.psqt),
            ("bishop pair", &t.bishop_pair),
            ("mobility", &t.mobility),
            ("pawns (net)", &t.pawn_structure),
            ("shelter", &t.shelter),
        ];
        for (name, v) in rows {
            let d = v[0] - v[1];
            writeln!(
                f,
                "{name:>11}|{:>11}{:>5} |{:>11}{:>5} |{:>11}{:>5}",
                v[0].mg(),
                v[0].eg(),
                v[1].mg(),
                v[1].eg(),
                d.mg(),
                d.eg()
            )?;
        }
        writeln!(f, "phase {} of {MAX_PHASE}, tempo {TEMPO}", t.phase)?;
        write!(
            f,
            "final evaluation {} cp for {} (side to move)",
            self.score,
            self.side.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        match Position::from_fen(fen) {
            Ok(pos) => Evaluator::new().evaluate(&pos),
            Err(e) => panic!("bad test FEN {fen}: {e}"),
        }
    }

    /// Colour-flipping a position (mirror ranks, swap colours and side to move) must give the same
    /// score: the evaluation has no colour bias.
    #[test]
    fn symmetric_under_colour_flip() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/5N2/PP2PPPP/RNBQKB1R w KQkq - 0 4",
            "6k1/5ppp/8/8/8/8/5PPP/3B2K1 b - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let flipped = flip(&pos);
            let mut ev = Evaluator::new();
            assert_eq!(
                ev.evaluate(&pos),
                ev.evaluate(&flipped),
                "{fen} vs {}",
                flipped.fen()
            );
        }
    }

    fn flip(pos: &Position) -> Position {
        let mut rows = Vec::new();
        for rank in (0..8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8 {
                let sq = crate::core::Square::from_coords(file, rank).flip_rank();
                match pos.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = p.fen_char();
                        row.push(if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        });
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = match pos.side_to_move() {
            Color::White => "b",
            Color::Black => "w",
        };
        let fen = format!("{} {side} - - 0 1", rows.join("/"));
        Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn more_material_is_better_and_side_matters() {
        let white_rook_up = "4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1";
        let black_view = "4k3/pppp4/8/8/8/8/PPPP4/R3K3 b - - 0 1";
        assert!(eval(white_rook_up) > 350);
        assert!(eval(black_view) < -350);
    }

    #[test]
    fn pawnless_small_lead_is_scaled_towards_a_draw() {
        // A lone knight cannot win; a rook against a bare king can.
        let knight = eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1");
        let rook = eval("4k3/8/8/8/8/8/8/3RK3 w - - 0 1");
        assert!(knight < 120, "K+N v K scored {knight}");
        assert!(rook > 450, "K+R v K scored {rook}");
    }

    #[test]
    fn a_free_piece_beats_a_boxed_in_one() {
        // The same material; White's bishop on the long diagonal vs hemmed in on h1.
        let free = eval("4k3/8/8/8/8/8/8/B3K3 w - - 0 1");
        let boxed = eval("4k3/8/8/8/8/8/6P1/4K2B w - - 0 1");
        let free_with_pawn = eval("4k3/8/8/8/8/8/6P1/B3K3 w - - 0 1");
        assert!(free_with_pawn > boxed, "{free_with_pawn} vs {boxed}");
        assert!(free > 0);
    }

    #[test]
    fn a_sheltered_king_beats_an_exposed_one() {
        let at = |f: &str| match Position::from_fen(f) {
            Ok(p) => shelter(&p, Color::White),
            Err(e) => panic!("{f}: {e}"),
        };
        assert_eq!(at("r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), SHELTER[0] * 3);
        assert_eq!(at("r5k1/5ppp/8/8/8/5PPP/8/R5K1 w - - 0 1"), SHELTER[1] * 3);
        assert_eq!(at("r5k1/5ppp/8/8/8/8/PPP5/R5K1 w - - 0 1"), SHELTER[2] * 3);
        // A king on the edge has two files; one that left home has no shelter term.
        assert_eq!(at("r5k1/5ppp/8/8/8/8/6PP/R6K w - - 0 1"), SHELTER[0] * 2);
        assert_eq!(at("r5k1/5ppp/8/8/8/6K1/6PP/R7 w - - 0 1"), S::ZERO);
        // Black's shelter is mirrored.
        let p = Position::from_fen("r5k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1").expect("fen");
        assert_eq!(shelter(&p, Color::Black), SHELTER[0] * 3);
    }

    #[test]
    fn trace_agrees_with_evaluate() {
        let pos = Position::startpos();
        let mut ev = Evaluator::new();
        let trace = ev.trace(&pos);
        assert_eq!(trace.score(), ev.evaluate(&pos));
        assert_eq!(trace.phase(), MAX_PHASE);
        let text = trace.to_string();
        assert!(text.contains("material") && text.contains("final evaluation"));
    }
}
