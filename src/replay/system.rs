//! System and sysbatch jobs: the system scheduler's decisions as a job report.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::placing::{BLOCKED_FAILED_PLACEMENTS, TRIGGER_QUEUED_ALLOCS};
use super::{JobContext, JobWork};
use crate::feasibility::TargetRules;
use crate::fit::{FitRules, Settings};
use crate::model::{Allocation, Job, JobType, Name};
use crate::reconciler::TaintedNodes;
use crate::report::*;
use crate::system::{Category, FitInput, SystemInput, SystemSchedule, WorkingDeployment};
use crate::version::Switch;
use crate::warning::Warning;

impl<'a> JobContext<'a> {
    /// Schedules a system or sysbatch job and reports it like any other.
    pub(super) fn system_job(
        &self,
        w: &JobWork<'a>,
        spec: Option<&Job>,
    ) -> (JobReport, Vec<Warning>) {
        let tainted = self.tainted_nodes(&w.allocs);
        let sched = self.system_schedule(w, &tainted, false);
        self.system_report(w, spec, &sched)
    }

    pub(super) fn system_schedule(
        &self,
        w: &JobWork<'a>,
        tainted: &TaintedNodes<'a>,
        record: bool,
    ) -> SystemSchedule<'a> {
        let name = format!(
            "plan-inspect/deployment/{}/{}/{}",
            self.eval_id, w.namespace, w.id
        );
        let new_deployment_id =
            uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, name.as_bytes()).to_string();
        SystemSchedule::compute(&SystemInput {
            job: w.job,
            allocs: &w.allocs,
            nodes: self.nodes,
            tainted,
            rules: self.rules,
            now: self.now,
            record,
            fit: Some(self.fit_input(w)),
            volumes: self.cluster.volumes(self.placement.volumes),
            deployment: self.deployments.get(&(w.namespace, w.id)).copied(),
            new_deployment_id: &new_deployment_id,
        })
    }

    /// Resource fit under the release's rules and the job's scheduler
    /// configuration (its node pool's own memory oversubscription from
    /// 1.6.0); preemption as the cluster's configuration allows for the
    /// job's type, which no pool sets (scheduler/stack.go:290-298 at 1.6.0).
    fn fit_input(&self, w: &JobWork<'a>) -> FitInput<'a, 'a> {
        let config = &self.scheduler.preemption_config;
        let sysbatch = w.job.is_some_and(|j| j.job_type == JobType::Sysbatch);
        let memory_oversubscription =
            w.job
                .map_or(self.scheduler.memory_oversubscription_enabled, |j| {
                    self.applied_config(j)
                        .config
                        .memory_oversubscription_enabled
                });
        FitInput {
            settings: Settings {
                rules: FitRules::of(self.rules.release()),
                memory_oversubscription,
            },
            preempt: match sysbatch {
                true => config.sys_batch_scheduler_enabled,
                false => config.system_scheduler_enabled,
            },
            on_node: self.on_node,
            targets: TargetRules::of(self.rules.release()),
        }
    }

    /// The job's report and warnings from its schedule.
    pub(super) fn system_report(
        &self,
        w: &JobWork<'a>,
        spec: Option<&Job>,
        sched: &SystemSchedule<'a>,
    ) -> (JobReport, Vec<Warning>) {
        let job_type = spec.map_or(JobType::System, |j| j.job_type.clone());
        let mut warnings = Vec::new();
        for c in &sched.invalid_constraints {
            warnings.push(Warning::new(
                "invalid_constraint",
                format!(
                    "{}/{}: constraint \"{}\" is invalid ({}); Nomad treats every node it is checked on as infeasible",
                    w.namespace, w.id, c.constraint, c.why
                ),
            ));
        }
        warnings.extend(self.csi_unchecked_warning(w));
        warnings.extend(self.dynamic_host_volume_warning(w));
        let mut report = JobReport {
            namespace: w.namespace.to_string(),
            id: w.id.to_string(),
            job_type,
            version: spec.map_or(0, |j| j.version),
            priority: spec.map_or(0, |j| j.priority),
            stopped: w.job.is_none_or(|j| j.stop),
            purged: w.job.is_none(),
            groups: self.system_groups(w, sched),
            plan: self.system_plan(w, sched),
        };
        report.plan.scheduler_config = self.config_fact(w.job);
        report.plan.fit_unchecked = report
            .plan
            .place
            .iter()
            .filter(|p| {
                p.node_id
                    .as_deref()
                    .is_some_and(|n| sched.unsized_nodes.contains(n))
            })
            .count() as u64;
        warnings.extend(self.fit_unknown_warning(&report));
        (report, warnings)
    }

    fn entry(&self, a: &Allocation, reason: String) -> BucketEntry {
        let node = self.nodes.get(a.node_id.as_str());
        BucketEntry {
            id: a.id.clone(),
            name: a.name(),
            node_id: a.node_id.clone(),
            node_status: node.map(|n| n.status.clone()),
            client_status: a.client_status.clone(),
            desired_status: a.desired_status.clone(),
            job_version: a.job_version(),
            canary: a.is_canary(),
            why: EntryWhy::Said(Name::from(reason)),
            unreplaced: None,
        }
    }

    fn system_groups(&self, w: &JobWork<'a>, sched: &SystemSchedule<'a>) -> Vec<GroupReport> {
        let mut names: BTreeSet<&str> = w.allocs.iter().map(|a| a.task_group.as_str()).collect();
        if let Some(job) = w.job {
            names.extend(job.task_groups.iter().map(|tg| tg.name.as_str()));
        }
        let mut diffs: BTreeMap<&str, SystemDiffReport> = BTreeMap::new();
        for e in &sched.diff.entries {
            let Some(alloc) = e.alloc.filter(|_| e.category != Category::Place) else {
                continue;
            };
            let d = diffs.entry(&alloc.task_group).or_default();
            let list = match e.category {
                Category::Update => &mut d.update,
                Category::Migrate => &mut d.migrate,
                Category::Stop => &mut d.stop,
                Category::Ignore => &mut d.ignore,
                Category::Disconnecting => &mut d.disconnecting,
                Category::Reconnecting => &mut d.reconnecting,
                _ => &mut d.lost,
            };
            list.push(self.entry(alloc, e.why.describe()));
        }
        for f in &sched.filtered {
            diffs
                .entry(f.task_group)
                .or_default()
                .filtered_nodes
                .push(FilteredNode {
                    node_id: f.node_id.to_string(),
                    name: f.name.clone(),
                    reason: f.filter.describe(),
                });
        }
        names
            .into_iter()
            .map(|name| {
                // `desiredUpdates` counts them from 1.11.0 (util.go:708).
                let counted = |c: Category| match self.rules.has(Switch::SystemDeployments) {
                    true => sched
                        .diff
                        .of(c)
                        .filter(|e| e.task_group.is_some_and(|tg| tg.name == name))
                        .count() as u64,
                    false => 0,
                };
                let tg = w
                    .job
                    .filter(|j| !j.stop)
                    .and_then(|j| j.lookup_task_group(name));
                let mut diff = diffs.remove(name).unwrap_or_default();
                for list in [
                    &mut diff.update,
                    &mut diff.migrate,
                    &mut diff.stop,
                    &mut diff.ignore,
                    &mut diff.lost,
                    &mut diff.disconnecting,
                    &mut diff.reconnecting,
                ] {
                    list.sort_by(|a, b| a.id.cmp(&b.id));
                }
                diff.filtered_nodes.sort();
                let mut set_aside: Vec<SetAsideEntry> = sched
                    .unexamined
                    .iter()
                    .filter(|a| a.task_group == name)
                    .map(|a| SetAsideEntry {
                        id: a.id.clone(),
                        name: a.name().to_string(),
                        job_version: a.job_version(),
                        canary: a.is_canary(),
                        reason: "terminal allocation: the system scheduler does not diff it"
                            .to_string(),
                    })
                    .collect();
                set_aside.sort_by(|a, b| a.id.cmp(&b.id));
                GroupReport {
                    name: name.to_string(),
                    count: tg.map_or(0, |tg| tg.count),
                    removed: w.job.is_none_or(|j| j.lookup_task_group(name).is_none()),
                    buckets: Buckets::default(),
                    set_aside,
                    reschedule_now: Vec::new(),
                    reschedule_later: Vec::new(),
                    desired_changes: GroupChanges {
                        reconciler: sched.desired.get(name).cloned().unwrap_or_default(),
                        disconnect: counted(Category::Disconnecting),
                        reconnect: counted(Category::Reconnecting),
                        ..GroupChanges::default()
                    },
                    system_diff: Some(diff),
                }
            })
            .collect()
    }

    fn system_stops(&self, sched: &SystemSchedule<'a>) -> Vec<PlanStop> {
        let mut stop: Vec<PlanStop> = sched
            .stops
            .iter()
            .map(|s| PlanStop {
                alloc_id: s.alloc.id.clone(),
                name: s.alloc.name().to_string(),
                task_group: Arc::from(s.alloc.task_group.as_str()),
                client_status: s.client_status.clone(),
                description: s.description,
                followup_eval_id: None,
            })
            .collect();
        stop.sort();
        stop
    }

    fn system_plan(&self, w: &JobWork<'a>, sched: &SystemSchedule<'a>) -> Plan {
        let mut plan = Plan {
            stop: self.system_stops(sched),
            ..Plan::default()
        };
        plan.place = sched
            .placements
            .iter()
            .map(|p| PlanPlace {
                task_group: Arc::from(p.task_group.name.as_str()),
                name: p.name.clone(),
                canary: p.canary,
                previous_alloc_id: p.previous.map(|a| a.id.clone()),
                reschedule: false,
                lost: false,
                downgrade_non_canary: false,
                min_job_version: 0,
                job_version: None,
                deployment_id: None,
                node_id: Some(Arc::from(p.node_id)),
                score: None,
            })
            .collect();
        self.system_failures(w, sched, &mut plan);
        plan.destructive_update = sched
            .destructive
            .iter()
            .filter(|d| d.evicted)
            .map(|d| PlanDestructive {
                alloc_id: d.alloc.id.clone(),
                name: d.name.clone(),
                task_group: d.task_group.to_string(),
                reason: d.reason.clone(),
                label: d.label,
                node_id: Some(Arc::from(d.alloc.node_id.as_str())),
                score: None,
            })
            .collect();
        // The system scheduler creates no follow-up evaluation for them.
        plan.disconnect_updates = sched
            .unknown
            .iter()
            .map(|a| PlanFollowupUpdate {
                alloc_id: a.id.clone(),
                followup_eval_id: String::new(),
            })
            .collect();
        plan.in_place_update = sched
            .in_place
            .iter()
            .map(|a| PlanInPlace {
                alloc_id: a.id.clone(),
                name: a.name().to_string(),
                deployment_id: sched.in_place_deployment.clone(),
            })
            .collect();
        plan.deployment = sched.deployment.as_ref().map(plan_deployment);
        plan.deployment_updates = sched
            .deployment_updates
            .iter()
            .map(|u| PlanDeploymentUpdate {
                deployment_id: u.deployment_id.to_string(),
                status: u.status.to_string(),
                status_description: u.description.to_string(),
            })
            .collect();
        let changes =
            !plan.stop.is_empty() || !plan.place.is_empty() || !plan.in_place_update.is_empty();
        if sched.limit_reached && changes {
            let stagger = w
                .job
                .and_then(|j| j.update.as_ref())
                .map_or(0, |u| u.stagger);
            let name = format!(
                "plan-inspect/rolling-update/{}/{}/{}",
                self.eval_id, w.namespace, w.id
            );
            plan.followup_evals.push(PlanFollowupEval {
                id: uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, name.as_bytes()).to_string(),
                triggered_by: "rolling-update".to_string(),
                wait_until: self.now.add(stagger),
                status_description: String::new(),
                task_group: String::new(),
                alloc_ids: Vec::new(),
            });
        }
        plan.sort();
        plan
    }
}

