//! The reconciler-side cases of scheduler/generic_sched_test.go at 1.3.0
//! and 2.0.5 (job modify, deregister, batch runs), through the replay on
//! `mock.Node()` and `mock.Job()` as tests/generic_sched.rs builds them:
//! what the plan stops, updates and places, and where.

use std::collections::BTreeSet;

use plan_inspect::model::{ClientStatus, Snapshot};
use plan_inspect::read::read_snapshot_from;
use plan_inspect::version::v;
use serde_json::{Value, json};

use super::generic_sched::{nodes, placed_nodes};
use super::generic_sched_modify::{
    BOTH, alloc, id, job_with_command, registered_again, replay, snapshot,
};

/// Ten running allocations `my-job.web[i]` of `job`, one on each of nodes
/// 0-9, with IDs `run-i`.
fn running(job: &Value) -> Vec<Value> {
    (0..10)
        .map(|i| {
            alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                i,
                job,
                500,
                256,
            )
        })
        .collect()
}

/// Five server-terminal allocations (desired `stop`, client `status`) of
/// `job` on nodes 0-4 with the names of the first five running ones.
fn terminal(job: &Value, status: &str) -> Vec<Value> {
    (0..5)
        .map(|i| {
            let mut a = alloc(
                &format!("term-{i}"),
                &format!("my-job.web[{i}]"),
                i,
                job,
                500,
                256,
            );
            a["DesiredStatus"] = json!("stop");
            a["ClientStatus"] = json!(status);
            a
        })
        .collect()
}

pub(super) fn ids<T: ToString>(list: impl Iterator<Item = T>) -> BTreeSet<String> {
    list.map(|i| i.to_string()).collect()
}

fn run_ids() -> BTreeSet<String> {
    (0..10).map(|i| format!("run-{i}")).collect()
}

/// TestServiceSched_JobModify: ten running allocations and five
/// server-terminal failed ones; the task's command changes. Every running
/// allocation is replaced (ten evictions, ten placements), the terminal
/// ones are neither stopped nor rescheduled, and nothing fails. The mock
/// job has no update block, so no rolling limit holds any back.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify() {
    let old = job_with_command(10, "/bin/date");
    let new = registered_again(job_with_command(10, "/bin/other"));
    let mut allocs = running(&old);
    allocs.extend(terminal(&old, "failed"));
    let s = snapshot(nodes(10), vec![new], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let replaced = ids(r.plan.destructive_update.iter().map(|d| &d.alloc_id));
        assert_eq!(replaced, run_ids(), "{release}");
        assert!(
            r.plan
                .destructive_update
                .iter()
                .all(|d| d.node_id.is_some()),
            "{release}: {:#?}",
            r.plan.destructive_update
        );
        assert!(r.plan.stop.is_empty(), "{release}: {:?}", r.plan.stop);
        assert!(r.plan.place.is_empty(), "{release}: {:?}", r.plan.place);
        assert!(r.plan.failed_placements.is_empty(), "{release}");
        assert!(r.plan.blocked_eval.is_none(), "{release}");
    }
}

/// TestServiceSched_JobModify_CountZero: the group's count drops to zero.
/// Every allocation the server still wants running is stopped (at 2.0.5
/// half of them have failed on the client, and are stopped all the same
/// rather than rescheduled), the five server-terminal ones are left
/// alone, and nothing is placed or updated.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_count_zero() {
    let old = job_with_command(10, "/bin/date");
    let mut new = registered_again(old.clone());
    new["TaskGroups"][0]["Count"] = json!(0);
    for release in BOTH {
        let mut allocs = running(&old);
        if release == BOTH[1] {
            for a in allocs.iter_mut().step_by(2) {
                a["ClientStatus"] = json!("failed");
            }
        }
        allocs.extend(terminal(&old, "pending"));
        let s = snapshot(nodes(10), vec![new.clone()], allocs, Value::Null);
        let r = replay(&s, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(stopped, run_ids(), "{release}");
        assert!(r.plan.place.is_empty(), "{release}: {:?}", r.plan.place);
        assert!(r.plan.destructive_update.is_empty(), "{release}");
        assert!(r.plan.in_place_update.is_empty(), "{release}");
        assert!(r.plan.failed_placements.is_empty(), "{release}");
    }
}

/// Ten running allocations of the mock job, all on the one node
/// `mock.Alloc()` names, which the state does not hold.
fn on_missing_node(job: &Value) -> Vec<Value> {
    (0..10)
        .map(|i| {
            let mut a = alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                0,
                job,
                500,
                256,
            );
            a["NodeID"] = json!("12345678-abcd-efab-cdef-123456789abc");
            a
        })
        .collect()
}

/// TestServiceSched_JobDeregister_Purged: the job is gone from the state;
/// all ten of its allocations are stopped and nothing is placed.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_deregister_purged() {
    let j = job_with_command(10, "/bin/date");
    let s = snapshot(Vec::new(), Vec::new(), on_missing_node(&j), Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.purged, "{release}");
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(stopped, run_ids(), "{release}");
        assert!(r.plan.place.is_empty(), "{release}");
    }
}

/// TestServiceSched_JobDeregister_Stopped: the job is stopped; all ten
/// allocations are stopped and no allocation of "web" is left queued.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_deregister_stopped() {
    let mut j = job_with_command(10, "/bin/date");
    let allocs = on_missing_node(&j);
    j["Stop"] = json!(true);
    let s = snapshot(Vec::new(), vec![j], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.stopped, "{release}");
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(stopped, run_ids(), "{release}");
        assert!(r.plan.place.is_empty(), "{release}");
        assert_eq!(
            r.plan.queued_allocations.get("web").copied().unwrap_or(0),
            0,
            "{release}"
        );
    }
}

/// The snapshot `doc` as the replay reads it.
fn read(doc: &Value) -> Snapshot {
    read_snapshot_from(doc.to_string().as_bytes(), "snapshot.json").unwrap()
}

