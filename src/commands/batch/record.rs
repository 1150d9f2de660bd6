//! One line of the batch output: the result for one input position, or an error record.

use std::time::Instant;

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::{MoveRecord, RuleSet, SolutionRecord};
use dakon_solver::search::{Limits, Solver};
use serde::Serialize;

use crate::results_db::{analyse_moves_kept, solve_kept, ResultsDb};

/// The result for one position: its input line number, then the solution record (with
/// every move's value under `--all-moves`, and the time of the whole line).
#[derive(Serialize)]
pub struct Solved {
    /// The input line number.
    pub line: u64,
    #[serde(flatten)]
    pub solution: SolutionRecord,
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
    let mut solution = SolutionRecord::new(solver.rules(), position, &solve_kept(solver, db, position, limits, tables));
    solution.moves = all_moves.then(|| {
        let limits = Limits { time: limits.time.map(|t| t.saturating_sub(started.elapsed())), ..limits.clone() };
        analyse_moves_kept(solver, db, position, &limits, tables).iter().map(|m| MoveRecord::new(position, m)).collect()
    });
    solution.seconds = (started.elapsed().as_secs_f64() * 1e4).round() / 1e4;
    Solved { line, solution }
}
