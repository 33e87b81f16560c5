//! The placement stage of a service or batch job's plan: each placement
//! and destructive replacement on a node, or counted as failed, and the
//! blocked evaluation and queued allocations that follow.

use foldhash::fast::FixedState;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use super::downgrade::Downgrade;
use super::{JobContext, JobWork};
use crate::model::{Allocation, ClientStatus, Id, Job, JobType, TaskGroup};
use crate::placement::{PlacementRecord, Placer, Recorder, Score, Select};
use crate::reconciler::Reconciliation;
use crate::report::{
    BlockedEval, FailedPlacement, GroupReport, JobReport, NearestMiss, Plan, PlanPreemption,
};
use crate::version::Switch;
use crate::warning::Warning;

/// Nomad's `structs.EvalTriggerQueuedAllocs`, the trigger
/// `CreateBlockedEval` gives.
pub(super) const TRIGGER_QUEUED_ALLOCS: &str = "queued-allocs";
/// Nomad's `blockedEvalFailedPlacements` (`scheduler/generic_sched.go:60`
/// at 1.3.0).
pub(super) const BLOCKED_FAILED_PLACEMENTS: &str = "created to place remaining allocations";

/// The nodes a replacement of `prev` avoids (`getSelectOptions`): the node
/// a failed allocation ran on, and those of its earlier reschedules.
fn penalty_nodes(prev: Option<&Allocation>) -> Vec<&str> {
    let Some(prev) = prev else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if prev.client_status == ClientStatus::Failed {
        out.push(prev.node_id.as_str());
    }
    if let Some(t) = &prev.reschedule_tracker {
        out.extend(t.events.iter().flatten().map(|e| e.prev_node_id.as_str()));
    }
    out
}

