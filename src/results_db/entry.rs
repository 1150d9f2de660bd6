//! One row of the results database: what is proven about one position under one rule set.

use dakon_solver::dakon::Position;

/// How a result was proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The game is over: the value is the stores' difference.
    GameOver,
    /// An alpha-beta search without endgame tables.
    Search,
    /// An alpha-beta search that read endgame tables.
    SearchWithTables,
    /// A search whose certificate the independent checker accepted.
    Certificate,
}

impl Proof {
    /// Every proof, for messages and parsing.
    pub const ALL: [Proof; 4] = [Proof::GameOver, Proof::Search, Proof::SearchWithTables, Proof::Certificate];

    /// The name stored in the database and written in exports.
    pub fn as_str(self) -> &'static str {
        match self {
            Proof::GameOver => "game-over",
            Proof::Search => "search",
            Proof::SearchWithTables => "search+tables",
            Proof::Certificate => "certificate",
        }
    }

    /// The proof called `name`, if any.
    pub fn named(name: &str) -> Option<Proof> {
        Proof::ALL.into_iter().find(|proof| proof.as_str() == name)
    }

    /// A search's proof: with tables or without.
    pub fn search(tables: bool) -> Proof {
        if tables {
            Proof::SearchWithTables
        } else {
            Proof::Search
        }
    }
}

/// Proven bounds of a position's **future gain** (what the mover will still store minus what
/// the opponent will: stores do not enter), so that every position with the same holes and
/// mover shares one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: i32,
    pub upper: i32,
}

impl Bounds {
    /// Whether the value is known.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// Both bounds together (each is a proof, so both hold): `None` if they contradict, which
    /// only a wrong proof can cause.
    pub fn intersect(&self, other: &Bounds) -> Option<Bounds> {
        let merged = Bounds { lower: self.lower.max(other.lower), upper: self.upper.min(other.upper) };
        (merged.lower <= merged.upper).then_some(merged)
    }
}

/// What one computation proved about one position, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The rule set's name, as in table headers (`dakon`, `kalah`, ...).
    pub rules: &'static str,
    /// The position; only its holes and mover matter (see [`key_of`]).
    pub position: Position,
    pub bounds: Bounds,
    /// A best line from the position, mover-relative moves, each proven optimal (only with
    /// exact bounds; empty when unknown).
    pub pv: Vec<u8>,
    pub proof: Proof,
    /// Nodes searched and seconds spent for this result.
    pub nodes: u64,
    pub seconds: f64,
}

/// The key of `position` in the database: its notation with empty stores (the future gain
/// does not depend on them).
pub fn key_of(position: &Position) -> String {
    position.board_only().to_string()
}
