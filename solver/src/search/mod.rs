//! Exact game-tree search over any [`Rules`](crate::rules::Rules).
//!
//! The search works on *future gains* (see [`crate::rules`]) and proves them with null-window
//! alpha-beta searches (pieces, one concept per file):
//! - `alphabeta`: the fail-soft negamax of one thread, with the turn structure of sowing
//!   games (no negation across an extra move) and cuts from the seeds left on the board; its
//!   doc comment states the exact return-value contract;
//! - `tt`: the shared transposition table of proven bounds, each entry identifying its board
//!   losslessly (a short code's bucket and tag, or the whole key), in a fixed memory budget;
//! - `ordering`: table move, extra moves, then biggest gains first, then the moves that
//!   refuted most positions so far (a history per worker);
//! - `driver`: the sequence of null-window tests (the top first, then galloping down from the
//!   upper bound until a test succeeds, then bisection; failing that, a walk toward a
//!   shallow search's guess and aimed tests from it) that closes the bracket of proven
//!   bounds; [`Solver::solve_with`] starts it from a bound proven elsewhere and reports every
//!   test to an observer;
//! - `analysis`: every move of a position valued in rounds, each move's driver kept
//!   between them ([`MoveAnalysis`]);
//! - `parallel`: the worker threads search each test together (shared table, simplified
//!   ABDADA), as many as the solver's [`Width`] allows; `budget`: time, node and Ctrl-C
//!   limits;
//! - `pv`: the principal variation, every move proven optimal.
//!
//! A search stopped by a limit returns the bounds proven so far. Results never depend on the
//! number of threads or the table size: every bound in the table is a proof.
//!
//! Galloping and the history tie-break together cut the nodes of the hardest atlas starts by
//! more than half, and [`Solver::solve`] starts from the bound of the mover's best turn, which
//! turns some starts a search could not close into quick proofs; the measurements are in
//! `docs/benchmarks/code-notes.md`.
//!
//! ```
//! use dakon_solver::dakon::{Dakon, Position};
//! use dakon_solver::search::{Config, Limits, Solver};
//!
//! let solver = Solver::new(Dakon::new(3).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
//! let start = Position::start(3, 3).unwrap();
//! let solution = solver.solve(&start, &Limits::default());
//! assert!(solution.is_exact());
//! // The value for the player to move is the final store difference (stores start empty).
//! let value = solution.lower;
//! assert_eq!(solver.at_least(&start, value, &Limits::default()), Some(true));
//! assert_eq!(solver.at_least(&start, value + 1, &Limits::default()), Some(false));
//! // The principal variation plays to the end of the game.
//! let mut p = start;
//! for &mv in &solution.pv {
//!     p = p.play(mv as usize).0;
//! }
//! assert!(p.is_over());
//! assert_eq!(p.final_difference(), if p.mover() == start.mover() { value } else { -value });
//! ```

mod alphabeta;
mod analysis;
mod budget;
mod delegated;
mod driver;
mod estimate;
mod ordering;
mod parallel;
mod pv;
mod tt;

use std::cmp::Reverse;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::opening::{best_turn, TurnLimits};
use crate::oracle::Oracle;
use crate::rules::{parity_ceil, parity_floor};
use crate::search_memory::SearchMemory;
use crate::solvable::Solvable;
pub use analysis::MoveAnalysis;
use budget::Budget;
pub use delegated::{DriverTest, RootTests, TestAnswer};
use driver::{narrow, Bracket};
use ordering::Children;
pub use parallel::Width;
use parallel::{null_window_with, Busy, Helpers};
use pv::principal_variation;
pub(crate) use tt::MixHashing;
use tt::Table;

/// Most moves the turn search of [`Solver::turn_bound`] plays: milliseconds. The hard atlas
/// boards, whose value is the best turn's bound, need a handful (their best turn is one move).
pub const TURN_NODES: u64 = 20_000;

