//! The transposition table: a lockless, bucketed hash table shared by all search threads.
//!
//! Each slot is two `AtomicU64`s: the packed data and the key XOR-ed with that data. A reader
//! accepts a slot only when `stored_key ^ data == key`, so a slot torn by two threads writing at
//! once simply looks like a miss (Hyatt and Mann's lockless hashing). No `unsafe` is needed, and
//! the hash move read from it must still be checked with `Position::is_legal` before use, since
//! a 64-bit key can collide.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use crate::core::Move;

use super::{HashAllocError, MAX_PLY, TB_WIN_BOUND};

/// What a stored score means relative to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The exact score of a principal-variation node.
    Exact = 3,
}

/// One probed entry, unpacked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The best (or refutation) move found, possibly `Move::NULL`; not yet checked for legality.
    pub mv: Move,
    /// The score, already adjusted back from "distance from this node" to "distance from root".
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth the score was searched to (0 for quiescence).
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

const SLOTS: usize = 4;

impl Entry {
    /// True when the stored score settles a search with window (`alpha`, `beta`).
    #[inline]
    pub(crate) fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// Four slots in one 64-byte cache line.
#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [[AtomicU64; 2]; SLOTS],
}

/// The shared table. Sized in megabytes at construction; [`TranspositionTable::empty`] holds no
/// memory at all (nothing is allocated before the GUI has had its say about `Hash`).
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

/// Six bits of age wrap around.
const AGE_MASK: u8 = 63;

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    (mv.to_bits() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (((age & AGE_MASK) as u64) << 58)
}