impl<'a> JobContext<'a> {
    /// The placement stage of a live job's evaluation, before the
    /// reconciler runs: its in-place checks share the stack (and its class
    /// cache) with the placements.
    pub(super) fn placer(&self, w: &JobWork<'a>) -> Option<Placer<'a>> {
        let job = w.job.filter(|j| !j.stop)?;
        let none = std::iter::empty();
        let config = &self.scheduler.preemption_config;
        // `selectNextOption` reads the batch switch for batch jobs and the
        // service switch for any other job the generic scheduler runs.
        let preempt = match job.job_type {
            JobType::Batch => config.batch_scheduler_enabled,
            _ => config.service_scheduler_enabled,
        };
        Some(
            Placer::new(self.cluster, job, &w.allocs, none, self.setup_for(job))
                .with_preemption(preempt),
        )
    }

    /// `computePlacements`: destructive replacements first, each stopping
    /// its allocation before looking for a node (the stop is withdrawn if
    /// none is found), then the placements, in the reconciler's order.
    /// Each attempt at a placement named `explain` records every node's
    /// verdict, returned in order. The allocations preempted go into the
    /// plan and count in the placing group's desired changes.
    pub(super) fn place<'r>(
        &self,
        w: &JobWork<'a>,
        rec: &Reconciliation<'r>,
        plan: &mut Plan,
        groups: &mut [GroupReport],
        mut placer: Placer<'r>,
        explain: Option<&str>,
    ) -> Vec<PlacementRecord<'r>>
    where
        'a: 'r,
    {
        let mut records = Vec::new();
        let Some(job) = w.job.filter(|j| !j.stop) else {
            return records;
        };
        let r = &rec.results;
        for alloc in &r.inplace_update {
            placer.commit_in_place(alloc);
        }
        if r.place.is_empty() && r.destructive_update.is_empty() {
            plan.fit_unchecked = placer.unchecked();
            return records;
        }
        let by_id: HashMap<&Id, &'r Allocation, FixedState> =
            w.allocs.iter().map(|a| (&a.id, *a)).collect();
        for s in &plan.stop {
            if let Some(&alloc) = by_id.get(&s.alloc_id) {
                placer.stop(alloc);
            }
        }
        let group = |name: &str| job.task_groups.iter().find(|tg| tg.name == name);
        let mut queued: BTreeMap<String, u64> = BTreeMap::new();
        // The first failed placement of each group, while explaining.
        let mut first_failure: BTreeMap<&str, &str> = BTreeMap::new();
        let arm = |placer: &mut Placer<'r>, name: &str| {
            if explain == Some(name) {
                placer.record(Recorder::new());
            }
        };
        for (k, d) in r.destructive_update.iter().enumerate() {
            let Some(tg) = group(&d.task_group) else {
                continue;
            };
            *queued.entry(tg.name.clone()).or_default() += 1;
            let Some(&alloc) = by_id.get(&d.alloc.id) else {
                continue;
            };
            arm(&mut placer, &d.name);
            if placer.failed(&tg.name) {
                placer.place(tg, &Select::default());
            } else {
                placer.stop(alloc);
                let select = Select {
                    name: &d.name,
                    penalty: &penalty_nodes(Some(alloc)),
                    preferred: self.preferred_node(job, tg, Some(alloc)),
                };
                match placer.place(tg, &select) {
                    Some(c) => {
                        plan.destructive_update[k].node_id = Some(node_id(self, c.node));
                        plan.destructive_update[k].score = Some(Score(c.score));
                    }
                    None => placer.unstop(alloc),
                }
            }
            note(
                &mut placer,
                &mut records,
                &mut first_failure,
                explain,
                &tg.name,
                &d.name,
            );
        }
        let mut older: HashMap<(&str, u64), Option<Downgrade<'r>>, FixedState> = HashMap::default();
        // Once a placement of an older version names its deployment, every
        // later placement takes it too (`deploymentID` is not reset).
        let mut deployment_id: Option<Option<String>> = None;
        for (k, p) in r.place.iter().enumerate() {
            let Some(tg) = group(p.task_group) else {
                continue;
            };
            *queued.entry(tg.name.clone()).or_default() += 1;
            let prev = p.previous.and_then(|a| by_id.get(&a.id).copied());
            arm(&mut placer, &p.name);
            let downgrade = match p.downgrade_non_canary {
                true => *older
                    .entry((p.task_group, p.min_job_version))
                    .or_insert_with(|| {
                        self.history.downgrade(
                            job,
                            &w.allocs,
                            p.task_group,
                            p.min_job_version,
                            &mut plan.version_gaps,
                        )
                    }),
                false => None,
            };
            if let Some(d) = downgrade {
                deployment_id = Some(d.deployment_id.map(Id::to_string));
            }
            plan.place[k].deployment_id = deployment_id.clone();
            // The stack takes the older version only for a group that has
            // not failed yet, and not for the current version itself.
            let older_job = downgrade
                .filter(|d| d.job.version != job.version && !placer.failed(&tg.name))
                .map(|d| (d.job, self.retargets(d.job, job)));
            if let Some((old, retarget)) = older_job {
                placer.set_job(old, retarget, self.setup_for(old));
                plan.place[k].job_version = Some(old.version);
            }
            let select = Select {
                name: &p.name,
                penalty: &penalty_nodes(prev),
                preferred: self.preferred_node(job, tg, prev),
            };
            let placed = placer.place(downgrade.map_or(tg, |d| d.tg), &select);
            if let Some((_, retarget)) = older_job {
                placer.set_job(job, retarget, self.setup_for(job));
            }
            if let Some(c) = placed {
                plan.place[k].node_id = Some(node_id(self, c.node));
                plan.place[k].score = Some(Score(c.score));
            }
            note(
                &mut placer,
                &mut records,
                &mut first_failure,
                explain,
                &tg.name,
                &p.name,
            );
        }
        preemptions(&placer, plan, groups);
        for (name, n) in &mut queued {
            *n = placer.failures().get(name).map_or(0, |f| f.count);
        }
        plan.queued_allocations = queued;
        plan.fit_unchecked = placer.unchecked();
        plan.failed_placements = placer
            .failures()
            .iter()
            .map(|(name, f)| FailedPlacement {
                task_group: name.clone(),
                count: f.count,
                metrics: f.metric.clone(),
                nearest_miss: f.nearest.as_ref().map(|(i, short)| {
                    let node = self.cluster.nodes[*i];
                    NearestMiss {
                        node_id: node.id.clone(),
                        node_name: node.name.clone(),
                        dimension: short.dimension.clone(),
                        lacks: short.lacks.map(|l| l.amount),
                        unit: short.lacks.map(|l| l.unit),
                    }
                }),
            })
            .collect();
        if !plan.failed_placements.is_empty() {
            let (class_eligibility, escaped) = placer.eligibility();
            plan.blocked_eval = self.blocked_eval(rec, job, class_eligibility, escaped);
        }
        records
    }

    /// The blocked evaluation of an evaluation with failed placements
    /// (`process` and `createBlockedEval`, scheduler/generic_sched.go:288-302
    /// and :219-237 at 1.3.0, :251-265 and :181-199 at 2.0.5): one for the
    /// whole evaluation, whatever the number of failed groups, its class
    /// eligibility merged over them (`GetClasses`) and left out when a
    /// constraint escapes the class. An evaluation that is itself blocked
    /// is put back instead (`ReblockEval`, :200-209 at 1.3.0, :161-171 at
    /// 2.0.5), keeping its ID, trigger and description, and then with its
    /// class eligibility even when escaped, as Nomad writes it.
    fn blocked_eval(
        &self,
        rec: &Reconciliation<'_>,
        job: &Job,
        class_eligibility: BTreeMap<String, bool>,
        escaped: bool,
    ) -> Option<BlockedEval> {
        if let Some(eval) = self.reblocks {
            return Some(BlockedEval {
                id: eval.id.to_string(),
                status: "blocked",
                triggered_by: eval.triggered_by.to_string(),
                status_description: eval.status_description.to_string(),
                class_eligibility,
                escaped_computed_class: escaped,
                node_id: None,
                reblocked: true,
            });
        }
        if self.blocked_suppressed(rec) {
            return None;
        }
        Some(BlockedEval {
            id: blocked_eval_id(self.eval_id, job),
            status: "blocked",
            triggered_by: TRIGGER_QUEUED_ALLOCS.to_string(),
            status_description: BLOCKED_FAILED_PLACEMENTS.to_string(),
            class_eligibility: match escaped {
                true => BTreeMap::new(),
                false => class_eligibility,
            },
            escaped_computed_class: escaped,
            node_id: None,
            reblocked: false,
        })
    }

    /// Whether a placement of `old` is made on other nodes than those of
    /// the current `job` (`needsToSetNodes`, from #17652): their
    /// datacenters differ as sets, or their node pools.
    fn retargets(&self, old: &Job, job: &Job) -> bool {
        let set = |j: &Job| j.datacenters.iter().cloned().collect::<BTreeSet<_>>();
        self.rules.has(Switch::DowngradeTargets)
            && (set(old) != set(job) || old.node_pool != job.node_pool)
    }

    /// `findPreferredNode`: a replacement whose group keeps its ephemeral
    /// disk (`sticky`; from #16826 also `migrate`) tries the previous
    /// allocation's node first, if that node is ready; from #26662 only
    /// while the job's node pool and datacenters are those of the previous
    /// allocation's job version. Before #26662 the node is tried even
    /// outside the job's datacenters and pool, as Nomad does.
    fn preferred_node(
        &self,
        job: &Job,
        tg: &TaskGroup,
        prev: Option<&Allocation>,
    ) -> Option<usize> {
        let prev = prev?;
        if self.rules.has(Switch::PreferredNodeSameTargets) {
            // Nomad reads the previous job's datacenters unguarded; an
            // allocation without its job gets no preference.
            let old = prev.job.as_deref()?;
            if old.node_pool != job.node_pool || old.datacenters != job.datacenters {
                return None;
            }
        }
        let disk = |key: &str| {
            tg.ephemeral_disk
                .get(key)
                .and_then(crate::model::Json::as_bool)
                .unwrap_or(false)
        };
        let keeps =
            disk("Sticky") || (self.rules.has(Switch::MigrateImpliesSticky) && disk("Migrate"));
        if !keeps {
            return None;
        }
        let i = self.cluster.position(&prev.node_id)?;
        self.cluster.nodes[i].ready().then_some(i)
    }

    /// The warning for placements and in-place updates taken on nodes
    /// without a resources block, which a dump cut down by hand may have;
    /// the one such warning, for service, batch and system jobs alike.
    pub(super) fn fit_unknown_warning(&self, report: &JobReport) -> Option<Warning> {
        let n = report.plan.fit_unchecked;
        (n > 0).then(|| {
            Warning::new(
                "resource_fit_unknown",
                format!(
                    "{}/{}: {n} placement(s) or in-place update(s) are on nodes without a resources \
                     block, where resource fit is not checked",
                    report.namespace, report.id
                ),
            )
        })
    }

    /// The warning for a job whose groups request CSI volumes when the
    /// dump has no `CSIVolumes` table to check them against (Nomad would
    /// find none and filter every node); the one such warning, for every
    /// job type.
    pub(super) fn csi_unchecked_warning(&self, w: &JobWork<'_>) -> Option<Warning> {
        if self.cluster.has_csi_volumes() {
            return None;
        }
        let job = w.job.filter(|j| !j.stop)?;
        let csi = job
            .task_groups
            .iter()
            .filter(|tg| tg.volumes.values().any(|v| v.volume_type == "csi"))
            .count();
        (csi > 0).then(|| {
            Warning::new(
                "csi_unchecked",
                format!(
                    "{}/{}: {csi} task group(s) request CSI volumes, but the snapshot has no CSIVolumes \
                     table: their availability is not checked",
                    w.namespace, w.id
                ),
            )
        })
    }

    /// The warning for a job whose host volume requests name a dynamic
    /// host volume (one with an `ID`, 1.10.0 on) on some node: it is
    /// checked as a static one, since the dump has no `HostVolumes` table
    /// with its state, capabilities and claims.
    pub(super) fn dynamic_host_volume_warning(&self, w: &JobWork<'_>) -> Option<Warning> {
        let job = w.job.filter(|j| !j.stop)?;
        let sources: BTreeSet<&str> = job
            .task_groups
            .iter()
            .flat_map(|tg| tg.volumes.values())
            .filter(|v| v.volume_type == "host")
            .map(|v| v.source.as_str())
            .collect();
        if sources.is_empty() {
            return None;
        }
        let dynamic = |name: &str| {
            let base = name.rfind('[').map_or(name, |i| &name[..i]);
            sources.contains(name) || sources.contains(base)
        };
        let nodes = self
            .cluster
            .nodes
            .iter()
            .filter(|n| {
                n.host_volumes
                    .iter()
                    .any(|(name, v)| v.as_ref().is_some_and(|v| !v.id.is_empty()) && dynamic(name))
            })
            .count();
        (nodes > 0).then(|| {
            Warning::new(
                "dynamic_host_volume_unchecked",
                format!(
                    "{}/{}: {nodes} node(s) offer a requested host volume as a dynamic host volume, \
                     checked as a static one: the snapshot has no HostVolumes table with its state, \
                     capabilities and claims",
                    w.namespace, w.id
                ),
            )
        })
    }

    /// Whether follow-up evaluations stand in for the blocked one: before
    /// F-4 whenever there are follow-ups and this evaluation was not itself
    /// delayed (`process`, scheduler/generic_sched.go:293-296 at 1.3.0); from
    /// F-4 only while the delayed evaluation's time has not come
    /// (generic_sched.go:302 at 1.10.5).
    fn blocked_suppressed(&self, rec: &Reconciliation<'_>) -> bool {
        let followups = rec
            .results
            .desired_followup_evals
            .values()
            .any(|v| !v.is_empty());
        if self.rules.has(Switch::F4) {
            followups && self.delayed_eval && self.now <= self.eval_wait_until
        } else {
            followups && !self.delayed_eval
        }
    }
}

