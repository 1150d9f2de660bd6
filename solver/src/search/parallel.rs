//! Parallel search: every worker thread searches the same null window from the root, sharing
//! the transposition table, and a worker about to enter a position another worker is busy
//! with searches its other moves first (simplified ABDADA). The workers thereby split the
//! tree between them without any explicit work division, and whichever finishes first
//! answers for all: each answer is a proof, so the result does not depend on the number of
//! threads or on their timing.
//!
//! The calling thread is one of the workers; the others are *helpers* from the solver's pool
//! of `threads - 1`. Each test takes as many helpers as are idle and its [`Width`] allows,
//! asked as the test starts: a server running several searches on the machine's cores lets a
//! search that runs alone use all of them, and one of several only its own thread. A helper
//! is only started when a pool thread is free, so a test never waits for another search's.
//!
//! Two threads visit only a few per cent more nodes in all than one, split evenly between
//! them, so a second free core nearly halves a solve (`docs/benchmarks/code-notes.md`).

use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::alphabeta::Worker;
use super::budget::Budget;
use super::tt::hash;
use super::Solver;
use crate::peer_region::PeerRegion;
use crate::solvable::Solvable;
use crate::table_memory::{Memory, TableMemory};

/// The positions some worker is searching right now, by hash. Only a hint for scheduling: a
/// collision or a lost update merely changes the order in which moves are searched.
/// Its memory may be lent from outside ([`TableMemory`]), so that processes searching the
/// same tree (MPI ranks on one node) defer to each other as threads do.
pub(crate) struct Busy {
    slots: Memory,
}

const BUSY_SLOTS: usize = 1 << 14;

impl Busy {
    /// An empty table, in memory from `lender` when given.
    pub fn new(lender: Option<&dyn TableMemory>) -> Self {
        Busy { slots: Memory::zeroed(BUSY_SLOTS * std::mem::size_of::<AtomicU64>(), lender) }
    }

    fn slot<K: Hash>(&self, key: &K) -> (usize, &AtomicU64, u64) {
        let h = hash(key) | 1;
        let index = (h >> 32) as usize & (BUSY_SLOTS - 1);
        // SAFETY: the region holds BUSY_SLOTS words, aligned, zeroed at first (all free).
        (index, unsafe { &*(self.slots.as_ptr() as *const AtomicU64).add(index) }, h)
    }

    /// The marks' copies when they live on another node: node 0 keeps the marks of a cluster,
    /// so that the workers of every node defer to each other.
    fn remote(&self) -> Option<&dyn PeerRegion> {
        self.slots.peers().filter(|p| p.node() != 0)
    }

    /// Whether another worker is searching `key`.
    #[inline]
    pub fn is_busy<K: Hash>(&self, key: &K) -> bool {
        let (index, slot, h) = self.slot(key);
        match self.remote() {
            Some(peers) => {
                let mut word = [0];
                peers.read(0, index, &mut word);
                word[0] == h
            }
            None => slot.load(Ordering::Relaxed) == h,
        }
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn enter<K: Hash>(&self, key: &K) {
        let (index, slot, h) = self.slot(key);
        match self.remote() {
            Some(peers) => {
                let mut word = [0];
                peers.read(0, index, &mut word);
                peers.replace(0, index, word[0], h);
            }
            None => slot.store(h, Ordering::Relaxed),
        }
    }

    /// Clears the mark of `key` (if no other position took its slot since).
    #[inline]
    pub fn leave<K: Hash>(&self, key: &K) {
        let (index, slot, h) = self.slot(key);
        match self.remote() {
            Some(peers) => peers.replace(0, index, h, 0),
            None => {
                let _ = slot.compare_exchange(h, 0, Ordering::Relaxed, Ordering::Relaxed);
            }
        }
    }
}

/// How many threads (the caller's included) one null-window test may use, asked as it starts;
/// see [`crate::search::Solver::with_width`].
pub type Width = Arc<dyn Fn() -> usize + Send + Sync>;

/// The solver's idle helper threads and the width that limits how many a test takes.
pub(crate) struct Helpers {
    idle: AtomicUsize,
    width: Option<Width>,
}

impl Helpers {
    /// `pool` idle helpers, every one of them taken by each test unless `width` says fewer.
    pub fn new(pool: usize, width: Option<Width>) -> Self {
        Helpers { idle: AtomicUsize::new(pool), width }
    }

    /// Takes the helpers a test may use now (none when all are busy with other searches).
    fn claim(&self) -> usize {
        let wanted = self.width.as_ref().map_or(usize::MAX, |width| width().saturating_sub(1));
        let before = self.idle.fetch_update(Ordering::AcqRel, Ordering::Acquire, |idle| Some(idle - idle.min(wanted)));
        before.map_or(0, |idle| idle.min(wanted))
    }

    /// Gives back helpers that `claim` took, once their work has ended.
    fn release(&self, helpers: usize) {
        self.idle.fetch_add(helpers, Ordering::AcqRel);
    }

    /// Replaces the width.
    pub fn set_width(&mut self, width: Width) {
        self.width = Some(width);
    }
}

/// Whether the future gain of `pos` is at least `target`: the null-window search
/// `(target - 1, target)` on the calling thread and the helpers it may take. Returns the fail-soft value (`>= target`
/// with the move that proved it, or `< target`), or `None` if the budget ran out first.
pub(crate) fn null_window<R: Solvable>(solver: &Solver<R>, pos: &R::Position, target: i32, budget: &Budget) -> Option<(i32, Option<u8>)> {
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
    let helpers = solver.pool.as_ref().map_or(0, |_| solver.helpers.claim());
    match &solver.pool {
        Some(pool) if helpers > 0 => pool.in_place_scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|_| work(true));
            }
            work(true);
        }),
        _ => work(solver.in_company),
    }
    solver.helpers.release(helpers);
    answer.into_inner().unwrap_or_else(|e| e.into_inner())
}
