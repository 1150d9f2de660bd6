//! `dakon.solve` and `dakon.best`: one position, all threads on it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dakon_solver::dakon::{DakonOptions, Position};
use dakon_solver::first_turn_search::{solve_opening, value_opening_moves, OpeningSolution};
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::{Limits, Solver};
use dakon_solver::tt_budget::capped;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::interrupted;
use crate::move_value::{ranked, PyMoveValue};
use crate::position::{PositionArg, PyPosition};
use crate::rules_name;
use crate::search_options::SearchOptions;
use crate::solution::PySolution;
use crate::wait::{self, Finished};

/// Solves a position exactly: its value with perfect play (the final store difference,
/// player to move minus opponent), the best move and the principal variation.
///
/// `position` is a `Position` or notation. The search keywords (`SearchOptions`): `rules`
/// (default the position's, notation: Dakon), `time_limit` (seconds) and `node_limit` stop
/// the search with proven bounds (`exact` False; the node limit is looked at every 4,096
/// nodes of each thread, so a search may pass it by that much), `threads` (default all
/// cores), `tt_mb` (default 256 MiB of transposition table), `tables_dir` (default
/// `$DAKON_TABLES`, else `./tables`) and `use_tables`.
///
/// Under rules with `no-first-turn-capture` (`"dakon:no-first-turn-capture"`, alone or with
/// other options) the position's pending first turns (`Position.first_turns`; `start` has
/// both) are played out by the opening search of `dakon solve`, whose leaves the ordinary
/// search tests: `pv` is then the best move alone, `nodes` the opening's states and the
/// positions its leaves visited.
///
/// Raises ValueError for a malformed position, unknown rules or a keyword's number out of
/// range (naming it), TypeError for an unknown keyword or a wrong type, dakon.TableError for
/// a damaged table, dakon.Interrupted (a KeyboardInterrupt) on Ctrl-C, its `partial` the
/// bounds proven.
///
/// >>> s = dakon.solve("2,2,2/2,2,2 0/0 0")
/// >>> s.value, s.best_move, s.pv
/// (6, 5, [5, 4, 2, 5, 2, 3, 0, 4, 3])
#[pyfunction]
#[pyo3(signature = (position, **search))]
pub fn solve(py: Python<'_>, position: PositionArg, search: Option<&Bound<'_, PyDict>>) -> PyResult<PySolution> {
    let Setup { position: p, rule_set, solver, tables, stop, limits, opening } =
        Setup::new(&position, SearchOptions::from_kwargs("solve", search)?)?;
    if let Some((state, options)) = opening {
        let solution = |found: &OpeningSolution| PySolution::of_opening(&state, found, tables);
        return match wait::run(py, &stop, || solve_opening(&solver, &state.state(), options, &limits), |_| Ok(()))? {
            Finished::Done(found) => Ok(solution(&found)),
            Finished::Interrupted(found, _) => {
                let partial = Py::new(py, solution(&found))?.into_any();
                Err(interrupted(py, "solve interrupted: `partial` holds the bounds proven", partial))
            }
        };
    }
    let finished = wait::run(py, &stop, || solver.solve(&p, &limits), |_| Ok(()))?;
    match finished {
        Finished::Done(solution) => Ok(PySolution::new(&rule_set, &p, &solution, tables)),
        Finished::Interrupted(solution, _) => {
            let partial = PySolution::new(&rule_set, &p, &solution, tables);
            Err(interrupted(py, "solve interrupted: `partial` holds the bounds proven", Py::new(py, partial)?.into_any()))
        }
    }
}

/// Every legal move's value for the player to move: the final store difference if that move
/// is played and both sides play perfectly after it. Takes the arguments of `solve`.
///
/// Ranked by what is proven: the highest lower bound first, then the highest upper bound,
/// then by hole; exact values therefore best first, ties by hole (as `dakon best`). A limit
/// leaves bounds on the moves it cut, and another move's bounds may then reach above the
/// first's: the first is certainly best only when its `proven_best` is True.
///
/// Under `no-first-turn-capture`, every move is valued by the opening search, in rounds of one
/// test each (as `dakon best`). Raises as `solve`; on Ctrl-C the `partial` of
/// dakon.Interrupted is the list so far.
///
/// >>> [(m.hole, m.value, m.proven_best) for m in dakon.best("2,2,2/2,2,2 0/0 0")]
/// [(5, 6, True), (3, 2, False), (4, 0, False)]
#[pyfunction]
#[pyo3(signature = (position, **search))]
pub fn best(py: Python<'_>, position: PositionArg, search: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<PyMoveValue>> {
    let Setup { position: p, solver, stop, limits, opening, .. } = Setup::new(&position, SearchOptions::from_kwargs("best", search)?)?;
    let finished = match opening {
        Some((state, options)) => wait::run(py, &stop, || value_opening_moves(&solver, &state.state(), options, &limits), |_| Ok(()))?,
        None => wait::run(py, &stop, || solver.analyse_moves(&p, &limits), |_| Ok(()))?,
    };
    match finished {
        Finished::Done(moves) => Ok(ranked(&p, &moves)),
        Finished::Interrupted(moves, _) => {
            let partial = ranked(&p, &moves).into_pyobject(py)?.into_any().unbind();
            Err(interrupted(py, "best interrupted: `partial` holds the moves' bounds proven", partial))
        }
    }
}

/// One position to search, with all threads: its solver and limits.
struct Setup {
    position: Position,
    rule_set: RuleSet,
    /// The solver of the rules after the opening.
    solver: Solver<RuleSet>,
    tables: bool,
    /// Raised on Ctrl-C.
    stop: Arc<AtomicBool>,
    limits: Limits,
    /// Under `no-first-turn-capture`: the position (with its first turns) and the options,
    /// for the opening search, whose leaves `solver` tests.
    opening: Option<(PyPosition, DakonOptions)>,
}

impl Setup {
    /// # Errors
    /// `ValueError` for a malformed position, `dakon.TableError` for a damaged table.
    fn new(position: &PositionArg, options: SearchOptions) -> PyResult<Setup> {
        let position = position.resolve(options.rules)?;
        let (p, rule_set) = (position.position, position.rule_set());
        let tt_bytes = capped(options.tt_bytes, p.holes(), p.seeds_on_board());
        let (solver, tables) = options.solver(rule_set, options.threads, tt_bytes)?;
        let stop = Arc::new(AtomicBool::new(false));
        let limits = options.limits(&stop);
        let opening = rules_name::opening_options(position.rules).map(|options| (position, options));
        Ok(Setup { position: p, rule_set, solver, tables, stop, limits, opening })
    }
}
