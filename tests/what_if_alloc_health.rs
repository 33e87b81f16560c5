//! Several allocations in one health request: Nomad's
//! `Deployment.SetAllocHealth` takes `HealthyAllocationIDs` and
//! `UnhealthyAllocationIDs` together (the HTTP API's
//! `/v1/deployment/allocation-health`), and the deployment watcher writes
//! them with one evaluation (`setAllocHealth`, v1.3.0
//! nomad/deploymentwatcher/deployment_watcher.go:156-240, v2.0.5
//! :158-243). The state store (`UpdateDeploymentAllocHealth`, v1.3.0
//! nomad/state/state_store.go:4462-4555, v2.0.5 :5137-5230) sets every
//! healthy one, then every unhealthy one, in one transaction that an
//! allocation outside the deployment drops whole.

use plan_inspect::model::{UpdateStrategy, deployment_status as ds};
use plan_inspect::servers::{MarkKind, Story, WatcherAction};
use plan_inspect::time::SECOND;

use crate::common::*;
use crate::what_if_deployment::{
    created, deploying, old_running, registered, registered_with, triggers, web, written,
};

const MINUTE: i64 = 60 * SECOND;

/// A rolling update two allocations at a time whose group waits for the
/// operator's verdicts (`health_check = "manual"`).
fn manual_pairs(progress_deadline: i64, auto_revert: bool) -> UpdateStrategy {
    UpdateStrategy {
        max_parallel: 2,
        health_check: "manual".to_string(),
        progress_deadline,
        auto_revert,
        ..UpdateStrategy::default()
    }
}

/// The registration's plan replaces `web[0]` and `web[1]` first.
const PAIR: &str = "mock-service.web[0],mock-service.web[1]";

/// The evaluations of the timeline an event created.
fn ran_by(s: &Story, event: usize) -> Vec<usize> {
    let ids = &s.what_if[event].evaluations;
    (0..s.timeline.len())
        .filter(|&i| ids.contains(&s.timeline[i].evaluation.id))
        .collect()
}

/// `setAllocHealth` with two healthy allocations in one request: both
/// counted, the progress deadline pushed to the request's time plus the
/// group's deadline, one write with one `deployment-watcher` evaluation,
/// which places the last allocation. The same two as two requests at the
/// same instant are two writes, with an evaluation each.
#[test]
fn deployment_watcher_go_set_alloc_health_several_healthy_in_one_write() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, _job, _old) = registered(3, manual_pairs(10 * MINUTE, false));
        let s = Tell::on(&c)
            .event(format!("alloc-healthy:{PAIR}@2m"))
            .until("10m")
            .at(version);
        let dep = created(&s);
        let e = &s.what_if[0];
        assert_eq!(e.ignored, None, "{version}");
        assert_eq!(e.alloc_id, None, "{version}: several allocations");
        assert_eq!(e.healthy_alloc_ids.len(), 2, "{version}");
        assert!(e.unhealthy_alloc_ids.is_empty());
        assert_eq!(e.evaluations.len(), 1, "{version}: one write");
        let w = &s.deployment_watcher;
        assert_eq!(w.len(), 1, "{version}: {w:?}");
        assert_eq!(
            (w[0].action, w[0].eval_id.as_str()),
            (WatcherAction::HealthyByOperator, e.evaluations[0].as_str())
        );
        assert_eq!(
            triggers(&s),
            [(0, "job-register"), (120, "deployment-watcher")],
            "{version}"
        );
        let placed = &s.timeline[ran_by(&s, 0)[0]].job;
        assert_eq!(destructive_indexes(placed).len(), 1, "{version}");
        let g = web(&s, &dep);
        assert_eq!(
            (g.placed_allocs, g.healthy_allocs, g.unhealthy_allocs),
            (3, 2, 0),
            "{version}"
        );
        assert_eq!(
            g.require_progress_by,
            Some(now().add(12 * MINUTE)),
            "{version}"
        );

        let apart = Tell::on(&c)
            .event("alloc-healthy:mock-service.web[0]@2m")
            .event("alloc-healthy:mock-service.web[1]@2m")
            .until("10m")
            .at(version);
        assert_eq!(apart.deployment_watcher.len(), 2, "{version}");
        assert!(
            apart.what_if.iter().all(|e| e.evaluations.len() == 1),
            "{version}: a write, and an evaluation, per request"
        );
        assert_eq!(web(&apart, &created(&apart)).healthy_allocs, 2);
    }
}

