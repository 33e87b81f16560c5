//! The 1.11 releases: the classification rewrite of 1.11.2 (catalogue G-1),
//! each rule under 1.11.1 and 1.11.2 (and 2.0.0, which has the same
//! reconciler), Nomad's tests of the change ported under the profile of
//! their tag, and the whole node x status matrix against a transcription of
//! v1.11.2's `filterByTainted`.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::{
    Bucket, DesiredChanges, Rules, TaintContext, TaintRule, TaintedNodes, alloc_name, classify,
    classify_rule, desc, trigger,
};
use plan_inspect::report::JobReport;
use plan_inspect::time::{Duration, SECOND, Time};
use plan_inspect::version::{Release, Switches, VersionRequest, v};

use crate::common::*;
use crate::disconnect::{reconnected, stopped};
use crate::tainted::{TaintCase, replay_matrix, taint_cases, tainted_entry};
use crate::version_disconnect::disconnecting_with_block;

const V1111: Release = v(1, 11, 1);
const V1112: Release = v(1, 11, 2);
const V200: Release = v(2, 0, 0);

/// The report of job `id` replayed as Nomad `release`.
fn replay_as(c: &mut Cluster, release: Release, id: &str) -> JobReport {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay_job(id)
}

/// `mock.Job()` with `disconnect { lost_after, replace }`.
pub(crate) fn disconnect_job(lost_after: Duration, replace: Option<bool>) -> Job {
    let mut j = mock_job();
    j.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after,
        replace,
        ..DisconnectStrategy::default()
    });
    j
}

fn unknown_state(time: Time) -> AllocState {
    AllocState {
        field: AllocStateField::ClientStatus,
        value: status::UNKNOWN.into(),
        time,
    }
}

/// The nodes of TestAllocSet_classifyAllocs_ClassificationRules.
fn rule_table_nodes() -> Vec<Node> {
    let node = |id: &str, status: &str| Node {
        id: id.into(),
        status: status.into(),
        ..Node::default()
    };
    vec![
        node("ready", node_status::READY),
        node("disconnected", node_status::DISCONNECTED),
        node("down", node_status::DOWN),
        node("initializing", node_status::INIT),
    ]
}

/// The bucket of `alloc` under `release` with the given tainted map.
fn bucket_in(release: Release, tainted: &TaintedNodes<'_>, alloc: &Allocation) -> Bucket {
    let rules = Rules::new(release, true);
    classify(
        alloc,
        TaintContext {
            tainted,
            rules: &rules,
            now: now(),
        },
    )
}

/// TestAllocSet_classifyAllocs_ClassificationRules
/// (scheduler/reconciler/filters_test.go at v2.0.3): one allocation per
/// rule of the rewritten classification, each with `disconnect {
/// lost_after = 5m, replace = true }` unless the case changes it. 2.0.3
/// only turned 1.11.2's filter into a rule table, so every case holds at
/// 1.11.2 too.
#[test]
fn test_alloc_set_classify_allocs_classification_rules() {
    let nodes = rule_table_nodes();
    let mut tainted: TaintedNodes = nodes.iter().map(|n| (n.id.as_str(), Some(n))).collect();
    tainted.insert("gc", None);
    let job =
        |lost_after: Duration, replace: bool| Arc::new(disconnect_job(lost_after, Some(replace)));
    let unknown = vec![unknown_state(now().add(-10 * SECOND))];
    let make = |id: &str, node: &str, client: &str, desired: &str| Allocation {
        id: id.into(),
        node_id: node.into(),
        client_status: client.into(),
        desired_status: desired.into(),
        task_group: "web".into(),
        job: Some(job(5 * MINUTE, true)),
        ..Allocation::default()
    };
    let with_states = |mut a: Allocation| {
        a.alloc_states = unknown.clone().into();
        a
    };
    let (run, stop) = (status::RUN, status::STOP);
    let cases: Vec<(&str, Allocation, Bucket)> = vec![
        (
            "failed reconnect run",
            with_states(make("c1", "ready", status::FAILED, run)),
            Bucket::Reconnecting,
        ),
        (
            "terminal server status ignored",
            make("c2", "ready", status::RUNNING, stop),
            Bucket::Ignore,
        ),
        (
            "terminal canary migrate",
            {
                let mut a = make("c3", "ready", status::COMPLETE, run);
                a.deployment_status = Some(AllocDeploymentStatus {
                    canary: true,
                    ..AllocDeploymentStatus::default()
                });
                a.desired_transition.migrate = Some(true);
                a
            },
            Bucket::Migrate,
        ),
        (
            "terminal untainted",
            make("c4", "ready", status::COMPLETE, run),
            Bucket::Untainted,
        ),
        (
            "expired alloc",
            {
                let mut a = with_states(make("c5", "ready", status::UNKNOWN, run));
                a.job = Some(job(SECOND, true));
                a
            },
            Bucket::Expiring,
        ),
        (
            "failed reconnect stop ignored",
            with_states(make("c6", "ready", status::FAILED, stop)),
            Bucket::Ignore,
        ),
        (
            "disconnected unknown becomes untainted",
            make("c7", "disconnected", status::UNKNOWN, run),
            Bucket::Untainted,
        ),
        (
            "disconnected pending lost",
            make("c8", "disconnected", status::PENDING, run),
            Bucket::Lost,
        ),
        (
            "disconnected zero timeout lost",
            Allocation {
                job: None,
                ..make("c9", "disconnected", status::RUNNING, run)
            },
            Bucket::Lost,
        ),
        (
            "disconnected grace period",
            make("c10", "disconnected", status::RUNNING, run),
            Bucket::Disconnecting,
        ),
        (
            "migrate flag",
            {
                let mut a = make("c11", "ready", status::PENDING, run);
                a.desired_transition.migrate = Some(true);
                a
            },
            Bucket::Migrate,
        ),
        (
            "untainted reconnecting via ready node",
            with_states(make("c12", "ready", status::RUNNING, run)),
            Bucket::Reconnecting,
        ),
        (
            "untainted on non tainted node",
            make("c13", "missing", status::RUNNING, run),
            Bucket::Untainted,
        ),
        (
            "gc node lost",
            make("c14", "gc", status::RUNNING, run),
            Bucket::Lost,
        ),
        (
            "terminal node unknown no replace",
            Allocation {
                job: Some(job(5 * MINUTE, false)),
                ..make("c15", "down", status::UNKNOWN, run)
            },
            Bucket::Untainted,
        ),
        (
            "terminal node running no replace",
            Allocation {
                job: Some(job(5 * MINUTE, false)),
                ..make("c16", "down", status::RUNNING, run)
            },
            Bucket::Disconnecting,
        ),
        (
            "terminal node default lost",
            make("c17", "down", status::PENDING, run),
            Bucket::Lost,
        ),
        (
            "other tainted node defaults to untainted",
            make("c18", "initializing", status::PENDING, run),
            Bucket::Untainted,
        ),
    ];
    for (name, alloc, want) in &cases {
        for release in [V1112, v(2, 0, 3), Release::Head] {
            assert_eq!(
                bucket_in(release, &tainted, alloc),
                *want,
                "{release}: {name}"
            );
        }
    }
}

/// TestAllocSet_filterByTainted, case
/// "disco-client-disconnect-unset-max-disconnect-single-instance-on"
/// (scheduler/reconciler/allocs_test.go at v1.11.2): a running allocation
/// of a group with `disconnect { lost_after = 0s, replace = false }` on a
/// disconnected node is lost from 1.11.2 (no lost timeout,
/// filters.go:191); 1.11.1 kept it disconnecting (replace = false).
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_disconnect_unset_max_disconnect_single_instance_on()
 {
    let nodes = rule_table_nodes();
    let tainted: TaintedNodes = nodes.iter().map(|n| (n.id.as_str(), Some(n))).collect();
    let alloc = Allocation {
        id: "disconnecting-running".into(),
        name: "disconnecting-running".into(),
        client_status: status::RUNNING.into(),
        desired_status: status::RUN.into(),
        job: Some(Arc::new(disconnect_job(0, Some(false)))),
        node_id: "disconnected".into(),
        task_group: "web".into(),
        ..Allocation::default()
    };
    assert_eq!(bucket_in(V1112, &tainted, &alloc), Bucket::Lost);
    assert_eq!(bucket_in(V200, &tainted, &alloc), Bucket::Lost);
    assert_eq!(bucket_in(V1111, &tainted, &alloc), Bucket::Disconnecting);
}

