//! Reconnecting allocations as 1.3 changed them: failed reconnects stopped
//! and replaced, stopping a job stops its unknown allocations,
//! reconnects told from `AllocStates` and planned (C-1), and reconnects
//! settled first against every replacement (C-2).
//!
//! TestReconciler_Disconnected_Client (scheduler/reconcile_test.go) is
//! ported at v1.3.0, v1.3.8 and v1.3.14 where those tags changed or added
//! cases, each under the profile of its tag, with the harness of
//! `disconnect` (which holds the seed's cases).

use plan_inspect::model::*;
use plan_inspect::reconciler::{DesiredChanges, desc};
use plan_inspect::report::JobReport;
use plan_inspect::time::SECOND;
use plan_inspect::version::{Release, Switch, VersionRequest, v};

use crate::common::*;
use crate::disconnect::{Case, reconnected as reconnect_updates, run_disconnected_client, stopped};

const V130: Release = v(1, 3, 0);
const V138: Release = v(1, 3, 8);
const V1314: Release = v(1, 3, 14);

/// A case of the table at `release`: from C-1 (1.3.8, 1.4.3) the
/// disconnected allocations carry the unknown state alone, as that tag's
/// test builds them.
fn at(release: Release, tc: Case) -> Case {
    Case {
        release: Some(release),
        reconnect_by_state: Switch::C1.in_release(release),
        ..tc
    }
}

/// TestReconciler_Disconnected_Client, case
/// "reconnect-original-no-replacement" (scheduler/reconcile_test.go at
/// v1.3.0 and v1.3.8): both reconnect. 1.3.0 to 1.3.7 keep the reconnect
/// updates out of the plan; from 1.3.8 they are in it (C-1), and so
/// the plan is no longer a no-op.
#[test]
fn test_reconciler_disconnected_client_reconnect_original_no_replacement() {
    for (release, planned) in [(V130, 0), (v(1, 3, 7), 0), (V138, 2), (V1314, 2)] {
        let (r, disconnected, _) = run_disconnected_client(at(
            release,
            Case {
                alloc_count: 2,
                disconnected_alloc_count: 2,
                disconnected_alloc_status: status::RUNNING,
                expected: Expect {
                    reconnect_updates: planned,
                    ..Expect::default()
                },
                desired: DesiredChanges { ignore: 2, ..dc() },
                ..Case::default()
            },
        ));
        assert_eq!(group(&r, "web").desired_changes.reconnect, 2, "{release}");
        // From C-1 the reconnect updates alone change the plan.
        assert_eq!(r.plan.is_noop(), planned == 0, "{release}");
        if planned > 0 {
            assert_eq!(reconnect_updates(&r), sorted(disconnected), "{release}");
        }
    }
}

/// TestReconciler_Disconnected_Client, case
/// "stop-original-failed-on-reconnect" (scheduler/reconcile_test.go at
/// v1.3.0 and v1.3.8): a replaced original that reconnects as failed is
/// stopped as failed; the seed ignored it ("ignore-original-failed-if-replaced").
#[test]
fn test_reconciler_disconnected_client_stop_original_failed_on_reconnect() {
    for release in [V130, V138] {
        let (r, disconnected, _) = run_disconnected_client(at(
            release,
            Case {
                alloc_count: 4,
                replace: true,
                disconnected_alloc_count: 2,
                disconnected_alloc_status: status::FAILED,
                should_stop_on_disconnected_node: true,
                expected: Expect {
                    stop: 2,
                    ..Expect::default()
                },
                desired: DesiredChanges {
                    stop: 2,
                    ignore: 4,
                    ..dc()
                },
                stop_desc: Some((desc::RESCHEDULED, Some(status::FAILED))),
                ..Case::default()
            },
        ));
        assert_eq!(stopped(&r), sorted(disconnected), "{release}");
    }
}