/// `TestStateStore_UpsertDeploymentAllocHealth` (v1.3.0
/// state_store_test.go:7748, v2.0.5 :8427): one allocation healthy and
/// another unhealthy in one request. Both verdicts are counted and the
/// same write fails the deployment; its group auto-reverts, so version 0
/// is registered again, and the one evaluation deploys it.
#[test]
fn state_store_go_upsert_deployment_alloc_health_healthy_and_unhealthy() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, _job, _old) = registered(3, manual_pairs(10 * MINUTE, true));
        let s = Tell::on(&c)
            .event("alloc-health:healthy=mock-service.web[0]:unhealthy=mock-service.web[1]@2m")
            .until("10m")
            .at(version);
        let dep = created(&s);
        let e = &s.what_if[0];
        assert_eq!(e.ignored, None, "{version}");
        assert_eq!(
            (e.healthy_alloc_ids.len(), e.unhealthy_alloc_ids.len()),
            (1, 1)
        );
        assert_eq!(e.evaluations.len(), 1, "{version}");
        let w = &s.deployment_watcher;
        assert_eq!(w.len(), 1, "{version}: {w:?}");
        assert_eq!(w[0].action, WatcherAction::UnhealthyByOperator);
        assert_eq!(
            w[0].status_description,
            "Failed due to unhealthy allocations - rolling back to job version 0"
        );
        assert_eq!(w[0].reverted.as_ref().map(|r| r.job_version), Some(2));
        let after = &s.timeline[ran_by(&s, 0)[0]];
        assert_eq!(after.job.version, 2, "{version}: the revert deployed");
        let g = web(&s, &dep);
        assert_eq!((g.healthy_allocs, g.unhealthy_allocs), (1, 1), "{version}");
        let d = written(&s, &dep);
        assert_eq!(d.status, ds::FAILED, "{version}");
    }
}

/// `TestWatcher_SetAllocHealth_Unhealthy_NoRollback` (v1.3.0
/// deployments_watcher_test.go:353, v2.0.5 :305): the latest stable
/// version has the failing version's specification, so the failure
/// written with the unhealthy verdicts registers nothing
/// (`handleRollbackValidity`, v1.3.0 deployment_watcher.go:243, v2.0.5
/// :246). The allocation is named twice, and counted once.
#[test]
fn deployment_watcher_go_set_alloc_health_unhealthy_no_rollback() {
    for version in ["1.3.0", "2.0.5"] {
        let (mut c, job, dep, placed) = deploying(3, manual_pairs(0, true), |_| {});
        for j in &mut c.snapshot.job_versions {
            let mut same = (*job).clone();
            (same.version, same.stable) = (j.version, true);
            *j = std::sync::Arc::new(same);
        }
        let s = Tell::on(&c)
            .event(format!("alloc-unhealthy:{placed},{placed}@1m"))
            .until("10m")
            .at(version);
        let w = &s.deployment_watcher[0];
        assert_eq!(
            (w.action, w.status_description.as_str(), w.reverted.as_ref()),
            (
                WatcherAction::UnhealthyByOperator,
                "Failed due to unhealthy allocations - not rolling back to stable job version 0 \
                 as current job has same specification",
                None
            ),
            "{version}"
        );
        assert_eq!(web(&s, &dep).unhealthy_allocs, 1, "{version}");
        let after = &s.timeline[ran_by(&s, 0)[0]];
        assert_eq!(after.job.version, 1, "{version}: no version registered");
    }
}

