//! The disconnect rules of Nomad 1.4.14 to 1.10 (catalogue D-1 to F-1): each
//! switch under the last release before it and the first with it, in every
//! series that got it, and Nomad's tests of the change ported under the
//! profile of their tag.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{
    AllocSet, Bucket, DesiredChanges, RescheduleContext, Rules, TaintContext, TaintedNodes,
    alloc_name, classify, desc, trigger,
};
use plan_inspect::report::JobReport;
use plan_inspect::time::SECOND;
use plan_inspect::version::{Release, VersionRequest, v};

use crate::common::*;

/// The report of job `id` replayed as Nomad `release`.
fn replay_as(c: &mut Cluster, release: Release, id: &str) -> JobReport {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay_job(id)
}

/// The catalogue's D-1 example: a service group with
/// `max_client_disconnect = 1h` and a reschedule delay of 30s, attempts 3,
/// whose one allocation sits on a node that just disconnected.
fn disconnecting_with_policy(c: &mut Cluster, attempts: i64) -> String {
    let mut job = resumable(1, Some(HOUR));
    job.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts,
        interval: 24 * HOUR,
        delay: 30 * SECOND,
        delay_function: "constant".into(),
        max_delay: 0,
        unlimited: false,
    });
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).client_status = status::RUNNING.into();
    c.set_node_status(&id, node_status::DISCONNECTED);
    id
}

/// Before D-1 the disconnecting allocation is replaced in the same plan;
/// from D-1 on (1.4.14, 1.5.10, 1.6.3, 1.7.0) its policy delays the
/// replacement to a follow-up eval at now + 30s, which its unknown update
/// carries, and the timeout eval is still made
/// (v1.6.3 scheduler/reconcile_util.go:480, reconcile.go:1267).
#[test]
fn disconnecting_allocs_follow_the_reschedule_policy_from_d1() {
    for (before, from) in [
        (v(1, 4, 13), v(1, 4, 14)),
        (v(1, 5, 9), v(1, 5, 10)),
        (v(1, 6, 2), v(1, 6, 3)),
        (v(1, 6, 2), v(1, 7, 0)),
    ] {
        let mut c = Cluster::new();
        let id = disconnecting_with_policy(&mut c, 3);

        let old = replay_as(&mut c, before, JOB);
        assert_eq!(old.plan.place.len(), 1, "{before}");
        assert_eq!(
            previous_id(&old.plan.place[0]).as_deref(),
            Some(id.as_str())
        );
        assert_eq!(group(&old, "web").reschedule_now, [id.as_str()], "{before}");
        assert_eq!(old.plan.followup_evals.len(), 1, "{before}");

        let new = replay_as(&mut c, from, JOB);
        assert!(new.plan.place.is_empty(), "{from}");
        assert!(new.plan.stop.is_empty(), "{from}");
        let web = group(&new, "web");
        assert!(web.reschedule_now.is_empty(), "{from}");
        assert_eq!(web.reschedule_later.len(), 1, "{from}");
        assert_eq!(web.reschedule_later[0].at, now().add(30 * SECOND));
        let evals = &new.plan.followup_evals;
        assert_eq!(evals.len(), 2, "{from}");
        let timeout = evals
            .iter()
            .find(|e| e.triggered_by == trigger::MAX_DISCONNECT_TIMEOUT)
            .unwrap();
        assert_eq!(timeout.wait_until, now().add(HOUR));
        let reschedule = evals
            .iter()
            .find(|e| e.triggered_by == trigger::RETRY_FAILED_ALLOC)
            .unwrap();
        assert_eq!(reschedule.wait_until, now().add(30 * SECOND));
        assert_eq!(reschedule.status_description, desc::RESCHEDULING_FOLLOWUP);
        assert_eq!(new.plan.disconnect_updates.len(), 1);
        assert_eq!(
            new.plan.disconnect_updates[0].followup_eval_id,
            reschedule.id
        );
        assert!(new.plan.attribute_updates.is_empty(), "{from}");
        // Untainted, it goes through the updates: ignored there.
        let ignore = DesiredChanges { ignore: 1, ..dc() };
        assert_eq!(web.desired_changes.reconciler, ignore, "{from}");
    }
}

/// From D-1 a disconnecting allocation whose policy allows no attempt is
/// never replaced while unknown: it stays untainted and counted.
#[test]
fn a_disconnecting_alloc_without_attempts_is_kept_from_d1() {
    let mut c = Cluster::new();
    disconnecting_with_policy(&mut c, 0);
    let old = replay_as(&mut c, v(1, 7, 0), JOB);
    assert_eq!(old.plan.place.len(), 0);
    assert!(group(&old, "web").reschedule_later.is_empty());
    assert_eq!(old.plan.disconnect_updates.len(), 1);
    assert_eq!(old.plan.followup_evals.len(), 1);
    let seed = replay_as(&mut c, v(1, 6, 2), JOB);
    assert_eq!(seed.plan.place.len(), 1);
}

/// The follow-up eval of a D-1 delayed reschedule: the unknown allocation
/// whose `FollowupEvalID` is this eval is timed from its disconnect, so it
/// is rescheduled now, and not stopped (v1.6.3
/// scheduler/reconcile_util.go:495, reconcile.go:824).
#[test]
fn the_reschedule_eval_of_an_unknown_alloc_replaces_it_without_stopping_it() {
    let mut c = Cluster::new();
    let id = disconnecting_with_policy(&mut c, 3);
    client_state(&mut c, &id, status::UNKNOWN, 30 * SECOND);
    let a = c.alloc_mut(&id);
    a.client_status = status::UNKNOWN.into();
    a.followup_eval_id = "reschedule-eval".into();
    c.snapshot.eval_id = Some("reschedule-eval".into());

    let r = replay_as(&mut c, v(1, 6, 3), JOB);
    let web = group(&r, "web");
    assert_eq!(web.buckets[Bucket::Untainted].len(), 1);
    assert_eq!(web.reschedule_now, [id.as_str()]);
    assert_eq!(r.plan.place.len(), 1);
    assert_eq!(previous_id(&r.plan.place[0]).as_deref(), Some(id.as_str()));
    assert!(
        r.plan.stop.is_empty(),
        "the unknown allocation is not stopped"
    );
    assert_eq!(
        web.desired_changes.reconciler,
        DesiredChanges { place: 1, ..dc() }
    );

    // Before D-1 the unknown allocation is ignored, so not counted: a fresh
    // allocation fills the group, with no link to it.
    let old = replay_as(&mut c, v(1, 6, 2), JOB);
    assert_eq!(group(&old, "web").buckets[Bucket::Ignore].len(), 1);
    assert_eq!(old.plan.place.len(), 1);
    assert_eq!(old.plan.place[0].previous_alloc_id, None);
}

