//! `dakon tables build` partitioned among the ranks of an MPI job: a cluster's memory adds up.
//!
//! Every tier is split into shards by file block ([`ShardMap`]: block `b` to rank `b mod N`).
//! A rank keeps only its shards: of every finished tier packed ([`OwnTiers`], under 4 bits a
//! position), of the tier being built two bytes a position ([`TierShard`]). It solves its
//! positions one level of [`BuildSchedule::tier_order`] at a time, lowest first, in rounds of at most
//! [`ROUND`] positions: it lists their moves, reads the successors it owns, asks the owners of
//! the others for their values ([`SuccessorExchange`]: one `MPI_Alltoallv` of keys, one of
//! values, requests to one owner combined and without repeats, put in order by a radix sort, `owner_order.rs`), and records the values. A
//! move within the tier lowers `tier_order`, so every successor in the tier was solved at a
//! lower level, here or on its owner. Each rank writes its blocks of the tier's file
//! (`shard_file.rs`), the file a one-process build writes, byte for byte; tiers present are
//! loaded the same way, each rank decoding its own blocks (`shard_load.rs`). Checkpoints at
//! level boundaries (`checkpoint.rs`) let a killed build resume inside the tier.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use dakon_solver::build_schedule::BuildSchedule;
use dakon_solver::tables::budget::{check_rank, peak_resident_bytes, resident_bytes};
use dakon_solver::tables::{
    tier_path, worker_pool, BuildOptions, BuildProgress, BuildReport, NoProgress, OwnTiers, ShardMap, SuccessorKey, TableError, TableFile,
    TierReport, TierShard,
};
use mpi::collective::SystemOperation;
use mpi::traits::*;
use rayon::prelude::*;

use crate::checkpoint::Checkpoints;
use crate::cluster::Cluster;
use crate::owner_order::{by_owner_then_key, Asked};
use crate::phases::{timed, Phases};
use crate::shard_file::write_partitioned;
use crate::shard_load::load_own_blocks;
use crate::successor_exchange::SuccessorExchange;

/// Positions of a level a rank solves in one round: bounds the round's buffers (their moves,
/// keys and values, about 60 bytes a position).
const ROUND: usize = 1 << 16;

/// How many successors ahead of its read [`own_values`] requests a value's cache line: enough
/// reads to cover a trip to memory.
const LOOK_AHEAD: usize = 16;

/// How a partitioned build runs beside the one-process [`BuildOptions`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PartitionOptions {
    /// Checkpoint the tier being built at the first level boundary after this much time since
    /// the last (`None`: never; zero: at every level).
    pub checkpoint_every: Option<Duration>,
}

/// One rank's figures at the end of a build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankFigures {
    /// Its peak resident memory (`VmHWM`), bytes.
    pub peak_bytes: u64,
    /// Bytes it sent.
    pub sent_bytes: u64,
    /// Bytes it received.
    pub received_bytes: u64,
    /// The most bytes it was estimated to need for a tier it built under a memory budget
    /// (`--memory-mb`); 0 without one.
    pub estimated_bytes: u64,
}

/// What [`build_tiers`] did, with what the ranks exchanged.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SharedBuildReport {
    /// The tiers, as the one-process build reports them.
    pub build: BuildReport,
    /// The bytes every rank sent, summed over the ranks.
    pub sent_bytes: u64,
    /// The bytes every rank received, summed over the ranks.
    pub received_bytes: u64,
    /// Exchange rounds of this rank (every rank takes part in each).
    pub rounds: u64,
    /// Each rank's peak memory and bytes sent and received, by rank.
    pub ranks: Vec<RankFigures>,
    /// Where tiers resumed inside: `(tier, level)`.
    pub resumed: Vec<(u32, u32)>,
    /// This rank's time in each phase.
    pub phases: Phases,
}