/// TestServiceSched_JobModify_InPlace: ten healthy allocations of an
/// older deployment; the new version only adds an update block. All ten
/// are updated in place into the new deployment (Nomad asserts their
/// deployment ID changes), none is evicted or placed anew, and the old
/// deployment is cancelled. The kept ports and devices are not in a plan.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_in_place() {
    let old = job_with_command(10, "/bin/date");
    let mut new = registered_again(old.clone());
    new["TaskGroups"][0]["Update"] = json!({
        "MaxParallel": 4, "HealthCheck": "checks",
        "MinHealthyTime": 10_000_000_000u64, "HealthyDeadline": 600_000_000_000u64
    });
    let mut allocs = running(&old);
    for a in &mut allocs {
        a["DeploymentID"] = json!("d-old");
        a["DeploymentStatus"] = json!({"Healthy": true});
    }
    let doc = json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [new], "Nodes": nodes(10), "Allocs": allocs,
        "Deployments": [{
            "ID": "d-old", "Namespace": "default", "JobID": "mock-service", "JobVersion": 0,
            "JobModifyIndex": 1, "Status": "running",
            "TaskGroups": {"web": {"DesiredTotal": 10, "HealthyAllocs": 10}}
        }]
    });
    let s = read(&doc);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let updated = ids(r.plan.in_place_update.iter().map(|u| &u.alloc_id));
        assert_eq!(updated, run_ids(), "{release}");
        let deployment = r.plan.deployment.as_ref().expect("a new deployment");
        assert_ne!(deployment.id, "d-old", "{release}");
        assert!(
            r.plan
                .in_place_update
                .iter()
                .all(|u| u.deployment_id.as_deref() == Some(deployment.id.as_str())),
            "{release}: {:?}",
            r.plan.in_place_update
        );
        let [cancel] = r.plan.deployment_updates.as_slice() else {
            panic!("{release}: {:?}", r.plan.deployment_updates);
        };
        assert_eq!(
            (cancel.deployment_id.as_str(), cancel.status.as_str()),
            ("d-old", "cancelled")
        );
        assert!(
            r.plan.stop.is_empty() && r.plan.place.is_empty(),
            "{release}"
        );
        assert!(r.plan.destructive_update.is_empty(), "{release}");
    }
}

/// TestServiceSched_JobModify_Rolling: the command changes with
/// `max_parallel` 4. Four of the ten allocations are replaced (four
/// evictions, four placements), and the new deployment wants ten without
/// canaries.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_rolling() {
    let old = job_with_command(10, "/bin/date");
    let mut new = registered_again(job_with_command(10, "/bin/other"));
    new["TaskGroups"][0]["Update"] = json!({
        "MaxParallel": 4, "HealthCheck": "checks",
        "MinHealthyTime": 10_000_000_000u64, "HealthyDeadline": 600_000_000_000u64
    });
    let s = snapshot(nodes(10), vec![new], running(&old), Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert_eq!(r.plan.destructive_update.len(), 4, "{release}");
        assert!(
            r.plan
                .destructive_update
                .iter()
                .all(|d| d.node_id.is_some()),
            "{release}"
        );
        assert!(
            r.plan.stop.is_empty() && r.plan.place.is_empty(),
            "{release}"
        );
        let deployment = r.plan.deployment.as_ref().expect("a deployment");
        let web = &deployment.groups["web"];
        assert_eq!(
            (web.desired_total, web.desired_canaries),
            (10, 0),
            "{release}"
        );
    }
}

/// TestServiceSched_JobModify_Datacenters: three allocations, one per
/// node in dc1, dc2 and dc3; the job drops dc3 and grows to four. The
/// allocations in dc1 and dc2 stay on their nodes (updated in place), the
/// one in dc3 is replaced, and the replacement and the new allocation
/// land on the nodes of dc1 and dc2 only.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_datacenters() {
    let three: Vec<Value> = (0..3)
        .map(|i| {
            let mut n = super::generic_sched::node(i);
            n["Datacenter"] = json!(format!("dc{}", i + 1));
            n
        })
        .collect();
    let mut old = job_with_command(3, "/bin/date");
    old["Datacenters"] = json!(["dc1", "dc2", "dc3"]);
    let mut new = registered_again(old.clone());
    new["TaskGroups"][0]["Count"] = json!(4);
    new["Datacenters"] = json!(["dc1", "dc2"]);
    let allocs: Vec<Value> = running(&old).into_iter().take(3).collect();
    let s = snapshot(three, vec![new], allocs, Value::Null);
    let eligible: BTreeSet<String> = [id(0), id(1)].into();
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let kept = ids(r.plan.in_place_update.iter().map(|u| &u.alloc_id));
        assert_eq!(kept, ids(["run-0", "run-1"].iter()), "{release}");
        let [d] = r.plan.destructive_update.as_slice() else {
            panic!("{release}: {:#?}", r.plan);
        };
        assert_eq!(d.alloc_id.to_string(), "run-2", "{release}");
        let mut used: BTreeSet<String> = placed_nodes(&r).into_iter().collect();
        used.extend(d.node_id.iter().map(|n| n.to_string()));
        assert!(used.is_subset(&eligible), "{release}: {used:?}");
        assert_eq!(r.plan.place.len(), 1, "{release}");
        assert!(
            r.plan.stop.is_empty() && r.plan.failed_placements.is_empty(),
            "{release}"
        );
    }
}

/// TestServiceSched_JobModify_Canaries: the command changes with two
/// canaries and `max_parallel` 2. Nothing is evicted; two canaries are
/// placed, and the deployment wants ten with two canaries.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_canaries() {
    let old = job_with_command(10, "/bin/date");
    let mut new = registered_again(job_with_command(10, "/bin/other"));
    new["TaskGroups"][0]["Update"] = json!({
        "MaxParallel": 2, "Canary": 2, "HealthCheck": "checks",
        "MinHealthyTime": 10_000_000_000u64, "HealthyDeadline": 600_000_000_000u64
    });
    let s = snapshot(nodes(10), vec![new], running(&old), Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.plan.stop.is_empty(), "{release}");
        assert!(r.plan.destructive_update.is_empty(), "{release}");
        assert_eq!(r.plan.place.len(), 2, "{release}");
        assert!(r.plan.place.iter().all(|p| p.canary), "{release}");
        assert_eq!(placed_nodes(&r).len(), 2, "{release}");
        let deployment = r.plan.deployment.as_ref().expect("a deployment");
        let web = &deployment.groups["web"];
        assert_eq!(
            (web.desired_total, web.desired_canaries),
            (10, 2),
            "{release}"
        );
    }
}

