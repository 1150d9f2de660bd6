//! What one call of the solver may still spend: nodes counted across its worker threads,
//! checked against the [`Limits`] every few thousand nodes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::Limits;

/// Nodes a worker visits between two looks at the limits.
pub(crate) const CHECK_EVERY: u64 = 4096;

/// The spending of one solver call.
pub(crate) struct Budget<'a> {
    limits: &'a Limits,
    started: Instant,
    nodes: AtomicU64,
    exhausted: AtomicBool,
}

impl<'a> Budget<'a> {
    /// A fresh budget starting now.
    pub fn new(limits: &'a Limits) -> Self {
        Budget { limits, started: Instant::now(), nodes: AtomicU64::new(0), exhausted: AtomicBool::new(false) }
    }

    /// Adds `nodes` visited and says whether the search may go on.
    pub fn charge(&self, nodes: u64) -> bool {
        let total = self.nodes.fetch_add(nodes, Ordering::Relaxed) + nodes;
        let out = self.limits.nodes.is_some_and(|limit| total >= limit)
            || self.limits.time.is_some_and(|time| self.started.elapsed() >= time)
            || self.limits.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed));
        if out {
            self.exhausted.store(true, Ordering::Relaxed);
        }
        !self.is_exhausted()
    }

    /// Whether a limit has been reached: every later search stops at once.
    pub fn is_exhausted(&self) -> bool {
        self.exhausted.load(Ordering::Relaxed)
    }

    /// Nodes the node limit still allows (`None`: no node limit).
    pub fn nodes_left(&self) -> Option<u64> {
        self.limits.nodes.map(|limit| limit.saturating_sub(self.nodes()))
    }

    /// Nodes charged so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// When the call started.
    pub fn started(&self) -> Instant {
        self.started
    }
}
