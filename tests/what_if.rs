//! `--what-if` and `--until`: Nomad's server tests (nomad/heartbeat_test.go,
//! node_endpoint_test.go, drainer/watch_jobs_test.go) ported under their
//! names and tags, and the story they lead to: which evaluations, when,
//! in which order, with what plan.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::replay::Options;
use plan_inspect::report::Plan;
use plan_inspect::servers::rules::ServerRules;
use plan_inspect::servers::story::{CanceledBy, Ignored};
use plan_inspect::servers::update_alloc::{self, AllocUpdate};
use plan_inspect::servers::world::World;
use plan_inspect::servers::{Request, Story, WhatIfError, run};
use plan_inspect::time::{Duration, SECOND, Time};

use crate::common::*;

/// The story of `events` (and `--until`) on `c` as release `version` replays it.
fn story(c: &Cluster, version: &str, events: &[&str], until: Option<&str>) -> Story {
    try_story(c, version, events, until).unwrap_or_else(|e| panic!("{e}"))
}

fn try_story(
    c: &Cluster,
    version: &str,
    events: &[&str],
    until: Option<&str>,
) -> Result<Story, WhatIfError> {
    try_tell(c, version, &request(events, until, None))
}

/// The story of `node-down` on `node`, without `--until`.
fn node_down(c: &Cluster, version: &str, node: &str) -> Story {
    story(c, version, &[&format!("node-down:{node}")], None)
}

/// The one node status `node-down` chose.
fn node_down_status(c: &Cluster, version: &str, node: &str) -> String {
    node_down(c, version, node).what_if[0].node_status[0]
        .to
        .clone()
}

/// How many evaluations `node-down` on `node` creates.
fn node_down_evaluations(c: &Cluster, version: &str, node: &str) -> usize {
    node_down(c, version, node).what_if[0].evaluations.len()
}

/// A cluster with `job` and one allocation of it (group "web", index 0)
/// whose client status is `client`; the allocation and its node.
fn one_alloc(job: Job, client: &str) -> (Cluster, String, String) {
    let mut c = Cluster::new();
    let job = c.job(job);
    let alloc = c.alloc_in(&job, "web", 0);
    c.alloc_mut(&alloc).client_status = client.into();
    let node = c.alloc_ref(&alloc).node_id.to_string();
    (c, alloc, node)
}

/// A cluster with `job` and `count` allocations of it, each on a node of
/// its own; the allocations and the first one's node.
fn allocs_of(job: Job, count: u64) -> (Cluster, Vec<String>, String) {
    let mut c = Cluster::new();
    let job = c.job(job);
    let ids = c.allocs(&job, count);
    let node = c.alloc_ref(&ids[0]).node_id.to_string();
    (c, ids, node)
}

/// Each evaluation of the timeline: when it ran and what triggered it.
fn timeline(s: &Story) -> Vec<(Time, &str)> {
    s.timeline
        .iter()
        .map(|e| (e.at, e.evaluation.triggered_by.as_str()))
        .collect()
}

/// The IDs of the allocations `plan` stops.
fn stopped(plan: &Plan) -> Vec<String> {
    plan.stop.iter().map(|st| st.alloc_id.to_string()).collect()
}

/// A job whose group keeps allocations of a disconnected node for `mcd`.
fn disconnecting_job(mcd: Option<Duration>) -> Job {
    let mut job = job_with(3, None);
    job.task_groups[0].max_client_disconnect = mcd;
    job
}

/// A job whose group's `disconnect` block keeps them for `lost_after`
/// (read from 1.8.0).
fn lost_after_job(lost_after: Duration) -> Job {
    let mut job = job_with(3, None);
    job.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after,
        ..DisconnectStrategy::default()
    });
    job
}

/// heartbeat_test.go's setup: one allocation on the node, unknown since `since`.
fn heartbeat_case(job: Job, since: Duration) -> (Cluster, String) {
    let (mut c, alloc, node) = one_alloc(job, status::UNKNOWN);
    went_unknown(&mut c, &alloc, since);
    (c, node)
}

#[test]
fn heartbeat_test_go_v1_3_0_invalidate_heartbeat_disconnected_client() {
    let five = Some(5 * SECOND);
    for (name, mcd, since, want) in [
        ("has-pending-reconnects", five, 0, node_status::DISCONNECTED),
        (
            "has-expired-reconnects",
            five,
            10 * SECOND,
            node_status::DOWN,
        ),
        (
            "has-expired-reconnects-equal-timestamp",
            five,
            5 * SECOND,
            node_status::DOWN,
        ),
        ("has-no-reconnects", None, 0, node_status::DOWN),
    ] {
        let (c, node) = heartbeat_case(disconnecting_job(mcd), since);
        assert_eq!(node_down_status(&c, "1.3.0", &node), want, "{name}");
    }
}

#[test]
fn heartbeat_test_go_v1_8_0_invalidate_heartbeat_disconnected_client() {
    for version in ["1.8.0", "2.0.5"] {
        for (name, since, want) in [
            ("has-pending-reconnects", 0, node_status::DISCONNECTED),
            ("has-expired-reconnects", 10 * SECOND, node_status::DOWN),
            (
                "has-expired-reconnects-equal-timestamp",
                5 * SECOND,
                node_status::DOWN,
            ),
        ] {
            let (c, node) = heartbeat_case(lost_after_job(5 * SECOND), since);
            assert_eq!(
                node_down_status(&c, version, &node),
                want,
                "{version} {name}"
            );
        }
    }
    // Before 1.8 the block is not read: no lost timeout, so down.
    let (c, node) = heartbeat_case(lost_after_job(5 * SECOND), 0);
    assert_eq!(node_down_status(&c, "1.7.7", &node), node_status::DOWN);
}

