//! Which copy survives a reconnect by the group's `disconnect.reconcile`
//! strategy (D-4a, 1.8.0): best_score, keep_original, keep_replacement or
//! longest_running, after "a replacement of a newer job is kept"; and from
//! E-2 (1.9.1, 1.10.0) against the whole chain of replacements.
//!
//! scheduler/reconnecting_picker/reconnecting_picker_test.go at v1.8.0 is
//! ported against `pick_reconnecting_alloc`, and the strategy cases of
//! TestReconciler_Disconnected_Client (scheduler/reconcile_test.go at
//! v1.8.0) with the harness of `disconnect`. Nomad's test swaps in a mock
//! picker there; here the real one runs, so each case says what makes it
//! pick as the mock did.

use std::sync::Arc;

use plan_inspect::model::ReconcileStrategy;
use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, desc, pick_reconnecting_alloc};
use plan_inspect::time::{Duration, Time};
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::json;

use crate::common::*;
use crate::disconnect::{Case, reconnected as reconnect_updates, run_disconnected_client, stopped};

const V177: Release = v(1, 7, 7);
const V180: Release = v(1, 8, 0);
const V190: Release = v(1, 9, 0);
const V191: Release = v(1, 9, 1);

/// A job of `version` and `create_index` with the given groups.
fn job(version: u64, create_index: u64, groups: Vec<TaskGroup>) -> Arc<Job> {
    Arc::new(Job {
        version,
        create_index,
        task_groups: groups.into_iter().map(Into::into).collect(),
        ..Job::default()
    })
}

fn group(name: &str, tasks: &[(&str, bool)]) -> TaskGroup {
    TaskGroup {
        name: name.into(),
        tasks: tasks
            .iter()
            .map(|&(name, leader)| Task {
                name: name.into(),
                leader,
                ..Task::default()
            })
            .map(Into::into)
            .collect(),
        ..TaskGroup::default()
    }
}

fn scored(score: f64) -> NormScore {
    NormScore::new(score)
}

/// A task state read from the snapshot's `StartedAt`, `Restarts` and
/// `LastRestart`, so that `LastStartOfTask` is the reader's.
fn started(started_at: Time, restarts: u64, last_restart: Time) -> TaskState {
    serde_json::from_value(json!({
        "State": "running",
        "StartedAt": started_at,
        "Restarts": restarts,
        "LastRestart": last_restart,
    }))
    .unwrap()
}

fn ago(d: Duration) -> Time {
    now().add(-d)
}

/// Whether the original is the one kept.
fn keeps_original(
    strategy: ReconcileStrategy,
    original: &Allocation,
    replacement: &Allocation,
) -> bool {
    pick_reconnecting_alloc(strategy, original, replacement, now())
        .verdict
        .reconnecting_kept()
}

/// TestPickReconnectingAlloc_NewerVersion
/// (scheduler/reconnecting_picker/reconnecting_picker_test.go at v1.8.0): a
/// replacement of a newer job version or job create index is kept whatever
/// the strategy (Nomad's test names one it does not know, "best-score").
#[test]
fn test_pick_reconnecting_alloc_newer_version() {
    let replacement = Allocation {
        job: Some(job(2, 2, Vec::new())),
        ..Allocation::default()
    };
    for (name, version, create_index) in [
        ("original_is_older", 1, 1),
        ("original_has_older_version", 1, 2),
        ("original_has_older_create_index", 2, 1),
    ] {
        let original = Allocation {
            job: Some(job(version, create_index, Vec::new())),
            ..Allocation::default()
        };
        for strategy in [
            ReconcileStrategy::BestScore,
            ReconcileStrategy::KeepOriginal,
            ReconcileStrategy::LongestRunning,
        ] {
            assert!(
                !keeps_original(strategy, &original, &replacement),
                "{name} {strategy:?}"
            );
        }
    }
}