/// The same reschedule while the deployment is paused: off the ready path
/// Nomad stops the previous allocation of a rescheduled placement unless it
/// is a disconnect update, so the unknown one is stopped, in every release
/// from D-1 (v1.4.14 scheduler/reconcile.go:869-876, v1.9.7 :919-926,
/// v1.11.1 scheduler/reconciler/reconcile_cluster.go:961-968).
#[test]
fn reconcile_go_869_876_v1_4_14_a_paused_deployment_stops_the_rescheduled_unknown_alloc() {
    let mut c = Cluster::new();
    let mut job = resumable(1, Some(HOUR));
    // The block keeps the group's disconnect support from F-1 on.
    job.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: HOUR,
        ..DisconnectStrategy::default()
    });
    job.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 3,
        interval: 24 * HOUR,
        delay: 30 * SECOND,
        delay_function: "constant".into(),
        max_delay: 0,
        unlimited: false,
    });
    let job = c.job(job);
    let id = unknown_alloc(&mut c, &job, 0, 30 * SECOND);
    c.alloc_mut(&id).followup_eval_id = "reschedule-eval".into();
    c.snapshot.eval_id = Some("reschedule-eval".into());
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::PAUSED.into();

    for release in [v(1, 4, 14), v(1, 9, 7), v(1, 11, 1), v(2, 0, 0)] {
        let r = replay_as(&mut c, release, JOB);
        let web = group(&r, "web");
        assert_eq!(web.reschedule_now, [id.as_str()], "{release}");
        assert_eq!(r.plan.place.len(), 1, "{release}");
        assert_eq!(previous_id(&r.plan.place[0]).as_deref(), Some(id.as_str()));
        let stopped: Vec<String> = r.plan.stop.iter().map(|s| s.alloc_id.to_string()).collect();
        assert_eq!(stopped, [id.as_str()], "{release}");
        assert_eq!(
            web.desired_changes.reconciler,
            DesiredChanges {
                place: 1,
                stop: 1,
                ..dc()
            },
            "{release}"
        );
    }
}

/// A replacement that expired on its disconnected node, beaten by the
/// original reconnecting: Nomad takes the reconnect's stops out of the lost
/// allocations but merges the expiring ones in after, unfiltered, so the
/// replacement is stopped again as lost and, in a group of two, replaced
/// (v1.9.7 scheduler/reconcile.go:482, :497-501; v1.11.1
/// reconciler/reconcile_cluster.go:435-446).
#[test]
fn reconcile_go_482_497_501_v1_9_7_an_expiring_replacement_stopped_on_reconnect_is_also_lost() {
    let mut c = Cluster::new();
    let mut job = resumable(2, Some(5 * MINUTE));
    job.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: 5 * MINUTE,
        ..DisconnectStrategy::default()
    });
    let job = c.job(job);
    let original = c.alloc(&job, 0);
    client_state(&mut c, &original, status::UNKNOWN, 2 * MINUTE);
    let replacement = unknown_alloc(&mut c, &job, 0, 10 * MINUTE);
    c.alloc_mut(&replacement).create_index = 100;
    c.alloc_mut(&original).next_allocation = replacement.as_str().into();

    for release in [v(1, 7, 2), v(1, 9, 7), v(1, 11, 1), v(2, 0, 0)] {
        let r = replay_as(&mut c, release, JOB);
        let web = group(&r, "web");
        assert_eq!(web.buckets[Bucket::Expiring].len(), 1, "{release}");
        let stops: Vec<(String, &str)> = r
            .plan
            .stop
            .iter()
            .map(|s| (s.alloc_id.to_string(), s.description))
            .collect();
        assert_eq!(
            stops,
            [
                (replacement.clone(), desc::RECONNECTED),
                (replacement.clone(), desc::LOST)
            ],
            "{release}"
        );
        assert_eq!(r.plan.place.len(), 1, "{release}");
        assert_eq!(
            previous_id(&r.plan.place[0]).as_deref(),
            Some(replacement.as_str()),
            "{release}"
        );
        assert!(r.plan.place[0].lost, "{release}");
        assert_eq!(web.desired_changes.reconciler.stop, 2, "{release}");
    }
}

/// From D-1 an unknown allocation counts toward the group: a group of two
/// with one unknown gets one placement instead of two, the unknown one now
/// ignored by the updates instead of by the buckets; and the surplus
/// count leaves the unknown one out (v1.6.3 reconcile.go:997).
#[test]
fn unknown_allocs_count_toward_the_group_from_d1() {
    let mut c = Cluster::new();
    let job = c.job(resumable(2, Some(HOUR)));
    unknown_alloc(&mut c, &job, 0, MINUTE);
    for (release, place, ignore) in [(v(1, 5, 9), 2, 1), (v(1, 5, 10), 1, 1)] {
        let r = replay_as(&mut c, release, JOB);
        let changes = &group(&r, "web").desired_changes.reconciler;
        assert_eq!(
            (changes.place, changes.ignore),
            (place, ignore),
            "{release}"
        );
    }
    // One unknown and one running in a group of one: the surplus count
    // leaves the unknown one out, so nothing is over count and both stay.
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(HOUR)));
    unknown_alloc(&mut c, &job, 0, MINUTE);
    c.alloc(&job, 1);
    let r = replay_as(&mut c, v(1, 7, 0), JOB);
    assert!(r.plan.place.is_empty());
    assert!(r.plan.stop.is_empty());
    assert_eq!(group(&r, "web").buckets[Bucket::Untainted].len(), 2);
}

/// A batch allocation of a disconnect group that completed, still desired to
/// run: untainted before D-1, ignored (and re-placed) with D-1, untainted
/// again from D-2 (1.5.17, 1.6.10, 1.7.7, 1.8.0; v1.7.7
/// scheduler/reconcile_util.go:298): the catalogue's D-2 example.
#[test]
fn a_complete_batch_alloc_is_ignored_only_between_d1_and_d2() {
    let mut c = Cluster::new();
    let mut job = resumable(1, Some(HOUR));
    job.job_type = "batch".into();
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).client_status = status::COMPLETE.into();
    for (release, bucket) in [
        (v(1, 4, 13), Bucket::Untainted),
        (v(1, 4, 14), Bucket::Ignore),
        (v(1, 5, 16), Bucket::Ignore),
        (v(1, 5, 17), Bucket::Untainted),
        (v(1, 6, 9), Bucket::Ignore),
        (v(1, 6, 10), Bucket::Untainted),
        (v(1, 7, 6), Bucket::Ignore),
        (v(1, 7, 7), Bucket::Untainted),
        (v(1, 8, 0), Bucket::Untainted),
    ] {
        let r = replay_as(&mut c, release, JOB);
        let web = group(&r, "web");
        assert_eq!(web.buckets[bucket].len(), 1, "{release}");
        let placed = usize::from(bucket == Bucket::Ignore);
        assert_eq!(r.plan.place.len(), placed, "{release}");
    }
}

/// A server-stopped allocation of a disconnect group stays ignored from D-1
/// on, through D-2.
#[test]
fn a_server_stopped_alloc_stays_ignored_after_d2() {
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(HOUR)));
    let id = c.alloc(&job, 0);
    let a = c.alloc_mut(&id);
    a.client_status = status::COMPLETE.into();
    a.desired_status = status::STOP.into();
    for (release, bucket) in [
        (v(1, 6, 2), Bucket::Untainted),
        (v(1, 6, 3), Bucket::Ignore),
        (v(1, 6, 10), Bucket::Ignore),
    ] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(group(&r, "web").buckets[bucket].len(), 1, "{release}");
    }
}

