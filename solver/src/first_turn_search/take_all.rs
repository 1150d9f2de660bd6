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
//! The walk is shared over threads by the states of the first level with enough of them. A
//! resumable enumeration ([`enumerate_resumable`]) starts from a larger level, so that its
//! walks are short, and records which walks are finished in a checkpoint file.

mod checkpoint;

pub use checkpoint::{CheckpointError, TakeAllCheckpoint};

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use xxhash_rust::xxh3::Xxh3;

use super::{OpeningSearch, Stopped};
use crate::dakon::{DakonOptions, OpeningState, Player, Position, Side};
use crate::search::{Limits, MixHashing, Solver};
use crate::solvable::Solvable;
use checkpoint::Saved;

/// States a breadth-first start collects before the depth-first walks share them.
pub(super) const FRONTIER_STATES: usize = 1 << 12;

/// States the breadth-first start of a resumable enumeration collects: many short walks, so
/// that a stop loses little of the unfinished ones.
const RESUMABLE_FRONTIER_STATES: usize = 1 << 15;

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
    /// Time spent (over every run of a resumed enumeration).
    pub elapsed: Duration,
    /// Walks finished (states of the breadth-first start whose turns are all refuted)...
    pub walks_done: u64,
    /// ... of this many.
    pub walks: u64,
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
    walks_done: AtomicU64,
    walks: AtomicU64,
    /// Set when a walk found a take-all turn or a limit stopped one: the others stop.
    done: AtomicBool,
    found: Mutex<Option<Vec<usize>>>,
}

impl Shared {
    /// Takes up the counts of the earlier runs `saved` (which include this run's
    /// breadth-first start), `finished` walks of them done.
    fn resume(&self, saved: &Saved, finished: u64) {
        self.turn_states.store(saved.turn_states, Ordering::Relaxed);
        self.turn_ends.store(saved.turn_ends, Ordering::Relaxed);
        self.screened.store(saved.screened, Ordering::Relaxed);
        self.searched.store(saved.searched, Ordering::Relaxed);
        self.walks_done.store(finished, Ordering::Relaxed);
    }
}

/// Which walks are finished, as a checkpoint keeps them: walk `i` is bit `i % 64` of word
/// `i / 64`.
struct FinishedWalks(Vec<AtomicU64>);

