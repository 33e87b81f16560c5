//! Replaying the generic scheduler over a snapshot: for each job, what
//! `GenericScheduler.process` and `computeJobAllocs` gather, the reconcile,
//! and the plan they would submit.

mod both;
mod downgrade;
#[cfg(test)]
mod downgrade_tests;
mod entries;
mod error;
mod eval_lookup;
mod groups;
mod in_order;
mod options;
mod placing;
mod plan;
mod policy_panic;
mod pool_config;
mod snapshot_time;
mod system;
mod texts;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::FixedState;

use crate::feasibility::{DistinctHostsRules, TargetRules, VolumeRules};
use crate::fit::{FitRules, Settings};
use crate::model::NodesById;
use crate::model::{
    Allocation, Deployment, Evaluation, Job, JobType, NodePool, SchedulerConfig, Snapshot,
    TaskGroup,
};
use crate::now::NowRequest;
use crate::placement::{Cluster, PlacementRecord, Placer, Setup, SpreadRules};
use crate::reconciler::{
    ReconcileInput, Reconciler, Reconciliation, ReleaseFacts, Rules, TaintContext, TaintedNodes,
    tainted_nodes,
};
use crate::reconciler::{UpdateCheck, UpdateKind, skips_feasibility};
use crate::report::*;
use crate::time::Time;
use crate::version::{Evidence, Profile, Survey, Switch, ignored_inputs};
use crate::warning::Warning;
use both::both;
use downgrade::History;
use entries::EntryMaker;
use groups::group_reports;
use in_order::for_each_in_order;

pub use error::ReplayError;
pub use options::Options;

/// The evaluation ID used when neither `--eval` nor the snapshot names one.
///
/// It must not be empty: with an empty ID every failed allocation whose
/// `FollowupEvalID` is empty matches it and is rescheduled at once, which
/// Nomad's unit tests rely on but no real evaluation does.
pub const PLACEHOLDER_EVAL_ID: &str = "plan-inspect-replay";

/// The namespaces of `work`, sorted and each once.
fn namespaces_of(work: &[JobWork<'_>], only_job: Option<&str>) -> Vec<String> {
    let mut names: Vec<String> = work
        .iter()
        .filter(|w| only_job.is_none_or(|j| j == w.id))
        .map(|w| w.namespace.to_string())
        .collect();
    names.dedup();
    names
}

/// One job to evaluate: its spec (absent when purged) and its allocations.
struct JobWork<'a> {
    namespace: &'a str,
    id: &'a str,
    job: Option<&'a Job>,
    allocs: Vec<&'a Allocation>,
}

impl JobWork<'_> {
    /// What its replay holds, roughly: its allocations and the placements
    /// its groups' counts may ask for (a job registered with none placed
    /// yet weighs its count). A system job's placements, one per node,
    /// are not counted beyond the allocations it has.
    fn weight(&self) -> usize {
        let counts = self.job.map_or(0, |j| {
            j.task_groups
                .iter()
                .map(|g| usize::try_from(g.count).unwrap_or(0))
                .sum()
        });
        self.allocs.len() + counts
    }
}

/// A replay of the jobs `--job`, `--namespace` or `--eval` select, ready
/// to run. Its report's head is known before any job is replayed, so that a
/// renderer can write each job's report as it comes and drop it, instead of
/// holding a million allocations' worth at once.
pub struct Replay<'s> {
    snapshot: &'s Snapshot,
    prep: Prepared<'s>,
    work: Vec<JobWork<'s>>,
    threads: usize,
}

