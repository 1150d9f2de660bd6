//! Parallel search: every worker thread searches the same null window from the root, sharing
//! the transposition table, and a worker about to enter a position another worker is busy
//! with searches its other moves first (simplified ABDADA). The workers thereby split the
//! tree between them without any explicit work division, and whichever finishes first
//! answers for all: each answer is a proof, so the result does not depend on the number of
//! threads or on their timing.
//!
//! Measured on 5 random 7 x 7 middle games: 2 threads visit 6% more nodes in all than 1
//! thread, split evenly between them, so on two free cores a solve takes about 0.53 times as
//! long (the shared 2-core machine of this project gave noisy wall-clock times; rerun
//! `scripts/bench-solve` on a quiet one).

use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use super::alphabeta::Worker;
use super::budget::Budget;
use super::tt::hash;
use super::Solver;
use crate::rules::Rules;

/// The positions some worker is searching right now, by hash. Only a hint for scheduling: a
/// collision or a lost update merely changes the order in which moves are searched.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

const BUSY_SLOTS: usize = 1 << 14;

impl Busy {
    /// An empty table.
    pub fn new() -> Self {
        Busy { slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    fn slot<K: Hash>(&self, key: &K) -> (&AtomicU64, u64) {
        let h = hash(key) | 1;
        (&self.slots[(h >> 32) as usize & (BUSY_SLOTS - 1)], h)
    }

    /// Whether another worker is searching `key`.
    #[inline]
    pub fn is_busy<K: Hash>(&self, key: &K) -> bool {
        let (slot, h) = self.slot(key);
        slot.load(Ordering::Relaxed) == h
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn enter<K: Hash>(&self, key: &K) {
        let (slot, h) = self.slot(key);
        slot.store(h, Ordering::Relaxed);
    }

    /// Clears the mark of `key` (if no other position took its slot since).
    #[inline]
    pub fn leave<K: Hash>(&self, key: &K) {
        let (slot, h) = self.slot(key);
        let _ = slot.compare_exchange(h, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Whether the future gain of `pos` is at least `target`: the null-window search
/// `(target - 1, target)` on every worker of the solver. Returns the fail-soft value (`>= target`
/// with the move that proved it, or `< target`), or `None` if the budget ran out first.
pub(crate) fn null_window<R: Rules>(solver: &Solver<R>, pos: &R::Position, target: i32, budget: &Budget) -> Option<(i32, Option<u8>)> {
    if !budget.charge(0) {
        return None;
    }
    let abort = AtomicBool::new(false);
    let answer = Mutex::new(None);
    let work = |shared: bool| {
        let mut worker = Worker::new(solver, budget, &abort, shared);
        let result = worker.search(pos, target - 1, target, 0);
        worker.flush();
        if !worker.stopped() {
            answer.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(result);
            abort.store(true, Ordering::Relaxed);
        }
    };
    match &solver.pool {
        Some(pool) => {
            pool.broadcast(|_| work(true));
        }
        None => work(false),
    }
    answer.into_inner().unwrap_or_else(|e| e.into_inner())
}
