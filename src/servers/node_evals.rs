//! `Node.createNodeEvals` (nomad/node_endpoint.go): the evaluations a node
//! update creates. One `node-update` evaluation, with the node's ID, per job
//! with an allocation on the node, then one per system job that may run
//! there; rows #12955, #17443, #23858, #27423 and #27499 of the catalogue say which, per release.

use std::collections::BTreeSet;

use crate::model::{Allocation, Job, JobType, Node};
use crate::system::{in_datacenters, in_pool};
use crate::version::Switch;

use super::eval::{NewEval, trigger};
use super::rules::ServerRules;
use super::world::World;

/// The evaluations a status change of `node` creates.
pub fn create(world: &World, node: &Node, rules: &ServerRules) -> Vec<NewEval> {
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let mut evals = Vec::new();
    let make = |namespace: &str, job_id: &str, job: &Job| NewEval {
        id: String::new(),
        namespace: namespace.to_string(),
        job_id: job_id.to_string(),
        job_type: job.job_type.clone(),
        priority: job.priority,
        triggered_by: trigger::NODE_UPDATE.to_string(),
        node_id: Some(node.id.clone()),
        wait_until: None,
        raft_index: None,
    };
    for i in world.allocs_on(&node.id) {
        let alloc = world.alloc(i);
        let key = (alloc.namespace.to_string(), alloc.job_id.to_string());
        if seen.contains(&key) {
            continue;
        }
        // Nomad reads the job the allocation embeds; a dump without it
        // falls back on the current version.
        let Some(job) = alloc.job.as_deref().or_else(|| current_job(world, alloc)) else {
            continue;
        };
        if rules.has(Switch::NodeEvalsSkipTerminal) {
            if !rules.has(Switch::NodeEvalsSeenAfterEval) {
                seen.insert(key.clone());
            }
            if skipped(alloc, &job.job_type) {
                continue;
            }
        } else {
            seen.insert(key.clone());
            if rules.has(Switch::NodeEvalsSkipSysbatch) && job.job_type == JobType::Sysbatch {
                continue;
            }
        }
        evals.push(make(&alloc.namespace, &alloc.job_id, job));
        seen.insert(key);
    }
    let mut system: Vec<&Job> = world
        .snapshot
        .jobs
        .iter()
        .map(|j| j.as_ref())
        .filter(|j| j.job_type == JobType::System && may_run(j, node, rules))
        .collect();
    system.sort_by(|a, b| (&a.namespace, &a.id).cmp(&(&b.namespace, &b.id)));
    for job in system {
        if seen.insert((job.namespace.to_string(), job.id.to_string())) {
            evals.push(make(&job.namespace, &job.id, job));
        }
    }
    evals
}

/// The #27423 filter: which allocations' jobs the first pass passes over.
fn skipped(alloc: &Allocation, job_type: &JobType) -> bool {
    match job_type {
        JobType::Service => alloc.server_terminal_status() && alloc.client_terminal_status(),
        JobType::Batch => alloc.client_terminal_status(),
        _ => true,
    }
}

/// Whether the system-job pass evaluates `job` for `node`.
fn may_run(job: &Job, node: &Node, rules: &ServerRules) -> bool {
    let in_dc = !rules.has(Switch::NodeEvalsInDatacenter)
        || in_datacenters(job, node, rules.has(Switch::SystemDatacenterGlob));
    let pooled = !rules.has(Switch::NodePool) || in_pool(job, node);
    let running = !rules.has(Switch::NodeEvalsSkipTerminal) || !job.stop;
    in_dc && pooled && running
}

fn current_job<'w>(world: &'w World, alloc: &Allocation) -> Option<&'w Job> {
    world
        .snapshot
        .jobs
        .iter()
        .find(|j| j.id == alloc.job_id.as_str() && j.namespace == alloc.namespace.as_str())
        .map(|j| j.as_ref())
}
