//! One job's placements: the generic stack of `scheduler/stack.go` over
//! the nodes the job targets, as `computePlacements` drives it
//! (`scheduler/generic_sched.go`).
//!
//! Nomad shuffles the nodes and ranks only a few feasible ones (two, or
//! the log of the node count for service jobs); plan-inspect ranks every
//! feasible node in node-ID order and keeps the best final score, a tie
//! going to the lower node ID, so its node is one Nomad could pick.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::ask::ask_of;
use super::cluster::Cluster;
use super::failure::Failure;
use super::metric::AllocMetric;
use super::ranking::{Ranking, affinities_of};
use super::spread::{SpreadRules, Spreads};
use super::targets::untargeted;
use super::verdict::{NodeVerdict, PlacementRecord, Recorder};
use crate::feasibility::{
    DISTINCT_HOSTS, Eligibility, Filter, Placed, PlanSoFar, SystemStack, VolumeRules, device_serves,
};
use crate::fit::{Comparable, GroupAsk, Settings, Shortfall, place};
use crate::model::resources::AllocUsage;
use crate::model::{Allocation, Constraint, Id, Job, TaskGroup};

/// What decides which nodes a job sees and how fit is counted.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub settings: Settings,
    /// Datacenters match as wildcards (1.5.0).
    pub globs: bool,
    /// Only the job's node pool is read (1.6.0).
    pub pools: bool,
    /// `SchedulerConfig.SchedulerAlgorithm` is `spread`.
    pub spread_algorithm: bool,
    pub spread: SpreadRules,
    /// How the release checks volumes.
    pub volumes: VolumeRules,
}

/// How one allocation is placed (`SelectOptions`): its name (which
/// `per_alloc` volumes read), the nodes it avoids, and the node it
/// prefers (a sticky ephemeral disk's previous node), tried alone first.
#[derive(Clone, Copy, Debug, Default)]
pub struct Select<'s> {
    pub name: &'s str,
    pub penalty: &'s [&'s str],
    pub preferred: Option<usize>,
}

/// A node chosen for one allocation.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub node: usize,
    pub score: f64,
}

/// An allocation this plan puts on a node.
struct Added<'a> {
    task_group: &'a str,
    usage: AllocUsage,
}

/// The placement stage of one evaluation.
pub struct Placer<'a> {
    cluster: &'a Cluster<'a>,
    job: &'a Job,
    setup: Setup,
    /// Ready nodes in the job's datacenters and pool, by index.
    candidates: Vec<usize>,
    by_dc: BTreeMap<String, u64>,
    checks: SystemStack<'a>,
    spreads: Spreads<'a>,
    stopped: HashSet<&'a Id>,
    stopping: Vec<Placed<'a>>,
    added: HashMap<usize, Vec<Added<'a>>>,
    proposed: Vec<Placed<'a>>,
    failures: BTreeMap<String, Failure>,
    /// In-place updates that fit, with what they will hold; those the plan
    /// keeps are committed into `updated`, which placements then read.
    checked: HashMap<&'a Id, AllocUsage>,
    updated: HashMap<&'a Id, AllocUsage>,
    /// Placements and in-place updates taken on nodes without resources.
    unchecked: u64,
    /// Armed by `--explain` for the placement it names.
    recorder: Option<Box<Recorder<'a>>>,
}

/// Why an in-place update no longer fits its node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// The node is gone from the snapshot, or no longer ready.
    NodeGone,
    /// A feasibility check filters the node, in Nomad's words.
    Filtered(String),
    /// The node has no room.
    Exhausted(Shortfall),
}

impl<'a> Placer<'a> {
    /// The stack for `job`, whose non-terminal allocations `job_allocs`
    /// count for its distinct properties, with the plan's `stops` freed.
    pub fn new(
        cluster: &'a Cluster<'a>,
        job: &'a Job,
        job_allocs: &[&'a Allocation],
        stops: impl IntoIterator<Item = &'a Allocation>,
        setup: Setup,
    ) -> Placer<'a> {
        let mut by_dc = BTreeMap::new();
        if !setup.globs {
            // readyNodesInDCs counts every job datacenter, even empty ones,
            // before 1.5.0 (scheduler/util.go:353-356 at 1.3.0).
            for dc in &job.datacenters {
                by_dc.insert(dc.clone(), 0);
            }
        }
        let mut candidates = Vec::new();
        for (i, node) in cluster.nodes.iter().enumerate() {
            if untargeted(job, node, setup.pools, setup.globs).is_none() {
                candidates.push(i);
                *by_dc.entry(node.datacenter.to_string()).or_insert(0) += 1;
            }
        }
        let node_of = |a: &Allocation| cluster.position(&a.node_id).map(|i| cluster.nodes[i]);
        let existing = job_allocs
            .iter()
            .filter(|a| !a.terminal_status())
            .map(|a| Placed {
                node: node_of(a),
                task_group: &a.task_group,
            })
            .collect::<Vec<_>>();
        let mut placer = Placer {
            cluster,
            job,
            setup,
            candidates,
            by_dc,
            spreads: Spreads::new(job, existing.clone(), setup.spread),
            checks: SystemStack::new(job, existing).with_volumes(cluster.volumes(setup.volumes)),
            stopped: HashSet::new(),
            stopping: Vec::new(),
            added: HashMap::new(),
            proposed: Vec::new(),
            failures: BTreeMap::new(),
            checked: HashMap::new(),
            updated: HashMap::new(),
            unchecked: 0,
            recorder: None,
        };
        for alloc in stops {
            placer.stop(alloc);
        }
        placer
    }

