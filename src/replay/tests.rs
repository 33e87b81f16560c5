//! The threaded path for large jobs must give what the single-threaded one
//! gives: both are run on one mixed snapshot and their reports compared.

use serde_json::{Value, json};

use super::*;
use crate::read::read_snapshot_from;

const NOW: i64 = 1_648_814_400_000_000_000; // 2022-04-01T12:00:00Z
const MINUTE: i64 = 60_000_000_000;

fn job(version: u64) -> Value {
    let group = |name: &str, count: u64, disconnect: Option<i64>| {
        json!({
            "Name": name, "Count": count, "MaxClientDisconnect": disconnect,
            // Without an update strategy, destructive updates are not held back.
            "Update": (name == "web").then(|| json!({"MaxParallel": 7, "HealthCheck": "checks",
                       "Canary": if version == 3 { 2 } else { 0 }})),
            "ReschedulePolicy": {"Attempts": 0, "Delay": 30_000_000_000_u64,
                                 "DelayFunction": "exponential",
                                 "MaxDelay": 3_600_000_000_000_u64, "Unlimited": true},
            "Tasks": [{"Name": "app", "Driver": "docker",
                       "Config": {"image": format!("app:{version}")}}]
        })
    };
    json!({
        "ID": "web", "Name": "web", "Namespace": "default", "Type": "service",
        "Priority": 50, "Status": "running", "Version": version,
        "JobModifyIndex": 100 + version, "CreateIndex": 10, "Datacenters": ["dc1"],
        "TaskGroups": [group("web", 1500, Some(5 * MINUTE)), group("worker", 1000, None)]
    })
}

/// 3,000 allocations of one job over nodes of every status, in every client
/// status, on three job versions, some unknown (before and past their
/// expiry), some reconnected, with a canary deployment for one group.
fn snapshot() -> Snapshot {
    let statuses = [
        "ready",
        "ready",
        "ready",
        "down",
        "disconnected",
        "initializing",
    ];
    let nodes: Vec<Value> = (0..48)
        .map(|i| {
            let draining = i % 12 == 1;
            json!({"ID": format!("node-{i:02}"), "Status": statuses[i % statuses.len()],
                   "DrainStrategy": if draining { json!({"Deadline": 0}) } else { Value::Null },
                   "SchedulingEligibility": if draining { "ineligible" } else { "eligible" }})
        })
        .collect();
    let clients = [
        "running", "running", "pending", "failed", "complete", "unknown", "lost",
    ];
    let allocs: Vec<Value> = (0..3000_usize)
        .map(|i| {
            let (group, index) = if i % 5 < 3 {
                ("web", i % 1600)
            } else {
                ("worker", i % 1100)
            };
            let client = clients[i % clients.len()];
            // One minute ago, within `MaxClientDisconnect`, or ten, past it.
            let unknown_since = if i % 2 == 0 {
                "2022-04-01T11:59:00Z"
            } else {
                "2022-04-01T11:50:00Z"
            };
            let states = (client == "unknown").then(
                || json!([{"Field": "ClientStatus", "Value": "unknown", "Time": unknown_since}]),
            );
            let reconnected = i % 11 == 0;
            let task_states = json!({"app": {"State": "running", "Failed": client == "failed",
                "Events": if reconnected { json!([{"Type": "Reconnected", "Time": NOW - MINUTE}]) }
                          else { json!([]) }}});
            let version = 1 + (i % 3) as u64;
            let canary = version == 3 && i % 13 == 0;
            json!({
                "ID": format!("{:08x}-0000-4000-8000-{i:012}", (i * 7919) % 100_000),
                "Namespace": "default", "JobID": "web", "TaskGroup": group,
                "Name": format!("web.{group}[{index}]"), "NodeID": format!("node-{:02}", i % 48),
                "ClientStatus": client,
                "DesiredStatus": if i % 41 == 0 { "stop" } else { "run" },
                "DesiredTransition": {"Migrate": i % 17 == 0, "Reschedule": i % 19 == 0},
                "AllocStates": states, "TaskStates": task_states,
                "DeploymentID": if version == 3 { "d-3" } else { "" },
                "DeploymentStatus": if version == 3 {
                    json!({"Healthy": group == "worker" || i % 4 != 0, "Canary": canary})
                } else { Value::Null },
                "Metrics": {"ScoreMetaData": [{"NodeID": format!("node-{:02}", i % 48),
                                               "NormScore": (i % 10) as f64 / 10.0}]},
                "CreateIndex": 20 + i, "ModifyIndex": 30 + i,
                "ModifyTime": NOW - (i as i64 % 90) * MINUTE,
                "Job": job(version)
            })
        })
        .collect();
    let deployment = json!({
        "ID": "d-3", "Namespace": "default", "JobID": "web", "JobVersion": 3,
        "JobCreateIndex": 10, "CreateIndex": 60, "Status": "running",
        "TaskGroups": {"web": {"DesiredCanaries": 2, "DesiredTotal": 1500, "PlacedCanaries": []}}
    });
    let text = json!({"Allocs": allocs, "Deployments": [deployment], "Jobs": [job(3)],
                      "Nodes": nodes, "Now": "2022-04-01T12:00:00Z"})
    .to_string();
    read_snapshot_from(text.as_bytes(), "mixed.json").expect("the snapshot is valid")
}

fn replay_with(snapshot: &Snapshot, parallel_from: usize) -> String {
    let prep = Prepared::new(snapshot, &Options::default()).expect("no --eval");
    let ctx = JobContext {
        parallel_from,
        ..prep.job_context()
    };
    let jobs = collect_jobs(snapshot)
        .iter()
        .map(|w| ctx.trace_job(w, |report, _, _| report))
        .collect();
    serde_json::to_string_pretty(&prep.report(jobs)).expect("a report serializes")
}

#[test]
fn the_threaded_path_reports_what_the_single_threaded_path_reports() {
    let snapshot = snapshot();
    let single = replay_with(&snapshot, usize::MAX);
    let threaded = replay_with(&snapshot, 0);
    // The mix reaches every kind of change, so the comparison covers them.
    let report: Value = serde_json::from_str(&single).expect("valid JSON");
    let job = &report["jobs"][0];
    for key in [
        "stop",
        "place",
        "destructive_update",
        "disconnect_updates",
        "reconnect_updates",
        "attribute_updates",
        "followup_evals",
    ] {
        let n = job["plan"][key].as_array().map_or(0, Vec::len);
        assert!(n > 0, "no {key} in the plan");
    }
    let changes = |group: usize, key: &str| job["groups"][group]["desired_changes"][key].as_u64();
    assert!(changes(0, "canary") > Some(0) && changes(1, "migrate") > Some(0));
    assert!(single == threaded, "the two paths differ");
}

#[test]
fn jobs_replayed_on_threads_keep_their_order() {
    let items: Vec<u64> = (0..200).collect();
    // Uneven work, so that the threads finish out of order.
    let f = |&i: &u64| (0..(i % 7) * 20_000).fold(i, |acc, x| acc ^ x.wrapping_mul(31));
    let one: Vec<u64> = items.iter().map(f).collect();
    for workers in [0, 1, 2, 3, 500] {
        assert_eq!(map_in_order(&items, workers, f), one, "{workers} workers");
    }
    assert!(map_in_order(&[] as &[u64], 2, f).is_empty());
}
