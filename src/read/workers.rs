//! How many threads a read uses.

use std::num::NonZeroUsize;
use std::thread;

/// The thread count for a request: `0` means one per available core.
pub fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        return requested;
    }
    thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_threads_means_one_per_core() {
        assert_eq!(thread_count(3), 3);
        assert!(thread_count(0) >= 1);
    }
}
