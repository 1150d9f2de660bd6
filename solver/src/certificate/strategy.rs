//! One half of a certificate: a strategy, the move its owner plays on each board.

use std::collections::BTreeMap;

use super::Board;

/// The hole (absolute number, as in the notation) that the strategy's owner lifts on each
/// board where it is to move. A map, so that the file's rule "sorted by board, no board twice"
/// holds by construction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Strategy {
    /// Board to hole.
    pub moves: BTreeMap<Board, u8>,
}

impl Strategy {
    /// How many boards have a move.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the strategy has no entry (the claim of its half holds without one).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}
