//! The root driver: narrows the proven bracket `[lower, upper]` of a future gain with
//! null-window searches until it closes or the budget runs out.
//!
//! Each test asks "is the value at least `t`?" and, being fail-soft, may move a bound past
//! `t`. The next `t` follows MTD(f) (just past the bound that moved) while the bracket is
//! narrow, and bisection while it is wide: MTD(f) alone walks one step at a time from a poor
//! guess, bisection alone wastes tests near the answer (measured on the 5 x 5 and 6 x 6 starts).

use super::budget::Budget;
use super::parallel::null_window;
use super::Solver;
use crate::rules::Rules;

/// What the driver proved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bracket {
    pub lower: i32,
    pub upper: i32,
    /// A move proven to achieve at least `lower`, if a test found one.
    pub best_move: Option<u8>,
}

impl Bracket {
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// Narrows `[lower, upper]` (already known bounds of the future gain of `pos`, e.g. `±seeds`),
/// starting the tests from `guess`, until exact or until the budget runs out.
pub(crate) fn narrow<R: Rules>(solver: &Solver<R>, pos: &R::Position, bracket: Bracket, guess: i32, budget: &Budget) -> Bracket {
    let mut bracket = bracket;
    let mut next = guess.clamp(bracket.lower + 1, bracket.upper.max(bracket.lower + 1));
    while bracket.lower < bracket.upper {
        let Some((value, mv)) = null_window(solver, pos, next, budget) else { break };
        if value >= next {
            (bracket.lower, bracket.best_move) = (value, mv);
        } else {
            bracket.upper = value;
        }
        next = if bracket.upper - bracket.lower > WIDE {
            // Ceiling of the midpoint, so that the test value lies in (lower, upper].
            bracket.lower + (bracket.upper - bracket.lower + 1) / 2
        } else if value >= next {
            value + 1
        } else {
            value
        };
        next = next.clamp(bracket.lower + 1, bracket.upper.max(bracket.lower + 1));
    }
    bracket
}

/// Above this width the next test bisects the bracket.
const WIDE: i32 = 8;
