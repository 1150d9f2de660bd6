//! What `solve` returns: values as final store differences, player to move minus opponent,
//! and holes as the notation numbers them (the command line's `--json` fields).

use std::hash::{Hash, Hasher};

use dakon_solver::dakon::Position;
use dakon_solver::first_turn_search::OpeningSolution;
use dakon_solver::ruleset::{RuleSet, SolutionRecord};
use dakon_solver::search::Solution;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::played::py_bool;
use crate::position::PyPosition;

/// The result of `dakon.solve`: the value with perfect play, or proven bounds when a limit
/// stopped the search.
///
/// Two solutions are equal (and hash alike) when their position, bounds, best move and
/// principal variation are; how they were found (`nodes`, `seconds`, `tables`) is not
/// compared. Solutions pickle, so they cross `multiprocessing` and joblib.
#[pyclass(name = "Solution", module = "dakon", frozen, eq, hash)]
#[derive(Clone)]
pub struct PySolution {
    /// The position solved (with its rules).
    #[pyo3(get)]
    pub position: PyPosition,
    /// Proven lower bound of the value.
    #[pyo3(get)]
    pub lower: i32,
    /// Proven upper bound of the value.
    #[pyo3(get)]
    pub upper: i32,
    /// The best move (a hole); `None` when the game is over. See `best_move_proven`.
    #[pyo3(get)]
    pub best_move: Option<usize>,
    /// Whether `best_move` is proven to reach `lower` (optimal when exact); when false it is
    /// the search's guess, as a limit stopped it before it proved a move.
    #[pyo3(get)]
    pub best_move_proven: bool,
    /// The principal variation as holes: every move optimal when exact.
    #[pyo3(get)]
    pub pv: Vec<usize>,
    /// Positions searched.
    #[pyo3(get)]
    pub nodes: u64,
    /// Seconds spent.
    #[pyo3(get)]
    pub seconds: f64,
    /// Whether endgame tables were used.
    #[pyo3(get)]
    pub tables: bool,
}

impl PySolution {
    /// The solution of `position` under `rules` that `solution` (future gains, rules-level
    /// moves) describes.
    pub fn new(rules: &RuleSet, position: &Position, solution: &Solution, tables: bool) -> PySolution {
        let SolutionRecord { lower, upper, best_move, best_move_proven, pv, nodes, seconds, .. } =
            SolutionRecord::new(rules, position, solution);
        let position = PyPosition::after_opening(*position, rules.rules_name());
        PySolution { position, lower, upper, best_move, best_move_proven, pv, nodes, seconds, tables }
    }

    /// The solution of `position`, a state of the opening under `no-first-turn-capture`, that
    /// the opening search's `solution` (future gains) describes: its line is the best move
    /// alone, which the search proves only with the value; its nodes are the opening's states
    /// and the positions its leaf tests visited.
    pub fn of_opening(position: &PyPosition, solution: &OpeningSolution, tables: bool) -> PySolution {
        let stored = position.position.store_difference();
        PySolution {
            position: *position,
            lower: stored + solution.lower,
            upper: stored + solution.upper,
            best_move: solution.best_hole,
            best_move_proven: solution.best_hole.is_some(),
            pv: solution.best_hole.into_iter().collect(),
            nodes: solution.opening_states + solution.leaf_nodes,
            seconds: solution.elapsed.as_secs_f64(),
            tables,
        }
    }

    /// What equality and the hash compare: the result, not how it was found.
    fn compared(&self) -> (&PyPosition, i32, i32, Option<usize>, bool, &[usize]) {
        (&self.position, self.lower, self.upper, self.best_move, self.best_move_proven, &self.pv)
    }

    fn value(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

impl PartialEq for PySolution {
    fn eq(&self, other: &Self) -> bool {
        self.compared() == other.compared()
    }
}

impl Hash for PySolution {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.compared().hash(state);
    }
}

/// The constructor's arguments, in its order (what pickling stores).
type Fields = (PyPosition, i32, i32, Option<usize>, bool, Vec<usize>, u64, f64, bool);

#[pymethods]
impl PySolution {
    /// A solution from its fields (what pickling calls; `solve` makes them).
    ///
    /// Raises ValueError when `lower` exceeds `upper`.
    #[new]
    #[pyo3(signature = (position, lower, upper, best_move = None, best_move_proven = false, pv = Vec::new(), nodes = 0, seconds = 0.0, tables = false))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        position: PyPosition,
        lower: i32,
        upper: i32,
        best_move: Option<usize>,
        best_move_proven: bool,
        pv: Vec<usize>,
        nodes: u64,
        seconds: f64,
        tables: bool,
    ) -> PyResult<PySolution> {
        if lower > upper {
            return Err(PyValueError::new_err(format!("lower {lower} exceeds upper {upper}")));
        }
        Ok(PySolution { position, lower, upper, best_move, best_move_proven, pv, nodes, seconds, tables })
    }

    /// The rules' name (the position's).
    #[getter]
    fn rules(&self) -> &'static str {
        self.position.rules.as_str()
    }

    /// The final store difference (player to move minus opponent) with perfect play; `None`
    /// when only bounds were proven.
    #[getter(value)]
    fn py_value(&self) -> Option<i32> {
        self.value()
    }

    /// Whether `value` is known (`lower == upper`).
    #[getter]
    fn exact(&self) -> bool {
        self.lower == self.upper
    }

    /// `"win"`, `"draw"` or `"loss"` for the player to move; `None` when not exact.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.value().map(outcome)
    }

    /// The fields as a dict (JSON-ready; `position` in notation), e.g. a row of a pandas
    /// DataFrame.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("position", self.position.position.to_string())?;
        d.set_item("rules", self.rules())?;
        d.set_item("value", self.value())?;
        d.set_item("exact", self.exact())?;
        d.set_item("lower", self.lower)?;
        d.set_item("upper", self.upper)?;
        d.set_item("result", self.result())?;
        d.set_item("best_move", self.best_move)?;
        d.set_item("best_move_proven", self.best_move_proven)?;
        d.set_item("pv", self.pv.clone())?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("seconds", self.seconds)?;
        d.set_item("tables", self.tables)?;
        Ok(d)
    }

    /// Pickling: the constructor and the fields.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, Fields) {
        let s = slf.get();
        (slf.get_type(), (s.position, s.lower, s.upper, s.best_move, s.best_move_proven, s.pv.clone(), s.nodes, s.seconds, s.tables))
    }

    fn __repr__(&self) -> String {
        let value = self.value().map_or_else(|| "None".to_string(), |v| v.to_string());
        let best = self.best_move.map_or_else(|| "None".to_string(), |h| h.to_string());
        format!(
            "Solution(position='{}', rules='{}', value={value}, exact={}, lower={}, upper={}, best_move={best}, pv={:?}, nodes={})",
            self.position.position,
            self.rules(),
            py_bool(self.exact()),
            self.lower,
            self.upper,
            self.pv,
            self.nodes
        )
    }
}

/// Win, draw or loss for the player to move, from the final store difference.
fn outcome(value: i32) -> &'static str {
    match value.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}
