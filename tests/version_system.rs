//! The system scheduler per release: disconnected clients (#12555, 1.3.0)
//! and the reconnect update (C-1 in `scheduler_system.go`: 1.3.8, 1.4.3,
//! 1.5.0), with Nomad's TestSystemSched_NodeDisconnected cases ported under
//! the profile of their tag and each change under the release before it;
//! and rules that hold from the seed to 1.10.x, checked at the seed,
//! 1.3.0, 1.5.0 and 1.10.5.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::report::{JobReport, SystemDiffReport};
use plan_inspect::time::SECOND;
use plan_inspect::version::{Release, VersionRequest, v};

use crate::common::*;

/// One allocation `my-job.web[0]` of a `job_type` job whose group sets
/// `max_client_disconnect = 5s`, as the Go test's harness builds it, on an
/// eligible node with `node_status` and the `exec` driver.
fn one_alloc(c: &mut Cluster, job_type: &str, node_status: &str, client: &str) -> String {
    let mut job = resumable(1, Some(5 * SECOND));
    job.job_type = job_type.into();
    job.name = job.id.clone();
    // The node has no network to check a port against.
    job.task_groups[0].networks.clear();
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).client_status = client.into();
    let node = c.alloc_ref(&id).node_id.clone();
    let n = c.node_mut(&node);
    n.status = node_status.into();
    n.scheduling_eligibility = eligibility::ELIGIBLE.into();
    n.attributes.insert("driver.exec".into(), "1".into());
    id
}

fn replay_as(c: &mut Cluster, release: Release) -> JobReport {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay_job("mock-service")
}

fn diff(r: &JobReport) -> &SystemDiffReport {
    r.groups[0].system_diff.as_ref().unwrap()
}

/// Nothing in the plan (the Go test's `expectedPlanCount: 0`).
fn assert_no_plan(r: &JobReport) {
    let p = &r.plan;
    assert!(p.stop.is_empty(), "{:?}", p.stop);
    assert!(p.place.is_empty(), "{:?}", p.place);
    assert!(p.in_place_update.is_empty(), "{:?}", p.in_place_update);
    assert!(p.destructive_update.is_empty());
    assert!(
        p.disconnect_updates.is_empty(),
        "{:?}",
        p.disconnect_updates
    );
}

/// The one stop of the plan, as lost.
fn assert_lost(r: &JobReport, id: &str) {
    assert_eq!(r.plan.stop.len(), 1, "{:?}", r.plan.stop);
    assert_eq!(r.plan.stop[0].alloc_id, id);
    assert_eq!(
        r.plan.stop[0]
            .client_status
            .as_ref()
            .map(ClientStatus::as_str),
        Some(status::LOST)
    );
    assert!(r.plan.place.is_empty() && r.plan.disconnect_updates.is_empty());
}

/// TestSystemSched_NodeDisconnected "system-running-disconnect" and
/// "sysbatch-running-unknown" (scheduler/scheduler_system_test.go at
/// v1.3.0): a running allocation on a disconnected node is marked unknown
/// in the plan (`AppendUnknownAlloc`, v1.3.0 scheduler_system.go:256) and
/// nothing is placed; the seed leaves it alone.
#[test]
fn test_system_sched_node_disconnected_running_disconnect() {
    for job_type in ["system", "sysbatch"] {
        let mut c = Cluster::new();
        let id = one_alloc(&mut c, job_type, node_status::DISCONNECTED, status::RUNNING);
        let r = replay_as(&mut c, v(1, 3, 0));
        assert_eq!(r.plan.disconnect_updates.len(), 1, "{job_type}");
        assert_eq!(r.plan.disconnect_updates[0].alloc_id, id);
        assert_eq!(r.plan.disconnect_updates[0].followup_eval_id, "");
        assert!(r.plan.stop.is_empty() && r.plan.place.is_empty());
        assert_eq!(diff(&r).disconnecting[0].id, id);

        let seed = replay_as(&mut c, Release::Seed);
        assert_no_plan(&seed);
        assert_eq!(diff(&seed).ignore[0].id, id);
        assert!(diff(&seed).disconnecting.is_empty());
    }
}

