//! Every legal move of a position as users see it: the hole they would type and the final
//! store difference it leads to, best first. `best` prints it; `serve` sends it.

use dakon_solver::dakon::Position;
use dakon_solver::search::MoveValue;

/// One move as shown to the user: the absolute hole and the proven bounds of the final store
/// difference (player to move minus opponent) when it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub hole: usize,
    pub lower: i32,
    pub upper: i32,
}

impl RankedMove {
    /// Whether the value is known exactly (the search was not cut by a limit).
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The move as `best --json` and the server's `moves` list write it.
    pub fn json(&self) -> serde_json::Value {
        let exact = self.is_exact();
        serde_json::json!({"hole": self.hole, "value": exact.then_some(self.lower), "exact": exact, "lower": self.lower, "upper": self.upper})
    }
}

/// The moves of `position` in the notation's numbering with final-difference values, best
/// first, ties by hole.
pub fn ranked_moves(position: &Position, moves: &[MoveValue]) -> Vec<RankedMove> {
    let stored = position.store_difference();
    let mut ranked: Vec<RankedMove> = moves
        .iter()
        .map(|m| RankedMove {
            hole: position.absolute_hole(position.mover(), m.mv as usize),
            lower: stored + m.lower,
            upper: stored + m.upper,
        })
        .collect();
    ranked.sort_by_key(|m| (std::cmp::Reverse(m.lower), std::cmp::Reverse(m.upper), m.hole));
    ranked
}
