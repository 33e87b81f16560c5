//! Job-modify and scheduler-configuration cases of
//! scheduler/generic_sched_test.go at 1.3.0 and 2.0.5 (or the tag that
//! adds them), on `mock.Node()` and `mock.Job()` as tests/generic_sched.rs
//! builds them: a rolling update on a full node, the reschedule penalty
//! and the scheduler algorithm. Nomad samples nodes at random; these
//! assert what is forced.

use std::collections::BTreeSet;

use plan_inspect::explain::explain;
use plan_inspect::model::Snapshot;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

use super::generic_sched::{job, node, nodes, placed_nodes};

pub(super) const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];

pub(super) fn id(i: usize) -> String {
    format!("{i:08}-0000-4000-8000-000000000000")
}

pub(super) fn snapshot(
    nodes: Vec<Value>,
    jobs: Vec<Value>,
    allocs: Vec<Value>,
    config: Value,
) -> Snapshot {
    let mut doc = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": jobs, "Nodes": nodes, "Allocs": allocs
    });
    if !config.is_null() {
        doc["SchedulerConfig"] = config;
    }
    let text = doc.to_string();
    read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap()
}

fn at(release: Release) -> Options {
    Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    }
}

/// The report of job `job` in a replay of `snapshot` at `release`.
pub(super) fn replay(snapshot: &Snapshot, job: &str, release: Release) -> JobReport {
    let report = Replay::new(snapshot, &at(release)).unwrap().report();
    report.jobs.into_iter().find(|j| j.id == job).unwrap()
}

/// The mock job with its task's `command`, for updates that are
/// destructive.
pub(super) fn job_with_command(count: i64, command: &str) -> Value {
    let mut j = job(count);
    j["TaskGroups"][0]["Tasks"][0]["Config"] = json!({"command": command});
    j
}

/// `job` as a later registration, version 1: Nomad's state store bumps
/// `JobModifyIndex` on every upsert.
pub(super) fn registered_again(mut job: Value) -> Value {
    job["Version"] = json!(1);
    job["JobModifyIndex"] = json!(2);
    job
}

/// An allocation of the mock job's group "web" named `name` on node `n`,
/// running `job`, holding `cpu` MHz and `mem` MB.
pub(super) fn alloc(
    alloc_id: &str,
    name: &str,
    n: usize,
    job: &Value,
    cpu: i64,
    mem: i64,
) -> Value {
    json!({
        "ID": alloc_id, "Name": name, "Namespace": "default",
        "JobID": job["ID"], "TaskGroup": "web", "NodeID": id(n),
        "Job": job, "JobVersion": job["Version"],
        "DesiredStatus": "run", "ClientStatus": "running",
        "AllocatedResources": {
            "Tasks": {"web": {"Cpu": {"CpuShares": cpu}, "Memory": {"MemoryMB": mem}}},
            "Shared": {"DiskMB": 150}
        }
    })
}

/// TestServiceSched_JobModify_Rolling_FullNode: one allocation takes the
/// whole node (reserved resources cleared); the job grows to five of the
/// mock task's size with `max_parallel` 5 and a changed command. The
/// destructive update frees the node, so its replacement and four new
/// allocations all land there: one eviction, five placements, and a
/// deployment of five without canaries.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_rolling_full_node() {
    let mut n = node(0);
    n["ReservedResources"] = Value::Null;
    let mut old = job_with_command(1, "/bin/date");
    old["JobModifyIndex"] = json!(1);
    old["TaskGroups"][0]["Tasks"][0]["Resources"] = json!({"CPU": 4000, "MemoryMB": 8192});
    let mut new = registered_again(job_with_command(5, "/bin/other"));
    new["TaskGroups"][0]["Update"] = json!({
        "MaxParallel": 5, "HealthCheck": "checks",
        "MinHealthyTime": 10_000_000_000u64, "HealthyDeadline": 600_000_000_000u64
    });
    let full = alloc("a0", "my-job.web[0]", 0, &old, 4000, 8192);
    let s = snapshot(vec![n], vec![new], vec![full], Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let [d] = r.plan.destructive_update.as_slice() else {
            panic!("{release}: {:#?}", r.plan);
        };
        assert_eq!(d.node_id.as_deref(), Some(id(0).as_str()), "{release}");
        assert!(r.plan.stop.is_empty(), "{release}");
        assert_eq!(placed_nodes(&r), vec![id(0); 4], "{release}");
        assert!(r.plan.failed_placements.is_empty(), "{release}");
        let deployment = r.plan.deployment.as_ref().expect("a deployment");
        let web = &deployment.groups["web"];
        assert_eq!(
            (web.desired_total, web.desired_canaries),
            (5, 0),
            "{release}"
        );
    }
}

