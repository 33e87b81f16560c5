//! The drainer's job watcher (nomad/drainer/watch_jobs.go `handleJob`,
//! `handleTaskGroup`, v1.3.0 :339-440, and draining_node.go
//! `DrainingJobs`): for every job with a live allocation on a draining
//! node (system jobs aside), each group with a `migrate` block gives up as
//! many of its allocations there as keeps `count - max_parallel` of its
//! allocations with a health verdict. Nomad counts any verdict, healthy or
//! not (`HasHealth`), and a batch job's allocations wait for the deadline.

use std::collections::BTreeSet;

use crate::model::JobType;

use super::world::World;

/// The allocations to mark for migration on `draining` nodes, by job and
/// group, first by allocation ID within a group as the state store lists them.
pub fn drainable(world: &World, draining: &[String]) -> Vec<usize> {
    let on_draining = |node: &str| draining.iter().any(|d| d == node);
    let mut jobs: BTreeSet<(String, String)> = BTreeSet::new();
    for node in draining {
        for i in world.allocs_on(node) {
            let a = world.alloc(i);
            let system = a
                .job
                .as_deref()
                .is_some_and(|j| j.job_type == JobType::System);
            if !a.terminal_status() && !system {
                jobs.insert((a.namespace.to_string(), a.job_id.to_string()));
            }
        }
    }
    let mut out = Vec::new();
    for (namespace, job_id) in jobs {
        let Some(job) = world.snapshot.job(&namespace, &job_id) else {
            continue;
        };
        let batch = job.job_type == JobType::Batch;
        let mut allocs: Vec<usize> = (0..world.snapshot.allocs.len())
            .filter(|&i| {
                let a = world.alloc(i);
                a.namespace == namespace.as_str() && a.job_id == job_id.as_str()
            })
            .collect();
        allocs.sort_by(|&a, &b| world.alloc(a).id.cmp(&world.alloc(b).id));
        for tg in &job.task_groups {
            let Some(migrate) = tg.migrate.as_ref().filter(|_| !batch) else {
                continue;
            };
            let mut healthy = 0;
            let mut candidates = Vec::new();
            for &i in &allocs {
                let a = world.alloc(i);
                if a.task_group != tg.name.as_str() || a.terminal_status() {
                    continue;
                }
                if a.deployment_status
                    .as_ref()
                    .is_some_and(|d| d.healthy.is_some())
                {
                    healthy += 1;
                }
                if on_draining(&a.node_id) && !a.desired_transition.should_migrate() {
                    candidates.push(i);
                }
            }
            let room = healthy - (tg.count - migrate.max_parallel);
            let take = usize::try_from(room).unwrap_or(0).min(candidates.len());
            out.extend(candidates.into_iter().take(take));
        }
    }
    out
}