    /// Counts `alloc` as gone from its node.
    pub fn stop(&mut self, alloc: &'a Allocation) {
        if self.stopped.insert(&alloc.id) && alloc.job_id.as_str() == self.job.id {
            let node = self.cluster.position(&alloc.node_id);
            self.stopping.push(Placed {
                node: node.map(|i| self.cluster.nodes[i]),
                task_group: &alloc.task_group,
            });
        }
    }

    /// Withdraws a stop made by [`Placer::stop`] (`Plan.PopUpdate`).
    pub fn unstop(&mut self, alloc: &'a Allocation) {
        if self.stopped.remove(&alloc.id) && alloc.job_id.as_str() == self.job.id {
            self.stopping.pop();
        }
    }

    /// Placements and in-place updates taken on nodes without any resource
    /// block, where fit was not checked.
    pub fn unchecked(&self) -> u64 {
        self.unchecked
    }

    /// Whether `tg` already failed in this evaluation.
    pub fn failed(&self, tg: &str) -> bool {
        self.failures.contains_key(tg)
    }

    /// The failures so far, by task group.
    pub fn failures(&self) -> &BTreeMap<String, Failure> {
        &self.failures
    }

    /// The class-cache state the blocked evaluation carries.
    pub fn eligibility(&self) -> (BTreeMap<String, bool>, bool) {
        (self.checks.class_eligibility(), self.checks.escaped())
    }

    /// Records every node's verdict for the next [`Placer::place`].
    pub fn record(&mut self, recorder: Recorder<'a>) {
        self.recorder = Some(Box::new(recorder));
    }

