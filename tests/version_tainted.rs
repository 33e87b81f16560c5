//! `filterByTainted` as the 1.3 releases changed it: failed reconnects and
//! per-group disconnect support, the tainted-node checks first
//! and where D-3 moves the ready-node ones, and reconnects told from
//! the allocation's states (C-1).
//!
//! Nomad's table, TestAllocSet_filterByTainted in
//! scheduler/reconcile_util_test.go, is ported at v1.3.0 (reconnects from a
//! `Reconnected` task event) and at v1.3.8 (from `AllocStates`), each case
//! under the profile of its tag; the whole node x status matrix of
//! `tainted` is checked against a transcription of each release's filter.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::time::{Duration, SECOND, Time};
use plan_inspect::version::{Release, v};

use crate::common::*;
use crate::tainted::{
    Sets, TaintCase, alloc, ids, matrix_buckets, migrate, named, previous, reconnected, run_in,
    taint_cases, tainted_entry, test_job, unknown_since,
};

const V130: Release = v(1, 3, 0);
const V138: Release = v(1, 3, 8);

/// `mock.Job()` without `max_client_disconnect` (`testJobNoMaxDisconnect`).
fn job_without_max_disconnect() -> Arc<Job> {
    let mut j = mock_job();
    j.task_groups[0].max_client_disconnect = None;
    Arc::new(j)
}

fn run_desired(a: Allocation, desired: &str) -> Allocation {
    Allocation {
        desired_status: desired.into(),
        ..a
    }
}

/// An allocation of the table, desired to run.
fn table_alloc(j: &Arc<Job>, id: &str, node: &str, client: &str, name: &str) -> Allocation {
    run_desired(named(alloc(j, id, node, client), name), status::RUN)
}

/// How a case of the table marks an allocation as reconnected: a
/// `Reconnected` task event at v1.3.0, none at v1.3.8 (the last unknown
/// state is enough there).
fn mark(release: Release, a: Allocation) -> Allocation {
    if release < V138 { reconnected(a) } else { a }
}

/// TestAllocSet_filterByTainted, case
/// "disco-client-disconnect-unset-max-disconnect"
/// (scheduler/reconcile_util_test.go at v1.3.0): a running allocation of a
/// group without `max_client_disconnect` on a disconnected node is lost.
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_disconnect_unset_max_disconnect() {
    let j = job_without_max_disconnect();
    let all = vec![table_alloc(
        &j,
        "lost-running",
        "disconnected",
        status::RUNNING,
        "lost-running",
    )];
    let want = || Sets {
        lost: ids(&["lost-running"]),
        ..Sets::default()
    };
    run_in(V130, &all, true, true, want());
    run_in(V138, &all, true, true, want());
    // The seed makes it disconnecting, a group flag it never reads.
    run_in(
        Release::Seed,
        &all,
        true,
        true,
        Sets {
            disconnecting: ids(&["lost-running"]),
            ..Sets::default()
        },
    );
}

/// TestAllocSet_filterByTainted, case
/// "disco-client-untainted-reconnect-failed-and-replaced"
/// (scheduler/reconcile_util_test.go at v1.3.0 and v1.3.8): a failed
/// original that reconnects, desired to run, is reconnecting so that it can
/// be stopped; the seed left it untainted.
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_untainted_reconnect_failed_and_replaced() {
    let j = test_job();
    for release in [V130, V138] {
        let all = vec![
            previous(
                table_alloc(&j, "running-replacement", "normal", status::RUNNING, "web"),
                "failed-original",
            ),
            mark(
                release,
                unknown_since(
                    table_alloc(&j, "failed-original", "normal", status::FAILED, "web"),
                    now(),
                ),
            ),
        ];
        run_in(
            release,
            &all,
            true,
            false,
            Sets {
                untainted: ids(&["running-replacement"]),
                reconnecting: ids(&["failed-original"]),
                ..Sets::default()
            },
        );
    }
}

