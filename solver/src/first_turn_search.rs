//! The exact value of an opening state under `no-first-turn-capture` (see
//! [`OpeningState`]): a null-window search over the states of the opening, with its own memo
//! keyed by board and pending first turns, whose leaves (both first turns over) are ordinary
//! positions tested by the solver of the rules without the option.
//!
//! The option only lives during the opening, so the solver, its transposition table and the
//! endgame tables never see a first-turn flag: a state of the opening is never stored there,
//! and a leaf is a position like any other.
//!
//! ```
//! use dakon_solver::dakon::{Dakon, DakonOptions, OpeningState};
//! use dakon_solver::first_turn_search::solve_opening;
//! use dakon_solver::search::{Config, Limits, Solver};
//!
//! let options: DakonOptions = "no-first-turn-capture".parse().unwrap();
//! let solver = Solver::new(Dakon::with_options(3, options.board_rules()).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
//! let solution = solve_opening(&solver, &OpeningState::start(3, 3).unwrap(), options, &Limits::default());
//! assert!(solution.lower == solution.upper && solution.best_hole.is_some());
//! ```

mod take_all;

pub use take_all::{
    enumerate as enumerate_take_all, enumerate_resumable as enumerate_take_all_resumable, CheckpointError, TakeAll, TakeAllCheckpoint,
    TakeAllCounts, TakeAllReport,
};

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use crate::dakon::{DakonOptions, OpeningState, Position, Side};
use crate::search::{Limits, MixHashing, MoveValue, Solver};
use crate::solvable::Solvable;

/// What [`solve_opening`] proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSolution {
    /// Proven lower bound of the future gain of the state (the mover's future store gain minus
    /// the opponent's); equal to `upper` when exact.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// A move (absolute hole) proven to achieve `lower`, when the value is exact and the game
    /// not over.
    pub best_hole: Option<usize>,
    /// States of the opening searched (leaves excluded).
    pub opening_states: u64,
    /// Null-window tests of leaves handed to the solver, and the positions they visited.
    pub leaf_tests: u64,
    /// Positions the leaf tests visited.
    pub leaf_nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// When a test asked whether a first turn takes every seed and no guided search found
    /// such a turn: what the enumeration of every state of that turn decided (a turn found,
    /// none, or stopped by a limit) and its counts ([`enumerate_take_all`]). An upper bound
    /// proved by its exhaustion rests on billions of states, which no certificate of practical
    /// size records; a turn it found is in the memo, so a certificate holds it.
    pub take_all: Option<TakeAllReport>,
}

impl OpeningSolution {
    /// Whether the upper bound (of the solve of `state`) rests on the take-all enumeration:
    /// it proved that no first turn takes every seed, which no certificate holds.
    pub fn upper_by_take_all(&self, state: &OpeningState) -> bool {
        self.take_all.as_ref().is_some_and(|report| !matches!(report.outcome, TakeAll::Found(_)))
            && self.upper < state.position.seeds_on_board() as i32
    }
}

/// How a solve's take-all enumeration ([`enumerate_take_all`]) reports and keeps its
/// progress: runs of hours want both.
#[derive(Clone, Copy, Default)]
pub struct TakeAllRun<'a> {
    /// Told the enumeration's counts every few seconds.
    pub progress: Option<&'a (dyn Fn(&TakeAllCounts) + Sync)>,
    /// Where the enumeration keeps its progress ([`enumerate_take_all_resumable`]).
    pub checkpoint: Option<&'a TakeAllCheckpoint>,
}

/// A limit stopped the search.
struct Stopped;

/// Most states the memo holds before it is emptied and refilled, which bounds its memory
/// (a few gigabytes) on the large boards: forgetting costs work, never correctness.
const MEMO_STATES: usize = 1 << 25;

/// Most states of the mover's first turn the guided search for a take-all turn
/// ([`OpeningSearch::find_take_all`]) expands over a whole search: past it the ordinary
/// enumeration goes on alone, so a start whose value is below all its seeds loses little.
const TAKE_ALL_STATES: u64 = 1 << 21;

/// The width of the guided take-all search's first round; each further round's is 8 times
/// the last's.
const TAKE_ALL_FIRST_WIDTH: usize = 1 << 10;

/// How a round of the guided take-all search ended.
enum Beam {
    /// A take-all turn was found (and proven in the memo).
    Found,
    /// No level had more states than the width: every state of the turn was searched.
    Exhaustive,
    /// Some level dropped states: a wider round may find what this one missed.
    Truncated,
    /// The take-all budget ran out.
    OutOfBudget,
}

