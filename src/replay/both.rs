//! Two independent steps run at once where the replay has threads to spare.

use std::panic;
use std::thread;

/// `a()` and `b()`, `b` on a thread of its own when `parallel`: the steps
/// that prepare a replay each walk every allocation or node of the
/// snapshot, and run while the other core would otherwise wait. A panic in
/// `b` is raised again here, as if it had run on this thread.
pub(super) fn both<A, B: Send>(
    parallel: bool,
    a: impl FnOnce() -> A,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if !parallel {
        let a = a();
        return (a, b());
    }
    thread::scope(|scope| {
        let b = scope.spawn(b);
        let a = a();
        (a, b.join().unwrap_or_else(|e| panic::resume_unwind(e)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_steps_run_with_or_without_a_thread() {
        for parallel in [false, true] {
            assert_eq!(both(parallel, || 1, || "two"), (1, "two"));
        }
    }

    #[test]
    fn the_second_step_runs_elsewhere_only_when_parallel() {
        let here = thread::current().id();
        let ((), serial) = both(false, || (), || thread::current().id());
        assert_eq!(serial, here);
        let ((), apart) = both(true, || (), || thread::current().id());
        assert_ne!(apart, here);
    }

    #[test]
    #[should_panic(expected = "from the second step")]
    fn a_panic_on_the_second_thread_reaches_the_caller() {
        both(true, || (), || panic!("from the second step"));
    }
}