/// TestServiceSched_JobModify_InPlace08: one allocation written before
/// 0.9, without `AllocatedResources`; only a service tag changes. The
/// allocation is updated in place, not evicted, and nothing else is
/// placed or fails.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_job_modify_in_place08() {
    let with_tag = |tag: &str| {
        let mut j = job_with_command(1, "/bin/date");
        j["TaskGroups"][0]["Tasks"][0]["Services"] =
            json!([{"Name": "web-frontend", "PortLabel": "http", "Tags": [tag, "frontend"]}]);
        j
    };
    let old = with_tag("pci:${meta.pci-dss}");
    let new = registered_again(with_tag("newtag"));
    let mut legacy = alloc("run-0", "my-job.web[0]", 0, &old, 500, 256);
    legacy.as_object_mut().unwrap().remove("AllocatedResources");
    let s = snapshot(nodes(1), vec![new], vec![legacy], Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let updated = ids(r.plan.in_place_update.iter().map(|u| &u.alloc_id));
        assert_eq!(updated, ids(["run-0"].iter()), "{release}: {:#?}", r.plan);
        assert!(
            r.plan.stop.is_empty() && r.plan.place.is_empty(),
            "{release}"
        );
        assert!(r.plan.destructive_update.is_empty(), "{release}");
        assert!(r.plan.failed_placements.is_empty(), "{release}");
    }
}

/// TestServiceSched_NodeUpdate: ten allocations of the mock job on one
/// node, four running and six pending. A node update finds nothing to
/// do: no stop, no placement, nothing queued. Nomad writes `"web": 0`
/// into the evaluation's queued allocations when nothing is to be placed
/// (scheduler/generic_sched.go:424-428 at 2.0.5); plan-inspect's
/// `queued_allocations` lists only groups with placements
/// (docs/json-schema.md), so it has no entry here.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_node_update() {
    let j = job_with_command(10, "/bin/date");
    let allocs: Vec<Value> = (0..10)
        .map(|i| {
            let mut a = alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                0,
                &j,
                500,
                256,
            );
            if i >= 4 {
                a["ClientStatus"] = json!("pending");
            }
            a
        })
        .collect();
    let s = snapshot(nodes(1), vec![j], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.plan.is_noop(), "{release}: {:#?}", r.plan);
        assert!(
            r.plan.queued_allocations.values().all(|n| *n == 0),
            "{release}"
        );
    }
}

/// `mock.DrainNode()`: the mock node, draining and so ineligible.
pub(super) fn drain_node(i: usize) -> Value {
    let mut n = super::generic_sched::node(i);
    n["SchedulingEligibility"] = json!("ineligible");
    n["DrainStrategy"] = json!({"Deadline": 3_600_000_000_000u64});
    n
}

/// Ten running allocations of `job` on node 0, each marked to migrate.
fn migrating(job: &Value) -> Vec<Value> {
    (0..10)
        .map(|i| {
            let mut a = alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                0,
                job,
                500,
                256,
            );
            a["DesiredTransition"] = json!({"Migrate": true});
            a
        })
        .collect()
}

/// TestServiceSched_NodeDrain: ten allocations marked to migrate off a
/// draining node, ten other nodes ready. All ten are stopped on the
/// drained node and ten replacements are placed, none on it.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_node_drain() {
    let j = job_with_command(10, "/bin/date");
    let mut all = vec![drain_node(0)];
    all.extend((1..11).map(super::generic_sched::node));
    let s = snapshot(all, vec![j.clone()], migrating(&j), Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(stopped, run_ids(), "{release}");
        let placed = placed_nodes(&r);
        assert_eq!(placed.len(), 10, "{release}: {:#?}", r.plan.place);
        assert!(!placed.contains(&id(0)), "{release}");
        assert!(r.plan.failed_placements.is_empty(), "{release}");
    }
}

/// TestServiceSched_NodeDrain_Down: ten allocations on a draining node
/// that is down, the cluster's only node. Allocations 0-3 carry the
/// client status "stop" and 4-5 run, all six marked to migrate; 6-9 have
/// completed. The six are stopped as lost; the completed ones are not.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_node_drain_down() {
    let j = job_with_command(10, "/bin/date");
    let mut n = drain_node(0);
    n["Status"] = json!("down");
    let allocs: Vec<Value> = (0..10)
        .map(|i| {
            let mut a = alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                0,
                &j,
                500,
                256,
            );
            match i {
                0..4 => a["ClientStatus"] = json!("stop"),
                4..6 => {}
                _ => {
                    a["ClientStatus"] = json!("complete");
                    a["TaskStates"] = json!({"web": {"State": "dead",
                        "Events": [{"Type": "Terminated", "ExitCode": 0}]}});
                }
            }
            if i < 6 {
                a["DesiredTransition"] = json!({"Migrate": true});
            }
            a
        })
        .collect();
    let s = snapshot(vec![n], vec![j], allocs, Value::Null);
    let lost: BTreeSet<String> = (0..6).map(|i| format!("run-{i}")).collect();
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(stopped, lost, "{release}: {:#?}", r.plan.stop);
        assert!(placed_nodes(&r).is_empty(), "{release}");
    }
}

/// A running deployment of the mock job's version 0, as `mock.Deployment()`.
fn old_deployment() -> Value {
    json!({
        "ID": "d-old", "Namespace": "default", "JobID": "mock-service", "JobVersion": 0,
        "JobModifyIndex": 1, "Status": "running",
        "TaskGroups": {"web": {"DesiredTotal": 10}}
    })
}

/// The only deployment update of `r`'s plan, as (ID, status, description).
fn cancelled(r: &plan_inspect::report::JobReport) -> (String, String, String) {
    let [u] = r.plan.deployment_updates.as_slice() else {
        panic!("{:#?}", r.plan.deployment_updates);
    };
    let u = u.clone();
    (u.deployment_id, u.status, u.status_description)
}

/// TestServiceSched_CancelDeployment_Stopped: the job, stopped in its
/// latest modification, has a running deployment of the modification
/// before. The deployment is cancelled as a stopped job's, nothing placed.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_cancel_deployment_stopped() {
    let mut j = registered_again(job_with_command(10, "/bin/date"));
    j["Stop"] = json!(true);
    let s = read(&json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [j], "Nodes": [], "Allocs": [],
        "Deployments": [old_deployment()]
    }));
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let want = ("d-old", "cancelled", "Cancelled because job is stopped");
        let got = cancelled(&r);
        assert_eq!(
            (got.0.as_str(), got.1.as_str(), got.2.as_str()),
            want,
            "{release}"
        );
        assert!(r.plan.place.is_empty(), "{release}");
    }
}

