//! Jobs replayed on a few threads, reports kept in the jobs' order, so that
//! the output never depends on how many threads there were.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::{panic, thread};

/// `f` of every item, on up to `threads` threads (the caller's among them),
/// returned in the items' order. Items are taken one at a time, the
/// heaviest by `weight` first, so that no thread is left with a large one
/// at the end: a job takes milliseconds to replay.
pub(super) fn map_in_order<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    weight: impl Fn(&T) -> usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(weight(&items[i])));
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return done;
            };
            done.push((i, f(&items[i])));
        }
    };
    let mut all: Vec<(usize, R)> = thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for other in others {
            all.extend(other.join().unwrap_or_else(|e| panic::resume_unwind(e)));
        }
        all
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order_on_any_thread_count() {
        let items: Vec<u64> = (0..1000).collect();
        let weight = |&x: &u64| (x % 7) as usize;
        let one = map_in_order(&items, 1, weight, |&x| x * x);
        assert_eq!(one, items.iter().map(|x| x * x).collect::<Vec<_>>());
        for threads in [0, 2, 3, 8, 5000] {
            assert_eq!(
                map_in_order(&items, threads, weight, |&x| x * x),
                one,
                "{threads}"
            );
        }
        assert!(map_in_order(&[] as &[u64], 4, weight, |&x| x).is_empty());
    }
}
