//! Whether the mover of a first turn can take every seed on the board, decided by enumerating
//! every state of that turn: the proof the guided search ([`OpeningSearch::find_take_all`])
//! cannot give when no such turn exists.
//!
//! Under `no-first-turn-capture` the mover's first turn captures nothing, so taking every seed
//! means that the opponent never stores one: every turn end of the mover must leave the
//! opponent without a way to their store for the rest of the game. Refuting that asks for
//! each turn end one line of the opponent that stores a seed, so the proof is the whole tree
//! of the mover's turn (billions of states on 7 × 7), each turn end refuted by
//!
//! 1. a move of the opponent that stores a seed (almost every turn end; most by a hole whose
//!    first lap reaches the store, seen without playing it);
//! 2. else a move of the opponent after which every reply of the mover leaves the opponent a
//!    move that stores one (a three-ply screen, no search);
//! 3. else the opening search's own test of the turn end ([`OpeningSearch::at_least`]).
//!
//! The turn's states nearly never repeat (under 1 % a level on 7 × 7), so the tree is walked
//! depth first with a small cache of recent states instead of a memo of all of them: memory
//! stays a few megabytes a thread whatever the board, and a state met twice costs only time.
//! The walk is shared over threads by the states of the first level with enough of them.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{OpeningSearch, Stopped};
use crate::dakon::{DakonOptions, OpeningState, Player, Position, Side};
use crate::search::{Limits, MixHashing, Solver};
use crate::solvable::Solvable;

/// States of the turn a breadth-first start collects before the depth-first walks share them.
pub(super) const FRONTIER_STATES: usize = 1 << 12;

/// States a walk counts between looks at the limits and at the other walks' news.
const CHECK_EVERY: u64 = 1 << 14;

/// Extra moves of the mover the three-ply screen follows before it gives up.
const SCREEN_EXTRA_MOVES: u32 = 2;

/// Slots of each walk's cache of recent states (a power of two).
const CACHE_SLOTS: usize = 1 << 12;

/// What [`enumerate`] decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TakeAll {
    /// A turn (the mover's holes, absolute, in order) after which the mover takes every seed
    /// whatever the opponent plays.
    Found(Vec<usize>),
    /// No turn of the mover takes every seed: every turn end was refuted.
    Impossible,
    /// A limit stopped the enumeration before it decided.
    Stopped,
}

/// The enumeration's counts, for progress and for the record of a proof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TakeAllCounts {
    /// States of the mover's turn expanded (each of its moves played).
    pub turn_states: u64,
    /// Moves that ended the mover's turn.
    pub turn_ends: u64,
    /// Turn ends refuted by the three-ply screen (rule 2 above).
    pub screened: u64,
    /// Turn ends handed to the opening search (rule 3).
    pub searched: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// What [`enumerate`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeAllReport {
    /// The decision.
    pub outcome: TakeAll,
    /// The work it took.
    pub counts: TakeAllCounts,
}

/// Counters the walks share.
#[derive(Default)]
struct Shared {
    turn_states: AtomicU64,
    turn_ends: AtomicU64,
    screened: AtomicU64,
    searched: AtomicU64,
    /// Set when a walk found a take-all turn or a limit stopped one: the others stop.
    done: AtomicBool,
    found: Mutex<Option<Vec<usize>>>,
}

/// Decides whether the mover of `state` (in their first turn under `options`, which include
/// `no-first-turn-capture`) has a turn after which they take every seed on the board, by
/// walking every state of that turn on `solver.threads()` threads (each walk with its own opening search
/// for the turn ends that need one, their leaves tested by `solver`). `progress` is told the
/// counts every few seconds.
///
/// Returns [`TakeAll::Found`] with the turn, [`TakeAll::Impossible`] when every turn end is
/// refuted (a proof by exhaustion: every state of the turn was expanded), or
/// [`TakeAll::Stopped`] if `limits` (time, the stop flag; the node limit counts the leaf
/// tests' positions of each walk) stopped it first.
///
/// # Panics
/// If the mover of `state` is not in their first turn or its game is over.
pub fn enumerate<R: Solvable<Position = Position>>(
    solver: &Solver<R>,
    state: &OpeningState,
    options: DakonOptions,
    limits: &Limits,
    progress: Option<&(dyn Fn(&TakeAllCounts) + Sync)>,
) -> TakeAllReport {
    enumerate_from(solver, state, options, limits, progress, FRONTIER_STATES)
}

