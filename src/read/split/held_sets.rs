//! The plain resources of the allocations a part parsed, shared on the
//! thread that parsed them, with a [`Held`] set of that thread's own.
//!
//! Shared on the walking thread instead, every allocation's resources were
//! hashed there, and the copies dropped there were freed into the arena of
//! the thread that allocated them, under its lock: work the walk did alone
//! while the other threads waited at the round's end. A set per thread
//! keeps one copy per thread of each distinct plain block: a few hundred
//! bytes per thread, and the same report.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::model::Allocation;
use crate::read::held::Held;

/// The sets of the threads not parsing at the moment.
#[derive(Default)]
pub(in crate::read) struct HeldSets {
    idle: Mutex<Vec<Held>>,
}

impl HeldSets {
    /// Runs `f` with a set taken for this thread, given back after.
    pub(super) fn with<R>(&self, f: impl FnOnce(&mut Held) -> R) -> R {
        let mut held = self.idle().pop().unwrap_or_default();
        let result = f(&mut held);
        self.idle().push(held);
        result
    }

    fn idle(&self) -> MutexGuard<'_, Vec<Held>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Points `allocs` at `held`'s copies of their resources.
pub(super) fn share<'a>(held: &mut Held, allocs: impl Iterator<Item = &'a mut Allocation>) {
    for alloc in allocs {
        held.share(alloc);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::from_slice;
    use crate::model::resources::AllocatedResources;

    const PLAIN: &str = r#"{"ID": "a", "AllocatedResources": {"Tasks": {"app":
        {"Cpu": {"CpuShares": 200}, "Memory": {"MemoryMB": 512}}}, "Shared": {"DiskMB": 300}}}"#;

    fn part(allocs: usize) -> Vec<Allocation> {
        (0..allocs)
            .map(|_| from_slice::<Allocation>(PLAIN.as_bytes()).unwrap())
            .collect()
    }

    fn resources(part: &[Allocation], i: usize) -> &Arc<AllocatedResources> {
        part[i].allocated_resources.as_ref().unwrap()
    }

    #[test]
    fn a_thread_shares_one_copy_across_its_parts() {
        let sets = HeldSets::default();
        let (mut first, mut second) = (part(2), part(1));
        assert!(!Arc::ptr_eq(resources(&first, 0), resources(&first, 1)));
        sets.with(|held| share(held, first.iter_mut()));
        sets.with(|held| share(held, second.iter_mut()));
        assert!(Arc::ptr_eq(resources(&first, 0), resources(&first, 1)));
        assert!(Arc::ptr_eq(resources(&first, 0), resources(&second, 0)));
    }

    #[test]
    fn threads_at_once_take_sets_of_their_own() {
        let sets = HeldSets::default();
        let (mut first, mut second) = (part(1), part(1));
        sets.with(|a| {
            share(a, first.iter_mut());
            sets.with(|b| share(b, second.iter_mut()));
        });
        assert!(!Arc::ptr_eq(resources(&first, 0), resources(&second, 0)));
        assert_eq!(sets.idle().len(), 2);
    }
}
