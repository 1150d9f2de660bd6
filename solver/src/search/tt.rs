//! The transposition table: proven bounds of future gains, keyed by the full lossless key.
//!
//! A fixed array of 64-byte buckets (one cache line), each holding two entries and a one-byte
//! lock. Every entry stores the **whole** [`Rules::Key`](crate::rules::Rules::Key), never a
//! lossy hash alone, so a probe can only answer for the very board it was asked about: the
//! search stays exact whatever the table size.
//!
//! Thread safety and its trade-offs: a bucket is read and written under its lock, taken with a
//! single atomic swap and **never waited for**. A probe that finds the bucket locked reports a
//! miss, a store that finds it locked is dropped. Both only cost the search some work, never
//! correctness, and no thread ever blocks or spins. Compared with a lock-free xor-checked
//! entry, the lock costs one atomic read-modify-write per probe but cannot be fooled by a torn
//! write, and it works for any key type; compared with a concurrent hash map it has a fixed
//! memory budget and no allocation.
//!
//! Replacement: the first entry of a bucket keeps the result that cost the most work (log2 of
//! the nodes spent proving it), the second takes everything else; a new result for a key
//! already present updates its entry in place. Measured against always-replace (the same
//! memory as a direct-mapped table) on 5 random 7 x 7 middle games: 4% fewer nodes with 1 MiB
//! and 3% with 4 MiB, 8% more with 16 MiB; it is kept because a table too small for the
//! search is where replacement matters, and there it wins.

use std::alloc::Layout;
use std::cell::UnsafeCell;
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the table knows about one key: proven bounds of its future gain and the move that
/// proved the lower bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// Proven lower bound.
    pub lower: i16,
    /// Proven upper bound.
    pub upper: i16,
    /// The best move known, if any.
    pub mv: Option<u8>,
    /// log2 of the nodes spent on the last proof: how costly the entry is to lose.
    pub work: u8,
}

const NO_MOVE: u8 = 0xFF;

impl Bounds {
    fn pack(self) -> u64 {
        (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.mv.unwrap_or(NO_MOVE) as u64) << 32
            | (self.work as u64) << 40
            | IN_USE
    }

    fn unpack(word: u64) -> Bounds {
        let mv = (word >> 32) as u8;
        Bounds { lower: word as u16 as i16, upper: (word >> 16) as u16 as i16, mv: (mv != NO_MOVE).then_some(mv), work: (word >> 40) as u8 }
    }
}

/// The two entries of a bucket: `data[i] == EMPTY` when entry `i` is unused, and then
/// `keys[i]` is uninitialised.
struct Slots<K> {
    keys: [MaybeUninit<K>; 2],
    data: [u64; 2],
}

/// An unused entry: all zero, so that a table can be allocated zeroed (the system then maps
/// its memory lazily and creating even a large table costs nothing); packed bounds always set
/// [`IN_USE`].
const EMPTY: u64 = 0;
const IN_USE: u64 = 1 << 63;

impl<K: Copy + Eq> Slots<K> {
    #[inline]
    fn find(&self, key: &K) -> Option<usize> {
        // SAFETY: a key is read only where its data word says the entry is in use.
        (0..2).find(|&i| self.data[i] != EMPTY && unsafe { self.keys[i].assume_init_ref() } == key)
    }

    #[inline]
    fn set(&mut self, i: usize, key: K, data: u64) {
        self.keys[i] = MaybeUninit::new(key);
        self.data[i] = data;
    }
}

#[repr(align(64))]
struct Bucket<K> {
    lock: AtomicBool,
    slots: UnsafeCell<Slots<K>>,
}

// SAFETY: `slots` is only touched while `lock` is held (see `Bucket::with`), so no two
// threads ever access it at once.
unsafe impl<K: Send> Sync for Bucket<K> {}

impl<K: Copy> Bucket<K> {
    /// Runs `f` on the slots if the lock is free, else returns `None` at once.
    #[inline]
    fn with<T>(&self, f: impl FnOnce(&mut Slots<K>) -> T) -> Option<T> {
        if self.lock.swap(true, Ordering::Acquire) {
            return None;
        }
        // SAFETY: we hold the lock.
        let result = f(unsafe { &mut *self.slots.get() });
        self.lock.store(false, Ordering::Release);
        Some(result)
    }
}

/// A fixed-size, thread-safe table of proven bounds.
pub(crate) struct Table<K> {
    /// The allocation: zeroed, with room to align the buckets to a cache line.
    raw: *mut u8,
    layout: Layout,
    buckets: *const Bucket<K>,
    mask: usize,
}

