//! One line of the batch output: the result for one input position, or an error record.

use std::time::Instant;

use dakon_solver::dakon::Position;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::{Limits, MoveValue, Solver};
use serde::Serialize;

use crate::line::absolute_line;
use crate::results_db::{analyse_moves_kept, solve_kept, ResultsDb};

/// The result for one position. Values are final store differences, player to move minus
/// opponent; holes are absolute.
#[derive(Serialize)]
pub struct Solved {
    /// The input line number.
    pub line: u64,
    /// The rules the position was solved by.
    pub rules: &'static str,
    /// The position, in normalised notation.
    pub position: String,
    /// The value, when exact.
    pub value: Option<i32>,
    pub exact: bool,
    pub lower: i32,
    pub upper: i32,
    pub best_move: Option<usize>,
    /// Whether `best_move` is proven to reach `lower`; else a limit stopped the search first
    /// and it is a guess.
    pub best_move_proven: bool,
    pub pv: Vec<usize>,
    /// Every move's value, best first (with `--all-moves`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<Move>>,
    pub nodes: u64,
    pub seconds: f64,
}

/// The value of one move, for the player who makes it.
#[derive(Serialize)]
pub struct Move {
    pub hole: usize,
    pub value: Option<i32>,
    pub exact: bool,
    pub lower: i32,
    pub upper: i32,
}

/// An input line that is not a position.
#[derive(Serialize)]
pub struct Failed<'a> {
    pub line: u64,
    pub rules: &'a str,
    pub input: &'a str,
    pub error: &'a str,
}

/// What solves a line: the board's solver, whether it has tables, and the results database
/// to start from and keep the results in (if any).
pub struct Searched<'a> {
    pub solver: &'a Solver<RuleSet>,
    pub tables: bool,
    pub db: Option<&'a ResultsDb>,
}

/// Solves `position` (input line `line`) within `limits`.
pub fn solve(searched: &Searched, line: u64, position: &Position, limits: &Limits, all_moves: bool) -> Solved {
    let Searched { solver, tables, db } = *searched;
    let started = Instant::now();
    let stores = position.store_difference();
    let solution = solve_kept(solver, db, position, limits, tables);
    let moves = all_moves.then(|| {
        let limits = Limits { time: limits.time.map(|t| t.saturating_sub(started.elapsed())), ..limits.clone() };
        analyse_moves_kept(solver, db, position, &limits, tables).iter().map(|m| move_record(position, stores, m)).collect()
    });
    let exact = solution.is_exact();
    Solved {
        line,
        rules: solver.rules().name(),
        position: position.to_string(),
        value: exact.then_some(stores + solution.lower),
        exact,
        lower: stores + solution.lower,
        upper: stores + solution.upper,
        best_move: solution.best_move.map(|mv| position.absolute_hole(position.mover(), mv as usize)),
        best_move_proven: solution.best_move_proven,
        pv: absolute_line(solver.rules(), position, &solution.pv).0,
        moves,
        nodes: solution.nodes,
        seconds: (started.elapsed().as_secs_f64() * 1e4).round() / 1e4,
    }
}

fn move_record(position: &Position, stores: i32, value: &MoveValue) -> Move {
    let exact = value.lower == value.upper;
    Move {
        hole: position.absolute_hole(position.mover(), value.mv as usize),
        value: exact.then_some(stores + value.lower),
        exact,
        lower: stores + value.lower,
        upper: stores + value.upper,
    }
}