/// The reschedule policy of TestServiceSched_JobModify_NodeReschedulePenalty:
/// one attempt in 15 minutes, 5s constant delay up to a minute.
fn penalty_job(command: &str) -> Value {
    let mut j = job_with_command(2, command);
    j["JobModifyIndex"] = json!(1);
    j["TaskGroups"][0]["ReschedulePolicy"] = json!({
        "Attempts": 1, "Interval": 900_000_000_000u64, "Delay": 5_000_000_000u64,
        "MaxDelay": 60_000_000_000u64, "DelayFunction": "constant"
    });
    j
}

/// The nodes `subject`'s explanation says get `node-reschedule-penalty`
/// -1 (the "penalised" fact of its "Scores" step), empty when none do.
fn penalised(s: &Snapshot, release: Release, subject: &str) -> String {
    let e = explain(s, &at(release), subject).expect("explain failed");
    let step = e.steps.into_iter().find(|s| s.title == "Scores").unwrap();
    let fact = step.facts.into_iter().find(|f| f.name == "penalised");
    fact.map(|f| f.value.rsplit(": ").next().unwrap().to_string())
        .unwrap_or_default()
}

/// TestServiceSched_JobModify_NodeReschedulePenalty: of two allocations on
/// ten nodes, the one on node 1 failed 10s ago and is rescheduled now. Its
/// replacement links to it and node 1 scores `node-reschedule-penalty` -1
/// for it, no other node does; the penalty sends it elsewhere. After a
/// destructive update of the job, the two replacements of the running
/// allocations carry no penalty on any node.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_node_reschedule_penalty() {
    let j = penalty_job("/bin/date");
    let ok = alloc("a-ok", "mock-service.web[0]", 0, &j, 500, 256);
    let mut failed = alloc("a-failed", "mock-service.web[1]", 1, &j, 500, 256);
    failed["ClientStatus"] = json!("failed");
    failed["TaskStates"] = json!({"web": {"State": "dead", "Failed": true,
        "StartedAt": "2022-03-31T23:00:00Z", "FinishedAt": "2022-03-31T23:59:50Z"}});
    let s = snapshot(
        nodes(10),
        vec![j.clone()],
        vec![ok.clone(), failed.clone()],
        Value::Null,
    );
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let [p] = r.plan.place.as_slice() else {
            panic!("{release}: {:?}", r.plan.place);
        };
        assert_eq!(
            p.previous_alloc_id.as_ref().map(|i| i.to_string()),
            Some("a-failed".to_string()),
            "{release}"
        );
        assert!(p.reschedule, "{release}");
        assert_ne!(p.node_id.as_deref(), Some(id(1).as_str()), "{release}");
        assert_eq!(penalised(&s, release, &p.name), id(1), "{release}");
    }
    // The job updated destructively after that evaluation: the running
    // allocation on node 0 and the replacement that landed on node 2 (its
    // tracker naming node 1) are replaced. No node but node 1 is penalised
    // (all Nomad asserts); node 1 is, for the replacement of the one whose
    // tracker names it (`getSelectOptions`, scheduler/generic_sched.go:722
    // at 1.3.0, :802 at 2.0.5).
    let new = registered_again(penalty_job("/bin/other"));
    failed["NextAllocation"] = json!("a-new");
    let mut replacement = alloc("a-new", "mock-service.web[1]", 2, &j, 500, 256);
    replacement["PreviousAllocation"] = json!("a-failed");
    replacement["RescheduleTracker"] = json!({"Events": [{
        "RescheduleTime": 1_648_771_195_000_000_000u64, "PrevAllocID": "a-failed",
        "PrevNodeID": id(1), "Delay": 5_000_000_000u64}]});
    let s = snapshot(
        nodes(10),
        vec![new],
        vec![ok, failed, replacement],
        Value::Null,
    );
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let replaced: BTreeSet<String> = r
            .plan
            .destructive_update
            .iter()
            .map(|d| d.alloc_id.to_string())
            .collect();
        assert_eq!(
            replaced,
            ["a-new", "a-ok"].map(String::from).into(),
            "{release}"
        );
        assert!(r.plan.place.is_empty(), "{release}");
        for d in &r.plan.destructive_update {
            assert!(d.replaced(), "{release}");
            let want = match d.alloc_id.to_string().as_str() {
                "a-new" => id(1),
                _ => String::new(),
            };
            assert_eq!(
                penalised(&s, release, &d.name),
                want,
                "{release} {}",
                d.name
            );
        }
    }
}