fn unpack(data: u64) -> Option<(Entry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some((
        Entry {
            mv: Move::from_bits(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32,
            bound,
        },
        ((data >> 58) as u8) & AGE_MASK,
    ))
}

/// Mate and tablebase-win scores are stored as distance from the node, so that the same
/// position reached at a different ply reads a correct distance from its own root.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl TranspositionTable {
    /// A table with no memory; probes miss and stores are dropped.
    pub fn empty() -> TranspositionTable {
        TranspositionTable {
            buckets: Vec::new(),
            age: AtomicU8::new(0),
        }
    }

    /// A table of about `mb` megabytes (at least one bucket). Returns an error instead of
    /// aborting when the memory cannot be had.
    pub fn with_mb(mb: usize) -> Result<TranspositionTable, HashAllocError> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|source| HashAllocError { mb, source })?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// The size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in &b.slots {
                s[0].store(0, Relaxed);
                s[1].store(0, Relaxed);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Called once per `go`: entries from earlier searches become preferred victims.
    pub fn new_search(&self) {
        let next = (self.age.load(Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> Option<&Bucket> {
        if self.buckets.is_empty() {
            return None;
        }
        // Multiply-shift maps the key onto the table size without a division.
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        self.buckets.get(i)
    }

    /// Hints the CPU to fetch the bucket of `key` (used right after making a move).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        // A plain load is the portable way; it keeps the search free of `unsafe` intrinsics.
        if let Some(b) = self.bucket(key) {
            let _ = b.slots[0][0].load(Relaxed);
        }
    }

    /// The entry stored for `key`, with mate scores adjusted to `ply`.
    #[inline]
    pub(crate) fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let b = self.bucket(key)?;
        for s in &b.slots {
            let data = s[1].load(Relaxed);
            let check = s[0].load(Relaxed);
            if data != 0 && check ^ data == key {
                let (mut e, _) = unpack(data)?;
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    /// Stores a result. Replaces the same position's slot (keeping its move when the new one has
    /// none), else the slot whose entry is shallowest and oldest.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let Some(b) = self.bucket(key) else {
            return;
        };
        let age = self.age.load(Relaxed) & AGE_MASK;
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut mv = mv;
        for (i, s) in b.slots.iter().enumerate() {
            let data = s[1].load(Relaxed);
            let check = s[0].load(Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let Some((old, old_age)) = unpack(data) else {
                continue;
            };
            if check ^ data == key {
                // Same position: keep a deeper exact result from this search unless ours is
                // exact too, and never throw away a known move for no move.
                if mv.is_null() {
                    mv = old.mv;
                }
                if bound != Bound::Exact && old_age == age && old.depth > depth + 3 {
                    return;
                }
                victim = i;
                break;
            }
            let age_gap = ((age + AGE_MASK + 1 - old_age) & AGE_MASK) as i32;
            let worth = old.depth - 8 * age_gap;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, age);
        let slot = &b.slots[victim];
        slot[1].store(data, Relaxed);
        slot[0].store(key ^ data, Relaxed);
    }

    /// Permille of sampled slots written during the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed) & AGE_MASK;
        let sample = self.buckets.len().min(250);
        if sample == 0 {
            return 0;
        }
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.slots {
                if let Some((_, a)) = unpack(s[1].load(Relaxed)) {
                    if a == age {
                        used += 1;
                    }
                }
            }
        }
        (used * 1000 / (sample * SLOTS)) as u32
    }
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);
const _: () = assert!(MAX_PLY < 256);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{MoveKind, Square};
    use crate::search::MATE;

    #[test]
    fn empty_table_misses_and_ignores_stores() {
        let tt = TranspositionTable::empty();
        tt.store(42, 0, Move::NULL, 10, 0, 3, Bound::Exact);
        assert_eq!(tt.probe(42, 0), None);
        assert_eq!(tt.hashfull(), 0);
        assert_eq!(tt.size_bytes(), 0);
    }

    #[test]
    fn store_then_probe_round_trips_every_field() {
        let tt = TranspositionTable::with_mb(1).expect("1 MB");
        let m = Move::new(Square::E2, Square::E4, MoveKind::Normal);
        tt.store(0xDEAD_BEEF, 3, m, -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF, 3).expect("hit");
        assert_eq!(
            e,
            Entry {
                mv: m,
                score: -123,
                eval: 45,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(0xDEAD_BEEE, 3), None, "another key misses");
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::with_mb(1).expect("1 MB");
        // Mate in 5 plies from the root, found at ply 2: 3 plies from the node.
        tt.store(7, 2, Move::NULL, MATE - 5, 0, 4, Bound::Exact);
        // The same node reached at ply 4 is mate 7 plies from that root.
        assert_eq!(tt.probe(7, 4).map(|e| e.score), Some(MATE - 7));
        tt.store(8, 1, Move::NULL, -MATE + 6, 0, 4, Bound::Exact);
        assert_eq!(tt.probe(8, 0).map(|e| e.score), Some(-MATE + 5));
    }

    #[test]
    fn same_key_keeps_its_move_and_clear_empties() {
        let tt = TranspositionTable::with_mb(1).expect("1 MB");
        let m = Move::new(Square::G1, Square::F3, MoveKind::Normal);
        tt.store(99, 0, m, 5, 0, 6, Bound::Exact);
        tt.store(99, 0, Move::NULL, 8, 0, 6, Bound::Upper);
        let e = tt.probe(99, 0).expect("hit");
        assert_eq!((e.mv, e.score, e.bound), (m, 8, Bound::Upper));
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert_eq!(tt.probe(99, 0), None);
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest_stale_entry() {
        let tt = TranspositionTable::with_mb(1).expect("1 MB");
        let n = tt.buckets.len() as u128;
        // Keys that land in bucket 0: the top bits pick the bucket.
        let keys: Vec<u64> = (1..=5u64).collect();
        assert!(keys.iter().all(|&k| (k as u128 * n) >> 64 == 0));
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, 0, Move::NULL, 0, 0, 10 + i as i32, Bound::Exact);
        }
        tt.store(keys[4], 0, Move::NULL, 0, 0, 1, Bound::Exact);
        assert!(
            tt.probe(keys[0], 0).is_none(),
            "depth 10 entry was the victim"
        );
        assert!(tt.probe(keys[4], 0).is_some());
        assert!(tt.probe(keys[3], 0).is_some());
    }

    #[test]
    fn concurrent_writers_never_yield_torn_entries() {
        let tt = TranspositionTable::with_mb(1).expect("1 MB");
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let key = (i % 64) << 58 | t;
                        // Each writer's score is a function of its key, so a torn read shows.
                        let score = (key % 1000) as i32;
                        tt.store(key, 0, Move::NULL, score, score, 1, Bound::Exact);
                        if let Some(e) = tt.probe(key, 0) {
                            assert_eq!(e.score, score);
                            assert_eq!(e.eval, score);
                        }
                    }
                });
            }
        });
    }
}
