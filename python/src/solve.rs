//! `dakon.solve` and `dakon.best`: one position, all threads on it.

use std::cmp::Reverse;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::{Limits, Solver};
use dakon_solver::tt_budget::capped;
use pyo3::prelude::*;

use crate::errors::interrupted;
use crate::position::PositionArg;
use crate::search_options::SearchOptions;
use crate::solution::{PyMoveValue, PySolution};
use crate::wait::{self, Finished};

/// Solves a position exactly: its value with perfect play (the final store difference,
/// player to move minus opponent), the best move and the principal variation.
///
/// `position` is a `Position` or notation (played by `rules`, default Dakon; `rules` also
/// overrides a `Position`'s own). `time_limit` (seconds) and `node_limit` stop the search
/// with proven bounds (`exact` False). `threads` defaults to all cores, `tt_mb` to 256 MiB of
/// transposition table; endgame tables are read from `tables_dir` (default `$DAKON_TABLES`,
/// else `./tables`) unless `use_tables` is False.
///
/// Raises ValueError for a malformed position or unknown rules, dakon.TableError for a damaged
/// table, dakon.Interrupted (a KeyboardInterrupt) on Ctrl-C, its `partial` the bounds proven.
///
/// >>> s = dakon.solve("2,2,2/2,2,2 0/0 0")
/// >>> s.value, s.best_move, s.pv
/// (6, 5, [5, 4, 2, 5, 2, 3, 0, 4, 3])
#[pyfunction]
#[pyo3(signature = (position, rules = None, time_limit = None, node_limit = None, threads = None, tables_dir = None, use_tables = true, tt_mb = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    position: PositionArg,
    rules: Option<&str>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    threads: Option<usize>,
    tables_dir: Option<PathBuf>,
    use_tables: bool,
    tt_mb: Option<usize>,
) -> PyResult<PySolution> {
    let Setup { position: p, rule_set, solver, tables, stop, limits } =
        Setup::new(&position, rules, SearchOptions::new(threads, tt_mb, time_limit, node_limit, tables_dir, use_tables)?)?;
    let finished = wait::run(py, &stop, || solver.solve(&p, &limits), |_| Ok(()))?;
    match finished {
        Finished::Done(solution) => Ok(PySolution::new(&rule_set, &p, &solution, tables)),
        Finished::Interrupted(solution, _) => {
            let partial = PySolution::new(&rule_set, &p, &solution, tables);
            Err(interrupted(py, "solve interrupted: `partial` holds the bounds proven", Py::new(py, partial)?.into_any()))
        }
    }
}

/// Every legal move's value for the player to move, best first, ties by hole (as `dakon
/// best`): the final store difference if that move is played and both sides play perfectly
/// after it. Takes the arguments of `solve`; a limit leaves bounds on the moves it cut.
///
/// Raises as `solve`; on Ctrl-C the `partial` of dakon.Interrupted is the list so far.
///
/// >>> [(m.hole, m.value) for m in dakon.best("2,2,2/2,2,2 0/0 0")]
/// [(5, 6), (3, 2), (4, 0)]
#[pyfunction]
#[pyo3(signature = (position, rules = None, time_limit = None, node_limit = None, threads = None, tables_dir = None, use_tables = true, tt_mb = None))]
#[allow(clippy::too_many_arguments)]
pub fn best(
    py: Python<'_>,
    position: PositionArg,
    rules: Option<&str>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    threads: Option<usize>,
    tables_dir: Option<PathBuf>,
    use_tables: bool,
    tt_mb: Option<usize>,
) -> PyResult<Vec<PyMoveValue>> {
    let Setup { position: p, solver, stop, limits, .. } =
        Setup::new(&position, rules, SearchOptions::new(threads, tt_mb, time_limit, node_limit, tables_dir, use_tables)?)?;
    let finished = wait::run(py, &stop, || solver.analyse_moves(&p, &limits), |_| Ok(()))?;
    // Best first, ties by hole as users number them (as `dakon best` lists them).
    let values = |moves: Vec<_>| {
        let mut values: Vec<PyMoveValue> = moves.iter().map(|m| PyMoveValue::new(&p, m)).collect();
        values.sort_by_key(|m| (Reverse(m.lower), Reverse(m.upper), m.hole));
        values
    };
    match finished {
        Finished::Done(moves) => Ok(values(moves)),
        Finished::Interrupted(moves, _) => {
            let partial = values(moves).into_pyobject(py)?.into_any().unbind();
            Err(interrupted(py, "best interrupted: `partial` holds the moves' bounds proven", partial))
        }
    }
}

/// One position to search, with all threads: its solver and limits.
struct Setup {
    position: Position,
    rule_set: RuleSet,
    solver: Solver<RuleSet>,
    tables: bool,
    /// Raised on Ctrl-C.
    stop: Arc<AtomicBool>,
    limits: Limits,
}

impl Setup {
    /// # Errors
    /// `ValueError` for a malformed position or unknown rules, `dakon.TableError` for a
    /// damaged table.
    fn new(position: &PositionArg, rules: Option<&str>, options: SearchOptions) -> PyResult<Setup> {
        let position = position.resolve(rules)?;
        let (p, rule_set) = (position.position, position.rule_set());
        let tt_bytes = capped(options.tt_bytes, p.holes(), p.seeds_on_board());
        let (solver, tables) = options.solver(rule_set, options.threads, tt_bytes)?;
        let stop = Arc::new(AtomicBool::new(false));
        let limits = options.limits(&stop);
        Ok(Setup { position: p, rule_set, solver, tables, stop, limits })
    }
}
