//! Reconnecting allocations: when an allocation counts as reconnected, and
//! which of it and its replacement `computeStop` keeps.
//!
//! Each test cites the Go source (file:line at 8ac3e642e6) that decides its
//! expectation; Nomad's own reconnect cases are in `disconnect`, with the rest
//! of TestReconciler_Disconnected_Client.

use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, desc};
use plan_inspect::time::SECOND;

use crate::common::*;

/// `Reconnected` takes the latest `Reconnected` event over all tasks and asks
/// whether the allocation had expired at that instant
/// (nomad/structs/structs.go:10215-10235). Without disconnected-client
/// support an unknown allocation reaches that check
/// (scheduler/reconcile_util.go:241-263): reconnected after its expiry, lost;
/// before, reconnecting.
#[test]
fn reconnected_reads_the_latest_event_of_any_task() {
    let mut c = Cluster::new();
    c.snapshot.supports_disconnected_clients = Some(false);
    let job = c.job(resumable(3, Some(5 * MINUTE)));
    let unknown_on_ready = |c: &mut Cluster, index| {
        let id = unknown_alloc(c, &job, index, HOUR);
        c.set_node_status(&id, node_status::READY);
        id
    };
    // Expiry was 55m ago: an event 2h ago is before it, one 30s ago after.
    let early_only = unknown_on_ready(&mut c, 0);
    reconnect_event(&mut c, &early_only, "web", 2 * HOUR);
    let late_only = unknown_on_ready(&mut c, 1);
    reconnect_event(&mut c, &late_only, "web", 30 * SECOND);
    let both = unknown_on_ready(&mut c, 2);
    reconnect_event(&mut c, &both, "web", 2 * HOUR);
    reconnect_event(&mut c, &both, "sidecar", 30 * SECOND);

    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &early_only), "reconnecting");
    assert_eq!(bucket_of(&r, &late_only), "lost");
    assert_eq!(bucket_of(&r, &both), "lost");
}

/// Go's zero `time.Time` is year 1, so a `Reconnected` event at Unix time 0
/// still counts as a reconnect (nomad/structs/structs.go:10221-10232).
#[test]
fn a_reconnect_event_at_the_unix_epoch_counts() {
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(5 * MINUTE)));
    let id = c.alloc(&job, 0);
    c.alloc_mut(&id).task_states.insert(
        "web".into(),
        TaskState {
            state: "running".into(),
            events: vec![TaskEvent {
                event_type: TASK_CLIENT_RECONNECTED.into(),
                time: 0,
            }]
            .into(),
            ..TaskState::default()
        },
    );
    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &id), "reconnecting");
    assert_eq!(r.plan.reconnect_updates.len(), 1);
}

/// A reconnecting allocation `web[1]` with score `rec_score` (none: no
/// metrics) next to a replacement `web[1]` scoring 0.5 and `web[0]`, `web[2]`
/// scoring 0.9; the group has `count`.
fn reconnect_pair(count: i64, rec_score: Option<f64>) -> (Cluster, String, String, Vec<String>) {
    let mut c = Cluster::new();
    let job = c.job(resumable(count, Some(5 * MINUTE)));
    let mut others = Vec::new();
    for i in (0..count as u64).filter(|&i| i != 1) {
        let id = c.alloc(&job, i);
        set_node_score(&mut c, &id, 0.9);
        others.push(id);
    }
    let replacement = c.alloc(&job, 1);
    set_node_score(&mut c, &replacement, 0.5);
    let rec = c.alloc(&job, 1);
    client_state(&mut c, &rec, status::UNKNOWN, 2 * MINUTE);
    reconnect_event(&mut c, &rec, "web", 30 * SECOND);
    if let Some(score) = rec_score {
        set_node_score(&mut c, &rec, score);
    }
    (c, rec, replacement, others)
}

/// On equal scores the reconnecting allocation is kept and the replacement
/// stopped: only a strictly higher replacement score wins
/// (scheduler/reconcile.go:1082-1090).
#[test]
fn a_reconnecting_alloc_wins_a_score_tie() {
    let (c, rec, replacement, _) = reconnect_pair(2, Some(0.5));
    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &rec), "reconnecting");
    assert_eq!(stops(&r), [(replacement, desc::RECONNECTED.into(), None)]);
    assert_eq!(r.plan.reconnect_updates.len(), 1);
    assert_eq!(r.plan.reconnect_updates[0].alloc_id, rec);
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            stop: 1,
            ignore: 2,
            ..dc()
        }
    );
}

