//! The compact layout: a board's entry under a tag of its short code, in a 64-byte bucket
//! of one of two formats.
//!
//! A board's scrambled short code (see `code`) of `width` bits gives the bucket by a
//! multiply-shift, `code * buckets / 2^width`, so that any number of buckets serves, and the
//! tag is the code's low `tag bits` bits: the codes of one bucket are consecutive numbers,
//! at most `2^tag bits` of them while `width <= log2(buckets) + tag bits`, so bucket and tag
//! give back the code (see [`Geometry`]).
//!
//! The formats ([`Layout`]):
//! - **words** ([`Words`]): eight entries a bucket, each one 64-bit atomic word holding a
//!   40-bit tag beside its data, written and read whole: no lock, no sequence number, and a
//!   probe cannot see half of one store and half of another. Two writers racing on one bucket
//!   may both write (the later word wins a slot) or leave two entries of one board; either
//!   entry is a proof about that board:
//!
//!   ```text
//!   bit 63          24  23    22..18  17..14  13..7        6..0
//!       | tag (40)    | used | work  | move  | (upper+k)/2 | (lower+k)/2 |
//!   ```
//! - **packed** (`packed`): ten 50-bit entries a bucket under a sequence number, with a
//!   28-bit tag, for boards of at most 6 holes a row in a table large enough that 28 bits
//!   beside the bucket give the whole code.
//!
//! Bounds of a future gain have the parity of the `k` seeds on the board, so `(v + k) / 2`
//! is an integer in `0..=k` and 7 bits hold it for `k <= 127`; the probe is told `k`.

use std::sync::atomic::{AtomicU64, Ordering};

use super::code::MAX_SEEDS;
use super::packed::Packed;
use super::Bounds;
use crate::peer_region::PeerRegion;
use crate::search_memory::{Memory, SearchMemory};

/// Most entries a bucket of any format holds.
pub(crate) const WAYS_MAX: usize = 10;
/// Entries that keep the costliest results; the others take every new one, over the least
/// costly of them (see [`Compact::store`]).
const KEPT: usize = 1;

#[repr(C, align(64))]
pub(crate) struct Bucket(pub(crate) [AtomicU64; 8]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// An entry's data beside its tag: the bounds as the offsets `(v + k) / 2` (see the
/// [module documentation](self)), the move and the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fields {
    pub lower: u64,
    pub upper: u64,
    pub mv: Option<u8>,
    /// log2 of the nodes the proof cost, at most [`WORK_MAX`].
    pub work: u8,
}

/// Most work an entry records.
pub(crate) const WORK_MAX: u8 = 31;
/// Bits of a bound's offset.
pub(crate) const OFFSET_BITS: u32 = 7;

impl Fields {
    /// The fields of `bounds` of a board with `seeds` seeds; `None` if a bound is not of the
    /// seeds' parity within `[-seeds, seeds]`.
    fn of(seeds: u32, bounds: Bounds) -> Option<Fields> {
        debug_assert!(seeds <= MAX_SEEDS);
        let k = seeds as i32;
        let offset = |v: i16| {
            let v = v as i32;
            ((-k..=k).contains(&v) && (v + k) % 2 == 0).then_some(((v + k) / 2) as u64)
        };
        Some(Fields { lower: offset(bounds.lower)?, upper: offset(bounds.upper)?, mv: bounds.mv, work: bounds.work.min(WORK_MAX) })
    }

    /// The bounds these fields give a board with `seeds` seeds.
    fn bounds(self, seeds: u32) -> Bounds {
        let bound = |offset: u64| (2 * offset as i32 - seeds as i32) as i16;
        Bounds { lower: bound(self.lower), upper: bound(self.upper), mv: self.mv, work: self.work }
    }
}

