//! An operator's part in a deployment as `--what-if` events: the
//! deployment endpoint (`Deployment.Promote`, `.Fail`, `.Pause`, v2.0.5
//! nomad/deployment_endpoint.go:99-252, v1.3.0 :86-214) refuses a terminal
//! deployment and hands the rest to the deployment watcher
//! (`PromoteDeployment`, `FailDeployment`, `PauseDeployment`, v2.0.5
//! nomad/deploymentwatcher/deployment_watcher.go:259-403, v1.3.0
//! :256-396), which writes the promotion (`UpdateDeploymentPromotion`) or
//! the status update with its evaluation as it does for its own promotions
//! and failures. `Deployment.Unblock` (v2.0.5 :303-351, v1.3.0 :257-297)
//! hands its deployment to `UnblockDeployment`, which Nomad CE leaves
//! empty: a multiregion step, Enterprise's.

use std::sync::Arc;

use plan_inspect::model::{AllocDeploymentStatus, Job, UpdateStrategy, deployment_status as ds};
use plan_inspect::servers::story::Ignored;
use plan_inspect::servers::{Story, WatcherAction};
use plan_inspect::time::SECOND;

use crate::common::*;
use crate::what_if_deployment::{
    created, deploying, old_running, registered, registered_with, triggers, web, written,
};

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
fn ran(s: &Story, eval: &str) -> usize {
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
        let s = Tell::on(&c)
            .event(format!("deployment-promote:{}@5m", job.id))
            .until("30m")
            .at(version);
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
        let d = written(&s, &dep);
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
        let s = Tell::on(&c)
            .event(format!("deployment-promote:{prefix}@5m"))
            .at(version);
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
        let s = Tell::on(&c)
            .event(format!("deployment-promote:{}@5m", job.id))
            .until("30m")
            .healthy_after(10 * MINUTE)
            .at(version);
        let e = &s.what_if[0];
        assert_eq!(
            e.ignored,
            refused(&["Task group \"web\" has 0/1 healthy allocations"]),
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
        let s = Tell::on(&c)
            .event(format!("deployment-fail:{dep}@1m"))
            .until("30m")
            .healthy_after(5 * MINUTE)
            .at(version);
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
        let d = written(&s, &dep);
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
        let (c, job, dep, _placed) = deploying(3, one_at_a_time(), |_| {});
        let s = Tell::on(&c)
            .event(format!("deployment-fail:{dep}@1m"))
            .event(format!("deployment-fail:{}@2m", job.id))
            .event(format!("deployment-promote:{dep}@3m"))
            .until("30m")
            .healthy_after(5 * MINUTE)
            .at(version);
        assert_eq!(s.deployment_watcher.len(), 1, "{version}");
        assert_eq!(
            s.deployment_watcher[0].status_description,
            ds::DESC_FAILED_BY_USER
        );
        assert_eq!(s.deployment_watcher[0].reverted, None);
        let got: Vec<Option<Ignored>> = s.what_if.iter().map(|e| e.ignored.clone()).collect();
        assert_eq!(
            got,
            [
                None,
                refused(&["can't fail terminal deployment"]),
                refused(&["can't promote terminal deployment"]),
            ],
            "{version}"
        );
        // The job's ID names its latest deployment when none is active.
        assert_eq!(s.what_if[1].deployment_id.as_deref(), Some(dep.as_str()));
        assert!(s.what_if[1..].iter().all(|e| e.evaluations.is_empty()));
    }
}

/// A rolling update one allocation at a time, without canaries.
fn one_at_a_time() -> UpdateStrategy {
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
    let (mut c, job, dep, _placed) = deploying(2, one_at_a_time(), |_| {});
    // An older deployment of the job, finished.
    let other = c.new_deployment(&job);
    c.deployment_mut(&other).status = ds::SUCCESSFUL.into();
    c.deployment_mut(&other).create_index = 1;
    let err = |event: &str| Tell::on(&c).event(event).until("10m").error_at("2.0.5");
    assert_eq!(
        err("deployment-promote:nope@1m").to_string(),
        format!(
            "--what-if deployment-promote:nope@1m: no deployment has the ID or ID prefix \
             \"nope\", nor does a job of that ID have one, at 2022-04-01T12:01:00Z; the \
             deployments then: {dep} (default/mock-service v1, successful), {other} \
             (default/mock-service v1, successful)"
        ),
        "the deployments as the story has them when the event happens: {dep} completed"
    );
    assert_eq!(
        err("deployment-fail:deployment-").to_string(),
        format!(
            "--what-if deployment-fail:deployment-: \"deployment-\" matches 2 deployments: \
             {dep} (default/mock-service v1, running), {other} (default/mock-service v1, \
             successful); give more of the ID"
        )
    );
}