/// Builds the tiers `0..=max_seeds` of `rules` missing from `dir`, partitioned among the
/// ranks of `cluster`; the files are those [`dakon_solver::tables::build_tiers`] writes. Every
/// rank must call it with the same arguments and see the same `dir` (a shared file system).
/// A tier stopped on any rank (`options.stop`) is dropped on all, apart from its last
/// checkpoint; the same command resumes.
///
/// # Errors
/// As the one-process build, [`TableError::OverBudget`] if a rank's share of a tier would pass
/// `options.memory_limit`, and [`TableError::Shared`] if the ranks disagree on the tier to
/// build. An error on one rank may leave the others waiting: the caller must then
/// [`Cluster::abort`].
pub fn build_tiers<R: BuildSchedule>(
    cluster: &Cluster,
    rules: &R,
    dir: &Path,
    max_seeds: u32,
    options: &BuildOptions,
    partition: &PartitionOptions,
) -> Result<SharedBuildReport, TableError> {
    std::fs::create_dir_all(dir).map_err(|e| TableError::Io { path: dir.into(), action: "create the directory", source: e })?;
    let pool = worker_pool(options.threads, dir)?;
    let map = ShardMap::new(cluster.rank(), cluster.size());
    let mut build = Build {
        cluster,
        pool,
        exchange: SuccessorExchange::new(cluster),
        own: OwnTiers::new(map),
        phases: Phases::default(),
        estimated_bytes: 0,
        report: SharedBuildReport::default(),
    };
    let present: Vec<bool> = (0..=max_seeds).map(|k| tier_path(rules, dir, k).exists()).collect();
    agree_on_present(cluster, &present)?;
    let highest_missing = (0..=max_seeds).rev().find(|&k| !present[k as usize]);
    for seeds in 0..=max_seeds {
        let path = tier_path(rules, dir, seeds);
        let needed_later = highest_missing.is_some_and(|h| seeds < h);
        if present[seeds as usize] {
            let file = TableFile::open(rules, &path, seeds)?;
            if needed_later {
                let (cluster, pool, exchange, own) = (build.cluster, &build.pool, &mut build.exchange, &mut build.own);
                timed(&mut build.phases.sort, || load_own_blocks(cluster, pool, exchange, rules, &path, &file, own))?;
            }
            let entries = file.header().entries;
            build.report.build.tiers.push(TierReport { seeds, path, entries, bytes: file.size(), built: false, elapsed: Duration::ZERO });
            continue;
        }
        if !build.tier(rules, seeds, &path, options, partition, needed_later)? {
            build.report.build.interrupted = true;
            break;
        }
    }
    build.finish()
}

/// A partitioned build in progress on this rank.
struct Build<'c> {
    cluster: &'c Cluster,
    pool: rayon::ThreadPool,
    exchange: SuccessorExchange<'c>,
    own: OwnTiers,
    phases: Phases,
    /// The most bytes this rank was estimated to need for a tier under a memory budget.
    estimated_bytes: u64,
    report: SharedBuildReport,
}

/// What each rank announces at a level boundary.
#[derive(Clone, Copy, Default)]
struct LevelHeader {
    /// Its positions of the level.
    positions: u64,
    /// 1 if its stop flag was raised.
    stopped: u64,
    /// 1 (rank 0) if a checkpoint is due.
    checkpoint: u64,
    /// The CPU time it took to solve its previous level (nanoseconds).
    solve_cpu_ns: u64,
}

