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

    /// The signature as one number (4 bits per count), for fast lookups.
    pub(crate) fn packed(self) -> u64 {
        self.sides
            .iter()
            .flatten()
            .fold(0, |acc, &n| acc << 4 | u64::from(n & 0xf))
    }

    /// Each side's pawns (in no particular order of the sides).
    pub(crate) fn pawns(self) -> [u8; 2] {
        let p = PieceKind::Pawn.index();
        [self.sides[0][p], self.sides[1][p]]
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

/// Answers "may this position be probed?": not when a probe could reach a bad file, or a
/// material whose WDL table is missing. A probe would find out itself, but only for the
/// positions whose captures happen to reach the hole; refusing the whole material gives every
/// position of it the same answer (and a search the same view). With a complete set and no bad
/// file the answer is free.
#[derive(Debug, Default)]
pub(crate) struct Guard {
    /// Materials that must not be reached: bad files and missing WDL tables.
    unusable: HashSet<Material>,
    /// Materials with a usable DTZ table.
    dtz: HashSet<Material>,
    /// Answers already worked out, per material.
    known: RwLock<HashMap<Material, bool>>,
}

impl Guard {
    /// A guard for a set with these usable WDL and DTZ tables and these bad files, holding
    /// tables of up to `max_pieces` pieces.
    pub(crate) fn new(
        wdl: &HashSet<Material>,
        dtz: HashSet<Material>,
        bad: HashSet<Material>,
        max_pieces: usize,
    ) -> Guard {
        let mut unusable = bad;
        unusable.extend(
            all_materials(max_pieces)
                .into_iter()
                .filter(|m| !wdl.contains(m)),
        );
        Guard {
            unusable,
            dtz,
            known: RwLock::new(HashMap::new()),
        }
    }

    /// True when a probe of `pos` could reach a bad file or a missing table.
    pub(crate) fn blocks(&self, pos: &Position) -> bool {
        if self.unusable.is_empty() {
            return false;
        }
        let m = Material::of(pos);
        if let Some(b) = self.known.read().ok().and_then(|k| k.get(&m).copied()) {
            return b;
        }
        let b = m.reaches(&self.unusable);
        if let Ok(mut k) = self.known.write() {
            k.insert(m, b);
        }
        b
    }

    /// True when `pos`'s own DTZ table is usable (a DTZ probe reads no other DTZ table).
    pub(crate) fn has_dtz(&self, pos: &Position) -> bool {
        self.dtz.contains(&Material::of(pos))
    }
}

/// Every material of 3 to `max_pieces` pieces (kings included; two bare kings need no table).
fn all_materials(max_pieces: usize) -> HashSet<Material> {
    let extra = max_pieces.saturating_sub(2);
    let mut sides = vec![[0u8; 6]];
    for kind in [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let mut more = Vec::new();
        for side in &sides {
            let used: usize = side.iter().map(|&n| usize::from(n)).sum();
            for n in 1..=extra.saturating_sub(used) {
                let mut s = *side;
                s[kind.index()] = n as u8;
                more.push(s);
            }
        }
        sides.extend(more);
    }
    for s in &mut sides {
        s[PieceKind::King.index()] = 1;
    }
    let mut out = HashSet::new();
    for a in &sides {
        for b in &sides {
            let m = Material::new(*a, *b);
            if (3..=max_pieces).contains(&m.piece_count()) {
                out.insert(m);
            }
        }
    }
    out
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

    /// A guard for the complete 3- and 4-piece set less `missing`, with `bad` files.
    fn guard(missing: &[&str], bad: &[&str]) -> Guard {
        let mut wdl = all_materials(4);
        for name in missing {
            wdl.remove(&m(name));
        }
        let bad = bad.iter().map(|n| m(n)).collect();
        Guard::new(&wdl, HashSet::new(), bad, 4)
    }

    #[test]
    fn every_material_is_listed_once() {
        // 3 pieces: KXvK for five X; 4 pieces: KXYvK (15) and KXvKY (15).
        assert_eq!(all_materials(3).len(), 5);
        assert_eq!(all_materials(4).len(), 35);
        assert!(all_materials(4).contains(&m("KPvKP")));
        // Fathom's tables hold 650 + 861 entries for everything up to 7 pieces.
        assert_eq!(all_materials(7).len(), 650 + 861);
    }

    #[test]
    fn missing_tables_block_what_reaches_them() {
        let g = guard(&["KRvK"], &[]);
        let fen = |f: &str| Position::from_fen(f).expect("fen");
        assert!(g.blocks(&fen("8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1"))); // KQvKR → KRvK
        assert!(!g.blocks(&fen("8/8/8/3k4/8/8/1q6/K1Q5 w - - 0 1"))); // KQvKQ
        assert!(guard(&[], &[]).unusable.is_empty());
    }

    #[test]
    fn a_bad_file_blocks_what_reaches_it() {
        let guard = guard(&[], &["KQvK"]);
        let fen = |f: &str| Position::from_fen(f).expect("fen");
        assert!(guard.blocks(&fen("8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1"))); // KQvKR → KQvK
        assert!(guard.blocks(&fen("8/8/8/3k4/8/8/1P6/K7 w - - 0 1"))); // KPvK → KQvK
        assert!(!guard.blocks(&fen("8/8/8/3k4/8/8/1r6/K1R5 w - - 0 1"))); // KRvKR
        assert!(!Guard::default().blocks(&fen("8/8/8/3k4/8/8/1r6/K1Q5 w - - 0 1")));
    }
}
