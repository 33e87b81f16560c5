//! A deployment over a story with `--until`: the state store counts each
//! allocation the plan applier places in its deployment group
//! (`PlacedAllocs`) and each health verdict its client reports
//! (`HealthyAllocs`, `UnhealthyAllocs`; `updateDeploymentWithAlloc`,
//! v1.3.0 nomad/state/state_store.go:5115-5205, v2.0.5 :5945-6040); the
//! deployment watcher evaluates the job a second after a verdict
//! (`createBatchedUpdate`, nomad/deploymentwatcher/deployment_watcher.go
//! :791-829 at 1.3.0), auto-promotes healthy canaries and fails the
//! deployment on an unhealthy allocation or at its progress deadline,
//! rolling the job back where the group auto-reverts; the reconciler marks
//! the deployment successful once it is complete.

use std::sync::Arc;

use plan_inspect::model::{
    AllocDeploymentStatus, DeploymentState, Evaluation, Job, ReschedulePolicy, UpdateStrategy,
    deployment_status as ds,
};
use plan_inspect::servers::story::{DeploymentFacts, DeploymentGroupFacts, MarkKind};
use plan_inspect::servers::{Story, WatcherAction};
use plan_inspect::time::SECOND;

use crate::common::*;

/// Version 0 of a job of `count` with `update`, stable, running on its
/// own nodes; version 1 changes its tasks (a destructive update) and is
/// registered: the snapshot holds its pending `job-register` evaluation.
pub(crate) fn registered(count: u64, update: UpdateStrategy) -> (Cluster, Arc<Job>, Vec<String>) {
    registered_with(count, update, |_| {})
}

/// [`registered`], both versions changed by `tweak`.
pub(crate) fn registered_with(
    count: u64,
    update: UpdateStrategy,
    tweak: impl Fn(&mut Job),
) -> (Cluster, Arc<Job>, Vec<String>) {
    let mut c = Cluster::new();
    let mut old = job_with(count as i64, Some(update));
    tweak(&mut old);
    old.stable = true;
    let old = Arc::new(old);
    let mut new = destructive_update(&old);
    new.version = 1;
    new.stable = false;
    let job = c.job(new);
    c.snapshot.job_versions.push(old.clone());
    let ids = c.allocs(&old, count);
    for n in &mut c.snapshot.nodes {
        n.scheduling_eligibility = "eligible".into();
    }
    c.snapshot.evals.push(Evaluation {
        id: "e-register".into(),
        namespace: job.namespace.clone(),
        job_id: job.id.clone(),
        priority: job.priority,
        eval_type: "service".into(),
        triggered_by: "job-register".into(),
        status: "pending".into(),
        ..Evaluation::default()
    });
    (c, job, ids)
}

pub(crate) fn triggers(s: &Story) -> Vec<(i64, &str)> {
    let start = now();
    s.timeline
        .iter()
        .map(|e| (e.at.sub(start) / SECOND, e.evaluation.triggered_by.as_str()))
        .collect()
}

/// Version 1 of [`registered_with`] being deployed: its running
/// deployment (progress deadline and auto-revert as `update` says) holds
/// one allocation of version 1 placed on a node of its own, without a
/// health verdict yet, in place of the first allocation of version 0,
/// which is stopped. No evaluation is pending.
pub(crate) fn deploying(
    count: u64,
    update: UpdateStrategy,
    tweak: impl Fn(&mut Job),
) -> (Cluster, Arc<Job>, String, String) {
    let (mut c, job, old) = registered_with(count, update.clone(), tweak);
    c.snapshot.evals.clear();
    let dep = c.new_deployment(&job);
    c.set_deployment_state(
        &dep,
        "web",
        DeploymentState {
            auto_revert: update.auto_revert,
            auto_promote: update.auto_promote,
            progress_deadline: update.progress_deadline,
            desired_total: count as i64,
            placed_allocs: 1,
            ..DeploymentState::default()
        },
    );
    let placed = c.alloc(&job, 0);
    c.alloc_mut(&placed).deployment_id = dep.as_str().into();
    c.alloc_mut(&placed).deployment_status = Some(AllocDeploymentStatus::default());
    c.alloc_mut(&old[0]).desired_status = "stop".into();
    c.alloc_mut(&old[0]).client_status = "complete".into();
    for n in &mut c.snapshot.nodes {
        n.scheduling_eligibility = "eligible".into();
    }
    (c, job, dep, placed)
}

