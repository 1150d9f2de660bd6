//! Recent exact answers, least recently used dropped first. Only exact answers are kept: they
//! hold whatever the time limit, while bounds cut by a limit would improve if asked again (the
//! transposition table keeps what the first search proved).

use std::hash::Hash;
use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;

/// A small thread-safe LRU cache.
pub struct AnswerCache<K: Hash + Eq, V> {
    entries: Option<Mutex<LruCache<K, V>>>,
}

impl<K: Hash + Eq, V: Clone> AnswerCache<K, V> {
    /// A cache of at most `capacity` answers (0: no cache).
    pub fn new(capacity: usize) -> Self {
        AnswerCache { entries: NonZeroUsize::new(capacity).map(|capacity| Mutex::new(LruCache::new(capacity))) }
    }

    /// The answer kept for `key`, if any (it becomes the most recently used).
    pub fn get(&self, key: &K) -> Option<V> {
        self.entries.as_ref()?.lock().unwrap_or_else(|e| e.into_inner()).get(key).cloned()
    }

    /// Keeps `answer` for `key`, dropping the least recently used answer if full.
    pub fn put(&self, key: K, answer: V) {
        if let Some(entries) = &self.entries {
            entries.lock().unwrap_or_else(|e| e.into_inner()).put(key, answer);
        }
    }

    /// Answers kept now.
    pub fn len(&self) -> usize {
        self.entries.as_ref().map_or(0, |entries| entries.lock().unwrap_or_else(|e| e.into_inner()).len())
    }
}

#[cfg(test)]
mod tests {
    use super::AnswerCache;

    #[test]
    fn the_least_recently_used_answer_goes_first() {
        let cache = AnswerCache::new(2);
        cache.put("a", 1);
        cache.put("b", 2);
        assert_eq!(cache.get(&"a"), Some(1));
        cache.put("c", 3);
        assert_eq!((cache.get(&"a"), cache.get(&"b"), cache.get(&"c")), (Some(1), None, Some(3)));
        let none: AnswerCache<&str, i32> = AnswerCache::new(0);
        none.put("a", 1);
        assert_eq!((none.get(&"a"), none.len()), (None, 0));
    }
}
