//! nomad/deploymentwatcher/: the leader's watcher of each active
//! deployment. When its allocations' health changes it creates a
//! `deployment-watcher` evaluation a second later (`createBatchedUpdate`,
//! `perJobEvalBatchPeriod`) so the scheduler places the next batch, lets
//! unhealthy allocations of a progress-based group be replaced
//! (`DesiredTransition.Reschedule`), promotes canaries when every
//! canarying group auto-promotes and has them healthy
//! (`autoPromoteDeployment`), and fails the deployment on an unhealthy
//! allocation or at its progress deadline (`shouldFail`), rolling the job
//! back to its latest stable version where the group auto-reverts. An
//! operator's promotion, failure, pause, resume and health set by hand
//! (`PromoteDeployment`, `FailDeployment`, `PauseDeployment`,
//! `SetAllocHealth`) go through the same writes. Rows
//! #14001, #17341 and #27804 of the catalogue are its release differences.
//! A deployment is marked successful by the scheduler's reconciler, in the
//! plan of the evaluation that finds it complete.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{Deployment, Id, Job, deployment_status as ds};
use crate::time::{SECOND, Time};
use crate::version::Switch;

use super::deployment_state;
use super::eval::{NewEval, trigger};
use super::rollback;
use super::rules::ServerRules;
use super::world::World;

/// `perJobEvalBatchPeriod`: how long the watcher gathers health changes
/// before it creates the evaluation.
const BATCH_PERIOD: i64 = SECOND;

/// What the watcher wrote besides a batched evaluation, for the story.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WatcherWrite {
    pub at: Time,
    pub deployment_id: String,
    pub namespace: String,
    pub job_id: String,
    pub action: WatcherAction,
    /// The groups an operator's promotion named (`-group`); absent for
    /// every group.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    /// The deployment's status description after the write.
    pub status_description: String,
    /// The evaluation written with it; absent for a pause, which writes
    /// none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub eval_id: String,
    /// The job version an auto-revert wrote, and the stable version it
    /// copies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverted: Option<rollback::Reverted>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WatcherAction {
    /// Every group promoted (`autoPromoteDeployment`).
    Promoted,
    /// The deployment failed on an unhealthy allocation.
    FailedUnhealthy,
    /// The deployment failed at its progress deadline.
    FailedDeadline,
    /// The groups named, or every group, promoted by the operator
    /// (`PromoteDeployment`).
    PromotedByOperator,
    /// The deployment failed by the operator (`FailDeployment`).
    FailedByOperator,
    /// Paused by the operator (`PauseDeployment`).
    Paused,
    /// Running again by the operator (`PauseDeployment` with pause off).
    Resumed,
    /// Allocations set healthy by the operator (`SetAllocHealth`).
    HealthyByOperator,
    /// Allocations set healthy or unhealthy by the operator, one at least
    /// unhealthy, which fails the deployment (`SetAllocHealth`).
    UnhealthyByOperator,
}

/// One watcher write: its evaluation (none for a pause), and what the
/// story records of it (none for a batched evaluation).
pub struct Written {
    pub eval: Option<NewEval>,
    pub record: Option<WatcherWrite>,
}

/// The watch of one deployment.
#[derive(Clone, Debug, Default)]
struct Watch {
    /// When the batched evaluation is created.
    batch: Option<Time>,
    /// Allocations the batched evaluation lets be replaced.
    replacements: Vec<String>,
    /// The progress cutoff the deadline timer was last set to.
    cutoff: Time,
    /// The timer is set and has not fired.
    armed: bool,
}

/// Every deployment watch over the story.
#[derive(Default)]
pub struct Watcher {
    watches: BTreeMap<Id, Watch>,
    /// When the story starts: a deadline already past fires then.
    since: Time,
}

impl Watcher {
    /// Looks again at the deployments written since it last looked: a new
    /// one is watched, one no longer active is not (`StopWatch`, its batch
    /// dropped), and the deadline timer follows the progress cutoff
    /// (`getDeploymentProgressCutoff`), set again only when it moved.
    pub fn refresh(&mut self, world: &mut World) {
        for id in world.take_touched() {
            let Some(d) = world.deployment(&id).filter(|d| d.active()) else {
                self.watches.remove(&id);
                continue;
            };
            let cutoff = cutoff(world, d);
            let w = self.watches.entry(id).or_default();
            if cutoff != w.cutoff {
                w.cutoff = cutoff;
                w.armed = !cutoff.is_zero();
            }
        }
    }

