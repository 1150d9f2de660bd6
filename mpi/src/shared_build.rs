//! `dakon tables build` shared by the ranks of an MPI job.
//!
//! Every rank runs the solver's own build loop ([`build_tiers_with`]): it reads the tiers
//! present from the shared tables directory and keeps every solved tier in memory, because a
//! capture can reach any lower tier. Only the tiers the loop lacks are shared: the tier's
//! positions are dealt out in blocks ([`Ownership`]); each rank sorts its own by
//! [`BuildSchedule::tier_order`] and solves them one level at a time, lowest first. A move that stays
//! in the tier lowers `tier_order`, so a level needs only lower levels, which every rank has
//! once each level's values are gathered on every rank (`MPI_Allgatherv`, one message per
//! rank and level), each with its mark (what the file stores of the position, found by the
//! solve as in one process). After the last level every rank holds the whole tier and its
//! marks; every rank compresses a share of its file's blocks and rank 0 writes them through
//! the solver's writer (`shared_file.rs`), so the file is the one a one-process build writes,
//! byte for byte.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

use dakon_solver::build_schedule::BuildSchedule;
use dakon_solver::tables::{
    build_tiers_with, worker_pool, BuildOptions, BuildReport, SharedTier, SolvedTier, TableError, TierSolver, TierTask,
};
use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::traits::*;
use mpi::Count;
use rayon::prelude::*;

use crate::cluster::Cluster;
use crate::level_message;
use crate::ownership::{Ownership, BLOCK};
use crate::partition::{displacements, message_count};
use crate::phases::{timed, Phases};
use crate::shared_file;

/// What [`build_tiers`] did, with what the ranks exchanged.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SharedBuildReport {
    /// The tiers, as the one-process build reports them (on ranks other than 0 a built
    /// tier's `bytes` is 0: rank 0 wrote the file).
    pub build: BuildReport,
    /// The bytes of every rank's level messages, each message counted once.
    pub sent_bytes: u64,
    /// The bytes every rank received, summed over the ranks: each message reaches all other
    /// ranks.
    pub received_bytes: u64,
    /// Exchange rounds (one per level of each tier built).
    pub rounds: u64,
    /// This rank's time in each phase.
    pub phases: Phases,
}

/// Builds the tiers `0..=max_seeds` of `rules` missing from `dir`, as
/// [`dakon_solver::tables::build_tiers`] does, shared among the ranks of `cluster`. Every
/// rank must call it with the same arguments and see the same `dir` (a shared file system).
/// A tier stopped on any rank (`options.stop`) is dropped on all; the finished ones are on
/// disk, and the same command resumes after them.
///
/// # Errors
/// As the one-process build, and [`TableError::Shared`] if the ranks disagree on the tier to
/// build (they see different directories). An error on one rank leaves the others waiting:
/// the caller must then [`Cluster::abort`].
pub fn build_tiers<R: BuildSchedule>(
    cluster: &Cluster,
    rules: &R,
    dir: &Path,
    max_seeds: u32,
    options: &BuildOptions,
) -> Result<SharedBuildReport, TableError> {
    let mut shared = SharedBuild::new(cluster, options.threads, dir)?;
    let build = build_tiers_with(rules, dir, max_seeds, options, &mut shared)?;
    cluster.world().barrier();
    Ok(SharedBuildReport {
        build,
        sent_bytes: shared.sent_bytes,
        received_bytes: shared.received_bytes,
        rounds: shared.rounds,
        phases: shared.phases,
    })
}

/// The [`TierSolver`] of a build shared among the ranks: solves this rank's positions of a
/// tier, level by level, and gathers the others'.
pub struct SharedBuild<'c> {
    cluster: &'c Cluster,
    pool: rayon::ThreadPool,
    sent_bytes: u64,
    received_bytes: u64,
    rounds: u64,
    phases: Phases,
}