/// TestAllocSet_filterByTainted, case "disco-client-disconnect"
/// (scheduler/reconciler/allocs_test.go at v1.11.2), with
/// `testJob_Disconnected` (`lost_after = 5s`, `replace = true`): running on
/// a disconnected node is disconnecting, unknown there untainted, pending
/// lost, expired unknown allocations expiring wherever they are, and a
/// failed reconnect desired to stop ignored.
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_disconnect() {
    let nodes = rule_table_nodes();
    let tainted: TaintedNodes = nodes.iter().map(|n| (n.id.as_str(), Some(n))).collect();
    let job = Arc::new(disconnect_job(5 * SECOND, Some(true)));
    let unknown = vec![unknown_state(now().add(60 * SECOND))];
    let expired = vec![unknown_state(now().add(-60 * SECOND))];
    let make =
        |id: &str, node: &str, client: &str, desired: &str, states: &[AllocState]| Allocation {
            id: id.into(),
            name: id.into(),
            client_status: client.into(),
            desired_status: desired.into(),
            job: Some(job.clone()),
            node_id: node.into(),
            task_group: "web".into(),
            alloc_states: states.to_vec().into(),
            ..Allocation::default()
        };
    let (run, stop) = (status::RUN, status::STOP);
    let cases = [
        (
            make(
                "disconnect-running",
                "disconnected",
                status::RUNNING,
                run,
                &[],
            ),
            Bucket::Disconnecting,
        ),
        (
            make(
                "untainted-unknown",
                "disconnected",
                status::UNKNOWN,
                run,
                &unknown,
            ),
            Bucket::Untainted,
        ),
        (
            make(
                "expiring-unknown",
                "disconnected",
                status::UNKNOWN,
                run,
                &expired,
            ),
            Bucket::Expiring,
        ),
        (
            make("lost-pending", "disconnected", status::PENDING, run, &[]),
            Bucket::Lost,
        ),
        (
            make("expiring-expired", "normal", status::UNKNOWN, run, &expired),
            Bucket::Expiring,
        ),
        (
            make(
                "ignore-reconnected-failed-stopped",
                "disconnected",
                status::FAILED,
                stop,
                &unknown,
            ),
            Bucket::Ignore,
        ),
    ];
    for (alloc, want) in &cases {
        assert_eq!(bucket_in(V1112, &tainted, alloc), *want, "{}", alloc.id);
    }
}

/// The catalogue's G-1 example: `disconnect { lost_after = "1h", replace =
/// true }`, reschedule delay 30s, the node disconnects. 1.11.1 places the
/// replacement in the same plan (D-4b); from 1.11.2 and in 2.0.0 the
/// reschedule policy decides: a follow-up eval at +30s, which the unknown
/// update carries (v1.11.2 scheduler/reconciler/filters.go:419).
#[test]
fn replace_follows_the_reschedule_policy_from_1_11_2() {
    let mut c = Cluster::new();
    let id = disconnecting_with_block(
        &mut c,
        DisconnectStrategy {
            lost_after: HOUR,
            replace: Some(true),
            ..DisconnectStrategy::default()
        },
    );
    let old = replay_as(&mut c, V1111, JOB);
    assert_eq!(group(&old, "web").reschedule_now, [id.as_str()]);
    assert_eq!(old.plan.place.len(), 1);

    for release in [V1112, V200] {
        let new = replay_as(&mut c, release, JOB);
        let web = group(&new, "web");
        assert!(web.reschedule_now.is_empty(), "{release}");
        assert_eq!(web.reschedule_later.len(), 1, "{release}");
        assert_eq!(web.reschedule_later[0].at, now().add(30 * SECOND));
        assert!(new.plan.place.is_empty(), "{release}");
        let later = new
            .plan
            .followup_evals
            .iter()
            .find(|e| e.triggered_by != trigger::MAX_DISCONNECT_TIMEOUT)
            .expect("a reschedule-later eval");
        assert_eq!(new.plan.disconnect_updates[0].followup_eval_id, later.id);
    }
}

/// From 1.11.2 a disconnecting allocation is rescheduled later only if it
/// has no follow-up eval yet (v1.11.2 scheduler/reconciler/filters.go:433);
/// one that still carries an old eval ID gets neither now nor later and
/// stays untainted.
#[test]
fn a_disconnecting_alloc_with_a_followup_eval_is_not_rescheduled_later_from_1_11_2() {
    let mut c = Cluster::new();
    let id = disconnecting_with_block(
        &mut c,
        DisconnectStrategy {
            lost_after: HOUR,
            replace: Some(true),
            ..DisconnectStrategy::default()
        },
    );
    c.alloc_mut(&id).followup_eval_id = "old-eval".into();
    let r = replay_as(&mut c, V1112, JOB);
    let web = group(&r, "web");
    assert!(web.reschedule_now.is_empty() && web.reschedule_later.is_empty());
    assert!(r.plan.place.is_empty());
    assert_eq!(r.plan.followup_evals.len(), 1);
    assert_eq!(
        r.plan.followup_evals[0].triggered_by,
        trigger::MAX_DISCONNECT_TIMEOUT
    );
}

/// `replace = false`: from 1.11.2 a disconnecting allocation is never
/// rescheduled, whatever its policy (filters.go:411); it stays unknown and
/// counted with its timeout eval.
#[test]
fn replace_false_never_reschedules_a_disconnecting_alloc_from_1_11_2() {
    let mut c = Cluster::new();
    disconnecting_with_block(
        &mut c,
        DisconnectStrategy {
            lost_after: HOUR,
            replace: Some(false),
            ..DisconnectStrategy::default()
        },
    );
    for release in [V1111, V1112] {
        let r = replay_as(&mut c, release, JOB);
        let web = group(&r, "web");
        assert!(web.reschedule_now.is_empty(), "{release}");
        assert!(web.reschedule_later.is_empty(), "{release}");
        assert!(r.plan.place.is_empty(), "{release}");
        assert_eq!(r.plan.disconnect_updates.len(), 1, "{release}");
        assert_eq!(r.plan.followup_evals[0].wait_until, now().add(HOUR));
    }
}

/// Expiring allocations are always lost from 1.11.2 (v1.11.2
/// scheduler/reconciler/reconcile_cluster.go:439): with `replace = false`
/// 1.11.1 kept one unknown past `lost_after` untainted, 1.11.2 stops it as
/// lost and places a replacement.
#[test]
fn expiring_allocs_are_lost_even_with_replace_false_from_1_11_2() {
    let mut c = Cluster::new();
    let mut job = disconnect_job(5 * MINUTE, Some(false));
    job.task_groups[0].count = 1;
    let job = c.job(job);
    let id = unknown_alloc(&mut c, &job, 0, 10 * MINUTE);
    let old = replay_as(&mut c, V1111, JOB);
    assert_eq!(group(&old, "web").buckets[Bucket::Expiring][0].id, id);
    assert!(old.plan.place.is_empty() && old.plan.stop.is_empty());

    let new = replay_as(&mut c, V1112, JOB);
    assert_eq!(group(&new, "web").buckets[Bucket::Expiring][0].id, id);
    assert_eq!(new.plan.stop.len(), 1);
    assert_eq!(new.plan.stop[0].description, desc::LOST);
    assert_eq!(new.plan.place.len(), 1);
}

