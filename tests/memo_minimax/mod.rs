//! Exact values by plain memoized minimax over the independent rules reference of
//! `solver/tests/reference` (neither the engine's rules nor its search), and the helpers the
//! CLI tests share: running `dakon`, replaying its moves.

use std::collections::HashMap;
use std::process::{Command, Output};

#[path = "../../solver/tests/reference/mod.rs"]
pub mod reference;

pub use reference::notation::{format, parse};
pub use reference::Board;

/// Everything a position's value depends on.
type Key = (Vec<u32>, [u32; 2], usize);

/// Memoized exact values.
#[derive(Default)]
pub struct Minimax {
    memo: HashMap<Key, i32>,
}

impl Minimax {
    /// The exact final store difference, player to move minus opponent, with perfect play.
    pub fn value(&mut self, b: &Board) -> i32 {
        if b.is_over() {
            // The seeds left (all on the other side) go to the other player.
            return b.stores[b.to_move] as i32 - b.stores[1 - b.to_move] as i32 - b.seeds_on_board() as i32;
        }
        let key = (b.holes.clone(), b.stores, b.to_move);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = b.moves().into_iter().map(|hole| self.move_value(b, hole)).max().expect("a game not over has moves");
        self.memo.insert(key, v);
        v
    }

    /// The exact final store difference for the mover of `b` if they play `hole`.
    pub fn move_value(&mut self, b: &Board, hole: usize) -> i32 {
        let next = b.play(hole).0;
        let v = self.value(&next);
        if next.to_move == b.to_move {
            v
        } else {
            -v
        }
    }

    /// The exact final store difference for player 0.
    pub fn value_for_player_0(&mut self, b: &Board) -> i32 {
        let v = self.value(b);
        if b.to_move == 0 {
            v
        } else {
            -v
        }
    }
}

/// Plays `holes` from `b`, panicking on an illegal move.
pub fn play(b: &Board, holes: &[usize]) -> Board {
    holes.iter().fold(b.clone(), |at, &hole| at.play(hole).0)
}

/// Runs the `dakon` binary with `args`.
pub fn dakon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).output().expect("dakon runs")
}

/// The stdout lines of a run, each parsed as JSON.
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}
