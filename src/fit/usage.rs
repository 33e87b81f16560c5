//! What an allocation holds, flattened over its tasks' lifecycles.

use super::comparable::Comparable;
use super::rules::FitRules;
use crate::model::resources::{AllocatedResources, AllocatedTaskResources};
use crate::model::{LegacyResources, Resources, UsageView};

/// The resources `alloc` holds on its node, as `AllocsFit` counts them;
/// zero for an allocation that no longer counts (see [`FitRules::counts`]).
pub fn held(alloc: UsageView<'_>, rules: &FitRules) -> Comparable {
    if !rules.counts(alloc.client_status.as_str(), alloc.desired_status.as_str()) {
        return Comparable::default();
    }
    comparable(alloc, rules)
}

/// `Allocation.ComparableResources`: what `alloc` holds whatever its
/// statuses, as the preemptor reads its candidates.
pub fn comparable(alloc: UsageView<'_>, rules: &FitRules) -> Comparable {
    match alloc.allocated_resources {
        Some(r) => flatten(r, rules),
        None if rules.legacy_fallback => legacy(alloc.legacy),
        None => Comparable::default(),
    }
}

/// `AllocatedResources.Comparable`: the group's disk, and its tasks' CPU
/// and memory as they run together over their lifecycles.
pub fn flatten(r: &AllocatedResources, rules: &FitRules) -> Comparable {
    let mut out = Comparable {
        disk_mb: r.shared.disk_mb,
        ..Comparable::default()
    };
    let hook = |task: &str| {
        r.task_lifecycles
            .get(task)
            .and_then(Option::as_ref)
            .map(|l| (l.hook.as_str(), l.sidecar))
    };
    if rules.lifecycle_phases {
        // nomad/structs/structs.go AllocatedResources.Comparable at 1.9.4.
        let (mut pre, mut main, mut stop) = Default::default();
        for (task, res) in &r.tasks {
            let mut fungible = task_comparable(res);
            if !fungible.cores.is_empty() {
                out.add_cpu(&fungible);
                fungible.cpu_shares = 0;
                fungible.cores.clear();
            }
            let phases: &mut [&mut Comparable] = match hook(task) {
                None => &mut [&mut main],
                Some(("prestart", true)) => &mut [&mut pre, &mut main],
                Some(("prestart", false)) => &mut [&mut pre],
                Some(("poststart", _)) => &mut [&mut main],
                Some(("poststop", _)) => &mut [&mut stop],
                Some(_) => &mut [],
            };
            for phase in phases {
                phase.add(&fungible);
            }
        }
        let main: &mut Comparable = &mut main;
        main.max(&pre);
        main.max(&stop);
        out.add(main);
    } else {
        // nomad/structs/structs.go:3561-3603 at 1.3.0; poststart from 1.9.2.
        let (mut sidecar, mut ephemeral, mut main, mut stop) = Default::default();
        for (task, res) in &r.tasks {
            let phase: Option<&mut Comparable> = match hook(task) {
                None => Some(&mut main),
                Some(("prestart", true)) => Some(&mut sidecar),
                Some(("prestart", false)) => Some(&mut ephemeral),
                Some(("poststart", _)) if rules.poststart_counted => Some(&mut main),
                Some(("poststop", _)) => Some(&mut stop),
                Some(_) => None,
            };
            if let Some(phase) = phase {
                phase.add(&task_comparable(res));
            }
        }
        let ephemeral: &mut Comparable = &mut ephemeral;
        ephemeral.max(&main);
        ephemeral.max(&stop);
        let sidecar: &mut Comparable = &mut sidecar;
        sidecar.add(ephemeral);
        out.add(sidecar);
    }
    out
}

fn task_comparable(r: &AllocatedTaskResources) -> Comparable {
    Comparable {
        cpu_shares: r.cpu.cpu_shares,
        cores: r.cpu.reserved_cores.iter().copied().collect(),
        memory_mb: r.memory.memory_mb,
        memory_max_mb: r.memory.memory_max_mb,
        disk_mb: 0,
    }
}

