//! The search keyword arguments (`rules`, `time_limit`, `node_limit`, `threads`,
//! `tables_dir`, `use_tables`, `tt_mb`), defined once for every function that searches
//! (`solve`, `best`, `solve_many`, `best_many`, `certificates.write`: `**search` in their
//! signatures, the stub's `SearchOptions`), and the solvers and endgame tables they ask for.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use dakon_solver::oracle::Oracle;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Solver};
use dakon_solver::tables::TableSet;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::table_error;
use crate::int_arg::{float_in, int_in, type_name};
use crate::rules_name;

/// Transposition table memory when the caller does not say: the command line's `--tt-mb`
/// default.
pub const DEFAULT_TT_MB: usize = 256;

/// The most table memory a search may ask for, in MiB (1 TiB).
const MAX_TT_MB: i128 = 1 << 20;

/// The most threads a search may ask for.
pub const MAX_THREADS: i128 = 1024;

/// The longest time limit, in seconds (about 30 years: "no limit" is `None`).
const MAX_SECONDS: f64 = 1e9;

/// The search keywords, in the order the documentation lists them.
const KEYWORDS: [&str; 7] = ["rules", "time_limit", "node_limit", "threads", "tables_dir", "use_tables", "tt_mb"];

/// What a search may use and how long it may run.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The rules that override a position's own; `None`: its own (notation: Dakon).
    pub rules: Option<RulesName>,
    pub threads: usize,
    pub tt_bytes: usize,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// `None`: no endgame tables.
    pub tables_dir: Option<PathBuf>,
}

impl SearchOptions {
    /// The options the search keywords of a call to `function` ask for: `threads` (default
    /// all cores), `tt_mb` (MiB, default 256), `time_limit` (seconds), `node_limit`,
    /// `tables_dir` (default `$DAKON_TABLES`, else `./tables`, as on the command line) unless
    /// `use_tables` is false, and `rules`.
    ///
    /// # Errors
    /// `TypeError` for a keyword that is not a search keyword or a value of the wrong type,
    /// `ValueError` naming the keyword and its range for a number outside it, or for unknown
    /// rules.
    pub fn from_kwargs(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<SearchOptions> {
        let mut given: HashMap<&'static str, Bound<'_, PyAny>> = HashMap::new();
        for (key, value) in kwargs.map(|k| k.iter().collect::<Vec<_>>()).unwrap_or_default() {
            let key: String = key.extract()?;
            let Some(known) = KEYWORDS.iter().find(|k| **k == key) else {
                return Err(PyTypeError::new_err(format!(
                    "{function}() got an unexpected keyword argument '{key}' (its search keywords: {})",
                    KEYWORDS.join(", ")
                )));
            };
            if !value.is_none() {
                given.insert(known, value);
            }
        }
        let rules = given
            .get("rules")
            .map(|v| {
                let name: String =
                    v.extract().map_err(|_| PyTypeError::new_err(format!("rules: expected a str, found {}", type_name(v))))?;
                rules_name::parse(&name)
            })
            .transpose()?;
        let threads = given.get("threads").map(|v| int_in("threads", v, 1..=MAX_THREADS)).transpose()?;
        let tt_mb: usize = given.get("tt_mb").map(|v| int_in("tt_mb", v, 1..=MAX_TT_MB)).transpose()?.unwrap_or(DEFAULT_TT_MB);
        let nodes = given.get("node_limit").map(|v| int_in("node_limit", v, 1..=u64::MAX as i128)).transpose()?;
        let time = given
            .get("time_limit")
            .map(|v| float_in("time_limit", v, 0.0..=MAX_SECONDS, " seconds").map(Duration::from_secs_f64))
            .transpose()?;
        let use_tables = match given.get("use_tables") {
            Some(v) => {
                v.extract::<bool>().map_err(|_| PyTypeError::new_err(format!("use_tables: expected a bool, found {}", type_name(v))))?
            }
            None => true,
        };
        let dir = given
            .get("tables_dir")
            .map(|v| {
                v.extract::<PathBuf>().map_err(|_| PyTypeError::new_err(format!("tables_dir: expected a path, found {}", type_name(v))))
            })
            .transpose()?;
        Ok(SearchOptions {
            rules,
            threads: threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            tt_bytes: tt_mb << 20,
            time,
            nodes,
            tables_dir: use_tables.then(|| tables_directory(dir)),
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

/// The endgame tables directory: `dir`, else `$DAKON_TABLES`, else `./tables`, as the
/// command line finds it.
pub fn tables_directory(dir: Option<PathBuf>) -> PathBuf {
    dir.or_else(|| std::env::var_os("DAKON_TABLES").map(PathBuf::from)).unwrap_or_else(|| PathBuf::from("tables"))
}

type TablesKey = (RulesName, usize, PathBuf);

/// Endgame tables by rules, board size and directory (`None`: none there).
type OpenedTables = Mutex<HashMap<TablesKey, Option<Arc<dyn Oracle<RuleSet>>>>>;

/// The endgame tables opened so far, by rules, board size and directory.
fn loaded() -> &'static OpenedTables {
    static LOADED: OnceLock<OpenedTables> = OnceLock::new();
    LOADED.get_or_init(Default::default)
}

/// Forgets the loaded tables, so that the next search reads the directory again (after a
/// build added tiers).
pub fn forget_tables() {
    loaded().lock().expect("the table cache is never poisoned").clear();
}
