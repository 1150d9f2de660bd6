//! The heart of the extraction: at each position where a half's owner is to move, one move
//! that still achieves what the owner needs there, chosen for a small proof.

use std::sync::atomic::Ordering;

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

use super::walk::{board_key, BoardKey, Half};
use super::{ExtractError, ExtractProgress};
use crate::dakon::Position;
use crate::rules::Step;
use crate::search::{Limits, Solver};
use crate::solvable::Solvable;

/// The move chosen for a board and the highest need it was proven to meet there. Six bytes:
/// a need that a move can meet lies within the seeds (at most 255) in either direction.
#[derive(Clone, Copy, Debug)]
pub(super) struct Choice {
    /// The move (rules-level).
    pub mv: u8,
    /// The owner's future gain this move is proven to guarantee at least.
    proven: i16,
    /// The highest need the final pass has followed the board with ([`i16::MIN`] before),
    /// kept here rather than in a map of its own.
    pub followed: i16,
}

impl Choice {
    /// `mv`, proven to meet `need`.
    fn new(mv: u8, need: i32) -> Choice {
        let proven = i16::try_from(need).expect("a need that a move meets lies within the seeds");
        Choice { mv, proven, followed: i16::MIN }
    }

    /// The owner's future gain this move is proven to guarantee at least.
    pub fn proven(self) -> i32 {
        self.proven.into()
    }
}

/// One move per board of a half, by the position's [`BoardKey`] (the board and the mover, who
/// is always the owner here): entries are keyed by the board alone, so the move must meet the
/// highest need with which the board is reached. One map serves every thread of the walk, in
/// shards that grow one at a time: a board chosen on one thread is known to all, and no
/// merge of per-thread copies doubles the memory at the end.
pub(super) type Choices = DashMap<BoardKey, Choice, FxBuildHasher>;

/// Chooses the owner's moves of one half, proving each with the solver's null-window test.
pub(super) struct Chooser<'a, R: Solvable<Position = Position>> {
    solver: &'a Solver<R>,
    limits: &'a Limits,
    half: Half,
    /// `"lower"` or `"upper"`, for errors.
    name: &'static str,
    /// The half's moves, shared with the choosers of the other threads.
    choices: &'a Choices,
    /// Null-window tests asked.
    pub tests: u64,
    /// Positions the solver visited for them.
    pub nodes: u64,
    /// Tests the solver's table answered without a search (not counted in `tests`).
    pub table_answers: u64,
    progress: &'a ExtractProgress,
}

/// Why a move is expected to give a small proof, smallest first: the owner's positions it adds
/// to the strategy as far as [`LOOKAHEAD`] moves show, then the seeds left (closer to the
/// checker's own minimax), then the most seeds stored.
type Cost = (usize, u32, i32);

/// How many moves ahead [`Chooser::added`] counts a move's cost, in the manner of proof
/// numbers: an owner's position costs one entry plus its cheapest move, the other side's
/// position the sum of its replies, and a position costs nothing when the check stops there
/// or the strategy already has its board for the need. Deeper counts give smaller
/// certificates for more extraction time; depth 4 is where the time starts to grow faster
/// than the files shrink.
const LOOKAHEAD: u32 = 4;

/// The budget of a move's first test in [`Chooser::choose`], in positions.
const QUICK_NODES: u64 = 10_000;

impl<'a, R: Solvable<Position = Position>> Chooser<'a, R> {
    /// A chooser for `half` (`name` is `"lower"` or `"upper"`, for errors) that keeps its
    /// moves in `choices`. `progress` is raised as positions are reached, boards given moves
    /// and tests searched.
    pub fn new(
        solver: &'a Solver<R>,
        limits: &'a Limits,
        half: Half,
        name: &'static str,
        choices: &'a Choices,
        progress: &'a ExtractProgress,
    ) -> Self {
        Chooser { solver, limits, half, name, choices, tests: 0, nodes: 0, table_answers: 0, progress }
    }

