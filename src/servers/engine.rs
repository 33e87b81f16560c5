//! The servers' state over a story: the cluster, the broker's queue, the
//! blocked-evals tracker, the drainer, and what is due when; evaluating one
//! evaluation and the broker's acknowledgement of it.

use crate::model::{Evaluation, Id, Name};
use crate::now::NowRequest;
use crate::replay::{Options, Replay};
use crate::report::JobReport;
use crate::time::{Duration, Time};
use crate::version::Switch;

use super::apply::{self, Applied};
use super::blocked::BlockedEvals;
use super::deployment_watcher::{Watcher, WatcherWrite, Written};
use super::drainer::Drainer;
use super::error::WhatIfError;
use super::eval::{NewEval, Origin, PendingEval};
use super::rules::ServerRules;
use super::story::{Canceled, CanceledBy, EvalFacts};
use super::update_alloc;
use super::world::World;

/// The servers' state over the story.
pub(super) struct Engine {
    pub(super) world: World,
    pub(super) rules: ServerRules,
    pub(super) queue: Vec<PendingEval>,
    pub(super) blocked: BlockedEvals,
    pub(super) drainer: Drainer,
    pub(super) watcher: Watcher,
    pub(super) healthy_after: Option<Duration>,
    /// Allocations whose client reports them healthy at a time.
    pub(super) health_due: Vec<(Time, Vec<String>)>,
    /// Heartbeats due: the time, the node, its `what_if` entry.
    pub(super) heartbeats: Vec<(Time, String, usize)>,
    pub(super) until: Option<Time>,
    pub(super) eval_options: Options,
}

impl Engine {
    /// The next evaluation the broker hands out: without `--until`, only
    /// those the events created directly.
    pub(super) fn next_eval(&self) -> Option<usize> {
        (0..self.queue.len())
            .filter(|&i| self.until.is_some() || self.queue[i].origin == Origin::Event)
            .min_by(|&a, &b| self.queue[a].broker_order(&self.queue[b]))
    }

    /// Hands `p` to the scheduler: the evaluation written to the cluster,
    /// and the options that replay it at its time.
    pub(super) fn dequeue(&mut self, p: &PendingEval) -> Options {
        let e = &p.eval;
        self.world.snapshot.evals.push(Evaluation {
            id: Id::from(&e.id),
            namespace: Name::from(&e.namespace),
            job_id: Name::from(&e.job_id),
            priority: e.priority,
            eval_type: e.job_type.as_str().into(),
            triggered_by: Name::from(&e.triggered_by),
            status: "pending".into(),
            wait_until: e.wait_until.unwrap_or(Time::ZERO),
            ..Evaluation::default()
        });
        let mut options = self.eval_options.clone();
        options.eval = Some(e.id.clone());
        options.now = Some(NowRequest::At(p.due));
        options
    }

    /// Replays one evaluation on the cluster as it stands, and applies its plan.
    pub(super) fn evaluate(
        &mut self,
        p: &PendingEval,
    ) -> Result<(JobReport, Applied), WhatIfError> {
        let options = self.dequeue(p);
        let e = &p.eval;
        let report = Replay::new(&self.world.snapshot, &options)?.report();
        let job = report
            .jobs
            .into_iter()
            .next()
            .expect("the evaluation's job");
        let applied = apply::apply(&mut self.world, self.rules.release, &e.id, &job, p.due);
        if !applied.health.is_empty() {
            let at = p.due.add(self.healthy_after.unwrap_or(0));
            self.health_due.push((at, applied.health.clone()));
        }
        self.watcher.refresh(&mut self.world);
        Ok((job, applied))
    }

    /// The clients of `ids` report them healthy at `now`; the watcher
    /// reacts to the deployments whose counts moved.
    pub(super) fn report_healthy(&mut self, ids: &[String], now: Time) -> Vec<WatcherWrite> {
        let mut moved: Vec<(String, usize)> = Vec::new();
        for id in ids {
            if let Some(i) = self.world.alloc_index(id)
                && let Some(d) = update_alloc::report_health(&mut self.world, i, true, now)
            {
                moved.push((d, i));
            }
        }
        self.health_changed(moved, now)
    }

