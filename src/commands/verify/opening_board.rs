//! Deciding one board under `no-first-turn-capture`: its start is an opening state (both first
//! turns pending), solved by the opening search ([`dakon_solver::first_turn_search`]) within the
//! budget, its leaves by the solver of the rules after the opening. The opening-turn proof
//! plays by those rules, where a first turn may capture, so it proves nothing here and is
//! left out.

use std::time::Instant;

use dakon_solver::dakon::{DakonOptions, OpeningState, Player};
use dakon_solver::first_turn_search::solve_opening;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Limits, Solver};

use super::board::{remaining, Board, PlayedTurn, Proof, Row, TurnProof};

/// Decides the start of `board` under `options` (which have `no-first-turn-capture`) with
/// `solver` (of `options.board_rules()` on this board) within `limits`: the row of
/// [`super::board::verify`], with no turn proof; the opening shown is player 0's first turn
/// when the value is exact and each of its moves proven best within the limits.
///
/// # Panics
/// Panics if the board is not a valid start (callers check sizes first).
pub fn verify(board: Board, options: DakonOptions, solver: &Solver<RuleSet>, limits: &Limits, tables: bool) -> Row {
    let started = Instant::now();
    let start = OpeningState::start(board.holes, board.seeds).expect("board sizes are checked before");
    let total = board.total() as i32;
    let solution = solve_opening(solver, &start, options, limits);
    let left = remaining(limits, started);
    // The start has empty stores, so future gains are final differences.
    let (lower, upper) = (solution.lower, solution.upper);
    let proof = if lower == upper {
        Proof::ExactSearch
    } else if lower > 0 || upper < 0 {
        Proof::SearchBound
    } else {
        Proof::Unproven
    };
    let opening = solution.best_hole.and_then(|hole| first_turn(solver, &start, hole, options, &left));
    Row {
        rules: RulesName::Dakon(options),
        board,
        lower,
        upper,
        proof,
        opening_optimal: opening.is_some(),
        opening,
        turn_proof: TurnProof { turn: None, lower: -total, nodes: 0, complete: false },
        nodes: solution.opening_states + solution.leaf_nodes,
        seconds: started.elapsed().as_secs_f64(),
        budget: limits.time.map(|t| t.as_secs_f64()),
        tables,
        interrupted: limits.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)),
        upper_by_walk: solution.upper_by_take_all(&start),
        certificate: None,
    }
}

/// Player 0's whole first turn from `start`, beginning with `hole` (proven best), each
/// further move of the turn proven best by an exact solve within `limits` (each); `None` if a
/// limit stops one.
fn first_turn(solver: &Solver<RuleSet>, start: &OpeningState, hole: usize, options: DakonOptions, limits: &Limits) -> Option<PlayedTurn> {
    let mut holes = vec![hole];
    let mut state = start.play_hole_with(hole, options).ok()?.0;
    while state.position.mover() == Player::Zero && !state.position.is_over() {
        let next = solve_opening(solver, &state, options, limits).best_hole?;
        holes.push(next);
        state = state.play_hole_with(next, options).ok()?.0;
    }
    Some(PlayedTurn { holes, stored: state.position.store(Player::Zero) as u32 })
}
