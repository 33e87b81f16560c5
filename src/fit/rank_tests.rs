//! The memory ceiling a placement is given, after scheduler/rank_test.go
//! (`TestBinPackIterator_memoryMax`, 2.0.5) and generic_sched_test.go
//! (`TestServiceSched_JobRegister_MemoryMaxHonored`, 1.3.0 and 2.0.5): the
//! allocated `memory_max` of the one task as the bin packer sets it.

use super::tests::web_ask;
use super::*;
use crate::model::resources::NodeSupply;
use crate::model::{Resources, from_slice};
use crate::version::{Release, v};

/// A 4096 MHz, 4096 MB node.
fn node() -> NodeSupply {
    let json = r#"{"NodeResources": {"Cpu": {"CpuShares": 4096},
        "Memory": {"MemoryMB": 4096}, "Disk": {"DiskMB": 10000}}}"#;
    from_slice(json.as_bytes()).unwrap()
}

/// The allocated memory and ceiling of task "web" asking `memory` and
/// `memory_max` at `release`.
fn allocated(release: Release, oversubscription: bool, memory: i64, max: i64) -> (i64, i64) {
    let r = Resources {
        cpu: 1024,
        memory_mb: memory,
        memory_max_mb: max,
        ..Resources::default()
    };
    let ask = web_ask(&r);
    let settings = Settings {
        rules: FitRules::of(release),
        memory_oversubscription: oversubscription,
    };
    let placed = place(&node(), &[], &ask, &settings).unwrap();
    let m = &placed.allocated.tasks["web"].memory;
    (m.memory_mb, m.memory_max_mb)
}

/// `TestBinPackIterator_memoryMax` (2.0.5, with oversubscription on): no
/// ceiling stays 0, an explicit one is kept, and `-1` (no limit) is kept
/// (from 2.0.4 whatever the task's secrets; src/fit/tests.rs has the
/// release difference).
#[test]
fn rank_test_go_v2_0_5_bin_pack_iterator_memory_max() {
    let at = v(2, 0, 5);
    assert_eq!(allocated(at, true, 1024, 0), (1024, 0));
    assert_eq!(allocated(at, true, 1024, 2048), (1024, 2048));
    assert_eq!(allocated(at, true, 1024, -1), (1024, -1));
}

/// `TestServiceSched_JobRegister_MemoryMaxHonored` (1.3.0 and 2.0.5): the
/// ceiling is given only when the scheduler configuration enables
/// memory oversubscription.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_register_memory_max_honored() {
    for release in [v(1, 3, 0), v(2, 0, 5)] {
        assert_eq!(allocated(release, true, 200, 0), (200, 0), "{release}");
        assert_eq!(allocated(release, true, 200, 300), (200, 300), "{release}");
        assert_eq!(allocated(release, false, 200, 300), (200, 0), "{release}");
    }
}
