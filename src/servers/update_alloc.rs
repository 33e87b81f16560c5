//! `Node.UpdateAlloc` (nomad/node_endpoint.go, v1.3.0 :1129-1240): a client
//! reports an allocation's status. A failed allocation whose reschedule
//! policy allows another attempt gets an `alloc-failure` evaluation; an
//! allocation the servers hold as `unknown` gets a `reconnect` evaluation
//! (phase 1 of PR #12333); one whose job is gone, a `job-deregister`
//! evaluation and a desired stop. The state store then takes the client's
//! status (`nestedUpdateAllocFromClient`) and, from F-3, cancels the
//! disconnect follow-up of a reconnecting allocation. The client's health
//! verdict on an allocation comes the same way ([`report_health`]), and
//! both move its deployment's counters (`updateDeploymentWithAlloc`).

use crate::model::{
    AllocDeploymentStatus, Allocation, ClientStatus, DesiredStatus, Job, JobType, Name,
    TASK_CLIENT_RECONNECTED, TaskEvent, TaskState, node_status,
};
use crate::time::Time;
use crate::version::Switch;

use super::deployment_state::{self, Before};
use super::eval::{NewEval, trigger};
use super::rules::ServerRules;
use super::world::World;

/// What one allocation update did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllocUpdate {
    /// Refused: from #15808 a down or disconnected node may not update.
    Refused { node_status: String },
    /// Taken; `eval` when one was created, `canceled` the follow-up
    /// evaluation the state store canceled, `deployment` the deployment
    /// whose health counts it moved.
    Taken {
        eval: Option<Box<NewEval>>,
        canceled: Option<String>,
        deployment: Option<String>,
    },
}

/// The client of allocation `i` reports `reported` at `now`.
pub fn report(
    world: &mut World,
    i: usize,
    reported: ClientStatus,
    now: Time,
    rules: &ServerRules,
) -> AllocUpdate {
    let alloc = world.alloc(i).clone();
    if rules.has(Switch::ReconnectThroughInit) {
        let status = world.node(&alloc.node_id).map(|n| n.status.to_string());
        match status.as_deref() {
            Some(s @ (node_status::DOWN | node_status::DISCONNECTED)) => {
                return AllocUpdate::Refused {
                    node_status: s.to_string(),
                };
            }
            None => {
                return AllocUpdate::Refused {
                    node_status: "garbage-collected".to_string(),
                };
            }
            Some(_) => {}
        }
    }
    let terminal = matches!(
        reported,
        ClientStatus::Complete | ClientStatus::Failed | ClientStatus::Lost
    );
    let job: Option<Job> = world
        .snapshot
        .job(&alloc.namespace, &alloc.job_id)
        .map(|j| j.as_ref().clone());
    let mut eval = None;
    let mut deregister = false;
    if terminal || alloc.client_status == ClientStatus::Unknown {
        let mut triggered_by = None;
        let spec = match &job {
            Some(j) => Some(j),
            None => {
                deregister = true;
                triggered_by = Some(trigger::JOB_DEREGISTER);
                alloc.job.as_deref()
            }
        };
        if !deregister && reported == ClientStatus::Failed && alloc.followup_eval_id.is_empty() {
            let group = spec.and_then(|j| j.lookup_task_group(&alloc.task_group));
            if let Some(tg) = group
                && alloc.reschedule_eligible(tg.reschedule_policy.as_ref(), now)
            {
                triggered_by = Some(trigger::RETRY_FAILED_ALLOC);
            }
        }
        if !deregister && alloc.client_status == ClientStatus::Unknown {
            triggered_by = Some(trigger::RECONNECT);
        }
        if let Some(triggered_by) = triggered_by {
            eval = Some(Box::new(NewEval {
                id: String::new(),
                namespace: alloc.namespace.to_string(),
                job_id: alloc.job_id.to_string(),
                job_type: spec.map(|j| j.job_type.clone()).unwrap_or_default(),
                priority: spec.map_or(0, |j| j.priority),
                triggered_by: triggered_by.to_string(),
                node_id: None,
                wait_until: None,
                raft_index: None,
            }));
        }
    }
    let before = Before::of(world.alloc(i));
    let failed = reported == ClientStatus::Failed;
    let canceled = take_client_status(world, i, reported, deregister, now, rules);
    // A task that fails before its allocation is healthy makes the client's
    // health watcher report the allocation unhealthy with it.
    if failed && before.healthy.is_none() && watched(world.alloc(i)) {
        set_health(&mut world.snapshot.allocs[i], false);
    }
    let moved = deployment_state::with_alloc(world, i, Some(&before), now);
    AllocUpdate::Taken {
        eval,
        canceled,
        deployment: moved.then(|| world.alloc(i).deployment_id.to_string()),
    }
}

