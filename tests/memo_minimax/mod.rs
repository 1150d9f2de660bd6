//! Exact values by plain memoized minimax over the independent rules reference of
//! `solver/tests/reference` (neither the engine's rules nor its search), and the helpers the
//! CLI tests share: running `dakon`, replaying its moves.

use std::collections::HashMap;
use std::process::Output;

pub(crate) use crate::reference;
use crate::run_dakon;

pub use run_dakon::{dakon, no_tables};

pub use reference::kalah::Kalah;
pub use reference::notation::{format, parse};
pub use reference::rules::RefRules;
pub use reference::Board;

/// What a position's value depends on beyond the store difference: no rule reads the stores
/// (sowing only adds to them, and a finished game's value is the store difference plus what is
/// left in the holes), so the value minus the mover's store lead is a function of the holes and
/// of who moves. Memoizing that, not the whole position, shares one entry among all the ways
/// the stores can split the same seeds.
type Key = (Vec<u32>, usize);

/// Memoized exact values under one rule set (Dakon's by default).
pub struct Minimax {
    pub rules: RefRules,
    memo: HashMap<Key, i32>,
}

impl Default for Minimax {
    fn default() -> Minimax {
        Minimax::of(RefRules::DAKON)
    }
}

impl Minimax {
    /// Values under `rules`.
    pub fn of(rules: RefRules) -> Minimax {
        Minimax { rules, memo: HashMap::new() }
    }

    /// Values under the Kalah rules `rules`.
    pub fn kalah(rules: Kalah) -> Minimax {
        Minimax::of(RefRules::Kalah(rules))
    }

    /// The legal moves of `b` under these rules.
    pub fn moves(&self, b: &Board) -> Vec<usize> {
        self.rules.moves(b)
    }

    /// The position after `hole` under these rules.
    pub fn play(&self, b: &Board, hole: usize) -> Board {
        self.rules.play(b, hole)
    }

    /// Plays `holes` from `b` under these rules, panicking on an illegal move.
    pub fn play_line(&self, b: &Board, holes: &[usize]) -> Board {
        holes.iter().fold(b.clone(), |at, &hole| self.play(&at, hole))
    }

    /// The final store difference, player to move minus opponent, of a finished game.
    pub fn final_difference(&self, b: &Board) -> i32 {
        self.rules.final_difference(b)
    }

    /// The exact final store difference, player to move minus opponent, with perfect play.
    pub fn value(&mut self, b: &Board) -> i32 {
        let moves = self.moves(b);
        if moves.is_empty() {
            return self.final_difference(b);
        }
        let store_lead = b.stores[b.to_move] as i32 - b.stores[1 - b.to_move] as i32;
        let key = (b.holes.clone(), b.to_move);
        if let Some(&gain) = self.memo.get(&key) {
            return store_lead + gain;
        }
        let v = moves.into_iter().map(|hole| self.move_value(b, hole)).max().expect("a game not over has moves");
        self.memo.insert(key, v - store_lead);
        v
    }

    /// The exact final store difference for the mover of `b` if they play `hole`.
    pub fn move_value(&mut self, b: &Board, hole: usize) -> i32 {
        let next = self.play(b, hole);
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

/// Positions from random games under `rules` on boards of 2 to 4 holes, starting with 2 to
/// `1 + seeds` seeds a hole and playing fewer than `plies` random moves, kept when at most 14
/// seeds are left on the board (small enough for any exact search and for this minimax). The
/// generator has a fixed `seed`, so every run is the same.
pub fn random_positions(rules: RefRules, count: usize, seed: u64, seeds: usize, plies: usize) -> Vec<Board> {
    let mut state = seed;
    let mut next = move |bound: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize % bound
    };
    let mut found = Vec::new();
    while found.len() < count {
        let holes = 2 + next(3);
        let mut p = Board::start(holes, 2 + next(seeds) as u32);
        for _ in 0..next(plies) {
            let moves = rules.moves(&p);
            if moves.is_empty() {
                break;
            }
            p = rules.play(&p, moves[next(moves.len())]);
        }
        if p.seeds_on_board() <= 14 {
            found.push(p);
        }
    }
    found
}

/// Plays `holes` from `b` by the Dakon rules, panicking on an illegal move.
pub fn play(b: &Board, holes: &[usize]) -> Board {
    Minimax::default().play_line(b, holes)
}

/// The stdout lines of a run, each parsed as JSON.
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}