/// TestReconciler_Disconnected_Client, case
/// "reschedule-original-failed-if-not-replaced" (scheduler/reconcile_test.go
/// at v1.3.0 and v1.3.8): the failed reconnect is stopped as failed and a
/// fresh allocation of its name placed (not a reschedule: it is not in the
/// untainted set); the seed rescheduled it.
#[test]
fn test_reconciler_disconnected_client_reschedule_original_failed_if_not_replaced() {
    for release in [V130, V138] {
        let (r, disconnected, _) = run_disconnected_client(at(
            release,
            Case {
                alloc_count: 4,
                disconnected_alloc_count: 2,
                disconnected_alloc_status: status::FAILED,
                should_stop_on_disconnected_node: true,
                expected: Expect {
                    stop: 2,
                    place: 2,
                    ..Expect::default()
                },
                desired: DesiredChanges {
                    ignore: 2,
                    place: 2,
                    stop: 2,
                    ..dc()
                },
                stop_desc: Some((desc::RESCHEDULED, Some(status::FAILED))),
                ..Case::default()
            },
        ));
        assert_eq!(stopped(&r), sorted(disconnected), "{release}");
        assert!(
            places(&r)
                .iter()
                .all(|(_, prev, reschedule, lost)| prev.is_none() && !reschedule && !lost),
            "{release}: {:?}",
            places(&r)
        );
    }
}

/// TestReconciler_Disconnect_UpdateJobAfterReconnect
/// (scheduler/reconcile_test.go at v1.3.8): an allocation that went unknown
/// and reported running since is updated with the job like the other.
#[test]
fn test_reconciler_disconnect_update_job_after_reconnect() {
    let (mut c, reconnected_id) = update_after_reconnect();
    c.snapshot.nomad_version = Some(VersionRequest::Release(V138));
    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &reconnected_id), "untainted");
    assert_results(
        &r,
        Expect {
            inplace: 2,
            ..Expect::default()
        },
        &web(DesiredChanges {
            in_place_update: 2,
            ..dc()
        }),
    );
}

/// The same two allocations, the reconnected one also keeping its
/// `Reconnected` task event: 1.3.7 and 1.4.2 still see it reconnecting, so
/// it resumes (a reconnect update, counted as ignored) instead of being
/// updated; 1.3.8 and 1.4.3 update both.
#[test]
fn a_reconnected_alloc_takes_job_updates_from_1_3_8_and_1_4_3() {
    let (mut c, id) = update_after_reconnect();
    reconnected(&mut c, &id, 5 * MINUTE);
    for (before, from) in [(v(1, 3, 7), V138), (v(1, 4, 2), v(1, 4, 3))] {
        c.snapshot.nomad_version = Some(VersionRequest::Release(before));
        let r = c.replay_job(JOB);
        assert_eq!(bucket_of(&r, &id), "reconnecting", "{before}");
        assert_eq!(inplace_indexes(&r), [1], "{before}");
        assert_eq!(
            web_changes(&r),
            DesiredChanges {
                ignore: 1,
                in_place_update: 1,
                ..dc()
            },
            "{before}"
        );
        c.snapshot.nomad_version = Some(VersionRequest::Release(from));
        let r = c.replay_job(JOB);
        assert_eq!(bucket_of(&r, &id), "untainted", "{from}");
        assert_eq!(inplace_indexes(&r), [0, 1], "{from}");
    }
}

/// `buildResumableAllocations(2, running, run, 2)` with the first one
/// unknown five minutes ago and running since, and the job updated in
/// place (allocUpdateFnInplace).
fn update_after_reconnect() -> (Cluster, String) {
    let mut c = Cluster::new();
    let (job, ids) = build_resumable_allocations(&mut c, 2, status::RUNNING, status::RUN, 2.0);
    client_state(&mut c, &ids[0], status::UNKNOWN, 5 * MINUTE);
    client_state(&mut c, &ids[0], status::RUNNING, 0);
    c.job(inplace_update(&job));
    (c, ids[0].clone())
}