/// Open point 1 of the catalogue: an unknown allocation whose node is
/// ready again, before its client reports, is untainted up to 1.11.1 and
/// reconnecting from 1.11.2 (filters.go:204), so it is weighed against its
/// replacement at once. No reconnect update is made for it: it is not
/// running.
#[test]
fn an_unknown_alloc_on_a_ready_node_is_reconnecting_from_1_11_2() {
    let mut c = Cluster::new();
    let mut job = disconnect_job(HOUR, Some(true));
    job.task_groups[0].count = 1;
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&id);
        a.client_status = status::UNKNOWN.into();
    }
    client_state(&mut c, &id, status::UNKNOWN, 10 * MINUTE);
    let replacement = c.alloc(&job, 0);
    {
        let r = c.alloc_mut(&replacement);
        r.previous_allocation = (&id).into();
        r.create_index += 1;
    }
    c.alloc_mut(&id).next_allocation = (&replacement).into();
    set_node_score(&mut c, &id, 0.5);
    set_node_score(&mut c, &replacement, 0.9);

    let old = replay_as(&mut c, V1111, JOB);
    assert_eq!(bucket_of(&old, &id), "untainted");

    let new = replay_as(&mut c, V1112, JOB);
    assert_eq!(bucket_of(&new, &id), "reconnecting");
    assert!(new.plan.reconnect_updates.is_empty());
    // The better-scored replacement wins: the original is stopped.
    assert_eq!(new.plan.stop.len(), 1);
    assert_eq!(new.plan.stop[0].alloc_id, id);
    assert!(new.plan.place.is_empty());
}

/// `LastUnknown` from 1.11.2 is the start of the latest unbroken run of
/// unknown entries (v1.11.2 nomad/structs/alloc.go:779): two unknown
/// entries 10m and 1m ago with `lost_after = 5m` expire from the first at
/// 1.11.2 and from the second (not yet) at 1.11.1; a running entry in
/// between breaks the run.
#[test]
fn unknown_runs_time_the_expiry_from_their_start_from_1_11_2() {
    let mut c = Cluster::new();
    let mut job = disconnect_job(5 * MINUTE, Some(true));
    job.task_groups[0].count = 2;
    let job = c.job(job);
    let run = unknown_alloc(&mut c, &job, 0, 10 * MINUTE);
    client_state(&mut c, &run, status::UNKNOWN, MINUTE);
    let broken = unknown_alloc(&mut c, &job, 1, 10 * MINUTE);
    client_state(&mut c, &broken, status::RUNNING, 8 * MINUTE);
    client_state(&mut c, &broken, status::UNKNOWN, MINUTE);

    let old = replay_as(&mut c, V1111, JOB);
    assert_eq!(bucket_of(&old, &run), "untainted");
    assert_eq!(bucket_of(&old, &broken), "untainted");
    let new = replay_as(&mut c, V1112, JOB);
    assert_eq!(bucket_of(&new, &run), "expiring");
    assert_eq!(bucket_of(&new, &broken), "untainted");
}

/// From 1.11.2 every disconnecting allocation gets a timeout eval, at now
/// without a lost timeout (reconcile_cluster.go:1618, filters.go:464): a
/// running allocation of a `replace = false` group without `lost_after` on
/// a down node is disconnecting; 1.11.1 marks it unknown with no eval,
/// 1.11.2 with an eval due now.
#[test]
fn every_disconnecting_alloc_gets_a_timeout_eval_from_1_11_2() {
    let mut c = Cluster::new();
    let mut job = disconnect_job(0, Some(false));
    job.task_groups[0].count = 1;
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).client_status = status::RUNNING.into();
    c.set_node_status(&id, node_status::DOWN);

    let old = replay_as(&mut c, V1111, JOB);
    assert_eq!(bucket_of(&old, &id), "disconnecting");
    assert!(old.plan.followup_evals.is_empty());
    assert_eq!(&*old.plan.disconnect_updates[0].followup_eval_id, "");

    let new = replay_as(&mut c, V1112, JOB);
    assert_eq!(bucket_of(&new, &id), "disconnecting");
    assert_eq!(new.plan.followup_evals.len(), 1);
    let eval = &new.plan.followup_evals[0];
    assert_eq!(eval.triggered_by, trigger::MAX_DISCONNECT_TIMEOUT);
    assert_eq!(eval.wait_until, now());
    assert_eq!(new.plan.disconnect_updates[0].followup_eval_id, eval.id);
}

/// From 1.11.2 (#27265) the servers' disconnected-client flag is not read:
/// with it off, 1.11.1 loses a running allocation of a `lost_after` group
/// on a disconnected node, 1.11.2 keeps it disconnecting.
#[test]
fn the_disconnected_client_flag_is_ignored_from_1_11_2() {
    let mut c = Cluster::new();
    c.snapshot.supports_disconnected_clients = Some(false);
    let id = disconnecting_with_block(
        &mut c,
        DisconnectStrategy {
            lost_after: HOUR,
            ..DisconnectStrategy::default()
        },
    );
    assert_eq!(bucket_of(&replay_as(&mut c, V1111, JOB), &id), "lost");
    assert_eq!(
        bucket_of(&replay_as(&mut c, V1112, JOB), &id),
        "disconnecting"
    );
}

/// `--explain` names the rewritten rules: the rule list of 1.11.2 has
/// nineteen checks and the expired one says that no `lost_after` means at
/// once.
#[test]
fn the_rule_list_of_1_11_2_is_the_rewritten_one() {
    let rules = Rules::new(V1112, true);
    let order = TaintRule::order(Switches::of(V1112));
    assert_eq!(order.len(), 19);
    assert_eq!(order[0], TaintRule::FailedReconnect);
    assert_eq!(order[6], TaintRule::DisconnectedNodeUnknown);
    assert_eq!(order[10], TaintRule::MigrateTransition);
    assert_eq!(
        TaintRule::DisconnectExpiring.describe(&rules),
        "unknown past its lost_after (at once without one) means expiring"
    );
    assert_eq!(TaintRule::order(Switches::of(v(2, 0, 3))), order);
    assert_ne!(TaintRule::order(Switches::of(V1111)), order);
}

/// `filterByTainted` at v1.11.2 (scheduler/reconciler/filters.go:111-234),
/// after `filterServerTerminalAllocs` (:42), for one case, transcribed from the Go with `NeedsToReconnect`,
/// `Expired` (nomad/structs/alloc.go:753), `DisconnectTimeout` and
/// `ReplaceOnDisconnect` inlined, for a group with `lost_after` and
/// `replace`.
fn nomad_1_11_2_bucket(c: &TaintCase, lost_after: Duration, replace: bool) -> &'static str {
    // `filterServerTerminalAllocs` (1.11.0) drops these service allocations first.
    if matches!(c.desired, "stop" | "evict") {
        return "set aside";
    }
    let r = matches!(c.client, "unknown" | "running" | "failed") && c.unknown_ago.is_some();
    if r && c.desired == "run" && c.client == "failed" {
        return "reconnecting";
    }
    let server_terminal = matches!(c.desired, "stop" | "evict");
    let terminal = server_terminal || matches!(c.client, "complete" | "failed" | "lost");
    if terminal && !r {
        return if server_terminal {
            "ignore"
        } else {
            "untainted"
        };
    }
    let expired = c.client == "unknown"
        && c.unknown_ago
            .is_some_and(|ago| now().add(-ago).add(lost_after) <= now());
    if expired {
        return "expiring";
    }
    if r && c.client == "failed" && c.desired == "stop" {
        return "ignore";
    }
    let tainted = tainted_entry(c.node);
    if let Some(Some(n)) = tainted
        && n.status() == node_status::DISCONNECTED
    {
        return match c.client {
            "unknown" => "untainted",
            "pending" => "lost",
            _ if lost_after == 0 => "lost",
            _ => "disconnecting",
        };
    }
    if c.migrate {
        return "migrate";
    }
    match tainted {
        None => {
            if r {
                "reconnecting"
            } else {
                "untainted"
            }
        }
        Some(Some(n)) if n.status() == node_status::READY => {
            if r {
                "reconnecting"
            } else {
                "untainted"
            }
        }
        Some(None) => "lost",
        Some(Some(n)) if n.status() == node_status::DOWN => match c.client {
            "unknown" if !replace => "untainted",
            "running" if !replace => "disconnecting",
            _ => "lost",
        },
        Some(Some(_)) => "untainted",
    }
}

