//! The story: events applied through the servers in time order, and every
//! evaluation they lead to replayed at its own time in the broker's order,
//! each plan applied before the next evaluation reads the cluster.

use crate::model::{ClientStatus, Id, Snapshot, VersionRequest};
use crate::replay::{Options, Replay};
use crate::time::{Duration, Time};
use crate::version::Switch;
use crate::warning::Warning;

use super::deployment_watcher::Watcher;
use super::drainer::Drainer;
use super::engine::Engine;
use super::error::WhatIfError;
use super::eval::{NewEval, Origin, PendingEval};
use super::event::{EventKind, EventSpec, TargetKind, When};
use super::events::Resolved;
use super::rules::ServerRules;
use super::story::{
    Assumption, Canceled, CanceledBy, DeploymentFacts, EvalFacts, Ignored, Mark, MarkKind, Story,
    TimelineEntry,
};
use super::target::{self, Lookup};
use super::world::World;
use super::{blocked::BlockedEvals, events, health_list, snapshot_evals, update_alloc};

/// What to replay after the snapshot.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `--what-if`, in the order given.
    pub events: Vec<EventSpec>,
    /// `--until`.
    pub until: Option<When>,
    /// `--assume-healthy-after`.
    pub healthy_after: Option<Duration>,
}

/// Replays the story `request` tells on `snapshot`.
pub fn run(
    snapshot: &Snapshot,
    options: &Options,
    request: &Request,
) -> Result<Story, WhatIfError> {
    Ok(tell(snapshot, options, request, None)?.story)
}

/// A story told to its end, or up to an evaluation.
pub(super) struct Told {
    pub story: Story,
    /// The cluster as the story left it.
    pub world: World,
    /// Set when the story stopped: the options that replay the evaluation
    /// it stopped at, which `world` holds, on `world`.
    pub stopped: Option<Options>,
}

