//! `dakon.certificates.write` and `dakon.certificates.check`: proof certificates from Python,
//! the second checked by the independent checker (`dakon-check`).

use std::path::PathBuf;

use dakon_solver::certificate::{default_small_seeds, extract, max_small_seeds, Claim, ExtractError};
use dakon_solver::search::Limits;
use dakon_solver::tt_budget::capped;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{interrupted, CertificateError};
use crate::int_arg::optional_int_in;
use crate::position::PositionArg;
use crate::rules_name;
use crate::search_options::SearchOptions;
use crate::solution::PySolution;
use crate::wait::{self, Finished};

/// Solves `position` and writes a proof certificate of what was proven (the exact value, or the
/// bounds a limit left) to `path` (a `.dkc` file, written whole or not at all), then, unless
/// `check` is False, reads it back and checks it with the independent checker. Returns the JSON
/// text of the record `dakon solve --certificate --json` writes: `file`, `bytes`, `lower`,
/// `upper`, `small_seeds`, entries, `seconds`, `checked` and `check`; the Python side parses it.
///
/// Takes the search keywords of `solve` (`**search`).
///
/// Raises ValueError for a malformed position or `small_seeds` above what the format allows
/// on the board (29 on 6 holes a row, 64 on 1 to 3: `max_small_seeds`),
/// dakon.CertificateError if the solver could not back the claim or the checker refused the
/// file (a bug; the file is kept), OSError if it cannot be written, dakon.Interrupted on
/// Ctrl-C (nothing written).
#[pyfunction]
#[pyo3(signature = (position, path, small_seeds = None, check = true, **search))]
pub fn write_certificate(
    py: Python<'_>,
    position: PositionArg,
    path: PathBuf,
    small_seeds: Option<&Bound<'_, PyAny>>,
    check: bool,
    search: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let options = SearchOptions::from_kwargs("certificates.write", search)?;
    let position = position.resolve(options.rules)?;
    let most = max_small_seeds(position.position.holes());
    let small_seeds: Option<u8> = optional_int_in("small_seeds", small_seeds, 0..=most.into())?;
    rules_name::refuse_opening(position.rules, "rules", "dakon.certificates.write")?;
    let (p, rule_set) = (position.position, position.rule_set());
    let (solver, tables) = options.solver(rule_set, options.threads, capped(options.tt_bytes, p.holes(), p.seeds_on_board()))?;
    let small_seeds = small_seeds.unwrap_or_else(|| default_small_seeds(&rule_set));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let limits = options.limits(&stop);
    let started = std::time::Instant::now();
    let work = || {
        let solution = solver.solve(&p, &limits);
        let stores = p.store_difference();
        let claim = Claim { lower: stores + solution.lower, upper: stores + solution.upper };
        // The extraction re-proves each strategy move; only Ctrl-C may stop it.
        let extraction = extract(&solver, &p, claim, small_seeds, &Limits { stop: Some(stop.clone()), ..Limits::default() });
        (solution, claim, extraction)
    };
    let (solution, claim, extraction) = match wait::run(py, &stop, work, |_| Ok(()))? {
        Finished::Done(done) => done,
        Finished::Interrupted((solution, ..), _) => {
            let partial = Py::new(py, PySolution::new(&rule_set, &p, &solution, tables))?.into_any();
            return Err(interrupted(py, &format!("certificate {}: interrupted, nothing written", path.display()), partial));
        }
    };
    let certificate = extraction
        .map_err(|e| match e {
            ExtractError::SmallSeeds { .. } => PyValueError::new_err(format!("small_seeds: {e}")),
            e => CertificateError::new_err(format!("certificate {}: {e}", path.display())),
        })?
        .certificate;
    let bytes = certificate.write(&path).map_err(|e| PyOSError::new_err(format!("cannot write the certificate: {e}")))?;
    let seconds = started.elapsed().as_secs_f64();
    let checked = if check { Some(check_file(&path)?) } else { None };
    if let Some(Err(problem)) = &checked {
        return Err(CertificateError::new_err(format!(
            "the independent checker refused the certificate {}: {problem} (a bug in the certificate writer; the file is kept)",
            path.display()
        )));
    }
    let record = serde_json::json!({
        "file": path.display().to_string(),
        "bytes": bytes,
        "lower": claim.lower,
        "upper": claim.upper,
        "value": solution.is_exact().then_some(claim.lower),
        "small_seeds": small_seeds,
        "lower_entries": certificate.lower_half.len(),
        "upper_entries": certificate.upper_half.len(),
        "seconds": seconds,
        "checked": checked.as_ref().map(|c| c.is_ok()),
        "check": checked.and_then(Result::ok),
    });
    Ok(record.to_string())
}

/// Checks the certificate in `path` with the independent checker (`dakon check --json`):
/// the JSON text of its report, with `file` and `status` (`holds` or `fails`).
///
/// Raises OSError if the file cannot be read, dakon.CertificateError if it is malformed
/// (damaged, truncated, foreign, another version), with the checker's message.
#[pyfunction]
pub fn check_certificate(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    let bytes = std::fs::read(&path).map_err(|e| PyOSError::new_err(format!("cannot read {}: {e}", path.display())))?;
    let report =
        py.detach(|| dakon_check::check(&bytes)).map_err(|e| CertificateError::new_err(format!("{}: malformed: {e}", path.display())))?;
    let mut object = report.to_json();
    object["file"] = path.display().to_string().into();
    object["status"] = if report.holds() { "holds" } else { "fails" }.into();
    Ok(object.to_string())
}

/// The checker's report on the file just written: `Ok(JSON)` when it holds, `Err(why not)`.
fn check_file(path: &std::path::Path) -> PyResult<Result<serde_json::Value, String>> {
    let bytes = std::fs::read(path).map_err(|e| PyOSError::new_err(format!("cannot read back the certificate {}: {e}", path.display())))?;
    Ok(match dakon_check::check(&bytes) {
        Ok(report) if report.holds() => Ok(report.to_json()),
        Ok(report) => Err(report.lower.failure.as_ref().or(report.upper.failure.as_ref()).map_or_else(String::new, ToString::to_string)),
        Err(error) => Err(format!("malformed: {error}")),
    })
}
