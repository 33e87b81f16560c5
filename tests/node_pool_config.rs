//! A node pool's own scheduler configuration (#17598, from 1.6.0) for a
//! system job: its memory oversubscription is the one the system stack
//! fits with, and the plan and `--explain` say it is the pool's.

use plan_inspect::explain::explain;
use plan_inspect::model::Snapshot;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::json;

/// Two nodes of pool `gpu`, whose own configuration turns memory
/// oversubscription on, and a system job there asking for `memory_max`;
/// the cluster's configuration leaves it off.
fn snapshot() -> Snapshot {
    let nodes: Vec<_> = (0..2)
        .map(|i| {
            json!({
                "ID": format!("{i:08}-0000-4000-8000-000000000000"), "Name": format!("node-{i}"),
                "Datacenter": "dc1", "NodePool": "gpu", "Status": "ready",
                "SchedulingEligibility": "eligible",
                "Attributes": {"kernel.name": "linux", "driver.exec": "1"},
                "Drivers": {"exec": {"Detected": true, "Healthy": true}},
                "NodeResources": {"Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 8192},
                                  "Disk": {"DiskMB": 100000}}
            })
        })
        .collect();
    let doc = json!({
        "Now": "2023-07-01T00:00:00Z", "Nodes": nodes, "Allocs": [],
        "Jobs": [{"ID": "agent", "Name": "agent", "Namespace": "default", "Type": "system",
                  "Priority": 50, "Datacenters": ["dc1"], "NodePool": "gpu",
                  "TaskGroups": [{"Name": "agent", "Count": 1,
                      "Tasks": [{"Name": "agent", "Driver": "exec",
                          "Resources": {"CPU": 100, "MemoryMB": 200, "MemoryMaxMB": 300}}]}]}],
        "SchedulerConfig": {"SchedulerAlgorithm": "binpack"},
        "NodePools": [{"Name": "gpu", "Description": "GPUs", "Meta": {"k": "v"},
                       "SchedulerConfiguration": {"MemoryOversubscriptionEnabled": true},
                       "CreateIndex": 10, "ModifyIndex": 12}]
    });
    read_snapshot_from(doc.to_string().as_bytes(), "pools.json").unwrap()
}

fn at(release: Release) -> Options {
    Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    }
}

#[test]
fn a_system_job_s_plan_names_its_pool_s_configuration_from_1_6_0() {
    let s = snapshot();
    for release in [v(1, 6, 0), v(2, 0, 5)] {
        let report = Replay::new(&s, &at(release)).unwrap().report();
        let plan = &report.jobs[0].plan;
        assert_eq!(plan.place.len(), 2, "{release}");
        let c = plan
            .scheduler_config
            .as_ref()
            .expect("the pool's configuration");
        assert_eq!(
            (c.node_pool.as_str(), c.scheduler_algorithm.as_str()),
            ("gpu", "binpack")
        );
        assert!(c.memory_oversubscription_enabled, "{release}");
        assert_eq!(c.set_by_node_pool, ["memory_oversubscription_enabled"]);
        let e = explain(&s, &at(release), "agent.agent[0]@00000001").unwrap();
        let step = e
            .steps
            .iter()
            .find(|s| s.title == "Scheduler configuration")
            .expect("a scheduler configuration step");
        assert_eq!(
            step.facts[1].value,
            "on (set by node pool gpu): a task's memory_max reaches its allocation"
        );
        assert_eq!(step.facts[0].value, "binpack (the cluster's)");
    }
    let report = Replay::new(&s, &at(v(1, 5, 17))).unwrap().report();
    assert_eq!(report.jobs[0].plan.scheduler_config, None);
    let e = explain(&s, &at(v(1, 5, 17)), "agent.agent[0]@00000001").unwrap();
    assert!(e.steps.iter().all(|s| s.title != "Scheduler configuration"));
}