/// The node pools of TestServiceSched_JobRegister_SchedulerAlgorithm:
/// one without a configuration of its own, one that bin packs, one that
/// spreads (`SchedulerConfiguration` is Nomad Enterprise's; the dump lists
/// the pools under `NodePools`).
fn algorithm_pools() -> Value {
    json!([
        {"Name": "pool-none", "SchedulerConfiguration": null},
        {"Name": "pool-binpack", "SchedulerConfiguration": {"SchedulerAlgorithm": "binpack"}},
        {"Name": "pool-spread", "SchedulerConfiguration": {"SchedulerAlgorithm": "spread"}}
    ])
}

/// Two nodes of `pool` and two jobs of it, the `existing` one with an
/// allocation on node 0, the other (`mock-service`, of `job_type`) to
/// place; the cluster's algorithm is `algorithm`.
fn algorithm_snapshot(pool: &str, algorithm: &str, job_type: &str) -> Snapshot {
    let mut existing = job(1);
    existing["ID"] = json!("existing");
    existing["Name"] = json!("existing");
    existing["NodePool"] = json!(pool);
    let mut on_0 = alloc("a-existing", "existing.web[0]", 0, &existing, 500, 256);
    on_0["JobID"] = json!("existing");
    let mut j = job(1);
    j["Type"] = json!(job_type);
    j["NodePool"] = json!(pool);
    let mut two = nodes(2);
    for n in &mut two {
        n["NodePool"] = json!(pool);
    }
    let doc = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [j, existing], "Nodes": two, "Allocs": [on_0],
        "SchedulerConfig": {"SchedulerAlgorithm": algorithm}, "NodePools": algorithm_pools()
    });
    read_snapshot_from(doc.to_string().as_bytes(), "snapshot.json").unwrap()
}

/// TestServiceSched_JobRegister_SchedulerAlgorithm (scheduler/
/// generic_sched_test.go:1470 at 1.6.0, :1827 at 2.0.5, the same cases),
/// for a batch and a service job: another job's allocation runs on node 0
/// of the pool's two; bin packing puts the new allocation beside it,
/// spread on the empty node 1 (which the tie-break by node ID would not
/// pick). The cluster's algorithm applies to a pool without its own; a
/// pool's own overrides it, and the plan records which
/// (`scheduler_config`).
#[test]
fn generic_sched_test_go_v1_6_0_v2_0_5_job_register_scheduler_algorithm() {
    let cases = [
        ("pool-none", "binpack", true),
        ("pool-none", "spread", false),
        ("pool-binpack", "spread", true),
        ("pool-spread", "binpack", false),
    ];
    for job_type in ["batch", "service"] {
        for (pool, algorithm, beside) in cases {
            let s = algorithm_snapshot(pool, algorithm, job_type);
            for release in [v(1, 6, 0), v(2, 0, 5)] {
                let r = replay(&s, "mock-service", release);
                let want = if beside { id(0) } else { id(1) };
                let case = format!("{release} {job_type} {pool} {algorithm}");
                assert_eq!(placed_nodes(&r), [want], "{case}");
                let fact = r.plan.scheduler_config.as_ref();
                match pool {
                    "pool-none" => assert_eq!(fact, None, "{case}"),
                    _ => {
                        let fact = fact.unwrap();
                        assert_eq!(fact.node_pool, pool, "{case}");
                        let own = if beside { "binpack" } else { "spread" };
                        assert_eq!(fact.scheduler_algorithm, own, "{case}");
                        assert_eq!(fact.set_by_node_pool, ["scheduler_algorithm"], "{case}");
                    }
                }
            }
        }
    }
}

