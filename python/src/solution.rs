//! What `solve` and `best` return: values as final store differences, player to move minus
//! opponent, and holes as the notation numbers them (the command line's `--json` fields).

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::{absolute_line, RuleSet};
use dakon_solver::search::{MoveValue, Solution};
use pyo3::prelude::*;

use crate::played::py_bool;

/// The result of `dakon.solve`: the value with perfect play, or proven bounds when a limit
/// stopped the search.
#[pyclass(name = "Solution", module = "dakon", frozen, get_all)]
#[derive(Clone)]
pub struct PySolution {
    /// The position solved, in notation.
    pub position: String,
    /// Its rules.
    pub rules: &'static str,
    /// The final store difference (player to move minus opponent) with perfect play; `None`
    /// when only bounds were proven.
    pub value: Option<i32>,
    /// Whether `value` is known (`lower == upper`).
    pub exact: bool,
    /// Proven lower bound of the value.
    pub lower: i32,
    /// Proven upper bound of the value.
    pub upper: i32,
    /// The best move (a hole); `None` when the game is over. See `best_move_proven`.
    pub best_move: Option<usize>,
    /// Whether `best_move` is proven to reach `lower` (optimal when exact); when false it is
    /// the search's guess, as a limit stopped it before it proved a move.
    pub best_move_proven: bool,
    /// The principal variation as holes: every move optimal when exact.
    pub pv: Vec<usize>,
    /// Positions searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// Whether endgame tables were used.
    pub tables: bool,
}

impl PySolution {
    /// The solution of `position` under `rules` that `solution` (future gains, rules-level
    /// moves) describes.
    pub fn new(rules: &RuleSet, position: &Position, solution: &Solution, tables: bool) -> PySolution {
        let stores = position.store_difference();
        let exact = solution.is_exact();
        PySolution {
            position: position.to_string(),
            rules: rules.rules_name().as_str(),
            value: exact.then_some(stores + solution.lower),
            exact,
            lower: stores + solution.lower,
            upper: stores + solution.upper,
            best_move: solution.best_move.map(|mv| position.absolute_hole(position.mover(), mv as usize)),
            best_move_proven: solution.best_move_proven,
            pv: absolute_line(rules, position, &solution.pv).0,
            nodes: solution.nodes,
            seconds: solution.elapsed.as_secs_f64(),
            tables,
        }
    }
}

#[pymethods]
impl PySolution {
    /// `"win"`, `"draw"` or `"loss"` for the player to move; `None` when not exact.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.value.map(outcome)
    }

    fn __repr__(&self) -> String {
        let value = self.value.map_or_else(|| "None".to_string(), |v| v.to_string());
        let best = self.best_move.map_or_else(|| "None".to_string(), |h| h.to_string());
        format!(
            "Solution(position='{}', rules='{}', value={value}, exact={}, lower={}, upper={}, best_move={best}, pv={:?}, nodes={})",
            self.position,
            self.rules,
            py_bool(self.exact),
            self.lower,
            self.upper,
            self.pv,
            self.nodes
        )
    }
}

/// One move's value, for the player who makes it, as `dakon.best` lists them.
#[pyclass(name = "MoveValue", module = "dakon", frozen, get_all)]
#[derive(Clone)]
pub struct PyMoveValue {
    /// The move.
    pub hole: usize,
    /// The final store difference when this move is played and both sides play perfectly
    /// after it; `None` when only bounds were proven.
    pub value: Option<i32>,
    pub exact: bool,
    pub lower: i32,
    pub upper: i32,
}

impl PyMoveValue {
    /// The value of the move `value` describes (future gains) in `position`.
    pub fn new(position: &Position, value: &MoveValue) -> PyMoveValue {
        let stores = position.store_difference();
        let exact = value.lower == value.upper;
        PyMoveValue {
            hole: position.absolute_hole(position.mover(), value.mv as usize),
            value: exact.then_some(stores + value.lower),
            exact,
            lower: stores + value.lower,
            upper: stores + value.upper,
        }
    }
}

#[pymethods]
impl PyMoveValue {
    fn __repr__(&self) -> String {
        let value = self.value.map_or_else(|| "None".to_string(), |v| v.to_string());
        format!("MoveValue(hole={}, value={value}, exact={}, lower={}, upper={})", self.hole, py_bool(self.exact), self.lower, self.upper)
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
