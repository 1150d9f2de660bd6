//! One analysis, on a blocking thread: the position's value and principal variation, and every
//! legal move's value (or the bounds a limit left), as the JSON the API sends.

use std::time::Instant;

use dakon_solver::dakon::Position;
use dakon_solver::rules::Rules;
use dakon_solver::search::Limits;

use super::registry::BoardSolver;
use super::rounds::value_every_move;
use super::rule_set::RuleSet;
use crate::commands::show;
use crate::commands::solve::outcome;
use crate::line::absolute_line;
use crate::ranked_moves::ranked_moves;

/// What one search proved about a position, as the API writes it.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub json: serde_json::Value,
    /// Whether every move's value is exact (then the answer holds whatever the time limit).
    pub exact: bool,
}

/// Values every legal move of `position` within `limits` (its time and stop flag): the
/// position's value and principal variation first, then every move in rounds (see
/// [`super::rounds`]). Moves are ranked as `best` ranks them.
pub fn analyse(rule_set: RuleSet, board: &BoardSolver, position: &Position, limits: &Limits) -> Analysis {
    let started = Instant::now();
    let solver = &board.solver;
    let valued = value_every_move(solver, position, limits.time, limits.stop.clone());
    let moves = ranked_moves(position, &valued.moves);
    let exact = valued.solution.is_exact() && moves.iter().all(|m| m.is_exact());
    // The position is worth its best move; the solve may have proven more than the moves.
    let stored = position.store_difference();
    let (mut lower, mut upper) = (stored + valued.solution.lower, stored + valued.solution.upper);
    if let Some(best) = moves.first() {
        lower = lower.max(best.lower);
        upper = upper.min(moves.iter().map(|m| m.upper).max().unwrap_or(upper));
    }
    // Each move of the line is proven optimal; the line stops early if time ran out.
    let line = if valued.solution.is_exact() { valued.solution.pv.as_slice() } else { &[] };
    let rules = rule_set.rules_for(position);
    let (pv, end) = absolute_line(&rules, position, line);
    let value_exact = lower == upper;
    let mut json = show::json(&rules, position);
    let fields = serde_json::json!({
        "rules": rule_set.name(),
        "moves": moves.iter().map(|m| m.json()).collect::<Vec<_>>(),
        "value": value_exact.then_some(lower),
        "exact": value_exact,
        "lower": lower,
        "upper": upper,
        "result": value_exact.then(|| outcome(lower)),
        "pv": pv,
        "pv_complete": value_exact && solver.rules().legal_moves(&end).is_empty(),
        "seconds": started.elapsed().as_secs_f64(),
        "tables": board.tables,
    });
    if let (Some(json), serde_json::Value::Object(fields)) = (json.as_object_mut(), fields) {
        json.extend(fields);
    }
    Analysis { json, exact }
}