/// TestSystemSched_NodeDisconnected "system-unknown-expired" and
/// "sysbatch-unknown-expired" (v1.3.0): an unknown allocation 60s past a
/// 5s `max_client_disconnect` is lost, on a disconnected or a ready node
/// (v1.3.0 scheduler/util.go:134); the seed ignores the first (tainted,
/// not down) and leaves the second up to date.
#[test]
fn test_system_sched_node_disconnected_unknown_expired() {
    for (job_type, node) in [
        ("system", node_status::DISCONNECTED),
        ("sysbatch", node_status::READY),
    ] {
        let mut c = Cluster::new();
        let id = one_alloc(&mut c, job_type, node, status::UNKNOWN);
        client_state(&mut c, &id, status::UNKNOWN, 60 * SECOND);
        let r = replay_as(&mut c, v(1, 3, 0));
        assert_lost(&r, &id);
        assert_eq!(
            diff(&r).lost[0].reason().as_ref(),
            "unknown past its group's disconnect timeout: lost"
        );
        assert_no_plan(&replay_as(&mut c, Release::Seed));
    }
}

/// TestSystemSched_NodeDisconnected "system-ignore-unknown" and
/// "sysbatch-ignore-unknown" (v1.3.0): an unknown allocation within its
/// timeout is ignored, waiting for its client (v1.3.0 scheduler/util.go:144).
#[test]
fn test_system_sched_node_disconnected_ignore_unknown() {
    for job_type in ["system", "sysbatch"] {
        let mut c = Cluster::new();
        let id = one_alloc(&mut c, job_type, node_status::DISCONNECTED, status::UNKNOWN);
        client_state(&mut c, &id, status::UNKNOWN, 0);
        let r = replay_as(&mut c, v(1, 3, 0));
        assert_no_plan(&r);
        assert_eq!(
            diff(&r).ignore[0].reason().as_ref(),
            "unknown and desired to run: left alone until its client reconnects"
        );
    }
}

/// TestSystemSched_NodeDisconnected "sysbatch-ignore-successful-tainted"
/// (v1.3.0): a sysbatch allocation whose tasks all finished successfully on
/// a down node is ignored (v1.3.0 scheduler/util.go:184 asks for sysbatch);
/// the seed asks for batch, which no system-scheduled job is, and loses it.
#[test]
fn test_system_sched_node_disconnected_sysbatch_ignore_successful_tainted() {
    let mut c = Cluster::new();
    let id = one_alloc(&mut c, "sysbatch", node_status::DOWN, status::RUNNING);
    let done = TaskState {
        state: "dead".into(),
        failed: false,
        ..TaskState::default()
    };
    c.alloc_mut(&id).task_states.insert("web".into(), done);
    let r = replay_as(&mut c, v(1, 3, 0));
    assert_no_plan(&r);
    assert_eq!(diff(&r).ignore[0].id, id);
    assert_lost(&replay_as(&mut c, Release::Seed), &id);
}

/// TestSystemSched_NodeDisconnected "system-running-reconnect" (v1.3.0): a
/// running allocation with a `Reconnected` event back on a ready node is set
/// apart as reconnecting and dropped, so the plan is empty.
#[test]
fn test_system_sched_node_disconnected_running_reconnect() {
    let mut c = Cluster::new();
    let id = one_alloc(&mut c, "system", node_status::READY, status::RUNNING);
    client_state(&mut c, &id, status::UNKNOWN, 0);
    reconnect_event(&mut c, &id, "web", 0);
    let r = replay_as(&mut c, v(1, 3, 0));
    assert_no_plan(&r);
    assert_eq!(diff(&r).reconnecting[0].id, id);
    assert_eq!(r.groups[0].desired_changes.reconciler.ignore, 0);
}