impl Build<'_> {
    /// Builds tier `seeds` into `path`; `false` if it was stopped.
    fn tier<R: BuildSchedule>(
        &mut self,
        rules: &R,
        seeds: u32,
        path: &Path,
        options: &BuildOptions,
        partition: &PartitionOptions,
        needed_later: bool,
    ) -> Result<bool, TableError> {
        self.agree_on_tier(seeds)?;
        let entries = rules.tier_size(seeds);
        if let Some(limit) = options.memory_limit {
            let lower_positions = (0..seeds).map(|k| rules.tier_size(k)).sum();
            let need = check_rank(seeds, limit, self.cluster.size(), resident_bytes(), self.own.bytes(), lower_positions, entries)?;
            self.estimated_bytes = self.estimated_bytes.max(need);
        }
        let started = Instant::now();
        let bar: &dyn BuildProgress = options.progress.as_deref().unwrap_or(&NoProgress);
        bar.tier_started(seeds, entries);
        let map = self.own.map();
        let mut shard = {
            let pool = &self.pool;
            timed(&mut self.phases.sort, || pool.install(|| TierShard::new(rules, seeds, map)))?
        };
        let mut checkpoints = Checkpoints::new(self.cluster, rules, seeds, path);
        // A tier whose positions and lower tiers all lie in their first block is rank 0's
        // alone, successors included: it solves it without a collective a level.
        let alone = (0..=seeds).all(|j| rules.tier_size(j) <= map.block() as u64);
        let solved = if alone {
            self.solve_alone(rules, &mut shard, options, bar)?
        } else {
            self.solve_shared(rules, &mut shard, options, partition, &mut checkpoints, bar)?
        };
        if !solved {
            bar.interrupted();
            return Ok(false);
        }
        let complete = self.pool.install(|| shard.is_complete());
        if !complete {
            return Err(TableError::Shared { seeds, detail: "positions were left unsolved after the last level".into() });
        }
        bar.compressing();
        let bytes = write_partitioned(self.cluster, &self.pool, rules, path, &shard, entries, &mut self.phases)?;
        checkpoints.remove(self.cluster);
        bar.tier_finished();
        if needed_later {
            let pool = &self.pool;
            let packed = timed(&mut self.phases.record, || pool.install(|| shard.into_compact()))?;
            self.own.push(packed);
        }
        self.report.build.tiers.push(TierReport { seeds, path: path.into(), entries, bytes, built: true, elapsed: started.elapsed() });
        Ok(true)
    }

    /// Solves this rank's positions of `shard` level by level with the others, from the last
    /// checkpoint on; `false` if a rank's stop flag was raised.
    fn solve_shared<R: BuildSchedule>(
        &mut self,
        rules: &R,
        shard: &mut TierShard,
        options: &BuildOptions,
        partition: &PartitionOptions,
        checkpoints: &mut Checkpoints<'_>,
        bar: &dyn BuildProgress,
    ) -> Result<bool, TableError> {
        let mut levels = 0u64;
        self.cluster.all_arrived().all_reduce_into(&u64::from(shard.levels()), &mut levels, SystemOperation::max());
        let first = checkpoints.resume(self.cluster, shard)?;
        if first > 0 {
            self.report.resumed.push((shard.seeds(), first));
            if self.cluster.is_root() {
                eprintln!("resumed tier {} at level {first} of {levels}", shard.seeds());
            }
        }
        let mut last_checkpoint = Instant::now();
        let mut solve_cpu = Duration::ZERO;
        for level in first..levels as u32 {
            let pending = self.pool.install(|| shard.pending(level));
            let due = partition.checkpoint_every.is_some_and(|every| level > first && last_checkpoint.elapsed() >= every);
            let header = LevelHeader {
                positions: pending.len() as u64,
                stopped: u64::from(options.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))),
                checkpoint: u64::from(due && self.cluster.is_root()),
                solve_cpu_ns: solve_cpu.as_nanos() as u64,
            };
            let cluster = self.cluster;
            let headers = timed(&mut self.phases.exchange, || all_headers(cluster, header));
            self.phases.slowest_solve_cpu += Duration::from_nanos(headers.iter().map(|h| h.solve_cpu_ns).max().unwrap_or(0));
            if headers.iter().any(|h| h.stopped != 0) {
                return Ok(false);
            }
            if headers[0].checkpoint != 0 {
                timed(&mut self.phases.write, || checkpoints.save(self.cluster, shard, level))?;
                last_checkpoint = Instant::now();
            }
            let rounds = headers.iter().map(|h| h.positions.div_ceil(ROUND as u64)).max().unwrap_or(0);
            let cpu_before = self.phases.solve.cpu + self.phases.record.cpu;
            for round in 0..rounds as usize {
                let part = pending.get(round * ROUND..((round + 1) * ROUND).min(pending.len())).unwrap_or(&[]);
                self.round(rules, shard, part, true)?;
            }
            solve_cpu = self.phases.solve.cpu + self.phases.record.cpu - cpu_before;
            bar.solved(headers.iter().map(|h| h.positions).sum());
        }
        Ok(true)
    }

    /// Solves `shard` on rank 0 alone (the others hold none of it), level by level without a
    /// collective; `false` on every rank if rank 0's stop flag was raised.
    fn solve_alone<R: BuildSchedule>(
        &mut self,
        rules: &R,
        shard: &mut TierShard,
        options: &BuildOptions,
        bar: &dyn BuildProgress,
    ) -> Result<bool, TableError> {
        let mut stopped = false;
        for level in 0..shard.levels() {
            stopped = options.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
            if stopped {
                break;
            }
            let pending = self.pool.install(|| shard.pending(level));
            for part in pending.chunks(ROUND) {
                self.round(rules, shard, part, false)?;
            }
            bar.solved(pending.len() as u64);
        }
        let mut any = 0u64;
        self.cluster.all_arrived().all_reduce_into(&u64::from(stopped), &mut any, SystemOperation::max());
        Ok(any == 0)
    }

    /// Solves the positions `indices` of `shard` (this rank's, of one level; none if this rank
    /// has no more), asking the owners for the successors of other ranks if `exchange` (then
    /// every rank must call it as often as the others; without, every successor is this
    /// rank's).
    fn round<R: BuildSchedule>(&mut self, rules: &R, shard: &mut TierShard, indices: &[u64], exchange: bool) -> Result<(), TableError> {
        let (map, seeds, pool) = (self.own.map(), shard.seeds(), &self.pool);
        let own = &self.own;
        // This rank's successors read here; the others', by owner then key, asked of their
        // owners without repeats.
        let (moves, mut values, owners, foreign) = timed(&mut self.phases.solve, || {
            pool.install(|| {
                let moves = shard.moves(rules, indices);
                let successors = moves.successors();
                let (values, owners) = own_values(shard, own, successors).map_err(|m| TableError::Order {
                    seeds,
                    index: indices[moves.position_of(m)],
                    successor: successors[m].index(),
                })?;
                let rank = map.rank() as u32;
                let foreign: Vec<Asked> = successors
                    .iter()
                    .zip(&owners)
                    .enumerate()
                    .filter(|&(_, (_, &o))| o != rank)
                    .map(|(m, (k, _))| (k.0, m as u32))
                    .collect();
                let foreign = by_owner_then_key(foreign, map.ranks(), |&(_, m)| owners[m as usize] as usize);
                Ok((moves, values, owners, foreign))
            })
        })?;
        if !exchange {
            debug_assert!(foreign.is_empty(), "a tier solved alone asks for nothing");
            timed(&mut self.phases.record, || pool.install(|| shard.settle(indices, &moves, &values)));
            return Ok(());
        }
        let mut asked = vec![Vec::new(); map.ranks()];
        for_each_asked(&foreign, &owners, |_, owner, key, at| {
            if at == asked[owner].len() {
                asked[owner].push(SuccessorKey(key));
            }
        });
        let exchange = &mut self.exchange;
        let answers = timed(&mut self.phases.exchange, || {
            exchange.fetch(pool, seeds, &asked, |keys, values| {
                answer_values(shard, own, keys, values).map_err(|index| TableError::Shared {
                    seeds,
                    detail: format!("position {index} was asked for before its level was solved: the rules' tier_order is wrong"),
                })
            })
        })?;
        timed(&mut self.phases.record, || {
            for_each_asked(&foreign, &owners, |m, owner, _, at| values[m] = answers[owner][at]);
            pool.install(|| shard.settle(indices, &moves, &values));
        });
        Ok(())
    }

    /// Fails unless every rank is about to build tier `seeds`.
    fn agree_on_tier(&self, seeds: u32) -> Result<(), TableError> {
        let mut all = vec![0u32; self.cluster.size()];
        self.cluster.all_arrived().all_gather_into(&seeds, &mut all[..]);
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

    /// The report, with every rank's figures gathered.
    fn finish(mut self) -> Result<SharedBuildReport, TableError> {
        let world = self.cluster.all_arrived();
        let mine = [peak_resident_bytes(), self.exchange.sent_bytes, self.exchange.received_bytes, self.estimated_bytes];
        let mut all = vec![0u64; 4 * self.cluster.size()];
        world.all_gather_into(&mine[..], &mut all[..]);
        self.report.ranks = all
            .chunks_exact(4)
            .map(|f| RankFigures { peak_bytes: f[0], sent_bytes: f[1], received_bytes: f[2], estimated_bytes: f[3] })
            .collect();
        self.report.sent_bytes = self.report.ranks.iter().map(|r| r.sent_bytes).sum();
        self.report.received_bytes = self.report.ranks.iter().map(|r| r.received_bytes).sum();
        self.report.rounds = self.exchange.rounds;
        self.report.phases = self.phases;
        Ok(self.report)
    }
}

