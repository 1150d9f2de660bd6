//! The root driver: narrows the proven bracket `[lower, upper]` of a future gain with
//! null-window searches until it closes or the budget runs out.
//!
//! Each test asks "is the value at least `t`?" and, being fail-soft, may move a bound past
//! `t`. The first test is chosen by the caller (for a solve: whether the mover takes every
//! seed left, which sowing games with long extra-move chains often allow and which is cheap
//! to refute otherwise); the following ones bisect the bracket. Measured on the 5 x 5 to 7 x 7
//! starts and on random 6 x 6 middle games: starting at the top solves the 7 x 7 start with
//! 250 times fewer nodes than starting at 0, and bisection needs 2 to 2.3 times fewer nodes than
//! MTD(f) steps on the middle games (fail-soft values move the bound by little there).

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
    /// `[-k, k]` for a position with `k` seeds on the board.
    pub fn seeds(k: i32) -> Bracket {
        Bracket { lower: -k, upper: k, best_move: None }
    }

    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// Narrows `bracket` (proven bounds of the future gain of `pos`) with a first test of "at
/// least `first`", then by bisection, until exact or until the budget runs out.
pub(crate) fn narrow<R: Rules>(solver: &Solver<R>, pos: &R::Position, mut bracket: Bracket, first: i32, budget: &Budget) -> Bracket {
    let mut target = first;
    while bracket.lower < bracket.upper {
        target = target.clamp(bracket.lower + 1, bracket.upper);
        let Some((value, mv)) = null_window(solver, pos, target, budget) else { break };
        if value >= target {
            (bracket.lower, bracket.best_move) = (value, mv);
        } else {
            bracket.upper = value;
        }
        // The ceiling of the midpoint, so that the test lies in (lower, upper].
        target = bracket.lower + (bracket.upper - bracket.lower + 1) / 2;
    }
    bracket
}
