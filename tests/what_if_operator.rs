//! An operator's part in a deployment as `--what-if` events: the
//! deployment endpoint (`Deployment.Promote`, `.Fail`, `.Pause`, v2.0.5
//! nomad/deployment_endpoint.go:99-252, v1.3.0 :86-214) refuses a terminal
//! deployment and hands the rest to the deployment watcher
//! (`PromoteDeployment`, `FailDeployment`, `PauseDeployment`, v2.0.5
//! nomad/deploymentwatcher/deployment_watcher.go:259-405, v1.3.0
//! :256-398), which writes the promotion (`UpdateDeploymentPromotion`) or
//! the status update with its evaluation as it does for its own promotions
//! and failures.

use plan_inspect::model::{AllocDeploymentStatus, UpdateStrategy, deployment_status as ds};
use plan_inspect::servers::story::Ignored;
use plan_inspect::servers::{Story, WatcherAction, WhatIfError};
use plan_inspect::time::SECOND;

use crate::common::*;
use crate::what_if_deployment::{created, deploying, registered, story, triggers, web};

const MINUTE: i64 = 60 * SECOND;

/// One canary of two allocations, without `auto_promote`: it waits for
/// the operator.
fn manual_canary() -> UpdateStrategy {
    UpdateStrategy {
        canary: 1,
        max_parallel: 1,
        ..UpdateStrategy::default()
    }
}

/// The evaluation an event created, in the timeline.
fn ran<'s>(s: &'s Story, eval: &str) -> usize {
    s.timeline
        .iter()
        .position(|e| e.evaluation.id == eval)
        .expect("the event's evaluation runs")
}

/// The registration places the canary and its healthy verdict makes the
/// watcher evaluate the job, which waits. The operator promotes the job's
/// deployment (named by the job's ID, the deployment the story created)
/// five minutes in: every group promoted, the deployment described
/// running, the canary's flag cleared, and the `deployment-watcher`
/// evaluation of the same write replaces the old allocation, after which
/// the deployment completes. The same at both releases.
#[test]
fn deployment_watcher_go_promote_deployment_promotes_the_healthy_canary() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, job, _old) = registered(2, manual_canary());
        let s = story(
            &c,
            version,
            &[format!("deployment-promote:{}@5m", job.id)],
            "30m",
            None,
        );
        let dep = created(&s);
        let e = &s.what_if[0];
        assert_eq!(e.deployment_id.as_deref(), Some(dep.as_str()), "{version}");
        assert_eq!(e.ignored, None, "{version}");
        assert_eq!(e.evaluations.len(), 1, "{version}");
        let w = &s.deployment_watcher;
        assert_eq!(w.len(), 1, "{version}: {w:?}");
        assert_eq!(w[0].action, WatcherAction::PromotedByOperator);
        assert_eq!(w[0].at, now().add(5 * MINUTE));
        assert_eq!(w[0].eval_id, e.evaluations[0]);
        assert_eq!(w[0].status_description, ds::DESC_RUNNING);
        let at = ran(&s, &e.evaluations[0]);
        assert_eq!(
            &triggers(&s)[..at + 1],
            [
                (0, "job-register"),
                (1, "deployment-watcher"),
                (300, "deployment-watcher"),
            ],
            "{version}"
        );
        assert!(s.timeline[1].job.plan.is_noop(), "{version}");
        let after = &s.timeline[at].job;
        assert_eq!(
            (after.plan.stop.len(), destructive_indexes(after).len()),
            (1, 1),
            "{version}: the promotion's evaluation stops the old allocation the canary \
             stands for and replaces the other"
        );
        let g = web(&s, &dep);
        assert!(g.promoted, "{version}");
        assert_eq!((g.placed_allocs, g.healthy_allocs), (2, 2), "{version}");
        let d = s.deployments.iter().find(|d| d.id == dep).unwrap();
        assert_eq!(d.status, ds::SUCCESSFUL, "{version}");
    }
}

