//! `downgradedJobForPlacement` (scheduler/generic_sched.go:461 at 1.3.0,
//! :474 at 1.10.5, :449 at 2.0.5, the same in every release): during a
//! canary deployment a non-canary placement is made with the job version
//! of the latest deployment (by job version) whose state for the group is
//! promoted or had no canaries; without one, with the version the
//! replaced allocation ran, if that version has no job-level `update`
//! block. The version must be at least the replaced allocation's and have
//! the group, else the current version is used.

use std::collections::{BTreeSet, HashMap};

use foldhash::fast::FixedState;

use crate::model::{Allocation, Deployment, Id, Job, Snapshot, TaskGroup};
use crate::report::{JobReport, VersionGaps};
use crate::warning::Warning;

/// The job versions and deployments older versions are looked up in.
pub(super) struct History<'s> {
    /// By namespace, job ID and version; the current job wins over a
    /// `JobVersions` entry of its version.
    versions: HashMap<(&'s str, &'s str, u64), &'s Job, FixedState>,
    /// Each job's deployments by job version, highest first, ties by ID
    /// (`DeploymentsByJobID` walks them by ID and Nomad's sort keeps that
    /// order among equal versions for up to 12 deployments).
    deployments: HashMap<(&'s str, &'s str), Vec<&'s Deployment>, FixedState>,
    /// The dump lists `JobVersions`, so a version it lacks, Nomad lacks.
    listed: bool,
}

/// An older version a placement is made with.
#[derive(Clone, Copy, Debug)]
pub(super) struct Downgrade<'s> {
    pub job: &'s Job,
    pub tg: &'s TaskGroup,
    /// The deployment the version came from, which Nomad gives the
    /// placement (and every later one of the evaluation); `None` for a
    /// version found without a deployment.
    pub deployment_id: Option<&'s Id>,
}

impl<'s> History<'s> {
    pub fn new(snapshot: &'s Snapshot) -> History<'s> {
        let mut versions: HashMap<(&str, &str, u64), &Job, FixedState> = HashMap::default();
        for job in &snapshot.job_versions {
            let key = (job.namespace.as_str(), job.id.as_str(), job.version);
            let slot = versions.entry(key).or_insert(job);
            if job.job_modify_index > slot.job_modify_index {
                *slot = job;
            }
        }
        for job in &snapshot.jobs {
            versions.insert((job.namespace.as_str(), job.id.as_str(), job.version), job);
        }
        let mut deployments: HashMap<(&str, &str), Vec<&Deployment>, FixedState> =
            HashMap::default();
        for d in &snapshot.deployments {
            deployments
                .entry((d.namespace.as_str(), d.job_id.as_str()))
                .or_default()
                .push(d);
        }
        for list in deployments.values_mut() {
            list.sort_by(|a, b| b.job_version.cmp(&a.job_version).then(a.id.cmp(&b.id)));
        }
        History {
            versions,
            deployments,
            listed: snapshot.job_versions_listed,
        }
    }

    /// The version `job`'s placement of group `tg`, replacing an
    /// allocation of version `min_version` (0 for a new name), is made
    /// with; `None` for the current version.
    pub fn downgrade(
        &self,
        job: &Job,
        allocs: &[&'s Allocation],
        tg: &str,
        min_version: u64,
        gaps: &mut VersionGaps,
    ) -> Option<Downgrade<'s>> {
        let key = (job.namespace.as_str(), job.id.as_str());
        // `DeploymentsByJobID` without `all`: only deployments of this
        // incarnation of the job ID.
        let stable = self
            .deployments
            .get(&key)
            .into_iter()
            .flatten()
            .filter(|d| d.job_create_index == job.create_index)
            .find(|d| {
                d.task_groups
                    .get(tg)
                    .is_some_and(|s| s.promoted || s.desired_canaries == 0)
            });
        let (deployment_id, found) = match stable {
            Some(d) => (Some(&d.id), self.version(job, allocs, d.job_version, gaps)),
            None => (
                None,
                self.version(job, allocs, min_version, gaps)
                    .filter(|j| j.update.as_ref().is_none_or(|u| u.max_parallel == 0)),
            ),
        };
        let old = found.filter(|j| j.version >= min_version)?;
        Some(Downgrade {
            job: old,
            tg: old.lookup_task_group(tg)?,
            deployment_id,
        })
    }

    /// `JobByIDAndVersion`. A dump without `JobVersions` is answered from
    /// `Jobs`, else from the allocations that embed the version, else not.
    fn version(
        &self,
        job: &Job,
        allocs: &[&'s Allocation],
        version: u64,
        gaps: &mut VersionGaps,
    ) -> Option<&'s Job> {
        let key = (job.namespace.as_str(), job.id.as_str(), version);
        if let Some(found) = self.versions.get(&key) {
            return Some(found);
        }
        if self.listed {
            return None;
        }
        let embedded = allocs
            .iter()
            .filter_map(|a| a.job.as_deref().map(|j| (j, &a.id)))
            .filter(|(j, _)| j.version == version)
            .min_by(|(a, a_id), (b, b_id)| {
                b.job_modify_index
                    .cmp(&a.job_modify_index)
                    .then(a_id.cmp(b_id))
            })
            .map(|(j, _)| j);
        match embedded {
            Some(_) => gaps.from_allocs.insert(version),
            None => gaps.unknown.insert(version),
        };
        embedded
    }
}

/// The warning for a job whose placements of an older version looked up
/// versions a dump without `JobVersions` could not give.
pub(super) fn version_gaps_warning(report: &JobReport) -> Option<Warning> {
    let gaps = &report.plan.version_gaps;
    if gaps.from_allocs.is_empty() && gaps.unknown.is_empty() {
        return None;
    }
    let list = |s: &BTreeSet<u64>| s.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let mut parts = Vec::new();
    if !gaps.from_allocs.is_empty() {
        parts.push(format!(
            "version(s) {} taken from the allocations that embed them",
            list(&gaps.from_allocs)
        ));
    }
    if !gaps.unknown.is_empty() {
        parts.push(format!(
            "version(s) {} found nowhere, so those placements use the current version, as Nomad \
             does when its state lacks the version",
            list(&gaps.unknown)
        ));
    }
    Some(Warning::new(
        "job_versions_missing",
        format!(
            "{}/{}: the snapshot has no JobVersions, which Nomad reads to place a non-canary \
             allocation of an older job version during a canary deployment: {}",
            report.namespace,
            report.id,
            parts.join("; ")
        ),
    ))
}