/// stopping a job also stops its unknown allocations, which sit in
/// the ignore bucket (v1.3.0 scheduler/reconcile.go:353); the seed left
/// them without a stop, though it counted them as stopped.
#[test]
fn a_stopped_job_stops_its_unknown_allocs_from_1_3_0() {
    let mut c = Cluster::new();
    let mut spec = resumable(2, Some(HOUR));
    spec.stop = true;
    let job = c.job(spec);
    let unknown = unknown_alloc(&mut c, &job, 0, MINUTE);
    let running = c.alloc(&job, 1);
    let r = c.replay_job(JOB);
    assert_eq!(bucket_of(&r, &unknown), "ignore");
    assert_eq!(stopped_ids(&r), std::slice::from_ref(&running));
    assert_eq!(web_changes(&r).stop, 2);
    c.snapshot.nomad_version = Some(VersionRequest::Release(V130));
    let r = c.replay_job(JOB);
    assert_eq!(stopped_ids(&r), sorted([unknown, running]));
    assert_eq!(web_changes(&r).stop, 2);
}

fn stopped_ids(r: &JobReport) -> Vec<String> {
    sorted(r.plan.stop.iter().map(|s| s.alloc_id.to_string()))
}

/// TestReconciler_Disconnected_Client, case
/// "keep-original-alloc-and-stop-failed-replacement"
/// (scheduler/reconcile_test.go at v1.3.14): a failed replacement, in no
/// set the old rule compared, is stopped when the original reconnects.
#[test]
fn test_reconciler_disconnected_client_keep_original_alloc_and_stop_failed_replacement() {
    let (r, disconnected, replacements) = run_disconnected_client(at(
        V1314,
        Case {
            alloc_count: 3,
            replace: true,
            fail_replacement: true,
            disconnected_alloc_count: 2,
            disconnected_alloc_status: status::RUNNING,
            expected: Expect {
                reconnect_updates: 2,
                stop: 2,
                ..Expect::default()
            },
            desired: DesiredChanges {
                ignore: 3,
                stop: 2,
                ..dc()
            },
            ..Case::default()
        },
    ));
    assert_eq!(reconnect_updates(&r), sorted(disconnected));
    assert_eq!(stopped(&r), sorted(replacements));
}

/// TestReconciler_Disconnected_Client, case
/// "keep-original-and-stop-reconnecting-replacement"
/// (scheduler/reconcile_test.go at v1.3.14): a replacement that is itself
/// reconnecting loses to the original.
#[test]
fn test_reconciler_disconnected_client_keep_original_and_stop_reconnecting_replacement() {
    run_disconnected_client(at(
        V1314,
        Case {
            alloc_count: 2,
            replace: true,
            disconnect_replacement: true,
            disconnected_alloc_count: 1,
            disconnected_alloc_status: status::RUNNING,
            expected: Expect {
                reconnect_updates: 1,
                stop: 1,
                ..Expect::default()
            },
            desired: DesiredChanges {
                ignore: 2,
                stop: 1,
                ..dc()
            },
            ..Case::default()
        },
    ));
}

/// TestReconciler_Disconnected_Client, case
/// "keep-original-and-stop-tainted-replacement"
/// (scheduler/reconcile_test.go at v1.3.14): a migrating replacement is
/// compared and stopped too.
#[test]
fn test_reconciler_disconnected_client_keep_original_and_stop_tainted_replacement() {
    run_disconnected_client(at(
        V1314,
        Case {
            alloc_count: 3,
            replace: true,
            taint_replacement: true,
            disconnected_alloc_count: 2,
            disconnected_alloc_status: status::RUNNING,
            expected: Expect {
                reconnect_updates: 2,
                stop: 2,
                ..Expect::default()
            },
            desired: DesiredChanges {
                ignore: 3,
                stop: 2,
                ..dc()
            },
            ..Case::default()
        },
    ));
}

/// TestReconciler_Disconnected_Client, case
/// "stop-original-alloc-with-old-job-version-and-failed-replacements-replaced"
/// (scheduler/reconcile_test.go at v1.3.14).
#[test]
fn test_reconciler_disconnected_client_stop_original_alloc_with_old_job_version_and_failed_replacements_replaced()
 {
    run_disconnected_client(at(
        V1314,
        Case {
            alloc_count: 5,
            replace: true,
            fail_replacement: true,
            replace_failed_replacement: true,
            disconnected_alloc_count: 2,
            disconnected_alloc_status: status::RUNNING,
            should_stop_on_disconnected_node: true,
            job_version_increment: 1,
            expected: Expect {
                stop: 2,
                ..Expect::default()
            },
            desired: DesiredChanges {
                ignore: 5,
                stop: 2,
                ..dc()
            },
            ..Case::default()
        },
    ));
}

