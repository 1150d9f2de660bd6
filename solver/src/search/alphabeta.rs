//! The alpha-beta search of one worker thread, on future gains.
//!
//! # The return-value contract of [`Worker::search`]
//!
//! With a window `(alpha, beta)`, `alpha < beta`, the search of a position with `k` seeds on
//! the board returns a value `v` with `-k <= v <= k` and:
//! - `alpha < v < beta`: `v` is the exact future gain;
//! - `v >= beta`: the future gain is at least `v` (fail high, a lower bound);
//! - `v <= alpha`: the future gain is at most `v` (fail low, an upper bound).
//!
//! A move earning `gain` leads to a child whose value counts for the mover as it is after an
//! extra move (`same_mover`), and negated otherwise, so the child's window is
//! `(alpha - gain, beta - gain)` with `v = gain + child` on a same-mover edge, and
//! `(-(beta - gain), -(alpha - gain))` with `v = gain - child` otherwise. A child with `c` seeds
//! on the board is worth at most `gain + c` to the mover, which cuts moves that cannot reach
//! `alpha` without searching them. A future gain has the parity of the seeds on the board, so
//! every bound returned or stored is rounded to that parity (an upper bound down, a lower
//! bound up).
//!
//! A worker that sees its abort flag (a limit ran out, or another worker finished the same
//! search first) unwinds at once, stores nothing on the way, and its result is meaningless.

use std::sync::atomic::{AtomicBool, Ordering};

use super::budget::{Budget, CHECK_EVERY};
use super::ordering::{Child, Children, History};
use super::tt::{Bounds, Slot};
use super::Solver;
use crate::rules::{parity_ceil, parity_floor, MoveList};
use crate::solvable::Solvable;

/// Deferral of moves another worker is busy with applies to nodes this close to the root:
/// deeper, two threads visit more nodes in all than with this cut-off.
const DEFER_PLY: u32 = 10;

/// The largest table (its compact part and the wide sixteenth beside it) whose children's
/// buckets are asked for one by one as they are played (see [`Worker::search_at`]): that of
/// `--tt-mb 512`, 544 MiB, is below it, that of 1024 above.
const EARLY_PREFETCH_BYTES: usize = 1 << 30;

/// One thread's search state.
pub(crate) struct Worker<'s, R: Solvable> {
    solver: &'s Solver<R>,
    budget: &'s Budget<'s>,
    abort: &'s AtomicBool,
    /// Whether other workers search the same tree (then moves they are busy with are deferred).
    shared: bool,
    /// Nodes visited by this worker.
    visited: u64,
    /// Nodes not yet charged to the budget.
    pending: u64,
    history: History,
    stopped: bool,
    /// Whether the table is small enough that each child's bucket is asked for as soon as
    /// the child is played ([`EARLY_PREFETCH_BYTES`]); fixed with the table.
    prefetch_at_play: bool,
}

impl<'s, R: Solvable> Worker<'s, R> {
    /// A worker for `solver`, charging `budget` and stopping when `abort` is raised.
    pub fn new(solver: &'s Solver<R>, budget: &'s Budget<'s>, abort: &'s AtomicBool, shared: bool) -> Self {
        let prefetch_at_play = solver.table.bytes() <= EARLY_PREFETCH_BYTES;
        Worker { solver, budget, abort, shared, visited: 0, pending: 0, history: History::new(), stopped: false, prefetch_at_play }
    }

    /// Whether the worker was stopped: its last result means nothing.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Charges the nodes not yet counted to the budget.
    pub fn flush(&mut self) {
        self.budget.charge(std::mem::take(&mut self.pending));
    }