/// C-1 in the system scheduler (v1.3.8 scheduler_system.go:260,
/// util.go:113): an allocation whose latest client-status state is unknown,
/// back on a ready node, joins the updates and, the job unchanged, is
/// updated in place; the release before each first tag drops it. From C-1
/// a bare `Reconnected` event no longer makes a reconnect: the latest state
/// decides.
#[test]
fn reconnecting_system_allocs_are_updated_in_place_from_c1() {
    for (before, from) in [
        (v(1, 3, 7), v(1, 3, 8)),
        (v(1, 4, 2), v(1, 4, 3)),
        (v(1, 4, 2), v(1, 5, 0)),
    ] {
        let mut c = Cluster::new();
        let id = one_alloc(&mut c, "system", node_status::READY, status::RUNNING);
        client_state(&mut c, &id, status::UNKNOWN, 30 * SECOND);
        reconnect_event(&mut c, &id, "web", 0);
        let old = replay_as(&mut c, before);
        assert_no_plan(&old);
        assert_eq!(diff(&old).reconnecting[0].id, id, "{before}");
        let new = replay_as(&mut c, from);
        assert_eq!(new.plan.in_place_update.len(), 1, "{from}");
        assert_eq!(new.plan.in_place_update[0].alloc_id, id);
        assert_eq!(new.groups[0].desired_changes.reconciler.in_place_update, 1);

        // Reconnected already: the latest state is running.
        client_state(&mut c, &id, status::RUNNING, 0);
        let done = replay_as(&mut c, from);
        assert_no_plan(&done);
        assert!(diff(&done).reconnecting.is_empty());
        assert_eq!(diff(&replay_as(&mut c, before)).reconnecting[0].id, id);
    }
}

/// A group without `max_client_disconnect` does not support disconnected
/// clients (v1.3.0 nomad/structs/structs.go `SupportsDisconnectedClients`):
/// its running allocation on a disconnected node is left alone as at the
/// seed.
#[test]
fn a_group_without_max_client_disconnect_keeps_the_seed_rule_in_1_3_0() {
    let mut c = Cluster::new();
    let id = one_alloc(&mut c, "system", node_status::DISCONNECTED, status::RUNNING);
    let job = c.snapshot.jobs[0].clone();
    let mut plain = (*job).clone();
    plain.task_groups[0].max_client_disconnect = None;
    let plain = Arc::new(plain);
    c.job((*plain).clone());
    c.alloc_mut(&id).job = Some(plain);
    let r = replay_as(&mut c, v(1, 3, 0));
    assert_no_plan(&r);
    assert_eq!(diff(&r).ignore[0].id, id);
}

/// #11170 (v1.5.0 scheduler/util.go:70 `IsInDC`): a job datacenter `dc*`
/// targets a ready node in `dc1` from 1.5.0, which places there; 1.4.x
/// compares names and places nothing. The in-place check follows from
/// #16362 (v1.5.1 util.go:557): under 1.5.0 an allocation there whose job
/// changed is replaced, from 1.5.1 it is updated in place.
#[test]
fn wildcard_datacenters_target_nodes_from_1_5_0() {
    let mut c = Cluster::new();
    let mut job = resumable(1, None);
    job.job_type = "system".into();
    job.name = job.id.clone();
    job.datacenters = vec!["dc*".into()];
    job.task_groups[0].networks.clear();
    c.job(job);
    let node = c.node(node_status::READY);
    let n = c.node_mut(&node);
    n.scheduling_eligibility = eligibility::ELIGIBLE.into();
    n.attributes.insert("driver.exec".into(), "1".into());
    let placed = replay_as(&mut c, v(1, 5, 0));
    assert_eq!(placed.plan.place.len(), 1);
    assert_eq!(placed.plan.place[0].node_id.as_deref(), Some(node.as_str()));
    assert!(replay_as(&mut c, v(1, 4, 9)).plan.place.is_empty());

    // An allocation there, of an older job modify index.
    let current = c.snapshot.jobs[0].clone();
    let mut old = (*current).clone();
    old.job_modify_index = current.job_modify_index.wrapping_sub(1);
    let old = Arc::new(old);
    let id = c.alloc(&old, 0);
    c.alloc_mut(&id).node_id = node.clone().into();
    let r150 = replay_as(&mut c, v(1, 5, 0));
    assert_eq!(r150.plan.destructive_update.len(), 1);
    assert!(r150.plan.in_place_update.is_empty());
    let r151 = replay_as(&mut c, v(1, 5, 1));
    assert_eq!(r151.plan.in_place_update.len(), 1);
    assert!(r151.plan.destructive_update.is_empty());
}

