//! The whole snapshot, as the reader hands it to the core.

use std::sync::Arc;

use super::{
    Allocation, AppliedConfig, CsiPlugin, CsiVolume, Deployment, Evaluation, Job, Node, NodePool,
    SchedulerConfig, VersionRequest,
};
use crate::time::Time;
use crate::warning::Warning;

/// Everything plan-inspect keeps from a `nomad operator snapshot state` dump.
///
/// Keys the core does not use (`ACLTokens`, ...) are never stored here.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// The current version of every job (`Jobs`).
    pub jobs: Vec<Arc<Job>>,
    /// Older job versions (`JobVersions`), used when an allocation embeds no job
    /// and for placements of an older version.
    pub job_versions: Vec<Arc<Job>>,
    /// The dump has a `JobVersions` list (maybe empty): it holds every
    /// version Nomad's state does, so a version missing from it is missing.
    pub job_versions_listed: bool,
    pub nodes: Vec<Node>,
    /// Allocations; each one's `job` is already resolved by the reader where possible.
    pub allocs: Vec<Allocation>,
    pub deployments: Vec<Deployment>,
    /// Evaluations (`Evals`), kept only for `--eval`.
    pub evals: Vec<Evaluation>,
    /// The time in the raft snapshot ID of `SnapshotMeta`.
    pub meta_time: Option<Time>,
    /// Extension `Now`.
    pub now: Option<Time>,
    /// Extension `EvalID`; `Some("")` is an explicit empty ID.
    pub eval_id: Option<String>,
    /// Extension `SupportsDisconnectedClients`.
    pub supports_disconnected_clients: Option<bool>,
    /// Extension `NomadVersion`: the release to replay.
    pub nomad_version: Option<VersionRequest>,
    /// Extension `SchedulerConfig`: the cluster's scheduler configuration.
    pub scheduler_config: Option<SchedulerConfig>,
    /// Extension `NodePools`: the node pools, for their own scheduler
    /// configurations; empty when absent or `null`.
    pub node_pools: Vec<NodePool>,
    /// `CSIVolumes`; `None` when the dump has no such table (absent or
    /// `null`), and CSI volume requests are then not checked.
    pub csi_volumes: Option<Vec<CsiVolume>>,
    /// `CSIPlugins`; `None` when absent or `null`, and each volume's own
    /// `Schedulable` is read instead of the plugin's health.
    pub csi_plugins: Option<Vec<CsiPlugin>>,
    /// What the reader found suspicious but usable.
    pub warnings: Vec<Warning>,
    /// The JSON text in `Jobs` of the job the reader was asked to keep whole
    /// (`ReadFilter::keep_job_text`), for a job plan's diff.
    pub planned_job_text: Option<String>,
    /// The names in `Namespaces`, when the dump has that key (a job plan
    /// refuses a new job in a namespace it does not list).
    pub namespaces: Option<Vec<String>>,
}

impl Snapshot {
    /// The current version of job `id` in `namespace` (`Jobs`).
    pub fn job(&self, namespace: &str, id: &str) -> Option<&Arc<Job>> {
        self.jobs
            .iter()
            .find(|j| j.namespace == namespace && j.id == id)
    }

    /// Version `version` of job `id` in `namespace`: from `Jobs`, else
    /// `JobVersions`, else an allocation that embeds it.
    pub fn job_version(&self, namespace: &str, id: &str, version: u64) -> Option<&Arc<Job>> {
        let is = |j: &&Arc<Job>| j.namespace == namespace && j.id == id && j.version == version;
        let embedded = self.allocs.iter().filter_map(|a| a.job.as_ref());
        self.jobs
            .iter()
            .chain(&self.job_versions)
            .chain(embedded)
            .find(is)
    }

    /// The scheduler configuration a job of node pool `pool` runs with:
    /// the cluster's (`SchedulerConfig`, else the servers' default), merged
    /// with the pool's own; `None` for a release that reads none (before
    /// 1.6.0).
    pub fn scheduler_config_for(&self, pool: Option<&str>) -> AppliedConfig {
        let cluster = self
            .scheduler_config
            .clone()
            .unwrap_or_else(SchedulerConfig::server_default);
        match pool {
            Some(pool) => AppliedConfig::of(&cluster, &self.node_pools, pool),
            None => AppliedConfig::of(&cluster, &[], ""),
        }
    }
}
