//! Building the tiers `0..=K` of a rule set into a directory, resuming from what is there.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::budget::{check_one_process, resident_bytes};
use super::build_progress::{BuildProgress, NoProgress};
use super::build_report::{BuildReport, TierReport};
use super::compact::{CompactTier, TierValues};
use super::error::TableError;
use super::file::{write_solved, TableFile};
use super::image::{read_image, write_image};
use super::name::tier_path;
use super::reader::TableSet;
use super::retrograde::{solve_tier, SolvedTier};
use crate::build_schedule::BuildSchedule;

/// How to build.
#[derive(Clone)]
pub struct BuildOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Told how each missing tier's build goes (`None`: nobody is told).
    pub progress: Option<Arc<dyn BuildProgress>>,
    /// Raised from outside (Ctrl-C) to stop: the tier in progress is dropped, finished tiers
    /// stay on disk.
    pub stop: Option<Arc<AtomicBool>>,
    /// The most bytes a process may hold (`--memory-mb`): a tier that would pass it is refused
    /// before it starts ([`budget`](super::budget)). `None`: no bound.
    pub memory_limit: Option<u64>,
    /// Whether each tier this process solves and writes gets its memory image (`.dkm`, see
    /// `image.rs`) written beside it from the values in hand, so that the first load reads
    /// it instead of decoding the file. An image that cannot be written is left out (the
    /// first load then decodes and tries again).
    pub write_images: bool,
}

impl Default for BuildOptions {
    /// All cores, no progress, no stop flag, no images.
    fn default() -> Self {
        BuildOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            progress: None,
            stop: None,
            memory_limit: None,
            write_images: false,
        }
    }
}

impl std::fmt::Debug for BuildOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildOptions")
            .field("threads", &self.threads)
            .field("progress", &self.progress.is_some())
            .field("stop", &self.stop)
            .field("memory_limit", &self.memory_limit)
            .field("write_images", &self.write_images)
            .finish()
    }
}

/// Builds the tiers `0..=max_seeds` of `rules` that are missing from `dir` (created if
/// needed). Tiers present are checked (header) and, when a higher tier needs them, read; a
/// missing tier is solved from the lower ones and written atomically, so an interrupted build
/// loses at most the tier in progress and a rebuild writes identical files.
///
/// ```
/// use dakon_solver::dakon::{Dakon, Position};
/// use dakon_solver::oracle::Oracle;
/// use dakon_solver::tables::{build_tiers, BuildOptions, TableSet};
/// let dir = std::env::temp_dir().join(format!("dakon-doc-build-{}", std::process::id()));
/// let rules = Dakon::new(2).unwrap();
/// let report = build_tiers(&rules, &dir, 4, &BuildOptions::default()).unwrap();
/// assert_eq!(report.tiers.len(), 5);
/// let tables = TableSet::open(&rules, &dir).unwrap().unwrap();
/// let p: Position = "1,0/0,2 0/0 0".parse().unwrap();
/// assert_eq!(tables.probe(&p), Some(-1)); // hole 3 stores 1, then player 1 takes 2
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
///
/// # Errors
/// [`TableError`] if the directory or a file cannot be written, a present file is damaged or
/// belongs to other rules, or a tier is beyond what the format holds (127 seeds).
pub fn build_tiers<R: BuildSchedule>(rules: &R, dir: &Path, max_seeds: u32, options: &BuildOptions) -> Result<BuildReport, TableError> {
    let pool = worker_pool(options.threads, dir)?;
    build_tiers_with(rules, dir, max_seeds, options, &mut InThisProcess(&pool))
}

/// A rayon pool of `threads` workers (at least 1); `dir` names the build in the error.
///
/// # Errors
/// [`TableError::Io`] if the threads cannot be started.
pub fn worker_pool(threads: usize, dir: &Path) -> Result<rayon::ThreadPool, TableError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| TableError::io(dir, "start worker threads for", std::io::Error::other(e)))
}

