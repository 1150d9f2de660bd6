//! The `rules` argument: the command line's rule names.

use dakon_solver::ruleset::{RulesName, UnknownRules};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// The rules named `name`, the command line's names.
///
/// # Errors
/// `ValueError` with the command line's message naming the known rules, or for rules with
/// `no-first-turn-capture`, which the package does not play yet.
pub fn parse(name: &str) -> PyResult<RulesName> {
    let rules: RulesName = name.parse().map_err(|e: UnknownRules| PyValueError::new_err(e.to_string()))?;
    if rules.needs_opening_state() {
        return Err(PyValueError::new_err(format!(
            "rules '{rules}': no-first-turn-capture is not in the Python package yet (`dakon solve` and `dakon best` play it)"
        )));
    }
    Ok(rules)
}

/// Every rule name, in the order `--help` lists them.
pub fn all() -> Vec<&'static str> {
    RulesName::ALL.iter().map(|r| r.as_str()).collect()
}
