//! Blocked evaluations as Nomad creates them: one per service or batch
//! evaluation with its class eligibility merged over the task groups
//! (`createBlockedEval`, scheduler/generic_sched.go:219-237 at 1.3.0,
//! :181-199 at 2.0.5), the replayed evaluation put back when it is itself
//! blocked (`ReblockEval`), and one per failed task group of a system job
//! (`addBlocked`). The cases of scheduler/generic_sched_test.go that assert
//! on the blocked evaluation, at 1.3.0 and 2.0.5, on the mock node and job
//! of tests/generic_sched.rs. With `--what-if`, the blocked-evals
//! tracker's one blocked evaluation per job and the leader's cancellation
//! of the duplicates.

use plan_inspect::read::read_snapshot_from;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::JobReport;
use plan_inspect::servers::story::CanceledBy;
use plan_inspect::servers::{Story, run};
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::{Value, json};

use super::generic_sched::{group, job, node, nodes, placed_nodes};

const BOTH: [Release; 2] = [v(1, 3, 0), v(2, 0, 5)];

/// The ID of the evaluation replayed with `--eval`.
const EVAL: &str = "e0000000-0000-4000-8000-000000000000";

/// Replays `job`'s evaluation `EVAL` of status `status` at `release`.
fn replay_eval(nodes: Vec<Value>, job: Value, status: &str, release: Release) -> JobReport {
    let eval = json!({
        "ID": EVAL, "Namespace": "default", "JobID": job["ID"], "Priority": 50,
        "Type": job["Type"], "TriggeredBy": "job-register", "Status": status
    });
    let snapshot = json!({
        "Now": "2022-04-01T00:00:00Z",
        "Jobs": [job], "Nodes": nodes, "Allocs": [], "Evals": [eval]
    });
    let text = snapshot.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        eval: Some(EVAL.to_string()),
        ..Options::default()
    };
    let mut report = Replay::new(&snapshot, &options).unwrap().report();
    report.jobs.remove(0)
}

/// TestServiceSched_JobRegister_CreateBlockedEval (1.3.0, 2.0.5): a node
/// with all its CPU reserved and a windows node; the ten placements fail
/// as one entry (nine coalesced), two nodes available in dc1 (and in the
/// pool at 2.0.5), and the one blocked evaluation finds the full node's
/// class eligible and the windows class not, without escaping.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_create_blocked_eval() {
    let mut full = node(0);
    full["ReservedResources"]["Cpu"]["CpuShares"] = json!(4000);
    let mut windows = node(1);
    windows["Attributes"]["kernel.name"] = json!("windows");
    windows["ComputedClass"] = json!("v1:windows");
    for release in BOTH {
        let r = replay_eval(
            vec![full.clone(), windows.clone()],
            job(10),
            "pending",
            release,
        );
        assert!(placed_nodes(&r).is_empty(), "{release}");
        let [failed] = r.plan.failed_placements.as_slice() else {
            panic!("{release}: {:?}", r.plan.failed_placements);
        };
        assert_eq!((failed.task_group.as_str(), failed.count), ("web", 10));
        assert_eq!(failed.metrics.nodes_available["dc1"], 2, "{release}");
        let in_pool = if release == v(2, 0, 5) { 2 } else { 0 };
        assert_eq!(failed.metrics.nodes_in_pool, in_pool, "{release}");
        let blocked = r.plan.blocked_eval.as_ref().unwrap();
        assert_eq!(blocked.status, "blocked");
        assert_eq!(blocked.triggered_by, "queued-allocs");
        assert_ne!(blocked.id, EVAL);
        assert!(!blocked.reblocked && blocked.node_id.is_none());
        let classes: Vec<(&str, bool)> = blocked
            .class_eligibility
            .iter()
            .map(|(c, e)| (c.as_str(), *e))
            .collect();
        assert_eq!(classes, [("v1:mock", true), ("v1:windows", false)]);
        assert!(!blocked.escaped_computed_class);
        assert!(r.plan.more_blocked_evals.is_empty());
        assert_eq!(r.plan.queued_allocations["web"], 10);
    }
}