    /// The solver the tests are asked of.
    pub fn solver(&self) -> &'a Solver<R> {
        self.solver
    }

    /// The half whose moves are chosen.
    pub fn half(&self) -> Half {
        self.half
    }

    /// The moves chosen so far.
    pub fn choices(&self) -> &'a Choices {
        self.choices
    }

    /// A chooser of the same half for another thread: it shares this one's choices and counts
    /// its own work.
    pub fn fork(&self) -> Self {
        Chooser {
            solver: self.solver,
            limits: self.limits,
            half: self.half,
            name: self.name,
            choices: self.choices,
            tests: 0,
            nodes: 0,
            table_answers: 0,
            progress: self.progress,
        }
    }

    /// Adds the work of `other`, a fork of this chooser.
    pub fn add_work(&mut self, other: Chooser<'a, R>) {
        self.tests += other.tests;
        self.nodes += other.nodes;
        self.table_answers += other.table_answers;
    }

    /// The move to follow at `position` (the owner to move) for a future gain of at least
    /// `need`, or `None` if the board's move is already proven for that need or more.
    ///
    /// # Errors
    /// [`ExtractError::Stopped`] if a limit stopped a test, [`ExtractError::NotProven`] if no
    /// move meets the need.
    pub fn at_owner(&mut self, position: &Position, need: i32) -> Result<Option<u8>, ExtractError> {
        // Checked here too, not only in the searches: the table may answer every test of a
        // long extraction, which Ctrl-C must still stop.
        if self.limits.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            return Err(ExtractError::Stopped);
        }
        self.progress.reached();
        let board = board_key(self.solver.rules(), position);
        let kept = match self.choices.get(&board).map(|choice| *choice) {
            Some(choice) if choice.proven() >= need => return Ok(None),
            Some(choice) => {
                let step = self.solver.rules().play(position, choice.mv);
                self.guarantees(&step.next, need - step.gain)?.then_some(choice.mv)
            }
            None => None,
        };
        let mv = match kept {
            Some(mv) => mv,
            None => self.choose(position, need)?,
        };
        self.record(board, Choice::new(mv, need));
        Ok(Some(mv))
    }

    /// Keeps `choice` for `board` unless the board has one proven for a need as high or
    /// higher: another thread may have chosen for the board meanwhile, and the choice proven
    /// for the higher need stays, since its thread walks the board's subtree with that need.
    fn record(&self, board: BoardKey, choice: Choice) {
        match self.choices.entry(board) {
            Entry::Occupied(mut kept) if kept.get().proven < choice.proven => {
                kept.insert(choice);
            }
            Entry::Occupied(_) => {}
            Entry::Vacant(vacant) => {
                vacant.insert(choice);
                self.progress.entered();
            }
        }
    }

    /// Takes the moves of `turn` from `position` as the owner's choices if they meet `need`
    /// there on their own: each is a legal move of the owner with the owner to move, and after
    /// the last the stores alone meet what is still needed (the owner cannot end with less
    /// than losing every seed left). Returns whether they do; if not, nothing is taken.
    pub fn follow_turn(&mut self, position: &Position, need: i32, turn: &[u8]) -> bool {
        let rules = self.solver.rules();
        let mut taken = Vec::with_capacity(turn.len());
        let (mut at, mut need) = (*position, need);
        for &mv in turn {
            if at.mover() != self.half.owner || !rules.legal_moves(&at).as_slice().contains(&mv) {
                return false;
            }
            taken.push((board_key(rules, &at), Choice::new(mv, need)));
            let step = rules.play(&at, mv);
            (at, need) = (step.next, need - step.gain);
        }
        let proven = need <= -(rules.seeds_on_board(&at) as i32);
        if proven {
            for (board, choice) in taken {
                self.record(board, choice);
            }
        }
        proven
    }

    /// Whether the owner is sure of a future gain of `need` from `position` (either player to
    /// move), by one null-window test.
    ///
    /// # Errors
    /// [`ExtractError::Stopped`] if a limit stopped the test.
    pub fn guarantees(&mut self, position: &Position, need: i32) -> Result<bool, ExtractError> {
        self.test(position, need, None)?.ok_or(ExtractError::Stopped)
    }

    /// [`Chooser::guarantees`] within at most `nodes` positions (`None`: no budget of its
    /// own): `None` if the budget ran out first.
    ///
    /// # Errors
    /// [`ExtractError::Stopped`] if the extraction's own limits stopped the test.
    fn test(&mut self, position: &Position, need: i32, nodes: Option<u64>) -> Result<Option<bool>, ExtractError> {
        // The table often settles the test already: asking it costs no search and no hand-off
        // to the solver's helper threads, which dominates the many small tests of a big tree.
        if let Some(holds) = self.table_says(position, need) {
            self.table_answers += 1;
            return Ok(Some(holds));
        }
        let (bound, holds) = self.bound(position, need);
        let budget = nodes.map(|n| self.limits.nodes.map_or(n, |own| own.min(n)));
        let limits = Limits { nodes: budget.or(self.limits.nodes), ..self.limits.clone() };
        let answer = self.solver.prove_at_least_alone(position, bound, &limits);
        self.tests += 1;
        self.progress.tested();
        self.nodes += answer.nodes;
        match answer.holds {
            Some(h) => Ok(Some(h == holds)),
            None if nodes.is_some() && !self.limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) => Ok(None),
            None => Err(ExtractError::Stopped),
        }
    }

    /// The null-window test of "the owner is sure of `need` from `position`": the bound on the
    /// future gain of the player to move there, and whether "at least that bound" means yes.
    fn bound(&self, position: &Position, need: i32) -> (i32, bool) {
        // The other side's future gain is the owner's negated: "owner >= need" is "other < 1 - need".
        if position.mover() == self.half.owner {
            (need, true)
        } else {
            (1 - need, false)
        }
    }

    /// Whether the owner is sure of `need` from `position`, if the solver's table alone says.
    fn table_says(&self, position: &Position, need: i32) -> Option<bool> {
        let (bound, holds) = self.bound(position, need);
        let (lower, upper) = self.solver.table_bounds(position)?;
        (lower >= bound || upper < bound).then_some((lower >= bound) == holds)
    }

    /// The error saying that the owner cannot meet `need` at `position`.
    pub fn not_proven(&self, position: &Position, need: i32) -> ExtractError {
        let owner = self.half.owner;
        let stored = position.store(owner) as i32 - position.store(owner.other()) as i32;
        ExtractError::NotProven { half: self.name, owner, position: *position, needed: need + stored }
    }

    /// The cheapest-looking move that meets `need` at `position`. Right after a solve the table
    /// settles the moves its proof used at once, while a cheaper-looking move it did not use
    /// needs a new search of its own, which over millions of boards costs more than the solve:
    /// so the cheapest of the moves the table proves is taken if there is one. Else the moves
    /// in order of [`Cost`] until a test proves one, each first within [`QUICK_NODES`]; those
    /// not decided wait for a second round without budget, in case no move is settled quickly.
    fn choose(&mut self, position: &Position, need: i32) -> Result<u8, ExtractError> {
        let rules = self.solver.rules();
        let mut candidates: Vec<(u8, Step<Position>)> =
            rules.legal_moves(position).as_slice().iter().map(|&mv| (mv, rules.play(position, mv))).collect();
        let proven: Vec<(u8, Step<Position>)> =
            candidates.iter().filter(|(_, step)| self.table_says(&step.next, need - step.gain) == Some(true)).cloned().collect();
        if let Some(i) = self.cheapest(&proven, need) {
            self.table_answers += 1;
            return Ok(proven[i].0);
        }
        let mut undecided = Vec::new();
        while let Some(i) = self.cheapest(&candidates, need) {
            let (mv, step) = candidates.swap_remove(i);
            match self.test(&step.next, need - step.gain, Some(QUICK_NODES))? {
                Some(true) => return Ok(mv),
                Some(false) => {}
                None => undecided.push((mv, step)),
            }
        }
        while let Some(i) = self.cheapest(&undecided, need) {
            let (mv, step) = undecided.swap_remove(i);
            if self.guarantees(&step.next, need - step.gain)? {
                return Ok(mv);
            }
        }
        Err(self.not_proven(position, need))
    }

    /// The index of the candidate of least [`Cost`] (ties by move) where the owner needs
    /// `need`. Usually the first candidate is proven at once, so the costs are found by
    /// branch and bound: a candidate's count stops as soon as it cannot win.
    fn cheapest(&self, candidates: &[(u8, Step<Position>)], need: i32) -> Option<usize> {
        // One candidate needs no counting, and counting is most of a large extraction's time.
        if candidates.len() <= 1 {
            return (!candidates.is_empty()).then_some(0);
        }
        let rules = self.solver.rules();
        let mut best: Option<((Cost, u8), usize)> = None;
        for (i, (mv, step)) in candidates.iter().enumerate() {
            let cap = best.map_or(usize::MAX, |((cost, _), _)| cost.0 + 1);
            let added = self.added(&step.next, need - step.gain, LOOKAHEAD, cap);
            let cost = ((added, rules.seeds_on_board(&step.next), -step.gain), *mv);
            if best.is_none_or(|(least, _)| cost < least) {
                best = Some((cost, i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// Positions the check will add below `position` where the owner needs `need`, as far as
    /// `depth` more moves show: exact if below `cap`, else some number at least `cap`.
    fn added(&self, position: &Position, need: i32, depth: u32, cap: usize) -> usize {
        let rules = self.solver.rules();
        if self.half.settled(rules, position, need) {
            return 0;
        }
        let replies = rules.legal_moves(position);
        if replies.is_empty() {
            0
        } else if position.mover() == self.half.owner {
            let known = self.choices.get(&board_key(rules, position)).is_some_and(|c| c.proven() >= need);
            if known {
                0
            } else if depth == 0 || cap <= 1 {
                1
            } else {
                let mut best = cap - 1;
                for &mv in replies.as_slice() {
                    let step = rules.play(position, mv);
                    best = best.min(self.added(&step.next, need - step.gain, depth - 1, best));
                    if best == 0 {
                        break;
                    }
                }
                1 + best
            }
        } else if depth == 0 {
            replies.len()
        } else {
            let mut sum = 0;
            for &mv in replies.as_slice() {
                let step = rules.play(position, mv);
                sum += self.added(&step.next, need + step.gain, depth - 1, cap - sum);
                if sum >= cap {
                    break;
                }
            }
            sum
        }
    }
}