/// An allocation named twice (`updateDeploymentWithAlloc`, v1.3.0
/// state_store.go:5146-5162, v2.0.5 :5976-5992, compares each write with
/// the one before it in the transaction): twice healthy counts once; in
/// both lists it is counted healthy, then moved to unhealthy, and fails
/// the deployment.
#[test]
fn state_store_go_update_deployment_alloc_health_an_allocation_named_twice() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, _job, dep, placed) = deploying(3, manual_pairs(0, false), |_| {});
        let twice = Tell::on(&c)
            .event(format!("alloc-healthy:{placed},{placed}@1m"))
            .until("10m")
            .at(version);
        assert_eq!(
            twice.what_if[0].healthy_alloc_ids,
            [placed.clone(), placed.clone()]
        );
        let g = web(&twice, &dep);
        assert_eq!((g.healthy_allocs, g.unhealthy_allocs), (1, 0), "{version}");

        let both = Tell::on(&c)
            .event(format!(
                "alloc-health:healthy={placed}:unhealthy={placed}@1m"
            ))
            .until("10m")
            .at(version);
        let g = web(&both, &dep);
        assert_eq!((g.healthy_allocs, g.unhealthy_allocs), (0, 1), "{version}");
        let d = written(&both, &dep);
        assert_eq!(
            (d.status.as_str(), d.status_description.as_str()),
            (ds::FAILED, "Failed due to unhealthy allocations"),
            "{version}"
        );
    }
}

/// `TestStateStore_UpsertDeploymentAllocHealth_BadAlloc_MismatchDeployment`
/// (v1.3.0 state_store_test.go:7712, v2.0.5 :8396) with more allocations:
/// the state store checks them in the request's order, healthy ones
/// first, and its error names the first outside the deployment
/// (`alloc "ID" is not part of deployment "ID"`, v1.3.0 :4490, v2.0.5
/// :5165). The transaction is dropped whole: the deployment's own
/// allocation, set before in the same request, keeps no verdict, and no
/// evaluation is written.
#[test]
fn state_store_go_update_deployment_alloc_health_refuses_the_whole_request() {
    for version in ["1.3.0", "2.0.5"] {
        let (c, _job, dep, placed) = deploying(3, manual_pairs(0, false), |_| {});
        let old = old_running(&c);
        let s = Tell::on(&c)
            .event(format!("alloc-healthy:{placed},{},{}@1m", old[1], old[0]))
            .event(format!(
                "alloc-health:healthy={placed}:unhealthy={},{placed}@2m",
                old[0]
            ))
            .until("10m")
            .at(version);
        let outside = |alloc: &str| {
            refused(&[&format!(
                "alloc \"{alloc}\" is not part of deployment \"{dep}\""
            )])
        };
        assert_eq!(s.what_if[0].ignored, outside(&old[1]), "{version}");
        assert_eq!(s.what_if[1].ignored, outside(&old[0]), "{version}");
        for e in &s.what_if {
            assert!(e.evaluations.is_empty(), "{version}");
            assert_eq!(e.deployment_id.as_deref(), Some(dep.as_str()));
        }
        assert!(s.deployment_watcher.is_empty(), "{version}");
        assert!(
            s.deployments.iter().all(|d| d.id != dep),
            "{version}: the deployment is not written"
        );
    }
}

/// The request names the first allocation's deployment: an allocation of
/// version 0 first, outside any deployment, names the job's latest, and
/// the state store refuses that first allocation.
#[test]
fn the_request_names_the_first_allocations_deployment() {
    let (c, _job, dep, placed) = deploying(3, manual_pairs(0, false), |_| {});
    let old = old_running(&c).remove(0);
    let s = Tell::on(&c)
        .event(format!("alloc-healthy:{old},{placed}@1m"))
        .until("10m")
        .at("2.0.5");
    assert_eq!(s.what_if[0].deployment_id.as_deref(), Some(dep.as_str()));
    assert_eq!(
        s.what_if[0].ignored,
        refused(&[&format!(
            "alloc \"{old}\" is not part of deployment \"{dep}\""
        )])
    );
}

