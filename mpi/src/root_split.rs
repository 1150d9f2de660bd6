//! Which test of which root move to run next in a distributed solve: the policy, without MPI.
//!
//! The root's value is the best of its moves' values (a move's value: its gain plus, or minus
//! when the turn passes, its child's future gain). The root is solved when one move is proven
//! to reach a value `L` and every other move is proven to stay at or below `L`. Young
//! Brothers Wait, at the root: the eldest move (first in [`RootSplit::new`]'s order) is solved
//! exactly first, alone; then every other move is only *tested*, "does it reach `L + 2`?"
//! (values have the parity of the seeds on the board, so `L + 2` is the next one), all at
//! once on whichever ranks are free. A move that fails its test is done; one that passes is
//! solved exactly from the bound it proved, and its value becomes the new `L`. A test asked
//! against an older, lower `L` that passes is asked again at the new one.
//!
//! This is the one-process driver's work split by root move: its failing root test at
//! `value + 2` refutes every move at `value + 2`, which is what the tests here do, and its
//! successful test and the eldest's solve both prove one move reaches the value. What the
//! split loses is the transpositions shared between moves' subtrees, since each rank has its
//! own table (`scripts/bench-mpi` measures the total).

use dakon_solver::rules::parity_ceil;
use serde::{Deserialize, Serialize};

/// One root move as the root sees it.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// The move (mover-relative, as the rules number it).
    pub mv: u8,
    /// Seeds it stores for the mover.
    pub gain: i32,
    /// Whether the mover moves again (an extra move): the child's value is then not negated.
    pub same_mover: bool,
    /// Seeds on the board after it.
    pub child_seeds: u32,
}

impl Edge {
    /// The move's value when its child's future gain is `child`.
    pub fn value(&self, child: i32) -> i32 {
        if self.same_mover {
            self.gain + child
        } else {
            self.gain - child
        }
    }

    /// Bounds of the child's future gain that bounds `[lower, upper]` of the move's value
    /// imply, clamped to what its seeds allow.
    pub fn child_bounds(&self, lower: i32, upper: i32) -> (i32, i32) {
        let k = self.child_seeds as i32;
        let (a, b) = if self.same_mover { (lower - self.gain, upper - self.gain) } else { (self.gain - upper, self.gain - lower) };
        (a.clamp(-k, k), b.clamp(-k, k))
    }

    /// Bounds of the move's value from bounds `[lower, upper]` of its child's future gain.
    pub fn move_bounds(&self, lower: i32, upper: i32) -> (i32, i32) {
        let (a, b) = (self.value(lower), self.value(upper));
        (a.min(b), a.max(b))
    }
}

/// A unit of work for a rank, about root move `edge` (an index into the edges).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Job {
    /// Does the move's value reach `target`?
    Test { edge: usize, target: i32 },
    /// The move's exact value, starting from its proven bounds `[lower, upper]`.
    Solve { edge: usize, lower: i32, upper: i32 },
}

impl Job {
    /// The root move it is about.
    pub fn edge(&self) -> usize {
        match *self {
            Job::Test { edge, .. } | Job::Solve { edge, .. } => edge,
        }
    }
}

/// What a rank found, in the move's values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// A test's answer: `None` if a limit stopped it.
    Test(Option<bool>),
    /// Proven bounds of the move's value (equal when exact) and its line: the move, then its
    /// child's principal variation.
    Solve { lower: i32, upper: i32, line: Vec<u8> },
}

/// What is known of one root move.
#[derive(Clone, Debug)]
struct MoveState {
    edge: Edge,
    /// Proven bounds of the move's value.
    lower: i32,
    upper: i32,
    /// A job about it is running (one at a time, so no two ranks search the same subtree).
    busy: bool,
    /// Its line, once solved exactly (never empty then: it starts with the move).
    line: Vec<u8>,
}

impl MoveState {
    fn is_solved(&self) -> bool {
        !self.line.is_empty()
    }
}

/// The distributed solve's state: every root move's proven bounds and the jobs in flight.
pub struct RootSplit {
    moves: Vec<MoveState>,
    /// The root's parity (seeds on its board).
    seeds: u32,
    /// Bounds of the root's value proven elsewhere (the best turn, a results database).
    proven_lower: i32,
    proven_upper: i32,
    /// A job came back cut short by a limit: no more are handed out.
    stopped: bool,
}

