//! `dakon.solve_many`: many positions at once, one position per thread, as `dakon batch`
//! solves a file.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Limits, Solution, Solver};
use dakon_solver::tt_budget::capped;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::errors::interrupted;
use crate::position::{PositionArg, PyPosition};
use crate::search_options::SearchOptions;
use crate::solution::PySolution;
use crate::wait::{self, Finished};

/// Solves every position of `positions` (`Position`s or notation), `threads` at a time (default
/// all cores), each on one thread: the list of `Solution`s in input order. Positions of one
/// board size and rules share one transposition table (`tt_mb` split between the board sizes)
/// and their endgame tables, as in `dakon batch`; `time_limit` and `node_limit` apply to each
/// position. `progress(done, total)` is called about ten times a second.
///
/// Raises ValueError naming the index of the first malformed position, dakon.TableError for a
/// damaged table, dakon.Interrupted on Ctrl-C: its `partial` is the list so far, `None` for
/// the positions not started (a position cut short keeps its proven bounds).
#[pyfunction]
#[pyo3(signature = (positions, rules = None, time_limit = None, node_limit = None, threads = None, tables_dir = None, use_tables = true, tt_mb = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many(
    py: Python<'_>,
    positions: Vec<PositionArg>,
    rules: Option<&str>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    threads: Option<usize>,
    tables_dir: Option<PathBuf>,
    use_tables: bool,
    tt_mb: Option<usize>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Vec<Option<PySolution>>> {
    let positions: Vec<PyPosition> =
        positions.iter().enumerate().map(|(i, p)| p.resolve(rules).map_err(|e| with_index(py, i, e))).collect::<PyResult<_>>()?;
    let options = SearchOptions::new(threads, tt_mb, time_limit, node_limit, tables_dir, use_tables)?;
    let solvers = solvers(&positions, &options)?;
    let stop = Arc::new(AtomicBool::new(false));
    let work = Work {
        positions: &positions,
        solvers: &solvers,
        limits: options.limits(&stop),
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        results: positions.iter().map(|_| Mutex::new(None)).collect(),
    };
    let total = positions.len();
    let report = |_: Python<'_>| progress.as_ref().map_or(Ok(()), |f| f.call1((work.done.load(Ordering::Relaxed), total)).map(drop));
    let finished = wait::run(py, &stop, || work.run(options.threads), report)?;
    report(py)?;
    let results = |results: Vec<Option<Solution>>| {
        results
            .iter()
            .zip(&positions)
            .map(|(solution, p)| {
                let (rules, tables) = &solvers[&(p.rules, p.position.holes())];
                solution.as_ref().map(|s| PySolution::new(rules.rules(), &p.position, s, *tables))
            })
            .collect::<Vec<_>>()
    };
    match finished {
        Finished::Done(solutions) => Ok(results(solutions)),
        Finished::Interrupted(solutions, _) => {
            let partial = PyList::new(py, results(solutions))?.into_any().unbind();
            Err(interrupted(py, "solve_many interrupted: `partial` holds the solutions so far (None: not started)", partial))
        }
    }
}

/// The ValueError of the `index`-th position, naming it.
fn with_index(py: Python<'_>, index: usize, error: PyErr) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(format!("positions[{index}]: {}", error.value(py)))
}

type Solvers = HashMap<(RulesName, usize), (Solver<RuleSet>, bool)>;

/// One one-thread solver per rules and board size, sharing the table memory, with whether it
/// has endgame tables.
fn solvers(positions: &[PyPosition], options: &SearchOptions) -> PyResult<Solvers> {
    // The most seeds on the board among the positions of each kind.
    let mut kinds: HashMap<(RulesName, usize), u32> = HashMap::new();
    for p in positions {
        let seeds = kinds.entry((p.rules, p.position.holes())).or_default();
        *seeds = (*seeds).max(p.position.seeds_on_board());
    }
    let share = options.tt_bytes / kinds.len().max(1);
    let mut solvers = HashMap::new();
    for ((name, holes), seeds) in kinds {
        let rules = RuleSet::new(name, holes).expect("a position has 1 to 9 holes per row");
        solvers.insert((name, holes), options.solver(rules, 1, capped(share, holes, seeds))?);
    }
    Ok(solvers)
}

/// What the worker threads share: the positions, handed out in input order.
struct Work<'a> {
    positions: &'a [PyPosition],
    solvers: &'a Solvers,
    limits: Limits,
    next: AtomicUsize,
    done: AtomicUsize,
    results: Vec<Mutex<Option<Solution>>>,
}

impl Work<'_> {
    /// Solves with `threads` workers until every position is done or the stop flag is
    /// raised: the solutions by input index, `None` for those not started.
    fn run(&self, threads: usize) -> Vec<Option<Solution>> {
        std::thread::scope(|scope| {
            for _ in 0..threads.min(self.positions.len()) {
                scope.spawn(|| self.work());
            }
        });
        self.results.iter().map(|r| r.lock().expect("a worker never panics holding a result").take()).collect()
    }

    /// One worker: takes the next position until none is left or the search is stopped.
    fn work(&self) {
        let stop = self.limits.stop.as_ref().expect("solve_many's limits have a stop flag");
        while !stop.load(Ordering::Relaxed) {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(p) = self.positions.get(index) else { return };
            let (solver, _) = &self.solvers[&(p.rules, p.position.holes())];
            let solution = solver.solve(&p.position, &self.limits);
            *self.results[index].lock().expect("a worker never panics holding a result") = Some(solution);
            self.done.fetch_add(1, Ordering::Relaxed);
        }
    }
}