/// TestReconciler_Disconnected_Client, case
/// "stop-failed-original-and-failed-replacements-and-place-new"
/// (scheduler/reconcile_test.go at v1.3.14): the failed originals are
/// stopped as failed at once, their failed replacements rescheduled.
#[test]
fn test_reconciler_disconnected_client_stop_failed_original_and_failed_replacements_and_place_new()
{
    run_disconnected_client(at(
        V1314,
        Case {
            alloc_count: 5,
            replace: true,
            fail_replacement: true,
            disconnected_alloc_count: 2,
            disconnected_alloc_status: status::FAILED,
            should_stop_on_disconnected_node: true,
            expected: Expect {
                stop: 4,
                place: 2,
                ..Expect::default()
            },
            desired: DesiredChanges {
                stop: 4,
                place: 2,
                ignore: 3,
                ..dc()
            },
            ..Case::default()
        },
    ));
}

/// C-2 at its first patches: an original reconnects while its only
/// replacement has failed. Up to 1.3.13, 1.4.8 and 1.5.3 the failed
/// replacement, terminal and so never weighed (the old rule looked at
/// non-terminal untainted replacements while the group was over its
/// count), stays; from 1.3.14, 1.4.9 and 1.5.4 it is compared and stopped,
/// the original kept on equal scores.
#[test]
fn reconnects_are_settled_against_every_replacement_from_1_3_14_1_4_9_and_1_5_4() {
    let mut c = Cluster::new();
    let mut spec = job_of(1, None);
    spec.task_groups[0].max_client_disconnect = Some(5 * MINUTE);
    let job = c.job(spec);
    let original = c.alloc(&job, 0);
    client_state(&mut c, &original, status::UNKNOWN, MINUTE);
    let replacement = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&replacement);
        a.client_status = status::FAILED.into();
        a.previous_allocation = (&original).into();
        a.create_index = 1;
    }
    c.alloc_mut(&original).next_allocation = (&replacement).into();
    for (before, from) in [
        (v(1, 3, 13), V1314),
        (v(1, 4, 8), v(1, 4, 9)),
        (v(1, 5, 3), v(1, 5, 4)),
    ] {
        c.snapshot.nomad_version = Some(VersionRequest::Release(before));
        let r = c.replay_job(JOB);
        assert_eq!(
            reconnect_updates(&r),
            std::slice::from_ref(&original),
            "{before}"
        );
        assert!(r.plan.stop.is_empty(), "{before}: {:?}", r.plan.stop);
        c.snapshot.nomad_version = Some(VersionRequest::Release(from));
        let r = c.replay_job(JOB);
        assert_eq!(
            reconnect_updates(&r),
            std::slice::from_ref(&original),
            "{from}"
        );
        assert_eq!(
            stops(&r),
            [(replacement.clone(), desc::RECONNECTED.to_string(), None)],
            "{from}"
        );
        assert_eq!(web_changes(&r).stop, 1, "{from}");
    }
}

/// `--explain` under 1.3.14 states the rules as that release has them: the
/// reconnect read from the allocation's states, and the replacement's stop
/// as `pickReconnectingAlloc` decides it.
#[test]
fn explain_names_the_1_3_14_reconnect_rules() {
    use plan_inspect::explain::explain;
    use plan_inspect::replay::Options;
    let mut c = Cluster::new();
    let job = c.job(resumable(1, Some(5 * MINUTE)));
    let original = c.alloc(&job, 0);
    client_state(&mut c, &original, status::UNKNOWN, MINUTE);
    let replacement = c.alloc(&job, 0);
    c.alloc_mut(&replacement).create_index = 1;
    c.snapshot.nomad_version = Some(VersionRequest::Release(V1314));
    let text = |id: &str| {
        let e = explain(&c.snapshot, &Options::default(), id).expect("explain failed");
        plan_inspect::render::explain::table(&e, false, 400, true)
    };
    let original_text = text(&original);
    assert!(
        original_text.contains("yes: its latest client-status state is unknown"),
        "{original_text}"
    );
    assert!(
        original_text.contains("on an untainted node, reconnected in time means reconnecting"),
        "{original_text}"
    );
    let replacement_text = text(&replacement);
    assert!(
        replacement_text.contains(
            "Reconnect: job not newer, and the replacement scored no higher (or has no score) or \
             is not running while the original is: original kept"
        ),
        "{replacement_text}"
    );
}