impl<'s> Replay<'s> {
    /// Checks the request and finds the jobs to replay, without replaying them.
    pub fn new(snapshot: &'s Snapshot, options: &Options) -> Result<Replay<'s>, ReplayError> {
        let (prep, mut work) = both(
            options.threads > 1,
            || Prepared::new(snapshot, options),
            || collect_jobs(snapshot),
        );
        let prep = prep?;
        let (job_filter, ns_filter) = match prep.eval {
            Some(e) => (Some(e.job_id.as_str()), Some(e.namespace.as_str())),
            None => (options.job.as_deref(), options.namespace.as_deref()),
        };
        if prep.eval.is_none()
            && let Some(ns) = ns_filter
            && !work.iter().any(|w| w.namespace == ns)
        {
            return Err(ReplayError::NamespaceNotFound {
                namespace: ns.to_string(),
                candidates: namespaces_of(&work, None),
            });
        }
        let elsewhere = job_filter.map(|j| namespaces_of(&work, Some(j)));
        work.retain(|w| {
            job_filter.is_none_or(|j| j == w.id) && ns_filter.is_none_or(|n| n == w.namespace)
        });
        if work.is_empty()
            && let Some(job) = job_filter
        {
            return Err(ReplayError::JobNotFound {
                job: job.to_string(),
                namespace: ns_filter.map(str::to_string),
                elsewhere: elsewhere.unwrap_or_default(),
            });
        }
        Ok(Replay {
            snapshot,
            prep,
            work,
            threads: options.threads,
        })
    }

    /// The report without its jobs, with the warnings known before the replay.
    pub fn head(&self) -> Report {
        self.prep.report(Vec::new())
    }

    /// Replays every job into one report.
    pub fn report(self) -> Report {
        let mut report = self.head();
        let mut jobs = Vec::new();
        report.warnings = self.run(|job| job, |job| jobs.push(job));
        report.jobs = jobs;
        report
    }

    /// Replays every job, handing `map` of each one's report to `emit` in
    /// the report's order, and returns every warning, sorted. `map` runs on
    /// the thread that replayed the job (a renderer's share of the work
    /// spread with the replay's), `emit` on the caller's.
    pub fn run<T: Send>(
        self,
        map: impl Fn(JobReport) -> T + Sync,
        mut emit: impl FnMut(T),
    ) -> Vec<Warning> {
        let ctx = self.prep.job_context();
        let mut warnings = self.prep.warnings.clone();
        // Jobs in flight or waiting for their turn, by weight: a sixth of
        // all, and no more than eight average jobs a thread, which keeps
        // the threads busy (docs/performance.md, "Held reports").
        let total = self.work.iter().map(JobWork::weight).sum::<usize>();
        let mean = total.div_ceil(self.work.len().max(1));
        let budget = (total / 6).min(8 * self.threads.max(1) * mean);
        for_each_in_order(
            &self.work,
            self.threads,
            JobWork::weight,
            budget,
            |w| {
                let (report, warnings) = match system_spec(w) {
                    Some(spec) => ctx.system_job(w, Some(spec)),
                    None => ctx.trace_job(w, false, None, |report, rec, _, _| {
                        let warning = policy_panic::missing_policy_warning(ctx.rules, &report, rec);
                        let unknown = ctx.fit_unknown_warning(&report);
                        let csi = ctx.csi_unchecked_warning(w);
                        let dhv = ctx.dynamic_host_volume_warning(w);
                        let gaps = downgrade::version_gaps_warning(&report);
                        let more = warning
                            .into_iter()
                            .chain(unknown)
                            .chain(csi)
                            .chain(dhv)
                            .chain(gaps);
                        (report, more.collect())
                    }),
                };
                (map(report), warnings)
            },
            |(job, job_warnings): (T, Vec<Warning>)| {
                warnings.extend(job_warnings);
                emit(job);
            },
        );
        if self.work.iter().any(|w| system_spec(w).is_some()) {
            warnings.extend(nodes_without_datacenter(self.snapshot));
        }
        warnings.sort();
        warnings
    }
}

/// System jobs target nodes by datacenter; a node without one is taken to
/// be in every job's datacenters, which is said once.
fn nodes_without_datacenter(snapshot: &Snapshot) -> Option<Warning> {
    let n = snapshot
        .nodes
        .iter()
        .filter(|n| n.datacenter.is_empty())
        .count();
    (n > 0).then(|| {
        Warning::new(
            "node_without_datacenter",
            format!(
                "{n} node(s) have no Datacenter: system and sysbatch jobs take them to be in their datacenters"
            ),
        )
    })
}

/// The spec of a `system` or `sysbatch` job (a purged job's from its
/// allocations), which Nomad's system scheduler handles.
fn system_spec<'a>(w: &JobWork<'a>) -> Option<&'a Job> {
    let embedded = w.allocs.iter().find_map(|a| a.job.as_deref());
    w.job.or(embedded).filter(|j| j.is_system())
}

