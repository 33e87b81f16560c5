//! `SystemScheduler.process` and `computeJobAllocs` for one job: the diff,
//! the stops, in-place against destructive updates, the evictions under the
//! rolling limit, the annotation and the placements.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;

use super::deployment_state::{GroupCounts, StatusUpdate, WorkingDeployment, replays_deployments};
use super::diff::{Category, DiffEntry, DiffInput, SystemDiff, Terminal, split_terminal};
use super::failures::Failures;
use super::fit::FitInput;
use super::in_place_fit::InPlaceFit;
use super::node_deployment::{NodeDeployments, NodeReconcilerInput};
use super::ready_nodes::{ReadyNodes, Targeting};
use crate::feasibility::{
    Filter, InvalidConstraint, Placed, PlanSoFar, SystemStack, TargetRules, Volumes,
};
use crate::fit::Shortfall;
use crate::model::NodesById;
use crate::model::resources::AllocatedResources;
use crate::model::{Allocation, ClientStatus, Deployment, Id, Job, Node, TaskGroup, node_status};
use crate::reconciler::{DesiredChanges, Rules, TaintedNodes, desc};
use crate::time::Time;
use crate::version::Switch;

/// A stop the plan carries.
#[derive(Clone, Debug)]
pub struct SystemStop<'a> {
    pub alloc: &'a Allocation,
    pub description: &'static str,
    /// `lost` for allocations on lost nodes.
    pub client_status: Option<ClientStatus>,
}

/// A new allocation on a node.
#[derive(Clone, Debug)]
pub struct SystemPlacement<'a> {
    pub name: String,
    pub task_group: &'a TaskGroup,
    pub node_id: &'a str,
    /// The allocation replaced: a destructive update's, or the terminal one
    /// of the same name on the node.
    pub previous: Option<&'a Allocation>,
    /// What it holds on the node, when resource fit was checked.
    pub allocated: Option<Arc<AllocatedResources>>,
    /// A canary of the job's deployment (from 1.11.0).
    pub canary: bool,
}

/// An allocation of another job evicted for a placement (Nomad's
/// `NodePreemptions`).
#[derive(Clone, Debug)]
pub struct SystemPreemption<'a> {
    pub alloc: &'a Allocation,
    /// The name of the placement it makes room for.
    pub by: String,
    pub task_group: &'a str,
}

/// The blocked evaluation the first exhausted placement of a task group
/// leaves on its node (`addBlocked`, scheduler/scheduler_system.go:407 and
/// :485-501 at 1.3.0, :562 and :650-667 at 2.0.5): one per such group, so
/// one evaluation may leave several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    pub task_group: String,
    pub node_id: String,
    /// Per computed class seen so far, whether the job may run there; empty
    /// when a constraint escapes the class (as `createBlockedEval` too).
    pub class_eligibility: BTreeMap<String, bool>,
    pub escaped: bool,
}

/// A placement the feasibility checks turned down.
#[derive(Clone, Debug)]
pub struct FilteredPlacement<'a> {
    pub name: String,
    pub task_group: &'a str,
    pub node_id: &'a str,
    pub filter: Filter,
}

/// An update that needs a new allocation, and why.
#[derive(Clone, Debug)]
pub struct SystemDestructive<'a> {
    pub alloc: &'a Allocation,
    pub name: String,
    pub task_group: &'a str,
    pub reason: String,
    /// Nomad's name of the difference (from 1.5.2), for a `tasksUpdated` one.
    pub label: Option<&'static str>,
    /// Evicted now; `false` when the rolling limit leaves it for later.
    pub evicted: bool,
}

/// A placement to make: its name, group, node, the allocation it replaces
/// and whether it is a canary.
pub(super) type Tuple<'a> = (String, &'a TaskGroup, &'a str, Option<&'a Allocation>, bool);

