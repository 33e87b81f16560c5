//! Two independent pieces of the replay's setup at once: each scans every
//! allocation or job once, and on one thread they kept the other cores idle
//! between the read and the replay.

/// `a()` and `b()`, `b` on a thread of its own when `threads` allows more
/// than one. A panic in `b` goes on in the caller.
pub(super) fn both<A: Send, B: Send>(
    threads: usize,
    a: impl FnOnce() -> A,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if threads <= 1 {
        return (a(), b());
    }
    std::thread::scope(|s| {
        let b = s.spawn(b);
        let a = a();
        let b = b.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (a, b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_run_on_one_thread_or_two() {
        for threads in [1, 2] {
            let here = std::thread::current().id();
            let (a, b) = both(threads, || 1, || (2, std::thread::current().id() == here));
            assert_eq!((a, b.0), (1, 2));
            assert_eq!(b.1, threads == 1, "{threads}");
        }
    }

    #[test]
    #[should_panic(expected = "in b")]
    fn a_panic_in_b_reaches_the_caller() {
        both(2, || (), || panic!("in b"));
    }
}
