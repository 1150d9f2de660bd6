//! The compact layout: one 64-bit word an entry, eight entries a 64-byte bucket.
//!
//! A board's scrambled short code (see `code`) of `width` bits gives the bucket by a
//! multiply-shift, `code * buckets / 2^width`, so that any number of buckets serves, and the
//! tag is the code's low [`TAG_BITS`] bits: the codes of one bucket are consecutive numbers,
//! at most `2^TAG_BITS` of them while `width <= log2(buckets) + TAG_BITS`, so bucket and tag
//! give back the code (see [`Geometry`]). The entry holds the tag beside its data:
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
use crate::peer_region::PeerRegion;
use crate::search_memory::{Memory, SearchMemory};

/// Bits of the tag: what the entry keeps of the short code beyond the bucket index.
pub(crate) const TAG_BITS: u32 = 40;
const OFFSET_BITS: u32 = 7;
const MOVE_SHIFT: u32 = 2 * OFFSET_BITS;
const NO_MOVE: u64 = 15;
const WORK_SHIFT: u32 = MOVE_SHIFT + 4;
const WORK_MAX: u8 = 31;
const IN_USE: u64 = 1 << 23;
const TAG_SHIFT: u32 = 64 - TAG_BITS;
const TAG_MASK: u64 = (1 << TAG_BITS) - 1;

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

/// How a table of `buckets` buckets splits a short code into bucket and tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    buckets: usize,
    /// Bits of the codes the table takes: `floor(log2(buckets)) + TAG_BITS`, at most 64.
    width: u32,
}

impl Geometry {
    /// The geometry of `buckets` (at least one) buckets.
    pub fn new(buckets: usize) -> Geometry {
        let buckets = buckets.max(1);
        Geometry { buckets, width: (buckets.ilog2() + TAG_BITS).min(64) }
    }

    /// Bits of the short code that bucket and tag together identify.
    pub fn code_width(self) -> u32 {
        self.width
    }

    /// The bucket and tag of a scrambled short code below `2^code_width()`.
    #[inline]
    pub fn locate(self, code: u64) -> (usize, u64) {
        debug_assert!(self.width == 64 || code >> self.width == 0);
        // `code * buckets / 2^width`, the code's top bits scaled: below `buckets`.
        let bucket = (((code << (64 - self.width)) as u128 * self.buckets as u128) >> 64) as usize;
        (bucket, code & TAG_MASK)
    }

    /// The code that [`Geometry::locate`] sends to `bucket` and `tag`: the one number of the
    /// bucket's run of codes (from `ceil(bucket * 2^width / buckets)`, at most `2^TAG_BITS`
    /// long) whose low bits are the tag.
    pub fn code_of(self, bucket: usize, tag: u64) -> u64 {
        let first = ((bucket as u128) << self.width).div_ceil(self.buckets as u128) as u64;
        first.wrapping_add(tag.wrapping_sub(first) & TAG_MASK)
    }
}

/// A fixed array of compact buckets.
pub(crate) struct Compact {
    /// The buckets' memory: zeroed (every entry unused), mapped as it is used.
    memory: Memory,
    geometry: Geometry,
    /// Boards with at least this many seeds have their entry on the node that owns them when
    /// the memory has copies on other nodes (`u32::MAX` when it has none).
    shared_from: u32,
}

impl Compact {
    /// A table of `bytes / 64` buckets (at least one): any number.
    ///
    /// # Panics
    /// Aborts through [`std::alloc::handle_alloc_error`] if the memory cannot be allocated.
    pub fn new(bytes: usize, lender: Option<&dyn SearchMemory>) -> Self {
        let geometry = Self::geometry_for(bytes);
        let memory = Memory::zeroed(std::mem::size_of::<Bucket>() * geometry.buckets, lender);
        let shared_from = memory.peers().filter(|p| p.nodes() > 1).map_or(u32::MAX, |p| p.shared_from_seeds());
        Compact { memory, geometry, shared_from }
    }