    /// Starts watching every active deployment of the snapshot, its
    /// deadline timer set to its progress cutoff (at once when past).
    pub fn start(&mut self, world: &World, at: Time) {
        self.since = at;
        for d in world.snapshot.deployments.iter().filter(|d| d.active()) {
            let cutoff = cutoff(world, d);
            self.watches.insert(
                d.id.clone(),
                Watch {
                    cutoff,
                    armed: !cutoff.is_zero(),
                    ..Watch::default()
                },
            );
        }
    }

    /// When the watcher next acts by itself: a batch, or a deadline.
    pub fn next_due(&self) -> Option<Time> {
        self.watches
            .values()
            .flat_map(|w| [w.batch, w.armed.then_some(w.cutoff.max(self.since))])
            .flatten()
            .min()
    }

    /// When the next batched evaluation is created.
    pub fn next_batch(&self) -> Option<Time> {
        self.watches.values().filter_map(|w| w.batch).min()
    }

    /// `handleAllocUpdate` on deployment `id` after its allocations
    /// `changed` got a health verdict at `now`, then what follows from it:
    /// the deployment failed (with its evaluation), or auto-promoted, and
    /// the batched evaluation set.
    pub fn health_changed(
        &mut self,
        world: &mut World,
        id: &Id,
        changed: &[usize],
        now: Time,
        rules: &ServerRules,
    ) -> Vec<Written> {
        if !self.watches.contains_key(id) {
            return Vec::new();
        }
        let Some(d) = world.deployment(id).cloned() else {
            return Vec::new();
        };
        let job = watched_job(world, &d);
        let early = rules.has(Switch::DeploymentFailsEarly);
        let (mut create_eval, mut fail, mut revert) = (false, false, false);
        let mut allow = Vec::new();
        for &i in world.in_deployment(id) {
            let a = world.alloc(i);
            let Some(state) = d.task_groups.get(a.task_group.as_str()) else {
                continue;
            };
            let verdict = a.health();
            let unhealthy = verdict == Some(false);
            let progress_based = state.progress_deadline != 0;
            let fails = if early {
                unhealthy && fails_early(a, job.as_deref(), state.progress_deadline, &d, now)
            } else {
                unhealthy && !progress_based
            };
            let replaceable = if early { !fails } else { progress_based };
            if unhealthy && replaceable && d.active() && !a.desired_transition.should_reschedule() {
                allow.push(a.id.to_string());
                continue;
            }
            create_eval |= verdict == Some(true) && changed.contains(&i);
            if fails {
                revert |= state.auto_revert;
                fail = true;
            }
        }
        if fail {
            return vec![self.fail(world, &d, WatcherAction::FailedUnhealthy, revert, now)];
        }
        let mut out = Vec::new();
        if auto_promotable(world, &d, rules)
            && let Ok(w) = self.promote(world, id, None, now, WatcherAction::Promoted)
        {
            out.push(w);
        }
        if create_eval || !allow.is_empty() {
            let w = self.watches.get_mut(id).expect("watched");
            w.replacements.extend(allow);
            w.batch.get_or_insert(now.add(BATCH_PERIOD));
        }
        out
    }

    /// The watcher's timers due at `now`: batched evaluations created with
    /// the replacements they allow, and with `deadlines` the progress
    /// deadlines that fail their deployment.
    pub fn step(
        &mut self,
        world: &mut World,
        now: Time,
        deadlines: bool,
        rules: &ServerRules,
    ) -> Vec<Written> {
        let mut out = Vec::new();
        let ids: Vec<Id> = self.watches.keys().cloned().collect();
        for id in ids {
            let Some(d) = world.deployment(&id).cloned() else {
                continue;
            };
            let w = self.watches.get_mut(&id).expect("listed");
            if w.batch == Some(now) {
                w.batch = None;
                for alloc in std::mem::take(&mut w.replacements) {
                    if let Some(i) = world.alloc_index(&alloc) {
                        world.snapshot.allocs[i].desired_transition.reschedule = Some(true);
                    }
                }
                out.push(Written {
                    eval: Some(eval(world, &d)),
                    record: None,
                });
            }
            let w = self.watches.get_mut(&id).expect("listed");
            if deadlines && w.armed && w.cutoff <= now {
                w.armed = false;
                if let Some(revert) = should_fail(world, &d, rules) {
                    out.push(self.fail(world, &d, WatcherAction::FailedDeadline, revert, now));
                }
            }
        }
        out
    }

    /// The groups of deployment `id` promoted at `now` (`groups`, every
    /// group when `None`), with the evaluation of the same write
    /// (`upsertDeploymentPromotion`), by `autoPromoteDeployment` or the
    /// operator (`action`); the state store's errors when it refuses.
    pub fn promote(
        &mut self,
        world: &mut World,
        id: &Id,
        groups: Option<&[String]>,
        now: Time,
        action: WatcherAction,
    ) -> Result<Written, Vec<String>> {
        deployment_state::promote(world, id, groups, now)?;
        let promoted = world.deployment(id).expect("promoted").clone();
        let mut written = record(&promoted, action, now, None);
        written.groups = groups.map(<[String]>::to_vec).unwrap_or_default();
        Ok(Written {
            eval: Some(eval(world, &promoted)),
            record: Some(written),
        })
    }