/// The client of allocation `i` reports its health verdict at `now`, as
/// its health watcher decided it; nothing when the allocation is terminal,
/// has a verdict already, or has no watcher. Returns the deployment whose
/// health counts moved.
pub fn report_health(world: &mut World, i: usize, healthy: bool, now: Time) -> Option<String> {
    let alloc = world.alloc(i);
    let has = alloc
        .deployment_status
        .as_ref()
        .is_some_and(|s| s.healthy.is_some());
    if alloc.terminal_status() || has || !watched(alloc) {
        return None;
    }
    let before = Before::of(alloc);
    let alloc = &mut world.snapshot.allocs[i];
    set_health(alloc, healthy);
    alloc.modify_time = now.unix_nanos_i64();
    deployment_state::with_alloc(world, i, Some(&before), now)
        .then(|| world.alloc(i).deployment_id.to_string())
}

fn set_health(alloc: &mut Allocation, healthy: bool) {
    alloc
        .deployment_status
        .get_or_insert_with(AllocDeploymentStatus::default)
        .healthy = Some(healthy);
}

/// Whether the client watches the allocation's health (v1.3.0
/// client/allocrunner/health_hook.go:75, :116-121): a service allocation,
/// from #26605 (1.11.0) a system one too, which only a deployment can
/// hold before; in a deployment only with an update block whose health
/// check is not `manual`.
pub fn watched(alloc: &Allocation) -> bool {
    let Some(job) = alloc.job.as_deref() else {
        return false;
    };
    let deploy = !alloc.deployment_id.is_empty();
    let kind = job.job_type == JobType::Service || (deploy && job.job_type == JobType::System);
    if !kind {
        return false;
    }
    !deploy
        || job
            .lookup_task_group(&alloc.task_group)
            .and_then(|tg| tg.update_strategy())
            .is_some_and(|u| u.health_check != "manual")
}

/// `nestedUpdateAllocFromClient`: the client's status and task states; the
/// F-3 follow-up cancellation. Returns the canceled evaluation's ID.
fn take_client_status(
    world: &mut World,
    i: usize,
    reported: ClientStatus,
    deregister: bool,
    now: Time,
    rules: &ServerRules,
) -> Option<String> {
    let reconnecting = world.alloc(i).needs_to_reconnect()
        && matches!(
            reported,
            ClientStatus::Running | ClientStatus::Complete | ClientStatus::Failed
        );
    let followup = world.alloc(i).followup_eval_id.to_string();
    let task_names: Vec<String> = world
        .alloc(i)
        .own_task_group()
        .map(|tg| tg.tasks.iter().map(|t| t.name.clone()).collect())
        .unwrap_or_default();
    let alloc = &mut world.snapshot.allocs[i];
    let was_unknown = alloc.client_status == ClientStatus::Unknown;
    alloc.client_status = reported.clone();
    alloc.modify_time = now.unix_nanos_i64();
    if deregister {
        alloc.desired_status = DesiredStatus::Stop;
    }
    for task in task_names {
        if alloc.task_states.get(&task).is_none() {
            alloc
                .task_states
                .insert(Name::from(task.as_str()), TaskState::default());
        }
    }
    let names: Vec<String> = alloc
        .task_states
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    for name in names {
        let state = alloc.task_states.get_mut(&name).expect("listed");
        match reported {
            ClientStatus::Failed => {
                state.state = "dead".into();
                state.failed = true;
                state.finished_at = now;
            }
            ClientStatus::Running if was_unknown => {
                state.events.push(TaskEvent {
                    event_type: TASK_CLIENT_RECONNECTED.into(),
                    time: now.unix_nanos_i64(),
                });
                state.state = "running".into();
            }
            _ => {}
        }
    }
    if !(rules.has(Switch::ReconnectCancelsFollowup) && reconnecting && !followup.is_empty()) {
        return None;
    }
    world.snapshot.allocs[i].followup_eval_id = Default::default();
    let (ns, job) = {
        let a = world.alloc(i);
        (a.namespace.clone(), a.job_id.clone())
    };
    let shared = world.snapshot.allocs.iter().enumerate().any(|(j, a)| {
        j != i
            && a.namespace == ns
            && a.job_id == job
            && a.followup_eval_id == followup.as_str()
            && !a.terminal_status()
    });
    (!shared).then_some(followup)
}
