//! Jobs replayed on a few threads, each report handed on in the jobs'
//! order as soon as the ones before it are, so that the output never
//! depends on how many threads there were and a renderer can write and drop
//! each report instead of holding them all.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread;

/// Calls `emit` with `f` of every item, in the items' order; `f` runs on up
/// to `threads` threads (the caller's among them), `emit` on the caller's.
///
/// Items are taken in order, so that only the results finished ahead of
/// the first unfinished item wait: taking the heaviest first would keep
/// every lighter one waiting behind it. A job takes milliseconds to replay,
/// so the tail this leaves is short.
pub(super) fn for_each_in_order<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R),
) {
    let threads = threads.min(items.len());
    if threads <= 1 {
        items.iter().for_each(|item| emit(f(item)));
        return;
    }
    let next = AtomicUsize::new(0);
    let take = || Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&i| i < items.len());
    // Results of the other threads not yet emitted, by item index.
    let ready = Mutex::new(BTreeMap::new());
    let arrived = Condvar::new();
    let run = |i: usize| panic::catch_unwind(AssertUnwindSafe(|| f(&items[i])));
    thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|| {
                while let Some(i) = take() {
                    let result = run(i);
                    lock(&ready).insert(i, result);
                    arrived.notify_one();
                }
            });
        }
        let mut emitted = 0;
        let mut pass = |result: thread::Result<R>, emitted: &mut usize| {
            emit(result.unwrap_or_else(|e| panic::resume_unwind(e)));
            *emitted += 1;
        };
        while emitted < items.len() {
            let mut waiting = lock(&ready);
            if let Some(result) = waiting.remove(&emitted) {
                drop(waiting);
                pass(result, &mut emitted);
            } else if let Some(i) = take() {
                drop(waiting);
                let result = run(i);
                if i == emitted {
                    pass(result, &mut emitted);
                } else {
                    lock(&ready).insert(i, result);
                }
            } else {
                drop(arrived.wait(waiting));
            }
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
        for_each_in_order(items, threads, |&x| x * x, |r| out.push(r));
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
    fn a_panic_on_another_thread_reaches_the_caller() {
        let items: Vec<u64> = (0..50).collect();
        let caught = panic::catch_unwind(|| {
            for_each_in_order(
                &items,
                3,
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