    /// `PauseDeployment` at `now`: paused, with no evaluation, or running
    /// again with one; from #27804 each group's progress deadline restarts.
    pub fn pause(
        &mut self,
        world: &mut World,
        d: &Deployment,
        paused: bool,
        now: Time,
        rules: &ServerRules,
    ) -> Written {
        let restarts = rules.has(Switch::PausedKeepsDeadline);
        deployment_state::pause(world, &d.id, paused, now, restarts);
        let after = world.deployment(&d.id).expect("written").clone();
        let action = if paused {
            WatcherAction::Paused
        } else {
            WatcherAction::Resumed
        };
        Written {
            eval: (!paused).then(|| eval(world, &after)),
            record: Some(record(&after, action, now, None)),
        }
    }

    /// `setAllocHealth` (v1.3.0 deployment_watcher.go:156-240, v2.0.5
    /// :158-243) of `sets` (allocation, healthy) in the active deployment
    /// `d` at `now`: each allocation's health and the counters
    /// (`UpdateDeploymentAllocHealth`, every healthy one, then every
    /// unhealthy one, so one named in both ends unhealthy) with one
    /// evaluation in one write. With any set unhealthy, the same write
    /// fails the deployment (`Failed due to unhealthy allocations`)
    /// whatever its progress deadline, reverting when the group of one of
    /// them auto-reverts and a stable version exists; without one Nomad
    /// adds no word to the description.
    pub fn set_alloc_health(
        &mut self,
        world: &mut World,
        d: &Deployment,
        sets: &[(usize, bool)],
        now: Time,
    ) -> Written {
        let reverts = sets.iter().filter(|s| !s.1).any(|&(i, _)| {
            d.task_groups
                .get(world.alloc(i).task_group.as_str())
                .is_some_and(|s| s.auto_revert)
        });
        let unhealthy = sets.iter().any(|s| !s.1);
        let in_order = sets
            .iter()
            .filter(|s| s.1)
            .chain(sets.iter().filter(|s| !s.1));
        for &(i, healthy) in in_order {
            deployment_state::set_alloc_health(world, i, healthy, now);
        }
        if unhealthy {
            let revert = reverts && rollback::has_stable(world, d);
            return self.fail(world, d, WatcherAction::UnhealthyByOperator, revert, now);
        }
        let after = world.deployment(&d.id).expect("written").clone();
        Written {
            eval: Some(eval(world, &after)),
            record: Some(record(&after, WatcherAction::HealthyByOperator, now, None)),
        }
    }

    /// The deployment failed, and rolled back where `revert` and a stable
    /// version allows: the status update, the job and the evaluation of one
    /// write (`upsertDeploymentStatusUpdate`). `FailDeployment` (the
    /// operator's, `action` [`WatcherAction::FailedByOperator`]) reverts
    /// when any group auto-reverts.
    pub fn fail(
        &mut self,
        world: &mut World,
        d: &Deployment,
        action: WatcherAction,
        revert: bool,
        now: Time,
    ) -> Written {
        let base = match action {
            WatcherAction::FailedDeadline => "Failed due to progress deadline",
            WatcherAction::FailedByOperator => ds::DESC_FAILED_BY_USER,
            _ => "Failed due to unhealthy allocations",
        };
        let (description, reverted) = if revert {
            rollback::revert(world, d, base)
        } else {
            (base.to_string(), None)
        };
        deployment_state::set_status(world, &d.id, ds::FAILED, &description);
        self.watches.remove(&d.id);
        let failed = world.deployment(&d.id).expect("failed").clone();
        Written {
            eval: Some(eval(world, &failed)),
            record: Some(record(&failed, action, now, reverted)),
        }
    }
}

/// The job the watcher was started with: the deployment's version.
fn watched_job(world: &World, d: &Deployment) -> Option<std::sync::Arc<Job>> {
    world
        .snapshot
        .job_version(&d.namespace, &d.job_id, d.job_version)
        .cloned()
}

/// `shouldFailEarly` (#17341) for an unhealthy allocation: its group has
/// no progress deadline, or, the deployment active, it has no reschedule
/// attempt left.
fn fails_early(
    alloc: &crate::model::Allocation,
    job: Option<&Job>,
    progress_deadline: i64,
    d: &Deployment,
    now: Time,
) -> bool {
    if progress_deadline == 0 {
        return true;
    }
    if !d.active() {
        return false;
    }
    let policy = job
        .and_then(|j| j.lookup_task_group(&alloc.task_group))
        .and_then(|tg| tg.reschedule_policy.as_ref());
    !alloc.reschedule_eligible(policy, now)
}

