//! The plan applier (nomad/plan_apply.go and the state store's
//! `UpsertPlanResults`): a job's plan written to the cluster, its
//! preempted allocations evicted (`preempt`), its deployment created or
//! updated and the allocations counted in it (`deployment_state`). The
//! replay assumes what Nomad leaves to clients: placed allocations start
//! at once (their health verdict is the engine's to schedule), stops and
//! evictions complete at once.

use std::sync::Arc;

use crate::model::{
    AllocState, AllocStateField, Allocation, ClientStatus, Deployment, DeploymentState,
    DesiredStatus, Id, Job, deployment_status,
};
use crate::report::JobReport;
use crate::time::Time;
use crate::version::Release;

use super::deployment_state::{self, Before};
use super::eval::NewEval;
use super::place;
use super::preempt::{self, Placed};
use super::resources::Offers;
use super::story::{Mark, MarkKind, Preempted};
use super::world::World;

/// What applying one plan left for the servers to do next.
#[derive(Default)]
pub struct Applied {
    /// The plan's follow-up evaluations.
    pub followups: Vec<NewEval>,
    /// The allocations the plan evicted.
    pub preempted: Vec<Preempted>,
    /// The `preemption` evaluations written with the plan.
    pub preemption_evals: Vec<NewEval>,
    /// A client reported an allocation terminal: capacity was freed, and
    /// the blocked evaluations are let go.
    pub freed: bool,
    /// What happened to allocations, for the picture.
    pub marks: Vec<Mark>,
    /// The allocations whose client now watches their health: those
    /// placed, and those updated in place into another deployment.
    pub health: Vec<String>,
}

