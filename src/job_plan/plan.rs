//! `Job.Plan` (nomad/nomad/job_endpoint.go): the job admitted, registered
//! into a copy of the snapshot as the state store would, evaluated by the
//! scheduler of its type, its diff annotated with the plan's counts.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::admission::{implied_constraints, validate};
use super::annotate::annotate;
use super::canonical::canonicalize;
use super::connect::connect;
use super::connect_validate::connect_error;
use super::consul_hook::{consul_error, consul_hook};
use super::diff_types::JobDiff;
use super::expose_check::{expose_checks, expose_error};
use super::identities::implicit_identities;
use super::job_diff::job_diff;
use super::multierror::multierror;
use super::periodic::{next_launch, rfc3339};
use super::same::same;
use super::warnings::{job_warnings, memory_max_warnings};
use crate::model::{self, Job, Release, Snapshot};
use crate::replay::{Options, Replay, ReplayError};
use crate::report::Report;
use crate::time::{Duration, SECOND};
use crate::version::{Switch, Switches};

/// What `nomad job plan` answers besides the evaluation (contract section
/// 10's `job_plan`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobPlan {
    /// The current job's `JobModifyIndex` (0 for a new job), for
    /// `nomad job run -check-index`.
    pub job_modify_index: u64,
    /// The next launch of a periodic job after the evaluation time, in
    /// RFC 3339 in the job's time zone; null when the job is not periodic,
    /// is disabled or parameterized, or its spec matches no later time.
    pub next_periodic_launch: Option<String>,
    /// How long after the evaluation time (truncated to seconds) that
    /// launch is, as `nomad job plan` says it.
    #[serde(skip)]
    pub next_periodic_wait: Option<Duration>,
    /// The register endpoint's warnings.
    pub warnings: Vec<String>,
    pub diff: JobDiff,
}

/// A job Nomad would reject, or a snapshot that cannot be planned against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// Nomad's validation message for the job.
    Invalid(String),
    /// Nomad's plan fails on the periodic spec (`Failed to parse cron
    /// expression`), which validation accepted.
    Periodic(String),
    /// The job's namespace is not among the snapshot's `Namespaces`.
    NoNamespace {
        job: String,
        namespace: String,
    },
    Replay(ReplayError),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Invalid(m) => write!(f, "Nomad would reject the job: {}", m.trim_end()),
            PlanError::NoNamespace { job, namespace } => write!(
                f,
                "job {job:?} is in nonexistent namespace {namespace:?}: the snapshot's Namespaces \
                 do not list it"
            ),
            PlanError::Periodic(m) => write!(
                f,
                "Nomad's plan fails: Failed to parse cron expression: {m}; fix the job's \
                 periodic spec"
            ),
            PlanError::Replay(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlanError {}

impl From<ReplayError> for PlanError {
    fn from(e: ReplayError) -> Self {
        PlanError::Replay(e)
    }
}

/// The job as the server stores it for `release`, with the warnings of its
/// admission, or Nomad's reasons to refuse it.
pub fn admit(
    mut job: Map<String, Value>,
    release: Release,
) -> Result<Map<String, Value>, PlanError> {
    // The mutators in the server's order; the first error stops them, named
    // after its mutator (v1.10.5 nomad/job_endpoint_hooks.go:118).
    let mutator = |name: &'static str| {
        move |e: String| PlanError::Invalid(format!("error in job mutator {name}: {e}"))
    };
    canonicalize(&mut job, release);
    consul_hook(&mut job, release);
    connect(&mut job, release).map_err(mutator("connect"))?;
    expose_checks(&mut job, release).map_err(mutator("expose-check"))?;
    implied_constraints(&mut job, release);
    implicit_identities(&mut job, release);
    // Every validator runs; their errors make one list, the hooks' before
    // the job's own checks.
    let rules = Switches::of(release);
    let mut errors: Vec<String> = [
        connect_error(&job, rules),
        expose_error(&job, rules),
        consul_error(&job, release),
    ]
    .into_iter()
    .flatten()
    .collect();
    errors.extend(validate(&job, release));
    if !errors.is_empty() {
        return Err(PlanError::Invalid(multierror(&errors)));
    }
    Ok(job)
}