/// From the command line: tests/what-if/rolling.json registers web's
/// version 2 one allocation at a time, each healthy a minute after it
/// starts. At 1m30s the operator sets the second new allocation healthy
/// before its client does and the first, already healthy, unhealthy, in
/// one request: the JSON lists both, the deployment fails with the
/// rollback to version 1, and the table names both allocations.
#[test]
fn a_mixed_request_from_the_command_line() {
    let story = CliStory::rolling("2.0.5")
        .what_if("alloc-health:healthy=web.web[1]:unhealthy=web.web[0]@90s");
    let doc = story.json();
    let event = &doc["what_if"][0];
    assert_eq!(event["event"], "alloc-health");
    assert!(event.get("alloc_id").is_none(), "{event}");
    let (healthy, unhealthy) = (
        event["healthy_alloc_ids"][0].as_str().unwrap(),
        event["unhealthy_alloc_ids"][0].as_str().unwrap(),
    );
    assert_eq!(event["evaluations"].as_array().unwrap().len(), 1);
    let w = &doc["deployment_watcher"][0];
    assert_eq!(w["action"], "unhealthy_by_operator", "{doc}");
    assert_eq!(
        w["status_description"],
        "Failed due to unhealthy allocations - rolling back to job version 1"
    );
    let d = &doc["deployments"][0];
    assert_eq!(d["status"], "failed");
    assert_eq!(
        (
            &d["groups"]["web"]["healthy_allocs"],
            &d["groups"]["web"]["unhealthy_allocs"]
        ),
        (&serde_json::json!(1), &serde_json::json!(1))
    );

    let table = story.run("table");
    let row = event_row(&table, "alloc-health");
    assert!(
        row.contains(&format!("{},{}", &healthy[..8], &unhealthy[..8]))
            && row.contains("1 set healthy, 1 set unhealthy"),
        "{row}"
    );
}

/// [`registered`] with manual verdicts two at a time, its job ID `job` and
/// its group `group`: names Nomad allows with a comma (only a space in
/// the job ID and a NUL are refused, v2.0.5 nomad/structs/structs.go:4743-4754,
/// :7114-7118).
fn named(job: &str, group: &str) -> Cluster {
    let (c, _job, _old) = registered_with(3, manual_pairs(10 * MINUTE, false), |j| {
        j.id = job.into();
        j.name = job.into();
        j.task_groups[0].name = group.into();
    });
    c
}

/// The ID of the allocation the story placed as `name`.
fn placed(s: &Story, name: &str) -> String {
    s.marks
        .iter()
        .find(|m| m.kind == MarkKind::Placed && m.name == name)
        .unwrap_or_else(|| panic!("{name} placed"))
        .alloc_id
        .clone()
}

/// The registration's plan replaces `[0]` and `[1]` first; set healthy at
/// 2m in one request, by names that hold a comma, the request takes both:
/// each piece that names nothing (`a`, several snapshot IDs' prefix;
/// `mock-service.web`) is joined with the next until the text is a live
/// allocation's name.
#[test]
fn names_with_a_comma_in_a_health_list() {
    for version in ["1.3.0", "2.0.5"] {
        for (job, group) in [("a,b", "g"), ("mock-service", "web,api")] {
            let c = named(job, group);
            let names = [0, 1].map(|i| format!("{job}.{group}[{i}]"));
            let s = Tell::on(&c)
                .event(format!("alloc-healthy:{},{}@2m", names[0], names[1]))
                .until("10m")
                .at(version);
            let e = &s.what_if[0];
            assert_eq!(e.ignored, None, "{version} {job} {group}");
            assert_eq!(
                e.healthy_alloc_ids,
                [placed(&s, &names[0]), placed(&s, &names[1])],
                "{version} {job} {group}"
            );
            assert_eq!(e.evaluations.len(), 1, "{version}: one write");
            let d = &s.deployments[0];
            assert_eq!(d.groups[group].healthy_allocs, 2, "{version} {job} {group}");
        }
    }
}