impl<'a> JobContext<'a> {
    /// The failed placements, the blocked evaluation, what stays queued
    /// and the preemptions.
    fn system_failures(&self, w: &JobWork<'a>, sched: &SystemSchedule<'a>, plan: &mut Plan) {
        plan.failed_placements = sched
            .failures
            .failed
            .iter()
            .map(|f| FailedPlacement {
                task_group: f.task_group.clone(),
                count: f.coalesced + 1,
                metrics: f.metric.clone(),
                nearest_miss: f.exhausted.as_ref().map(|(id, name, short)| NearestMiss {
                    node_id: id.clone(),
                    node_name: name.clone(),
                    dimension: short.dimension.clone(),
                    lacks: short.lacks.map(|l| l.amount),
                    unit: short.lacks.map(|l| l.unit),
                }),
            })
            .collect();
        // `addBlocked`: `CreateBlockedEval`'s trigger, and the node.
        let mut blocked = sched.blocked.iter().map(|b| {
            let name = format!(
                "plan-inspect/blocked/{}/{}/{}/{}/{}",
                self.eval_id, w.namespace, w.id, b.task_group, b.node_id
            );
            BlockedEval {
                id: uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, name.as_bytes()).to_string(),
                status: "blocked",
                triggered_by: TRIGGER_QUEUED_ALLOCS.to_string(),
                status_description: BLOCKED_FAILED_PLACEMENTS.to_string(),
                class_eligibility: b.class_eligibility.clone(),
                escaped_computed_class: b.escaped,
                node_id: Some(b.node_id.clone()),
                reblocked: false,
            }
        });
        plan.blocked_eval = blocked.next();
        plan.more_blocked_evals = blocked.collect();
        plan.queued_allocations = sched.failures.queued();
        plan.preemptions = sched
            .preemptions
            .iter()
            .map(|p| PlanPreemption {
                alloc_id: p.alloc.id.clone(),
                name: p.alloc.name().to_string(),
                node_id: p.alloc.node_id.to_string(),
                namespace: p.alloc.namespace.to_string(),
                job_id: p.alloc.job_id.to_string(),
                job_priority: p.alloc.job.as_ref().map_or(0, |j| j.priority),
                preempted_by: p.by.clone(),
            })
            .collect();
    }
}

/// The deployment a system job's plan carries: its groups without a
/// state (Nomad's nil ones) are left out.
fn plan_deployment(d: &WorkingDeployment) -> PlanDeployment {
    PlanDeployment {
        id: d.deployment.id.to_string(),
        status: d.deployment.status.to_string(),
        status_description: d.deployment.status_description.to_string(),
        job_version: d.deployment.job_version,
        groups: d
            .groups
            .iter()
            .filter_map(|(name, s)| {
                let s = s.as_ref()?;
                let group = PlanDeploymentGroup {
                    desired_total: s.desired_total,
                    desired_canaries: s.desired_canaries,
                    auto_revert: s.auto_revert,
                    auto_promote: s.auto_promote,
                    promoted: s.promoted,
                    progress_deadline: s.progress_deadline,
                };
                Some((name.clone(), group))
            })
            .collect(),
    }
}
