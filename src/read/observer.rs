//! The reader's progress reports, for a display at the edge: a large
//! snapshot takes a while, and the core does no output of its own.

/// What the reader tells a progress display at the edge as it goes.
pub trait Observer: Sync {
    /// `n` more bytes of the input were read.
    fn bytes(&self, n: u64);
    /// One more allocation was parsed (by the fast walk, which reads all
    /// but broken input).
    fn allocation(&self) {}
}

impl<F: Fn(u64) + Sync> Observer for F {
    fn bytes(&self, n: u64) {
        self(n)
    }
}

/// An observer that is told nothing.
pub(super) const UNOBSERVED: &dyn Observer = &|_: u64| {};

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::read::{ReadFilter, Source, read_snapshot_observed};

    #[derive(Default)]
    struct Count {
        bytes: AtomicU64,
        allocations: AtomicU64,
    }

    impl Observer for Count {
        fn bytes(&self, n: u64) {
            self.bytes.fetch_add(n, Ordering::Relaxed);
        }
        fn allocation(&self) {
            self.allocations.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn every_byte_and_allocation_is_reported() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/example.json");
        let count = Count::default();
        let source = Source::Path(path.clone());
        let snapshot = read_snapshot_observed(&source, &ReadFilter::default(), 2, &count).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        assert_eq!(count.bytes.load(Ordering::Relaxed), size);
        assert!(!snapshot.allocs.is_empty());
        assert_eq!(
            count.allocations.load(Ordering::Relaxed),
            snapshot.allocs.len() as u64
        );
    }
}