/// One row of TestReconciler_Disconnected_Client as v1.3.14 has it, and the
/// change whose tests added it (none: in the table since v1.3.0).
struct Row {
    name: &'static str,
    since: Option<Switch>,
    case: fn() -> Case,
}

fn running(alloc_count: u64, disconnected: usize) -> Case {
    Case {
        alloc_count,
        disconnected_alloc_count: disconnected,
        disconnected_alloc_status: status::RUNNING,
        ..Case::default()
    }
}

fn expect(stop: usize, place: usize, reconnect: usize, disconnect: usize) -> Expect {
    Expect {
        stop,
        place,
        reconnect_updates: reconnect,
        disconnect_updates: disconnect,
        ..Expect::default()
    }
}

fn changes(stop: u64, place: u64, ignore: u64) -> DesiredChanges {
    DesiredChanges {
        stop,
        place,
        ignore,
        ..dc()
    }
}

const ROWS: [Row; 11] = [
    Row {
        name: "resume-original-and-stop-replacement",
        since: None,
        case: || Case {
            replace: true,
            expected: expect(1, 0, 1, 0),
            desired: changes(1, 0, 3),
            ..running(3, 1)
        },
    },
    Row {
        name: "stop-original-with-lower-node-score",
        since: None,
        case: || Case {
            replace: true,
            should_stop_on_disconnected_node: true,
            node_score_increment: 1.0,
            expected: expect(1, 0, 0, 0),
            desired: changes(1, 0, 4),
            ..running(4, 1)
        },
    },
    Row {
        name: "ignore-reconnect-completed",
        since: None,
        case: || Case {
            disconnected_alloc_status: status::COMPLETE,
            is_batch: true,
            desired: changes(0, 0, 2),
            ..running(2, 2)
        },
    },
    Row {
        name: "stop-original-alloc-with-old-job-version",
        since: None,
        case: || Case {
            replace: true,
            should_stop_on_disconnected_node: true,
            job_version_increment: 1,
            expected: expect(2, 0, 0, 0),
            desired: changes(2, 0, 5),
            ..running(5, 2)
        },
    },
    Row {
        name: "stop-original-alloc-with-old-job-version-and-failed-replacements(-replaced)",
        since: None,
        case: || Case {
            replace: true,
            fail_replacement: true,
            replace_failed_replacement: true,
            should_stop_on_disconnected_node: true,
            job_version_increment: 1,
            expected: expect(2, 0, 0, 0),
            desired: changes(2, 0, 5),
            ..running(5, 2)
        },
    },
    Row {
        name: "stop-original-pending-alloc-for-disconnected-node",
        since: None,
        case: || Case {
            replace: true,
            disconnected_alloc_status: status::PENDING,
            should_stop_on_disconnected_node: true,
            node_status_disconnected: true,
            expected: expect(1, 0, 0, 0),
            desired: changes(1, 0, 2),
            ..running(2, 1)
        },
    },
    Row {
        name: "stop-expired-allocs",
        since: None,
        case: || Case {
            replace: true,
            disconnected_alloc_status: status::UNKNOWN,
            should_stop_on_disconnected_node: true,
            node_status_disconnected: true,
            max_disconnect: Some(2 * SECOND),
            expected: expect(2, 0, 0, 0),
            desired: changes(2, 0, 5),
            ..running(5, 2)
        },
    },
    Row {
        name: "replace-allocs-on-disconnected-node",
        since: None,
        case: || Case {
            node_status_disconnected: true,
            expected: expect(0, 2, 0, 2),
            desired: changes(0, 2, 3),
            ..running(5, 2)
        },
    },
    Row {
        name: "keep-original-alloc-and-stop-failed-replacement",
        since: Some(Switch::C2),
        case: || Case {
            replace: true,
            fail_replacement: true,
            expected: expect(2, 0, 2, 0),
            desired: changes(2, 0, 3),
            ..running(3, 2)
        },
    },
    Row {
        name: "keep-original-and-stop-tainted-replacement",
        since: Some(Switch::C2),
        case: || Case {
            replace: true,
            taint_replacement: true,
            expected: expect(2, 0, 2, 0),
            desired: changes(2, 0, 3),
            ..running(3, 2)
        },
    },
    Row {
        name: "stop-failed-original-and-failed-replacements-and-place-new",
        since: Some(Switch::C2),
        case: || Case {
            replace: true,
            fail_replacement: true,
            disconnected_alloc_status: status::FAILED,
            should_stop_on_disconnected_node: true,
            expected: expect(4, 2, 0, 0),
            desired: changes(4, 2, 3),
            ..running(5, 2)
        },
    },
];