/// TestServiceSched_CancelDeployment_NewerJob: the job was registered
/// again after its running deployment was made, and no node is ready. The
/// deployment is cancelled for the newer version; nothing is placed.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_cancel_deployment_newer_job() {
    let j = registered_again(job_with_command(10, "/bin/date"));
    let s = read(&json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [j], "Nodes": [], "Allocs": [],
        "Deployments": [old_deployment()]
    }));
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let want = (
            "d-old",
            "cancelled",
            "Cancelled due to newer version of job",
        );
        let got = cancelled(&r);
        assert_eq!(
            (got.0.as_str(), got.1.as_str(), got.2.as_str()),
            want,
            "{release}"
        );
        assert!(placed_nodes(&r).is_empty(), "{release}");
    }
}

/// The mock job of two with one reschedule attempt in 15 minutes after a
/// constant `delay_s` seconds, and its two allocations on nodes 0 and 1,
/// the second failed at `finished`.
fn one_failed(delay_s: u64, finished: &str) -> (Value, Vec<Value>) {
    let mut j = job_with_command(2, "/bin/date");
    j["TaskGroups"][0]["ReschedulePolicy"] = json!({
        "Attempts": 1, "Interval": 900_000_000_000u64, "Delay": delay_s * 1_000_000_000,
        "MaxDelay": 60_000_000_000u64, "DelayFunction": "constant"
    });
    let ok = alloc("run-0", "my-job.web[0]", 0, &j, 500, 256);
    let mut failed = alloc("run-1", "my-job.web[1]", 1, &j, 500, 256);
    failed["ClientStatus"] = json!("failed");
    failed["TaskStates"] = json!({"web": {"State": "dead", "Failed": true,
        "StartedAt": "2022-03-31T23:00:00Z", "FinishedAt": finished}});
    (j, vec![ok, failed])
}

/// TestServiceSched_Reschedule_OnceNow: of two allocations, one failed
/// 10s ago, past its 5s delay: it is rescheduled now, one placement
/// linked to it. When that replacement fails too, its tracker holds the
/// one attempt the policy allows, and nothing more is placed.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_reschedule_once_now() {
    let (j, mut allocs) = one_failed(5, "2022-03-31T23:59:50Z");
    let s = snapshot(nodes(10), vec![j.clone()], allocs.clone(), Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let [p] = r.plan.place.as_slice() else {
            panic!("{release}: {:#?}", r.plan);
        };
        assert!(p.reschedule, "{release}");
        let prev = p.previous_alloc_id.as_ref().map(ToString::to_string);
        assert_eq!(prev.as_deref(), Some("run-1"), "{release}");
        assert!(p.node_id.is_some(), "{release}");
    }
    allocs[1]["NextAllocation"] = json!("run-2");
    let mut second = alloc("run-2", "my-job.web[1]", 2, &j, 500, 256);
    second["PreviousAllocation"] = json!("run-1");
    second["ClientStatus"] = json!("failed");
    second["TaskStates"] = json!({"web": {"State": "dead", "Failed": true,
        "StartedAt": "2022-03-31T23:59:55Z", "FinishedAt": "2022-03-31T23:59:58Z"}});
    second["RescheduleTracker"] = json!({"Events": [{
        "RescheduleTime": 1_648_771_195_000_000_000u64, "PrevAllocID": "run-1",
        "PrevNodeID": id(1), "Delay": 5_000_000_000u64}]});
    allocs.push(second);
    let s = snapshot(nodes(10), vec![j], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.plan.place.is_empty(), "{release}: {:#?}", r.plan.place);
        assert!(r.plan.followup_evals.is_empty(), "{release}");
    }
}

/// TestServiceSched_Reschedule_Later: the allocation failed just now with
/// a 15s delay. Nothing is placed; one follow-up evaluation waits until
/// 15s from now, and the failed allocation is updated to point at it.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_reschedule_later() {
    let (j, allocs) = one_failed(15, "2022-04-01T00:00:00Z");
    let s = snapshot(nodes(10), vec![j], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.plan.place.is_empty(), "{release}: {:#?}", r.plan.place);
        let [e] = r.plan.followup_evals.as_slice() else {
            panic!("{release}: {:#?}", r.plan.followup_evals);
        };
        assert_eq!(
            e.wait_until.to_string(),
            "2022-04-01T00:00:15Z",
            "{release}"
        );
        let [u] = r.plan.attribute_updates.as_slice() else {
            panic!("{release}: {:#?}", r.plan.attribute_updates);
        };
        assert_eq!(
            (u.alloc_id.to_string(), &u.followup_eval_id),
            ("run-1".into(), &e.id)
        );
    }
}

/// TestServiceSched_Migrate_NonCanary: a stable job of one with a canary
/// in its update block and a successful deployment; its running
/// allocation on the one node is marked to migrate. It is migrated, not
/// canaried: stopped and replaced by a non-canary placement on the same
/// node, the only one.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_migrate_non_canary() {
    let mut j = job_with_command(1, "/bin/date");
    j["Stable"] = json!(true);
    j["TaskGroups"][0]["Update"] = json!({"MaxParallel": 1, "Canary": 1});
    let mut a = alloc("run-0", "my-job.web[0]", 0, &j, 500, 256);
    a["DeploymentID"] = json!("d-ok");
    a["DesiredTransition"] = json!({"Migrate": true});
    let s = read(&json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [j], "Nodes": nodes(1), "Allocs": [a],
        "Deployments": [{
            "ID": "d-ok", "Namespace": "default", "JobID": "mock-service", "JobVersion": 0,
            "Status": "successful", "StatusDescription": "Deployment completed successfully",
            "TaskGroups": {"web": {"DesiredTotal": 1}}
        }]
    }));
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(stopped, ids(["run-0"].iter()), "{release}");
        let [p] = r.plan.place.as_slice() else {
            panic!("{release}: {:#?}", r.plan.place);
        };
        assert!(!p.canary, "{release}");
        assert_eq!(p.node_id.as_deref(), Some(id(0).as_str()), "{release}");
    }
}

/// TestServiceSched_RunningWithNextAllocation: a job of two with three
/// pending allocations, `web[0]` already replaced by `web[2]` (its next
/// allocation); the command changes. All three old allocations are
/// stopped or replaced, and exactly two allocations of the new version
/// are placed.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_running_with_next_allocation() {
    let mut old = job_with_command(2, "/bin/date");
    old["Stable"] = json!(true);
    let new = registered_again(job_with_command(2, "/bin/other"));
    let mut allocs: Vec<Value> = (0..3)
        .map(|i| {
            let mut a = alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                0,
                &old,
                500,
                256,
            );
            a["ClientStatus"] = json!("pending");
            a
        })
        .collect();
    allocs[2]["PreviousAllocation"] = json!("run-0");
    allocs[0]["NextAllocation"] = json!("run-2");
    let s = snapshot(nodes(1), vec![new], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let mut gone = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        gone.extend(ids(r.plan.destructive_update.iter().map(|d| &d.alloc_id)));
        assert_eq!(
            gone,
            ids(["run-0", "run-1", "run-2"].iter()),
            "{release}: {:#?}",
            r.plan
        );
        let placed = r.plan.place.iter().filter(|p| p.node_id.is_some()).count()
            + r.plan
                .destructive_update
                .iter()
                .filter(|d| d.node_id.is_some())
                .count();
        assert_eq!(placed, 2, "{release}: {:#?}", r.plan);
    }
}

