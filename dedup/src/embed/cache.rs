//! A bounded cache from a word to its piece ids, one per thread and model.
//!
//! Thread-local, so threads embedding at once never share a cache line (a shared, locked map
//! did not scale to two cores). Each thread keeps the caches of its last few models, told apart
//! by a number given to every model when it is built. A full cache is cleared rather than evicted
//! entry by entry: simple, and bounded. The hasher is a fixed multiply-rotate hash: no random
//! keys, so no randomness, and the cache's contents never change a result anyway.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

type Map = HashMap<Box<str>, Box<[u32]>, BuildHasherDefault<WordHasher>>;

/// How many models' caches a thread keeps.
const MODELS_PER_THREAD: usize = 4;

static NEXT_MODEL: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static CACHES: RefCell<Vec<(u64, Map)>> = const { RefCell::new(Vec::new()) };
}

/// A model's handle on its per-thread caches.
#[derive(Debug)]
pub(super) struct WordCache {
    model: u64,
    capacity: usize,
}

impl WordCache {
    /// Caches of at most `capacity` words per thread; 0 disables them.
    pub(super) fn new(capacity: usize) -> Self {
        Self { model: NEXT_MODEL.fetch_add(1, Ordering::Relaxed), capacity }
    }

    /// Runs `f` with this thread's cache for this model.
    pub(super) fn with<R>(&self, f: impl FnOnce(&mut LocalCache<'_>) -> R) -> R {
        if self.capacity == 0 {
            return f(&mut LocalCache { map: None, capacity: 0 });
        }
        CACHES.with_borrow_mut(|caches| {
            let at = match caches.iter().position(|(model, _)| *model == self.model) {
                Some(at) => at,
                None => {
                    if caches.len() == MODELS_PER_THREAD {
                        caches.remove(0);
                    }
                    caches.push((self.model, Map::default()));
                    caches.len() - 1
                }
            };
            f(&mut LocalCache { map: Some(&mut caches[at].1), capacity: self.capacity })
        })
    }
}

/// One thread's cache for one model.
pub(super) struct LocalCache<'a> {
    map: Option<&'a mut Map>,
    capacity: usize,
}

impl LocalCache<'_> {
    /// Calls `use_ids` with the word's ids, computing them with `compute` on a miss.
    pub(super) fn with_ids(
        &mut self,
        word: &str,
        compute: impl FnOnce(&str) -> Box<[u32]>,
        use_ids: impl FnOnce(&[u32]),
    ) {
        let Some(map) = self.map.as_deref_mut() else {
            use_ids(&compute(word));
            return;
        };
        if let Some(ids) = map.get(word) {
            use_ids(ids);
            return;
        }
        let ids = compute(word);
        use_ids(&ids);
        if map.len() >= self.capacity {
            map.clear();
        }
        map.insert(word.into(), ids);
    }
}

/// A fast hash for short strings: eight bytes at a time, multiply and rotate, then a final mix so
/// that both the low and the high bits depend on every input byte.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct WordHasher(u64);

const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}