/// Proven bounds of a state's future gain.
type Bounds = (i16, i16);

/// One move of an opening state, seen from the test of a bound.
struct Step {
    /// The state after the move.
    next: OpeningState,
    /// Whether the mover moves again (an extra move).
    same_mover: bool,
    /// The bound `next` is tested against: the mover's when `same_mover`, else the opponent's,
    /// whose test must fail.
    bound: i32,
    /// The answer for the mover, when known without a search.
    settled: Option<bool>,
}

/// The search's state: the solver of the leaves, the memo of proven bounds, and the counts.
struct OpeningSearch<'a, R: Solvable<Position = Position>> {
    solver: &'a Solver<R>,
    options: DakonOptions,
    limits: &'a Limits,
    started: Instant,
    /// Proven bounds of the future gain, by board and pending first turns.
    memo: HashMap<(Position, u8), Bounds, MixHashing>,
    /// Told the bounds of the root after each test.
    progress: Option<&'a dyn Fn(i32, i32)>,
    opening_states: u64,
    leaf_tests: u64,
    leaf_nodes: u64,
    /// States the guided search for a take-all turn may still expand.
    take_all_budget: u64,
    /// What the take-all enumeration decided, once it ran.
    take_all: Option<TakeAllReport>,
    /// How the take-all enumeration reports and keeps its progress.
    take_all_run: TakeAllRun<'a>,
    /// Why the take-all enumeration's checkpoint stopped the search, if it did.
    checkpoint_failure: Option<CheckpointError>,
}

/// Solves `state` under `options` (which must include `no-first-turn-capture`; the leaves are
/// tested by `solver`, whose rules must be `options.board_rules()` on the state's board):
/// the exact future gain unless a limit stops it, then the bounds proven so far.
pub fn solve_opening<R: Solvable<Position = Position>>(
    solver: &Solver<R>,
    state: &OpeningState,
    options: DakonOptions,
    limits: &Limits,
) -> OpeningSolution {
    let (solution, failure) = solve_opening_resumable(solver, state, options, limits, None, TakeAllRun::default());
    debug_assert!(failure.is_none(), "no checkpoint, no checkpoint failure");
    solution
}

/// [`solve_opening`], telling `progress` the proven bounds of the future gain after each
/// null-window test of the root, its take-all enumeration (if it needs one) run as `take_all`
/// says: with a checkpoint, a long solve stopped and run again goes on where it stopped.
///
/// Returns the solution and, when the checkpoint could not be read or written, why: the
/// solution then holds the bounds proven before the failure stopped the search.
pub fn solve_opening_resumable<'a, R: Solvable<Position = Position>>(
    solver: &'a Solver<R>,
    state: &OpeningState,
    options: DakonOptions,
    limits: &'a Limits,
    progress: Option<&'a dyn Fn(i32, i32)>,
    take_all: TakeAllRun<'a>,
) -> (OpeningSolution, Option<CheckpointError>) {
    let mut search = OpeningSearch::new(solver, options, limits, progress);
    search.take_all_run = take_all;
    let k = state.position.seeds_on_board() as i32;
    // The future gain has the parity of the seeds on the board (each ends in one store), so
    // the bisection runs over the values of that parity only.
    let (mut lower, mut upper) = (-k, k);
    while lower < upper {
        let steps = (upper - lower) / 2;
        let mid = lower + 2 * ((steps + 1) / 2);
        match search.at_least(state, mid) {
            Ok(true) => lower = mid,
            Ok(false) => upper = mid - 2,
            Err(Stopped) => break,
        }
        if let Some(progress) = search.progress {
            progress(lower, upper);
        }
    }
    let best_hole = if lower == upper { search.best_hole(state, lower) } else { None };
    let solution = OpeningSolution {
        lower,
        upper,
        best_hole,
        opening_states: search.opening_states,
        leaf_tests: search.leaf_tests,
        leaf_nodes: search.leaf_nodes,
        elapsed: search.started.elapsed(),
        take_all: search.take_all,
    };
    (solution, search.checkpoint_failure)
}