/// [`enumerate`], the walks starting from the first level of at least `frontier_states`
/// states.
pub(super) fn enumerate_from<R: Solvable<Position = Position>>(
    solver: &Solver<R>,
    state: &OpeningState,
    options: DakonOptions,
    limits: &Limits,
    progress: Option<&(dyn Fn(&TakeAllCounts) + Sync)>,
    frontier_states: usize,
) -> TakeAllReport {
    let mover = state.position.mover();
    assert!(state.in_first_turn(mover) && !state.position.is_over(), "{state}: not in the mover's first turn");
    let started = Instant::now();
    let shared = Shared::default();
    let walk = Walk { solver, options, limits, mover, opponent_store: state.position.store(mover.other()), shared: &shared };
    let counts = |shared: &Shared| TakeAllCounts {
        turn_states: shared.turn_states.load(Ordering::Relaxed),
        turn_ends: shared.turn_ends.load(Ordering::Relaxed),
        screened: shared.screened.load(Ordering::Relaxed),
        searched: shared.searched.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
    };
    // The walks run on as many threads as the solver has; a pool that cannot be made leaves
    // them on the caller's.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(solver.threads()).build().ok();
    let walk_all = || {
        let frontier = walk.frontier(state, frontier_states)?;
        let last_report = Mutex::new(Instant::now());
        frontier.par_iter().try_for_each_init(
            || (walk.search(started), Cache::new()),
            |(search, cache), (start, path)| {
                let mut path = path.clone();
                let mut since = 0;
                let result = walk.depth_first(search, cache, start, &mut path, &mut since);
                shared.turn_states.fetch_add(since, Ordering::Relaxed);
                if let (Some(progress), Ok(mut last)) = (progress, last_report.try_lock())
                    && last.elapsed() >= Duration::from_secs(5)
                {
                    *last = Instant::now();
                    progress(&counts(&shared));
                }
                result
            },
        )
    };
    let outcome = match &pool {
        Some(pool) => pool.install(walk_all),
        None => walk_all(),
    };
    let outcome = match (outcome, shared.found.lock().expect("a walk panicked").take()) {
        (_, Some(turn)) => TakeAll::Found(turn),
        (Ok(()), None) => TakeAll::Impossible,
        (Err(Stopped), None) => TakeAll::Stopped,
    };
    TakeAllReport { outcome, counts: counts(&shared) }
}

/// What every walk shares.
struct Walk<'a, R: Solvable<Position = Position>> {
    solver: &'a Solver<R>,
    options: DakonOptions,
    limits: &'a Limits,
    mover: Player,
    /// The opponent's store at the start: taking every seed is keeping it there.
    opponent_store: u8,
    shared: &'a Shared,
}

/// How one move of the mover's turn ends.
enum Step {
    /// The turn goes on from this state.
    Continues(OpeningState),
    /// The turn (or the game) ended and the opponent stores a seed: refuted.
    Refuted,
    /// The turn ended and the mover takes every seed.
    TakesAll,
}

impl<'a, R: Solvable<Position = Position>> Walk<'a, R> {
    /// The states of the turn from the first level with at least `states` of them (each once,
    /// with the holes that reach it), the levels before expanded on this thread.
    fn frontier(&self, state: &OpeningState, states: usize) -> Result<Vec<(OpeningState, Vec<usize>)>, Stopped> {
        let mut search = self.search(Instant::now());
        let mut level = vec![(*state, Vec::new())];
        while !level.is_empty() && level.len() < states {
            let mut next: Vec<(OpeningState, Vec<usize>)> = Vec::new();
            let mut seen = std::collections::HashSet::with_hasher(MixHashing::default());
            for (current, path) in &level {
                search.remaining()?;
                self.shared.turn_states.fetch_add(1, Ordering::Relaxed);
                for &r in current.position.moves().as_slice() {
                    let hole = current.position.absolute_hole(self.mover, r as usize);
                    let mut reached = path.clone();
                    reached.push(hole);
                    match self.step(&mut search, current, r as usize)? {
                        Step::Continues(after) if seen.insert(after) => next.push((after, reached)),
                        Step::Continues(_) | Step::Refuted => {}
                        Step::TakesAll => return self.found(reached).map(|()| Vec::new()),
                    }
                }
            }
            level = next;
        }
        Ok(level)
    }

