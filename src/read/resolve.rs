//! After the walk: link allocations to jobs and check what only the whole
//! snapshot can tell (keys come in any order, so none of this can be done earlier).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use foldhash::fast::FixedState;

use super::ReadError;
use super::document::State;
use super::top_keys::Presence;
use crate::model::{Allocation, Id, Job, Snapshot, node_status};

/// Examples named in a summarising warning, at most.
const EXAMPLES: usize = 3;

impl State<'_> {
    /// Resolves allocations without an embedded job and gathers the warnings.
    ///
    /// Nomad always embeds the job in an allocation, so one without is damaged
    /// input. The allocation's version is unknown (there is no link to
    /// `JobVersions`), so it takes the current job from `Jobs`; only for a job
    /// missing from `Jobs` does it take the highest `Version` in `JobVersions`;
    /// with neither, it stays without a job. Each case warns `alloc_without_job`,
    /// except list stubs (`AllocListStub`), which one `alloc_list_stub` warning
    /// counts; a stub's `JobVersion` picks that version from `JobVersions`.
    ///
    /// A document with none of the keys that hold cluster state is an error.
    pub(super) fn finish(mut self) -> Result<Snapshot, ReadError> {
        if let Some(found) = self.keys.not_a_snapshot() {
            return Err(ReadError::not_a_snapshot(self.name, found));
        }
        self.drop_walk_tables();
        self.incomplete_warnings();
        self.settle_csi();
        let current: HashMap<(&str, &str), &Arc<Job>, FixedState> = self
            .jobs
            .iter()
            .map(|j| ((j.namespace.as_str(), j.id.as_str()), j))
            .collect();
        let mut latest: HashMap<(&str, &str), &Arc<Job>, FixedState> = HashMap::default();
        let mut versions: HashMap<(&str, &str, u64), &Arc<Job>, FixedState> = HashMap::default();
        for job in &self.job_versions {
            versions.insert((job.namespace.as_str(), job.id.as_str(), job.version), job);
            let slot = latest
                .entry((job.namespace.as_str(), job.id.as_str()))
                .or_insert(job);
            if (job.version, job.job_modify_index) > (slot.version, slot.job_modify_index) {
                *slot = job;
            }
        }

        // (namespace, job ID) -> allocations of a job that is not in `Jobs`.
        let mut purged: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        let mut stubs: Vec<&Id> = Vec::new();
        let mut specless_stubs = 0;
        for alloc in &mut self.allocs {
            let key = (alloc.namespace.as_str(), alloc.job_id.as_str());
            if !current.contains_key(&key) {
                *purged.entry(key).or_default() += 1;
            }
            if alloc.job.is_some() {
                continue;
            }
            let (ns, id) = key;
            if is_list_stub(alloc) {
                stubs.push(&alloc.id);
                let exact = alloc
                    .stub_job_version
                    .as_deref()
                    .and_then(|&v| versions.get(&(ns, id, v)));
                let job = exact.or(current.get(&key)).or(latest.get(&key));
                specless_stubs += usize::from(job.is_none());
                alloc.job = job.map(|j| Arc::clone(j));
                continue;
            }
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
        if !stubs.is_empty() {
            stubs.sort_unstable();
            self.warnings.push(
                "alloc_list_stub",
                format!(
                    "{} allocation(s) look like list stubs (AllocListStub: no Job, no DesiredTransition), as \
                     /v1/allocations and /v1/job/:id/allocations return them (e.g. {}): each takes its job \
                     version from JobVersions, else the current job from Jobs{}, and lacks what a stub leaves \
                     out; read them with /v1/allocation/:id for a faithful replay",
                    stubs.len(),
                    examples(&stubs),
                    match specless_stubs {
                        0 => String::new(),
                        n => format!(" ({n} found neither and have no job spec)"),
                    }
                ),
            );
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
            if !alloc.client_status.is_known() {
                self.warnings.push(
                    "unknown_status",
                    format!(
                        "allocation {} has unknown ClientStatus {:?}",
                        alloc.id, alloc.client_status
                    ),
                );
            }
            if !alloc.desired_status.is_known() {
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

        // Grown by doubling and kept to the end of the replay: without this,
        // up to half of the largest lists would be spare capacity.
        self.allocs.shrink_to_fit();
        self.nodes.shrink_to_fit();
        Ok(Snapshot {
            jobs: self.jobs,
            job_versions: self.job_versions,
            job_versions_listed: self.keys.presence("JobVersions") == Presence::Value,
            nodes: self.nodes,
            allocs: self.allocs,
            deployments: self.deployments,
            evals: self.evals,
            meta_time: self.meta_time,
            now: self.now,
            eval_id: self.eval_id,
            supports_disconnected_clients: self.supports_disconnected_clients,
            nomad_version: self.nomad_version,
            scheduler_config: self.scheduler_config,
            node_pools: self.node_pools,
            csi_volumes: self.csi_volumes,
            csi_plugins: self.csi_plugins,
            warnings: self.warnings.finish(),
            planned_job_text: self.planned_job_text,
            namespaces: self.namespaces,
        })
    }

    /// Warns about what the replay needs and the document lacks: a key that
    /// holds cluster state (absent or null), the deployments its allocations
    /// name, or jobs cut down to list stubs. One warning per kind.
    fn incomplete_warnings(&mut self) {
        // As in Go, `null` is the key missing: the words are the same.
        let said = |p: Presence| (p != Presence::Value).then_some("absent or null");
        let presence_nodes = self.keys.presence("Nodes");
        // Counted only for the warning that says it.
        let running = if presence_nodes == Presence::Value {
            0
        } else {
            self.allocs.iter().filter(|a| !a.terminal_status()).count()
        };
        let missing = [
            (
                "Nodes",
                presence_nodes,
                format!(
                    "every node counts as garbage-collected, so every allocation not yet terminal \
                     ({running}) is lost and replaced; the dump looks incomplete"
                ),
            ),
            (
                "Jobs",
                self.keys.presence("Jobs"),
                "every job with allocations counts as purged, so all its allocations are stopped"
                    .to_string(),
            ),
            (
                "Allocs",
                self.keys.allocs_presence(),
                "every job is replayed as if it had no allocations, so every group is placed from scratch"
                    .to_string(),
            ),
        ];
        for (key, presence, effect) in missing {
            if let Some(how) = said(presence) {
                self.warnings.push(
                    "missing_key",
                    format!("the snapshot has no {key} (the key is {how}): {effect}"),
                );
            }
        }
        if presence_nodes == Presence::Value {
            self.absent_node_warning();
        }
        if let Some(how) = said(self.keys.presence("Deployments")) {
            let mut named: Vec<&str> = self
                .allocs
                .iter()
                .filter(|a| !a.deployment_id.is_empty())
                .map(|a| a.deployment_id.as_str())
                .collect();
            named.sort_unstable();
            named.dedup();
            if !named.is_empty() {
                self.warnings.push(
                    "missing_key",
                    format!(
                        "the snapshot has no Deployments (the key is {how}) but allocations name {} deployment(s) \
                         (e.g. {}): the replay sees no deployment, so a rolling update may look unstarted",
                        named.len(),
                        examples(&named)
                    ),
                );
            }
        }
        let mut stubs: Vec<String> = self
            .jobs
            .iter()
            .filter(|j| j.task_groups.is_empty())
            .map(|j| format!("{}/{}", j.namespace, j.id))
            .collect();
        if !stubs.is_empty() {
            stubs.sort_unstable();
            self.warnings.push(
                "job_list_stub",
                format!(
                    "{} job(s) in Jobs have no TaskGroups, like the /v1/jobs list stubs (e.g. {}): their \
                     allocations count as of removed groups and are stopped; read each job with /v1/job/:id",
                    stubs.len(),
                    examples(&stubs)
                ),
            );
        }
    }
}

impl State<'_> {
    /// Warns, once with a count, about allocations not yet terminal on
    /// nodes that `Nodes` lacks. Nomad collects a node only once every
    /// allocation on it is terminal (`nomad/core_sched.go` nodeGC), so such
    /// an allocation says the dump lost its nodes, not that Nomad did; the
    /// replay still takes the node as collected and the allocation as lost.
    fn absent_node_warning(&mut self) {
        let known: HashSet<&str, FixedState> = self.nodes.iter().map(|n| n.id.as_str()).collect();
        let mut absent: BTreeSet<&str> = BTreeSet::new();
        let mut allocs = 0;
        for alloc in &self.allocs {
            let node = alloc.node_id.as_str();
            if !node.is_empty() && !alloc.terminal_status() && !known.contains(node) {
                allocs += 1;
                absent.insert(node);
            }
        }
        if allocs == 0 {
            return;
        }
        let absent: Vec<&str> = absent.into_iter().collect();
        let message = if self.nodes.is_empty() {
            format!(
                "the snapshot's Nodes is empty but {allocs} allocation(s) not yet terminal run on {} \
                 node(s) (e.g. {}): the dump looks incomplete; every one is replayed as lost on a \
                 garbage-collected node and replaced",
                absent.len(),
                examples(&absent)
            )
        } else {
            format!(
                "{allocs} allocation(s) not yet terminal run on {} node(s) absent from Nodes (e.g. {}): \
                 Nomad collects a node only once its allocations are terminal, so the dump looks \
                 incomplete; each is replayed as lost on a garbage-collected node and replaced",
                absent.len(),
                examples(&absent)
            )
        };
        self.warnings.push("absent_node", message);
    }
}

/// An allocation as a list endpoint gives it (`AllocListStub`): no job, and
/// either the stub's own `JobVersion` or no `DesiredTransition`, which every
/// stored allocation has.
fn is_list_stub(alloc: &Allocation) -> bool {
    alloc.job.is_none() && (alloc.stub_job_version.is_some() || !alloc.desired_transition.present)
}

/// The first few of a sorted list, `a, b, c, ...`.
fn examples(sorted: &[impl fmt::Display]) -> String {
    let mut out = sorted[..sorted.len().min(EXAMPLES)]
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if sorted.len() > EXAMPLES {
        out.push_str(", ...");
    }
    out
}
