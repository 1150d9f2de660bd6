//! `dakon.solve_many` and `dakon.best_many`: many positions at once, one position per
//! thread, as `dakon batch` solves a file.
//!
//! Positions of one board size and rules share one transposition table, so a position's
//! search depends on what the others left in it: under a node or time limit the bounds of
//! a run with more than one thread may differ from one run to the next (never contradict);
//! with `threads=1` a run is reproducible. Without a limit every value is exact either way.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Limits, MoveValue, Solution, Solver};
use dakon_solver::tt_budget::capped;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::interrupted;
use crate::move_value::{ranked, PyMoveValue};
use crate::position::{PositionArg, PyPosition};
use crate::rules_name;
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
#[pyo3(signature = (positions, progress = None, **search))]
pub fn solve_many(
    py: Python<'_>,
    positions: Vec<PositionArg>,
    progress: Option<Bound<'_, PyAny>>,
    search: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Option<PySolution>>> {
    let options = SearchOptions::from_kwargs("solve_many", search)?;
    let solved = many(py, &positions, &options, progress, "solve_many", |solver, p, limits| solver.solve(p, limits))?;
    let (positions, solvers, finished) = solved;
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

/// Every legal move's value or bounds for every position of `positions`, as `best` ranks
/// them, `threads` at a time, each position on one thread: one list per position, in input
/// order. Takes the arguments of `solve_many`; `time_limit` and `node_limit` apply to each
/// position.
///
/// Raises as `solve_many`; on Ctrl-C the `partial` of dakon.Interrupted is the list so far,
/// `None` for the positions not started.
#[pyfunction]
#[pyo3(signature = (positions, progress = None, **search))]
pub fn best_many(
    py: Python<'_>,
    positions: Vec<PositionArg>,
    progress: Option<Bound<'_, PyAny>>,
    search: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Option<Vec<PyMoveValue>>>> {
    let options = SearchOptions::from_kwargs("best_many", search)?;
    let (positions, _, finished) =
        many(py, &positions, &options, progress, "best_many", |solver, p, limits| solver.analyse_moves(p, limits))?;
    let results = |results: Vec<Option<Vec<MoveValue>>>| {
        results.iter().zip(&positions).map(|(moves, p)| moves.as_ref().map(|m| ranked(&p.position, m))).collect::<Vec<_>>()
    };
    match finished {
        Finished::Done(moves) => Ok(results(moves)),
        Finished::Interrupted(moves, _) => {
            let partial = PyList::new(py, results(moves))?.into_any().unbind();
            Err(interrupted(py, "best_many interrupted: `partial` holds the positions so far (None: not started)", partial))
        }
    }
}

/// What [`many`] came back with: the positions resolved, their solvers, and each position's
/// result by input index (`None`: not started).
type Many<T> = (Vec<PyPosition>, Solvers, Finished<Vec<Option<T>>>);

/// Runs `job` on every position, `options.threads` positions at a time, each with a
/// one-thread solver shared by the positions of its kind, reporting to `progress`.
///
/// # Errors
/// `ValueError` naming the index of the first malformed position, `dakon.TableError` for a
/// damaged table, an exception of `progress`.
fn many<T: Send>(
    py: Python<'_>,
    positions: &[PositionArg],
    options: &SearchOptions,
    progress: Option<Bound<'_, PyAny>>,
    function: &str,
    job: impl Fn(&Solver<RuleSet>, &Position, &Limits) -> T + Sync,
) -> PyResult<Many<T>> {
    let positions: Vec<PyPosition> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.resolve(options.rules)
                .and_then(|position| rules_name::refuse_opening(position.rules, "rules", &format!("dakon.{function}")).map(|()| position))
                .map_err(|e| with_index(py, function, i, e))
        })
        .collect::<PyResult<_>>()?;
    let solvers = solvers(&positions, options)?;
    let stop = Arc::new(AtomicBool::new(false));
    let work = Work {
        positions: &positions,
        solvers: &solvers,
        limits: options.limits(&stop),
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        results: positions.iter().map(|_| Mutex::new(None)).collect(),
        job,
    };
    let total = positions.len();
    let report = |_: Python<'_>| progress.as_ref().map_or(Ok(()), |f| f.call1((work.done.load(Ordering::Relaxed), total)).map(drop));
    let finished = wait::run(py, &stop, || work.run(options.threads), report)?;
    report(py)?;
    drop(work);
    Ok((positions, solvers, finished))
}

/// The ValueError of the `index`-th position, naming it.
fn with_index(py: Python<'_>, function: &str, index: usize, error: PyErr) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(format!("{function}: positions[{index}]: {}", error.value(py)))
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

/// What the worker threads share: the positions, handed out in input order, and the job.
struct Work<'a, T, J> {
    positions: &'a [PyPosition],
    solvers: &'a Solvers,
    limits: Limits,
    next: AtomicUsize,
    done: AtomicUsize,
    results: Vec<Mutex<Option<T>>>,
    job: J,
}

impl<T: Send, J: Fn(&Solver<RuleSet>, &Position, &Limits) -> T + Sync> Work<'_, T, J> {
    /// Runs the job with `threads` workers until every position is done or the stop flag is
    /// raised: the results by input index, `None` for those not started.
    fn run(&self, threads: usize) -> Vec<Option<T>> {
        std::thread::scope(|scope| {
            for _ in 0..threads.min(self.positions.len()) {
                scope.spawn(|| self.work());
            }
        });
        self.results.iter().map(|r| r.lock().expect("a worker never panics holding a result").take()).collect()
    }

    /// One worker: takes the next position until none is left or the search is stopped.
    fn work(&self) {
        let stop = self.limits.stop.as_ref().expect("the limits of many positions have a stop flag");
        while !stop.load(Ordering::Relaxed) {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(p) = self.positions.get(index) else { return };
            let (solver, _) = &self.solvers[&(p.rules, p.position.holes())];
            let result = (self.job)(solver, &p.position, &self.limits);
            *self.results[index].lock().expect("a worker never panics holding a result") = Some(result);
            self.done.fetch_add(1, Ordering::Relaxed);
        }
    }
}
