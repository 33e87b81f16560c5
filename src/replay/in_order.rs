//! Jobs replayed on a few threads, each report handed on in the jobs'
//! order as soon as the ones before it are, so that the output never
//! depends on how many threads there were and a renderer can write and drop
//! each report instead of holding them all.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;

/// Calls `emit` with `f` of every item, in the items' order: `f` runs on
/// `threads` threads while the caller's emits each result once those before
/// it are emitted (one thread: all on the caller's).
///
/// The heaviest item by `weight` is taken first, so that no thread is left
/// with it at the end, and then the others in order, so that only results
/// finished ahead of the first unfinished item wait: taking every item by
/// weight would keep each light one waiting behind the last heavy one.
///
/// What is held is bounded by weight, not by the thread count: an item is
/// not taken while the items taken and not yet emitted weigh `budget` or
/// more, unless nothing is taken or it is the one to emit next (so the
/// emits never wait on a thread that waits on them). Memory then grows
/// with the budget, never with how many threads ran ahead.
pub(super) fn for_each_in_order<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    weight: impl Fn(&T) -> usize,
    budget: usize,
    f: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R),
) {
    let threads = threads.min(items.len());
    if threads <= 1 {
        items.iter().for_each(|item| emit(f(item)));
        return;
    }
    let weights: Vec<usize> = items.iter().map(weight).collect();
    let heaviest = (0..items.len())
        .rev()
        .max_by_key(|&i| weights[i])
        .unwrap_or(0);
    let order: Vec<usize> = std::iter::once(heaviest)
        .chain((0..items.len()).filter(|&i| i != heaviest))
        .collect();
    let state = Mutex::new(Queue {
        held: BTreeMap::new(),
        taken: 0,
        load: 0,
        to_emit: 0,
        writer_waits: false,
        takers_waiting: 0,
        stopped: false,
    });
    let arrived = Condvar::new();
    let room = Condvar::new();
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let mut q = lock(&state);
                    let i = loop {
                        let Some(&i) = order.get(q.taken).filter(|_| !q.stopped) else {
                            return;
                        };
                        let w = weights[i];
                        if q.load == 0 || i == q.to_emit || q.load + w <= budget {
                            q.taken += 1;
                            q.load += w;
                            // One woken taker wakes the next while room is left.
                            if q.takers_waiting > 0 && q.load < budget {
                                room.notify_one();
                            }
                            break i;
                        }
                        q.takers_waiting += 1;
                        q = room.wait(q).unwrap_or_else(|e| e.into_inner());
                        q.takers_waiting -= 1;
                    };
                    drop(q);
                    let result = panic::catch_unwind(AssertUnwindSafe(|| f(&items[i])));
                    let mut q = lock(&state);
                    q.held.insert(i, result);
                    if i == q.to_emit && q.writer_waits {
                        arrived.notify_one();
                    }
                }
            });
        }
        // Should an emit panic, the threads waiting for room take no more.
        let _stop = Stop {
            state: &state,
            room: &room,
        };
        for (i, &w) in weights.iter().enumerate() {
            let mut q = lock(&state);
            let result = loop {
                if let Some(result) = q.held.remove(&i) {
                    break result;
                }
                q.writer_waits = true;
                q = arrived.wait(q).unwrap_or_else(|e| e.into_inner());
                q.writer_waits = false;
            };
            q.load -= w;
            q.to_emit = i + 1;
            if q.takers_waiting > 0 {
                room.notify_one();
            }
            drop(q);
            emit(result.unwrap_or_else(|e| panic::resume_unwind(e)));
        }
    });
}

/// What the threads share: results waiting for their turn and the work
/// taken, under one lock.
struct Queue<R> {
    /// Results not yet emitted, by item index.
    held: BTreeMap<usize, thread::Result<R>>,
    /// How many items of the taking order are taken.
    taken: usize,
    /// The weight of the items taken and not yet emitted.
    load: usize,
    /// The index of the item to emit next.
    to_emit: usize,
    writer_waits: bool,
    takers_waiting: usize,
    /// Set when the emits end, by their end or a panic.
    stopped: bool,
}

/// Stops the taking when dropped.
struct Stop<'a, R> {
    state: &'a Mutex<Queue<R>>,
    room: &'a Condvar,
}

impl<R> Drop for Stop<'_, R> {
    fn drop(&mut self) {
        lock(self.state).stopped = true;
        self.room.notify_all();
    }
}

/// The lock, even if a thread panicked holding it: the queue stays whole.
fn lock<V>(m: &Mutex<V>) -> MutexGuard<'_, V> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn squares(items: &[u64], threads: usize, budget: usize) -> Vec<u64> {
        let mut out = Vec::new();
        for_each_in_order(
            items,
            threads,
            |&x| (x % 7) as usize,
            budget,
            |&x| x * x,
            |r| out.push(r),
        );
        out
    }

    #[test]
    fn results_keep_the_items_order_on_any_thread_count() {
        let items: Vec<u64> = (0..1000).collect();
        let one = squares(&items, 1, usize::MAX);
        assert_eq!(one, items.iter().map(|x| x * x).collect::<Vec<_>>());
        for threads in [0, 2, 3, 8, 5000] {
            for budget in [0, 1, 6, 20, usize::MAX] {
                assert_eq!(squares(&items, threads, budget), one, "{threads} {budget}");
            }
        }
        assert!(squares(&[], 4, 0).is_empty());
    }

    #[test]
    fn what_is_taken_and_not_emitted_stays_within_the_budget() {
        let items: Vec<usize> = (0..400).collect();
        let outstanding = AtomicUsize::new(0);
        let mut most = 0;
        for_each_in_order(
            &items,
            8,
            |_| 1,
            3,
            |&i| {
                let now = outstanding.fetch_add(1, Ordering::SeqCst) + 1;
                if i % 50 == 0 {
                    thread::sleep(std::time::Duration::from_millis(5));
                }
                now
            },
            |now| {
                most = most.max(now);
                outstanding.fetch_sub(1, Ordering::SeqCst);
            },
        );
        // The budget, and the one to emit next taken past it.
        assert!((2..=4).contains(&most), "{most}");
    }

    #[test]
    fn a_heaviest_item_over_the_budget_does_not_stop_the_others() {
        let items: Vec<usize> = (0..30).collect();
        let mut out = Vec::new();
        for_each_in_order(
            &items,
            4,
            |&i| if i == 29 { 1000 } else { 1 },
            10,
            |&i| {
                if i == 29 {
                    thread::sleep(std::time::Duration::from_millis(20));
                }
                i
            },
            |i| out.push(i),
        );
        assert_eq!(out, items);
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
            usize::MAX,
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
            usize::MAX,
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
                2,
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
