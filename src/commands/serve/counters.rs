//! What the server has done since it started, for `/api/status`: how analyses were answered.

use std::sync::atomic::{AtomicU64, Ordering};

/// Counts of analysis requests by how they were answered.
#[derive(Default)]
pub struct Counters {
    /// Searches started.
    pub searches: AtomicU64,
    /// Searches stopped early: every client waiting for them went away, or the server stopped.
    pub cancelled: AtomicU64,
    /// Requests that joined an identical search already in flight.
    pub shared: AtomicU64,
    /// Requests answered from the cache.
    pub cached: AtomicU64,
    /// Requests answered from the results database alone.
    pub from_database: AtomicU64,
    /// Results database reads or writes that failed, and results it refused as contradicting.
    pub db_errors: AtomicU64,
    /// Requests refused because the search slots and the queue were full.
    pub refused: AtomicU64,
}

impl Counters {
    /// Adds one to `counter`.
    pub fn count(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// The counts as JSON.
    pub fn json(&self) -> serde_json::Value {
        let read = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        serde_json::json!({
            "searches": read(&self.searches),
            "cancelled": read(&self.cancelled),
            "shared": read(&self.shared),
            "cached": read(&self.cached),
            "refused": read(&self.refused),
            "from_database": read(&self.from_database),
            "db_errors": read(&self.db_errors),
        })
    }
}