/// TestServiceSched_Reschedule_MultipleNow: three attempts in 30 minutes,
/// 5s delay. Nomad runs an evaluation after each failure; here each is the
/// state it sees: the chain of `k` failed replacements of `web[1]`, the
/// last one's tracker holding `k` events. While `k` is under three the
/// last failed allocation is rescheduled now (a placement linked to it);
/// after the third attempt nothing is placed.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_reschedule_multiple_now() {
    let (mut j, first) = one_failed(5, "2022-03-31T23:59:50Z");
    j["TaskGroups"][0]["ReschedulePolicy"] = json!({
        "Attempts": 3, "Interval": 1_800_000_000_000u64, "Delay": 5_000_000_000u64,
        "DelayFunction": "constant"
    });
    let (ok, failed) = (&first[0], &first[1]);
    for k in 0..=3usize {
        let mut allocs = vec![ok.clone()];
        let mut events = Vec::new();
        for step in 0..=k {
            let this = format!("run-{}", step + 1);
            let mut a = failed.clone();
            a["ID"] = json!(this);
            a["NodeID"] = json!(id(step + 1));
            a["Job"] = j.clone();
            if step > 0 {
                a["PreviousAllocation"] = json!(format!("run-{step}"));
                a["RescheduleTracker"] = json!({"Events": events.clone()});
            }
            if step < k {
                a["NextAllocation"] = json!(format!("run-{}", step + 2));
            }
            events.push(json!({"RescheduleTime": 1_648_771_195_000_000_000u64,
                "PrevAllocID": this, "PrevNodeID": id(step + 1), "Delay": 5_000_000_000u64}));
            allocs.push(a);
        }
        let s = snapshot(nodes(10), vec![j.clone()], allocs, Value::Null);
        let last = format!("run-{}", k + 1);
        for release in BOTH {
            let r = replay(&s, "mock-service", release);
            let prev: Vec<String> = r
                .plan
                .place
                .iter()
                .map(|p| {
                    p.previous_alloc_id
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default()
                })
                .collect();
            if k < 3 {
                assert_eq!(
                    prev,
                    std::slice::from_ref(&last),
                    "{release} after {k} attempts"
                );
            } else {
                assert!(prev.is_empty(), "{release} after {k} attempts: {prev:?}");
            }
        }
    }
}

/// TestDeployment_FailedAllocs_Reschedule: of two allocations in the
/// job's deployment, one failed ten hours ago and is marked to
/// reschedule. While the deployment runs it is replaced (one placement);
/// once the deployment has failed nothing is planned.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_deployment_failed_allocs_reschedule() {
    let (mut j, mut allocs) = one_failed(5, "2022-03-31T14:00:00Z");
    j["CreateIndex"] = json!(5);
    j["TaskGroups"][0]["ReschedulePolicy"] = json!({"Attempts": 1, "Interval": 900_000_000_000u64});
    for a in &mut allocs {
        a["Job"] = j.clone();
        a["DeploymentID"] = json!("d-1");
    }
    allocs[1]["TaskStates"]["web"]["State"] = json!("start");
    allocs[1]["DesiredTransition"] = json!({"Reschedule": true});
    for (status, placed) in [("running", 1), ("failed", 0)] {
        let s = read(&json!({
            "Now": "2022-04-01T00:00:00Z", "Jobs": [j], "Nodes": nodes(10), "Allocs": allocs,
            "Deployments": [{
                "ID": "d-1", "Namespace": "default", "JobID": "mock-service", "JobVersion": 0,
                "JobCreateIndex": 5, "Status": status,
                "TaskGroups": {"web": {"DesiredTotal": 2}}
            }]
        }));
        for release in BOTH {
            let r = replay(&s, "mock-service", release);
            assert_eq!(
                placed_nodes(&r).len(),
                placed,
                "{release} {status}: {:#?}",
                r.plan
            );
            if placed == 0 {
                assert!(r.plan.is_noop(), "{release}: {:#?}", r.plan);
            }
        }
    }
}

/// TestServiceSched_Migrate_CanaryStatus: a stable job of three, one
/// canary, its successful deployment; three allocations on the one node.
/// The command changes: one canary is placed there, in a new deployment,
/// and nothing is stopped. Then that node goes down and a second node
/// joins: all four are stopped as lost, and the three of version 0 are
/// replaced on the new node; the lost canary is not replaced. Nomad
/// places those three with version 0; the plan marks them
/// `downgrade_non_canary` (docs/nomad-behaviour.md).
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_migrate_canary_status() {
    let mut old = job_with_command(3, "/bin/date");
    old["Stable"] = json!(true);
    old["TaskGroups"][0]["Update"] = json!({"MaxParallel": 1, "Canary": 1});
    let mut new = registered_again(old.clone());
    new["Stable"] = json!(false);
    new["TaskGroups"][0]["Tasks"][0]["Config"] = json!({"command": "/bin/other"});
    let mut allocs: Vec<Value> = (0..3)
        .map(|i| {
            let mut a = alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                0,
                &old,
                500,
                256,
            );
            a["DeploymentID"] = json!("d-ok");
            a
        })
        .collect();
    let ok = json!({
        "ID": "d-ok", "Namespace": "default", "JobID": "mock-service", "JobVersion": 0,
        "JobModifyIndex": 1, "Status": "successful",
        "StatusDescription": "Deployment completed successfully",
        "TaskGroups": {"web": {"DesiredTotal": 3}}
    });
    let s = read(&json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [new], "Nodes": nodes(1), "Allocs": allocs,
        "Deployments": [ok]
    }));
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let [p] = r.plan.place.as_slice() else {
            panic!("{release}: {:#?}", r.plan);
        };
        assert!(p.canary, "{release}");
        assert_eq!(p.node_id.as_deref(), Some(id(0).as_str()), "{release}");
        assert!(r.plan.deployment.is_some(), "{release}");
        assert!(
            r.plan.stop.is_empty() && r.plan.destructive_update.is_empty(),
            "{release}"
        );
    }
    let mut canary = alloc("canary", "my-job.web[0]", 0, &new, 500, 256);
    canary["DeploymentID"] = json!("d-new");
    canary["DeploymentStatus"] = json!({"Canary": true});
    allocs.push(canary);
    let mut down = super::generic_sched::node(0);
    down["Status"] = json!("down");
    let s = read(&json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [new],
        "Nodes": [down, super::generic_sched::node(1)], "Allocs": allocs,
        "Deployments": [ok, {
            "ID": "d-new", "Namespace": "default", "JobID": "mock-service", "JobVersion": 1,
            "JobModifyIndex": 2, "Status": "running",
            "TaskGroups": {"web": {"DesiredTotal": 3, "DesiredCanaries": 1,
                                   "PlacedCanaries": ["canary"]}}
        }]
    }));
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(
            stopped,
            ids(["run-0", "run-1", "run-2", "canary"].iter()),
            "{release}"
        );
        let replaced = ids(r
            .plan
            .place
            .iter()
            .filter_map(|p| p.previous_alloc_id.as_ref()));
        assert_eq!(
            replaced,
            ids(["run-0", "run-1", "run-2"].iter()),
            "{release}: {:#?}",
            r.plan.place
        );
        assert_eq!(placed_nodes(&r), vec![id(1); 3], "{release}");
        assert!(r.plan.place.iter().all(|p| !p.canary), "{release}");
        assert!(
            r.plan.place.iter().all(|p| p.downgrade_non_canary),
            "{release}"
        );
    }
}

