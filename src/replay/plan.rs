//! The plan the scheduler would submit, from the reconciler's results.

use std::collections::BTreeMap;

use super::texts::Texts;
use super::{JobContext, JobWork};
use crate::model::{ClientStatus, Id, node_status};
use crate::reconciler::{AllocUpdate, Reconciliation, TaintedNodes, desc};
use crate::report::*;
use crate::version::Switch;

impl<'a> JobContext<'a> {
    /// The plan's stops, sorted: those of `updateNonTerminalAllocsToLost`,
    /// then the reconciler's.
    pub(super) fn stops<'r>(
        &self,
        w: &JobWork<'a>,
        tainted: &TaintedNodes<'_>,
        rec: &'r Reconciliation<'_>,
        texts: &mut Texts<'r>,
    ) -> Vec<PlanStop>
    where
        'a: 'r,
    {
        let mut stop = Vec::new();
        // updateNonTerminalAllocsToLost: allocations already told to stop on
        // down or missing nodes are marked lost.
        for alloc in &w.allocs {
            let down = || match tainted.get(alloc.node_id.as_str()) {
                Some(None) => true,
                Some(Some(n)) => n.status == node_status::DOWN,
                None => false,
            };
            if alloc.server_terminal_status()
                && matches!(
                    alloc.client_status,
                    ClientStatus::Running | ClientStatus::Pending
                )
                && down()
            {
                stop.push(PlanStop {
                    alloc_id: alloc.id.clone(),
                    name: alloc.name().to_string(),
                    task_group: texts.word(&alloc.task_group),
                    client_status: Some(ClientStatus::Lost),
                    description: desc::LOST,
                    followup_eval_id: None,
                });
            }
        }
        stop.extend(rec.results.stop.iter().map(|s| PlanStop {
            alloc_id: s.alloc.id.clone(),
            name: s.alloc.name().to_string(),
            task_group: texts.word(&s.alloc.task_group),
            client_status: s.client_status.clone(),
            description: s.description,
            followup_eval_id: s.followup_eval_id.as_deref().map(str::to_string),
        }));
        stop.sort();
        stop
    }

    /// The plan, around its `stop` list from [`Self::stops`], its lists in
    /// the reconciler's order (the placement stage follows it; the caller
    /// sorts).
    pub(super) fn plan<'r>(
        &self,
        w: &JobWork<'a>,
        rec: &'r Reconciliation<'_>,
        texts: &mut Texts<'r>,
        stop: Vec<PlanStop>,
    ) -> Plan
    where
        'a: 'r,
    {
        let r = &rec.results;
        let mut plan = Plan {
            stop,
            ..Plan::default()
        };
        plan.place = r
            .place
            .iter()
            .map(|p| PlanPlace {
                task_group: texts.word(p.task_group),
                name: p.name.to_string(),
                canary: p.canary,
                previous_alloc_id: p.previous.map(|a| a.id.clone()),
                reschedule: p.reschedule,
                lost: p.lost,
                downgrade_non_canary: p.downgrade_non_canary,
                min_job_version: p.min_job_version,
                job_version: None,
                deployment_id: None,
                node_id: None,
                score: None,
            })
            .collect();
        plan.destructive_update = r
            .destructive_update
            .iter()
            .map(|d| PlanDestructive {
                alloc_id: d.alloc.id.clone(),
                name: d.name.clone(),
                task_group: d.task_group.clone(),
                reason: d.reason.clone(),
                label: d.label,
                node_id: None,
                score: None,
            })
            .collect();
        // The scheduler moves in-place updates into the current deployment.
        let deployment_id = r.deployment.as_ref().map(|d| d.id.to_string()).or_else(|| {
            self.deployments
                .get(&(w.namespace, w.id))
                .filter(|_| w.job.is_some_and(|j| !j.is_batch()))
                .map(|d| d.id.to_string())
        });
        plan.in_place_update = r
            .inplace_update
            .iter()
            .map(|a| PlanInPlace {
                alloc_id: a.id.clone(),
                name: a.name().to_string(),
                deployment_id: deployment_id.clone(),
            })
            .collect();
        let followup = |m: &BTreeMap<&Id, AllocUpdate<'_>>| -> Vec<PlanFollowupUpdate> {
            m.values()
                .map(|u| PlanFollowupUpdate {
                    alloc_id: u.alloc.id.clone(),
                    followup_eval_id: u.followup_eval_id.to_string(),
                })
                .collect()
        };
        plan.disconnect_updates = followup(&r.disconnect_updates);
        plan.attribute_updates = followup(&r.attribute_updates);
        plan.reconnects_planned = self.rules.has(Switch::C1);
        plan.reconnect_updates = r
            .reconnect_updates
            .iter()
            .filter(|_| self.rules.plans_reconnect_updates())
            .map(|(id, alloc)| PlanReconnect {
                alloc_id: (*id).clone(),
                alloc_state: self.rules.has(Switch::C1).then(|| PlanAllocState {
                    field: "ClientStatus",
                    value: alloc.client_status.to_string(),
                    time: self.now,
                }),
            })
            .collect();
        // A delayed evaluation does not create the follow-up evals, though
        // the allocations still name them (generic_sched.go:293, 312-321).
        let followups = r
            .desired_followup_evals
            .values()
            .filter(|_| !self.delayed_eval);
        plan.followup_evals = followups
            .flatten()
            .map(|e| PlanFollowupEval {
                id: e.id.to_string(),
                triggered_by: e.triggered_by.to_string(),
                wait_until: e.wait_until,
                status_description: e.status_description.to_string(),
                task_group: e.task_group.clone(),
                alloc_ids: e.alloc_ids.iter().map(|&id| id.clone()).collect(),
            })
            .collect();
        plan.deployment = r.deployment.as_ref().map(|d| PlanDeployment {
            id: d.id.to_string(),
            status: d.status.to_string(),
            status_description: d.status_description.to_string(),
            job_version: d.job_version,
            groups: d
                .task_groups
                .iter()
                .map(|(name, s)| {
                    (
                        name.to_string(),
                        PlanDeploymentGroup {
                            desired_total: s.desired_total,
                            desired_canaries: s.desired_canaries,
                            auto_revert: s.auto_revert,
                            auto_promote: s.auto_promote,
                            promoted: s.promoted,
                            progress_deadline: s.progress_deadline,
                        },
                    )
                })
                .collect(),
        });
        plan.deployment_updates = r
            .deployment_updates
            .iter()
            .map(|u| PlanDeploymentUpdate {
                deployment_id: u.deployment_id.clone(),
                status: u.status.to_string(),
                status_description: u.status_description.to_string(),
            })
            .collect();
        plan
    }
}

impl Plan {
    pub(super) fn sort(&mut self) {
        self.place.sort();
        self.destructive_update.sort();
        self.in_place_update.sort();
        self.disconnect_updates.sort();
        self.reconnect_updates.sort();
        self.attribute_updates.sort();
        self.followup_evals
            .sort_by(|a, b| (a.wait_until, &a.id).cmp(&(b.wait_until, &b.id)));
        self.deployment_updates.sort();
        self.failed_placements
            .sort_by(|a, b| a.task_group.cmp(&b.task_group));
        self.preemptions.sort();
    }
}