/// While explaining: keeps the record of an attempt at the placement
/// `name` of group `tg`, and the group's first failure, which a later
/// coalesced attempt names.
fn note<'r, 'n>(
    placer: &mut Placer<'r>,
    records: &mut Vec<PlacementRecord<'r>>,
    first_failure: &mut BTreeMap<&'n str, &'n str>,
    explain: Option<&str>,
    tg: &'n str,
    name: &'n str,
) {
    if explain.is_none() {
        return;
    }
    if placer.failed(tg) {
        first_failure.entry(tg).or_insert(name);
    }
    if let Some(mut record) = placer.recorded() {
        if record.coalesced {
            record.first_failure = first_failure.get(tg).map(|n| n.to_string());
        }
        records.push(record);
    }
}

/// `handlePreemptions`: each evicted allocation in the plan, and one more
/// preemption in the desired changes of the group that placed
/// (generic_sched.go:821-843 at 1.3.0, :937-960 at 2.0.5).
fn preemptions(placer: &Placer<'_>, plan: &mut Plan, groups: &mut [GroupReport]) {
    for p in placer.preemptions() {
        let a = p.alloc;
        plan.preemptions.push(PlanPreemption {
            alloc_id: a.id.clone(),
            name: a.name().to_string(),
            node_id: a.node_id.to_string(),
            namespace: a.namespace.to_string(),
            job_id: a.job_id.to_string(),
            job_priority: a.job.as_ref().map_or(0, |j| j.priority),
            preempted_by: p.by.clone(),
        });
        if let Some(g) = groups.iter_mut().find(|g| g.name == p.task_group) {
            g.desired_changes.reconciler.preemptions += 1;
        }
    }
}

fn node_id(cx: &JobContext<'_>, i: usize) -> Arc<str> {
    Arc::from(cx.cluster.nodes[i].id.as_str())
}

/// A blocked evaluation's ID, derived from the evaluation and the job.
fn blocked_eval_id(eval_id: &str, job: &Job) -> String {
    let name = format!(
        "plan-inspect/blocked-eval/{eval_id}/{}/{}",
        job.namespace, job.id
    );
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, name.as_bytes()).to_string()
}