/// TestServiceSched_JobRegister_FeasibleAndInfeasibleTG (1.3.0, 2.0.5): a
/// node of class `class_0`; group `web` asks for it and `web2` for
/// `class_1`: web's two placements are made, web2's two fail (one
/// coalesced), and the evaluation leaves one blocked evaluation for both
/// groups, in which the class is eligible (web's verdict wins over web2's).
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_feasible_and_infeasible_tg() {
    let mut n = node(0);
    n["NodeClass"] = json!("class_0");
    n["ComputedClass"] = json!("v1:class_0");
    let mut j = job(2);
    j["TaskGroups"][0]["Constraints"] = json!([
        {"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="},
        {"LTarget": "${node.class}", "RTarget": "class_0", "Operand": "="}
    ]);
    let mut tg2 = group("web2", 2);
    tg2["Constraints"] = json!([
        {"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="},
        {"LTarget": "${node.class}", "RTarget": "class_1", "Operand": "="}
    ]);
    j["TaskGroups"].as_array_mut().unwrap().push(tg2);
    for release in BOTH {
        let r = replay_eval(vec![n.clone()], j.clone(), "pending", release);
        assert_eq!(placed_nodes(&r).len(), 2, "{release}");
        let [failed] = r.plan.failed_placements.as_slice() else {
            panic!("{release}: {:?}", r.plan.failed_placements);
        };
        assert_eq!((failed.task_group.as_str(), failed.count), ("web2", 2));
        let blocked = r.plan.blocked_eval.as_ref().unwrap();
        assert_eq!(
            blocked.class_eligibility.iter().collect::<Vec<_>>(),
            [(&"v1:class_0".to_string(), &true)],
            "{release}"
        );
        assert!(r.plan.more_blocked_evals.is_empty());
        assert_eq!(r.plan.queued_allocations["web"], 0);
        assert_eq!(r.plan.queued_allocations["web2"], 2);
    }
}

/// TestServiceSched_EvaluateBlockedEval (1.3.0, 2.0.5): a blocked
/// evaluation run again with still no node is put back, the same
/// evaluation (`ReblockEval`), keeping its ID and trigger; no new one.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_evaluate_blocked_eval() {
    for release in BOTH {
        let r = replay_eval(Vec::new(), job(10), "blocked", release);
        assert_eq!(r.plan.failed_placements[0].count, 10, "{release}");
        let blocked = r.plan.blocked_eval.as_ref().unwrap();
        assert_eq!(blocked.id, EVAL, "{release}");
        assert!(blocked.reblocked);
        assert_eq!(blocked.triggered_by, "job-register");
        assert_eq!(blocked.status, "blocked");
    }
}

/// TestServiceSched_EvaluateBlockedEval_Finished (1.3.0, 2.0.5): the same
/// on ten nodes places all ten; nothing is blocked again and nothing stays
/// queued.
#[test]
fn generic_sched_test_go_v1_3_0_v2_0_5_evaluate_blocked_eval_finished() {
    for release in BOTH {
        let r = replay_eval(nodes(10), job(10), "blocked", release);
        assert_eq!(placed_nodes(&r).len(), 10, "{release}");
        assert!(r.plan.blocked_eval.is_none(), "{release}");
        assert_eq!(r.plan.queued_allocations["web"], 0);
    }
}

/// A reblocked evaluation carries the class eligibility even when a
/// constraint escapes the class (generic_sched.go:203-207 at 1.3.0,
/// :164-168 at 2.0.5), where a new blocked evaluation has none
/// (:224-227 at 1.3.0). Group `web` asks for a class no node has; `web2`
/// reads `unique.hostname`, which escapes the class for the evaluation.
#[test]
fn a_reblocked_evaluation_keeps_its_classes_when_escaped() {
    let mut j = job(1);
    j["TaskGroups"][0]["Constraints"] =
        json!([{"LTarget": "${node.class}", "RTarget": "nope", "Operand": "="}]);
    let mut tg2 = group("web2", 1);
    tg2["Constraints"] =
        json!([{"LTarget": "${attr.unique.hostname}", "RTarget": "node-0", "Operand": "="}]);
    j["TaskGroups"].as_array_mut().unwrap().push(tg2);
    for release in BOTH {
        let new = replay_eval(nodes(1), j.clone(), "pending", release);
        assert_eq!(placed_nodes(&new).len(), 1, "{release}");
        let blocked = new.plan.blocked_eval.as_ref().unwrap();
        assert!(blocked.escaped_computed_class && !blocked.reblocked);
        assert!(blocked.class_eligibility.is_empty(), "{release}");
        let again = replay_eval(nodes(1), j.clone(), "blocked", release);
        let blocked = again.plan.blocked_eval.as_ref().unwrap();
        assert!(blocked.escaped_computed_class && blocked.reblocked);
        assert_eq!(
            blocked.class_eligibility.iter().collect::<Vec<_>>(),
            [(&"v1:mock".to_string(), &false)],
            "{release}"
        );
    }
}