/// A rolling update of three, one at a time, each allocation healthy a
/// minute after it starts, the group's progress deadline ten minutes. The
/// operator pauses the deployment (named by its job) at 30s and resumes
/// it at 20m. The first verdict (1m) pushes the deadline to 11m and its
/// batched evaluation places nothing, the deployment paused. Up to 2.0.0
/// the watcher fails the paused deployment at 11m, so the resume is
/// refused; from #27804 (2.0.1) it does not, the resume restarts the
/// deadline (v2.0.5 state_store.go:4819-4831) and its evaluation places
/// the next allocation.
#[test]
fn deployment_watcher_go_v2_0_1_pause_and_resume() {
    for (version, survives) in [
        ("1.3.0", false),
        ("2.0.0", false),
        ("2.0.1", true),
        ("2.0.5", true),
    ] {
        let update = UpdateStrategy {
            max_parallel: 1,
            progress_deadline: 10 * MINUTE,
            ..UpdateStrategy::default()
        };
        let (c, job, _old) = registered(3, update);
        let s = Tell::on(&c)
            .event(format!("deployment-pause:{}@30s", job.id))
            .event(format!("deployment-resume:{}@20m", job.id))
            .until("1h")
            .healthy_after(MINUTE)
            .at(version);
        let dep = created(&s);
        let pause = &s.what_if[0];
        assert_eq!(pause.deployment_id.as_deref(), Some(dep.as_str()));
        assert!(
            pause.evaluations.is_empty(),
            "{version}: a pause writes none"
        );
        let actions: Vec<(i64, WatcherAction, &str)> = s
            .deployment_watcher
            .iter()
            .map(|w| {
                (
                    w.at.sub(now()) / SECOND,
                    w.action,
                    w.status_description.as_str(),
                )
            })
            .collect();
        let paused = (30, WatcherAction::Paused, ds::DESC_PAUSED);
        let placed_while_paused = s
            .timeline
            .iter()
            .filter(|e| e.at > now().add(30 * SECOND) && e.at < now().add(20 * MINUTE))
            .map(|e| e.job.plan.place.len() + destructive_indexes(&e.job).len())
            .sum::<usize>();
        assert_eq!(placed_while_paused, 0, "{version}: {:?}", triggers(&s));
        if survives {
            let resumed = (1200, WatcherAction::Resumed, ds::DESC_RUNNING);
            assert_eq!(actions, [paused, resumed], "{version}");
            let resume = &s.what_if[1];
            assert_eq!(resume.ignored, None);
            assert_eq!(s.deployment_watcher[1].eval_id, resume.evaluations[0]);
            let after = &s.timeline[ran(&s, &resume.evaluations[0])];
            assert_eq!(destructive_indexes(&after.job).len(), 1, "{version}");
            let d = written(&s, &dep);
            assert_eq!(d.status, ds::SUCCESSFUL, "{version}");
        } else {
            let failed = (
                660,
                WatcherAction::FailedDeadline,
                "Failed due to progress deadline",
            );
            assert_eq!(actions, [paused, failed], "{version}");
            assert_eq!(
                s.what_if[1].ignored,
                refused(&["can't resume terminal deployment"])
            );
        }
    }
}

/// #27804 (2.0.1): pausing restarts the progress deadline of each group
/// that has one, at the pause. The snapshot's running deployment's
/// deadline is at 5m; paused at 2m it moves to 12m from 2.0.1 and stays
/// at 5m before.
#[test]
fn state_store_go_v2_0_1_a_pause_restarts_the_progress_deadline() {
    for (version, by) in [("2.0.0", 5), ("2.0.1", 12), ("2.0.5", 12)] {
        let update = UpdateStrategy {
            max_parallel: 1,
            progress_deadline: 10 * MINUTE,
            health_check: "manual".to_string(),
            ..UpdateStrategy::default()
        };
        let (mut c, _job, dep, _placed) = deploying(2, update, |_| {});
        c.deployment_mut(&dep)
            .task_groups
            .get_mut("web")
            .unwrap()
            .require_progress_by = now().add(5 * MINUTE);
        let s = Tell::on(&c)
            .event(format!("deployment-pause:{dep}@2m"))
            .until("3m")
            .at(version);
        let g = web(&s, &dep);
        assert_eq!(
            g.require_progress_by,
            Some(now().add(by * MINUTE)),
            "{version}"
        );
        let d = written(&s, &dep);
        assert_eq!(
            (d.status.as_str(), d.status_description.as_str()),
            (ds::PAUSED, ds::DESC_PAUSED)
        );
    }
}

/// From the command line: fixtures/evals.json holds the pending
/// `job-register` evaluation of web's version 2, one canary without
/// `auto_promote`. Promoted by the job's ID ten minutes in, the JSON names
/// the deployment in the event and lists the promotion under
/// `deployment_watcher`, with the event's evaluation.
#[test]
fn a_promotion_from_the_command_line() {
    let doc = CliStory::on("fixtures/evals.json")
        .what_if("deployment-promote:web@10m")
        .until("1h")
        .json();
    let event = &doc["what_if"][0];
    assert_eq!(event["event"], "deployment-promote");
    let dep = event["deployment_id"].as_str().expect("deployment named");
    let eval = event["evaluations"][0].as_str().expect("one evaluation");
    assert!(event.get("ignored").is_none(), "{event}");
    let w = &doc["deployment_watcher"][0];
    assert_eq!(w["action"], "promoted_by_operator");
    assert_eq!(w["deployment_id"], dep);
    assert_eq!(w["eval_id"], eval);
    assert_eq!(w["status_description"], "Deployment is running");
    let d = json_deployment(&doc, dep);
    assert_eq!(d["groups"]["web"]["promoted"], true);
}

/// An event past `--until` is not applied, and its deployment is not
/// looked up.
#[test]
fn a_deployment_event_after_until_is_not_looked_up() {
    let (c, _job, _old) = registered(2, manual_canary());
    let s = Tell::on(&c)
        .event("deployment-fail:anything@2h")
        .until("1h")
        .at("2.0.5");
    assert_eq!(s.what_if[0].ignored, Some(Ignored::AfterUntil));
    assert_eq!(s.what_if[0].deployment_id, None);
}

/// A job ID whose jobs in two namespaces have deployments names neither.
#[test]
fn a_job_id_of_two_namespaces_is_an_error() {
    let (mut c, job, _dep, _placed) = deploying(2, one_at_a_time(), |_| {});
    let other = c.new_deployment(&job);
    c.deployment_mut(&other).namespace = "batch".into();
    let e = Tell::on(&c)
        .event("deployment-pause:mock-service")
        .until("10m")
        .error_at("2.0.5");
    assert_eq!(
        e.to_string(),
        "--what-if deployment-pause:mock-service: jobs \"mock-service\" of 2 namespaces have \
         deployments at 2022-04-01T12:00:00Z (batch, default); give the deployment's ID"
    );
}