/// The allocations of version 0 [`deploying`] leaves running, outside the
/// deployment, in the snapshot's order.
pub(crate) fn old_running(c: &Cluster) -> Vec<String> {
    c.snapshot
        .allocs
        .iter()
        .filter(|a| a.deployment_id.is_empty() && a.desired_status.as_str() == "run")
        .map(|a| a.id.to_string())
        .collect()
}

/// Deployment `id` as the story left it.
pub(crate) fn written<'s>(s: &'s Story, id: &str) -> &'s DeploymentFacts {
    s.deployments
        .iter()
        .find(|d| d.id == id)
        .expect("the story wrote the deployment")
}

/// The group `web` of deployment `id` as the story left it.
pub(crate) fn web<'s>(s: &'s Story, id: &str) -> &'s DeploymentGroupFacts {
    &written(s, id).groups["web"]
}

/// The deployment `s` created for the job (the first plan's).
pub(crate) fn created(s: &Story) -> String {
    s.timeline[0]
        .job
        .plan
        .deployment
        .as_ref()
        .expect("the first plan creates the deployment")
        .id
        .clone()
}

/// The evaluation that marks `dep` with `status`, by its place in the
/// timeline.
fn marks(s: &Story, dep: &str, status: &str) -> Vec<usize> {
    s.timeline
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e.job
                .plan
                .deployment_updates
                .iter()
                .any(|u| u.deployment_id == dep && u.status == status)
        })
        .map(|(i, _)| i)
        .collect()
}

/// A rolling update of three allocations one at a time: each allocation
/// placed is healthy at once, the watcher evaluates the job a second later
/// and the next one is placed, and the evaluation after the third finds
/// the deployment complete and marks it successful. Nomad's state then
/// holds 3 placed and 3 healthy allocations in the group, the progress
/// deadline pushed on by the last verdict, and version 1 stable.
#[test]
fn a_rolling_update_completes_in_the_story() {
    for version in ["1.3.0", "1.10.5", "2.0.5"] {
        let update = UpdateStrategy {
            max_parallel: 1,
            progress_deadline: 600 * SECOND,
            ..UpdateStrategy::default()
        };
        let (c, _job, _old) = registered(3, update);
        let s = Tell::on(&c).until("10m").at(version);
        assert_eq!(
            triggers(&s),
            [
                (0, "job-register"),
                (1, "deployment-watcher"),
                (2, "deployment-watcher"),
                (3, "deployment-watcher"),
            ],
            "{version}"
        );
        let replaced: Vec<usize> = s
            .timeline
            .iter()
            .map(|e| destructive_indexes(&e.job).len())
            .collect();
        assert_eq!(replaced, [1, 1, 1, 0], "{version}");
        let dep = created(&s);
        assert_eq!(marks(&s, &dep, ds::SUCCESSFUL), [3], "{version}");
        assert_eq!(
            s.timeline[3].job.plan.deployment_updates[0].status_description,
            ds::DESC_SUCCESSFUL
        );
        assert!(s.deployment_watcher.is_empty(), "{version}");
        assert!(s.pending.is_empty(), "{version}: {:?}", s.pending);
        let g = web(&s, &dep);
        assert_eq!(
            (g.placed_allocs, g.healthy_allocs, g.unhealthy_allocs),
            (3, 3, 0),
            "{version}"
        );
        assert_eq!(g.require_progress_by, Some(now().add(602 * SECOND)));
        assert_eq!(s.deployments.len(), 1, "{version}");
        assert_eq!(s.deployments[0].status, ds::SUCCESSFUL);
    }
}

