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
//! opponent takes every seed left, that one test settles everything. It is asked move by move
//! (`Solver::move_by_move`): each child is first asked whether its mover takes every seed left,
//! which is cheap to prove, instead of the weaker question a root null window passes down.
//!
//! If galloping and the bottom test have not bracketed the value, the tests are *aimed*: the
//! first at a guess from a shallow search (`estimate`: a depth-limited search valuing its
//! horizon at 0, a heuristic that only chooses where to test), then each at the bound the
//! last test proved (MTD(f): after "at least `v`", is it at least `v + 2`? after "at most
//! `u`", is it at least `u`?), the step doubling after two tests in the same direction. This
//! is what games with values near 0 need (Kalah): there a test that fails costs many times
//! one that succeeds, tests far above the value are not cheap, and galloping on from the top
//! and bisecting costs two or three failing tests where an aimed one needs one.
//!
//! A [`Narrowing`] keeps the tests done, the phase and the guess, so a caller that gives a
//! position its budget in installments (the rounds of an analysis) goes on where the last
//! one stopped; a test a budget cut is asked again (what it proved is in the table).
//!
//! Every bound and test lies on the parity of the seeds on the board (a future gain has it,
//! see `crate::rules`): "at least 7" on a board of 48 seeds is "at least 8", and bisection
//! halves the values the bracket can still hold.
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
//! Asking the bottom test move by move (nodes, 1 thread, `dakon solve start --no-tables`):
//! 8 x 14 from bounds [-180, +72] after 600 s (2 threads) to exact (-180) in 3.6 M nodes;
//! 7 x 12 from 22.5 M to 0.51 M, 7 x 13 from 10.7 M to 0.81 M, 7 x 14 from 1.56 M to 0.64 M,
//! 6 x 10 196 k to 166 k, 5 x 9 21 k to 14 k; 6 x 13 131 k to 151 k, 9 x 2 11.27 M to
//! 11.33 M; 8 x 3, 9 x 3, 6 x 6, 7 x 7, 9 x 9 unchanged.
//!
//! Parity and aimed tests (both with the table of `tt` as it is now; `atlas_trace` example,
//! 1 thread, 1 GiB): the Kalah(6,4) start went from 224.6 M nodes in 7 tests after the bottom one
//! (galloping on to +15, then bisecting: `>= 11` and `>= 9` failed at 86 M and 67 M nodes) to
//! 147.4 M in 2 (the guess was +8, the value: `>= 8` held at 20 M nodes, `>= 10` failed at
//! 127 M); Kalah(6,3) 2.48 M to 2.45 M. The 126 Dakon atlas boards (`dakon verify --holes 1..9
//! --seeds 1..14 --threads 2 --no-tables`), with the new table too: the same values, 50.1 M to 44.7 M nodes in all,
//! 64.2 s to 44.7 s of search; 7 x 4 9.3 M to 4.9 M, 9 x 2 12.2 M to 7.9 M, 8 x 9 2.3 M to 0.16 M,
//! while 9 x 12 went from 0.08 M to 3.1 M and 9 x 6 from 0.33 M to 3.3 M: two threads' luck, as
//! on one thread both are what they were (1.99 M and 0.18 M nodes before and after).

use super::budget::Budget;
use super::estimate::{estimate, ESTIMATE_NODES};
use super::parallel::null_window;
use super::{Progress, Solver};
use crate::rules::{parity_ceil, parity_floor, Rules};

/// While galloping, the test after this many failed ones asks whether the lower bound is the
/// value (see the module documentation).
const BOTTOM_AFTER: u32 = 5;

/// Tests in one direction that the aimed phase takes one parity step at a time before its
/// steps start doubling.
const PATIENCE: u32 = 2;

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

/// How the driver chooses its next test.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// No test above the bottom one has succeeded: the next test is this far below the upper
    /// bound.
    Gallop { below: i32 },
    /// A galloping test succeeded: bisection.
    Bisect,
    /// Galloping found nothing: tests aimed at the guess, then each at the bound the last one
    /// proved, `streak` tests in the same direction so far.
    Aim { streak: u32, rising: bool },
}

/// A narrowing of the proven bracket of one position's future gain that can stop when its
/// budget runs out and go on later with another: the tests done, the phase and the guess
/// are kept, so a later budget starts where the last one stopped (the test it cut is asked
/// again, from what the transposition table kept of it).
#[derive(Clone, Debug)]
pub(crate) struct Narrowing {
    bracket: Bracket,
    target: i32,
    phase: Phase,
    tests: u32,
}