/// An initializing node never disconnects (heartbeat.go:183).
#[test]
fn heartbeat_go_v1_3_0_an_initializing_node_goes_down() {
    let (mut c, node) = heartbeat_case(disconnecting_job(Some(5 * MINUTE)), 0);
    c.node_mut(&node).status = node_status::INIT.into();
    assert_eq!(node_down_status(&c, "1.3.0", &node), node_status::DOWN);
}

/// mock.SystemJob(): priority 100, in dc1.
fn system_job(id: &str) -> Job {
    let mut job = mock_job();
    job.id = id.into();
    job.job_type = JobType::System;
    job.priority = 100;
    job.task_groups[0].count = 1;
    job.task_groups[0].reschedule_policy = None;
    job
}

#[test]
fn node_endpoint_test_go_v1_3_0_create_node_evals() {
    // mock.Alloc() is pending.
    let (mut c, _, node) = one_alloc(mock_job(), status::PENDING);
    c.job(system_job("sys"));
    let s = node_down(&c, "1.3.0", &node);
    assert_eq!(s.what_if[0].evaluations.len(), 2);
    let evals: Vec<_> = s.timeline.iter().map(|e| &e.evaluation).collect();
    // The broker hands out the system job's first: priority 100 over 50.
    assert_eq!(
        evals
            .iter()
            .map(|e| (e.job_id.as_str(), e.priority))
            .collect::<Vec<_>>(),
        [("sys", 100), (JOB, 50)]
    );
    for e in evals {
        assert_eq!(e.triggered_by, "node-update");
        assert_eq!(e.node_id.as_deref(), Some(node.as_str()));
    }
}

#[test]
fn node_endpoint_test_go_v1_5_0_create_node_evals_multiple_dces() {
    // A system job of dc2 is evaluated for a node of dc1 only before #12955.
    let (mut c, _, node) = one_alloc(mock_job(), status::PENDING);
    let mut sys = system_job("sys-dc2");
    sys.datacenters = vec!["dc2".into()];
    c.job(sys);
    let mut glob = system_job("sys-glob");
    glob.datacenters = vec!["dc*".into()];
    c.job(glob);
    let jobs = |version: &str| -> Vec<String> {
        node_down(&c, version, &node)
            .timeline
            .iter()
            .map(|e| e.evaluation.job_id.clone())
            .collect()
    };
    assert_eq!(jobs("1.3.0"), ["sys-dc2", "sys-glob", JOB]);
    assert_eq!(jobs("1.3.2"), [JOB]);
    assert_eq!(jobs("1.5.0"), ["sys-glob", JOB]);
}

#[test]
fn node_endpoint_test_go_v2_0_5_create_node_evals_stopped_system_job() {
    let mut c = Cluster::new();
    let node = c.node(node_status::READY);
    let mut sys = system_job("sys");
    sys.stop = true;
    c.job(sys);
    assert_eq!(node_down_evaluations(&c, "2.0.5", &node), 0);
    assert_eq!(
        node_down_evaluations(&c, "1.11.1", &node),
        1,
        "#27423 came with 1.11.2"
    );
}

/// A job of `job_type` for the skip cases.
fn typed_job(job_type: JobType) -> Job {
    let mut job = mock_job();
    job.id = format!("{job_type}-job").into();
    job.job_type = job_type;
    job
}

#[test]
fn node_endpoint_test_go_v2_0_5_create_node_evals_job_type_skip() {
    use JobType::*;
    for (name, job_type, desired, client, want) in [
        (
            "service job running alloc",
            Service,
            status::RUN,
            status::RUNNING,
            1,
        ),
        (
            "service job server terminal alloc",
            Service,
            status::STOP,
            status::RUNNING,
            1,
        ),
        (
            "service job client terminal alloc",
            Service,
            status::RUN,
            status::COMPLETE,
            1,
        ),
        (
            "service job server and client terminal alloc",
            Service,
            status::STOP,
            status::COMPLETE,
            0,
        ),
        (
            "batch job running alloc",
            Batch,
            status::RUN,
            status::RUNNING,
            1,
        ),
        (
            "batch job pending alloc",
            Batch,
            status::RUN,
            status::PENDING,
            1,
        ),
        (
            "batch job complete alloc",
            Batch,
            status::RUN,
            status::COMPLETE,
            0,
        ),
        (
            "batch job failed alloc",
            Batch,
            status::RUN,
            status::FAILED,
            0,
        ),
        ("batch job lost alloc", Batch, status::RUN, status::LOST, 0),
        (
            "sysbatch job running alloc",
            Sysbatch,
            status::RUN,
            status::RUNNING,
            0,
        ),
        (
            "sysbatch job pending alloc",
            Sysbatch,
            status::RUN,
            status::PENDING,
            0,
        ),
        (
            "sysbatch job failed alloc",
            Sysbatch,
            status::RUN,
            status::FAILED,
            0,
        ),
    ] {
        let (mut c, alloc, node) = one_alloc(typed_job(job_type), client);
        c.alloc_mut(&alloc).desired_status = desired.into();
        assert_eq!(node_down_evaluations(&c, "2.0.5", &node), want, "{name}");
    }
}

/// #23858 (1.8.4) skips sysbatch allocations; before, they were evaluated.
#[test]
fn node_endpoint_go_v1_8_4_sysbatch_allocations_make_no_node_evaluation() {
    let (c, _, node) = one_alloc(typed_job(JobType::Sysbatch), status::PENDING);
    assert_eq!(node_down_evaluations(&c, "1.8.3", &node), 1);
    assert_eq!(node_down_evaluations(&c, "1.8.4", &node), 0);
}