/// How much a search may spend. A search stopped by any limit returns proven bounds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock budget.
    pub time: Option<Duration>,
    /// Budget of nodes (positions visited).
    pub nodes: Option<u64>,
    /// Set to `true` from outside (Ctrl-C) to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
}

/// One finished null-window test of a solve, as an observer of [`Solver::solve_with`] hears
/// of it: the bracket of proven bounds after the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The test: "is the future gain at least `target`?"
    pub target: i32,
    /// Its fail-soft answer: at least `value` when `value >= target`, else at most `value`.
    pub value: i32,
    /// Proven lower bound of the future gain so far.
    pub lower: i32,
    /// Proven upper bound so far.
    pub upper: i32,
    /// Positions visited by the solve so far.
    pub nodes: u64,
}

/// What the caller of [`Solver::solve_with`] already knows, and who listens.
#[derive(Clone, Copy, Default)]
pub struct SolveOptions<'a> {
    /// A lower bound of the future gain **proven elsewhere** (e.g. by the best opening turn,
    /// see [`crate::opening`]): the search starts its bracket there. A wrong bound makes the
    /// result wrong; `None` starts from `-seeds on the board`.
    pub proven_lower: Option<i32>,
    /// An upper bound of the future gain **proven elsewhere** (e.g. by an earlier search kept
    /// in a results database): the search's bracket ends there. A wrong bound makes the result
    /// wrong; `None` starts from `+seeds on the board`.
    pub proven_upper: Option<i32>,
    /// Called after every null-window test with the bracket so far (cheap: a handful of calls
    /// per solve).
    pub observer: Option<&'a dyn Fn(&Progress)>,
}

/// Resources of a solver.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads (1 or more).
    pub threads: usize,
    /// Transposition table size in bytes (rounded down to a whole number of 64-byte buckets,
    /// any number; see `search::tt` for the layouts).
    pub tt_bytes: usize,
}

/// What a search proved about a position. Values are *future gains* for the player to move
/// (add the store difference for the final difference).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Proven lower bound of the future gain.
    pub lower: i32,
    /// Proven upper bound of the future gain (equal to `lower` when exact).
    pub upper: i32,
    /// The best move found (`None` when the game is over); see `best_move_proven`.
    pub best_move: Option<u8>,
    /// Whether `best_move` is proven to achieve `lower` (and so is optimal when the value is
    /// exact). When false it is the move ordering's guess: a limit stopped the search before
    /// any test proved a move.
    pub best_move_proven: bool,
    /// Principal variation: moves from the position on, each optimal when exact (when not
    /// exact: `best_move` alone).
    pub pv: Vec<u8>,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl Solution {
    /// Whether the value is known exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// The answer of [`Solver::prove_at_least`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtLeast {
    /// Whether the future gain is at least the bound: `None` when a limit stopped the search.
    pub holds: Option<bool>,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// The value of one move of a position, for the player to move there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: u8,
    /// Proven lower bound of the future gain of the position when this move is played.
    pub lower: i32,
    /// Proven upper bound (equal to `lower` when exact).
    pub upper: i32,
}

/// An exact solver for one rule set, with its transposition table and optional oracle.
///
/// It is `Sync`: several threads may call [`Solver::solve`], [`Solver::at_least`] and
/// [`Solver::analyse_moves`] on one solver at once; they share (and profit from) its table.
pub struct Solver<R: Solvable> {
    rules: R,
    oracle: Option<Arc<dyn Oracle<R>>>,
    table: Table<R>,
    busy: Busy,
    /// The helper threads of every search when `config.threads > 1` (`threads - 1` of them:
    /// the calling thread is a worker too); none otherwise.
    pool: Option<rayon::ThreadPool>,
    helpers: Helpers,
    /// Whether other processes search the same trees in the same table (see
    /// [`Solver::new_in`]): every test then defers busy children, as threads do.
    in_company: bool,
}

