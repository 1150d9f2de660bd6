//! A search's answer as users read it: values as final store differences (player to move
//! minus opponent) and moves as the holes the notation numbers, so that `solve --json`, the
//! batch records and the Python binding show one record with one set of field names.

use serde::Serialize;

use super::{absolute_line, RuleSet};
use crate::dakon::Position;
use crate::rules::Rules;
use crate::search::{MoveValue, Solution};

/// What a search proved about one position, in the user's terms.
///
/// Serialised with its fields in this order; `moves` is left out when absent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolutionRecord {
    /// The rules the position was solved by.
    pub rules: &'static str,
    /// The position, in normalised notation.
    pub position: String,
    /// The final store difference with perfect play; `None` when only bounds were proven.
    pub value: Option<i32>,
    /// Whether `value` is known (`lower == upper`).
    pub exact: bool,
    /// Proven lower bound of the final difference.
    pub lower: i32,
    /// Proven upper bound of the final difference.
    pub upper: i32,
    /// The best move (a hole); `None` when the game is over. See `best_move_proven`.
    pub best_move: Option<usize>,
    /// Whether `best_move` is proven to reach `lower`; else a limit stopped the search first
    /// and it is a guess.
    pub best_move_proven: bool,
    /// The principal variation as holes: every move optimal when exact.
    pub pv: Vec<usize>,
    /// Every move's value, best first, when they were asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveRecord>>,
    /// Positions searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
}

impl SolutionRecord {
    /// The record of `solution` (future gains, rules-level moves) for `position` under
    /// `rules`, without move values and with the search's own time.
    pub fn new(rules: &RuleSet, position: &Position, solution: &Solution) -> SolutionRecord {
        let stores = position.store_difference();
        let exact = solution.is_exact();
        SolutionRecord {
            rules: rules.name(),
            position: position.to_string(),
            value: exact.then_some(stores + solution.lower),
            exact,
            lower: stores + solution.lower,
            upper: stores + solution.upper,
            best_move: solution.best_move.map(|mv| position.absolute_hole(position.mover(), mv as usize)),
            best_move_proven: solution.best_move_proven,
            pv: absolute_line(rules, position, &solution.pv).0,
            moves: None,
            nodes: solution.nodes,
            seconds: solution.elapsed.as_secs_f64(),
        }
    }

    /// `"win"`, `"draw"` or `"loss"` for the player to move; `None` when not exact.
    pub fn result(&self) -> Option<&'static str> {
        self.value.map(outcome)
    }
}

/// The value of one move, for the player who makes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRecord {
    /// The move, as a hole.
    pub hole: usize,
    /// The final store difference when this move is played and both sides play perfectly
    /// after it; `None` when only bounds were proven.
    pub value: Option<i32>,
    /// Whether `value` is known.
    pub exact: bool,
    /// Proven lower bound of the final difference.
    pub lower: i32,
    /// Proven upper bound of the final difference.
    pub upper: i32,
}

impl MoveRecord {
    /// The record of the move `value` describes (future gains, a rules-level move) in
    /// `position`.
    pub fn new(position: &Position, value: &MoveValue) -> MoveRecord {
        let stores = position.store_difference();
        let exact = value.lower == value.upper;
        MoveRecord {
            hole: position.absolute_hole(position.mover(), value.mv as usize),
            value: exact.then_some(stores + value.lower),
            exact,
            lower: stores + value.lower,
            upper: stores + value.upper,
        }
    }
}

/// Win, draw or loss for the player to move, from the final store difference.
pub fn outcome(value: i32) -> &'static str {
    match value.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::RulesName;
    use crate::search::{Config, Limits, Solver};

    #[test]
    fn a_solved_record_reads_in_final_differences_and_holes() {
        let position = Position::start(3, 2).unwrap();
        let rules = RuleSet::of(RulesName::DAKON, &position);
        let solver = Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 20 }, None);
        let solution = solver.solve(&position, &Limits::default());
        let record = SolutionRecord::new(&rules, &position, &solution);
        assert!(record.exact);
        assert_eq!(record.value, Some(solution.lower + position.store_difference()));
        assert_eq!(record.pv.first().copied(), record.best_move);
        assert_eq!(record.pv.len(), solution.pv.len());
        assert_eq!(record.result(), record.value.map(outcome));
        let json = serde_json::to_string(&record).unwrap();
        assert!(json.starts_with(r#"{"rules":"dakon","position":"#), "{json}");
        assert!(!json.contains("moves"), "{json}");
    }

    #[test]
    fn outcome_names_the_sign() {
        assert_eq!((outcome(3), outcome(0), outcome(-1)), ("win", "draw", "loss"));
    }
}