/// One job's replay together with the reconciler's trace, for explanations.
pub struct JobReplay<'r, 'a> {
    /// The whole report with this one job.
    pub report: &'r Report,
    pub reconciliation: &'r Reconciliation<'a>,
    /// The replayed release's choices, as the reconciler reads them.
    pub release: &'r ReleaseFacts,
    /// The nodes the replay found tainted.
    pub tainted: &'r TaintedNodes<'a>,
    pub nodes: &'r NodesById<'a>,
    /// Every node's verdict for each attempt at the placement
    /// [`OneJob::explaining`] names, in the order the stack made them.
    pub placements: &'r [PlacementRecord<'r>],
}

impl JobReplay<'_, '_> {
    pub fn job(&self) -> &JobReport {
        &self.report.jobs[0]
    }
}

/// One system or sysbatch job's replay with the scheduler's decisions, for
/// explanations.
pub struct SystemReplay<'r, 'a> {
    /// The whole report with this one job.
    pub report: &'r Report,
    pub schedule: &'r crate::system::SystemSchedule<'a>,
    pub job: Option<&'a Job>,
    pub nodes: &'r NodesById<'a>,
}

/// One job replayed alone with the decisions behind its report, for
/// explanations: `--job` and `--namespace` are not consulted.
pub struct OneJob<'s> {
    snapshot: &'s Snapshot,
    options: &'s Options,
    work: JobWork<'s>,
    explain: Option<String>,
}

impl<'s> OneJob<'s> {
    /// The job `job_id` of `namespace`.
    pub fn new(
        snapshot: &'s Snapshot,
        options: &'s Options,
        namespace: &str,
        job_id: &str,
    ) -> Result<OneJob<'s>, ReplayError> {
        let work = collect_jobs(snapshot)
            .into_iter()
            .find(|w| w.namespace == namespace && w.id == job_id)
            .ok_or_else(|| ReplayError::JobNotFound {
                job: job_id.to_string(),
                namespace: Some(namespace.to_string()),
                elsewhere: Vec::new(),
            })?;
        Ok(OneJob {
            snapshot,
            options,
            work,
            explain: None,
        })
    }

    /// Records every node's verdict for the placement `name` (`job.group[N]`).
    pub fn explaining(mut self, name: &str) -> OneJob<'s> {
        self.explain = Some(name.to_string());
        self
    }

    /// Whether Nomad's system scheduler handles the job.
    pub fn is_system(&self) -> bool {
        system_spec(&self.work).is_some()
    }

    /// Reconciles the job and hands its report and the reconciler's trace to
    /// `inspect`. An `--eval` must be one of this job.
    pub fn trace<R>(&self, inspect: impl FnOnce(JobReplay<'_, '_>) -> R) -> Result<R, ReplayError> {
        let prep = Prepared::new(self.snapshot, self.options)?;
        if let Some(e) = prep.eval
            && (e.namespace != self.work.namespace || e.job_id != self.work.id)
        {
            return Err(ReplayError::EvalOfOtherJob {
                eval: e.id.to_string(),
                job: self.work.id.to_string(),
            });
        }
        let ctx = prep.job_context();
        let release = ReleaseFacts::of(&prep.rules);
        let explain = self.explain.as_deref();
        Ok(
            ctx.trace_job(&self.work, true, explain, |job, rec, taint, records| {
                let report = prep.report(vec![job]);
                inspect(JobReplay {
                    report: &report,
                    reconciliation: rec,
                    release: &release,
                    tainted: taint.tainted,
                    nodes: &prep.nodes,
                    placements: records,
                })
            }),
        )
    }

    /// Runs the system scheduler on the job and hands its report and
    /// decisions to `inspect`.
    pub fn schedule<R>(
        &self,
        inspect: impl FnOnce(SystemReplay<'_, '_>) -> R,
    ) -> Result<R, ReplayError> {
        let prep = Prepared::new(self.snapshot, self.options)?;
        let ctx = prep.job_context();
        let work = &self.work;
        let tainted = ctx.tainted_nodes(&work.allocs);
        let schedule = ctx.system_schedule(work, &tainted, true);
        let (job, _) = ctx.system_report(work, system_spec(work), &schedule);
        let report = prep.report(vec![job]);
        Ok(inspect(SystemReplay {
            report: &report,
            schedule: &schedule,
            job: work.job,
            nodes: &prep.nodes,
        }))
    }
}