impl Narrowing {
    /// A narrowing of `bracket` (proven bounds of the future gain of a position with `seeds`
    /// seeds on the board) whose first test asks "at least `first`?".
    pub fn new(mut bracket: Bracket, seeds: u32, first: i32) -> Narrowing {
        // Every bound and test lies on the parity of the seeds (see `crate::rules`).
        (bracket.lower, bracket.upper) = (parity_ceil(bracket.lower, seeds), parity_floor(bracket.upper, seeds));
        Narrowing { bracket, target: first, phase: Phase::Gallop { below: 0 }, tests: 0 }
    }

    /// The bounds proven so far.
    pub fn bracket(&self) -> Bracket {
        self.bracket
    }

    /// Narrows the bracket of `pos` (the position this narrowing was made for) by galloping
    /// down, bisection or aimed tests (see the [module documentation](self)), until exact or
    /// until `budget` runs out. `observer` hears of every test as it ends.
    ///
    /// Returns the bracket: proven bounds, within those it had before.
    pub fn run<R: Rules>(
        &mut self,
        solver: &Solver<R>,
        pos: &R::Position,
        budget: &Budget,
        observer: Option<&dyn Fn(&Progress)>,
    ) -> Bracket {
        let k = solver.rules.seeds_on_board(pos);
        let bracket = &mut self.bracket;
        while bracket.lower < bracket.upper {
            let target = parity_ceil(self.target.clamp(bracket.lower + 1, bracket.upper), k);
            let at_bottom =
                matches!(self.phase, Phase::Gallop { .. }) && self.tests == BOTTOM_AFTER && target == parity_ceil(bracket.lower + 1, k);
            // The bottom test expects every move to be refuted by the opponent taking every
            // seed left: asked move by move, each child gets that cheap test first.
            let answer = if at_bottom { solver.move_by_move(pos, target, budget) } else { null_window(solver, pos, target, budget) };
            let Some((value, mv)) = answer else { break };
            let success = value >= target;
            if success {
                (bracket.lower, bracket.best_move) = (parity_ceil(value, k), mv);
            } else {
                bracket.upper = parity_floor(value, k);
            }
            self.tests += 1;
            if let Some(observer) = observer {
                observer(&Progress { target, value, lower: bracket.lower, upper: bracket.upper, nodes: budget.nodes() });
            }
            (self.phase, self.target) = match self.phase {
                Phase::Gallop { .. } if success && !at_bottom => (Phase::Bisect, midpoint(bracket, k)),
                Phase::Gallop { .. } if self.tests > BOTTOM_AFTER => {
                    (Phase::Aim { streak: 0, rising: true }, estimate(&solver.rules, pos, ESTIMATE_NODES))
                }
                // Is the lower bound the value? (Once, after the first failures.)
                Phase::Gallop { below } if self.tests == BOTTOM_AFTER => (Phase::Gallop { below }, bracket.lower + 1),
                Phase::Gallop { below } => {
                    (Phase::Gallop { below: below.saturating_mul(2).saturating_add(1) }, bracket.upper.saturating_sub(below))
                }
                Phase::Bisect => (Phase::Bisect, midpoint(bracket, k)),
                Phase::Aim { streak, rising } => {
                    let streak = if rising == success { streak + 1 } else { 1 };
                    // One parity step at a time, then doubling.
                    let step = 2i32.saturating_mul(1 << streak.saturating_sub(PATIENCE).min(20));
                    let next = if success { bracket.lower.saturating_add(step) } else { bracket.upper.saturating_sub(step - 2) };
                    (Phase::Aim { streak, rising: success }, next)
                }
            };
        }
        *bracket
    }
}

/// Narrows `bracket` (proven bounds of the future gain of `pos`) with a first test of "at
/// least `first`", then as [`Narrowing::run`] does, until exact or until the budget runs out.
pub(crate) fn narrow<R: Rules>(
    solver: &Solver<R>,
    pos: &R::Position,
    bracket: Bracket,
    first: i32,
    budget: &Budget,
    observer: Option<&dyn Fn(&Progress)>,
) -> Bracket {
    Narrowing::new(bracket, solver.rules.seeds_on_board(pos), first).run(solver, pos, budget, observer)
}

/// The middle of the open bracket on the parity lattice: a test in `(lower, upper]`.
fn midpoint(bracket: &Bracket, k: u32) -> i32 {
    parity_ceil(bracket.lower + (bracket.upper - bracket.lower + 1) / 2, k)
}
