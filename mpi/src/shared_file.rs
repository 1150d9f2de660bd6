//! The file of a tier the ranks built together. Every rank has the whole tier with its marks
//! (each position's residual, exchanged with its value), so encoding a block is compressing
//! its residuals (zstd, at the solver's `ZSTD_LEVEL`), which is shared too: every rank
//! encodes the file blocks dealt to it (block `b` to rank `b mod N`); rank 0 gathers the
//! encoded blocks and writes the file with the solver's writer, byte for byte the
//! one-process file.

use std::path::Path;

use dakon_solver::build_schedule::BuildSchedule;
use dakon_solver::tables::{block_count, encode_solved_block, write_encoded_table, EncodedBlock, SolvedTier, TableError, TierTask};
use mpi::datatype::PartitionMut;
use mpi::traits::*;
use mpi::Count;
use rayon::prelude::*;

use crate::cluster::Cluster;
use crate::partition::{displacements, message_count};
use crate::phases::{timed, Phases};

/// Writes `solved`, the whole tier of `task` (the same on every rank), to `path`: every rank
/// encodes its blocks on `pool`, rank 0 gathers them and writes the file. Every rank must call
/// it. Returns the file's size on rank 0, 0 on the others.
///
/// # Errors
/// As [`write_encoded_table`] and [`encode_solved_block`]. An error on one rank leaves the
/// others waiting: the caller must then [`Cluster::abort`].
pub(crate) fn write_shared<R: BuildSchedule>(
    cluster: &Cluster,
    pool: &rayon::ThreadPool,
    task: &TierTask<'_, R>,
    path: &Path,
    solved: &SolvedTier,
    phases: &mut Phases,
) -> Result<u64, TableError> {
    let (rank, ranks, entries) = (cluster.rank(), cluster.size(), solved.values.len() as u64);
    let mine: Vec<usize> = (rank..block_count(entries)).step_by(ranks).collect();
    let encoded: Vec<EncodedBlock> = timed(&mut phases.encode, || {
        pool.install(|| mine.par_iter().map(|&b| encode_solved_block(path, solved, b)).collect::<Result<_, TableError>>())
    })?;
    timed(&mut phases.write, || gather_and_write(cluster, task, path, entries, &encoded))
}

/// Gathers every rank's `encoded` blocks on rank 0, which writes the file of `entries`
/// positions; returns its size there, 0 on the other ranks.
fn gather_and_write<R: BuildSchedule>(
    cluster: &Cluster,
    task: &TierTask<'_, R>,
    path: &Path,
    entries: u64,
    encoded: &[EncodedBlock],
) -> Result<u64, TableError> {
    let (ranks, seeds) = (cluster.size(), task.seeds);
    let blocks = block_count(entries);
    // Each block's checksum and frame length, then all the frames.
    let sizes: Vec<u64> = encoded.iter().flat_map(|b| [b.checksum, b.frame.len() as u64]).collect();
    let frames: Vec<u8> = encoded.iter().flat_map(|b| b.frame.iter().copied()).collect();
    let root = cluster.world().process_at_rank(0);
    if !cluster.is_root() {
        // A rank with no block sends nothing, from a real address: an empty `Vec`'s dangling
        // pointer is 1, Open MPI's `MPI_IN_PLACE`, which a rank other than the root may not pass.
        let none = [0u64; 1];
        root.gather_varcount_into(if sizes.is_empty() { &none[..0] } else { &sizes[..] });
        root.gather_varcount_into(if frames.is_empty() { &[0u8; 1][..0] } else { &frames[..] });
        return Ok(0);
    }
    let owned = |r: usize| (r..blocks).step_by(ranks).count();
    let size_counts = (0..ranks).map(|r| message_count(2 * owned(r) as u64, seeds)).collect::<Result<Vec<Count>, _>>()?;
    let size_starts = displacements(&size_counts, seeds)?;
    let mut all_sizes = vec![0u64; 2 * blocks];
    root.gather_varcount_into_root(&sizes[..], &mut PartitionMut::new(&mut all_sizes[..], &size_counts[..], &size_starts[..]));
    // Rank r's frame lengths are every second word of its part.
    let frame_bytes = |r: usize| -> u64 {
        let part = &all_sizes[size_starts[r] as usize..(size_starts[r] + size_counts[r]) as usize];
        part.iter().skip(1).step_by(2).sum()
    };
    let frame_counts = (0..ranks).map(|r| message_count(frame_bytes(r), seeds)).collect::<Result<Vec<Count>, _>>()?;
    let frame_starts = displacements(&frame_counts, seeds)?;
    let mut all_frames = vec![0u8; frame_counts.iter().map(|&c| c as usize).sum()];
    root.gather_varcount_into_root(&frames[..], &mut PartitionMut::new(&mut all_frames[..], &frame_counts[..], &frame_starts[..]));
    // Block b is rank (b mod N)'s (b div N)-th; each rank's frames follow each other.
    let mut next_frame: Vec<usize> = frame_starts.iter().map(|&s| s as usize).collect();
    let in_order: Vec<EncodedBlock> = (0..blocks)
        .map(|b| {
            let (r, k) = (b % ranks, b / ranks);
            let at = size_starts[r] as usize + 2 * k;
            let (checksum, len) = (all_sizes[at], all_sizes[at + 1] as usize);
            let frame = all_frames[next_frame[r]..next_frame[r] + len].to_vec();
            next_frame[r] += len;
            EncodedBlock { checksum, frame }
        })
        .collect();
    write_encoded_table(task.rules, path, seeds, entries, &in_order)
}
