//! One table file: its header, read at the first probe that needs it, and the lookup of a
//! position's stored value.
//!
//! A file holds one sub-table per side to move (WDL files of unlike sides) and, for tables
//! with pawns, per file a..d of the leading pawn. Each sub-table's header lists its pieces in
//! the order they are indexed, which groups of like pieces they form and in which order the
//! groups are numbered (see [`super::index`]).

use std::path::PathBuf;
use std::sync::OnceLock;

use super::decode::{Cursor, Pairs, Sizes};
use super::file::Source;
use super::index::{self, Maps, KK_PLACEMENTS, MAPS, UNIQUE3_PLACEMENTS};
use super::material::Material;
use super::scan::Kind;
use crate::core::{Bitboard, Color, Piece, PieceKind, Position};

/// The header is read from this prefix of the file first, and a bigger one if it is longer.
const HEADER_PREFIX: u64 = 64 << 10;
/// A header longer than this is taken for damage.
const MAX_HEADER: u64 = 16 << 20;
/// Flags byte of the file: WDL sub-tables for both sides to move.
const SPLIT: u8 = 1;
/// Flags byte of the file: the material has pawns.
const HAS_PAWNS: u8 = 2;
/// DTZ sub-table flags: which side to move it stores.
const DTZ_BLACK_TO_MOVE: u8 = 1;
/// DTZ sub-table flags: values go through a map (per WDL outcome).
const DTZ_MAPPED: u8 = 2;
/// DTZ sub-table flags: wins are stored in plies, not moves.
const DTZ_WIN_PLIES: u8 = 4;
/// DTZ sub-table flags: losses are stored in plies, not moves.
const DTZ_LOSS_PLIES: u8 = 8;
/// DTZ sub-table flags: the maps hold 16-bit values (newer 7-piece files).
const DTZ_WIDE_MAP: u8 = 16;
/// Which of a DTZ sub-table's four maps serves each WDL value −2..=2 (the file stores them as
/// win, loss, cursed win, blessed loss; a draw has no DTZ and borrows the first).
const MAP_OF_WDL: [usize; 5] = [1, 3, 0, 2, 0];
/// Piece codes in headers: the kind (pawn 1 … king 6) plus this for Black.
const BLACK_CODE: u8 = 8;
/// A piece code's kind bits.
const KIND_BITS: u8 = 7;
/// The largest value of a header's order nibble.
const NO_ORDER: u8 = 0xf;
/// Squares a pawn can stand on (ranks 2 to 7).
const PAWN_SQUARES: usize = 48;
/// Most pieces a table holds.
const MAX_PIECES: usize = super::MAX_PIECES;

/// A table file found by the scan, opened at its first use.
#[derive(Debug)]
pub(crate) struct LazyTable {
    path: PathBuf,
    kind: Kind,
    material: Material,
    /// Files up to this size are read whole (see [`super::file::WHOLE_FILE_LIMIT`]).
    whole_limit: u64,
    table: OnceLock<Option<Table>>,
}

impl LazyTable {
    pub(crate) fn new(path: PathBuf, kind: Kind, material: Material, whole_limit: u64) -> Self {
        LazyTable {
            path,
            kind,
            material,
            whole_limit,
            table: OnceLock::new(),
        }
    }

    /// The table, read now if this is its first use; `None` when the file turned out bad.
    pub(crate) fn get(&self) -> Option<&Table> {
        self.table
            .get_or_init(|| Table::load(&self.path, self.kind, self.material, self.whole_limit))
            .as_ref()
    }
}

/// What a lookup found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stored {
    /// The stored value and the pawn file of the sub-table it came from.
    Value(u16, usize),
    /// The DTZ table stores the other side to move only.
    OtherSide,
}

/// An opened table file.
#[derive(Debug)]
pub(crate) struct Table {
    src: Source,
    kind: Kind,
    head: Header,
}

