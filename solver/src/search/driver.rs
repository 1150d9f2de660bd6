//! The root driver: narrows the proven bracket `[lower, upper]` of a future gain with
//! null-window searches until it closes or the budget runs out.
//!
//! Each test asks "is the value at least `t`?" and, being fail-soft, may move a bound past
//! `t`. The first test is chosen by the caller (for a solve: whether the mover takes every
//! seed left, which sowing games with long extra-move chains often allow and which is cheap
//! to refute otherwise). While every test has failed, the next ones *gallop down* from the
//! upper bound, `upper`, `upper - 1`, `upper - 3`, `upper - 7`, ... (the gap doubling), since the
//! tests far above the value are cheap to refute and the value is often near the top; once a
//! test succeeds the value is bracketed and the rest is bisection. If the first five tests
//! all fail, the sixth asks whether the lower bound is already the value (`lower + 1`): on
//! boards where the caller's proven bound (the best opening turn) is the value, i.e. the
//! opponent takes every seed left, that one test settles everything.
//!
//! Measured (nodes on 1 thread, 256 MiB table): bisection right after the top test needed
//! 19.8 M nodes on the 8 x 3 start, 2.67 M on 6 x 10, 0.99 M on 8 x 2 and 26.9 M on 9 x 2
//! (1 GiB); galloping down needs 6.5 M, 2.28 M, 0.93 M and 19.3 M, and 5 x 9 moves from 62 k
//! to 79 k. The bottom test takes the 7 x 12 start (value -128, the opening turn's bound) from
//! about 100 M nodes (2 threads, 522 s on a busy machine) to 21.5 M on 1 thread, and leaves
//! 8 x 3 (5.53 M) and 9 x 2 (10.93 M) as they were; as the second test it cost 8 x 3 an extra
//! 2.6 M nodes, hence after five failures. MTD(f) steps from the top (each test at the bound the last one proved) did well
//! on 8 x 3 (4.8 M) but badly on 6 x 10 (4.9 M); on random 6 x 6 middle games bisection
//! needed 2 to 2.3 times fewer nodes than MTD(f) (fail-soft values move the bound by little).

use super::budget::Budget;
use super::parallel::null_window;
use super::{Progress, Solver};
use crate::rules::Rules;

/// While galloping, the test after this many failed ones asks whether the lower bound is the
/// value (see the module documentation).
const BOTTOM_AFTER: u32 = 5;

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
    // Distance below the upper bound of the next test, while no test above the bottom one has
    // succeeded.
    let mut gap = Some(0i32);
    let mut failed = 0;
    while bracket.lower < bracket.upper {
        target = target.clamp(bracket.lower + 1, bracket.upper);
        let Some((value, mv)) = null_window(solver, pos, target, budget) else { break };
        let at_bottom = failed == BOTTOM_AFTER && target == bracket.lower + 1;
        if value >= target {
            (bracket.lower, bracket.best_move) = (value, mv);
            if !at_bottom {
                gap = None;
            }
        } else {
            bracket.upper = value;
        }
        failed += 1;
        if let Some(observer) = observer {
            observer(&Progress { target, value, lower: bracket.lower, upper: bracket.upper, nodes: budget.nodes() });
        }
        target = match gap {
            // Is the lower bound the value? (Once, after the first failures.)
            Some(_) if failed == BOTTOM_AFTER => bracket.lower + 1,
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