/// TestAllocSet_filterByTainted, case "disco-client-terminal"
/// (scheduler/reconcile_util_test.go at v1.3.0 and v1.3.8): of the terminal
/// allocations on a reconnected node only the failed one desired to run is
/// reconnecting; complete and lost ones, and replacements, are untainted.
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_terminal() {
    let j = test_job();
    for release in [V130, V138] {
        let original = |id: &str, client: &str, desired: &str| {
            mark(
                release,
                unknown_since(
                    run_desired(named(alloc(&j, id, "normal", client), id), desired),
                    now(),
                ),
            )
        };
        let replacement = |id: &str, name: &str, prev: &str, client: &str, desired: &str| {
            let a = previous(
                run_desired(named(alloc(&j, id, "normal", client), name), desired),
                prev,
            );
            // At v1.3.8 the failed replacement records no unknown state.
            if release >= V138 && client == status::FAILED {
                a
            } else {
                unknown_since(a, now())
            }
        };
        let all = vec![
            original(
                "untainted-reconnect-complete",
                status::COMPLETE,
                status::RUN,
            ),
            original("reconnecting-failed", status::FAILED, status::RUN),
            original("untainted-reconnect-lost", status::LOST, status::STOP),
            replacement(
                "untainted-reconnect-complete-replacement",
                "untainted-reconnect-complete",
                "untainted-reconnect-complete",
                status::COMPLETE,
                status::RUN,
            ),
            replacement(
                "untainted-reconnect-failed-replacement",
                "untainted-reconnect-failed",
                "reconnecting-failed",
                status::FAILED,
                status::STOP,
            ),
            replacement(
                "untainted-reconnect-lost-replacement",
                "untainted-reconnect-lost",
                "untainted-reconnect-lost",
                status::LOST,
                status::STOP,
            ),
        ];
        run_in(
            release,
            &all,
            true,
            false,
            Sets {
                untainted: ids(&[
                    "untainted-reconnect-complete",
                    "untainted-reconnect-lost",
                    "untainted-reconnect-complete-replacement",
                    "untainted-reconnect-failed-replacement",
                    "untainted-reconnect-lost-replacement",
                ]),
                reconnecting: ids(&["reconnecting-failed"]),
                ..Sets::default()
            },
        );
    }
}

/// TestAllocSet_filterByTainted, case "disco-client-disconnect"
/// (scheduler/reconcile_util_test.go at v1.3.0 and v1.3.8): pending on a
/// disconnected node is lost, an expired unknown allocation on a ready node
/// is lost, and a failed reconnect desired to stop is ignored.
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_disconnect() {
    let j = test_job();
    let expired = now().add(-60 * SECOND);
    for release in [V130, V138] {
        let all = vec![
            table_alloc(
                &j,
                "disconnect-running",
                "disconnected",
                status::RUNNING,
                "disconnect-running",
            ),
            unknown_since(
                table_alloc(
                    &j,
                    "ignore-unknown",
                    "disconnected",
                    status::UNKNOWN,
                    "ignore-unknown",
                ),
                now(),
            ),
            unknown_since(
                table_alloc(
                    &j,
                    "lost-unknown",
                    "disconnected",
                    status::UNKNOWN,
                    "lost-unknown",
                ),
                expired,
            ),
            table_alloc(
                &j,
                "lost-pending",
                "disconnected",
                status::PENDING,
                "lost-pending",
            ),
            mark(
                release,
                unknown_since(
                    table_alloc(
                        &j,
                        "lost-expired",
                        "normal",
                        status::UNKNOWN,
                        "lost-expired",
                    ),
                    expired,
                ),
            ),
            mark(
                release,
                unknown_since(
                    run_desired(
                        named(
                            alloc(
                                &j,
                                "ignore-reconnected-failed-stopped",
                                "disconnected",
                                status::FAILED,
                            ),
                            "ignore-reconnected-failed-stopped",
                        ),
                        status::STOP,
                    ),
                    now(),
                ),
            ),
        ];
        run_in(
            release,
            &all,
            true,
            true,
            Sets {
                disconnecting: ids(&["disconnect-running"]),
                ignore: ids(&["ignore-unknown", "ignore-reconnected-failed-stopped"]),
                lost: ids(&["lost-unknown", "lost-pending", "lost-expired"]),
                ..Sets::default()
            },
        );
    }
}

/// TestAllocSet_filterByTainted, case "disco-client-reconnect"
/// (scheduler/reconcile_util_test.go at v1.3.0 and v1.3.8): an unknown
/// allocation whose node is ready again, past its expiry, is lost.
#[test]
fn test_alloc_set_filter_by_tainted_disco_client_reconnect() {
    let j = test_job();
    for release in [V130, V138] {
        let all = vec![mark(
            release,
            unknown_since(
                table_alloc(
                    &j,
                    "lost-expired-reconnect",
                    "normal",
                    status::UNKNOWN,
                    "lost-expired-reconnect",
                ),
                now().add(-60 * SECOND),
            ),
        )];
        run_in(
            release,
            &all,
            true,
            false,
            Sets {
                lost: ids(&["lost-expired-reconnect"]),
                ..Sets::default()
            },
        );
    }
}