/// What a file's header says.
#[derive(Debug)]
struct Header {
    /// Piece counts of the side the header calls White, by [`PieceKind::index`].
    white: [u8; 6],
    /// Both sides have the same pieces (one sub-table serves both sides to move).
    symmetric: bool,
    pawns: bool,
    /// Both sides have pawns: the second colour's pawns are a group of their own, numbered on
    /// the pawn squares.
    second_pawns: bool,
    /// A pawnless table's leading group is three unique pieces (else the two kings).
    unique: bool,
    /// `subs[pawn file][side to move]` (one file without pawns, one side for DTZ and
    /// symmetric WDL).
    subs: Vec<Vec<Sub>>,
}

/// One sub-table.
#[derive(Debug)]
struct Sub {
    /// Piece codes in index order.
    pieces: Vec<u8>,
    /// Sizes of the groups of like pieces, in `pieces` order.
    groups: Vec<usize>,
    /// What each group's number is multiplied by.
    factors: Vec<u64>,
    pairs: Pairs,
    /// DTZ maps, win / loss / cursed win / blessed loss (empty when not mapped).
    maps: [Vec<u16>; 4],
}

impl Sub {
    /// The DTZ in plies that the stored `value` means for a position whose WDL value is `wdl`
    /// (not 0): through the map of that outcome when the sub-table is mapped; `None` when the
    /// map is shorter than the value.
    fn dtz(&self, value: u16, wdl: i32) -> Option<i32> {
        let flags = self.pairs.flags;
        let mut v = u32::from(value);
        if flags & DTZ_MAPPED != 0 {
            let map = &self.maps[MAP_OF_WDL[usize::try_from(wdl + 2).ok()?.min(4)]];
            v = u32::from(*map.get(usize::from(value))?);
        }
        // Values are in moves unless the flags say plies; cursed and blessed ones always are
        // in moves.
        let plies = match wdl {
            2 => flags & DTZ_WIN_PLIES != 0,
            -2 => flags & DTZ_LOSS_PLIES != 0,
            _ => false,
        };
        if !plies {
            v *= 2;
        }
        i32::try_from(v).ok()
    }
}

/// A sub-table's piece list as the header gives it, before its decoder is read.
struct Order {
    pieces: Vec<u8>,
    /// The numbering position of the leading group and (both sides with pawns) of the second
    /// colour's pawns.
    lead: u8,
    second_pawns: u8,
}

impl Table {
    fn load(path: &std::path::Path, kind: Kind, m: Material, whole: u64) -> Option<Table> {
        let src = Source::open(path, whole)?;
        let mut prefix = HEADER_PREFIX.min(src.len());
        loop {
            let head = src.bytes(0, usize::try_from(prefix).ok()?)?;
            if let Some(head) = Header::parse(&head, src.len(), kind, m) {
                return Some(Table { src, kind, head });
            }
            // Too short a prefix, or damage: try once more with all the header can be.
            if prefix >= src.len().min(MAX_HEADER) {
                return None;
            }
            prefix = src.len().min(MAX_HEADER);
        }
    }

    /// The WDL value (−2..=2) stored for `pos`.
    pub(crate) fn wdl(&self, pos: &Position) -> Option<i32> {
        match self.lookup(pos)? {
            Stored::Value(v, _) if v <= 4 => Some(i32::from(v) - 2),
            _ => None,
        }
    }

    /// The DTZ stored for `pos`, in plies, whose WDL value is `wdl` (not 0), before the
    /// probing rules' adjustments (see `probe.rs`); `Some(None)` when the file stores the other side to move.
    pub(crate) fn dtz(&self, pos: &Position, wdl: i32) -> Option<Option<i32>> {
        let (value, file) = match self.lookup(pos)? {
            Stored::OtherSide => return Some(None),
            Stored::Value(v, f) => (v, f),
        };
        let sub = self.head.subs.get(file)?.first()?;
        sub.dtz(value, wdl).map(Some)
    }