/// TestPickReconnectingAlloc_DifferentStrategies
/// (scheduler/reconnecting_picker/reconnecting_picker_test.go at v1.8.0):
/// the original started an hour ago and scored 10, the replacement started
/// 30 minutes ago and scored 20, neither running.
#[test]
fn test_pick_reconnecting_alloc_different_strategies() {
    let tg = vec![group("taskgroup1", &[("task1", false)])];
    let mut original = Allocation {
        task_group: "taskgroup1".into(),
        job: Some(job(1, 1, tg.clone())),
        norm_score: scored(10.0),
        ..Allocation::default()
    };
    original
        .task_states
        .insert("task1".into(), started(ago(HOUR), 0, Time::ZERO));
    let mut replacement = Allocation {
        job: Some(job(1, 1, tg)),
        norm_score: scored(20.0),
        ..Allocation::default()
    };
    replacement
        .task_states
        .insert("task1".into(), started(ago(30 * MINUTE), 0, Time::ZERO));
    for (name, strategy, original_kept) in [
        (
            "keep_the_allocation_with_the_best_score",
            ReconcileStrategy::BestScore,
            false,
        ),
        (
            "keep_the_original_allocation",
            ReconcileStrategy::KeepOriginal,
            true,
        ),
        (
            "keep_the_replacement_allocation",
            ReconcileStrategy::KeepReplacement,
            false,
        ),
        (
            "keep_the_longest_running_allocation",
            ReconcileStrategy::LongestRunning,
            true,
        ),
    ] {
        assert_eq!(
            keeps_original(strategy, &original, &replacement),
            original_kept,
            "{name}"
        );
    }
}

/// TestPickReconnectingAlloc_BestScore
/// (scheduler/reconnecting_picker/reconnecting_picker_test.go at v1.8.0):
/// the original scores 10.
#[test]
fn test_pick_reconnecting_alloc_best_score() {
    use status::{PENDING, RUNNING};
    for (name, replacement_score, original_status, replacement_status, original_kept) in [
        (
            "replacement_has_better_score_and_running",
            20.0,
            RUNNING,
            RUNNING,
            false,
        ),
        (
            "original_has_better_score_and_running",
            5.0,
            RUNNING,
            RUNNING,
            true,
        ),
        (
            "replacement_has_better_score_but_replacement_not_running",
            20.0,
            RUNNING,
            PENDING,
            true,
        ),
        (
            "replacement_has_better_score_and_original_not_running",
            20.0,
            PENDING,
            RUNNING,
            false,
        ),
        (
            "original_has_better_score_but_not_running",
            5.0,
            PENDING,
            RUNNING,
            true,
        ),
        (
            "original_has_better_score_and_replacement_not_running",
            5.0,
            RUNNING,
            PENDING,
            true,
        ),
    ] {
        let original = Allocation {
            task_group: "taskgroup1".into(),
            client_status: original_status.into(),
            job: Some(job(1, 1, Vec::new())),
            norm_score: scored(10.0),
            ..Allocation::default()
        };
        let replacement = Allocation {
            client_status: replacement_status.into(),
            norm_score: scored(replacement_score),
            ..original.clone()
        };
        assert_eq!(
            keeps_original(ReconcileStrategy::BestScore, &original, &replacement),
            original_kept,
            "{name}"
        );
    }
}

