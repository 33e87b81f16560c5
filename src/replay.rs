//! Replaying the generic scheduler over a snapshot: for each job, what
//! `GenericScheduler.process` and `computeJobAllocs` gather, the reconcile,
//! and the plan they would submit.

mod texts;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

use crate::model::{Allocation, Deployment, Evaluation, Job, Node, Snapshot, node_status, status};
use crate::reconciler::{
    AllocSet, Bucket, ReconcileInput, Reconciler, Reconciliation, TaintContext, TaintedNodes, desc,
    reason_beyond_node, tainted_nodes,
};
use crate::report::*;
use crate::time::Time;
use crate::update::UpdateCheck;
use crate::warning::Warning;
use texts::Texts;

/// The evaluation ID used when neither `--eval` nor the snapshot names one.
///
/// It must not be empty: with an empty ID every failed allocation whose
/// `FollowupEvalID` is empty matches it and is rescheduled at once, which
/// Nomad's unit tests rely on but no real evaluation does.
pub const PLACEHOLDER_EVAL_ID: &str = "plan-inspect-replay";

/// What to replay, and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--now`.
    pub now: Option<Time>,
    /// The machine's clock, used only when nothing else dates the snapshot.
    pub clock: Time,
    /// `--job`.
    pub job: Option<String>,
    /// `--namespace`.
    pub namespace: Option<String>,
    /// `--eval`: replay this evaluation from the snapshot's `Evals`.
    pub eval: Option<String>,
    /// `--no-disconnected-clients`.
    pub no_disconnected_clients: bool,
}

