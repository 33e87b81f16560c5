//! The allocations a plan's placements become: on the placement's node,
//! running, with the previous allocation's reschedule history carried on
//! (`updateRescheduleTracker`), in the job's current deployment.

use std::sync::Arc;

use crate::model::{
    AllocDeploymentStatus, Allocation, ClientStatus, DesiredStatus, Id, Job, RescheduleEvent,
    RescheduleTracker,
};
use crate::report::{JobReport, Plan, PlanDestructive};
use crate::time::Time;

use super::world::World;

/// One allocation to create.
pub struct Placement {
    pub name: String,
    pub group: String,
    pub previous: Option<Id>,
    /// Empty when the placement came without a node.
    pub node: String,
    pub reschedule: bool,
    /// A destructive update: the previous allocation is stopped for it.
    pub replaces: bool,
    /// A canary of the deployment: the scheduler marks the allocation one.
    pub canary: bool,
    /// The older job version it is made with, if not the current one.
    pub job_version: Option<u64>,
    /// The deployment Nomad gives it, where not the plan's (`None`
    /// inside: none).
    pub deployment_id: Option<Option<String>>,
}

/// The plan's placements, then its destructive updates not among them
/// (placed where the updated allocation ran).
pub fn of_plan(world: &World, plan: &Plan) -> Vec<Placement> {
    // A placement no node took is a failed placement, and a destructive
    // update whose replacement found no node keeps its old allocation.
    let placed = plan
        .place
        .iter()
        .filter(|p| p.node_id.is_some())
        .map(|p| Placement {
            name: p.name.clone(),
            group: p.task_group.to_string(),
            previous: p.previous_alloc_id.clone(),
            node: p.node_id.as_deref().unwrap_or("").to_string(),
            reschedule: p.reschedule,
            replaces: false,
            canary: p.canary,
            job_version: p.job_version,
            deployment_id: p.deployment_id.clone(),
        });
    // A system job's plan lists each destructive update's replacement
    // among its placements too, with the updated allocation as previous.
    let listed = |d: &&PlanDestructive| {
        plan.place
            .iter()
            .any(|p| p.previous_alloc_id.as_ref() == Some(&d.alloc_id))
    };
    let updated = plan
        .destructive_update
        .iter()
        .filter(|d| d.replaced() && !listed(d))
        .map(|d| Placement {
            name: d.name.clone(),
            group: d.task_group.clone(),
            previous: Some(d.alloc_id.clone()),
            node: d.node_id.as_deref().map(str::to_string).unwrap_or_else(|| {
                world
                    .alloc_index(&d.alloc_id.to_string())
                    .map(|i| world.alloc(i).node_id.to_string())
                    .unwrap_or_default()
            }),
            reschedule: false,
            replaces: true,
            canary: false,
            job_version: None,
            deployment_id: None,
        });
    placed.chain(updated).collect()
}

/// Where and when a placement is made.
pub struct At<'a> {
    pub eval_id: &'a str,
    /// The placement's place in its plan.
    pub n: usize,
    pub now: Time,
    pub spec: Option<Arc<Job>>,
    pub deployment_id: Option<&'a str>,
}

/// The ID of the allocation of placement `n`, named `name`, of the plan of
/// evaluation `eval_id`: the same on every run.
pub fn alloc_id(eval_id: &str, n: usize, name: &str) -> String {
    uuid::Uuid::new_v5(
        &uuid::Uuid::NAMESPACE_OID,
        format!("plan-inspect/what-if/alloc/{eval_id}/{n}/{name}").as_bytes(),
    )
    .to_string()
}

/// The new allocation, with [`alloc_id`].
pub fn allocation(world: &mut World, job: &JobReport, p: &Placement, at: &At<'_>) -> Allocation {
    let id = alloc_id(at.eval_id, at.n, &p.name);
    let previous = p
        .previous
        .as_ref()
        .and_then(|prev| world.alloc_index(&prev.to_string()))
        .map(|i| world.alloc(i).clone());
    let tracker = match (&previous, p.reschedule) {
        (Some(prev), true) => {
            let mut events = prev.reschedule_events().to_vec();
            events.push(RescheduleEvent {
                reschedule_time: at.now.unix_nanos_i64(),
                prev_alloc_id: prev.id.clone(),
                prev_node_id: prev.node_id.clone(),
                delay: prev.next_delay(),
            });
            Some(Box::new(RescheduleTracker {
                events: Some(events.into_boxed_slice()),
                last_reschedule: "ok".into(),
            }))
        }
        _ => None,
    };
    // The client's health check gives a verdict to every service
    // allocation, which the drainer counts.
    let tracked = at.deployment_id.is_some() || job.job_type.as_str() == "service";
    // A canary placed with a deployment is marked one (v1.10.5
    // scheduler/generic_sched.go:701, the same from 1.3.0 to 2.0.5).
    let canary = p.canary && at.deployment_id.is_some();
    let mut placed = Allocation {
        id: Id::from(id.as_str()),
        namespace: job.namespace.as_str().into(),
        node_id: p.node.as_str().into(),
        job_id: job.id.as_str().into(),
        job: at.spec.clone(),
        task_group: p.group.as_str().into(),
        desired_status: DesiredStatus::Run,
        client_status: ClientStatus::Running,
        previous_allocation: p
            .previous
            .as_ref()
            .map(|prev| prev.to_string())
            .unwrap_or_default()
            .into(),
        deployment_id: at.deployment_id.unwrap_or("").into(),
        deployment_status: tracked.then_some(AllocDeploymentStatus {
            healthy: None,
            canary,
        }),
        reschedule_tracker: tracker,
        create_index: world.index(),
        modify_time: at.now.unix_nanos_i64(),
        ..Allocation::default()
    };
    placed.set_read_name(&p.name);
    placed
}