/// What every job's replay shares: the evaluation, its time, the nodes and
/// the current deployments.
struct Prepared<'s> {
    now: Time,
    now_source: NowSource,
    eval: Option<&'s Evaluation>,
    eval_id: String,
    rules: Rules,
    profile: Profile,
    warnings: Vec<Warning>,
    nodes: NodesById<'s>,
    deployments: HashMap<(&'s str, &'s str), &'s Deployment, FixedState>,
    /// Every deployment and job version, for placements of older versions.
    history: History<'s>,
    on_node: AllocsByNode<'s>,
    scheduler: SchedulerConfig,
    /// The node pools whose own configurations the release reads (from
    /// 1.6.0; none before).
    node_pools: &'s [NodePool],
    /// The nodes and what runs on them, for the placement stage.
    cluster: Cluster<'s>,
    placement: Setup,
}

/// Non-terminal allocations by node, in allocation ID order.
pub(crate) type AllocsByNode<'a> = HashMap<&'a str, Vec<&'a Allocation>, FixedState>;

/// Nomad's `structs.EvalStatusBlocked`.
const EVAL_STATUS_BLOCKED: &str = "blocked";

impl<'s> Prepared<'s> {
    fn new(snapshot: &'s Snapshot, options: &Options) -> Result<Prepared<'s>, ReplayError> {
        let (now, now_source) = evaluation_time(snapshot, options)?;
        let mut warnings = snapshot.warnings.clone();
        if now_source == NowSource::Clock {
            warnings.push(Warning::new(
                "now_from_clock",
                "nothing dates the snapshot (no --now, Now or SnapshotMeta): evaluated at the current time, \
                 so the output is not reproducible",
            ));
        }
        if let Some(w) = snapshot_time::now_before_snapshot(snapshot, now, now_source) {
            warnings.push(w);
        }
        let survey = Survey::of(snapshot);
        let evidence = Evidence::find(snapshot, &survey);
        let profile = Profile::choose(options.nomad_version, snapshot.nomad_version, &evidence);
        warnings.extend(profile.warnings());
        let fit_rules = FitRules::of(profile.release);
        let ((ignored, history, on_node), cluster) = both(
            options.threads > 1,
            || {
                (
                    ignored_inputs(&profile, snapshot, &survey),
                    History::new(snapshot),
                    allocs_by_node(snapshot),
                )
            },
            || Cluster::new(snapshot, &fit_rules),
        );
        warnings.extend(ignored);
        warnings.sort();
        warnings.dedup();
        let eval = match &options.eval {
            Some(id) => Some(eval_lookup::find(&snapshot.evals, id, options)?),
            None => None,
        };
        let eval_id = match (eval, &snapshot.eval_id) {
            (Some(e), _) => e.id.to_string(),
            (None, Some(id)) => id.clone(),
            (None, None) => PLACEHOLDER_EVAL_ID.to_string(),
        };
        let scheduler = snapshot
            .scheduler_config
            .clone()
            .unwrap_or_else(SchedulerConfig::server_default);
        let release_rules = Rules::new(profile.release, true);
        let placement = Setup {
            settings: Settings {
                rules: fit_rules,
                memory_oversubscription: scheduler.memory_oversubscription_enabled,
            },
            globs: release_rules.has(Switch::SystemDatacenterGlob),
            pools: release_rules.has(Switch::NodePool),
            spread_algorithm: scheduler.spreads(),
            pool_config: None,
            spread: SpreadRules {
                lowest_boost: release_rules.has(Switch::SpreadLowestBoost),
                implicit_as_one: release_rules.has(Switch::SpreadImplicitTargets),
            },
            volumes: VolumeRules {
                eligible_continues: release_rules.has(Switch::EligibleClassContinues),
                host_per_alloc: release_rules.has(Switch::HostVolumePerAlloc),
                host_per_node: release_rules.has(Switch::HostVolumePerNode),
                topology_contains: release_rules.has(Switch::CsiTopologyContains),
                sticky_needs_dynamic: release_rules.has(Switch::StickyHostVolumeDynamic),
                csi_missing_listed: release_rules.has(Switch::CsiMissingListed),
            },
            targets: TargetRules::of(profile.release),
            distinct_hosts: DistinctHostsRules::of(profile.release),
        };
        Ok(Prepared {
            now,
            now_source,
            eval,
            eval_id,
            cluster,
            placement,
            rules: Rules::new(
                profile.release,
                !options.no_disconnected_clients
                    && snapshot.supports_disconnected_clients.unwrap_or(true),
            ),
            profile,
            warnings,
            nodes: snapshot.nodes.iter().map(|n| (n.id.as_str(), n)).collect(),
            deployments: latest_deployments(&snapshot.deployments),
            history,
            on_node,
            scheduler,
            node_pools: match release_rules.has(Switch::NodePoolSchedulerConfig) {
                true => &snapshot.node_pools,
                false => &[],
            },
        })
    }

    fn job_context(&self) -> JobContext<'_> {
        JobContext {
            nodes: &self.nodes,
            on_node: &self.on_node,
            scheduler: &self.scheduler,
            node_pools: self.node_pools,
            deployments: &self.deployments,
            history: &self.history,
            cluster: &self.cluster,
            placement: self.placement.clone(),
            eval_id: &self.eval_id,
            eval_priority: self.eval.map(|e| e.priority),
            delayed_eval: self.eval.is_some_and(|e| !e.wait_until.is_zero()),
            reblocks: self.eval.filter(|e| e.status == EVAL_STATUS_BLOCKED),
            eval_wait_until: self.eval.map_or(Time::default(), |e| e.wait_until),
            rules: &self.rules,
            now: self.now,
        }
    }