/// Nomad checks only the groups that want canaries: a rolling deployment
/// without any is promoted too (every group marked promoted, with an
/// evaluation), which changes nothing of its course.
#[test]
fn state_store_go_a_deployment_without_canaries_is_promoted() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, job, _old) = registered(3, one_at_a_time());
        let s = Tell::on(&c)
            .event(format!("deployment-promote:{}@500ms", job.id))
            .until("10m")
            .at(version);
        let dep = created(&s);
        assert_eq!(s.what_if[0].ignored, None, "{version}");
        assert_eq!(s.what_if[0].evaluations.len(), 1, "{version}");
        assert_eq!(
            s.deployment_watcher[0].action,
            WatcherAction::PromotedByOperator
        );
        assert!(web(&s, &dep).promoted, "{version}");
        let d = written(&s, &dep);
        assert_eq!(d.status, ds::SUCCESSFUL, "{version}");
    }
}

/// [`registered`] with a second group, `api`, a copy of `web` with its own
/// two allocations of version 0: each group wants one canary.
fn two_groups() -> (Cluster, Arc<Job>) {
    two_groups_with(manual_canary())
}

/// [`two_groups`] with `update` for both groups.
fn two_groups_with(update: UpdateStrategy) -> (Cluster, Arc<Job>) {
    let (mut c, job, _old) = registered_with(2, update, |j| {
        let mut api = j.task_groups[0].clone();
        api.name = "api".into();
        j.task_groups.push(api);
    });
    let old = c.snapshot.job_versions.last().expect("version 0").clone();
    for i in 0..2 {
        c.alloc_in(&old, "api", i);
    }
    for n in &mut c.snapshot.nodes {
        n.scheduling_eligibility = "eligible".into();
    }
    (c, job)
}

/// `UpdateDeploymentPromotion` with `Groups` (v1.3.0
/// nomad/state/state_store.go:4337-4425, v2.0.5 :5009-5097): promoting
/// `web` alone at 5m checks and promotes only `web` and leaves the
/// deployment needing promotion (its description unchanged); the
/// evaluation of the write replaces web's old allocations only. Promoting `api` at 10m completes the promotion: the
/// deployment is described running and then completes.
#[test]
fn state_store_go_update_deployment_promotion_of_some_groups() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, job) = two_groups();
        let s = Tell::on(&c)
            .event(format!("deployment-promote:{}:web@5m", job.id))
            .event(format!("deployment-promote:{}:api@10m", job.id))
            .until("30m")
            .at(version);
        let dep = created(&s);
        let w = &s.deployment_watcher;
        assert_eq!(w.len(), 2, "{version}: {w:?}");
        assert_eq!(
            (w[0].action, w[0].groups.as_slice()),
            (WatcherAction::PromotedByOperator, &["web".to_string()][..])
        );
        assert_eq!(
            w[0].status_description,
            ds::DESC_NEEDS_PROMOTION,
            "{version}: api still wants promotion"
        );
        assert_eq!(w[1].groups, ["api"]);
        assert_eq!(w[1].status_description, ds::DESC_RUNNING, "{version}");
        let first = &s.timeline[ran(&s, &s.what_if[0].evaluations[0])].job;
        let replaced: Vec<&str> = first
            .plan
            .stop
            .iter()
            .map(|a| &*a.task_group)
            .chain(
                first
                    .plan
                    .destructive_update
                    .iter()
                    .map(|d| d.task_group.as_str()),
            )
            .collect();
        assert!(
            !replaced.is_empty() && replaced.iter().all(|g| *g == "web"),
            "{version}: only web moves after web's promotion: {replaced:?}"
        );
        let d = written(&s, &dep);
        assert!(d.groups["web"].promoted && d.groups["api"].promoted);
        assert_eq!(d.status, ds::SUCCESSFUL, "{version}");
    }
}

/// Only the groups named are checked for healthy canaries (v1.3.0
/// state_store.go:4371-4375 and :4385-4400, v2.0.5 :5043-5047 and
/// :5057-5072): with the canaries healthy
/// at 10m, promoting `web` at 5m is refused for `web` alone, and a group
/// the deployment does not have is passed over, Nomad's endpoint and state
/// store naming no error for it: promoting `cache` writes the promotion,
/// with its evaluation, and promotes nothing.
#[test]
fn state_store_go_update_deployment_promotion_checks_the_groups_named() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, job) = two_groups();
        let s = Tell::on(&c)
            .event(format!("deployment-promote:{}:web@5m", job.id))
            .event(format!("deployment-promote:{}:cache@6m", job.id))
            .until("30m")
            .healthy_after(10 * MINUTE)
            .at(version);
        assert_eq!(
            s.what_if[0].ignored,
            refused(&["Task group \"web\" has 0/1 healthy allocations"]),
            "{version}"
        );
        let cache = &s.what_if[1];
        assert_eq!(cache.ignored, None, "{version}");
        assert_eq!(cache.evaluations.len(), 1, "{version}");
        let w = &s.deployment_watcher;
        assert_eq!(w.len(), 1, "{version}: {w:?}");
        assert_eq!(w[0].groups, ["cache"]);
        assert_eq!(w[0].status_description, ds::DESC_NEEDS_PROMOTION);
        let d = written(&s, &created(&s));
        assert!(!d.groups["web"].promoted && !d.groups["api"].promoted);
        assert_eq!(d.status, ds::RUNNING, "{version}");
    }
}

/// A rolling update one allocation at a time whose group waits for the
/// operator's health verdicts (`health_check = "manual"`).
fn manual_health(progress_deadline: i64, auto_revert: bool) -> UpdateStrategy {
    UpdateStrategy {
        max_parallel: 1,
        health_check: "manual".to_string(),
        progress_deadline,
        auto_revert,
        ..UpdateStrategy::default()
    }
}