/// Fails on every rank unless every rank found the same tiers present (`present[k]`: tier
/// `k`): ranks that load different tiers would wait in different exchanges.
fn agree_on_present(cluster: &Cluster, present: &[bool]) -> Result<(), TableError> {
    let mut mine = [0u64; 2];
    for (k, _) in present.iter().enumerate().filter(|(_, &p)| p) {
        mine[k / 64] |= 1 << (k % 64);
    }
    let mut all = vec![0u64; 2 * cluster.size()];
    cluster.all_arrived().all_gather_into(&mine[..], &mut all[..]);
    let Some(rank) = all.chunks_exact(2).position(|other| other != mine) else { return Ok(()) };
    let first_difference = (0..present.len()).find(|&k| (all[2 * rank + k / 64] >> (k % 64)) & 1 != u64::from(present[k])).unwrap_or(0);
    Err(TableError::Shared {
        seeds: first_difference as u32,
        detail: format!(
            "rank {} and rank {rank} see different tiers present: every rank must see the same tables directory (a shared file system) with the same files",
            cluster.rank()
        ),
    })
}

/// Every rank's `header`, by rank.
fn all_headers(cluster: &Cluster, header: LevelHeader) -> Vec<LevelHeader> {
    let mine = [header.positions, header.stopped, header.checkpoint, header.solve_cpu_ns];
    let mut all = vec![0u64; 4 * cluster.size()];
    cluster.all_arrived().all_gather_into(&mine[..], &mut all[..]);
    all.chunks_exact(4).map(|h| LevelHeader { positions: h[0], stopped: h[1], checkpoint: h[2], solve_cpu_ns: h[3] }).collect()
}

