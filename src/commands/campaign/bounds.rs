//! Proven bounds of a position's value: final store differences, the player to move minus the
//! opponent, as certificates claim them.

use serde::{Deserialize, Serialize};

/// `lower <= value <= upper` (equal when the value is known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: i32,
    pub upper: i32,
}

impl Bounds {
    /// The exact value `value`.
    pub fn exact(value: i32) -> Bounds {
        Bounds { lower: value, upper: value }
    }

    /// Whether the value is known.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// These bounds as the mover of the position before the move sees them: the same mover
    /// after an extra move, else negated (the opponent's gain is the mover's loss).
    pub fn seen_from_parent(self, same_mover: bool) -> Bounds {
        if same_mover {
            self
        } else {
            Bounds { lower: -self.upper, upper: -self.lower }
        }
    }

    /// `[+4, +20]`, or `+6 (exact)`.
    pub fn describe(&self) -> String {
        if self.is_exact() {
            format!("{:+} (exact)", self.lower)
        } else {
            format!("[{:+}, {:+}]", self.lower, self.upper)
        }
    }
}

/// Which side of the value a proven bound is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The value is at least the bound.
    AtLeast,
    /// The value is at most the bound.
    AtMost,
}

impl Side {
    /// `at least` or `at most`.
    pub fn words(self) -> &'static str {
        match self {
            Side::AtLeast => "at least",
            Side::AtMost => "at most",
        }
    }
}