/// A bucket format: how entries are packed, read and written.
pub(crate) trait Format {
    /// Entries a bucket.
    const WAYS: usize;
    /// Bits of an entry's tag.
    const TAG_BITS: u32;
    /// The entry of `fields` under tag `tag`; `None` if the move does not fit.
    fn encode(tag: u64, fields: Fields) -> Option<u64>;
    /// The fields of an entry in use.
    fn decode(entry: u64) -> Fields;
    /// Whether `entry` is in use and holds `tag`.
    fn holds(entry: u64, tag: u64) -> bool;
    /// Whether `entry` is in use.
    fn in_use(entry: u64) -> bool;
    /// log2 of the work the entry's proof cost.
    fn work_of(entry: u64) -> u8;
    /// The tag of an entry in use.
    fn tag_of(entry: u64) -> u64;
    /// The bucket's entries (the first [`Format::WAYS`]), or `None` if a writer was busy
    /// with it meanwhile.
    fn read(bucket: &Bucket) -> Option<[u64; WAYS_MAX]>;
    /// Makes the writes `change` asks for, given the bucket's entries (or none, dropping the
    /// store, if another writer holds the bucket).
    fn write(bucket: &Bucket, change: impl FnOnce(&[u64; WAYS_MAX]) -> [Option<(usize, u64)>; 2]);
}

/// The entry of `bounds` of a board with tag `tag` and `seeds` seeds in format `F`; `None`
/// if the bounds are not of the seeds' parity within `[-seeds, seeds]` or the move does not
/// fit.
pub(crate) fn pack<F: Format>(tag: u64, seeds: u32, bounds: Bounds) -> Option<u64> {
    F::encode(tag, Fields::of(seeds, bounds)?)
}

/// The bounds in entry `entry` (in use, of format `F`) of a board with `seeds` seeds.
#[inline]
pub(crate) fn unpack<F: Format>(entry: u64, seeds: u32) -> Bounds {
    F::decode(entry).bounds(seeds)
}

/// The word format: one atomic 64-bit word an entry (see the [module documentation](self)).
pub(crate) struct Words;

const WORD_TAG_BITS: u32 = 40;
const MOVE_SHIFT: u32 = 2 * OFFSET_BITS;
const NO_MOVE: u64 = 15;
const WORK_SHIFT: u32 = MOVE_SHIFT + 4;
const IN_USE: u64 = 1 << 23;
const TAG_SHIFT: u32 = 64 - WORD_TAG_BITS;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

const _: () = assert!(IN_USE == 1 << (TAG_SHIFT - 1));

impl Format for Words {
    const WAYS: usize = 8;
    const TAG_BITS: u32 = WORD_TAG_BITS;

    fn encode(tag: u64, fields: Fields) -> Option<u64> {
        let mv = match fields.mv {
            Some(mv) if (mv as u64) < NO_MOVE => mv as u64,
            Some(_) => return None,
            None => NO_MOVE,
        };
        Some(tag << TAG_SHIFT | IN_USE | (fields.work as u64) << WORK_SHIFT | mv << MOVE_SHIFT | fields.upper << OFFSET_BITS | fields.lower)
    }

    #[inline(always)]
    fn decode(word: u64) -> Fields {
        let mv = (word >> MOVE_SHIFT) & 15;
        Fields {
            lower: word & OFFSET_MASK,
            upper: (word >> OFFSET_BITS) & OFFSET_MASK,
            mv: (mv != NO_MOVE).then_some(mv as u8),
            work: Self::work_of(word),
        }
    }

    /// The in-use bit sits just below the tag, so one shift and one comparison test both.
    #[inline(always)]
    fn holds(word: u64, tag: u64) -> bool {
        word >> (TAG_SHIFT - 1) == (tag << 1 | 1)
    }

    #[inline(always)]
    fn in_use(word: u64) -> bool {
        word & IN_USE != 0
    }

    #[inline(always)]
    fn work_of(word: u64) -> u8 {
        ((word >> WORK_SHIFT) as u8) & WORK_MAX
    }

    #[inline(always)]
    fn tag_of(word: u64) -> u64 {
        word >> TAG_SHIFT
    }

    #[inline(always)]
    fn read(bucket: &Bucket) -> Option<[u64; WAYS_MAX]> {
        Some(std::array::from_fn(|i| if i < Self::WAYS { bucket.0[i].load(Ordering::Relaxed) } else { 0 }))
    }

