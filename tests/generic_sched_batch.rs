//! The batch cases of scheduler/generic_sched_test.go at 1.3.0 and 2.0.5
//! (`TestBatchSched_*`), through the replay on `mock.Node()` and
//! `mock.Job()` made a batch job: finished work is not redone, failed work
//! is rescheduled, a draining node's work moves.

use serde_json::{Value, json};

use super::generic_sched::{node, nodes, placed_nodes};
use super::generic_sched_modify::{
    BOTH, alloc, id, job_with_command, registered_again, replay, snapshot,
};
use super::generic_sched_reconcile::{drain_node, ids};

/// The mock job as a batch job of one, with `mock.Job()`'s reschedule
/// policy (two attempts in ten minutes, 5s constant delay).
fn batch_job() -> Value {
    let mut j = job_with_command(1, "/bin/date");
    j["Type"] = json!("batch");
    j["TaskGroups"][0]["ReschedulePolicy"] = json!({
        "Attempts": 2, "Interval": 600_000_000_000u64, "Delay": 5_000_000_000u64,
        "DelayFunction": "constant"
    });
    j
}

/// The batch job's one allocation `my-job.web[0]` on node 0, its client
/// status `status`, its task dead since `finished`.
fn batch_alloc(job: &Value, status: &str, finished: &str) -> Value {
    let mut a = alloc("run-0", "my-job.web[0]", 0, job, 500, 256);
    a["ClientStatus"] = json!(status);
    a["TaskStates"] = json!({"web": {"State": "dead", "Failed": status == "failed",
        "StartedAt": "2022-03-31T23:00:00Z", "FinishedAt": finished,
        "Events": [{"Type": "Terminated", "ExitCode": i32::from(status == "failed")}]}});
    a
}

/// TestBatchSched_Run_CompleteAlloc: the batch job's one allocation has
/// completed. Nothing is planned: it is not run again.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_run_complete_alloc() {
    let j = batch_job();
    let a = batch_alloc(&j, "complete", "2022-03-31T23:59:50Z");
    let s = snapshot(nodes(1), vec![j], vec![a], Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.plan.is_noop(), "{release}: {:#?}", r.plan);
    }
}

/// TestBatchSched_Run_FailedAlloc: the one allocation failed 10s ago,
/// past the 5s delay. It is rescheduled now: one placement linked to it,
/// on the one node, nothing left queued.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_run_failed_alloc() {
    let j = batch_job();
    let a = batch_alloc(&j, "failed", "2022-03-31T23:59:50Z");
    let s = snapshot(nodes(1), vec![j], vec![a], Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let [p] = r.plan.place.as_slice() else {
            panic!("{release}: {:#?}", r.plan);
        };
        assert!(p.reschedule, "{release}");
        assert_eq!(
            p.previous_alloc_id
                .as_ref()
                .map(ToString::to_string)
                .as_deref(),
            Some("run-0")
        );
        assert_eq!(placed_nodes(&r), vec![id(0)], "{release}");
        assert_eq!(r.plan.queued_allocations.get("web"), Some(&0), "{release}");
    }
}

/// TestBatchSched_Run_FailedAllocQueuedAllocations: as above, but the one
/// node is draining. The replacement finds no node, and one allocation of
/// "web" stays queued.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_run_failed_alloc_queued_allocations() {
    let j = batch_job();
    let a = batch_alloc(&j, "failed", "2022-03-31T23:59:50Z");
    let s = snapshot(vec![drain_node(0)], vec![j], vec![a], Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(placed_nodes(&r).is_empty(), "{release}");
        assert_eq!(r.plan.queued_allocations.get("web"), Some(&1), "{release}");
    }
}

/// TestBatchSched_ReRun_SuccessfullyFinishedAlloc: the one allocation
/// finished successfully on a node now draining, another node is ready.
/// Nothing is planned: a successful batch allocation is neither migrated
/// nor run again.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_rerun_successfully_finished_alloc() {
    let j = batch_job();
    let a = batch_alloc(&j, "complete", "2022-03-31T23:59:50Z");
    let two = vec![drain_node(0), node(1)];
    let s = snapshot(two, vec![j], vec![a], Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.plan.is_noop(), "{release}: {:#?}", r.plan);
    }
}