/// #27423's quirk (v1.11.2 node_endpoint.go:1861): a terminal allocation
/// listed first hides its job's live one; 1.11.3 (#27499) evaluates the job.
#[test]
fn node_endpoint_go_v1_11_2_a_skipped_first_allocation_hides_its_job() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let done = c.alloc_in(&job, "web", 0);
    let node = c.alloc_ref(&done).node_id.to_string();
    c.alloc_mut(&done).desired_status = status::STOP.into();
    c.alloc_mut(&done).client_status = status::COMPLETE.into();
    let live = c.alloc_in(&job, "web", 1);
    c.alloc_mut(&live).node_id = node.as_str().into();
    assert!(done < live, "the terminal allocation is listed first");
    assert_eq!(node_down_evaluations(&c, "1.11.2", &node), 0);
    assert_eq!(node_down_evaluations(&c, "1.11.3", &node), 1);
}

/// The servers' state for calling `Node.UpdateAlloc` directly.
fn world_of(c: &Cluster) -> World {
    World::new(c.snapshot.clone())
}

#[test]
fn node_endpoint_test_go_v1_3_0_update_alloc_evals_by_trigger() {
    let rules = ServerRules::of(v(1, 3, 0));
    for (name, client, server, trigger, missing_job, invalid_group) in [
        (
            "failed-alloc",
            status::FAILED,
            status::RUNNING,
            Some("alloc-failure"),
            false,
            false,
        ),
        (
            "unknown-alloc",
            status::RUNNING,
            status::UNKNOWN,
            Some("reconnect"),
            false,
            false,
        ),
        (
            "orphaned-unknown-alloc",
            status::RUNNING,
            status::UNKNOWN,
            Some("job-deregister"),
            true,
            false,
        ),
        (
            "running-job",
            status::RUNNING,
            status::RUNNING,
            None,
            false,
            false,
        ),
        (
            "complete-job",
            status::COMPLETE,
            status::COMPLETE,
            None,
            false,
            false,
        ),
        (
            "invalid-task-group",
            status::UNKNOWN,
            status::RUNNING,
            None,
            false,
            true,
        ),
    ] {
        let (mut c, alloc, _) = one_alloc(mock_job(), server);
        if invalid_group {
            c.alloc_mut(&alloc).task_group = "invalid".into();
        }
        if missing_job {
            c.snapshot.jobs.clear();
        }
        let mut world = world_of(&c);
        let i = world.alloc_index(&alloc).unwrap();
        let got = update_alloc::report(&mut world, i, client.into(), now(), &rules);
        let AllocUpdate::Taken { eval, .. } = got else {
            panic!("{name}: refused")
        };
        assert_eq!(
            eval.map(|e| e.triggered_by),
            trigger.map(str::to_string),
            "{name}"
        );
        if missing_job {
            assert_eq!(world.alloc(i).desired_status, DesiredStatus::Stop, "{name}");
        }
    }
}

/// UpdateAlloc_NodeNotReady: from #15808 a down or disconnected node's
/// updates are refused; before, taken.
#[test]
fn node_endpoint_test_go_v1_5_0_update_alloc_node_not_ready() {
    for node_state in [node_status::DOWN, node_status::DISCONNECTED] {
        let mut c = Cluster::new();
        let job = c.job(mock_job());
        let alloc = c.alloc_in(&job, "web", 0);
        c.set_node_status(&alloc, node_state);
        let refused = |version: Release| {
            let mut world = world_of(&c);
            let i = world.alloc_index(&alloc).unwrap();
            let rules = ServerRules::of(version);
            matches!(
                update_alloc::report(&mut world, i, ClientStatus::Failed, now(), &rules),
                AllocUpdate::Refused { .. }
            )
        };
        assert!(refused(v(1, 5, 0)), "{node_state}");
        assert!(refused(v(1, 3, 10)), "{node_state}");
        assert!(!refused(v(1, 3, 9)), "{node_state}");
        assert!(!refused(v(1, 4, 4)), "{node_state}");
    }
}

/// A disconnected node with one unknown allocation of a group that keeps
/// them for 15m; returns the node and the allocation.
fn disconnected(c: &mut Cluster) -> (String, String) {
    let job = c.job(disconnecting_job(Some(15 * MINUTE)));
    let ids = c.allocs(&job, 3);
    let alloc = ids[0].clone();
    let node = c.alloc_ref(&alloc).node_id.to_string();
    c.node_mut(&node).status = node_status::DISCONNECTED.into();
    c.alloc_mut(&alloc).client_status = status::UNKNOWN.into();
    went_unknown(c, &alloc, 5 * MINUTE);
    (node, alloc)
}

/// UpdateStatus_Reconnect: the node is initializing until its client has
/// updated its allocations, then ready; before #15808 ready at once.
#[test]
fn node_endpoint_test_go_v1_5_0_update_status_reconnect() {
    let mut c = Cluster::new();
    let (node, _) = disconnected(&mut c);
    let up = format!("node-up:{node}");
    let s = story(&c, "1.5.0", &[&up], None);
    let steps: Vec<(&str, &str)> = s.what_if[0]
        .node_status
        .iter()
        .map(|c| (c.from.as_str(), c.to.as_str()))
        .collect();
    assert_eq!(
        steps,
        [
            (node_status::DISCONNECTED, node_status::INIT),
            (node_status::INIT, node_status::READY)
        ]
    );
    let triggers: Vec<&str> = timeline(&s).into_iter().map(|(_, t)| t).collect();
    assert_eq!(triggers, ["node-update", "reconnect", "node-update"]);
    let s = story(&c, "1.3.0", &[&up], None);
    assert_eq!(s.what_if[0].node_status.len(), 1);
    assert_eq!(s.what_if[0].node_status[0].to, node_status::READY);
    let triggers: Vec<&str> = timeline(&s).into_iter().map(|(_, t)| t).collect();
    assert_eq!(triggers, ["node-update", "reconnect"]);
}

