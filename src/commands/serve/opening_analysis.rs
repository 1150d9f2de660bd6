//! The analysis of a state of the opening under `no-first-turn-capture`, on a blocking thread:
//! every move valued by the opening search ([`dakon_solver::first_turn_search`]), whose leaves
//! (both first turns over) the board's solver of the rules after the opening tests. Nothing of
//! it goes to the results database, whose rows are positions without first turns.

use std::time::Instant;

use dakon_solver::dakon::{DakonOptions, OpeningState};
use dakon_solver::first_turn_search::value_opening_moves;
use dakon_solver::search::Limits;

use super::analysis::{result, Analysis};
use super::registry::BoardSolver;
use super::rule_set::RuleSet;
use crate::commands::show;
use crate::ranked_moves::{ranked_moves, RankedMove};

/// Values every legal move of `state` (in the opening: some player's first turn pending) under
/// `options` within `limits` (its time and stop flag), as the JSON `/api/analyse` sends for any
/// position: the moves ranked as `best` ranks them, the state worth its best move, and as the
/// line the best move alone when it is proven.
pub fn analyse_opening(rule_set: RuleSet, options: DakonOptions, board: &BoardSolver, state: &OpeningState, limits: &Limits) -> Analysis {
    let started = Instant::now();
    // Said as the search starts: the page's board's tables may get ready while it runs.
    let tables = board.tables();
    let moves = ranked_moves(&state.position, &value_opening_moves(&board.solver, state, options, limits));
    let exact = moves.iter().all(RankedMove::is_exact);
    // A state of the opening is never over, so it has a move.
    let lower = moves.first().map_or(0, |m| m.lower);
    let upper = moves.iter().map(|m| m.upper).max().unwrap_or(0);
    let line: Vec<usize> = moves.first().filter(|_| lower == upper).map(|m| m.hole).into_iter().collect();
    let mut json = show::json(&rule_set.rules_for(&state.position), &state.position);
    let fields = serde_json::json!({
        "position": state.to_string(),
        "rules": rule_set.name(),
        "moves": moves.iter().map(RankedMove::json).collect::<Vec<_>>(),
        "value": (lower == upper).then_some(lower),
        "exact": lower == upper,
        "lower": lower,
        "upper": upper,
        "result": result(lower, upper),
        "pv": line,
        "pv_complete": false,
        "seconds": started.elapsed().as_secs_f64(),
        "tables": tables,
        "from_database": false,
    });
    if let (Some(json), serde_json::Value::Object(fields)) = (json.as_object_mut(), fields) {
        json.extend(fields);
    }
    Analysis { json, exact, entries: Vec::new() }
}
