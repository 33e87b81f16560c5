//! After a reconnect from 1.10.2 and 1.11.0 (F-3, #25923, a state-store
//! change): the store clears a reconnected allocation's `FollowupEvalID`
//! and cancels that evaluation ("allocs reconnected"). The reconciler is
//! unchanged; the snapshot shows the new state, which auto reads as
//! evidence, and the replay reads `FollowupEvalID` as each release's
//! reconciler does.

use plan_inspect::model::*;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::reconciler::trigger;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::version::{Release, VersionRequest, v};

use crate::common::*;

fn snapshot(evals: &str) -> Snapshot {
    let text = format!(
        r#"{{"Now": "2025-06-01T00:00:00Z",
        "Jobs": [{{"ID": "web", "Namespace": "default", "Type": "service", "Version": 0,
                  "TaskGroups": [{{"Name": "web", "Count": 1}}]}}],
        "Nodes": [], "Allocs": [], "Evals": [{evals}]}}"#
    );
    read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap()
}

/// An evaluation the state store canceled as "allocs reconnected" proves
/// 1.10.2; auto replays it. A canceled evaluation without that
/// description proves nothing.
#[test]
fn a_follow_up_canceled_by_a_reconnect_proves_1_10_2() {
    let s = snapshot(
        r#"{"ID": "e1", "Namespace": "default", "JobID": "web", "Status": "canceled",
            "StatusDescription": "allocs reconnected", "TriggeredBy": "max-disconnect-timeout"}"#,
    );
    let r = Replay::new(&s, &Options::default()).unwrap().report();
    assert_eq!(r.nomad_version.release, v(1, 10, 2));
    assert_eq!(
        r.nomad_version.evidence.unwrap().fact,
        "an evaluation was canceled because its allocations reconnected (evaluation e1)"
    );
    let s = snapshot(
        r#"{"ID": "e1", "Namespace": "default", "JobID": "web", "Status": "canceled",
            "StatusDescription": "canceled after more recent eval was processed"}"#,
    );
    let r = Replay::new(&s, &Options::default()).unwrap().report();
    assert_eq!(r.nomad_version.release, Release::Seed);
}

/// An allocation that reconnected (unknown, then running) and has just
/// failed, its reschedule delay (5s) not yet passed, carrying
/// `followup`: the follow-up eval of its disconnect if the store kept it.
fn reconnected_then_failed(followup: &str) -> Cluster {
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(HOUR)));
    let id = c.alloc(&job, 0);
    client_state(&mut c, &id, status::UNKNOWN, 10 * MINUTE);
    client_state(&mut c, &id, status::RUNNING, 5 * MINUTE);
    let a = c.alloc_mut(&id);
    fail_at(a, now());
    a.followup_eval_id = followup.into();
    c
}

/// With `FollowupEvalID` cleared (1.10.2 on) the failed allocation gets a
/// delayed reschedule evaluation; with the old one kept (before F-3) it
/// gets none, as `updateByReschedulable` creates one only for an allocation
/// without a follow-up (v1.10.1 scheduler/reconcile_util.go:530), and waits
/// for that old evaluation, which reschedules it when it runs.
#[test]
fn a_reconnected_allocation_reschedules_later_only_without_its_old_follow_up() {
    for release in [v(1, 10, 1), v(1, 10, 2), v(1, 11, 0)] {
        let mut c = reconnected_then_failed("");
        c.snapshot.nomad_version = Some(VersionRequest::Release(release));
        let r = c.replay_job(JOB);
        assert!(r.plan.place.is_empty(), "{release}");
        let evals: Vec<&str> = r
            .plan
            .followup_evals
            .iter()
            .map(|e| e.triggered_by.as_str())
            .collect();
        // From 1.11.0 the first batch of delayed reschedules is triggered
        // as `alloc-reschedule` (G-0).
        let first = if release >= v(1, 11, 0) {
            trigger::ALLOC_RESCHEDULE
        } else {
            trigger::RETRY_FAILED_ALLOC
        };
        assert_eq!(evals, [first], "{release}");

        let mut c = reconnected_then_failed("old-followup");
        c.snapshot.nomad_version = Some(VersionRequest::Release(release));
        let r = c.replay_job(JOB);
        assert!(r.plan.place.is_empty(), "{release}");
        assert!(r.plan.followup_evals.is_empty(), "{release}");
    }
}

/// Before F-3 the old follow-up evaluation still runs, and as the
/// allocation's follow-up it reschedules the failed allocation at once.
#[test]
fn the_old_follow_up_reschedules_the_failed_allocation_when_it_runs() {
    let mut c = reconnected_then_failed("old-followup");
    c.snapshot.nomad_version = Some(VersionRequest::Release(v(1, 10, 1)));
    c.snapshot.evals.push(Evaluation {
        id: "old-followup".into(),
        namespace: "default".into(),
        job_id: JOB.into(),
        triggered_by: trigger::MAX_DISCONNECT_TIMEOUT.into(),
        status: "pending".into(),
        ..Evaluation::default()
    });
    let options = Options {
        eval: Some("old-followup".into()),
        ..Options::default()
    };
    let r = Replay::new(&c.snapshot, &options).unwrap().report();
    let job = r.jobs.iter().find(|j| j.id == JOB).unwrap();
    let failed = &c.snapshot.allocs[0].id;
    assert_eq!(job.plan.place.len(), 1);
    assert_eq!(job.plan.place[0].previous_alloc_id.as_ref(), Some(failed));
    assert!(job.plan.place[0].reschedule);
}