    #[inline]
    fn visit(&mut self) {
        self.visited += 1;
        self.pending += 1;
        if self.pending >= CHECK_EVERY {
            self.pending = 0;
            if !self.budget.charge(CHECK_EVERY) {
                self.abort.store(true, Ordering::Relaxed);
            }
            self.solver.table.charge(CHECK_EVERY);
        }
        if self.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// The future gain of `pos` under the contract in the [module documentation](self), with
    /// the move that achieved it when it is exact or a fail high (and known).
    pub fn search(&mut self, pos: &R::Position, alpha: i32, beta: i32, ply: u32) -> (i32, Option<u8>) {
        self.search_at(pos, None, alpha, beta, ply)
    }

    /// [`Worker::search`], given the board's table slot when the parent has worked it out
    /// already (to ask for its bucket early), so that it is not worked out twice.
    fn search_at(&mut self, pos: &R::Position, slot: Option<Slot>, alpha: i32, beta: i32, ply: u32) -> (i32, Option<u8>) {
        debug_assert!(alpha < beta);
        self.visit();
        if self.stopped {
            return (0, None);
        }
        let solver = self.solver;
        let rules = &solver.rules;
        let moves = rules.legal_moves(pos);
        if moves.is_empty() {
            return (rules.terminal_gain(pos), None);
        }
        let k = rules.seeds_on_board(pos) as i32;
        if alpha >= k {
            return (k, None);
        }
        if beta <= -k {
            return (-k, None);
        }
        if let Some(oracle) = &solver.oracle {
            if k as u32 <= oracle.max_seeds() {
                if let Some(v) = oracle.probe(pos) {
                    return (v, None);
                }
            }
        }
        let slot = slot.unwrap_or_else(|| solver.table.slot_with_seeds(rules, pos, k as u32));
        let stored = solver.table.probe(&slot);
        let (mut lower, mut upper, mut tt_move) = (-k, k, None);
        if let Some(b) = stored {
            (lower, upper, tt_move) = (b.lower as i32, b.upper as i32, b.mv);
            if lower >= beta || lower == upper {
                return (lower, tt_move);
            }
            if upper <= alpha {
                return (upper, None);
            }
        }
        let (alpha, beta) = (alpha.max(lower), beta.min(upper));
        // Each child's table line (its bucket, or its line in the endgame tables) is asked for
        // while the children are played. A child the tables cover gets no slot: its search asks
        // the tables first (and works the slot out itself if its tier is not loaded yet).
        // A small table's buckets are asked for as soon as each child is played, so that the
        // first is in the cache by the time its search reads it; a large table's together once
        // the last child is played. A prefetch may wait for its address
        // translation, short while the page tables of the table stay in the cache and long
        // beyond: spread out, long waits add up; together, they overlap.
        let mut children = Children::empty();
        let mut slots = [None; MoveList::CAPACITY];
        let oracle = solver.oracle.as_deref();
        let max = oracle.map_or(0, |o| o.max_seeds());
        let at_once = self.prefetch_at_play;
        children.play(rules, pos, &moves, tt_move, Some(&self.history), |i, step| {
            let seeds = rules.seeds_on_board(&step.next);
            match oracle {
                Some(oracle) if seeds <= max => oracle.prefetch(&step.next),
                _ => {
                    let slot = solver.table.slot_with_seeds(rules, &step.next, seeds);
                    if at_once {
                        solver.table.prefetch(&slot);
                    }
                    slots[i] = Some(slot);
                }
            }
        });
        if !at_once {
            for slot in slots[..children.len()].iter().flatten() {
                solver.table.prefetch(slot);
            }
        }
        // The children the endgame tables cover are valued from their lines, fetched together:
        // one that refutes the parent saves searching the others, and the rest are not
        // searched. The transposition table's bounds of the other children are not read here
        // (an enhanced transposition cutoff): each child reads its own when it is searched.
        // Waiting on every child's bucket cost more time than the nodes it saved
        // (`docs/benchmarks/code-notes.md`).
        let mut tabled = [None; MoveList::CAPACITY];
        if let Some((v, mv)) = self.tables_cutoff(&children, beta, &slots, &mut tabled) {
            let v = parity_ceil(v, k as u32);
            solver.table.store(&slot, Bounds { lower: v as i16, upper: upper as i16, mv: Some(mv), work: 0 });
            return (v, Some(mv));
        }
        let visited_before = self.visited;
        let mut best = i32::MIN;
        let mut best_move = None;
        // The children (by play index) in search order, then those deferred because another
        // worker was busy with them (searched on their second visit whatever the other workers
        // do).
        let count = children.len();
        let mut queue = [0u8; 2 * MoveList::CAPACITY];
        queue[..count].copy_from_slice(children.order());
        let (mut next, mut queued) = (0, count);
        let defer = self.shared && ply < DEFER_PLY;
        while next < queued {
            let (index, first_visit) = (queue[next] as usize, next < count);
            let child = children.played(index);
            next += 1;
            let floor = alpha.max(best);
            let ceiling = child.step.gain + rules.seeds_on_board(&child.step.next) as i32;
            if ceiling <= floor {
                best = best.max(ceiling);
                continue;
            }
            // The tables' value, read by the cutoff above: no search (nor a node) needed.
            let v = match tabled[index] {
                Some(exact) => child.value(exact),
                None => {
                    let child_key = (defer && first_visit).then(|| rules.key(&child.step.next));
                    if let Some(child_key) = &child_key {
                        if next > 1 && solver.busy.is_busy(child_key) {
                            queue[queued] = queue[next - 1];
                            queued += 1;
                            continue;
                        }
                        solver.busy.enter(child_key);
                    }
                    let v = self.child_value(child, slots[index], floor, beta, ply);
                    if let Some(child_key) = &child_key {
                        solver.busy.leave(child_key);
                    }
                    if self.stopped {
                        return (0, None);
                    }
                    v
                }
            };
            if v > best {
                (best, best_move) = (v, Some(child.mv));
                if v >= beta {
                    self.history.reward(child.mv, k as u32);
                    break;
                }
            }
        }
        // A bound of the wrong parity is one short of the truth (see `crate::rules`).
        if best >= beta {
            best = parity_ceil(best, k as u32);
            (lower, tt_move) = (best, best_move);
        } else if best <= alpha {
            best = parity_floor(best, k as u32);
            upper = best;
            best_move = None;
        } else {
            debug_assert_eq!(best, parity_floor(best, k as u32), "an exact future gain has the parity of the seeds");
            (lower, upper, tt_move) = (best, best, best_move);
        }
        let work = (64 - (self.visited - visited_before).leading_zeros()) as u8;
        solver.table.store(&slot, Bounds { lower: lower as i16, upper: upper as i16, mv: tt_move, work });
        (best, best_move)
    }

    /// The endgame tables' cutoff: a child whose exact value in the tables lifts the node to
    /// `beta` or more, with its value and move. `slots` holds each child's table slot (by
    /// play index), none for a child the tables cover. Each value the tables gave (for the
    /// children before the cutoff) is left in `tabled`, for the search of the children.
    fn tables_cutoff(
        &self,
        children: &Children<R::Position>,
        beta: i32,
        slots: &[Option<Slot>; MoveList::CAPACITY],
        tabled: &mut [Option<i32>; MoveList::CAPACITY],
    ) -> Option<(i32, u8)> {
        let oracle = self.solver.oracle.as_deref()?;
        children.order().iter().find_map(|&i| {
            let (i, child) = (i as usize, children.played(i as usize));
            // A child without a slot is one the tables cover.
            let exact = if slots[i].is_none() { oracle.probe(&child.step.next) } else { None };
            tabled[i] = exact;
            let v = child.value(exact?);
            (v >= beta).then_some((v, child.mv))
        })
    }

    /// The value for the mover of playing `child` (whose table slot is `slot`, if the parent
    /// worked it out), searched with window `(floor, beta)` under the same contract.
    #[inline]
    fn child_value(&mut self, child: &Child<R::Position>, slot: Option<Slot>, floor: i32, beta: i32, ply: u32) -> i32 {
        let gain = child.step.gain;
        if child.step.same_mover {
            gain + self.search_at(&child.step.next, slot, floor - gain, beta - gain, ply + 1).0
        } else {
            gain - self.search_at(&child.step.next, slot, gain - beta, gain - floor, ply + 1).0
        }
    }
}
