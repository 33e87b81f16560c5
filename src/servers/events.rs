//! Each `--what-if` event, as the servers take it: which endpoint runs and
//! what it writes.

use crate::model::{ClientStatus, eligibility, node_status};
use crate::time::Time;

use super::drainer::Drainer;
use super::eval::NewEval;
use super::event::{DEFAULT_DRAIN_DEADLINE, EventKind, EventSpec};
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
    /// Index into the world's nodes or allocations (the story's
    /// placements included).
    pub target: usize,
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
}

/// The event `r` at its time.
pub fn apply(
    world: &mut World,
    drainer: &mut Drainer,
    r: &Resolved,
    rules: &ServerRules,
) -> Outcome {
    let mut out = Outcome {
        applied: entry(world, &r.spec, r.at, Some(r.target)),
        writes: Vec::new(),
        canceled: Vec::new(),
        marks: Vec::new(),
        frees_capacity: false,
        heartbeat: None,
        health: Vec::new(),
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
    }
    out
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

/// The event as applied, before its effects; `target` as in [`Resolved`],
/// `None` for an allocation not looked up.
fn entry(world: &World, spec: &EventSpec, at: Time, target: Option<usize>) -> AppliedEvent {
    let alloc = spec.kind.targets_alloc();
    AppliedEvent {
        event: spec.kind,
        text: spec.text.clone(),
        node_id: target
            .filter(|_| !alloc)
            .map(|i| world.snapshot.nodes[i].id.clone()),
        alloc_id: target
            .filter(|_| alloc)
            .map(|i| world.alloc(i).id.to_string()),
        at,
        deadline: None,
        node_status: Vec::new(),
        heartbeat: None,
        evaluations: Vec::new(),
        ignored: None,
    }
}

/// An event not applied; `target` as in [`entry`].
pub fn ignored(
    world: &World,
    spec: &EventSpec,
    at: Time,
    target: Option<usize>,
    why: Ignored,
) -> AppliedEvent {
    let mut e = entry(world, spec, at, target);
    e.ignored = Some(why);
    e
}

fn mark(world: &World, i: usize, at: Time, kind: MarkKind) -> Mark {
    let a = world.alloc(i);
    Mark {
        at,
        alloc_id: a.id.to_string(),
        name: a.name.to_string(),
        node_id: a.node_id.to_string(),
        namespace: a.namespace.to_string(),
        job_id: a.job_id.to_string(),
        kind,
    }
}
