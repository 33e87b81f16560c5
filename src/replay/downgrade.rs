//! `downgradedJobForPlacement` (scheduler/generic_sched.go:461 at 1.3.0,
//! :474 at 1.10.5, :449 at 2.0.5, the same in every release): during a
//! canary deployment a non-canary placement is made with the job version
//! of the latest deployment (by job version) whose state for the group is
//! promoted or had no canaries; without one, with the version the
//! replaced allocation ran, if that version has no job-level `update`
//! block. The version must be at least the replaced allocation's and have
//! the group, else the current version is used.

use std::collections::BTreeSet;

use crate::model::{Allocation, Deployment, Id, Job, Snapshot, TaskGroup};
use crate::report::{JobReport, VersionGaps};
use crate::warning::Warning;

/// The job versions and deployments older versions are looked up in.
pub(super) struct History<'s> {
    /// One job per namespace, job ID and version, in that order (the
    /// current job wins over a `JobVersions` entry of its version): sorted
    /// lists searched by halves, a word per entry where maps took six.
    versions: Vec<&'s Job>,
    /// The deployments by namespace and job ID, then job version, highest
    /// first, ties by ID (`DeploymentsByJobID` walks them by ID and Nomad's
    /// sort keeps that order among equal versions for up to 12 deployments).
    deployments: Vec<&'s Deployment>,
    /// The dump lists `JobVersions`, so a version it lacks, Nomad lacks.
    listed: bool,
}

/// How [`History::versions`] is sorted.
fn version_key(job: &Job) -> (&str, &str, u64) {
    (job.namespace.as_str(), job.id.as_str(), job.version)
}

/// How [`History::deployments`] is sorted first.
fn deployment_job(d: &Deployment) -> (&str, &str) {
    (d.namespace.as_str(), d.job_id.as_str())
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
        // Of equal keys the first kept is the current job, else the entry
        // with the highest modify index.
        let mut versions: Vec<(bool, &Job)> = snapshot.jobs.iter().map(|j| (true, &**j)).collect();
        versions.extend(snapshot.job_versions.iter().map(|j| (false, &**j)));
        versions.sort_by(|(a_current, a), (b_current, b)| {
            version_key(a)
                .cmp(&version_key(b))
                .then(b_current.cmp(a_current))
                .then(b.job_modify_index.cmp(&a.job_modify_index))
        });
        let mut versions: Vec<&Job> = versions.into_iter().map(|(_, j)| j).collect();
        versions.dedup_by(|later, first| version_key(later) == version_key(first));
        let mut deployments: Vec<&Deployment> = snapshot.deployments.iter().collect();
        deployments.sort_by(|a, b| {
            deployment_job(a)
                .cmp(&deployment_job(b))
                .then(b.job_version.cmp(&a.job_version))
                .then(a.id.cmp(&b.id))
        });
        History {
            versions,
            deployments,
            listed: snapshot.job_versions_listed,
        }
    }

    /// The deployments of job `id` in `namespace`, as sorted.
    fn deployments_of(&self, namespace: &str, id: &str) -> &[&'s Deployment] {
        let key = (namespace, id);
        let from = self
            .deployments
            .partition_point(|d| deployment_job(d) < key);
        let to = from + self.deployments[from..].partition_point(|d| deployment_job(d) == key);
        &self.deployments[from..to]
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
        // `DeploymentsByJobID` without `all`: only deployments of this
        // incarnation of the job ID.
        let stable = self
            .deployments_of(&job.namespace, &job.id)
            .iter()
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
        let found = self.versions.binary_search_by(|j| version_key(j).cmp(&key));
        if let Ok(i) = found {
            return Some(self.versions[i]);
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
