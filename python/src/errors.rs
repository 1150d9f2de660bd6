//! The exceptions of the package, beside Python's own `ValueError` (a malformed position, an
//! illegal move, unknown rules, a bad option) and `OSError` (a file that cannot be read or
//! written).

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;

create_exception!(dakon, DakonError, PyException, "Base class of the errors of dakon.");
create_exception!(
    dakon,
    TableError,
    DakonError,
    "An endgame table file that is damaged, foreign or of another version (the message names the file)."
);
create_exception!(
    dakon,
    CertificateError,
    DakonError,
    "A certificate that could not be written (the solver could not back the claim), or a file the checker refused."
);
create_exception!(
    dakon,
    Interrupted,
    PyKeyboardInterrupt,
    "Ctrl-C stopped a long call; `partial` holds what it had proven (bounds, finished positions)."
);

/// An [`Interrupted`] carrying `partial`, what the stopped call had already computed.
pub fn interrupted(py: Python<'_>, message: &str, partial: Py<PyAny>) -> PyErr {
    let error = Interrupted::new_err(message.to_string());
    if let Err(e) = error.value(py).setattr("partial", partial) {
        return e;
    }
    error
}

/// A `dakon.TableError` with `message`.
pub fn table_error(message: String) -> PyErr {
    TableError::new_err(message)
}
