//! A node pool (`structs.NodePool`, nomad/structs/node_pool.go from 1.6.0)
//! as far as the scheduler reads it: its name and its own scheduler
//! configuration. A state dump of the public releases does not list the
//! pools (`StateAsMap`, helper/raftutil/fsm.go at 1.6.0 and 2.0.5):
//! plan-inspect reads them from the extension key `NodePools`, in the shape
//! `nomad node pool list -json` and `/v1/node/pools` print.

use serde::Deserialize;

/// `structs.NodePool`, as far as the scheduler reads it.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodePool {
    pub name: String,
    /// Only Nomad Enterprise stores one: the community edition's endpoint
    /// refuses it (nomad/node_pool_endpoint_oss.go:16 at 1.6.0,
    /// node_pool_endpoint_ce.go:15 at 2.0.5).
    pub scheduler_configuration: Option<NodePoolSchedulerConfig>,
}

/// `structs.NodePoolSchedulerConfiguration`: each setting left unset
/// (empty, `null`) keeps the cluster's.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodePoolSchedulerConfig {
    pub scheduler_algorithm: String,
    pub memory_oversubscription_enabled: Option<bool>,
}