/// #17443 (v1.6.0 scheduler/util.go:49-64 `readyNodesInDCsAndPool`): from
/// 1.6.0 the system scheduler reads only the nodes of the job's pool, so a
/// ready node of another pool gets no placement and an allocation there is
/// stopped as not targeted; 1.5.x places on every node. A node without a
/// pool is in `default`.
#[test]
fn node_pools_limit_the_targeted_nodes_from_1_6_0() {
    let mut c = Cluster::new();
    let mut job = resumable(1, None);
    job.job_type = "system".into();
    job.name = job.id.clone();
    job.node_pool = "gpu".into();
    job.task_groups[0].networks.clear();
    c.job(job);
    let node_in = |c: &mut Cluster, pool: &str| {
        let node = c.node(node_status::READY);
        let n = c.node_mut(&node);
        n.scheduling_eligibility = eligibility::ELIGIBLE.into();
        n.attributes.insert("driver.exec".into(), "1".into());
        n.node_pool = pool.into();
        node
    };
    let gpu = node_in(&mut c, "gpu");
    let other = node_in(&mut c, "");
    let nodes = |r: &JobReport| -> Vec<String> {
        sorted(
            r.plan
                .place
                .iter()
                .map(|p| p.node_id.as_deref().unwrap().to_string()),
        )
    };
    assert_eq!(
        nodes(&replay_as(&mut c, v(1, 6, 0))),
        std::slice::from_ref(&gpu)
    );
    assert_eq!(
        nodes(&replay_as(&mut c, v(1, 5, 9))),
        sorted([gpu, other.clone()])
    );

    let job = c.snapshot.jobs[0].clone();
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).node_id = other.into();
    let r = replay_as(&mut c, v(1, 6, 0));
    assert_eq!(r.plan.stop.len(), 1);
    assert_eq!(r.plan.stop[0].alloc_id, id);
    assert_eq!(diff(&r).stop[0].id, id);
}

/// The releases whose system scheduler plan-inspect replays, from the seed
/// to the last before the 1.11 node reconciler.
fn system_releases() -> [Release; 4] {
    [Release::Seed, v(1, 3, 0), v(1, 5, 0), v(1, 10, 5)]
}

/// A system job of one group `web`.
fn system_job() -> Job {
    let mut job = resumable(1, None);
    job.job_type = "system".into();
    job.name = job.id.clone();
    job.task_groups[0].networks.clear();
    job
}