/// on a disconnected node a running allocation with a migrate
/// transition is disconnecting from 1.3.0 (the node check comes first,
/// v1.3.0 scheduler/reconcile_util.go:257); the seed migrated it.
#[test]
fn a_migrating_alloc_on_a_disconnected_node_is_disconnecting_from_1_3_0() {
    let j = test_job();
    let all = vec![migrate(table_alloc(
        &j,
        "m",
        "disconnected",
        status::RUNNING,
        "m",
    ))];
    run_in(
        Release::Seed,
        &all,
        true,
        true,
        Sets {
            migrate: ids(&["m"]),
            ..Sets::default()
        },
    );
    run_in(
        V130,
        &all,
        true,
        true,
        Sets {
            disconnecting: ids(&["m"]),
            ..Sets::default()
        },
    );
}

/// A-2 quirk: a complete allocation of a group without
/// `max_client_disconnect` on a disconnected node is lost from 1.3.0, the
/// per-group check sitting before the terminal one; the seed kept it.
#[test]
fn a_complete_alloc_without_max_disconnect_on_a_disconnected_node_is_lost_from_1_3_0() {
    let j = job_without_max_disconnect();
    let all = vec![table_alloc(
        &j,
        "done",
        "disconnected",
        status::COMPLETE,
        "done",
    )];
    let bucket = |release, want: Sets| run_in(release, &all, true, true, want);
    bucket(
        Release::Seed,
        Sets {
            untainted: ids(&["done"]),
            ..Sets::default()
        },
    );
    bucket(
        V130,
        Sets {
            lost: ids(&["done"]),
            ..Sets::default()
        },
    );
}

/// C-1 (1.3.8 and 1.4.3): an allocation that reconnected days ago keeps
/// its `Reconnected` event, and its client has reported running since; up
/// to 1.3.7 and 1.4.2 the event keeps it reconnecting on every later
/// evaluation, from 1.3.8 and 1.4.3 it is untainted. Conversely an
/// allocation whose last state is unknown but that has no event is
/// reconnecting only from C-1.
#[test]
fn reconnects_are_told_from_alloc_states_from_1_3_8_and_1_4_3() {
    let j = test_job();
    let long_ago = now().add(-48 * 3600 * SECOND);
    let mut old = table_alloc(&j, "old-reconnect", "normal", status::RUNNING, "web");
    old.alloc_states = vec![
        state(status::UNKNOWN, long_ago),
        state(status::RUNNING, long_ago.add(SECOND)),
    ]
    .into();
    let old = reconnected(old);
    let fresh = unknown_since(
        table_alloc(&j, "fresh-reconnect", "normal", status::RUNNING, "web[1]"),
        now(),
    );
    let all = vec![old, fresh];
    for (before, from) in [(v(1, 3, 7), V138), (v(1, 4, 2), v(1, 4, 3))] {
        run_in(
            before,
            &all,
            true,
            false,
            Sets {
                untainted: ids(&["fresh-reconnect"]),
                reconnecting: ids(&["old-reconnect"]),
                ..Sets::default()
            },
        );
        run_in(
            from,
            &all,
            true,
            false,
            Sets {
                untainted: ids(&["old-reconnect"]),
                reconnecting: ids(&["fresh-reconnect"]),
                ..Sets::default()
            },
        );
    }
}

fn state(value: &str, time: Time) -> AllocState {
    AllocState {
        field: AllocStateField::ClientStatus,
        value: value.into(),
        time,
    }
}