/// `autoPromoteDeployment`'s test: the deployment has placed canaries and
/// needs promotion, and every canarying group auto-promotes and has its
/// canaries healthy, as the release counts them (#14001).
fn auto_promotable(world: &World, d: &Deployment, rules: &ServerRules) -> bool {
    let placed = d
        .task_groups
        .values()
        .any(|s| !s.placed_canaries.is_empty());
    if !placed || !d.requires_promotion() {
        return false;
    }
    let healthy = |id: &Id| {
        world
            .alloc_index(&id.to_string())
            .is_some_and(|i| world.alloc(i).is_healthy())
    };
    let counts = rules.has(Switch::AutoPromoteHealthyCount);
    d.task_groups
        .values()
        .filter(|s| s.desired_canaries >= 1)
        .all(|s| {
            let placed = s.placed_canaries.len() as i64;
            if !s.auto_promote {
                return false;
            }
            if counts {
                let ok = s.placed_canaries.iter().filter(|c| healthy(c)).count() as i64;
                placed >= s.desired_canaries && ok == s.desired_canaries
            } else {
                placed == s.desired_canaries && s.placed_canaries.iter().all(healthy)
            }
        })
}

/// `shouldFail` at the progress deadline: `Some(revert)` when a group has
/// too few healthy allocations (its canaries while unpromoted), `revert`
/// when such a group auto-reverts; from #27804 a paused deployment does
/// not fail.
fn should_fail(world: &World, d: &Deployment, rules: &ServerRules) -> Option<bool> {
    if rules.has(Switch::PausedKeepsDeadline) && d.status == ds::PAUSED {
        return None;
    }
    let job = watched_job(world, d);
    let mut fail = false;
    for (group, s) in d.task_groups.iter() {
        let enough = if s.desired_canaries > 0 && !s.promoted {
            s.healthy_allocs >= s.desired_canaries
        } else {
            s.healthy_allocs >= s.desired_total
        };
        if enough {
            continue;
        }
        fail = true;
        let reverts = job
            .as_deref()
            .and_then(|j| j.lookup_task_group(group))
            .and_then(|tg| tg.update.as_ref())
            .is_some_and(|u| u.auto_revert);
        if reverts {
            return Some(true);
        }
    }
    fail.then_some(false)
}

/// `getDeploymentProgressCutoff`: the earliest `RequireProgressBy` of the
/// groups not done (`doneGroups`: promoted where canaried, and with as
/// many healthy live allocations as desired); zero when none.
fn cutoff(world: &World, d: &Deployment) -> Time {
    let mut healthy: BTreeMap<&str, i64> = BTreeMap::new();
    for &i in world.in_deployment(&d.id) {
        let a = world.alloc(i);
        let ok = a.is_healthy();
        if ok && !a.terminal_status() {
            *healthy.entry(a.task_group.as_ref()).or_default() += 1;
        }
    }
    d.task_groups
        .iter()
        .filter(|(group, s)| {
            let done = (s.desired_canaries == 0 || s.promoted)
                && healthy.get(group.as_str()).copied().unwrap_or(0) >= s.desired_total;
            !done && !s.require_progress_by.is_zero()
        })
        .map(|(_, s)| s.require_progress_by)
        .min()
        .unwrap_or(Time::ZERO)
}

/// `getEval`: a `deployment-watcher` evaluation of the deployment's job,
/// at the deployment's priority (the job's when it has none).
fn eval(world: &World, d: &Deployment) -> NewEval {
    let job = watched_job(world, d);
    let priority = if d.eval_priority != 0 {
        d.eval_priority
    } else {
        job.as_ref().map_or(0, |j| j.priority)
    };
    NewEval {
        id: String::new(),
        namespace: d.namespace.to_string(),
        job_id: d.job_id.to_string(),
        job_type: job.map(|j| j.job_type.clone()).unwrap_or_default(),
        priority,
        triggered_by: trigger::DEPLOYMENT_WATCHER.to_string(),
        node_id: None,
        wait_until: None,
        raft_index: None,
    }
}

fn record(
    d: &Deployment,
    action: WatcherAction,
    at: Time,
    reverted: Option<rollback::Reverted>,
) -> WatcherWrite {
    WatcherWrite {
        at,
        deployment_id: d.id.to_string(),
        namespace: d.namespace.to_string(),
        job_id: d.job_id.to_string(),
        action,
        groups: Vec::new(),
        status_description: d.status_description.to_string(),
        eval_id: String::new(),
        reverted,
    }
}
