//! Material signatures (which pieces each side has) and the guard that keeps probes away from
//! bad table files.
//!
//! A probe of one material also reads the tables of every material a capture or a promotion can
//! lead to (KQvKR reads KQvK and KRvK, KPvK reads KQvK …). So a bad file blocks every material
//! that can reach it, not just its own.

use std::collections::{HashMap, HashSet};
use std::sync::RwLock;

use crate::core::{Color, PieceKind, Position};

/// Piece counts of one side, indexed by [`PieceKind::index`] (pawn … king).
type Side = [u8; 6];

/// A material signature, the same for both colourings (KQvKR is KRvKQ with colours swapped, and
/// one table file serves both).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Material {
    sides: [Side; 2],
}

impl Material {
    fn new(a: Side, b: Side) -> Material {
        Material {
            sides: if a <= b { [a, b] } else { [b, a] },
        }
    }

    /// The material of a table file name such as `KRPvKR` (None for anything else).
    pub(crate) fn from_name(name: &str) -> Option<Material> {
        let (a, b) = name.split_once('v')?;
        Some(Material::new(parse_side(a)?, parse_side(b)?))
    }

    /// The material on `pos`'s board.
    pub(crate) fn of(pos: &Position) -> Material {
        let side = |c: Color| {
            let mut s = [0u8; 6];
            for k in PieceKind::ALL {
                s[k.index()] = pos.pieces_of(c, k).count() as u8;
            }
            s
        };
        Material::new(side(Color::White), side(Color::Black))
    }

    /// Pieces on the board, kings included.
    pub(crate) fn piece_count(self) -> usize {
        self.sides.iter().flatten().map(|&n| usize::from(n)).sum()
    }

    /// The materials one capture or promotion away.
    fn successors(self) -> Vec<Material> {
        let mut out = Vec::new();
        for (i, side) in self.sides.iter().enumerate() {
            let other = self.sides[1 - i];
            for k in PieceKind::ALL {
                if k == PieceKind::King || side[k.index()] == 0 {
                    continue;
                }
                let mut less = *side;
                less[k.index()] -= 1;
                out.push(Material::new(less, other));
                if k == PieceKind::Pawn {
                    for promo in [
                        PieceKind::Knight,
                        PieceKind::Bishop,
                        PieceKind::Rook,
                        PieceKind::Queen,
                    ] {
                        let mut promoted = less;
                        promoted[promo.index()] += 1;
                        out.push(Material::new(promoted, other));
                    }
                }
            }
        }
        out
    }

    /// True when this material or one it can turn into is in `bad`.
    fn reaches(self, bad: &HashSet<Material>) -> bool {
        let mut seen = HashSet::new();
        let mut todo = vec![self];
        while let Some(m) = todo.pop() {
            if bad.contains(&m) {
                return true;
            }
            if seen.insert(m) {
                todo.extend(m.successors());
            }
        }
        false
    }
}

/// `K`, then any of `QRBNP`, as in table file names.
fn parse_side(text: &str) -> Option<Side> {
    let rest = text.strip_prefix('K')?;
    let mut side = [0u8; 6];
    side[PieceKind::King.index()] = 1;
    for c in rest.chars() {
        let kind = match c {
            'Q' => PieceKind::Queen,
            'R' => PieceKind::Rook,
            'B' => PieceKind::Bishop,
            'N' => PieceKind::Knight,
            'P' => PieceKind::Pawn,
            _ => return None,
        };
        side[kind.index()] += 1;
    }
    Some(side)
}

/// Answers "may this position be probed?" given the bad files; free when there are none.
#[derive(Debug, Default)]
pub(crate) struct Guard {
    bad: HashSet<Material>,
    /// Answers already worked out, per material.
    known: RwLock<HashMap<Material, bool>>,
}

impl Guard {
    /// A guard against the materials of `bad` files.
    pub(crate) fn new(bad: HashSet<Material>) -> Guard {
        Guard {
            bad,
            known: RwLock::new(HashMap::new()),
        }
    }

    /// True when a probe of `pos` could read a bad file.
    pub(crate) fn blocks(&self, pos: &Position) -> bool {
        if self.bad.is_empty() {
            return false;
        }
        let m = Material::of(pos);
        if let Some(&b) = self
            .known
            .read()
            .ok()
            .and_then(|k| k.get(&m).copied())
            .as_ref()
        {
            return b;
        }
        let b = m.reaches(&self.bad);
        if let Ok(mut k) = self.known.write() {
            k.insert(m, b);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(name: &str) -> Material {
        Material::from_name(name).expect("a table name")
    }

    #[test]
    fn names_and_positions_agree() {
        assert_eq!(m("KQvKR"), m("KRvKQ"));
        assert_ne!(m("KQvKR"), m("KRvKR"));
        assert!(Material::from_name("KQvK2").is_none());
        assert!(Material::from_name("QvK").is_none());
        let pos = Position::from_fen("8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1").expect("fen");
        assert_eq!(Material::of(&pos), m("KQvKR"));
    }

    #[test]
    fn a_bad_file_blocks_what_reaches_it() {
        let guard = Guard::new([m("KQvK")].into_iter().collect());
        let fen = |f: &str| Position::from_fen(f).expect("fen");
        assert!(guard.blocks(&fen("8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1"))); // KQvKR → KQvK
        assert!(guard.blocks(&fen("8/8/8/3k4/8/8/1P6/K7 w - - 0 1"))); // KPvK → KQvK
        assert!(!guard.blocks(&fen("8/8/8/3k4/8/8/1r6/K1R5 w - - 0 1"))); // KRvKR
        assert!(!Guard::default().blocks(&fen("8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1")));
    }
}