    /// The watcher's `handleAllocUpdate` on each deployment of `moved`
    /// (deployment, allocation whose verdict it counted), in order.
    pub(super) fn health_changed(
        &mut self,
        moved: Vec<(String, usize)>,
        now: Time,
    ) -> Vec<WatcherWrite> {
        self.watcher.refresh(&mut self.world);
        let mut deployments: Vec<&String> = moved.iter().map(|(d, _)| d).collect();
        deployments.sort();
        deployments.dedup();
        let mut written = Vec::new();
        for d in deployments {
            let changed: Vec<usize> = moved
                .iter()
                .filter(|(m, _)| m == d)
                .map(|&(_, i)| i)
                .collect();
            let w = self.watcher.health_changed(
                &mut self.world,
                &Id::from(d),
                &changed,
                now,
                &self.rules,
            );
            written.extend(w);
        }
        self.written(written, now)
    }

    /// The watcher's `handleAllocUpdate` on deployment `id` at `now` with
    /// no verdict newer than the job's latest evaluation.
    pub(super) fn watch(&mut self, id: &str, now: Time) -> Vec<WatcherWrite> {
        self.watcher.refresh(&mut self.world);
        let written =
            self.watcher
                .health_changed(&mut self.world, &Id::from(id), &[], now, &self.rules);
        self.written(written, now)
    }

    /// The watcher's timers due at `now`.
    pub(super) fn watcher_step(&mut self, now: Time) -> Vec<WatcherWrite> {
        let deadlines = self.until.is_some();
        let written = self
            .watcher
            .step(&mut self.world, now, deadlines, &self.rules);
        self.written(written, now)
    }

    /// Each watcher write's evaluation to the broker, as a write of its
    /// own; the records the story keeps.
    fn written(&mut self, written: Vec<Written>, now: Time) -> Vec<WatcherWrite> {
        let mut records = Vec::new();
        for w in written {
            let pending = self
                .world
                .enqueue(w.eval.into_iter().collect(), now, Origin::Followup);
            if let Some(mut r) = w.record {
                if let Some(p) = pending.first() {
                    r.eval_id = p.eval.id.clone();
                }
                records.push(r);
            }
            self.queue.extend(pending);
        }
        self.watcher.refresh(&mut self.world);
        self.drainer.touch(now);
        records
    }

    /// The broker's `Ack` of `done` at `now`: from #14621, of the job's
    /// evaluations waiting behind it only the one of highest priority, then
    /// the newest, stays; the others are canceled and returned with the
    /// one kept.
    pub(super) fn ack(
        &mut self,
        done: &PendingEval,
        now: Time,
    ) -> (Vec<PendingEval>, Option<String>) {
        if !self.rules.has(Switch::BrokerCancelsBlocked) {
            return (Vec::new(), None);
        }
        let same_job = |p: &PendingEval| {
            p.eval.namespace == done.eval.namespace
                && p.eval.job_id == done.eval.job_id
                && p.due <= now
        };
        let keep = self
            .queue
            .iter()
            .filter(|p| same_job(p))
            .max_by_key(|p| (p.eval.priority, p.batch, p.within))
            .map(|p| p.eval.id.clone());
        let (gone, kept) = std::mem::take(&mut self.queue)
            .into_iter()
            .partition(|p| same_job(p) && Some(&p.eval.id) != keep.as_ref());
        self.queue = kept;
        (gone, keep)
    }

    /// Hands `blocked` to the tracker; the duplicates it drops are canceled
    /// by the leader at `now`.
    pub(super) fn block(&mut self, blocked: Vec<PendingEval>, now: Time) -> Vec<Canceled> {
        blocked
            .into_iter()
            .filter_map(|b| self.blocked.block(b))
            .map(|d| {
                Canceled::new(
                    now,
                    CanceledBy::BlockedEvals,
                    Some(d.kept_id),
                    EvalFacts::of(&d.canceled),
                )
            })
            .collect()
    }

    pub(super) fn unblock(&mut self, now: Time) {
        let freed: Vec<NewEval> = self.blocked.release();
        if !freed.is_empty() {
            let pending = self.world.enqueue(freed, now, Origin::Unblocked);
            self.queue.extend(pending);
        }
    }
}
