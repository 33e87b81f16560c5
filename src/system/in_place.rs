//! `inplaceUpdate` and `desiredUpdates` of the system scheduler: which
//! updates keep their allocation, and the plan annotation.

use super::diff::{Category, DiffEntry};
use super::ready_nodes::{in_datacenters, in_pool};
use super::schedule::{SystemInput, SystemSchedule, placed};
use crate::feasibility::{PlanSoFar, SystemStack};
use crate::model::Job;
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
            let verdict = stack.select(tg, &alloc.name, node, plan);
            plan.stopping.pop();
            match verdict {
                Ok(()) => {
                    plan.proposed.push(placed(input.nodes, alloc));
                    self.in_place.push(alloc);
                }
                Err(filter) => {
                    let reason = format!("its node no longer fits: {}", filter.describe());
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

/// A reason Nomad's `tasksUpdated` does not name.
fn unlabelled(reason: String) -> Difference {
    Difference {
        label: None,
        reason,
    }
}
