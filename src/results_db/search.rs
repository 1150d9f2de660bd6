//! Searches of the command-line tools that start from the database and write back what they
//! proved: `solve`, `best` and `batch` with `--db`.

use std::time::Instant;

use dakon_solver::dakon::Position;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::{Limits, MoveValue, Solution, SolveOptions, Solver};

use super::entry::{Bounds, Proof};
use super::moves::{entries_of, prior_of, Prior, Proved};
use super::ResultsDb;

impl Prior {
    /// The options of a solve from these bounds and the mover's best turn (`turn`, a proven
    /// lower bound too): the bracket starts at the tighter of the two.
    pub fn solve_options(&self, turn: Option<i32>) -> SolveOptions<'static> {
        let known_lower = self.position.map(|b| b.lower);
        let proven_lower = match (turn, known_lower) {
            (Some(turn), Some(known)) => Some(turn.max(known)),
            (turn, known) => turn.or(known),
        };
        SolveOptions { proven_lower, proven_upper: self.position.map(|b| b.upper), observer: None }
    }

    /// Narrows `solution` (of the same position) to these bounds too; if that alone makes it
    /// exact, its line is the one kept with the bounds, as the solve proved none.
    pub fn narrow(&self, solution: &mut Solution) {
        let Some(known) = self.position else { return };
        let solved = solution.is_exact();
        (solution.lower, solution.upper) = (solution.lower.max(known.lower), solution.upper.min(known.upper));
        if solution.is_exact() && !solved {
            solution.pv = self.pv.clone();
            solution.best_move = self.pv.first().copied();
            solution.best_move_proven = solution.best_move.is_some();
        }
    }
}

/// What `db` knows of `position` (nothing if there is no database, or it cannot be read: then
/// the failure is said on standard error and the search starts from scratch).
pub fn prior_or_nothing(db: Option<&ResultsDb>, rules: &RuleSet, position: &Position) -> Prior {
    let Some(db) = db else { return Prior::default() };
    prior_of(db, rules, position).unwrap_or_else(|e| {
        eprintln!("dakon: {e} (searching from scratch)");
        Prior::default()
    })
}

/// Keeps `proved` in `db`, if any; a failure (a full disk, say) is said on standard error, and
/// the result is still given.
pub fn keep(db: Option<&ResultsDb>, rules: &RuleSet, proved: &Proved) {
    let Some(db) = db else { return };
    match db.record(&entries_of(rules, proved)) {
        Ok(recorded) => {
            for contradiction in recorded.contradictions {
                eprintln!("dakon: warning: a result contradicts the database, which keeps its own: {contradiction}");
            }
        }
        Err(e) => eprintln!("dakon: {e} (the result is not kept)"),
    }
}

/// [`Solver::solve`] of `position` from what `db` holds, keeping what it proves there.
///
/// Returns bounds within the database's, which are the solve's own when it has none.
pub fn solve_kept(solver: &Solver<RuleSet>, db: Option<&ResultsDb>, position: &Position, limits: &Limits, tables: bool) -> Solution {
    solve_kept_by(solver, db, position, tables, |options| solver.solve_with(position, limits, options))
}

/// [`solve_kept`] with the search `solve` makes from the options (the bounds known before
/// it): the way in of a solve shared by the ranks of an MPI job.
pub fn solve_kept_by(
    solver: &Solver<RuleSet>,
    db: Option<&ResultsDb>,
    position: &Position,
    tables: bool,
    solve: impl FnOnce(SolveOptions<'static>) -> Solution,
) -> Solution {
    let rules = solver.rules();
    let prior = prior_or_nothing(db, rules, position);
    let mut solution = solve(prior.solve_options(solver.turn_bound(position)));
    prior.narrow(&mut solution);
    let bounds = Bounds { lower: solution.lower, upper: solution.upper };
    // Only a line to the end of the game is kept: one cut short by the budget may begin with
    // a guessed move (see `Solution::pv`).
    let end = solution.pv.iter().fold(*position, |p, &mv| rules.play(&p, mv).next);
    let complete = rules.legal_moves(&end).is_empty();
    let proved = Proved {
        position,
        bounds,
        pv: if complete { &solution.pv } else { &[] },
        moves: &[],
        proof: Proof::search(tables),
        nodes: solution.nodes,
        seconds: solution.elapsed.as_secs_f64(),
    };
    keep(db, rules, &proved);
    solution
}

/// [`Solver::analyse_moves`] of `position` from what `db` holds (each move starting from its
/// child's row), keeping what it proves there. Without a database it is `analyse_moves`.
///
/// Returns the moves best first, each within the database's bounds.
pub fn analyse_moves_kept(
    solver: &Solver<RuleSet>,
    db: Option<&ResultsDb>,
    position: &Position,
    limits: &Limits,
    tables: bool,
) -> Vec<MoveValue> {
    let Some(db) = db else { return solver.analyse_moves(position, limits) };
    let started = Instant::now();
    let rules = solver.rules();
    let prior = prior_or_nothing(Some(db), rules, position);
    let deadline = limits.time.map(|time| started + time);
    let mut moves: Vec<MoveValue> = rules
        .legal_moves(position)
        .as_slice()
        .iter()
        .map(|&mv| {
            let known = prior.moves.iter().find(|m| m.mv == mv).cloned().unwrap_or(MoveValue { mv, lower: i32::MIN, upper: i32::MAX });
            let left = Limits { time: deadline.map(|d| d.saturating_duration_since(Instant::now())), ..limits.clone() };
            solver.analyse_move_within(position, mv, &known, &left)
        })
        .collect();
    moves.sort_by_key(|m| (std::cmp::Reverse(m.lower), std::cmp::Reverse(m.upper), m.mv));
    // The position is worth its best move: exact when every move is.
    let bounds = match moves.first() {
        Some(best) => Bounds { lower: best.lower, upper: moves.iter().map(|m| m.upper).max().unwrap_or(best.upper) },
        None => {
            let value = rules.terminal_gain(position);
            Bounds { lower: value, upper: value }
        }
    };
    let proved = Proved {
        position,
        bounds,
        pv: &[],
        moves: &moves,
        proof: Proof::search(tables),
        nodes: 0,
        seconds: started.elapsed().as_secs_f64(),
    };
    keep(Some(db), rules, &proved);
    moves
}