    /// Finds `pos`'s sub-table and index, and reads the value there.
    fn lookup(&self, pos: &Position) -> Option<Stored> {
        // Pawns on the first or last rank have no index (a position from elsewhere may have them).
        if (pos.pieces(PieceKind::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).any() {
            return None;
        }
        let (flip, side) = self.orientation(pos)?;
        let mut placed = Placement::default();
        let lead = if self.head.pawns {
            self.place_lead_pawns(pos, flip, &mut placed)?
        } else {
            Bitboard::EMPTY
        };
        let file = if self.head.pawns {
            placed.pawn_file()
        } else {
            0
        };
        let sub = match self.sub(file, side)? {
            Ok(sub) => sub,
            Err(other_side) => return Some(other_side),
        };
        for s in (pos.occupied() & !lead).iter() {
            let piece = pos.piece_at(s)?;
            placed.push(
                s.index() as u8 ^ flip_square(flip),
                code(piece) ^ flip_code(flip),
            )?;
        }
        placed.order_as(&sub.pieces, lead.count() as usize)?;
        let index = self.index(&MAPS, sub, placed.squares_mut())?;
        Some(Stored::Value(sub.pairs.value(&self.src, index)?, file))
    }

    /// Whether the position's colours must be swapped to match the header (the header's White is
    /// the side whose pieces match; with like sides the side to move is made White), and the
    /// side to move in the header's terms (0: White).
    fn orientation(&self, pos: &Position) -> Option<(bool, usize)> {
        let h = &self.head;
        let black_to_move = pos.side_to_move() == Color::Black;
        let flip = if h.symmetric {
            black_to_move
        } else if counts(pos, Color::White) == h.white {
            false
        } else if counts(pos, Color::Black) == h.white {
            true
        } else {
            return None;
        };
        Some((flip, usize::from(flip ^ black_to_move)))
    }

    /// Places the leading pawns (the colour of every pawn sub-table's first piece), the leader
    /// first: the pawn the format numbers highest (the first such). Returns their squares.
    fn place_lead_pawns(
        &self,
        pos: &Position,
        flip: bool,
        placed: &mut Placement,
    ) -> Option<Bitboard> {
        let lead_code = *self.head.subs.first()?.first()?.pieces.first()?;
        let white_leads = (lead_code & BLACK_CODE == 0) != flip;
        let colour = if white_leads {
            Color::White
        } else {
            Color::Black
        };
        let lead = pos.pieces_of(colour, PieceKind::Pawn);
        for s in lead.iter() {
            placed.push(s.index() as u8 ^ flip_square(flip), lead_code)?;
        }
        let pawn_number = |s: u8| MAPS.pawn[usize::from(s & 63)];
        let squares = placed.squares_mut();
        let mut best = 0;
        for i in 1..squares.len() {
            if pawn_number(squares[i]) > pawn_number(squares[best]) {
                best = i;
            }
        }
        if !squares.is_empty() {
            squares.swap(0, best);
        }
        Some(lead)
    }

    /// The sub-table of pawn file `file` for side `side` to move, or (DTZ) the answer that the
    /// file stores the other side.
    fn sub(&self, file: usize, side: usize) -> Option<Result<&Sub, Stored>> {
        let h = &self.head;
        let subs = h.subs.get(file)?;
        match self.kind {
            Kind::Wdl => subs.get(side).map(Ok),
            Kind::Dtz => {
                let sub = subs.first()?;
                let stored = usize::from(sub.pairs.flags & DTZ_BLACK_TO_MOVE);
                // Pawnless tables of like sides serve both sides to move.
                let either = h.symmetric && !h.pawns;
                Some(if stored != side && !either {
                    Err(Stored::OtherSide)
                } else {
                    Ok(sub)
                })
            }
        }
    }

    /// The index of `squares` (in `sub`'s piece order, colours already normalised).
    fn index(&self, maps: &Maps, sub: &Sub, squares: &mut [u8]) -> Option<u64> {
        let h = &self.head;
        // Mirror so that the leading piece is on files a..d.
        if squares[0] & 7 > 3 {
            squares.iter_mut().for_each(|s| *s ^= 7);
        }
        let first = *sub.groups.first()?;
        let lead = if h.pawns {
            index::pawn_lead(maps, squares.get_mut(..first)?)
        } else {
            // Pawnless tables also mirror ranks and the a1-h8 diagonal: the leading piece to
            // ranks 1..4, and the first leading piece off the diagonal below it.
            if squares[0] >> 3 > 3 {
                squares.iter_mut().for_each(|s| *s ^= 56);
            }
            let off = (0..first).find(|&i| index::off_diagonal(squares[i]) != 0);
            if let Some(i) = off.filter(|&i| index::off_diagonal(squares[i]) > 0) {
                for s in &mut squares[i..] {
                    *s = ((*s >> 3) | (*s << 3)) & 63;
                }
            }
            index::pawnless_lead(maps, squares.get(..first)?, h.unique)?
        };
        let mut idx = lead.checked_mul(*sub.factors.first()?)?;
        let mut start = first;
        for (k, &len) in sub.groups.iter().enumerate().skip(1) {
            let (before, rest) = squares.split_at_mut(start);
            let part = index::group(maps, before, rest.get_mut(..len)?, h.second_pawns && k == 1)?;
            idx = idx.checked_add(part.checked_mul(sub.factors[k])?)?;
            start += len;
        }
        Some(idx)
    }
}

/// The pieces of a position as a table indexes them: squares (colours normalised) and header
/// codes.
#[derive(Default)]
struct Placement {
    squares: [u8; MAX_PIECES],
    codes: [u8; MAX_PIECES],
    n: usize,
}

impl Placement {
    fn push(&mut self, square: u8, code: u8) -> Option<()> {
        *self.squares.get_mut(self.n)? = square;
        self.codes[self.n] = code;
        self.n += 1;
        Some(())
    }

