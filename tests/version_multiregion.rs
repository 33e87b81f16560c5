//! Multiregion deployments as 1.3.6 (B-2 #14659) and 1.3.10 (B-2 #15325) changed
//! `computeDeploymentPaused`: when a multiregion job holds its placements
//! back, and the `initializing` deployment status. Multiregion itself is
//! Enterprise; these replay the OSS code path.

use plan_inspect::model::*;
use plan_inspect::report::JobReport;
use plan_inspect::version::{Release, VersionRequest, v};
use serde_json::json;

use crate::common::*;

const V136: Release = v(1, 3, 6);
const V1310: Release = v(1, 3, 10);

/// The report of the mock job replayed as Nomad `release`.
fn replay_as(c: &mut Cluster, release: Release) -> JobReport {
    c.snapshot.nomad_version = Some(VersionRequest::Release(release));
    c.replay_job(JOB)
}

/// A job of the kind of a `TestReconciler_ComputeDeploymentPaused` case.
fn case_job(batch: bool, multiregion: bool, periodic: bool, parameterized: bool) -> Job {
    let mut j = job_of(2, None);
    j.task_groups[0].update = Some(no_canary_update());
    if batch {
        j.job_type = "batch".into();
    }
    if multiregion {
        j.multiregion = Some(Multiregion {
            regions: GoValue::from(json!([{"Name": "east"}, {"Name": "west"}])),
        });
    }
    if periodic {
        j.periodic = GoValue::from(json!({"Enabled": true, "Spec": "*/5 * * * *"}));
    }
    if parameterized {
        j.parameterized_job = GoValue::from(json!({"Payload": "required"}));
    }
    j
}

/// Whether the reconciler held every placement back: the observable side
/// of `deploymentPaused` for a job with nothing running.
fn paused(r: &JobReport) -> bool {
    r.plan.place.is_empty()
}

/// An initializing deployment of `job`, as the multiregion `Job.Register`
/// creates it before the scheduler runs.
fn initializing_deployment(c: &mut Cluster, job: &Job) -> String {
    let d = c.new_deployment(job);
    let dep = c.deployment_mut(&d);
    dep.status = deployment_status::INITIALIZING.into();
    dep.status_description = deployment_status::DESC_PENDING_FOR_PEER.into();
    dep.is_multiregion = true;
    d
}

/// TestReconciler_ComputeDeploymentPaused (scheduler/reconcile_test.go at
/// v1.3.6): with no deployment only a multiregion service that is neither
/// periodic nor parameterized is paused. Nomad's "multiregion batch job"
/// case is not multiregion there; it is kept as written, and the
/// multiregion batch job is the boundary test below.
#[test]
fn test_reconciler_compute_deployment_paused_v1_3_6() {
    let cases = [
        ("single region service", false, false, false, false, false),
        ("multiregion service", false, true, false, false, true),
        (
            "multiregion periodic service",
            false,
            true,
            true,
            false,
            false,
        ),
        (
            "multiregion parameterized service",
            false,
            true,
            false,
            true,
            false,
        ),
        ("single region batch job", true, false, false, false, false),
        ("multiregion batch job", true, false, false, false, false),
    ];
    for (name, batch, multiregion, periodic, parameterized, expected) in cases {
        let mut c = Cluster::new();
        c.job(case_job(batch, multiregion, periodic, parameterized));
        assert_eq!(paused(&replay_as(&mut c, V136)), expected, "{name}");
    }
}

/// TestReconciler_ComputeDeploymentPaused (scheduler/reconcile_test.go at
/// v1.3.10): a multiregion service comes with the initializing deployment
/// `Job.Register` made, and is paused by it; batch jobs have none and are
/// not paused.
#[test]
fn test_reconciler_compute_deployment_paused_v1_3_10() {
    let cases = [
        ("single region service", false, false, false, false, false),
        ("multiregion service", false, true, false, false, true),
        ("single region batch job", true, false, false, false, false),
        ("multiregion batch job", true, false, false, false, false),
        (
            "multiregion parameterized batch",
            true,
            true,
            false,
            true,
            false,
        ),
        ("multiregion periodic batch", true, true, true, false, false),
    ];
    for (name, batch, multiregion, periodic, parameterized, expected) in cases {
        let mut c = Cluster::new();
        let job = c.job(case_job(batch, multiregion, periodic, parameterized));
        if multiregion && !batch {
            initializing_deployment(&mut c, &job);
        }
        assert_eq!(paused(&replay_as(&mut c, V1310)), expected, "{name}");
    }
}

/// B-2 #14659: a multiregion batch job without a deployment is paused until 1.3.5
/// and places from 1.3.6 and in 1.4.0, as batch jobs use no deployments.
#[test]
fn a_multiregion_batch_job_places_from_1_3_6() {
    for (release, expected) in [
        (Release::Seed, true),
        (v(1, 3, 5), true),
        (V136, false),
        (v(1, 4, 0), false),
    ] {
        let mut c = Cluster::new();
        c.job(case_job(true, true, false, false));
        let r = replay_as(&mut c, release);
        assert_eq!(paused(&r), expected, "{release:?}");
    }
}

/// B-2 #15325: with no deployment a multiregion service is paused and creates a
/// pending deployment until 1.3.9 and 1.4.4; from 1.3.10 and 1.4.5 it
/// places at once and its deployment is created running.
#[test]
fn a_multiregion_service_without_deployment_places_from_1_3_10_and_1_4_5() {
    for (release, old) in [
        (v(1, 3, 9), true),
        (V1310, false),
        (v(1, 4, 4), true),
        (v(1, 4, 5), false),
        (v(1, 5, 0), false),
    ] {
        let mut c = Cluster::new();
        c.job(case_job(false, true, false, false));
        let r = replay_as(&mut c, release);
        assert_eq!(paused(&r), old, "{release:?}");
        let d = r.plan.deployment.as_ref().expect("a created deployment");
        let status = if old {
            deployment_status::PENDING
        } else {
            deployment_status::RUNNING
        };
        assert_eq!(d.status, status, "{release:?}");
    }
}

/// B-2 #15325: from 1.3.10 and 1.4.5 an initializing deployment holds placements
/// back, goes into the plan in full with the groups' state, and is moved to
/// pending (v1.4.5 scheduler/reconcile.go:263, :297, :525). Before, the
/// status means nothing to the reconciler: the job places on it.
#[test]
fn an_initializing_deployment_is_paused_sent_and_made_pending_from_1_3_10_and_1_4_5() {
    for (release, new) in [
        (v(1, 3, 9), false),
        (V1310, true),
        (v(1, 4, 4), false),
        (v(1, 4, 5), true),
    ] {
        let mut c = Cluster::new();
        let job = c.job(case_job(false, true, false, false));
        let d = initializing_deployment(&mut c, &job);
        let r = replay_as(&mut c, release);
        assert_eq!(paused(&r), new, "{release:?}");
        if new {
            let sent = r.plan.deployment.as_ref().expect("the deployment in full");
            assert_eq!(sent.id, d);
            assert_eq!(sent.status, deployment_status::INITIALIZING);
            assert_eq!(sent.groups["web"].desired_total, 2);
            assert_deployment_update(
                &r,
                &d,
                deployment_status::PENDING,
                deployment_status::DESC_PENDING_FOR_PEER,
            );
        } else {
            assert!(r.plan.deployment.is_none(), "{release:?}");
            assert!(r.plan.deployment_updates.is_empty(), "{release:?}");
            assert_eq!(r.plan.place.len(), 2, "{release:?}");
        }
    }
}
