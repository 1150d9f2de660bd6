//! The compact layout: one 64-bit word an entry, eight entries a 64-byte bucket.
//!
//! A board's scrambled short code (see `code`) of `width` bits is split into the bucket (its
//! low `bucket_bits`) and the tag (the rest, at most [`TAG_BITS`]); the entry holds the tag
//! beside its data:
//!
//! ```text
//! bit 63          24  23    22..18  17..14  13..7        6..0
//!     | tag (40)    | used | work  | move  | (upper+k)/2 | (lower+k)/2 |
//! ```
//!
//! Bounds of a future gain have the parity of the `k` seeds on the board, so `(v + k) / 2`
//! is an integer in `0..=k` and 7 bits hold it for `k <= 127`; the probe is told `k`.
//!
//! Each entry is one atomic word, written and read whole: no lock, no sequence number, and a
//! probe cannot see half of one store and half of another. Two writers racing on one bucket
//! may both write (the later word wins a slot) or leave two entries of one board; either
//! entry is a proof about that board.

use std::sync::atomic::{AtomicU64, Ordering};

use super::code::MAX_SEEDS;
use super::Bounds;
use crate::table_memory::{Memory, TableMemory};

/// Bits of the tag: what the entry keeps of the short code beyond the bucket index.
pub(crate) const TAG_BITS: u32 = 40;
const OFFSET_BITS: u32 = 7;
const MOVE_SHIFT: u32 = 2 * OFFSET_BITS;
const NO_MOVE: u64 = 15;
const WORK_SHIFT: u32 = MOVE_SHIFT + 4;
const WORK_MAX: u8 = 31;
const IN_USE: u64 = 1 << 23;
const TAG_SHIFT: u32 = 64 - TAG_BITS;

/// Entries per bucket.
const WAYS: usize = 8;
/// Entries that keep the costliest results; the others take every new one, over the least
/// costly of them (see [`Compact::store`]).
const KEPT: usize = 1;

