//! The search slots: at most `slots` searches run at once, at most `queue` more wait for a
//! slot, and beyond that a search is refused at once (the server answers 503) rather than
//! piling up.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use dakon_solver::search::Width;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::api_error::ApiError;

/// A bounded pool of search slots with a bounded wait queue.
pub struct SearchPool {
    slots: Arc<Semaphore>,
    size: usize,
    waiting: AtomicUsize,
    queue: usize,
}

/// The right to run one search; the slot is free again when it is dropped.
pub type Slot = OwnedSemaphorePermit;

impl SearchPool {
    /// A pool of `size` slots (at least 1) and room for `queue` waiting searches.
    pub fn new(size: usize, queue: usize) -> SearchPool {
        let size = size.max(1);
        SearchPool { slots: Arc::new(Semaphore::new(size)), size, waiting: AtomicUsize::new(0), queue }
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.size - self.slots.available_permits()
    }

    /// Searches waiting for a slot now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Slots in all.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The threads each running search may use, as a solver's [`Width`]: the slots shared
    /// evenly between the searches running (a search alone uses them all, each of a full
    /// pool its own). Asked as each null-window test starts, so a search that began alone
    /// gives its helpers back at its next test once others start.
    pub fn fair_width(&self) -> Width {
        let (slots, size) = (self.slots.clone(), self.size);
        Arc::new(move || size / (size - slots.available_permits()).max(1))
    }

    /// Places in the wait queue.
    pub fn queue(&self) -> usize {
        self.queue
    }

    /// A slot: at once if one is free, else after waiting in the queue.
    ///
    /// # Errors
    /// [`ApiError::Busy`] at once if the queue is full.
    pub async fn acquire(&self) -> Result<Slot, ApiError> {
        if let Ok(slot) = self.slots.clone().try_acquire_owned() {
            return Ok(slot);
        }
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= self.queue {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(ApiError::Busy { running: self.running(), waiting: self.waiting() });
        }
        // Leaves the queue however the wait ends, also when the waiting future is dropped.
        let _in_queue = LeaveQueue(&self.waiting);
        self.slots.clone().acquire_owned().await.map_err(|_| ApiError::ShuttingDown)
    }
}

/// Takes one waiting search off the count when dropped.
struct LeaveQueue<'a>(&'a AtomicUsize);

impl Drop for LeaveQueue<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::SearchPool;
    use crate::commands::serve::api_error::ApiError;

    #[tokio::test]
    async fn a_search_alone_may_use_every_slot_and_each_of_a_full_pool_its_own() {
        let pool = SearchPool::new(2, 1);
        let width = pool.fair_width();
        let first = pool.acquire().await.unwrap();
        assert_eq!(width(), 2);
        let second = pool.acquire().await.unwrap();
        assert_eq!(width(), 1);
        drop(first);
        assert_eq!(width(), 2);
        drop(second);
    }

    #[tokio::test]
    async fn searches_beyond_the_slots_and_the_queue_are_refused_and_the_queue_empties_again() {
        let pool = std::sync::Arc::new(SearchPool::new(1, 1));
        let running = pool.acquire().await.unwrap();
        let waiter = tokio::spawn({
            let pool = pool.clone();
            async move { pool.acquire().await.map(drop) }
        });
        while pool.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(pool.acquire().await.unwrap_err(), ApiError::Busy { running: 1, waiting: 1 });
        drop(running);
        waiter.await.unwrap().unwrap();
        assert_eq!((pool.running(), pool.waiting()), (0, 0));
        // A waiter that gives up leaves the queue.
        let running = pool.acquire().await.unwrap();
        let gives_up = tokio::time::timeout(std::time::Duration::from_millis(10), pool.acquire()).await;
        assert!(gives_up.is_err());
        assert_eq!(pool.waiting(), 0);
        drop(running);
    }
}