/// Phase 1 of PR #12333: the unknown allocation reported running is
/// reconnected, and the reconnect evaluation's plan keeps it.
#[test]
fn node_up_reconnects_the_unknown_allocation() {
    let mut c = Cluster::new();
    let (node, alloc) = disconnected(&mut c);
    let s = story(&c, "1.3.16", &[&format!("node-up:{node}")], None);
    let reconnect = s
        .timeline
        .iter()
        .find(|e| e.evaluation.triggered_by == "reconnect")
        .unwrap();
    assert_eq!(reconnect.evaluation.node_id, None);
    let plan = &reconnect.job.plan;
    assert!(plan.stop.is_empty(), "{plan:?}");
    assert!(plan.place.is_empty(), "{plan:?}");
    // The node-update before it already planned the reconnect (C-1, 1.3.8).
    let first = &s.timeline[0].job.plan;
    assert_eq!(first.reconnect_updates.len(), 1);
    assert_eq!(first.reconnect_updates[0].alloc_id.to_string(), alloc);
}

/// F-3 (1.10.2): the reconnect cancels the disconnect's follow-up.
#[test]
fn state_store_go_v1_10_2_a_reconnect_cancels_the_disconnect_followup() {
    // From 1.10.0 (F-1) only the disconnect block is read.
    let (c, _, node) = allocs_of(lost_after_job(15 * MINUTE), 3);
    let events = [format!("node-down:{node}"), format!("node-up:{node}@5m")];
    let events: Vec<&str> = events.iter().map(String::as_str).collect();
    let pending = |version: &str| -> Vec<String> {
        story(&c, version, &events, Some("10m"))
            .pending
            .into_iter()
            .map(|p| p.triggered_by)
            .collect()
    };
    assert_eq!(pending("1.10.1"), ["max-disconnect-timeout"]);
    assert!(pending("1.10.2").is_empty());
}

/// node-down then the story: the node-update evaluation marks the
/// allocation unknown with a follow-up at the expiry, which `--until`
/// replays 15 minutes later.
#[test]
fn node_down_until_replays_the_disconnect_expiry() {
    let (c, ids, node) = allocs_of(disconnecting_job(Some(15 * MINUTE)), 3);
    let s = story(&c, "1.3.0", &[&format!("node-down:{node}@10m")], Some("1h"));
    assert_eq!(s.what_if[0].at, now().add(10 * MINUTE));
    assert_eq!(s.what_if[0].node_status[0].to, node_status::DISCONNECTED);
    let lines = timeline(&s);
    assert_eq!(lines[0], (now().add(10 * MINUTE), "node-update"));
    assert_eq!(lines[1], (now().add(25 * MINUTE), "max-disconnect-timeout"));
    let first = &s.timeline[0].job.plan;
    assert_eq!(first.disconnect_updates.len(), 1);
    assert_eq!(first.followup_evals[0].wait_until, now().add(25 * MINUTE));
    let expiry = &s.timeline[1].job.plan;
    let lost: Vec<String> = expiry
        .stop
        .iter()
        .filter(|st| st.client_status == Some(ClientStatus::Lost))
        .map(|st| st.alloc_id.to_string())
        .collect();
    assert!(lost.contains(&ids[0]), "{expiry:?}");
    // The report's jobs hold the job's first evaluation.
    assert_eq!(s.report.jobs[0].plan.disconnect_updates.len(), 1);
    // Without --until the follow-up is left pending.
    let s = story(&c, "1.3.0", &[&format!("node-down:{node}@10m")], None);
    assert_eq!(s.timeline.len(), 1);
    assert_eq!(s.pending[0].triggered_by, "max-disconnect-timeout");
}

/// alloc-fail: an `alloc-failure` evaluation while the policy allows; its
/// plan reschedules after the policy's delay, which `--until` follows.
#[test]
fn alloc_fail_is_rescheduled_after_its_delay() {
    let (c, ids, _) = allocs_of(job_with(3, None), 3);
    let s = story(
        &c,
        "1.3.0",
        &[&format!("alloc-fail:{}@1m", ids[1])],
        Some("10m"),
    );
    assert_eq!(s.what_if[0].alloc_id.as_deref(), Some(ids[1].as_str()));
    let lines = timeline(&s);
    assert_eq!(lines[0], (now().add(MINUTE), "alloc-failure"));
    // mock.Job's policy: a constant 5s delay.
    assert_eq!(lines[1], (now().add(MINUTE + 5 * SECOND), "alloc-failure"));
    let place = &s.timeline[1].job.plan.place;
    assert_eq!(place.len(), 1);
    assert_eq!(
        place[0].previous_alloc_id.as_ref().unwrap().to_string(),
        ids[1]
    );
    assert!(place[0].reschedule);
}

