//! Which process of a build partitioned among processes (`dakon-mpi`) owns which positions of
//! a tier, and the finished tiers' shards it keeps.
//!
//! The unit of ownership is a file block ([`BLOCK_ENTRIES`] positions): block `b` of every tier
//! belongs to rank `b mod N`. One map serves the build (who solves a position, who answers for
//! its value), the files (each rank encodes and writes its own blocks of the one file a
//! one-process build writes) and the readers (who load a tier's blocks into memory). Blocks
//! dealt in turn give every rank about the same share of every level of
//! [`BuildSchedule::tier_order`](crate::build_schedule::BuildSchedule::tier_order), which a contiguous range would not
//! (the index orders boards by where their seeds lie).
//!
//! A rank numbers its own positions one after another, block by block: its `k`-th block's
//! positions are `k * BLOCK_ENTRIES..`, so its shard of a tier is one array (or one
//! [`CompactTier`] grouped by file block).

use super::compact::{CompactTier, TierValues, LINE_POSITIONS};
use super::format::BLOCK_ENTRIES;
use super::predict::for_each_leave;
use crate::tier_layout::TierLayout;

/// The blocks of every tier owned by rank `rank` of `ranks`.
///
/// Every successor of a partitioned build is asked its owner and its place, so the map finds
/// a block without a division: a block is [`LINE_POSITIONS`] times a power of two positions
/// (a constant divisor and a shift), and a block's rank by a multiplication by `ranks`'s
/// reciprocal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardMap {
    rank: u64,
    ranks: u64,
    /// Positions a block: [`BLOCK_ENTRIES`], smaller in tests (a multiple of the compact
    /// tier's line): `LINE_POSITIONS << block_shift`.
    block: u64,
    block_shift: u32,
    /// `ceil(2^64 / ranks)` (zero for one rank): divides a block number below `2^32` by
    /// `ranks` exactly ([`ShardMap::split`]).
    reciprocal: u64,
}

impl ShardMap {
    /// Rank `rank`'s map in a build of `ranks` ranks.
    ///
    /// # Panics
    /// If `rank` is not below `ranks`.
    pub fn new(rank: usize, ranks: usize) -> ShardMap {
        ShardMap::with_block(rank, ranks, u64::from(BLOCK_ENTRIES))
    }

    /// A map of blocks of `block` positions, so that small tiers spread over the ranks in tests.
    ///
    /// # Panics
    /// Also if `block` is not [`LINE_POSITIONS`] times a power of two.
    pub(crate) fn with_block(rank: usize, ranks: usize, block: u64) -> ShardMap {
        assert!(rank < ranks, "rank {rank} of {ranks}");
        let lines = block / LINE_POSITIONS as u64;
        assert!(block % LINE_POSITIONS as u64 == 0 && lines.is_power_of_two(), "a block of {block} positions");
        let reciprocal = (u64::MAX / ranks as u64).wrapping_add(1);
        ShardMap { rank: rank as u64, ranks: ranks as u64, block, block_shift: lines.trailing_zeros(), reciprocal }
    }

    /// The block of position `index` split into its round and its rank: `(b / ranks, b %
    /// ranks)` of the block number `b`, with `b`. Exact by the reciprocal for a block number
    /// below `2^32` (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019),
    /// by division beyond.
    #[inline]
    fn split(&self, index: u64) -> (u64, u64, u64) {
        let b = (index >> self.block_shift) / LINE_POSITIONS as u64;
        if b >> 32 != 0 || self.ranks == 1 {
            return (b / self.ranks, b % self.ranks, b);
        }
        let fraction = self.reciprocal.wrapping_mul(b);
        let round = ((u128::from(self.reciprocal) * u128::from(b)) >> 64) as u64;
        let rank = ((u128::from(fraction) * u128::from(self.ranks)) >> 64) as u64;
        (round, rank, b)
    }

    /// Positions a block of ownership (and of the tier files).
    pub fn block(&self) -> usize {
        self.block as usize
    }

    /// This rank.
    pub fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The ranks of the build.
    pub fn ranks(&self) -> usize {
        self.ranks as usize
    }

    /// The rank that owns position `index` (of any tier).
    #[inline]
    pub fn owner(&self, index: u64) -> usize {
        self.split(index).1 as usize
    }

    /// Whether this rank owns position `index`.
    #[inline]
    pub fn owns(&self, index: u64) -> bool {
        self.split(index).1 == self.rank
    }