/// One tier to solve, as a build hands it to its [`TierSolver`].
pub struct TierTask<'a, R: BuildSchedule> {
    /// The rules.
    pub rules: &'a R,
    /// The tier: seeds on the board.
    pub seeds: u32,
    /// The solved lower tiers: `lower[j]` holds tier `j`, for every `j < seeds`.
    pub lower: &'a [Vec<u8>],
    /// Raised from outside (Ctrl-C) to stop.
    pub stop: Option<&'a AtomicBool>,
    /// Told of the positions solved.
    pub progress: &'a dyn BuildProgress,
}

/// How a build solves the tiers it lacks: [`build_tiers`] solves each in this process; a
/// build shared among processes (`dakon-mpi`) solves a part of each and exchanges the rest.
pub trait TierSolver<R: BuildSchedule> {
    /// Solves `task`'s tier: every value and what the file stores of each position
    /// ([`SolvedTier`]), or `Ok(None)` if `task.stop` was raised first.
    ///
    /// # Errors
    /// [`TableError`] if the tier cannot be solved (too large, rules that break the
    /// [`BuildSchedule::tier_order`] contract, a failed exchange).
    fn solve(&mut self, task: &TierTask<'_, R>) -> Result<Option<SolvedTier>, TableError>;

    /// Writes `solved`, the tier [`TierSolver::solve`] returned for `task`, to `path` (the
    /// file [`write_table`](super::write_table) writes from its values) and returns the
    /// file's size. Of the processes sharing a build, exactly one writes the file (the others
    /// may encode parts of it) and the others return 0.
    ///
    /// # Errors
    /// As [`write_table`](super::write_table), and a failed exchange.
    fn write(&mut self, task: &TierTask<'_, R>, path: &Path, solved: &SolvedTier) -> Result<u64, TableError>;
}

/// Every tier solved by this process alone, on its pool.
struct InThisProcess<'p>(&'p rayon::ThreadPool);

impl<R: BuildSchedule> TierSolver<R> for InThisProcess<'_> {
    fn solve(&mut self, task: &TierTask<'_, R>) -> Result<Option<SolvedTier>, TableError> {
        self.0.install(|| solve_tier(task.rules, task.seeds, task.lower, task.stop, task.progress))
    }

    fn write(&mut self, task: &TierTask<'_, R>, path: &Path, solved: &SolvedTier) -> Result<u64, TableError> {
        self.0.install(|| write_solved(task.rules, path, task.seeds, solved))
    }
}

/// [`build_tiers`] with the missing tiers solved by `solver`, which is called on this thread
/// (files are read on a pool of `options.threads`, and written by `solver`). Which tiers are missing is
/// decided once, before the first is solved, so processes sharing a directory agree on it
/// even while one of them writes.
///
/// # Errors
/// As [`build_tiers`], and whatever `solver` returns.
pub fn build_tiers_with<R: BuildSchedule>(
    rules: &R,
    dir: &Path,
    max_seeds: u32,
    options: &BuildOptions,
    solver: &mut dyn TierSolver<R>,
) -> Result<BuildReport, TableError> {
    build_keeping(rules, dir, max_seeds, options, solver, false).map(|(report, _)| report)
}

/// [`build_tiers`], then every tier `0..=max_seeds` in memory for the search, as built: a tier
/// solved now is packed from its values, with no decoding of the file just written (tiers
/// already present are read, as a higher tier needs them anyway). What a run that builds its
/// tables and then searches saves: decoding format 2 costs a one-ply look-up a position.
/// The tables are `None` if the build was interrupted. With `options.write_images`, each tier
/// built now gets its memory image, written from its packed form.
///
/// # Errors
/// As [`build_tiers`], and [`TableError::Corrupt`] if a present tier holds a value the
/// in-memory tier cannot hold.
pub fn build_and_load<R: BuildSchedule + Clone + 'static>(
    rules: &R,
    dir: &Path,
    max_seeds: u32,
    options: &BuildOptions,
) -> Result<(BuildReport, Option<TableSet<R>>), TableError> {
    let pool = worker_pool(options.threads, dir)?;
    // The images are written from the tiers packed for the search, not packed twice.
    let keeping = BuildOptions { write_images: false, ..options.clone() };
    let (report, values) = build_keeping(rules, dir, max_seeds, &keeping, &mut InThisProcess(&pool), true)?;
    if report.interrupted {
        return Ok((report, None));
    }
    let tables = pool.install(|| TableSet::from_values(rules, values, &report))?;
    if options.write_images {
        tables.write_built_images(&report)?;
    }
    Ok((report, Some(tables)))
}