impl RootSplit {
    /// The state of a root with `seeds` on the board and moves `edges`, eldest first, whose
    /// value is proven to lie in `[proven_lower, proven_upper]`.
    pub fn new(edges: Vec<Edge>, seeds: u32, proven_lower: i32, proven_upper: i32) -> Self {
        let k = seeds as i32;
        let proven_lower = parity_ceil(proven_lower.clamp(-k, k), seeds);
        let proven_upper = proven_upper.clamp(proven_lower, k);
        let moves = edges
            .into_iter()
            .map(|edge| {
                let c = edge.child_seeds as i32;
                let (lower, upper) = edge.move_bounds(-c, c);
                // No move is worth more than the root.
                MoveState { edge, lower, upper: upper.min(proven_upper), busy: false, line: Vec::new() }
            })
            .collect();
        RootSplit { moves, seeds, proven_lower, proven_upper, stopped: false }
    }

    /// Proven bounds of the root's value: at least the bound proven elsewhere and every
    /// move's lower bound, at most the largest of the moves' upper bounds.
    pub fn bounds(&self) -> (i32, i32) {
        let lower = self.moves.iter().map(|m| m.lower).fold(self.proven_lower, i32::max);
        let upper = self.moves.iter().map(|m| m.upper).max().map_or(self.proven_upper, |u| u.min(self.proven_upper));
        (lower, upper.max(lower))
    }

    /// Once the root is solved, the move proven optimal and its line (the move, then its
    /// child's principal variation): a move solved exactly at the root's value.
    pub fn best(&self) -> Option<(u8, &[u8])> {
        let (lower, upper) = self.bounds();
        (lower == upper).then(|| self.moves.iter().find(|m| m.is_solved() && m.lower == lower)).flatten().map(|m| (m.edge.mv, &m.line[..]))
    }

    /// The move with the best proven lower bound (the eldest first among equals), with that
    /// bound: the best move so far, not proven optimal unless [`RootSplit::best`] names it.
    pub fn leader(&self) -> Option<(u8, i32)> {
        let best = self.moves.iter().map(|m| m.lower).max()?;
        self.moves.iter().find(|m| m.lower == best).map(|m| (m.edge.mv, m.lower))
    }

    /// Whether no job is left to hand out or wait for: the root solved with a best move, a
    /// limit stopped a job, or the root has no moves.
    pub fn is_done(&self) -> bool {
        self.stopped || self.moves.is_empty() || self.best().is_some()
    }

    /// Whether a job was cut short by a limit (the bounds are then all there is).
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Whether any job is in flight.
    pub fn is_busy(&self) -> bool {
        self.moves.iter().any(|m| m.busy)
    }

    /// The next job for a free rank, preferring moves `prefer` says that rank searched before
    /// (its table holds their subtrees); `None` when none can start now.
    ///
    /// Return contract, with `L` the root's proven lower bound: until a move is solved, only
    /// the eldest is given out (a `Solve`). Then a move that may still beat `L` gets a `Solve`
    /// if it is proven to reach `L` and beyond every solved move, else a `Test` at `L + 2`; a
    /// move that cannot beat `L` gets a `Solve` only while no solved move reaches `L` (`L`
    /// was proven elsewhere) and its bounds allow `L`. No move gets two jobs at once, and
    /// none after a job was stopped by a limit.
    pub fn next_job(&mut self, prefer: impl Fn(usize) -> bool) -> Option<Job> {
        if self.stopped || self.is_done() {
            return None;
        }
        let (lower, _) = self.bounds();
        let best_solved = self.moves.iter().filter(|m| m.is_solved()).map(|m| m.lower).max();
        let Some(best_solved) = best_solved else {
            let eldest = self.moves.first_mut()?;
            if eldest.busy {
                return None;
            }
            eldest.busy = true;
            return Some(Job::Solve { edge: 0, lower: eldest.lower, upper: eldest.upper });
        };
        let job = |i: usize, m: &MoveState| -> Option<Job> {
            if m.busy || m.is_solved() {
                return None;
            }
            if m.upper > lower {
                if m.lower >= lower && m.lower > best_solved {
                    return Some(Job::Solve { edge: i, lower: m.lower, upper: m.upper });
                }
                return Some(Job::Test { edge: i, target: parity_ceil(lower + 1, self.seeds) });
            }
            (best_solved < lower && m.upper == lower).then_some(Job::Solve { edge: i, lower: m.lower, upper: m.upper })
        };
        let mut candidates: Vec<(usize, Job)> = self.moves.iter().enumerate().filter_map(|(i, m)| Some((i, job(i, m)?))).collect();
        candidates.sort_by_key(|&(i, _)| (!prefer(i), i));
        let (pick, job) = *candidates.first()?;
        self.moves[pick].busy = true;
        Some(job)
    }