/// A request the snapshot cannot answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    EvalNotFound(String),
    /// `--eval` names an evaluation of another job than the one explained.
    EvalOfOtherJob {
        eval: String,
        job: String,
    },
    JobNotFound {
        job: String,
        namespace: Option<String>,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::EvalNotFound(id) => {
                write!(f, "no evaluation {id:?} in the snapshot's Evals")
            }
            ReplayError::EvalOfOtherJob { eval, job } => {
                write!(f, "evaluation {eval:?} is not an evaluation of job {job:?}")
            }
            ReplayError::JobNotFound {
                job,
                namespace: Some(ns),
            } => {
                write!(f, "no job {job:?} in namespace {ns:?} in the snapshot")
            }
            ReplayError::JobNotFound {
                job,
                namespace: None,
            } => write!(f, "no job {job:?} in the snapshot"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Reports on at least this many allocations are built on two threads: the
/// plan beside the groups, half of a bucket's entries beside the other half.
/// For fewer, starting a thread costs more than it saves.
const PARALLEL_REPORT_ALLOCS: usize = 10_000;

/// One job to evaluate: its spec (absent when purged) and its allocations.
struct JobWork<'a> {
    namespace: &'a str,
    id: &'a str,
    job: Option<&'a Job>,
    allocs: Vec<&'a Allocation>,
}

/// Replays the reconciler for every selected job of `snapshot`.
pub fn replay(snapshot: &Snapshot, options: &Options) -> Result<Report, ReplayError> {
    let prep = Prepared::new(snapshot, options)?;
    let mut work = collect_jobs(snapshot);
    let (job_filter, ns_filter) = match prep.eval {
        Some(e) => (Some(e.job_id.as_str()), Some(e.namespace.as_str())),
        None => (options.job.as_deref(), options.namespace.as_deref()),
    };
    work.retain(|w| {
        job_filter.is_none_or(|j| j == w.id) && ns_filter.is_none_or(|n| n == w.namespace)
    });
    if work.is_empty()
        && let Some(job) = job_filter
    {
        return Err(ReplayError::JobNotFound {
            job: job.to_string(),
            namespace: ns_filter.map(str::to_string),
        });
    }
    let ctx = prep.job_context();
    let jobs: Vec<JobReport> = work
        .iter()
        .map(|w| ctx.trace_job(w, |report, _, _| report))
        .collect();
    let mut report = prep.report(jobs);
    report.warnings.extend(system_job_warnings(&report.jobs));
    report.warnings.sort();
    Ok(report)
}

/// Nomad schedules `system` and `sysbatch` jobs with its system scheduler,
/// not the generic reconciler replayed here; their plan is shown as the
/// contract asks, with a warning that Nomad would decide differently.
fn system_job_warnings(jobs: &[JobReport]) -> Vec<Warning> {
    jobs.iter()
        .filter(|j| matches!(j.job_type.as_str(), "system" | "sysbatch"))
        .map(|j| {
            Warning::new(
                "system_job",
                format!(
                    "{}/{} is a {} job: Nomad schedules it with the system scheduler, not the generic \
                     reconciler replayed here",
                    j.namespace, j.id, j.job_type
                ),
            )
        })
        .collect()
}

/// One job's replay together with the reconciler's trace, for explanations.
pub struct JobReplay<'r, 'a> {
    /// The whole report with this one job.
    pub report: &'r Report,
    pub reconciliation: &'r Reconciliation<'a>,
    pub taint: TaintContext<'r, 'a>,
    pub nodes: &'r HashMap<&'a str, &'a Node>,
}

impl JobReplay<'_, '_> {
    pub fn job(&self) -> &JobReport {
        &self.report.jobs[0]
    }
}

/// Replays the job `job_id` of `namespace` alone and hands its report and
/// trace to `inspect`. `--job` and `--namespace` are not consulted; an
/// `--eval` must be one of that job.
pub fn replay_for_explain<R>(
    snapshot: &Snapshot,
    options: &Options,
    namespace: &str,
    job_id: &str,
    inspect: impl FnOnce(JobReplay<'_, '_>) -> R,
) -> Result<R, ReplayError> {
    let prep = Prepared::new(snapshot, options)?;
    if let Some(e) = prep.eval
        && (e.namespace != namespace || e.job_id != job_id)
    {
        return Err(ReplayError::EvalOfOtherJob {
            eval: e.id.clone(),
            job: job_id.to_string(),
        });
    }
    let work = collect_jobs(snapshot)
        .into_iter()
        .find(|w| w.namespace == namespace && w.id == job_id)
        .ok_or_else(|| ReplayError::JobNotFound {
            job: job_id.to_string(),
            namespace: Some(namespace.to_string()),
        })?;
    let ctx = prep.job_context();
    Ok(ctx.trace_job(&work, |job, rec, taint| {
        let report = prep.report(vec![job]);
        inspect(JobReplay {
            report: &report,
            reconciliation: rec,
            taint,
            nodes: &prep.nodes,
        })
    }))
}

/// What every job's replay shares: the evaluation, its time, the nodes and
/// the current deployments.
struct Prepared<'s> {
    now: Time,
    now_source: NowSource,
    eval: Option<&'s Evaluation>,
    eval_id: String,
    supports: bool,
    warnings: Vec<Warning>,
    nodes: HashMap<&'s str, &'s Node>,
    deployments: HashMap<(&'s str, &'s str), &'s Deployment>,
}

impl<'s> Prepared<'s> {
    fn new(snapshot: &'s Snapshot, options: &Options) -> Result<Prepared<'s>, ReplayError> {
        let (now, now_source) = evaluation_time(snapshot, options);
        let mut warnings = snapshot.warnings.clone();
        if now_source == NowSource::Clock {
            warnings.push(Warning::new(
                "now_from_clock",
                "nothing dates the snapshot (no --now, Now or SnapshotMeta): evaluated at the current time, \
                 so the output is not reproducible",
            ));
        }
        warnings.sort();
        warnings.dedup();
        let eval = match &options.eval {
            Some(id) => Some(
                snapshot
                    .evals
                    .iter()
                    .find(|e| &e.id == id)
                    .ok_or_else(|| ReplayError::EvalNotFound(id.clone()))?,
            ),
            None => None,
        };
        let eval_id = match (eval, &snapshot.eval_id) {
            (Some(e), _) => e.id.clone(),
            (None, Some(id)) => id.clone(),
            (None, None) => PLACEHOLDER_EVAL_ID.to_string(),
        };
        Ok(Prepared {
            now,
            now_source,
            eval,
            eval_id,
            supports: !options.no_disconnected_clients
                && snapshot.supports_disconnected_clients.unwrap_or(true),
            warnings,
            nodes: snapshot.nodes.iter().map(|n| (n.id.as_str(), n)).collect(),
            deployments: latest_deployments(&snapshot.deployments),
        })
    }

    fn job_context(&self) -> JobContext<'_> {
        JobContext {
            nodes: &self.nodes,
            deployments: &self.deployments,
            eval_id: &self.eval_id,
            eval_priority: self.eval.map(|e| e.priority),
            delayed_eval: self.eval.is_some_and(|e| !e.wait_until.is_zero()),
            supports: self.supports,
            now: self.now,
        }
    }