/// Values every legal move of `state` under `options` (as [`solve_opening`] takes them): in
/// rounds, each giving every move not yet exact one null-window test that halves its bracket,
/// all sharing one memo, until every move is exact or a limit (over the whole call) stops them.
/// Rounds keep one hard move from taking the time while the others wait.
///
/// Returns each move (mover-relative, as [`Position::moves`] numbers them) with proven bounds
/// of the mover's future gain when it is played, the move's own gain included: exact unless a
/// limit stopped the tests, then the bounds proven so far, which always hold the value.
pub fn value_opening_moves<R: Solvable<Position = Position>>(
    solver: &Solver<R>,
    state: &OpeningState,
    options: DakonOptions,
    limits: &Limits,
) -> Vec<MoveValue> {
    let mut search = OpeningSearch::new(solver, options, limits, None);
    let k = state.position.seeds_on_board() as i32;
    let mut moves: Vec<MoveValue> = state.position.moves().as_slice().iter().map(|&mv| MoveValue { mv, lower: -k, upper: k }).collect();
    while moves.iter().any(|m| m.lower < m.upper) {
        for m in moves.iter_mut().filter(|m| m.lower < m.upper) {
            // The same bisection over values of the seeds' parity as the root's.
            let steps = (m.upper - m.lower) / 2;
            let mid = m.lower + 2 * ((steps + 1) / 2);
            match search.move_reaches(state, m.mv as usize, mid) {
                Ok(true) => m.lower = mid,
                Ok(false) => m.upper = mid - 2,
                Err(Stopped) => return moves,
            }
        }
    }
    moves
}

/// Proven moves of opening states, for the extraction of a certificate: each answer is
/// proven, and the memo of proven bounds is kept from one test to the next.
pub struct OpeningProver<'a, R: Solvable<Position = Position>> {
    search: OpeningSearch<'a, R>,
}

impl<'a, R: Solvable<Position = Position>> OpeningProver<'a, R> {
    /// A prover under `options` (with `no-first-turn-capture`), its leaves tested by `solver`
    /// (of `options.board_rules()`), within `limits` over all its tests.
    pub fn new(solver: &'a Solver<R>, options: DakonOptions, limits: &'a Limits) -> Self {
        OpeningProver { search: OpeningSearch::new(solver, options, limits, None) }
    }

    /// A move (absolute hole) of `state`, a state of the opening whose game is not over,
    /// proven to give its mover a future gain of at least `bound`: `Some(None)` when no move
    /// does, `None` if a limit stopped the test. The moves are tried in the search's own order,
    /// so a certificate follows the line the solve found instead of refuting the moves before
    /// it.
    pub fn reaching_hole(&mut self, state: &OpeningState, bound: i32) -> Option<Option<usize>> {
        let r = self.search.reaching_move(state, bound).ok()?;
        Some(r.map(|r| state.position.absolute_hole(state.position.mover(), r)))
    }

    /// Positions the leaf tests visited so far.
    pub fn leaf_nodes(&self) -> u64 {
        self.search.leaf_nodes
    }
}

impl<'a, R: Solvable<Position = Position>> OpeningSearch<'a, R> {
    /// A search with an empty memo, its clock started now.
    fn new(solver: &'a Solver<R>, options: DakonOptions, limits: &'a Limits, progress: Option<&'a dyn Fn(i32, i32)>) -> Self {
        OpeningSearch {
            solver,
            options,
            limits,
            started: Instant::now(),
            memo: HashMap::default(),
            progress,
            opening_states: 0,
            leaf_tests: 0,
            leaf_nodes: 0,
            take_all_budget: TAKE_ALL_STATES,
            take_all: None,
            take_all_run: TakeAllRun::default(),
            checkpoint_failure: None,
        }
    }

    /// Whether the future gain of `state` is at least `bound`.
    fn at_least(&mut self, state: &OpeningState, bound: i32) -> Result<bool, Stopped> {
        let k = state.position.seeds_on_board() as i32;
        if let Some(holds) = settled_by_seeds(bound, k) {
            return Ok(holds);
        }
        let key = (state.position, state.pending_bits());
        if let Some(known) = self.known(&key, bound) {
            return Ok(known);
        }
        let holds = if state.is_opening() { self.opening_at_least(state, bound)? } else { self.leaf_at_least(&state.position, bound)? };
        self.record(key, k, bound, holds);
        Ok(holds)
    }

    /// Records in the memo that the future gain of `key` (`k` seeds on its board) is at least
    /// `bound` (`holds`) or below it.
    fn record(&mut self, key: (Position, u8), k: i32, bound: i32, holds: bool) {
        if self.memo.len() >= MEMO_STATES {
            self.memo.clear();
        }
        let entry = self.memo.entry(key).or_insert((-k as i16, k as i16));
        if holds {
            entry.0 = entry.0.max(bound as i16);
        } else {
            entry.1 = entry.1.min(bound as i16 - 1);
        }
    }

