//! Jobs replayed on a few threads, each report handed on in the jobs'
//! order as soon as the ones before it are, so that the output never
//! depends on how many threads there were and a renderer can write and drop
//! each report instead of holding them all.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread;

/// Calls `emit` with `f` of every item, in the items' order: `f` runs on
/// `threads` threads while the caller's emits each result once those before
/// it are emitted (one thread: all on the caller's).
///
/// The heaviest item by `weight` is taken first, so that no thread is left
/// with it at the end, and then the others in order, so that only results
/// finished ahead of the first unfinished item wait: taking every item by
/// weight would keep each light one waiting behind the last heavy one.
pub(super) fn for_each_in_order<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    weight: impl Fn(&T) -> usize,
    f: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R),
) {
    let threads = threads.min(items.len());
    if threads <= 1 {
        items.iter().for_each(|item| emit(f(item)));
        return;
    }
    let heaviest = (0..items.len())
        .rev()
        .max_by_key(|&i| weight(&items[i]))
        .unwrap_or(0);
    let order: Vec<usize> = std::iter::once(heaviest)
        .chain((0..items.len()).filter(|&i| i != heaviest))
        .collect();
    let next = AtomicUsize::new(0);
    // Results not yet emitted, by item index.
    let ready = Mutex::new(BTreeMap::new());
    let arrived = Condvar::new();
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let result = panic::catch_unwind(AssertUnwindSafe(|| f(&items[i])));
                    lock(&ready).insert(i, result);
                    arrived.notify_one();
                }
            });
        }
        for i in 0..items.len() {
            let mut waiting = lock(&ready);
            let result = loop {
                match waiting.remove(&i) {
                    Some(result) => break result,
                    None => waiting = arrived.wait(waiting).unwrap_or_else(|e| e.into_inner()),
                }
            };
            drop(waiting);
            emit(result.unwrap_or_else(|e| panic::resume_unwind(e)));
        }
    });
}

/// The lock, even if a thread panicked holding it: the map stays whole.
fn lock<V>(m: &Mutex<V>) -> std::sync::MutexGuard<'_, V> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(items: &[u64], threads: usize) -> Vec<u64> {
        let mut out = Vec::new();
        for_each_in_order(
            items,
            threads,
            |&x| (x % 7) as usize,
            |&x| x * x,
            |r| out.push(r),
        );
        out
    }

    #[test]
    fn results_keep_the_items_order_on_any_thread_count() {
        let items: Vec<u64> = (0..1000).collect();
        let one = squares(&items, 1);
        assert_eq!(one, items.iter().map(|x| x * x).collect::<Vec<_>>());
        for threads in [0, 2, 3, 8, 5000] {
            assert_eq!(squares(&items, threads), one, "{threads}");
        }
        assert!(squares(&[], 4).is_empty());
    }

    #[test]
    fn results_are_emitted_before_the_last_item_is_done() {
        let items: Vec<usize> = (0..64).collect();
        let done = AtomicUsize::new(0);
        let mut seen_before_end = 0;
        for_each_in_order(
            &items,
            2,
            |_| 1,
            |&i| {
                if i == items.len() - 1 {
                    thread::sleep(std::time::Duration::from_millis(50));
                }
                done.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i| {
                if done.load(Ordering::SeqCst) < items.len() {
                    seen_before_end = seen_before_end.max(i + 1);
                }
            },
        );
        assert!(seen_before_end > 0, "nothing was emitted before the end");
    }

    #[test]
    fn the_heaviest_item_is_among_the_first_taken() {
        let items: Vec<usize> = (0..100).collect();
        let started = Mutex::new(Vec::new());
        for_each_in_order(
            &items,
            2,
            |&i| usize::from(i == 40) + usize::from(i % 10 == 0),
            |&i| lock(&started).push(i),
            |()| {},
        );
        let started = started.into_inner().unwrap();
        assert!(started[..2].contains(&40), "{:?}", &started[..2]);
        assert_eq!(started.len(), 100);
    }

    #[test]
    fn a_panic_on_another_thread_reaches_the_caller() {
        let items: Vec<u64> = (0..50).collect();
        let caught = panic::catch_unwind(|| {
            for_each_in_order(
                &items,
                3,
                |_| 1,
                |&x| {
                    assert_ne!(x, 37, "item 37");
                    x
                },
                |_| {},
            )
        });
        assert!(caught.is_err());
    }
}