/// TestPickReconnectingAlloc_LongestRunning
/// (scheduler/reconnecting_picker/reconnecting_picker_test.go at v1.8.0):
/// only task2 has a state; the original scores 10, the replacement 20, so
/// best_score (the fallback when neither started) keeps the replacement.
#[test]
fn test_pick_reconnecting_alloc_longest_running() {
    let three = [("task1", false), ("task2", false), ("task3", false)];
    let with_leader = [("task1", false), ("task2", true), ("task3", false)];
    let groups = vec![
        group("taskGroupNoLeader", &three),
        group("taskGroupWithLeader", &with_leader),
        group("emptyTaskGroup", &[]),
    ];
    let restarted = started(ago(30 * MINUTE), 2, ago(10 * MINUTE));
    let plain = started(ago(HOUR), 0, Time::ZERO);
    let never = started(Time::ZERO, 0, Time::ZERO);
    let cases = [
        (
            "original_with_no_restart",
            "taskGroupNoLeader",
            &plain,
            &restarted,
            true,
        ),
        (
            "original_with_no_restart_on_leader",
            "taskGroupWithLeader",
            &plain,
            &restarted,
            true,
        ),
        (
            "empty_task_group",
            "emptyTaskGroup",
            &plain,
            &restarted,
            false,
        ),
        (
            "original_with_no_restart_on_leader",
            "taskGroupNoLeader",
            &plain,
            &restarted,
            true,
        ),
        (
            "original_with_older_restarts",
            "taskGroupNoLeader",
            &started(ago(HOUR), 4, ago(50 * MINUTE)),
            &restarted,
            true,
        ),
        (
            "original_with_newer_restarts",
            "taskGroupNoLeader",
            &started(ago(HOUR), 4, ago(5 * MINUTE)),
            &restarted,
            false,
        ),
        (
            "original_with_zero_start_time",
            "taskGroupNoLeader",
            &never,
            &restarted,
            false,
        ),
        (
            "replacement_with_zero_start_time",
            "taskGroupNoLeader",
            &started(ago(30 * MINUTE), 2, ago(10 * MINUTE)),
            &never,
            true,
        ),
        (
            "both_with_zero_start_time_pick_best_score",
            "taskGroupNoLeader",
            &never,
            &never,
            false,
        ),
    ];
    for (name, tg, original_state, replacement_state, original_kept) in cases {
        let mut original = Allocation {
            task_group: tg.into(),
            job: Some(job(1, 1, groups.clone())),
            norm_score: scored(10.0),
            ..Allocation::default()
        };
        original
            .task_states
            .insert("task2".into(), original_state.clone());
        let mut replacement = Allocation {
            norm_score: scored(20.0),
            ..original.clone()
        };
        replacement
            .task_states
            .insert("task2".into(), replacement_state.clone());
        assert_eq!(
            keeps_original(ReconcileStrategy::LongestRunning, &original, &replacement),
            original_kept,
            "{name}"
        );
    }
}

/// Equal start times keep the replacement; a leader task decides even when
/// another task started earlier; starts not before the evaluation time are
/// not counted for the oldest task (Nomad caps them at its wall clock).
#[test]
fn longest_running_ties_go_to_the_replacement_and_later_starts_are_ignored() {
    let groups = vec![
        group("plain", &[("a", false), ("b", false)]),
        group("led", &[("a", false), ("b", true)]),
    ];
    let alloc = |tg: &str, a: Time, b: Time| {
        let mut alloc = Allocation {
            task_group: tg.into(),
            job: Some(job(1, 1, groups.clone())),
            ..Allocation::default()
        };
        alloc
            .task_states
            .insert("a".into(), started(a, 0, Time::ZERO));
        alloc
            .task_states
            .insert("b".into(), started(b, 0, Time::ZERO));
        alloc
    };
    let lr = ReconcileStrategy::LongestRunning;
    let t = ago(HOUR);
    // Equal starts.
    assert!(!keeps_original(
        lr,
        &alloc("plain", t, t),
        &alloc("plain", t, t)
    ));
    // The oldest of two tasks: the original's task a started two hours ago.
    assert!(keeps_original(
        lr,
        &alloc("plain", ago(2 * HOUR), t),
        &alloc("plain", t, t)
    ));
    // The leader b decides: the original's b started later.
    assert!(!keeps_original(
        lr,
        &alloc("led", ago(2 * HOUR), ago(MINUTE)),
        &alloc("led", t, t)
    ));
    // The original's tasks started after the evaluation time: none counts,
    // so only the replacement started.
    let future = now().add(MINUTE);
    let (late, early) = (alloc("plain", future, future), alloc("plain", t, t));
    let d = pick_reconnecting_alloc(lr, &late, &early, now());
    assert_eq!(d.starts, Some((Time::ZERO, t)));
    assert!(!d.verdict.reconnecting_kept());
}