    /// The place of position `index`, which this rank owns, among this rank's positions.
    #[inline]
    pub fn local(&self, index: u64) -> u64 {
        self.place(index).1
    }

    /// The owner of position `index` and, if that is this rank, its [`ShardMap::local`]
    /// place, from one split of its block: a round asks both of every successor.
    #[inline]
    pub fn place(&self, index: u64) -> (usize, u64) {
        let (round, rank, b) = self.split(index);
        (rank as usize, round * self.block + (index - b * self.block))
    }

    /// The tier index of this rank's position `local`.
    #[inline]
    pub fn global(&self, local: u64) -> u64 {
        (local / self.block * self.ranks + self.rank) * self.block + local % self.block
    }

    /// The file blocks of a tier of `entries` positions that this rank owns, in order.
    pub fn blocks(&self, entries: u64) -> impl Iterator<Item = u64> + Clone + use<> {
        (self.rank..entries.div_ceil(self.block)).step_by(self.ranks as usize)
    }

    /// How many positions of a tier of `entries` this rank owns.
    pub fn count(&self, entries: u64) -> u64 {
        self.count_of(self.rank, entries)
    }

    /// How many positions of a tier of `entries` the rank owning the most holds: what the
    /// memory of each rank must hold.
    pub fn largest_count(&self, entries: u64) -> u64 {
        self.count_of(0, entries)
    }

    fn count_of(&self, rank: u64, entries: u64) -> u64 {
        let blocks = entries.div_ceil(self.block);
        let full = blocks / self.ranks + u64::from(blocks % self.ranks > rank);
        let last = blocks.saturating_sub(1);
        let short = if blocks > 0 && last % self.ranks == rank { blocks * self.block - entries } else { 0 };
        full * self.block - short
    }
}

/// The tag of a successor: its tier in the top byte, its index below. Tiers of one-byte
/// values have at most 127 seeds and no tier has `2^56` positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SuccessorKey(pub u64);

impl SuccessorKey {
    /// Position `index` of tier `seeds`.
    #[inline]
    pub fn new(seeds: u32, index: u64) -> SuccessorKey {
        debug_assert!(seeds < 128 && index < 1 << 56);
        SuccessorKey(u64::from(seeds) << 56 | index)
    }

    /// Its tier.
    #[inline]
    pub fn seeds(self) -> u32 {
        (self.0 >> 56) as u32
    }

    /// Its index in the tier.
    #[inline]
    pub fn index(self) -> u64 {
        self.0 & ((1 << 56) - 1)
    }
}

/// This rank's shards of the finished tiers `0..len()`, each packed as one process keeps a
/// tier for probing ([`CompactTier`], under 4 bits a position).
pub struct OwnTiers {
    map: ShardMap,
    tiers: Vec<CompactTier>,
}

impl OwnTiers {
    /// No tier yet.
    pub fn new(map: ShardMap) -> OwnTiers {
        OwnTiers { map, tiers: Vec::new() }
    }

    /// The ownership map.
    pub fn map(&self) -> ShardMap {
        self.map
    }

    /// The tiers held: `0..len()`.
    pub fn len(&self) -> u32 {
        self.tiers.len() as u32
    }

    /// Whether no tier is held.
    pub fn is_empty(&self) -> bool {
        self.tiers.is_empty()
    }

    /// Adds the next tier's shard.
    pub fn push(&mut self, shard: CompactTier) {
        self.tiers.push(shard);
    }

    /// The bytes the shards hold.
    pub fn bytes(&self) -> u64 {
        self.tiers.iter().map(CompactTier::bytes).sum()
    }

    /// The value of `key`, a position of a held tier that this rank owns.
    #[inline]
    pub fn value(&self, key: SuccessorKey) -> i8 {
        debug_assert!(self.map.owns(key.index()));
        self.value_at_local(key.seeds(), self.map.local(key.index()))
    }

    /// The value of this rank's position `local` ([`ShardMap::local`]) of held tier `seeds`.
    #[inline]
    pub fn value_at_local(&self, seeds: u32, local: u64) -> i8 {
        self.tiers[seeds as usize].value_at(local)
    }

    /// Requests the cache line that [`OwnTiers::value_at_local`] of the same place will read.
    #[inline]
    pub fn prefetch_local(&self, seeds: u32, local: u64) {
        self.tiers[seeds as usize].prefetch(local);
    }
}