    #[inline]
    fn write(bucket: &Bucket, change: impl FnOnce(&[u64; WAYS_MAX]) -> [Option<(usize, u64)>; 2]) {
        let words = Self::read(bucket).unwrap_or([0; WAYS_MAX]);
        for (way, new) in change(&words).into_iter().flatten() {
            bucket.0[way].store(new, Ordering::Relaxed);
        }
    }
}

/// The bucket format of a compact table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// [`Words`].
    Words,
    /// `packed::Packed`.
    Packed,
}

impl Layout {
    /// Bits of the tag.
    pub fn tag_bits(self) -> u32 {
        match self {
            Layout::Words => Words::TAG_BITS,
            Layout::Packed => Packed::TAG_BITS,
        }
    }

    /// Entries a bucket.
    pub fn ways(self) -> usize {
        match self {
            Layout::Words => Words::WAYS,
            Layout::Packed => Packed::WAYS,
        }
    }

    /// Whether the format holds every move of boards of `holes` holes a row.
    pub fn holds_moves_of(self, holes: u32) -> bool {
        match self {
            Layout::Words => holes < NO_MOVE as u32,
            Layout::Packed => holes <= super::packed::MOVES as u32,
        }
    }
}

/// How a table of `buckets` buckets splits a short code into bucket and tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    buckets: usize,
    tag_bits: u32,
    /// Bits of the codes the table takes: `floor(log2(buckets)) + tag_bits`, at most 64.
    width: u32,
}

impl Geometry {
    /// The geometry of `buckets` (at least one) buckets of `layout`.
    pub fn new(buckets: usize, layout: Layout) -> Geometry {
        let buckets = buckets.max(1);
        let tag_bits = layout.tag_bits();
        Geometry { buckets, tag_bits, width: (buckets.ilog2() + tag_bits).min(64) }
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
        (bucket, code & ((1 << self.tag_bits) - 1))
    }

    /// The code that [`Geometry::locate`] sends to `bucket` and `tag`: the one number of the
    /// bucket's run of codes (from `ceil(bucket * 2^width / buckets)`, at most `2^tag_bits`
    /// long) whose low bits are the tag.
    pub fn code_of(self, bucket: usize, tag: u64) -> u64 {
        let first = ((bucket as u128) << self.width).div_ceil(self.buckets as u128) as u64;
        first.wrapping_add(tag.wrapping_sub(first) & ((1 << self.tag_bits) - 1))
    }
}

/// A fixed array of compact buckets.
pub(crate) struct Compact {
    /// The buckets' memory: zeroed (every entry unused), mapped as it is used.
    memory: Memory,
    layout: Layout,
    geometry: Geometry,
    /// Boards with at least this many seeds have their entry on the node that owns them when
    /// the memory has copies on other nodes (`u32::MAX` when it has none).
    shared_from: u32,
}

impl Compact {
    /// A table of `bytes / 64` buckets (at least one, any number) of `layout`, or of the word
    /// format whatever `layout` says if the memory has copies on other nodes (whose entries
    /// are read and written a word at a time).
    ///
    /// # Panics
    /// Aborts through [`std::alloc::handle_alloc_error`] if the memory cannot be allocated.
    pub fn new(bytes: usize, lender: Option<&dyn SearchMemory>, layout: Layout) -> Self {
        let buckets = Self::buckets_for(bytes);
        let memory = Memory::zeroed(std::mem::size_of::<Bucket>() * buckets, lender);
        let across_nodes = memory.peers().filter(|p| p.nodes() > 1);
        let shared_from = across_nodes.map_or(u32::MAX, |p| p.shared_from_seeds());
        let layout = if across_nodes.is_some() { Layout::Words } else { layout };
        Compact { memory, layout, geometry: Geometry::new(buckets, layout), shared_from }
    }

    /// The number of buckets `Compact::new(bytes, ..)` makes.
    pub fn buckets_for(bytes: usize) -> usize {
        (bytes / std::mem::size_of::<Bucket>()).max(1)
    }