/// Calls `visit(m, owner, key, at)` for each successor `m` of `foreign` (sorted by owner,
/// then key), `at` being its key's place among the keys asked of `owner` once each: the
/// request lists are built, and the answers read back, by the same walk.
fn for_each_asked(foreign: &[Asked], owners: &[u32], mut visit: impl FnMut(usize, usize, u64, usize)) {
    let mut previous: Option<(usize, u64)> = None;
    let mut at = 0;
    for &(key, m) in foreign {
        let owner = owners[m as usize] as usize;
        at = match previous {
            Some((o, k)) if o == owner => at + usize::from(k != key),
            _ => 0,
        };
        previous = Some((owner, key));
        visit(m as usize, owner, key, at);
    }
}

/// The values of the `successors` this rank owns and the owner of each, in parallel (0 for the
/// others' values), or the first successor of this tier that is not solved yet. Each
/// successor's block is split once ([`ShardMap::place`]).
fn own_values(shard: &TierShard, own: &OwnTiers, successors: &[SuccessorKey]) -> Result<(Vec<i8>, Vec<u32>), usize> {
    const CHUNK: usize = 1 << 12;
    let map = own.map();
    let mut values = vec![0i8; successors.len()];
    let mut owners = vec![0u32; successors.len()];
    let unsolved = values
        .par_chunks_mut(CHUNK)
        .zip(owners.par_chunks_mut(CHUNK))
        .zip(successors.par_chunks(CHUNK))
        .enumerate()
        .filter_map(|(chunk, ((values, owners), keys))| {
            let places: Vec<Option<Place>> = owners
                .iter_mut()
                .zip(keys)
                .map(|(owner, key)| {
                    let (o, local) = map.place(key.index());
                    *owner = o as u32;
                    (o == map.rank()).then_some((key.seeds(), local))
                })
                .collect();
            let mut unsolved = None;
            read_places(shard, own, &places, |at, value| match value {
                Some(value) => values[at] = value,
                None => unsolved = unsolved.or(Some(chunk * CHUNK + at)),
            });
            unsolved
        })
        .min();
    match unsolved {
        Some(m) => Err(m),
        None => Ok((values, owners)),
    }
}

