//! Exact values by plain memoized minimax over the rules engine (no search code), and the
//! helpers the CLI tests share: running `dakon`, replaying its moves.

use std::collections::HashMap;
use std::process::{Command, Output};

use dakon_solver::dakon::Position;

/// The exact final store difference, player to move minus opponent, with perfect play.
pub fn value(p: &Position, memo: &mut HashMap<Position, i32>) -> i32 {
    if p.is_over() {
        return p.final_difference();
    }
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let v = p.legal_holes().into_iter().map(|hole| move_value(p, hole, memo)).max().expect("a game not over has moves");
    memo.insert(*p, v);
    v
}

/// The exact final store difference for the mover of `p` if they play `hole`.
pub fn move_value(p: &Position, hole: usize, memo: &mut HashMap<Position, i32>) -> i32 {
    let next = p.play_hole(hole).expect("a legal hole").0;
    let v = value(&next, memo);
    if next.mover() == p.mover() {
        v
    } else {
        -v
    }
}

/// Plays `holes` from `p` with the rules engine, panicking on an illegal move.
pub fn play(p: &Position, holes: &[usize]) -> Position {
    holes.iter().fold(*p, |at, &hole| at.play_hole(hole).unwrap_or_else(|e| panic!("hole {hole} in {at}: {e}")).0)
}

/// Runs the `dakon` binary with `args`.
pub fn dakon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).output().expect("dakon runs")
}

/// The stdout lines of a run, each parsed as JSON.
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}