/// Before 1.6.0 there are no node pools to configure: a dump that lists
/// one with its own algorithm is replayed under the cluster's, and the
/// pool's configuration is named as ignored. From 1.6.0 the pool's holds.
#[test]
fn a_node_pool_s_own_algorithm_is_read_from_1_6_0() {
    let s = algorithm_snapshot("pool-spread", "binpack", "service");
    for (release, want) in [(v(1, 5, 17), id(0)), (v(1, 6, 0), id(1))] {
        let report = Replay::new(&s, &at(release)).unwrap().report();
        let r = report.jobs.iter().find(|j| j.id == "mock-service").unwrap();
        assert_eq!(placed_nodes(r), [want], "{release}");
        let ignored: Vec<&str> = report
            .warnings
            .iter()
            .filter(|w| w.code == "input_ignored")
            .map(|w| w.message.as_str())
            .collect();
        match release < v(1, 6, 0) {
            true => assert_eq!(
                ignored,
                [
                    "the scheduler configuration of node pool pool-binpack and of 1 more node \
                     pools ignored: replaying Nomad 1.5.17 semantics, which read it only from \
                     Nomad 1.6.0 on (#17598)"
                ],
                "{release}"
            ),
            false => assert!(ignored.is_empty(), "{release}: {ignored:?}"),
        }
    }
}

/// TestServiceSched_ReservedCores_InPlace (added at 1.10.1 with #25705;
/// here at 1.10.1 and 2.0.5): two allocations of a one-core task hold
/// cores 1 and 2 of the node's four; the count grows to three. Both are
/// updated in place (they keep their cores, scheduler/util.go
/// `genericAllocUpdateFn`), the third is placed on the node's free cores,
/// and nothing fails or is blocked. The plan does not list the cores an
/// allocation gets, so that part of Nomad's assertion has no counterpart.
#[test]
fn generic_sched_test_go_v1_10_1_v2_0_5_reserved_cores_in_place() {
    let mut n = node(0);
    n["NodeResources"]["Cpu"] =
        json!({"CpuShares": 14000, "TotalCpuCores": 4, "ReservableCpuCores": [0, 1, 2, 3]});
    let mut old = job(2);
    old["JobModifyIndex"] = json!(1);
    old["TaskGroups"][0]["Tasks"][0]["Resources"]["Cores"] = json!(1);
    let mut new = old.clone();
    new["TaskGroups"][0]["Count"] = json!(3);
    let new = registered_again(new);
    let allocs: Vec<Value> = (0..2)
        .map(|i| {
            let mut a = alloc(
                &format!("a{i}"),
                &format!("my-job.web[{i}]"),
                0,
                &old,
                3500,
                256,
            );
            a["AllocatedResources"]["Tasks"]["web"]["Cpu"]["ReservedCores"] = json!([i + 1]);
            a
        })
        .collect();
    let s = snapshot(vec![n], vec![new], allocs, Value::Null);
    for release in [v(1, 10, 1), v(2, 0, 5)] {
        let r = replay(&s, "mock-service", release);
        assert_eq!(r.plan.in_place_update.len(), 2, "{release}: {:?}", r.plan);
        assert!(r.plan.destructive_update.is_empty(), "{release}");
        assert_eq!(
            placed_nodes(&r),
            [id(0)],
            "{release}: {:#?}",
            r.plan.failed_placements
        );
        assert!(r.plan.failed_placements.is_empty(), "{release}");
        assert!(r.plan.blocked_eval.is_none(), "{release}");
    }
}

