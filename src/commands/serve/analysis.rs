//! One analysis, on a blocking thread: the position's value and principal variation, and every
//! legal move's value (or the bounds a limit left), as the JSON the API sends, and as rows of
//! the results database.

use std::time::{Duration, Instant};

use dakon_solver::dakon::Position;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::outcome;
use dakon_solver::search::{Limits, Solution};

use super::registry::BoardSolver;
use super::rounds::{value_every_move, Valued};
use super::rule_set::RuleSet;
use crate::commands::show;
use crate::line::absolute_line;
use crate::ranked_moves::ranked_moves;
use crate::results_db::{entries_of, Bounds, Entry, Prior, Proof, Proved};

/// What one search proved about a position, as the API writes it.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub json: serde_json::Value,
    /// Whether every move's value is exact (then the answer holds whatever the time limit).
    pub exact: bool,
    /// What it proved, as rows of the results database.
    pub entries: Vec<Entry>,
}

/// Where an answer's values come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A search now (started from the database's bounds, if any), reading endgame tables or not.
    Search { tables: bool },
    /// The results database alone: no search.
    Database,
}

/// Values every legal move of `position` within `limits` (its time and stop flag), starting
/// from the bounds `prior` holds: the position's value and principal variation first, then
/// every move in rounds (see [`super::rounds`]). Moves are ranked as `best` ranks them.
pub fn analyse(rule_set: RuleSet, board: &BoardSolver, position: &Position, limits: &Limits, prior: &Prior) -> Analysis {
    let started = Instant::now();
    // Said as the search starts: the page's board's tables may get ready while it runs.
    let tables = board.tables();
    let valued = value_every_move(&board.solver, position, limits.time, limits.stop.clone(), prior);
    describe(rule_set, position, &valued, started.elapsed(), Source::Search { tables })
}

/// The analysis the database holds whole (`prior.is_complete()`), without a search (nor the
/// board's solver: its endgame tables may take seconds to load).
pub fn from_database(rule_set: RuleSet, position: &Position, prior: &Prior, started: Instant) -> Analysis {
    let bounds = prior.position.unwrap_or(Bounds { lower: 0, upper: 0 });
    let solution = Solution {
        lower: bounds.lower,
        upper: bounds.upper,
        best_move: prior.pv.first().copied(),
        // The database keeps only lines proven to the end of the game.
        best_move_proven: !prior.pv.is_empty(),
        pv: prior.pv.clone(),
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    let valued = Valued { solution, moves: prior.moves.clone() };
    describe(rule_set, position, &valued, started.elapsed(), Source::Database)
}

fn describe(rule_set: RuleSet, position: &Position, valued: &Valued, took: Duration, source: Source) -> Analysis {
    let moves = ranked_moves(position, &valued.moves);
    let exact = valued.solution.is_exact() && moves.iter().all(|m| m.is_exact());
    // The position is worth its best move; the solve may have proven more than the moves.
    let stored = position.store_difference();
    let (mut lower, mut upper) = (stored + valued.solution.lower, stored + valued.solution.upper);
    if let Some(best) = moves.first() {
        lower = lower.max(best.lower);
        upper = upper.min(moves.iter().map(|m| m.upper).max().unwrap_or(upper));
    }
    // Each move of the line is proven optimal (the line stops early if time ran out), given
    // that its first move is: a solve cut short may name a best move only guessed.
    let first_optimal = |mv: &u8| valued.moves.iter().any(|m| m.mv == *mv && m.lower == m.upper && m.lower == valued.solution.lower);
    let line = if valued.solution.is_exact() && valued.solution.pv.first().is_some_and(first_optimal) {
        valued.solution.pv.as_slice()
    } else {
        &[]
    };
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
        "result": result(lower, upper),
        "pv": pv,
        "pv_complete": value_exact && rules.legal_moves(&end).is_empty(),
        "seconds": took.as_secs_f64(),
        "tables": matches!(source, Source::Search { tables: true }),
        "from_database": source == Source::Database,
    });
    if let (Some(json), serde_json::Value::Object(fields)) = (json.as_object_mut(), fields) {
        json.extend(fields);
    }
    let entries = match source {
        Source::Database => Vec::new(),
        Source::Search { tables } => entries_of(
            &rules,
            &Proved {
                position,
                bounds: Bounds { lower: lower - stored, upper: upper - stored },
                pv: line,
                moves: &valued.moves,
                proof: Proof::search(tables),
                nodes: valued.solution.nodes,
                seconds: took.as_secs_f64(),
            },
        ),
    };
    Analysis { json, exact, entries }
}

/// Win, draw or loss for the player to move when the bounds prove it (an exact value, or both
/// bounds on the same side of zero), else `None`.
pub fn result(lower: i32, upper: i32) -> Option<&'static str> {
    if lower == upper || lower > 0 || upper < 0 {
        Some(outcome(if lower > 0 { lower } else { upper }))
    } else {
        None
    }
}