    /// The verdicts recorded since [`Placer::record`].
    pub fn recorded(&mut self) -> Option<PlacementRecord<'a>> {
        self.recorder.take().map(|r| r.finish())
    }

    /// Places one allocation of `tg` as `select` asks; a later failure of
    /// the same group only adds to its count, as `CoalescedFailures` does.
    /// A preferred node is ranked alone first (`GenericStack.Select`), and
    /// only if it cannot take the allocation are all nodes ranked, the
    /// metrics starting afresh (a recording then holds both rankings).
    pub fn place(&mut self, tg: &'a TaskGroup, select: &Select<'_>) -> Option<Choice> {
        if let Some(f) = self.failures.get_mut(&tg.name) {
            f.count += 1;
            if let Some(r) = self.recorder.as_deref_mut() {
                r.coalesced();
            }
            return None;
        }
        let ranked = select
            .preferred
            .and_then(|p| self.rank(tg, select, Some(p)).ok())
            .map(Ok)
            .unwrap_or_else(|| self.rank(tg, select, None));
        let (choice, usage) = match ranked {
            Ok(best) => best,
            Err(failure) => {
                self.failures.insert(tg.name.clone(), *failure);
                return None;
            }
        };
        if !self.cluster.known[choice.node] {
            self.unchecked += 1;
        }
        self.added.entry(choice.node).or_default().push(Added {
            task_group: &tg.name,
            usage: *usage,
        });
        self.proposed.push(Placed {
            node: Some(self.cluster.nodes[choice.node]),
            task_group: &tg.name,
        });
        Some(choice)
    }

    /// One `Select` over the candidates, or over `only` that node: the
    /// best node with what the allocation holds there, or the failure.
    fn rank(
        &mut self,
        tg: &'a TaskGroup,
        select: &Select<'_>,
        only: Option<usize>,
    ) -> Result<(Choice, Box<AllocUsage>), Box<Failure>> {
        let mut metric = AllocMetric {
            nodes_available: self.by_dc.clone(),
            nodes_in_pool: if self.setup.pools {
                self.candidates.len() as u64
            } else {
                0
            },
            ..AllocMetric::default()
        };
        let ask = ask_of(tg);
        let mut ranking = Ranking::new(
            tg,
            self.setup.spread_algorithm,
            affinities_of(self.job, tg),
            self.setup.settings.rules,
        );
        let round = self.spreads.round(tg, &self.stopping, &self.proposed);
        let mut best: Option<(Choice, Box<AllocUsage>)> = None;
        let mut failure = Failure::default();
        if let Some(r) = self.recorder.as_deref_mut() {
            r.penalised(select.penalty);
            r.untargeted(
                &self.cluster.nodes,
                self.job,
                self.setup.pools,
                self.setup.globs,
            );
        }
        let count = if only.is_some() {
            1
        } else {
            self.candidates.len()
        };
        for ci in 0..count {
            let i = only.unwrap_or_else(|| self.candidates[ci]);
            let node = self.cluster.nodes[i];
            metric.nodes_evaluated += 1;
            let class = node.node_class.as_str();
            let recorder = self.recorder.is_some();
            let verdict = self.judge(tg, select.name, i, &ask);
            // Before #13274 an unavailable node of an eligible class ends
            // the search.
            let ends = matches!(verdict, Verdict::Ends(_));
            let noted = match verdict {
                Verdict::Filtered(why) | Verdict::Ends(why) => {
                    metric.filter_node(class, &why);
                    let check = NodeVerdict::Filtered {
                        check: why,
                        first: None,
                    };
                    recorder.then_some((check, false))
                }
                Verdict::Exhausted(short) => {
                    metric.exhaust_node(class, &short.dimension);
                    let noted = recorder.then(|| (NodeVerdict::Exhausted(short.clone()), false));
                    failure.consider(i, short);
                    noted
                }
                Verdict::Fits {
                    usage,
                    used,
                    collisions,
                } => {
                    let penalised = select.penalty.contains(&node.id.as_str());
                    let capacity = &self.cluster.capacities[i];
                    let spread = round.as_ref().and_then(|r| self.spreads.score(r, node));
                    let parts = ranking.score(node, capacity, &used, collisions, penalised, spread);
                    let score = parts.final_score;
                    let better = best.as_ref().is_none_or(|(b, _)| score > b.score);
                    if better {
                        best = Some((Choice { node: i, score }, usage));
                    }
                    recorder.then_some((NodeVerdict::Fits(parts), better))
                }
            };
            if let (Some(r), Some((verdict, best))) = (self.recorder.as_deref_mut(), noted) {
                r.verdict(node, verdict);
                if best {
                    r.best_so_far();
                }
            }
            if ends {
                break;
            }
        }
        best.ok_or_else(|| {
            failure.count = 1;
            failure.metric = metric;
            Box::new(failure)
        })
    }

    /// The in-place half of `genericAllocUpdateFn`: whether `tg`, as
    /// updated, still passes the stack on `existing`'s node with `existing`
    /// itself counted as stopped (scheduler/util.go at 1.3.0). A fit is
    /// remembered for [`Placer::commit_in_place`].
    pub fn check_in_place(
        &mut self,
        existing: &'a Allocation,
        tg: &'a TaskGroup,
    ) -> Result<(), Misfit> {
        let Some(i) = self.cluster.position(&existing.node_id) else {
            return Err(Misfit::NodeGone);
        };
        self.stop(existing);
        let verdict = self.judge(tg, &existing.name, i, &ask_of(tg));
        let round = self.spreads.round(tg, &self.stopping, &self.proposed);
        self.unstop(existing);
        if let (Verdict::Fits { .. }, Some(r)) = (&verdict, &round) {
            self.spreads.score(r, self.cluster.nodes[i]);
        }
        match verdict {
            Verdict::Filtered(why) | Verdict::Ends(why) => Err(Misfit::Filtered(why)),
            Verdict::Exhausted(short) => Err(Misfit::Exhausted(short)),
            Verdict::Fits { usage, .. } => {
                if !self.cluster.known[i] {
                    self.unchecked += 1;
                }
                self.checked.insert(&existing.id, *usage);
                Ok(())
            }
        }
    }

    /// Counts the in-place update of `alloc` with its new resources, as
    /// the plan's `NodeAllocation` does for later placements.
    pub fn commit_in_place(&mut self, alloc: &'a Allocation) {
        if let Some(usage) = self.checked.remove(&alloc.id) {
            self.updated.insert(&alloc.id, usage);
            // The plan's NodeAllocation holds it too, so the property sets
            // count it beside its existing self (v1.3.0 propertyset.go:175).
            let node = self.cluster.position(&alloc.node_id);
            self.proposed.push(Placed {
                node: node.map(|i| self.cluster.nodes[i]),
                task_group: &alloc.task_group,
            });
        }
    }

    /// One node through the stack: the class-cached checks, then
    /// `distinct_hosts`, `distinct_property` and resource fit.
    fn judge(&mut self, tg: &'a TaskGroup, name: &str, i: usize, ask: &GroupAsk<'_>) -> Verdict {
        let node = self.cluster.nodes[i];
        let eligibility = match self.checks.class_checks(tg, name, node) {
            Ok(e) => e,
            Err(f) => {
                if let (Some(r), Filter::ClassIneligible { first, .. }) =
                    (self.recorder.as_deref_mut(), &f)
                {
                    r.class_cause(first.metric().into_owned());
                }
                return Verdict::Filtered(f.metric().into_owned());
            }
        };
        if let Err(f) = self.checks.available(tg, name, node) {
            let why = f.metric().into_owned();
            // Before #13274 the wrapper's fast path for an eligible class
            // ended the selection at an unavailable node.
            return match eligibility {
                Eligibility::Cached if !self.setup.volumes.eligible_continues => Verdict::Ends(why),
                _ => Verdict::Filtered(why),
            };
        }
        let job_id = self.job.id.as_str();
        let proposed = proposed_on(
            self.cluster,
            &self.stopped,
            &self.updated,
            &self.added,
            job_id,
            i,
        );
        let distinct = |cs: &[Constraint]| cs.iter().any(|c| c.operand == DISTINCT_HOSTS);
        let (by_job, by_group) = (distinct(&self.job.constraints), distinct(&tg.constraints));
        if (by_job || by_group)
            && proposed
                .iter()
                .any(|(j, g, _)| *j == job_id && (by_job || *g == tg.name))
        {
            return Verdict::Filtered(DISTINCT_HOSTS.to_string());
        }
        let plan = PlanSoFar {
            stopping: self.stopping.clone(),
            proposed: self.proposed.clone(),
        };
        if let Err(f) = self.checks.distinct_properties(tg, node, &plan) {
            return Verdict::Filtered(f.metric().into_owned());
        }
        let collisions = proposed
            .iter()
            .filter(|(j, g, _)| *j == job_id && *g == tg.name)
            .count();
        if !self.cluster.known[i] {
            return Verdict::Fits {
                usage: Box::default(),
                used: Comparable::default(),
                collisions,
            };
        }
        let usages: Vec<&AllocUsage> = proposed.iter().map(|(_, _, u)| *u).collect();
        let supply = &self.cluster.supplies[i];
        match place(supply, &usages, ask, &self.setup.settings, device_serves) {
            Err(short) => Verdict::Exhausted(short),
            Ok(placed) => Verdict::Fits {
                collisions,
                used: placed.used,
                usage: Box::new(AllocUsage {
                    client_status: "pending".to_string(),
                    desired_status: "run".to_string(),
                    allocated_resources: Some(Arc::new(placed.allocated)),
                    ..AllocUsage::default()
                }),
            },
        }
    }
}

