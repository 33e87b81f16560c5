//! Each `--what-if` event, as the servers take it: which endpoint runs and
//! what it writes.

use crate::model::{ClientStatus, eligibility, node_status};
use crate::time::Time;

use super::alloc_health;
use super::deployment_watcher::{Watcher, WatcherAction, WatcherWrite};
use super::drainer::Drainer;
use super::eval::NewEval;
use super::event::{DEFAULT_DRAIN_DEADLINE, EventKind, EventSpec, TargetKind};
use super::heartbeat;
use super::node_status as status;
use super::rules::ServerRules;
use super::story::{AppliedEvent, Ignored, Mark, MarkKind};
use super::update_alloc::{self, AllocUpdate};
use super::world::World;

/// An event with its node or allocation found and its time fixed.
pub struct Resolved {
    pub spec: EventSpec,
    pub at: Time,
    /// Index into the world's nodes, allocations or deployments (the
    /// story's included); an `alloc-*` event's first allocation.
    pub target: usize,
    /// An `alloc-*` event's allocations, as [`EventSpec::alloc_texts`]
    /// names them; empty for other events.
    pub allocs: Vec<usize>,
}

/// What an event did.
pub struct Outcome {
    pub applied: AppliedEvent,
    /// The evaluations of each server write, in order.
    pub writes: Vec<Vec<NewEval>>,
    /// Follow-up evaluations the state store canceled.
    pub canceled: Vec<String>,
    pub marks: Vec<Mark>,
    /// A node became ready or eligible, or an allocation terminal.
    pub frees_capacity: bool,
    /// From #15808, the node whose next heartbeat makes it ready, once the
    /// evaluations of this instant have run.
    pub heartbeat: Option<String>,
    /// The deployments whose health counts an allocation update moved,
    /// with the allocation.
    pub health: Vec<(String, usize)>,
    /// An operator's deployment write, its evaluation (if any) the one
    /// write of `writes`.
    pub watcher: Option<WatcherWrite>,
    /// The deployment whose allocations the watcher looks at once the
    /// event's write is in (`handleAllocUpdate` after a health set by
    /// hand).
    pub watch: Option<String>,
}

/// The event `r` at its time.
pub fn apply(
    world: &mut World,
    drainer: &mut Drainer,
    watcher: &mut Watcher,
    r: &Resolved,
    rules: &ServerRules,
) -> Outcome {
    let mut out = Outcome {
        applied: entry(world, &r.spec, r.at, &found(r)),
        writes: Vec::new(),
        canceled: Vec::new(),
        marks: Vec::new(),
        frees_capacity: false,
        heartbeat: None,
        health: Vec::new(),
        watcher: None,
        watch: None,
    };
    let now = r.at;
    match r.spec.kind {
        EventKind::NodeDown => {
            let id = world.snapshot.nodes[r.target].id.clone();
            if world.snapshot.nodes[r.target].status == node_status::DOWN {
                out.applied.ignored = Some(Ignored::AlreadyDown);
                return out;
            }
            let missed = heartbeat::invalidate(world, &id, now, rules);
            let change = status::update(world, &id, missed.status(), false, rules);
            out.applied.heartbeat = Some(missed);
            out.writes.push(change.evals.clone());
            out.applied.node_status.push(change);
        }
        EventKind::NodeUp => node_up(world, r, rules, &mut out),
        EventKind::NodeIneligible => {
            let node = &mut world.snapshot.nodes[r.target];
            node.scheduling_eligibility = eligibility::INELIGIBLE.into();
        }
        EventKind::NodeDrain => {
            let id = world.snapshot.nodes[r.target].id.clone();
            let deadline = r.spec.deadline.unwrap_or(DEFAULT_DRAIN_DEADLINE);
            out.applied.deadline = Some(drainer.start(world, &id, now, deadline));
        }
        EventKind::AllocFail => {
            match update_alloc::report(world, r.target, ClientStatus::Failed, now, rules) {
                AllocUpdate::Refused { node_status } => {
                    out.applied.ignored = Some(Ignored::UpdateRefused { node_status });
                }
                AllocUpdate::Taken {
                    eval,
                    canceled,
                    deployment,
                } => {
                    out.writes.push(eval.into_iter().map(|e| *e).collect());
                    out.canceled.extend(canceled);
                    out.health.extend(deployment.map(|d| (d, r.target)));
                    out.marks.push(mark(world, r.target, now, MarkKind::Failed));
                    out.frees_capacity = true;
                }
            }
        }
        EventKind::AllocHealthy | EventKind::AllocUnhealthy | EventKind::AllocHealth => {
            set_health(world, watcher, r, &mut out);
        }
        EventKind::DeploymentPromote
        | EventKind::DeploymentFail
        | EventKind::DeploymentPause
        | EventKind::DeploymentResume
        | EventKind::DeploymentUnblock => operate(world, watcher, r, rules, &mut out),
    }
    out
}

