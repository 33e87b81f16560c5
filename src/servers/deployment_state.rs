//! The state store's writes of a deployment (nomad/state/state_store.go):
//! the per-group counters an allocation write moves
//! (`updateDeploymentWithAlloc`), a status update and the job's stability
//! with it (`updateDeploymentStatusImpl`), a promotion
//! (`UpdateDeploymentPromotion`) and an allocation's health set by hand
//! (`UpdateDeploymentAllocHealth`). The same at every release replayed but
//! for what only a paused deployment sees (#27804, 2.0.1).

use std::sync::Arc;

use crate::model::{Allocation, Deployment, Id, deployment_status as ds};
use crate::time::Time;

use super::world::World;

/// What the state store held of an allocation before a write: its
/// deployment and health verdict.
#[derive(Clone, Debug, Default)]
pub struct Before {
    pub deployment_id: String,
    pub healthy: Option<bool>,
}

impl Before {
    pub fn of(alloc: &Allocation) -> Before {
        Before {
            deployment_id: alloc.deployment_id.to_string(),
            healthy: alloc.health(),
        }
    }
}

/// `updateDeploymentWithAlloc` (v1.3.0 state_store.go:5115-5205, v2.0.5
/// :5945-6040, the same rule): allocation `i`, written at `now` over
/// `before` (none for a placement), counts as placed in its deployment
/// group when it is new there, and as healthy or unhealthy when its
/// verdict first appears; a healthy one set unhealthy (by hand: a client
/// gives its verdict once) moves from healthy to unhealthy. A canary
/// joins the placed canaries. A group with a progress deadline starts it
/// at its first placement and pushes it on with each change of the
/// healthy count (Nomad's test is `healthy != 0`, so a healthy allocation
/// set unhealthy pushes it too). Returns whether a health count moved.
pub fn with_alloc(world: &mut World, i: usize, before: Option<&Before>, now: Time) -> bool {
    let alloc = world.alloc(i);
    if alloc.deployment_id.is_empty() {
        return false;
    }
    let healthy_now = alloc.health();
    let canary = alloc.is_canary();
    let (id, group, alloc_id) = (
        Id::from(alloc.deployment_id.as_str()),
        alloc.task_group.clone(),
        alloc.id.clone(),
    );
    let modified = Time::from_unix_nanos(i128::from(alloc.modify_time));
    let (mut placed, mut healthy, mut unhealthy) = (0, 0, 0);
    match before {
        Some(b) if id == b.deployment_id => match (b.healthy, healthy_now) {
            (None, Some(true)) => healthy = 1,
            (None, Some(false)) => unhealthy = 1,
            (Some(true), Some(false)) => (healthy, unhealthy) = (-1, 1),
            _ => {}
        },
        _ => placed = 1,
    }
    if placed == 0 && healthy == 0 && unhealthy == 0 {
        return false;
    }
    let in_group = world
        .deployment(&id)
        .is_some_and(|d| d.task_groups.contains_key(&group));
    if !in_group {
        return false;
    }
    let d = world.deployment_mut(&id).expect("found above");
    let state = d.task_groups.get_mut(&group).expect("found above");
    state.placed_allocs += placed;
    state.healthy_allocs += healthy;
    state.unhealthy_allocs += unhealthy;
    if canary && !state.placed_canaries.contains(&alloc_id) {
        state.placed_canaries.push(alloc_id);
    }
    let deadline = state.progress_deadline;
    if deadline != 0 {
        if placed != 0 && state.require_progress_by.is_zero() {
            state.require_progress_by = modified.add(deadline);
        } else if healthy != 0 {
            // The verdict's timestamp is the time the client reported it.
            let by = now.add(deadline);
            if by > state.require_progress_by {
                state.require_progress_by = by;
            }
        }
    }
    healthy != 0 || unhealthy != 0
}

/// `UpdateDeploymentAllocHealth`'s allocation write (v1.3.0
/// state_store.go:4479-4523, v2.0.5 :5154-5199): allocation `i`'s health
/// set at `now`, whatever it was, and its deployment's counters moved.
pub fn set_alloc_health(world: &mut World, i: usize, healthy: bool, now: Time) -> bool {
    let before = Before::of(world.alloc(i));
    world.snapshot.allocs[i]
        .deployment_status
        .get_or_insert_with(Default::default)
        .healthy = Some(healthy);
    with_alloc(world, i, Some(&before), now)
}

/// `updateDeploymentStatusImpl` (v1.3.0 state_store.go:4240-4276): the
/// status of an active deployment; a successful one makes its job version
/// stable (`updateJobStabilityImpl`). Returns whether it was written.
pub fn set_status(world: &mut World, id: &Id, status: &str, description: &str) -> bool {
    let Some(d) = world.deployment_mut(id).filter(|d| d.active()) else {
        return false;
    };
    d.status = status.into();
    d.status_description = description.into();
    if status == ds::SUCCESSFUL {
        let (ns, job, version) = (d.namespace.clone(), d.job_id.clone(), d.job_version);
        mark_stable(world, &ns, &job, version);
    }
    true
}