    fn squares_mut(&mut self) -> &mut [u8] {
        &mut self.squares[..self.n]
    }

    /// The file a..d (0..4) of the first piece, mirrored: the leading pawn's picks the
    /// sub-table of a pawn table.
    fn pawn_file(&self) -> usize {
        let f = self.squares[0] & 7;
        usize::from(f.min(7 - f))
    }

    /// Puts the pieces after the first `fixed` in the order of `pieces` (the header's); `None`
    /// when they are not the same pieces.
    fn order_as(&mut self, pieces: &[u8], fixed: usize) -> Option<()> {
        if self.n != pieces.len() || self.n == 0 {
            return None;
        }
        for (i, &want) in pieces.iter().enumerate().skip(fixed) {
            let j = (i..self.n).find(|&j| self.codes[j] == want)?;
            self.codes.swap(i, j);
            self.squares.swap(i, j);
        }
        Some(())
    }
}

/// What a square's index is xor-ed with when colours are swapped (ranks mirrored).
fn flip_square(flip: bool) -> u8 {
    if flip {
        56
    } else {
        0
    }
}

/// What a piece code is xor-ed with when colours are swapped.
fn flip_code(flip: bool) -> u8 {
    if flip {
        BLACK_CODE
    } else {
        0
    }
}

/// The header code of a piece.
fn code(p: Piece) -> u8 {
    p.kind.index() as u8
        + 1
        + if p.color == Color::Black {
            BLACK_CODE
        } else {
            0
        }
}

/// `colour`'s piece counts by kind.
fn counts(pos: &Position, colour: Color) -> [u8; 6] {
    let mut out = [0u8; 6];
    for k in PieceKind::ALL {
        out[k.index()] = pos.pieces_of(colour, k).count() as u8;
    }
    out
}

impl Header {
    /// Reads the header in `head` (a prefix of a file of `len` bytes); `None` when it is
    /// damaged, does not fit the material, or runs past `head`.
    fn parse(head: &[u8], len: u64, kind: Kind, m: Material) -> Option<Header> {
        if head.get(..4)? != kind.magic() {
            return None;
        }
        let flags = *head.get(4)?;
        let pawns = flags & HAS_PAWNS != 0;
        let pawn_counts = m.pawns();
        if pawns != (pawn_counts[0] + pawn_counts[1] > 0) {
            return None;
        }
        let both_pawns = pawn_counts[0] > 0 && pawn_counts[1] > 0;
        let sides = if kind == Kind::Wdl && flags & SPLIT != 0 {
            2
        } else {
            1
        };
        let files = if pawns { 4 } else { 1 };
        let n = m.piece_count();
        let mut cur = Cursor::new(head, 5);
        let mut orders: Vec<Vec<Order>> = Vec::new();
        for _ in 0..files {
            let first = cur.u8()?;
            let second = if both_pawns { cur.u8()? } else { 0xff };
            let bytes = cur.take(n)?;
            orders.push(
                (0..sides)
                    .map(|side| {
                        let shift = 4 * side;
                        Order {
                            pieces: bytes.iter().map(|b| (b >> shift) & 0xf).collect(),
                            lead: (first >> shift) & 0xf,
                            second_pawns: (second >> shift) & 0xf,
                        }
                    })
                    .collect(),
            );
        }
        let first_list = &orders.first()?.first()?.pieces;
        let white = side_counts(first_list, 0)?;
        let black = side_counts(first_list, BLACK_CODE)?;
        let unique = first_list
            .iter()
            .filter(|&&c| c & KIND_BITS != 6)
            .any(|c| first_list.iter().filter(|&d| d == c).count() == 1);
        let mut header = Header {
            white,
            symmetric: white == black,
            pawns,
            second_pawns: both_pawns,
            unique,
            subs: Vec::new(),
        };
        cur.align(2);
        let mut sizes = Vec::new();
        for (file, per_side) in orders.into_iter().enumerate() {
            let mut subs = Vec::new();
            for order in per_side {
                let (groups, factors, positions) = header.numbering(&order, file)?;
                let (pairs, size) = Pairs::parse(&mut cur, positions, kind == Kind::Wdl)?;
                sizes.push(size);
                subs.push(Sub {
                    pieces: order.pieces,
                    groups,
                    factors,
                    pairs,
                    maps: Default::default(),
                });
            }
            header.subs.push(subs);
        }
        if kind == Kind::Dtz {
            header.read_maps(&mut cur)?;
        }
        header.place(cur.pos as u64, &sizes, len)?;
        Some(header)
    }

