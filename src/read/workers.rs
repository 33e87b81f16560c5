//! Work spread over a few threads, results kept in the input's order, so that
//! the output never depends on how many threads there were.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::{panic, thread};

/// Items taken at a time by a thread: an allocation parses in microseconds,
/// so one atomic step per item would be noticeable.
const STEP: usize = 8;

/// The thread count for a request: `0` means one per available core.
pub fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        return requested;
    }
    thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// `f` of every item, on up to `threads` threads (the caller's among them),
/// each with its own `state`, returned in the items' order.
pub(super) fn map_in_order<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    state: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len().div_ceil(STEP));
    if threads <= 1 {
        let mut s = state();
        return items.iter().map(|item| f(&mut s, item)).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut s = state();
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(STEP, Ordering::Relaxed);
            let Some(chunk) = items.get(start..) else {
                return done;
            };
            let chunk = &chunk[..chunk.len().min(STEP)];
            if chunk.is_empty() {
                return done;
            }
            let results = chunk.iter().map(|item| f(&mut s, item)).collect::<Vec<_>>();
            done.push((start, results));
        }
    };
    let mut parts: Vec<(usize, Vec<R>)> = thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for other in others {
            all.extend(other.join().unwrap_or_else(|e| panic::resume_unwind(e)));
        }
        all
    });
    parts.sort_unstable_by_key(|(start, _)| *start);
    parts.into_iter().flat_map(|(_, results)| results).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order_on_any_thread_count() {
        let items: Vec<u64> = (0..1000).collect();
        let one = map_in_order(&items, 1, || 0u64, |_, &x| x * x);
        assert_eq!(one, items.iter().map(|x| x * x).collect::<Vec<_>>());
        for threads in [2, 3, 8] {
            let counted = map_in_order(
                &items,
                threads,
                || 0u64,
                |seen, &x| {
                    *seen += 1;
                    x * x
                },
            );
            assert_eq!(counted, one, "{threads} threads");
        }
        assert!(map_in_order(&[] as &[u64], 4, || (), |(), &x| x).is_empty());
    }

    #[test]
    fn zero_threads_means_one_per_core() {
        assert_eq!(thread_count(3), 3);
        assert!(thread_count(0) >= 1);
    }
}
