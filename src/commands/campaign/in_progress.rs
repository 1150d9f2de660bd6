//! What a running test has proven so far: the bounds the solver's transposition table holds
//! for the position tested and for each of its moves. Every entry there was proven by a
//! finished search of its position (see `Solver::table_bounds`), so the bounds are proven,
//! though the test has not ended and its record is not written yet.

use dakon_solver::dakon::Position;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::Solver;

use super::bounds::Bounds;

/// The proven state of a running test of "is the value of `pos` at least `target`?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoFar {
    /// The position's bounds: the best of its moves' (one ply of minimax over the table),
    /// within the table's own entry for it.
    pub bounds: Bounds,
    /// Moves proven below the target (the test needs them all for "no").
    pub refuted: usize,
    /// Moves proven to reach it (one is enough for "yes").
    pub reaching: usize,
    pub moves: usize,
}

/// [`SoFar`] for `pos` and `target` (final store differences, the mover of `pos` minus the
/// opponent), from what `solver`'s table holds now.
pub fn so_far(solver: &Solver<RuleSet>, pos: &Position, target: i32) -> SoFar {
    let rules = solver.rules();
    let held = |p: &Position| {
        let (stored, seeds) = (p.store_difference(), p.seeds_on_board() as i32);
        let (lower, upper) = solver.table_bounds(p).unwrap_or((-seeds, seeds));
        Bounds { lower: stored + lower, upper: stored + upper }
    };
    let moves = rules.legal_moves(pos);
    if moves.is_empty() {
        return SoFar { bounds: held(pos), refuted: 0, reaching: 0, moves: 0 };
    }
    let mut best = Bounds { lower: i32::MIN, upper: i32::MIN };
    let (mut refuted, mut reaching) = (0, 0);
    for &mv in moves.as_slice() {
        let step = rules.play(pos, mv);
        let child = held(&step.next).seen_from_parent(step.same_mover);
        refuted += usize::from(child.upper < target);
        reaching += usize::from(child.lower >= target);
        best = Bounds { lower: best.lower.max(child.lower), upper: best.upper.max(child.upper) };
    }
    let own = held(pos);
    let bounds = Bounds { lower: best.lower.max(own.lower), upper: best.upper.min(own.upper) };
    SoFar { bounds, refuted, reaching, moves: moves.len() }
}

/// `[-12, +30] so far, 2 of 6 moves below the target`.
pub fn describe(so_far: &SoFar) -> String {
    let mut text = format!("{} so far, {} of {} moves proven below the target", so_far.bounds.describe(), so_far.refuted, so_far.moves);
    if so_far.reaching > 0 {
        text += &format!(", {} reaching it", so_far.reaching);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use dakon_solver::ruleset::RulesName;
    use dakon_solver::search::{Config, Limits};

    #[test]
    fn a_finished_test_leaves_its_answer_in_the_table() {
        let rules = RuleSet::new(RulesName::Kalah, 4).unwrap();
        let solver = Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 22 }, None);
        let start = Position::start(4, 3).unwrap();
        let value = solver.solve(&start, &Limits::default()).lower;
        // Before any search, nothing is proven beyond what the seeds after each move allow.
        let fresh = Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 22 }, None);
        let nothing = so_far(&fresh, &start, value);
        assert_eq!((nothing.refuted, nothing.reaching, nothing.moves), (0, 0, 4));
        assert!(nothing.bounds.lower <= -20 && nothing.bounds.upper == 24, "{nothing:?}");
        // After "at least value + 1?" (no), every move is proven below it and the bounds hold
        // the value.
        assert_eq!(fresh.at_least(&start, value + 1, &Limits::default()), Some(false));
        let after = so_far(&fresh, &start, value + 1);
        assert_eq!(after.refuted, after.moves);
        assert!(after.bounds.lower <= value && value <= after.bounds.upper && after.bounds.upper <= value, "{after:?}");
    }
}
