//! The allocations a plan preempts, as the plan applier writes them: each
//! victim desired `evict`, with `PreemptedByAllocation` and Nomad's
//! description (v1.3.0 nomad/plan_apply.go:240-246 and :324-330; the
//! state store's `DenormalizeAllocationDiffSlice`, v1.3.0
//! nomad/state/state_store.go:6562-6565, v2.0.5 :7461-7464), and one
//! `preemption` evaluation per job of a victim that still exists, at its
//! job's priority (v1.3.0 plan_apply.go:284-302, v2.0.5 :355-382), written
//! with the plan and handed to the broker (v1.3.0 nomad/fsm.go:1017,
//! v2.0.5 :1155). The same at every release. The client then kills the
//! tasks and reports the allocation `complete` (v1.3.0
//! client/allocrunner/alloc_runner.go:876 and :760), at once in the replay,
//! as for stops; that report lets the blocked evaluations go.

use std::collections::BTreeSet;

use crate::model::{ClientStatus, DesiredStatus};
use crate::report::PlanPreemption;
use crate::time::Time;

use super::eval::{NewEval, eval_id, trigger};
use super::story::{Mark, MarkKind, Preempted};
use super::world::World;

/// A placement the plan applier wrote: its name, node and allocation.
pub struct Placed {
    pub name: String,
    pub node: String,
    pub alloc_id: String,
}

/// What evicting a plan's victims wrote.
#[derive(Default)]
pub struct Evicted {
    pub preempted: Vec<Preempted>,
    /// The `preemption` evaluations, by namespace and job ID (Nomad walks
    /// a map, in no fixed order).
    pub evals: Vec<NewEval>,
    pub marks: Vec<Mark>,
    /// A victim was live: its client's report frees capacity.
    pub freed: bool,
}

/// Evicts `victims` of the plan of evaluation `plan_eval` at `now`; each
/// names the placement it makes room for, which is on the victim's node.
pub fn evict(
    world: &mut World,
    plan_eval: &str,
    victims: &[PlanPreemption],
    placed: &[Placed],
    now: Time,
) -> Evicted {
    let mut out = Evicted::default();
    let mut jobs = BTreeSet::new();
    for v in victims {
        let Some(i) = world.alloc_index(&v.alloc_id.to_string()) else {
            continue;
        };
        let by = placed
            .iter()
            .find(|p| p.name == v.preempted_by && p.node == v.node_id)
            .map(|p| p.alloc_id.clone())
            .unwrap_or_default();
        let description = format!("Preempted by alloc ID {by}");
        let alloc = &mut world.snapshot.allocs[i];
        out.freed |= !alloc.terminal_status();
        alloc.desired_status = DesiredStatus::Evict;
        alloc.desired_description = description.as_str().into();
        alloc.client_status = ClientStatus::Complete;
        alloc.modify_time = now.unix_nanos_i64();
        let alloc = world.alloc(i);
        out.marks.push(Mark {
            at: now,
            alloc_id: alloc.id.to_string(),
            name: alloc.name().to_string(),
            node_id: alloc.node_id.to_string(),
            namespace: alloc.namespace.to_string(),
            job_id: alloc.job_id.to_string(),
            kind: MarkKind::Preempted,
        });
        jobs.insert((v.namespace.clone(), v.job_id.clone()));
        out.preempted.push(Preempted {
            alloc_id: v.alloc_id.to_string(),
            name: v.name.clone(),
            node_id: v.node_id.clone(),
            namespace: v.namespace.clone(),
            job_id: v.job_id.clone(),
            preempted_by_alloc_id: by,
            desired_status: DesiredStatus::Evict,
            desired_description: description,
            client_status: ClientStatus::Complete,
            eval_id: None,
        });
    }
    for (namespace, job_id) in jobs {
        let Some(job) = world.snapshot.job(&namespace, &job_id) else {
            continue;
        };
        let id = eval_id(now, trigger::PREEMPTION, &namespace, &job_id, plan_eval);
        for p in &mut out.preempted {
            if p.namespace == namespace && p.job_id == job_id {
                p.eval_id = Some(id.clone());
            }
        }
        out.evals.push(NewEval {
            id,
            namespace,
            job_id,
            job_type: job.job_type.clone(),
            priority: job.priority,
            triggered_by: trigger::PREEMPTION.to_string(),
            node_id: None,
            wait_until: None,
            raft_index: None,
        });
    }
    out
}