/// TestReconciler_Disconnected_Client, case
/// "resume-original-and-stop-replacement" (scheduler/reconcile_test.go at
/// v1.8.0), whose mock picker is told to keep the original under
/// keep_original: the real picker does so by the strategy.
#[test]
fn test_reconciler_disconnected_client_resume_original_and_stop_replacement_v1_8_0() {
    let (r, disconnected, replacements) = run_disconnected_client(Case {
        release: Some(V180),
        reconnect_by_state: true,
        disconnect_block: true,
        alloc_count: 3,
        replace: true,
        disconnected_alloc_count: 1,
        disconnected_alloc_status: status::RUNNING,
        max_disconnect: Some(5 * MINUTE),
        reconcile_strategy: Some(reconcile_option::KEEP_ORIGINAL),
        // The replacement's node scored better: best_score would keep it.
        node_score_increment: 1.0,
        expected: Expect {
            stop: 1,
            reconnect_updates: 1,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 1,
            ignore: 3,
            ..dc()
        },
        ..Case::default()
    });
    assert_eq!(reconnect_updates(&r), disconnected);
    assert_eq!(stopped(&r), replacements);
}

/// The same case under keep_replacement (the mock's other answer): the
/// original is stopped as not needed, the replacement kept.
#[test]
fn keep_replacement_stops_the_reconnected_original() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        release: Some(V180),
        reconnect_by_state: true,
        disconnect_block: true,
        alloc_count: 3,
        replace: true,
        disconnected_alloc_count: 1,
        disconnected_alloc_status: status::RUNNING,
        should_stop_on_disconnected_node: true,
        max_disconnect: Some(5 * MINUTE),
        reconcile_strategy: Some(reconcile_option::KEEP_REPLACEMENT),
        expected: Expect {
            stop: 1,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 1,
            ignore: 3,
            ..dc()
        },
        stop_desc: Some((desc::NOT_NEEDED, None)),
        ..Case::default()
    });
    assert_eq!(stopped(&r), disconnected);
}

/// TestReconciler_Disconnected_Client, case
/// "stop-original-alloc-with-old-job-version" (scheduler/reconcile_test.go
/// at v1.8.0) under keep_original: the replacement of a newer job version
/// is kept before the strategy is asked.
#[test]
fn test_reconciler_disconnected_client_stop_original_alloc_with_old_job_version_keep_original() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        release: Some(V180),
        reconnect_by_state: true,
        disconnect_block: true,
        alloc_count: 5,
        replace: true,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::RUNNING,
        should_stop_on_disconnected_node: true,
        job_version_increment: 1,
        max_disconnect: Some(5 * MINUTE),
        reconcile_strategy: Some(reconcile_option::KEEP_ORIGINAL),
        expected: Expect {
            stop: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 2,
            ignore: 5,
            ..dc()
        },
        ..Case::default()
    });
    assert_eq!(stopped(&r), sorted(disconnected));
}

/// An original reconnecting while its replacement runs: the original's task
/// started an hour ago, the replacement's ten minutes ago on a node that
/// scored higher; the group sets `reconcile`. Returns the cluster, the
/// original and the replacement.
fn reconnect_with_strategy(reconcile: &str) -> (Cluster, String, String) {
    let mut c = Cluster::new();
    // max_client_disconnect too, so that 1.7.7 supports the disconnect.
    let mut spec = resumable(1, Some(HOUR));
    spec.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: HOUR,
        reconcile: reconcile.into(),
        ..DisconnectStrategy::default()
    });
    let job = c.job(spec);
    let original = c.alloc(&job, 0);
    set_node_score(&mut c, &original, 2.0);
    client_state(&mut c, &original, status::UNKNOWN, 20 * MINUTE);
    let replacement = c.alloc(&job, 0);
    set_node_score(&mut c, &replacement, 3.0);
    let web = |c: &mut Cluster, id: &str, at: Time| {
        c.alloc_mut(id)
            .task_states
            .insert("web".into(), started(at, 0, Time::ZERO));
    };
    web(&mut c, &original, ago(HOUR));
    web(&mut c, &replacement, ago(10 * MINUTE));
    {
        let a = c.alloc_mut(&replacement);
        a.previous_allocation = (&original).into();
        a.create_index = 1;
    }
    c.alloc_mut(&original).next_allocation = (&replacement).into();
    (c, original, replacement)
}