/// The same update with allocations healthy a minute after they start
/// (`--assume-healthy-after 1m`): each batch waits for its verdict, so
/// the watcher's evaluations come a minute and a second apart.
#[test]
fn a_rolling_update_waits_for_health() {
    for version in ["1.3.0", "2.0.5"] {
        let update = UpdateStrategy {
            max_parallel: 2,
            ..UpdateStrategy::default()
        };
        let (c, _job, _old) = registered(3, update);
        let s = Tell::on(&c)
            .until("1h")
            .healthy_after(60 * SECOND)
            .at(version);
        assert_eq!(
            triggers(&s),
            [
                (0, "job-register"),
                (61, "deployment-watcher"),
                (122, "deployment-watcher"),
            ],
            "{version}"
        );
        let dep = created(&s);
        assert_eq!(marks(&s, &dep, ds::SUCCESSFUL), [2], "{version}");
        let g = web(&s, &dep);
        assert_eq!((g.placed_allocs, g.healthy_allocs), (3, 3), "{version}");
    }
}

/// Ten minutes are not enough for a verdict due after 15: the deployment
/// is still running, and its watcher has made no evaluation.
#[test]
fn a_rolling_update_is_not_complete_before_its_health() {
    let update = UpdateStrategy {
        max_parallel: 1,
        ..UpdateStrategy::default()
    };
    let (c, _job, _old) = registered(2, update);
    let s = Tell::on(&c)
        .until("10m")
        .healthy_after(15 * 60 * SECOND)
        .at("2.0.5");
    assert_eq!(triggers(&s), [(0, "job-register")]);
    let dep = created(&s);
    assert!(marks(&s, &dep, ds::SUCCESSFUL).is_empty());
    let g = web(&s, &dep);
    assert_eq!((g.placed_allocs, g.healthy_allocs), (1, 0));
    assert_eq!(s.deployments[0].status, ds::RUNNING);
}

/// Two canaries with `auto_promote`: once both are healthy the watcher
/// promotes the deployment (one write with its evaluation), the promoted
/// deployment replaces the rest of the old allocations, and it completes.
#[test]
fn healthy_canaries_are_auto_promoted() {
    for version in ["1.3.0", "1.10.5", "2.0.5"] {
        let update = UpdateStrategy {
            canary: 2,
            max_parallel: 2,
            auto_promote: true,
            ..UpdateStrategy::default()
        };
        let (c, _job, _old) = registered(3, update);
        let s = Tell::on(&c).until("10m").at(version);
        let first = &s.timeline[0].job.plan;
        assert_eq!(first.place.iter().filter(|p| p.canary).count(), 2);
        let dep = created(&s);
        let promoted: Vec<&plan_inspect::servers::WatcherWrite> = s
            .deployment_watcher
            .iter()
            .filter(|w| w.action == WatcherAction::Promoted)
            .collect();
        assert_eq!(promoted.len(), 1, "{version}: {:?}", s.deployment_watcher);
        assert_eq!(promoted[0].deployment_id, dep);
        assert_eq!(promoted[0].at, now(), "{version}");
        assert_eq!(promoted[0].status_description, ds::DESC_RUNNING);
        let promotion_eval = s
            .timeline
            .iter()
            .position(|e| e.evaluation.id == promoted[0].eval_id)
            .expect("the promotion's evaluation runs");
        assert_eq!(
            s.timeline[promotion_eval].evaluation.triggered_by,
            "deployment-watcher"
        );
        let done = marks(&s, &dep, ds::SUCCESSFUL);
        assert_eq!(done.len(), 1, "{version}: {:?}", triggers(&s));
        assert!(done[0] > promotion_eval, "{version}");
        // Every old allocation was replaced once the canaries were promoted.
        let stopped: usize = s.timeline[promotion_eval..]
            .iter()
            .map(|e| e.job.plan.stop.len() + destructive_indexes(&e.job).len())
            .sum();
        assert!(stopped >= 1, "{version}: {:?}", triggers(&s));
        let g = web(&s, &dep);
        assert!(g.promoted, "{version}");
        assert_eq!(g.placed_canaries.len(), 2, "{version}");
        assert_eq!(
            (g.placed_allocs, g.healthy_allocs, g.unhealthy_allocs),
            (3, 3, 0),
            "{version}"
        );
    }
}

