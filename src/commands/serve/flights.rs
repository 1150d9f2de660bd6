//! Work in flight, shared: identical requests that arrive while the first is still being
//! answered wait for the same answer instead of starting the same search again, and the work
//! is cancelled when every one of them has gone away.
//!
//! Each requester holds an `Arc` of the [`Flight`]; the table holds only a `Weak`. When the last
//! requester drops its `Arc` (its client hung up, so axum dropped the request's future), the
//! flight's drop guard cancels the work's token.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, Weak};

use tokio::sync::watch;
use tokio_util::sync::{CancellationToken, DropGuard};

/// The table of work in flight, by key.
pub struct Flights<K, V> {
    table: Mutex<HashMap<K, Weak<Flight<V>>>>,
}

/// One piece of work in flight, as its requesters see it.
pub struct Flight<V> {
    answer: watch::Receiver<Option<V>>,
    _cancel_when_unwanted: DropGuard,
}

/// What a requester does after [`Flights::join`].
pub enum Joined<V> {
    /// Nobody was doing this work: the requester must start it and deliver its answer.
    Started { flight: Arc<Flight<V>>, work: Work<V> },
    /// The work is already under way: wait for it.
    Shared(Arc<Flight<V>>),
}

/// The duty of doing one piece of work: deliver its answer, or stop when `cancelled` fires.
pub struct Work<V> {
    sender: watch::Sender<Option<V>>,
    flight: Weak<Flight<V>>,
    /// Cancelled when every requester has gone, or when the parent token is (shutdown).
    pub cancelled: CancellationToken,
}

impl<V: Clone> Work<V> {
    /// Hands `answer` to every requester still waiting.
    pub fn deliver(self, answer: V) {
        self.sender.send_replace(Some(answer));
    }
}

impl<V: Clone> Flight<V> {
    /// The answer, once delivered; `None` if the work ended without one.
    pub async fn answer(&self) -> Option<V> {
        let mut answer = self.answer.clone();
        let delivered = answer.wait_for(Option::is_some).await.ok()?;
        delivered.clone()
    }
}

impl<K: Eq + Hash + Clone, V: Clone> Flights<K, V> {
    /// An empty table.
    pub fn new() -> Self {
        Flights { table: Mutex::new(HashMap::new()) }
    }

    /// Joins the work of `key` if it is in flight, else registers it as started: its token is
    /// a child of `parent`.
    pub fn join(&self, key: &K, parent: &CancellationToken) -> Joined<V> {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(flight) = table.get(key).and_then(Weak::upgrade) {
            return Joined::Shared(flight);
        }
        let (sender, answer) = watch::channel(None);
        let cancelled = parent.child_token();
        let flight = Arc::new(Flight { answer, _cancel_when_unwanted: cancelled.clone().drop_guard() });
        table.insert(key.clone(), Arc::downgrade(&flight));
        let work = Work { sender, flight: Arc::downgrade(&flight), cancelled };
        Joined::Started { flight, work }
    }

    /// Forgets the work of `key` (when it is done): later requests start afresh. Only removes
    /// the entry if it is this work's, not a newer one's.
    pub fn finish(&self, key: &K, work: &Work<V>) {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if table.get(key).is_some_and(|entry| entry.ptr_eq(&work.flight)) {
            table.remove(key);
        }
    }

    /// Pieces of work in flight now.
    pub fn len(&self) -> usize {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).values().filter(|weak| weak.strong_count() > 0).count()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tokio_util::sync::CancellationToken;

    use super::{Flight, Flights, Joined, Work};

    type Requesters = (Arc<Flight<String>>, Work<String>, Arc<Flight<String>>);

    /// Two requests for the work of `key`: the first starts it, the second shares it.
    fn two_requests(flights: &Flights<u32, String>, key: u32, root: &CancellationToken) -> Requesters {
        let Joined::Started { flight: first, work } = flights.join(&key, root) else { panic!("nothing was in flight") };
        let Joined::Shared(second) = flights.join(&key, root) else { panic!("the first is in flight") };
        (first, work, second)
    }

    #[tokio::test]
    async fn a_second_request_shares_the_first_ones_answer() {
        let flights = Flights::new();
        let root = CancellationToken::new();
        let (first, work, second) = two_requests(&flights, 1, &root);
        assert!(matches!(flights.join(&2, &root), Joined::Started { .. }), "another key is other work");
        flights.finish(&1, &work);
        work.deliver("answer".to_string());
        assert_eq!(first.answer().await.as_deref(), Some("answer"));
        assert_eq!(second.answer().await.as_deref(), Some("answer"));
        assert!(matches!(flights.join(&1, &root), Joined::Started { .. }), "finished work is not joined");
    }

    #[tokio::test]
    async fn work_is_cancelled_when_every_requester_has_gone_or_at_shutdown() {
        let flights = Flights::new();
        let root = CancellationToken::new();
        let (first, work, second) = two_requests(&flights, 1, &root);
        drop(first);
        assert!(!work.cancelled.is_cancelled(), "one requester still waits");
        drop(second);
        assert!(work.cancelled.is_cancelled());
        assert_eq!(flights.len(), 0);

        let Joined::Started { flight: _kept, work } = flights.join(&3, &root) else { panic!("nothing was in flight") };
        root.cancel();
        assert!(work.cancelled.is_cancelled());
    }
}
