//! Writing a Polyglot book: entries merged per key and move, weights fitted to 16 bits, sorted.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::entry::{Entry, PolyglotMove};

/// Collects entries and writes them as a Polyglot book.
///
/// Entries with the same key and move are merged: their weights add up (in 64 bits) and the
/// larger learn value is kept. When a position's largest weight does not fit in 16 bits, all
/// its weights are scaled down in proportion (a non-zero weight stays at least 1). Entries are
/// written sorted by key and, within a key, by weight (highest first) and then move.
///
/// ```
/// use ferrum::book::{Book, BookWriter, Entry, PolyglotMove};
/// let mut w = BookWriter::new();
/// let e4 = PolyglotMove::from_bits(0x031C);
/// w.add(Entry { key: 2, mv: e4, weight: 3, learn: 0 });
/// w.add(Entry { key: 1, mv: e4, weight: 1, learn: 0 });
/// w.add(Entry { key: 2, mv: e4, weight: 4, learn: 0 });
/// let book = Book::from_bytes(w.to_bytes()).unwrap();
/// let weights: Vec<_> = book.entries().map(|e| (e.key, e.weight)).collect();
/// assert_eq!(weights, [(1, 1), (2, 7)]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct BookWriter {
    merged: BTreeMap<(u64, PolyglotMove), (u64, u32)>,
}

impl BookWriter {
    /// An empty writer.
    pub fn new() -> BookWriter {
        BookWriter::default()
    }

    /// Adds an entry (merged with any earlier one for the same key and move).
    pub fn add(&mut self, entry: Entry) {
        self.add_weight(entry.key, entry.mv, u64::from(entry.weight), entry.learn);
    }

    /// Adds `weight` (any size: it is fitted to 16 bits when written) for `mv` under `key`.
    pub fn add_weight(&mut self, key: u64, mv: PolyglotMove, weight: u64, learn: u32) {
        let slot = self.merged.entry((key, mv)).or_insert((0, 0));
        slot.0 = slot.0.saturating_add(weight);
        slot.1 = slot.1.max(learn);
    }

    /// Number of distinct key and move pairs so far.
    pub fn len(&self) -> usize {
        self.merged.len()
    }

    /// True when nothing was added.
    pub fn is_empty(&self) -> bool {
        self.merged.is_empty()
    }

    /// The merged entries in file order.
    pub fn entries(&self) -> Vec<Entry> {
        let mut out = Vec::with_capacity(self.merged.len());
        let mut rest = self.merged.iter().peekable();
        while let Some(&(&(key, _), _)) = rest.peek() {
            let start = out.len();
            let mut max = 0;
            while let Some((&(k, mv), &(weight, learn))) = rest.next_if(|&(&(k, _), _)| k == key) {
                max = max.max(weight);
                out.push((k, mv, weight, learn));
            }
            let group = &mut out[start..];
            group.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)));
            for e in group.iter_mut() {
                e.2 = fit_u16(e.2, max);
            }
        }
        out.into_iter()
            .map(|(key, mv, weight, learn)| Entry {
                key,
                mv,
                weight: weight as u16,
                learn,
            })
            .collect()
    }

    /// The book file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.entries().iter().flat_map(Entry::to_bytes).collect()
    }

    /// Writes the book file to `out`.
    pub fn write_to(&self, mut out: impl Write) -> io::Result<()> {
        out.write_all(&self.to_bytes())?;
        out.flush()
    }
}

/// `weight` scaled so that `max` becomes `u16::MAX` if `max` does not fit in 16 bits; a
/// non-zero weight stays non-zero.
fn fit_u16(weight: u64, max: u64) -> u64 {
    let limit = u64::from(u16::MAX);
    if max <= limit {
        return weight;
    }
    let scaled = (u128::from(weight) * u128::from(limit) / u128::from(max)) as u64;
    if weight > 0 {
        scaled.max(1)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_weights_are_scaled_per_position() {
        let mut w = BookWriter::new();
        let (a, b) = (PolyglotMove::from_bits(1), PolyglotMove::from_bits(2));
        w.add_weight(9, a, 200_000, 0);
        w.add_weight(9, b, 100_000, 0);
        w.add_weight(9, PolyglotMove::from_bits(3), 1, 0);
        w.add_weight(10, a, 5, 0);
        let got: Vec<_> = w.entries().iter().map(|e| (e.key, e.weight)).collect();
        assert_eq!(got, [(9, 65535), (9, 32767), (9, 1), (10, 5)]);
    }
}