/// A system job's failed allocation: no reschedule policy, no evaluation.
#[test]
fn alloc_fail_of_a_system_job_makes_no_evaluation() {
    let (c, alloc, _) = one_alloc(system_job("sys"), status::RUNNING);
    let s = story(&c, "1.3.0", &[&format!("alloc-fail:{alloc}")], None);
    assert!(s.what_if[0].evaluations.is_empty());
    assert!(s.timeline.is_empty());
}

#[test]
fn node_ineligible_makes_no_evaluation() {
    let (c, _, node) = allocs_of(job_with(3, None), 3);
    let s = story(
        &c,
        "1.3.0",
        &[&format!("node-ineligible:{node}")],
        Some("1h"),
    );
    assert!(s.timeline.is_empty());
    assert!(s.what_if[0].evaluations.is_empty());
}

#[test]
fn events_already_in_effect_are_said_so() {
    let (mut c, _, node) = one_alloc(job_with(1, None), status::RUNNING);
    let s = story(&c, "1.3.0", &[&format!("node-up:{node}")], None);
    assert_eq!(s.what_if[0].ignored, Some(Ignored::AlreadyReady));
    c.node_mut(&node).status = node_status::DOWN.into();
    let s = node_down(&c, "1.3.0", &node);
    assert_eq!(s.what_if[0].ignored, Some(Ignored::AlreadyDown));
}

/// `handleTaskGroup`'s table: how many allocations of a 10-allocation
/// group on the draining node are marked, by `max_parallel` and health.
#[test]
fn watch_jobs_test_go_v1_3_0_hande_task_group_table() {
    type Setup = fn(usize, &mut Allocation, &str, &str);
    let cases: [(&str, bool, i64, usize, Setup); 13] = [
        ("AllDraining", false, 0, 1, |_, _, _, _| {}),
        ("AllNonDraining", false, 0, 0, |_, a, _, running| {
            a.node_id = running.into()
        }),
        (
            "SomeNonDrainingUnhealthy",
            false,
            0,
            0,
            |i, a, _, running| {
                if i % 2 == 0 {
                    a.node_id = running.into();
                    a.deployment_status = None;
                }
            },
        ),
        ("OneDraining", false, 0, 1, |i, a, _, running| {
            if i != 0 {
                a.node_id = running.into();
            }
        }),
        ("OneAlreadyDraining", false, 0, 0, |i, a, _, running| {
            if i == 0 {
                a.desired_transition.migrate = Some(true);
            } else {
                a.node_id = running.into();
            }
        }),
        ("OneAlreadyDrained", false, 0, 0, |i, a, _, running| {
            if i == 0 {
                a.desired_status = status::STOP.into();
            } else {
                a.node_id = running.into();
            }
        }),
        (
            "OneAlreadyDrainedBatched",
            true,
            0,
            0,
            |i, a, _, running| {
                if i == 0 {
                    a.desired_status = status::STOP.into();
                } else {
                    a.node_id = running.into();
                }
            },
        ),
        ("AllMigrating", false, 0, 0, |_, a, _, _| {
            a.desired_status = status::STOP.into()
        }),
        ("AllAtOnce", false, 10, 10, |_, _, _, _| {}),
        ("Drain2", false, 2, 2, |_, _, _, _| {}),
        (
            "OneOnNewNodeOneDrained",
            false,
            2,
            1,
            |i, a, _, running| match i {
                0 => a.node_id = running.into(),
                1 => a.desired_status = status::STOP.into(),
                _ => {}
            },
        ),
        ("PendingHealth", false, 3, 1, |i, a, _, running| match i {
            0 => {
                a.node_id = running.into();
                a.deployment_status = None;
            }
            1..=4 => a.node_id = running.into(),
            9 => a.desired_status = status::STOP.into(),
            _ => {}
        }),
        (
            "PendingHealthHigherMax",
            false,
            5,
            2,
            |i, a, _, running| match i {
                0 | 1 => {
                    a.node_id = running.into();
                    a.deployment_status = None;
                }
                2..=4 => a.node_id = running.into(),
                9 => a.desired_status = status::STOP.into(),
                _ => {}
            },
        ),
    ];
    for (name, batch, max_parallel, drained, setup) in cases {
        let mut c = Cluster::new();
        let draining = c.node(node_status::READY);
        let running = c.node(node_status::READY);
        let mut job = job_with(10, None);
        if batch {
            job.job_type = JobType::Batch;
        } else {
            job.task_groups[0].migrate = Some(MigrateStrategy {
                max_parallel: max_parallel.max(1),
            });
        }
        let job = c.job(job);
        for i in 0..10 {
            let id = c.alloc_in(&job, "web", i as u64);
            let a = c.alloc_mut(&id);
            a.node_id = draining.as_str().into();
            a.deployment_status = healthy(true);
            setup(i, a, &draining, &running);
        }
        let world = world_of(&c);
        let marked =
            plan_inspect::servers::drain_jobs::drainable(&world, std::slice::from_ref(&draining));
        assert_eq!(marked.len(), drained, "{name}");
    }
}

/// Every node eligible for scheduling, as a registered node is: the
/// placement stage places migrations only on ready, eligible nodes
/// (`Node.Ready`).
fn eligible(c: &mut Cluster) {
    for n in &mut c.snapshot.nodes {
        n.scheduling_eligibility = "eligible".into();
    }
}