    /// What the memo already proves of "the future gain of `key` is at least `bound`".
    fn known(&self, key: &(Position, u8), bound: i32) -> Option<bool> {
        let &(lower, upper) = self.memo.get(key)?;
        if i32::from(lower) >= bound {
            Some(true)
        } else if i32::from(upper) < bound {
            Some(false)
        } else {
            None
        }
    }

    /// [`OpeningSearch::at_least`] of a state of the opening: some move reaches `bound`.
    fn opening_at_least(&mut self, state: &OpeningState, bound: i32) -> Result<bool, Stopped> {
        self.opening_states += 1;
        Ok(self.reaching_move(state, bound)?.is_some())
    }

    /// A move (the mover's `r`) of the state of the opening `state` proven to reach `bound`, or
    /// `None` when none does. A first pass looks only at what the memo proves of each move (an
    /// enhanced transposition cutoff), so that a move proven good elsewhere settles the state
    /// before any search.
    fn reaching_move(&mut self, state: &OpeningState, bound: i32) -> Result<Option<usize>, Stopped> {
        let mover = state.position.mover();
        if bound == state.position.seeds_on_board() as i32
            && state.in_first_turn(mover)
            && self.take_all_budget > 0
            && self.known(&(state.position, state.pending_bits()), bound).is_none()
        {
            // Taking every seed in a first turn is a needle the enumeration below may take
            // billions of states to reach; a guided search finds it first, and its proof in the
            // memo settles this state's moves in the first pass.
            if !self.find_take_all(state)? {
                return Ok(None);
            }
        }
        let moves = state.position.moves();
        let mut open = Vec::with_capacity(moves.len());
        for &r in moves.as_slice() {
            let step = self.step(state, r as usize, bound);
            match step.settled {
                Some(true) => return Ok(Some(r as usize)),
                Some(false) => {}
                None => open.push((r as usize, step)),
            }
        }
        // Moves that keep the turn first: an extra move is where a first turn gains. Then the
        // moves that leave the fewest seeds to the side of the player who moves after the turn:
        // a row short of seeds is one whose laps fall short of its store, which is how a first
        // turn keeps the other player from storing anything.
        open.sort_by_key(|(_, step)| {
            (!step.same_mover, step.next.position.side_seeds(if step.same_mover { Side::Opponent } else { Side::Mover }))
        });
        for (r, step) in open {
            let holds = if step.same_mover { self.at_least(&step.next, step.bound)? } else { !self.at_least(&step.next, step.bound)? };
            if holds {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }

    /// A guided search for a turn of `state`'s mover (in their first turn) after which the
    /// mover takes every seed on the board: a beam search over the states of that turn, level
    /// by level (moves played), keeping at each level the `width` states whose opponent's row
    /// is closest to having no lap reach its store ([`take_all_distance`]); every turn end met
    /// where no move of the opponent stores a seed is tested by [`OpeningSearch::at_least`].
    /// The width starts small and grows while the take-all budget lasts; a round that never
    /// had to drop a state was exhaustive and ends the search. When the budget runs out first,
    /// [`enumerate_take_all`] walks every state of the turn and decides. Runs once a search.
    ///
    /// Returns `Ok(true)` when it found such a turn: then the memo proves, for every state of
    /// that turn from `state` on, that its mover takes every seed, so that
    /// [`OpeningSearch::reaching_move`] (and a certificate's extraction) follows the turn from
    /// its memo pass. `Ok(false)` when no such turn exists (recorded in the memo); `Err` if a
    /// limit stopped it.
    fn find_take_all(&mut self, state: &OpeningState) -> Result<bool, Stopped> {
        let mut width = TAKE_ALL_FIRST_WIDTH;
        let beam = loop {
            match self.take_all_beam(state, width)? {
                Beam::Truncated => width *= 8,
                done => break done,
            }
        };
        self.take_all_budget = 0;
        let k = state.position.seeds_on_board() as i32;
        let key = (state.position, state.pending_bits());
        match beam {
            Beam::Found => return Ok(true),
            Beam::Exhaustive => {
                self.record(key, k, k, false);
                return Ok(false);
            }
            Beam::OutOfBudget | Beam::Truncated => {}
        }
        // The beam found nothing: every state of the turn decides.
        let limits = self.remaining()?;
        let TakeAllRun { progress, checkpoint } = self.take_all_run;
        let report = match checkpoint {
            Some(checkpoint) => match enumerate_take_all_resumable(self.solver, state, self.options, &limits, progress, checkpoint) {
                Ok(report) => report,
                Err(failure) => {
                    self.checkpoint_failure = Some(failure);
                    return Err(Stopped);
                }
            },
            None => enumerate_take_all(self.solver, state, self.options, &limits, progress),
        };
        let decided = match &report.outcome {
            TakeAll::Found(turn) => {
                let mut on_turn = *state;
                for &hole in turn {
                    let k = on_turn.position.seeds_on_board() as i32;
                    self.record((on_turn.position, on_turn.pending_bits()), k, k, true);
                    on_turn = on_turn.play_hole_with(hole, self.options).expect("the enumeration's turn is legal").0;
                }
                Ok(true)
            }
            TakeAll::Impossible => {
                self.record(key, k, k, false);
                Ok(false)
            }
            TakeAll::Stopped => Err(Stopped),
        };
        self.take_all = Some(report);
        decided
    }

    /// One round of [`OpeningSearch::find_take_all`], `width` states a level.
    fn take_all_beam(&mut self, state: &OpeningState, width: usize) -> Result<Beam, Stopped> {
        let mover = state.position.mover();
        // Each state of the turn met, with the index of the state it was first reached from.
        let mut states: Vec<(OpeningState, Option<usize>)> = vec![(*state, None)];
        let mut seen: HashSet<OpeningState, MixHashing> = HashSet::default();
        seen.insert(*state);
        let mut level = vec![0];
        let mut truncated = false;
        while !level.is_empty() {
            // The states of the next level, with their distance.
            let mut next_level = Vec::new();
            for index in level {
                if self.take_all_budget == 0 {
                    return Ok(Beam::OutOfBudget);
                }
                self.take_all_budget -= 1;
                if self.take_all_budget % 4096 == 0 {
                    // The limits hold here too: the leaf tests alone would not see a long round.
                    self.remaining()?;
                }
                let current = states[index].0;
                let k = current.position.seeds_on_board() as i32;
                for &r in current.position.moves().as_slice() {
                    let (next, outcome) = current.play_with(r as usize, self.options);
                    let gain = outcome.gain(mover);
                    let found = if next.position.is_over() {
                        gain == k
                    } else if next.position.mover() == mover {
                        if seen.insert(next) {
                            next_level.push((take_all_distance(&next.position), states.len()));
                            states.push((next, Some(index)));
                        }
                        false
                    } else {
                        // The opponent takes nothing only if none of their moves stores a seed;
                        // the full test (their first turn and the rest of the game) only then.
                        let opponent = next.position.mover();
                        next.position.moves().as_slice().iter().all(|&o| next.play_with(o as usize, self.options).1.gain(opponent) == 0)
                            && !self.at_least(&next, gain - k + 1)?
                    };
                    if found {
                        let mut on_path = Some(index);
                        while let Some(i) = on_path {
                            let s = states[i].0;
                            let k = s.position.seeds_on_board() as i32;
                            self.record((s.position, s.pending_bits()), k, k, true);
                            on_path = states[i].1;
                        }
                        return Ok(Beam::Found);
                    }
                }
            }
            // The closest first; equal distances in the order met.
            next_level.sort_unstable();
            truncated |= next_level.len() > width;
            level = next_level.into_iter().take(width).map(|(_, index)| index).collect();
        }
        Ok(if truncated { Beam::Truncated } else { Beam::Exhaustive })
    }

    /// Whether playing the mover's hole `r` in `state` gives the mover a future gain of at
    /// least `bound`.
    fn move_reaches(&mut self, state: &OpeningState, r: usize, bound: i32) -> Result<bool, Stopped> {
        let step = self.step(state, r, bound);
        match step.settled {
            Some(settled) => Ok(settled),
            None if step.same_mover => self.at_least(&step.next, step.bound),
            None => Ok(!self.at_least(&step.next, step.bound)?),
        }
    }

    /// The mover's hole `r` played in `state`, and what reaching `bound` asks of the state after
    /// it, settled when the game ends, the bound lies outside what the seeds left allow, or the
    /// memo knows.
    fn step(&self, state: &OpeningState, r: usize, bound: i32) -> Step {
        let mover = state.position.mover();
        let (next, outcome) = state.play_with(r, self.options);
        let gain = outcome.gain(mover);
        let same_mover = next.position.mover() == mover;
        // After a turn ends, the opponent's future gain must stay at most `gain - bound`.
        let child_bound = if same_mover { bound - gain } else { gain - bound + 1 };
        let k = next.position.seeds_on_board() as i32;
        let settled = if next.position.is_over() {
            Some(gain >= bound)
        } else if let Some(child_holds) = settled_by_seeds(child_bound, k) {
            // Settled before a search: a leaf would otherwise be handed to the solver for it.
            Some(child_holds == same_mover)
        } else {
            self.known(&(next.position, next.pending_bits()), child_bound).map(|holds| holds == same_mover)
        };
        Step { next, same_mover, bound: child_bound, settled }
    }

    /// [`OpeningSearch::at_least`] of a position after the opening, by the solver.
    fn leaf_at_least(&mut self, position: &Position, bound: i32) -> Result<bool, Stopped> {
        let limits = self.remaining()?;
        let answer = self.solver.prove_at_least(position, bound, &limits);
        self.leaf_tests += 1;
        self.leaf_nodes += answer.nodes;
        answer.holds.ok_or(Stopped)
    }

    /// What is left of the limits, for one leaf test.
    fn remaining(&self) -> Result<Limits, Stopped> {
        let time = match self.limits.time {
            Some(budget) => Some(budget.checked_sub(self.started.elapsed()).filter(|t| !t.is_zero()).ok_or(Stopped)?),
            None => None,
        };
        let nodes = match self.limits.nodes {
            Some(budget) => Some(budget.checked_sub(self.leaf_nodes).filter(|&n| n > 0).ok_or(Stopped)?),
            None => None,
        };
        Ok(Limits { time, nodes, stop: self.limits.stop.clone() })
    }

    /// A move (absolute hole) of `state` proven to reach `value`, its exact future gain.
    fn best_hole(&mut self, state: &OpeningState, value: i32) -> Option<usize> {
        let r = self.reaching_move(state, value).ok()??;
        Some(state.position.absolute_hole(state.position.mover(), r))
    }
}

/// Whether a future gain of at least `bound` holds whatever the play, with `k` seeds left on
/// the board: always at or below `-k`, never above `k`; `None` in between.
fn settled_by_seeds(bound: i32, k: i32) -> Option<bool> {
    if bound <= -k {
        Some(true)
    } else if bound > k {
        Some(false)
    } else {
        None
    }
}

/// How far the opponent's row of `position` (the mover in their first turn) is from one where
/// no lap reaches the opponent's store directly: the seeds to take from its holes so that none
/// holds enough to get there, then the seeds on that row. Smaller is closer: the guided
/// take-all search keeps the closest states of each level.
fn take_all_distance(position: &Position) -> (u32, u32) {
    let n = position.holes();
    // The opponent's hole `r`, counted in their sowing direction, reaches their store with
    // `n - r` seeds.
    let excess = (0..n).map(|r| u32::from(position.seeds(Side::Opponent, r)).saturating_sub((n - 1 - r) as u32)).sum();
    (excess, position.side_seeds(Side::Opponent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dakon::{Dakon, Player};
    use crate::search::Config;

    /// The future gain of `state` by plain minimax over every move, the opening's and the
    /// leaves' alike.
    fn minimax(state: &OpeningState, options: DakonOptions) -> i32 {
        let mover = state.position.mover();
        let holes = state.position.legal_holes();
        if holes.is_empty() {
            return 0;
        }
        holes
            .into_iter()
            .map(|hole| {
                let (next, outcome) = state.play_hole_with(hole, options).unwrap();
                let rest = if next.position.is_over() { 0 } else { minimax(&next, options) };
                outcome.gain(mover) + if next.position.mover() == mover { rest } else { -rest }
            })
            .max()
            .unwrap()
    }

    #[test]
    fn the_search_agrees_with_minimax_on_small_starts() {
        for board in DakonOptions::ALL {
            let options = board.with(DakonOptions::NO_FIRST_TURN_CAPTURE);
            for (n, s) in [(1, 3), (2, 2), (2, 3), (3, 1), (3, 2)] {
                let solver = Solver::new(Dakon::with_options(n, board).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
                let state = OpeningState::start(n, s).unwrap();
                let solution = solve_opening(&solver, &state, options, &Limits::default());
                let exact = minimax(&state, options);
                assert_eq!((solution.lower, solution.upper), (exact, exact), "{options} {n}x{s}");
                let hole = solution.best_hole.unwrap();
                let (next, outcome) = state.play_hole_with(hole, options).unwrap();
                let rest = if next.position.is_over() { 0 } else { minimax(&next, options) };
                let mover = state.position.mover();
                assert_eq!(outcome.gain(mover) + if next.position.mover() == mover { rest } else { -rest }, exact);
                for m in value_opening_moves(&solver, &state, options, &Limits::default()) {
                    let (next, outcome) = state.play_with(m.mv as usize, options);
                    let rest = if next.position.is_over() { 0 } else { minimax(&next, options) };
                    let value = outcome.gain(mover) + if next.position.mover() == mover { rest } else { -rest };
                    assert_eq!((m.lower, m.upper), (value, value), "{options} {n}x{s} move {}", m.mv);
                }
            }
        }
    }

    /// A solver of the leaves under `options` on boards of `holes` holes.
    fn leaf_solver(holes: usize, options: DakonOptions) -> Solver<Dakon> {
        Solver::new(Dakon::with_options(holes, options.board_rules()).unwrap(), Config { threads: 1, tt_bytes: 1 << 24 }, None)
    }

    #[test]
    fn the_guided_search_finds_the_turns_that_take_every_seed() {
        let options: DakonOptions = "no-first-turn-capture".parse().unwrap();
        // Player 0 takes all the seeds of these starts; the enumeration alone needed millions
        // of opening states to find how (docs/benchmarks/first-turn-capture.md).
        for (n, s) in [(6, 7), (6, 8)] {
            let solver = leaf_solver(n, options);
            let state = OpeningState::start(n, s).unwrap();
            let all = state.position.seeds_on_board() as i32;
            let limits = Limits::default();
            let mut search = OpeningSearch::new(&solver, options, &limits, None);
            assert!(matches!(search.find_take_all(&state), Ok(true)), "{n}x{s}");
            assert_eq!(search.known(&(state.position, state.pending_bits()), all), Some(true), "{n}x{s}");
            let solution = solve_opening(&solver, &state, options, &limits);
            assert_eq!((solution.lower, solution.upper), (all, all), "{n}x{s}");
            assert!(solution.opening_states < 100_000, "{n}x{s}: {} opening states", solution.opening_states);
        }
    }

    #[test]
    fn the_guided_search_finds_no_turn_where_the_value_is_below_all_seeds() {
        let options: DakonOptions = "no-first-turn-capture".parse().unwrap();
        for (n, s, value) in [(4, 4, 28), (5, 5, 46)] {
            let solver = leaf_solver(n, options);
            let state = OpeningState::start(n, s).unwrap();
            let limits = Limits::default();
            let mut search = OpeningSearch::new(&solver, options, &limits, None);
            assert!(matches!(search.find_take_all(&state), Ok(false)), "{n}x{s}");
            let solution = solve_opening(&solver, &state, options, &limits);
            assert_eq!((solution.lower, solution.upper), (value, value), "{n}x{s}");
        }
    }

    /// Whether player 0 takes every seed of `state` (a start) by minimax, and if `turn` is
    /// given, whether that turn is one that does.
    fn takes_all_by_minimax(state: &OpeningState, options: DakonOptions, turn: Option<&[usize]>) -> bool {
        let all = state.position.seeds_on_board() as i32;
        let Some(turn) = turn else { return minimax(state, options) == all };
        let mover = state.position.mover();
        let mut on_turn = *state;
        let mut gain = 0;
        for (i, &hole) in turn.iter().enumerate() {
            let (next, outcome) = on_turn.play_hole_with(hole, options).unwrap();
            gain += outcome.gain(mover);
            let turn_goes_on = !next.position.is_over() && next.position.mover() == mover;
            assert_eq!(turn_goes_on, i + 1 < turn.len(), "the turn {turn:?} ends at its last hole");
            on_turn = next;
        }
        let rest = if on_turn.position.is_over() { 0 } else { minimax(&on_turn, options) };
        gain - rest == all
    }

    #[test]
    fn the_take_all_enumeration_agrees_with_minimax_on_small_starts() {
        let mut decided = [0; 2];
        for board in DakonOptions::ALL {
            let options = board.with(DakonOptions::NO_FIRST_TURN_CAPTURE);
            for (n, s) in [(1, 1), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)] {
                let solver = Solver::new(Dakon::with_options(n, board).unwrap(), Config { threads: 2, tt_bytes: 1 << 20 }, None);
                let state = OpeningState::start(n, s).unwrap();
                let expected = takes_all_by_minimax(&state, options, None);
                // A frontier of one state: the depth-first walks do all the work; the default:
                // the breadth-first start does (these turns are short).
                for frontier in [1, take_all::FRONTIER_STATES] {
                    let report = take_all::enumerate_from(&solver, &state, options, &Limits::default(), None, frontier);
                    match &report.outcome {
                        TakeAll::Found(turn) => {
                            assert!(expected, "{options} {n}x{s}: found {turn:?}");
                            assert!(takes_all_by_minimax(&state, options, Some(turn)), "{options} {n}x{s}: {turn:?}");
                            decided[0] += 1;
                        }
                        TakeAll::Impossible => {
                            assert!(!expected, "{options} {n}x{s}");
                            decided[1] += 1;
                        }
                        TakeAll::Stopped => panic!("{options} {n}x{s}: stopped without a limit"),
                    }
                    assert!(report.counts.turn_states > 0);
                }
            }
        }
        // No start this small has a take-all turn: those are tested below.
        assert_eq!(decided, [0, 112]);
    }

    #[test]
    fn the_take_all_enumeration_finds_turns_the_search_confirms() {
        // The smallest starts with a take-all turn, found by scanning 1 to 4 holes and 1 to 8
        // seeds under every variant.
        for (rules, n, s) in [("nembak-lander,no-first-turn-capture,skip-origin", 4, 6), ("no-first-turn-capture,skip-origin", 4, 8)] {
            let options: DakonOptions = rules.parse().unwrap();
            let solver = leaf_solver(n, options);
            let state = OpeningState::start(n, s).unwrap();
            let all = state.position.seeds_on_board() as i32;
            let limits = Limits::default();
            let solution = solve_opening(&solver, &state, options, &limits);
            assert_eq!((solution.lower, solution.upper), (all, all), "{rules} {n}x{s}");
            for frontier in [1, take_all::FRONTIER_STATES] {
                let report = take_all::enumerate_from(&solver, &state, options, &limits, None, frontier);
                let TakeAll::Found(turn) = report.outcome else { panic!("{rules} {n}x{s}: {:?}", report.outcome) };
                // The turn keeps the move to its last hole, and the opponent gets nothing after it.
                let mut on_turn = state;
                for (i, &hole) in turn.iter().enumerate() {
                    assert!(on_turn.position.mover() == Player::Zero && !on_turn.position.is_over(), "{rules} {n}x{s}: {turn:?} at {i}");
                    on_turn = on_turn.play_hole_with(hole, options).unwrap().0;
                }
                assert_eq!(on_turn.position.store(Player::One), 0, "{rules} {n}x{s}");
                if !on_turn.position.is_over() {
                    assert_eq!(on_turn.position.mover(), Player::One);
                    let rest = solve_opening(&solver, &on_turn, options, &limits);
                    let left = on_turn.position.seeds_on_board() as i32;
                    assert_eq!((rest.lower, rest.upper), (-left, -left), "{rules} {n}x{s}: {turn:?}");
                }
            }
        }
    }

    #[test]
    fn the_take_all_enumeration_decides_six_by_six_and_the_solve_uses_it() {
        // 6 x 6 under no-first-turn-capture is +70 of 72 seeds: the guided search's budget runs
        // out in its 2.5 million states of player 0's first turn, and the enumeration decides.
        let options: DakonOptions = "no-first-turn-capture".parse().unwrap();
        let solver = Solver::new(Dakon::with_options(6, options.board_rules()).unwrap(), Config { threads: 2, tt_bytes: 1 << 24 }, None);
        let state = OpeningState::start(6, 6).unwrap();
        let limits = Limits::default();
        let report = enumerate_take_all(&solver, &state, options, &limits, None);
        assert_eq!(report.outcome, TakeAll::Impossible);
        assert!(report.counts.turn_states > 1_000_000 && report.counts.searched > 0, "{:?}", report.counts);
        let solution = solve_opening(&solver, &state, options, &limits);
        assert_eq!((solution.lower, solution.upper), (70, 70));
        assert_eq!(solution.take_all.map(|report| report.outcome), Some(TakeAll::Impossible));
        // A limit stops it and says so.
        let short = Limits { nodes: None, time: Some(Duration::from_millis(1)), stop: None };
        assert_eq!(enumerate_take_all(&solver, &state, options, &short, None).outcome, TakeAll::Stopped);
    }
}