/// Every combination of node (ready, initializing, down, disconnected, each
/// with and without a drain strategy, and garbage-collected) x client status
/// x desired status x migrate transition x last unknown transition (never,
/// 1m ago, 1h ago), with `lost_after` 0 or 5m and `replace` true or false:
/// under 1.11.2, 2.0.0 and head the bucket in the report is the one
/// v1.11.2's `filterByTainted` picks.
#[test]
fn filter_by_tainted_matrix_matches_nomad_1_11_2() {
    // Task events do not count from C-1 on: the cases without one suffice.
    let cases: Vec<TaintCase> = taint_cases()
        .into_iter()
        .filter(|c| c.reconnect_ago.is_none())
        .collect();
    let mut checked = 0;
    for release in [V1112, V200, Release::Head] {
        for lost_after in [0, 5 * MINUTE] {
            for replace in [true, false] {
                let spec = disconnect_job(lost_after, Some(replace));
                let got = replay_matrix(&cases, true, Some(release), counted(spec, cases.len()));
                for (case, got) in cases.iter().zip(got) {
                    let want = nomad_1_11_2_bucket(case, lost_after, replace);
                    assert_eq!(
                        got, want,
                        "{release}: {case:?} lost_after={lost_after} replace={replace}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 3 * 4 * 9 * 6 * 3 * 2 * 3);
}

/// `spec` with its group counting `n` allocations.
fn counted(mut spec: Job, n: usize) -> Job {
    spec.task_groups[0].count = n as i64;
    spec
}

/// The bucket's rule as the explanation names it, for the rewritten
/// disconnected-node rules.
#[test]
fn the_disconnected_node_rules_of_1_11_2_are_named() {
    let nodes = rule_table_nodes();
    let tainted: TaintedNodes = nodes.iter().map(|n| (n.id.as_str(), Some(n))).collect();
    let rules = Rules::new(V1112, true);
    let ctx = TaintContext {
        tainted: &tainted,
        rules: &rules,
        now: now(),
    };
    let alloc = Allocation {
        id: "a".into(),
        client_status: status::RUNNING.into(),
        desired_status: status::RUN.into(),
        task_group: "web".into(),
        node_id: "disconnected".into(),
        job: Some(Arc::new(disconnect_job(0, None))),
        ..Allocation::default()
    };
    let rule = classify_rule(&alloc, ctx);
    assert_eq!(rule, TaintRule::DisconnectedNodeWithoutLostAfter);
    assert_eq!(
        rule.describe(&rules),
        "on a disconnected node, a group without lost_after is lost"
    );
    assert_eq!(rule.number(&rules), 9);
}

const V1105: Release = v(1, 10, 5);
const V1110: Release = v(1, 11, 0);

/// TestReconciler_NewCanaries_CountGreater
/// (scheduler/reconciler/reconcile_cluster_test.go at v1.11.0): 7 canaries
/// for a group of 3 are cut to 3 placements, names 0 to 2, and the desired
/// `place` is 3 (reconcile_cluster.go:560); 1.10.5 places all 7.
#[test]
fn test_reconciler_new_canaries_count_greater() {
    let update = UpdateStrategy {
        canary: 7,
        ..canary_update()
    };
    let (mut c, _) = crate::canary::new_canaries(3, 3, update);
    let r = replay_as(&mut c, V1110, JOB);
    assert_results(
        &r,
        Expect {
            create_deployment: true,
            place: 3,
            ..Expect::default()
        },
        &web(DesiredChanges {
            canary: 7,
            ignore: 3,
            place: 3,
            ..dc()
        }),
    );
    assert_eq!(place_indexes(&r), [0, 1, 2]);
    let old = replay_as(&mut c, V1105, JOB);
    assert_eq!(old.plan.place.len(), 7);
    assert_eq!(group(&old, "web").desired_changes.place, 0);
}

/// TestReconciler_Disconnected_Client, case
/// "replace-allocs-on-disconnected-node"
/// (scheduler/reconciler/reconcile_cluster_test.go at v1.11.2): two of five
/// allocations on a disconnected node, `disconnect { lost_after = 5m }`, an
/// empty eval ID (so the reschedule is now): both are replaced and marked
/// unknown, and the 1.11 counters say so.
#[test]
fn test_reconciler_disconnected_client_replace_allocs_on_disconnected_node() {
    let mut c = Cluster::new();
    c.snapshot.eval_id = Some(String::new());
    let mut spec = disconnect_job(5 * MINUTE, None);
    spec.task_groups[0].count = 5;
    let job = c.job(spec);
    let ids = build_allocations(&mut c, &job, 5, status::RUNNING, status::RUN, 2.0);
    build_disconnected_nodes(&mut c, &ids, 2);
    for release in [V1112, V200] {
        let r = replay_as(&mut c, release, JOB);
        assert_results(
            &r,
            Expect {
                place: 2,
                disconnect_updates: 2,
                ..Expect::default()
            },
            &web(DesiredChanges {
                place: 2,
                ignore: 3,
                ..dc()
            }),
        );
        let counters = &group(&r, "web").desired_changes;
        assert_eq!((counters.disconnect, counters.reschedule_now), (2, 2));
    }
}

/// The 1.11 `RescheduleNow` counter is written only for a group with a
/// disconnecting allocation (reconcile_cluster.go:1656): a failed
/// allocation rescheduled now counts 1 up to 1.10.5 (plan-inspect's own
/// count) and 0 from 1.11.0; with a disconnecting allocation in the group
/// it counts both.
#[test]
fn reschedule_now_counts_only_with_a_disconnecting_alloc_from_1_11_0() {
    let mut c = Cluster::new();
    let mut spec = disconnect_job(HOUR, None);
    spec.task_groups[0].count = 2;
    let job = c.job(spec);
    let failed = c.alloc(&job, 0);
    fail_at(c.alloc_mut(&failed), now().add(-HOUR));
    let running = c.alloc(&job, 1);
    c.alloc_mut(&running).client_status = status::RUNNING.into();

    let count = |c: &mut Cluster, release| {
        let r = replay_as(c, release, JOB);
        let g = group(&r, "web");
        (g.reschedule_now.len(), g.desired_changes.reschedule_now)
    };
    assert_eq!(count(&mut c, V1105), (1, 1));
    assert_eq!(count(&mut c, V1110), (1, 0));
    // The disconnect is replaced at once in 1.11.0 (replace = true).
    c.set_node_status(&running, node_status::DISCONNECTED);
    assert_eq!(count(&mut c, V1110), (2, 2));
}

/// From 1.11.0 the first batch of delayed reschedules is triggered by
/// `alloc-reschedule`, later batches still by `alloc-failure`
/// (reconcile_cluster.go:1427); 1.10.5 says `alloc-failure` for all.
#[test]
fn reschedule_followups_are_triggered_by_alloc_reschedule_from_1_11_0() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 2;
    let job = c.job(spec);
    let soon = c.alloc(&job, 0);
    fail_at(c.alloc_mut(&soon), now());
    let later = c.alloc(&job, 1);
    fail_at(c.alloc_mut(&later), now().add(MINUTE));
    let triggers = |c: &mut Cluster, release| {
        let r = replay_as(c, release, JOB);
        let mut evals = r.plan.followup_evals.clone();
        evals.sort_by_key(|e| e.wait_until);
        evals
            .into_iter()
            .map(|e| e.triggered_by)
            .collect::<Vec<_>>()
    };
    assert_eq!(triggers(&mut c, V1105), [trigger::RETRY_FAILED_ALLOC; 2]);
    assert_eq!(
        triggers(&mut c, V1110),
        [trigger::ALLOC_RESCHEDULE, trigger::RETRY_FAILED_ALLOC]
    );
}

/// From 1.11.0 allocations the server stopped are dropped before
/// classification (filters.go:42): a stopped allocation of a disconnect
/// group was ignored (and counted so) up to 1.10.5; from 1.11.0 it is set
/// aside and not counted. A stopped batch allocation without a reschedule
/// transition is kept.
#[test]
fn server_terminal_allocs_are_set_aside_from_1_11_0() {
    let mut c = Cluster::new();
    let mut spec = disconnect_job(HOUR, None);
    spec.task_groups[0].count = 1;
    let job = c.job(spec);
    let running = c.alloc(&job, 0);
    c.alloc_mut(&running).client_status = status::RUNNING.into();
    let stopped = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&stopped);
        a.client_status = status::COMPLETE.into();
        a.desired_status = status::STOP.into();
    }
    let old = replay_as(&mut c, V1105, JOB);
    assert_eq!(bucket_of(&old, &stopped), "ignore");
    assert_eq!(group(&old, "web").desired_changes.ignore, 2);

    let new = replay_as(&mut c, V1110, JOB);
    let web = group(&new, "web");
    assert_eq!(web.desired_changes.ignore, 1);
    assert_eq!(web.set_aside.len(), 1);
    assert_eq!(web.set_aside[0].id, stopped);
    assert_eq!(
        web.set_aside[0].reason,
        "stopped or evicted by the server: dropped before classification"
    );

    let mut batch = (*job).clone();
    batch.job_type = "batch".into();
    let batch = c.job(batch);
    for id in [&running, &stopped] {
        c.alloc_mut(id).job = Some(batch.clone());
    }
    let r = replay_as(&mut c, V1110, JOB);
    assert!(group(&r, "web").set_aside.is_empty());
}

/// From 1.11.0 a group scaled to `count = 0` is stopped whole, like a
/// removed group (reconcile_cluster.go:397): 1.10.5 still reschedules its
/// failed allocation (the reschedule placement ignores the count).
#[test]
fn a_group_scaled_to_zero_is_stopped_whole_from_1_11_0() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 0;
    let job = c.job(spec);
    let failed = c.alloc(&job, 0);
    fail_at(c.alloc_mut(&failed), now().add(-HOUR));
    let running = c.alloc(&job, 1);
    c.alloc_mut(&running).client_status = status::RUNNING.into();

    let old = replay_as(&mut c, V1105, JOB);
    assert_eq!(old.plan.place.len(), 1);
    assert_eq!(
        previous_id(&old.plan.place[0]).as_deref(),
        Some(failed.as_str())
    );

    let new = replay_as(&mut c, V1110, JOB);
    assert!(new.plan.place.is_empty());
    assert_eq!(new.plan.stop.len(), 2);
    assert!(
        new.plan
            .stop
            .iter()
            .all(|s| s.description == desc::NOT_NEEDED)
    );
    let web = group(&new, "web");
    assert_eq!(web.desired_changes.stop, 2);
    assert!(!web.removed);
}

/// G-0b: stopping a job of two groups in 1.11.0 keeps only one group's
/// stops (reconcile_cluster.go:318; plan-inspect keeps the last by name),
/// while the desired changes count both; 1.11.1 stops both again.
#[test]
fn stopping_a_multi_group_job_stops_one_group_in_1_11_0_only() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 1;
    let mut api = spec.task_groups[0].clone();
    api.name = "api".into();
    spec.task_groups.push(api);
    spec.stop = true;
    let job = c.job(spec);
    let web = c.alloc_in(&job, "web", 0);
    let api = c.alloc_in(&job, "api", 0);
    for id in [&web, &api] {
        c.alloc_mut(id).client_status = status::RUNNING.into();
    }
    let stopped = |r: &JobReport| {
        r.plan
            .stop
            .iter()
            .map(|s| s.alloc_id.to_string())
            .collect::<Vec<_>>()
    };
    let bug = replay_as(&mut c, V1110, JOB);
    assert_eq!(stopped(&bug), std::slice::from_ref(&web));
    assert_eq!(group(&bug, "api").desired_changes.stop, 1);
    assert_eq!(group(&bug, "web").desired_changes.stop, 1);
    let mut fixed = stopped(&replay_as(&mut c, V1111, JOB));
    fixed.sort();
    let mut both = vec![web, api];
    both.sort();
    assert_eq!(fixed, both);
}