/// Tells the story; with `stop`, only until the evaluation of that
/// [`TimelineEntry::seq`] is handed to the scheduler.
pub(super) fn tell(
    snapshot: &Snapshot,
    options: &Options,
    request: &Request,
    stop: Option<usize>,
) -> Result<Told, WhatIfError> {
    let baseline = Replay::new(snapshot, options)?;
    let head = baseline.head();
    let eval_time = head.now;
    let rules = ServerRules::of(head.nomad_version.release);
    let until = match request.until.map(|w| w.resolve(eval_time)) {
        Some(u) if u < eval_time => {
            return Err(WhatIfError::UntilInThePast {
                until: u,
                eval_time,
            });
        }
        u => u,
    };
    // Each event's time and its node or allocation, where found before the
    // story runs; an allocation given by name, or by an ID the snapshot
    // lacks, is looked up when the event happens.
    let mut planned: Vec<(Time, &EventSpec, Vec<Option<usize>>)> = Vec::new();
    for spec in &request.events {
        let at = spec.at.map_or(eval_time, |w| w.resolve(eval_time));
        if at < eval_time {
            return Err(WhatIfError::EventInThePast {
                event: spec.text.clone(),
                at,
                eval_time,
            });
        }
        // A piece of a list of several may be part of a name with a comma
        // ([`health_list`]): a prefix of several snapshot allocations' IDs
        // is left for the event to read.
        let several = spec.health.len() > 1;
        let targets = match spec.kind.target() {
            TargetKind::Alloc => spec
                .alloc_texts()
                .into_iter()
                .map(
                    |text| match target::alloc(&snapshot.allocs, spec, text, Lookup::Snapshot) {
                        Err(_) if several => Ok(None),
                        found => found,
                    },
                )
                .collect::<Result<Vec<_>, _>>()?,
            TargetKind::Node => vec![Some(target::node(&snapshot.nodes, spec)?)],
            TargetKind::Deployment => vec![None],
        };
        planned.push((at, spec, targets));
    }
    // Stable: events at the same instant keep the order given.
    planned.sort_by_key(|p| p.0);
    let eval_options = Options {
        now: None,
        clock: options.clock,
        job: None,
        namespace: None,
        eval: None,
        no_disconnected_clients: options.no_disconnected_clients,
        nomad_version: Some(VersionRequest::Release(rules.release)),
        threads: 1,
    };
    let mut story = Story {
        report: head,
        what_if: Vec::new(),
        timeline: Vec::new(),
        pending: Vec::new(),
        canceled: Vec::new(),
        deployment_watcher: Vec::new(),
        deployments: Vec::new(),
        until,
        assumptions: Vec::new(),
        marks: live_at_start(snapshot, eval_time),
        node_names: snapshot
            .nodes
            .iter()
            .map(|n| (n.id.clone(), n.name.clone()))
            .collect(),
    };
    let mut engine = Engine {
        world: World::new(snapshot.clone()),
        rules,
        queue: Vec::new(),
        blocked: BlockedEvals::default(),
        drainer: Drainer::default(),
        watcher: Watcher::default(),
        healthy_after: request.healthy_after.filter(|&d| d > 0),
        health_due: Vec::new(),
        heartbeats: Vec::new(),
        until,
        eval_options,
    };
    engine.watcher.start(&engine.world, eval_time);
    let awaiting = awaiting_health(&engine.world);
    if !awaiting.is_empty() {
        let at = eval_time.add(engine.healthy_after.unwrap_or(0));
        engine.health_due.push((at, awaiting));
    }
    let snapshot_awaits_health = !engine.health_due.is_empty();
    if until.is_some() {
        let (pending, blocked) = snapshot_evals::intake(snapshot, &story.report.eval_id);
        let pending = engine.world.enqueue(pending, eval_time, Origin::Followup);
        engine.queue.extend(pending);
        let blocked = engine.world.enqueue(blocked, eval_time, Origin::Unblocked);
        let canceled = engine.block(blocked, eval_time);
        story.canceled.extend(canceled);
    }
    let mut next_event = 0;
    let mut replayed = 0;
    loop {
        let event_at = planned.get(next_event).map(|p| p.0);
        let eval_due = engine.next_eval().map(|i| engine.queue[i].due);
        let health_at = engine.health_due.iter().map(|(t, _)| *t).min();
        let drain_at = engine.drainer.next_due();
        // Without --until the watcher's deadlines are not followed.
        let watch_at = engine
            .watcher
            .next_due()
            .filter(|_| until.is_some())
            .or_else(|| engine.watcher.next_batch());
        let heartbeat_at = engine.heartbeats.first().map(|h| h.0);
        // At the same instant: events, health, the drainer, the deployment
        // watcher, evaluations, then the heartbeats that wait for them.
        let next = [
            event_at,
            health_at,
            drain_at,
            watch_at,
            eval_due,
            heartbeat_at,
        ]
        .into_iter()
        .enumerate()
        .filter_map(|(rank, t)| t.map(|t| (t, rank)))
        .min();
        let Some((now, rank)) = next else { break };
        if until.is_some_and(|u| now > u) && rank != 0 {
            break;
        }
        if rank == 0 {
            let (at, spec, found) = &planned[next_event];
            let (at, spec) = (*at, *spec);
            next_event += 1;
            if until.is_some_and(|u| at > u) {
                // Not applied, so an allocation waiting for it is not looked up.
                story.what_if.push(events::ignored(
                    &engine.world,
                    spec,
                    at,
                    found,
                    Ignored::AfterUntil,
                ));
                continue;
            }
            let mut spec = spec.clone();
            let (target, allocs) = match spec.kind.target() {
                TargetKind::Node => (found[0].expect("found before the story"), Vec::new()),
                TargetKind::Deployment => (
                    target::deployment(&engine.world.snapshot.deployments, &spec, at)?,
                    Vec::new(),
                ),
                TargetKind::Alloc if spec.health.len() > 1 => {
                    let (sets, allocs) = health_list::resolve(
                        &engine.world.snapshot.allocs,
                        &spec,
                        snapshot.allocs.len(),
                        at,
                    )?;
                    spec.target = sets[0].alloc.clone();
                    spec.health = sets;
                    (allocs[0], allocs)
                }
                TargetKind::Alloc => {
                    let lookup = Lookup::Story {
                        placed_from: snapshot.allocs.len(),
                        at,
                    };
                    let allocs = spec
                        .alloc_texts()
                        .into_iter()
                        .zip(found)
                        .map(|(text, f)| match f {
                            Some(i) => Ok(*i),
                            None => {
                                target::alloc(&engine.world.snapshot.allocs, &spec, text, lookup)
                                    .map(|i| {
                                        i.expect(
                                            "a lookup in the story finds the allocation or fails",
                                        )
                                    })
                            }
                        })
                        .collect::<Result<Vec<usize>, _>>()?;
                    (allocs[0], allocs)
                }
            };
            let r = &Resolved {
                spec,
                at,
                target,
                allocs,
            };
            let outcome = events::apply(
                &mut engine.world,
                &mut engine.drainer,
                &mut engine.watcher,
                r,
                &engine.rules,
            );
            let written = engine.health_changed(outcome.health.clone(), now);
            story.deployment_watcher.extend(written);
            let mut applied = outcome.applied;
            let (gone, kept): (Vec<PendingEval>, Vec<PendingEval>) =
                std::mem::take(&mut engine.queue)
                    .into_iter()
                    .partition(|p| outcome.canceled.contains(&p.eval.id));
            engine.queue = kept;
            story.canceled.extend(
                gone.iter()
                    .map(|p| Canceled::new(now, CanceledBy::StateStore, None, EvalFacts::of(p))),
            );
            for write in outcome.writes.into_iter().filter(|w| !w.is_empty()) {
                let pending = engine.world.enqueue(write, now, Origin::Event);
                applied
                    .evaluations
                    .extend(pending.iter().map(|p| p.eval.id.clone()));
                engine.queue.extend(pending);
            }
            if let Some(mut w) = outcome.watcher {
                w.eval_id = applied.evaluations.first().cloned().unwrap_or_default();
                story.deployment_watcher.push(w);
            }
            if let Some(id) = outcome.watch {
                let written = engine.watch(&id, now);
                story.deployment_watcher.extend(written);
            }
            story.marks.extend(outcome.marks);
            if outcome.frees_capacity {
                engine.unblock(now);
            }
            engine.drainer.touch(now);
            if let Some(node) = outcome.heartbeat {
                engine.heartbeats.push((now, node, story.what_if.len()));
            }
            story.what_if.push(applied);
        } else if rank == 1 {
            let (due, rest): (Vec<_>, Vec<_>) =
                engine.health_due.drain(..).partition(|(t, _)| *t == now);
            engine.health_due = rest;
            let ids: Vec<String> = due.into_iter().flat_map(|(_, ids)| ids).collect();
            let written = engine.report_healthy(&ids, now);
            story.deployment_watcher.extend(written);
            engine.drainer.touch(now);
        } else if rank == 2 {
            let made = engine.drainer.step(&mut engine.world, now);
            if !made.is_empty() {
                let pending = engine.world.enqueue(made, now, Origin::Event);
                engine.queue.extend(pending);
            }
        } else if rank == 3 {
            let written = engine.watcher_step(now);
            story.deployment_watcher.extend(written);
        } else if rank == 5 {
            let (_, node, entry) = engine.heartbeats.remove(0);
            let change = events::heartbeat(&mut engine.world, &node, &engine.rules);
            let pending = engine
                .world
                .enqueue(change.evals.clone(), now, Origin::Event);
            let applied = &mut story.what_if[entry];
            applied
                .evaluations
                .extend(pending.iter().map(|p| p.eval.id.clone()));
            applied.node_status.push(change);
            engine.queue.extend(pending);
            engine.unblock(now);
            engine.drainer.touch(now);
        } else {
            let i = engine.next_eval().expect("due");
            let pending = engine.queue.remove(i);
            let seq = replayed;
            replayed += 1;
            if stop == Some(seq) {
                let options = engine.dequeue(&pending);
                return Ok(Told {
                    story,
                    world: engine.world,
                    stopped: Some(options),
                });
            }
            let (job, applied) = engine.evaluate(&pending)?;
            story.marks.extend(applied.marks.iter().cloned());
            if !applied.followups.is_empty() {
                let followups = engine
                    .world
                    .enqueue(applied.followups, now, Origin::Followup);
                engine.queue.extend(followups);
            }
            // Written with the plan, so after the follow-ups the scheduler
            // created before submitting it.
            let preemption_evals =
                engine
                    .world
                    .enqueue(applied.preemption_evals, now, Origin::Followup);
            engine.queue.extend(preemption_evals);
            if applied.freed {
                engine.unblock(now);
            }
            // Blocked after the unblock its own plan may cause, so that only a
            // later change of capacity lets it run again. A system evaluation's
            // blocked evaluations per group are tracked in the order made; the
            // tracker keeps one per job, the last, and the leader cancels the
            // others and any the job had blocked before.
            let blocked: Vec<NewEval> = job
                .plan
                .blocked_eval
                .iter()
                .chain(&job.plan.more_blocked_evals)
                .map(|b| NewEval {
                    id: b.id.clone(),
                    triggered_by: b.triggered_by.clone(),
                    node_id: None,
                    wait_until: None,
                    raft_index: None,
                    ..pending.eval.clone()
                })
                .collect();
            let blocked = engine.world.enqueue(blocked, now, Origin::Unblocked);
            let duplicates = engine.block(blocked, now);
            engine.drainer.touch(now);
            let (gone, kept) = engine.ack(&pending, now);
            story.canceled.extend(
                gone.iter().map(|p| {
                    Canceled::new(now, CanceledBy::Broker, kept.clone(), EvalFacts::of(p))
                }),
            );
            story.canceled.extend(duplicates);
            // A complete evaluation with no failed placement cancels the
            // job's blocked evaluation (v1.3.0 nomad/state/state_store.go:3042,
            // v2.0.5 :3522) and the tracker lets it go.
            if job.plan.failed_placements.is_empty()
                && let Some(b) = engine
                    .blocked
                    .untrack(&pending.eval.namespace, &pending.eval.job_id)
            {
                story.canceled.push(Canceled::by_success(
                    now,
                    pending.eval.id.clone(),
                    EvalFacts::of(&b),
                    engine.rules.has(Switch::CanceledNamesSuccess),
                ));
            }
            story.timeline.push(TimelineEntry {
                seq,
                at: now,
                evaluation: EvalFacts::of(&pending),
                job,
                preempted: applied.preempted,
            });
        }
    }
    let mut left: Vec<PendingEval> = std::mem::take(&mut engine.queue);
    left.extend(engine.blocked.into_evals());
    left.sort_by(|a, b| a.broker_order(b));
    story.pending = left.iter().map(EvalFacts::of).collect();
    story.deployments = engine
        .world
        .written_deployments()
        .map(DeploymentFacts::of)
        .collect();
    story.assumptions = Assumption::of(
        engine.healthy_after,
        snapshot_awaits_health,
        request.events.iter().any(|e| e.kind == EventKind::NodeUp),
        request
            .events
            .iter()
            .any(|e| e.kind == EventKind::NodeDrain),
        story.timeline.iter().any(|e| !e.preempted.is_empty()),
    );
    finish(&mut story, baseline, options);
    Ok(Told {
        story,
        world: engine.world,
        stopped: None,
    })
}