/// The snapshot's running deployment holds one healthy canary of the new
/// version, unpromoted. Without `--until` the promotion's evaluation still
/// runs, as the event wrote it, and replaces an old allocation; the
/// deployment is named by the first characters of its ID.
#[test]
fn a_promotion_without_until_runs_its_evaluation() {
    for version in ["1.3.0", "2.0.5"] {
        let (mut c, _job, dep, placed) = deploying(3, manual_canary(), |_| {});
        c.alloc_mut(&placed).deployment_status = Some(AllocDeploymentStatus {
            healthy: Some(true),
            canary: true,
        });
        c.add_placed_canary(&dep, "web", &placed);
        {
            let state = c.deployment_mut(&dep).task_groups.get_mut("web").unwrap();
            state.desired_canaries = 1;
            state.healthy_allocs = 1;
        }
        let prefix = &dep[..dep.len() - 1];
        let s = try_tell(
            &c,
            version,
            &request(&[format!("deployment-promote:{prefix}@5m")], None, None),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.what_if[0].deployment_id.as_deref(), Some(dep.as_str()));
        assert_eq!(triggers(&s), [(300, "deployment-watcher")], "{version}");
        assert_eq!(s.timeline[0].evaluation.id, s.what_if[0].evaluations[0]);
        assert_eq!(
            destructive_indexes(&s.timeline[0].job).len(),
            1,
            "{version}"
        );
        let g = web(&s, &dep);
        assert!(g.promoted, "{version}");
        assert!(
            s.pending
                .iter()
                .all(|p| p.triggered_by == "deployment-watcher")
        );
    }
}

/// `UpdateDeploymentPromotion` refuses a canary not yet healthy (healthy
/// ten minutes after it starts, promoted at five) with the state store's
/// error for its group; nothing is written, and the deployment waits.
#[test]
fn state_store_go_a_promotion_of_an_unhealthy_canary_is_refused() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, job, _old) = registered(2, manual_canary());
        let s = story(
            &c,
            version,
            &[format!("deployment-promote:{}@5m", job.id)],
            "30m",
            Some(10 * MINUTE),
        );
        let e = &s.what_if[0];
        assert_eq!(
            e.ignored,
            Some(Ignored::Refused {
                errors: vec!["Task group \"web\" has 0/1 healthy allocations".to_string()]
            }),
            "{version}"
        );
        assert!(e.evaluations.is_empty(), "{version}");
        assert!(s.deployment_watcher.is_empty(), "{version}");
        let g = web(&s, &created(&s));
        assert!(!g.promoted, "{version}");
        assert_eq!(g.healthy_allocs, 1, "{version}: healthy at 10m");
    }
}

/// The operator fails the snapshot's running deployment a minute in: its
/// group auto-reverts, so version 0, the latest stable one, is registered
/// again as version 2 with the failure (`Deployment marked as failed -
/// rolling back to job version 0`), and the failure's evaluation deploys
/// it.
#[test]
fn deployment_watcher_go_fail_deployment_reverts() {
    for version in ["1.3.0", "2.0.5"] {
        let update = UpdateStrategy {
            max_parallel: 1,
            auto_revert: true,
            ..UpdateStrategy::default()
        };
        let (c, _job, dep, _placed) = deploying(3, update, |_| {});
        let s = story(
            &c,
            version,
            &[format!("deployment-fail:{dep}@1m")],
            "30m",
            Some(5 * MINUTE),
        );
        let e = &s.what_if[0];
        assert_eq!(e.deployment_id.as_deref(), Some(dep.as_str()));
        assert_eq!(e.evaluations.len(), 1, "{version}");
        let w = &s.deployment_watcher[0];
        assert_eq!(w.action, WatcherAction::FailedByOperator);
        assert_eq!(w.at, now().add(MINUTE));
        assert_eq!(
            w.status_description,
            "Deployment marked as failed - rolling back to job version 0"
        );
        let reverted = w.reverted.as_ref().expect("reverted");
        assert_eq!((reverted.stable_version, reverted.job_version), (0, 2));
        let after = &s.timeline[ran(&s, &e.evaluations[0])];
        assert_eq!(after.evaluation.triggered_by, "deployment-watcher");
        assert_eq!(after.job.version, 2, "{version}");
        let d = s.deployments.iter().find(|d| d.id == dep).unwrap();
        assert_eq!(
            (d.status.as_str(), d.status_description.as_str()),
            (ds::FAILED, w.status_description.as_str())
        );
    }
}