/// `filterByTainted` at v1.3.0 (scheduler/reconcile_util.go:219-350) and,
/// with `alloc_states`, at v1.3.8 (:229-345), for one case of the matrix,
/// transcribed from the Go with `SupportsDisconnectedClients`
/// (structs.go:9955), `Expired`, `Reconnected` and `NeedsToReconnect`
/// inlined.
fn nomad_1_3_bucket(
    c: &TaintCase,
    mcd: Option<Duration>,
    supports: bool,
    alloc_states: bool,
) -> &'static str {
    let s = supports && mcd.is_some();
    let expired_at = |at: Time| {
        c.client == "unknown"
            && match (c.unknown_ago, mcd) {
                (Some(ago), Some(m)) => at >= now().add(-ago).add(m),
                _ => false,
            }
    };
    let (r, expired) = if s && matches!(c.client, "unknown" | "running" | "failed") {
        if alloc_states {
            // The only client-status states the matrix records are unknown.
            let needs = c.unknown_ago.is_some();
            (needs, needs && expired_at(now()))
        } else {
            match c.reconnect_ago {
                Some(ago) => (true, expired_at(now().add(-ago))),
                None => (false, false),
            }
        }
    } else {
        (false, false)
    };
    if s && r && c.desired == "run" && c.client == "failed" {
        return "reconnecting";
    }
    let tainted = tainted_entry(c.node);
    if let Some(Some(n)) = tainted {
        if n.status() == node_status::DISCONNECTED {
            if !s {
                return "lost";
            }
            if c.client == "running" {
                return "disconnecting";
            }
            if c.client == "pending" {
                return "lost";
            }
        } else if n.status() == node_status::READY && r {
            return if expired { "lost" } else { "reconnecting" };
        }
    }
    let terminal =
        matches!(c.desired, "stop" | "evict") || matches!(c.client, "complete" | "failed" | "lost");
    if terminal && !r {
        return "untainted";
    }
    if c.migrate {
        return "migrate";
    }
    if s && expired_at(now()) {
        return "lost";
    }
    if s && c.client == "unknown" && c.desired == "run" {
        return "ignore";
    }
    if s && r && c.client == "failed" && c.desired == "stop" {
        return "ignore";
    }
    let Some(tainted) = tainted else {
        return match (r, expired) {
            (true, true) => "lost",
            (true, false) => "reconnecting",
            (false, _) => "untainted",
        };
    };
    match tainted {
        None => "lost",
        Some(n) if n.status() == node_status::DOWN => "lost",
        Some(_) => "untainted",
    }
}

/// The matrix of `tainted::filter_by_tainted_matrix_matches_nomad` under
/// 1.3.0 (and 1.3.7, the last release reading task events) and 1.3.8 (and
/// 1.4.3): the bucket in the report is the one each release's
/// `filterByTainted` picks.
#[test]
fn filter_by_tainted_matrix_matches_nomad_1_3() {
    let cases = taint_cases();
    for (release, alloc_states) in [
        (V130, false),
        (v(1, 3, 7), false),
        (V138, true),
        (v(1, 4, 3), true),
    ] {
        for supports in [true, false] {
            for mcd in [None, Some(5 * 60 * SECOND)] {
                let got = matrix_buckets(&cases, supports, mcd, Some(release));
                let differ = |(case, got): (&TaintCase, &&str)| {
                    *got != crate::tainted::nomad_bucket(case, mcd, supports)
                };
                assert!(
                    cases.iter().zip(&got).any(differ),
                    "{release} differs from the seed"
                );
                for (case, got) in cases.iter().zip(got) {
                    let want = nomad_1_3_bucket(case, mcd, supports, alloc_states);
                    assert_eq!(
                        got, want,
                        "{release}: {case:?} mcd={mcd:?} supports={supports}"
                    );
                }
            }
        }
    }
}

/// D-3 moves the reconnect checks of a tainted ready node after the
/// allocation's own checks (v1.7.2 scheduler/reconcile_util.go:338; to
/// 1.7.1 they come first, with the disconnected-node ones, :257 at v1.3.0).
/// On a tainted ready node (the table's "normal", in the tainted map), a
/// reconnecting allocation with a migrate transition is reconnecting at
/// 1.7.1 and migrates at 1.7.2; a failed one desired to stop is
/// reconnecting at 1.7.1 and ignored at 1.7.2.
#[test]
fn ready_node_reconnects_are_checked_after_the_alloc_from_1_7_2() {
    let j = test_job();
    let all = vec![
        migrate(unknown_since(
            table_alloc(&j, "migrating", "normal", status::RUNNING, "web[0]"),
            now(),
        )),
        run_desired(
            unknown_since(
                table_alloc(&j, "failed-stopped", "normal", status::FAILED, "web[1]"),
                now(),
            ),
            status::STOP,
        ),
    ];
    run_in(
        v(1, 7, 1),
        &all,
        true,
        true,
        Sets {
            reconnecting: ids(&["failed-stopped", "migrating"]),
            ..Sets::default()
        },
    );
    run_in(
        v(1, 7, 2),
        &all,
        true,
        true,
        Sets {
            migrate: ids(&["migrating"]),
            ignore: ids(&["failed-stopped"]),
            ..Sets::default()
        },
    );
}