/// The report's jobs: each selected job's first evaluation in the story,
/// else its replay without events; the timeline narrowed to the selection.
fn finish(story: &mut Story, baseline: Replay<'_>, options: &Options) {
    let mut report = baseline.report();
    let selected = |ns: &str, id: &str| {
        options.job.as_deref().is_none_or(|j| j == id)
            && options.namespace.as_deref().is_none_or(|n| n == ns)
    };
    story
        .timeline
        .retain(|e| selected(&e.job.namespace, &e.job.id));
    story.pending.retain(|e| selected(&e.namespace, &e.job_id));
    story
        .deployment_watcher
        .retain(|w| selected(&w.namespace, &w.job_id));
    story
        .deployments
        .retain(|d| selected(&d.namespace, &d.job_id));
    for job in &mut report.jobs {
        if let Some(first) = story
            .timeline
            .iter()
            .find(|e| e.job.namespace == job.namespace && e.job.id == job.id)
        {
            *job = first.job.clone();
        }
    }
    let skipped = story
        .what_if
        .iter()
        .filter(|e| e.ignored == Some(Ignored::AfterUntil))
        .count();
    if skipped > 0 {
        report.warnings.push(Warning::new(
            "event_after_until",
            format!("{skipped} --what-if event(s) come after --until and were not applied"),
        ));
        report.warnings.sort();
    }
    story.report = report;
}

