//! What `best` and `best_many` return: every legal move's value or bounds, for the player who
//! makes it, ranked by what is proven.

use std::cmp::Reverse;

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::MoveRecord;
use dakon_solver::search::MoveValue;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::played::py_bool;

/// One move's value, for the player who makes it, as `dakon.best` lists them. Equal (and
/// hashed) by value, picklable.
#[pyclass(name = "MoveValue", module = "dakon", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMoveValue {
    /// The move (a hole, as the notation numbers them).
    #[pyo3(get)]
    pub hole: usize,
    /// Proven lower bound of the final store difference after this move.
    #[pyo3(get)]
    pub lower: i32,
    /// Proven upper bound of it.
    #[pyo3(get)]
    pub upper: i32,
    /// Whether no other move of the position can be better: this move's `lower` reaches every
    /// other move's `upper`.
    #[pyo3(get)]
    pub proven_best: bool,
}

impl PyMoveValue {
    /// The value of the move `value` describes (future gains) in `position`, not yet ranked.
    fn new(position: &Position, value: &MoveValue) -> PyMoveValue {
        let MoveRecord { hole, lower, upper, .. } = MoveRecord::new(position, value);
        PyMoveValue { hole, lower, upper, proven_best: false }
    }
}

/// Every move of `position` that `moves` values, ranked by what is proven: the highest lower
/// bound first (the most the mover is sure of), then the highest upper bound, then by hole;
/// each marked `proven_best` when its lower bound reaches every other move's upper bound.
/// Exact values come out best first, ties by hole, as `dakon best` lists them.
pub fn ranked(position: &Position, moves: &[MoveValue]) -> Vec<PyMoveValue> {
    let mut values: Vec<PyMoveValue> = moves.iter().map(|m| PyMoveValue::new(position, m)).collect();
    values.sort_by_key(|m| (Reverse(m.lower), Reverse(m.upper), m.hole));
    for i in 0..values.len() {
        let others_upper = values.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, m)| m.upper).max();
        values[i].proven_best = others_upper.is_none_or(|upper| values[i].lower >= upper);
    }
    values
}

#[pymethods]
impl PyMoveValue {
    /// A move's value from its fields (what pickling calls; `best` makes them).
    ///
    /// Raises ValueError when `lower` exceeds `upper`.
    #[new]
    #[pyo3(signature = (hole, lower, upper, proven_best = false))]
    fn py_new(hole: usize, lower: i32, upper: i32, proven_best: bool) -> PyResult<PyMoveValue> {
        if lower > upper {
            return Err(PyValueError::new_err(format!("lower {lower} exceeds upper {upper}")));
        }
        Ok(PyMoveValue { hole, lower, upper, proven_best })
    }

    /// The final store difference when this move is played and both sides play perfectly
    /// after it; `None` when only bounds were proven.
    #[getter]
    fn value(&self) -> Option<i32> {
        self.exact().then_some(self.lower)
    }

    /// Whether `value` is known (`lower == upper`).
    #[getter]
    fn exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The fields as a dict (JSON-ready).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("hole", self.hole)?;
        d.set_item("value", self.value())?;
        d.set_item("exact", self.exact())?;
        d.set_item("lower", self.lower)?;
        d.set_item("upper", self.upper)?;
        d.set_item("proven_best", self.proven_best)?;
        Ok(d)
    }

    /// Pickling: the constructor and the fields.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (usize, i32, i32, bool)) {
        let m = slf.get();
        (slf.get_type(), (m.hole, m.lower, m.upper, m.proven_best))
    }

    fn __repr__(&self) -> String {
        let value = self.value().map_or_else(|| "None".to_string(), |v| v.to_string());
        format!(
            "MoveValue(hole={}, value={value}, exact={}, lower={}, upper={}, proven_best={})",
            self.hole,
            py_bool(self.exact()),
            self.lower,
            self.upper,
            py_bool(self.proven_best)
        )
    }
}
