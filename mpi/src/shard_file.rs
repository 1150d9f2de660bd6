//! The file of a tier that the ranks built partitioned: the one file a one-process build
//! writes, byte for byte, with nothing passing whole through one rank. Every rank encodes
//! its own blocks; the ranks exchange each block's values checksum and frame length (16
//! bytes a block), so that every rank knows the file's header and index and where each of
//! its frames goes; rank 0 sizes the file (`path.tmp`) and writes the header, every rank
//! writes its frames at their offsets (`pwrite`, 64-bit offsets) on the shared file system
//! and syncs them, and rank 0 renames the finished file into place. A failed write on any
//! rank fails the tier on every rank, and the final name never holds a partial file.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use dakon_solver::tables::{table_meta, EncodedBlock, ShardMap, TableError, TierShard};
use dakon_solver::tier_layout::TierLayout;
use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::traits::*;
use mpi::Count;
use rayon::prelude::*;

use crate::cluster::Cluster;
use crate::partition::{displacements, message_count};
use crate::phases::{timed, Phases};

/// Encodes this rank's blocks of `shard` (the solved tier `seeds` of `entries` positions) on
/// `pool` and writes them with the others' into `path`. Every rank must call it. Returns the
/// file's size.
///
/// # Errors
/// [`TableError::Io`] naming the file and the rank whose write failed (on every rank).
pub(crate) fn write_partitioned<R: TierLayout>(
    cluster: &Cluster,
    pool: &rayon::ThreadPool,
    rules: &R,
    path: &Path,
    shard: &TierShard,
    entries: u64,
    phases: &mut Phases,
) -> Result<u64, TableError> {
    let encoded: Vec<EncodedBlock> = timed(&mut phases.encode, || {
        pool.install(|| (0..shard.blocks()).into_par_iter().map(|k| shard.encode_block(path, k)).collect::<Result<_, TableError>>())
    })?;
    timed(&mut phases.write, || write_blocks(cluster, rules, path, shard.seeds(), entries, &encoded))
}

/// `words` numbers a block, of every block of a tier of `entries` positions in the file's
/// order, from each rank's own (`own`: its blocks' words, in order), on every rank.
///
/// # Errors
/// [`TableError::Shared`] if the message passes MPI's `int` counts.
pub(crate) fn gather_block_words(cluster: &Cluster, seeds: u32, entries: u64, own: &[u64], words: usize) -> Result<Vec<u64>, TableError> {
    let ranks = cluster.size();
    let maps: Vec<ShardMap> = (0..ranks).map(|r| ShardMap::new(r, ranks)).collect();
    let counts =
        maps.iter().map(|m| message_count((words * m.blocks(entries).count()) as u64, seeds)).collect::<Result<Vec<Count>, _>>()?;
    let starts = displacements(&counts, seeds)?;
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    let mut all = vec![0u64; total.max(1)];
    // A rank with no block sends nothing, from a real address (an empty `Vec`'s dangling
    // pointer would be taken for `MPI_IN_PLACE`).
    let scratch = [0u64; 1];
    cluster.all_arrived().all_gather_varcount_into(
        if own.is_empty() { &scratch[..0] } else { own },
        &mut PartitionMut::new(&mut all[..], &counts[..], &starts[..]),
    );
    let blocks = entries.div_ceil(maps[0].block() as u64) as usize;
    let mut ordered = vec![0u64; words * blocks];
    for (r, map) in maps.iter().enumerate() {
        for (k, block) in map.blocks(entries).enumerate() {
            let at = starts[r] as usize + words * k;
            ordered[words * block as usize..words * (block as usize + 1)].copy_from_slice(&all[at..at + words]);
        }
    }
    Ok(ordered)
}

fn write_blocks<R: TierLayout>(
    cluster: &Cluster,
    rules: &R,
    path: &Path,
    seeds: u32,
    entries: u64,
    encoded: &[EncodedBlock],
) -> Result<u64, TableError> {
    let own: Vec<u64> = encoded.iter().flat_map(|b| [b.checksum, b.frame.len() as u64]).collect();
    let sizes = gather_block_words(cluster, seeds, entries, &own, 2)?;
    let checksums: Vec<u64> = sizes.iter().step_by(2).copied().collect();
    let lengths: Vec<u64> = sizes.iter().skip(1).step_by(2).copied().collect();
    let meta = table_meta(rules, seeds, entries, &checksums, &lengths);
    let size = meta.len() as u64 + lengths.iter().sum::<u64>();
    let tmp = temporary(path);
    // Rank 0 makes the file at its full size, with its header, before any rank writes a frame.
    let created = if cluster.is_root() {
        File::create(&tmp).and_then(|f| f.set_len(size).and_then(|()| f.write_all_at(&meta, 0))).map_err(|e| ("create", e))
    } else {
        Ok(())
    };
    agree(cluster, &tmp, created)?;
    let map = ShardMap::new(cluster.rank(), cluster.size());
    let mut offsets = Vec::with_capacity(lengths.len());
    lengths.iter().fold(meta.len() as u64, |at, &len| {
        offsets.push(at);
        at + len
    });
    let written = (|| {
        let file = OpenOptions::new().write(true).open(&tmp).map_err(|e| ("open", e))?;
        for (block, frame) in map.blocks(entries).zip(encoded) {
            file.write_all_at(&frame.frame, offsets[block as usize]).map_err(|e| ("write", e))?;
        }
        file.sync_all().map_err(|e| ("sync", e))
    })();
    agree(cluster, &tmp, written)?;
    let renamed = if cluster.is_root() {
        std::fs::rename(&tmp, path).map_err(|e| ("rename the finished file into", e)).map(|()| {
            // Make the rename itself durable; a directory that cannot be synced is not an error.
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = File::open(dir).and_then(|d| d.sync_all());
            }
        })
    } else {
        Ok(())
    };
    agree(cluster, path, renamed)?;
    Ok(size)
}

/// `path.tmp`.
fn temporary(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Fails on every rank if `step` failed on any: this rank's error names its action, the
/// others name the failed rank.
pub(crate) fn agree(cluster: &Cluster, path: &Path, step: Result<(), (&'static str, std::io::Error)>) -> Result<(), TableError> {
    let failed_rank = if step.is_err() { cluster.rank() as u64 + 1 } else { 0 };
    let mut first = 0u64;
    cluster.all_arrived().all_reduce_into(&failed_rank, &mut first, SystemOperation::max());
    match step {
        Err((action, e)) => Err(TableError::Io {
            path: path.into(),
            action,
            source: std::io::Error::new(e.kind(), format!("rank {}: {e}", cluster.rank())),
        }),
        Ok(()) if first > 0 => Err(TableError::Io {
            path: path.into(),
            action: "write",
            source: std::io::Error::other(format!("rank {} failed to write its part", first - 1)),
        }),
        Ok(()) => Ok(()),
    }
}
