//! The deployment watcher's auto-revert (nomad/deploymentwatcher/
//! deployment_watcher.go `latestStableJob`, `handleRollbackValidity`, the
//! same at every release): the job's latest stable version, registered
//! again as a new version (`upsertJobImpl`), unless its spec is the one
//! that failed. The copy keeps the stable version's `Stable` flag (only
//! the operator's `Job.Revert` clears it).

use std::sync::Arc;

use serde::Serialize;

use crate::model::{Deployment, Job};

use super::world::World;

/// The job version an auto-revert wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reverted {
    /// The stable version it copies.
    pub stable_version: u64,
    /// The version it registered.
    pub job_version: u64,
}

/// Rolls the job of the failing deployment `d` back: the status
/// description of the failure from `base`
/// (`DeploymentStatusDescriptionRollback`, `...RollbackNoop`,
/// `...NoRollbackTarget`, v2.0.5 nomad/structs/deployment.go:52-64), and
/// the version written, if any.
pub fn revert(world: &mut World, d: &Deployment, base: &str) -> (String, Option<Reverted>) {
    let Some(stable) = latest_stable(world, d) else {
        return (
            format!("{base} - no stable job version to auto revert to"),
            None,
        );
    };
    let failing = world
        .snapshot
        .job_version(&d.namespace, &d.job_id, d.job_version)
        .cloned();
    if failing.is_some_and(|f| !spec_changed(&f, &stable)) {
        return (
            format!(
                "{base} - not rolling back to stable job version {} as current job has same specification",
                stable.version
            ),
            None,
        );
    }
    let description = format!("{base} - rolling back to job version {}", stable.version);
    let Some(at) = world
        .snapshot
        .jobs
        .iter()
        .position(|j| j.id == d.job_id && j.namespace == d.namespace)
    else {
        return (description, None);
    };
    let current = world.snapshot.jobs[at].clone();
    let index = world.index();
    let mut job = (*stable).clone();
    job.version = job.version.max(current.version + 1);
    job.create_index = current.create_index;
    job.modify_index = index;
    job.job_modify_index = index;
    let reverted = Reverted {
        stable_version: stable.version,
        job_version: job.version,
    };
    world.snapshot.job_versions.push(current);
    world.snapshot.jobs[at] = Arc::new(job);
    (description, Some(reverted))
}

/// Whether the job of `d` has a version marked stable to revert to.
pub fn has_stable(world: &World, d: &Deployment) -> bool {
    latest_stable(world, d).is_some()
}

/// `latestStableJob`: the newest version of the job marked stable.
fn latest_stable(world: &World, d: &Deployment) -> Option<Arc<Job>> {
    world
        .snapshot
        .jobs
        .iter()
        .chain(&world.snapshot.job_versions)
        .filter(|j| j.id == d.job_id && j.namespace == d.namespace && j.stable)
        .max_by_key(|j| j.version)
        .cloned()
}

/// `Job.SpecChanged`: the jobs differ in more than what the servers set
/// (status, stability, version and indexes), as far as the model reads a
/// job.
fn spec_changed(a: &Job, b: &Job) -> bool {
    let spec = |j: &Job| {
        let mut j = j.clone();
        j.status = Default::default();
        j.stable = false;
        j.version = 0;
        j.create_index = 0;
        j.modify_index = 0;
        j.job_modify_index = 0;
        format!("{j:?}")
    };
    spec(a) != spec(b)
}
