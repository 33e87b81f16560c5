//! `TestScheduler_JobRegister_MemoryMaxHonored` (scheduler/scheduler_test.go
//! :19 at 1.6.0, :20 at 2.0.5, the same cases): the `memory_max` an
//! allocation is written with follows the cluster's memory
//! oversubscription, or its node pool's own where the pool sets one, for
//! every job type. The allocations are those a story's plan applier
//! writes (`--until`, the job's pending registration evaluation); Nomad's
//! deprecated `TaskResources` and `Resources` copies of the same amounts
//! are not written by plan-inspect.

use serde_json::{Value, json};

use super::timeline::{Request, tell};
use crate::read::read_snapshot_from;
use crate::replay::Options;
use crate::version::{Release, VersionRequest, v};

/// A snapshot of three nodes in `pool`, the three pools of the test and a
/// job of `job_type` in `pool` asking 100 MHz, 200 MB and `memory_max`,
/// with its registration evaluation pending; the cluster's memory
/// oversubscription is `enabled`.
fn snapshot(job_type: &str, pool: &str, memory_max: i64, enabled: bool) -> Value {
    let nodes: Vec<Value> = (0..3)
        .map(|i| {
            json!({
                "ID": format!("{i:08}-0000-4000-8000-000000000000"), "Name": format!("node-{i}"),
                "Datacenter": "dc1", "NodePool": pool, "Status": "ready",
                "SchedulingEligibility": "eligible",
                "Attributes": {"kernel.name": "linux", "driver.exec": "1"},
                "Drivers": {"exec": {"Detected": true, "Healthy": true}},
                "NodeResources": {"Cpu": {"CpuShares": 4000}, "Memory": {"MemoryMB": 8192},
                                  "Disk": {"DiskMB": 100000}}
            })
        })
        .collect();
    let job = json!({
        "ID": "memory", "Name": "memory", "Namespace": "default", "Type": job_type,
        "Priority": 50, "Datacenters": ["dc1"], "NodePool": pool, "Status": "pending",
        "TaskGroups": [{"Name": "web", "Count": 1, "EphemeralDisk": {"SizeMB": 150},
            "Tasks": [{"Name": "web", "Driver": "exec",
                "Resources": {"CPU": 100, "MemoryMB": 200, "MemoryMaxMB": memory_max}}]}]
    });
    json!({
        "Now": "2023-07-01T00:00:00Z", "EvalID": "replayed", "Jobs": [job], "Nodes": nodes,
        "Allocs": [],
        "Evals": [{"ID": "e1", "Namespace": "default", "JobID": "memory", "Type": job_type,
                   "Priority": 50, "TriggeredBy": "job-register", "Status": "pending"}],
        "SchedulerConfig": {"MemoryOversubscriptionEnabled": enabled},
        "NodePools": [
            {"Name": "pool-none", "SchedulerConfiguration": null},
            {"Name": "pool-on", "SchedulerConfiguration": {"MemoryOversubscriptionEnabled": true}},
            {"Name": "pool-off", "SchedulerConfiguration": {"MemoryOversubscriptionEnabled": false}}
        ]
    })
}

/// The CPU, memory and `memory_max` of task web in each allocation the
/// story placed.
fn written(doc: &Value, release: Release) -> Vec<(i64, i64, i64)> {
    let snapshot = read_snapshot_from(doc.to_string().as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let request = Request {
        events: Vec::new(),
        until: Some("1m".parse().unwrap()),
        healthy_after: None,
    };
    let told = tell(&snapshot, &options, &request, None).unwrap();
    told.world
        .snapshot
        .allocs
        .iter()
        .map(|a| {
            let r = a.allocated_resources.as_ref().expect("resources written");
            let t = &r.tasks["web"];
            (t.cpu.cpu_shares, t.memory.memory_mb, t.memory.memory_max_mb)
        })
        .collect()
}

#[test]
fn scheduler_test_go_v1_6_0_v2_0_5_job_register_memory_max_honored() {
    // (case, pool, memory_max, cluster's oversubscription, memory_max written)
    let cases = [
        ("plain no max", "pool-none", 0, true, 0),
        ("with max", "pool-none", 300, true, 300),
        ("with max but disabled", "pool-none", 300, false, 0),
        (
            "with max and enabled by node pool",
            "pool-on",
            300,
            false,
            300,
        ),
        (
            "with max but disabled by node pool",
            "pool-off",
            300,
            true,
            0,
        ),
    ];
    for release in [v(1, 6, 0), v(2, 0, 5)] {
        for job_type in ["batch", "service", "sysbatch", "system"] {
            for (case, pool, max, enabled, want) in cases {
                let doc = snapshot(job_type, pool, max, enabled);
                let got = written(&doc, release);
                // One allocation for a service or batch job, one per node
                // of the pool for a system or sysbatch job.
                let count = match job_type {
                    "batch" | "service" => 1,
                    _ => 3,
                };
                assert_eq!(
                    got,
                    vec![(100, 200, want); count],
                    "{release} {job_type} {case}"
                );
            }
        }
    }
}

/// Before 1.6.0 the pool's own setting is not read: the cluster's
/// oversubscription alone decides, both ways.
#[test]
fn a_node_pool_s_memory_oversubscription_is_ignored_before_1_6_0() {
    for job_type in ["service", "system"] {
        let on = snapshot(job_type, "pool-on", 300, false);
        let off = snapshot(job_type, "pool-off", 300, true);
        for (doc, before, from) in [(on, 0, 300), (off, 300, 0)] {
            let maxes =
                |release| -> Vec<i64> { written(&doc, release).iter().map(|w| w.2).collect() };
            let count = if job_type == "system" { 3 } else { 1 };
            assert_eq!(maxes(v(1, 5, 17)), vec![before; count], "{job_type}");
            assert_eq!(maxes(v(1, 6, 0)), vec![from; count], "{job_type}");
        }
    }
}