    /// Bytes used by the table.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Bucket>() * self.geometry.buckets
    }

    /// Entries the table holds.
    pub fn entries(&self) -> usize {
        self.geometry.buckets * self.layout.ways()
    }

    /// How the table splits a code into bucket and tag.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The table's bucket format.
    pub fn layout(&self) -> Layout {
        self.layout
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
        match self.layout {
            Layout::Words => self.probe_in::<Words>(index, tag, seeds),
            Layout::Packed => self.probe_in::<Packed>(index, tag, seeds),
        }
    }

    #[inline(always)]
    fn probe_in<F: Format>(&self, index: usize, tag: u64, seeds: u32) -> Option<Bounds> {
        if seeds >= self.shared_from {
            if let Some((peers, owner)) = self.elsewhere(tag) {
                let mut words = [0; 8];
                peers.read(owner, index * 8, &mut words);
                return words.into_iter().find(|&word| Words::holds(word, tag)).map(|word| unpack::<Words>(word, seeds));
            }
        }
        let entries = F::read(self.bucket(index))?;
        entries[..F::WAYS].iter().copied().find(|&entry| F::holds(entry, tag)).map(|entry| unpack::<F>(entry, seeds))
    }

    /// Stores `bounds` in bucket `index` under `tag` (dropped if they do not fit, see
    /// [`pack`], or if another writer holds a packed bucket): over the board's own
    /// entry if it has one; else into the first entry if the result cost at least as much
    /// work as the one there (which then moves down), else over the least costly of the
    /// others (the first of equals).
    ///
    /// The kept entry is what saves most work; among the rest, the least costly giving way
    /// loses fewer nodes than the entry the tag picks at the table sizes the program runs with
    /// (the variants tried are in `docs/benchmarks/code-notes.md`).
    pub fn store(&self, index: usize, tag: u64, seeds: u32, bounds: Bounds) {
        match self.layout {
            Layout::Words => self.store_in::<Words>(index, tag, seeds, bounds),
            Layout::Packed => self.store_in::<Packed>(index, tag, seeds, bounds),
        }
    }

    #[inline(always)]
    fn store_in<F: Format>(&self, index: usize, tag: u64, seeds: u32, bounds: Bounds) {
        let Some(entry) = pack::<F>(tag, seeds, bounds) else {
            debug_assert!(false, "bounds {bounds:?} of a board of {seeds} seeds do not fit");
            return;
        };
        if seeds >= self.shared_from {
            if let Some((peers, owner)) = self.elsewhere(tag) {
                let mut words = [0; WAYS_MAX];
                peers.read(owner, index * 8, &mut words[..8]);
                // A word changed meanwhile keeps its new entry: only this store's work is lost.
                for (way, new) in placement::<Words>(&words, tag, entry).into_iter().flatten() {
                    peers.replace(owner, index * 8 + way, words[way], new);
                }
                return;
            }
        }
        F::write(self.bucket(index), |entries| placement::<F>(entries, tag, entry));
    }

    /// The other node that owns the entries of tag `tag`, with the memory's copies, if the
    /// memory has copies on other nodes and this node does not own the tag.
    #[inline(never)]
    fn elsewhere(&self, tag: u64) -> Option<(&dyn PeerRegion, usize)> {
        let peers = self.memory.peers()?;
        // The other nodes' copies are read and replaced a word an entry: `new` chose the word format.
        debug_assert_eq!(self.layout, Layout::Words);
        // The tag is the code's low bits; mixed, so that each node owns an even share.
        let owner = ((tag.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % peers.nodes() as u64) as usize;
        (owner != peers.node()).then_some((peers, owner))
    }
}

/// The writes (entry, new entry) that store `entry` of tag `tag` into a bucket of format `F`
/// holding `entries`, as [`Compact::store`] says.
#[inline(always)]
fn placement<F: Format>(entries: &[u64; WAYS_MAX], tag: u64, entry: u64) -> [Option<(usize, u64)>; 2] {
    let entries = &entries[..F::WAYS];
    if let Some(slot) = entries.iter().position(|&e| F::holds(e, tag)) {
        return [Some((slot, entry)), None];
    }
    let cost = |i: usize| if F::in_use(entries[i]) { F::work_of(entries[i]) as i32 } else { -1 };
    let kept = (0..KEPT).min_by_key(|&i| cost(i)).unwrap_or(0);
    let always = (KEPT..F::WAYS).min_by_key(|&i| cost(i)).unwrap_or(KEPT);
    if cost(kept) <= F::work_of(entry) as i32 {
        // The costlier result takes the kept entry; the one it displaces moves down.
        [Some((always, entries[kept])), Some((kept, entry))]
    } else {
        [Some((always, entry)), None]
    }
}

