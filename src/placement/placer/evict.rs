//! Preemption in the generic stack. When no node takes a placement and the
//! scheduler configuration allows preemption for the job's type, Nomad runs
//! the stack again with the bin packer's eviction on
//! (`selectNextOption`, scheduler/generic_sched.go:800-819 at 1.3.0,
//! :911-935 at 2.0.5): a node that does not fit offers the allocations the
//! preemptor ([`crate::fit::preemption`]) picks there, and such a node gets
//! one more score, "preemption" (`PreemptionScoringIterator`). The chosen
//! node's victims go into the plan (`handlePreemptions`) and count as gone
//! for the evaluation's later placements.
//!
//! That pass judges every node in node order: a node's score then depends
//! on what it would evict, which neither the cluster's boards nor a
//! group's kept ranking hold, so neither is read or built.

use std::sync::Arc;

use super::group::Group;
use super::setup::{Choice, Select};
use super::state::Placer;
use super::victims::{Evicted, Preemption};
use crate::fit::preemption::VictimGroup;
use crate::fit::preemption::score::{PREEMPTION, net_priority, preemption_score};
use crate::fit::{Candidate, Packed, Shortfall, place_evicting};
use crate::model::resources::AllocUsage;
use crate::model::{ClientStatus, DesiredStatus};

use super::super::failure::Failure;
use super::super::spread::Round;
use super::super::verdict::ScoreParts;

impl<'a> Placer<'a> {
    /// Lets placements that find no node preempt, as the scheduler
    /// configuration allows for the job's type.
    pub fn with_preemption(mut self, enabled: bool) -> Placer<'a> {
        self.eviction.enabled = enabled;
        self
    }

    /// The allocations evicted so far, in the order the plan took them.
    pub fn preemptions(&self) -> &[Preemption<'a>] {
        &self.eviction.done
    }

    /// The second `Select` with eviction on, the preferred node alone
    /// first as in the first; `None` when preemption is off.
    pub(super) fn evicting_pass(
        &mut self,
        g: &mut Group<'a>,
        select: &Select<'_>,
        penalty: &[usize],
        round: Option<&Round>,
    ) -> Option<Result<Choice, Box<Failure>>> {
        if !self.eviction.enabled {
            return None;
        }
        self.eviction.on = true;
        // Nomad's metrics start afresh with the second Select, and so do
        // the verdicts `--explain` shows.
        if let Some(r) = self.recorder.as_deref_mut() {
            r.restart();
        }
        let preferred = select
            .preferred
            .and_then(|p| self.scan(g, select, penalty, round, Some(p)).ok());
        let result = match preferred {
            Some(choice) => Ok(choice),
            None => self.scan(g, select, penalty, round, None),
        };
        self.eviction.on = false;
        self.eviction.last = None;
        if result.is_err() {
            self.eviction.chosen = None;
        }
        Some(result)
    }

    /// Resource fit of node `i` with eviction on: what the node then uses
    /// in all (its victims still counted where the preemptor freed CPU,
    /// memory or disk, as `AllocsFit` summed them before it ran). The
    /// victims are kept for [`Placer::preemption_scored`].
    pub(super) fn fit_evicting(&mut self, g: &Group<'a>, i: usize) -> Result<Packed, Shortfall> {
        self.eviction.last = None;
        let cluster = self.cluster;
        let usages = self.proposed_usages(i);
        let candidates: Vec<Candidate<'_>> = cluster.running[i]
            .iter()
            .filter(|a| !self.stopped.contains(&a.id))
            .map(|a| Candidate {
                usage: self
                    .updated
                    .get(&a.id)
                    .map_or_else(|| a.usage_view(), AllocUsage::view),
                namespace: &a.namespace,
                job_id: &a.job_id,
                task_group: &a.task_group,
                priority: a.job.as_ref().map(|j| j.priority),
                max_parallel: a
                    .own_task_group()
                    .and_then(|tg| tg.migrate.as_ref())
                    .map_or(0, |m| m.max_parallel),
            })
            .collect();
        let groups: Vec<VictimGroup<'_>> = self
            .eviction
            .done
            .iter()
            .map(|p| {
                let a = p.alloc;
                (
                    a.namespace.as_str(),
                    a.job_id.as_str(),
                    a.task_group.as_str(),
                )
            })
            .collect();
        let eviction = crate::fit::Eviction {
            priority: self.job.priority,
            namespace: &self.job.namespace,
            job_id: &self.job.id,
            candidates: &candidates,
            preempted: &groups,
        };
        let placed = place_evicting(
            &cluster.supplies[i],
            &usages,
            &g.ask,
            &self.setup.settings,
            Some(&eviction),
        )?;
        let victims = placed
            .preempted
            .iter()
            .filter_map(|id| cluster.running[i].iter().find(|a| a.id == *id).copied())
            .collect();
        let packed = Packed {
            used: placed.used,
            devices: placed.devices,
        };
        self.eviction.last = Some(Evicted {
            victims,
            allocated: placed.allocated,
        });
        Ok(packed)
    }

    /// The scores of the node judged last with its "preemption" score
    /// appended when it fits by evicting, and its victims.
    pub(super) fn preemption_scored(
        &mut self,
        parts: ScoreParts,
    ) -> (ScoreParts, Option<Evicted<'a>>) {
        let Some(evicted) = self.eviction.last.take() else {
            return (parts, None);
        };
        if evicted.victims.is_empty() {
            return (parts, Some(evicted));
        }
        let priorities: Vec<i64> = evicted
            .victims
            .iter()
            .map(|a| a.job.as_ref().map_or(0, |j| j.priority))
            .collect();
        let mut components = parts.components;
        components.push((PREEMPTION, preemption_score(net_priority(&priorities))));
        (ScoreParts::new(components), Some(evicted))
    }

    /// Keeps the evicting pass's choice.
    pub(super) fn choose_evicted(&mut self, evicted: Option<Evicted<'a>>) {
        self.eviction.chosen = evicted;
    }

    /// What the chosen placement holds: its victims evicted and counted
    /// as gone, as `AppendPreemptedAlloc` does, when the evicting pass
    /// chose it; `None` otherwise.
    pub(super) fn take_evicted(&mut self, name: &str, task_group: &str) -> Option<Box<AllocUsage>> {
        let evicted = self.eviction.chosen.take()?;
        for alloc in evicted.victims {
            self.stop(alloc);
            self.eviction.done.push(Preemption {
                alloc,
                by: name.to_string(),
                task_group: task_group.to_string(),
            });
        }
        Some(Box::new(AllocUsage {
            client_status: ClientStatus::Pending,
            desired_status: DesiredStatus::Run,
            allocated_resources: Some(Arc::new(evicted.allocated)),
            ..AllocUsage::default()
        }))
    }
}
