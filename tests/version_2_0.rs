//! The 2.0 releases and head: 2.0.3's rule table keeps 1.11.2's order
//! (H-2), 2.0.4's client-terminal scale-down stops and counted drained batch
//! allocations (H-3), and head's force-reschedule and `AllocStates` fixes
//! (H-4), each under the last release before it and the first with it, and
//! Nomad's tests of the change ported under the profile of their tag.

use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, TaintRule};
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, Switches, VersionRequest, v};

use crate::common::*;
use crate::version_1_11::disconnect_job;

const V203: Release = v(2, 0, 3);
const V204: Release = v(2, 0, 4);
const V205: Release = v(2, 0, 5);

/// The report of job `id` replayed as Nomad `release`.
fn replay_as(c: &mut Cluster, release: Release, id: &str) -> JobReport {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay_job(id)
}

/// H-2: 2.0.3 turned `filterByTainted` into a first-match rule table
/// (v2.0.3 scheduler/reconciler/filters.go:130, :279) in 1.11.2's order;
/// from 2.0.4 the drained-batch rule (H-3) joins it second.
#[test]
fn the_rule_table_of_2_0_3_keeps_the_order_of_1_11_2() {
    let order = |r| TaintRule::order(Switches::of(r));
    assert_eq!(order(V203), order(v(1, 11, 2)));
    assert_eq!(order(V203), order(v(2, 0, 2)));
    let mut with_drained = order(V203);
    with_drained.insert(1, TaintRule::DrainedBatchKept);
    assert_eq!(order(V204), with_drained);
    assert_eq!(order(Release::Head), with_drained);
}

/// #28010 (2.0.3, the rule table of H-2) changed no answer: a batch
/// allocation that ran successfully and was then stopped by the server, in
/// a group without a disconnect block, is ignored and replaced at 2.0.2
/// and 2.0.3 alike (v2.0.2 scheduler/reconciler/filters.go:141-146, v2.0.3
/// :141-146). The server-terminal check stopped asking whether the group
/// supports disconnects at 1.11.2 (G-1; v1.11.1 filters.go:181): 1.11.1
/// kept it untainted, a successful batch run that needs no replacement.
#[test]
fn a_stopped_batch_allocation_is_ignored_alike_at_2_0_2_and_2_0_3() {
    let mut c = Cluster::new();
    let job = c.job(batch_job(2));
    let running = c.alloc(&job, 0);
    c.alloc_mut(&running).client_status = status::RUNNING.into();
    let stopped = c.alloc(&job, 1);
    {
        let a = c.alloc_mut(&stopped);
        a.client_status = status::COMPLETE.into();
        a.desired_status = status::STOP.into();
        ran(a);
    }
    let old = replay_as(&mut c, v(1, 11, 1), JOB);
    assert_eq!(bucket_of(&old, &stopped), "untainted");
    assert!(old.plan.place.is_empty());
    for release in [v(1, 11, 2), v(2, 0, 2), V203] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(bucket_of(&r, &stopped), "ignore", "{release}");
        assert_eq!(place_indexes(&r), [1], "{release}");
        assert_eq!(web_changes(&r).ignore, 2, "{release}");
    }
}

/// `mock.BatchJob()`'s shape on `mock.Job()`: a batch job of `count`.
fn batch_job(count: i64) -> Job {
    let mut j = mock_job();
    j.job_type = "batch".into();
    j.task_groups[0].count = count;
    j
}

/// A dead task that did not fail: the allocation ran successfully.
fn ran(a: &mut Allocation) {
    a.task_states.insert(
        "web".into(),
        TaskState {
            state: "dead".into(),
            ..TaskState::default()
        },
    );
}