impl Compact {
    /// Stores every entry of `self` into `larger` where `recode` (from a code of this table's
    /// geometry to one of `larger`'s, `None` for a board `larger` does not number) sends it:
    /// how a table hands its results to the next stage. Entries written meanwhile by other
    /// threads may be lost, never mixed up.
    pub fn move_into(&self, larger: &Compact, recode: impl Fn(u64) -> Option<u64>) {
        match self.layout {
            Layout::Words => self.move_from::<Words>(larger, recode),
            Layout::Packed => self.move_from::<Packed>(larger, recode),
        }
    }

    fn move_from<F: Format>(&self, larger: &Compact, recode: impl Fn(u64) -> Option<u64>) {
        for index in 0..self.geometry.buckets {
            let Some(entries) = F::read(self.bucket(index)) else { continue };
            for &entry in entries[..F::WAYS].iter().filter(|&&e| F::in_use(e)) {
                let Some((at, tag)) = recode(self.geometry.code_of(index, F::tag_of(entry))).map(|code| larger.geometry.locate(code))
                else {
                    continue;
                };
                match larger.layout {
                    Layout::Words => larger.place::<Words>(at, tag, F::decode(entry)),
                    Layout::Packed => larger.place::<Packed>(at, tag, F::decode(entry)),
                }
            }
        }
    }

    /// Places an entry of `fields` under tag `tag` into bucket `at`, of format `G`, as
    /// [`Compact::store`] does.
    fn place<G: Format>(&self, at: usize, tag: u64, fields: Fields) {
        if let Some(entry) = G::encode(tag, fields) {
            G::write(self.bucket(at), |entries| placement::<G>(entries, tag, entry));
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
        let tag = (1 << Words::TAG_BITS) - 3;
        for seeds in [0u32, 1, 2, 48, 127] {
            let k = seeds as i16;
            for lower in (-k..=k).step_by(2) {
                for upper in [lower, k] {
                    for mv in [None, Some(0u8), Some(8), Some(14)] {
                        for work in [0u8, 1, 30, 31] {
                            let b = Bounds { lower, upper, mv, work };
                            let word = pack::<Words>(tag, seeds, b).unwrap();
                            assert!(Words::holds(word, tag) && !Words::holds(word, tag - 1));
                            assert_eq!(unpack::<Words>(word, seeds), b);
                        }
                    }
                }
            }
        }
        let b = Bounds { lower: 0, upper: 0, mv: None, work: 60 };
        assert_eq!(unpack::<Words>(pack::<Words>(0, 0, b).unwrap(), 0).work, WORK_MAX, "work saturates");
    }

    #[test]
    fn bucket_and_tag_give_back_the_code_at_any_number_of_buckets() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        // Tiny tables, odd ones, powers of two and their neighbours, and tables whose code
        // width is capped at 64 bits (2^25 buckets and more: 2 GiB).
        let sizes = [1usize, 2, 3, 5, 7, 100, 1000, 4095, 4096, 4097, 1_638_400, (257 << 20) / 64, 3 << 24, (1 << 25) + 1, 5 << 28];
        for (buckets, layout) in sizes.into_iter().flat_map(|b| [(b, Layout::Words), (b, Layout::Packed)]) {
            let geometry = Geometry::new(buckets, layout);
            let (width, tag_bits) = (geometry.code_width(), layout.tag_bits());
            assert!(width <= 64 && width <= buckets.ilog2() + tag_bits);
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
                assert!(bucket < buckets && tag < 1 << tag_bits, "{buckets} buckets, code {code}");
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
        // 3 buckets to 7: the code is kept (the identity as the recoding, but for the codes
        // the larger table is told not to number), the bucket changes; every pair of formats.
        for (from, to) in [
            (Layout::Words, Layout::Words),
            (Layout::Words, Layout::Packed),
            (Layout::Packed, Layout::Packed),
            (Layout::Packed, Layout::Words),
        ] {
            let (small, large) = (Compact::new(3 * 64, None, from), Compact::new(7 * 64 + 40, None, to));
            assert_eq!((small.bytes(), large.bytes(), small.entries()), (3 * 64, 7 * 64, 3 * from.ways()));
            // Eight codes below both widths: a word table of 3 buckets takes 41 bits, so all
            // of them may fall into its first bucket, and none is displaced there.
            let width = small.geometry().code_width().min(large.geometry().code_width());
            let codes: Vec<u64> = (0..8u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - width)).collect();
            let bounds = |i: usize| Bounds { lower: -(i as i16 % 4) * 2, upper: 8, mv: Some(i as u8 % 6), work: i as u8 };
            for (i, &code) in codes.iter().enumerate() {
                let (bucket, tag) = small.geometry().locate(code);
                small.store(bucket, tag, 8, bounds(i));
            }
            let dropped = codes[5];
            small.move_into(&large, |code| (code != dropped).then_some(code));
            for (i, &code) in codes.iter().enumerate() {
                let (bucket, tag) = large.geometry().locate(code);
                let expected = (code != dropped).then(|| bounds(i));
                assert_eq!(large.probe(bucket, tag, 8), expected, "{from:?} to {to:?}: code {code}");
            }
            small.release();
            #[cfg(target_os = "linux")]
            assert!(codes.iter().all(|&code| {
                let (bucket, tag) = small.geometry().locate(code);
                small.probe(bucket, tag, 8).is_none()
            }));
        }
    }