    fn report(&self, jobs: Vec<JobReport>) -> Report {
        Report {
            schema_version: SCHEMA_VERSION,
            now: self.now,
            now_source: self.now_source,
            eval_id: self.eval_id.clone(),
            supports_disconnected_clients: self.supports,
            jobs,
            warnings: self.warnings.clone(),
        }
    }
}

fn evaluation_time(snapshot: &Snapshot, options: &Options) -> (Time, NowSource) {
    if let Some(t) = options.now {
        (t, NowSource::Flag)
    } else if let Some(t) = snapshot.now {
        (t, NowSource::Snapshot)
    } else if let Some(t) = snapshot.meta_time {
        (t, NowSource::SnapshotMeta)
    } else {
        (options.clock, NowSource::Clock)
    }
}

/// `LatestDeploymentByJobID`: per job, the deployment with the highest
/// `CreateIndex`. Nomad walks them by ID and replaces only on a strictly
/// higher index, so a tie goes to the lowest ID
/// (nomad/state/state_store.go:728-738).
fn latest_deployments(all: &[Deployment]) -> HashMap<(&str, &str), &Deployment> {
    let mut out: HashMap<(&str, &str), &Deployment> = HashMap::new();
    for d in all {
        let key = (d.namespace.as_str(), d.job_id.as_str());
        let newer = out.get(&key).is_none_or(|cur| {
            d.create_index > cur.create_index
                || (d.create_index == cur.create_index && d.id < cur.id)
        });
        if newer {
            out.insert(key, d);
        }
    }
    out
}

/// Every job of `Jobs`, plus purged jobs that still have allocations, sorted
/// by namespace and ID.
fn collect_jobs(snapshot: &Snapshot) -> Vec<JobWork<'_>> {
    let mut by_key: BTreeMap<(&str, &str), JobWork<'_>> = BTreeMap::new();
    for job in &snapshot.jobs {
        by_key.insert(
            (&job.namespace, &job.id),
            JobWork {
                namespace: &job.namespace,
                id: &job.id,
                job: Some(job),
                allocs: Vec::new(),
            },
        );
    }
    for alloc in &snapshot.allocs {
        by_key
            .entry((&alloc.namespace, &alloc.job_id))
            .or_insert_with(|| JobWork {
                namespace: &alloc.namespace,
                id: &alloc.job_id,
                job: None,
                allocs: Vec::new(),
            })
            .allocs
            .push(alloc);
    }
    by_key.into_values().collect()
}

struct JobContext<'a> {
    nodes: &'a HashMap<&'a str, &'a Node>,
    deployments: &'a HashMap<(&'a str, &'a str), &'a Deployment>,
    eval_id: &'a str,
    eval_priority: Option<i64>,
    /// The replayed evaluation was itself delayed (`WaitUntil` set).
    delayed_eval: bool,
    supports: bool,
    now: Time,
}