    /// The geometry of the table `Compact::new(bytes, ..)` makes.
    pub fn geometry_for(bytes: usize) -> Geometry {
        Geometry::new(bytes / std::mem::size_of::<Bucket>())
    }

    /// Bytes used by the table.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Bucket>() * self.geometry.buckets
    }

    /// How the table splits a code into bucket and tag.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    #[inline]
    fn bucket(&self, index: usize) -> &Bucket {
        debug_assert!(index < self.geometry.buckets);
        // SAFETY: `locate` gives indices below `buckets`, the buckets allocated; all-zero
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
        if seeds >= self.shared_from {
            if let Some((peers, owner)) = self.elsewhere(tag) {
                let mut words = [0; WAYS];
                peers.read(owner, index * WAYS, &mut words);
                return words.into_iter().find(|&word| holds(word, tag)).map(|word| unpack(word, seeds));
            }
        }
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
        if seeds >= self.shared_from {
            if let Some((peers, owner)) = self.elsewhere(tag) {
                let mut words = [0; WAYS];
                peers.read(owner, index * WAYS, &mut words);
                // A word changed meanwhile keeps its new entry: only this store's work is lost.
                for (way, new) in placement(&words, tag, word).into_iter().flatten() {
                    peers.replace(owner, index * WAYS + way, words[way], new);
                }
                return;
            }
        }
        self.place(index, tag, word);
    }

    /// The other node that owns the entries of tag `tag`, with the memory's copies, if the
    /// memory has copies on other nodes and this node does not own the tag.
    #[inline(never)]
    fn elsewhere(&self, tag: u64) -> Option<(&dyn PeerRegion, usize)> {
        let peers = self.memory.peers()?;
        // The tag is the code's low bits; mixed, so that each node owns an even share.
        let owner = ((tag.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % peers.nodes() as u64) as usize;
        (owner != peers.node()).then_some((peers, owner))
    }

    /// Stores entry `word`, whose tag is `tag`, in bucket `index` as [`Compact::store`] says.
    #[inline]
    fn place(&self, index: usize, tag: u64, word: u64) {
        let bucket = self.bucket(index);
        let words: [u64; WAYS] = std::array::from_fn(|i| bucket.0[i].load(Ordering::Relaxed));
        for (way, new) in placement(&words, tag, word).into_iter().flatten() {
            bucket.0[way].store(new, Ordering::Relaxed);
        }
    }
}

/// The writes (entry, word) that store entry `word` of tag `tag` into a bucket holding
/// `words`, as [`Compact::store`] says.
#[inline]
fn placement(words: &[u64; WAYS], tag: u64, word: u64) -> [Option<(usize, u64)>; 2] {
    if let Some(slot) = words.iter().position(|&w| holds(w, tag)) {
        return [Some((slot, word)), None];
    }
    let cost = |i: usize| if words[i] & IN_USE == 0 { -1 } else { work_of(words[i]) as i32 };
    let kept = (0..KEPT).min_by_key(|&i| cost(i)).unwrap_or(0);
    let always = (KEPT..WAYS).min_by_key(|&i| cost(i)).unwrap_or(KEPT);
    if cost(kept) <= work_of(word) as i32 {
        // The costlier result takes the kept entry; the one it displaces moves down.
        [Some((always, words[kept])), Some((kept, word))]
    } else {
        [Some((always, word)), None]
    }
}

impl Compact {
    /// Stores every entry of `self` into `larger` where `recode` (from a code of this table's
    /// geometry to one of `larger`'s) sends it: how a table hands its results to the next
    /// stage. Entries written meanwhile by other threads may be lost, never mixed up.
    pub fn move_into(&self, larger: &Compact, recode: impl Fn(u64) -> u64) {
        for index in 0..self.geometry.buckets {
            for entry in &self.bucket(index).0 {
                let word = entry.load(Ordering::Relaxed);
                if word & IN_USE != 0 {
                    let (at, tag) = larger.geometry.locate(recode(self.geometry.code_of(index, word >> TAG_SHIFT)));
                    larger.place(at, tag, tag << TAG_SHIFT | word & ((1 << TAG_SHIFT) - 1));
                }
            }
        }
    }

