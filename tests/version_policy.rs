//! A group without a reschedule policy (E-3, 1.9.7 and 1.10.0): Nomad's
//! `NextRescheduleTime` reads the policy's attempts before checking there is
//! one from D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0) on, so those releases panic
//! where E-3's answer "not eligible" is replayed for every release, with a
//! `nomad_would_panic` warning for the releases that would have panicked.
//! PR #24893 added no test; these check the boundaries.

use plan_inspect::report::Report;
use plan_inspect::version::{Release, VersionRequest, v};

use crate::common::*;

/// A service job of two whose group has no reschedule policy (a job
/// registered before policies were filled in), one allocation running, the
/// other failed a minute ago.
fn without_policy() -> (Cluster, String, String) {
    let mut c = Cluster::new();
    let job = c.job(job_of(2, None));
    let running = c.alloc(&job, 0);
    let failed = c.alloc(&job, 1);
    failed_since(&mut c, &failed, MINUTE);
    (c, running, failed)
}

fn replay_at(c: &mut Cluster, release: Release) -> Report {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay()
}

fn panic_warnings(r: &Report) -> Vec<String> {
    r.warnings
        .iter()
        .filter(|w| w.code == "nomad_would_panic")
        .map(|w| w.message.clone())
        .collect()
}

/// The releases from D-1 to before E-3 warn, naming the job and the first
/// allocation asked (the running one asks as well as the failed one); the
/// others do not. Every release replays "not eligible": the failed
/// allocation is neither rescheduled nor replaced, and counts.
#[test]
fn a_missing_reschedule_policy_is_not_eligible_and_warned_where_nomad_panics() {
    let (mut c, running, failed) = without_policy();
    let mut first = [running, failed];
    first.sort();
    for (release, panics) in [
        (Release::Seed, false),
        (v(1, 4, 13), false),
        (v(1, 4, 14), true),
        (v(1, 5, 9), false),
        (v(1, 5, 10), true),
        (v(1, 6, 3), true),
        (v(1, 7, 0), true),
        (v(1, 9, 6), true),
        (v(1, 9, 7), false),
        (v(1, 10, 0), false),
    ] {
        let r = replay_at(&mut c, release);
        let expected: Vec<String> = if panics {
            vec![format!(
                "Nomad {release} would panic replaying default/{JOB}: allocation {} and 1 more has \
                 no reschedule policy in its job version's group, which NextRescheduleTime \
                 dereferences until 1.9.7 and 1.10.0 (E-3); replayed as not eligible for \
                 rescheduling, as those releases answer",
                first[0]
            )]
        } else {
            Vec::new()
        };
        assert_eq!(panic_warnings(&r), expected, "{release}");
        let job = r.jobs.iter().find(|j| j.id == JOB).unwrap();
        assert!(job.plan.place.is_empty(), "{release}: {:?}", job.plan.place);
        assert!(job.plan.stop.is_empty(), "{release}: {:?}", job.plan.stop);
    }
}

/// A batch job's running allocation is untainted for `shouldFilter`; from
/// E-1 (1.8.1, 1.9.0) it no longer reaches `NextRescheduleTime`, so only its
/// failed allocation is named.
#[test]
fn from_e1_a_running_batch_allocation_does_not_ask_for_the_policy() {
    let (mut c, running, failed) = without_policy();
    let mut spec = (*c.snapshot.jobs[0]).clone();
    spec.job_type = "batch".into();
    c.snapshot.jobs[0] = std::sync::Arc::new(spec.clone());
    for id in [&running, &failed] {
        c.alloc_mut(id).job = Some(std::sync::Arc::new(spec.clone()));
    }
    let named = |c: &mut Cluster, release: Release| {
        let w = panic_warnings(&replay_at(c, release));
        assert_eq!(w.len(), 1, "{release}: {w:?}");
        (w[0].contains(&running), w[0].contains(" and 1 more "))
    };
    // 1.8.0 still asks for both (D-1's quirk), 1.8.1 for the failed one.
    assert!(named(&mut c, v(1, 8, 0)).1);
    let (names_running, more) = named(&mut c, v(1, 8, 1));
    assert!(!names_running && !more);
    assert!(panic_warnings(&replay_at(&mut c, v(1, 9, 7))).is_empty());
}

/// `--explain` of such an allocation under a release that would panic says
/// so in its rescheduling step.
#[test]
fn explain_says_where_nomad_would_panic() {
    use plan_inspect::explain::explain;
    use plan_inspect::replay::Options;
    let (mut c, _, failed) = without_policy();
    let text = |c: &mut Cluster, release: Release| {
        c.snapshot.nomad_version = Some(VersionRequest::Release(release));
        let e = explain(&c.snapshot, &Options::default(), &failed).expect("explain failed");
        plan_inspect::render::explain::table(&e, false, 400, true)
    };
    let t = text(&mut c, v(1, 9, 6));
    assert!(
        t.contains(
            "its job version's group has no reschedule policy: Nomad 1.9.6 dereferences it here \
             and panics (fixed in 1.9.7 and 1.10.0); not eligible, as the fixed releases say"
        ),
        "{t}"
    );
    assert!(!text(&mut c, v(1, 9, 7)).contains("panics"));
}