/// The filterByTainted cases of D-1 that do not depend on reconnects:
/// terminal allocations of a disconnect group are ignored, unknown ones
/// untainted.
///
/// TestAllocSet_filterByTainted, cases "disco-client-untainted-reconnect-failed-and-replaced"
/// ("ignored-reconnect-complete", "ignored-reconnect-lost") and
/// "disco-client-disconnect" ("untainted-unknown"),
/// scheduler/reconcile_util_test.go at v1.6.3.
#[test]
fn test_alloc_set_filter_by_tainted_d1_cases_v1_6_3() {
    let mut job = resumable(1, Some(5 * MINUTE));
    job.task_groups[0].name = "web".into();
    let job = Arc::new(job);
    let alloc = |id: &str, client: &str, desired: &str, node: &str, unknown: bool| Allocation {
        id: id.into(),
        name: id.into(),
        client_status: client.into(),
        desired_status: desired.into(),
        job: Some(job.clone()),
        node_id: node.into(),
        task_group: "web".into(),
        alloc_states: if unknown {
            vec![AllocState {
                field: AllocStateField::ClientStatus,
                value: status::UNKNOWN.into(),
                time: now(),
            }]
            .into()
        } else {
            vec![].into()
        },
        ..Allocation::default()
    };
    let disconnected = Node {
        id: "disconnected".into(),
        status: node_status::DISCONNECTED.into(),
        ..Node::default()
    };
    let mut tainted = TaintedNodes::default();
    tainted.insert("disconnected", Some(&disconnected));
    let rules = Rules::new(v(1, 6, 3), true);
    let ctx = TaintContext {
        tainted: &tainted,
        rules: &rules,
        now: now(),
    };
    let cases = [
        (
            alloc(
                "ignored-reconnect-complete",
                status::COMPLETE,
                status::RUN,
                "normal",
                false,
            ),
            Bucket::Ignore,
        ),
        (
            alloc(
                "ignored-reconnect-lost",
                status::LOST,
                status::STOP,
                "normal",
                true,
            ),
            Bucket::Ignore,
        ),
        (
            alloc(
                "untainted-unknown",
                status::UNKNOWN,
                status::RUN,
                "disconnected",
                true,
            ),
            Bucket::Untainted,
        ),
    ];
    for (a, bucket) in &cases {
        assert_eq!(classify(a, ctx), *bucket, "{}", a.id);
    }
    let seed = Rules::default();
    let seed_ctx = TaintContext {
        rules: &seed,
        ..ctx
    };
    assert_eq!(classify(&cases[0].0, seed_ctx), Bucket::Untainted);
    assert_eq!(classify(&cases[2].0, seed_ctx), Bucket::Ignore);
}

/// TestAllocSet_filterByRescheduleable, scheduler/reconcile_util_test.go at
/// v1.6.3, run under 1.6.3; the "ignore unknown disconnecting allocs" cases
/// rest on A-3's skip of unknown allocations (here of a group that would
/// reschedule them).
#[test]
fn test_alloc_set_filter_by_rescheduleable_v1_6_3() {
    let tg = |name: &str, attempts: i64| TaskGroup {
        name: name.into(),
        reschedule_policy: Some(ReschedulePolicy {
            attempts,
            unlimited: false,
            ..ReschedulePolicy::default()
        }),
        ..TaskGroup::default()
    };
    let job_of_group = |g: TaskGroup| {
        let mut j = mock_job();
        j.task_groups[0] = g.into();
        Arc::new(j)
    };
    let no_reschedule = job_of_group(tg("noRescheduleTG", 0));
    let reschedule = job_of_group(tg("rescheduleTG", 1));
    let running = |id: &str, job: &Arc<Job>, group: &str| Allocation {
        id: id.into(),
        client_status: status::RUNNING.into(),
        job: Some(job.clone()),
        task_group: group.into(),
        ..Allocation::default()
    };
    let unknown = |id: &str| Allocation {
        client_status: status::UNKNOWN.into(),
        ..running(id, &reschedule, "rescheduleTG")
    };
    let rules = Rules::new(v(1, 6, 3), true);
    let cases = [
        (
            "batch ignore unknown disconnecting allocs",
            true,
            true,
            unknown("disconnection1"),
            (false, false),
        ),
        (
            "service ignore unknown disconnecting allocs",
            false,
            true,
            unknown("disconnection1"),
            (false, false),
        ),
        (
            "batch disconnecting allocation no reschedule",
            true,
            true,
            running("untainted1", &no_reschedule, "noRescheduleTG"),
            (true, false),
        ),
        (
            "batch disconnecting allocation reschedule",
            true,
            true,
            running("rescheduleNow1", &reschedule, "rescheduleTG"),
            (false, true),
        ),
        (
            "service disconnecting allocation no reschedule",
            false,
            true,
            running("untainted1", &no_reschedule, "noRescheduleTG"),
            (true, false),
        ),
        (
            "service disconnecting allocation reschedule",
            false,
            true,
            running("rescheduleNow1", &reschedule, "rescheduleTG"),
            (false, true),
        ),
        (
            "service running allocation no reschedule",
            true,
            false,
            running("untainted1", &no_reschedule, "noRescheduleTG"),
            (true, false),
        ),
    ];
    for (name, batch, disconnecting, alloc, (untainted, resched_now)) in &cases {
        let set: AllocSet = std::iter::once(alloc).collect();
        let ctx = RescheduleContext {
            rules: &rules,
            batch: *batch,
            now: now(),
            eval_id: "evailID",
            deployment: None,
        };
        let got = set.filter_by_rescheduleable(ctx, *disconnecting);
        assert_eq!(got.untainted.contains(&alloc.id), *untainted, "{name}");
        assert_eq!(got.now.contains(&alloc.id), *resched_now, "{name}");
        assert!(got.later.is_empty(), "{name}");
    }
}

/// The D-1 quirk (open point 4): a running batch allocation asked to
/// force-reschedule is both untainted and rescheduled now, from 1.4.14 until
/// E-1 (v1.6.3 scheduler/reconcile_util.go:401-408).
#[test]
fn a_force_rescheduled_running_batch_alloc_is_in_both_sets_under_d1() {
    let job = Arc::new(mock_job());
    let alloc = Allocation {
        id: "a".into(),
        client_status: status::RUNNING.into(),
        desired_status: status::RUN.into(),
        desired_transition: DesiredTransition {
            force_reschedule: Some(true),
            ..DesiredTransition::default()
        },
        job: Some(job),
        task_group: "web".into(),
        ..Allocation::default()
    };
    let set: AllocSet = std::iter::once(&alloc).collect();
    for (release, now_too) in [(v(1, 6, 2), false), (v(1, 6, 3), true)] {
        let rules = Rules::new(release, true);
        let ctx = RescheduleContext {
            rules: &rules,
            batch: true,
            now: now(),
            eval_id: "e",
            deployment: None,
        };
        let got = set.filter_by_rescheduleable(ctx, false);
        assert!(got.untainted.contains(&Id::from("a")), "{release}");
        assert_eq!(got.now.contains(&Id::from("a")), now_too, "{release}");
    }
}

/// A service group of `count` with `prevent_reschedule_on_lost` as given,
/// whose first allocation sits on a node that is down.
fn on_a_down_node(c: &mut Cluster, prevent: bool, mcd: Option<plan_inspect::time::Duration>) {
    let mut job = resumable(1, mcd);
    job.task_groups[0].prevent_reschedule_on_lost = prevent;
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.set_node_status(&id, node_status::DOWN);
}

/// The catalogue's D-3 example: node down, group with
/// `prevent_reschedule_on_lost = true`: lost and replaced before 1.7.2; from
/// 1.7.2 (and 1.8.0) disconnecting, marked unknown with no follow-up eval,
/// and kept untainted, nothing placed (v1.7.2 scheduler/reconcile_util.go:338,
/// reconcile.go:513, :1499).
#[test]
fn prevent_reschedule_on_lost_keeps_a_down_nodes_alloc_from_d3() {
    let mut c = Cluster::new();
    on_a_down_node(&mut c, true, None);
    let old = replay_as(&mut c, v(1, 7, 1), JOB);
    assert_eq!(group(&old, "web").buckets[Bucket::Lost].len(), 1);
    assert_eq!(old.plan.place.len(), 1);
    assert_eq!(old.plan.stop[0].description, desc::LOST);
    for release in [v(1, 7, 2), v(1, 8, 0)] {
        let r = replay_as(&mut c, release, JOB);
        let web = group(&r, "web");
        assert_eq!(web.buckets[Bucket::Disconnecting].len(), 1, "{release}");
        assert!(
            r.plan.place.is_empty() && r.plan.stop.is_empty(),
            "{release}"
        );
        assert_eq!(r.plan.disconnect_updates.len(), 1, "{release}");
        assert_eq!(r.plan.disconnect_updates[0].followup_eval_id, "");
        assert!(r.plan.followup_evals.is_empty(), "{release}");
        assert_eq!(
            web.desired_changes.reconciler,
            DesiredChanges { ignore: 1, ..dc() }
        );
    }
    // Without the flag a 1.7.2 down node still loses the allocation.
    let mut c = Cluster::new();
    on_a_down_node(&mut c, false, None);
    let r = replay_as(&mut c, v(1, 7, 2), JOB);
    assert_eq!(group(&r, "web").buckets[Bucket::Lost].len(), 1);
    assert_eq!(r.plan.place.len(), 1);
}

