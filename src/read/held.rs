//! One copy of what many allocations hold: the allocations of one group
//! version that hold only CPU, memory and disk hold the same, and each
//! would otherwise keep its own copy (about 300 bytes with its task's name
//! and map), a tenth of what the reader keeps per allocation.

use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::FixedState;

use crate::model::Allocation;
use crate::model::resources::AllocatedResources;

/// The distinct plain `AllocatedResources` read so far, by their hash.
#[derive(Default)]
pub(super) struct Held {
    seen: HashMap<u64, Arc<AllocatedResources>, FixedState>,
}

impl Held {
    /// Points `alloc` at the copy of its resources read before, if one
    /// holds the same, and drops the resources it supersedes.
    pub(super) fn share(&mut self, alloc: &mut Allocation) {
        alloc.forget_superseded_resources();
        let Some(own) = &alloc.allocated_resources else {
            return;
        };
        let Some(hash) = own.plain_hash() else {
            return;
        };
        match self.seen.get(&hash) {
            Some(first) if first.same_plain(own) => {
                alloc.allocated_resources = Some(Arc::clone(first));
            }
            Some(_) => {}
            None => {
                self.seen.insert(hash, Arc::clone(own));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::from_slice;

    fn alloc(text: &str) -> Allocation {
        from_slice(text.as_bytes()).unwrap()
    }

    const PLAIN: &str = r#"{"AllocatedResources": {"Tasks": {"app": {"Cpu": {"CpuShares": 200},
        "Memory": {"MemoryMB": 512}}}, "Shared": {"DiskMB": 300}},
        "Resources": {"CPU": 200, "MemoryMB": 512, "Networks": [{"MBits": 10}]},
        "SharedResources": {"DiskMB": 300}, "TaskResources": {"app": {"CPU": 200}}}"#;

    #[test]
    fn plain_resources_are_shared_and_superseded_ones_dropped() {
        let mut held = Held::default();
        let (mut a, mut b) = (alloc(PLAIN), alloc(PLAIN));
        held.share(&mut a);
        held.share(&mut b);
        let (ra, rb) = (
            a.allocated_resources.unwrap(),
            b.allocated_resources.unwrap(),
        );
        assert!(Arc::ptr_eq(&ra, &rb));
        assert_eq!(rb.tasks["app"].memory.memory_mb, 512);
        assert!(b.legacy.is_none());
    }

    #[test]
    fn different_or_networked_resources_keep_their_own_copy() {
        let mut held = Held::default();
        let mut a = alloc(PLAIN);
        let mut more = alloc(&PLAIN.replace("512}}}", "1024}}}"));
        let ports = r#"{"AllocatedResources": {"Tasks": {"app": {"Cpu": {"CpuShares": 200},
            "Memory": {"MemoryMB": 512}}}, "Shared": {"DiskMB": 300,
            "Ports": [{"Label": "http", "Value": 21000}]}}}"#;
        let (mut p, mut q) = (alloc(ports), alloc(ports));
        for x in [&mut a, &mut more, &mut p, &mut q] {
            held.share(x);
        }
        let r = |x: &Allocation| Arc::clone(x.allocated_resources.as_ref().unwrap());
        assert!(!Arc::ptr_eq(&r(&a), &r(&more)));
        assert_eq!(r(&more).tasks["app"].memory.memory_mb, 1024);
        assert!(!Arc::ptr_eq(&r(&p), &r(&q)));
    }

    #[test]
    fn legacy_resources_stay_without_allocated_resources() {
        let mut held = Held::default();
        let mut old = alloc(r#"{"Resources": {"CPU": 200}, "SharedResources": {"DiskMB": 300}}"#);
        held.share(&mut old);
        let legacy = old.legacy.unwrap();
        assert_eq!(legacy.resources.unwrap().cpu, 200);
        assert_eq!(legacy.shared_resources.unwrap().disk_mb, 300);
    }
}
