//! The transposition table shared by all search threads, without locks.
//!
//! Every slot is two `AtomicU64`: `key ^ data` and `data`, written and read with relaxed
//! ordering. A reader accepts a slot only when the xor of the two words gives back the full
//! 64-bit key, so a slot torn by two threads writing at once is simply not found (Hyatt's
//! lockless hashing, as in Carp, Viridithas and Stockfish). Slots are grouped in buckets of
//! four (64 bytes, one cache line); a bucket is chosen by multiplying the key by the bucket
//! count (so any size works), and a new entry replaces the same key, an empty slot, or the
//! slot with the lowest depth after an age penalty from the generation counter.
//!
//! Moves are stored as [`crate::game::GameMove::to_bits`]; the search only uses a stored move
//! to order the legal moves it generated, so a move from a colliding key can never be played.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Slots per bucket (four 16-byte slots fill one 64-byte cache line).
const BUCKET_SLOTS: usize = 4;
/// Bytes per slot.
const SLOT_BYTES: usize = 16;
/// Generation counter width (6 bits in the data word).
const GENERATION_MASK: u8 = 63;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (the search failed low).
    Upper,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The score is the true value at that depth.
    Exact,
}

impl Bound {
    fn to_bits(self) -> u64 {
        match self {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// One decoded table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move as `to_bits`, if one was found.
    pub mv: Option<u16>,
    /// The score, mate scores counted from the stored node (see `score_to_tt` in the search).
    pub score: i16,
    /// The static evaluation of the position.
    pub eval: i16,
    /// The remaining depth the score was searched to (0..=127).
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
}

// Data word layout: bits 0-15 move, 16-31 score, 32-47 eval, 48-54 depth, 55 has-move,
// 56-57 bound, 58-63 generation. A stored entry always has a bound, so data != 0.
fn pack(entry: &TtEntry, generation: u8) -> u64 {
    let mv = u64::from(entry.mv.unwrap_or(0));
    let has_move = u64::from(entry.mv.is_some());
    mv | (u64::from(entry.score as u16) << 16)
        | (u64::from(entry.eval as u16) << 32)
        | (u64::from(entry.depth.min(127)) << 48)
        | (has_move << 55)
        | (entry.bound.to_bits() << 56)
        | (u64::from(generation & GENERATION_MASK) << 58)
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = Bound::from_bits((data >> 56) & 3)?;
    let has_move = (data >> 55) & 1 == 1;
    Some(TtEntry {
        mv: has_move.then_some(data as u16),
        score: (data >> 16) as u16 as i16,
        eval: (data >> 32) as u16 as i16,
        depth: ((data >> 48) & 127) as u8,
        bound,
    })
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & GENERATION_MASK
}

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// Four slots on one 64-byte cache line: aligned to 64 bytes, so that a probe reads one line
/// (a plain `Vec<Slot>` of a large table starts 16 bytes into a page with glibc, so every
/// bucket straddled two lines).
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; BUCKET_SLOTS],
}