/// The values of `keys` (of [`SuccessorKey`]s this rank owns, asked by other ranks) into
/// `values`, as bytes, or the index of the first one in the tier not solved yet.
fn answer_values(shard: &TierShard, own: &OwnTiers, keys: &[u64], values: &mut [u8]) -> Result<(), u64> {
    let map = own.map();
    let places: Vec<Option<Place>> =
        keys.iter().map(|&key| Some((SuccessorKey(key).seeds(), map.local(SuccessorKey(key).index())))).collect();
    let mut unsolved = None;
    read_places(shard, own, &places, |at, value| match value {
        Some(value) => values[at] = value as u8,
        None => unsolved = unsolved.or(Some(SuccessorKey(keys[at]).index())),
    });
    unsolved.map_or(Ok(()), Err)
}

/// A position this rank owns: its tier and its [`ShardMap::local`] place.
type Place = (u32, u64);

/// Calls `read(at, value)` with the value of each of this rank's `places` (`None` for a
/// position of the tier being built not solved yet), skipping those that are not this rank's
/// (`None`). The reads fall at random in the shards, so each requests its line [`LOOK_AHEAD`]
/// places before.
fn read_places(shard: &TierShard, own: &OwnTiers, places: &[Option<Place>], mut read: impl FnMut(usize, Option<i8>)) {
    let seeds = shard.seeds();
    for (at, place) in places.iter().enumerate() {
        if let Some(&Some((tier, local))) = places.get(at + LOOK_AHEAD) {
            prefetch_local(shard, own, seeds, tier, local);
        }
        if let Some((tier, local)) = *place {
            read(at, local_value_at(shard, own, seeds, tier, local));
        }
    }
}

/// The value of this rank's position `local` ([`ShardMap::local`]) of tier `tier`: from the
/// tier being built, `seeds` (`None` if it is not solved yet), or from a finished tier's shard.
#[inline]
fn local_value_at(shard: &TierShard, own: &OwnTiers, seeds: u32, tier: u32, local: u64) -> Option<i8> {
    if tier == seeds {
        shard.value_at_local(local)
    } else {
        Some(own.value_at_local(tier, local))
    }
}

/// Requests the cache line that [`local_value_at`] of the same place will read.
#[inline]
fn prefetch_local(shard: &TierShard, own: &OwnTiers, seeds: u32, tier: u32, local: u64) {
    if tier == seeds {
        shard.prefetch_local(local);
    } else {
        own.prefetch_local(tier, local);
    }
}