// SAFETY: the table owns its allocation; shared access goes through `Bucket`, which is `Sync`.
unsafe impl<K: Send> Send for Table<K> {}
unsafe impl<K: Send> Sync for Table<K> {}

impl<K> Drop for Table<K> {
    fn drop(&mut self) {
        // SAFETY: `raw` was allocated with `layout` in `Table::new`.
        unsafe { std::alloc::dealloc(self.raw, self.layout) }
    }
}

impl<K: Copy + Eq + Hash + Send> Table<K> {
    /// A table of at most `bytes` bytes (rounded down to a power of two buckets, at least one).
    ///
    /// The memory is allocated zeroed with the alignment of `malloc`, which the system maps
    /// lazily, so that even a large table costs nothing until it is used (an allocation
    /// aligned to 64 bytes would be cleared page by page at once); the buckets start at the
    /// first cache line inside it.
    ///
    /// # Panics
    /// Aborts through [`std::alloc::handle_alloc_error`] if the memory cannot be allocated.
    pub fn new(bytes: usize) -> Self {
        let size = std::mem::size_of::<Bucket<K>>();
        let wanted = (bytes / size).max(1);
        let count = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        let layout = Layout::from_size_align(count * size + size, 16).expect("table size overflows");
        // SAFETY: the layout has a non-zero size; all-zero bytes are a valid bucket (lock free,
        // both entries EMPTY, keys uninitialised), and `count` buckets fit after the aligned
        // start because `size` (a multiple of the alignment) bytes were added.
        unsafe {
            let raw = std::alloc::alloc_zeroed(layout);
            if raw.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            let buckets = raw.add(raw.align_offset(std::mem::align_of::<Bucket<K>>())) as *const Bucket<K>;
            Table { raw, layout, buckets, mask: count - 1 }
        }
    }

    /// Bytes used by the table.
    pub fn bytes(&self) -> usize {
        (self.mask + 1) * std::mem::size_of::<Bucket<K>>()
    }

    #[inline]
    fn bucket(&self, key: &K) -> &Bucket<K> {
        // SAFETY: the index is at most `mask`, and `mask + 1` buckets were allocated.
        unsafe { &*self.buckets.add((hash(key) as usize) & self.mask) }
    }

    /// The bounds stored for `key`, if any (a bucket busy with another thread counts as a miss).
    #[inline]
    pub fn probe(&self, key: &K) -> Option<Bounds> {
        self.bucket(key).with(|slots| slots.find(key).map(|i| Bounds::unpack(slots.data[i]))).flatten()
    }

    /// Stores `bounds` for `key` (dropped if another thread holds the bucket).
    #[inline]
    pub fn store(&self, key: K, bounds: Bounds) {
        let data = bounds.pack();
        self.bucket(&key).with(|slots| {
            if let Some(i) = slots.find(&key) {
                slots.data[i] = data;
            } else if slots.data[0] == EMPTY || Bounds::unpack(slots.data[0]).work <= bounds.work {
                // The first entry keeps the costliest result; the one it displaces moves down.
                slots.keys[1] = slots.keys[0];
                slots.data[1] = slots.data[0];
                slots.set(0, key, data);
            } else {
                slots.set(1, key, data);
            }
        });
    }
}

/// A fast, well-mixed 64-bit hash of a key (for the bucket index, never for identity).
#[inline]
pub(crate) fn hash<K: Hash>(key: &K) -> u64 {
    let mut hasher = Mix(0);
    key.hash(&mut hasher);
    hasher.finish()
}

/// Multiply-xorshift mixing of 64-bit words, finished with the MurmurHash3 finaliser.
struct Mix(u64);

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
        let table = Table::<u128>::new(1 << 12);
        let bounds = Bounds { lower: -3, upper: 7, mv: Some(2), work: 5 };
        table.store(42, bounds);
        assert_eq!(table.probe(&42), Some(bounds));
        assert_eq!(table.probe(&43), None);
    }

    #[test]
    fn a_one_bucket_table_never_confuses_keys() {
        let table = Table::<u128>::new(1);
        for key in 0..100u128 {
            table.store(key, Bounds { lower: key as i16, upper: key as i16, mv: None, work: (key % 7) as u8 });
        }
        for key in 0..100u128 {
            if let Some(b) = table.probe(&key) {
                assert_eq!(b.lower, key as i16);
            }
        }
        assert!(table.probe(&99).is_some(), "the newest entry is kept in the second slot");
    }
}