/// An operator's request on a deployment, as the deployment endpoint
/// (`Deployment.Promote`, `.Fail`, `.Pause`, `.Unblock`: refused for a
/// terminal deployment, v1.3.0 nomad/deployment_endpoint.go:119, :161,
/// :207, :291, v2.0.5 :141, :191, :245, :345) hands it to the deployment
/// watcher. Unblocking is a step of multiregion deployments, which only
/// Nomad Enterprise runs: CE's watcher takes it and returns at once
/// (`UnblockDeployment`, v1.3.0 nomad/deploymentwatcher/multiregion_oss.go:25,
/// v2.0.5 multiregion_ce.go:27), so nothing is written.
fn operate(
    world: &mut World,
    watcher: &mut Watcher,
    r: &Resolved,
    rules: &ServerRules,
    out: &mut Outcome,
) {
    let d = world.snapshot.deployments[r.target].clone();
    let kind = r.spec.kind;
    if !d.active() {
        let error = match kind {
            EventKind::DeploymentPromote => "can't promote terminal deployment",
            EventKind::DeploymentFail => "can't fail terminal deployment",
            EventKind::DeploymentPause => "can't pause terminal deployment",
            EventKind::DeploymentUnblock => "can't unblock terminal deployment",
            _ => "can't resume terminal deployment",
        };
        out.applied.ignored = Some(Ignored::Refused {
            errors: vec![error.to_string()],
        });
        return;
    }
    let written = match kind {
        EventKind::DeploymentPromote => {
            let groups = (!r.spec.groups.is_empty()).then_some(r.spec.groups.as_slice());
            match watcher.promote(
                world,
                &d.id,
                groups,
                r.at,
                WatcherAction::PromotedByOperator,
            ) {
                Ok(w) => w,
                Err(errors) => {
                    out.applied.ignored = Some(Ignored::Refused { errors });
                    return;
                }
            }
        }
        EventKind::DeploymentFail => {
            let revert = d.task_groups.values().any(|s| s.auto_revert);
            watcher.fail(world, &d, WatcherAction::FailedByOperator, revert, r.at)
        }
        EventKind::DeploymentUnblock => {
            out.applied.ignored = Some(Ignored::EnterpriseOnly);
            return;
        }
        _ => watcher.pause(world, &d, kind == EventKind::DeploymentPause, r.at, rules),
    };
    out.writes.push(written.eval.into_iter().collect());
    out.watcher = written.record;
}

/// `alloc-healthy`, `alloc-unhealthy`, `alloc-health`: one
/// `Deployment.SetAllocHealth` request with every allocation named, on the
/// deployment [`alloc_health::named`] finds for the first, refused as
/// Nomad refuses it; the watcher's one write, then (nothing set unhealthy:
/// the deployment still active) its look at the deployment's allocations.
/// The evaluation is written with the health, so the watcher's look
/// creates no batched one for it (`handleAllocUpdate` wants a verdict
/// newer than the job's latest evaluation).
fn set_health(world: &mut World, watcher: &mut Watcher, r: &Resolved, out: &mut Outcome) {
    let refuse = |out: &mut Outcome, error: String| {
        out.applied.ignored = Some(Ignored::Refused {
            errors: vec![error],
        });
    };
    let Some(id) = alloc_health::named(world, r.target) else {
        refuse(out, "missing deployment ID".to_string());
        return;
    };
    out.applied.deployment_id = Some(id.to_string());
    let sets: Vec<(usize, bool)> = r
        .allocs
        .iter()
        .zip(&r.spec.health)
        .map(|(&i, h)| (i, h.healthy))
        .collect();
    if let Err(error) = alloc_health::check(world, &sets, &id) {
        refuse(out, error);
        return;
    }
    let d = world.deployment(&id).expect("checked").clone();
    let written = watcher.set_alloc_health(world, &d, &sets, r.at);
    out.writes.push(written.eval.into_iter().collect());
    out.watcher = written.record;
    if sets.iter().all(|&(_, healthy)| healthy) {
        out.watch = Some(id.to_string());
    }
}