    fn report(&self, jobs: Vec<JobReport>) -> Report {
        Report {
            schema_version: SCHEMA_VERSION,
            now: self.now,
            now_source: self.now_source,
            eval_id: self.eval_id.clone(),
            eval_priority: self.eval.map(|e| e.priority),
            supports_disconnected_clients: self.rules.supports_disconnected_clients(),
            nomad_version: self.profile.clone(),
            jobs,
            warnings: self.warnings.clone(),
        }
    }
}

fn evaluation_time(
    snapshot: &Snapshot,
    options: &Options,
) -> Result<(Time, NowSource), ReplayError> {
    let dated = snapshot.now.or(snapshot.meta_time);
    Ok(match options.now {
        Some(NowRequest::At(t)) => (t, NowSource::Flag),
        Some(NowRequest::FromSnapshot(offset)) => match dated {
            Some(t) => (t.add(offset), NowSource::Flag),
            None => return Err(ReplayError::NowWithoutSnapshotTime { offset }),
        },
        None if snapshot.now.is_some() => (dated.expect("checked"), NowSource::Snapshot),
        None => match dated {
            Some(t) => (t, NowSource::SnapshotMeta),
            None => (options.clock, NowSource::Clock),
        },
    })
}

/// `LatestDeploymentByJobID`: per job, the deployment with the highest
/// `CreateIndex`. Nomad walks them by ID and replaces only on a strictly
/// higher index, so a tie goes to the lowest ID
/// (nomad/state/state_store.go:728-738).
fn latest_deployments(all: &[Deployment]) -> HashMap<(&str, &str), &Deployment, FixedState> {
    let mut out: HashMap<(&str, &str), &Deployment, FixedState> = HashMap::default();
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
fn collect_jobs<'s>(snapshot: &'s Snapshot) -> Vec<JobWork<'s>> {
    let mut work: Vec<JobWork<'_>> = Vec::new();
    let mut index: HashMap<(&str, &str), usize, FixedState> = HashMap::default();
    let mut find = |work: &mut Vec<JobWork<'s>>, namespace: &'s str, id: &'s str| {
        *index.entry((namespace, id)).or_insert_with(|| {
            work.push(JobWork {
                namespace,
                id,
                job: None,
                allocs: Vec::new(),
            });
            work.len() - 1
        })
    };
    for job in &snapshot.jobs {
        let i = find(&mut work, &job.namespace, &job.id);
        work[i].job = Some(job);
    }
    for alloc in &snapshot.allocs {
        let i = find(&mut work, &alloc.namespace, &alloc.job_id);
        work[i].allocs.push(alloc);
    }
    // Kept for the whole replay: no spare room from the doubling.
    for w in &mut work {
        w.allocs.shrink_to_fit();
    }
    work.sort_unstable_by(|a, b| (a.namespace, a.id).cmp(&(b.namespace, b.id)));
    work
}