impl Misfit {
    /// The destructive update's reason, naming the node.
    pub fn describe(&self, node_id: &str) -> String {
        match self {
            Misfit::NodeGone => format!("node {node_id} no longer exists"),
            Misfit::Filtered(why) => {
                format!("the updated group no longer passes node {node_id}'s checks: {why}")
            }
            Misfit::Exhausted(short) => {
                format!("the updated group no longer fits on node {node_id}: it {short}")
            }
        }
    }
}

/// What the stack made of one node.
enum Verdict {
    Filtered(String),
    /// Filtered, and no later node is looked at.
    Ends(String),
    Exhausted(Shortfall),
    /// The allocation fits, holding `usage`; the node then uses `used`
    /// in all and has `collisions` allocations of the same job and group.
    Fits {
        usage: Box<AllocUsage>,
        used: Comparable,
        collisions: usize,
    },
}

/// `ProposedAllocs`: node `i`'s running allocations less the plan's stops,
/// with its in-place updates' new resources, plus its placements, as
/// (job, group, usage).
fn proposed_on<'s>(
    cluster: &'s Cluster<'_>,
    stopped: &HashSet<&Id>,
    updated: &'s HashMap<&Id, AllocUsage>,
    added: &'s HashMap<usize, Vec<Added<'_>>>,
    job_id: &'s str,
    i: usize,
) -> Vec<(&'s str, &'s str, &'s AllocUsage)> {
    let running = cluster.running[i]
        .iter()
        .filter(|r| !stopped.contains(&r.alloc.id))
        .map(|r| {
            let usage = updated.get(&r.alloc.id).unwrap_or(&r.usage);
            (r.alloc.job_id.as_str(), r.alloc.task_group.as_str(), usage)
        });
    let added = added
        .get(&i)
        .into_iter()
        .flatten()
        .map(move |a| (job_id, a.task_group, &a.usage));
    running.chain(added).collect()
}
