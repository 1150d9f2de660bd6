//! Which rank solves which positions of a tier.

/// Positions dealt out to the ranks in blocks: a rank that owned one contiguous range would
/// own mostly high or mostly low levels of `tier_order` (the index orders boards by where
/// their seeds lie), and the ranks would wait for each other at every level. Blocks dealt in
/// turn give every rank about the same share of every level. A rank's positions
/// `k * BLOCK..(k + 1) * BLOCK`, numbered as [`Ownership::index`] numbers them, are one block:
/// consecutive indices of the tier.
pub(crate) const BLOCK: u64 = 4096;

/// The positions of a tier of `size` owned by `rank` of `ranks`: block `b` (positions
/// `b * BLOCK..(b + 1) * BLOCK`) belongs to rank `b % ranks`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ownership {
    rank: u64,
    ranks: u64,
    size: u64,
}

impl Ownership {
    pub(crate) fn new(rank: usize, ranks: usize, size: u64) -> Self {
        debug_assert!(rank < ranks);
        Ownership { rank: rank as u64, ranks: ranks as u64, size }
    }

    /// How many positions this rank owns.
    pub(crate) fn count(&self) -> u64 {
        let blocks = self.size.div_ceil(BLOCK);
        let mine = blocks / self.ranks + u64::from(blocks % self.ranks > self.rank);
        let last_block = blocks.saturating_sub(1);
        let short = if blocks > 0 && last_block % self.ranks == self.rank { blocks * BLOCK - self.size } else { 0 };
        mine * BLOCK - short
    }

    /// The tier index of this rank's `k`-th position (`k < count()`), increasing in `k`.
    pub(crate) fn index(&self, k: u64) -> u64 {
        (k / BLOCK * self.ranks + self.rank) * BLOCK + k % BLOCK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranks_own_every_position_once() {
        for size in [0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 5 * BLOCK + 17, 12 * BLOCK] {
            for ranks in 1..=5 {
                let mut owned: Vec<u64> = (0..ranks)
                    .flat_map(|r| {
                        let own = Ownership::new(r, ranks, size);
                        (0..own.count()).map(move |k| own.index(k))
                    })
                    .collect();
                owned.sort_unstable();
                assert_eq!(owned, (0..size).collect::<Vec<_>>(), "size {size}, {ranks} ranks");
            }
        }
    }
}
