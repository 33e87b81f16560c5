//! A failed scan counts the nodes of a class its cache rules out at once:
//! its metrics are those of the scan node by node that `--explain`
//! recording takes.

use serde_json::json;

use super::*;
use crate::feasibility::{TargetRules, VolumeRules};
use crate::fit::{FitRules, Settings};
use crate::model::{Node, Snapshot, from_slice};
use crate::placement::{AllocMetric, Recorder, SpreadRules};
use crate::version::v;

/// Node `i` of datacenter `dc`, computed class `class` ("" for none),
/// node class `node_class`, with a Linux or Windows kernel and the docker
/// driver or not.
fn node(i: usize, dc: &str, class: &str, node_class: &str, linux: bool, docker: bool) -> Node {
    let n = json!({
        "ID": format!("n{i:02}"), "Datacenter": dc, "NodeClass": node_class,
        "ComputedClass": class, "Status": "ready", "SchedulingEligibility": "eligible",
        "Attributes": {"kernel.name": if linux { "linux" } else { "windows" },
                       "driver.docker": if docker { "1" } else { "0" }},
        "NodeResources": {"Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 8192},
                          "Disk": {"DiskMB": 10000}},
    });
    from_slice(n.to_string().as_bytes()).unwrap()
}

/// The metrics of each group's failed placement, by the class-cached
/// scan, or node by node when `recording`.
fn failed_metrics(snapshot: &Snapshot, job: &Job, recording: bool) -> Vec<AllocMetric> {
    let rules = FitRules::of(v(1, 10, 5));
    let cluster = Cluster::new(snapshot, &rules);
    let setup = Setup {
        settings: Settings {
            rules,
            memory_oversubscription: false,
        },
        globs: true,
        pools: true,
        spread_algorithm: false,
        spread: SpreadRules::default(),
        volumes: VolumeRules::default(),
        targets: TargetRules::default(),
    };
    let mut placer = Placer::new(&cluster, job, &[], [], setup);
    for tg in &job.task_groups {
        if recording {
            placer.record(Recorder::new());
        }
        let select = Select {
            name: "web",
            ..Select::default()
        };
        assert_eq!(placer.place(tg, &select), None);
    }
    placer
        .failures()
        .values()
        .map(|f| f.metric.clone())
        .collect()
}

#[test]
fn a_failed_scan_counts_ineligible_classes_as_node_by_node() {
    let nodes = vec![
        node(0, "dc1", "v1:a", "web", true, true),
        node(1, "dc1", "v1:b", "web", false, true),
        node(2, "dc1", "v1:a", "", true, true),
        node(3, "dc1", "v1:b", "batch", false, true),
        node(4, "dc1", "", "web", true, true),
        node(5, "dc1", "", "", false, true),
        node(6, "dc2", "v1:b", "web", false, true),
        node(7, "dc2", "v1:a", "batch", true, true),
        node(8, "dc2", "v1:b", "", false, true),
        node(9, "dc2", "v1:c", "batch", true, false),
        node(10, "dc2", "v1:c", "batch", true, false),
        node(11, "dc3", "v1:a", "web", true, true),
    ];
    let group = |name: &str| {
        json!({"Name": name, "Count": 1,
               "Tasks": [{"Name": "app", "Driver": "docker",
                          "Resources": {"CPU": 100, "MemoryMB": 100000}}]})
    };
    let j = json!({"ID": "web", "Type": "service", "Datacenters": ["dc1", "dc2"],
        "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
        "TaskGroups": [group("a"), group("b")]});
    let job: Job = from_slice(j.to_string().as_bytes()).unwrap();
    let snapshot = Snapshot {
        nodes,
        ..Snapshot::default()
    };
    let by_class = failed_metrics(&snapshot, &job, false);
    assert_eq!(by_class, failed_metrics(&snapshot, &job, true));
    let a = &by_class[0];
    assert_eq!((a.nodes_evaluated, a.nodes_filtered), (11, 7));
    assert_eq!(a.nodes_exhausted, 4);
    fn counted(m: &BTreeMap<String, u64>) -> Vec<(&str, u64)> {
        m.iter().map(|(k, n)| (k.as_str(), *n)).collect()
    }
    assert_eq!(
        counted(&a.constraint_filtered),
        [
            ("${attr.kernel.name} = linux", 2),
            ("computed class ineligible", 4),
            ("missing drivers", 1)
        ]
    );
    assert_eq!(counted(&a.class_filtered), [("batch", 3), ("web", 2)]);
    let b = &by_class[1];
    assert_eq!((b.nodes_evaluated, b.nodes_filtered), (11, 7));
}
