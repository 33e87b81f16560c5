//! Behaviour checked line by line against Nomad at 8ac3e642e6 outside the
//! reconciler tests Nomad ships: how the scheduler picks its inputs and the
//! corner cases found in review.
mod common;
use common::*;

use plan_inspect::model::*;

/// `LatestDeploymentByJobID` (nomad/state/state_store.go:717-742) walks the
/// job's deployments in index order, by ID, and keeps a later one only if its
/// `CreateIndex` is strictly higher: on a tie, the lowest ID wins.
#[test]
fn latest_deployment_ties_go_to_the_lowest_id() {
    let mut c = Cluster::new();
    let job = c.job(mock_job());
    c.allocs(&job, 10);
    let deployment = |id: &str, status: &str| Deployment {
        id: id.into(),
        namespace: job.namespace.clone(),
        job_id: job.id.clone(),
        job_create_index: job.create_index + 1,
        status: status.into(),
        create_index: 500,
        ..Deployment::default()
    };
    let low = "0b3c8e44-1a2f-4c1e-9d7a-000000000001";
    let high = "0b3c8e44-1a2f-4c1e-9d7a-000000000002";
    // Listed high first: the snapshot's order must not matter.
    c.deployment(deployment(high, deployment_status::CANCELLED));
    c.deployment(deployment(low, deployment_status::RUNNING));

    let plan = c.replay_job(&job.id).plan;
    let updates: Vec<_> = plan
        .deployment_updates
        .iter()
        .map(|u| (u.deployment_id.as_str(), u.status.as_str()))
        .collect();
    assert_eq!(updates, [(low, deployment_status::CANCELLED)]);
}