/// TestReconciler_ScaleDown_ClientTerminal_Batch
/// (scheduler/reconciler/reconcile_cluster_test.go at v2.0.4): a batch
/// group scaled to 5 with seven allocations, index 5 complete but desired
/// to run, index 6 stopped: the scale-down stops index 5, the highest
/// counted one, now that client-terminal allocations are candidates
/// (reconcile_cluster.go:1145). 2.0.3 passed over it: the highest name,
/// 5, matched no candidate, so an arbitrary running one was stopped (map
/// order in Nomad; the first by ID, index 0, here).
#[test]
fn test_reconciler_scale_down_client_terminal_batch() {
    let mut c = Cluster::new();
    let job = c.job(batch_job(5));
    let ids: Vec<String> = (0..7).map(|i| c.alloc(&job, i)).collect();
    for id in &ids[..5] {
        c.alloc_mut(id).client_status = status::RUNNING.into();
    }
    for (id, desired) in [(&ids[5], status::RUN), (&ids[6], status::STOP)] {
        let a = c.alloc_mut(id);
        a.client_status = status::COMPLETE.into();
        a.desired_status = desired.into();
        ran(a);
    }
    let r = replay_as(&mut c, V204, JOB);
    assert_results(
        &r,
        Expect {
            stop: 1,
            ..Expect::default()
        },
        &web(DesiredChanges {
            ignore: 6,
            stop: 1,
            ..dc()
        }),
    );
    assert_eq!(stop_indexes(&r), [5]);
    assert_eq!(stop_indexes(&replay_as(&mut c, V203, JOB)), [0]);
}

/// TestReconciler_MigrateDisablePlacementBatchAllocs_StillRunningAfterStop
/// (scheduler/reconciler/reconcile_cluster_test.go at v2.0.4): two of ten
/// batch allocations stopped by a drain (`MigrateDisablePlacement`) but
/// still running stay counted (filters.go:162, :474): nothing is placed or
/// stopped and all ten are ignored. 2.0.3 ignored the two and placed two
/// replacements.
#[test]
fn test_reconciler_migrate_disable_placement_batch_allocs_still_running_after_stop() {
    let mut c = Cluster::new();
    let job = c.job(batch_job(10));
    let ids: Vec<String> = (0..10).map(|i| c.alloc(&job, i)).collect();
    for id in &ids {
        c.alloc_mut(id).client_status = status::RUNNING.into();
    }
    for id in &ids[..2] {
        let a = c.alloc_mut(id);
        a.desired_status = status::STOP.into();
        a.desired_transition.migrate = Some(true);
        a.desired_transition.migrate_disable_placement = Some(true);
    }
    let r = replay_as(&mut c, V204, JOB);
    assert_results(
        &r,
        Expect::default(),
        &web(DesiredChanges { ignore: 10, ..dc() }),
    );
    assert_eq!(bucket_of(&r, &ids[0]), "untainted");
    let old = replay_as(&mut c, V203, JOB);
    assert_eq!(bucket_of(&old, &ids[0]), "ignore");
    assert_eq!(old.plan.place.len(), 2);
}

/// H-4 (after 2.0.5; main scheduler/reconciler/filters.go:537): a running
/// allocation with a force-reschedule transition is rescheduled now up to
/// 2.0.5 and left alone at head, where only client-terminal allocations
/// are forced.
#[test]
fn force_reschedule_applies_to_client_terminal_allocs_only_at_head() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 1;
    let job = c.job(spec);
    let id = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&id);
        a.client_status = status::RUNNING.into();
        a.desired_transition.force_reschedule = Some(true);
    }
    let old = replay_as(&mut c, V205, JOB);
    assert_eq!(group(&old, "web").reschedule_now, [id.as_str()]);
    assert_eq!(old.plan.place.len(), 1);
    let new = replay_as(&mut c, Release::Head, JOB);
    assert!(group(&new, "web").reschedule_now.is_empty());
    assert!(new.plan.place.is_empty());

    // A failed one is still forced.
    fail_at(c.alloc_mut(&id), now());
    let failed = replay_as(&mut c, Release::Head, JOB);
    assert_eq!(group(&failed, "web").reschedule_now, [id.as_str()]);
}

