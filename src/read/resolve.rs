//! After the walk: link allocations to jobs and check what only the whole
//! snapshot can tell (keys come in any order, so none of this can be done earlier).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::document::State;
use crate::model::{Job, Snapshot, node_status, status};

impl State<'_> {
    /// Resolves allocations without an embedded job and gathers the warnings.
    ///
    /// Nomad always embeds the job in an allocation, so one without is damaged
    /// input. The allocation's version is unknown (there is no link to
    /// `JobVersions`), so it takes the current job from `Jobs`; only for a job
    /// missing from `Jobs` does it take the highest `Version` in `JobVersions`;
    /// with neither, it stays without a job. Each case warns `alloc_without_job`.
    pub(super) fn finish(mut self) -> Snapshot {
        let current: HashMap<(&str, &str), &Arc<Job>> = self
            .jobs
            .iter()
            .map(|j| ((j.namespace.as_str(), j.id.as_str()), j))
            .collect();
        let mut latest: HashMap<(&str, &str), &Arc<Job>> = HashMap::new();
        for job in &self.job_versions {
            let slot = latest
                .entry((job.namespace.as_str(), job.id.as_str()))
                .or_insert(job);
            if (job.version, job.job_modify_index) > (slot.version, slot.job_modify_index) {
                *slot = job;
            }
        }

        // (namespace, job ID) -> allocations of a job that is not in `Jobs`.
        let mut purged: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for alloc in &mut self.allocs {
            let key = (alloc.namespace.as_str(), alloc.job_id.as_str());
            if !current.contains_key(&key) {
                *purged.entry(key).or_default() += 1;
            }
            if alloc.job.is_some() {
                continue;
            }
            let (ns, id) = key;
            let (job, message) = match (current.get(&key), latest.get(&key)) {
                (Some(job), _) => (
                    Some(Arc::clone(job)),
                    format!(
                        "allocation {} embeds no job; using the current version {} of job {id:?} in namespace {ns:?} from Jobs",
                        alloc.id, job.version
                    ),
                ),
                (None, Some(job)) => (
                    Some(Arc::clone(job)),
                    format!(
                        "allocation {} embeds no job and job {id:?} in namespace {ns:?} is not in Jobs; using its latest version {} from JobVersions",
                        alloc.id, job.version
                    ),
                ),
                (None, None) => (
                    None,
                    format!(
                        "allocation {} embeds no job and job {id:?} in namespace {ns:?} is in neither Jobs nor JobVersions; it has no job spec",
                        alloc.id
                    ),
                ),
            };
            self.warnings.push("alloc_without_job", message);
            alloc.job = job;
        }
        for ((ns, id), count) in purged {
            self.warnings.push(
                "purged_job",
                format!(
                    "job {id:?} in namespace {ns:?} is not in Jobs but has {count} allocation(s); it is treated as purged and its allocations are stopped"
                ),
            );
        }

        for alloc in &self.allocs {
            if !status::CLIENT.contains(&alloc.client_status.as_str()) {
                self.warnings.push(
                    "unknown_status",
                    format!(
                        "allocation {} has unknown ClientStatus {:?}",
                        alloc.id, alloc.client_status
                    ),
                );
            }
            if !status::DESIRED.contains(&alloc.desired_status.as_str()) {
                self.warnings.push(
                    "unknown_status",
                    format!(
                        "allocation {} has unknown DesiredStatus {:?}",
                        alloc.id, alloc.desired_status
                    ),
                );
            }
        }
        for node in &self.nodes {
            if !node_status::ALL.contains(&node.status.as_str()) {
                self.warnings.push(
                    "unknown_node_status",
                    format!("node {} has unknown Status {:?}", node.id, node.status),
                );
            }
        }

        Snapshot {
            jobs: self.jobs,
            job_versions: self.job_versions,
            nodes: self.nodes,
            allocs: self.allocs,
            deployments: self.deployments,
            evals: self.evals,
            meta_time: self.meta_time,
            now: self.now,
            eval_id: self.eval_id,
            supports_disconnected_clients: self.supports_disconnected_clients,
            nomad_version: self.nomad_version,
            warnings: self.warnings.finish(),
        }
    }
}