/// TestReconciler_Disconnected_Client at v1.3.14, every row not ported on
/// its own above, under each profile of 1.3.0 to 1.6.2 (the releases
/// without D-1) that has the row (the rows of C-2 from 1.3.14, 1.4.9, 1.5.4). Before C-1 the
/// reconnect updates are the reconciler's, not the plan's.
#[test]
fn test_reconciler_disconnected_client_table_at_v1_3_14_under_1_3_to_1_6() {
    let releases = [
        V130,
        V138,
        V1314,
        v(1, 4, 2),
        v(1, 4, 9),
        v(1, 5, 4),
        v(1, 6, 0),
        v(1, 6, 2),
    ];
    for row in &ROWS {
        let has_row = |r: &&Release| row.since.is_none_or(|s| s.in_release(**r));
        for &release in releases.iter().filter(has_row) {
            let tc = (row.case)();
            let reconciled = tc.expected.reconnect_updates as u64;
            let planned = Switch::C1.in_release(release);
            let tc = Case {
                expected: Expect {
                    reconnect_updates: if planned {
                        tc.expected.reconnect_updates
                    } else {
                        0
                    },
                    ..tc.expected
                },
                ..tc
            };
            let r = std::panic::catch_unwind(|| run_disconnected_client(at(release, tc)).0);
            let r = r.unwrap_or_else(|_| panic!("{} under {release}", row.name));
            assert_eq!(
                group(&r, "web").desired_changes.reconnect,
                reconciled,
                "{} under {release}",
                row.name
            );
        }
    }
}

/// One case of TestReconciler_Client_Disconnect_Canaries: the allocations
/// of the old job and the canaries of the new one, each as (index, client
/// status, desired status, on the disconnected node).
pub(crate) struct CanaryCase {
    pub(crate) desired_canaries: i64,
    pub(crate) deployed: &'static [(u64, &'static str, &'static str, bool)],
    pub(crate) canaries: &'static [(u64, &'static str, &'static str, bool)],
    pub(crate) expected: Expect,
    pub(crate) desired: DesiredChanges,
}

fn run_disconnect_canaries(tc: CanaryCase) {
    run_disconnect_canaries_as(tc, V130);
}

