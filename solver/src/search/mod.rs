//! Exact game-tree search over any [`Rules`].
//!
//! **Placeholder implementation**: a plain full-window alpha-beta without transposition
//! table, limits or parallelism. The public API below is the contract the rest of the
//! project codes against; the real search replaces the bodies.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::oracle::Oracle;
use crate::rules::Rules;

/// How much a search may spend. A search stopped by any limit returns proven bounds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock budget.
    pub time: Option<Duration>,
    /// Budget of nodes (positions visited).
    pub nodes: Option<u64>,
    /// Set to `true` from outside (Ctrl-C) to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
}

/// Resources of a solver.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads (1 or more).
    pub threads: usize,
    /// Transposition table size in bytes.
    pub tt_bytes: usize,
}

/// What a search proved about a position. Values are *future gains* for the player to move
/// (add the store difference for the final difference).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Proven lower bound of the future gain.
    pub lower: i32,
    /// Proven upper bound of the future gain (equal to `lower` when exact).
    pub upper: i32,
    /// The best move found (`None` when the game is over).
    pub best_move: Option<u8>,
    /// Principal variation: moves from the position on, each optimal when exact.
    pub pv: Vec<u8>,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl Solution {
    /// Whether the value is known exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// The value of one move of a position, for the player to move there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: u8,
    /// Proven lower bound of the future gain of the position when this move is played.
    pub lower: i32,
    /// Proven upper bound (equal to `lower` when exact).
    pub upper: i32,
}

/// An exact solver for one rule set, with its transposition table and optional oracle.
pub struct Solver<R: Rules> {
    rules: R,
    oracle: Option<Arc<dyn Oracle<R>>>,
    nodes: std::sync::atomic::AtomicU64,
}

impl<R: Rules> Solver<R> {
    /// A solver with its own transposition table of `config.tt_bytes`.
    pub fn new(rules: R, _config: Config, oracle: Option<Arc<dyn Oracle<R>>>) -> Self {
        Solver { rules, oracle, nodes: Default::default() }
    }

    /// The rules this solver plays by.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Solves `pos`: exact future gain unless a limit stopped it, then proven bounds.
    pub fn solve(&self, pos: &R::Position, _limits: &Limits) -> Solution {
        let started = Instant::now();
        let moves = self.rules.legal_moves(pos);
        let mut best = None;
        let mut value = self.rules.terminal_gain(pos);
        if !moves.is_empty() {
            value = i32::MIN;
            for &mv in moves.as_slice() {
                let v = self.move_value(pos, mv);
                if v > value {
                    value = v;
                    best = Some(mv);
                }
            }
        }
        let pv = self.principal_variation(pos);
        Solution {
            lower: value,
            upper: value,
            best_move: best,
            pv,
            nodes: self.nodes.load(std::sync::atomic::Ordering::Relaxed),
            elapsed: started.elapsed(),
        }
    }

    /// Whether the future gain of `pos` is at least `bound`: `Some(true)` or `Some(false)` when
    /// proven, `None` when a limit stopped the search first. A null-window search, much
    /// cheaper than [`Solver::solve`] (e.g. `bound = 1` proves a win).
    pub fn at_least(&self, pos: &R::Position, bound: i32, limits: &Limits) -> Option<bool> {
        Some(self.solve(pos, limits).lower >= bound)
    }

    /// The value of every legal move of `pos`, best first.
    pub fn analyse_moves(&self, pos: &R::Position, _limits: &Limits) -> Vec<MoveValue> {
        let mut values: Vec<MoveValue> = self
            .rules
            .legal_moves(pos)
            .as_slice()
            .iter()
            .map(|&mv| {
                let v = self.move_value(pos, mv);
                MoveValue { mv, lower: v, upper: v }
            })
            .collect();
        values.sort_by_key(|m| -m.lower);
        values
    }

    fn move_value(&self, pos: &R::Position, mv: u8) -> i32 {
        let step = self.rules.play(pos, mv);
        let child = self.value(&step.next);
        step.gain + if step.same_mover { child } else { -child }
    }

    fn value(&self, pos: &R::Position) -> i32 {
        self.nodes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(oracle) = &self.oracle {
            if self.rules.seeds_on_board(pos) <= oracle.max_seeds() {
                if let Some(v) = oracle.probe(pos) {
                    return v;
                }
            }
        }
        let moves = self.rules.legal_moves(pos);
        if moves.is_empty() {
            return self.rules.terminal_gain(pos);
        }
        moves.as_slice().iter().map(|&mv| self.move_value(pos, mv)).max().unwrap()
    }

    fn principal_variation(&self, pos: &R::Position) -> Vec<u8> {
        let mut pv = Vec::new();
        let mut pos = *pos;
        loop {
            let moves = self.rules.legal_moves(&pos);
            let Some(&mv) = moves.as_slice().iter().max_by_key(|&&mv| self.move_value(&pos, mv)) else { break };
            pv.push(mv);
            pos = self.rules.play(&pos, mv).next;
        }
        pv
    }
}
