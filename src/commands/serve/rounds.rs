//! Valuing every move of a position when time is short. First the position itself: its value
//! and a best move, which the search usually proves quickly (in sowing games the first test,
//! "does the mover take every seed?", often settles it). Then the other moves in rounds: in
//! each round every move not yet exact gets a node budget, doubled from round to round (the
//! last one open: the time left), until all are exact or the time is up. A hard move thereby cannot take all the time while the
//! others wait (as when moves are valued one after the other), and every move ends with the
//! tightest bounds its share of the time proved; bounds proven in one round stay in the
//! transposition table, and each move's driver keeps its tests and phase
//! ([`dakon_solver::search::MoveAnalysis`]), so the next round goes on from them.
//!
//! Where every move gets exact anyway, the rounds cost no more than valuing the moves one
//! after the other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dakon_solver::search::{Limits, MoveValue, Solution, Solver};
use dakon_solver::solvable::Solvable;

use crate::results_db::Prior;

/// Nodes each open move may search in the first round; doubled every round.
const FIRST_ROUND_NODES: u64 = 1 << 14;

/// What the rounds proved: the position's solution (value, best move, principal variation) and
/// every legal move's bounds, in future gains for the player to move (unsorted).
pub struct Valued {
    pub solution: Solution,
    pub moves: Vec<MoveValue>,
}

/// Solves `pos`, then values every legal move in rounds, within `time` (none: until every
/// move is exact) and until `stop` is raised, starting from the bounds in `prior`.
///
/// Returns bounds within `prior`'s for the position and for every move it names.
pub fn value_every_move<R: Solvable>(
    solver: &Solver<R>,
    pos: &R::Position,
    time: Option<Duration>,
    stop: Option<Arc<AtomicBool>>,
    prior: &Prior,
) -> Valued {
    let deadline = time.map(|time| Instant::now() + time);
    let limits =
        |nodes: Option<u64>| Limits { time: deadline.map(|d| d.saturating_duration_since(Instant::now())), nodes, stop: stop.clone() };
    let mut solution = solver.solve_with(pos, &limits(None), prior.solve_options(solver.turn_bound(pos)));
    prior.narrow(&mut solution);
    // Every move is worth at most the position. (The solution's best move is not taken as
    // exact: when its line ran out of time it may be the move ordering's first guess; the
    // table makes valuing it again cheap.)
    let known: Vec<MoveValue> = solver
        .rules()
        .legal_moves(pos)
        .as_slice()
        .iter()
        .map(|&mv| {
            let mut known = MoveValue { mv, lower: i32::MIN, upper: solution.upper };
            if let Some(earlier) = prior.moves.iter().find(|m| m.mv == mv) {
                (known.lower, known.upper) = (known.lower.max(earlier.lower), known.upper.min(earlier.upper));
            }
            known
        })
        .collect();
    // Each move goes on in every round from where its last round stopped.
    let mut analysis = solver.move_analysis(pos, &known);
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d) || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    let mut nodes = FIRST_ROUND_NODES;
    while !analysis.is_done() && !out_of_time() {
        // The last open move has no other to share with: a node budget would only cut its
        // test, to be asked again in the next round.
        analysis.round(solver, &limits((analysis.open() > 1).then_some(nodes)));
        nodes = nodes.saturating_mul(2);
    }
    // The moves' bounds within what was known (a prior exact value needs no search).
    let moves = analysis
        .values()
        .into_iter()
        .zip(&known)
        .map(|(proven, known)| MoveValue { mv: proven.mv, lower: proven.lower.max(known.lower), upper: proven.upper.min(known.upper) })
        .collect();
    Valued { solution, moves }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use dakon_solver::dakon::{Dakon, Position};
    use dakon_solver::search::{Config, Limits, Solver};

    use super::{value_every_move, Prior};
    use crate::results_db::Bounds;

    fn solver(holes: usize) -> Solver<Dakon> {
        Solver::new(Dakon::new(holes).unwrap(), Config { threads: 1, tt_bytes: 1 << 22 }, None)
    }

    #[test]
    fn without_a_limit_every_move_gets_the_value_analyse_moves_gives_it() {
        for (holes, position) in
            [(5, "0,3,0,2,2/1,0,0,0,2 0/0 0"), (5, "1,2,0,3,1/2,0,1,1,3 2/4 0"), (4, "4,4,4,4/4,4,4,4 0/0 0"), (2, "0,0/0,0 2/2 0")]
        {
            let p: Position = position.parse().unwrap();
            let valued = value_every_move(&solver(holes), &p, None, None, &Prior::default());
            let mut moves = valued.moves;
            moves.sort_by_key(|m| m.mv);
            let mut expected = solver(holes).analyse_moves(&p, &Limits::default());
            expected.sort_by_key(|m| m.mv);
            assert_eq!(moves, expected, "{position}");
            assert!(valued.solution.is_exact());
            assert_eq!(moves.iter().map(|m| m.lower).max().unwrap_or(valued.solution.lower), valued.solution.lower);
        }
    }

    #[test]
    fn with_no_time_the_bounds_still_hold_the_values() {
        let p: Position = "2,1,3,0,2,1/1,2,0,3,1,2 3/4 1".parse().unwrap();
        let exact = solver(6).analyse_moves(&p, &Limits::default());
        let valued = value_every_move(&solver(6), &p, Some(Duration::ZERO), None, &Prior::default());
        for m in &valued.moves {
            let truth = exact.iter().find(|e| e.mv == m.mv).unwrap().lower;
            assert!(m.lower <= truth && truth <= m.upper, "move {}: {truth} in [{}, {}]", m.mv, m.lower, m.upper);
        }
    }

    #[test]
    fn the_rounds_start_from_the_prior_bounds_and_never_answer_wider() {
        let p: Position = "2,1,3,0,2,1/1,2,0,3,1,2 3/4 1".parse().unwrap();
        let exact = value_every_move(&solver(6), &p, None, None, &Prior::default());
        let value = exact.solution.lower;
        // Told the value and every move's, the rounds need no time to answer exactly.
        let prior = Prior { position: Some(Bounds { lower: value, upper: value }), moves: exact.moves.clone(), ..Prior::default() };
        let again = value_every_move(&solver(6), &p, Some(Duration::ZERO), None, &prior);
        assert_eq!((again.solution.lower, again.solution.upper), (value, value));
        let mut moves = again.moves;
        moves.sort_by_key(|m| m.mv);
        let mut expected = exact.moves;
        expected.sort_by_key(|m| m.mv);
        assert_eq!(moves, expected);
    }
}