impl<'c> SharedBuild<'c> {
    /// A shared solver for this rank, with `threads` workers.
    ///
    /// # Errors
    /// [`TableError::Io`] if the threads cannot be started (`dir` names the build).
    pub fn new(cluster: &'c Cluster, threads: usize, dir: &Path) -> Result<Self, TableError> {
        Ok(SharedBuild {
            cluster,
            pool: worker_pool(threads, dir)?,
            sent_bytes: 0,
            received_bytes: 0,
            rounds: 0,
            phases: Phases::default(),
        })
    }

    /// Fails unless every rank is about to build tier `seeds`.
    fn agree_on_tier(&self, seeds: u32) -> Result<(), TableError> {
        let mut all = vec![0u32; self.cluster.size()];
        self.cluster.world().all_gather_into(&seeds, &mut all[..]);
        if all.iter().any(|&s| s != seeds) {
            return Err(TableError::Shared {
                seeds,
                detail: format!(
                    "the ranks are building tiers {all:?}: every rank must see the same tables directory (a shared file system) with the same files"
                ),
            });
        }
        Ok(())
    }
}

impl<R: BuildSchedule> TierSolver<R> for SharedBuild<'_> {
    /// Contract: returns the tier's values and marks, the same on every rank, or `None` on
    /// every rank if any rank's `stop` was raised.
    fn solve(&mut self, task: &TierTask<'_, R>) -> Result<Option<SolvedTier>, TableError> {
        let TierTask { rules, seeds, lower, stop, progress } = *task;
        self.agree_on_tier(seeds)?;
        let world = self.cluster.world();
        let own = Ownership::new(self.cluster.rank(), self.cluster.size(), rules.tier_size(seeds));
        let pool = &self.pool;
        let levels = timed(&mut self.phases.sort, || pool.install(|| Levels::sort(rules, seeds, &own)));
        let mut top = 0u64;
        world.all_reduce_into(&(levels.count() as u64), &mut top, SystemOperation::max());
        let mut tier = SharedTier::new(rules, seeds, lower)?;
        let mut message = Vec::new();
        let mut headers = vec![Header::default(); self.cluster.size()];
        let mut received = Vec::new();
        for level in 0..top as usize {
            let mine = levels.get(level);
            let stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
            message.clear();
            let solve_cpu_before = self.phases.solve.cpu;
            if !stopped {
                timed(&mut self.phases.solve, || {
                    let solved = pool.install(|| tier.solve(mine))?;
                    level_message::encode(mine, &solved, &mut message);
                    Ok::<(), TableError>(())
                })?;
            }
            let solve_cpu = self.phases.solve.cpu - solve_cpu_before;
            let header = Header {
                stopped: u64::from(stopped),
                positions: mine.len() as u64,
                bytes: message.len() as u64,
                solve_cpu_ns: solve_cpu.as_nanos() as u64,
            };
            let exchanged = timed(&mut self.phases.exchange, || {
                world.all_gather_into(&header.as_array(), as_flat_mut(&mut headers));
                if headers.iter().any(|h| h.stopped != 0) {
                    return Ok(None);
                }
                let counts = headers.iter().map(|h| message_count(h.bytes, seeds)).collect::<Result<Vec<Count>, _>>()?;
                let displacements = displacements(&counts, seeds)?;
                let total: u64 = headers.iter().map(|h| h.bytes).sum();
                received.resize(total as usize, 0);
                // Every rank knows `total`; with nothing to send, both buffers would be the same
                // dangling pointer, which MPI rejects as aliased.
                if total > 0 {
                    world
                        .all_gather_varcount_into(&message[..], &mut PartitionMut::new(&mut received[..], &counts[..], &displacements[..]));
                }
                Ok(Some((counts, displacements, total)))
            })?;
            let Some((counts, displacements, total)) = exchanged else {
                return Ok(None);
            };
            self.phases.slowest_solve_cpu += Duration::from_nanos(headers.iter().map(|h| h.solve_cpu_ns).max().unwrap_or(0));
            timed(&mut self.phases.record, || {
                for (rank, (&count, &start)) in counts.iter().zip(&displacements).enumerate() {
                    if rank != self.cluster.rank() {
                        let part = &received[start as usize..(start + count) as usize];
                        level_message::decode(part, |index, value, mark| tier.record(index, value, mark))
                            .map_err(|e| TableError::Shared { seeds, detail: format!("rank {rank}'s message of level {level}: {e}") })?;
                    }
                }
                Ok::<(), TableError>(())
            })?;
            self.sent_bytes += total;
            self.received_bytes += total * (self.cluster.size() as u64 - 1);
            self.rounds += 1;
            progress.solved(headers.iter().map(|h| h.positions).sum());
        }
        if !tier.is_complete() {
            return Err(TableError::Shared { seeds, detail: "positions were left unsolved after the last level".into() });
        }
        Ok(Some(tier.into_solved()))
    }

    fn write(&mut self, task: &TierTask<'_, R>, path: &Path, solved: &SolvedTier) -> Result<u64, TableError> {
        shared_file::write_shared(self.cluster, &self.pool, task, path, solved, &mut self.phases)
    }
}