/// `node-up`: the client's status update to `ready` (through
/// `initializing` from #15808) and its allocation updates; from #15808 its next
/// heartbeat ([`heartbeat`]) makes it `ready`.
fn node_up(world: &mut World, r: &Resolved, rules: &ServerRules, out: &mut Outcome) {
    let now = r.at;
    let id = world.snapshot.nodes[r.target].id.clone();
    if world.snapshot.nodes[r.target].status == node_status::READY {
        out.applied.ignored = Some(Ignored::AlreadyReady);
        return;
    }
    let first = status::update(world, &id, node_status::READY, false, rules);
    out.writes.push(first.evals.clone());
    out.applied.node_status.push(first);
    let mut reconnects = Vec::new();
    for i in world.allocs_on(&id) {
        if world.alloc(i).client_status != ClientStatus::Unknown {
            continue;
        }
        if let AllocUpdate::Taken { eval, canceled, .. } =
            update_alloc::report(world, i, ClientStatus::Running, now, rules)
        {
            reconnects.extend(eval.map(|e| *e));
            out.canceled.extend(canceled);
            out.marks.push(mark(world, i, now, MarkKind::Reconnected));
        }
    }
    out.writes.push(reconnects);
    if world.snapshot.nodes[r.target].status == node_status::INIT {
        out.heartbeat = Some(id);
    }
    out.frees_capacity = world.snapshot.nodes[r.target].status == node_status::READY;
}

/// The heartbeat of a node initializing after `node-up`, its allocations
/// updated: `ready`, with node-update evaluations.
pub fn heartbeat(world: &mut World, node_id: &str, rules: &ServerRules) -> status::StatusChange {
    status::update(world, node_id, node_status::READY, true, rules)
}

/// What `r` names, as [`entry`] takes it.
fn found(r: &Resolved) -> Vec<Option<usize>> {
    if r.allocs.is_empty() {
        vec![Some(r.target)]
    } else {
        r.allocs.iter().copied().map(Some).collect()
    }
}

/// The event as applied, before its effects; `targets` the node,
/// deployment or allocations (as [`EventSpec::alloc_texts`] names them)
/// an index into the world's, `None` where not looked up.
fn entry(world: &World, spec: &EventSpec, at: Time, targets: &[Option<usize>]) -> AppliedEvent {
    let first = targets.first().copied().flatten();
    let of = |kind: TargetKind| first.filter(|_| spec.kind.target() == kind);
    let mut e = AppliedEvent {
        event: spec.kind,
        text: spec.text.clone(),
        node_id: of(TargetKind::Node).map(|i| world.snapshot.nodes[i].id.clone()),
        alloc_id: of(TargetKind::Alloc)
            .filter(|_| targets.len() == 1)
            .map(|i| world.alloc(i).id.to_string()),
        healthy_alloc_ids: Vec::new(),
        unhealthy_alloc_ids: Vec::new(),
        deployment_id: of(TargetKind::Deployment)
            .map(|i| world.snapshot.deployments[i].id.to_string()),
        at,
        deadline: None,
        node_status: Vec::new(),
        heartbeat: None,
        evaluations: Vec::new(),
        ignored: None,
    };
    let lists = spec.kind == EventKind::AllocHealth || spec.health.len() > 1;
    let all: Option<Vec<usize>> = targets.iter().copied().collect();
    if let Some(all) = all.filter(|_| lists) {
        for (&i, h) in all.iter().zip(&spec.health) {
            let id = world.alloc(i).id.to_string();
            if h.healthy {
                e.healthy_alloc_ids.push(id);
            } else {
                e.unhealthy_alloc_ids.push(id);
            }
        }
    }
    e
}

/// An event not applied; `targets` as in [`entry`].
pub fn ignored(
    world: &World,
    spec: &EventSpec,
    at: Time,
    targets: &[Option<usize>],
    why: Ignored,
) -> AppliedEvent {
    let mut e = entry(world, spec, at, targets);
    e.ignored = Some(why);
    e
}

fn mark(world: &World, i: usize, at: Time, kind: MarkKind) -> Mark {
    let a = world.alloc(i);
    Mark {
        at,
        alloc_id: a.id.to_string(),
        name: a.name().to_string(),
        node_id: a.node_id.to_string(),
        namespace: a.namespace.to_string(),
        job_id: a.job_id.to_string(),
        kind,
    }
}
