//! One job's placements: the generic stack of `scheduler/stack.go` over
//! the nodes the job targets, as `computePlacements` drives it
//! (`scheduler/generic_sched.go`).
//!
//! Nomad shuffles the nodes and ranks only a few feasible ones (two, or
//! the log of the node count for service jobs); plan-inspect ranks every
//! feasible node in node-ID order and keeps the best final score, a tie
//! going to the lower node ID, so its node is one Nomad could pick.
//!
//! The ranking is kept, not redone: a group's first placement judges every
//! node and keeps those that fit in score order
//! ([`RankIndex`](super::ranked::RankIndex)); later
//! placements judge again only the nodes the plan changed since (its
//! placements, stops and in-place updates) and the nodes of the
//! reschedule penalty, which is the same choice as judging every node.
//! A group whose checks are not shared per computed class (an escaped
//! constraint) or whose verdicts move with placements on other nodes
//! (`distinct_property`), or that asks for volumes (checked per node and
//! per allocation name, outside any class verdict), is judged on every
//! node each time; so is a placement with a preferred node. A placement
//! that finds no node reports Nomad's metrics of a scan of every
//! candidate: a ranked group reads the untouched nodes' verdicts from its
//! board's misses ([`Misses`](super::misses::Misses)), others scan.

mod boarded;
mod choose;
mod evict;
mod group;
mod job_version;
mod judge;
mod misfit;
mod missed;
mod setup;
mod state;
mod target;
#[cfg(test)]
mod tests;
mod victims;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::cluster::{Cluster, NOT_READY};
use super::failure::Failure;
use super::metric::AllocMetric;
use super::spread::Spreads;
use super::verdict::{PlacementRecord, Recorder};
use crate::feasibility::{Placed, SystemStack};
use crate::fit::in_place_resources;
use crate::model::{Allocation, Job, TaskGroup};
use group::Group;
use judge::Verdict;
pub use misfit::Misfit;
pub use setup::{Choice, Select, Setup};
use state::NodeMap;
pub use state::Placer;
use target::Target;
use victims::Eviction;
pub use victims::Preemption;

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
        let target = Target::of(cluster, job, &setup);
        let mut own: NodeMap<Vec<(&str, u32)>> = NodeMap::default();
        for (i, alloc) in cluster.by_job.get(job.id.as_str()).into_iter().flatten() {
            let group = alloc.task_group.as_str();
            let counts = own.entry(*i as usize).or_default();
            match counts.iter_mut().find(|(g, _)| *g == group) {
                Some((_, n)) => *n += 1,
                None => counts.push((group, 1)),
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
            spreads: Spreads::new(job, existing.clone(), setup.spread, setup.targets),
            checks: SystemStack::new(job, existing)
                .with_volumes(cluster.volumes(setup.volumes))
                .with_targets(setup.targets)
                .with_memo(&cluster.memo),
            stopped: HashSet::default(),
            stopping: Vec::new(),
            added: NodeMap::default(),
            proposed: Vec::new(),
            failures: BTreeMap::new(),
            checked: HashMap::default(),
            updated: HashMap::default(),
            unchecked: 0,
            own,
            changed: NodeMap::default(),
            log: Vec::new(),
            shared_use: cluster.rules() == setup.settings.rules,
            groups: HashMap::default(),
            recorder: None,
            eviction: Eviction::default(),
            setup,
            target,
        };
        for alloc in stops {
            placer.stop(alloc);
        }
        placer
    }

    /// Counts `alloc` as gone from its node.
    pub fn stop(&mut self, alloc: &'a Allocation) {
        if self.stopped.insert(&alloc.id) {
            if alloc.job_id.as_str() == self.job.id {
                let node = self.cluster.position(&alloc.node_id);
                self.stopping.push(Placed {
                    node: node.map(|i| self.cluster.nodes[i]),
                    task_group: &alloc.task_group,
                });
            }
            self.touch(alloc);
        }
    }

    /// Withdraws a stop made by [`Placer::stop`] (`Plan.PopUpdate`).
    pub fn unstop(&mut self, alloc: &'a Allocation) {
        if self.stopped.remove(&alloc.id) {
            if alloc.job_id.as_str() == self.job.id {
                self.stopping.pop();
            }
            self.touch(alloc);
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
    /// A preferred node is judged alone first (`GenericStack.Select`), and
    /// only if it cannot take the allocation are all nodes judged, the
    /// metrics starting afresh (a recording then holds both).
    pub fn place(&mut self, tg: &'a TaskGroup, select: &Select<'_>) -> Option<Choice> {
        if let Some(f) = self.failures.get_mut(&tg.name) {
            f.count += 1;
            if let Some(r) = self.recorder.as_deref_mut() {
                r.coalesced();
            }
            return None;
        }
        if let Some(r) = self.recorder.as_deref_mut() {
            r.pool_config(self.setup.pool_config.clone());
        }
        let mut g = self.group(tg);
        if self.target.pool > 0 || select.preferred.is_some() {
            self.checks.enter(tg);
        }
        let penalty: Vec<usize> = select
            .penalty
            .iter()
            .filter_map(|id| self.cluster.position(id))
            .filter(|&i| self.is_candidate(i))
            .collect();
        // Spread scores move with every placement, on every node, and are
        // scored in node order (the lowest boost so far): such a group is
        // judged on every node each time.
        let round = self.spreads.round(tg, &self.stopping, &self.proposed);
        if round.is_some() {
            g.indexable = false;
            g.index = None;
        }
        let preferred = select.preferred.and_then(|p| {
            self.scan(&mut g, select, &penalty, round.as_ref(), Some(p))
                .ok()
        });
        if preferred.is_none() && select.preferred.is_none() {
            self.board_index(&mut g, select.name);
        }
        let ranks = preferred.is_none()
            && select.preferred.is_none()
            && g.index.is_some()
            && self.recorder.is_none();
        let ranked = match ranks {
            true => self.ranked_best(&mut g, &penalty),
            false => None,
        };
        let counted = match (&preferred, &ranked) {
            (None, None) if ranks => self.board_failure(&mut g, select).map(Err),
            _ => None,
        };
        let best = match preferred.or(ranked) {
            Some(choice) => Some(choice),
            None => match counted
                .unwrap_or_else(|| self.scan(&mut g, select, &penalty, round.as_ref(), None))
            {
                Ok(choice) => Some(choice),
                Err(failure) => {
                    let evicting = self.evicting_pass(&mut g, select, &penalty, round.as_ref());
                    match evicting.unwrap_or(Err(failure)) {
                        Ok(choice) => Some(choice),
                        Err(failure) => {
                            self.failures.insert(tg.name.clone(), *failure);
                            None
                        }
                    }
                }
            },
        };
        if let Some(choice) = &best {
            let i = choice.node;
            if !self.cluster.known[i] {
                self.unchecked += 1;
            }
            let usage = match self.take_evicted(select.name, &tg.name) {
                Some(usage) => usage,
                None => self.allocate(&g, i),
            };
            self.add(i, &tg.name, *usage);
            self.proposed.push(Placed {
                node: Some(self.cluster.nodes[i]),
                task_group: &tg.name,
            });
        }
        g.sorted = None;
        self.groups.insert(self.group_key(tg), g);
        best
    }

    /// The in-place half of `genericAllocUpdateFn`: whether `tg`, as
    /// updated, still passes the stack on `existing`'s node with `existing`
    /// itself counted as stopped (scheduler/util.go at 1.3.0). A fit is
    /// remembered for [`Placer::commit_in_place`] with what the update
    /// keeps of `existing` ([`in_place_resources`]; an allocation without
    /// `AllocatedResources`, from before 0.9, keeps the new offer).
    pub fn check_in_place(
        &mut self,
        existing: &'a Allocation,
        tg: &'a TaskGroup,
    ) -> Result<(), Misfit> {
        let Some(i) = self.cluster.position(&existing.node_id) else {
            return Err(Misfit::NodeGone);
        };
        let mut g = self.group(tg);
        // The stop is withdrawn at once, so the node's use from before it
        // stands again; a stop the plan already made is withdrawn too.
        let before = (!self.stopped.contains(&existing.id))
            .then(|| (self.changed.remove(&i), self.log.len()));
        self.stop(existing);
        let verdict = self.judge(&mut g, &existing.name(), i);
        let usage = matches!(verdict, Verdict::Fits { .. }).then(|| {
            let mut usage = self.allocate(&g, i);
            if let (Some(offer), Some(old)) =
                (&usage.allocated_resources, &existing.allocated_resources)
            {
                let kept = in_place_resources(offer, old, &self.setup.settings.rules);
                usage.allocated_resources = Some(Arc::new(kept));
            }
            usage
        });
        let round = self.spreads.round(tg, &self.stopping, &self.proposed);
        self.unstop(existing);
        if let Some((use_before, logged)) = before {
            self.changed.remove(&i);
            if let Some(u) = use_before {
                self.changed.insert(i, u);
            }
            self.log.truncate(logged);
        }
        self.groups.insert(self.group_key(tg), g);
        if let (Verdict::Fits { .. }, Some(r)) = (&verdict, &round) {
            self.spreads.score(r, self.cluster.nodes[i]);
        }
        match (verdict, usage) {
            (Verdict::Filtered(why) | Verdict::Ends(why), _) => {
                Err(Misfit::Filtered(why.into_owned()))
            }
            (Verdict::Exhausted(short), _) => Err(Misfit::Exhausted(short)),
            (Verdict::Fits { .. }, usage) => {
                if !self.cluster.known[i] {
                    self.unchecked += 1;
                }
                self.checked
                    .insert(&existing.id, *usage.unwrap_or_default());
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
            self.touch(alloc);
        }
    }

    /// The group's state for this evaluation and job version, taken out
    /// while it is used.
    fn group(&mut self, tg: &'a TaskGroup) -> Group<'a> {
        match self.groups.remove(&self.group_key(tg)) {
            Some(g) if std::ptr::eq(g.tg, tg) => g,
            _ => Group::new(
                tg,
                self.job,
                &self.checks,
                &self.setup,
                self.cluster.classes,
            ),
        }
    }

    /// Where the group's state is kept: versions of a job may share a
    /// group (the reader shares equal texts), not its state.
    fn group_key(&self, tg: &TaskGroup) -> (String, usize) {
        (tg.name.clone(), std::ptr::from_ref(self.job) as usize)
    }

    /// The metrics of a placement before any node is looked at: the
    /// targeted nodes per datacenter and in the pool.
    fn fresh_metric(&self) -> AllocMetric {
        AllocMetric {
            nodes_available: self.target.by_dc.clone(),
            nodes_in_pool: if self.setup.pools {
                self.target.pool
            } else {
                0
            },
            ..AllocMetric::default()
        }
    }

    /// Whether node `i` is ready and in the job's datacenters and pool.
    fn is_candidate(&self, i: usize) -> bool {
        let g = self.cluster.ready_group[i];
        g != NOT_READY && self.target.in_target[g as usize]
    }

    /// Whether node `i` is a candidate of a class eligible for the group.
    fn is_open(&self, g: &Group<'a>, i: usize) -> bool {
        self.is_candidate(i) && g.classes[self.cluster.class[i] as usize] == group::ELIGIBLE
    }

    /// Marks the node of `alloc` changed.
    fn touch(&mut self, alloc: &Allocation) {
        if let Some(i) = self.cluster.position(&alloc.node_id) {
            self.changed.insert(i, None);
            self.log.push(i);
        }
    }
}