/// TestServiceSched_NodeDrain_Canaries in its first form (added at 1.10.1;
/// here at 1.10.1 and 1.10.5), which 1.11.0 rewrote: two allocations of
/// version 0 on a ready node; on a draining node two canaries of version
/// 1, both stopped and marked to migrate, and a running canary that
/// replaced the first; the group has no `update` block. Nomad stops the two
/// stopped canaries again, as terminal canaries marked to migrate (v1.10.5
/// scheduler/reconcile_util.go:313), and places nothing. From 1.11.0 the
/// same snapshot stops nothing: `filterServerTerminalAllocs` drops both
/// before the canaries are read (v1.11.0 reconciler/reconcile_cluster.go:403),
/// which is why the test was rewritten (code reading; Nomad's test no
/// longer runs this snapshot).
#[test]
fn generic_sched_test_go_v1_10_1_v1_10_5_node_drain_canaries() {
    let old = job_with_command(2, "/bin/date");
    let mut new = registered_again(old.clone());
    new["Meta"] = json!({"owner": "changed"});
    let mut allocs: Vec<Value> = (0..2)
        .map(|i| {
            let name = format!("my-job.web[{i}]");
            let mut a = alloc(&format!("run-{i}"), &name, 0, &old, 500, 256);
            a["ClientStatus"] = json!("pending");
            a
        })
        .collect();
    for (i, alloc_id) in ["c-0", "c-1"].into_iter().enumerate() {
        let mut a = alloc(alloc_id, &format!("my-job.web[{i}]"), 1, &new, 500, 256);
        a["DesiredStatus"] = json!("stop");
        a["ClientStatus"] = json!("complete");
        a["DeploymentID"] = json!("d-new");
        a["DeploymentStatus"] = json!({"Healthy": false, "Canary": true});
        a["DesiredTransition"] = json!({"Migrate": true});
        allocs.push(a);
    }
    let mut replacement = alloc("c-2", "my-job.web[0]", 1, &new, 500, 256);
    replacement["DeploymentID"] = json!("d-new");
    replacement["DeploymentStatus"] = json!({"Healthy": false, "Canary": true});
    replacement["PreviousAllocation"] = json!("c-0");
    allocs.push(replacement);
    let s = read(&json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [new],
        "Nodes": [super::generic_sched::node(0), drain_node(1)], "Allocs": allocs,
        "Deployments": [{
            "ID": "d-new", "Namespace": "default", "JobID": "mock-service", "JobVersion": 1,
            "JobModifyIndex": 2, "Status": "running",
            "TaskGroups": {"web": {"DesiredTotal": 2, "DesiredCanaries": 2,
                                   "PlacedCanaries": ["c-0", "c-1", "c-2"], "PlacedAllocs": 3}}
        }]
    }));
    for release in [v(1, 10, 1), v(1, 10, 5)] {
        let r = replay(&s, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(
            stopped,
            ids(["c-0", "c-1"].iter()),
            "{release}: {:#?}",
            r.plan
        );
        assert!(r.plan.place.is_empty(), "{release}: {:#?}", r.plan.place);
    }
    let r = replay(&s, "mock-service", v(1, 11, 0));
    assert!(r.plan.stop.is_empty(), "{:#?}", r.plan.stop);
    assert!(r.plan.place.is_empty(), "{:#?}", r.plan.place);
}