/// node-drain: the drainer marks `max_parallel` at a time as replacements
/// become healthy; with `--assume-healthy-after` it waits for them.
#[test]
fn node_drain_migrates_max_parallel_at_a_time() {
    let mut job = job_with(3, None);
    job.task_groups[0].migrate = Some(MigrateStrategy { max_parallel: 1 });
    let (mut c, ids, node) = allocs_of(job, 3);
    for id in &ids {
        c.alloc_mut(id).node_id = node.as_str().into();
        c.alloc_mut(id).deployment_status = healthy(true);
    }
    eligible(&mut c);
    let options = Options {
        nomad_version: Some("1.3.0".parse().unwrap()),
        ..Options::default()
    };
    let request = |healthy_after| Request {
        events: vec![format!("node-drain:{node}:1h").parse().unwrap()],
        until: Some("2h".parse().unwrap()),
        healthy_after,
    };
    let drains = |s: &Story| -> Vec<Time> {
        timeline(s)
            .into_iter()
            .filter(|(_, t)| *t == "node-drain")
            .map(|(at, _)| at)
            .collect()
    };
    let s = run(&c.snapshot, &options, &request(None)).unwrap();
    assert_eq!(drains(&s), [now(), now(), now()]);
    assert_eq!(s.what_if[0].deadline, Some(now().add(HOUR)));
    let s = run(&c.snapshot, &options, &request(Some(MINUTE))).unwrap();
    assert_eq!(
        drains(&s),
        [now(), now().add(MINUTE), now().add(2 * MINUTE)]
    );
}

/// A group without a `migrate` block is left for the deadline.
#[test]
fn node_drain_without_migrate_waits_for_the_deadline() {
    let (c, _, node) = allocs_of(job_with(2, None), 2);
    let s = story(
        &c,
        "1.3.0",
        &[&format!("node-drain:{node}:30m")],
        Some("1h"),
    );
    assert_eq!(timeline(&s), [(now().add(30 * MINUTE), "node-drain")]);
}

#[test]
fn bad_targets_and_times_are_errors_naming_what_is_valid() {
    let (c, ids, _) = allocs_of(job_with(2, None), 2);
    let err = |events: &[&str], until: Option<&str>| {
        try_story(&c, "1.3.0", events, until)
            .unwrap_err()
            .to_string()
    };
    let e = err(&["node-down:nosuch"], None);
    assert!(
        e.contains("no node has the ID, name or ID prefix \"nosuch\""),
        "{e}"
    );
    assert!(e.contains("node-0001"), "{e}");
    let e = err(&["node-down:node-000"], None);
    assert!(e.contains("matches 2 nodes"), "{e}");
    let e = err(&["alloc-fail:alloc-"], None);
    assert!(e.contains("matches 2 allocations"), "{e}");
    let e = err(&["alloc-fail:zzz"], None);
    assert!(e.contains(&ids[0]), "{e}");
    let e = err(&["node-down:node-0001@2022-04-01T11:00:00Z"], None);
    assert!(
        e.contains("before the evaluation time 2022-04-01T12:00:00Z"),
        "{e}"
    );
    let e = err(&[], Some("2022-04-01T11:00:00Z"));
    assert!(e.contains("--until 2022-04-01T11:00:00Z is before"), "{e}");
}

/// The same story whatever the order of the snapshot's arrays.
#[test]
fn the_story_does_not_depend_on_input_order() {
    let mut c = Cluster::new();
    let job = c.job(disconnecting_job(Some(15 * MINUTE)));
    let ids = c.allocs(&job, 3);
    c.job(system_job("sys"));
    let node = c.alloc_ref(&ids[0]).node_id.to_string();
    let events = [format!("node-down:{node}"), format!("node-up:{node}@20m")];
    let events: Vec<&str> = events.iter().map(String::as_str).collect();
    let a = plan_inspect::render::json::story(&story(&c, "1.5.0", &events, Some("1h")));
    c.snapshot.allocs.reverse();
    c.snapshot.nodes.reverse();
    c.snapshot.jobs.reverse();
    let b = plan_inspect::render::json::story(&story(&c, "1.5.0", &events, Some("1h")));
    assert_eq!(a, b);
    let _: Arc<Job> = job;
}

/// TestServiceSched_NodeDown's cases, reached through `node-down`: the
/// node-update evaluation of a job with one allocation on the node.
#[test]
fn generic_sched_test_go_v1_3_0_service_sched_node_down() {
    // (desired, client, migrate): what the plan does with the allocation.
    #[derive(Debug, PartialEq)]
    enum Want {
        NoPlan,
        Lost,
        NotLost,
        Failed,
    }
    for (desired, client, migrate, want) in [
        (status::STOP, status::RUNNING, false, Want::Lost),
        (status::RUN, status::PENDING, true, Want::NotLost),
        (status::RUN, status::RUNNING, true, Want::NotLost),
        (status::RUN, status::LOST, false, Want::NoPlan),
        (status::RUN, status::COMPLETE, false, Want::NoPlan),
        (status::RUN, status::FAILED, false, Want::Failed),
        (status::EVICT, status::RUNNING, false, Want::Lost),
    ] {
        let (mut c, alloc, node) = one_alloc(mock_job(), client);
        let a = c.alloc_mut(&alloc);
        a.desired_status = desired.into();
        a.desired_transition.migrate = Some(migrate);
        let case = format!("{desired}/{client}/{migrate}");
        let s = node_down(&c, "1.3.0", &node);
        assert_eq!(s.what_if[0].node_status[0].to, node_status::DOWN, "{case}");
        let entry = &s.timeline[0];
        assert_eq!(entry.evaluation.triggered_by, "node-update", "{case}");
        let stops = &entry.job.plan.stop;
        let got = match stops.iter().find(|st| st.alloc_id == *alloc.as_str()) {
            None => Want::NoPlan,
            Some(st) if st.client_status == Some(ClientStatus::Lost) => Want::Lost,
            Some(_) if client == status::FAILED => Want::Failed,
            Some(_) => Want::NotLost,
        };
        assert_eq!(got, want, "{case}");
    }
}

