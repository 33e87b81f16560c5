//! The pre-0.9 `Resources`, `TaskResources` and `SharedResources` blocks an
//! allocation carries beside (or, in older dumps, instead of)
//! `AllocatedResources`. Nomad reads them only when `AllocatedResources` is
//! missing (`fit::usage`), so the model keeps them in one boxed block:
//! a pointer on every allocation instead of five words of empty fields.

use std::collections::BTreeMap;

use super::Resources;

/// The three pre-0.9 blocks of one allocation.
#[derive(Clone, Debug, Default)]
pub struct LegacyResources {
    /// The pre-0.9 total, read before 1.7.0 when `AllocatedResources` is
    /// absent.
    pub resources: Option<Resources>,
    /// The per-task resources, summed with `shared_resources` when
    /// `resources` is absent too.
    pub task_resources: BTreeMap<String, Resources>,
    pub shared_resources: Option<Resources>,
}

/// What an allocation without any of the blocks reads.
static NONE: LegacyResources = LegacyResources {
    resources: None,
    task_resources: BTreeMap::new(),
    shared_resources: None,
};

impl LegacyResources {
    /// The blocks of `legacy`, all absent for `None`.
    pub fn of(legacy: &Option<Box<LegacyResources>>) -> &LegacyResources {
        legacy.as_deref().unwrap_or(&NONE)
    }

    /// No blocks at all.
    pub fn none() -> &'static LegacyResources {
        &NONE
    }

    /// The blocks in a box; `None` when the allocation has none of them.
    pub fn boxed(self) -> Option<Box<LegacyResources>> {
        let none = self.resources.is_none()
            && self.task_resources.is_empty()
            && self.shared_resources.is_none();
        (!none).then(|| Box::new(self))
    }
}

#[cfg(test)]
mod tests {
    use super::super::resources::PortMapping;
    use super::super::{Allocation, NetworkResource, Port, from_slice};
    use super::*;

    #[test]
    fn an_allocation_and_its_networks_are_small() {
        // One per allocation of a dump: the three blocks inline took five
        // words, their box takes one; the name's index and tag take two
        // where a copy of the name took one word and a block of its own.
        assert!(size_of::<Allocation>() <= 28 * size_of::<usize>());
        // The network's texts are shared names of one word, not strings of three.
        assert!(size_of::<NetworkResource>() <= 15 * size_of::<usize>());
        assert!(size_of::<Port>() <= 4 * size_of::<usize>());
        assert!(size_of::<PortMapping>() <= 5 * size_of::<usize>());
    }

    #[test]
    fn the_blocks_read_as_the_allocation_s_own_keys() {
        let a: Allocation = from_slice(
            br#"{"ID": "a1", "Resources": {"CPU": 250}, "TaskResources": {"web": {"MemoryMB": 64}},
                "SharedResources": {"DiskMB": 300, "Networks": [{"Device": "eth0", "IP": "10.0.0.1",
                "DynamicPorts": [{"Label": "http", "Value": 25000}]}]}}"#,
        )
        .unwrap();
        let legacy = LegacyResources::of(&a.legacy);
        assert_eq!(legacy.resources.as_ref().unwrap().cpu, 250);
        assert_eq!(legacy.task_resources["web"].memory_mb, 64);
        let shared = legacy.shared_resources.as_ref().unwrap();
        assert_eq!(shared.networks[0].device, "eth0");
        assert_eq!(shared.networks[0].dynamic_ports[0].label, "http");
        // Absent, `null` and empty blocks are no box, and read as absent.
        for text in [
            &br#"{}"#[..],
            br#"{"Resources": null, "TaskResources": {}}"#,
        ] {
            let a: Allocation = from_slice(text).unwrap();
            assert!(a.legacy.is_none());
            let none = LegacyResources::of(&a.legacy);
            assert!(none.resources.is_none() && none.shared_resources.is_none());
            assert!(none.task_resources.is_empty());
        }
        // A block of zeros is still a block: `Resources` is read when present.
        let zero: Allocation = from_slice(br#"{"Resources": {}}"#).unwrap();
        assert_eq!(zero.legacy.unwrap().resources.unwrap().cpu, 0);
    }

    #[test]
    fn a_bad_block_is_an_error_naming_the_allocation() {
        let e = from_slice::<Allocation>(br#"{"Resources": 5}"#).unwrap_err();
        assert!(e.to_string().contains("struct Resources"), "{e}");
        let e = from_slice::<Allocation>(br#""a1""#).unwrap_err();
        assert!(e.to_string().contains("struct Allocation"), "{e}");
    }
}