/// The snapshot's running allocations of an active deployment that have
/// no health verdict yet and whose client watches their health.
fn awaiting_health(world: &World) -> Vec<String> {
    world
        .snapshot
        .allocs
        .iter()
        .filter(|a| {
            a.client_status == ClientStatus::Running
                && !a.terminal_status()
                && a.deployment_status
                    .as_ref()
                    .is_none_or(|s| s.healthy.is_none())
                && world
                    .deployment(&Id::from(a.deployment_id.as_str()))
                    .is_some_and(|d| d.active())
                && update_alloc::watched(a)
        })
        .map(|a| a.id.to_string())
        .collect()
}

/// Every allocation live at the evaluation time, as the picture starts.
fn live_at_start(snapshot: &Snapshot, at: Time) -> Vec<Mark> {
    let mut marks: Vec<Mark> = snapshot
        .allocs
        .iter()
        .filter(|a| !a.terminal_status())
        .map(|a| Mark {
            at,
            alloc_id: a.id.to_string(),
            name: a.name().to_string(),
            node_id: a.node_id.to_string(),
            namespace: a.namespace.to_string(),
            job_id: a.job_id.to_string(),
            kind: if a.client_status == ClientStatus::Unknown {
                MarkKind::Unknown
            } else {
                MarkKind::Running
            },
        })
        .collect();
    marks.sort_by(|a, b| a.alloc_id.cmp(&b.alloc_id));
    marks
}