/// A reconnecting allocation without score metadata is not compared (Nomad
/// logs and skips the pair, scheduler/reconcile.go:1077-1080); the count is
/// then met by stopping the highest name in the index, `web[2]`
/// (reconcile.go:989-1005), and the reconnecting allocation resumes next to
/// its replacement.
#[test]
fn a_reconnecting_alloc_without_metrics_makes_the_highest_name_stop() {
    let (c, rec, replacement, others) = reconnect_pair(3, None);
    let r = c.replay_job(JOB);
    let highest = others
        .iter()
        .find(|id| c.alloc_ref(*id).name() == name(2))
        .unwrap();
    assert_eq!(
        stops(&r),
        [(highest.clone(), desc::NOT_NEEDED.into(), None)]
    );
    assert_eq!(r.plan.reconnect_updates.len(), 1);
    assert_eq!(r.plan.reconnect_updates[0].alloc_id, rec);
    assert!(!r.plan.stop.iter().any(|s| s.alloc_id == replacement));
    assert!(r.plan.place.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            stop: 1,
            ignore: 3,
            ..dc()
        }
    );
}

/// A reconnecting allocation with a reschedule transition must not resume:
/// it is stopped as not needed without a comparison, and gets no reconnect
/// update (scheduler/reconcile.go:1036-1055, 1166-1171).
#[test]
fn a_reconnecting_alloc_marked_for_reschedule_is_stopped() {
    let (mut c, rec, _, _) = reconnect_pair(2, Some(0.9));
    c.alloc_mut(&rec).desired_transition.reschedule = Some(true);
    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &rec), "reconnecting");
    assert_eq!(stops(&r), [(rec, desc::NOT_NEEDED.into(), None)]);
    assert!(r.plan.reconnect_updates.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            stop: 1,
            ignore: 2,
            ..dc()
        }
    );
}

/// A reconnecting allocation that loses to two same-named replacements is
/// stopped twice (the inner loop goes on after a loss,
/// scheduler/reconcile.go:1059-1103), each stop taking one off `remove`;
/// `DesiredUpdates.Stop` counts the stop *set*, so it is stopped once there
/// (reconcile.go:444), and both replacements stay: three allocations for a
/// count of two.
#[test]
fn a_reconnecting_alloc_losing_twice_is_stopped_twice_but_counted_once() {
    let (mut c, rec, _, _) = reconnect_pair(2, Some(0.2));
    let job = c.snapshot.jobs[0].clone();
    let second = c.alloc(&job, 1);
    set_node_score(&mut c, &second, 0.6);

    let r = c.replay_job(JOB);
    assert_eq!(
        stops(&r),
        [
            (rec.clone(), desc::NOT_NEEDED.into(), None),
            (rec, desc::NOT_NEEDED.into(), None)
        ]
    );
    assert!(r.plan.reconnect_updates.is_empty());
    assert!(r.plan.place.is_empty());
    assert_eq!(
        web_changes(&r),
        DesiredChanges {
            stop: 1,
            ignore: 3,
            ..dc()
        }
    );
}

/// Each group's `Ignore` adds the reconnect updates of every group reconciled
/// so far (scheduler/reconcile.go:449); plan-inspect reconciles groups by
/// name, one of the orders Go's map can take.
#[test]
fn ignore_counts_reconnect_updates_of_earlier_groups() {
    let mut c = Cluster::new();
    let mut spec = resumable(1, Some(5 * MINUTE));
    let mut b = spec.task_groups[0].clone();
    spec.task_groups[0].name = "a".into();
    b.name = "b".into();
    b.count = 2;
    spec.task_groups.push(b);
    let job = c.job(spec);
    let rec = c.alloc_in(&job, "a", 0);
    client_state(&mut c, &rec, status::UNKNOWN, 2 * MINUTE);
    reconnect_event(&mut c, &rec, "web", 30 * SECOND);
    c.alloc_in(&job, "b", 0);
    c.alloc_in(&job, "b", 1);

    let r = c.replay_job(JOB);
    assert_eq!(r.plan.reconnect_updates.len(), 1);
    assert_eq!(
        group(&r, "a").desired_changes.reconciler,
        DesiredChanges { ignore: 1, ..dc() }
    );
    assert_eq!(
        group(&r, "b").desired_changes.reconciler,
        DesiredChanges { ignore: 3, ..dc() }
    );
}