/// Three nodes, each full with one allocation of `web` (5000 MB of its
/// 7936): a lost allocation's replacement fits nowhere, unless `spare`
/// empty nodes are added.
fn full_cluster(evals: Value, spare: usize) -> plan_inspect::model::Snapshot {
    let mut j = job(3);
    j["ID"] = json!("web");
    j["TaskGroups"][0]["Tasks"][0]["Resources"] = json!({"CPU": 500, "MemoryMB": 5000});
    let allocs: Vec<Value> = (0..3)
        .map(|i| {
            json!({
                "ID": format!("a{i}000000-0000-4000-8000-000000000000"),
                "Namespace": "default", "JobID": "web", "TaskGroup": "web",
                "Name": format!("web.web[{i}]"), "NodeID": nodes(3)[i]["ID"], "Job": j,
                "ClientStatus": "running", "DesiredStatus": "run",
                "AllocatedResources": {"Tasks": {"web": {"Cpu": {"CpuShares": 500},
                                                          "Memory": {"MemoryMB": 5000}}},
                                       "Shared": {"DiskMB": 150}}
            })
        })
        .collect();
    let snapshot = json!({"Now": "2022-04-01T00:00:00Z", "Jobs": [j], "Nodes": nodes(3 + spare),
                          "Allocs": allocs, "Evals": evals});
    read_snapshot_from(snapshot.to_string().as_bytes(), "snapshot.json").unwrap()
}

fn story_at(
    snapshot: &plan_inspect::model::Snapshot,
    release: Release,
    events: &[&str],
    until: Option<&str>,
) -> Story {
    let options = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..Options::default()
    };
    let request = crate::common::request(events, until, None);
    run(snapshot, &options, &request).unwrap()
}

/// `processBlockJobDuplicate` (v1.3.0 nomad/blocked_evals.go:240, v2.0.5
/// :298) and the leader's reaper (v1.3.0 nomad/leader.go:907-908, v2.0.5
/// :1168-1169): node 0 goes down, its allocation's replacement fits
/// nowhere and the evaluation leaves a blocked one; five minutes later
/// node 1 goes down and the next evaluation blocks again. The tracker
/// keeps the later and the leader cancels the first, "existing blocked
/// evaluation exists for job "web"". A lost allocation, written with the
/// plan, unblocks nothing (else the first would have been let go).
#[test]
fn blocked_evals_go_v1_3_0_v2_0_5_a_second_blocked_evaluation_cancels_the_first() {
    let snapshot = full_cluster(json!([]), 0);
    for release in BOTH {
        let s = story_at(
            &snapshot,
            release,
            &["node-down:node-0", "node-down:node-1@5m"],
            None,
        );
        let blocked: Vec<&str> = s
            .timeline
            .iter()
            .map(|e| e.job.plan.blocked_eval.as_ref().unwrap().id.as_str())
            .collect();
        assert_eq!(blocked.len(), 2, "{release}");
        let [c] = s.canceled.as_slice() else {
            panic!("{release}: {:?}", s.canceled);
        };
        assert_eq!(c.by, CanceledBy::BlockedEvals);
        assert_eq!(c.evaluation.id, blocked[0]);
        assert_eq!(c.kept_eval_id.as_deref(), Some(blocked[1]));
        assert_eq!(c.at, s.timeline[1].at);
        assert_eq!(c.status, "canceled");
        assert_eq!(
            c.status_description,
            "existing blocked evaluation exists for job \"web\""
        );
        let waiting: Vec<&str> = s.pending.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(waiting, [blocked[1]], "{release}");
    }
}

