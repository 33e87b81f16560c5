//! `shouldFilter` from 1.3.2 and 1.4.0 (B-1): an evicted batch allocation is
//! ignored, so replaced, whether or not its tasks ran successfully.
//!
//! TestReconcile_shouldFilter (scheduler/reconcile_util_test.go at v1.3.2)
//! is ported under the 1.3.2 profile.

use plan_inspect::model::*;
use plan_inspect::reconciler::{Prefilter, Rules, should_filter};
use plan_inspect::version::{Release, VersionRequest, v};

use crate::common::*;

/// One row of Nomad's table: its allocation and the expected
/// (untainted, ignore).
struct Row {
    description: &'static str,
    batch: bool,
    failed: bool,
    desired: &'static str,
    client: &'static str,
    want: (bool, bool),
}

fn row_alloc(r: &Row) -> Allocation {
    let mut a = Allocation {
        desired_status: r.desired.into(),
        client_status: r.client.into(),
        ..Allocation::default()
    };
    a.task_states.insert(
        "task".into(),
        TaskState {
            state: "dead".into(),
            failed: r.failed,
            ..TaskState::default()
        },
    );
    a
}

const fn row(
    description: &'static str,
    batch: bool,
    failed: bool,
    desired: &'static str,
    client: &'static str,
    want: (bool, bool),
) -> Row {
    Row {
        description,
        batch,
        failed,
        desired,
        client,
        want,
    }
}

const ROWS: [Row; 9] = [
    row(
        "batch running",
        true,
        false,
        status::RUN,
        status::RUNNING,
        (true, false),
    ),
    row(
        "batch stopped success",
        true,
        false,
        status::STOP,
        status::RUNNING,
        (true, false),
    ),
    row(
        "batch stopped failed",
        true,
        true,
        status::STOP,
        status::COMPLETE,
        (false, true),
    ),
    row(
        "batch evicted",
        true,
        false,
        status::EVICT,
        status::COMPLETE,
        (false, true),
    ),
    row(
        "batch failed",
        true,
        false,
        status::RUN,
        status::FAILED,
        (false, false),
    ),
    row(
        "service running",
        false,
        false,
        status::RUN,
        status::RUNNING,
        (false, false),
    ),
    row(
        "service stopped",
        false,
        false,
        status::STOP,
        status::COMPLETE,
        (false, true),
    ),
    row(
        "service evicted",
        false,
        false,
        status::EVICT,
        status::COMPLETE,
        (false, true),
    ),
    row(
        "service client complete",
        false,
        false,
        status::RUN,
        status::COMPLETE,
        (false, true),
    ),
];

/// `shouldFilter`'s result as Nomad's test table writes it: (untainted, ignore).
fn pair(p: Prefilter) -> (bool, bool) {
    (p.untainted(), p.ignore())
}

/// TestReconcile_shouldFilter (scheduler/reconcile_util_test.go at v1.3.2).
#[test]
fn test_reconcile_should_filter() {
    for release in [v(1, 3, 2), v(1, 4, 0)] {
        let rules = Rules::new(release, true);
        for r in &ROWS {
            assert_eq!(
                pair(should_filter(&row_alloc(r), r.batch, &rules)),
                r.want,
                "{release}: {}",
                r.description
            );
        }
    }
}

/// Before B-1 (1.3.1 and the seed) the evicted batch allocation whose tasks
/// succeeded counted as untainted, like a stopped one; every other row is
/// the same.
#[test]
fn an_evicted_successful_batch_alloc_counted_until_1_3_2() {
    for release in [Release::Seed, v(1, 3, 1)] {
        let rules = Rules::new(release, true);
        for r in &ROWS {
            let want = if r.description == "batch evicted" {
                (true, false)
            } else {
                r.want
            };
            assert_eq!(
                pair(should_filter(&row_alloc(r), r.batch, &rules)),
                want,
                "{release}: {}",
                r.description
            );
        }
    }
}

/// Through the reconciler: a batch job of one whose only allocation was
/// preempted after its task exited 0. Up to 1.3.1 it fills the count and
/// nothing is placed; from 1.3.2 it is ignored and replaced.
#[test]
fn a_preempted_batch_alloc_that_succeeded_is_replaced_from_1_3_2() {
    let mut c = Cluster::new();
    let mut spec = job_of(1, None);
    spec.job_type = "batch".into();
    let job = c.job(spec);
    let id = c.alloc(&job, 0);
    {
        let a = c.alloc_mut(&id);
        a.desired_status = status::EVICT.into();
        a.client_status = status::COMPLETE.into();
        a.task_states.insert(
            "web".into(),
            TaskState {
                state: "dead".into(),
                ..TaskState::default()
            },
        );
    }
    let placed = |c: &mut Cluster, release| {
        c.snapshot.nomad_version = Some(VersionRequest::Release(release));
        let r = c.replay_job(JOB);
        (r.plan.place.len(), web_changes(&r).place)
    };
    assert_eq!(placed(&mut c, v(1, 3, 1)), (0, 0));
    assert_eq!(placed(&mut c, v(1, 3, 2)), (1, 1));
    assert_eq!(placed(&mut c, v(1, 4, 0)), (1, 1));
}
