//! Valuing every move of a position in installments: [`MoveAnalysis`] keeps, for each move,
//! the narrowing of its child's bracket (tests done, phase, guess), so that a caller who
//! shares time between the moves in rounds (`dakon serve`) goes on from where each move's
//! last round stopped instead of starting its driver over. Starting over cost every open
//! move, every round, the best-turn search and the guess of `estimate` again, and the
//! galloping tests (cheap, but answered again from the table).

use super::budget::Budget;
use super::driver::{Bracket, Narrowing};
use super::{Limits, MoveValue, Progress, Solver};
use crate::rules::Step;
use crate::solvable::Solvable;

/// Every legal move of one position being valued, each from the bounds proven for it so far;
/// made by [`Solver::move_analysis`], advanced by [`MoveAnalysis::round`].
#[derive(Clone, Debug)]
pub struct MoveAnalysis<R: Solvable> {
    moves: Vec<OpenMove<R::Position>>,
}

/// One move: what it did, and the narrowing of its child's future gain.
#[derive(Clone, Debug)]
struct OpenMove<P> {
    mv: u8,
    step: Step<P>,
    narrowing: Narrowing,
    /// Positions its tests visited so far.
    nodes: u64,
}

impl<P> OpenMove<P> {
    /// The move's bounds, from its child's: `move = gain + child` on an extra move, else
    /// `gain - child`.
    fn value(&self) -> MoveValue {
        let child = self.narrowing.bracket();
        let sign = if self.step.same_mover { 1 } else { -1 };
        let (a, b) = (self.step.gain + sign * child.lower, self.step.gain + sign * child.upper);
        MoveValue { mv: self.mv, lower: a.min(b), upper: a.max(b) }
    }
}

impl<R: Solvable> MoveAnalysis<R> {
    /// The moves being valued, from `known` (bounds of some of them **proven elsewhere**; a
    /// wrong one makes the result wrong), with `moves` the legal moves of `pos` to value.
    pub(crate) fn new(solver: &Solver<R>, pos: &R::Position, moves: &[u8], known: &[MoveValue]) -> Self {
        let rules = &solver.rules;
        let moves = moves
            .iter()
            .map(|&mv| {
                let step = rules.play(pos, mv);
                let k = rules.seeds_on_board(&step.next) as i32;
                let sign = if step.same_mover { 1 } else { -1 };
                // The child's bracket: its mover's best turn below, the move's known bounds.
                let mut start = Bracket::seeds(k);
                start.lower = solver.turn_bound(&step.next).map_or(start.lower, |lower| lower.clamp(-k, k));
                if let Some(known) = known.iter().find(|m| m.mv == mv) {
                    // (In i64: an unknown bound may be `i32::MIN` or `i32::MAX`.)
                    let child =
                        |v: i32| (i64::from(sign) * (i64::from(v) - i64::from(step.gain))).clamp(-i64::from(k), i64::from(k)) as i32;
                    let (a, b) = (child(known.lower), child(known.upper));
                    start.lower = start.lower.max(a.min(b));
                    start.upper = a.max(b).max(start.lower);
                }
                // First: does the child's mover take every seed left?
                OpenMove { mv, step, narrowing: Narrowing::new(start, k as u32, k), nodes: 0 }
            })
            .collect();
        MoveAnalysis { moves }
    }

    /// Narrows every move not yet exact, each within a budget of its own from `limits`
    /// (a node limit is then per move). Bounds only narrow: each is a proof.
    pub fn round(&mut self, solver: &Solver<R>, limits: &Limits) {
        self.round_observed(solver, limits, &|_, _| {});
    }

    /// [`MoveAnalysis::round`], telling `observer` of every null-window test as it ends: the
    /// move, and the test on its child's future gain (the child's mover's view; nodes counted
    /// from the start of the move's round). For tracing where an analysis spends its work.
    pub fn round_observed(&mut self, solver: &Solver<R>, limits: &Limits, observer: &dyn Fn(u8, &Progress)) {
        for index in 0..self.moves.len() {
            if !self.is_exact(index) {
                self.advance(solver, index, &Budget::new(limits), observer);
            }
        }
    }

    /// Narrows move number `index` (in [`MoveAnalysis::values`]'s order) within `budget`,
    /// telling `observer` of each test.
    pub(crate) fn advance(&mut self, solver: &Solver<R>, index: usize, budget: &Budget, observer: &dyn Fn(u8, &Progress)) {
        let open = &mut self.moves[index];
        let before = budget.nodes();
        let mv = open.mv;
        open.narrowing.run(solver, &open.step.next, budget, Some(&|progress: &Progress| observer(mv, progress)));
        open.nodes += budget.nodes() - before;
    }

    fn is_exact(&self, index: usize) -> bool {
        self.moves[index].narrowing.bracket().is_exact()
    }

    /// Whether every move's value is exact.
    pub fn is_done(&self) -> bool {
        self.open() == 0
    }

    /// How many moves are not exact yet.
    pub fn open(&self) -> usize {
        (0..self.moves.len()).filter(|&index| !self.is_exact(index)).count()
    }

    /// Every move's bounds so far, in the order of the position's legal moves.
    pub fn values(&self) -> Vec<MoveValue> {
        self.moves.iter().map(OpenMove::value).collect()
    }

    /// Positions visited by the tests of each move so far, in [`MoveAnalysis::values`]'s order.
    pub fn nodes(&self) -> Vec<u64> {
        self.moves.iter().map(|m| m.nodes).collect()
    }
}