/// Everything the system scheduler decides for one job.
#[derive(Clone, Debug, Default)]
pub struct SystemSchedule<'a> {
    pub diff: SystemDiff<'a>,
    /// Nodes were targeted by wildcard datacenters (from 1.5.0).
    pub datacenter_globs: bool,
    /// Only the job's node pool was read (from 1.6.0).
    pub node_pools: bool,
    /// Terminal allocations the diff never looks at.
    pub unexamined: Vec<&'a Allocation>,
    pub stops: Vec<SystemStop<'a>>,
    pub placements: Vec<SystemPlacement<'a>>,
    pub filtered: Vec<FilteredPlacement<'a>>,
    /// Place tuples for nodes that are no longer ready: Nomad skips them.
    pub skipped: Vec<(String, &'a str)>,
    /// Allocations on disconnected nodes the plan marks unknown
    /// (`AppendUnknownAlloc`, from 1.3.0).
    pub unknown: Vec<&'a Allocation>,
    /// In-place updates the plan carries (terminal ones it leaves out).
    pub in_place: Vec<&'a Allocation>,
    pub in_place_terminal: Vec<&'a Allocation>,
    /// How each in-place update (of `in_place`) fits its node.
    pub in_place_fit: BTreeMap<&'a Id, InPlaceFit>,
    pub destructive: Vec<SystemDestructive<'a>>,
    /// The plan annotation, by task group.
    pub desired: BTreeMap<String, DesiredChanges>,
    /// The rolling limit held back some destructive updates.
    pub limit_reached: bool,
    pub invalid_constraints: Vec<InvalidConstraint>,
    /// How the job's targeting sees each node, when the input asks to
    /// record it ([`SystemInput::record`]).
    pub targeting: BTreeMap<&'a str, Targeting>,
    /// Allocations evicted for the placements, in placement order.
    pub preemptions: Vec<SystemPreemption<'a>>,
    /// The failed placements and what stays queued.
    pub failures: Failures,
    /// In the order the failures happened.
    pub blocked: Vec<Blocked>,
    /// Nodes the snapshot gives no resources for, where placements were
    /// not checked for fit.
    pub unsized_nodes: BTreeSet<&'a str>,
    /// Placements that passed the feasibility checks but found no room.
    pub exhausted: Vec<ExhaustedPlacement<'a>>,
    /// Per group, the node reconciler's counts (from 1.11.0, system jobs).
    pub counts: BTreeMap<String, GroupCounts>,
    /// The deployment the plan carries (from 1.11.0, system jobs).
    pub deployment: Option<WorkingDeployment>,
    pub deployment_updates: Vec<StatusUpdate>,
    /// The deployment in-place updates move into.
    pub in_place_deployment: Option<String>,
}

/// A feasible node without room for a placement.
#[derive(Clone, Debug)]
pub struct ExhaustedPlacement<'a> {
    pub name: String,
    pub task_group: &'a str,
    pub node_id: &'a str,
    pub shortfall: Shortfall,
}

/// What one job's system scheduling reads.
pub struct SystemInput<'a, 'r> {
    pub job: Option<&'a Job>,
    pub allocs: &'r [&'a Allocation],
    /// Every node of the snapshot.
    pub nodes: &'r NodesById<'a>,
    pub tainted: &'r TaintedNodes<'a>,
    pub rules: &'r Rules,
    pub now: Time,
    /// Keep how the job's targeting sees each node, for explanations.
    pub record: bool,
    /// Resource fit and preemption; `None` checks only feasibility.
    pub fit: Option<FitInput<'a, 'r>>,
    /// The release's volume checks and the CSI volumes they read.
    pub volumes: Volumes<'a>,
    /// The job's latest deployment (read from 1.11.0 for system jobs).
    pub deployment: Option<&'a Deployment>,
    /// The ID of a deployment this evaluation creates.
    pub new_deployment_id: &'r str,
}

pub(super) fn placed<'a>(nodes: &NodesById<'a>, a: &'a Allocation) -> Placed<'a> {
    Placed {
        node: nodes.get(a.node_id.as_str()).copied(),
        task_group: &a.task_group,
    }
}

