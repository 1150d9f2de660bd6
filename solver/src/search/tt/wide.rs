//! The wide layout: entries that hold the whole 128-bit key, for boards whose short code
//! (see `code`) does not fit a compact entry (8 and 9 holes with many seeds).
//!
//! A fixed array of 64-byte buckets (one cache line), each holding three entries and a
//! sequence number. Every entry stores the **whole** key, so a probe can only answer for the
//! very board it was asked about.
//!
//! An entry is the key (16 bytes) and one 32-bit word of bounds, best move and work; a
//! bucket is its sequence number, the three words and the three keys:
//!
//! ```text
//! byte 0   4        16                                 64
//!      | seq | data×3 | key 0 (16) | key 1 (16) | key 2 (16) |
//! ```
//!
//! Thread safety (a *seqlock* per bucket): a writer takes the bucket by turning its sequence
//! number odd with one compare-and-swap, **never waiting**: a bucket held by another thread
//! drops the store. A reader takes no lock at all: it reads the sequence number, the entries
//! and the sequence number again, and reports a miss if a writer held or changed the bucket
//! meanwhile. So a torn entry can never be read, and no thread ever blocks or spins.
//!
//! Replacement: the first entry of a bucket keeps the result that cost the most work (log2 of
//! the nodes spent proving it), the other two take everything else, the cheaper one giving
//! way; a new result for a key already present updates its entry in place. Bounds outside
//! what the 32-bit word holds (beyond ±511) are simply not stored.

use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

use super::Bounds;
use crate::search_memory::{Memory, SearchMemory};

/// An unused entry: all zero, so that a table can be allocated zeroed (the system then maps
/// its memory lazily and creating even a large table costs nothing); packed bounds always set
/// [`IN_USE`].
const EMPTY: u32 = 0;
const IN_USE: u32 = 1 << 31;
/// Bits of each bound (two's complement), of the move and of the work in a packed word.
const BOUND_BITS: u32 = 10;
const MOVE_BITS: u32 = 5;
const NO_MOVE: u32 = (1 << MOVE_BITS) - 1;
const WORK_MAX: u8 = 63;

/// The bounds as one word: lower (bits 0..10), upper (10..20), move (20..25), work
/// (25..31), in use (31); `None` if a bound or the move does not fit.
fn pack(bounds: Bounds) -> Option<u32> {
    let limit = 1i16 << (BOUND_BITS - 1);
    let fits = |v: i16| (-limit..limit).contains(&v);
    let mv = match bounds.mv {
        Some(mv) if (mv as u32) < NO_MOVE => mv as u32,
        Some(_) => return None,
        None => NO_MOVE,
    };
    let field = |v: i16| (v as u32) & ((1 << BOUND_BITS) - 1);
    (fits(bounds.lower) && fits(bounds.upper)).then(|| {
        field(bounds.lower)
            | field(bounds.upper) << BOUND_BITS
            | mv << (2 * BOUND_BITS)
            | (bounds.work.min(WORK_MAX) as u32) << (2 * BOUND_BITS + MOVE_BITS)
            | IN_USE
    })
}

fn unpack(word: u32) -> Bounds {
    let shift = 32 - BOUND_BITS;
    let bound = |at: u32| (((word >> at) << shift) as i32 >> shift) as i16;
    let mv = (word >> (2 * BOUND_BITS)) & NO_MOVE;
    Bounds { lower: bound(0), upper: bound(BOUND_BITS), mv: (mv != NO_MOVE).then_some(mv as u8), work: work_of(word) }
}

fn work_of(word: u32) -> u8 {
    ((word >> (2 * BOUND_BITS + MOVE_BITS)) as u8) & WORK_MAX
}

/// Entries per bucket.
const WAYS: usize = 3;

#[repr(C, align(64))]
struct Bucket {
    /// Even while no writer holds the bucket, odd while one does.
    seq: AtomicU32,
    /// Packed bounds of each entry, [`EMPTY`] when unused.
    data: [AtomicU32; WAYS],
    /// Each entry's key, low word first.
    keys: [[AtomicU64; 2]; WAYS],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

impl Bucket {
    #[inline]
    fn holds(&self, i: usize, key: [u64; 2]) -> bool {
        self.keys[i][0].load(Ordering::Relaxed) == key[0] && self.keys[i][1].load(Ordering::Relaxed) == key[1]
    }