/// TestServiceSched_NodeDrain_Canaries as rewritten at 1.11.0 (here at
/// 1.11.0 and 2.0.5; its 1.10.1 form is another scenario): two allocations
/// of version 0 on a ready node; two canaries of version 1 were placed on
/// a node now draining, one since stopped and replaced by a canary on the
/// ready node, the other running and marked to migrate. Nomad's answer at
/// both tags: only the migrating canary `c-1` is stopped, and one canary is
/// placed on the ready node. The stopped canary `c-0` is server-terminal,
/// so `filterServerTerminalAllocs` drops it before the canaries are read
/// (v1.11.0 scheduler/reconciler/reconcile_cluster.go:403, v2.0.5 :394):
/// the terminal-canary migrate rule (v1.11.0 filters.go:189) never sees it.
#[test]
fn generic_sched_test_go_v1_11_0_v2_0_5_node_drain_canaries() {
    let mut old = job_with_command(2, "/bin/date");
    old["TaskGroups"][0]["Update"] = json!({"Canary": 2});
    let mut new = registered_again(old.clone());
    new["Meta"] = json!({"owner": "changed"});
    let mut allocs: Vec<Value> = (0..2)
        .map(|i| {
            let mut a = alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                0,
                &old,
                500,
                256,
            );
            a["ClientStatus"] = json!("pending");
            a
        })
        .collect();
    let canary = |alloc_id: &str, name: &str, n: usize, status: &str| {
        let mut a = alloc(alloc_id, name, n, &new, 500, 256);
        a["ClientStatus"] = json!(status);
        a["DeploymentID"] = json!("d-new");
        a["DeploymentStatus"] = json!({"Healthy": false, "Canary": true});
        a
    };
    let mut dead = canary("c-0", "my-job.web[0]", 1, "complete");
    dead["DesiredStatus"] = json!("stop");
    dead["DesiredTransition"] = json!({"Migrate": true});
    let mut draining = canary("c-1", "my-job.web[1]", 1, "running");
    draining["DesiredTransition"] = json!({"Migrate": true});
    let mut replacement = canary("c-2", "my-job.web[0]", 0, "running");
    replacement["PreviousAllocation"] = json!("c-0");
    allocs.extend([dead, draining, replacement]);
    let s = read(&json!({
        "Now": "2022-04-01T00:00:00Z", "Jobs": [new],
        "Nodes": [super::generic_sched::node(0), drain_node(1)], "Allocs": allocs,
        "Deployments": [{
            "ID": "d-new", "Namespace": "default", "JobID": "mock-service", "JobVersion": 1,
            "JobModifyIndex": 2, "Status": "running",
            "TaskGroups": {"web": {"DesiredTotal": 2, "DesiredCanaries": 2,
                                   "PlacedCanaries": ["c-0", "c-1", "c-2"], "PlacedAllocs": 3}}
        }]
    }));
    for release in [v(1, 11, 0), BOTH[1]] {
        let r = replay(&s, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(stopped, ids(["c-1"].iter()), "{release}: {:#?}", r.plan);
        let set_aside: Vec<_> = r.groups[0]
            .set_aside
            .iter()
            .map(|e| (e.id.to_string(), e.reason.as_str()))
            .collect();
        assert_eq!(
            set_aside,
            [
                (
                    "c-0".to_string(),
                    "stopped or evicted by the server: dropped before classification"
                ),
                (
                    "c-1".to_string(),
                    "canary on a draining node: stopped to migrate"
                ),
            ],
            "{release}"
        );
        let [p] = r.plan.place.as_slice() else {
            panic!("{release}: {:#?}", r.plan.place);
        };
        assert!(p.canary, "{release}");
        assert_eq!(p.node_id.as_deref(), Some(id(0).as_str()), "{release}");
        assert_eq!(
            r.groups[0].desired_changes.reconciler.canary, 1,
            "{release}"
        );
        assert!(r.plan.destructive_update.is_empty(), "{release}");
    }
}