fn replay_at(c: &mut Cluster, release: Release) -> plan_inspect::report::JobReport {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay_job(JOB)
}

/// D-4a's strategies start at 1.8.0 (no backport): 1.7.7 reads no
/// `disconnect` block and weighs by the best score, keeping the replacement
/// that scored higher; 1.8.0 keeps the original under longest_running and
/// keep_original, the replacement under best_score and keep_replacement.
#[test]
fn the_reconcile_strategy_decides_from_1_8_0() {
    for (strategy, original_kept) in [
        (reconcile_option::LONGEST_RUNNING, true),
        (reconcile_option::KEEP_ORIGINAL, true),
        (reconcile_option::BEST_SCORE, false),
        (reconcile_option::KEEP_REPLACEMENT, false),
        ("", false),
    ] {
        let (mut c, original, replacement) = reconnect_with_strategy(strategy);
        let r = replay_at(&mut c, V177);
        assert_eq!(
            stops(&r),
            [(original.clone(), desc::NOT_NEEDED.to_string(), None)],
            "{strategy} at 1.7.7"
        );
        let r = replay_at(&mut c, V180);
        let expected = if original_kept {
            (replacement.clone(), desc::RECONNECTED.to_string(), None)
        } else {
            (original.clone(), desc::NOT_NEEDED.to_string(), None)
        };
        assert_eq!(stops(&r), [expected], "{strategy} at 1.8.0");
        assert_eq!(
            reconnect_updates(&r).len(),
            usize::from(original_kept),
            "{strategy} at 1.8.0"
        );
    }
}

/// `--explain` under 1.8.0 names the strategy that kept the original and
/// both start times.
#[test]
fn explain_names_the_longest_running_strategy() {
    use plan_inspect::explain::explain;
    use plan_inspect::replay::Options;
    let (mut c, _, replacement) = reconnect_with_strategy(reconcile_option::LONGEST_RUNNING);
    c.snapshot.nomad_version = Some(VersionRequest::Release(V180));
    let e = explain(&c.snapshot, &Options::default(), &replacement).expect("explain failed");
    let text = plan_inspect::render::explain::table(&e, false, 400, true);
    assert!(
        text.contains(
            "Reconnect: job not newer, and by the group's disconnect strategy longest_running \
             the original's tasks started first (or only the original's started): original kept"
        ),
        "{text}"
    );
    assert!(
        text.contains("original started     2022-04-01T11:00:00Z (1h0m0s ago)"),
        "{text}"
    );
    assert!(
        text.contains("replacement started  2022-04-01T11:50:00Z (10m0s ago)"),
        "{text}"
    );
}

/// "stop-original-alloc-failed-replacements-replaced" of
/// TestReconciler_Disconnected_Client: two originals reconnect, each
/// replaced by a failed allocation (desired stop) that was itself replaced.
fn failed_replacements_replaced(release: Release, node_score_increment: f64) -> Case {
    Case {
        release: Some(release),
        reconnect_by_state: true,
        disconnect_block: true,
        alloc_count: 5,
        replace: true,
        fail_replacement: true,
        replace_failed_replacement: true,
        disconnected_alloc_count: 2,
        disconnected_alloc_status: status::RUNNING,
        node_score_increment,
        ..Case::default()
    }
}