/// The lower-tier successors of the positions `first..first + len` of tier `seeds` that
/// other ranks than `map`'s own, sorted and without repeats: what decoding those positions'
/// block from a file of format 2 needs from them.
pub fn foreign_leaves<R: TierLayout>(rules: &R, map: ShardMap, seeds: u32, first: u64, len: usize) -> Vec<SuccessorKey> {
    let mut keys = Vec::new();
    for_each_leave(rules, seeds, first, len, |next_seeds, index| {
        if !map.owns(index) {
            keys.push(SuccessorKey::new(next_seeds, index));
        }
    });
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// A lower tier as a decoder of a tier's blocks reads it ([`TierValues`]): this rank's own
/// positions from its shard, the others' from the values their owners answered.
pub struct FetchedTier<'a> {
    seeds: u32,
    own: &'a OwnTiers,
    /// The other ranks' positions asked for, with their values, sorted by key.
    fetched: &'a [(SuccessorKey, i8)],
}

impl<'a> FetchedTier<'a> {
    /// Tier `seeds` of `own`, with `fetched` (sorted by key) for the positions others own.
    pub fn new(seeds: u32, own: &'a OwnTiers, fetched: &'a [(SuccessorKey, i8)]) -> FetchedTier<'a> {
        FetchedTier { seeds, own, fetched }
    }
}

impl TierValues for FetchedTier<'_> {
    /// # Panics
    /// If a position another rank owns was not fetched: the caller asked for every successor
    /// of the block being decoded.
    fn value_at(&self, index: u64) -> i8 {
        let key = SuccessorKey::new(self.seeds, index);
        if self.own.map.owns(index) {
            return self.own.value(key);
        }
        let at = self
            .fetched
            .binary_search_by_key(&key, |&(k, _)| k)
            .unwrap_or_else(|_| panic!("position {index} of tier {} not fetched", self.seeds));
        self.fetched[at].1
    }

    fn prefetch(&self, _index: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranks_own_every_position_once_and_number_theirs_in_order() {
        const BLOCK: u64 = 147 * 2;
        for entries in [0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 5 * BLOCK + 17, 12 * BLOCK] {
            for ranks in 1..=5 {
                let mut owned = Vec::new();
                for rank in 0..ranks {
                    let map = ShardMap::with_block(rank, ranks, BLOCK);
                    assert!(map.count(entries) <= map.largest_count(entries));
                    let mine: Vec<u64> = (0..map.count(entries)).map(|k| map.global(k)).collect();
                    assert!(mine.windows(2).all(|w| w[0] < w[1]));
                    for (k, &index) in mine.iter().enumerate() {
                        assert_eq!((map.owner(index), map.local(index)), (rank, k as u64));
                    }
                    let from_blocks: Vec<u64> = map.blocks(entries).flat_map(|b| b * BLOCK..((b + 1) * BLOCK).min(entries)).collect();
                    assert_eq!(from_blocks, mine);
                    owned.extend(mine);
                }
                owned.sort_unstable();
                assert_eq!(owned, (0..entries).collect::<Vec<_>>(), "{entries} positions, {ranks} ranks");
            }
        }
    }

    #[test]
    fn owners_and_places_by_reciprocal_are_those_by_division() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for ranks in [1, 2, 3, 4, 5, 7, 8, 64, 1000, 4097] {
            for block in [147, 147 * 2, u64::from(BLOCK_ENTRIES)] {
                for rank in [0, ranks / 2, ranks - 1] {
                    let map = ShardMap::with_block(rank, ranks, block);
                    for shift in [8, 20, 32, 44, 55].into_iter().cycle().take(250) {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        let index = state >> (64 - shift);
                        let (b, r) = (index / block, ranks as u64);
                        assert_eq!(map.owner(index) as u64, b % r, "{index} of {ranks} ranks, blocks of {block}");
                        if map.owns(index) {
                            assert_eq!(map.local(index), b / r * block + index % block);
                            assert_eq!(map.global(map.local(index)), index);
                        }
                        assert_eq!(map.owns(index), b % r == rank as u64);
                    }
                }
            }
        }
    }

    #[test]
    fn a_key_keeps_its_tier_and_index() {
        let key = SuccessorKey::new(127, (1 << 56) - 1);
        assert_eq!((key.seeds(), key.index()), (127, (1 << 56) - 1));
        assert!(SuccessorKey::new(3, 9) < SuccessorKey::new(4, 0));
    }
}