/// TestServiceSched_Client_Disconnect_Creates_Updates_and_Evals, from the
/// missed heartbeat: the node-update evaluation marks the allocation
/// unknown and creates one delayed follow-up; applied, the allocation is
/// unknown and still desired to run.
#[test]
fn generic_sched_test_go_v1_3_0_client_disconnect_creates_updates_and_evals() {
    let (c, _, node) = one_alloc(disconnecting_job(Some(10 * MINUTE)), status::RUNNING);
    let s = story(&c, "1.3.0", &[&format!("node-down:{node}")], Some("1m"));
    assert_eq!(s.what_if[0].node_status[0].to, node_status::DISCONNECTED);
    let plan = &s.timeline[0].job.plan;
    assert_eq!(plan.disconnect_updates.len(), 1);
    assert_eq!(plan.followup_evals.len(), 1);
    assert_eq!(plan.followup_evals[0].wait_until, now().add(10 * MINUTE));
    assert_eq!(s.pending.len(), 1);
    assert_eq!(s.pending[0].id, plan.followup_evals[0].id);
    assert_eq!(s.pending[0].wait_until, Some(now().add(10 * MINUTE)));
}

/// TestSystemSched_NodeDown, from the missed heartbeat: the system job's
/// allocation on the down node is stopped.
#[test]
fn scheduler_system_test_go_v1_3_0_system_sched_node_down() {
    let (mut c, alloc, node) = one_alloc(system_job("sys"), status::RUNNING);
    c.alloc_mut(&alloc).desired_transition.migrate = Some(true);
    let s = node_down(&c, "1.3.0", &node);
    let entry = &s.timeline[0];
    assert_eq!(
        (
            entry.evaluation.job_id.as_str(),
            entry.evaluation.triggered_by.as_str()
        ),
        ("sys", "node-update")
    );
    assert_eq!(stopped(&entry.job.plan), [alloc]);
    assert!(entry.job.plan.place.is_empty());
}

/// TestSystemSched_NodeDrain, from `node-drain`: a node with only a system
/// job's allocation is done draining at once; the drainer marks the
/// system allocation and its node-drain evaluation stops it.
#[test]
fn scheduler_system_test_go_v1_3_0_system_sched_node_drain() {
    let (c, alloc, node) = one_alloc(system_job("sys"), status::RUNNING);
    let s = story(&c, "1.3.0", &[&format!("node-drain:{node}")], Some("1m"));
    let entry = &s.timeline[0];
    assert_eq!(entry.evaluation.triggered_by, "node-drain");
    assert_eq!(entry.evaluation.node_id, None);
    assert_eq!(stopped(&entry.job.plan), [alloc]);
}

/// The drainer drains system allocations last: while a service allocation
/// is on the node, the system one stays.
#[test]
fn drainer_go_v1_3_0_system_allocations_drain_last() {
    let (mut c, _, node) = one_alloc(system_job("sys"), status::RUNNING);
    let mut web = job_with(1, None);
    web.task_groups[0].migrate = Some(MigrateStrategy { max_parallel: 1 });
    let web = c.job(web);
    let web_alloc = c.alloc_in(&web, "web", 0);
    c.alloc_mut(&web_alloc).node_id = node.as_str().into();
    c.alloc_mut(&web_alloc).deployment_status = healthy(true);
    c.node("ready");
    eligible(&mut c);
    let s = story(&c, "1.3.0", &[&format!("node-drain:{node}")], Some("1m"));
    let order: Vec<(&str, &str)> = s
        .timeline
        .iter()
        .map(|e| {
            (
                e.evaluation.job_id.as_str(),
                e.evaluation.triggered_by.as_str(),
            )
        })
        .collect();
    assert_eq!(order, [(JOB, "node-drain"), ("sys", "node-drain")]);
}

/// #14621 (1.4.3, v1.4.3 nomad/eval_broker.go:596-603): three nodes of a job
/// go down at once; its first node-update evaluation runs, and of the two
/// blocked behind it the broker keeps the newest and cancels the other.
#[test]
fn eval_broker_go_v1_4_3_ack_cancels_all_but_the_newest_blocked_evaluation() {
    let (c, ids, _) = allocs_of(job_with(3, None), 3);
    let nodes: Vec<String> = ids
        .iter()
        .map(|a| c.alloc_ref(a).node_id.to_string())
        .collect();
    let events: Vec<String> = nodes.iter().map(|n| format!("node-down:{n}")).collect();
    let events: Vec<&str> = events.iter().map(String::as_str).collect();
    let by_broker = |s: &Story| -> Vec<Option<String>> {
        s.canceled
            .iter()
            .filter(|c| c.by == CanceledBy::Broker)
            .map(|c| c.evaluation.node_id.clone())
            .collect()
    };
    let old = story(&c, "1.4.2", &events, None);
    assert_eq!(old.timeline.len(), 3);
    assert!(by_broker(&old).is_empty());
    let new = story(&c, "1.4.3", &events, None);
    let ran: Vec<&str> = new
        .timeline
        .iter()
        .map(|e| e.evaluation.node_id.as_deref().unwrap())
        .collect();
    assert_eq!(ran, [nodes[0].as_str(), nodes[2].as_str()]);
    assert_eq!(by_broker(&new), [Some(nodes[1].clone())]);
}

