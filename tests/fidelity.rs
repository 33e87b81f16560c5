//! Behaviour checked line by line against Nomad at 8ac3e642e6 outside the
//! reconciler tests Nomad ships: how the scheduler picks its inputs and the
//! corner cases found in review.
mod common;
use common::*;

use plan_inspect::model::*;

/// `LatestDeploymentByJobID` (nomad/state/state_store.go:717-742) walks the
/// job's deployments in index order, by ID, and keeps a later one only if its
/// `CreateIndex` is strictly higher: on a tie, the lowest ID wins.
#[test]
fn latest_deployment_ties_go_to_the_lowest_id() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    c.allocs(&job, 10);
    let deployment = |id: &str, status: &str| Deployment {
        id: id.into(),
        namespace: job.namespace.clone(),
        job_id: job.id.clone(),
        job_create_index: job.create_index + 1,
        status: status.into(),
        create_index: 500,
        ..Deployment::default()
    };
    let low = "0b3c8e44-1a2f-4c1e-9d7a-000000000001";
    let high = "0b3c8e44-1a2f-4c1e-9d7a-000000000002";
    // Listed high first: the snapshot's order must not matter.
    c.deployment(deployment(high, deployment_status::CANCELLED));
    c.deployment(deployment(low, deployment_status::RUNNING));

    let plan = c.replay_job(&job.id).plan;
    let updates: Vec<_> = plan
        .deployment_updates
        .iter()
        .map(|u| (u.deployment_id.as_str(), u.status.as_str()))
        .collect();
    assert_eq!(updates, [(low, deployment_status::CANCELLED)]);
}

/// The scheduler moves in-place updates into the deployment it looked up
/// before reconciling, even one this evaluation cancels
/// (scheduler/generic_sched.go:264, 404-425).
#[test]
fn in_place_updates_join_the_latest_deployment_even_if_cancelled() {
    let mut c = Cluster::new();
    let old = c.job(mock_job());
    let ids = c.allocs(&old, 10);
    let d = c.new_deployment(&old);
    let mut new = inplace_update(&old);
    new.version += 1;
    c.job(new);

    let plan = c.replay_job(&old.id).plan;
    assert_eq!(plan.deployment_updates.len(), 1);
    assert_eq!(plan.deployment_updates[0].deployment_id, d);
    assert_eq!(
        plan.deployment_updates[0].status,
        deployment_status::CANCELLED
    );
    assert_eq!(plan.in_place_update.len(), ids.len());
    assert!(
        plan.in_place_update
            .iter()
            .all(|u| u.deployment_id.as_deref() == Some(d.as_str()))
    );
}

/// `computeStop` counts terminal allocations it keeps (a failed one that
/// will not be rescheduled) when working out how many to stop, then stops
/// only running ones: the group ends up below its count
/// (scheduler/reconcile.go:926-937, 1000-1012).
#[test]
fn a_kept_failed_alloc_makes_compute_stop_stop_a_running_one() {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 3;
    job.task_groups[0].reschedule_policy = None;
    let job = c.job(job);
    let running = c.allocs(&job, 3);
    let failed = c.alloc(&job, 3);
    c.alloc_mut(&failed).client_status = status::FAILED.into();

    let report = c.replay_job(&job.id);
    let changes = &group(&report, "web").desired_changes;
    assert_eq!((changes.stop, changes.place, changes.ignore), (1, 0, 3));
    let stopped: Vec<_> = report
        .plan
        .stop
        .iter()
        .map(|s| s.alloc_id.as_str())
        .collect();
    assert_eq!(stopped, [running[0].as_str()]);
}

/// `filterByRescheduleable` puts every disconnecting allocation it does not
/// filter in `rescheduleNow`, eligible or not: one without a reschedule
/// policy is still replaced (scheduler/reconcile_util.go:346-353).
#[test]
fn disconnecting_allocs_are_replaced_without_a_reschedule_policy() {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 1;
    job.task_groups[0].reschedule_policy = None;
    job.task_groups[0].max_client_disconnect = Some(10 * MINUTE);
    let job = c.job(job);
    let alloc = c.alloc(&job, 0);
    c.set_node_status(&alloc, node_status::DISCONNECTED);

    let plan = c.replay_job(&job.id).plan;
    assert!(plan.stop.is_empty());
    assert_eq!(plan.disconnect_updates.len(), 1);
    assert_eq!(plan.place.len(), 1);
    assert!(plan.place[0].reschedule);
    assert_eq!(
        plan.place[0].previous_alloc_id.as_deref(),
        Some(alloc.as_str())
    );
}

/// A failed allocation of `job` due for rescheduling in 30 s, and an eval
/// `eval-1` of the job delayed until `wait_until`.
fn reschedule_later_with_eval(wait_until: plan_inspect::time::Time) -> (Cluster, String) {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 1;
    if let Some(p) = job.task_groups[0].reschedule_policy.as_mut() {
        p.delay = 30 * plan_inspect::time::SECOND;
    }
    let job = c.job(job);
    let failed = c.alloc(&job, 0);
    let a = c.alloc_mut(&failed);
    a.client_status = status::FAILED.into();
    a.task_states.insert("web".into(), failed_state(now()));
    c.snapshot.evals.push(Evaluation {
        id: "eval-1".into(),
        namespace: job.namespace.clone(),
        job_id: job.id.clone(),
        priority: 50,
        eval_type: "service".into(),
        triggered_by: "alloc-failure".into(),
        status: "pending".into(),
        wait_until,
    });
    (c, failed)
}

/// The scheduler creates follow-up evals only if the evaluation it runs was
/// not itself delayed (`delayInstead`, scheduler/generic_sched.go:293, 312-321);
/// the allocations still get the follow-up eval IDs.
#[test]
fn a_delayed_evaluation_creates_no_followup_evals() {
    let replay_eval = |c: &Cluster| {
        let options = plan_inspect::replay::Options {
            eval: Some("eval-1".into()),
            ..Default::default()
        };
        plan_inspect::replay::replay(&c.snapshot, &options)
            .unwrap()
            .jobs[0]
            .plan
            .clone()
    };

    let (c, failed) = reschedule_later_with_eval(plan_inspect::time::Time::ZERO);
    let plan = replay_eval(&c);
    assert_eq!(plan.followup_evals.len(), 1);
    assert_eq!(plan.attribute_updates.len(), 1);

    let (c, _) = reschedule_later_with_eval(now().add(-MINUTE));
    let plan = replay_eval(&c);
    assert!(plan.followup_evals.is_empty());
    assert_eq!(plan.attribute_updates.len(), 1);
    assert_eq!(plan.attribute_updates[0].alloc_id, failed);
}

/// Nomad runs system jobs through its system scheduler: no generic
/// reconcile, no deployment, and no warning that it was replayed anyway.
#[test]
fn system_jobs_are_scheduled_by_the_system_scheduler() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.job_type = "system".into();
    c.job(spec);
    let report = c.replay();
    assert_eq!(report.jobs.len(), 1);
    assert!(
        report.warnings.iter().all(|w| w.code != "system_job"),
        "{:?}",
        report.warnings
    );
    let job = &report.jobs[0];
    assert!(job.plan.deployment.is_none());
    // No nodes: nothing to place on.
    assert!(job.plan.place.is_empty());
    assert!(job.groups[0].system_diff.is_some());
}
