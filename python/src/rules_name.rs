//! The `rules` argument: the command line's rule names.

use dakon_solver::ruleset::{RulesName, UnknownRules};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// The rules named `name`, the command line's names.
///
/// # Errors
/// `ValueError` with the command line's message naming the known rules.
pub fn parse(name: &str) -> PyResult<RulesName> {
    name.parse().map_err(|e: UnknownRules| PyValueError::new_err(e.to_string()))
}

/// Every rule name, in the order `--help` lists them.
pub fn all() -> Vec<&'static str> {
    RulesName::ALL.iter().map(|r| r.as_str()).collect()
}
