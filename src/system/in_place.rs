//! `inplaceUpdate` and `desiredUpdates` of the system scheduler: which
//! updates keep their allocation, and the plan annotation.

use std::collections::HashSet;

use super::diff::{Category, DiffEntry};
use super::fit::PlanFit;
use super::in_place_fit::InPlaceFit;
use super::ready_nodes::{in_datacenters, in_pool};
use super::schedule::{SystemInput, SystemSchedule, placed};
use crate::feasibility::{PlanSoFar, SystemStack};
use crate::fit::Shortfall;
use crate::model::{Allocation, Id, Job, Node, TaskGroup};
use crate::reconciler::{DesiredChanges, Difference, tasks_updated};
use crate::version::Switch;

impl<'a> SystemSchedule<'a> {
    /// `inplaceUpdate`: the updates that can keep their allocation, and the
    /// destructive rest (in diff order) with the reason each needs a new one.
    pub(super) fn split_updates(
        &mut self,
        input: &SystemInput<'a, '_>,
        job: Option<&'a Job>,
        mut stack: Option<&mut SystemStack<'a>>,
        plan: &mut PlanSoFar<'a>,
        updates: Vec<DiffEntry<'a>>,
    ) -> Vec<(DiffEntry<'a>, Difference)> {
        let mut destructive = Vec::new();
        // What the plan stops so far, the same for every update.
        let mut gone: HashSet<&'a Id> = self.stops.iter().map(|s| &s.alloc.id).collect();
        for entry in updates {
            let (Some(alloc), Some(tg), Some(job)) = (entry.alloc, entry.task_group, job) else {
                continue;
            };
            // `inplaceUpdate` asks the same `tasksUpdated` as the generic
            // scheduler, so it follows the replayed release's rules.
            let changed = match alloc.job.as_deref() {
                Some(old) => tasks_updated(job, old, &tg.name, input.rules),
                None => Some(unlabelled(
                    "the allocation embeds no job to compare with".to_string(),
                )),
            };
            if let Some(d) = changed {
                destructive.push((entry, d));
                continue;
            }
            if alloc.terminal_status() {
                self.in_place_terminal.push(alloc);
                continue;
            }
            let Some(node) = input.nodes.get(alloc.node_id.as_str()).copied() else {
                let reason = format!("node {} is not in the snapshot", alloc.node_id);
                destructive.push((entry, unlabelled(reason)));
                continue;
            };
            if !in_datacenters(job, node, input.rules.has(Switch::DatacenterGlob)) {
                let reason = format!(
                    "node datacenter {:?} is not one of the job's",
                    node.datacenter
                );
                destructive.push((entry, unlabelled(reason)));
                continue;
            }
            if input.rules.has(Switch::NodePool) && !in_pool(job, node) {
                let reason = format!("node pool {:?} is not the job's", node.node_pool);
                destructive.push((entry, unlabelled(reason)));
                continue;
            }
            let Some(stack) = stack.as_deref_mut() else {
                continue;
            };
            // The allocation is staged as stopping while its node is checked.
            plan.stopping.push(placed(input.nodes, alloc));
            let verdict = stack.select(tg, &alloc.name(), node, plan);
            plan.stopping.pop();
            if let Err(filter) = verdict {
                let reason = format!("its node no longer fits: {}", filter.describe());
                destructive.push((entry, unlabelled(reason)));
                continue;
            }
            match in_place_fit(input, job, tg, node, alloc, &mut gone) {
                Ok(fit) => {
                    self.in_place_fit.insert(&alloc.id, fit);
                    plan.proposed.push(placed(input.nodes, alloc));
                    self.in_place.push(alloc);
                }
                Err(short) => {
                    let reason = format!("its node no longer fits: it {short}");
                    destructive.push((entry, unlabelled(reason)));
                }
            }
        }
        destructive
    }

    /// `desiredUpdates`, before the evictions add their replacements.
    pub(super) fn annotate(&mut self, destructive: &[(DiffEntry<'a>, Difference)]) {
        let mut bump = |group: &str, f: fn(&mut DesiredChanges)| {
            f(self.desired.entry(group.to_string()).or_default());
        };
        for e in &self.diff.entries {
            let group = match e.category {
                // A stop counts under the allocation's own group.
                Category::Stop => e.alloc.map(|a| a.task_group.as_str()),
                _ => e.task_group.map(|tg| tg.name.as_str()),
            };
            let Some(group) = group else { continue };
            match e.category {
                Category::Place => bump(group, |d| d.place += 1),
                Category::Stop => bump(group, |d| d.stop += 1),
                Category::Ignore => bump(group, |d| d.ignore += 1),
                Category::Migrate => bump(group, |d| d.migrate += 1),
                Category::Update
                | Category::Lost
                | Category::Disconnecting
                | Category::Reconnecting => {}
            }
        }
        for a in self.in_place.iter().chain(&self.in_place_terminal) {
            bump(&a.task_group, |d| d.in_place_update += 1);
        }
        for (e, _) in destructive {
            if let Some(tg) = e.task_group {
                bump(&tg.name, |d| d.destructive_update += 1);
            }
        }
    }
}

/// The end of `inplaceUpdate`'s `Select`: the system stack's bin packing
/// on the allocation's own node, with the allocation and the plan's
/// stops staged as gone (v1.3.0 scheduler/util.go:859-877, v2.0.5
/// :626-645). Nomad keeps the update in place whenever an option comes
/// back, even one that would preempt: it copies only the option's task
/// resources and never adds its preemptions to the plan (v1.3.0
/// util.go:907-918, v2.0.5 :675-691), so those allocations keep running.
fn in_place_fit<'a>(
    input: &SystemInput<'a, '_>,
    job: &Job,
    tg: &TaskGroup,
    node: &'a Node,
    alloc: &'a Allocation,
    gone: &mut HashSet<&'a Id>,
) -> Result<InPlaceFit, Shortfall> {
    let Some(fit) = &input.fit else {
        return Ok(InPlaceFit::Unchecked);
    };
    if !fit.sized(node) {
        return Ok(InPlaceFit::Unchecked);
    }
    let staged = gone.insert(&alloc.id);
    let view = PlanFit {
        gone,
        preempted: &[],
        placed_here: Vec::new(),
    };
    let fitted = fit.fit(job, tg, node, &view);
    if staged {
        gone.remove(&alloc.id);
    }
    let fitted = fitted?;
    Ok(match fitted.preempted.len() {
        0 => InPlaceFit::Fits,
        n => InPlaceFit::Preempting(n),
    })
}

/// A reason Nomad's `tasksUpdated` does not name.
fn unlabelled(reason: String) -> Difference {
    Difference {
        label: None,
        reason,
    }
}