/// Without `auto_promote` healthy canaries wait: the watcher evaluates the
/// job, which places nothing more, and the deployment stays running.
#[test]
fn canaries_without_auto_promote_wait_for_promotion() {
    let update = UpdateStrategy {
        canary: 1,
        max_parallel: 1,
        ..UpdateStrategy::default()
    };
    let (c, _job, _old) = registered(2, update);
    let s = Tell::on(&c).until("30m").at("2.0.5");
    assert_eq!(
        triggers(&s),
        [(0, "job-register"), (1, "deployment-watcher")]
    );
    assert!(s.deployment_watcher.is_empty());
    assert!(s.timeline[1].job.plan.is_noop());
    let g = web(&s, &created(&s));
    assert!(!g.promoted);
    assert_eq!((g.placed_allocs, g.healthy_allocs), (1, 1));
    assert_eq!(g.placed_canaries.len(), 1);
}

/// A running deployment of version 1 in the snapshot: one allocation of
/// the new version placed without a verdict yet, the others of the stable
/// version 0, the group without a progress deadline and auto-reverting.
/// Its client reports it failed a minute in, before its verdict (due at
/// 5m): the health watcher reports it unhealthy, and the deployment
/// watcher fails the deployment on it and registers version 0 again as
/// version 2, whose evaluation replaces the failed version.
#[test]
fn an_unhealthy_allocation_fails_the_deployment_and_reverts() {
    for version in ["1.3.0", "2.0.5"] {
        let update = UpdateStrategy {
            max_parallel: 1,
            auto_revert: true,
            ..UpdateStrategy::default()
        };
        let (c, _job, dep, placed) = deploying(3, update, |_| {});
        let s = Tell::on(&c)
            .event(format!("alloc-fail:{placed}@1m"))
            .until("30m")
            .healthy_after(5 * 60 * SECOND)
            .at(version);
        let failed = &s.deployment_watcher;
        assert_eq!(failed.len(), 1, "{version}: {failed:?}");
        assert_eq!(failed[0].action, WatcherAction::FailedUnhealthy);
        assert_eq!(failed[0].deployment_id, dep);
        assert_eq!(failed[0].at, now().add(60 * SECOND));
        assert_eq!(
            failed[0].status_description,
            "Failed due to unhealthy allocations - rolling back to job version 0"
        );
        let reverted = failed[0].reverted.as_ref().expect("reverted");
        assert_eq!((reverted.stable_version, reverted.job_version), (0, 2));
        let revert_eval = s
            .timeline
            .iter()
            .find(|e| e.evaluation.id == failed[0].eval_id)
            .expect("the failure's evaluation runs");
        assert_eq!(revert_eval.evaluation.triggered_by, "deployment-watcher");
        assert_eq!(revert_eval.job.version, 2, "{version}");
        let new_dep = revert_eval.job.plan.deployment.as_ref().expect("new");
        assert_eq!(new_dep.job_version, 2, "{version}");
        let g = web(&s, &dep);
        assert_eq!(
            (g.placed_allocs, g.healthy_allocs, g.unhealthy_allocs),
            (1, 0, 1),
            "{version}"
        );
        let d = written(&s, &dep);
        assert_eq!(d.status, ds::FAILED);
    }
}

/// The same failure without `auto_revert`: the deployment fails, and its
/// evaluation finds a failed deployment and places nothing more.
#[test]
fn an_unhealthy_allocation_fails_the_deployment() {
    let update = UpdateStrategy {
        max_parallel: 1,
        ..UpdateStrategy::default()
    };
    let (c, _job, _dep, placed) = deploying(2, update, |_| {});
    let s = Tell::on(&c)
        .event(format!("alloc-fail:{placed}@1m"))
        .until("30m")
        .healthy_after(5 * 60 * SECOND)
        .at("2.0.5");
    let failed = &s.deployment_watcher;
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(
        failed[0].status_description,
        "Failed due to unhealthy allocations"
    );
    assert_eq!(failed[0].reverted, None);
    let after = s
        .timeline
        .iter()
        .find(|e| e.evaluation.id == failed[0].eval_id)
        .expect("the failure's evaluation runs");
    assert!(destructive_indexes(&after.job).is_empty());
    assert!(after.job.plan.deployment.is_none());
}

