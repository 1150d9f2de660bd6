//! A tier already on disk, loaded by the ranks of a partitioned build: each rank decodes only
//! its own blocks of the file into its shard. A block of format 2 decodes against the
//! lower-tier values of its positions' successors, which other ranks own: a rank asks their
//! owners for them, a block a round (every rank takes part in as many rounds as the rank with
//! the most blocks). The file's checksum covers every block: the ranks exchange their blocks'
//! checksums and each checks the whole. A tier with a memory image beside it (written by the
//! one-process build or load that made it) is read from the image instead, each rank its own
//! blocks, and checked the same way; the ranks decode only if one of them cannot.

use std::path::Path;

use mpi::collective::CommunicatorCollectives;

use dakon_solver::tables::format::checksum;
use dakon_solver::tables::{
    foreign_leaves, CompactTier, FetchedTier, ImageRanges, OwnTiers, ShardMap, SuccessorKey, TableError, TableFile,
};
use dakon_solver::tier_layout::TierLayout;

use crate::cluster::Cluster;
use crate::shard_file::gather_block_words;
use crate::successor_exchange::SuccessorExchange;

/// Decodes this rank's blocks of tier `seeds`, `file` (whose header was checked), against
/// the shards of the lower tiers in `own`, and adds the tier's shard to `own`. Every rank must
/// call it.
///
/// # Errors
/// [`TableError::Corrupt`] naming `path` if a block does not decode or the checksums differ
/// from the header's, and a failed exchange.
pub(crate) fn load_own_blocks<R: TierLayout>(
    cluster: &Cluster,
    pool: &rayon::ThreadPool,
    exchange: &mut SuccessorExchange<'_>,
    rules: &R,
    path: &Path,
    file: &TableFile,
    own: &mut OwnTiers,
) -> Result<(), TableError> {
    let map = own.map();
    let seeds = file.header().seeds;
    let entries = file.header().entries;
    if let Some(values) = own_blocks_from_image(cluster, file, &map)? {
        let shard = pool
            .install(|| CompactTier::from_values(seeds, &values))
            .map_err(|e| TableError::Corrupt { path: path.into(), detail: e.to_string() })?;
        own.push(shard);
        return Ok(());
    }
    let blocks: Vec<u64> = map.blocks(entries).collect();
    // As many rounds as the rank with the most blocks, rank 0, has blocks.
    let rounds = ShardMap::new(0, map.ranks()).blocks(entries).count();
    let mut values = Vec::with_capacity(map.count(entries) as usize);
    let mut checksums = Vec::with_capacity(blocks.len());
    for round in 0..rounds {
        let block = blocks.get(round).copied();
        let asked: Vec<Vec<SuccessorKey>> = match block {
            Some(b) => {
                let first = b * map.block() as u64;
                let keys = pool.install(|| foreign_leaves(rules, map, seeds, first, file.header().block_len(b)));
                let mut asked = vec![Vec::new(); map.ranks()];
                for key in keys {
                    asked[map.owner(key.index())].push(key);
                }
                asked
            }
            None => vec![Vec::new(); map.ranks()],
        };
        let answers = exchange.fetch(pool, seeds, &asked, |keys, values| {
            for (value, &key) in values.iter_mut().zip(keys) {
                *value = own.value(SuccessorKey(key)) as u8;
            }
            Ok(())
        })?;
        let Some(b) = block else { continue };
        let mut fetched: Vec<(SuccessorKey, i8)> = asked.into_iter().flatten().zip(answers.into_iter().flatten()).collect();
        fetched.sort_unstable_by_key(|&(k, _)| k);
        let lower: Vec<FetchedTier<'_>> = (0..seeds).map(|j| FetchedTier::new(j, own, &fetched)).collect();
        let decoded = file.decode_block(rules, b as usize, &lower)?;
        checksums.push(checksum(&decoded));
        values.extend_from_slice(&decoded);
    }
    let all = gather_block_words(cluster, seeds, entries, &checksums, 1)?;
    file.check_block_checksums(&all)?;
    let shard = pool
        .install(|| CompactTier::from_values(seeds, &values))
        .map_err(|e| TableError::Corrupt { path: path.into(), detail: e.to_string() })?;
    drop(values);
    own.push(shard);
    Ok(())
}

/// This rank's blocks of `file`, in order, read from the tier's memory image, if every rank
/// read its own and together their values make the file's checksum; `None`, on every rank
/// alike, if not (the ranks then decode the file).
///
/// # Errors
/// A failed exchange.
fn own_blocks_from_image(cluster: &Cluster, file: &TableFile, map: &ShardMap) -> Result<Option<Vec<u8>>, TableError> {
    let header = file.header();
    let read = || -> Result<(Vec<u8>, Vec<u64>), String> {
        let mut image = ImageRanges::open(file)?;
        let (mut values, mut checksums) = (Vec::with_capacity(map.count(header.entries) as usize), Vec::new());
        for block in map.blocks(header.entries) {
            let block_values = image.values(block * u64::from(header.block_entries), header.block_len(block))?;
            checksums.push(checksum(&block_values));
            values.extend_from_slice(&block_values);
        }
        Ok((values, checksums))
    };
    let mine = read().ok();
    let mut everyone = vec![0u64; cluster.size()];
    cluster.all_arrived().all_gather_into(&u64::from(mine.is_some()), &mut everyone[..]);
    let Some((values, checksums)) = mine.filter(|_| everyone.iter().all(|&read| read == 1)) else { return Ok(None) };
    let all = gather_block_words(cluster, header.seeds, header.entries, &checksums, 1)?;
    Ok(file.check_block_checksums(&all).is_ok().then_some(values))
}