    #[test]
    fn a_packed_bucket_keeps_ten_boards_and_a_word_bucket_eight() {
        for layout in [Layout::Words, Layout::Packed] {
            let table = Compact::new(64, None, layout);
            let bounds = |tag: u64| Bounds { lower: -(tag as i16 % 5) * 2, upper: 10, mv: Some(tag as u8 % 6), work: 3 };
            for tag in 0..layout.ways() as u64 {
                table.store(0, tag, 10, bounds(tag));
            }
            assert!((0..layout.ways() as u64).all(|tag| table.probe(0, tag, 10) == Some(bounds(tag))), "{layout:?}");
            table.store(0, 99, 10, bounds(99));
            let kept = (0..layout.ways() as u64).filter(|&tag| table.probe(0, tag, 10).is_some()).count();
            assert_eq!((kept, table.probe(0, 99, 10)), (layout.ways() - 1, Some(bounds(99))), "{layout:?}: one gave way");
        }
    }

    #[test]
    fn a_held_packed_bucket_answers_nothing_and_drops_stores() {
        let table = Compact::new(64, None, Layout::Packed);
        let bounds = Bounds { lower: 2, upper: 4, mv: None, work: 1 };
        table.store(0, 7, 4, bounds);
        let word = table.bucket(0).0[0].load(Ordering::Relaxed);
        table.bucket(0).0[0].store(word | 1, Ordering::Relaxed);
        assert_eq!(table.probe(0, 7, 4), None, "held by a writer");
        table.store(0, 8, 4, bounds);
        table.bucket(0).0[0].store(word, Ordering::Relaxed);
        assert_eq!((table.probe(0, 7, 4), table.probe(0, 8, 4)), (Some(bounds), None));
    }

    #[test]
    fn bounds_off_the_parity_or_the_range_do_not_pack() {
        for (lower, upper) in [(-1, 2), (0, 3), (-6, 4), (2, 6)] {
            assert_eq!(pack::<Words>(1, 4, Bounds { lower, upper, mv: None, work: 0 }), None, "[{lower}, {upper}] of 4 seeds");
        }
        assert_eq!(pack::<Words>(1, 4, Bounds { lower: 0, upper: 0, mv: Some(15), work: 0 }), None);
    }
}