/// An unknown allocation past its `max_client_disconnect`: lost before
/// 1.7.2, `expiring` from 1.7.2, and then still stopped as lost and
/// replaced, unless the group prevents rescheduling on lost, which keeps it
/// untainted (v1.7.2 scheduler/reconcile_util.go:316, reconcile.go:487).
#[test]
fn an_expired_unknown_alloc_is_expiring_from_d3() {
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(5 * MINUTE)));
    let id = unknown_alloc(&mut c, &job, 0, 10 * MINUTE);
    let old = replay_as(&mut c, v(1, 7, 1), JOB);
    assert_eq!(group(&old, "web").buckets[Bucket::Lost].len(), 1);
    let r = replay_as(&mut c, v(1, 7, 2), JOB);
    let web = group(&r, "web");
    assert!(web.buckets[Bucket::Lost].is_empty());
    assert_eq!(web.buckets[Bucket::Expiring][0].id, id);
    for report in [&old, &r] {
        assert_eq!(report.plan.stop.len(), 1);
        assert_eq!(report.plan.stop[0].description, desc::LOST);
        assert_eq!(report.plan.place.len(), 1);
    }

    let mut kept = (*job).clone();
    kept.task_groups[0].prevent_reschedule_on_lost = true;
    let kept = Arc::new(kept);
    c.job((*kept).clone());
    c.alloc_mut(&id).job = Some(kept);
    let r = replay_as(&mut c, v(1, 7, 2), JOB);
    let web = group(&r, "web");
    assert_eq!(web.buckets[Bucket::Expiring].len(), 1);
    assert!(r.plan.stop.is_empty() && r.plan.place.is_empty());
    assert_eq!(
        web.desired_changes.reconciler,
        DesiredChanges { ignore: 1, ..dc() }
    );
}

/// Stopping a job stops its expiring allocations that are still unknown
/// (v1.7.2 scheduler/reconcile.go:394).
#[test]
fn a_stopped_job_stops_its_expiring_unknown_allocs() {
    let mut c = Cluster::new();
    let mut job = resumable(1, Some(5 * MINUTE));
    job.stop = true;
    let job = c.job(job);
    let id = unknown_alloc(&mut c, &job, 0, 10 * MINUTE);
    let r = replay_as(&mut c, v(1, 7, 2), JOB);
    assert_eq!(group(&r, "web").buckets[Bucket::Expiring].len(), 1);
    assert_eq!(r.plan.stop.len(), 1);
    assert_eq!(r.plan.stop[0].alloc_id, id);
    assert_eq!(r.plan.stop[0].description, desc::NOT_NEEDED);
    assert_eq!(r.plan.stop[0].client_status, None);
}

/// TestReconciler_LostNode_PreventRescheduleOnLost, scheduler/reconcile_test.go
/// at v1.7.2, run under 1.7.2: five allocations of a group of five, the
/// first on a down node, the second on a disconnected one, the last failed;
/// the servers support disconnected clients, and the cases without
/// `max_client_disconnect` rest on the group not supporting them.
#[test]
fn test_reconciler_lost_node_prevent_reschedule_on_lost_v1_7_2() {
    struct Case {
        name: &'static str,
        prevent: bool,
        mcd: Option<plan_inspect::time::Duration>,
        attempts: i64,
        place: usize,
        stop: usize,
        ignore: u64,
        disconnect: usize,
    }
    let cases = [
        Case {
            name: "PreventRescheduleOnLost off, MaxClientDisconnect off, Reschedule off",
            prevent: false,
            mcd: None,
            attempts: 0,
            place: 2,
            stop: 2,
            ignore: 3,
            disconnect: 0,
        },
        Case {
            name: "PreventRescheduleOnLost on, MaxClientDisconnect off, Reschedule off",
            prevent: true,
            mcd: None,
            attempts: 0,
            place: 0,
            stop: 0,
            ignore: 5,
            disconnect: 2,
        },
        Case {
            name: "PreventRescheduleOnLost off, MaxClientDisconnect on, Reschedule off",
            prevent: false,
            mcd: Some(10 * SECOND),
            attempts: 0,
            place: 2,
            stop: 1,
            ignore: 4,
            disconnect: 1,
        },
        Case {
            name: "PreventRescheduleOnLost on, MaxClientDisconnect on, Reschedule off",
            prevent: true,
            mcd: Some(10 * SECOND),
            attempts: 0,
            place: 1,
            stop: 0,
            ignore: 5,
            disconnect: 2,
        },
        Case {
            name: "PreventRescheduleOnLost off, MaxClientDisconnect off, Reschedule on",
            prevent: false,
            mcd: None,
            attempts: 1,
            place: 3,
            stop: 3,
            ignore: 2,
            disconnect: 0,
        },
        Case {
            name: "PreventRescheduleOnLost on, MaxClientDisconnect off, Reschedule on",
            prevent: true,
            mcd: None,
            attempts: 1,
            place: 1,
            stop: 1,
            ignore: 4,
            disconnect: 2,
        },
        Case {
            name: "PreventRescheduleOnLost off, MaxClientDisconnect on, Reschedule on",
            prevent: false,
            mcd: Some(10 * SECOND),
            attempts: 1,
            place: 3,
            stop: 1,
            ignore: 3,
            disconnect: 1,
        },
    ];
    for case in cases {
        let mut c = Cluster::new();
        let mut job = mock_job();
        let tg = &mut job.task_groups[0];
        tg.count = 5;
        tg.prevent_reschedule_on_lost = case.prevent;
        tg.max_client_disconnect = case.mcd;
        tg.reschedule_policy = Some(ReschedulePolicy {
            attempts: case.attempts,
            ..ReschedulePolicy::default()
        });
        let job = c.job(job);
        let ids: Vec<String> = (0..5).map(|i| c.alloc(&job, i)).collect();
        c.alloc_mut(&ids[4]).client_status = status::FAILED.into();
        c.set_node_status(&ids[0], node_status::DOWN);
        c.set_node_status(&ids[1], node_status::DISCONNECTED);
        c.snapshot.supports_disconnected_clients = Some(true);
        let r = replay_as(&mut c, v(1, 7, 2), JOB);
        let p = &r.plan;
        assert_eq!(
            (p.place.len(), p.stop.len(), p.disconnect_updates.len()),
            (case.place, case.stop, case.disconnect),
            "{}",
            case.name
        );
        let want = DesiredChanges {
            place: case.place as u64,
            stop: case.stop as u64,
            ignore: case.ignore,
            ..dc()
        };
        assert_eq!(
            group(&r, "web").desired_changes.reconciler,
            want,
            "{}",
            case.name
        );
    }
}

/// A group with `max_client_disconnect = 1h`, a reschedule delay of 30s and
/// the `disconnect` block `block`, its allocation on a disconnected node.
pub(crate) fn disconnecting_with_block(c: &mut Cluster, block: DisconnectStrategy) -> String {
    let id = disconnecting_with_policy(c, 3);
    let mut job = (*c.snapshot.jobs[0]).clone();
    job.task_groups[0].disconnect = Some(block);
    let job = c.job(job);
    c.alloc_mut(&id).job = Some(job);
    id
}

