//! The root driver: narrows the proven bracket `[lower, upper]` of a future gain with
//! null-window searches until it closes or the budget runs out.
//!
//! Each test asks "is the value at least `t`?" and, being fail-soft, may move a bound past
//! `t`. The first test is chosen by the caller (for a solve: whether the mover takes every
//! seed left, which sowing games with long extra-move chains often allow and which is cheap
//! to refute otherwise). While every test has failed, the next ones *gallop down* from the
//! upper bound, `upper`, `upper - 1`, `upper - 3`, `upper - 7`, ... (the gap doubling), since the
//! tests far above the value are cheap to refute and the value is often near the top; once a
//! test succeeds the value is bracketed and the rest is bisection.
//!
//! Measured (nodes on 1 thread, 256 MiB table): bisection right after the top test needed
//! 19.8 M nodes on the 8 x 3 start, 2.67 M on 6 x 10, 0.99 M on 8 x 2 and 26.9 M on 9 x 2
//! (1 GiB); galloping down needs 6.5 M, 2.28 M, 0.93 M and 19.3 M, and 5 x 9 moves from 62 k
//! to 79 k. MTD(f) steps from the top (each test at the bound the last one proved) did well
//! on 8 x 3 (4.8 M) but badly on 6 x 10 (4.9 M); on random 6 x 6 middle games bisection
//! needed 2 to 2.3 times fewer nodes than MTD(f) (fail-soft values move the bound by little).

use super::budget::Budget;
use super::parallel::null_window;
use super::{Progress, Solver};
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
/// least `first`", then by galloping down and bisection (see the [module documentation](self)),
/// until exact or until the budget runs out. `observer` hears of every test as it ends.
pub(crate) fn narrow<R: Rules>(
    solver: &Solver<R>,
    pos: &R::Position,
    mut bracket: Bracket,
    first: i32,
    budget: &Budget,
    observer: Option<&dyn Fn(&Progress)>,
) -> Bracket {
    let mut target = first;
    // Distance below the upper bound of the next test, while no test has succeeded.
    let mut gap = Some(0i32);
    while bracket.lower < bracket.upper {
        target = target.clamp(bracket.lower + 1, bracket.upper);
        let Some((value, mv)) = null_window(solver, pos, target, budget) else { break };
        if value >= target {
            (bracket.lower, bracket.best_move) = (value, mv);
            gap = None;
        } else {
            bracket.upper = value;
        }
        if let Some(observer) = observer {
            observer(&Progress { target, value, lower: bracket.lower, upper: bracket.upper, nodes: budget.nodes() });
        }
        target = match gap {
            Some(below) => {
                gap = Some(below.saturating_mul(2).saturating_add(1));
                bracket.upper.saturating_sub(below)
            }
            // The ceiling of the midpoint, so that the test lies in (lower, upper].
            None => bracket.lower + (bracket.upper - bracket.lower + 1) / 2,
        };
    }
    bracket
}