/// [`run_disconnect_canaries`] replayed as `release`; from 1.8.0 the group
/// also has `disconnect { lost_after = 10m }`, as the test of those tags
/// sets it, and the eval ID is Nomad's empty one. Returns the report. As in
/// Nomad's test, the canaries carry no deployment ID.
pub(crate) fn run_disconnect_canaries_as(tc: CanaryCase, release: Release) -> JobReport {
    let mut c = Cluster::new();
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    let block = release >= v(1, 8, 0);
    if block {
        c.snapshot.eval_id = Some(String::new());
    }
    let ready = c.node(node_status::READY);
    let disconnected = c.node(node_status::DISCONNECTED);
    let update = UpdateStrategy {
        max_parallel: 1,
        canary: tc.desired_canaries,
        auto_revert: true,
        auto_promote: true,
        ..UpdateStrategy::default()
    };
    let mut spec = job_with(tc.deployed.len() as i64, Some(update));
    spec.task_groups[0].max_client_disconnect = Some(10 * MINUTE);
    if block {
        spec.task_groups[0].disconnect = Some(DisconnectStrategy {
            lost_after: 10 * MINUTE,
            ..DisconnectStrategy::default()
        });
    }
    let old = std::sync::Arc::new(spec);
    let mut new = destructive_update(&old);
    new.version += 1;
    let new = c.job(new);
    let dep = c.new_deployment(&new);
    c.set_deployment_state(
        &dep,
        "web",
        DeploymentState {
            desired_canaries: tc.desired_canaries,
            desired_total: 6,
            placed_allocs: tc.canaries.len() as i64,
            healthy_allocs: 2,
            progress_deadline: 5 * MINUTE,
            ..DeploymentState::default()
        },
    );
    let place = |c: &mut Cluster, job: &std::sync::Arc<Job>, row: &(u64, &str, &str, bool)| {
        let id = c.alloc(job, row.0);
        let a = c.alloc_mut(&id);
        a.client_status = row.1.into();
        a.desired_status = row.2.into();
        a.node_id = if row.3 {
            disconnected.as_str().into()
        } else {
            ready.as_str().into()
        };
        id
    };
    let mut deployed_on_disconnected = Vec::new();
    for row in tc.deployed {
        let id = place(&mut c, &old, row);
        if row.3 {
            deployed_on_disconnected.push(id);
        }
    }
    let mut canaries_on_disconnected = Vec::new();
    for row in tc.canaries {
        let id = place(&mut c, &new, row);
        let a = c.alloc_mut(&id);
        a.deployment_status = Some(AllocDeploymentStatus {
            canary: true,
            healthy: (row.1 == status::RUNNING).then_some(true),
        });
        // From 1.4.14's test (D-1) an unknown canary records its unknown
        // state and the eval that marked it.
        if row.1 == status::UNKNOWN && Switch::D1.in_release(release) {
            a.alloc_states = vec![AllocState {
                field: AllocStateField::ClientStatus,
                value: status::UNKNOWN.into(),
                time: now(),
            }]
            .into();
            a.followup_eval_id = "eval-where-it-was-set-to-unknow".into();
        }
        c.add_placed_canary(&dep, "web", &id);
        if row.3 {
            canaries_on_disconnected.push(id);
        }
    }
    let r = c.replay_job(JOB);
    assert_results(&r, tc.expected, &web(tc.desired));
    // Placements replace the disconnected node's allocations, each marked unknown.
    let disconnects: Vec<String> = r
        .plan
        .disconnect_updates
        .iter()
        .map(|u| u.alloc_id.to_string())
        .collect();
    for p in &r.plan.place {
        let prev = &p
            .previous_alloc_id
            .as_ref()
            .expect("a replacement")
            .to_string();
        assert!(
            deployed_on_disconnected.iter().any(|d| d == prev)
                || canaries_on_disconnected.iter().any(|d| d == prev),
            "{prev}"
        );
        assert!(disconnects.contains(prev), "{prev} has a disconnect update");
    }
    for s in &r.plan.stop {
        assert_eq!(
            c.alloc_ref(&s.alloc_id).client_status,
            ClientStatus::Pending
        );
    }
    r
}

/// The old job's allocations of TestReconciler_Client_Disconnect_Canaries.
pub(crate) const DEPLOYED: [(u64, &str, &str, bool); 6] = {
    use status::{COMPLETE, RUN, RUNNING, STOP};
    [
        (0, COMPLETE, STOP, false),
        (2, RUNNING, STOP, false),
        (4, RUNNING, RUN, false),
        (1, COMPLETE, STOP, true),
        (3, RUNNING, RUN, true),
        (5, RUNNING, RUN, true),
    ]
};

/// The old job's allocations of its case "4-placed-2-pending-lost".
pub(crate) const DEPLOYED_PENDING_LOST: [(u64, &str, &str, bool); 6] = {
    use status::{COMPLETE, RUN, RUNNING, STOP};
    [
        (0, COMPLETE, STOP, false),
        (2, COMPLETE, STOP, false),
        (4, RUNNING, RUN, false),
        (1, COMPLETE, STOP, true),
        (3, RUNNING, RUN, true),
        (5, RUNNING, RUN, true),
    ]
};