/// The shared transposition table (see the module documentation).
pub struct TranspositionTable {
    table: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket), all empty. If that much memory
    /// cannot be had, the smallest table (one bucket) is made instead: see [`Self::try_new`].
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).unwrap_or_else(|_| Self::with_buckets(Vec::new(), 1))
    }

    /// A table of about `mb` mebibytes, or an error naming the size when the memory cannot be
    /// reserved (a `Hash` value larger than the machine must not abort the engine).
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let buckets = (mb.saturating_mul(1024 * 1024) / (SLOT_BYTES * BUCKET_SLOTS)).max(1);
        let mut table: Vec<Bucket> = Vec::new();
        table
            .try_reserve_exact(buckets)
            .map_err(|_| format!("cannot allocate a {mb} MiB hash table"))?;
        Ok(Self::with_buckets(table, buckets))
    }

    fn with_buckets(mut table: Vec<Bucket>, buckets: usize) -> Self {
        table.resize_with(buckets, Bucket::default);
        TranspositionTable {
            table,
            generation: AtomicU8::new(0),
        }
    }

    /// Reallocates to about `mb` mebibytes; the contents are lost. When the memory cannot be
    /// had, the old table stays (emptied) and the error says so.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let old_mb = self.size_bytes() / (1024 * 1024);
        // Free the old table first so two large tables never coexist.
        self.table = Vec::new();
        match Self::try_new(mb) {
            Ok(t) => {
                *self = t;
                Ok(())
            }
            Err(e) => {
                *self = Self::new(old_mb.max(1));
                Err(format!("{e}; the table keeps {} MiB", old_mb.max(1)))
            }
        }
    }

    /// Empties every slot and resets the generation (for `ucinewgame` / `Clear Hash`).
    pub fn clear(&self) {
        for slot in self.table.iter().flat_map(|b| &b.slots) {
            slot.key.store(0, Relaxed);
            slot.data.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// Size in bytes of the slot array.
    pub fn size_bytes(&self) -> usize {
        self.table.len() * BUCKET_SLOTS * SLOT_BYTES
    }

    /// Starts a new search: entries from older searches age and are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Relaxed);
    }

    /// The bucket of `key` (the high half of `key x buckets`, always below `buckets`).
    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET_SLOTS] {
        let index = ((u128::from(key) * (self.table.len() as u128)) >> 64) as usize;
        &self.table[index].slots
    }

    /// Asks the processor to start loading the cache line of `key`'s bucket, so that a
    /// [`Self::probe`] of `key` soon after (the child node's, made just before) finds it there
    /// instead of waiting on memory. Only a hint: nothing is read or written.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Relaxed);
            if data != 0 && slot.key.load(Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores an entry for `key`. A missing move keeps the move already stored for that key.
    pub fn store(&self, key: u64, entry: TtEntry) {
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut target = 0;
        let mut worst = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Relaxed);
            if data == 0 {
                target = i;
                break;
            }
            if slot.key.load(Relaxed) ^ data == key {
                let Some(old) = unpack(data) else {
                    target = i;
                    break;
                };
                // Keep a deeper entry of this search unless the new one is exact.
                if entry.bound != Bound::Exact
                    && generation_of(data) == generation
                    && i32::from(entry.depth) + 2 < i32::from(old.depth)
                {
                    return;
                }
                let mut entry = entry;
                if entry.mv.is_none() {
                    entry.mv = old.mv;
                }
                let new = pack(&entry, generation);
                slot.data.store(new, Relaxed);
                slot.key.store(key ^ new, Relaxed);
                return;
            }
            let age = i32::from(generation.wrapping_sub(generation_of(data)) & GENERATION_MASK);
            let value = i32::from(((data >> 48) & 127) as u8) - 8 * age;
            if value < worst {
                worst = value;
                target = i;
            }
        }
        let new = pack(&entry, generation);
        bucket[target].data.store(new, Relaxed);
        bucket[target].key.store(key ^ new, Relaxed);
    }

    /// Permille of the first 1000 slots (or all, if fewer) used by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let slots = self.table.iter().flat_map(|b| &b.slots);
        let sample = slots.clone().take(1000).count();
        if sample == 0 {
            return 0;
        }
        let used = slots
            .take(sample)
            .filter(|s| {
                let data = s.data.load(Relaxed);
                data != 0 && generation_of(data) == generation
            })
            .count();
        (used * 1000 / sample) as u32
    }
}

impl Default for TranspositionTable {
    fn default() -> Self {
        TranspositionTable::new(16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        for mb in [1, 16] {
            let tt = TranspositionTable::new(mb);
            assert_eq!(tt.table.as_ptr() as usize % 64, 0, "{mb} MiB");
            assert_eq!(tt.size_bytes(), mb * 1024 * 1024);
        }
    }

    #[test]
    fn a_stored_entry_is_found_after_a_prefetch() {
        let tt = TranspositionTable::new(1);
        let entry = TtEntry {
            mv: Some(77),
            score: -12,
            eval: 30,
            depth: 9,
            bound: Bound::Lower,
        };
        for key in [1u64, u64::MAX, 0x9E37_79B9_7F4A_7C15] {
            tt.prefetch(key);
            assert_eq!(tt.probe(key), None);
            tt.store(key, entry);
            tt.prefetch(key);
            assert_eq!(tt.probe(key), Some(entry));
        }
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.probe(1), None);
    }
}