    /// The group sizes, their factors and the number of indices of a sub-table of pawn file
    /// `file`: the leading group's placements, then each further group's combinations of the
    /// squares left, multiplied in the order the header gives.
    fn numbering(&self, order: &Order, file: usize) -> Option<(Vec<usize>, Vec<u64>, u64)> {
        let maps = &*MAPS;
        let p = &order.pieces;
        let first = if self.pawns {
            p.iter().take_while(|&&c| c == p[0]).count()
        } else if self.unique {
            3
        } else {
            2
        };
        let mut groups = vec![first];
        let mut i = first;
        while i < p.len() {
            let run = p[i..].iter().take_while(|&&c| c == p[i]).count();
            groups.push(run);
            i += run;
        }
        if i != p.len() || first > p.len() {
            return None;
        }
        let second_pawns = self.second_pawns;
        let mut factors = vec![0u64; groups.len()];
        let mut free = 64 - first - if second_pawns { groups.get(1)? } else { &0 };
        let mut next = if second_pawns { 2 } else { 1 };
        let mut size = 1u64;
        let mut placed_lead = false;
        let second = second_pawns.then_some(order.second_pawns);
        for k in 0..=NO_ORDER {
            if next >= groups.len() && k != order.lead && Some(k) != second {
                break;
            }
            let (g, count) = if k == order.lead {
                placed_lead = true;
                let lead_size = if self.pawns {
                    *maps.lead_size.get(first)?.get(file)?
                } else if self.unique {
                    UNIQUE3_PLACEMENTS
                } else {
                    KK_PLACEMENTS
                };
                (0, lead_size)
            } else if Some(k) == second {
                let squares = PAWN_SQUARES.checked_sub(first)?;
                (1, *maps.binomial.get(*groups.get(1)?)?.get(squares)?)
            } else {
                let g = next;
                let count = *maps.binomial.get(*groups.get(g)?)?.get(free)?;
                free = free.checked_sub(groups[g])?;
                next += 1;
                (g, count)
            };
            factors[g] = size;
            size = size.checked_mul(count)?;
        }
        (placed_lead && next == groups.len()).then_some((groups, factors, size))
    }