    /// Gives the memory back to the system: on Linux every entry reads as unused from then on
    /// (elsewhere the entries stay, each still true of its board).
    pub fn release(&self) {
        self.memory.release();
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
    fn bucket_and_tag_give_back_the_code_at_any_number_of_buckets() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        // Tiny tables, odd ones, powers of two and their neighbours, and tables whose code
        // width is capped at 64 bits (2^25 buckets and more: 2 GiB).
        for buckets in [1usize, 2, 3, 5, 7, 100, 1000, 4095, 4096, 4097, 1_638_400, (257 << 20) / 64, 3 << 24, (1 << 25) + 1, 5 << 28] {
            let geometry = Geometry::new(buckets);
            let width = geometry.code_width();
            assert!(width <= 64 && width <= buckets.ilog2() + TAG_BITS);
            let top = u64::MAX >> (64 - width);
            let mut used = vec![false; buckets.min(1000)];
            let edges = (0..64u64).flat_map(|i| {
                // The first and last codes of some buckets' runs.
                let b = (i as u128 * buckets as u128 / 64) as usize;
                let first = ((b as u128) << width).div_ceil(buckets as u128) as u64;
                [first, first.wrapping_sub(1) & top, first + 1]
            });
            for code in edges.chain([0, top]).chain((0..20_000).map(|_| rng.r#gen::<u64>() & top)) {
                let (bucket, tag) = geometry.locate(code);
                assert!(bucket < buckets && tag < 1 << TAG_BITS, "{buckets} buckets, code {code}");
                assert_eq!(geometry.code_of(bucket, tag), code, "{buckets} buckets");
                if buckets <= used.len() {
                    used[bucket] = true;
                }
            }
            if buckets <= used.len() {
                assert!(used.iter().all(|&u| u), "{buckets} buckets: random codes reach every bucket");
            }
        }
    }

    #[test]
    fn entries_move_to_a_larger_table_under_their_new_codes() {
        // 3 buckets to 7: the code is kept (the identity as the recoding), the bucket changes.
        let (small, large) = (Compact::new(3 * 64, None), Compact::new(7 * 64 + 40, None));
        assert_eq!((small.bytes(), large.bytes()), (3 * 64, 7 * 64));
        let codes: Vec<u64> = (0..12u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - small.geometry().code_width())).collect();
        let bounds = |i: usize| Bounds { lower: -(i as i16 % 4) * 2, upper: 8, mv: Some(i as u8 % 6), work: i as u8 };
        for (i, &code) in codes.iter().enumerate() {
            let (bucket, tag) = small.geometry().locate(code);
            small.store(bucket, tag, 8, bounds(i));
        }
        small.move_into(&large, |code| code);
        for (i, &code) in codes.iter().enumerate() {
            let (bucket, tag) = large.geometry().locate(code);
            assert_eq!(large.probe(bucket, tag, 8), Some(bounds(i)), "code {code}");
        }
        small.release();
        #[cfg(target_os = "linux")]
        assert!(codes.iter().all(|&code| {
            let (bucket, tag) = small.geometry().locate(code);
            small.probe(bucket, tag, 8).is_none()
        }));
    }

    #[test]
    fn bounds_off_the_parity_or_the_range_do_not_pack() {
        for (lower, upper) in [(-1, 2), (0, 3), (-6, 4), (2, 6)] {
            assert_eq!(pack(1, 4, Bounds { lower, upper, mv: None, work: 0 }), None, "[{lower}, {upper}] of 4 seeds");
        }
        assert_eq!(pack(1, 4, Bounds { lower: 0, upper: 0, mv: Some(15), work: 0 }), None);
    }
}