/// The catalogue's D-4a example: with a `disconnect` block (`replace` true
/// by the server's default) the disconnecting allocation is replaced in the
/// disconnect eval itself from 1.8.0 (D-4b), where 1.7.7 waits for the
/// reschedule delay (v1.8.0 nomad/structs/structs.go:11223,
/// scheduler/reconcile_util.go:508).
#[test]
fn a_disconnect_block_replaces_at_once_from_d4b() {
    let mut c = Cluster::new();
    let id = disconnecting_with_block(
        &mut c,
        DisconnectStrategy {
            lost_after: HOUR,
            ..DisconnectStrategy::default()
        },
    );
    let old = replay_as(&mut c, v(1, 7, 7), JOB);
    assert!(old.plan.place.is_empty());
    assert_eq!(group(&old, "web").reschedule_later.len(), 1);

    let new = replay_as(&mut c, v(1, 8, 0), JOB);
    let web = group(&new, "web");
    assert_eq!(web.reschedule_now, [id.as_str()]);
    assert!(web.reschedule_later.is_empty());
    assert_eq!(new.plan.place.len(), 1);
    assert_eq!(
        previous_id(&new.plan.place[0]).as_deref(),
        Some(id.as_str())
    );
    assert!(
        new.plan.stop.is_empty(),
        "a disconnecting allocation is not stopped"
    );
    assert_eq!(new.plan.disconnect_updates.len(), 1);
    let timeout = &new.plan.followup_evals[0];
    assert_eq!(timeout.triggered_by, trigger::MAX_DISCONNECT_TIMEOUT);
    assert_eq!(new.plan.disconnect_updates[0].followup_eval_id, timeout.id);
}

/// `disconnect { replace = false }`: from 1.8.0 the allocation is kept
/// unknown and counted, never replaced while its timeout runs.
#[test]
fn replace_false_keeps_the_disconnecting_alloc_from_d4() {
    let mut c = Cluster::new();
    disconnecting_with_block(
        &mut c,
        DisconnectStrategy {
            lost_after: HOUR,
            replace: Some(false),
            ..DisconnectStrategy::default()
        },
    );
    let r = replay_as(&mut c, v(1, 8, 0), JOB);
    let web = group(&r, "web");
    assert_eq!(web.buckets[Bucket::Disconnecting].len(), 1);
    assert!(web.reschedule_now.is_empty() && web.reschedule_later.is_empty());
    assert!(r.plan.place.is_empty() && r.plan.stop.is_empty());
    assert_eq!(r.plan.disconnect_updates.len(), 1);
    assert_eq!(r.plan.followup_evals.len(), 1);
    assert_eq!(r.plan.followup_evals[0].wait_until, now().add(HOUR));
}

/// From 1.8.0 `lost_after` times the expiry when `max_client_disconnect` is
/// not set (v1.8.0 nomad/structs/structs.go:7519, :11521): an allocation
/// unknown for 10 minutes with `lost_after = 5m` is expiring, then lost.
#[test]
fn lost_after_times_the_expiry_from_d4() {
    let mut c = Cluster::new();
    let mut job = resumable(1, None);
    job.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: 5 * MINUTE,
        ..DisconnectStrategy::default()
    });
    let job = c.job(job);
    let id = unknown_alloc(&mut c, &job, 0, 10 * MINUTE);
    let r = replay_as(&mut c, v(1, 8, 0), JOB);
    assert_eq!(group(&r, "web").buckets[Bucket::Expiring][0].id, id);
    assert_eq!(r.plan.stop[0].description, desc::LOST);
    assert_eq!(r.plan.place.len(), 1);
    let old = replay_as(&mut c, v(1, 7, 7), JOB);
    assert!(group(&old, "web").buckets[Bucket::Expiring].is_empty());
}

/// From 1.8.0 `stop_on_client_after` delays the replacement of a lost
/// allocation like `stop_after_client_disconnect` (v1.8.0
/// nomad/structs/structs.go:7534): no placement, a follow-up eval instead.
#[test]
fn stop_on_client_after_delays_lost_replacements_from_d4() {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 1;
    job.task_groups[0].disconnect = Some(DisconnectStrategy {
        stop_on_client_after: Some(MINUTE),
        ..DisconnectStrategy::default()
    });
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.set_node_status(&id, node_status::DOWN);
    let old = replay_as(&mut c, v(1, 7, 7), JOB);
    assert_eq!(old.plan.place.len(), 1);
    assert!(old.plan.followup_evals.is_empty());
    let new = replay_as(&mut c, v(1, 8, 0), JOB);
    assert!(new.plan.place.is_empty());
    assert_eq!(new.plan.followup_evals.len(), 1);
    assert_eq!(
        new.plan.followup_evals[0].triggered_by,
        trigger::RETRY_FAILED_ALLOC
    );
    assert_eq!(
        new.plan.stop[0].followup_eval_id.as_deref(),
        Some(new.plan.followup_evals[0].id.as_str())
    );
}

/// F-1 (1.10.0): `prevent_reschedule_on_lost` is ignored again: the
/// allocation of a down node is lost and replaced (v1.10.0
/// nomad/structs/structs.go:11433), where 1.9.7 keeps it.
#[test]
fn prevent_reschedule_on_lost_is_ignored_from_f1() {
    let mut c = Cluster::new();
    on_a_down_node(&mut c, true, None);
    let old = replay_as(&mut c, v(1, 9, 7), JOB);
    assert_eq!(group(&old, "web").buckets[Bucket::Disconnecting].len(), 1);
    assert!(old.plan.place.is_empty());
    let new = replay_as(&mut c, v(1, 10, 0), JOB);
    assert_eq!(group(&new, "web").buckets[Bucket::Lost].len(), 1);
    assert_eq!(new.plan.place.len(), 1);
    assert_eq!(new.plan.stop[0].description, desc::LOST);
}

/// F-1 (1.10.0): `stop_after_client_disconnect` is ignored; only
/// `disconnect.stop_on_client_after` delays a lost replacement.
#[test]
fn stop_after_client_disconnect_is_ignored_from_f1() {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 1;
    job.task_groups[0].stop_after_client_disconnect = Some(MINUTE);
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.set_node_status(&id, node_status::DOWN);
    let old = replay_as(&mut c, v(1, 9, 7), JOB);
    assert!(old.plan.place.is_empty());
    assert_eq!(old.plan.followup_evals.len(), 1);
    let new = replay_as(&mut c, v(1, 10, 0), JOB);
    assert_eq!(new.plan.place.len(), 1);
    assert!(new.plan.followup_evals.is_empty());
}

/// F-1 (1.10.0): an expiring allocation of a group with
/// `disconnect { replace = false }` stays untainted; 1.8 and 1.9 looked at
/// the legacy flag only and lost it (v1.10.0 scheduler/reconcile.go:498,
/// v1.9.7 :497).
#[test]
fn replace_false_keeps_expiring_allocs_from_f1() {
    let mut c = Cluster::new();
    let mut job = resumable(1, None);
    job.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: 5 * MINUTE,
        replace: Some(false),
        ..DisconnectStrategy::default()
    });
    let job = c.job(job);
    unknown_alloc(&mut c, &job, 0, 10 * MINUTE);
    let old = replay_as(&mut c, v(1, 9, 7), JOB);
    assert_eq!(group(&old, "web").buckets[Bucket::Expiring].len(), 1);
    assert_eq!(old.plan.place.len(), 1);
    let new = replay_as(&mut c, v(1, 10, 0), JOB);
    assert_eq!(group(&new, "web").buckets[Bucket::Expiring].len(), 1);
    assert!(new.plan.place.is_empty() && new.plan.stop.is_empty());
}