/// With `--until`, the snapshot's own pending evaluations run when due and
/// its blocked ones wait for capacity: here until an allocation fails.
#[test]
fn until_carries_on_the_snapshot_s_pending_and_blocked_evaluations() {
    let (mut c, ids, _) = allocs_of(job_with(2, None), 2);
    let eval = |id: &str, status: &str, triggered_by: &str, wait: Option<Duration>| Evaluation {
        id: id.into(),
        namespace: "default".into(),
        job_id: JOB.into(),
        priority: 50,
        eval_type: "service".into(),
        triggered_by: triggered_by.into(),
        status: status.into(),
        wait_until: wait.map_or(Time::ZERO, |w| now().add(w)),
        ..Evaluation::default()
    };
    c.snapshot.evals.push(eval(
        "e-delayed",
        "pending",
        "alloc-failure",
        Some(40 * MINUTE),
    ));
    c.snapshot
        .evals
        .push(eval("e-blocked", "blocked", "queued-allocs", None));
    c.snapshot
        .evals
        .push(eval("e-done", "complete", "job-register", None));
    let ran = |events: &[&str], until: Option<&str>| -> Vec<(Time, String, String)> {
        story(&c, "1.3.0", events, until)
            .timeline
            .into_iter()
            .map(|e| (e.at, e.evaluation.id, e.evaluation.triggered_by))
            .collect()
    };
    let fail = format!("alloc-fail:{}@30m", ids[0]);
    let got = ran(&[&fail], Some("1h"));
    // Due after the failure: had it run first, its success would have
    // canceled the blocked evaluation (tests/blocked_eval.rs).
    assert!(
        got.contains(&(
            now().add(40 * MINUTE),
            "e-delayed".into(),
            "alloc-failure".into()
        )),
        "{got:?}"
    );
    // The failure frees capacity: the blocked evaluation runs after it.
    let at_fail: Vec<&str> = got
        .iter()
        .filter(|(t, ..)| *t == now().add(30 * MINUTE))
        .map(|(_, id, _)| id.as_str())
        .collect();
    assert!(at_fail.contains(&"e-blocked"), "{got:?}");
    assert!(got.iter().all(|(_, id, _)| id != "e-done"));
    // Without --until they stay where they are.
    assert!(
        ran(&[&fail], None)
            .iter()
            .all(|(_, id, _)| !id.starts_with("e-"))
    );
    let s = story(&c, "1.3.0", &[], Some("5m"));
    let pending: Vec<&str> = s.pending.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(pending, ["e-blocked", "e-delayed"]);
}

/// A plan whose replacement no node takes leaves a blocked evaluation
/// (`queued-allocs`); the tracker runs it again when a node comes back, and
/// only then is the replacement placed, on that node.
#[test]
fn a_failed_placement_waits_blocked_until_a_node_is_ready() {
    let (mut c, _, first) = allocs_of(job_with(1, None), 1);
    let spare = c.node("down");
    eligible(&mut c);
    let events = [format!("node-down:{first}"), format!("node-up:{spare}@10m")];
    let events: Vec<&str> = events.iter().map(String::as_str).collect();
    let s = story(&c, "1.3.0", &events, Some("1h"));
    let lines: Vec<(Time, &str)> = s
        .timeline
        .iter()
        .filter(|e| e.evaluation.job_id == JOB)
        .map(|e| (e.at, e.evaluation.triggered_by.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            (now(), "node-update"),
            (now().add(10 * MINUTE), "queued-allocs")
        ]
    );
    let down = &s.timeline[0].job.plan;
    assert_eq!(down.failed_placements.len(), 1);
    assert!(down.place.iter().all(|p| p.node_id.is_none()));
    let blocked = down.blocked_eval.as_ref().expect("a blocked evaluation");
    let rerun = s
        .timeline
        .iter()
        .find(|e| e.evaluation.triggered_by == "queued-allocs")
        .unwrap();
    assert_eq!(rerun.evaluation.id, blocked.id);
    let placed: Vec<Option<&str>> = rerun
        .job
        .plan
        .place
        .iter()
        .map(|p| p.node_id.as_deref())
        .collect();
    assert_eq!(placed, [Some(spare.as_str())]);
}

/// A system evaluation that finds no room for two groups leaves a blocked
/// evaluation per group (`more_blocked_evals`); the tracker keeps one per
/// job, the newest (nomad/blocked_evals.go `processBlockJobDuplicate`,
/// :240 at 1.3.0, :298 at 2.0.5), so the last one made is still pending.
#[test]
fn blocked_evals_go_v1_3_0_a_system_job_keeps_its_newest_blocked_evaluation() {
    let mut c = Cluster::new();
    let mut job = system_job("sys");
    job.task_groups[0].tasks[0].resources.as_mut().unwrap().cpu = 5000;
    let mut api = job.task_groups[0].clone();
    api.name = "api".into();
    job.task_groups.push(api);
    c.job(job);
    let node = c.node("down");
    eligible(&mut c);
    let s = story(&c, "1.3.0", &[&format!("node-up:{node}")], None);
    let sys = s
        .timeline
        .iter()
        .find(|e| e.evaluation.job_id == "sys")
        .expect("the system job's evaluation");
    let plan = &sys.job.plan;
    assert_eq!(plan.failed_placements.len(), 2, "{plan:?}");
    let first = plan.blocked_eval.as_ref().expect("a blocked evaluation");
    assert_eq!(plan.more_blocked_evals.len(), 1, "{plan:?}");
    let newest = &plan.more_blocked_evals[0];
    let pending: Vec<&str> = s
        .pending
        .iter()
        .filter(|p| p.job_id == "sys")
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(pending, [newest.id.as_str()]);
    assert_ne!(first.id, newest.id);
}
