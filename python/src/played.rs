//! What one move did, as `Position.play` returns it beside the new position.

use dakon_solver::dakon::CaptureKind;
use dakon_solver::ruleset::Played;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The names of the capture kinds, as `capture` gives them.
const CAPTURES: [&str; 4] = ["nembak", "mikul", "capture", "empty capture"];

/// What one move did: the fields of `dakon play --json`. Equal (and hashed) by value,
/// picklable.
#[pyclass(name = "Played", module = "dakon", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPlayed {
    /// The hole lifted.
    pub hole: usize,
    /// The last seed fell in the mover's store: the same player moves again, unless the game
    /// is over.
    pub extra_move: bool,
    /// The game is over after this move.
    pub game_over: bool,
    /// Seeds captured into the mover's store (0 without a capture).
    pub captured: u8,
    /// The capture's kind: `"nembak"` or `"mikul"` (Dakon), `"capture"` or `"empty capture"`
    /// (Kalah), `None` without a capture.
    pub capture: Option<&'static str>,
    /// Seeds sown into the mover's store, captures not included.
    pub sown_into_store: u8,
    /// The hole where the last seed fell, `None` for the store.
    pub last_hole: Option<u8>,
    /// Laps sown, 1 plus the relays (Dakon); `None` under Kalah (always one lap).
    pub laps: Option<u32>,
}

impl PyPlayed {
    /// The report of the move `hole` that `played` describes.
    pub fn new(hole: usize, played: &Played) -> PyPlayed {
        let (capture, laps) = match played {
            Played::Dakon(o) => (
                o.capture.map(|c| match c.kind {
                    CaptureKind::Nembak => "nembak",
                    CaptureKind::Mikul => "mikul",
                }),
                Some(o.laps),
            ),
            Played::Kalah(o) => (o.capture.map(|c| if c.facing == 0 { "empty capture" } else { "capture" }), None),
        };
        PyPlayed {
            hole,
            extra_move: played.extra_move(),
            game_over: played.game_over(),
            captured: played.captured(),
            capture,
            sown_into_store: played.sown_into_store(),
            last_hole: played.last_hole(),
            laps,
        }
    }
}

#[pymethods]
impl PyPlayed {
    /// A report from its fields (what pickling calls; `Position.play` makes them).
    ///
    /// Raises ValueError for a capture kind other than those `capture` gives.
    #[new]
    #[pyo3(signature = (hole, extra_move, game_over, captured, capture, sown_into_store, last_hole, laps))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        hole: usize,
        extra_move: bool,
        game_over: bool,
        captured: u8,
        capture: Option<&str>,
        sown_into_store: u8,
        last_hole: Option<u8>,
        laps: Option<u32>,
    ) -> PyResult<PyPlayed> {
        let capture =
            capture
                .map(|c| {
                    CAPTURES.iter().copied().find(|k| *k == c).ok_or_else(|| {
                        PyValueError::new_err(format!("capture: expected None or one of {}, found '{c}'", CAPTURES.join(", ")))
                    })
                })
                .transpose()?;
        Ok(PyPlayed { hole, extra_move, game_over, captured, capture, sown_into_store, last_hole, laps })
    }

    /// The fields as a dict (JSON-ready: the keys of `dakon play --json`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("hole", self.hole)?;
        d.set_item("extra_move", self.extra_move)?;
        d.set_item("game_over", self.game_over)?;
        d.set_item("captured", self.captured)?;
        d.set_item("capture", self.capture)?;
        d.set_item("sown_into_store", self.sown_into_store)?;
        d.set_item("last_hole", self.last_hole)?;
        d.set_item("laps", self.laps)?;
        Ok(d)
    }

    /// Pickling: the constructor and the fields.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, pyo3::types::PyType>, (usize, bool, bool, u8, Option<&'static str>, u8, Option<u8>, Option<u32>)) {
        let p = slf.get();
        (slf.get_type(), (p.hole, p.extra_move, p.game_over, p.captured, p.capture, p.sown_into_store, p.last_hole, p.laps))
    }

    fn __repr__(&self) -> String {
        let or_none = |v: Option<String>| v.unwrap_or_else(|| "None".to_string());
        format!(
            "Played(hole={}, extra_move={}, game_over={}, captured={}, capture={}, sown_into_store={}, last_hole={}, laps={})",
            self.hole,
            py_bool(self.extra_move),
            py_bool(self.game_over),
            self.captured,
            or_none(self.capture.map(|c| format!("'{c}'"))),
            self.sown_into_store,
            or_none(self.last_hole.map(|h| h.to_string())),
            or_none(self.laps.map(|l| l.to_string())),
        )
    }
}

/// `True` or `False`, as Python writes them.
pub fn py_bool(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}