/// The namespace and ID a job file's job is planned under.
pub fn job_key(job: &Map<String, Value>) -> (String, String) {
    let text = |k: &str| {
        job.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let ns = Some(text("Namespace"))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "default".into());
    (ns, text("ID"))
}

/// The fields the state store sets, which never make a spec change.
const SERVER_SET: &[&str] = &[
    "Status",
    "StatusDescription",
    "Stable",
    "Version",
    "CreateIndex",
    "ModifyIndex",
    "JobModifyIndex",
    "SubmitTime",
];

/// Plans `job` (the API job of the job file) against `snapshot`, whose
/// `planned_job_text` is the current version's JSON when the job exists.
pub fn plan_job(
    snapshot: &Snapshot,
    job: Map<String, Value>,
    options: &Options,
) -> Result<(Report, JobPlan), PlanError> {
    let release = Replay::new(
        snapshot,
        &Options {
            job: None,
            namespace: None,
            ..options.clone()
        },
    )?
    .head()
    .nomad_version
    .release;
    let mut job = admit(job, release)?;
    // `memoryOversubscriptionValidate` reads the job's node pool's own
    // setting from 1.6.0 (nomad/job_endpoint_hooks.go:325-330 at 1.6.0).
    let pool = Switch::NodePoolSchedulerConfig
        .in_release(release)
        .then(|| {
            job.get("NodePool")
                .and_then(Value::as_str)
                .unwrap_or_default()
        });
    let oversubscription = snapshot
        .scheduler_config_for(pool)
        .config
        .memory_oversubscription_enabled;
    let mut warnings = job_warnings(&job, release);
    warnings.extend(memory_max_warnings(&job, oversubscription));
    let (namespace, id) = job_key(&job);
    let old: Option<Value> = snapshot
        .planned_job_text
        .as_deref()
        .and_then(|t| serde_json::from_str(t).ok());
    let old_map = old.as_ref().and_then(Value::as_object);
    // The state store refuses a job in a namespace it does not have
    // (v1.10.5 nomad/state/state_store.go:1758); a dump without the
    // `Namespaces` key is assumed to have it.
    let known = |names: &Vec<String>| names.contains(&namespace);
    if old_map.is_none() && snapshot.namespaces.as_ref().is_some_and(|n| !known(n)) {
        return Err(PlanError::NoNamespace { job: id, namespace });
    }
    carry_server_set(&mut job, old_map);
    let job_modify_index = old_map.map_or(0, |o| u64_of(o, "JobModifyIndex"));
    let registered = register(old_map, job.clone());
    let mut planned = snapshot.clone();
    if let Some(new) = registered {
        let bytes = serde_json::to_vec(&new).unwrap_or_default();
        let parsed: Job = model::from_slice(&bytes).map_err(|e| {
            PlanError::Invalid(format!("the canonical job does not read back: {e}"))
        })?;
        let (replaced, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut planned.jobs)
            .into_iter()
            .partition(|j| j.namespace == namespace && j.id == id);
        planned.jobs = kept;
        // The version it replaces stays one of the job's versions, as the
        // state's job version table keeps it.
        for old in replaced {
            let kept = |j: &Arc<Job>| {
                j.namespace == old.namespace && j.id == old.id && j.version == old.version
            };
            if !planned.job_versions.iter().any(kept) {
                planned.job_versions.push(old);
            }
        }
        planned.jobs.push(Arc::new(parsed));
    }
    // The plan endpoint's planner says no to "servers meet minimum version"
    // (v1.10.5 nomad/job_endpoint.go:1896 with scheduler/testing.go:262;
    // v2.0.5 job_endpoint.go:1892, scheduler/structs/structs.go:237): the
    // reconciler runs without disconnected-client support.
    let eval_options = Options {
        job: Some(id.clone()),
        namespace: Some(namespace.clone()),
        no_disconnected_clients: true,
        eval: None,
        ..options.clone()
    };
    let report = Replay::new(&planned, &eval_options)?.report();
    let now = report.now.unix_nanos_i64().div_euclid(SECOND);
    let next = next_launch(&job, now, release).map_err(PlanError::Periodic)?;
    let rules = Switches::of(release);
    let mut diff = job_diff(old.as_ref(), &Value::Object(job), true, rules);
    let desired: BTreeMap<String, _> = report
        .jobs
        .iter()
        .flat_map(|j| &j.groups)
        .map(|g| (g.name.clone(), g.desired_changes.reconciler.clone()))
        .collect();
    annotate(&mut diff, &desired, rules);
    Ok((
        report,
        JobPlan {
            job_modify_index,
            next_periodic_launch: next.as_ref().map(|(t, zone)| rfc3339(*t, zone)),
            next_periodic_wait: next.map(|(t, _)| (t - now) * SECOND),
            warnings,
            diff,
        },
    ))
}