/// `updateJobStabilityImpl`: the job version is stable.
fn mark_stable(world: &mut World, namespace: &str, job_id: &str, version: u64) {
    let is = |j: &Arc<crate::model::Job>| {
        j.namespace == namespace && j.id == job_id && j.version == version && !j.stable
    };
    let snapshot = &mut world.snapshot;
    for j in snapshot
        .jobs
        .iter_mut()
        .chain(snapshot.job_versions.iter_mut())
    {
        if is(j) {
            Arc::make_mut(j).stable = true;
        }
    }
}

/// `UpdateDeploymentPromotion` (v1.3.0 state_store.go:4316-4458, v2.0.5
/// :4988-5133, the same rule) of `groups`, every group when `None` (`All`):
/// the groups named are promoted once each of them that wants canaries has
/// them healthy; their progress deadline restarts at `now`; a running
/// deployment that needs no more promotion is described running; their
/// healthy canaries lose the canary flag. A group named that the deployment
/// does not have is passed over, as Nomad checks and promotes only the
/// deployment's groups named, and a deployment without canaries is promoted
/// too. Otherwise Nomad's errors, one per group short of healthy canaries
/// (go-multierror gathers them in Go's map order, which varies; here by
/// group name).
pub fn promote(
    world: &mut World,
    id: &Id,
    groups: Option<&[String]>,
    now: Time,
) -> Result<(), Vec<String>> {
    let named = |group: &str| groups.is_none_or(|g| g.iter().any(|n| n == group));
    let Some(d) = world.deployment(id) else {
        return Err(vec![format!(
            "Deployment ID {:?} couldn't be updated as it does not exist",
            id.to_string()
        )]);
    };
    if !d.active() {
        return Err(vec![format!(
            "Deployment {:?} has terminal status {:?}:",
            d.id.to_string(),
            d.status.as_str()
        )]);
    }
    let canaries: Vec<&Id> = d
        .task_groups
        .values()
        .flat_map(|s| &s.placed_canaries)
        .collect();
    let mut promotable = Vec::new();
    let mut healthy_by_group: std::collections::BTreeMap<&str, i64> = Default::default();
    for &i in world.in_deployment(id) {
        let a = world.alloc(i);
        if !canaries.iter().any(|c| a.id == **c) || !named(&a.task_group) {
            continue;
        }
        let healthy = a.is_healthy();
        if a.terminal_status() || !healthy {
            continue;
        }
        *healthy_by_group.entry(&a.task_group).or_default() += 1;
        promotable.push(i);
    }
    let short: Vec<String> = d
        .task_groups
        .iter()
        .filter(|(group, _)| named(group))
        .filter_map(|(group, s)| {
            let have = healthy_by_group.get(group.as_str()).copied().unwrap_or(0);
            (s.desired_canaries != 0 && have < s.desired_canaries).then(|| {
                format!(
                    "Task group {group:?} has {have}/{} healthy allocations",
                    s.desired_canaries
                )
            })
        })
        .collect();
    if !short.is_empty() {
        return Err(short);
    }
    let d = world.deployment_mut(id).expect("found above");
    for (_, state) in d.task_groups.iter_mut().filter(|(g, _)| named(g)) {
        if state.progress_deadline > 0 && !state.require_progress_by.is_zero() {
            state.require_progress_by = now.add(state.progress_deadline);
        }
        state.promoted = true;
    }
    if !d.requires_promotion() && d.status == ds::RUNNING {
        d.status_description = ds::DESC_RUNNING.into();
    }
    for i in promotable {
        if let Some(s) = &mut world.snapshot.allocs[i].deployment_status {
            s.canary = false;
        }
    }
    Ok(())
}

/// `PauseDeployment`'s status update: `paused` (`Deployment is paused`) or
/// running again (`Deployment is running`). From #27804 (2.0.1,
/// `restarts`) the state store restarts the progress deadline of each
/// group that has one at `now` (v2.0.5 state_store.go:4819-4831).
pub fn pause(world: &mut World, id: &Id, paused: bool, now: Time, restarts: bool) -> bool {
    let (status, description) = if paused {
        (ds::PAUSED, ds::DESC_PAUSED)
    } else {
        (ds::RUNNING, ds::DESC_RUNNING)
    };
    if !set_status(world, id, status, description) {
        return false;
    }
    if restarts {
        let d = world.deployment_mut(id).expect("written above");
        for state in d.task_groups.values_mut() {
            if state.progress_deadline != 0 {
                state.require_progress_by = now.add(state.progress_deadline);
            }
        }
    }
    true
}

/// A deployment the plan applier creates.
pub fn create(world: &mut World, d: Deployment) {
    let id = d.id.clone();
    world.snapshot.deployments.push(d);
    world.deployment_mut(&id);
}
