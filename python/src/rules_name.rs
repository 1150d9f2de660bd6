//! The `rules` argument: the command line's rule names.

use dakon_solver::dakon::DakonOptions;
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

/// The options of `rules` when they include `no-first-turn-capture`: positions are then
/// opening states, solved by the opening search.
pub fn opening_options(rules: RulesName) -> Option<DakonOptions> {
    match rules {
        RulesName::Dakon(options) if options.contains(DakonOptions::NO_FIRST_TURN_CAPTURE) => Some(options),
        _ => None,
    }
}

/// Refuses rules with `no-first-turn-capture` where `function` does not play them yet.
///
/// # Errors
/// `ValueError` naming `argument`, the rules, and what plays them.
pub fn refuse_opening(rules: RulesName, argument: &str, function: &str) -> PyResult<()> {
    if opening_options(rules).is_some() {
        return Err(PyValueError::new_err(format!(
            "{argument}: the rules '{rules}' (no-first-turn-capture) are not played by {function} yet \
             (dakon.solve, dakon.best and Position play them)"
        )));
    }
    Ok(())
}

/// Every rule name, in the order `--help` lists them.
pub fn all() -> Vec<&'static str> {
    RulesName::ALL.iter().map(|r| r.as_str()).collect()
}
