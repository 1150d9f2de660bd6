//! The keyword arguments every search takes (`threads`, `tt_mb`, `time_limit`, `node_limit`,
//! `tables_dir`, `use_tables`) and the solvers and endgame tables they ask for.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use dakon_solver::oracle::Oracle;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Solver};
use dakon_solver::tables::TableSet;
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

use crate::tables::table_error;

/// Transposition table memory when the caller does not say: the command line's `--tt-mb`
/// default.
pub const DEFAULT_TT_MB: usize = 256;

/// What a search may use and how long it may run.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub tt_bytes: usize,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// `None`: no endgame tables.
    pub tables_dir: Option<PathBuf>,
}

impl SearchOptions {
    /// The options the keyword arguments ask for: `threads` (default all cores), `tt_mb`
    /// (MiB), `time_limit` (seconds), `node_limit`, `tables_dir` (default `$DAKON_TABLES`,
    /// else `./tables`, as on the command line) unless `use_tables` is false.
    ///
    /// # Errors
    /// `ValueError` for no threads, no table memory or a time limit that is negative, not a
    /// number or too large.
    pub fn new(
        threads: Option<usize>,
        tt_mb: Option<usize>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        tables_dir: Option<PathBuf>,
        use_tables: bool,
    ) -> PyResult<SearchOptions> {
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads: expected 1 or more"));
        }
        let tt_mb = tt_mb.unwrap_or(DEFAULT_TT_MB);
        if !(1..=1 << 20).contains(&tt_mb) {
            return Err(PyValueError::new_err(format!("tt_mb: expected 1 to {} MiB, found {tt_mb}", 1 << 20)));
        }
        let time = time_limit
            .map(|s| {
                Duration::try_from_secs_f64(s)
                    .map_err(|_| PyValueError::new_err(format!("time_limit: expected zero or more seconds (at most 1e19), found {s}")))
            })
            .transpose()?;
        let tables_dir = use_tables
            .then(|| tables_dir.or_else(|| std::env::var_os("DAKON_TABLES").map(PathBuf::from)).unwrap_or_else(|| PathBuf::from("tables")));
        Ok(SearchOptions {
            threads: threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            tt_bytes: tt_mb << 20,
            time,
            nodes: node_limit,
            tables_dir,
        })
    }

    /// The limits of one search, stopped also by `stop` (raised on Ctrl-C).
    pub fn limits(&self, stop: &Arc<AtomicBool>) -> Limits {
        Limits { time: self.time, nodes: self.nodes, stop: Some(stop.clone()) }
    }

    /// A solver for `rules` with `threads` threads and `tt_bytes` of table, asking the
    /// endgame tables of these options; and whether there are any.
    ///
    /// # Errors
    /// `dakon.TableError` if a table file is present but damaged or foreign.
    pub fn solver(&self, rules: RuleSet, threads: usize, tt_bytes: usize) -> PyResult<(Solver<RuleSet>, bool)> {
        let oracle = self.oracle(rules)?;
        let tables = oracle.is_some();
        Ok((Solver::new(rules, Config { threads, tt_bytes }, oracle), tables))
    }

    /// The endgame tables of `rules` in the tables directory, loaded once per process (a
    /// table build forgets them: [`forget_tables`]).
    fn oracle(&self, rules: RuleSet) -> PyResult<Option<Arc<dyn Oracle<RuleSet>>>> {
        let Some(dir) = &self.tables_dir else { return Ok(None) };
        let key = (rules.rules_name(), rules.holes(), dir.clone());
        if let Some(found) = loaded().lock().expect("the table cache is never poisoned").get(&key) {
            return Ok(found.clone());
        }
        let opened = TableSet::open(&rules, dir).map_err(|e| table_error(format!("{e} (use_tables=False searches without tables)")))?;
        let oracle = opened.map(|t| Arc::new(t) as Arc<dyn Oracle<RuleSet>>);
        loaded().lock().expect("the table cache is never poisoned").insert(key, oracle.clone());
        Ok(oracle)
    }
}

type TablesKey = (RulesName, usize, PathBuf);

/// The endgame tables opened so far, by rules, board size and directory.
fn loaded() -> &'static Mutex<HashMap<TablesKey, Option<Arc<dyn Oracle<RuleSet>>>>> {
    static LOADED: OnceLock<Mutex<HashMap<TablesKey, Option<Arc<dyn Oracle<RuleSet>>>>>> = OnceLock::new();
    LOADED.get_or_init(Default::default)
}

/// Forgets the loaded tables, so that the next search reads the directory again (after a
/// build added tiers).
pub fn forget_tables() {
    loaded().lock().expect("the table cache is never poisoned").clear();
}