/// TestReconciler_Disconnected_Client, case
/// "stop-original-alloc-failed-replacements-replaced"
/// (scheduler/reconcile_test.go at v1.9.1), whose mock picker keeps the
/// replacement: the second replacements' nodes score higher here, so
/// best_score keeps them. Down the chain past the stopped failed
/// replacement, each original meets the running one and is stopped.
#[test]
fn test_reconciler_disconnected_client_stop_original_alloc_failed_replacements_replaced_v1_9_1() {
    let (r, disconnected, _) = run_disconnected_client(Case {
        expected: Expect {
            stop: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 2,
            ignore: 7,
            ..dc()
        },
        stop_desc: Some((desc::NOT_NEEDED, None)),
        ..failed_replacements_replaced(V191, 1.0)
    });
    assert_eq!(stopped(&r), sorted(disconnected));
}

/// The same case as v1.8.0 has it, under 1.9.0: the only successor
/// compared is the failed replacement, stopped by the server and so
/// skipped; both originals resume and the count cuts two allocations.
#[test]
fn test_reconciler_disconnected_client_stop_original_alloc_failed_replacements_replaced_v1_8_0() {
    for release in [V180, V190] {
        let (r, disconnected, _) = run_disconnected_client(Case {
            expected: Expect {
                stop: 2,
                reconnect_updates: 2,
                ..Expect::default()
            },
            desired: DesiredChanges {
                stop: 2,
                ignore: 7,
                ..dc()
            },
            ..failed_replacements_replaced(release, 1.0)
        });
        assert_eq!(reconnect_updates(&r), sorted(disconnected), "{release}");
    }
}

/// With equal scores best_score keeps the originals from 1.9.1: the running
/// second replacements down the chain are stopped as reconnected.
#[test]
fn the_originals_kept_stop_the_replacements_down_the_chain_from_1_9_1() {
    let (r, disconnected, replacements) = run_disconnected_client(Case {
        expected: Expect {
            stop: 2,
            reconnect_updates: 2,
            ..Expect::default()
        },
        desired: DesiredChanges {
            stop: 2,
            ignore: 7,
            ..dc()
        },
        ..failed_replacements_replaced(V191, 0.0)
    });
    assert_eq!(reconnect_updates(&r), sorted(disconnected));
    // `replacements` lists each second replacement before the failed one.
    let second: Vec<String> = replacements.iter().step_by(2).cloned().collect();
    assert_eq!(stopped(&r), sorted(second));
    assert!(
        r.plan
            .stop
            .iter()
            .all(|s| s.description == desc::RECONNECTED)
    );
}

/// TestReconciler_Disconnected_Client, case
/// "stop-original-alloc-desired-status-stop" (scheduler/reconcile_test.go
/// at v1.9.1): every allocation built is desired to stop, so the
/// reconnecting original is stopped without a comparison; the failed
/// replacement is ignored and its running successor kept.
#[test]
fn test_reconciler_disconnected_client_stop_original_alloc_desired_status_stop() {
    {
        let (r, disconnected, _) = run_disconnected_client(Case {
            release: Some(V191),
            reconnect_by_state: true,
            disconnect_block: true,
            alloc_count: 1,
            replace: true,
            fail_replacement: true,
            replace_failed_replacement: true,
            disconnected_alloc_count: 1,
            disconnected_alloc_status: status::RUNNING,
            should_stop_on_reconnect: true,
            expected: Expect {
                stop: 1,
                ..Expect::default()
            },
            desired: DesiredChanges {
                stop: 1,
                ignore: 2,
                ..dc()
            },
            stop_desc: Some((desc::NOT_NEEDED, None)),
            ..Case::default()
        });
        assert_eq!(stopped(&r), disconnected);
    }
}

