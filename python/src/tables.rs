//! `dakon.tables.build` and `dakon.tables.probe`: endgame tables from Python.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dakon_solver::rules::Rules;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::tables::{build_tiers, probe_file, tier_path, BuildOptions, BuildProgress, TierBars};
use dakon_solver::tier_layout::TierLayout;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{interrupted, table_error};
use crate::int_arg::{int_in, optional_int_in};
use crate::position::PositionArg;
use crate::rules_name;
use crate::search_options::{forget_tables, tables_directory, MAX_THREADS};
use crate::wait::{self, Finished};

/// The most seeds a table holds.
const MAX_TABLE_SEEDS: i128 = i8::MAX as i128;

/// Builds the missing tiers `0..=max_seeds` of the board of `holes` holes per row under
/// `rules` into `tables_dir` (default `$DAKON_TABLES`, else `./tables`), as `dakon tables
/// build`: tiers present are kept, so a build stopped by Ctrl-C resumes. Returns one dict per
/// tier: `seeds`, `path`, `entries`, `bytes`, `built` (False: it was there) and `seconds`.
///
/// Raises ValueError naming the argument for `holes` outside 1 to 9, `max_seeds` outside 0
/// to 127 or `threads` outside 1 to 1024, dakon.TableError for a damaged tier or a write that
/// failed, dakon.Interrupted on Ctrl-C (the finished tiers stay on disk, listed in its
/// `partial`).
#[pyfunction]
#[pyo3(signature = (holes, max_seeds, rules = "dakon", tables_dir = None, threads = None, progress = false))]
pub fn build_tables(
    py: Python<'_>,
    holes: &Bound<'_, PyAny>,
    max_seeds: &Bound<'_, PyAny>,
    rules: &str,
    tables_dir: Option<PathBuf>,
    threads: Option<&Bound<'_, PyAny>>,
    progress: bool,
) -> PyResult<Py<PyList>> {
    let holes: usize = int_in("holes", holes, 1..=9)?;
    let max_seeds: u32 = int_in("max_seeds", max_seeds, 0..=MAX_TABLE_SEEDS)?;
    let threads: Option<usize> = optional_int_in("threads", threads, 1..=MAX_THREADS)?;
    let rules = rules_name::parse(rules)?;
    rules_name::refuse_opening(rules, "rules", "dakon.tables.build")?;
    let rules = RuleSet::new(rules, holes).map_err(|e| PyValueError::new_err(format!("holes {holes}: {e}")))?;
    let dir = tables_directory(tables_dir);
    let stop = Arc::new(AtomicBool::new(false));
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let progress = progress.then(|| Arc::new(TierBars::default()) as Arc<dyn BuildProgress>);
    let options = BuildOptions { threads, progress, stop: Some(stop.clone()), memory_limit: None, write_images: true };
    let finished = wait::run(py, &stop, || build_tiers(&rules, &dir, max_seeds, &options), |_| Ok(()))?;
    forget_tables();
    let (report, signal) = match finished {
        Finished::Done(report) => (report, None),
        Finished::Interrupted(report, e) => (report, Some(e)),
    };
    let report = report.map_err(|e| table_error(e.to_string()))?;
    let tiers = PyList::empty(py);
    for tier in &report.tiers {
        let entry = PyDict::new(py);
        entry.set_item("seeds", tier.seeds)?;
        entry.set_item("path", &tier.path)?;
        entry.set_item("entries", tier.entries)?;
        entry.set_item("bytes", tier.bytes)?;
        entry.set_item("built", tier.built)?;
        entry.set_item("seconds", tier.elapsed.as_secs_f64())?;
        tiers.append(entry)?;
    }
    if signal.is_some() || report.interrupted {
        let kept = match report.tiers.len() {
            0 => "no tier was finished".to_string(),
            1 => "tier 0 is kept".to_string(),
            n => format!("tiers 0 to {} are kept", n - 1),
        };
        let message = format!("interrupted while building tier {}; {kept} in {}: build again to resume", report.tiers.len(), dir.display());
        return Err(interrupted(py, &message, tiers.into_any().unbind()));
    }
    Ok(tiers.unbind())
}

/// The value of `position` read from its tier's table file (only its block is decoded): the
/// final store difference, player to move minus opponent, with perfect play, as `dakon tables
/// probe`.
///
/// Raises ValueError for a malformed position, dakon.TableError when its tier has no table in
/// `tables_dir` or the file is damaged.
///
/// >>> dakon.tables.probe("1,0,1/0,2,0 3/4 1", tables_dir="/nonexistent")
/// Traceback (most recent call last):
/// dakon.TableError: /nonexistent/dakon-3-k4.dkt: no table for 4 seeds on a board of 3 holes per row (rules dakon)
#[pyfunction]
#[pyo3(signature = (position, rules = None, tables_dir = None))]
pub fn probe_table(position: PositionArg, rules: Option<&str>, tables_dir: Option<PathBuf>) -> PyResult<i32> {
    let position = position.resolve(rules.map(rules_name::parse).transpose()?)?;
    rules_name::refuse_opening(position.rules, "rules", "dakon.tables.probe")?;
    let (p, rules) = (position.position, position.rule_set());
    let (seeds, index) = (rules.seeds_on_board(&p), rules.index(&p));
    let dir = tables_directory(tables_dir);
    let path = tier_path(&rules, &dir, seeds);
    if !path.exists() {
        return Err(table_error(format!(
            "{}: no table for {seeds} seeds on a board of {} holes per row (rules {})",
            path.display(),
            p.holes(),
            rules.name()
        )));
    }
    let gain = probe_file(&rules, &dir, seeds, index).map_err(|e| table_error(e.to_string()))?;
    Ok(p.store_difference() + gain as i32)
}