    /// Reads the DTZ maps of every mapped sub-table (four per sub-table, bytes or words).
    fn read_maps(&mut self, cur: &mut Cursor) -> Option<()> {
        for sub in self.subs.iter_mut().flatten() {
            if sub.pairs.flags & DTZ_MAPPED == 0 {
                continue;
            }
            let wide = sub.pairs.flags & DTZ_WIDE_MAP != 0;
            if wide {
                cur.align(2);
            }
            for map in &mut sub.maps {
                *map = if wide {
                    let n = usize::from(cur.u16()?);
                    (0..n).map(|_| cur.u16()).collect::<Option<_>>()?
                } else {
                    let n = usize::from(cur.u8()?);
                    cur.take(n)?.iter().map(|&b| u16::from(b)).collect()
                };
            }
        }
        cur.align(2);
        Some(())
    }

    /// Records where each sub-table's sparse index, block lengths and blocks lie (in that order
    /// for all sub-tables, blocks 64-byte aligned) and checks they fit in `len` bytes.
    fn place(&mut self, start: u64, sizes: &[Sizes], len: u64) -> Option<()> {
        let mut at = start;
        let mut sparse = Vec::new();
        for s in sizes {
            sparse.push(at);
            at = at.checked_add(s.sparse)?;
        }
        let mut lengths = Vec::new();
        for s in sizes {
            lengths.push(at);
            at = at.checked_add(s.lengths)?;
        }
        let mut data = Vec::new();
        for s in sizes {
            at = at.checked_next_multiple_of(64)?;
            data.push(at);
            at = at.checked_add(s.data)?;
        }
        if at > len {
            return None;
        }
        for (i, sub) in self.subs.iter_mut().flatten().enumerate() {
            sub.pairs.place(sparse[i], lengths[i], data[i]);
        }
        Some(())
    }
}

/// Piece counts by kind of the codes of one colour (`BLACK_CODE` or 0) in a piece list.
fn side_counts(pieces: &[u8], colour: u8) -> Option<[u8; 6]> {
    let mut out = [0u8; 6];
    for &c in pieces.iter().filter(|&&c| c & BLACK_CODE == colour) {
        let kind = usize::from(c & KIND_BITS).checked_sub(1)?;
        *out.get_mut(kind)? += 1;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::decode::SINGLE_VALUE;
    use super::*;

    /// A DTZ sub-table with these flags, a single stored value and no maps yet.
    fn sub(flags: u8) -> Sub {
        let bytes = [flags | SINGLE_VALUE, 0];
        let (pairs, _) = Pairs::parse(&mut Cursor::new(&bytes, 0), 1, false)
            .unwrap_or_else(|| panic!("a single-value sub-table parses"));
        Sub {
            pieces: Vec::new(),
            groups: Vec::new(),
            factors: Vec::new(),
            pairs,
            maps: Default::default(),
        }
    }

    fn header(subs: Vec<Sub>) -> Header {
        Header {
            white: [0; 6],
            symmetric: false,
            pawns: false,
            second_pawns: false,
            unique: false,
            subs: vec![subs],
        }
    }

    /// Four maps (win, loss, cursed win, blessed loss) as a file lays them out: a count, then
    /// the values, in bytes or in little-endian words.
    fn layout(maps: &[&[u16]; 4], wide: bool) -> Vec<u8> {
        let mut out = Vec::new();
        for map in maps {
            if wide {
                out.extend((map.len() as u16).to_le_bytes());
                map.iter().for_each(|v| out.extend(v.to_le_bytes()));
            } else {
                out.push(map.len() as u8);
                out.extend(map.iter().map(|&v| v as u8));
            }
        }
        out
    }

    /// The maps the header's only sub-table holds.
    fn maps_read(head: &Header) -> Vec<&[u16]> {
        head.subs[0][0].maps.iter().map(|m| &m[..]).collect()
    }

    const WIDE_MAPS: [&[u16]; 4] = [&[3, 300, 1000], &[7], &[], &[1, 2, 65535]];

    #[test]
    fn sixteen_bit_maps_are_read_from_a_word_boundary() {
        // One byte before the maps: the reader must skip to the next even offset first.
        let mut bytes = vec![0xee, 0xee];
        bytes.extend(layout(&WIDE_MAPS, true));
        bytes.push(0xee);
        let mut head = header(vec![sub(DTZ_MAPPED | DTZ_WIDE_MAP)]);
        let mut cur = Cursor::new(&bytes, 1);
        assert_eq!(head.read_maps(&mut cur), Some(()));
        assert_eq!(maps_read(&head), WIDE_MAPS.to_vec());
        assert_eq!(
            cur.pos,
            bytes.len() - 1,
            "ends on the word boundary after the maps"
        );
    }

    #[test]
    fn byte_maps_are_read_where_they_start() {
        let narrow: [&[u16]; 4] = [&[3, 30, 100], &[7, 9], &[], &[1, 2, 255]];
        let mut bytes = vec![0xee];
        bytes.extend(layout(&narrow, false));
        let mut head = header(vec![sub(DTZ_MAPPED)]);
        let mut cur = Cursor::new(&bytes, 1);
        assert_eq!(head.read_maps(&mut cur), Some(()));
        assert_eq!(maps_read(&head), narrow.to_vec());
        assert_eq!(bytes.len() % 2, 1);
        assert_eq!(cur.pos, bytes.len() + 1, "ends on the next word boundary");
    }

    #[test]
    fn a_truncated_sixteen_bit_map_is_refused() {
        let mut bytes = layout(&WIDE_MAPS, true);
        bytes.pop();
        let mut head = header(vec![sub(DTZ_MAPPED | DTZ_WIDE_MAP)]);
        assert_eq!(head.read_maps(&mut Cursor::new(&bytes, 0)), None);
    }

    #[test]
    fn stored_values_go_through_their_outcome_s_map() {
        let mut s = sub(DTZ_MAPPED | DTZ_WIDE_MAP | DTZ_LOSS_PLIES);
        s.maps = WIDE_MAPS.map(<[u16]>::to_vec);
        // A win in moves: 1000 moves beyond 255, which is what 16-bit maps are for.
        assert_eq!(s.dtz(2, 2), Some(2000));
        // A loss in plies, as the flag says.
        assert_eq!(s.dtz(0, -2), Some(7));
        // The blessed loss borrows map 3 and, as every cursed or blessed value, is in moves.
        assert_eq!(s.dtz(2, -1), Some(2 * 65535));
        // The cursed win's map is empty: no value can be read from it.
        assert_eq!(s.dtz(0, 1), None);
        assert_eq!(s.dtz(3, 2), None, "past the end of the win map");
        // Unmapped sub-tables store the value itself.
        let plain = sub(DTZ_WIN_PLIES);
        assert_eq!((plain.dtz(17, 2), plain.dtz(17, -2)), (Some(17), Some(34)));
    }
}
