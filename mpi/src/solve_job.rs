//! One job of a distributed solve on the rank that runs it, and its messages (bincode): a
//! root move's test or exact solve, run with the solver's public API on the move's child.

use std::time::Duration;

use bincode::Options;
use serde::{Deserialize, Serialize};

use dakon_solver::rules::Rules;
use dakon_solver::search::{Limits, SolveOptions, Solver};
use dakon_solver::solvable::Solvable;

use crate::root_split::{Edge, Job, Outcome};

/// The root moves of `root`, eldest first, as every rank orders them: extra moves first, then
/// the larger gain, then the rules' order. A heuristic that only decides which move is solved
/// first (the one-process search orders moves the same way before its table knows better);
/// every rank computes the same list, so a job names its move by its place in it.
pub fn edges<R: Rules>(rules: &R, root: &R::Position) -> Vec<Edge> {
    let mut edges: Vec<Edge> = rules
        .legal_moves(root)
        .as_slice()
        .iter()
        .map(|&mv| {
            let step = rules.play(root, mv);
            Edge { mv, gain: step.gain, same_mover: step.same_mover, child_seeds: rules.seeds_on_board(&step.next) }
        })
        .collect();
    edges.sort_by_key(|e| (!e.same_mover, -e.gain));
    edges
}

/// Runs `job` on the child of `edge` of `root` with `solver` within `limits`: the outcome in
/// the move's values, and the nodes it visited.
///
/// Return contract: a `Test` answers whether the move's value reaches the target (`None`
/// when a limit stopped it); a `Solve` returns proven bounds of the move's value within the
/// job's (exact unless a limit stopped it), with the move and its child's principal
/// variation as the line when exact.
pub fn run<R: Solvable>(solver: &Solver<R>, root: &R::Position, edge: &Edge, job: &Job, limits: &Limits) -> (Outcome, u64) {
    let child = solver.rules().play(root, edge.mv).next;
    match *job {
        Job::Test { target, .. } => {
            // The move reaches `target` iff its child's mover reaches `target - gain` (the same
            // mover), or the opponent, moving there, stays below `gain - target + 1`.
            let (bound, negate) = if edge.same_mover { (target - edge.gain, false) } else { (edge.gain - target + 1, true) };
            let answer = solver.prove_at_least(&child, bound, limits);
            (Outcome::Test(answer.holds.map(|h| h != negate)), answer.nodes)
        }
        Job::Solve { lower, upper, .. } => {
            let (child_lower, child_upper) = edge.child_bounds(lower, upper);
            // As `Solver::solve` does: from the bound of the child's mover's best turn.
            let turn = solver.turn_bound(&child).map_or(child_lower, |t| t.max(child_lower));
            let options = SolveOptions { proven_lower: Some(turn.min(child_upper)), proven_upper: Some(child_upper), observer: None };
            let solution = solver.solve_with(&child, limits, options);
            let (lower, upper) = edge.move_bounds(solution.lower, solution.upper);
            let line = if solution.is_exact() { std::iter::once(edge.mv).chain(solution.pv).collect() } else { Vec::new() };
            (Outcome::Solve { lower, upper, line }, solution.nodes)
        }
    }
}

/// A job and the limits it runs within, as rank 0 sends it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobMessage {
    pub job: Job,
    /// Time left for the job, if limited.
    pub time: Option<Duration>,
    /// Nodes it may visit, if limited.
    pub nodes: Option<u64>,
}

/// How every message of a distributed solve is written: bincode, fixed-width little-endian
/// integers, one value a message (trailing bytes are refused).
fn codec() -> impl Options {
    bincode::DefaultOptions::new().with_fixint_encoding().with_little_endian().reject_trailing_bytes()
}

impl JobMessage {
    pub fn encode(&self) -> Vec<u8> {
        codec().serialize(self).expect("a job message is plain data")
    }

    /// # Errors
    /// What is wrong with `bytes` if [`JobMessage::encode`] did not write them.
    pub fn decode(bytes: &[u8]) -> Result<JobMessage, String> {
        codec().deserialize(bytes).map_err(|e| format!("a job message that does not decode: {e}"))
    }
}

/// A job's outcome and the nodes it visited, as a rank sends it back.
pub fn encode_answer(outcome: &Outcome, nodes: u64) -> Vec<u8> {
    codec().serialize(&(nodes, outcome)).expect("an answer is plain data")
}

/// # Errors
/// What is wrong with `bytes` if [`encode_answer`] did not write them.
pub fn decode_answer(bytes: &[u8]) -> Result<(Outcome, u64), String> {
    let (nodes, outcome) = codec().deserialize(bytes).map_err(|e| format!("an answer that does not decode: {e}"))?;
    Ok((outcome, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_decode_to_what_was_encoded() {
        for job in [Job::Test { edge: 3, target: -8 }, Job::Solve { edge: 0, lower: -48, upper: 12 }] {
            for (time, nodes) in [(None, None), (Some(Duration::from_millis(1500)), Some(77))] {
                let message = JobMessage { job, time, nodes };
                assert_eq!(JobMessage::decode(&message.encode()), Ok(message.clone()));
                assert!(JobMessage::decode(&message.encode()[1..]).is_err());
            }
        }
        for outcome in [
            Outcome::Test(None),
            Outcome::Test(Some(true)),
            Outcome::Solve { lower: -2, upper: 4, line: vec![] },
            Outcome::Solve { lower: 6, upper: 6, line: vec![3, 1, 0] },
        ] {
            assert_eq!(decode_answer(&encode_answer(&outcome, 123)), Ok((outcome, 123)));
        }
        assert!(decode_answer(&[1, 2]).is_err());
    }
}
