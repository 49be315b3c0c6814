//! The compressed values of one sub-table: a canonical Huffman code over symbols that
//! "recursive pairing" expands into runs of values, in blocks found through a sparse index.
//!
//! A sub-table's header (read by [`Pairs::parse`]) gives the code and the pairing tree; its
//! sparse index, block lengths and blocks stay in the file and are read per probe, every offset
//! checked, so a damaged file gives `None` and never a panic.

use super::file::Source;

/// The flag of a sub-table that stores one value for every position.
pub(crate) const SINGLE_VALUE: u8 = 0x80;
/// A pairing-tree entry whose right half is this is a leaf (a value, not a pair).
const LEAF: u16 = 0xfff;
/// The longest code the format uses: a symbol fits the top of a 32-bit refill.
const MAX_CODE_LEN: u8 = 32;
/// Bytes of one sparse-index entry: a block number (u32) and an offset in it (u16).
const SPARSE_ENTRY: u64 = 6;
/// Blocks larger than this are taken for damage (the generator writes far smaller ones).
const MAX_BLOCK_BITS: u8 = 24;
/// Symbols are 12-bit numbers.
const MAX_SYMBOLS: usize = 1 << 12;
/// Entries of the per-length tables: a power of two above the longest code, so that a masked
/// index needs no bounds check in the decoding loop.
const LEN_SLOTS: usize = 64;

/// A sub-table's decoder, as its header describes it.
#[derive(Debug)]
pub(crate) struct Pairs {
    /// The flags byte (for DTZ: side to move, map, plies, 16-bit map; see [`super::table`]).
    pub flags: u8,
    coding: Coding,
}

#[derive(Debug)]
enum Coding {
    /// Every position has this value.
    Single(u16),
    Huffman(Box<Huffman>),
}

#[derive(Debug)]
struct Huffman {
    /// log2 of the bytes in a block.
    block_bits: u8,
    /// log2 of the positions one sparse-index entry covers.
    span_bits: u8,
    /// Blocks holding data.
    blocks: u64,
    /// Entries of the block-length table (blocks plus padding).
    lengths: u64,
    /// Entries of the sparse index.
    sparse_entries: u64,
    /// The shortest code length; `base` and `lowest` are indexed by length less this.
    min_len: u8,
    /// The smallest symbol of each code length (0 past the longest).
    lowest: [u16; LEN_SLOTS],
    /// The smallest code of each length, left-aligned in 64 bits (0 from the longest on, which
    /// ends the search for a code's length).
    base: [u64; LEN_SLOTS],
    /// How many values each symbol expands to, less one (numbers past the last symbol count as
    /// 0: the tree has no entry for them, so they fail when expanded).
    run: Vec<u8>,
    /// The pairing tree: each symbol's (left, right) halves.
    tree: Vec<(u16, u16)>,
    /// File offsets of the sparse index, the block lengths and the first block (set once the
    /// whole header has been read: see [`Pairs::place`]).
    sparse_at: u64,
    lengths_at: u64,
    data_at: u64,
}

/// A byte cursor over a table's header, failing rather than reading past the end.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    /// Offset from the start of the file.
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at `pos` in `bytes` (which start at the file's first byte).
    pub(crate) fn new(bytes: &'a [u8], pos: usize) -> Cursor<'a> {
        Cursor { bytes, pos }
    }

    pub(crate) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let out = self.bytes.get(self.pos..self.pos.checked_add(n)?)?;
        self.pos += n;
        Some(out)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    pub(crate) fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Moves on to the next multiple of `n` (a power of two) from the start of the file.
    pub(crate) fn align(&mut self, n: usize) {
        self.pos = self.pos.next_multiple_of(n);
    }
}

/// Where the per-probe parts of a sub-table lie, in bytes (see [`Pairs::place`]).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Sizes {
    pub sparse: u64,
    pub lengths: u64,
    pub data: u64,
}

