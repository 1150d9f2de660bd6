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
//! If galloping and the bottom test have not bracketed the value, a shallow search guesses
//! it (`estimate`: a depth-limited search valuing its horizon at 0, a heuristic that only
//! chooses where to test) and the tests *walk* toward the guess from the bound on its side of
//! 0 (the upper bound for a guess of 0 or more, the lower one below 0), one parity step at a
//! time, then doubling, never past the guess. A test that flips (a hold walking down, a fail
//! walking up) brackets the value: bisection. After a walk test of [`WALK_JUMP_NODES`] or
//! more the next test is a deeper guess (`DEEP_ESTIMATE_NODES`), where the walk ends. At the
//! guess, the tests are *aimed*: each at the bound the
//! last test proved (MTD(f): after "at least `v`", is it at least `v + 2`? after "at most
//! `u`", is it at least `u`?), the step doubling after two tests in the same direction. This
//! is what games with values near 0 need (Kalah): there a test that fails costs many times
//! one that succeeds, tests far above the value are not cheap, and galloping on from the top
//! and bisecting costs two or three failing tests where an aimed one needs one.
//!
//! Why walk: in Dakon's early middle game a test costs the more the nearer its target lies to
//! 0 (far from 0 the seeds left cut most lines), and the guess lies nearer 0 than the value
//! (shallow searches see less of the gains to come). Aimed at the guess, the first test would
//! sit in the costly middle; walking in from the bound meets the value while the tests are
//! still cheap.
//!
//! A [`Narrowing`] keeps the tests done, the phase and the guess, so a caller that gives a
//! position its budget in installments (the rounds of an analysis) goes on where the last
//! one stopped; a test a budget cut is asked again (what it proved is in the table).
//!
//! Every bound and test lies on the parity of the seeds on the board (a future gain has it,
//! see `crate::rules`): "at least 7" on a board of 48 seeds is "at least 8", and bisection
//! halves the values the bracket can still hold.
//!
//! Each of these choices (galloping, the bottom test after five failures and move by move,
//! aimed tests from the guess, the walk and its jump to a deeper guess) was kept because it
//! searched fewer nodes than its alternatives on the boards that need it, without costing the
//! others much; the measurements are in `docs/benchmarks/code-notes.md`.

use super::budget::Budget;
use super::delegated::RootTests;
use super::estimate::{estimate, DEEP_ESTIMATE_NODES, ESTIMATE_NODES};
use super::{Progress, Solver};
use crate::rules::{parity_ceil, parity_floor};
use crate::solvable::Solvable;

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

/// A walk's test that took at least this many nodes is near the costly middle: the next test
/// is a deeper guess, within [`DEEP_ESTIMATE_NODES`].
const WALK_JUMP_NODES: u64 = 1 << 20;

/// How the driver chooses its next test.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// No test above the bottom one has succeeded: the next test is this far below the upper
    /// bound.
    Gallop { below: i32 },
    /// A galloping test succeeded: bisection.
    Bisect,
    /// Galloping found nothing: tests from the bound on the guess's side of 0 toward the
    /// guess (`rising`: up from the lower bound), never past it, `streak` so far, the steps
    /// doubling as in `Aim`.
    Walk { streak: u32, rising: bool, guess: i32 },
    /// The walk reached the guess: each test at the bound the last one proved, `streak` tests
    /// in the same direction so far.
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
    pub fn run<R: Solvable>(
        &mut self,
        solver: &Solver<R>,
        pos: &R::Position,
        budget: &Budget,
        observer: Option<&dyn Fn(&Progress)>,
    ) -> Bracket {
        self.run_by(solver, pos, budget, observer, None)
    }

    /// [`Narrowing::run`] with each test run by `tests` when given (see
    /// [`Solver::solve_by`](super::Solver::solve_by)), the nodes it reports charged to `budget`.
    pub fn run_by<R: Solvable>(
        &mut self,
        solver: &Solver<R>,
        pos: &R::Position,
        budget: &Budget,
        observer: Option<&dyn Fn(&Progress)>,
        tests: Option<&RootTests<'_>>,
    ) -> Bracket {
        let k = solver.rules.seeds_on_board(pos);
        let test = |target: i32, at_bottom: bool| {
            // A guess may have spent what was left.
            if budget.is_exhausted() {
                return None;
            }
            let before = budget.nodes();
            let answer = match tests {
                Some(tests) => {
                    let tested = tests(target, at_bottom);
                    budget.charge(tested.nodes);
                    tested.answer.map(|a| (a.value, a.mv))
                }
                None => solver.driver_test_within(pos, target, at_bottom, budget),
            };
            answer.map(|(value, mv)| Answer { value, mv, costly: budget.nodes() - before >= WALK_JUMP_NODES })
        };
        let report = |target: i32, value: i32, bracket: &Bracket| {
            if let Some(observer) = observer {
                observer(&Progress { target, value, lower: bracket.lower, upper: bracket.upper, nodes: budget.nodes() });
            }
        };
        self.run_tests(k, test, |nodes| estimate(&solver.rules, pos, nodes, budget), report)
    }

    /// The loop of [`Narrowing::run`] on a board of `k` seeds, over `test` (the answer to "at
    /// least `target`?", the bottom test when its flag says so; `None` when the budget ran
    /// out), with `guess` (the shallow search's guess within so many nodes) asked when
    /// galloping ends and after a costly walk test, and `report` told of every test.
    ///
    /// Returns the bracket: within the one it had, and proven when `test`'s answers are.
    fn run_tests(
        &mut self,
        k: u32,
        mut test: impl FnMut(i32, bool) -> Option<Answer>,
        mut guess: impl FnMut(u64) -> i32,
        mut report: impl FnMut(i32, i32, &Bracket),
    ) -> Bracket {
        let bracket = &mut self.bracket;
        while bracket.lower < bracket.upper {
            let target = parity_ceil(self.target.clamp(bracket.lower + 1, bracket.upper), k);
            let at_bottom =
                matches!(self.phase, Phase::Gallop { .. }) && self.tests == BOTTOM_AFTER && target == parity_ceil(bracket.lower + 1, k);
            let Some(Answer { value, mv, costly }) = test(target, at_bottom) else { break };
            let success = value >= target;
            if success {
                (bracket.lower, bracket.best_move) = (parity_ceil(value, k), mv);
            } else {
                bracket.upper = parity_floor(value, k);
            }
            self.tests += 1;
            report(target, value, bracket);
            let outcome = Outcome { target, success, at_bottom, costly };
            (self.phase, self.target) = next_test(self.phase, self.tests, bracket, k, outcome, &mut guess);
        }
        *bracket
    }
}

