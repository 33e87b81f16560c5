//! Small random snapshots as JSON documents, driven by any source of choices.
//!
//! Shared by the property tests (a `Vec<u32>` from proptest) and the fuzz target
//! (libFuzzer's bytes through `arbitrary`), so both explore the same space: a
//! few jobs of 1-3 groups, up to 30 allocations in every client and desired
//! status (and unknown ones), transitions, `AllocStates`, task events,
//! reschedule trackers, nodes in every status, allocations on missing nodes,
//! deployments with canaries, and durations and times at the limits.

use serde_json::{Value, json};

/// A source of choices: `pick(n)` is in `0..n` (`n > 0`).
pub trait Pick {
    fn pick(&mut self, n: u32) -> u32;

    fn one_of<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.pick(items.len() as u32) as usize].clone()
    }

    fn chance(&mut self, one_in: u32) -> bool {
        self.pick(one_in) == 0
    }
}

/// Choices from a list, then zeros: proptest shrinks the list towards the
/// smallest snapshot.
pub struct Choices<'a>(pub &'a [u32], pub usize);

impl Pick for Choices<'_> {
    fn pick(&mut self, n: u32) -> u32 {
        let v = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        v % n
    }
}

/// 2022-04-01T00:00:00Z, the snapshot's `Now`.
pub const NOW: &str = "2022-04-01T00:00:00Z";
const NOW_NANOS: i64 = 1_648_771_200_000_000_000;
const SECOND: i64 = 1_000_000_000;

const CLIENT: &[&str] = &[
    "pending", "running", "running", "complete", "failed", "failed", "lost", "unknown", "bogus",
];
const DESIRED: &[&str] = &["run", "run", "run", "stop", "evict", "odd"];
const NODE_STATUS: &[&str] = &[
    "ready",
    "ready",
    "down",
    "disconnected",
    "initializing",
    "weird",
];

fn duration(p: &mut impl Pick) -> i64 {
    p.one_of(&[
        0,
        SECOND,
        30 * SECOND,
        300 * SECOND,
        3600 * SECOND,
        -SECOND,
        i64::MAX,
        i64::MAX - 1,
        i64::MIN,
    ])
}

fn rfc3339(p: &mut impl Pick) -> Value {
    json!(p.one_of(&[
        "2022-03-31T23:00:00Z",
        "2022-03-31T23:50:00Z",
        "2022-03-31T23:59:59.5Z",
        "2022-04-01T00:00:00Z",
        "2022-04-01T00:05:00Z",
        "0001-01-01T00:00:00Z",
        "0001-01-01T00:00:01Z",
        "9999-12-31T23:59:59.999999999Z",
    ]))
}

fn unix_nanos(p: &mut impl Pick) -> i64 {
    p.one_of(&[
        NOW_NANOS - 3600 * SECOND,
        NOW_NANOS - 60 * SECOND,
        NOW_NANOS,
        NOW_NANOS + 60 * SECOND,
        0,
        i64::MIN,
        i64::MAX,
    ])
}

fn job(p: &mut impl Pick, id: &str, version: u64, groups: u32) -> Value {
    let groups: Vec<Value> = (0..groups)
        .map(|g| {
            let update = p.chance(2).then(|| {
                json!({
                    "MaxParallel": p.pick(4),
                    "Canary": p.pick(3),
                    "AutoRevert": p.chance(2),
                    "AutoPromote": p.chance(3),
                    "ProgressDeadline": 600 * SECOND,
                })
            });
            let reschedule = p.chance(2).then(|| {
                json!({
                    "Attempts": p.pick(4),
                    "Interval": duration(p),
                    "Delay": duration(p),
                    "DelayFunction": p.one_of(&["constant", "exponential", "fibonacci"]),
                    "MaxDelay": duration(p),
                    "Unlimited": p.chance(3),
                })
            });
            json!({
                "Name": format!("g{g}"),
                "Count": p.pick(6),
                "Update": update,
                "ReschedulePolicy": reschedule,
                "MaxClientDisconnect": p.chance(2).then(|| duration(p)),
                "StopAfterClientDisconnect": p.chance(3).then(|| duration(p)),
                "Tasks": [{
                    "Name": "t",
                    "Driver": "docker",
                    // The image differs between versions only sometimes:
                    // a destructive update, else an in-place one.
                    "Config": {"image": format!("app:{}", version / 2)},
                    "KillTimeout": duration(p),
                    "Resources": {"CPU": 100, "MemoryMB": 256},
                }],
            })
        })
        .collect();
    json!({
        "ID": id,
        "Namespace": "default",
        "Name": id,
        "Type": p.one_of(&["service", "service", "batch"]),
        "Priority": 50,
        "Stop": p.chance(6),
        "Version": version,
        "CreateIndex": 10,
        "JobModifyIndex": 10 + version,
        "ModifyIndex": 10 + version,
        "Datacenters": ["dc1"],
        "TaskGroups": groups,
    })
}