/// H-4 (after 2.0.5; main nomad/structs/alloc.go:864): a client-status
/// entry with no value after `unknown` ended the wait for a reconnect up to
/// 2.0.5; at head it is skipped, so an unknown allocation whose node is
/// ready again is reconnecting (1.11.2's rule) rather than untainted.
#[test]
fn empty_alloc_states_are_skipped_at_head() {
    let mut c = Cluster::new();
    let mut spec = disconnect_job(HOUR, None);
    spec.task_groups[0].count = 1;
    let job = c.job(spec);
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).client_status = status::UNKNOWN.into();
    client_state(&mut c, &id, status::UNKNOWN, 10 * MINUTE);
    client_state(&mut c, &id, "", 5 * MINUTE);
    assert_eq!(bucket_of(&replay_as(&mut c, V205, JOB), &id), "untainted");
    assert_eq!(
        bucket_of(&replay_as(&mut c, Release::Head, JOB), &id),
        "reconnecting"
    );
}

/// TestReconciler_ScaleDown_ClientTerminal_Service
/// (scheduler/reconciler/reconcile_cluster_test.go at v2.0.4): a service
/// group scaled to 5 with six allocations, index 3 failed but desired to
/// run: it is rescheduled now (its fail time is the zero `ModifyTime`, long
/// past), so it is stopped as rescheduled and replaced, and the five others
/// are ignored. The same under 2.0.3: the rescheduled allocation is no
/// scale-down candidate either way.
#[test]
fn test_reconciler_scale_down_client_terminal_service() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 5;
    let job = c.job(spec);
    let ids: Vec<String> = (0..6).map(|i| c.mock_alloc(&job, "web", i)).collect();
    {
        let a = c.alloc_mut(&ids[3]);
        a.client_status = status::FAILED.into();
        a.task_states.insert(
            "web".into(),
            TaskState {
                state: "dead".into(),
                failed: true,
                ..TaskState::default()
            },
        );
    }
    for release in [V203, V204] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(stop_indexes(&r), [3], "{release}");
        assert_results(
            &r,
            Expect {
                place: 1,
                stop: 1,
                ..Expect::default()
            },
            &web(DesiredChanges {
                ignore: 5,
                place: 1,
                stop: 1,
                ..dc()
            }),
        );
    }
}

/// TestReconciler_ScaleDown_ClientTerminal_Service_ActiveDeployment
/// (scheduler/reconciler/reconcile_cluster_test.go at v2.0.4): a group
/// scaled to 2 with three allocations of a running deployment, index 2
/// failed but not rescheduled (the deployment is active): the scale-down
/// stops the failed one. 2.0.3 passed over it and stopped a healthy one
/// (Nomad's arbitrary pick; the first by ID, index 0, here).
#[test]
fn test_reconciler_scale_down_client_terminal_service_active_deployment() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 2;
    let job = c.job(spec);
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::RUNNING.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 3,
            placed_allocs: 3,
            ..DeploymentState::default()
        },
    );
    let ids: Vec<String> = (0..3).map(|i| c.mock_alloc(&job, "web", i)).collect();
    for id in &ids {
        c.alloc_mut(id).deployment_id = d.clone().into();
    }
    {
        let a = c.alloc_mut(&ids[2]);
        a.client_status = status::FAILED.into();
        a.task_states.insert(
            "web".into(),
            TaskState {
                state: "dead".into(),
                failed: true,
                ..TaskState::default()
            },
        );
    }
    let r = replay_as(&mut c, V204, JOB);
    assert_results(
        &r,
        Expect {
            stop: 1,
            ..Expect::default()
        },
        &web(DesiredChanges {
            ignore: 2,
            stop: 1,
            ..dc()
        }),
    );
    assert_eq!(r.plan.stop[0].alloc_id, ids[2]);
    assert_eq!(stop_indexes(&replay_as(&mut c, V203, JOB)), [0]);
}