/// `setAllocHealth` with a healthy allocation (v1.3.0
/// nomad/deploymentwatcher/deployment_watcher.go:156-240, v2.0.5
/// :158-243): the clients give no verdict, so the deployment moves only as
/// the operator sets each allocation healthy, by name, at 2m, 3m and 4m.
/// Each write counts the verdict and holds its own `deployment-watcher`
/// evaluation, which places the next allocation; the watcher adds no
/// batched evaluation a second later (its verdict is not newer than that
/// evaluation, v1.3.0 :623, v2.0.5 :630). The last evaluation completes the
/// deployment.
#[test]
fn deployment_watcher_go_set_alloc_health_moves_a_manual_deployment() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, _job, _old) = registered(3, manual_health(0, false));
        let events: Vec<String> = (0..3)
            .map(|i| format!("alloc-healthy:mock-service.web[{i}]@{}m", i + 2))
            .collect();
        let s = Tell::on(&c).events(&events).until("30m").at(version);
        let dep = created(&s);
        assert_eq!(
            triggers(&s),
            [
                (0, "job-register"),
                (120, "deployment-watcher"),
                (180, "deployment-watcher"),
                (240, "deployment-watcher"),
            ],
            "{version}"
        );
        for (e, w) in s.what_if.iter().zip(&s.deployment_watcher) {
            assert_eq!(e.ignored, None, "{version}");
            assert_eq!(e.deployment_id.as_deref(), Some(dep.as_str()));
            assert_eq!(w.action, WatcherAction::HealthyByOperator);
            assert_eq!(w.eval_id, e.evaluations[0]);
        }
        assert_eq!(s.deployment_watcher.len(), 3, "{version}");
        let first = &s.timeline[ran(&s, &s.what_if[0].evaluations[0])].job;
        assert_eq!(destructive_indexes(first).len(), 1, "{version}");
        let g = web(&s, &dep);
        assert_eq!((g.placed_allocs, g.healthy_allocs), (3, 3), "{version}");
        let d = written(&s, &dep);
        assert_eq!(d.status, ds::SUCCESSFUL, "{version}");
    }
}

/// `setAllocHealth` with an unhealthy allocation fails the deployment in
/// the same write (v1.3.0 deployment_watcher.go:167-210, v2.0.5
/// :169-212), though its group has a progress deadline, under which a
/// client's unhealthy verdict would only let the allocation be replaced;
/// the group auto-reverts, so version 0 is registered again. Set healthy
/// at 30s first, the allocation moves from the healthy count to the
/// unhealthy one (`updateDeploymentWithAlloc`, v1.3.0
/// state_store.go:5156-5162, v2.0.5 :5986-5992).
#[test]
fn deployment_watcher_go_set_alloc_health_unhealthy_fails_and_reverts() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, _job, dep, placed) = deploying(3, manual_health(10 * MINUTE, true), |_| {});
        let s = Tell::on(&c)
            .event(format!("alloc-healthy:{placed}@30s"))
            .event(format!("alloc-unhealthy:{placed}@1m"))
            .until("30m")
            .at(version);
        let e = &s.what_if[1];
        assert_eq!(e.ignored, None, "{version}");
        assert_eq!(e.deployment_id.as_deref(), Some(dep.as_str()));
        let w = &s.deployment_watcher[1];
        assert_eq!(w.action, WatcherAction::UnhealthyByOperator);
        assert_eq!(
            w.status_description,
            "Failed due to unhealthy allocations - rolling back to job version 0"
        );
        let reverted = w.reverted.as_ref().expect("reverted");
        assert_eq!((reverted.stable_version, reverted.job_version), (0, 2));
        assert_eq!(w.eval_id, e.evaluations[0]);
        let after = &s.timeline[ran(&s, &e.evaluations[0])];
        assert_eq!(after.job.version, 2, "{version}");
        let g = web(&s, &dep);
        assert_eq!((g.healthy_allocs, g.unhealthy_allocs), (0, 1), "{version}");
        let d = written(&s, &dep);
        assert_eq!(d.status, ds::FAILED, "{version}");
    }
}

/// Without a stable version to revert to, `setAllocHealth` keeps the
/// plain description (v1.3.0 deployment_watcher.go:204-206, v2.0.5
/// :206-208), where the watcher's own failure and `FailDeployment` say
/// `no stable job version to auto revert to`.
#[test]
fn deployment_watcher_go_set_alloc_health_without_a_stable_version() {
    for version in ["1.3.0", "2.0.5"] {
        let (mut c, _job, dep, placed) = deploying(3, manual_health(0, true), |_| {});
        for j in &mut c.snapshot.job_versions {
            Arc::make_mut(j).stable = false;
        }
        let s = Tell::on(&c)
            .event(format!("alloc-unhealthy:{placed}@1m"))
            .until("10m")
            .at(version);
        let w = &s.deployment_watcher[0];
        assert_eq!(
            (w.action, w.status_description.as_str(), w.reverted.as_ref()),
            (
                WatcherAction::UnhealthyByOperator,
                "Failed due to unhealthy allocations",
                None
            ),
            "{version}"
        );
        let d = written(&s, &dep);
        assert_eq!(d.status, ds::FAILED, "{version}");
    }
}