/// Writes the memory image of the tier `seeds` just written to `path`, packed from its
/// `values`; an image that cannot be written is left out, as a load that decodes leaves it.
///
/// # Errors
/// [`TableError`] if the file just written cannot be read back, or holds a value the
/// in-memory tier cannot hold.
fn write_image_of<R: BuildSchedule>(rules: &R, path: &Path, seeds: u32, values: &[u8]) -> Result<(), TableError> {
    let file = TableFile::open(rules, path, seeds)?;
    let tier = CompactTier::from_values(seeds, values).map_err(|e| TableError::corrupt(path, e.to_string()))?;
    let _ = write_image(&file, &tier);
    Ok(())
}

/// The values of a finished tier, a byte a position: from its memory image when there is a
/// sound one (reading is much cheaper than decoding, which looks up every position's
/// successors in the tiers below), else decoded from `file` against `lower`.
///
/// # Errors
/// As [`TableFile::read_values`].
fn finished_values<R: BuildSchedule>(rules: &R, file: &TableFile, lower: &[Vec<u8>]) -> Result<Vec<u8>, TableError> {
    match read_image(file) {
        Ok(tier) => Ok((0..tier.entries()).into_par_iter().map(|index| tier.value_at(index) as u8).collect()),
        Err(_) => file.read_values(rules, lower),
    }
}

/// [`build_tiers_with`], returning with the report the values of the tiers a higher one
/// needed, or of every tier with `keep_all`.
fn build_keeping<R: BuildSchedule>(
    rules: &R,
    dir: &Path,
    max_seeds: u32,
    options: &BuildOptions,
    solver: &mut dyn TierSolver<R>,
    keep_all: bool,
) -> Result<(BuildReport, Vec<Vec<u8>>), TableError> {
    std::fs::create_dir_all(dir).map_err(|e| TableError::io(dir, "create the directory", e))?;
    let pool = worker_pool(options.threads, dir)?;
    let present: Vec<bool> = (0..=max_seeds).map(|k| tier_path(rules, dir, k).exists()).collect();
    let highest_missing = (0..=max_seeds).rev().find(|&k| !present[k as usize]);
    let mut report = BuildReport::default();
    let progress: &dyn BuildProgress = options.progress.as_deref().unwrap_or(&NoProgress);
    // Tiers 0..k, decoded: a capture can drop any number of seeds.
    let mut lower: Vec<Vec<u8>> = Vec::new();
    for seeds in 0..=max_seeds {
        let path = tier_path(rules, dir, seeds);
        let needed_later = keep_all || highest_missing.is_some_and(|h| seeds < h);
        if present[seeds as usize] {
            let file = TableFile::open(rules, &path, seeds)?;
            if needed_later {
                lower.push(pool.install(|| finished_values(rules, &file, &lower))?);
            }
            let entries = file.header().entries;
            report.tiers.push(TierReport { seeds, path, entries, bytes: file.size(), built: false, elapsed: Duration::ZERO });
            continue;
        }
        if let Some(limit) = options.memory_limit {
            let lower_positions = lower.iter().map(|t| t.len() as u64).sum();
            check_one_process(seeds, limit, resident_bytes(), lower_positions, rules.tier_size(seeds))?;
        }
        let started = Instant::now();
        progress.tier_started(seeds, rules.tier_size(seeds));
        let task = TierTask { rules, seeds, lower: &lower, stop: options.stop.as_deref(), progress };
        let Some(solved) = solver.solve(&task)? else {
            progress.interrupted();
            report.interrupted = true;
            break;
        };
        progress.compressing();
        let bytes = solver.write(&task, &path, &solved)?;
        // A process that wrote no file (its share of a build shared among processes) may
        // not hold the tier's values either.
        if options.write_images && bytes > 0 {
            pool.install(|| write_image_of(rules, &path, seeds, &solved.values))?;
        }
        progress.tier_finished();
        let entries = solved.values.len() as u64;
        report.tiers.push(TierReport { seeds, path, entries, bytes, built: true, elapsed: started.elapsed() });
        if needed_later {
            lower.push(solved.values);
        }
    }
    Ok((report, lower))
}
