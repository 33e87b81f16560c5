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

use super::Part;
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

/// Points the allocations of `part` at `held`'s copies of their resources.
pub(super) fn share(held: &mut Held, part: &mut Part) {
    for alloc in part.elements.iter_mut().filter_map(|e| e.alloc.as_mut()) {
        held.share(alloc);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::{Allocation, from_slice};
    use crate::read::split::{Embedded, Parsed};

    const PLAIN: &str = r#"{"ID": "a", "AllocatedResources": {"Tasks": {"app":
        {"Cpu": {"CpuShares": 200}, "Memory": {"MemoryMB": 512}}}, "Shared": {"DiskMB": 300}}}"#;

    fn part(allocs: usize) -> Part {
        let elements = (0..allocs)
            .map(|_| Parsed {
                end: 0,
                alloc: Some(from_slice::<Allocation>(PLAIN.as_bytes()).unwrap()),
                job: Embedded::Absent,
                hint: None,
            })
            .collect();
        Part {
            elements,
            reached: true,
        }
    }

    fn resources(part: &Part, i: usize) -> &Arc<crate::model::resources::AllocatedResources> {
        let alloc = part.elements[i].alloc.as_ref().unwrap();
        alloc.allocated_resources.as_ref().unwrap()
    }

    #[test]
    fn a_thread_shares_one_copy_across_its_parts() {
        let sets = HeldSets::default();
        let (mut first, mut second) = (part(2), part(1));
        assert!(!Arc::ptr_eq(resources(&first, 0), resources(&first, 1)));
        sets.with(|held| share(held, &mut first));
        sets.with(|held| share(held, &mut second));
        assert!(Arc::ptr_eq(resources(&first, 0), resources(&first, 1)));
        assert!(Arc::ptr_eq(resources(&first, 0), resources(&second, 0)));
    }

    #[test]
    fn threads_at_once_take_sets_of_their_own() {
        let sets = HeldSets::default();
        let (mut first, mut second) = (part(1), part(1));
        sets.with(|a| {
            share(a, &mut first);
            sets.with(|b| share(b, &mut second));
        });
        assert!(!Arc::ptr_eq(resources(&first, 0), resources(&second, 0)));
        assert_eq!(sets.idle().len(), 2);
    }
}
