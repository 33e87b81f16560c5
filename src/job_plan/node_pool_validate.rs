//! The register and plan endpoints' node pool validator
//! (`jobNodePoolValidatingHook`, #17386 from 1.6.0; v1.6.0
//! nomad/job_endpoint_hook_node_pool.go:22-34, the same lines at v2.0.5):
//! a job whose node pool the servers' state does not hold is refused.

use serde_json::{Map, Value};

use super::json_map::text;
use crate::model::{NodePool, go_quote};
use crate::version::{Switch, Switches};

/// The pools every state holds from 1.6.0 on, whatever the dump lists: the
/// state store creates them at start and never lets them be modified or
/// deleted (v1.6.0 nomad/state/state_store_node_pools.go:15-30, v2.0.5
/// :15-33). `all` is a pool a job may use (its nodes are every node); only a
/// node may not register in it.
const BUILT_IN: [&str; 2] = ["all", "default"];

/// Nomad's error for a job whose node pool is neither built in nor among
/// `pools`; `None` when it exists, before 1.6.0, or without a pool list
/// (`pools` is `None`: nothing to check against). The community edition's
/// own check adds nothing (v1.6.0 job_endpoint_hook_node_pool_oss.go:13,
/// v2.0.5 job_endpoint_hook_node_pool_ce.go:12).
pub(crate) fn node_pool_error(
    job: &Map<String, Value>,
    pools: Option<&[NodePool]>,
    rules: Switches,
) -> Option<String> {
    let pools = pools.filter(|_| rules.has(Switch::NodePoolExists))?;
    let pool = text(job, "NodePool");
    let exists = BUILT_IN.contains(&pool.as_str()) || pools.iter().any(|p| p.name == pool);
    (!exists).then(|| {
        format!(
            "job {} is in nonexistent node pool {}",
            go_quote(&text(job, "ID")),
            go_quote(&pool)
        )
    })
}