/// `Allocation.ComparableResources` for an allocation written before 0.9:
/// `Resources`, else `SharedResources` plus every `TaskResources`. Nomad
/// dereferences a missing one; it counts as nothing here.
fn legacy(blocks: &LegacyResources) -> Comparable {
    let from = |r: &Resources| Comparable {
        cpu_shares: r.cpu,
        memory_mb: r.memory_mb,
        memory_max_mb: r.memory_max_mb,
        disk_mb: r.disk_mb,
        ..Comparable::default()
    };
    if let Some(r) = &blocks.resources {
        return from(r);
    }
    let mut sum = blocks
        .shared_resources
        .as_ref()
        .map(from)
        .unwrap_or_default();
    sum_plain(&mut sum, blocks.task_resources.values().map(from));
    sum
}

/// `Resources.Add`: a plain sum, without the ceiling rule of allocated
/// memory.
fn sum_plain(sum: &mut Comparable, parts: impl Iterator<Item = Comparable>) {
    for p in parts {
        sum.cpu_shares = sum.cpu_shares.saturating_add(p.cpu_shares);
        sum.memory_mb = sum.memory_mb.saturating_add(p.memory_mb);
        sum.memory_max_mb = sum.memory_max_mb.saturating_add(p.memory_max_mb);
        sum.disk_mb = sum.disk_mb.saturating_add(p.disk_mb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::from_slice;
    use crate::model::resources::AllocUsage;
    use crate::version::v;

    fn usage(json: &str) -> AllocUsage {
        from_slice(json.as_bytes()).unwrap()
    }

    /// The first three cases of `TestAllocatedResources_Comparable_Flattened`
    /// (nomad/structs/structs_test.go, 2.0.5).
    #[test]
    fn allocated_resources_comparable_flattened_v2_0_5() {
        let rules = FitRules::of(v(2, 0, 5));
        let a = usage(
            r#"{"AllocatedResources": {
            "TaskLifecycles": {"prestart-task": {"Hook": "prestart"},
                               "poststop-task": {"Hook": "poststop"}},
            "Tasks": {"prestart-task": {"Cpu": {"CpuShares": 2000}},
                      "main-task": {"Cpu": {"CpuShares": 4000}},
                      "poststop-task": {"Cpu": {"CpuShares": 1000}}}}}"#,
        );
        let c = held(a.view(), &rules);
        assert_eq!((c.cpu_shares, c.cores.len()), (4000, 0));

        let b = usage(
            r#"{"AllocatedResources": {
            "TaskLifecycles": {"prestart-task": {"Hook": "prestart"},
                               "prestart-sidecar-task": {"Hook": "prestart", "Sidecar": true},
                               "poststop-task": {"Hook": "poststop"}},
            "Tasks": {"prestart-task": {"Cpu": {"CpuShares": 1000, "ReservedCores": [0]}},
                      "prestart-sidecar-task": {"Cpu": {"CpuShares": 2000, "ReservedCores": [1, 2]}},
                      "main-task": {"Cpu": {"CpuShares": 2000, "ReservedCores": [3, 4]}},
                      "poststop-task": {"Cpu": {"CpuShares": 1000, "ReservedCores": [5]}}}}}"#,
        );
        let c = held(b.view(), &rules);
        assert_eq!((c.cpu_shares, c.cores.len()), (6000, 6));
        // Before 1.9.4 the prestart task's single core lost to the longer
        // sets and only the sidecar's and the largest phase's shares counted.
        let old = held(b.view(), &FitRules::of(v(1, 9, 3)));
        assert_eq!((old.cpu_shares, old.cores.len()), (4000, 4));

        let c3 = usage(
            r#"{"AllocatedResources": {
            "TaskLifecycles": {"prestart-task": {"Hook": "prestart"},
                               "poststop-task": {"Hook": "poststop"}},
            "Tasks": {"prestart-task": {"Cpu": {"CpuShares": 1000}},
                      "main-task": {"Cpu": {"CpuShares": 2000, "ReservedCores": [1, 2]}},
                      "poststop-task": {"Cpu": {"CpuShares": 1000}}}}}"#,
        );
        let c = held(c3.view(), &rules);
        assert_eq!((c.cpu_shares, c.cores.len()), (3000, 2));
    }

    /// Poststart tasks: not counted before 1.9.2, counted with main from it.
    #[test]
    fn poststart_tasks_count_from_1_9_2() {
        let a = usage(
            r#"{"AllocatedResources": {
            "TaskLifecycles": {"after": {"Hook": "poststart"}},
            "Tasks": {"main": {"Memory": {"MemoryMB": 300}},
                      "after": {"Memory": {"MemoryMB": 200}}}}}"#,
        );
        assert_eq!(held(a.view(), &FitRules::of(v(1, 9, 1))).memory_mb, 300);
        assert_eq!(held(a.view(), &FitRules::of(v(1, 9, 2))).memory_mb, 500);
        assert_eq!(held(a.view(), &FitRules::of(v(1, 9, 4))).memory_mb, 500);
    }

    /// A prestart sidecar runs beside the largest phase in both models.
    #[test]
    fn a_sidecar_adds_to_the_largest_phase() {
        let a = usage(
            r#"{"AllocatedResources": {"Shared": {"DiskMB": 150},
            "TaskLifecycles": {"init": {"Hook": "prestart"},
                               "proxy": {"Hook": "prestart", "Sidecar": true}},
            "Tasks": {"init": {"Memory": {"MemoryMB": 1000}},
                      "proxy": {"Memory": {"MemoryMB": 100, "MemoryMaxMB": 300}},
                      "web": {"Memory": {"MemoryMB": 500}}}}}"#,
        );
        for release in [v(1, 3, 0), v(1, 9, 4)] {
            let c = held(a.view(), &FitRules::of(release));
            assert_eq!((c.memory_mb, c.disk_mb), (1100, 150), "{release}");
        }
        // The ceiling: the sidecar's 300 beside the init task's 1000.
        assert_eq!(
            held(a.view(), &FitRules::of(v(1, 3, 0))).memory_max_mb,
            1300
        );
    }

    #[test]
    fn legacy_resources_count_before_1_7_0_only() {
        let a = usage(
            r#"{"Resources": {"CPU": 100, "MemoryMB": 256, "DiskMB": 300},
                "TaskResources": {"t": {"CPU": 1, "MemoryMB": 1}}}"#,
        );
        let c = held(a.view(), &FitRules::of(v(1, 6, 10)));
        assert_eq!((c.cpu_shares, c.memory_mb, c.disk_mb), (100, 256, 300));
        assert_eq!(
            held(a.view(), &FitRules::of(v(1, 7, 0))),
            Comparable::default()
        );
        let b = usage(
            r#"{"TaskResources": {"a": {"CPU": 100, "MemoryMB": 10},
                                  "b": {"CPU": 50, "MemoryMB": 20}},
                "SharedResources": {"DiskMB": 300}}"#,
        );
        let c = held(b.view(), &FitRules::of(v(1, 3, 0)));
        assert_eq!((c.cpu_shares, c.memory_mb, c.disk_mb), (150, 30, 300));
    }

    #[test]
    fn a_stopping_allocation_holds_nothing_before_1_4_0() {
        let a = usage(
            r#"{"ClientStatus": "running", "DesiredStatus": "stop",
                "AllocatedResources": {"Tasks": {"t": {"Cpu": {"CpuShares": 100}}}}}"#,
        );
        assert_eq!(held(a.view(), &FitRules::of(v(1, 3, 16))).cpu_shares, 0);
        assert_eq!(held(a.view(), &FitRules::of(v(1, 4, 0))).cpu_shares, 100);
    }
}