/// The running allocation of a batch group of one, with a migrate
/// transition.
fn migrating_batch_alloc(c: &mut Cluster) -> String {
    let mut spec = mock_job();
    spec.job_type = "batch".into();
    spec.task_groups[0].count = 1;
    let job = c.job(spec);
    let id = c.alloc(&job, 0);
    let a = c.alloc_mut(&id);
    a.client_status = status::RUNNING.into();
    a.desired_transition.migrate = Some(true);
    id
}

/// `alloc stop` on a batch allocation (1.11.0, #26961): a running batch
/// allocation with a reschedule and a migrate transition migrates and is
/// rescheduled now: one placement, the reschedule, and one stop, the
/// migration (reconcile_cluster.go:425, :1026, :916). 1.10.5 migrates it
/// with a migration placement and does not reschedule it.
#[test]
fn a_stopped_batch_alloc_is_rescheduled_not_migrated_from_1_11_0() {
    let mut c = Cluster::new();
    let id = migrating_batch_alloc(&mut c);
    {
        let a = c.alloc_mut(&id);
        a.desired_transition.reschedule = Some(true);
        a.task_states
            .insert("web".into(), finished_state(now().add(-HOUR)));
    }
    let old = replay_as(&mut c, V1105, JOB);
    assert_eq!(old.plan.place.len(), 1);
    assert!(!old.plan.place[0].reschedule);
    assert!(group(&old, "web").reschedule_now.is_empty());

    let new = replay_as(&mut c, V1110, JOB);
    assert_eq!(group(&new, "web").reschedule_now, [id.as_str()]);
    assert_eq!(new.plan.place.len(), 1);
    assert!(new.plan.place[0].reschedule);
    assert_eq!(new.plan.stop.len(), 1);
    assert_eq!(new.plan.stop[0].description, desc::MIGRATING);
}

/// The stopped batch allocation is both migrating and rescheduled now
/// (v1.11.0 reconcile_cluster.go:425-429); the name index takes the union
/// of the sets by allocation ID (:490), so the reschedule keeps its name in
/// a group of three with one other allocation.
#[test]
fn reconcile_cluster_go_490_v1_11_0_a_migrating_reschedule_holds_its_name_once() {
    let mut c = Cluster::new();
    let id = migrating_batch_alloc(&mut c);
    let mut spec = (*c.snapshot.jobs[0]).clone();
    spec.task_groups[0].count = 3;
    let job = c.job(spec);
    c.alloc_mut(&id).job = Some(job.clone());
    c.alloc_mut(&id).desired_transition.reschedule = Some(true);
    c.alloc(&job, 1);
    for release in [V1110, V1112, V200] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(group(&r, "web").reschedule_now, [id.as_str()], "{release}");
        assert_eq!(r.plan.place.len(), 1, "{release}");
        assert!(r.plan.place[0].reschedule, "{release}");
        assert_eq!(r.plan.place[0].name, alloc_name(JOB, "web", 0), "{release}");
    }
}

/// A drained batch allocation (`MigrateDisablePlacement`, 1.11.0) gets no
/// migration placement (reconcile_cluster.go:1026).
#[test]
fn a_drained_batch_alloc_gets_no_migration_placement_from_1_11_0() {
    let mut c = Cluster::new();
    let id = migrating_batch_alloc(&mut c);
    c.alloc_mut(&id)
        .desired_transition
        .migrate_disable_placement = Some(true);
    assert_eq!(replay_as(&mut c, V1105, JOB).plan.place.len(), 1);
    let new = replay_as(&mut c, V1110, JOB);
    assert!(new.plan.place.is_empty());
    assert_eq!(new.plan.stop[0].description, desc::MIGRATING);
}

/// Completed evaluations that keep their `PlanAnnotations` prove 1.11.0,
/// and a previous allocation still desired to run whose replacement could
/// not be placed proves 1.11.1 (the catalogue's G-0c input shape).
#[test]
fn plan_annotations_and_kept_failed_reschedules_are_evidence() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    c.snapshot.evals.push(Evaluation {
        id: "eval-1".into(),
        status: "complete".into(),
        plan_annotations: Some(PlanAnnotations::default()),
        ..Evaluation::default()
    });
    let r = c.replay();
    assert_eq!(r.nomad_version.release, v(1, 11, 0));
    let id = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&id);
        a.client_status = status::FAILED.into();
        a.reschedule_tracker = Some(Box::new(RescheduleTracker {
            last_reschedule: "no placement".into(),
            ..RescheduleTracker::default()
        }));
    }
    let r = c.replay();
    assert_eq!(r.nomad_version.release, v(1, 11, 1));
}

/// A case's name and input, its plan sizes and desired changes, and its
/// disconnect, reconnect and reschedule-now counters.
type DisconnectedExpectation = (
    &'static str,
    DisconnectedCase,
    Expect,
    DesiredChanges,
    (u64, u64, u64),
);

