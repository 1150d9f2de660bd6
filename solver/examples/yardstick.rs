//! The yardstick of the search targets: a plain alpha-beta, one thread, a hash map of proven
//! bounds keyed by the board, children ordered by seeds stored, and a binary search over the
//! value with null windows. Bounds start at the seeds on the board; no table move, no
//! enhanced cuts, no parallelism. `scripts/bench-solve` runs it next to `dakon solve`:
//! `cargo run --release -p dakon-solver --example yardstick -- HOLES SEEDS`.

use std::collections::HashMap;
use std::time::Instant;

use dakon_solver::dakon::{Dakon, Key, Position};
use dakon_solver::rules::Rules;
use dakon_solver::transposition_key::TranspositionKey;

struct Yardstick {
    rules: Dakon,
    /// Proven (lower, upper) bounds of future gains.
    bounds: HashMap<Key, (i32, i32)>,
    nodes: u64,
}

impl Yardstick {
    /// Fail-soft alpha-beta on future gains: exact inside (alpha, beta), a bound outside.
    fn search(&mut self, pos: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let moves = self.rules.legal_moves(pos);
        if moves.is_empty() {
            return self.rules.terminal_gain(pos);
        }
        let key = self.rules.key(pos);
        // A future gain lies within the seeds on the board.
        let k = self.rules.seeds_on_board(pos) as i32;
        let (lower, upper) = self.bounds.get(&key).copied().unwrap_or((-k, k));
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        (alpha, beta) = (alpha.max(lower), beta.min(upper));
        let mut children: Vec<_> = moves.as_slice().iter().map(|&mv| self.rules.play(pos, mv)).collect();
        children.sort_by_key(|step| -step.gain);
        let mut best = i32::MIN;
        for step in children {
            let floor = alpha.max(best);
            let v = if step.same_mover {
                step.gain + self.search(&step.next, floor - step.gain, beta - step.gain)
            } else {
                step.gain - self.search(&step.next, step.gain - beta, step.gain - floor)
            };
            best = best.max(v);
            if best >= beta {
                break;
            }
        }
        let entry = if best >= beta {
            (best, upper)
        } else if best <= alpha {
            (lower, best)
        } else {
            (best, best)
        };
        self.bounds.insert(key, entry);
        best
    }
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("usage: yardstick HOLES SEEDS")).collect();
    let (holes, seeds) = (args[0], args[1]);
    let rules = Dakon::new(holes).expect("holes 1..=9");
    let start = Position::start(holes, seeds as u32).expect("a valid start");
    let mut yardstick = Yardstick { rules, bounds: HashMap::new(), nodes: 0 };
    let started = Instant::now();
    let k = rules.seeds_on_board(&start) as i32;
    let (mut lower, mut upper) = (-k, k);
    while lower < upper {
        let t = lower + (upper - lower + 1) / 2;
        let v = yardstick.search(&start, t - 1, t);
        if v >= t {
            lower = v;
        } else {
            upper = v;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "yardstick {holes}x{seeds}: future gain {lower}, nodes {}, {seconds:.3} s, {:.0} nodes/s",
        yardstick.nodes,
        yardstick.nodes as f64 / seconds
    );
}