/// F-2 (1.10.1, 1.11.0): a terminal canary with a migrate transition is
/// migrated (stopped and placed again) instead of staying untainted
/// (v1.10.1 scheduler/reconcile_util.go:310).
#[test]
fn a_terminal_canary_to_migrate_is_migrated_from_f2() {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 1;
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    let a = c.alloc_mut(&id);
    a.client_status = status::FAILED.into();
    a.deployment_status = Some(AllocDeploymentStatus {
        canary: true,
        ..AllocDeploymentStatus::default()
    });
    a.desired_transition.migrate = Some(true);
    for (release, bucket) in [
        (v(1, 10, 0), Bucket::Untainted),
        (v(1, 10, 1), Bucket::Migrate),
        (v(1, 11, 0), Bucket::Migrate),
    ] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(group(&r, "web").buckets[bucket].len(), 1, "{release}");
    }
    let r = replay_as(&mut c, v(1, 10, 1), JOB);
    assert_eq!(r.plan.stop[0].description, desc::MIGRATING);
    assert_eq!(group(&r, "web").desired_changes.reconciler.migrate, 1);
}

/// E-1 (1.8.1, 1.9.0): a stopped allocation whose replacement could not be
/// placed (`LastReschedule = "no placement"`) is rescheduled again, with
/// itself as the previous allocation; before, it was ignored and a fresh
/// allocation placed (v1.8.1 scheduler/reconcile_util.go:465,
/// nomad/structs/structs.go:11203). The group does not support disconnects
/// (server support off here), so the terminal allocation is untainted.
#[test]
fn a_stopped_alloc_whose_replacement_failed_is_rescheduled_from_e1() {
    let mut c = Cluster::new();
    let mut job = mock_job();
    job.task_groups[0].count = 1;
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    failed_since(&mut c, &id, HOUR);
    let a = c.alloc_mut(&id);
    a.desired_status = status::STOP.into();
    // With no events recorded the policy's attempts are all left (a tracker
    // with a nil event list would not be eligible at all).
    a.reschedule_tracker = Some(Box::new(RescheduleTracker {
        events: Some(vec![].into()),
        last_reschedule: "no placement".into(),
    }));
    c.snapshot.supports_disconnected_clients = Some(false);
    let old = replay_as(&mut c, v(1, 8, 0), JOB);
    assert!(group(&old, "web").reschedule_now.is_empty());
    assert_eq!(old.plan.place.len(), 1);
    assert_eq!(old.plan.place[0].previous_alloc_id, None);
    for release in [v(1, 8, 1), v(1, 9, 0)] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(group(&r, "web").reschedule_now, [id.as_str()], "{release}");
        assert_eq!(r.plan.place.len(), 1, "{release}");
        assert_eq!(previous_id(&r.plan.place[0]).as_deref(), Some(id.as_str()));
        assert!(r.plan.place[0].reschedule);
        assert_eq!(r.plan.stop[0].description, desc::RESCHEDULED);
    }
}

/// E-1 ends the D-1 quirk: from 1.8.1 an untainted batch allocation is no
/// longer a reschedule candidate, so a forced one is only untainted
/// (v1.8.1 scheduler/reconcile_util.go:417).
#[test]
fn a_force_rescheduled_running_batch_alloc_is_only_untainted_from_e1() {
    let alloc = Allocation {
        id: "a".into(),
        client_status: status::RUNNING.into(),
        desired_status: status::RUN.into(),
        desired_transition: DesiredTransition {
            force_reschedule: Some(true),
            ..DesiredTransition::default()
        },
        job: Some(Arc::new(mock_job())),
        task_group: "web".into(),
        ..Allocation::default()
    };
    let set: AllocSet = std::iter::once(&alloc).collect();
    for (release, now_too) in [(v(1, 8, 0), true), (v(1, 8, 1), false), (v(1, 9, 0), false)] {
        let rules = Rules::new(release, true);
        let ctx = RescheduleContext {
            rules: &rules,
            batch: true,
            now: now(),
            eval_id: "e",
            deployment: None,
        };
        let got = set.filter_by_rescheduleable(ctx, false);
        assert!(got.untainted.contains(&Id::from("a")), "{release}");
        assert_eq!(got.now.contains(&Id::from("a")), now_too, "{release}");
    }
}

/// `testJobNoMaxDisconnectSingle_Disconnected` of Nomad's table:
/// `disconnect { lost_after = 0, replace = false }`.
fn replace_false_without_lost_after() -> Arc<Job> {
    let mut j = mock_job();
    j.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: 0,
        replace: Some(false),
        ..DisconnectStrategy::default()
    });
    Arc::new(j)
}

/// An allocation of Nomad's filterByTainted table, group "web", desired to
/// run.
fn tainted_row(j: &Arc<Job>, id: &str, name: &str, node: &str, client: &str) -> Allocation {
    Allocation {
        name: name.into(),
        task_group: "web".into(),
        desired_status: status::RUN.into(),
        ..crate::tainted::alloc(j, id, node, client)
    }
}

/// TestAllocSet_filterByTainted, "new_definitions_using_disconnect_block",
/// case "disco-client-disconnect-unset-max-disconnect-single-instance-on"
/// (scheduler/reconcile_util_test.go at v1.9.0 and v1.10.0; v1.8.0 to v1.8.2
/// run the legacy jobs under that name): a running allocation of a group with
/// `replace = false` and no `lost_after` on a disconnected node is
/// disconnecting, not lost, although the group does not support disconnects.
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_disconnect_unset_max_disconnect_single_instance_on()
 {
    let j = replace_false_without_lost_after();
    let all = vec![tainted_row(
        &j,
        "disconnecting-running",
        "disconnecting-running",
        "disconnected",
        status::RUNNING,
    )];
    for release in [v(1, 9, 0), v(1, 10, 0)] {
        crate::tainted::run_in(
            release,
            &all,
            true,
            true,
            crate::tainted::Sets {
                disconnecting: crate::tainted::ids(&["disconnecting-running"]),
                ..crate::tainted::Sets::default()
            },
        );
    }
}

/// TestAllocSet_filterByTainted, "new_definitions_using_disconnect_block",
/// case "disco-client-reconnected-alloc-untainted-single-instance-on"
/// (scheduler/reconcile_util_test.go at v1.9.0 and v1.10.0): with
/// `replace = false` and no `lost_after`, an unknown allocation on a
/// disconnected node stays untainted and a running one is disconnecting;
/// a group without a disconnect block loses its running allocation; the
/// table's "down" node is not in its tainted map, so the unknown allocation
/// there is untainted too.
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_reconnected_alloc_untainted_single_instance_on() {
    let single = replace_false_without_lost_after();
    let mut plain = mock_job();
    plain.task_groups[0].disconnect = None;
    plain.task_groups[0].max_client_disconnect = None;
    let plain = Arc::new(plain);
    let unknown = |id: &str, node: &str| {
        crate::tainted::unknown_since(
            tainted_row(&single, id, "web", node, status::UNKNOWN),
            now(),
        )
    };
    let all = vec![
        unknown("untainted-unknown", "disconnected"),
        tainted_row(
            &single,
            "disconnecting-running",
            "web",
            "disconnected",
            status::RUNNING,
        ),
        tainted_row(
            &plain,
            "lost-running",
            "web",
            "disconnected",
            status::RUNNING,
        ),
        unknown("untainted-unknown-on-down-node", "down"),
    ];
    for release in [v(1, 9, 0), v(1, 10, 0)] {
        crate::tainted::run_in(
            release,
            &all,
            true,
            true,
            crate::tainted::Sets {
                untainted: crate::tainted::ids(&[
                    "untainted-unknown",
                    "untainted-unknown-on-down-node",
                ]),
                disconnecting: crate::tainted::ids(&["disconnecting-running"]),
                lost: crate::tainted::ids(&["lost-running"]),
                ..crate::tainted::Sets::default()
            },
        );
    }
}

