//! A solve whose root tests the caller runs: [`Solver::solve_by`] hands each null-window test
//! of the driver to a function of the caller's (`dakon-mpi` has every rank of an MPI job
//! search it in one shared table, the first to finish answering), and [`Solver::driver_test`]
//! is one such test as the driver would run it in this process. Every answer is a proof, so
//! where a test ran changes the cost, never the bounds.

use super::budget::Budget;
use super::parallel::null_window;
use super::{Limits, Solution, SolveOptions, Solver};
use crate::solvable::Solvable;

/// A test's fail-soft answer: the future gain is at least `value` when `value` reaches the
/// target (with the move that proved it, if known), else at most `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestAnswer {
    /// The fail-soft value.
    pub value: i32,
    /// The move that proved a value reaching the target, if known.
    pub mv: Option<u8>,
}

/// What one test of the driver found, wherever it ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriverTest {
    /// The answer; `None` when a limit stopped the test first.
    pub answer: Option<TestAnswer>,
    /// Positions visited by the test (on every process that searched it).
    pub nodes: u64,
}

/// The driver's test "is the future gain at least `target`?" (`bottom`: the bottom test, see
/// `driver`) of the position being solved, run wherever the caller likes.
pub type RootTests<'a> = dyn Fn(i32, bool) -> DriverTest + 'a;

impl<R: Solvable> Solver<R> {
    /// One test of the driver of a solve of `pos`, run here within `limits`: "is the future
    /// gain at least `target`?", asked move by move when `bottom` (the driver's bottom test).
    ///
    /// Return contract: the answer, when there is one, is fail-soft and proven (at least
    /// `value` when `value >= target`, else at most `value`), and the table keeps what the
    /// search proved on the way; `None` when `limits` stopped it first.
    pub fn driver_test(&self, pos: &R::Position, target: i32, bottom: bool, limits: &Limits) -> DriverTest {
        let budget = Budget::new(limits);
        let answer = self.driver_test_within(pos, target, bottom, &budget);
        DriverTest { answer: answer.map(|(value, mv)| TestAnswer { value, mv }), nodes: budget.nodes() }
    }

    /// [`Solver::driver_test`] charging `budget`.
    pub(crate) fn driver_test_within(&self, pos: &R::Position, target: i32, bottom: bool, budget: &Budget) -> Option<(i32, Option<u8>)> {
        // The bottom test expects every move to be refuted by the opponent taking every seed
        // left: asked move by move, each child gets that cheap test first.
        if bottom {
            self.move_by_move(pos, target, budget)
        } else {
            null_window(self, pos, target, budget)
        }
    }

    /// [`Solver::solve_with`] whose root tests `tests` runs (each answer **a proof**: a wrong
    /// one makes the result wrong), the nodes it reports counted as the solve's. The rest (the
    /// guesses the tests aim at, the principal variation) runs here.
    ///
    /// Return contract: as [`Solver::solve_with`]'s; a test answered `None` ends the solve with
    /// the bounds proven so far.
    pub fn solve_by(&self, pos: &R::Position, limits: &Limits, options: SolveOptions, tests: &RootTests<'_>) -> Solution {
        self.solve_tested(pos, limits, options, Some(tests))
    }
}