/// TestBatchSched_JobModify_InPlace_Terminal and
/// TestBatchSched_JobModify_Destructive_Terminal: ten completed
/// allocations of the batch job's current version (the destructive case's
/// second version adds an environment variable and its allocations run
/// that version). Nothing is planned: finished batch work is not redone.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_job_modify_terminal() {
    let mut first = batch_job();
    first["TaskGroups"][0]["Count"] = json!(10);
    let mut second = registered_again(first.clone());
    second["TaskGroups"][0]["Tasks"][0]["Env"] = json!({"foo": "bar"});
    for j in [first, second] {
        let allocs: Vec<Value> = (0..10)
            .map(|i| {
                let mut a = batch_alloc(&j, "complete", "2022-03-31T23:59:50Z");
                a["ID"] = json!(format!("run-{i}"));
                a["Name"] = json!(format!("my-job.web[{i}]"));
                a["NodeID"] = json!(id(i));
                a
            })
            .collect();
        let s = snapshot(nodes(10), vec![j.clone()], allocs, Value::Null);
        for release in BOTH {
            let r = replay(&s, "mock-service", release);
            assert!(
                r.plan.is_noop(),
                "{release} v{}: {:#?}",
                j["Version"],
                r.plan
            );
        }
    }
}

/// TestBatchSched_NodeDrain_Running_OldJob: the batch job's running
/// allocation of the old version sits on a draining node (not marked to
/// migrate); the new version adds an environment variable. It is replaced
/// destructively, the replacement on the other, ready node.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_node_drain_running_old_job() {
    let old = batch_job();
    let mut new = registered_again(old.clone());
    new["TaskGroups"][0]["Tasks"][0]["Env"] = json!({"foo": "bar"});
    let a = alloc("run-0", "my-job.web[0]", 0, &old, 500, 256);
    let two = vec![drain_node(0), node(1)];
    let s = snapshot(two, vec![new], vec![a], Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let [d] = r.plan.destructive_update.as_slice() else {
            panic!("{release}: {:#?}", r.plan);
        };
        assert_eq!(d.alloc_id.to_string(), "run-0", "{release}");
        assert_eq!(d.node_id.as_deref(), Some(id(1).as_str()), "{release}");
        assert!(
            r.plan.stop.is_empty() && r.plan.place.is_empty(),
            "{release}"
        );
    }
}

/// TestBatchSched_NodeDrain_Complete: the batch job's one allocation
/// completed on a node now draining; another node is ready. Nothing is
/// planned.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_node_drain_complete() {
    let j = batch_job();
    let a = batch_alloc(&j, "complete", "2022-03-31T23:59:50Z");
    let two = vec![drain_node(0), node(1)];
    let s = snapshot(two, vec![j], vec![a], Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        assert!(r.plan.is_noop(), "{release}: {:#?}", r.plan);
    }
}

/// TestBatchSched_Run_LostAlloc: a batch job "my-job" of three with
/// `web[0]` and `web[1]` running and a second `web[1]` stopped and
/// complete without task states, so it did not run successfully and does
/// not count. Only `web[2]` is placed.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_run_lost_alloc() {
    let mut j = batch_job();
    j["ID"] = json!("my-job");
    j["Name"] = json!("my-job");
    j["TaskGroups"][0]["Count"] = json!(3);
    let mut allocs: Vec<Value> = (0..2)
        .map(|i| {
            alloc(
                &format!("run-{i}"),
                &format!("my-job.web[{i}]"),
                0,
                &j,
                500,
                256,
            )
        })
        .collect();
    let mut stopped = alloc("stopped-1", "my-job.web[1]", 0, &j, 500, 256);
    stopped["DesiredStatus"] = json!("stop");
    stopped["ClientStatus"] = json!("complete");
    allocs.push(stopped);
    let s = snapshot(nodes(1), vec![j], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "my-job", release);
        let names: Vec<&str> = r.plan.place.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["my-job.web[2]"], "{release}");
        assert_eq!(placed_nodes(&r), vec![id(0)], "{release}");
        assert!(r.plan.stop.is_empty(), "{release}");
    }
}

/// TestBatchSched_ScaleDown_SameName: five running allocations of a
/// batch job of one, all named `my-job.web[0]`; the job is registered
/// again unchanged. Four are stopped and one is kept, updated in place
/// (Nomad asserts it keeps its metrics, which a plan does not list).
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_batch_scale_down_same_name() {
    let old = batch_job();
    let allocs: Vec<Value> = (0..5)
        .map(|i| alloc(&format!("run-{i}"), "my-job.web[0]", 0, &old, 500, 256))
        .collect();
    let mut new = old.clone();
    new["JobModifyIndex"] = json!(2);
    let s = snapshot(nodes(1), vec![new], allocs, Value::Null);
    for release in BOTH {
        let r = replay(&s, "mock-service", release);
        let stopped = ids(r.plan.stop.iter().map(|s| &s.alloc_id));
        let kept = ids(r.plan.in_place_update.iter().map(|u| &u.alloc_id));
        assert_eq!(
            (stopped.len(), kept.len()),
            (4, 1),
            "{release}: {:#?}",
            r.plan
        );
        assert!(stopped.is_disjoint(&kept), "{release}");
        assert!(r.plan.place.is_empty(), "{release}");
    }
}