/// Open point 2 (D-4a, F-1): `disconnect { replace = false }` without
/// `lost_after` does not keep the allocation of a down node in the count.
/// It is disconnecting and marked unknown (with no follow-up eval: there is
/// no lost timeout), but only a lost timeout or, in 1.8 and 1.9, the legacy
/// `prevent_reschedule_on_lost` puts it back with the untainted allocations
/// (v1.8.0 scheduler/reconcile.go:506-523, v1.9.7 :507-524, v1.10.0
/// :507-521, v1.11.1 scheduler/reconciler/reconcile_cluster.go:455), so a fresh
/// allocation takes its name. Before 1.8.0 the block is not read and the
/// allocation is lost and replaced.
#[test]
fn replace_false_without_lost_after_places_a_fresh_alloc_from_d4_to_1_11_1() {
    let mut c = Cluster::new();
    let mut job = (*replace_false_without_lost_after()).clone();
    job.task_groups[0].count = 1;
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.set_node_status(&id, node_status::DOWN);

    let old = replay_as(&mut c, v(1, 7, 7), JOB);
    assert_eq!(group(&old, "web").buckets[Bucket::Lost].len(), 1);
    assert_eq!(old.plan.stop[0].description, desc::LOST);
    assert_eq!(
        previous_id(&old.plan.place[0]).as_deref(),
        Some(id.as_str())
    );

    for release in [v(1, 8, 0), v(1, 9, 7), v(1, 10, 0), v(1, 11, 1)] {
        let r = replay_as(&mut c, release, JOB);
        let web = group(&r, "web");
        assert_eq!(web.buckets[Bucket::Disconnecting].len(), 1, "{release}");
        assert!(web.buckets[Bucket::Untainted].is_empty(), "{release}");
        assert!(r.plan.stop.is_empty(), "{release}");
        assert_eq!(r.plan.disconnect_updates.len(), 1, "{release}");
        assert_eq!(r.plan.disconnect_updates[0].followup_eval_id, "");
        assert!(r.plan.followup_evals.is_empty(), "{release}");
        assert_eq!(r.plan.place.len(), 1, "{release}");
        assert_eq!(r.plan.place[0].name, alloc_name(JOB, "web", 0));
        assert_eq!(r.plan.place[0].previous_alloc_id, None, "{release}");
        // 1.11 adds counters (Disconnect, RescheduleNow); Place is the same.
        assert_eq!(web.desired_changes.reconciler.place, 1, "{release}");
        assert_eq!(web.desired_changes.reconciler.stop, 0, "{release}");
    }

    // With the legacy flag as well, 1.8 and 1.9 keep it counted; 1.10
    // ignores the flag (F-1) and places again.
    let mut legacy = (*job).clone();
    legacy.task_groups[0].prevent_reschedule_on_lost = true;
    let legacy = c.job(legacy);
    c.alloc_mut(&id).job = Some(legacy);
    for (release, placed) in [(v(1, 8, 0), 0), (v(1, 9, 7), 0), (v(1, 10, 0), 1)] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(
            group(&r, "web").buckets[Bucket::Disconnecting].len(),
            1,
            "{release}"
        );
        assert_eq!(r.plan.place.len(), placed, "{release}");
        assert_eq!(r.plan.disconnect_updates.len(), 1, "{release}");
    }
}

/// Open point 3 (E-1 side effect): at the follow-up eval of a D-1 delayed
/// reschedule, an unknown *batch* allocation is untainted for
/// `shouldFilter`. Through 1.8.0 it still reached the reschedule check and
/// was replaced at once (also counted: the D-1 quirk, v1.8.0
/// scheduler/reconcile_util.go:414-421); from E-1 (1.8.1, 1.9.0) an
/// untainted allocation skips that check (v1.8.1 :414-418), so nothing is
/// placed and it waits, unknown, for its lost timeout. A service
/// allocation is not untainted there and is replaced in every release.
/// (The group uses `max_client_disconnect`, which 1.8 and 1.9 read.)
#[test]
fn a_batch_alloc_is_not_replaced_at_its_follow_up_eval_from_e1() {
    let mut c = Cluster::new();
    let id = disconnecting_with_policy(&mut c, 3);
    client_state(&mut c, &id, status::UNKNOWN, 30 * SECOND);
    let a = c.alloc_mut(&id);
    a.client_status = status::UNKNOWN.into();
    a.followup_eval_id = "reschedule-eval".into();
    c.snapshot.eval_id = Some("reschedule-eval".into());
    let mut batch = (*c.snapshot.jobs[0]).clone();
    batch.job_type = "batch".into();
    let batch = c.job(batch);
    c.alloc_mut(&id).job = Some(batch.clone());

    let r = replay_as(&mut c, v(1, 8, 0), JOB);
    let web = group(&r, "web");
    assert_eq!(web.buckets[Bucket::Untainted].len(), 1);
    assert_eq!(web.reschedule_now, [id.as_str()]);
    assert_eq!(r.plan.place.len(), 1);
    assert_eq!(previous_id(&r.plan.place[0]).as_deref(), Some(id.as_str()));
    for release in [v(1, 8, 1), v(1, 9, 0), v(1, 9, 7)] {
        let r = replay_as(&mut c, release, JOB);
        let web = group(&r, "web");
        assert_eq!(web.buckets[Bucket::Untainted].len(), 1, "{release}");
        assert!(web.reschedule_now.is_empty(), "{release}");
        assert!(web.reschedule_later.is_empty(), "{release}");
        assert!(
            r.plan.place.is_empty() && r.plan.stop.is_empty(),
            "{release}"
        );
        assert_eq!(
            web.desired_changes.reconciler,
            DesiredChanges { ignore: 1, ..dc() },
            "{release}"
        );
    }

    let mut service = (*batch).clone();
    service.job_type = "service".into();
    let service = c.job(service);
    c.alloc_mut(&id).job = Some(service);
    for release in [v(1, 8, 0), v(1, 8, 1), v(1, 9, 0)] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(group(&r, "web").reschedule_now, [id.as_str()], "{release}");
        assert_eq!(r.plan.place.len(), 1, "{release}");
    }
}

/// Between D-1 and E-1 an unknown batch allocation at its follow-up eval is
/// both untainted and rescheduled now (v1.6.3
/// scheduler/reconcile_util.go:402-413); Nomad seeds the name index with the
/// union of the sets by allocation ID (v1.6.3 scheduler/reconcile.go:504), so
/// its name is held once and the reschedule keeps it instead of being
/// renamed as a duplicate.
#[test]
fn reconcile_go_504_v1_6_3_an_alloc_in_two_sets_holds_its_name_once() {
    let mut c = Cluster::new();
    let mut job = resumable(3, Some(HOUR));
    job.job_type = "batch".into();
    job.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 3,
        interval: 24 * HOUR,
        delay: 30 * SECOND,
        delay_function: "constant".into(),
        max_delay: 0,
        unlimited: false,
    });
    let job = c.job(job);
    let id = unknown_alloc(&mut c, &job, 0, 30 * SECOND);
    c.alloc_mut(&id).followup_eval_id = "reschedule-eval".into();
    c.snapshot.eval_id = Some("reschedule-eval".into());
    c.alloc(&job, 1);

    for release in [v(1, 6, 3), v(1, 8, 0)] {
        let r = replay_as(&mut c, release, JOB);
        let web = group(&r, "web");
        assert_eq!(web.reschedule_now, [id.as_str()], "{release}");
        assert_eq!(r.plan.place.len(), 1, "{release}");
        let place = &r.plan.place[0];
        assert_eq!(previous_id(place).as_deref(), Some(id.as_str()));
        assert_eq!(place.name, alloc_name(JOB, "web", 0), "{release}");
    }
}