/// The catalogue's E-2 example: the original reconnects, its first
/// replacement failed (still desired to run) and was replaced by a running
/// one. Up to 1.9.0 only the failed one is compared, and D-1 does not stop
/// a failed replacement; from 1.9.1 and 1.10.0 both are compared and, the
/// original being kept on equal scores, both are stopped.
#[test]
fn the_whole_replacement_chain_is_weighed_from_1_9_1_and_1_10_0() {
    let mut c = Cluster::new();
    // The legacy field for 1.9, the block for 1.10 (F-1).
    let mut spec = resumable(1, Some(HOUR));
    spec.task_groups[0].disconnect = Some(DisconnectStrategy {
        lost_after: HOUR,
        ..DisconnectStrategy::default()
    });
    let job = c.job(spec);
    let original = c.alloc(&job, 0);
    client_state(&mut c, &original, status::UNKNOWN, 20 * MINUTE);
    let first = c.alloc(&job, 0);
    let second = c.alloc(&job, 0);
    for (id, prev, next, create_index) in [
        (&original, "", first.as_str(), 0),
        (&first, original.as_str(), second.as_str(), 1),
        (&second, first.as_str(), "", 2),
    ] {
        let a = c.alloc_mut(id);
        a.previous_allocation = prev.into();
        a.next_allocation = next.into();
        a.create_index = create_index;
    }
    failed_since(&mut c, &first, 10 * MINUTE);
    let r = replay_at(&mut c, V190);
    assert!(
        r.plan.stop.iter().all(|s| s.alloc_id != second),
        "{:?}",
        r.plan.stop
    );
    for release in [V191, v(1, 10, 0)] {
        let r = replay_at(&mut c, release);
        assert_eq!(
            reconnect_updates(&r),
            std::slice::from_ref(&original),
            "{release}"
        );
        assert_eq!(
            stops(&r),
            sorted([
                (first.clone(), desc::RECONNECTED.to_string(), None),
                (second.clone(), desc::RECONNECTED.to_string(), None),
            ]),
            "{release}"
        );
    }
}

/// A `NextAllocation` chain that loops back ends at the first allocation
/// seen again (Nomad would follow it forever): the replay still finishes,
/// weighing each member once.
#[test]
fn a_replacement_chain_that_loops_ends_at_its_first_repeat() {
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(HOUR)));
    let original = c.alloc(&job, 0);
    client_state(&mut c, &original, status::UNKNOWN, 20 * MINUTE);
    let first = c.alloc(&job, 0);
    let second = c.alloc(&job, 0);
    c.alloc_mut(&original).next_allocation = (&first).into();
    c.alloc_mut(&first).next_allocation = (&second).into();
    c.alloc_mut(&second).next_allocation = (&first).into();
    c.alloc_mut(&first).create_index = 1;
    c.alloc_mut(&second).create_index = 2;
    let r = replay_at(&mut c, V191);
    assert_eq!(reconnect_updates(&r), std::slice::from_ref(&original));
    assert_eq!(
        stops(&r),
        sorted([
            (first.clone(), desc::RECONNECTED.to_string(), None),
            (second.clone(), desc::RECONNECTED.to_string(), None),
        ])
    );
}