/// The snapshot's own blocked evaluations of one job (a leader reaps such
/// duplicates within a second): with `--until` they are taken in ID order,
/// as `restoreEvals` does (v1.3.0 nomad/leader.go:556-578), and the
/// tracker keeps the one of the higher `max(CreateIndex, SnapshotIndex)`,
/// the later on a tie (`processBlockJobDuplicate` with `latestEvalIndex`,
/// v1.3.0 nomad/blocked_evals.go:240-294, v2.0.5 :298-352), canceling the
/// other at the evaluation time, with the evaluation kept at that moment.
#[test]
fn blocked_evals_go_v1_3_0_v2_0_5_the_snapshot_s_duplicates_keep_the_highest_index() {
    let eval = |id: &str, create: u64, snapshot: u64| {
        json!({"ID": id, "Namespace": "default", "JobID": "web", "Priority": 50,
               "Type": "service", "TriggeredBy": "queued-allocs", "Status": "blocked",
               "CreateIndex": create, "SnapshotIndex": snapshot, "ModifyIndex": create})
    };
    let a = "b1000000-0000-4000-8000-000000000000";
    let b = "b2000000-0000-4000-8000-000000000000";
    let c = "b3000000-0000-4000-8000-000000000000";
    // `a` was re-blocked at index 30: its snapshot index wins over `b`'s
    // creation at 20; `c`, restored last, is older than both.
    let snapshot = full_cluster(json!([eval(c, 10, 10), eval(b, 20, 0), eval(a, 5, 30)]), 0);
    for release in BOTH {
        let s = story_at(&snapshot, release, &[], Some("1m"));
        let canceled: Vec<(&str, Option<&str>)> = s
            .canceled
            .iter()
            .map(|c| (c.evaluation.id.as_str(), c.kept_eval_id.as_deref()))
            .collect();
        assert_eq!(canceled, [(b, Some(a)), (c, Some(a))], "{release}");
        assert!(
            s.canceled
                .iter()
                .all(|c| c.by == CanceledBy::BlockedEvals && c.at == s.report.now)
        );
        let waiting: Vec<&str> = s.pending.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(waiting, [a], "{release}");
    }
    // On equal indexes the one restored later, the later ID, stays.
    let tie = full_cluster(json!([eval(b, 20, 0), eval(a, 20, 0)]), 0);
    let s = story_at(&tie, v(2, 0, 5), &[], Some("1m"));
    let waiting: Vec<&str> = s.pending.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(waiting, [b]);
    assert_eq!(s.canceled[0].evaluation.id, a);
}

/// The tables list the canceled evaluation with Nomad's description and
/// the evaluation kept.
#[test]
fn the_story_table_lists_the_canceled_duplicate() {
    let snapshot = full_cluster(json!([]), 0);
    let s = story_at(
        &snapshot,
        v(2, 0, 5),
        &["node-down:node-0", "node-down:node-1@5m"],
        None,
    );
    let style = plan_inspect::render::table::Style {
        color: false,
        verbose: true,
        width: 200,
    };
    let text = plan_inspect::render::table::story(&s, style);
    let kept = s.canceled[0].kept_eval_id.as_deref().unwrap();
    let line = text
        .lines()
        .skip_while(|l| !l.starts_with("Canceled"))
        .find(|l| l.contains(&s.canceled[0].evaluation.id))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains(&format!(
            "existing blocked evaluation exists for job \"web\" (kept {kept})"
        )),
        "{line}"
    );
}

/// `nestedUpsertEval` (v1.3.0 nomad/state/state_store.go:3042, v2.0.5
/// :3522) and `Untrack` (v1.3.0 nomad/fsm.go:779): the snapshot holds a
/// blocked evaluation of `web`; node 0 goes down and the node-update
/// evaluation places the replacement on the spare node 3, so it completes
/// with no failed placement, and the state store cancels the blocked one,
/// which never runs. Its description names itself at 1.3.0 and the
/// successful evaluation from #17071 (1.3.15).
#[test]
fn state_store_go_v1_3_0_v1_3_15_a_successful_evaluation_cancels_the_blocked_one() {
    let blocked = "b1000000-0000-4000-8000-000000000000";
    let eval = json!({"ID": blocked, "Namespace": "default", "JobID": "web", "Priority": 50,
                      "Type": "service", "TriggeredBy": "queued-allocs", "Status": "blocked"});
    let snapshot = full_cluster(json!([eval]), 1);
    for (release, names_success) in [(v(1, 3, 0), false), (v(1, 3, 15), true), (v(2, 0, 5), true)] {
        let s = story_at(&snapshot, release, &["node-down:node-0@1m"], Some("1h"));
        let [entry] = s.timeline.as_slice() else {
            panic!("{release}: {:?}", s.timeline.len());
        };
        assert!(entry.job.plan.failed_placements.is_empty(), "{release}");
        let [c] = s.canceled.as_slice() else {
            panic!("{release}: {:?}", s.canceled);
        };
        assert_eq!(c.by, CanceledBy::SuccessfulEval);
        assert_eq!(c.evaluation.id, blocked);
        assert_eq!(
            c.kept_eval_id.as_deref(),
            Some(entry.evaluation.id.as_str())
        );
        assert_eq!(c.at, entry.at);
        let named = if names_success {
            entry.evaluation.id.as_str()
        } else {
            blocked
        };
        assert_eq!(
            c.status_description,
            format!("evaluation \"{named}\" successful")
        );
        assert!(s.pending.is_empty(), "{release}");
    }
}
