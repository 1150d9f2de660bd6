//! Options shared by every command that searches: threads, table memory and limits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use clap::builder::TypedValueParser;
use clap::Args;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::{Config, Limits, Solver};
use dakon_solver::tables::budget::{peak_resident_bytes, resident_bytes};
use dakon_solver::tables::{build_and_load, BuildOptions, BuildReport, TableSet};

use crate::cli_error::CliError;
use crate::tables_arg::ProbeArgs;

/// Resources and limits of a search.
#[derive(Args, Clone, Debug)]
pub struct SearchArgs {
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024).map(usize::from))]
    pub threads: Option<usize>,
    /// Transposition table memory in MiB, any size (64-byte buckets of eight 8-byte entries up
    /// to 7 holes a row, of three whole-key entries on 8 and 9; the former keep a wide
    /// sixteenth more for crowded boards, touched only if used). Memory is touched only as it
    /// is used, in 2 MiB pages on Linux, and a table of 7 holes a row or fewer starts in
    /// 16 MiB of it, moving to its full size once the search has outgrown that: a short
    /// search costs little whatever the size. A table much larger than the search needs
    /// still costs time in cache misses, so raise it only for searches of hundreds of
    /// millions of nodes.
    #[arg(long, default_value_t = 256, value_name = "MIB", value_parser = clap::value_parser!(u32).range(1..=1 << 20).map(|v| v as usize))]
    pub tt_mb: usize,
    /// Stop after this many seconds and report proven bounds instead of the exact value.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Stop after visiting this many positions and report proven bounds.
    #[arg(long, value_name = "NODES")]
    pub node_limit: Option<u64>,
}

impl SearchArgs {
    /// The solver configuration these options ask for.
    pub fn config(&self) -> Config {
        let threads = self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
        Config { threads, tt_bytes: self.tt_mb.max(1) << 20 }
    }

    /// The limits these options ask for, stopped also by Ctrl-C.
    pub fn limits(&self) -> Limits {
        Limits { time: self.time_limit.map(Duration::from_secs_f64), nodes: self.node_limit, stop: Some(interrupt_flag()) }
    }
}

/// A time limit: a finite number of seconds, zero or more, that a [`Duration`] can hold.
///
/// # Errors
/// A message saying what was expected and what was found.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| format!("expected a number of seconds, found '{text}'"))?;
    if Duration::try_from_secs_f64(seconds).is_ok() {
        Ok(seconds)
    } else {
        Err(format!("expected zero or more seconds (at most 1e19), found '{}'", text.trim()))
    }
}

/// A flag raised by Ctrl-C, installed once: long jobs poll it and stop cleanly, keeping
/// what they have proven or written.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = flag.clone();
        // A second Ctrl-C ends the program at once.
        let _ = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        flag
    })
    .clone()
}

/// A solver for `rules` (a board size) with the resources of `search` and the endgame tables
/// `probe` finds, and whether it has tables. The tables load in the background, so the search
/// starts at once.
///
/// # Errors
/// [`CliError::Failure`] if a table file is present but unreadable or damaged.
pub fn solver_for(rules: RuleSet, search: &SearchArgs, probe: &ProbeArgs) -> Result<(Solver<RuleSet>, bool), CliError> {
    let oracle = probe.open_in_background(rules)?;
    let tables = oracle.is_some();
    Ok((Solver::new(rules, search.config(), oracle), tables))
}

/// This process's memory once `--build-tables` has built its tables, before the search's
/// transposition table exists: a caller that fits the whole run in a memory budget adds the
/// transposition table to `resident_bytes`, and `peak_bytes` (the build's own peak) must fit too.
#[derive(Clone, Copy, Debug)]
pub struct MemoryAfterBuild {
    /// Resident memory now (`VmRSS`; 0 where the system does not say).
    pub resident_bytes: u64,
    /// Peak resident memory so far, the build's working memory included (`VmHWM`).
    pub peak_bytes: u64,
}

/// [`solver_for`] with the endgame tables of tiers `0..=max_seeds` built first where missing
/// (on `search`'s threads, into `probe`'s directory) and handed to the search as built, with no
/// decoding of the files just written; says on stderr what the build did, and returns its
/// report and the memory then in use too.
///
/// # Errors
/// [`CliError::Failure`] if the tables cannot be built or a present one is damaged, or Ctrl-C
/// stopped the build (the tiers finished are kept).
pub fn solver_with_built_tables(
    rules: RuleSet,
    search: &SearchArgs,
    probe: &ProbeArgs,
    max_seeds: u32,
) -> Result<(Solver<RuleSet>, BuildReport, MemoryAfterBuild), CliError> {
    let config = search.config();
    // The solve searches with the tiers as built: images would only add writing to its time.
    let (tables, report) = build_and_say(rules, probe, max_seeds, config.threads, interrupt_flag(), false, "dakon")?;
    let resident = resident_bytes();
    // The kernel's counters are approximate between reads: the peak is at least what is resident.
    let memory = MemoryAfterBuild { resident_bytes: resident, peak_bytes: peak_resident_bytes().max(resident) };
    Ok((Solver::new(rules, config, Some(std::sync::Arc::new(tables))), report, memory))
}

/// Builds the endgame tables of tiers `0..=max_seeds` of `rules` where missing from `probe`'s
/// directory, on `threads` threads until `stop` is raised, and returns all of them in memory
/// as built, with the build's report; says on stderr, after `who: `, what it did. With
/// `write_images`, each tier built now gets its memory image written beside its file.
///
/// # Errors
/// [`CliError::Failure`] if the tables cannot be built or a present one is damaged, or `stop`
/// was raised (the tiers finished are kept).
pub fn build_and_say(
    rules: RuleSet,
    probe: &ProbeArgs,
    max_seeds: u32,
    threads: usize,
    stop: Arc<AtomicBool>,
    write_images: bool,
    who: &str,
) -> Result<(TableSet<RuleSet>, BuildReport), CliError> {
    let dir = probe.tables.dir();
    let options = BuildOptions { threads, progress: None, stop: Some(stop), memory_limit: None, write_images };
    let (report, tables) = build_and_load(&rules, &dir, max_seeds, &options).map_err(|e| CliError::Failure(e.to_string()))?;
    let Some(tables) = tables else {
        return Err(CliError::Failure(format!(
            "interrupted while building tier {}; the tiers before it are kept in {}",
            report.tiers.len(),
            dir.display()
        )));
    };
    eprintln!(
        "{who}: endgame tables of {} {} holes, tiers 0..={max_seeds}: {} positions built in {:.1} s, {} read; {:.0} MiB in memory",
        rules.name(),
        rules.holes(),
        report.built_entries(),
        report.built_time().as_secs_f64(),
        report.tiers.iter().filter(|t| !t.built).map(|t| t.entries).sum::<u64>(),
        tables.bytes() as f64 / f64::from(1 << 20),
    );
    Ok((tables, report))
}