impl Pairs {
    /// Reads a sub-table's header at the cursor; `positions` is the size of its index range
    /// and `wdl` whether it is a WDL table (a DTZ table's single value is always 0).
    pub(crate) fn parse(cur: &mut Cursor, positions: u64, wdl: bool) -> Option<(Pairs, Sizes)> {
        let flags = cur.u8()?;
        if flags & SINGLE_VALUE != 0 {
            let value = cur.u8()?;
            let value = if wdl { u16::from(value) } else { 0 };
            let coding = Coding::Single(value);
            return Some((Pairs { flags, coding }, Sizes::default()));
        }
        let block_bits = cur.u8()?;
        let span_bits = cur.u8()?;
        let padding = cur.u8()?;
        let blocks = u64::from(cur.u32()?);
        let max_len = cur.u8()?;
        let min_len = cur.u8()?;
        if block_bits > MAX_BLOCK_BITS
            || !(1..64).contains(&span_bits)
            || min_len == 0
            || min_len > max_len
            || max_len > MAX_CODE_LEN
        {
            return None;
        }
        let lengths_count = usize::from(max_len - min_len) + 1;
        let lowest: Vec<u16> = (0..lengths_count)
            .map(|_| cur.u16())
            .collect::<Option<_>>()?;
        let symbols = usize::from(cur.u16()?);
        if symbols > MAX_SYMBOLS {
            return None;
        }
        let raw = cur.take(3 * symbols)?;
        // The tree is padded to a whole number of 16-bit words.
        cur.take(symbols & 1)?;
        let tree: Vec<(u16, u16)> = raw
            .chunks_exact(3)
            .map(|w| {
                let left = u16::from(w[1] & 0xf) << 8 | u16::from(w[0]);
                let right = u16::from(w[2]) << 4 | u16::from(w[1] >> 4);
                (left, right)
            })
            .collect();
        let run = runs(&tree)?;
        let base = bases(&lowest, min_len)?;
        let mut lowest_slots = [0u16; LEN_SLOTS];
        lowest_slots[..lowest.len()].copy_from_slice(&lowest);
        let lowest = lowest_slots;
        let sparse_entries = positions.div_ceil(1u64 << span_bits);
        let lengths = blocks + u64::from(padding);
        let sizes = Sizes {
            sparse: sparse_entries.checked_mul(SPARSE_ENTRY)?,
            lengths: lengths.checked_mul(2)?,
            data: blocks.checked_shl(u32::from(block_bits))?,
        };
        let huffman = Huffman {
            block_bits,
            span_bits,
            blocks,
            lengths,
            sparse_entries,
            min_len,
            lowest,
            base,
            run,
            tree,
            sparse_at: 0,
            lengths_at: 0,
            data_at: 0,
        };
        let coding = Coding::Huffman(Box::new(huffman));
        Some((Pairs { flags, coding }, sizes))
    }

    /// Records where the sparse index, the block lengths and the blocks start in the file.
    pub(crate) fn place(&mut self, sparse_at: u64, lengths_at: u64, data_at: u64) {
        if let Coding::Huffman(h) = &mut self.coding {
            h.sparse_at = sparse_at;
            h.lengths_at = lengths_at;
            h.data_at = data_at;
        }
    }

    /// The value stored for position `index` (a WDL value 0..5 or a DTZ value before its map).
    pub(crate) fn value(&self, src: &Source, index: u64) -> Option<u16> {
        match &self.coding {
            Coding::Single(v) => Some(*v),
            Coding::Huffman(h) => h.value(src, index),
        }
    }
}

/// Each symbol's run length less one (a leaf is one value, a pair the sum of its halves),
/// worked out without recursion; `None` for a tree that loops, points outside itself or
/// expands further than the format's byte allows.
fn runs(tree: &[(u16, u16)]) -> Option<Vec<u8>> {
    #[derive(Copy, Clone, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let mut state = vec![State::New; tree.len()];
    let mut run = vec![0u8; tree.len()];
    for start in 0..tree.len() {
        let mut stack = vec![start];
        while let Some(&s) = stack.last() {
            let (left, right) = tree[s];
            if right == LEAF || state[s] == State::Done {
                state[s] = State::Done;
                stack.pop();
                continue;
            }
            let (l, r) = (usize::from(left), usize::from(right));
            if l >= tree.len() || r >= tree.len() {
                return None;
            }
            state[s] = State::Open;
            let pending: Vec<usize> = [l, r]
                .into_iter()
                .filter(|&c| state[c] != State::Done)
                .collect();
            if pending.iter().any(|&c| state[c] == State::Open) {
                return None;
            }
            if pending.is_empty() {
                let total = u32::from(run[l]) + u32::from(run[r]) + 1;
                run[s] = u8::try_from(total).ok()?;
                state[s] = State::Done;
                stack.pop();
            } else {
                stack.extend(pending);
            }
        }
    }
    Some(run)
}

