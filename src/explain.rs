//! `--explain`: the reconciler's decisions about one allocation or one
//! placement, step by step with the facts and arithmetic behind each.
//!
//! Pure: built from the snapshot and one job's replay trace, never by
//! re-running the reconciler's rules; the renderers turn it into text.

mod allocation;
mod placement;

use std::fmt;

use serde::Serialize;

use crate::model::{Allocation, Snapshot};
use crate::reconciler::Bucket;
use crate::replay::{Options, ReplayError, replay_for_explain};
use crate::report::NowSource;
use crate::time::{Time, format_duration};

/// What `--explain` explains and why, in order.
#[derive(Clone, Debug, Serialize)]
pub struct Explanation {
    pub subject: Subject,
    pub namespace: String,
    pub job: String,
    /// The current job version.
    pub job_version: u64,
    pub task_group: String,
    pub now: Time,
    pub now_source: NowSource,
    pub eval_id: String,
    /// The allocation's bucket; `None` when set aside, or for a placement.
    pub bucket: Option<Bucket>,
    /// What the plan does, one line per action; empty when nothing.
    pub fate: Vec<String>,
    /// Whether the plan changes the subject as `Plan.IsNoOp` counts changes
    /// ([`crate::report::Plan::touches`]); a placement always does. This is
    /// what `--detailed-exitcode` reports for `--explain`.
    pub changed: bool,
    pub steps: Vec<Step>,
}

/// The allocation or placement explained.
#[derive(Clone, Debug, Serialize)]
pub struct Subject {
    pub kind: SubjectKind,
    /// The allocation ID; `None` for a placement.
    pub id: Option<String>,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SubjectKind {
    Allocation,
    Placement,
}

/// One step of the reconciler: what it concluded and from which facts.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub title: String,
    pub conclusion: String,
    pub facts: Vec<Fact>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Fact {
    pub name: String,
    pub value: String,
}

impl Step {
    fn new(title: &str, conclusion: impl Into<String>) -> Step {
        Step {
            title: title.to_string(),
            conclusion: conclusion.into(),
            facts: Vec::new(),
        }
    }

    fn fact(mut self, name: &str, value: impl Into<String>) -> Step {
        self.facts.push(Fact {
            name: name.to_string(),
            value: value.into(),
        });
        self
    }
}

/// Why a subject cannot be explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplainError {
    NotFound(String),
    /// The prefix matches several allocations: `ID (name)` of each.
    Ambiguous {
        subject: String,
        candidates: Vec<String>,
    },
    /// The name belongs to a job whose plan does not place it.
    NotPlaced {
        name: String,
        job: String,
    },
    Replay(ReplayError),
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplainError::NotFound(s) => write!(
                f,
                "no allocation ID starts with {s:?}, and no job's task group has a placement of that name"
            ),
            ExplainError::Ambiguous {
                subject,
                candidates,
            } => write!(
                f,
                "{subject:?} matches {} allocations: {}",
                candidates.len(),
                candidates.join(", ")
            ),
            ExplainError::NotPlaced { name, job } => {
                write!(f, "the plan of job {job:?} places no {name:?}")
            }
            ExplainError::Replay(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ExplainError {}

impl From<ReplayError> for ExplainError {
    fn from(e: ReplayError) -> ExplainError {
        ExplainError::Replay(e)
    }
}

/// Explains `subject`: an allocation ID or unique ID prefix, else a
/// placement name (`job.group[index]`).
pub fn explain(
    snapshot: &Snapshot,
    options: &Options,
    subject: &str,
) -> Result<Explanation, ExplainError> {
    if let Some(alloc) = find_alloc(snapshot, subject)? {
        return Ok(replay_for_explain(
            snapshot,
            options,
            &alloc.namespace,
            &alloc.job_id,
            |jr| allocation::explain(&jr, alloc),
        )?);
    }
    let (namespace, job) = placement_job(snapshot, options, subject)?;
    replay_for_explain(snapshot, options, namespace, job, |jr| {
        placement::explain(&jr, subject)
    })?
}

/// The allocation whose ID is `subject` or, failing that, the only one whose
/// ID starts with it.
fn find_alloc<'s>(
    snapshot: &'s Snapshot,
    subject: &str,
) -> Result<Option<&'s Allocation>, ExplainError> {
    if let Some(a) = snapshot.allocs.iter().find(|a| a.id == subject) {
        return Ok(Some(a));
    }
    let mut matches: Vec<&Allocation> = snapshot
        .allocs
        .iter()
        .filter(|a| a.id.starts_with(subject))
        .collect();
    match matches.len() {
        0 => Ok(None),
        1 => Ok(matches.pop()),
        _ => {
            matches.sort_by(|a, b| a.id.cmp(&b.id));
            Err(ExplainError::Ambiguous {
                subject: subject.to_string(),
                candidates: matches
                    .iter()
                    .map(|a| format!("{} ({})", a.id, a.name))
                    .collect(),
            })
        }
    }
}

/// The one job (namespace, ID) with a task group `G` such that `name` is
/// `job.G[N]`; `--namespace` narrows the choice.
fn placement_job<'s>(
    snapshot: &'s Snapshot,
    options: &Options,
    name: &str,
) -> Result<(&'s str, &'s str), ExplainError> {
    let mut jobs: Vec<(&str, &str)> = snapshot
        .jobs
        .iter()
        .filter(|j| {
            options
                .namespace
                .as_deref()
                .is_none_or(|n| n == j.namespace)
        })
        .filter(|j| {
            j.task_groups.iter().any(|tg| {
                name.strip_prefix(j.id.as_str())
                    .and_then(|rest| rest.strip_prefix('.'))
                    .and_then(|rest| rest.strip_prefix(tg.name.as_str()))
                    .and_then(|rest| rest.strip_prefix('['))
                    .and_then(|rest| rest.strip_suffix(']'))
                    .is_some_and(|n| n.parse::<u64>().is_ok())
            })
        })
        .map(|j| (j.namespace.as_str(), j.id.as_str()))
        .collect();
    jobs.sort();
    match jobs.len() {
        0 => Err(ExplainError::NotFound(name.to_string())),
        1 => Ok(jobs[0]),
        _ => Err(ExplainError::Ambiguous {
            subject: name.to_string(),
            candidates: jobs.iter().map(|(ns, id)| format!("{ns}/{id}")).collect(),
        }),
    }
}

/// A time with its distance from `now`: `2022-04-01T12:05:00Z (in 5m)`.
fn at(t: Time, now: Time) -> String {
    let d = t.sub(now);
    match d {
        0 => format!("{t} (now)"),
        d if d > 0 => format!("{t} (in {})", format_duration(d)),
        d => format!("{t} ({} ago)", format_duration(-d)),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}