/// Nomad's refusals, nothing written: an allocation of version 0 outside
/// the deployment its job's ID names (the state store, v1.3.0
/// state_store.go:4489-4491, v2.0.5 :5164-5166), one whose deployment is
/// gone (`deployment not found`, the endpoint, v1.3.0
/// deployment_endpoint.go:370, v2.0.5 :437), and the deployment's own
/// allocation once the operator failed it (v1.3.0 :381, v2.0.5 :451).
#[test]
fn deployment_endpoint_go_set_alloc_health_refusals() {
    for version in ["1.3.0", "2.0.5"] {
        let (mut c, _job, dep, placed) = deploying(3, manual_health(0, false), |_| {});
        let old = old_running(&c);
        c.alloc_mut(&old[1]).deployment_id = "gone".into();
        let s = Tell::on(&c)
            .event(format!("alloc-healthy:{}@10s", old[0]))
            .event(format!("alloc-unhealthy:{}@20s", old[1]))
            .event(format!("deployment-fail:{dep}@30s"))
            .event(format!("alloc-healthy:{placed}@40s"))
            .until("10m")
            .at(version);
        let got: Vec<_> = s.what_if.iter().map(|e| e.ignored.clone()).collect();
        assert_eq!(
            got,
            [
                refused(&[&format!(
                    "alloc \"{}\" is not part of deployment \"{dep}\"",
                    old[0]
                )]),
                refused(&["deployment not found"]),
                None,
                refused(&["can't set health of allocations for a terminal deployment"]),
            ],
            "{version}"
        );
        assert_eq!(s.what_if[0].deployment_id.as_deref(), Some(dep.as_str()));
        assert_eq!(s.what_if[1].deployment_id.as_deref(), Some("gone"));
        assert_eq!(s.deployment_watcher.len(), 1, "{version}: the failure only");
        let g = web(&s, &dep);
        assert_eq!((g.healthy_allocs, g.unhealthy_allocs), (0, 0), "{version}");
    }
}

/// An allocation of a job with no deployment: the request has none to
/// name (`missing deployment ID`, v1.3.0 deployment_endpoint.go:351,
/// v2.0.5 :418). At the evaluation time the event comes before the
/// registration's evaluation, which creates the job's first deployment.
#[test]
fn deployment_endpoint_go_set_alloc_health_without_a_deployment() {
    let (c, _job, old) = registered(2, manual_health(0, false));
    let s = Tell::on(&c)
        .event(format!("alloc-healthy:{}", old[0]))
        .until("10m")
        .at("2.0.5");
    assert_eq!(s.what_if[0].ignored, refused(&["missing deployment ID"]));
    assert_eq!(s.what_if[0].deployment_id, None);
    assert_eq!(s.what_if[0].alloc_id.as_deref(), Some(old[0].as_str()));
}

/// After the write, the watcher looks at the deployment's allocations
/// (`handleAllocUpdate`, then `autoPromoteDeployment`, v1.3.0
/// deployment_watcher.go:511-533, v2.0.5 :518-540): the canary of an `auto_promote` group
/// set healthy by hand is promoted by the watcher with its own evaluation,
/// after the operator's write. The canary's ID is the one a first run
/// places.
#[test]
fn deployment_watcher_go_set_alloc_health_of_a_canary_then_auto_promotes() {
    for version in ["1.3.0", "2.0.5"] {
        let update = UpdateStrategy {
            canary: 1,
            auto_promote: true,
            ..manual_health(0, false)
        };
        let (c, _job, _old) = registered(2, update);
        let first = Tell::on(&c).until("1m").at(version);
        let dep = created(&first);
        let canary = web(&first, &dep).placed_canaries[0].to_string();
        assert!(first.deployment_watcher.is_empty(), "{version}: it waits");
        let s = Tell::on(&c)
            .event(format!("alloc-healthy:{canary}@1m"))
            .until("30m")
            .at(version);
        let actions: Vec<WatcherAction> = s.deployment_watcher.iter().map(|w| w.action).collect();
        assert_eq!(
            actions,
            [WatcherAction::HealthyByOperator, WatcherAction::Promoted],
            "{version}"
        );
        let (set, promoted) = (&s.deployment_watcher[0], &s.deployment_watcher[1]);
        assert_eq!(set.eval_id, s.what_if[0].evaluations[0]);
        assert!(
            ran(&s, &set.eval_id) < ran(&s, &promoted.eval_id),
            "{version}"
        );
        assert!(web(&s, &dep).promoted, "{version}");
    }
}

/// From the command line: tests/what-if/rolling.json registers web's
/// version 2 one allocation at a time, its group auto-reverting to the
/// stable version 1. The operator sets the first new
/// allocation unhealthy, by name, before its client's verdict (a minute
/// after it starts): the JSON names its deployment in the event and lists
/// the failure, with the rollback to version 1, under
/// `deployment_watcher`.
#[test]
fn an_allocation_set_unhealthy_from_the_command_line() {
    let doc = CliStory::rolling("2.0.5")
        .what_if("alloc-unhealthy:web.web[0]@1500ms")
        .json();
    let event = &doc["what_if"][0];
    assert_eq!(event["event"], "alloc-unhealthy");
    let dep = event["deployment_id"].as_str().expect("deployment named");
    let w = &doc["deployment_watcher"][0];
    assert_eq!(w["action"], "unhealthy_by_operator");
    assert_eq!(w["deployment_id"], dep);
    assert_eq!(w["eval_id"], event["evaluations"][0]);
    assert_eq!(
        w["status_description"],
        "Failed due to unhealthy allocations - rolling back to job version 1"
    );
    let d = json_deployment(&doc, dep);
    assert_eq!(d["status"], "failed");
    assert_eq!(d["groups"]["web"]["unhealthy_allocs"], 1);
}

/// The snapshot's running deployment of [`deploying`], three allocations
/// one at a time, `paused` or not, and its ID.
fn running(paused: bool) -> (Cluster, String) {
    let (mut c, _job, dep, _placed) = deploying(3, one_at_a_time(), |_| {});
    if paused {
        let d = c.deployment_mut(&dep);
        d.status = ds::PAUSED.into();
        d.status_description = ds::DESC_PAUSED.into();
    }
    (c, dep)
}

/// The snapshot's running deployment of [`deploying`] (three allocations,
/// one at a time, each healthy ten minutes after it starts), `paused` or
/// not, and the story of `event` on it a minute in, to 5m.
fn operator_on(version: &str, paused: bool, event: &str) -> (Story, String) {
    let (c, dep) = running(paused);
    let s = Tell::on(&c)
        .event(format!("{event}:{dep}@1m"))
        .until("5m")
        .healthy_after(10 * MINUTE)
        .at(version);
    (s, dep)
}