/// Seed util.go:1020-1024 (v1.5.0 util.go:761, v1.10.5 :867, v2.0.5 :794)
/// marks lost an allocation already told to stop but running on a down
/// node; propertyset.go:166-192 and :258-272 (v1.10.5 :178-204, :272-286)
/// count that stop as freeing its node's value, which the terminal
/// allocation never used. Rack r1 is used once and freed once, so Nomad
/// places on the new node under `distinct_property` 1.
#[test]
fn a_lost_mark_frees_its_distinct_property_value_at_every_release() {
    let mut c = Cluster::new();
    let mut job = system_job();
    job.constraints.push(Constraint {
        l_target: "${meta.rack}".into(),
        r_target: Default::default(),
        operand: "distinct_property".into(),
    });
    let job = c.job(job);
    let running = c.alloc(&job, 0);
    let gone = c.alloc(&job, 0);
    c.alloc_mut(&gone).desired_status = status::STOP.into();
    let down = c.alloc_ref(&gone).node_id.to_string();
    c.node_mut(&down).status = node_status::DOWN.into();
    let fresh = c.node(node_status::READY);
    let up = c.alloc_ref(&running).node_id.to_string();
    for node in [&up, &down, &fresh] {
        let n = c.node_mut(node);
        n.scheduling_eligibility = eligibility::ELIGIBLE.into();
        n.attributes.insert("driver.exec".into(), "1".into());
        n.meta.insert("rack".into(), "r1".into());
    }
    for release in system_releases() {
        let r = replay_as(&mut c, release);
        let stops: Vec<(String, Option<&str>)> = r
            .plan
            .stop
            .iter()
            .map(|s| {
                (
                    s.alloc_id.to_string(),
                    s.client_status.as_ref().map(ClientStatus::as_str),
                )
            })
            .collect();
        assert_eq!(stops, [(gone.clone(), Some(status::LOST))], "{release}");
        let on: Vec<Option<&str>> = r.plan.place.iter().map(|p| p.node_id.as_deref()).collect();
        assert_eq!(on, [Some(fresh.as_str())], "{release}");
    }
}

/// Seed util.go:79 and :270 (v1.5.0 system_util.go:57, :324; v1.10.5 :60,
/// :327) take a node's allocations in the state store's order, ascending
/// ID, and :861 (v1.10.5 :340) evicts the first under `max_parallel`: `web`
/// (the lower ID) before `api` (the lower name). `web` no longer fits the
/// node, so its replacement is filtered and its annotated Place wraps.
#[test]
fn a_rolling_update_evicts_a_nodes_lowest_allocation_id_first_at_every_release() {
    let mut c = Cluster::new();
    let mut old = system_job();
    let mut api = old.task_groups[0].clone();
    api.name = "api".into();
    old.task_groups.push(api);
    let old = Arc::new(old);
    let web = c.alloc_in(&old, "web", 0);
    let api = c.alloc_in(&old, "api", 0);
    let node = c.alloc_ref(&web).node_id.to_string();
    let spare = c.alloc_ref(&api).node_id.to_string();
    c.alloc_mut(&api).node_id = node.clone().into();
    c.snapshot.nodes.retain(|n| n.id != spare);
    let n = c.node_mut(&node);
    n.scheduling_eligibility = eligibility::ELIGIBLE.into();
    n.attributes.insert("driver.exec".into(), "1".into());
    let mut job = destructive_update(&old);
    job.update = Some(UpdateStrategy {
        stagger: 30 * SECOND,
        max_parallel: 1,
        ..UpdateStrategy::default()
    });
    job.task_groups[0].constraints.push(Constraint {
        l_target: "${node.class}".into(),
        r_target: "gpu".into(),
        operand: "=".into(),
    });
    c.job(job);
    for release in system_releases() {
        let r = replay_as(&mut c, release);
        let evicted: Vec<String> = r
            .plan
            .destructive_update
            .iter()
            .map(|d| d.alloc_id.to_string())
            .collect();
        assert_eq!(evicted, std::slice::from_ref(&web), "{release}");
        assert!(r.plan.place.is_empty(), "{release}");
        assert_eq!(r.plan.followup_evals.len(), 1, "{release}");
        let place = |g: &str| {
            r.groups
                .iter()
                .find(|x| x.name == g)
                .map(|x| x.desired_changes.reconciler.place)
        };
        assert_eq!(place("web"), Some(u64::MAX), "{release}");
        assert_eq!(place("api"), Some(0), "{release}");
    }
}