/// An in-place update keeps its allocation's ports (`genericAllocUpdateFn`,
/// scheduler/util.go:879-898 at 1.3.0): two allocations holding ports
/// 25000-25003 on the mock node are updated in place as the count grows to
/// three, and the third is placed beside them. Counted with the ports of
/// fresh offers instead, both updates took the same lowest free ports and
/// the node collided with itself ("network: port collision").
#[test]
fn an_in_place_update_keeps_its_ports_for_later_placements() {
    let mut old = job(2);
    old["JobModifyIndex"] = json!(1);
    let mut new = old.clone();
    new["TaskGroups"][0]["Count"] = json!(3);
    let new = registered_again(new);
    let allocs: Vec<Value> = (0..2)
        .map(|i| {
            let mut a = alloc(
                &format!("a{i}"),
                &format!("mock-service.web[{i}]"),
                0,
                &old,
                500,
                256,
            );
            a["AllocatedResources"]["Tasks"]["web"]["Networks"] = json!([{
                "Device": "eth0", "IP": "192.168.0.100", "MBits": 50,
                "DynamicPorts": [{"Label": "http", "Value": 25000 + 2 * i},
                                 {"Label": "admin", "Value": 25001 + 2 * i}]}]);
            a
        })
        .collect();
    let s = snapshot(vec![node(0)], vec![new], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert_eq!(r.plan.in_place_update.len(), 2, "{release}");
        assert_eq!(
            placed_nodes(&r),
            [id(0)],
            "{release}: {:?}",
            r.plan.failed_placements
        );
    }
}

/// TestServiceSched_JobRegister_EphemeralDisk (added at 1.11.0 with
/// #26662; here at 1.11.0 and 2.0.5): ten allocations of a job with a
/// `sticky` disk, placed by a first evaluation on mock nodes of 2.0.5's
/// size (four cores of 3500 MHz). A change of CPU replaces each on its own
/// node; a change of node pool, or of datacenters, to the one node in
/// "test" (with `migrate` too) replaces them all there.
#[test]
fn generic_sched_test_go_v1_11_0_v2_0_5_job_register_ephemeral_disk() {
    let big = |i: usize| {
        let mut n = node(i);
        n["NodeResources"]["Cpu"]["CpuShares"] = json!(14000);
        n
    };
    let sticky = |migrate: bool| {
        let mut j = job(10);
        j["JobModifyIndex"] = json!(1);
        j["TaskGroups"][0]["EphemeralDisk"] =
            json!({"SizeMB": 150, "Sticky": true, "Migrate": migrate});
        j
    };
    // The first evaluation's placements: `on(i)` is the node of web[i].
    let running = |old: &Value, on: &dyn Fn(usize) -> usize| -> Vec<Value> {
        (0..10)
            .map(|i| {
                alloc(
                    &format!("a{i}"),
                    &format!("mock-service.web[{i}]"),
                    on(i),
                    old,
                    500,
                    256,
                )
            })
            .collect()
    };
    let replaced_on = |r: &JobReport| -> Vec<(String, String)> {
        let mut on: Vec<(String, String)> = r
            .plan
            .destructive_update
            .iter()
            .map(|d| {
                (
                    d.alloc_id.to_string(),
                    d.node_id.as_deref().unwrap_or("").to_string(),
                )
            })
            .collect();
        on.sort();
        on
    };
    let ids = |f: &dyn Fn(usize) -> usize| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = (0..10).map(|i| (format!("a{i}"), id(f(i)))).collect();
        v.sort();
        v
    };
    // Same pool: each stays on its node.
    let old = sticky(false);
    let mut new = registered_again(old.clone());
    new["TaskGroups"][0]["Tasks"][0]["Resources"]["CPU"] = json!(510);
    let s = snapshot(
        (0..10).map(big).collect(),
        vec![new],
        running(&old, &|i| i),
        Value::Null,
    );
    for release in [v(1, 11, 0), v(2, 0, 5)] {
        let r = replay(&s, "mock-service", release);
        assert_eq!(replaced_on(&r), ids(&|i| i), "{release}");
    }
    // A new pool or datacenter holding only node 5: all move there.
    let old = sticky(true);
    let mut nodes: Vec<Value> = (0..6).map(big).collect();
    nodes[5]["NodePool"] = json!("test");
    let mut pool = registered_again(old.clone());
    pool["NodePool"] = json!("test");
    let mut dc_nodes: Vec<Value> = (0..6).map(big).collect();
    dc_nodes[5]["Datacenter"] = json!("test");
    let mut dc = registered_again(old.clone());
    dc["Datacenters"] = json!(["test"]);
    for (nodes, new) in [(nodes, pool), (dc_nodes, dc)] {
        let s = snapshot(nodes, vec![new], running(&old, &|i| i / 2), Value::Null);
        for release in [v(1, 11, 0), v(2, 0, 5)] {
            let r = replay(&s, "mock-service", release);
            assert_eq!(replaced_on(&r), ids(&|_| 5), "{release}");
        }
    }
}
