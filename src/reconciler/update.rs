//! Whether an allocation can keep running, be updated in place, or must be
//! replaced: Nomad's `tasksUpdated` and `genericAllocUpdateFn`.
//!
//! Functions return the first difference found as a reason instead of a bool,
//! so plan-inspect can explain a destructive update.

mod check;
mod connect;
mod difference;
mod network;
mod tasks;

use std::sync::Arc;

use super::rules::Rules;
use crate::model::{Allocation, Job, JobType, Node, TaskGroup};
use crate::version::Switch;
pub use check::UpdateCheck;
pub use difference::Difference;
pub use tasks::tasks_updated;

/// How an existing allocation meets a new job version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateKind {
    /// Nothing to do: same job version, or a terminal allocation.
    Ignore,
    /// The allocation must be stopped and replaced, for this reason.
    Destructive(Arc<Difference>),
    /// The allocation can be updated where it runs.
    InPlace,
}

/// `genericAllocUpdateFn` up to its placement-stack check, which the
/// replay adds (`replay.rs`, `placement::Placer::check_in_place`): an update
/// that passes every check here is in place unless the stack then refuses
/// its node.
///
/// `node` is the allocation's node from the snapshot (`None` = garbage-collected).
/// An allocation without an embedded job, where Nomad would crash, is compared
/// against an empty job (modify index 0, no task groups), so unless the new job
/// also has index 0 it is replaced.
pub fn alloc_update_kind(
    existing: &Allocation,
    new_job: &Job,
    new_group: &TaskGroup,
    node: Option<&Node>,
    rules: &Rules,
) -> UpdateKind {
    update_kind(
        existing,
        new_job,
        || node,
        |old_job| tasks_updated(new_job, old_job, &new_group.name, rules).map(Arc::new),
        rules,
    )
}

/// `genericAllocUpdateFn` with `tasksUpdated(newJob, oldJob, group)` given.
fn update_kind<'n>(
    existing: &Allocation,
    new_job: &Job,
    node: impl FnOnce() -> Option<&'n Node>,
    tasks_updated: impl FnOnce(&Job) -> Option<Arc<Difference>>,
    rules: &Rules,
) -> UpdateKind {
    let no_job;
    let old_job = match existing.job.as_deref() {
        Some(job) => job,
        None => {
            no_job = Job::default();
            &no_job
        }
    };
    if old_job.job_modify_index == new_job.job_modify_index {
        return UpdateKind::Ignore;
    }
    if let Some(reason) = tasks_updated(old_job) {
        return UpdateKind::Destructive(reason);
    }
    // Terminal batch allocations are kept by the reconciler; updating them
    // in place would only add noise to the plan.
    if existing.terminal_status() {
        return UpdateKind::Ignore;
    }
    let Some(node) = node() else {
        let reason = format!("node {} no longer exists", existing.node_id);
        return UpdateKind::Destructive(Arc::new(reason.as_str().into()));
    };
    // Datacenters match exactly until wildcards do (`IsInAnyDC`).
    let in_dc = if rules.has(Switch::DatacenterGlob) {
        new_job
            .datacenters
            .iter()
            .any(|dc| glob_match(dc, &node.datacenter))
    } else {
        new_job.datacenters.contains(&node.datacenter)
    };
    if !in_dc {
        let reason = format!(
            "node {} is no longer in the job's datacenters (it is in {:?})",
            node.id, node.datacenter
        );
        return UpdateKind::Destructive(Arc::new(reason.as_str().into()));
    }
    if rules.has(Switch::NodePool)
        && new_job.node_pool != "all"
        && node.node_pool != new_job.node_pool
    {
        let reason = format!(
            "node {} is no longer in the job's node pool (it is in {:?})",
            node.id, node.node_pool
        );
        return UpdateKind::Destructive(Arc::new(reason.as_str().into()));
    }
    UpdateKind::InPlace
}

/// Whether Nomad updates `existing` in place without the placement-stack
/// check (H-2, 2.0.3 on): it does when the allocation's `max_run_duration`
/// reads as changed. As written (v2.0.3 scheduler/util.go:849-857) the new
/// value is read from a copy whose job was cleared, which has none, so it
/// reads as changed whenever the allocation's own job version sets a
/// positive one for a batch or sysbatch group: every in-place update of
/// such an allocation skips the check, whatever the new job says.
pub fn skips_feasibility(existing: &Allocation, rules: &Rules) -> bool {
    rules.has(Switch::H2)
        && existing.job.as_deref().is_some_and(|job| {
            matches!(job.job_type, JobType::Batch | JobType::Sysbatch)
                && job
                    .lookup_task_group(&existing.task_group)
                    .and_then(|tg| tg.max_run_duration)
                    .is_some_and(|d| d > 0)
        })
}

/// `glob.Glob` (github.com/ryanuber/go-glob): `*` matches any run of
/// characters, nothing else is special. Each part is found after the one
/// before it, and the last must end what remains.
pub fn glob_match(pattern: &str, subject: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let Some((last, init)) = parts.split_last().filter(|(_, init)| !init.is_empty()) else {
        return pattern == subject;
    };
    let mut rest = subject;
    for (i, part) in init.iter().enumerate() {
        match rest.find(part) {
            Some(0) => {}
            Some(_) if i > 0 || pattern.starts_with('*') => {}
            _ => return false,
        }
        let at = rest.find(part).unwrap_or(0);
        rest = &rest[at + part.len()..];
    }
    pattern.ends_with('*') || rest.ends_with(last)
}

#[cfg(test)]
mod tests;