struct JobContext<'a> {
    nodes: &'a NodesById<'a>,
    /// Every job's non-terminal allocations by node; empty when the
    /// snapshot has no system or sysbatch job.
    on_node: &'a AllocsByNode<'a>,
    /// The cluster's scheduler configuration, or the servers' default.
    scheduler: &'a SchedulerConfig,
    node_pools: &'a [NodePool],
    deployments: &'a HashMap<(&'a str, &'a str), &'a Deployment, FixedState>,
    history: &'a History<'a>,
    cluster: &'a Cluster<'a>,
    placement: Setup,
    eval_id: &'a str,
    eval_priority: Option<i64>,
    /// The replayed evaluation was itself delayed (`WaitUntil` set).
    delayed_eval: bool,
    /// The replayed evaluation when it is itself blocked (an unblocked
    /// evaluation run again): Nomad puts it back rather than create one.
    reblocks: Option<&'a Evaluation>,
    eval_wait_until: Time,
    rules: &'a Rules,
    now: Time,
}

impl<'a> JobContext<'a> {
    /// Reconciles one job and hands its report, the reconciler's trace,
    /// the taint context and the verdicts of the placement named
    /// `explain` to `inspect`.
    fn trace_job<R>(
        &self,
        w: &JobWork<'a>,
        record: bool,
        explain: Option<&str>,
        inspect: impl FnOnce(
            JobReport,
            &Reconciliation<'_>,
            TaintContext<'_, '_>,
            &[PlacementRecord<'_>],
        ) -> R,
    ) -> R {
        // A purged job's type comes from the job its allocations embed.
        let embedded = w.allocs.iter().find_map(|a| a.job.as_deref());
        let spec = w.job.or(embedded);
        let job_type = spec.map_or(JobType::Service, |j| j.job_type.clone());
        let batch = job_type == JobType::Batch;
        let tainted = self.tainted_nodes(&w.allocs);
        let taint = TaintContext {
            tainted: &tainted,
            rules: self.rules,
            now: self.now,
        };
        let generic = !matches!(job_type, JobType::System | JobType::Sysbatch);
        let placer = generic.then(|| self.placer(w)).flatten().map(RefCell::new);
        let rec = self.reconcile(w, spec, batch, &tainted, record, placer.as_ref());
        let mut entries = EntryMaker::new(self.nodes, taint);
        let mut groups = group_reports(w.job, &rec, |_, t| entries.buckets(t));
        let stop = self.stops(w, &tainted, &rec, entries.texts());
        let mut plan = self.plan(w, &rec, entries.texts(), stop);
        plan.scheduler_config = self.config_fact(w.job);
        let records = match placer {
            Some(placer) => {
                let placer = placer.into_inner();
                self.place(w, &rec, &mut plan, &mut groups, placer, explain)
            }
            None => Vec::new(),
        };
        plan.sort();
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
        inspect(report, &rec, taint, &records)
    }

    /// `taintedNodes`.
    fn tainted_nodes(&self, allocs: &[&'a Allocation]) -> TaintedNodes<'a> {
        tainted_nodes(allocs.iter().copied(), |id: &str| {
            self.nodes.get(id).copied()
        })
    }

    /// Runs the reconciler on one job, as `computeJobAllocs` sets it up.
    fn reconcile<'r>(
        &self,
        w: &JobWork<'a>,
        spec: Option<&Job>,
        batch: bool,
        tainted: &'r TaintedNodes<'r>,
        record: bool,
        placer: Option<&RefCell<Placer<'r>>>,
    ) -> Reconciliation<'r>
    where
        'a: 'r,
    {
        let deployment = if batch {
            None
        } else {
            self.deployments.get(&(w.namespace, w.id)).copied()
        };
        let check = UpdateCheck::new(*self.rules);
        let update_fn = |alloc: &'r Allocation, job: &'r Job, tg: &'r TaskGroup| {
            let kind = check.kind(alloc, job, tg, || {
                self.nodes.get(alloc.node_id.as_str()).copied()
            });
            match placer {
                Some(p) if kind == UpdateKind::InPlace && !skips_feasibility(alloc, self.rules) => {
                    match p.borrow_mut().check_in_place(alloc, tg) {
                        Ok(()) => kind,
                        Err(misfit) => {
                            let why = misfit.describe(&alloc.node_id);
                            UpdateKind::Destructive(Arc::new(why.as_str().into()))
                        }
                    }
                }
                _ => kind,
            }
        };
        Reconciler::new(ReconcileInput {
            job: w.job,
            job_id: w.id,
            batch,
            deployment,
            allocs: w.allocs.clone(),
            tainted,
            eval_id: self.eval_id,
            eval_priority: self.eval_priority.unwrap_or(spec.map_or(0, |j| j.priority)),
            rules: self.rules,
            now: self.now,
            update_fn: &update_fn,
            record,
        })
        .compute()
    }
}

/// Every non-terminal allocation by node, in allocation ID order (the
/// order preemption takes its candidates in); nothing when no job is
/// scheduled by the system scheduler.
fn allocs_by_node(snapshot: &Snapshot) -> AllocsByNode<'_> {
    let mut out: AllocsByNode<'_> = HashMap::default();
    let system = |t: &JobType| matches!(t, JobType::System | JobType::Sysbatch);
    if !snapshot.jobs.iter().any(|j| system(&j.job_type)) {
        return out;
    }
    for a in snapshot.allocs.iter().filter(|a| !a.terminal_status()) {
        out.entry(a.node_id.as_str()).or_default().push(a);
    }
    for list in out.values_mut() {
        list.sort_by(|a, b| a.id.cmp(&b.id));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Shared, TaskGroup};

    #[test]
    fn a_job_weighs_its_allocations_and_the_placements_its_counts_ask_for() {
        let group = |count| {
            Shared::from(TaskGroup {
                count,
                ..TaskGroup::default()
            })
        };
        let job = Job {
            task_groups: vec![group(5), group(2)],
            ..Job::default()
        };
        let alloc = Allocation::default();
        let work = |job, allocs| JobWork {
            namespace: "default",
            id: "web",
            job,
            allocs,
        };
        assert_eq!(work(Some(&job), vec![]).weight(), 7);
        assert_eq!(work(Some(&job), vec![&alloc, &alloc]).weight(), 9);
        assert_eq!(work(None, vec![&alloc]).weight(), 1);
    }
}