    /// An opening search for the turn ends, without a guided search of its own, whose time
    /// limit counts from `started` (the enumeration's start, not the walk's).
    fn search(&self, started: Instant) -> OpeningSearch<'a, R> {
        let mut search = OpeningSearch::new(self.solver, self.options, self.limits, None);
        search.take_all_budget = 0;
        search.started = started;
        search
    }

    /// Expands every state of the turn from `state` (reached by `path`), depth first.
    fn depth_first(
        &self,
        search: &mut OpeningSearch<'_, R>,
        cache: &mut Cache,
        state: &OpeningState,
        path: &mut Vec<usize>,
        since: &mut u64,
    ) -> Result<(), Stopped> {
        *since += 1;
        if *since >= CHECK_EVERY {
            self.shared.turn_states.fetch_add(*since, Ordering::Relaxed);
            *since = 0;
            if self.shared.done.load(Ordering::Relaxed) {
                return Err(Stopped);
            }
            search.remaining().inspect_err(|_| self.shared.done.store(true, Ordering::Relaxed))?;
        }
        for &r in state.position.moves().as_slice() {
            path.push(state.position.absolute_hole(self.mover, r as usize));
            match self.step(search, state, r as usize)? {
                Step::Continues(after) => {
                    if cache.first_visit(&after) {
                        self.depth_first(search, cache, &after, path, since)?;
                    }
                }
                Step::Refuted => {}
                Step::TakesAll => return self.found(path.clone()),
            }
            path.pop();
        }
        Ok(())
    }

    /// Records the take-all turn `turn` and tells the other walks to stop.
    fn found(&self, turn: Vec<usize>) -> Result<(), Stopped> {
        self.shared.found.lock().expect("a walk panicked").get_or_insert(turn);
        self.shared.done.store(true, Ordering::Relaxed);
        Err(Stopped)
    }

    /// The mover's hole `r` played in `state`, and whether the turn goes on, or how its end is
    /// decided (by the rules 1 to 3 of the module's documentation).
    fn step(&self, search: &mut OpeningSearch<'_, R>, state: &OpeningState, r: usize) -> Result<Step, Stopped> {
        let (after, _) = state.play_with(r, self.options);
        let opponent = self.mover.other();
        if after.position.is_over() {
            return Ok(if after.position.store(opponent) == self.opponent_store { Step::TakesAll } else { Step::Refuted });
        }
        if after.position.mover() == self.mover {
            return Ok(Step::Continues(after));
        }
        self.shared.turn_ends.fetch_add(1, Ordering::Relaxed);
        if reaches_store(&after.position) {
            return Ok(Step::Refuted);
        }
        let stores = |s: &OpeningState| s.position.store(opponent) > self.opponent_store;
        let replies: Vec<OpeningState> =
            after.position.moves().as_slice().iter().map(|&o| after.play_with(o as usize, self.options).0).collect();
        if replies.iter().any(stores) {
            return Ok(Step::Refuted);
        }
        if replies.iter().any(|reply| self.screen(reply, &stores)) {
            self.shared.screened.fetch_add(1, Ordering::Relaxed);
            return Ok(Step::Refuted);
        }
        self.shared.searched.fetch_add(1, Ordering::Relaxed);
        // The opponent refutes the turn by a future gain above minus every seed left.
        let k = after.position.seeds_on_board() as i32;
        Ok(if search.at_least(&after, -k + 1)? { Step::Refuted } else { Step::TakesAll })
    }

    /// Whether, after the opponent's reply `reply` (which stored nothing), every move of the
    /// mover leaves the opponent a move that stores a seed: a refutation without a search.
    /// The mover's extra moves are followed up to [`SCREEN_EXTRA_MOVES`] deep; a deeper turn,
    /// or one that ends the game with the opponent's store unchanged, fails the screen.
    fn screen(&self, reply: &OpeningState, stores: &dyn Fn(&OpeningState) -> bool) -> bool {
        !reply.position.is_over() && reply.position.mover() == self.mover && self.every_turn_lets_store(reply, stores, SCREEN_EXTRA_MOVES)
    }

    /// [`Walk::screen`] of `state`, the mover to move, with `extra` extra moves still followed.
    fn every_turn_lets_store(&self, state: &OpeningState, stores: &dyn Fn(&OpeningState) -> bool, extra: u32) -> bool {
        state.position.moves().as_slice().iter().all(|&m| {
            let (answer, _) = state.play_with(m as usize, self.options);
            if answer.position.is_over() {
                stores(&answer)
            } else if answer.position.mover() == self.mover {
                extra > 0 && self.every_turn_lets_store(&answer, stores, extra - 1)
            } else {
                reaches_store(&answer.position)
                    || answer.position.moves().as_slice().iter().any(|&o| stores(&answer.play_with(o as usize, self.options).0))
            }
        })
    }
}

/// Whether a hole of the mover of `position` holds enough seeds for its first lap to reach the
/// mover's store (hole `r`, counted in the sowing direction, needs `holes - r`): the check
/// that refutes almost every turn end without playing a move.
fn reaches_store(position: &Position) -> bool {
    let n = position.holes();
    (0..n).any(|r| usize::from(position.seeds(Side::Mover, r)) >= n - r)
}

/// A walk's cache of recently expanded states, one a slot: a state found there was expanded
/// already (by this walk); a state not found may have been, and is expanded again.
struct Cache {
    slots: Vec<Option<OpeningState>>,
    hasher: MixHashing,
}

impl Cache {
    fn new() -> Cache {
        Cache { slots: vec![None; CACHE_SLOTS], hasher: MixHashing::default() }
    }

    /// Whether `state` is not in the cache; it is there afterwards.
    fn first_visit(&mut self, state: &OpeningState) -> bool {
        let slot = self.hasher.hash_one(state) as usize & (CACHE_SLOTS - 1);
        if self.slots[slot] == Some(*state) {
            return false;
        }
        self.slots[slot] = Some(*state);
        true
    }
}