impl<'a> SystemSchedule<'a> {
    pub fn compute(input: &SystemInput<'a, '_>) -> SystemSchedule<'a> {
        let mut all: Vec<&'a Node> = input.nodes.values().copied().collect();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        let globs = input.rules.has(Switch::SystemDatacenterGlob);
        let pools = input.rules.has(Switch::NodePool);
        let ready = ReadyNodes::new(input.job, &all, globs, pools);
        let (live, terminal): (Vec<&'a Allocation>, Terminal<'a>) = split_terminal(input.allocs);
        let node_fn = |id: &str| input.nodes.get(id).copied();
        let mut diff = SystemDiff::new(&DiffInput {
            job: input.job,
            ready: &ready,
            tainted: input.tainted,
            nodes: &node_fn,
            live: &live,
            terminal: &terminal,
            rules: input.rules,
            now: input.now,
        });
        let targeting = match input.record {
            true => all
                .iter()
                .map(|n| (n.id.as_str(), Targeting::of(input.job, n, globs, pools)))
                .collect(),
            false => BTreeMap::new(),
        };
        let (deployment, deployment_updates) = match input.job {
            Some(job) if input.rules.has(Switch::SystemDeployments) => {
                let nr = NodeReconcilerInput {
                    rules: input.rules,
                    deployment: input.deployment,
                    new_deployment_id: input.new_deployment_id,
                };
                NodeDeployments::of(&nr, job, &ready, &live, &terminal, &mut diff)
            }
            _ => (None, Vec::new()),
        };
        let mut out = SystemSchedule {
            diff,
            datacenter_globs: globs,
            node_pools: pools,
            targeting,
            in_place_deployment: deployment.as_ref().map(|d| d.deployment.id.to_string()),
            deployment,
            deployment_updates,
            ..SystemSchedule::default()
        };
        let examined: HashSet<&Id> = out
            .diff
            .entries
            .iter()
            .filter(|e| e.category != Category::Place)
            .filter_map(|e| e.alloc.map(|a| &a.id))
            .collect();
        out.unexamined = input
            .allocs
            .iter()
            .copied()
            .filter(|a| a.terminal_status() && !examined.contains(&a.id))
            .collect();
        let mut plan = PlanSoFar::default();
        out.lost_marks(input, &mut plan);
        let stack_job = input.job.filter(|j| !j.stop);
        let existing: Vec<Placed<'a>> = live.iter().map(|a| placed(input.nodes, a)).collect();
        let mut stack = stack_job.map(|j| {
            SystemStack::new(j, existing)
                .with_volumes(input.volumes)
                .with_targets(TargetRules::of(input.rules.release()))
        });
        for (cat, description, lost) in [
            (Category::Stop, desc::NOT_NEEDED, false),
            (Category::Migrate, NODE_TAINTED, false),
            (Category::Lost, desc::LOST, true),
        ] {
            let allocs: Vec<&'a Allocation> = out.diff.of(cat).filter_map(|e| e.alloc).collect();
            for alloc in allocs {
                plan.stopping.push(placed(input.nodes, alloc));
                out.stops.push(SystemStop {
                    alloc,
                    description,
                    client_status: lost.then_some(ClientStatus::Lost),
                });
            }
        }
        out.unknown = out
            .diff
            .of(Category::Disconnecting)
            .filter_map(|e| e.alloc)
            .collect();
        let mut updates: Vec<DiffEntry<'a>> = out.diff.of(Category::Update).cloned().collect();
        if input.rules.system_updates_reconnects() {
            updates.extend(out.diff.of(Category::Reconnecting).cloned());
        }
        let destructive = out.split_updates(input, stack_job, stack.as_mut(), &mut plan, updates);
        out.annotate(&destructive);
        let system_deployments = input
            .job
            .is_some_and(|j| replays_deployments(input.rules, j));
        if system_deployments {
            out.count_candidates(&destructive);
        }
        let pending_limit = system_deployments && input.rules.has(Switch::SystemPendingLimit);
        let mut limits = input
            .rules
            .has(Switch::SystemDeployments)
            .then(|| out.group_limits(stack_job, destructive.len(), pending_limit));
        let limit = match stack_job
            .and_then(|j| j.update.as_ref())
            .filter(|u| u.rolling())
        {
            Some(u) => u.max_parallel.max(0) as usize,
            None => destructive.len(),
        };
        out.limit_reached = limits.is_none() && destructive.len() > limit;
        let mut place: Vec<Tuple<'a>> = out
            .diff
            .of(Category::Place)
            .filter_map(|e| Some((e.name.clone(), e.task_group?, e.node_id, e.alloc, false)))
            .collect();
        for (i, (entry, difference)) in destructive.into_iter().enumerate() {
            let (Some(alloc), Some(tg)) = (entry.alloc, entry.task_group) else {
                continue;
            };
            let evicted = match limits.as_mut() {
                None => i < limit,
                Some(limits) => {
                    let slot = limits.entry(alloc.task_group.to_string()).or_default();
                    let evicted = *slot > 0;
                    if evicted && !entry.canary {
                        *slot -= 1;
                    }
                    evicted
                }
            };
            if evicted {
                plan.stopping.push(placed(input.nodes, alloc));
                out.stops.push(SystemStop {
                    alloc,
                    description: desc::UPDATING,
                    client_status: None,
                });
                place.push((
                    entry.name.clone(),
                    tg,
                    &alloc.node_id,
                    Some(alloc),
                    entry.canary,
                ));
            }
            out.destructive.push(SystemDestructive {
                alloc,
                name: entry.name,
                task_group: &tg.name,
                reason: difference.reason,
                label: difference.label,
                evicted,
            });
        }
        if let (Some(stack), Some(job)) = (stack.as_mut(), stack_job) {
            out.place(input, job, &ready, stack, &mut plan, place);
        }
        if let Some(stack) = &stack {
            out.invalid_constraints = stack.invalid_constraints().iter().cloned().collect();
        }
        if let Some(job) = input.job.filter(|_| system_deployments) {
            out.finish_deployment(job);
        }
        out
    }

    /// `updateNonTerminalAllocsToLost`: allocations already told to stop but
    /// still running on a down or missing node are marked lost. The mark is
    /// a stop of the plan, so it frees its node's distinct property value
    /// although the terminal allocation never counted as using it.
    fn lost_marks(&mut self, input: &SystemInput<'a, '_>, plan: &mut PlanSoFar<'a>) {
        for alloc in input.allocs {
            let down = match input.tainted.get(alloc.node_id.as_str()) {
                Some(None) => true,
                Some(Some(n)) => n.status == node_status::DOWN,
                None => false,
            };
            if down
                && alloc.server_terminal_status()
                && matches!(
                    alloc.client_status,
                    ClientStatus::Running | ClientStatus::Pending
                )
            {
                plan.stopping.push(placed(input.nodes, alloc));
                self.stops.push(SystemStop {
                    alloc,
                    description: desc::LOST,
                    client_status: Some(ClientStatus::Lost),
                });
            }
        }
    }
}

/// The stop description of a migration in the system scheduler.
pub const NODE_TAINTED: &str = "alloc not needed as node is tainted";