/// The watcher's one write of `s`: its action and description, and
/// whether an evaluation was written with it; then the deployment's
/// status as the story leaves it.
fn one_write(s: &Story, dep: &str) -> (WatcherAction, String, bool, String) {
    let [w] = s.deployment_watcher.as_slice() else {
        panic!("{:?}", s.deployment_watcher);
    };
    assert_eq!(s.what_if[0].ignored, None);
    assert_eq!(s.what_if[0].deployment_id.as_deref(), Some(dep));
    let evaluated = match s.what_if[0].evaluations.as_slice() {
        [] => false,
        [eval] => {
            assert_eq!(w.eval_id.as_str(), eval.as_str());
            assert_eq!(
                s.timeline[ran(s, eval)].evaluation.triggered_by,
                "deployment-watcher"
            );
            true
        }
        more => panic!("{more:?}"),
    };
    let d = written(s, dep);
    (
        w.action,
        w.status_description.clone(),
        evaluated,
        d.status.clone(),
    )
}

/// `event` on [`operator_on`]'s deployment, `paused` or not, at 1.3.0 and
/// 2.0.5: each story's one write as [`one_write`] reads it is `want`
/// (action, description, evaluated, the deployment's status).
fn one_write_at_both(
    paused: bool,
    event: &str,
    want: (WatcherAction, &str, bool, &str),
) -> [(&'static str, Story); 2] {
    ["1.3.0", "2.0.5"].map(|version| {
        let (s, dep) = operator_on(version, paused, event);
        assert_eq!(
            one_write(&s, &dep),
            (want.0, want.1.to_string(), want.2, want.3.to_string()),
            "{version}"
        );
        (version, s)
    })
}

/// `TestWatcher_PauseDeployment_Pause_Running` (nomad/deploymentwatcher/
/// deployments_watcher_test.go:700 at 1.3.0, :667 at 2.0.5): a running
/// deployment paused is written `paused`, `Deployment is paused`, without
/// an evaluation, and stays watched (not terminal).
#[test]
fn deployment_watcher_go_v1_3_0_v2_0_5_pause_deployment_pause_running() {
    one_write_at_both(
        false,
        "deployment-pause",
        (WatcherAction::Paused, ds::DESC_PAUSED, false, ds::PAUSED),
    );
}

/// `TestWatcher_PauseDeployment_Pause_Paused` (:742 at 1.3.0, :698 at
/// 2.0.5): pausing a paused deployment is not refused; the same status
/// is written again, without an evaluation.
#[test]
fn deployment_watcher_go_v1_3_0_v2_0_5_pause_deployment_pause_paused() {
    one_write_at_both(
        true,
        "deployment-pause",
        (WatcherAction::Paused, ds::DESC_PAUSED, false, ds::PAUSED),
    );
}

/// `TestWatcher_PauseDeployment_Unpause_Paused` (:785 at 1.3.0, :791 at
/// 2.0.5): resuming a paused deployment writes `running`, `Deployment is
/// running`, with an evaluation (1.3.0's matcher asks `Eval`), which the
/// story runs.
#[test]
fn deployment_watcher_go_v1_3_0_v2_0_5_pause_deployment_unpause_paused() {
    one_write_at_both(
        true,
        "deployment-resume",
        (WatcherAction::Resumed, ds::DESC_RUNNING, true, ds::RUNNING),
    );
}

/// `TestWatcher_PauseDeployment_Unpause_Running` (:826 at 1.3.0, :823 at
/// 2.0.5): resuming a running deployment is not refused: `running` is
/// written again, with an evaluation.
#[test]
fn deployment_watcher_go_v1_3_0_v2_0_5_pause_deployment_unpause_running() {
    one_write_at_both(
        false,
        "deployment-resume",
        (WatcherAction::Resumed, ds::DESC_RUNNING, true, ds::RUNNING),
    );
}

/// `TestWatcher_FailDeployment_Running` (:866 at 1.3.0, :854 at 2.0.5):
/// failing a running deployment whose group does not auto-revert writes
/// `failed`, `Deployment marked as failed`, with an evaluation, and no
/// rollback.
#[test]
fn deployment_watcher_go_v1_3_0_v2_0_5_fail_deployment_running() {
    for (version, s) in one_write_at_both(
        false,
        "deployment-fail",
        (
            WatcherAction::FailedByOperator,
            ds::DESC_FAILED_BY_USER,
            true,
            ds::FAILED,
        ),
    ) {
        assert_eq!(s.deployment_watcher[0].reverted, None, "{version}");
    }
}

/// `TestWatcher_PromoteDeployment_UnhealthyCanaries` (:478 at 1.3.0, :395
/// at 2.0.5): the deployment wants two canaries and holds one without a
/// health verdict; promoting it is refused with the state store's
/// `Task group "web" has 0/2 healthy allocations`: nothing is written, no
/// evaluation, and the deployment stays running, unpromoted.
#[test]
fn deployment_watcher_go_v1_3_0_v2_0_5_promote_deployment_unhealthy_canaries() {
    let update = UpdateStrategy {
        canary: 2,
        max_parallel: 2,
        ..UpdateStrategy::default()
    };
    for version in ["1.3.0", "2.0.5"] {
        let (mut c, _job, dep, placed) = deploying(3, update.clone(), |_| {});
        c.alloc_mut(&placed).deployment_status = Some(AllocDeploymentStatus {
            healthy: None,
            canary: true,
        });
        c.add_placed_canary(&dep, "web", &placed);
        c.deployment_mut(&dep)
            .task_groups
            .get_mut("web")
            .unwrap()
            .desired_canaries = 2;
        let s = Tell::on(&c)
            .event(format!("deployment-promote:{dep}@1m"))
            .until("5m")
            .healthy_after(10 * MINUTE)
            .at(version);
        let e = &s.what_if[0];
        assert_eq!(
            e.ignored,
            refused(&["Task group \"web\" has 0/2 healthy allocations"]),
            "{version}"
        );
        assert!(e.evaluations.is_empty(), "{version}");
        assert!(s.deployment_watcher.is_empty(), "{version}");
        // Nothing is written: the snapshot's running, unpromoted
        // deployment stands.
        assert!(s.deployments.iter().all(|d| d.id != dep), "{version}");
    }
}

/// `TestDeploymentWatcher_Watch_ProgressDeadline_Canaries` (:1208 at
/// 1.3.0, :1119 at 2.0.5): one canary, healthy a minute after it starts,
/// waits for a manual promotion past its group's five-minute progress
/// deadline. The deployment is not failed: it stays running, needing
/// promotion, with the one evaluation the canary's verdict gave the job.
#[test]
fn deployment_watcher_go_v1_3_0_v2_0_5_watch_progress_deadline_canaries() {
    let update = UpdateStrategy {
        canary: 1,
        max_parallel: 1,
        progress_deadline: 5 * MINUTE,
        ..UpdateStrategy::default()
    };
    for version in ["1.3.0", "2.0.5"] {
        let (c, _job, _old) = registered(2, update.clone());
        let s = Tell::on(&c).until("30m").healthy_after(MINUTE).at(version);
        let dep = created(&s);
        let d = written(&s, &dep);
        assert_eq!(
            (d.status.as_str(), d.status_description.as_str()),
            (ds::RUNNING, ds::DESC_NEEDS_PROMOTION),
            "{version}"
        );
        assert!(s.deployment_watcher.is_empty(), "{version}");
        assert_eq!(
            triggers(&s),
            [(0, "job-register"), (61, "deployment-watcher")],
            "{version}"
        );
    }
}

/// `TestDeploymentWatcher_ProgressDeadline_LatePromote` (:1379 at 1.3.0,
/// :1250 at 2.0.5; the race of #7058): two groups, each with one canary
/// healthy at 30s and a one-minute progress deadline, promoted by the
/// operator at 5m, long past the deadline. The deployment is not failed:
/// the promotion's evaluation replaces the old allocations, their
/// verdicts (30s later) give the evaluation that completes it, and each
/// group ends promoted with as many healthy as it wants, none unhealthy.
/// Nomad's test, without a scheduler, stops at "running" with the healthy
/// counts; the story goes on to the end. The evaluation at 5m31s is also
/// what `TestDeploymentWatcher_PromotedCanary_UpdatedAllocs` asks of a
/// promoted deployment's new verdicts.
#[test]
fn deployment_watcher_go_v1_3_0_v2_0_5_progress_deadline_late_promote() {
    let update = UpdateStrategy {
        canary: 1,
        max_parallel: 2,
        progress_deadline: MINUTE,
        ..UpdateStrategy::default()
    };
    for version in ["1.3.0", "2.0.5"] {
        let (c, job) = two_groups_with(update.clone());
        let s = Tell::on(&c)
            .event(format!("deployment-promote:{}@5m", job.id))
            .until("30m")
            .healthy_after(30 * SECOND)
            .at(version);
        let dep = created(&s);
        let actions: Vec<WatcherAction> = s.deployment_watcher.iter().map(|w| w.action).collect();
        assert_eq!(actions, [WatcherAction::PromotedByOperator], "{version}");
        assert_eq!(
            triggers(&s),
            [
                (0, "job-register"),
                (31, "deployment-watcher"),
                (300, "deployment-watcher"),
                (331, "deployment-watcher"),
            ],
            "{version}"
        );
        let d = written(&s, &dep);
        assert_eq!(d.status, ds::SUCCESSFUL, "{version}");
        for (name, g) in &d.groups {
            assert!(g.promoted, "{version} {name}");
            assert_eq!(
                (g.healthy_allocs, g.placed_allocs, g.unhealthy_allocs),
                (g.desired_total, g.desired_total, 0),
                "{version} {name}"
            );
        }
        assert_eq!(d.groups.len(), 2);
    }
}

/// What a story left, for comparing two: its timeline's evaluations with
/// their plans' counts, the watcher's writes, the deployments and what was
/// not replayed.
fn outcome_of(s: &Story) -> String {
    let timeline: Vec<(String, String, usize, usize, usize)> = s
        .timeline
        .iter()
        .map(|e| {
            (
                e.evaluation.id.clone(),
                e.evaluation.triggered_by.clone(),
                e.job.plan.place.len(),
                e.job.plan.stop.len(),
                destructive_indexes(&e.job).len(),
            )
        })
        .collect();
    format!(
        "{timeline:?}\n{}\n{}\n{}",
        serde_json::to_string(&s.deployment_watcher).unwrap(),
        serde_json::to_string(&s.deployments).unwrap(),
        serde_json::to_string(&s.pending).unwrap()
    )
}

/// `Deployment.Unblock` (v1.3.0 nomad/deployment_endpoint.go:257-297,
/// v2.0.5 :303-351) hands an active deployment to the watcher's
/// `UnblockDeployment`, which Nomad CE leaves empty (v1.3.0
/// nomad/deploymentwatcher/multiregion_oss.go:25-28, v2.0.5
/// multiregion_ce.go:27-30): unblocking is a step of multiregion
/// deployments, which only Enterprise runs. Nomad's tests of it are
/// Enterprise's (none in nomad/deployment_endpoint_test.go at either
/// tag), so these are ours: the snapshot's running deployment (each
/// allocation healthy a minute after it starts, so the update goes on to
/// its end) and a paused one, unblocked 30 seconds in, are taken and
/// nothing comes of it: no write, no evaluation, and the story is the one
/// told without the event.
#[test]
fn deployment_endpoint_go_v1_3_0_v2_0_5_unblock_is_a_no_op_in_ce() {
    for version in ["1.3.0", "2.0.5"] {
        for paused in [false, true] {
            let (c, dep) = running(paused);
            let tell = |events: &[String]| {
                Tell::on(&c)
                    .events(events)
                    .until("30m")
                    .healthy_after(MINUTE)
                    .at(version)
            };
            let s = tell(&[format!("deployment-unblock:{dep}@30s")]);
            let e = &s.what_if[0];
            assert_eq!(e.deployment_id.as_deref(), Some(dep.as_str()));
            assert_eq!(
                e.ignored,
                Some(Ignored::EnterpriseOnly),
                "{version} paused={paused}"
            );
            assert!(e.evaluations.is_empty(), "{version}: no evaluation");
            let untold = tell(&[]);
            assert!(
                untold.timeline.len() > usize::from(!paused),
                "{version} paused={paused}: the story moves on"
            );
            assert_eq!(outcome_of(&s), outcome_of(&untold), "{version}");
            let d = written(&s, &dep);
            let want = if paused { ds::PAUSED } else { ds::SUCCESSFUL };
            assert_eq!(d.status, want, "{version} paused={paused}");
        }
    }
}

/// `Deployment.Unblock` refuses a terminal deployment with
/// `structs.ErrDeploymentTerminalNoUnblock`, `can't unblock terminal
/// deployment` (v1.3.0 nomad/deployment_endpoint.go:291-293,
/// nomad/structs/errors.go:39; v2.0.5 :345-347, errors.go:46): the
/// snapshot's deployment failed by the operator, then unblocked by its ID
/// and by its job's (the job's latest, terminal), is refused, and so is a
/// successful one. Its `missing deployment ID` and `deployment not found`
/// (v1.3.0 :265-267, :280-282; v2.0.5 :316-318, :331-333) come after the
/// CLI's own lookup of the deployment, which fails first: a deployment
/// nothing names is an error listing the deployments, as for every
/// deployment event.
#[test]
fn deployment_endpoint_go_v1_3_0_v2_0_5_unblock_refuses_a_terminal_deployment() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, job, dep, _placed) = deploying(3, one_at_a_time(), |_| {});
        let s = Tell::on(&c)
            .event(format!("deployment-fail:{dep}@1m"))
            .event(format!("deployment-unblock:{dep}@2m"))
            .event(format!("deployment-unblock:{}@3m", job.id))
            .until("10m")
            .healthy_after(5 * MINUTE)
            .at(version);
        let terminal = refused(&["can't unblock terminal deployment"]);
        for e in &s.what_if[1..] {
            assert_eq!(e.ignored, terminal, "{version}: {}", e.text);
            assert_eq!(e.deployment_id.as_deref(), Some(dep.as_str()));
            assert!(e.evaluations.is_empty(), "{version}");
        }
        assert_eq!(s.deployment_watcher.len(), 1, "{version}: the failure only");

        let (mut c, _job, dep, _placed) = deploying(3, one_at_a_time(), |_| {});
        c.deployment_mut(&dep).status = ds::SUCCESSFUL.into();
        let s = Tell::on(&c)
            .event(format!("deployment-unblock:{dep}@1m"))
            .until("5m")
            .at(version);
        assert_eq!(s.what_if[0].ignored, terminal, "{version}");
    }
    let (c, _job, dep, _placed) = deploying(2, one_at_a_time(), |_| {});
    let e = Tell::on(&c)
        .event("deployment-unblock:nope@1m")
        .until("10m")
        .error_at("2.0.5");
    assert_eq!(
        e.to_string(),
        format!(
            "--what-if deployment-unblock:nope@1m: no deployment has the ID or ID prefix \
             \"nope\", nor does a job of that ID have one, at 2022-04-01T12:01:00Z; the \
             deployments then: {dep} (default/mock-service v1, successful)"
        )
    );
}