impl<'a> JobContext<'a> {
    /// Reconciles one job and hands its report, the reconciler's trace and
    /// the taint context to `inspect`.
    fn trace_job<R>(
        &self,
        w: &JobWork<'a>,
        inspect: impl FnOnce(JobReport, &Reconciliation<'_>, TaintContext<'_, '_>) -> R,
    ) -> R {
        // A purged job's type comes from the job its allocations embed.
        let embedded = w.allocs.iter().find_map(|a| a.job.as_deref());
        let spec = w.job.or(embedded);
        let job_type = spec.map_or("service", |j| j.job_type.as_str()).to_string();
        let batch = job_type == "batch";
        let deployment = if batch {
            None
        } else {
            self.deployments.get(&(w.namespace, w.id)).copied()
        };
        let tainted = tainted_nodes(w.allocs.iter().copied(), |id| self.nodes.get(id).copied());
        let check = UpdateCheck::default();
        let update_fn = |alloc: &Allocation, job: &Job, tg: &crate::model::TaskGroup| {
            check.kind(alloc, job, tg, || {
                self.nodes.get(alloc.node_id.as_str()).copied()
            })
        };
        let input = ReconcileInput {
            job: w.job,
            job_id: w.id,
            batch,
            deployment,
            allocs: w.allocs.clone(),
            tainted: &tainted,
            eval_id: self.eval_id,
            eval_priority: self.eval_priority.unwrap_or(spec.map_or(0, |j| j.priority)),
            supports_disconnected_clients: self.supports,
            now: self.now,
            update_fn: &update_fn,
        };
        let rec = Reconciler::new(input).compute();
        let taint = TaintContext {
            tainted: &tainted,
            supports_disconnected_clients: self.supports,
            now: self.now,
        };
        let (groups, plan) = if w.allocs.len() >= PARALLEL_REPORT_ALLOCS {
            std::thread::scope(|s| {
                let plan = s.spawn(|| self.plan(w, &tainted, &rec, &mut Texts::default()));
                let groups = self.group_reports(w.job, &rec, taint, &mut Texts::default());
                let plan = plan.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                (groups, plan)
            })
        } else {
            let mut texts = Texts::default();
            let groups = self.group_reports(w.job, &rec, taint, &mut texts);
            (groups, self.plan(w, &tainted, &rec, &mut texts))
        };
        let report = JobReport {
            namespace: w.namespace.to_string(),
            id: w.id.to_string(),
            job_type,
            version: spec.map_or(0, |j| j.version),
            priority: spec.map_or(0, |j| j.priority),
            stopped: w.job.is_none_or(|j| j.stop),
            purged: w.job.is_none(),
            groups,
            plan,
        };
        inspect(report, &rec, taint)
    }

    fn group_reports<'r>(
        &self,
        job: Option<&Job>,
        rec: &'r Reconciliation<'_>,
        taint: TaintContext<'_, '_>,
        texts: &mut Texts<'r>,
    ) -> Vec<GroupReport>
    where
        'a: 'r,
    {
        rec.groups
            .iter()
            .map(|(name, trace)| {
                let mut entries =
                    |b: Bucket| self.bucket_entries(trace.buckets.get(b), taint, texts);
                let mut set_aside: Vec<SetAsideEntry> = trace
                    .set_aside
                    .iter()
                    .map(|(a, why)| SetAsideEntry {
                        id: a.id.clone(),
                        name: a.name.clone(),
                        reason: why.describe().to_string(),
                    })
                    .collect();
                set_aside.sort_by(|a, b| a.id.cmp(&b.id));
                let mut later: Vec<RescheduleLater> = trace
                    .reschedule_later
                    .iter()
                    .map(|d| RescheduleLater {
                        id: d.alloc.id.clone(),
                        at: d.at,
                    })
                    .collect();
                later.sort_by(|a, b| a.id.cmp(&b.id));
                GroupReport {
                    name: name.clone(),
                    count: job
                        .filter(|j| !j.stop)
                        .and_then(|j| j.lookup_task_group(name))
                        .map_or(0, |tg| tg.count),
                    removed: trace.removed,
                    buckets: Buckets {
                        untainted: entries(Bucket::Untainted),
                        migrate: entries(Bucket::Migrate),
                        lost: entries(Bucket::Lost),
                        disconnecting: entries(Bucket::Disconnecting),
                        reconnecting: entries(Bucket::Reconnecting),
                        ignore: entries(Bucket::Ignore),
                    },
                    set_aside,
                    reschedule_now: trace.reschedule_now.ids().map(str::to_string).collect(),
                    reschedule_later: later,
                    desired_changes: rec
                        .results
                        .desired_tg_updates
                        .get(name)
                        .cloned()
                        .unwrap_or_default(),
                }
            })
            .collect()
    }

