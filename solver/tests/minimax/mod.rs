//! Plain memoized minimax of future gains over any rules: the definition in
//! `dakon_solver::rules`, verbatim, for the tests to compare the search and the tables with.

use std::collections::HashMap;

use dakon_solver::transposition_key::TranspositionKey;

/// Memoized future gains under `rules`.
pub struct Minimax<R: TranspositionKey> {
    pub rules: R,
    pub memo: HashMap<R::Key, i32>,
}

impl<R: TranspositionKey> Minimax<R> {
    pub fn new(rules: R) -> Self {
        Minimax { rules, memo: HashMap::new() }
    }

    /// The future gain of `pos` for its mover.
    pub fn value(&mut self, pos: &R::Position) -> i32 {
        let key = self.rules.key(pos);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let moves = self.rules.legal_moves(pos);
        let v = if moves.is_empty() {
            self.rules.terminal_gain(pos)
        } else {
            moves.as_slice().iter().map(|&mv| self.move_value(pos, mv)).max().unwrap()
        };
        self.memo.insert(key, v);
        v
    }

    /// The future gain for the mover of `pos` if they play `mv`.
    pub fn move_value(&mut self, pos: &R::Position, mv: u8) -> i32 {
        let step = self.rules.play(pos, mv);
        let child = self.value(&step.next);
        step.gain + if step.same_mover { child } else { -child }
    }
}