/// The first placement of the story's deployment, named as Nomad names
/// it, fails a minute in, before its verdict (due at 5m): the same
/// unhealthy verdict as for a snapshot allocation fails the deployment the
/// story created.
#[test]
fn an_unhealthy_placement_of_the_story_fails_its_deployment() {
    for version in ["1.3.0", "2.0.5"] {
        let update = UpdateStrategy {
            max_parallel: 1,
            ..UpdateStrategy::default()
        };
        let (c, _job, _old) = registered(2, update);
        let after = 5 * 60 * SECOND;
        let first = Tell::on(&c).until("30s").healthy_after(after).at(version);
        let placed = first
            .marks
            .iter()
            .find(|m| m.kind == MarkKind::Placed)
            .expect("the registration places one allocation");
        let s = Tell::on(&c)
            .event(format!("alloc-fail:{}@1m", placed.name))
            .until("30m")
            .healthy_after(after)
            .at(version);
        assert_eq!(
            s.what_if[0].alloc_id.as_deref(),
            Some(placed.alloc_id.as_str())
        );
        let dep = created(&s);
        let failed = &s.deployment_watcher;
        assert_eq!(failed.len(), 1, "{version}: {failed:?}");
        assert_eq!(failed[0].action, WatcherAction::FailedUnhealthy);
        assert_eq!(failed[0].deployment_id, dep);
        assert_eq!(failed[0].at, now().add(60 * SECOND), "{version}");
        let g = web(&s, &dep);
        assert_eq!(
            (g.placed_allocs, g.healthy_allocs, g.unhealthy_allocs),
            (1, 0, 1),
            "{version}"
        );
    }
}

/// A group with a progress deadline whose allocation never gets a verdict
/// (its update block's health check is `manual`, so no client reports
/// one): the watcher fails the deployment at the deadline the first
/// placement started.
#[test]
fn the_progress_deadline_fails_a_stalled_deployment() {
    for version in ["1.3.0", "2.0.5"] {
        let update = UpdateStrategy {
            max_parallel: 1,
            progress_deadline: 600 * SECOND,
            health_check: "manual".to_string(),
            ..UpdateStrategy::default()
        };
        let (c, _job, _old) = registered(2, update);
        let s = Tell::on(&c).until("1h").at(version);
        let failed = &s.deployment_watcher;
        assert_eq!(failed.len(), 1, "{version}: {failed:?}");
        assert_eq!(failed[0].action, WatcherAction::FailedDeadline);
        assert_eq!(failed[0].at, now().add(600 * SECOND), "{version}");
        assert_eq!(
            failed[0].status_description,
            "Failed due to progress deadline"
        );
        assert_eq!(failed[0].deployment_id, created(&s));
    }
}

/// #17341 (1.6.0): a group with a progress deadline and no reschedule
/// attempt; its allocation fails before its verdict. At 1.3.0 the watcher
/// only lets it be replaced (`DesiredTransition.Reschedule`, with a
/// batched evaluation a second later) and the deployment runs on; from
/// 1.6.0 it fails the deployment at once (`shouldFailEarly`).
#[test]
fn deployment_watcher_go_v1_6_0_an_unhealthy_allocation_out_of_attempts_fails_early() {
    for (version, fails) in [
        ("1.3.0", false),
        ("1.5.17", false),
        ("1.6.0", true),
        ("2.0.5", true),
    ] {
        let update = UpdateStrategy {
            max_parallel: 1,
            progress_deadline: 600 * SECOND,
            ..UpdateStrategy::default()
        };
        let (c, _job, dep, placed) = deploying(2, update, |j| {
            j.task_groups[0].reschedule_policy = Some(ReschedulePolicy::default());
        });
        let s = Tell::on(&c)
            .event(format!("alloc-fail:{placed}@1m"))
            .until("5m")
            .healthy_after(5 * 60 * SECOND)
            .at(version);
        let g = web(&s, &dep);
        assert_eq!(g.unhealthy_allocs, 1, "{version}");
        let d = written(&s, &dep);
        if fails {
            assert_eq!(d.status, ds::FAILED, "{version}");
            assert_eq!(s.deployment_watcher.len(), 1, "{version}");
            assert_eq!(s.deployment_watcher[0].at, now().add(60 * SECOND));
        } else {
            assert_eq!(d.status, ds::RUNNING, "{version}");
            assert!(s.deployment_watcher.is_empty(), "{version}");
            let watcher: Vec<i64> = s
                .timeline
                .iter()
                .filter(|e| e.evaluation.triggered_by == "deployment-watcher")
                .map(|e| e.at.sub(now()) / SECOND)
                .collect();
            assert_eq!(watcher, [61], "{version}");
        }
    }
}