/// One case of TestReconciler_Disconnected_Client at v1.11.2.
#[derive(Default)]
struct DisconnectedCase {
    is_batch: bool,
    /// The group's disconnect block; `lost_after = 5m` if none
    /// (`buildResumableAllocations`).
    disconnect: Option<DisconnectStrategy>,
    node_disconnected: bool,
    alloc_count: u64,
    desired: &'static str,
    disconnected: usize,
    disconnected_status: &'static str,
    /// Whether the disconnected allocations record their unknown state.
    states: bool,
    create_replacements: bool,
    fail_replacement: bool,
    replace_failed_replacement: bool,
}

/// The body of TestReconciler_Disconnected_Client
/// (scheduler/reconciler/reconcile_cluster_test.go at v1.11.2) for one
/// case, replayed as `release`, with Nomad's empty eval ID. Returns the
/// report, the disconnected originals and the replacements made last (the
/// running second replacements where a failed one is replaced).
fn disconnected_client(
    tc: DisconnectedCase,
    release: Release,
) -> (JobReport, Vec<String>, Vec<String>) {
    let mut c = Cluster::new();
    c.snapshot.eval_id = Some(String::new());
    let test_node = c.node(if tc.node_disconnected {
        node_status::DISCONNECTED
    } else {
        node_status::READY
    });
    let own_block = tc.disconnect.is_some();
    let block = tc.disconnect.unwrap_or(DisconnectStrategy {
        lost_after: 5 * MINUTE,
        ..DisconnectStrategy::default()
    });
    // Nomad evaluates at time.Now(), 20 lost_after later with a case's own
    // block; the snapshot pins now, so the unknown state goes before it.
    let unknown_at = if own_block {
        now().add(-20 * block.lost_after)
    } else {
        now().add(-SECOND)
    };
    let mut spec = mock_job();
    spec.task_groups[0].disconnect = Some(block);
    spec.task_groups[0].count = tc.alloc_count as i64;
    if tc.is_batch {
        spec.job_type = "batch".into();
    }
    let job = c.job(spec);
    let allocs = build_allocations(
        &mut c,
        &job,
        tc.alloc_count,
        status::RUNNING,
        tc.desired,
        2.0,
    );
    for id in &allocs[..tc.disconnected] {
        let a = c.alloc_mut(id);
        a.client_status = tc.disconnected_status.into();
        a.node_id = (&test_node).into();
        if tc.states {
            a.alloc_states = vec![unknown_state(unknown_at)].into();
        }
    }
    let mut latest = Vec::new();
    if tc.create_replacements {
        for orig in &allocs[..tc.disconnected] {
            let mut r = c.alloc_ref(orig).clone();
            r.id = c.id("alloc").into();
            r.node_id = c.node(node_status::READY).into();
            r.client_status = status::RUNNING.into();
            r.previous_allocation = Id::from(orig).into();
            r.alloc_states = Default::default();
            r.task_states = Default::default();
            r.create_index += 1;
            c.alloc_mut(orig).next_allocation = r.id.clone().into();
            if tc.fail_replacement {
                r.client_status = status::FAILED.into();
                if tc.replace_failed_replacement {
                    let mut next = r.clone();
                    next.id = c.id("alloc").into();
                    next.client_status = status::RUNNING.into();
                    next.desired_status = status::RUN.into();
                    next.previous_allocation = r.id.clone().into();
                    r.next_allocation = next.id.clone().into();
                    r.desired_status = status::STOP.into();
                    latest.push(next.id.to_string());
                    c.snapshot.allocs.push(next);
                }
            }
            if !tc.replace_failed_replacement {
                latest.push(r.id.to_string());
            }
            c.snapshot.allocs.push(r);
        }
    }
    let originals = allocs[..tc.disconnected].to_vec();
    (
        replay_as(&mut c, release, JOB),
        sorted(originals),
        sorted(latest),
    )
}

/// The cases of TestReconciler_Disconnected_Client at v1.11.2 that do not
/// depend on the reconnect strategies, each with its expected results and
/// 1.11 counters (disconnect, reconnect, reschedule now).
#[test]
fn test_reconciler_disconnected_client_1_11_2() {
    let running = status::RUNNING;
    let cases: Vec<DisconnectedExpectation> = vec![
        (
            "reconnect-original-no-replacement",
            DisconnectedCase {
                alloc_count: 2,
                desired: status::RUN,
                disconnected: 2,
                disconnected_status: running,
                states: true,
                ..DisconnectedCase::default()
            },
            Expect {
                reconnect_updates: 2,
                ..Expect::default()
            },
            DesiredChanges { ignore: 2, ..dc() },
            (0, 2, 0),
        ),
        (
            "stop-original-failed-on-reconnect",
            DisconnectedCase {
                alloc_count: 4,
                desired: status::RUN,
                disconnected: 2,
                disconnected_status: status::FAILED,
                states: true,
                create_replacements: true,
                ..DisconnectedCase::default()
            },
            Expect {
                stop: 2,
                ..Expect::default()
            },
            DesiredChanges {
                stop: 2,
                ignore: 4,
                ..dc()
            },
            (0, 0, 0),
        ),
        (
            "reschedule-original-failed-if-not-replaced",
            DisconnectedCase {
                alloc_count: 4,
                desired: status::RUN,
                disconnected: 2,
                disconnected_status: status::FAILED,
                states: true,
                ..DisconnectedCase::default()
            },
            Expect {
                stop: 2,
                place: 2,
                ..Expect::default()
            },
            DesiredChanges {
                ignore: 2,
                place: 2,
                stop: 2,
                ..dc()
            },
            (0, 0, 0),
        ),
        (
            "update-reconnect-completed",
            DisconnectedCase {
                is_batch: true,
                alloc_count: 2,
                desired: status::RUN,
                disconnected: 2,
                disconnected_status: status::COMPLETE,
                states: true,
                ..DisconnectedCase::default()
            },
            Expect::default(),
            DesiredChanges { ignore: 2, ..dc() },
            (0, 0, 0),
        ),
        (
            "stop-original-alloc-desired-status-stop",
            DisconnectedCase {
                alloc_count: 1,
                desired: status::STOP,
                disconnected: 1,
                disconnected_status: running,
                states: true,
                create_replacements: true,
                fail_replacement: true,
                replace_failed_replacement: true,
                ..DisconnectedCase::default()
            },
            Expect::default(),
            DesiredChanges { ignore: 1, ..dc() },
            (0, 0, 0),
        ),
        (
            "stop-original-pending-alloc-for-disconnected-node",
            DisconnectedCase {
                node_disconnected: true,
                alloc_count: 2,
                desired: status::RUN,
                disconnected: 1,
                disconnected_status: status::PENDING,
                states: true,
                create_replacements: true,
                ..DisconnectedCase::default()
            },
            Expect {
                stop: 1,
                ..Expect::default()
            },
            DesiredChanges {
                stop: 1,
                ignore: 2,
                ..dc()
            },
            (0, 0, 0),
        ),
        (
            "stop-failed-original-and-failed-replacements-and-place-new",
            DisconnectedCase {
                alloc_count: 5,
                desired: status::RUN,
                disconnected: 2,
                disconnected_status: status::FAILED,
                states: true,
                create_replacements: true,
                fail_replacement: true,
                ..DisconnectedCase::default()
            },
            Expect {
                stop: 4,
                place: 2,
                ..Expect::default()
            },
            DesiredChanges {
                stop: 4,
                place: 2,
                ignore: 3,
                ..dc()
            },
            (0, 0, 0),
        ),
        (
            "stop-expired-allocs",
            DisconnectedCase {
                disconnect: Some(DisconnectStrategy {
                    lost_after: 2 * SECOND,
                    ..DisconnectStrategy::default()
                }),
                node_disconnected: true,
                alloc_count: 5,
                desired: status::RUN,
                disconnected: 2,
                disconnected_status: status::UNKNOWN,
                states: true,
                create_replacements: true,
                ..DisconnectedCase::default()
            },
            Expect {
                stop: 2,
                ..Expect::default()
            },
            DesiredChanges {
                stop: 2,
                ignore: 5,
                ..dc()
            },
            (0, 0, 0),
        ),
    ];
    for (name, tc, expect, desired, counters) in cases {
        let (r, _, _) = disconnected_client(tc, V1112);
        assert_results(&r, expect, &web(desired));
        let g = &group(&r, "web").desired_changes;
        assert_eq!(
            (g.disconnect, g.reconnect, g.reschedule_now),
            counters,
            "{name}"
        );
    }
}