impl FinishedWalks {
    /// None of `walks` walks finished.
    fn new(walks: usize) -> FinishedWalks {
        FinishedWalks((0..walks.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }

    /// Takes up a checkpoint's `words`; the walks they mark, or `None` if they are not as many
    /// words as this has.
    fn restore(&self, words: &[u64]) -> Option<u64> {
        (words.len() == self.0.len()).then(|| {
            self.0.iter().zip(words).for_each(|(word, &bits)| word.store(bits, Ordering::Relaxed));
            words.iter().map(|w| u64::from(w.count_ones())).sum()
        })
    }

    fn contains(&self, walk: usize) -> bool {
        self.0[walk / 64].load(Ordering::Relaxed) & (1 << (walk % 64)) != 0
    }

    fn insert(&self, walk: usize) {
        self.0[walk / 64].fetch_or(1 << (walk % 64), Ordering::Relaxed);
    }

    /// The words, for a checkpoint.
    fn words(&self) -> Vec<u64> {
        self.0.iter().map(|w| w.load(Ordering::Relaxed)).collect()
    }
}

/// Decides whether the mover of `state` (in their first turn under `options`, which include
/// `no-first-turn-capture`) has a turn after which they take every seed on the board, by
/// walking every state of that turn on `solver.threads()` threads (each walk with its own opening search
/// for the turn ends that need one, their leaves tested by `solver`). `progress` is told the
/// counts once the walks are laid out, then every few seconds.
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

/// [`enumerate`], keeping its progress in `checkpoint`: a run goes on from the walks the
/// checkpoint file records as finished (when the file exists), writes the file every
/// `checkpoint.every` and when it ends, and its counts include the earlier runs'.
///
/// # Errors
/// [`CheckpointError`] if the file exists but is unreadable, damaged or another
/// enumeration's, or if a write fails (the enumeration then stops; the last checkpoint
/// written stays whole).
///
/// # Panics
/// As [`enumerate`].
pub fn enumerate_resumable<R: Solvable<Position = Position>>(
    solver: &Solver<R>,
    state: &OpeningState,
    options: DakonOptions,
    limits: &Limits,
    progress: Option<&(dyn Fn(&TakeAllCounts) + Sync)>,
    checkpoint: &TakeAllCheckpoint,
) -> Result<TakeAllReport, CheckpointError> {
    run(solver, state, options, limits, progress, RESUMABLE_FRONTIER_STATES, Some(checkpoint))
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
    run(solver, state, options, limits, progress, frontier_states, None).expect("without a checkpoint nothing is read or written")
}

/// The enumeration, from the first level of at least `frontier_states` states, with its
/// progress kept in `checkpoint` if given.
fn run<R: Solvable<Position = Position>>(
    solver: &Solver<R>,
    state: &OpeningState,
    options: DakonOptions,
    limits: &Limits,
    progress: Option<&(dyn Fn(&TakeAllCounts) + Sync)>,
    frontier_states: usize,
    checkpoint: Option<&TakeAllCheckpoint>,
) -> Result<TakeAllReport, CheckpointError> {
    let mover = state.position.mover();
    assert!(state.in_first_turn(mover) && !state.position.is_over(), "{state}: not in the mover's first turn");
    let started = Instant::now();
    let shared = Shared::default();
    let walk = Walk { solver, options, limits, mover, opponent_store: state.position.store(mover.other()), shared: &shared };
    let mut earlier = Duration::ZERO;
    let counts = |shared: &Shared, earlier: Duration| TakeAllCounts {
        turn_states: shared.turn_states.load(Ordering::Relaxed),
        turn_ends: shared.turn_ends.load(Ordering::Relaxed),
        screened: shared.screened.load(Ordering::Relaxed),
        searched: shared.searched.load(Ordering::Relaxed),
        elapsed: earlier + started.elapsed(),
        walks_done: shared.walks_done.load(Ordering::Relaxed),
        walks: shared.walks.load(Ordering::Relaxed),
    };
    let frontier = match walk.frontier(state, frontier_states, started) {
        Ok(frontier) => frontier,
        Err(Stopped) => {
            let outcome = shared.found.lock().expect("a walk panicked").take().map_or(TakeAll::Stopped, TakeAll::Found);
            return Ok(TakeAllReport { outcome, counts: counts(&shared, earlier) });
        }
    };
    let walks = frontier.len();
    shared.walks.store(walks as u64, Ordering::Relaxed);
    let done = FinishedWalks::new(walks);
    let fingerprint = fingerprint(&frontier);
    if let Some(checkpoint) = checkpoint
        && let Some(saved) = checkpoint.load()?
    {
        let ours = [state.to_string(), options.to_string(), fingerprint.to_string(), walks.to_string()];
        let theirs = [saved.state.clone(), saved.options.clone(), saved.fingerprint.to_string(), saved.walks.to_string()];
        let names = ["start", "rules", "breadth-first start", "walks"];
        if let Some(i) = (0..4).find(|&i| ours[i] != theirs[i]) {
            let why = format!("its {} is {}, this one's {}", names[i], theirs[i], ours[i]);
            return Err(CheckpointError::OtherRun { path: checkpoint.path.clone(), why });
        }
        let finished = done.restore(&saved.done).ok_or_else(|| CheckpointError::Corrupt {
            path: checkpoint.path.clone(),
            why: format!("{} words of finished walks for {walks} walks", saved.done.len()),
        })?;
        shared.resume(&saved, finished);
        earlier = Duration::from_millis(saved.elapsed_ms);
    }
    // The first report says where the walks start: a resumed run, how many were done.
    if let Some(progress) = progress {
        progress(&counts(&shared, earlier));
    }
    let save = |shared: &Shared| match checkpoint {
        Some(checkpoint) => {
            let counts = counts(shared, earlier);
            checkpoint.save(&Saved {
                state: state.to_string(),
                options: options.to_string(),
                fingerprint,
                walks: walks as u64,
                done: done.words(),
                turn_states: counts.turn_states,
                turn_ends: counts.turn_ends,
                screened: counts.screened,
                searched: counts.searched,
                elapsed_ms: counts.elapsed.as_millis() as u64,
            })
        }
        None => Ok(()),
    };
    let write_failure: Mutex<Option<CheckpointError>> = Mutex::new(None);
    let (last_report, last_save) = (Mutex::new(Instant::now()), Mutex::new(Instant::now()));
    let open: Vec<(usize, &(OpeningState, Vec<usize>))> = frontier.iter().enumerate().filter(|&(i, _)| !done.contains(i)).collect();
    let walk_all = || {
        open.par_iter().try_for_each_init(
            || (walk.search(started), Cache::new()),
            |(search, cache), &(i, (start, path))| {
                let mut path = path.clone();
                let mut since = 0;
                let result = walk.depth_first(search, cache, start, &mut path, &mut since);
                shared.turn_states.fetch_add(since, Ordering::Relaxed);
                if result.is_ok() {
                    done.insert(i);
                    shared.walks_done.fetch_add(1, Ordering::Relaxed);
                }
                if let (Some(progress), Ok(mut last)) = (progress, last_report.try_lock())
                    && last.elapsed() >= Duration::from_secs(5)
                {
                    *last = Instant::now();
                    progress(&counts(&shared, earlier));
                }
                if let (Some(checkpoint), Ok(mut last)) = (checkpoint, last_save.try_lock())
                    && last.elapsed() >= checkpoint.every
                {
                    *last = Instant::now();
                    if let Err(failure) = save(&shared) {
                        *write_failure.lock().expect("a walk panicked") = Some(failure);
                        shared.done.store(true, Ordering::Relaxed);
                        return Err(Stopped);
                    }
                }
                result
            },
        )
    };
    // The walks run on as many threads as the solver has; a pool that cannot be made leaves
    // them on the caller's.
    let outcome = match rayon::ThreadPoolBuilder::new().num_threads(solver.threads()).build() {
        Ok(pool) => pool.install(walk_all),
        Err(_) => walk_all(),
    };
    if let Some(failure) = write_failure.into_inner().expect("a walk panicked") {
        return Err(failure);
    }
    let outcome = match (outcome, shared.found.lock().expect("a walk panicked").take()) {
        (_, Some(turn)) => TakeAll::Found(turn),
        (Ok(()), None) => TakeAll::Impossible,
        (Err(Stopped), None) => TakeAll::Stopped,
    };
    save(&shared)?;
    Ok(TakeAllReport { outcome, counts: counts(&shared, earlier) })
}

/// The xxh3-64 of the states of a breadth-first start in notation, one a line: what a
/// checkpoint's finished walks are numbered by.
fn fingerprint(frontier: &[(OpeningState, Vec<usize>)]) -> u64 {
    let mut hasher = Xxh3::new();
    for (state, _) in frontier {
        hasher.update(format!("{state}\n").as_bytes());
    }
    hasher.digest()
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
    /// with the holes that reach it, in an order fixed by `state`), the levels before expanded
    /// on this thread; the opening search's clock counts from `started`.
    fn frontier(&self, state: &OpeningState, states: usize, started: Instant) -> Result<Vec<(OpeningState, Vec<usize>)>, Stopped> {
        let mut search = self.search(started);
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
                        Step::TakesAll => return Err(self.found(reached)),
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
                Step::TakesAll => return Err(self.found(path.clone())),
            }
            path.pop();
        }
        Ok(())
    }

