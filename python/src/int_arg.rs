//! Numeric arguments checked by hand, so that a number out of range raises a `ValueError`
//! naming the argument and its range (PyO3's own conversion raises an `OverflowError` that
//! names neither) and a wrong type a `TypeError` naming the argument.

use std::ops::RangeInclusive;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The integer `value` of the argument `name`, which must lie in `range`.
///
/// # Errors
/// `TypeError` when `value` is not an integer (anything with `__index__`: int, bool, numpy
/// integers), `ValueError` "NAME: expected an integer from LO to HI, found V" when it lies
/// outside `range`.
pub fn int_in<T: TryFrom<i128>>(name: &str, value: &Bound<'_, PyAny>, range: RangeInclusive<i128>) -> PyResult<T> {
    let out_of_range = || out_of_range(name, value, range.clone());
    if value.call_method0("__index__").is_err() {
        return Err(PyTypeError::new_err(format!("{name}: expected an integer, found {}", type_name(value))));
    }
    // Beyond i128 the number is out of every range this package has.
    let number: i128 = value.extract().map_err(|_| out_of_range())?;
    if !range.contains(&number) {
        return Err(out_of_range());
    }
    T::try_from(number).map_err(|_| out_of_range())
}

/// The `ValueError` of the argument `name` whose `value` lies outside `range`.
pub fn out_of_range(name: &str, value: impl std::fmt::Display, range: RangeInclusive<i128>) -> PyErr {
    PyValueError::new_err(format!("{name}: expected an integer from {} to {}, found {value}", range.start(), range.end()))
}

/// `int_in` for an argument that may be `None` (left to its default).
///
/// # Errors
/// As [`int_in`].
pub fn optional_int_in<T: TryFrom<i128>>(name: &str, value: Option<&Bound<'_, PyAny>>, range: RangeInclusive<i128>) -> PyResult<Option<T>> {
    match value {
        Some(v) if !v.is_none() => int_in(name, v, range).map(Some),
        _ => Ok(None),
    }
}

/// The float `value` of the argument `name`, which must lie in `range` (NaN never does).
///
/// # Errors
/// `TypeError` when `value` is not a number, `ValueError` naming the range otherwise.
pub fn float_in(name: &str, value: &Bound<'_, PyAny>, range: RangeInclusive<f64>, unit: &str) -> PyResult<f64> {
    let number: f64 =
        value.extract().map_err(|_| PyTypeError::new_err(format!("{name}: expected a number, found {}", type_name(value))))?;
    if !range.contains(&number) {
        return Err(PyValueError::new_err(format!("{name}: expected {} to {}{unit}, found {value}", range.start(), range.end())));
    }
    Ok(number)
}

/// The Python type name of `value`, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "an object".to_string(), |n| n.to_string())
}