/// #14001 (1.3.3, 1.4.0): one canary wanted, two placed, the first failed
/// unhealthy (let be replaced: its group has a progress deadline) and the
/// second healthy at the evaluation time. From 1.3.3 the one healthy
/// canary is enough to auto-promote; at 1.3.0 two placed canaries are not
/// the one wanted, and the deployment waits (the replacement of the
/// failed canary makes a third).
#[test]
fn deployment_watcher_go_v1_3_3_auto_promote_counts_healthy_canaries() {
    for (version, promotes) in [
        ("1.3.0", false),
        ("1.3.3", true),
        ("1.4.0", true),
        ("2.0.5", true),
    ] {
        let update = UpdateStrategy {
            canary: 1,
            max_parallel: 1,
            auto_promote: true,
            progress_deadline: 600 * SECOND,
            ..UpdateStrategy::default()
        };
        let (mut c, job, dep, placed) = deploying(3, update, |_| {});
        let failed = c.alloc(&job, 1);
        for (id, healthy) in [(&placed, None), (&failed, Some(false))] {
            c.alloc_mut(id).deployment_id = dep.as_str().into();
            c.alloc_mut(id).deployment_status = Some(AllocDeploymentStatus {
                healthy,
                canary: true,
            });
            c.add_placed_canary(&dep, "web", id);
        }
        c.alloc_mut(&failed).client_status = "failed".into();
        c.alloc_mut(&failed).desired_transition.reschedule = Some(true);
        {
            let state = c.deployment_mut(&dep).task_groups.get_mut("web").unwrap();
            state.desired_canaries = 1;
            state.placed_allocs = 2;
            state.unhealthy_allocs = 1;
        }
        for n in &mut c.snapshot.nodes {
            n.scheduling_eligibility = "eligible".into();
        }
        let s = Tell::on(&c).until("10s").at(version);
        let promoted: Vec<&WatcherAction> =
            s.deployment_watcher.iter().map(|w| &w.action).collect();
        if promotes {
            assert_eq!(promoted, [&WatcherAction::Promoted], "{version}");
            assert!(web(&s, &dep).promoted, "{version}");
        } else {
            assert!(promoted.is_empty(), "{version}: {promoted:?}");
            // Never exactly one placed canary: the replacement of the failed
            // one is a third.
            let g = web(&s, &dep);
            assert!(!g.promoted, "{version}");
            assert!(g.placed_canaries.len() >= 2, "{version}");
        }
    }
}

/// #27804 (2.0.1): the snapshot's paused deployment, its progress
/// deadline five minutes after the evaluation time and no allocation
/// healthy. Up to 2.0.0 the watcher fails it then; from 2.0.1 it waits.
#[test]
fn deployment_watcher_go_v2_0_1_a_paused_deployment_keeps_its_deadline() {
    for (version, fails) in [
        ("1.3.0", true),
        ("2.0.0", true),
        ("2.0.1", false),
        ("2.0.5", false),
    ] {
        let update = UpdateStrategy {
            max_parallel: 1,
            progress_deadline: 600 * SECOND,
            health_check: "manual".to_string(),
            ..UpdateStrategy::default()
        };
        let (mut c, _job, dep, _placed) = deploying(2, update, |_| {});
        c.deployment_mut(&dep).status = ds::PAUSED.into();
        c.deployment_mut(&dep)
            .task_groups
            .get_mut("web")
            .unwrap()
            .require_progress_by = now().add(300 * SECOND);
        let s = Tell::on(&c).until("1h").at(version);
        if fails {
            assert_eq!(s.deployment_watcher.len(), 1, "{version}");
            let w = &s.deployment_watcher[0];
            assert_eq!(w.action, WatcherAction::FailedDeadline);
            assert_eq!(w.at, now().add(300 * SECOND), "{version}");
        } else {
            assert!(s.deployment_watcher.is_empty(), "{version}");
        }
    }
}