/// Without `auto_revert` the failure is Nomad's description alone; a
/// second failure, and a promotion, of the failed deployment are refused
/// by the endpoint, which changes nothing.
#[test]
fn deployment_endpoint_go_a_terminal_deployment_is_refused() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, job, dep, _placed) = deploying(3, manual_canary_less(), |_| {});
        let s = story(
            &c,
            version,
            &[
                format!("deployment-fail:{dep}@1m"),
                format!("deployment-fail:{}@2m", job.id),
                format!("deployment-promote:{dep}@3m"),
            ],
            "30m",
            Some(5 * MINUTE),
        );
        assert_eq!(s.deployment_watcher.len(), 1, "{version}");
        assert_eq!(
            s.deployment_watcher[0].status_description,
            ds::DESC_FAILED_BY_USER
        );
        assert_eq!(s.deployment_watcher[0].reverted, None);
        let refused: Vec<Option<Ignored>> = s.what_if.iter().map(|e| e.ignored.clone()).collect();
        let error = |e: &str| {
            Some(Ignored::Refused {
                errors: vec![e.to_string()],
            })
        };
        assert_eq!(
            refused,
            [
                None,
                error("can't fail terminal deployment"),
                error("can't promote terminal deployment"),
            ],
            "{version}"
        );
        // The job's ID names its latest deployment when none is active.
        assert_eq!(s.what_if[1].deployment_id.as_deref(), Some(dep.as_str()));
        assert!(s.what_if[1..].iter().all(|e| e.evaluations.is_empty()));
    }
}

fn manual_canary_less() -> UpdateStrategy {
    UpdateStrategy {
        max_parallel: 1,
        ..UpdateStrategy::default()
    }
}

/// A deployment no ID, prefix or job names when the event happens, and a
/// prefix two deployments share, are errors listing the deployments as
/// the story has them then (the snapshot's running one completed within a
/// second: its allocations are healthy at once).
#[test]
fn an_unknown_or_ambiguous_deployment_is_an_error() {
    let (mut c, job, dep, _placed) = deploying(2, manual_canary_less(), |_| {});
    // An older deployment of the job, finished.
    let other = c.new_deployment(&job);
    c.deployment_mut(&other).status = ds::SUCCESSFUL.into();
    c.deployment_mut(&other).create_index = 1;
    let err = |events: &[&str]| -> WhatIfError {
        try_tell(&c, "2.0.5", &request(events, Some("10m"), None)).unwrap_err()
    };
    assert_eq!(
        err(&["deployment-promote:nope@1m"]).to_string(),
        format!(
            "--what-if deployment-promote:nope@1m: no deployment has the ID or ID prefix \
             \"nope\", nor does a job of that ID have one, at 2022-04-01T12:01:00Z; the \
             deployments then: {dep} (default/mock-service v1, successful), {other} \
             (default/mock-service v1, successful)"
        ),
        "the deployments as the story has them when the event happens: {dep} completed"
    );
    assert_eq!(
        err(&["deployment-fail:deployment-"]).to_string(),
        format!(
            "--what-if deployment-fail:deployment-: \"deployment-\" matches 2 deployments: \
             {dep} (default/mock-service v1, running), {other} (default/mock-service v1, \
             successful); give more of the ID"
        )
    );
}