/// The explain table of allocation `id` replayed as `release`.
fn explain_as(c: &mut Cluster, release: Release, id: &str) -> String {
    use plan_inspect::explain::explain;
    use plan_inspect::replay::Options;
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    let e = explain(&c.snapshot, &Options::default(), id).expect("explain failed");
    plan_inspect::render::explain::table(&e, false, 400, true)
}

/// The line of `table` that starts, after its indent, with `start`.
fn line_of<'t>(table: &'t str, start: &str) -> &'t str {
    table
        .lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line {start:?} in\n{table}"))
        .trim()
}

/// `--explain`'s Rescheduling step states what the replayed release times
/// a reschedule from: a disconnecting allocation is replaced at once before
/// D-1 and follows its policy from 1.4.14; with a `disconnect` block
/// `replace` decides (D-4b, 1.8.0); at the follow-up eval of a disconnect
/// the policy runs from the last unknown state (D-1); an untainted batch
/// allocation is still asked until E-1 (1.8.1).
#[test]
fn explain_states_the_reschedule_rule_of_the_release() {
    let mut c = Cluster::new();
    let id = disconnecting_with_policy(&mut c, 3);
    assert_eq!(
        line_of(&explain_as(&mut c, v(1, 4, 13), &id), "6. Rescheduling"),
        "6. Rescheduling: reschedule now: disconnecting allocations are replaced at once"
    );
    assert_eq!(
        line_of(&explain_as(&mut c, v(1, 4, 14), &id), "6. Rescheduling"),
        "6. Rescheduling: reschedule later, at 2022-04-01T12:00:30Z (in 30s): a disconnecting \
         allocation follows its reschedule policy: eligible, due later"
    );

    let mut c = Cluster::new();
    let id = disconnecting_with_block(
        &mut c,
        DisconnectStrategy {
            lost_after: HOUR,
            ..DisconnectStrategy::default()
        },
    );
    let t = explain_as(&mut c, v(1, 8, 0), &id);
    assert_eq!(
        line_of(&t, "6. Rescheduling"),
        "6. Rescheduling: reschedule now: with a disconnect block, replace = true replaces a \
         disconnecting allocation at once, whatever the reschedule policy"
    );
    assert!(!t.contains("next reschedule"), "{t}");
    assert!(
        !explain_as(&mut c, v(1, 7, 7), &id).contains("disconnect.replace"),
        "1.7.7 does not read the block"
    );
    let mut c = Cluster::new();
    let id = disconnecting_with_block(
        &mut c,
        DisconnectStrategy {
            lost_after: HOUR,
            replace: Some(false),
            ..DisconnectStrategy::default()
        },
    );
    assert_eq!(
        line_of(&explain_as(&mut c, v(1, 8, 0), &id), "6. Rescheduling"),
        "6. Rescheduling: not rescheduled: with a disconnect block, replace = false never \
         replaces a disconnecting allocation"
    );

    let mut c = Cluster::new();
    let id = disconnecting_with_policy(&mut c, 3);
    client_state(&mut c, &id, status::UNKNOWN, 30 * SECOND);
    let a = c.alloc_mut(&id);
    a.client_status = status::UNKNOWN.into();
    a.followup_eval_id = "reschedule-eval".into();
    c.snapshot.eval_id = Some("reschedule-eval".into());
    let t = explain_as(&mut c, v(1, 6, 3), &id);
    assert_eq!(
        line_of(&t, "fail time"),
        "fail time        2022-04-01T11:59:30Z (30s ago) (its last unknown state: this \
         evaluation is the follow-up of its disconnect)"
    );
    assert_eq!(line_of(&t, "eligible"), "eligible         yes");

    let mut batch = (*c.snapshot.jobs[0]).clone();
    batch.job_type = "batch".into();
    let batch = c.job(batch);
    c.alloc_mut(&id).job = Some(batch);
    assert_eq!(
        line_of(&explain_as(&mut c, v(1, 8, 0), &id), "counts as running"),
        "counts as running  yes (batch: not failed, or ran successfully), and Nomad 1.8.0 still \
         reads its policy (from 1.4.14, 1.5.10, 1.6.3 and 1.7.0 until 1.8.1)"
    );
    assert_eq!(
        line_of(&explain_as(&mut c, v(1, 8, 1), &id), "6. Rescheduling"),
        "6. Rescheduling: not rescheduled: counts as running (batch: not failed, or ran \
         successfully)"
    );
}

/// The Disconnect step names the release's lost timeout when an unknown
/// allocation has none: `max_client_disconnect` to 1.7, a lost timeout
/// from 1.8.0 (D-4a).
#[test]
fn explain_names_the_missing_lost_timeout_of_the_release() {
    let mut c = Cluster::new();
    let job = c.job(resumable(1, None));
    let id = unknown_alloc(&mut c, &job, 0, MINUTE);
    assert_eq!(
        line_of(&explain_as(&mut c, v(1, 7, 7), &id), "4. Disconnect"),
        "4. Disconnect: unknown without max_client_disconnect: never expires"
    );
    assert_eq!(
        line_of(&explain_as(&mut c, v(1, 8, 0), &id), "4. Disconnect"),
        "4. Disconnect: unknown without lost timeout (max_client_disconnect, else \
         disconnect.lost_after): never expires"
    );
}

/// The Bucket step names the lost timeout and the setting that keeps an
/// allocation unknown as the release reads them: `max_client_disconnect`
/// and `prevent_reschedule_on_lost` to 1.7, also the `disconnect` block in
/// 1.8 and 1.9 (D-4a), the block alone from 1.10.0 (F-1).
#[test]
fn explain_names_the_disconnect_settings_of_the_release() {
    let mut c = Cluster::new();
    let mut job = (*replace_false_without_lost_after()).clone();
    job.task_groups[0].count = 1;
    job.task_groups[0].prevent_reschedule_on_lost = true;
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.set_node_status(&id, node_status::DOWN);
    for (release, keep) in [
        (v(1, 7, 7), "prevent_reschedule_on_lost"),
        (
            v(1, 8, 0),
            "disconnect.replace = false or prevent_reschedule_on_lost",
        ),
        (v(1, 10, 0), "disconnect.replace = false"),
    ] {
        let t = explain_as(&mut c, release, &id);
        let rule = format!("with {keep}, running on a down node means disconnecting");
        assert!(line_of(&t, "rule").ends_with(&rule), "{release}: {t}");
    }

    let mut c = Cluster::new();
    let mut job = resumable(1, None);
    job.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: 5 * MINUTE,
        ..DisconnectStrategy::default()
    });
    let job = c.job(job);
    let id = unknown_alloc(&mut c, &job, 0, 10 * MINUTE);
    for (release, timeout) in [
        (
            v(1, 8, 0),
            "lost timeout (max_client_disconnect, else disconnect.lost_after)",
        ),
        (v(1, 10, 0), "disconnect.lost_after"),
    ] {
        let t = explain_as(&mut c, release, &id);
        let rule = format!("unknown past its {timeout} expiry means expiring");
        assert!(line_of(&t, "rule").ends_with(&rule), "{release}: {t}");
    }
}

/// From E-1 (1.8.1) a lost allocation can be rescheduled too, and the
/// Rescheduling step says so of one that is neither failed nor lost.
#[test]
fn explain_says_lost_allocations_are_eligible_from_e1() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    let id = c.alloc(&job, 0);
    for (release, why) in [
        (v(1, 8, 0), "none (not failed)"),
        (v(1, 8, 1), "none (not failed or lost)"),
    ] {
        let t = explain_as(&mut c, release, &id);
        assert_eq!(
            line_of(&t, "next reschedule"),
            format!("next reschedule  {why}"),
            "{release}"
        );
    }
}