impl<R: Solvable> Solver<R> {
    /// A solver with its own transposition table of `config.tt_bytes`, searching with
    /// `config.threads` threads, asking `oracle` first at positions it covers.
    ///
    /// # Panics
    /// Panics if the worker threads cannot be started.
    pub fn new(rules: R, config: Config, oracle: Option<Arc<dyn Oracle<R>>>) -> Self {
        Self::build(rules, config, oracle, None)
    }

    /// [`Solver::new`] with its transposition table and busy marks in memory from `lender`,
    /// which other processes may share (MPI ranks on one node, each with a solver of the same
    /// rules and `config.tt_bytes`): they then search each test together as the threads of
    /// one solver do (simplified ABDADA, see `parallel`), every test deferring the children
    /// another is busy with, and every entry one of them stores is a proof the others use.
    ///
    /// # Panics
    /// Panics if the worker threads cannot be started.
    pub fn new_in(rules: R, config: Config, oracle: Option<Arc<dyn Oracle<R>>>, lender: &dyn SearchMemory) -> Self {
        Self::build(rules, config, oracle, Some(lender))
    }

    /// The solver of [`Solver::new`] and [`Solver::new_in`].
    fn build(rules: R, config: Config, oracle: Option<Arc<dyn Oracle<R>>>, lender: Option<&dyn SearchMemory>) -> Self {
        let pool = (config.threads > 1).then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(config.threads - 1)
                .thread_name(|i| format!("search-{}", i + 1))
                .build()
                .expect("cannot start the search threads")
        });
        let table = Table::new_in(&rules, config.tt_bytes, lender);
        let helpers = Helpers::new(config.threads.saturating_sub(1), None);
        Solver { rules, oracle, table, busy: Busy::new(lender), pool, helpers, in_company: lender.is_some() }
    }

    /// This solver with each null-window test using only as many threads as `width` says
    /// when it starts (at least the calling thread, at most [`Solver::threads`]), instead of
    /// all of them: for a server whose searches share the cores, so that a search running
    /// alone uses them all and one of several only its own.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use dakon_solver::dakon::{Dakon, Position};
    /// use dakon_solver::search::{Config, Limits, Solver};
    ///
    /// let alone = Solver::new(Dakon::new(4).unwrap(), Config { threads: 2, tt_bytes: 1 << 20 }, None).with_width(Arc::new(|| 1));
    /// let start = Position::start(4, 4).unwrap();
    /// let both = Solver::new(Dakon::new(4).unwrap(), Config { threads: 2, tt_bytes: 1 << 20 }, None);
    /// assert_eq!(alone.solve(&start, &Limits::default()).lower, both.solve(&start, &Limits::default()).lower);
    /// ```
    pub fn with_width(mut self, width: Width) -> Self {
        self.helpers.set_width(width);
        self
    }

    /// The rules this solver plays by.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Memory of the transposition table, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Worker threads per search.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |pool| pool.current_num_threads() + 1)
    }

    /// Solves `pos`: exact future gain unless a limit stopped it, then proven bounds. The
    /// best move proves `lower` when `best_move_proven` says so (optimal when exact); else a
    /// limit stopped the search first and it is the table's or the first move: a guess.
    ///
    /// The search starts from the bound proven by the mover's best turn (see
    /// [`Solver::turn_bound`]), as `dakon verify` does: on boards where that bound is the
    /// value (the opponent takes every seed left) one test settles it.
    pub fn solve(&self, pos: &R::Position, limits: &Limits) -> Solution {
        self.solve_with(pos, limits, SolveOptions { proven_lower: self.turn_bound(pos), proven_upper: None, observer: None })
    }

    /// The lower bound of the future gain of `pos` proven by the mover's best turn found
    /// within [`TURN_NODES`] moves (see [`crate::opening`]); `None` if the game is over.
    ///
    /// ```
    /// use dakon_solver::dakon::{Dakon, Position};
    /// use dakon_solver::search::{Config, Limits, Solver};
    ///
    /// let solver = Solver::new(Dakon::new(3).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
    /// let start = Position::start(3, 3).unwrap();
    /// let bound = solver.turn_bound(&start).unwrap();
    /// assert!(bound <= solver.solve(&start, &Limits::default()).lower);
    /// ```
    pub fn turn_bound(&self, pos: &R::Position) -> Option<i32> {
        best_turn(&self.rules, pos, TurnLimits { nodes: TURN_NODES, goal: None }).best.map(|turn| turn.lower)
    }

    /// [`Solver::solve`] starting from what `options` says is proven, reporting each test to
    /// its observer.
    ///
    /// ```
    /// use std::cell::Cell;
    /// use dakon_solver::dakon::{Dakon, Position};
    /// use dakon_solver::search::{Config, Limits, SolveOptions, Solver};
    ///
    /// let solver = Solver::new(Dakon::new(3).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
    /// let start = Position::start(3, 3).unwrap();
    /// let tests = Cell::new(0);
    /// let observer = |_: &dakon_solver::search::Progress| tests.set(tests.get() + 1);
    /// let options = SolveOptions { proven_lower: Some(0), proven_upper: None, observer: Some(&observer) };
    /// let solution = solver.solve_with(&start, &Limits::default(), options);
    /// assert_eq!(solution.lower, solver.solve(&start, &Limits::default()).lower);
    /// assert!(tests.get() >= 1);
    /// ```
    pub fn solve_with(&self, pos: &R::Position, limits: &Limits, options: SolveOptions) -> Solution {
        self.solve_tested(pos, limits, options, None)
    }

    /// [`Solver::solve_with`], its root tests run by `tests` when given.
    fn solve_tested(&self, pos: &R::Position, limits: &Limits, options: SolveOptions, tests: Option<&RootTests<'_>>) -> Solution {
        let budget = Budget::new(limits);
        let moves = self.rules.legal_moves(pos);
        if moves.is_empty() {
            let value = self.rules.terminal_gain(pos);
            return Solution {
                lower: value,
                upper: value,
                best_move: None,
                best_move_proven: false,
                pv: Vec::new(),
                nodes: 0,
                elapsed: budget.started().elapsed(),
            };
        }
        let k = self.rules.seeds_on_board(pos) as i32;
        let mut start = Bracket::seeds(k);
        start.lower = options.proven_lower.map_or(start.lower, |lower| lower.clamp(-k, k));
        start.upper = options.proven_upper.map_or(start.upper, |upper| upper.clamp(start.lower, k));
        let bracket = narrow(self, pos, start, k, &budget, options.observer, tests);
        let pv = if bracket.is_exact() { principal_variation(self, pos, bracket.lower, bracket.best_move, &budget) } else { Vec::new() };
        let proven_move = pv.first().copied().or(bracket.best_move);
        let best_move = proven_move.or_else(|| {
            let tt_move = self.table.probe(&self.table.slot(&self.rules, pos)).and_then(|b| b.mv);
            Children::new(&self.rules, pos, &moves, tt_move).iter().next().map(|c| c.mv)
        });
        let pv = if pv.is_empty() { best_move.into_iter().collect() } else { pv };
        Solution {
            lower: bracket.lower,
            upper: bracket.upper,
            best_move,
            best_move_proven: proven_move.is_some(),
            pv,
            nodes: budget.nodes(),
            elapsed: budget.started().elapsed(),
        }
    }

    /// Whether the future gain of `pos` is at least `bound`: `Some(true)` or `Some(false)` when
    /// proven, `None` when a limit stopped the search first. A single null-window search, much
    /// cheaper than [`Solver::solve`] (e.g. `bound = 1` proves a win).
    pub fn at_least(&self, pos: &R::Position, bound: i32, limits: &Limits) -> Option<bool> {
        self.prove_at_least(pos, bound, limits).holds
    }

    /// The bounds of the future gain of `pos` that the transposition table holds now, each
    /// proven by a finished search of the position (possibly inside a search still running:
    /// how a long test shows what it has proven so far); `None` if it holds none.
    pub fn table_bounds(&self, pos: &R::Position) -> Option<(i32, i32)> {
        self.table.probe(&self.table.slot(&self.rules, pos)).map(|b| (b.lower as i32, b.upper as i32))
    }

    /// Keeps bounds `lower <= future gain <= upper` of `pos`, **proven elsewhere** (e.g. kept
    /// in a results database by a run that was cut short), in the table, so that the searches
    /// to come start from them (a wrong bound makes their results wrong). Bounds looser than
    /// the seeds allow, or that the table's entry cannot hold, are not kept.
    pub fn remember(&self, pos: &R::Position, lower: i32, upper: i32) {
        let k = self.rules.seeds_on_board(pos);
        let (lower, upper) = (parity_ceil(lower.max(-(k as i32)), k), parity_floor(upper.min(k as i32), k));
        if lower <= upper && (lower, upper) != (-(k as i32), k as i32) {
            // The most work an entry records: what a run's proof cost is not known here, and
            // such bounds are the last to give way.
            let bounds = tt::Bounds { lower: lower as i16, upper: upper as i16, mv: None, work: u8::MAX };
            self.table.store(&self.table.slot(&self.rules, pos), bounds);
        }
    }

    /// [`Solver::at_least`] with the work it took.
    pub fn prove_at_least(&self, pos: &R::Position, bound: i32, limits: &Limits) -> AtLeast {
        self.prove_at_least_with(pos, bound, limits, true)
    }

    /// [`Solver::prove_at_least`] on the calling thread alone, no helper thread taken: for
    /// many small tests (a certificate's extraction), where waking the helpers costs more
    /// than the search, and for tests run on several threads of the caller's at once.
    pub fn prove_at_least_alone(&self, pos: &R::Position, bound: i32, limits: &Limits) -> AtLeast {
        self.prove_at_least_with(pos, bound, limits, false)
    }

    fn prove_at_least_with(&self, pos: &R::Position, bound: i32, limits: &Limits, helped: bool) -> AtLeast {
        let budget = Budget::new(limits);
        let holds = self.holds(pos, bound, &budget, helped);
        AtLeast { holds, nodes: budget.nodes(), elapsed: budget.started().elapsed() }
    }

    /// Whether the future gain of `pos` is at least `bound` (`None`: the budget ran out),
    /// with the helper threads if `helped`.
    fn holds(&self, pos: &R::Position, bound: i32, budget: &Budget, helped: bool) -> Option<bool> {
        if self.rules.legal_moves(pos).is_empty() {
            return Some(self.rules.terminal_gain(pos) >= bound);
        }
        let k = self.rules.seeds_on_board(pos) as i32;
        if bound <= -k || bound > k {
            return Some(bound <= -k);
        }
        // Whether the mover takes every seed is cheap to settle and often true in sowing
        // games (see `driver`); its fail-soft answer may already decide.
        let top = if bound < k { null_window_with(self, pos, k, budget, helped) } else { None };
        match top {
            Some((value, _)) if value >= k || value < bound => Some(value >= bound),
            _ => null_window_with(self, pos, bound, budget, helped).map(|(value, _)| value >= bound),
        }
    }

    /// Whether the future gain of `pos` is at least `target`, one move at a time: each child
    /// is asked with [`Solver::holds`], so that a child whose mover takes every seed left is
    /// settled by that cheap test, where a null window over the whole position asks each
    /// child only the weaker question and may search far longer for it. Answers as
    /// [`null_window`] does, with the fail-soft values `target` and `target - 1`.
    pub(crate) fn move_by_move(&self, pos: &R::Position, target: i32, budget: &Budget) -> Option<(i32, Option<u8>)> {
        for &mv in self.rules.legal_moves(pos).as_slice() {
            let step = self.rules.play(pos, mv);
            // The move reaches `target` iff the child's future gain is at least `target - gain`
            // (same mover), or below `gain - target + 1` (the opponent moves).
            let reaches = if step.same_mover {
                self.holds(&step.next, target - step.gain, budget, true)?
            } else {
                !self.holds(&step.next, step.gain - target + 1, budget, true)?
            };
            if reaches {
                return Some((target, Some(mv)));
            }
        }
        Some((target - 1, None))
    }

    /// The value of every legal move of `pos` (the future gain of `pos` if that move is
    /// played), best first, ties by move. Moves a limit stopped keep the bounds proven so far.
    pub fn analyse_moves(&self, pos: &R::Position, limits: &Limits) -> Vec<MoveValue> {
        let budget = Budget::new(limits);
        let mut analysis = self.move_analysis(pos, &[]);
        for index in 0..analysis.values().len() {
            analysis.advance(self, index, &budget, &|_, _| {});
        }
        let mut values = analysis.values();
        values.sort_by_key(|m| (Reverse(m.lower), Reverse(m.upper), m.mv));
        values
    }

    /// Every legal move of `pos` ready to be valued in rounds ([`MoveAnalysis::round`]), each
    /// from its bounds in `known` (**proven elsewhere**, e.g. by the position's value or a
    /// results database: a wrong bound makes the result wrong), for callers that share time
    /// between the moves.
    ///
    /// ```
    /// use dakon_solver::dakon::{Dakon, Position};
    /// use dakon_solver::search::{Config, Limits, Solver};
    ///
    /// let solver = Solver::new(Dakon::new(3).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
    /// let start = Position::start(3, 3).unwrap();
    /// let mut analysis = solver.move_analysis(&start, &[]);
    /// while !analysis.is_done() {
    ///     analysis.round(&solver, &Limits { nodes: Some(100), ..Limits::default() });
    /// }
    /// let mut all = solver.analyse_moves(&start, &Limits::default());
    /// all.sort_by_key(|m| m.mv);
    /// assert_eq!(analysis.values(), all);
    /// ```
    pub fn move_analysis(&self, pos: &R::Position, known: &[MoveValue]) -> MoveAnalysis<R> {
        MoveAnalysis::new(self, pos, self.rules.legal_moves(pos).as_slice(), known)
    }

    /// The value of the legal move `mv` of `pos` alone (as [`Solver::analyse_moves`] values
    /// each move), within its own `limits`: for callers that choose the order of the moves
    /// and how to share time between them. Bounds proven by earlier calls stay in the table,
    /// so calling again with more time goes on from there.
    ///
    /// ```
    /// use dakon_solver::dakon::{Dakon, Position};
    /// use dakon_solver::search::{Config, Limits, Solver};
    ///
    /// let solver = Solver::new(Dakon::new(3).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
    /// let start = Position::start(3, 3).unwrap();
    /// let all = solver.analyse_moves(&start, &Limits::default());
    /// for m in &all {
    ///     assert_eq!(&solver.analyse_move(&start, m.mv, &Limits::default()), m);
    /// }
    /// ```
    ///
    /// # Panics
    /// May panic, or return nonsense, if `mv` is not a legal move of `pos`.
    pub fn analyse_move(&self, pos: &R::Position, mv: u8, limits: &Limits) -> MoveValue {
        self.analyse_move_within(pos, mv, &MoveValue { mv, lower: i32::MIN, upper: i32::MAX }, limits)
    }

    /// [`Solver::analyse_move`] starting from `known`, bounds of the move **proven elsewhere**
    /// (e.g. kept in a results database): the child's search starts from the bracket they
    /// imply. Returns bounds within `known` (a wrong `known` makes the result wrong).
    ///
    /// # Panics
    /// May panic, or return nonsense, if `mv` is not a legal move of `pos`.
    pub fn analyse_move_within(&self, pos: &R::Position, mv: u8, known: &MoveValue, limits: &Limits) -> MoveValue {
        let mut analysis = MoveAnalysis::new(self, pos, &[mv], std::slice::from_ref(known));
        analysis.round(self, limits);
        let proven = analysis.values()[0].clone();
        MoveValue { mv, lower: proven.lower.max(known.lower), upper: proven.upper.min(known.upper) }
    }
}