/// What each rank announces after solving its part of a level.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Header {
    /// 1 if this rank's stop flag was raised (it solved nothing).
    stopped: u64,
    /// Positions in its message.
    positions: u64,
    /// Bytes of its message.
    bytes: u64,
    /// The CPU time it took to solve them (nanoseconds).
    solve_cpu_ns: u64,
}

impl Header {
    fn as_array(&self) -> [u64; 4] {
        [self.stopped, self.positions, self.bytes, self.solve_cpu_ns]
    }
}

/// The headers as the flat `u64` buffer MPI fills.
fn as_flat_mut(headers: &mut [Header]) -> &mut [u64] {
    // SAFETY: `Header` is `repr(C)` with four `u64` fields and no padding, so a slice of
    // `n` headers is a slice of `4 * n` `u64`s, with the same alignment.
    unsafe { std::slice::from_raw_parts_mut(headers.as_mut_ptr().cast::<u64>(), headers.len() * 4) }
}

/// This rank's positions of a tier, sorted by level of `tier_order` (increasing index within
/// a level).
struct Levels {
    /// The indices, level 0 first.
    indices: Vec<u64>,
    /// Level `l` is `indices[starts[l]..starts[l + 1]]`.
    starts: Vec<usize>,
}

impl Levels {
    /// Sorts the positions `own` gives this rank (a counting sort on their `tier_order`,
    /// computed in parallel on the current pool, a run of consecutive indices at a time:
    /// [`BuildSchedule::tier_orders`] steps from one board to the next instead of unranking each).
    fn sort<R: BuildSchedule>(rules: &R, seeds: u32, own: &Ownership) -> Levels {
        let mut orders = vec![0u32; own.count() as usize];
        orders
            .par_chunks_mut(BLOCK as usize)
            .enumerate()
            .for_each(|(block, orders)| rules.tier_orders(seeds, own.index(block as u64 * BLOCK), orders));
        let levels = orders.iter().max().map_or(0, |&m| m as usize + 1);
        let mut starts = vec![0usize; levels + 1];
        for &o in &orders {
            starts[o as usize + 1] += 1;
        }
        for l in 0..levels {
            starts[l + 1] += starts[l];
        }
        let mut next = starts.clone();
        let mut indices = vec![0u64; orders.len()];
        for (k, &o) in orders.iter().enumerate() {
            indices[next[o as usize]] = own.index(k as u64);
            next[o as usize] += 1;
        }
        Levels { indices, starts }
    }

    /// Levels this rank has positions in or below.
    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// The indices of `level` (none beyond this rank's highest).
    fn get(&self, level: usize) -> &[u64] {
        if level < self.count() {
            &self.indices[self.starts[level]..self.starts[level + 1]]
        } else {
            &[]
        }
    }
}