/// TestServiceSched_BlockedReschedule (added at 1.8.1; here at 1.8.1 and
/// 2.0.5), its first two evaluations: the job's one allocation failed just
/// now with a 15s delay, so nothing is stopped or placed and a follow-up
/// evaluation waits 15s, the allocation pointing at it. At that time the
/// allocation is rescheduled: stopped and replaced. The later steps
/// change a node's memory between evaluations and match the blocked
/// evaluation by ID, harness state a snapshot does not carry.
#[test]
fn generic_sched_test_go_v1_8_1_v2_0_5_blocked_reschedule() {
    let (mut j, allocs) = one_failed(15, "2022-04-01T00:00:00Z");
    j["TaskGroups"][0]["Count"] = json!(1);
    j["TaskGroups"][0]["ReschedulePolicy"]["Attempts"] = json!(3);
    let mut failed = allocs[1].clone();
    failed["Job"] = j.clone();
    failed["Name"] = json!("my-job.web[0]");
    failed["NodeID"] = json!(id(0));
    let s = snapshot(nodes(1), vec![j.clone()], vec![failed.clone()], Value::Null);
    let releases = [v(1, 8, 1), BOTH[1]];
    for release in releases {
        let r = replay(&s, "mock-service", release);
        assert!(
            r.plan.stop.is_empty() && r.plan.place.is_empty(),
            "{release}"
        );
        let [e] = r.plan.followup_evals.as_slice() else {
            panic!("{release}: {:#?}", r.plan.followup_evals);
        };
        assert_eq!(
            e.wait_until.to_string(),
            "2022-04-01T00:00:15Z",
            "{release}"
        );
        assert_eq!(r.plan.attribute_updates.len(), 1, "{release}");
    }
    failed["FollowupEvalID"] = json!("e-1");
    let later = read(&json!({
        "Now": "2022-04-01T00:00:15Z", "Jobs": [j], "Nodes": nodes(1), "Allocs": [failed]
    }));
    for release in releases {
        let r = replay(&later, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        assert_eq!(stopped, ids(["run-1"].iter()), "{release}: {:#?}", r.plan);
        let [p] = r.plan.place.as_slice() else {
            panic!("{release}: {:#?}", r.plan.place);
        };
        assert!(p.reschedule, "{release}");
        assert_eq!(p.node_id.as_deref(), Some(id(0).as_str()), "{release}");
    }
}

/// TestServiceSched_StopAfterClientDisconnect (1.3.0), its four cases: the
/// job's one running allocation is on the only node, now down, with
/// `stop_after_client_disconnect` of 0 or 1s and a lost record (an
/// `AllocStates` entry) from 10s ago, 10 minutes ahead, or none. The
/// allocation is stopped as lost in every case. Where its wait is over
/// (no wait, or lost 10s ago) its replacement finds no node and a blocked
/// evaluation is made; otherwise a follow-up evaluation waits.
#[test]
fn generic_sched_test_go_v1_3_0_stop_after_client_disconnect() {
    let cases: [(u64, Option<&str>, bool); 4] = [
        (0, None, true),
        (1, None, false),
        (1, Some("2022-03-31T23:59:50Z"), true),
        (1, Some("2022-04-01T00:10:00Z"), false),
    ];
    for (stop_s, when, rescheduled) in cases {
        let mut j = job_with_command(1, "/bin/date");
        if stop_s > 0 {
            j["TaskGroups"][0]["StopAfterClientDisconnect"] = json!(stop_s * 1_000_000_000);
        }
        let mut a = alloc("run-0", "my-job.web[0]", 0, &j, 500, 256);
        if let Some(t) = when {
            a["AllocStates"] = json!([{"Field": "ClientStatus", "Value": "lost", "Time": t}]);
        }
        let mut down = super::generic_sched::node(0);
        down["Status"] = json!("down");
        let s = snapshot(vec![down], vec![j], vec![a], Value::Null);
        let case = format!("stop {stop_s}s, lost at {when:?}");
        let r = replay(&s, "mock-service", v(1, 3, 0));
        let [stop] = r.plan.stop.as_slice() else {
            panic!("{case}: {:#?}", r.plan);
        };
        assert_eq!(stop.alloc_id.to_string(), "run-0", "{case}");
        assert_eq!(stop.client_status, Some(ClientStatus::Lost), "{case}");
        assert_eq!(
            r.plan.blocked_eval.is_some(),
            rescheduled,
            "{case}: {:#?}",
            r.plan
        );
        assert_eq!(
            r.plan.followup_evals.len(),
            usize::from(!rescheduled),
            "{case}"
        );
    }
}

/// TestServiceSched_StopOnClientAfter (added at 1.10.0; here at 1.10.0
/// and 2.0.5), its three cases, as above with the `disconnect` block's
/// `stop_on_client_after`: none (a blocked evaluation), 1s with a lost
/// record from 10s ago (blocked), 1s without one (a follow-up evaluation).
/// The allocation is stopped as lost in each.
#[test]
fn generic_sched_test_go_v1_10_0_v2_0_5_stop_on_client_after() {
    let cases: [(Value, Option<&str>, bool); 3] = [
        (json!({}), None, true),
        (
            json!({"StopOnClientAfter": 1_000_000_000u64}),
            Some("2022-03-31T23:59:50Z"),
            true,
        ),
        (json!({"StopOnClientAfter": 1_000_000_000u64}), None, false),
    ];
    for (disconnect, when, blocked) in cases {
        let mut j = job_with_command(1, "/bin/date");
        j["TaskGroups"][0]["Disconnect"] = disconnect.clone();
        let mut a = alloc("run-0", "my-job.web[0]", 0, &j, 500, 256);
        if let Some(t) = when {
            a["AllocStates"] = json!([{"Field": "ClientStatus", "Value": "lost", "Time": t}]);
        }
        let mut down = super::generic_sched::node(0);
        down["Status"] = json!("down");
        let s = snapshot(vec![down], vec![j], vec![a], Value::Null);
        for release in [v(1, 10, 0), BOTH[1]] {
            let case = format!("{release} {disconnect}, lost at {when:?}");
            let r = replay(&s, "mock-service", release);
            let [stop] = r.plan.stop.as_slice() else {
                panic!("{case}: {:#?}", r.plan);
            };
            assert_eq!(stop.client_status, Some(ClientStatus::Lost), "{case}");
            assert_eq!(
                r.plan.blocked_eval.is_some(),
                blocked,
                "{case}: {:#?}",
                r.plan
            );
            assert_eq!(r.plan.followup_evals.len(), usize::from(!blocked), "{case}");
        }
    }
}

/// TestServiceSched_BlockedDisconnectReplace (added at 1.10.5; here at
/// 1.10.5, 1.11.1, 1.11.2 and 2.0.5): the job's one running allocation is
/// on the only node, now disconnected; its group's `disconnect` block has
/// `lost_after` 12h and `replace`, its reschedule delay is 15s. Nothing is
/// stopped and the allocation is updated to unknown, with a follow-up
/// evaluation for the disconnect timeout 12 hours on. What else Nomad's
/// test expects changes at 1.11.2 (G-1):
/// - up to 1.11.1 `replace` reschedules the disconnecting allocation now
///   (v1.10.5 nomad/structs/structs.go:11365-11372): its replacement finds
///   no node, so the second evaluation is a blocked one;
/// - from 1.11.2 it follows the reschedule policy (v2.0.5
///   scheduler/reconciler/filters.go:546-547): nothing is placed, and the
///   second evaluation is a follow-up triggered by `alloc-reschedule` at
///   the 15s delay (`createRescheduleLaterEvals`, reconcile_cluster.go:478,
///   :1412 at v1.11.2 and v2.0.5), which the unknown update then names
///   (:1426; Nomad's test only checks that it names one). Nomad creates
///   the timeout evaluation first; the report lists follow-ups by
///   `wait_until` (docs/json-schema.md).
#[test]
fn generic_sched_test_go_v1_10_5_v2_0_5_blocked_disconnect_replace() {
    let (mut j, allocs) = one_failed(15, "2022-04-01T00:00:00Z");
    j["TaskGroups"][0]["Count"] = json!(1);
    j["TaskGroups"][0]["ReschedulePolicy"]["Attempts"] = json!(3);
    j["TaskGroups"][0]["Disconnect"] = json!({
        "LostAfter": 43_200_000_000_000u64, "Replace": true, "Reconcile": "best_score"
    });
    let mut a = allocs[1].clone();
    a["Job"] = j.clone();
    a["Name"] = json!("my-job.web[0]");
    a["NodeID"] = json!(id(0));
    a["ClientStatus"] = json!("running");
    let mut node = super::generic_sched::node(0);
    node["Status"] = json!("disconnected");
    let s = snapshot(vec![node], vec![j], vec![a], Value::Null);
    for release in [v(1, 10, 5), v(1, 11, 1), v(1, 11, 2), BOTH[1]] {
        let r = replay(&s, "mock-service", release);
        let plan = &r.plan;
        assert!(plan.stop.is_empty(), "{release}: {plan:#?}");
        let [update] = plan.disconnect_updates.as_slice() else {
            panic!("{release}: {plan:#?}");
        };
        assert_eq!(update.alloc_id, "run-1", "{release}");
        let evals: Vec<_> = plan
            .followup_evals
            .iter()
            .map(|e| (e.triggered_by.as_str(), e.wait_until.to_string()))
            .collect();
        let timeout = ("max-disconnect-timeout", "2022-04-01T12:00:00Z".to_string());
        if release < v(1, 11, 2) {
            let [p] = plan.place.as_slice() else {
                panic!("{release}: {:#?}", plan.place);
            };
            assert!(p.reschedule && p.node_id.is_none(), "{release}: {p:#?}");
            assert_eq!(p.previous_alloc_id.as_ref().unwrap(), "run-1");
            let blocked = plan.blocked_eval.as_ref().expect("a blocked evaluation");
            assert_eq!(blocked.status, "blocked", "{release}");
            assert_eq!(evals, [timeout], "{release}");
            assert_eq!(
                update.followup_eval_id, plan.followup_evals[0].id,
                "{release}"
            );
        } else {
            assert!(plan.place.is_empty(), "{release}: {:#?}", plan.place);
            assert!(plan.blocked_eval.is_none(), "{release}");
            let reschedule = ("alloc-reschedule", "2022-04-01T00:00:15Z".to_string());
            assert_eq!(evals, [reschedule, timeout], "{release}");
            assert_eq!(
                update.followup_eval_id, plan.followup_evals[0].id,
                "{release}"
            );
        }
    }
}