    /// Records the take-all turn `turn` and tells the other walks to stop, which this walk
    /// does too.
    fn found(&self, turn: Vec<usize>) -> Stopped {
        self.shared.found.lock().expect("a walk panicked").get_or_insert(turn);
        self.shared.done.store(true, Ordering::Relaxed);
        Stopped
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
        // Played again by the screen, which few turn ends reach: cheaper than keeping them.
        let moves = after.position.moves();
        let replies = || moves.as_slice().iter().map(|&o| after.play_with(o as usize, self.options).0);
        if replies().any(|reply| stores(&reply)) {
            return Ok(Step::Refuted);
        }
        if replies().any(|reply| self.screen(&reply, &stores)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dakon::Dakon;
    use crate::search::Config;

    #[test]
    fn a_resumed_enumeration_walks_only_what_its_checkpoint_left_and_decides_the_same() {
        let options: DakonOptions = "no-first-turn-capture".parse().unwrap();
        let solver = |options: DakonOptions| {
            Solver::new(Dakon::with_options(5, options.board_rules()).unwrap(), Config { threads: 2, tt_bytes: 1 << 20 }, None)
        };
        let state = OpeningState::start(5, 5).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let checkpoint = TakeAllCheckpoint { path: dir.path().join("walk.ckpt"), every: Duration::ZERO };
        let limits = Limits::default();
        let resume = |options| run(&solver(options), &state, options, &limits, None, 16, Some(&checkpoint));
        let whole = resume(options).unwrap();
        assert_eq!(whole.outcome, TakeAll::Impossible);
        let walks = whole.counts.walks;
        assert!(walks >= 16 && whole.counts.walks_done == walks, "{:?}", whole.counts);
        // Finished: a rerun decides from the file, walking nothing.
        let again = resume(options).unwrap();
        assert_eq!((again.outcome, again.counts.turn_states), (TakeAll::Impossible, whole.counts.turn_states));
        // The odd walks forgotten and the counts zeroed: the rerun walks those alone.
        let mut saved = checkpoint.load().unwrap().unwrap();
        saved.done.iter_mut().for_each(|word| *word &= 0x5555_5555_5555_5555);
        saved.turn_states = 0;
        checkpoint.save(&saved).unwrap();
        let resumed = resume(options).unwrap();
        assert_eq!((resumed.outcome, resumed.counts.walks_done), (TakeAll::Impossible, walks));
        assert!(resumed.counts.turn_states > 0 && resumed.counts.turn_states < whole.counts.turn_states, "{:?}", resumed.counts);
        // Another enumeration's checkpoint is refused, naming what differs, and left as it was.
        let other: DakonOptions = "no-first-turn-capture,skip-origin".parse().unwrap();
        let refused = resume(other).unwrap_err();
        assert!(
            matches!(refused, CheckpointError::OtherRun { .. }) && refused.to_string().contains("its rules is dakon:no-first-turn-capture"),
            "{refused}"
        );
        assert_eq!(checkpoint.load().unwrap().unwrap().walks, walks);
    }
}