/// Every row of TestReconciler_Disconnected_Client at v1.8.0 not ported on
/// its own above (the same at v1.9.1 and v1.10.0), under 1.8.0, 1.9.1 and
/// 1.10.0: (name, case, stop, place, reconnect,
/// disconnect updates, DesiredChanges stop/place/ignore). The group has
/// the `disconnect` block of that tag's `buildResumableAllocations`, and
/// rows with `maxDisconnect` set both it and the block, as that test does.
/// In "replace-allocs-on-disconnected-node" Nomad's test replaces at once
/// because its evaluation ID and the allocations' follow-up ID are both
/// empty (catalogue section 10); here the server's `replace = true`
/// default does (D-4b), as on a real cluster.
#[test]
fn test_reconciler_disconnected_client_table_at_v1_8_0() {
    let running = |alloc_count: u64, disconnected: usize| Case {
        reconnect_by_state: true,
        disconnect_block: true,
        alloc_count,
        disconnected_alloc_count: disconnected,
        disconnected_alloc_status: status::RUNNING,
        ..Case::default()
    };
    let rows: [(&str, Case, [usize; 4], [u64; 3]); 8] = [
        (
            "reconnect-original-no-replacement",
            running(2, 2),
            [0, 0, 2, 0],
            [0, 0, 2],
        ),
        (
            "stop-original-failed-on-reconnect",
            Case {
                replace: true,
                disconnected_alloc_status: status::FAILED,
                should_stop_on_disconnected_node: true,
                ..running(4, 2)
            },
            [2, 0, 0, 0],
            [2, 0, 4],
        ),
        (
            "reschedule-original-failed-if-not-replaced",
            Case {
                disconnected_alloc_status: status::FAILED,
                should_stop_on_disconnected_node: true,
                ..running(4, 2)
            },
            [2, 2, 0, 0],
            [2, 2, 2],
        ),
        (
            "update-reconnect-completed",
            Case {
                disconnected_alloc_status: status::COMPLETE,
                is_batch: true,
                ..running(2, 2)
            },
            [0, 0, 0, 0],
            [0, 0, 2],
        ),
        (
            "stop-original-pending-alloc-for-disconnected-node",
            Case {
                replace: true,
                disconnected_alloc_status: status::PENDING,
                should_stop_on_disconnected_node: true,
                node_status_disconnected: true,
                ..running(2, 1)
            },
            [1, 0, 0, 0],
            [1, 0, 2],
        ),
        (
            "stop-failed-original-and-failed-replacements-and-place-new",
            Case {
                replace: true,
                fail_replacement: true,
                disconnected_alloc_status: status::FAILED,
                should_stop_on_disconnected_node: true,
                ..running(5, 2)
            },
            [4, 2, 0, 0],
            [4, 2, 3],
        ),
        (
            "stop-expired-allocs",
            Case {
                replace: true,
                disconnected_alloc_status: status::UNKNOWN,
                should_stop_on_disconnected_node: true,
                node_status_disconnected: true,
                max_disconnect: Some(2 * plan_inspect::time::SECOND),
                reconcile_strategy: Some(""),
                ..running(5, 2)
            },
            [2, 0, 0, 0],
            [2, 0, 5],
        ),
        (
            "replace-allocs-on-disconnected-node",
            Case {
                node_status_disconnected: true,
                ..running(5, 2)
            },
            [0, 2, 0, 2],
            [0, 2, 3],
        ),
    ];
    for (name, case, [stop, place, reconnect, disconnect], [d_stop, d_place, d_ignore]) in rows {
        for release in [V180, V191, v(1, 10, 0)] {
            let case = Case {
                release: Some(release),
                ..case.clone()
            };
            let r = std::panic::catch_unwind(|| {
                run_disconnected_client(Case {
                    expected: Expect {
                        stop,
                        place,
                        reconnect_updates: reconnect,
                        disconnect_updates: disconnect,
                        ..Expect::default()
                    },
                    desired: DesiredChanges {
                        stop: d_stop,
                        place: d_place,
                        ignore: d_ignore,
                        ..dc()
                    },
                    ..case
                })
            });
            assert!(r.is_ok(), "{name} under {release}");
        }
    }
}

/// `--explain` of a reconnect with nothing to weigh it against states the
/// replacement rule of the release: the chain from 1.9.1, the direct
/// successor from 1.4.14 to 1.9.0.
#[test]
fn explain_names_the_replacement_rule_of_the_release() {
    use plan_inspect::explain::explain;
    use plan_inspect::replay::Options;
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(HOUR)));
    let original = c.alloc(&job, 0);
    client_state(&mut c, &original, status::UNKNOWN, 20 * MINUTE);
    let text = |c: &mut Cluster, release: Release| {
        c.snapshot.nomad_version = Some(VersionRequest::Release(release));
        let e = explain(&c.snapshot, &Options::default(), &original).expect("explain failed");
        plan_inspect::render::explain::table(&e, false, 400, true)
    };
    let t = text(&mut c, V191);
    assert!(
        t.contains(
            "Reconnect: no allocation down its NextAllocation chain that the servers have not \
             stopped: it resumes"
        ),
        "{t}"
    );
    let t = text(&mut c, V190);
    assert!(
        t.contains("Reconnect: its NextAllocation is absent or stopped by the servers: it resumes"),
        "{t}"
    );
}