/// TestReconciler_Client_Disconnect_Canaries (scheduler/reconcile_test.go
/// at v1.3.0), under 1.3.0: a deployment with canaries while a node
/// disconnects; its running allocations, canary or not, are replaced and
/// marked unknown, an unknown canary is ignored, pending ones are lost.
#[test]
fn test_reconciler_client_disconnect_canaries() {
    use status::{PENDING, RUN, RUNNING, UNKNOWN};
    // "3-placed-1-disconnect"
    run_disconnect_canaries(CanaryCase {
        desired_canaries: 1,
        deployed: &DEPLOYED,
        canaries: &[
            (0, RUNNING, RUN, false),
            (2, PENDING, RUN, false),
            (1, RUNNING, RUN, true),
        ],
        expected: expect(0, 3, 0, 3),
        desired: changes(0, 3, 3),
    });
    // "ignore-unknown"
    run_disconnect_canaries(CanaryCase {
        desired_canaries: 1,
        deployed: &DEPLOYED,
        canaries: &[
            (0, RUNNING, RUN, false),
            (2, PENDING, RUN, false),
            (1, UNKNOWN, RUN, true),
        ],
        expected: expect(0, 2, 0, 2),
        desired: changes(0, 2, 4),
    });
    // "4-placed-2-pending-lost": the two stops are not counted.
    run_disconnect_canaries(CanaryCase {
        desired_canaries: 2,
        deployed: &DEPLOYED_PENDING_LOST,
        canaries: &[
            (0, RUNNING, RUN, false),
            (2, RUNNING, RUN, false),
            (1, PENDING, RUN, true),
            (3, PENDING, RUN, true),
        ],
        expected: expect(2, 2, 0, 2),
        desired: changes(0, 2, 3),
    });
}

/// TestReconciler_Disconnected_Client, case
/// "keep-original-alloc-and-stop-failed-replacement"
/// (scheduler/reconcile_test.go at v1.6.3): from D-1 the original is weighed
/// against its `NextAllocation` alone, and a failed replacement is not
/// stopped when the original is kept (1.6.2 stops both replacements).
#[test]
fn test_reconciler_disconnected_client_keep_original_alloc_and_not_stop_failed_replacement_v1_6_3()
{
    let (r, disconnected, _) = run_disconnected_client(at(
        v(1, 6, 3),
        Case {
            alloc_count: 3,
            replace: true,
            fail_replacement: true,
            disconnected_alloc_count: 2,
            disconnected_alloc_status: status::RUNNING,
            expected: Expect {
                reconnect_updates: 2,
                stop: 0,
                ..Expect::default()
            },
            desired: DesiredChanges { ignore: 5, ..dc() },
            ..Case::default()
        },
    ));
    assert_eq!(reconnect_updates(&r), sorted(disconnected));
    assert!(stopped(&r).is_empty());
}

/// TestReconciler_Disconnected_Client, case
/// "stop-failed-original-and-failed-replacements-and-place-new"
/// (scheduler/reconcile_test.go at v1.6.3): the failed originals are
/// stopped and replaced; their failed replacements are terminal, ignored by
/// D-1's terminal rule and not stopped (1.6.2 stops four).
#[test]
fn test_reconciler_disconnected_client_stop_failed_original_and_place_new_v1_6_3() {
    let (r, disconnected, _) = run_disconnected_client(at(
        v(1, 6, 3),
        Case {
            alloc_count: 5,
            replace: true,
            fail_replacement: true,
            disconnected_alloc_count: 2,
            disconnected_alloc_status: status::FAILED,
            should_stop_on_disconnected_node: true,
            expected: Expect {
                stop: 2,
                place: 2,
                ..Expect::default()
            },
            desired: DesiredChanges {
                stop: 2,
                place: 2,
                ignore: 5,
                ..dc()
            },
            ..Case::default()
        },
    ));
    assert_eq!(stopped(&r), sorted(disconnected));
}