    /// The entries of one bucket; a large one is built in two halves on two
    /// threads, each with its own shared strings.
    fn bucket_entries<'r>(
        &self,
        set: &AllocSet<'r>,
        taint: TaintContext<'_, '_>,
        texts: &mut Texts<'r>,
    ) -> Vec<BucketEntry>
    where
        'a: 'r,
    {
        let entries = |allocs: &mut dyn Iterator<Item = &'r Allocation>, texts: &mut Texts<'r>| {
            let entry = |a| self.bucket_entry(a, taint, texts);
            allocs.map(entry).collect::<Vec<_>>()
        };
        if set.len() < PARALLEL_REPORT_ALLOCS {
            return entries(&mut set.iter(), texts);
        }
        let half = set.len() / 2;
        std::thread::scope(|s| {
            let first = s.spawn(|| entries(&mut set.iter().take(half), &mut Texts::default()));
            let second = entries(&mut set.iter().skip(half), texts);
            let mut first = first
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            first.extend(second);
            first
        })
    }

    fn bucket_entry<'r>(
        &self,
        a: &'r Allocation,
        taint: TaintContext<'_, '_>,
        texts: &mut Texts<'r>,
    ) -> BucketEntry
    where
        'a: 'r,
    {
        let node = texts.node(&a.node_id, self.nodes);
        let reason = reason_beyond_node(a, taint, node.node);
        BucketEntry {
            id: a.id.clone(),
            name: a.name.clone(),
            node_id: Arc::clone(&node.id),
            node_status: node.status.clone(),
            reason: reason.map_or_else(|| Arc::clone(&node.desc), Arc::from),
            client_status: texts.word(&a.client_status),
            desired_status: texts.word(&a.desired_status),
        }
    }

    fn plan<'r>(
        &self,
        w: &JobWork<'a>,
        tainted: &TaintedNodes<'_>,
        rec: &'r Reconciliation<'_>,
        texts: &mut Texts<'r>,
    ) -> Plan
    where
        'a: 'r,
    {
        let r = &rec.results;
        let mut plan = Plan::default();
        // updateNonTerminalAllocsToLost: allocations already told to stop on
        // down or missing nodes are marked lost.
        for alloc in &w.allocs {
            let down = || match tainted.get(alloc.node_id.as_str()) {
                Some(None) => true,
                Some(Some(n)) => n.status == node_status::DOWN,
                None => false,
            };
            if alloc.server_terminal_status()
                && matches!(
                    alloc.client_status.as_str(),
                    status::RUNNING | status::PENDING
                )
                && down()
            {
                plan.stop.push(PlanStop {
                    alloc_id: alloc.id.clone(),
                    name: alloc.name.clone(),
                    task_group: texts.word(&alloc.task_group),
                    client_status: Some(texts.word(status::LOST)),
                    description: desc::LOST,
                    followup_eval_id: None,
                });
            }
        }
        plan.stop.extend(r.stop.iter().map(|s| PlanStop {
            alloc_id: s.alloc.id.clone(),
            name: s.alloc.name.clone(),
            task_group: texts.word(&s.alloc.task_group),
            client_status: s.client_status.map(|c| texts.word(c)),
            description: s.description,
            followup_eval_id: s.followup_eval_id.as_deref().map(str::to_string),
        }));
        plan.place = r
            .place
            .iter()
            .map(|p| PlanPlace {
                task_group: texts.word(p.task_group),
                name: p.name.to_string(),
                canary: p.canary,
                previous_alloc_id: p.previous.map(|a| a.id.clone()),
                reschedule: p.reschedule,
                lost: p.lost,
                downgrade_non_canary: p.downgrade_non_canary,
                min_job_version: p.min_job_version,
            })
            .collect();
        plan.destructive_update = r
            .destructive_update
            .iter()
            .map(|d| PlanDestructive {
                alloc_id: d.alloc.id.clone(),
                name: d.name.clone(),
                task_group: d.task_group.clone(),
                reason: d.reason.clone(),
            })
            .collect();
        // The scheduler moves in-place updates into the current deployment.
        let deployment_id = r.deployment.as_ref().map(|d| d.id.clone()).or_else(|| {
            self.deployments
                .get(&(w.namespace, w.id))
                .filter(|_| w.job.is_some_and(|j| !j.is_batch()))
                .map(|d| d.id.clone())
        });
        plan.in_place_update = r
            .inplace_update
            .iter()
            .map(|a| PlanInPlace {
                alloc_id: a.id.clone(),
                name: a.name.clone(),
                deployment_id: deployment_id.clone(),
            })
            .collect();
        let followup =
            |m: &BTreeMap<&str, crate::reconciler::AllocUpdate<'_>>| -> Vec<PlanFollowupUpdate> {
                m.values()
                    .map(|u| PlanFollowupUpdate {
                        alloc_id: u.alloc.id.clone(),
                        followup_eval_id: u.followup_eval_id.to_string(),
                    })
                    .collect()
            };
        plan.disconnect_updates = followup(&r.disconnect_updates);
        plan.attribute_updates = followup(&r.attribute_updates);
        plan.reconnect_updates = r
            .reconnect_updates
            .keys()
            .map(|id| PlanReconnect {
                alloc_id: id.to_string(),
            })
            .collect();
        // A delayed evaluation does not create the follow-up evals, though
        // the allocations still name them (generic_sched.go:293, 312-321).
        let followups = r
            .desired_followup_evals
            .values()
            .filter(|_| !self.delayed_eval);
        plan.followup_evals = followups
            .flatten()
            .map(|e| PlanFollowupEval {
                id: e.id.to_string(),
                triggered_by: e.triggered_by.to_string(),
                wait_until: e.wait_until,
                status_description: e.status_description.to_string(),
                task_group: e.task_group.clone(),
                alloc_ids: e.alloc_ids.iter().map(|id| id.to_string()).collect(),
            })
            .collect();
        plan.deployment = r.deployment.as_ref().map(|d| PlanDeployment {
            id: d.id.clone(),
            status: d.status.clone(),
            status_description: d.status_description.clone(),
            job_version: d.job_version,
            groups: d
                .task_groups
                .iter()
                .map(|(name, s)| {
                    (
                        name.clone(),
                        PlanDeploymentGroup {
                            desired_total: s.desired_total,
                            desired_canaries: s.desired_canaries,
                            auto_revert: s.auto_revert,
                            auto_promote: s.auto_promote,
                            promoted: s.promoted,
                        },
                    )
                })
                .collect(),
        });
        plan.deployment_updates = r
            .deployment_updates
            .iter()
            .map(|u| PlanDeploymentUpdate {
                deployment_id: u.deployment_id.clone(),
                status: u.status.to_string(),
                status_description: u.status_description.to_string(),
            })
            .collect();
        plan.sort();
        plan
    }
}

impl Plan {
    fn sort(&mut self) {
        self.stop.sort();
        self.place.sort();
        self.destructive_update.sort();
        self.in_place_update.sort();
        self.disconnect_updates.sort();
        self.reconnect_updates.sort();
        self.attribute_updates.sort();
        self.followup_evals
            .sort_by(|a, b| (a.wait_until, &a.id).cmp(&(b.wait_until, &b.id)));
        self.deployment_updates.sort();
    }
}
