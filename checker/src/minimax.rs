//! Exact values of small positions (at most `L` seeds on the board) by plain minimax.

use std::collections::HashMap;

use crate::rules::{difference, Board, Position};

/// Memoized minimax: each board with each player to move is solved once.
#[derive(Default)]
pub(crate) struct Minimax {
    /// What the player to move still adds to their store difference with perfect play.
    gains: HashMap<(Board, usize), i64>,
}

impl Minimax {
    /// The final store difference, `player` minus the other, with perfect play from `position`.
    pub(crate) fn value_for(&mut self, position: &Position, player: usize) -> i64 {
        let gain = self.gain(position);
        position.store_difference(player) + if position.player() == player { gain } else { -gain }
    }

    /// How many positions were solved (not counting those looked up again).
    pub(crate) fn solved(&self) -> u64 {
        self.gains.len() as u64
    }

    /// Recursive: every turn stores a seed or moves seeds only towards the mover's store along
    /// the mover's own row, so a game with `s` seeds on a board of `n` holes per row lasts at
    /// most `(s + 1) · (s · n + 1)` turns: 1,417 for `L` = 12 on 9 holes.
    fn gain(&mut self, position: &Position) -> i64 {
        let mover = position.player();
        if let Some(stores) = position.final_stores() {
            return difference(stores, mover) - position.store_difference(mover);
        }
        if let Some(&gain) = self.gains.get(&position.key()) {
            return gain;
        }
        let mut best = i64::MIN;
        for (_, next) in position.successors() {
            let later = self.gain(&next);
            let stored = next.store_difference(mover) - position.store_difference(mover);
            best = best.max(stored + if next.player() == mover { later } else { -later });
        }
        self.gains.insert(position.key(), best);
        best
    }
}