/// IDs, an ID prefix and names with a comma mixed in both lists of
/// `alloc-health`: each is found, in the request's order.
#[test]
fn ids_and_names_with_a_comma_mixed() {
    for version in ["1.3.0", "2.0.5"] {
        let c = named("a,b", "g");
        let first = Tell::on(&c).until("1m").at(version);
        let (web0, web1) = (placed(&first, "a,b.g[0]"), placed(&first, "a,b.g[1]"));
        let s = Tell::on(&c)
            .event(format!(
                "alloc-health:healthy={},a,b.g[1]:unhealthy=a,b.g[0],{web1}@2m",
                &web0[..8]
            ))
            .until("10m")
            .at(version);
        let e = &s.what_if[0];
        assert_eq!(
            e.healthy_alloc_ids,
            [web0.clone(), web1.clone()],
            "{version}"
        );
        assert_eq!(e.unhealthy_alloc_ids, [web0, web1], "{version}");
        let g = &s.deployments[0].groups["g"];
        assert_eq!((g.healthy_allocs, g.unhealthy_allocs), (0, 2), "{version}");
    }
}

/// A piece that names an allocation alone while it and the next piece
/// name another is refused with one error naming both readings: here `a`
/// is the ID of the job's third allocation and `a,b.g[0]` a live name.
/// Nothing named at all is refused with the lookup's error for the first
/// name the pieces read as, else for the piece itself.
#[test]
fn a_list_that_reads_two_ways_or_names_nothing_is_an_error() {
    let plain = named("a,b", "g");
    let mut c = named("a,b", "g");
    let third = c
        .snapshot
        .allocs
        .iter()
        .position(|a| a.name() == "a,b.g[2]")
        .unwrap();
    c.snapshot.allocs[third].id = "a".into();
    let first = Tell::on(&c).until("1m").at("2.0.5");
    let web0 = placed(&first, "a,b.g[0]");
    let err_on = |c: &Cluster, event: &str| {
        Tell::on(c)
            .event(event)
            .until("10m")
            .error_at("2.0.5")
            .to_string()
    };
    let err = |event: &str| err_on(&plain, event);
    assert_eq!(
        err_on(&c, "alloc-healthy:a,b.g[0]@2m"),
        format!(
            "--what-if alloc-healthy:a,b.g[0]@2m: the list reads two ways at \
             2022-04-01T12:02:00Z: \"a\" names a (a,b.g[2]), and \"a,b.g[0]\" names {web0} \
             (a,b.g[0]); give the allocations' IDs"
        )
    );
    let not_live = err("alloc-healthy:a,b.g[7],a,b.g[1]@2m");
    assert!(
        not_live.starts_with(
            "--what-if alloc-healthy:a,b.g[7],a,b.g[1]@2m: no live allocation is named \
             \"a,b.g[7]\" at 2022-04-01T12:02:00Z; the names live then: "
        ),
        "{not_live}"
    );
    // A wrong piece before an allocation's name is blamed itself.
    let before_a_name = err("alloc-healthy:zz,a,b.g[1]@2m");
    assert!(
        before_a_name.starts_with(
            "--what-if alloc-healthy:zz,a,b.g[1]@2m: no allocation ID starts with \"zz\"; "
        ),
        "{before_a_name}"
    );
    let not_found = err("alloc-healthy:zz,yy@2m");
    assert!(
        not_found
            .starts_with("--what-if alloc-healthy:zz,yy@2m: no allocation ID starts with \"zz\"; "),
        "{not_found}"
    );
}