/// The smallest code of each length, left-aligned: codes are canonical with longer codes
/// numerically smaller, so a code's length is the first whose base it is not below.
fn bases(lowest: &[u16], min_len: u8) -> Option<[u64; LEN_SLOTS]> {
    let n = lowest.len();
    let mut base = [0u64; LEN_SLOTS];
    for i in (0..n.saturating_sub(1)).rev() {
        let sum = base[i + 1]
            .wrapping_add(u64::from(lowest[i]))
            .wrapping_sub(u64::from(lowest[i + 1]));
        base[i] = sum / 2;
    }
    for (i, b) in base[..n].iter_mut().enumerate() {
        let len = u32::from(min_len) + i as u32;
        *b = b.checked_shl(64 - len)?;
    }
    Some(base)
}

impl Huffman {
    fn value(&self, src: &Source, index: u64) -> Option<u16> {
        let (block, offset) = self.locate(src, index)?;
        let at = self
            .data_at
            .checked_add(block.checked_shl(u32::from(self.block_bits))?)?;
        let bytes = src.bytes(at, 1usize << self.block_bits)?;
        let (sym, rest) = self.symbol(&bytes, offset)?;
        self.expand(sym, rest)
    }

    /// The block holding `index` and the value's place in it: the sparse index names a block
    /// and offset for the middle of each span, and the block lengths walk from there.
    fn locate(&self, src: &Source, index: u64) -> Option<(u64, u64)> {
        let entry = index >> self.span_bits;
        if entry >= self.sparse_entries {
            return None;
        }
        let e = src.array::<6>(self.sparse_at + entry * SPARSE_ENTRY)?;
        let mut block = u64::from(u32::from_le_bytes([e[0], e[1], e[2], e[3]]));
        let span = 1i64 << self.span_bits;
        let mut offset = i64::from(u16::from_le_bytes([e[4], e[5]]))
            + (index & (span as u64 - 1)) as i64
            - span / 2;
        while offset < 0 {
            block = block.checked_sub(1)?;
            offset += i64::from(self.length(src, block)?) + 1;
        }
        loop {
            let len = i64::from(self.length(src, block)?);
            if offset <= len {
                break;
            }
            offset -= len + 1;
            block += 1;
        }
        (block < self.blocks).then_some((block, offset as u64))
    }

    /// Values in `block`, less one.
    fn length(&self, src: &Source, block: u64) -> Option<u16> {
        if block >= self.lengths {
            return None;
        }
        src.u16_le(self.lengths_at + 2 * block)
    }

    /// Reads the block's codes up to the symbol whose run holds value `offset`; returns it and
    /// the value's place in its run.
    fn symbol(&self, block: &[u8], mut offset: u64) -> Option<(usize, u64)> {
        let mut code = word(block, 0)? << 32 | word(block, 4)?;
        let mut next = 8;
        let mut spare = 0u32; // bits consumed since the last refill
        loop {
            let mut l = 0;
            while code < self.base[l & (LEN_SLOTS - 1)] {
                l += 1;
            }
            let l = l & (LEN_SLOTS - 1);
            let len = u32::from(self.min_len) + l as u32;
            let sym = usize::from(self.lowest[l]) + ((code - self.base[l]) >> (64 - len)) as usize;
            let run = u64::from(self.run.get(sym).copied().unwrap_or(0));
            if offset <= run {
                return Some((sym, offset));
            }
            offset -= run + 1;
            code <<= len;
            spare += len;
            if spare >= 32 {
                spare -= 32;
                code |= word(block, next)? << spare;
                next += 4;
            }
        }
    }

    /// The value at `offset` in the run of `sym`: down the pairing tree to a leaf.
    fn expand(&self, mut sym: usize, mut offset: u64) -> Option<u16> {
        // A sound tree is at most as deep as it has symbols.
        for _ in 0..=self.tree.len() {
            let (left, right) = *self.tree.get(sym)?;
            if self.run[sym] == 0 {
                return Some(left);
            }
            let left_run = u64::from(*self.run.get(usize::from(left))?);
            if offset <= left_run {
                sym = usize::from(left);
            } else {
                offset -= left_run + 1;
                sym = usize::from(right);
            }
        }
        None
    }
}

/// The big-endian word at byte `at` of a block. Decoding reads a little ahead of the last code
/// it needs, so bytes past the block read as 0 (they never decide a value); further than that
/// the block was damaged.
fn word(block: &[u8], at: usize) -> Option<u64> {
    if let Some(&[a, b, c, d]) = block.get(at..at + 4) {
        return Some(u64::from(u32::from_be_bytes([a, b, c, d])));
    }
    if at > block.len() + 8 {
        return None;
    }
    let mut w = [0u8; 4];
    for (i, b) in w.iter_mut().enumerate() {
        *b = block.get(at + i).copied().unwrap_or(0);
    }
    Some(u64::from(u32::from_be_bytes(w)))
}