/// From the command line: tests/what-if/rolling.json holds web's version 2
/// (a task change, `max_parallel = 1`, auto-revert) registered over three
/// allocations of the stable version 1, with its pending `job-register`
/// evaluation. Healthy a minute after they start, the allocations are
/// replaced one a minute (and a second), and the deployment completes.
#[test]
fn a_rolling_update_from_the_command_line() {
    for version in ["1.3.0", "2.0.5"] {
        let (code, stdout, stderr) = crate::what_if_cli::run(&[
            "tests/what-if/rolling.json",
            "--nomad-version",
            version,
            "--format",
            "json",
            "--assume-healthy-after",
            "1m",
            "--until",
            "1h",
        ]);
        assert_eq!(code, 0, "{stderr}");
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let at: Vec<&str> = doc["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["at"].as_str().unwrap())
            .collect();
        assert_eq!(
            at,
            [
                "2022-04-01T03:12:00Z",
                "2022-04-01T03:13:01Z",
                "2022-04-01T03:14:02Z",
                "2022-04-01T03:15:03Z",
            ],
            "{version}"
        );
        let deployments = doc["deployments"].as_array().unwrap();
        assert_eq!(deployments.len(), 1, "{version}");
        let d = &deployments[0];
        assert_eq!(d["status"], "successful", "{version}");
        assert_eq!(d["job_version"], 2);
        let web = &d["groups"]["web"];
        assert_eq!(
            (
                &web["placed_allocs"],
                &web["healthy_allocs"],
                &web["unhealthy_allocs"]
            ),
            (
                &serde_json::json!(3),
                &serde_json::json!(3),
                &serde_json::json!(0)
            ),
            "{version}"
        );
        // The last verdict, at 03:15:02, pushed the deadline 10 minutes on.
        assert_eq!(web["require_progress_by"], "2022-04-01T03:25:02Z");
    }
}

/// The same story as tables, pinned.
#[test]
fn a_rolling_update_table() {
    let (code, stdout, stderr) = crate::what_if_cli::run(&[
        "tests/what-if/rolling.json",
        "--nomad-version",
        "2.0.5",
        "--assume-healthy-after",
        "1m",
        "--until",
        "1h",
    ]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!(stdout);
}

/// tests/what-if/stalled.json is rolling.json with `health_check =
/// "manual"`: no client reports a verdict, so at the progress deadline
/// (10 minutes after the first placement) the watcher fails the deployment
/// and, the group auto-reverting, registers the stable version 1 again as
/// version 3. Nomad's copy keeps its `Stable` flag, so when version 3's
/// deployment stalls in turn its latest stable version is itself, and the
/// watcher does not roll back again.
#[test]
fn a_stalled_deployment_fails_at_its_deadline_and_reverts_once() {
    for version in ["1.3.0", "2.0.5"] {
        let (code, stdout, stderr) = crate::what_if_cli::run(&[
            "tests/what-if/stalled.json",
            "--nomad-version",
            version,
            "--format",
            "json",
            "--until",
            "1h",
        ]);
        assert_eq!(code, 0, "{stderr}");
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let writes = doc["deployment_watcher"].as_array().unwrap();
        let seen: Vec<(&str, &str, &str)> = writes
            .iter()
            .map(|w| {
                (
                    w["at"].as_str().unwrap(),
                    w["action"].as_str().unwrap(),
                    w["status_description"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "2022-04-01T03:22:00Z",
                    "failed_deadline",
                    "Failed due to progress deadline - rolling back to job version 1"
                ),
                (
                    "2022-04-01T03:32:00Z",
                    "failed_deadline",
                    "Failed due to progress deadline - not rolling back to stable job \
                     version 3 as current job has same specification"
                ),
            ],
            "{version}"
        );
        assert_eq!(
            writes[0]["reverted"],
            serde_json::json!({"stable_version": 1, "job_version": 3})
        );
        let versions: Vec<(u64, i64, i64)> = doc["deployments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let web = &d["groups"]["web"];
                (
                    d["job_version"].as_u64().unwrap(),
                    web["placed_allocs"].as_i64().unwrap(),
                    web["healthy_allocs"].as_i64().unwrap(),
                )
            })
            .collect();
        // Version 3's deployment counts the allocations updated in place
        // into it as placed.
        let mut sorted = versions.clone();
        sorted.sort();
        assert_eq!(sorted, [(2, 1, 0), (3, 3, 0)], "{version}");
    }
}
