//! `dakon._dakon`: the native half of the Python package `dakon`, a thin layer over
//! `dakon-solver` (rules, search, tables, certificates) and `dakon-check` (the independent
//! checker). The Python half (`python/dakon/`) re-exports these names and adds the progress
//! bars and arrays of `solve_many` and `best_many`, what a learner sees (`learning.py`), the
//! OpenSpiel bridge and the PettingZoo environment.
//!
//! Every long call runs the Rust work on a thread of its own while the calling thread, with
//! the GIL released, waits for it and looks for Ctrl-C between waits (`wait`).

mod certificates;
mod errors;
mod int_arg;
mod many;
mod move_value;
mod played;
mod position;
mod rules_name;
mod search_options;
mod solution;
mod solve;
mod tables;
mod wait;

use pyo3::prelude::*;

#[pymodule]
fn _dakon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<position::PyPosition>()?;
    m.add_class::<played::PyPlayed>()?;
    m.add_class::<solution::PySolution>()?;
    m.add_class::<move_value::PyMoveValue>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::best, m)?)?;
    m.add_function(wrap_pyfunction!(many::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::best_many, m)?)?;
    m.add_function(wrap_pyfunction!(tables::build_tables, m)?)?;
    m.add_function(wrap_pyfunction!(tables::probe_table, m)?)?;
    m.add_function(wrap_pyfunction!(certificates::write_certificate, m)?)?;
    m.add_function(wrap_pyfunction!(certificates::check_certificate, m)?)?;
    m.add("RULES", rules_name::all())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DakonError", py.get_type::<errors::DakonError>())?;
    m.add("TableError", py.get_type::<errors::TableError>())?;
    m.add("CertificateError", py.get_type::<errors::CertificateError>())?;
    m.add("Interrupted", py.get_type::<errors::Interrupted>())?;
    Ok(())
}