/// The cases of TestReconciler_Disconnected_Client
/// (scheduler/reconciler/reconcile_cluster_test.go at v1.11.2; the same at
/// v2.0.0 and v2.0.5) that need the reconnect picker or the chain of
/// replacements, under 1.11.2, 2.0.0, 2.0.5 and head.
///
/// "resume-original-and-stop-replacement": Nomad's mock picker is told to
/// keep the original under keep_original, which the real picker does by the
/// strategy: the original reconnects and its replacement is stopped.
///
/// "second-replacements-are-reconnected": each original's replacement failed
/// and was replaced; the picker is not called (the original's only
/// replacement is terminal), the originals reconnect and the group's two
/// surplus running allocations are stopped by name index (Nomad's test
/// counts the stops and checks only that no original is among them).
#[test]
fn test_reconciler_disconnected_client_picker_cases_1_11_2() {
    for release in [V1112, V200, v(2, 0, 5), Release::Head] {
        let (r, originals, replacements) = disconnected_client(
            DisconnectedCase {
                disconnect: Some(DisconnectStrategy {
                    lost_after: 5 * MINUTE,
                    reconcile: reconcile_option::KEEP_ORIGINAL.into(),
                    ..DisconnectStrategy::default()
                }),
                alloc_count: 3,
                desired: status::RUN,
                disconnected: 1,
                disconnected_status: status::RUNNING,
                states: true,
                create_replacements: true,
                ..DisconnectedCase::default()
            },
            release,
        );
        let expect = Expect {
            stop: 1,
            reconnect_updates: 1,
            ..Expect::default()
        };
        let desired = DesiredChanges {
            stop: 1,
            ignore: 3,
            ..dc()
        };
        assert_results(&r, expect, &web(desired));
        let g = &group(&r, "web").desired_changes;
        assert_eq!((g.disconnect, g.reconnect, g.reschedule_now), (0, 1, 0));
        assert_eq!(reconnected(&r), originals, "{release}");
        assert_eq!(stopped(&r), replacements, "{release}");

        let (r, originals, second) = disconnected_client(
            DisconnectedCase {
                disconnect: Some(DisconnectStrategy {
                    lost_after: 5 * MINUTE,
                    ..DisconnectStrategy::default()
                }),
                alloc_count: 5,
                desired: status::RUN,
                disconnected: 2,
                disconnected_status: status::RUNNING,
                states: true,
                create_replacements: true,
                fail_replacement: true,
                replace_failed_replacement: true,
                ..DisconnectedCase::default()
            },
            release,
        );
        let expect = Expect {
            stop: 2,
            reconnect_updates: 2,
            ..Expect::default()
        };
        let desired = DesiredChanges {
            stop: 2,
            ignore: 5,
            ..dc()
        };
        assert_results(&r, expect, &web(desired));
        let g = &group(&r, "web").desired_changes;
        assert_eq!((g.disconnect, g.reconnect, g.reschedule_now), (0, 2, 0));
        assert_eq!(reconnected(&r), originals, "{release}");
        // computeStop's surplus: the highest name indexes, which are two
        // untainted allocations; the second replacements (web[0], web[1])
        // run on.
        let names = sorted(r.plan.stop.iter().map(|s| s.name.clone()));
        assert_eq!(
            names,
            ["mock-service.web[3]", "mock-service.web[4]"],
            "{release}"
        );
        assert!(stopped(&r).iter().all(|id| !second.contains(id)));
    }
}

/// TestReconciler_filterServerTerminalAllocs
/// (scheduler/reconciler/filters_test.go at v1.11.0): five running
/// allocations and one the server stopped or evicted: a service's is set
/// aside, a batch job's (without a reschedule transition) kept.
#[test]
fn test_reconciler_filter_server_terminal_allocs() {
    for (batch, desired) in [
        (false, status::STOP),
        (false, status::EVICT),
        (true, status::STOP),
        (true, status::EVICT),
    ] {
        let mut c = Cluster::new();
        let mut spec = mock_job();
        spec.task_groups[0].count = 5;
        if batch {
            spec.job_type = "batch".into();
        }
        let job = c.job(spec);
        build_allocations(&mut c, &job, 5, status::RUNNING, status::RUN, 2.0);
        let extra = c.alloc(&job, 5);
        c.alloc_mut(&extra).desired_status = desired.into();
        let r = replay_as(&mut c, V1110, JOB);
        let set_aside: Vec<String> = group(&r, "web")
            .set_aside
            .iter()
            .map(|e| e.id.to_string())
            .collect();
        let want: &[&str] = if batch { &[] } else { &[extra.as_str()] };
        assert_eq!(set_aside, want, "batch={batch} desired={desired}");
    }
}

/// Open point 5 of the catalogue: from 1.11.0 `isDeploymentComplete`
/// counts the placements a group emits (reconcile_cluster.go:564). A paused
/// deployment of a group of 15 with 10 healthy allocations withholds the 5
/// placements: 1.10.5 counts them and leaves the deployment running,
/// 1.11.0 counts none and marks the paused deployment successful.
#[test]
fn a_paused_deployment_withholding_placements_completes_from_1_11_0() {
    let mut c = Cluster::new();
    let job = c.job(job_with(15, Some(no_canary_update())));
    let d = c.new_deployment(&job);
    c.deployment_mut(&d).status = deployment_status::PAUSED.into();
    c.set_deployment_state(
        &d,
        "web",
        DeploymentState {
            desired_total: 10,
            placed_allocs: 10,
            healthy_allocs: 10,
            ..DeploymentState::default()
        },
    );
    c.allocs(&job, 10);
    let old = replay_as(&mut c, V1105, JOB);
    assert!(old.plan.place.is_empty());
    assert!(old.plan.deployment_updates.is_empty());
    let new = replay_as(&mut c, V1110, JOB);
    assert!(new.plan.place.is_empty());
    let statuses: Vec<&str> = new
        .plan
        .deployment_updates
        .iter()
        .map(|u| u.status.as_str())
        .collect();
    assert_eq!(statuses, [deployment_status::SUCCESSFUL]);
}

/// TestReconciler_Client_Disconnect_Canaries
/// (scheduler/reconciler/reconcile_cluster_test.go at v1.11.2, and
/// scheduler/reconcile_test.go at v1.10.5): a deployment with canaries
/// while a node disconnects, `disconnect { lost_after = 10m }`. The plans
/// are the same; 1.10.5 counts the three (or four) stopped allocations as
/// ignored, 1.11 sets them aside first, and the 1.11 counters count the
/// disconnects, all rescheduled now.
#[test]
fn test_reconciler_client_disconnect_canaries_1_11_2() {
    use crate::version_reconnect::{
        CanaryCase, DEPLOYED, DEPLOYED_PENDING_LOST, run_disconnect_canaries_as,
    };
    use status::{PENDING, RUN, RUNNING, UNKNOWN};
    let case = |desired_canaries, deployed, canaries, stop, place, ignore| CanaryCase {
        desired_canaries,
        deployed,
        canaries,
        expected: Expect {
            stop,
            place,
            disconnect_updates: place,
            ..Expect::default()
        },
        desired: DesiredChanges {
            place: place as u64,
            ignore,
            ..dc()
        },
    };
    // (name, canaries, desired canaries, stops, placements, ignored at
    // 1.10.5, ignored at 1.11.2)
    type Row = (
        &'static str,
        &'static [(u64, &'static str, &'static str, bool)],
        i64,
        &'static [(u64, &'static str, &'static str, bool)],
        usize,
        usize,
        u64,
        u64,
    );
    let rows: [Row; 3] = [
        (
            "3-placed-1-disconnect",
            &DEPLOYED,
            1,
            &[
                (0, RUNNING, RUN, false),
                (2, PENDING, RUN, false),
                (1, RUNNING, RUN, true),
            ],
            0,
            3,
            6,
            3,
        ),
        (
            "ignore-unknown",
            &DEPLOYED,
            1,
            &[
                (0, RUNNING, RUN, false),
                (2, PENDING, RUN, false),
                (1, UNKNOWN, RUN, true),
            ],
            0,
            2,
            7,
            4,
        ),
        (
            "4-placed-2-pending-lost",
            &DEPLOYED_PENDING_LOST,
            2,
            &[
                (0, RUNNING, RUN, false),
                (2, RUNNING, RUN, false),
                (1, PENDING, RUN, true),
                (3, PENDING, RUN, true),
            ],
            2,
            2,
            6,
            3,
        ),
    ];
    for (name, deployed, canaries_wanted, canaries, stop, place, old_ignore, ignore) in rows {
        run_disconnect_canaries_as(
            case(canaries_wanted, deployed, canaries, stop, place, old_ignore),
            V1105,
        );
        let r = run_disconnect_canaries_as(
            case(canaries_wanted, deployed, canaries, stop, place, ignore),
            V1112,
        );
        let g = &group(&r, "web").desired_changes;
        assert_eq!(
            (g.disconnect, g.reschedule_now),
            (place as u64, place as u64),
            "{name}"
        );
    }
}

