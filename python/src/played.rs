//! What one move did, as `Position.play` returns it beside the new position.

use dakon_solver::dakon::CaptureKind;
use dakon_solver::ruleset::Played;
use pyo3::prelude::*;

/// What one move did: the fields of `dakon play --json`.
#[pyclass(name = "Played", module = "dakon", frozen, get_all)]
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