    #[inline]
    fn set(&self, i: usize, key: [u64; 2], data: u32) {
        self.keys[i][0].store(key[0], Ordering::Relaxed);
        self.keys[i][1].store(key[1], Ordering::Relaxed);
        self.data[i].store(data, Ordering::Relaxed);
    }
}

/// A fixed-size, thread-safe table of proven bounds keyed by whole 128-bit keys.
pub(crate) struct Wide {
    /// The buckets' memory: zeroed, mapped as it is used.
    memory: Memory,
    buckets: usize,
}

impl Wide {
    /// A table of `bytes / 64` buckets (any number, at least one), in memory that costs
    /// nothing until it is used (see `crate::memory`).
    ///
    /// # Panics
    /// Aborts through [`std::alloc::handle_alloc_error`] if the memory cannot be allocated.
    pub fn new(bytes: usize, lender: Option<&dyn SearchMemory>) -> Self {
        let size = std::mem::size_of::<Bucket>();
        let buckets = (bytes / size).max(1);
        // All-zero bytes are a valid bucket: sequence number even, every entry EMPTY.
        Wide { memory: Memory::zeroed(buckets.checked_mul(size).expect("table size overflows"), lender), buckets }
    }

    #[inline]
    fn bucket_array(&self) -> *const Bucket {
        self.memory.as_ptr() as *const Bucket
    }

    /// Bytes used by the table.
    pub fn bytes(&self) -> usize {
        self.buckets * std::mem::size_of::<Bucket>()
    }

    /// The key as two words, and its bucket.
    #[inline]
    fn locate(&self, key: u128) -> ([u64; 2], &Bucket) {
        // The hash scaled to the buckets (multiply-shift): any number of buckets serves.
        let index = ((hash(&key) as u128 * self.buckets as u128) >> 64) as usize;
        // SAFETY: the index is below `buckets`, the buckets allocated.
        let bucket = unsafe { &*self.bucket_array().add(index) };
        ([key as u64, (key >> 64) as u64], bucket)
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a probe soon after then
    /// finds it there).
    #[inline]
    pub fn prefetch(&self, key: u128) {
        let (_, bucket) = self.locate(key);
        crate::prefetch::prefetch(bucket);
    }

    /// The bounds stored for `key`, if any (a bucket that a writer holds or changes meanwhile
    /// counts as a miss).
    #[inline]
    pub fn probe(&self, key: u128) -> Option<Bounds> {
        let (key, bucket) = self.locate(key);
        let before = bucket.seq.load(Ordering::Acquire);
        if before & 1 != 0 {
            return None;
        }
        let mut found = EMPTY;
        for i in 0..WAYS {
            let data = bucket.data[i].load(Ordering::Relaxed);
            if data != EMPTY && bucket.holds(i, key) {
                found = data;
            }
        }
        // The entry read is whole only if no writer came in between (a seqlock's read side).
        fence(Ordering::Acquire);
        (found != EMPTY && bucket.seq.load(Ordering::Relaxed) == before).then(|| unpack(found))
    }

    /// Stores `bounds` for `key` (dropped if another thread holds the bucket, or if the
    /// bounds do not fit an entry).
    #[inline]
    pub fn store(&self, key: u128, bounds: Bounds) {
        let Some(data) = pack(bounds) else { return };
        let (key, bucket) = self.locate(key);
        let before = bucket.seq.load(Ordering::Relaxed);
        if before & 1 != 0 || bucket.seq.compare_exchange(before, before.wrapping_add(1), Ordering::Acquire, Ordering::Relaxed).is_err() {
            return;
        }
        // No entry written below becomes visible before the odd sequence number.
        fence(Ordering::Release);
        let words: [u32; WAYS] = std::array::from_fn(|i| bucket.data[i].load(Ordering::Relaxed));
        if let Some(i) = (0..WAYS).find(|&i| words[i] != EMPTY && bucket.holds(i, key)) {
            bucket.data[i].store(data, Ordering::Relaxed);
        } else {
            // The entry that gives way: an empty one, else the one that cost least.
            let victim = (1..WAYS).min_by_key(|&i| if words[i] == EMPTY { -1 } else { work_of(words[i]) as i32 }).unwrap_or(0);
            if words[0] == EMPTY || work_of(words[0]) <= bounds.work.min(WORK_MAX) {
                // The first entry keeps the costliest result; the one it displaces moves down.
                if victim != 0 {
                    let displaced = [bucket.keys[0][0].load(Ordering::Relaxed), bucket.keys[0][1].load(Ordering::Relaxed)];
                    bucket.set(victim, displaced, words[0]);
                }
                bucket.set(0, key, data);
            } else {
                bucket.set(victim, key, data);
            }
        }
        bucket.seq.store(before.wrapping_add(2), Ordering::Release);
    }
}

/// A fast, well-mixed 64-bit hash of a key (for the bucket index, never for identity).
#[inline]
pub(crate) fn hash<K: Hash>(key: &K) -> u64 {
    let mut hasher = Mix(0);
    key.hash(&mut hasher);
    hasher.finish()
}

/// [`hash`] as the hasher of a `HashMap` or `HashSet` of keys: many times cheaper than the
/// standard SipHash, which a map of the solver's own boards needs no protection of.
pub(crate) type MixHashing = BuildHasherDefault<Mix>;

/// Multiply-xorshift mixing of 64-bit words, finished with the MurmurHash3 finaliser.
#[derive(Default)]
pub(crate) struct Mix(u64);

impl Hasher for Mix {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }

    #[inline]
    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_bounds_by_full_key() {
        let table = Wide::new(1 << 12, None);
        let bounds = Bounds { lower: -3, upper: 7, mv: Some(2), work: 5 };
        table.store(42, bounds);
        assert_eq!(table.probe(42), Some(bounds));
        assert_eq!(table.probe(43), None);
    }

    #[test]
    fn packs_every_bound_move_and_work_it_can_hold() {
        for lower in [-511i16, -256, -1, 0, 1, 255, 511] {
            for upper in [-511i16, 0, 511] {
                for mv in [None, Some(0u8), Some(15), Some(30)] {
                    for work in [0u8, 1, 63] {
                        let b = Bounds { lower, upper, mv, work };
                        assert_eq!(unpack(pack(b).unwrap()), b);
                    }
                }
            }
        }
        let b = Bounds { lower: 0, upper: 0, mv: None, work: 64 };
        assert_eq!(unpack(pack(b).unwrap()).work, 63, "work saturates");
        for bad in [
            Bounds { lower: -513, upper: 0, mv: None, work: 0 },
            Bounds { lower: 0, upper: 512, mv: None, work: 0 },
            Bounds { lower: 0, upper: 0, mv: Some(31), work: 0 },
        ] {
            assert_eq!(pack(bad), None);
        }
    }

    #[test]
    fn bounds_too_wide_for_an_entry_are_not_stored() {
        let table = Wide::new(1 << 12, None);
        table.store(7, Bounds { lower: -600, upper: 600, mv: None, work: 1 });
        assert_eq!(table.probe(7), None);
    }

    #[test]
    fn concurrent_writers_never_make_a_probe_see_a_torn_entry() {
        // Each key's bounds are a function of the key; two threads hammer one tiny table.
        let table = Wide::new(256, None);
        let bounds_of =
            |key: u128| Bounds { lower: (key % 500) as i16, upper: (key % 500) as i16, mv: Some((key % 16) as u8), work: (key % 60) as u8 };
        std::thread::scope(|scope| {
            for thread in 0..2u128 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..200_000u128 {
                        let key = ((round * 2 + thread) % 1000) | ((round % 3) << 100);
                        table.store(key, bounds_of(key));
                        let other = ((round * 7 + 1) % 1000) | ((round % 3) << 100);
                        if let Some(b) = table.probe(other) {
                            assert_eq!(b, bounds_of(other));
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn a_one_bucket_table_never_confuses_keys() {
        let table = Wide::new(1, None);
        for key in 0..100u128 {
            table.store(key, Bounds { lower: key as i16, upper: key as i16, mv: None, work: (key % 7) as u8 });
        }
        for key in 0..100u128 {
            if let Some(b) = table.probe(key) {
                assert_eq!(b.lower, key as i16);
            }
        }
        assert!(table.probe(99).is_some(), "the newest entry is kept");
    }
}
