//! `alloc-healthy`, `alloc-unhealthy`, `alloc-health`: the operator sets
//! allocations' health by hand (`Deployment.SetAllocHealth`, what a group
//! with `health_check = "manual"` waits for), several in one request if
//! need be. The request names the first allocation's deployment, or when
//! it has none its job's latest one; here are the refusals of the endpoint (v1.3.0
//! nomad/deployment_endpoint.go:343-385, v2.0.5 :405-455) and of the state
//! store (`UpdateDeploymentAllocHealth`, v1.3.0
//! nomad/state/state_store.go:4462-4555, v2.0.5 :5137-5230), before
//! anything is written.

use crate::model::Id;

use super::target;
use super::world::World;

/// The deployment the request names: the allocation's, else its job's
/// latest (the one an operator watching the job would name); none when
/// the job has no deployment either.
pub fn named(world: &World, i: usize) -> Option<Id> {
    let alloc = world.alloc(i);
    if !alloc.deployment_id.is_empty() {
        return Some(Id::from(alloc.deployment_id.as_str()));
    }
    let all = &world.snapshot.deployments;
    target::job_latest(all, &alloc.namespace, &alloc.job_id).map(|d| all[d].id.clone())
}

/// Nomad's error when it refuses to set the health of `sets` (allocation,
/// healthy), in the request's order, in deployment `named`: gone
/// (`deployment not found`), terminal, or not the deployment of an
/// allocation, the first such in the order the state store writes them
/// (every healthy one, then every unhealthy one). The state store's
/// transaction is dropped whole on that error, so nothing is written.
pub fn check(world: &World, sets: &[(usize, bool)], named: &Id) -> Result<(), String> {
    let d = world
        .deployment(named)
        .ok_or_else(|| "deployment not found".to_string())?;
    if !d.active() {
        return Err("can't set health of allocations for a terminal deployment".to_string());
    }
    let in_order = sets
        .iter()
        .filter(|s| s.1)
        .chain(sets.iter().filter(|s| !s.1));
    for &(i, _) in in_order {
        let alloc = world.alloc(i);
        if d.id != alloc.deployment_id.as_str() {
            return Err(format!(
                "alloc {:?} is not part of deployment {:?}",
                alloc.id.to_string(),
                d.id.to_string()
            ));
        }
    }
    Ok(())
}
