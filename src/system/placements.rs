//! `computePlacements`: each placement on its node, with the feasibility
//! checks, then resource fit and preemption, and the failures as Nomad
//! reports them.

use std::collections::{BTreeMap, HashSet};

use super::deployment_state::replays_deployments;
use super::diff::Category;
use super::failures::{Failures, Targets};
use super::fit::PlanFit;
use super::ready_nodes::ReadyNodes;
use super::schedule::{
    Blocked, ExhaustedPlacement, FilteredPlacement, SystemInput, SystemPlacement, SystemPreemption,
    SystemSchedule, Tuple,
};
use crate::feasibility::{Placed, PlanSoFar, SystemStack};
use crate::model::{Allocation, Id, Job};
use crate::version::Switch;

impl<'a> SystemSchedule<'a> {
    /// `computePlacements`: one node at a time; a filtered node lowers the
    /// annotation's `Place`, wrapping below zero as Nomad's uint64 does.
    /// With resource fit on, a feasible node must also hold the group
    /// beside what it runs, evicting lower-priority allocations where
    /// preemption is on; a node that cannot is a failed placement.
    pub(super) fn place(
        &mut self,
        input: &SystemInput<'a, '_>,
        job: &'a Job,
        ready: &ReadyNodes<'a>,
        stack: &mut SystemStack<'a>,
        plan: &mut PlanSoFar<'a>,
        place: Vec<Tuple<'a>>,
    ) {
        self.failures = Failures::new(place.iter().map(|(_, tg, _, _, _)| tg.name.as_str()));
        let system_deployments = replays_deployments(input.rules, job);
        let targets = self.targets(input, job, ready);
        let existing = self.existing_groups(input);
        let mut gone: HashSet<&'a Id> = self.stops.iter().map(|s| &s.alloc.id).collect();
        for (name, tg, node_id, previous, canary) in place {
            let Some(node) = ready.ready.get(node_id).copied() else {
                self.skipped.push((name, node_id));
                continue;
            };
            if let Err(filter) = stack.select(tg, &name, node, plan) {
                if system_deployments {
                    self.placement_failed(&tg.name, previous.is_some());
                } else {
                    let d = self.desired.entry(tg.name.clone()).or_default();
                    d.place = d.place.wrapping_sub(1);
                }
                let exists = existing.contains(tg.name.as_str());
                self.failures.filtered(&tg.name, node, &filter, exists);
                self.filtered.push(FilteredPlacement {
                    name,
                    task_group: &tg.name,
                    node_id: &node.id,
                    filter,
                });
                continue;
            }
            let allocated = match &input.fit {
                None => None,
                Some(fit) if !fit.sized(node) => {
                    self.unsized_nodes.insert(&node.id);
                    None
                }
                Some(fit) => {
                    let preempted: Vec<&'a Allocation> =
                        self.preemptions.iter().map(|p| p.alloc).collect();
                    let view = PlanFit {
                        gone: &gone,
                        preempted: &preempted,
                        placed_here: self
                            .placements
                            .iter()
                            .filter(|p| p.node_id == node.id)
                            .filter_map(|p| p.allocated.clone())
                            .collect(),
                    };
                    match fit.fit(job, tg, node, &view) {
                        Ok(fitted) => {
                            for alloc in fitted.preempted {
                                gone.insert(&alloc.id);
                                self.preemptions.push(SystemPreemption {
                                    alloc,
                                    by: name.clone(),
                                    task_group: &tg.name,
                                });
                                let d = self.desired.entry(tg.name.clone()).or_default();
                                d.preemptions += 1;
                            }
                            Some(fitted.allocated)
                        }
                        Err(short) => {
                            if system_deployments {
                                self.placement_failed(&tg.name, previous.is_some());
                            }
                            self.exhausted.push(ExhaustedPlacement {
                                name: name.clone(),
                                task_group: &tg.name,
                                node_id: &node.id,
                                shortfall: short.clone(),
                            });
                            if self.failures.exhausted(&tg.name, node, &short, &targets) {
                                let escaped = stack.escaped();
                                self.blocked.push(Blocked {
                                    task_group: tg.name.clone(),
                                    node_id: node.id.clone(),
                                    class_eligibility: match escaped {
                                        true => BTreeMap::new(),
                                        false => stack.class_eligibility(),
                                    },
                                    escaped,
                                });
                            }
                            continue;
                        }
                    }
                }
            };
            self.failures.placed(&tg.name);
            plan.proposed.push(Placed {
                node: Some(node),
                task_group: &tg.name,
            });
            self.placements.push(SystemPlacement {
                name,
                task_group: tg,
                node_id: &node.id,
                previous,
                allocated,
                canary: canary && self.deployment.is_some(),
            });
        }
    }

    /// What an exhausted node's metrics carry: the ready nodes per
    /// datacenter (each of the job's datacenters listed, at 0 without any,
    /// before wildcards in 1.5.0) and, from 1.6.0, the ready nodes of the
    /// pool.
    fn targets(&self, input: &SystemInput<'a, '_>, job: &Job, ready: &ReadyNodes<'a>) -> Targets {
        let mut nodes_available: BTreeMap<String, u64> = BTreeMap::new();
        if !self.datacenter_globs {
            for dc in &job.datacenters {
                nodes_available.insert(dc.to_string(), 0);
            }
        }
        for node in ready.ready.values() {
            *nodes_available
                .entry(node.datacenter.to_string())
                .or_default() += 1;
        }
        let in_pool = u64::try_from(ready.ready.len()).unwrap_or(u64::MAX);
        Targets {
            nodes_available,
            nodes_in_pool: if input.rules.has(Switch::NodePool) {
                in_pool
            } else {
                0
            },
        }
    }

    /// Groups that already run somewhere this plan keeps (ignored or
    /// updated in place): from #25850 a group filtered everywhere else is
    /// then not a failure.
    fn existing_groups(&self, input: &SystemInput<'a, '_>) -> HashSet<&'a str> {
        if !input.rules.has(Switch::SystemFilteredWithExisting) {
            return HashSet::new();
        }
        let ignored = self
            .diff
            .of(Category::Ignore)
            .filter_map(|e| e.task_group.map(|tg| tg.name.as_str()));
        let in_place = self
            .in_place
            .iter()
            .chain(&self.in_place_terminal)
            .map(|a| a.task_group.as_str());
        ignored.chain(in_place).collect()
    }
}