#[repr(C, align(64))]
struct Bucket([AtomicU64; WAYS]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The entry word of `bounds` for a board with tag `tag` and `seeds` seeds; `None` if the
/// bounds are not of the seeds' parity within `[-seeds, seeds]` or the move does not fit.
fn pack(tag: u64, seeds: u32, bounds: Bounds) -> Option<u64> {
    debug_assert!(seeds <= MAX_SEEDS);
    let k = seeds as i32;
    let offset = |v: i16| {
        let v = v as i32;
        ((-k..=k).contains(&v) && (v + k) % 2 == 0).then_some(((v + k) / 2) as u64)
    };
    let mv = match bounds.mv {
        Some(mv) if (mv as u64) < NO_MOVE => mv as u64,
        Some(_) => return None,
        None => NO_MOVE,
    };
    let (lower, upper) = (offset(bounds.lower)?, offset(bounds.upper)?);
    Some(tag << TAG_SHIFT | IN_USE | (bounds.work.min(WORK_MAX) as u64) << WORK_SHIFT | mv << MOVE_SHIFT | upper << OFFSET_BITS | lower)
}

/// The bounds in entry `word` of a board with `seeds` seeds.
fn unpack(word: u64, seeds: u32) -> Bounds {
    let bound = |offset: u64| (2 * (offset & ((1 << OFFSET_BITS) - 1)) as i32 - seeds as i32) as i16;
    let mv = (word >> MOVE_SHIFT) & 15;
    Bounds { lower: bound(word), upper: bound(word >> OFFSET_BITS), mv: (mv != NO_MOVE).then_some(mv as u8), work: work_of(word) }
}

#[inline]
fn work_of(word: u64) -> u8 {
    ((word >> WORK_SHIFT) as u8) & WORK_MAX
}

/// Whether entry `word` is in use and holds `tag`: the in-use bit sits just below the tag, so
/// one shift and one comparison test both.
#[inline]
fn holds(word: u64, tag: u64) -> bool {
    word >> (TAG_SHIFT - 1) == (tag << 1 | 1)
}

const _: () = assert!(IN_USE == 1 << (TAG_SHIFT - 1));

/// A fixed array of compact buckets.
pub(crate) struct Compact {
    /// The buckets' memory: zeroed (every entry unused), mapped as it is used.
    memory: Memory,
    bucket_bits: u32,
}

impl Compact {
    /// A table of at most `bytes` bytes (a power of two buckets, at least one).
    ///
    /// # Panics
    /// Aborts through [`std::alloc::handle_alloc_error`] if the memory cannot be allocated.
    pub fn new(bytes: usize, lender: Option<&dyn TableMemory>) -> Self {
        let bucket_bits = Self::bucket_bits(bytes);
        Compact { memory: Memory::zeroed(std::mem::size_of::<Bucket>() << bucket_bits, lender), bucket_bits }
    }

    /// Bits of the bucket index of a table of at most `bytes` bytes.
    fn bucket_bits(bytes: usize) -> u32 {
        let wanted = (bytes / std::mem::size_of::<Bucket>()).max(1);
        usize::BITS - 1 - wanted.leading_zeros()
    }

    /// Bits of the short code that bucket and tag together identify in the table
    /// `Compact::new(bytes, ..)` makes.
    pub fn code_width_for(bytes: usize) -> u32 {
        (Self::bucket_bits(bytes) + TAG_BITS).min(64)
    }

    /// Bytes used by the table.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Bucket>() << self.bucket_bits
    }

    /// The bucket and tag of a scrambled short code below `2^code_width_for(bytes)`.
    #[inline]
    pub fn locate(&self, code: u64) -> (usize, u64) {
        ((code & ((1 << self.bucket_bits) - 1)) as usize, code >> self.bucket_bits)
    }

    #[inline]
    fn bucket(&self, index: usize) -> &Bucket {
        debug_assert!(index < 1 << self.bucket_bits);
        // SAFETY: `locate` gives indices below 2^bucket_bits, the buckets allocated; all-zero
        // bytes are a valid bucket.
        unsafe { &*(self.memory.as_ptr() as *const Bucket).add(index) }
    }

    /// Asks the processor to bring bucket `index` into the cache.
    #[inline]
    pub fn prefetch(&self, index: usize) {
        crate::prefetch::prefetch(self.bucket(index));
    }

    /// The bounds stored in bucket `index` under `tag` for a board of `seeds` seeds.
    #[inline]
    pub fn probe(&self, index: usize, tag: u64, seeds: u32) -> Option<Bounds> {
        let bucket = self.bucket(index);
        bucket.0.iter().map(|entry| entry.load(Ordering::Relaxed)).find(|&word| holds(word, tag)).map(|word| unpack(word, seeds))
    }

    /// Stores `bounds` in bucket `index` under `tag` (dropped if they do not fit, see
    /// [`pack`]): over the board's own entry if it has one; else into the first entry if the
    /// result cost at least as much work as the one there (which then moves down), else over
    /// the least costly of the other seven (the first of equals).
    ///
    /// The kept entry is what saves most work; among the rest, the least costly giving way
    /// loses fewer nodes than the entry the tag picks at the table sizes the program runs with
    /// (the variants tried are in `docs/benchmarks/code-notes.md`).
    pub fn store(&self, index: usize, tag: u64, seeds: u32, bounds: Bounds) {
        let Some(word) = pack(tag, seeds, bounds) else {
            debug_assert!(false, "bounds {bounds:?} of a board of {seeds} seeds do not fit");
            return;
        };
        let bucket = self.bucket(index);
        let words: [u64; WAYS] = std::array::from_fn(|i| bucket.0[i].load(Ordering::Relaxed));
        if let Some(slot) = words.iter().position(|&w| holds(w, tag)) {
            bucket.0[slot].store(word, Ordering::Relaxed);
            return;
        }
        let cost = |i: usize| if words[i] & IN_USE == 0 { -1 } else { work_of(words[i]) as i32 };
        let kept = (0..KEPT).min_by_key(|&i| cost(i)).unwrap_or(0);
        let always = (KEPT..WAYS).min_by_key(|&i| cost(i)).unwrap_or(KEPT);
        if cost(kept) <= bounds.work.min(WORK_MAX) as i32 {
            // The costlier result takes the kept entry; the one it displaces moves down.
            bucket.0[always].store(words[kept], Ordering::Relaxed);
            bucket.0[kept].store(word, Ordering::Relaxed);
        } else {
            bucket.0[always].store(word, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_survives_a_round_trip() {
        let tag = (1 << TAG_BITS) - 3;
        for seeds in [0u32, 1, 2, 48, 127] {
            let k = seeds as i16;
            for lower in (-k..=k).step_by(2) {
                for upper in [lower, k] {
                    for mv in [None, Some(0u8), Some(8), Some(14)] {
                        for work in [0u8, 1, 30, 31] {
                            let b = Bounds { lower, upper, mv, work };
                            let word = pack(tag, seeds, b).unwrap();
                            assert!(holds(word, tag) && !holds(word, tag - 1));
                            assert_eq!(unpack(word, seeds), b);
                        }
                    }
                }
            }
        }
        let b = Bounds { lower: 0, upper: 0, mv: None, work: 60 };
        assert_eq!(unpack(pack(0, 0, b).unwrap(), 0).work, WORK_MAX, "work saturates");
    }

    #[test]
    fn bounds_off_the_parity_or_the_range_do_not_pack() {
        for (lower, upper) in [(-1, 2), (0, 3), (-6, 4), (2, 6)] {
            assert_eq!(pack(1, 4, Bounds { lower, upper, mv: None, work: 0 }), None, "[{lower}, {upper}] of 4 seeds");
        }
        assert_eq!(pack(1, 4, Bounds { lower: 0, upper: 0, mv: Some(15), work: 0 }), None);
    }
}
