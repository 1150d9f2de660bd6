//! The principal variation: a line of optimal moves to the end of the game, each one proven
//! optimal by a null-window search (cheap, since the table already holds most of the proof).

use super::budget::Budget;
use super::ordering::{Child, Children};
use super::parallel::null_window;
use super::Solver;
use crate::solvable::Solvable;

/// The best line from `pos`, whose exact future gain is `value`, starting with `first` when it
/// is already proven optimal. The line stops early if the budget runs out.
pub(crate) fn principal_variation<R: Solvable>(
    solver: &Solver<R>,
    pos: &R::Position,
    value: i32,
    first: Option<u8>,
    budget: &Budget,
) -> Vec<u8> {
    let rules = &solver.rules;
    let mut line = Vec::new();
    let (mut pos, mut value) = (*pos, value);
    loop {
        let mv = match first.filter(|_| line.is_empty()) {
            Some(mv) => mv,
            None => match optimal_move(solver, &pos, value, budget) {
                Some(child) => child.mv,
                None => break,
            },
        };
        let step = rules.play(&pos, mv);
        line.push(mv);
        value = if step.same_mover { value - step.gain } else { step.gain - value };
        pos = step.next;
    }
    line
}

/// A move of `pos` achieving its exact future gain `value`, the first in the static move order
/// (the table's move is not asked, so the line does not depend on what the search's threads
/// left in the table); `None` if the game is over or the budget ran out.
pub(crate) fn optimal_move<R: Solvable>(solver: &Solver<R>, pos: &R::Position, value: i32, budget: &Budget) -> Option<Child<R::Position>> {
    let rules = &solver.rules;
    let moves = rules.legal_moves(pos);
    for &child in Children::new(rules, pos, &moves, None).iter() {
        let (gain, next) = (child.step.gain, &child.step.next);
        if gain + (rules.seeds_on_board(next) as i32) < value {
            continue;
        }
        // The move is optimal when it is worth at least `value` to the mover.
        let achieves = if child.step.same_mover {
            null_window(solver, next, value - gain, budget)?.0 >= value - gain
        } else {
            null_window(solver, next, gain - value + 1, budget)?.0 <= gain - value
        };
        if achieves {
            return Some(child);
        }
    }
    None
}