/// A test's fail-soft answer: at least `value` when it reaches the target (with the move that
/// proved it, if known), else at most `value`.
#[derive(Clone, Copy, Debug)]
struct Answer {
    value: i32,
    mv: Option<u8>,
    /// Whether it took [`WALK_JUMP_NODES`] or more.
    costly: bool,
}

/// Narrows `bracket` (proven bounds of the future gain of `pos`) with a first test of "at
/// least `first`", then as [`Narrowing::run_by`] does, until exact or until the budget runs out.
pub(crate) fn narrow<R: Solvable>(
    solver: &Solver<R>,
    pos: &R::Position,
    bracket: Bracket,
    first: i32,
    budget: &Budget,
    observer: Option<&dyn Fn(&Progress)>,
    tests: Option<&RootTests<'_>>,
) -> Bracket {
    Narrowing::new(bracket, solver.rules.seeds_on_board(pos), first).run_by(solver, pos, budget, observer, tests)
}

/// What a test asked and showed, for choosing the next one.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    target: i32,
    success: bool,
    /// Whether it was the bottom test.
    at_bottom: bool,
    /// Whether it took [`WALK_JUMP_NODES`] or more.
    costly: bool,
}

/// The phase and target of the next test after `outcome`, the `tests`-th test, left
/// `bracket` (the bounds after it) on a board of `k` seeds; `guess` (the shallow search's
/// guess within so many nodes) is asked when galloping ends and after a costly walk test (see
/// the [module documentation](self)).
fn next_test(phase: Phase, tests: u32, bracket: &Bracket, k: u32, outcome: Outcome, guess: impl FnOnce(u64) -> i32) -> (Phase, i32) {
    let Outcome { target, success, at_bottom, costly } = outcome;
    match phase {
        Phase::Gallop { .. } if success && !at_bottom => (Phase::Bisect, midpoint(bracket, k)),
        Phase::Gallop { .. } if tests > BOTTOM_AFTER => {
            // From the bound on the guess's side of 0 toward the guess.
            let guess = parity_ceil(guess(ESTIMATE_NODES), k);
            let rising = guess < 0;
            let first = if rising { (bracket.lower + 2).min(guess) } else { bracket.upper.max(guess) };
            (Phase::Walk { streak: 0, rising, guess }, first)
        }
        // Is the lower bound the value? (Once, after the first failures.)
        Phase::Gallop { below } if tests == BOTTOM_AFTER => (Phase::Gallop { below }, bracket.lower + 1),
        Phase::Gallop { below } => {
            (Phase::Gallop { below: below.saturating_mul(2).saturating_add(1) }, bracket.upper.saturating_sub(below))
        }
        Phase::Bisect => (Phase::Bisect, midpoint(bracket, k)),
        // The walk reached the guess: on from there as aimed tests.
        Phase::Walk { rising, guess, .. } if (rising && target >= guess) || (!rising && target <= guess) => {
            (Phase::Aim { streak: 1, rising: success }, if success { bracket.lower + 2 } else { bracket.upper })
        }
        // The value lies between this test and the walk's last one.
        Phase::Walk { rising, .. } if rising != success => (Phase::Bisect, midpoint(bracket, k)),
        // Near the costly middle already: straight to a deeper guess (cheap beside the tests
        // to come).
        Phase::Walk { streak, rising, .. } if costly => {
            let guess = parity_ceil(guess(DEEP_ESTIMATE_NODES), k);
            (Phase::Walk { streak, rising, guess }, guess)
        }
        Phase::Walk { streak, rising, guess } => {
            let streak = streak + 1;
            let step = step(streak);
            let next =
                if rising { bracket.lower.saturating_add(step).min(guess) } else { bracket.upper.saturating_sub(step - 2).max(guess) };
            (Phase::Walk { streak, rising, guess }, next)
        }
        Phase::Aim { streak, rising } => {
            let streak = if rising == success { streak + 1 } else { 1 };
            let step = step(streak);
            let next = if success { bracket.lower.saturating_add(step) } else { bracket.upper.saturating_sub(step - 2) };
            (Phase::Aim { streak, rising: success }, next)
        }
    }
}