fn alloc(p: &mut impl Pick, i: usize, jobs: &[(String, Vec<Value>)], nodes: u32) -> Value {
    // One job in eight is absent from `Jobs` (purged).
    let (job_id, versions) = if p.chance(8) {
        ("gone".to_string(), vec![])
    } else {
        p.one_of(jobs)
    };
    let embedded = if versions.is_empty() || p.chance(10) {
        Value::Null
    } else {
        p.one_of(&versions)
    };
    let group = format!("g{}", p.pick(4));
    let node = match p.pick(nodes + 1) {
        n if n == nodes => "missing-node".to_string(),
        n => format!("node-{n}"),
    };
    let mut alloc_states = Vec::new();
    for _ in 0..p.pick(3) {
        alloc_states.push(json!({
            "Field": "ClientStatus",
            "Value": p.one_of(&["unknown", "lost", "running"]),
            "Time": rfc3339(p),
        }));
    }
    let events: Vec<Value> = (0..p.pick(3))
        .map(|_| json!({"Type": p.one_of(&["Started", "Reconnected"]), "Time": unix_nanos(p)}))
        .collect();
    let tracker = match p.pick(3) {
        0 => Value::Null,
        1 => json!({"Events": null}),
        _ => {
            let events: Vec<Value> = (0..p.pick(4))
                .map(|k| {
                    json!({
                        "RescheduleTime": unix_nanos(p),
                        "PrevAllocID": format!("prev-{k}"),
                        "Delay": duration(p),
                    })
                })
                .collect();
            json!({ "Events": events })
        }
    };
    json!({
        "ID": format!("a{i:02}"),
        "Namespace": "default",
        "EvalID": "e0",
        "Name": format!("{job_id}.{group}[{}]", p.pick(7)),
        "NodeID": node,
        "JobID": job_id,
        "Job": embedded,
        "TaskGroup": group,
        "DesiredStatus": p.one_of(DESIRED),
        "DesiredTransition": {
            "Migrate": p.chance(5).then_some(true),
            "Reschedule": p.chance(5).then_some(true),
            "ForceReschedule": p.chance(8).then_some(true),
        },
        "ClientStatus": p.one_of(CLIENT),
        "TaskStates": {
            "t": {
                "State": p.one_of(&["running", "dead", "pending"]),
                "Failed": p.chance(3),
                "FinishedAt": rfc3339(p),
                "Events": events,
            }
        },
        "AllocStates": alloc_states,
        "DeploymentID": p.one_of(&["", "d-web-0", "d-web-1"]),
        "DeploymentStatus": p.chance(2).then(|| json!({
            "Healthy": p.one_of(&[Value::Null, json!(true), json!(false)]),
            "Canary": p.chance(2),
        })),
        "RescheduleTracker": tracker,
        "FollowupEvalID": p.one_of(&["", "e0", "f1"]),
        "CreateIndex": 20 + i,
        "ModifyIndex": 30 + i,
        "ModifyTime": unix_nanos(p),
    })
}

/// A snapshot document with `Now` set to [`NOW`].
pub fn snapshot(p: &mut impl Pick) -> Value {
    let nodes = p.pick(4);
    let node_list: Vec<Value> = (0..nodes)
        .map(|n| {
            json!({
                "ID": format!("node-{n}"),
                "Name": format!("n{n}"),
                "Datacenter": "dc1",
                "Status": p.one_of(NODE_STATUS),
                "DrainStrategy": p.chance(5).then(|| json!({"Deadline": 0})),
                "SchedulingEligibility": p.one_of(&["eligible", "ineligible"]),
            })
        })
        .collect();
    let mut jobs = Vec::new();
    let mut current = Vec::new();
    for j in 0..1 + p.pick(3) {
        let id = ["web", "api", "batch"][j as usize].to_string();
        let groups = 1 + p.pick(3);
        let latest = p.pick(3) as u64;
        let versions: Vec<Value> = (0..=latest).map(|v| job(p, &id, v, groups)).collect();
        current.push(versions[latest as usize].clone());
        jobs.push((id, versions));
    }
    let allocs: Vec<Value> = (0..p.pick(31) as usize)
        .map(|i| alloc(p, i, &jobs, nodes))
        .collect();
    let deployments: Vec<Value> = (0..p.pick(3))
        .map(|d| {
            let canaries: Vec<String> = (0..p.pick(3))
                .map(|_| format!("a{:02}", p.pick(30)))
                .collect();
            json!({
                "ID": format!("d-web-{d}"),
                "Namespace": "default",
                "JobID": p.one_of(&["web", "api"]),
                "JobVersion": p.pick(3),
                "JobCreateIndex": p.one_of(&[10, 10, 9]),
                "Status": p.one_of(&["running", "paused", "failed", "successful", "cancelled"]),
                "CreateIndex": 40 + d,
                "TaskGroups": {
                    "g0": {
                        "Promoted": p.chance(2),
                        "DesiredCanaries": p.pick(3),
                        "DesiredTotal": p.pick(6),
                        "PlacedCanaries": canaries,
                        "AutoPromote": p.chance(2),
                    }
                },
            })
        })
        .collect();
    json!({
        "Now": NOW,
        "Jobs": current,
        "JobVersions": jobs.iter().flat_map(|(_, v)| v.clone()).collect::<Vec<_>>(),
        "Nodes": node_list,
        "Allocs": allocs,
        "Deployments": deployments,
        "ACLTokens": [{"SecretID": "generated-secret"}],
    })
}