    /// Records what a rank found doing `job`. A result cut short by a limit keeps what it
    /// proved and stops the handing out of jobs.
    pub fn record(&mut self, job: Job, outcome: Outcome) {
        let m = &mut self.moves[job.edge()];
        m.busy = false;
        match (job, outcome) {
            (Job::Test { target, .. }, Outcome::Test(Some(true))) => m.lower = m.lower.max(target),
            (Job::Test { target, .. }, Outcome::Test(Some(false))) => m.upper = m.upper.min(target - 2),
            (Job::Solve { .. }, Outcome::Solve { lower, upper, line }) => {
                m.lower = m.lower.max(lower);
                m.upper = m.upper.min(upper).max(m.lower);
                if lower == upper {
                    m.line = line;
                } else {
                    self.stopped = true;
                }
            }
            _ => self.stopped = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Root moves of the given values (extra moves, gain 0, on a board of `seeds`).
    fn edges(values: &[i32], seeds: u32) -> Vec<Edge> {
        (0..values.len()).map(|i| Edge { mv: i as u8, gain: 0, same_mover: i % 2 == 0, child_seeds: seeds }).collect()
    }

    /// Drives `split` with `ranks` free ranks at a time, answering every job from the moves'
    /// true `values`; returns the jobs run.
    fn drive(split: &mut RootSplit, values: &[i32], ranks: usize) -> Vec<Job> {
        let mut done = Vec::new();
        while !split.is_done() {
            let mut running = Vec::new();
            while running.len() < ranks {
                let Some(job) = split.next_job(|_| false) else { break };
                assert!(!running.iter().any(|j: &Job| j.edge() == job.edge()), "two jobs on one move at once");
                running.push(job);
            }
            assert!(!running.is_empty(), "no job to run, yet not done");
            for job in running {
                let value = values[job.edge()];
                let outcome = match job {
                    Job::Test { target, .. } => Outcome::Test(Some(value >= target)),
                    Job::Solve { lower, upper, edge } => {
                        assert!(lower <= value && value <= upper, "a solve from bounds that are not proven");
                        Outcome::Solve { lower: value, upper: value, line: vec![edge as u8] }
                    }
                };
                split.record(job, outcome);
                done.push(job);
            }
        }
        done
    }

    #[test]
    fn the_root_gets_the_best_moves_value_whichever_move_is_eldest() {
        let cases: [&[i32]; 5] = [&[4, 2, -6, 0], &[-2, 8, 8, 6], &[0], &[-4, -4, -4], &[2, 4, 6, 8, 10, -10]];
        for values in cases {
            for ranks in 1..=4 {
                let mut split = RootSplit::new(edges(values, 20), 20, -20, 20);
                let jobs = drive(&mut split, values, ranks);
                let best = *values.iter().max().unwrap();
                assert_eq!(split.bounds(), (best, best), "{values:?}, {ranks} ranks");
                let (mv, line) = split.best().unwrap();
                assert_eq!(values[mv as usize], best);
                assert_eq!(line, &[mv]);
                assert_eq!(jobs[0], Job::Solve { edge: 0, lower: -20, upper: 20 }, "the eldest first");
                // Every other move is tested at most twice before it is settled (once at a
                // stale bound), and solved only when it beats the best so far.
                let solves = jobs.iter().filter(|j| matches!(j, Job::Solve { .. })).count();
                assert!(solves <= values.len(), "{values:?}: {jobs:?}");
            }
        }
    }

    #[test]
    fn a_bound_proven_elsewhere_still_needs_a_best_move() {
        // The root's value (6) is proven from outside; the moves must still show which reaches it.
        let values = [2, 6, 4];
        let mut split = RootSplit::new(edges(&values, 20), 20, 6, 20);
        drive(&mut split, &values, 2);
        assert_eq!(split.bounds(), (6, 6));
        assert_eq!(split.best().map(|(mv, _)| mv), Some(1));
    }

    #[test]
    fn a_job_stopped_by_a_limit_keeps_the_bounds_and_ends_the_handing_out() {
        let mut split = RootSplit::new(edges(&[4, 2], 20), 20, -20, 20);
        let job = split.next_job(|_| false).unwrap();
        split.record(job, Outcome::Solve { lower: 0, upper: 10, line: vec![] });
        assert!(split.is_stopped() && split.is_done());
        assert_eq!(split.next_job(|_| false), None);
        assert_eq!(split.bounds(), (0, 20));
    }

    #[test]
    fn a_move_turns_the_childs_value_round_when_the_turn_passes() {
        let edge = Edge { mv: 0, gain: 3, same_mover: false, child_seeds: 9 };
        assert_eq!(edge.value(5), -2);
        assert_eq!(edge.move_bounds(-1, 5), (-2, 4));
        assert_eq!(edge.child_bounds(-2, 4), (-1, 5));
        let extra = Edge { same_mover: true, ..edge };
        assert_eq!(extra.move_bounds(-1, 5), (2, 8));
        assert_eq!(extra.child_bounds(2, 8), (-1, 5));
    }
}