/// The distance of the next test from the bound the last one proved, after `streak` tests in
/// one direction: one parity step at a time, then doubling.
fn step(streak: u32) -> i32 {
    2i32.saturating_mul(1 << streak.saturating_sub(PATIENCE).min(20))
}

/// The middle of the open bracket on the parity lattice: a test in `(lower, upper]`.
fn midpoint(bracket: &Bracket, k: u32) -> i32 {
    parity_ceil(bracket.lower + (bracket.upper - bracket.lower + 1) / 2, k)
}

#[cfg(test)]
mod tests {
    use super::{Answer, Bracket, Narrowing, BOTTOM_AFTER, DEEP_ESTIMATE_NODES, ESTIMATE_NODES};
    use crate::rules::parity_ceil;

    /// Tests up to and including the bottom one.
    const GALLOP: usize = BOTTOM_AFTER as usize + 1;

    /// The tests a narrowing asks of a position of `k` seeds and future gain `value`, from
    /// `[-k, k]` with the first test at the top, each answered with the weakest fail-soft
    /// value (the target itself, or two below it) and as costly or not as `costly` says,
    /// `guess` being the shallow search's whatever its budget. Checks that it closes on the
    /// value. Returns the targets and the budgets the guess was asked with.
    fn tests_asked(k: i32, value: i32, guess: i32, costly: bool) -> (Vec<i32>, Vec<u64>) {
        let (mut asked, mut budgets) = (Vec::new(), Vec::new());
        let mut narrowing = Narrowing::new(Bracket::seeds(k), k as u32, k);
        let test = |target: i32, _| {
            asked.push(target);
            Some(Answer { value: if value >= target { target } else { target - 2 }, mv: None, costly })
        };
        let bracket = narrowing.run_tests(
            k as u32,
            test,
            |nodes| {
                budgets.push(nodes);
                guess
            },
            |_, _, bracket| assert!(bracket.lower <= value && value <= bracket.upper),
        );
        assert_eq!((bracket.lower, bracket.upper), (value, value), "value {value}, guess {guess}");
        (asked, budgets)
    }

    #[test]
    fn every_value_is_found_whatever_the_guess_and_the_cost() {
        for k in [1, 6, 29, 40] {
            for value in (-k..=k).step_by(2) {
                for guess in -k - 3..=k + 3 {
                    for costly in [false, true] {
                        let (asked, _) = tests_asked(k, value, guess, costly);
                        // Each test moves a bound by a parity step at least, and galloping,
                        // the walk and the steps after it each take a logarithmic number.
                        assert!(asked.len() <= 8 + 6 * (k as usize).ilog2() as usize, "{k} seeds, value {value}, guess {guess}: {asked:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_walk_never_tests_on_0s_side_of_a_guess_that_lies_between_0_and_the_value() {
        let k = 90;
        for value in (-k..=k).step_by(2) {
            // Every guess between 0 and the value with the value's sign (a guess of 0 walks
            // down), on the board's parity.
            let guesses = if value >= 0 { (0..=value).step_by(2).collect::<Vec<_>>() } else { (value..0).step_by(2).collect() };
            // (The bottom test proves at least -88, so a guess there has no test left below it.)
            for guess in guesses.into_iter().filter(|&guess| guess > -k + 2) {
                let (asked, _) = tests_asked(k, value, guess, false);
                let after_galloping = asked.get(GALLOP..).unwrap_or_default();
                // (Rising, the guess holding, "at least guess + 2" is what proves the value.)
                let on_0s_side = |t: i32| if value >= 0 { t < guess } else { t > guess + 2 };
                assert!(!after_galloping.iter().any(|&t| on_0s_side(t)), "value {value}, guess {guess}: {after_galloping:?}");
            }
        }
    }

    #[test]
    fn a_costly_test_sends_the_walk_to_a_deeper_guess() {
        // The walk's first test (the upper bound) is costly: the next one is the deeper guess.
        let (k, value, guess) = (90, 10, 40);
        let (asked, budgets) = tests_asked(k, value, guess, true);
        assert_eq!(asked[GALLOP + 1], parity_ceil(guess, k as u32), "{asked:?}");
        assert_eq!(budgets, [ESTIMATE_NODES, DEEP_ESTIMATE_NODES]);
        let (cheap, budgets) = tests_asked(k, value, guess, false);
        assert!(cheap[GALLOP + 1] > guess, "{cheap:?}");
        assert_eq!(budgets, [ESTIMATE_NODES]);
    }
}