/// The steps of `subject`'s explanation replayed as `release`, as
/// (title, conclusion) pairs.
fn explain_steps(c: &Cluster, release: Release, subject: &str) -> Vec<(String, String)> {
    let options = plan_inspect::replay::Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..plan_inspect::replay::Options::default()
    };
    let e = plan_inspect::explain::explain(&c.snapshot, &options, subject).expect("explain failed");
    e.steps
        .into_iter()
        .map(|s| (s.title, s.conclusion))
        .collect()
}

fn explain_step(c: &Cluster, release: Release, subject: &str, title: &str) -> Option<String> {
    explain_steps(c, release, subject)
        .into_iter()
        .find(|(t, _)| t == title)
        .map(|(_, conclusion)| conclusion)
}

/// `--explain` states G-0's set-aside from 1.11.0: a server-stopped
/// allocation of a disconnect group is ignored by the rule list up to 1.10.5
/// and set aside before classification from 1.11.0.
#[test]
fn explain_sets_server_terminal_allocs_aside_from_1_11_0() {
    let mut c = Cluster::new();
    let mut spec = disconnect_job(HOUR, None);
    spec.task_groups[0].count = 1;
    let job = c.job(spec);
    let running = c.alloc(&job, 0);
    c.alloc_mut(&running).client_status = status::RUNNING.into();
    let stopped = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&stopped);
        a.client_status = status::COMPLETE.into();
        a.desired_status = status::STOP.into();
    }
    assert_eq!(
        explain_step(&c, V1105, &stopped, "Bucket").as_deref(),
        Some("ignore")
    );
    assert_eq!(explain_step(&c, V1105, &stopped, "Set aside"), None);
    for release in [V1110, V1112, v(2, 0, 4), Release::Head] {
        assert_eq!(explain_step(&c, release, &stopped, "Bucket"), None);
        assert_eq!(
            explain_step(&c, release, &stopped, "Set aside").as_deref(),
            Some("stopped or evicted by the server: dropped before classification"),
            "{release}"
        );
    }
}

/// `--explain` states G-0's whole-group stop of `count = 0` from 1.11.0:
/// 1.10.5 explains the failed allocation's reschedule; from 1.11.0 a Group
/// step says the group is stopped whole and no Rescheduling step follows.
#[test]
fn explain_states_a_group_of_count_zero_is_stopped_whole_from_1_11_0() {
    let mut c = Cluster::new();
    let mut spec = mock_job();
    spec.task_groups[0].count = 0;
    let job = c.job(spec);
    let failed = c.alloc(&job, 0);
    fail_at(c.alloc_mut(&failed), now().add(-HOUR));
    assert_eq!(explain_step(&c, V1105, &failed, "Group"), None);
    assert!(
        explain_step(&c, V1105, &failed, "Rescheduling")
            .unwrap()
            .starts_with("reschedule now")
    );
    for release in [V1110, V1112, v(2, 0, 4), Release::Head] {
        assert_eq!(
            explain_step(&c, release, &failed, "Group").as_deref(),
            Some(
                "count = 0: stopped whole, as a removed group is; nothing is rescheduled or placed"
            ),
            "{release}"
        );
        assert_eq!(explain_step(&c, release, &failed, "Rescheduling"), None);
        assert_eq!(
            explain_step(&c, release, &failed, "Plan").as_deref(),
            Some("stop: \"alloc not needed due to job update\"")
        );
    }
}

/// `--explain` states G-1's `replace = false` rule from 1.11.2: D-4b's
/// "never replaces" up to 1.11.1, "never reschedules" (filters.go:411) from
/// 1.11.2, instead of falling through to the deployment wording.
#[test]
fn explain_states_replace_false_holds_a_disconnecting_alloc_from_1_11_2() {
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
        explain_step(&c, V1111, &id, "Rescheduling").as_deref(),
        Some(
            "not rescheduled: with a disconnect block, replace = false never replaces a \
             disconnecting allocation"
        )
    );
    for release in [V1112, v(2, 0, 4), Release::Head] {
        assert_eq!(
            explain_step(&c, release, &id, "Rescheduling").as_deref(),
            Some("not rescheduled: replace = false never reschedules a disconnecting allocation"),
            "{release}"
        );
    }
}

/// `--explain` names 1.11.2's rule for an unknown allocation on a ready node
/// (open point 1): untainted by "not yet expired" up to 1.11.1, reconnecting
/// from 1.11.2, and then weighed against its replacement.
#[test]
fn explain_names_the_ready_node_reconnecting_rule_from_1_11_2() {
    let mut c = Cluster::new();
    let mut job = disconnect_job(HOUR, Some(true));
    job.task_groups[0].count = 1;
    let job = c.job(job);
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).client_status = status::UNKNOWN.into();
    client_state(&mut c, &id, status::UNKNOWN, 10 * MINUTE);
    let replacement = c.alloc(&job, 0);
    {
        let r = c.alloc_mut(&replacement);
        r.previous_allocation = (&id).into();
        r.create_index += 1;
    }
    c.alloc_mut(&id).next_allocation = (&replacement).into();
    set_node_score(&mut c, &id, 0.5);
    set_node_score(&mut c, &replacement, 0.9);
    assert_eq!(
        explain_step(&c, V1111, &id, "Bucket").as_deref(),
        Some("untainted")
    );
    assert_eq!(explain_step(&c, V1111, &id, "Reconnect"), None);
    for release in [V1112, v(2, 0, 4), Release::Head] {
        assert_eq!(
            explain_step(&c, release, &id, "Bucket").as_deref(),
            Some("reconnecting"),
            "{release}"
        );
        assert_eq!(
            explain_step(&c, release, &id, "Reconnect").as_deref(),
            Some("the replacement's node scored higher: replacement kept")
        );
    }
}

/// From 1.11.0 a group that runs the job's version is "updating spec" only
/// with its own destructive or in-place updates (v1.11.2
/// scheduler/reconciler/reconcile_cluster.go:546, :1046); 1.10.5 counts the
/// in-place updates of the groups before it (scheduler/reconcile.go:974).
/// Group "api" (no update strategy) is updated in place; group "web" runs
/// the new version and places one allocation: 1.10.5 creates a deployment
/// for "web", 1.11.0 none.
#[test]
fn reconcile_cluster_go_546_1046_v1_11_2_earlier_in_place_updates_create_no_deployment() {
    let mut c = Cluster::new();
    let mut old = job_with(2, Some(no_canary_update()));
    let mut api = old.task_groups[0].clone();
    api.name = "api".into();
    api.count = 1;
    api.update = None;
    old.task_groups.insert(0, api);
    let old = Arc::new(old);
    let mut spec = inplace_update(&old);
    spec.version += 1;
    let job = c.job(spec);
    c.alloc_in(&old, "api", 0);
    c.alloc_in(&job, "web", 0);

    let before = replay_as(&mut c, V1105, JOB);
    assert_eq!(before.plan.in_place_update.len(), 1);
    assert_created_deployment(
        &before,
        &job,
        deployment_status::DESC_RUNNING,
        &[("web", 1, 0)],
    );
    for release in [V1110, V1111, V1112, V200] {
        let r = replay_as(&mut c, release, JOB);
        assert_eq!(r.plan.in_place_update.len(), 1, "{release}");
        assert_eq!(r.plan.place.len(), 1, "{release}");
        assert!(r.plan.deployment.is_none(), "{release}");
    }
}