/// Applies `job`'s plan, made by evaluation `eval_id` at `now` under
/// `release`.
pub fn apply(
    world: &mut World,
    release: Release,
    eval_id: &str,
    job: &JobReport,
    now: Time,
) -> Applied {
    let plan = &job.plan;
    let mut out = Applied::default();
    let spec: Option<Arc<Job>> = world.snapshot.job(&job.namespace, &job.id).cloned();
    let mark = |out: &mut Applied, alloc: &Allocation, kind: MarkKind| {
        out.marks.push(Mark {
            at: now,
            alloc_id: alloc.id.to_string(),
            name: alloc.name().to_string(),
            node_id: alloc.node_id.to_string(),
            namespace: job.namespace.clone(),
            job_id: job.id.clone(),
            kind,
        });
    };
    for stop in &plan.stop {
        let Some(i) = world.alloc_index(&stop.alloc_id.to_string()) else {
            continue;
        };
        let alloc = &mut world.snapshot.allocs[i];
        let was_terminal = alloc.terminal_status();
        alloc.desired_status = DesiredStatus::Stop;
        alloc.desired_description = stop.description.into();
        alloc.modify_time = now.unix_nanos_i64();
        if let Some(f) = &stop.followup_eval_id {
            alloc.followup_eval_id = f.as_str().into();
        }
        let kind = match &stop.client_status {
            Some(status) => {
                alloc.client_status = status.clone();
                if *status == ClientStatus::Lost {
                    MarkKind::Lost
                } else {
                    MarkKind::Stopped
                }
            }
            None if !alloc.client_terminal_status() => {
                alloc.client_status = ClientStatus::Complete;
                MarkKind::Stopped
            }
            None => MarkKind::Stopped,
        };
        // Only a client's report of its stopped allocation unblocks
        // (v1.3.0 nomad/fsm.go:835-895 `applyAllocClientUpdate`); a status
        // the scheduler sets, as `lost`, is written with the plan, which
        // unblocks nothing (fsm.go:1004-1019 `applyPlanResults`).
        out.freed |= !was_terminal && stop.client_status.is_none();
        let alloc = world.alloc(i).clone();
        mark(&mut out, &alloc, kind);
    }
    for update in &plan.disconnect_updates {
        let Some(i) = world.alloc_index(&update.alloc_id.to_string()) else {
            continue;
        };
        let alloc = &mut world.snapshot.allocs[i];
        alloc.client_status = ClientStatus::Unknown;
        alloc.followup_eval_id = update.followup_eval_id.as_str().into();
        push_state(alloc, ClientStatus::Unknown, now);
        let alloc = world.alloc(i).clone();
        mark(&mut out, &alloc, MarkKind::Unknown);
    }
    for update in &plan.reconnect_updates {
        let Some(i) = world.alloc_index(&update.alloc_id.to_string()) else {
            continue;
        };
        if let Some(state) = &update.alloc_state {
            let alloc = &mut world.snapshot.allocs[i];
            push_state(alloc, ClientStatus::from(state.value.as_str()), state.time);
        }
        let alloc = world.alloc(i).clone();
        mark(&mut out, &alloc, MarkKind::Reconnected);
    }
    for update in &plan.attribute_updates {
        if let Some(i) = world.alloc_index(&update.alloc_id.to_string()) {
            world.snapshot.allocs[i].followup_eval_id = update.followup_eval_id.as_str().into();
        }
    }
    let mut in_place = Vec::new();
    for update in &plan.in_place_update {
        if let (Some(i), Some(spec)) = (world.alloc_index(&update.alloc_id.to_string()), &spec) {
            let before = Before::of(world.alloc(i));
            let alloc = &mut world.snapshot.allocs[i];
            alloc.job = Some(spec.clone());
            alloc.modify_time = now.unix_nanos_i64();
            // Into another deployment (or none), the allocation's
            // deployment status starts over (v1.3.0
            // scheduler/generic_sched.go:419-423, v2.0.5 :406-410).
            let into = update.deployment_id.as_deref().unwrap_or("");
            if alloc.deployment_id != into {
                alloc.deployment_status = None;
                world.set_deployment(i, into);
                out.health.push(world.alloc(i).id.to_string());
            }
            in_place.push((i, before));
        }
    }
    // `UpsertDeployment`: a system job's plan (1.11.0 on) may carry the job's
    // existing deployment, whose groups' totals it updates.
    let existing = plan
        .deployment
        .as_ref()
        .and_then(|d| world.deployment_mut(&Id::from(&d.id)).map(|e| (d, e)));
    if let Some((d, e)) = existing {
        e.status = d.status.as_str().into();
        e.status_description = d.status_description.as_str().into();
        for (name, g) in &d.groups {
            let state = e.task_groups.get_or_default(name.into());
            state.desired_total = g.desired_total;
            state.desired_canaries = g.desired_canaries;
        }
    } else if let Some(d) = &plan.deployment {
        let index = world.index();
        // `NewDeployment`: of the job as it stands, which the next
        // evaluation's reconciler checks (a deployment of another
        // `JobCreateIndex` is of an older job, and canceled).
        let of_job = spec.as_deref();
        let created = Deployment {
            id: d.id.as_str().into(),
            namespace: job.namespace.as_str().into(),
            job_id: job.id.as_str().into(),
            job_version: d.job_version,
            job_modify_index: of_job.map_or(0, |j| j.modify_index),
            job_spec_modify_index: of_job.map_or(0, |j| j.job_modify_index),
            job_create_index: of_job.map_or(0, |j| j.create_index),
            is_multiregion: of_job.is_some_and(Job::is_multiregion),
            eval_priority: job.priority,
            status: d.status.as_str().into(),
            status_description: d.status_description.as_str().into(),
            task_groups: d
                .groups
                .iter()
                .map(|(name, g)| {
                    (
                        name.into(),
                        DeploymentState {
                            auto_revert: g.auto_revert,
                            auto_promote: g.auto_promote,
                            promoted: g.promoted,
                            desired_canaries: g.desired_canaries,
                            desired_total: g.desired_total,
                            progress_deadline: g.progress_deadline,
                            ..DeploymentState::default()
                        },
                    )
                })
                .collect(),
            create_index: index,
            modify_index: index,
        };
        deployment_state::create(world, created);
    }
    for update in &plan.deployment_updates {
        deployment_state::set_status(
            world,
            &Id::from(&update.deployment_id),
            &update.status,
            &update.status_description,
        );
    }
    // The in-place updates are written with the deployment they join.
    for (i, before) in &in_place {
        deployment_state::with_alloc(world, *i, Some(before), now);
    }
    let active = |status: &str| {
        use deployment_status as ds;
        matches!(
            status,
            ds::RUNNING
                | ds::PAUSED
                | ds::BLOCKED
                | ds::UNBLOCKING
                | ds::PENDING
                | ds::INITIALIZING
        )
    };
    let deployment_id = plan
        .deployment
        .as_ref()
        .filter(|d| active(&d.status))
        .map(|d| d.id.clone())
        .or_else(|| {
            world
                .snapshot
                .deployments
                .iter()
                .filter(|d| d.namespace == job.namespace && d.job_id == job.id)
                .max_by_key(|d| (d.create_index, std::cmp::Reverse(&d.id)))
                .filter(|d| d.status == deployment_status::RUNNING)
                .map(|d| d.id.to_string())
        });
    let placements = place::of_plan(world, plan);
    for p in placements.iter().filter(|p| p.replaces) {
        let Some(i) = p
            .previous
            .as_ref()
            .and_then(|prev| world.alloc_index(&prev.to_string()))
        else {
            continue;
        };
        let old = &mut world.snapshot.allocs[i];
        old.desired_status = DesiredStatus::Stop;
        old.desired_description = "alloc is being updated due to job update".into();
        old.client_status = ClientStatus::Complete;
        out.freed = true;
        let old = world.alloc(i).clone();
        mark(&mut out, &old, MarkKind::Stopped);
    }
    let placed: Vec<Placed> = placements
        .iter()
        .enumerate()
        .map(|(n, p)| Placed {
            name: p.name.clone(),
            node: p.node.clone(),
            alloc_id: place::alloc_id(eval_id, n, &p.name),
        })
        .collect();
    // Written in one transaction with the placements; evicted first here so
    // that the placements' resources are offered on the nodes they freed.
    let evicted = preempt::evict(world, eval_id, &plan.preemptions, &placed, now);
    out.freed |= evicted.freed;
    out.marks.extend(evicted.marks);
    out.preempted = evicted.preempted;
    out.preemption_evals = evicted.evals;
    let mut offers = Offers::new(world, release, placements.iter().map(|p| p.node.as_str()));
    for (n, p) in placements.into_iter().enumerate() {
        // A placement of an older version runs that version's spec.
        let older = p.job_version.and_then(|v| {
            world
                .snapshot
                .job_version(&job.namespace, &job.id, v)
                .cloned()
        });
        let spec = older.or_else(|| spec.clone());
        let at = place::At {
            eval_id,
            n,
            now,
            spec: spec.clone(),
            deployment_id: match &p.deployment_id {
                Some(given) => given.as_deref(),
                None => deployment_id.as_deref(),
            },
        };
        let mut alloc = place::allocation(world, job, &p, &at);
        alloc.allocated_resources = spec.as_deref().and_then(|s| {
            let tg = s.lookup_task_group(&p.group)?;
            offers.offer(world, &p.node, s, tg)
        });
        if let Some(i) = p
            .previous
            .as_ref()
            .and_then(|prev| world.alloc_index(&prev.to_string()))
        {
            world.snapshot.allocs[i].next_allocation = alloc.id.to_string().into();
        }
        mark(&mut out, &alloc, MarkKind::Placed);
        out.health.push(alloc.id.to_string());
        world.push_alloc(alloc);
        let i = world.snapshot.allocs.len() - 1;
        deployment_state::with_alloc(world, i, None, now);
    }
    out.followups = plan
        .followup_evals
        .iter()
        .map(|f| NewEval {
            id: f.id.clone(),
            namespace: job.namespace.clone(),
            job_id: job.id.clone(),
            job_type: job.job_type.clone(),
            priority: job.priority,
            triggered_by: f.triggered_by.clone(),
            node_id: None,
            wait_until: Some(f.wait_until),
            raft_index: None,
        })
        .collect();
    out
}

/// `AppendState(ClientStatus, ...)`.
fn push_state(alloc: &mut Allocation, value: ClientStatus, time: Time) {
    alloc.alloc_states.push(AllocState {
        field: AllocStateField::ClientStatus,
        value,
        time,
    });
}
