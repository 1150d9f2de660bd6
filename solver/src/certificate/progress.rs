//! How far an extraction has come, readable from another thread while it runs (a progress bar).

use std::sync::atomic::{AtomicU64, Ordering};

/// Counters of a running extraction, raised as it goes; any thread may read them.
#[derive(Debug, Default)]
pub struct ExtractProgress {
    /// Positions of a half's owner the walk has reached (a board reached along several lines
    /// counts each time).
    positions: AtomicU64,
    /// Boards given a move so far, both halves (some are dropped by the final pass).
    entries: AtomicU64,
    /// Null-window tests the solver searched.
    tests: AtomicU64,
}

impl ExtractProgress {
    /// Owner's positions reached so far.
    pub fn positions(&self) -> u64 {
        self.positions.load(Ordering::Relaxed)
    }

    /// Boards given a move so far.
    pub fn entries(&self) -> u64 {
        self.entries.load(Ordering::Relaxed)
    }

    /// Tests searched so far.
    pub fn tests(&self) -> u64 {
        self.tests.load(Ordering::Relaxed)
    }

    pub(super) fn reached(&self) {
        self.positions.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn entered(&self) {
        self.entries.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn tested(&self) {
        self.tests.fetch_add(1, Ordering::Relaxed);
    }
}
