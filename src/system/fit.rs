//! Resource fit and preemption of one system placement on its node: the
//! `BinPackIterator` at the end of Nomad's system stack, with eviction on
//! when the scheduler configuration allows it for the job's type
//! (`NewSystemStack`, `scheduler/stack.go` at 1.3.0).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use foldhash::fast::FixedState;

use crate::feasibility::{HostNetworks, TargetRules, host_networks};
use crate::fit::preemption::VictimGroup;
use crate::fit::{Candidate, Capacity, Eviction, GroupAsk, Settings, Shortfall, place_evicting};
use crate::model::resources::{AllocUsage, AllocatedResources};
use crate::model::{Allocation, ClientStatus, DesiredStatus, Id, Job, Node, TaskGroup, UsageView};

/// What resource fit reads beyond the job.
pub struct FitInput<'a, 'r> {
    pub settings: Settings,
    /// Preemption is on for the job's type.
    pub preempt: bool,
    /// Every job's non-terminal allocations on each node, by allocation ID.
    pub on_node: &'r HashMap<&'a str, Vec<&'a Allocation>, FixedState>,
    /// How the release resolves a group port's `host_network` template.
    pub targets: TargetRules,
}

/// The plan so far as fit reads it.
pub struct PlanFit<'p, 'a> {
    /// Allocations the plan stops or evicts.
    pub gone: &'p HashSet<&'a Id>,
    /// The job, group and node of every allocation preempted so far.
    pub preempted: &'p [&'a Allocation],
    /// This job's placements on the node, with what they hold.
    pub placed_here: Vec<Arc<AllocatedResources>>,
}

/// A placement that fits: what it holds, and the allocations it evicts.
pub struct Fitted<'a> {
    pub allocated: Arc<AllocatedResources>,
    pub preempted: Vec<&'a Allocation>,
}

impl<'a> FitInput<'a, '_> {
    /// Whether the snapshot says what the node offers: a node without a
    /// resources block comes from a dump cut down to what the reconciler
    /// reads (every Nomad client writes one), so fit is not checked there.
    pub fn sized(&self, node: &Node) -> bool {
        Capacity::described(&node.supply(), &self.settings.rules)
    }

    /// Fits one allocation of `tg` on `node` beside what the node runs:
    /// its non-terminal allocations less those the plan stops or preempts,
    /// plus the plan's placements there. Candidates for preemption are
    /// taken in allocation ID order.
    pub fn fit(
        &self,
        job: &Job,
        tg: &TaskGroup,
        node: &Node,
        plan: &PlanFit<'_, 'a>,
    ) -> Result<Fitted<'a>, Shortfall> {
        let on_node = self
            .on_node
            .get(node.id.as_str())
            .map_or(&[][..], Vec::as_slice);
        let kept: Vec<&'a Allocation> = on_node
            .iter()
            .copied()
            .filter(|a| !a.terminal_status() && !plan.gone.contains(&a.id))
            .collect();
        let mut usages: Vec<AllocUsage> = kept.iter().map(|a| a.usage()).collect();
        usages.extend(
            plan.placed_here
                .iter()
                .enumerate()
                .map(|(i, r)| AllocUsage {
                    id: Id::from(format!("plan-inspect/placement/{i}")),
                    client_status: ClientStatus::Pending,
                    desired_status: DesiredStatus::Run,
                    allocated_resources: Some(Arc::clone(r)),
                    ..AllocUsage::default()
                }),
        );
        let candidates: Vec<Candidate<'_>> = kept
            .iter()
            .zip(&usages)
            .map(|(a, u)| Candidate {
                usage: u.view(),
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
        let groups: Vec<VictimGroup<'_>> = plan
            .preempted
            .iter()
            .map(|a| {
                (
                    a.namespace.as_str(),
                    a.job_id.as_str(),
                    a.task_group.as_str(),
                )
            })
            .collect();
        let eviction = Eviction {
            priority: job.priority,
            namespace: &job.namespace,
            job_id: &job.id,
            candidates: &candidates,
            preempted: &groups,
        };
        let proposed: Vec<UsageView<'_>> = usages.iter().map(AllocUsage::view).collect();
        let ask = GroupAsk::of(tg);
        let resolved = match ask.network {
            Some(n) => host_networks(n, node, self.targets),
            None => HostNetworks::Plain,
        };
        let ask = match &resolved {
            HostNetworks::Plain => ask,
            HostNetworks::Resolved(n) => GroupAsk {
                network: Some(n),
                ..ask
            },
            // Nomad skips the node unrecorded.
            HostNetworks::Unresolved => {
                return Err(Shortfall::named("network: host network template").unrecorded());
            }
        };
        let placed = place_evicting(
            &node.supply(),
            &proposed,
            &ask,
            &self.settings,
            self.preempt.then_some(&eviction),
        )?;
        let preempted = placed
            .preempted
            .iter()
            .filter_map(|id| {
                kept.iter()
                    .zip(&usages)
                    .find(|(_, u)| u.id == *id)
                    .map(|(a, _)| *a)
            })
            .collect();
        Ok(Fitted {
            allocated: Arc::new(placed.allocated),
            preempted,
        })
    }
}