/// Server-set blocks an API job cannot carry (a task's default workload
/// identity, a scaling policy's ID) are taken from the current version, so
/// that they never count as a change.
fn carry_server_set(job: &mut Map<String, Value>, old: Option<&Map<String, Value>>) {
    let Some(old) = old else { return };
    let groups = |m: &Map<String, Value>| {
        m.get("TaskGroups")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let old_groups = groups(old);
    let named = |list: &[Value], name: &str| {
        list.iter()
            .find(|v| v.get("Name").and_then(Value::as_str) == Some(name))
            .cloned()
    };
    let Some(new_groups) = job.get_mut("TaskGroups").and_then(Value::as_array_mut) else {
        return;
    };
    for g in new_groups.iter_mut().filter_map(Value::as_object_mut) {
        let name = g
            .get("Name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let Some(og) = named(&old_groups, &name) else {
            continue;
        };
        if let (Some(Value::Object(s)), Some(id)) =
            (g.get_mut("Scaling"), og.pointer("/Scaling/ID"))
        {
            s.entry("ID").or_insert_with(|| id.clone());
        }
        let old_tasks = og
            .get("Tasks")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for t in g
            .get_mut("Tasks")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let Some(t) = t.as_object_mut() else { continue };
            let tname = t
                .get("Name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if let Some(ot) = named(&old_tasks, &tname)
                && t.get("Identity").is_none_or(Value::is_null)
                && let Some(identity) = ot.get("Identity").filter(|v| !v.is_null())
            {
                t.insert("Identity".into(), identity.clone());
            }
        }
    }
}

/// The job the plan's snapshot holds, as `Job.Plan` upserts it: none when
/// the spec did not change (the current job stays, `SpecChanged`); else the
/// next version at the current `JobModifyIndex` + 1, or version 0 at index
/// 100 for a new job.
fn register(old: Option<&Map<String, Value>>, mut job: Map<String, Value>) -> Option<Value> {
    let set = |job: &mut Map<String, Value>, k: &str, v: Value| {
        job.insert(k.to_string(), v);
    };
    match old {
        Some(old) => {
            let mut compared = job.clone();
            for k in SERVER_SET {
                match old.get(*k) {
                    Some(v) => compared.insert((*k).to_string(), v.clone()),
                    None => compared.remove(*k),
                };
            }
            if same(&Value::Object(old.clone()), &Value::Object(compared)) {
                return None;
            }
            let index = u64_of(old, "JobModifyIndex") + 1;
            set(&mut job, "Version", json!(u64_of(old, "Version") + 1));
            set(&mut job, "CreateIndex", json!(u64_of(old, "CreateIndex")));
            set(&mut job, "ModifyIndex", json!(index));
            set(&mut job, "JobModifyIndex", json!(index));
            set(&mut job, "Status", json!("pending"));
        }
        None => {
            for k in ["CreateIndex", "ModifyIndex", "JobModifyIndex"] {
                set(&mut job, k, json!(100));
            }
            set(&mut job, "Version", json!(0));
            set(&mut job, "Status", json!("pending"));
        }
    }
    set(&mut job, "Stable", json!(false));
    Some(Value::Object(job))
}

fn u64_of(m: &Map<String, Value>, k: &str) -> u64 {
    m.get(k).and_then(Value::as_u64).unwrap_or(0)
}
