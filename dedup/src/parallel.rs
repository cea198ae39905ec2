//! A deterministic parallel map on a pool of long-lived threads.
//!
//! The pool (rayon's, with the configured thread count) keeps its threads between batches, so the
//! embedder's and the stemmer's per-thread caches stay warm from one batch to the next; scoped
//! threads started per call would begin every batch cold. Results are collected in item order:
//! the output is the same whatever the thread count and the scheduling.

use rayon::prelude::*;

/// A pool of `threads` threads (at least one).
#[derive(Debug)]
pub(crate) struct Pool {
    pool: Option<rayon::ThreadPool>,
}

impl Pool {
    pub(crate) fn new(threads: usize) -> Self {
        let pool = (threads > 1)
            .then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok())
            .flatten();
        Self { pool }
    }

    /// `f` over `items`, results in item order.
    pub(crate) fn map<T: Sync, R: Send>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> R + Sync + Send,
    ) -> Vec<R> {
        match &self.pool {
            Some(pool) => pool.install(|| items.par_iter().with_min_len(4).map(f).collect()),
            None => items.iter().map(f).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;

    #[test]
    fn same_output_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let one = Pool::new(1).map(&items, |x| x * x);
        for threads in [2, 3, 8] {
            assert_eq!(Pool::new(threads).map(&items, |x| x * x), one);
        }
        assert!(Pool::new(4).map(&[] as &[u64], |x| *x).is_empty());
    }
}
