//! A deterministic parallel map over scoped threads.
//!
//! Items are handed out in blocks through an atomic counter (so a slow item does not hold a whole
//! thread's share back) and every result is written to its item's slot: the output is the same,
//! in the same order, whatever the thread count and the scheduling.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Items per block handed to a thread.
const BLOCK: usize = 16;

/// `f` over `items` on up to `threads` threads (at least one), results in item order.
pub(crate) fn map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.max(1).min(items.len().div_ceil(BLOCK)).max(1);
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Vec<R>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let start = next.fetch_add(BLOCK, Ordering::Relaxed);
                    if start >= items.len() {
                        break;
                    }
                    let end = (start + BLOCK).min(items.len());
                    let results: Vec<R> = items[start..end].iter().map(&f).collect();
                    done.lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((start, results));
                }
            });
        }
    });
    let mut blocks = done.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    blocks.sort_unstable_by_key(|(start, _)| *start);
    blocks.into_iter().flat_map(|(_, results)| results).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn same_output_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let one = super::map(&items, 1, |x| x * x);
        for threads in [2, 3, 8] {
            assert_eq!(super::map(&items, threads, |x| x * x), one);
        }
        assert!(super::map(&[] as &[u64], 4, |x| *x).is_empty());
    }
}