/// From the command line: tests/what-if/rolling.json's running deployment
/// unblocked by its job's ID at 20s. The JSON names the deployment and
/// says why nothing changed (`enterprise_only`), with no evaluation and no
/// watcher write; the table says it was accepted and wrote nothing, the
/// picture marks it as a request Nomad took; and the timeline is the one
/// told without it.
#[test]
fn an_unblock_from_the_command_line() {
    let story = CliStory::rolling("1.3.0").what_if("deployment-unblock:web@20s");
    let doc = story.json();
    let event = &doc["what_if"][0];
    assert_eq!(event["event"], "deployment-unblock");
    assert_eq!(
        event["deployment_id"],
        "078de2a8-4808-5cfe-ac56-37e126ebbd3e"
    );
    assert_eq!(
        event["ignored"],
        serde_json::json!({"reason": "enterprise_only"})
    );
    assert_eq!(event["evaluations"], serde_json::json!([]));
    assert_eq!(doc["deployment_watcher"], serde_json::json!([]), "{doc}");
    let without = CliStory::rolling("1.3.0").json();
    assert_eq!(doc["timeline"], without["timeline"]);
    assert_eq!(doc["deployments"], without["deployments"]);

    let table = story.run("table");
    let row = event_row(&table, "deployment-unblock");
    assert!(
        row.contains("078de2a8") && row.contains("accepted; nothing written"),
        "{table}"
    );
    let html = story.run("html");
    let mark = html
        .lines()
        .find(|l| l.contains("data-event=\"deployment-unblock\""))
        .expect("the request's mark");
    assert!(
        mark.starts_with("<line class=\"operator\"")
            && mark.contains(
                "deployment-unblock:web@20s at 2022-04-01T03:12:20Z: accepted; nothing \
                 written: unblocking is a multiregion step, Nomad Enterprise only"
            ),
        "{mark}"
    );
}
