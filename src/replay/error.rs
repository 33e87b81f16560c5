//! A request the snapshot cannot answer, in the user's words.

use std::fmt;

use crate::time::format_duration;

/// A request the snapshot cannot answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// No evaluation ID starts with it; the snapshot's evaluations, `ID (job)`.
    EvalNotFound {
        eval: String,
        candidates: Vec<String>,
    },
    /// The prefix matches several evaluations: `ID (job)` of each.
    EvalAmbiguous {
        eval: String,
        candidates: Vec<String>,
    },
    /// `--eval` and `--job` (or `--namespace`) name different jobs.
    EvalNotOfJob {
        eval: String,
        eval_job: String,
        job: String,
    },
    /// `--eval` names an evaluation of another job than the one explained.
    EvalOfOtherJob { eval: String, job: String },
    /// No job has that ID (in that namespace); where the ID is found in
    /// other namespaces, those.
    JobNotFound {
        job: String,
        namespace: Option<String>,
        elsewhere: Vec<String>,
    },
    /// `--now` is an offset from the snapshot's time, and nothing dates it.
    NowWithoutSnapshotTime { offset: crate::time::Duration },
    /// `--namespace` names a namespace that no job or allocation of the
    /// snapshot is in; the namespaces of its jobs and of the allocations
    /// read (the reader skips other namespaces' allocations).
    NamespaceNotFound {
        namespace: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::EvalNotFound { eval, candidates } if candidates.is_empty() => {
                write!(f, "no evaluation {eval:?}: the snapshot has no Evals")
            }
            ReplayError::EvalNotFound { eval, candidates } => write!(
                f,
                "no evaluation ID starts with {eval:?}; the snapshot's Evals: {}",
                candidates.join(", ")
            ),
            ReplayError::EvalAmbiguous { eval, candidates } => write!(
                f,
                "{eval:?} matches {} evaluations: {}; give more of the ID",
                candidates.len(),
                candidates.join(", ")
            ),
            ReplayError::EvalNotOfJob {
                eval,
                eval_job,
                job,
            } => write!(
                f,
                "evaluation {eval} is of job {eval_job:?}, not of --job {job:?}; drop --job, or pick an \
                 evaluation of that job"
            ),
            ReplayError::EvalOfOtherJob { eval, job } => {
                write!(f, "evaluation {eval:?} is not an evaluation of job {job:?}")
            }
            ReplayError::JobNotFound {
                job,
                namespace: Some(ns),
                elsewhere,
            } if !elsewhere.is_empty() => write!(
                f,
                "no job {job:?} in namespace {ns:?}; the snapshot has it in {}: pass that \
                 --namespace, or drop it",
                quoted(elsewhere)
            ),
            ReplayError::JobNotFound {
                job,
                namespace: Some(ns),
                ..
            } => {
                write!(f, "no job {job:?} in namespace {ns:?} in the snapshot")
            }
            ReplayError::JobNotFound {
                job,
                namespace: None,
                ..
            } => write!(f, "no job {job:?} in the snapshot"),
            ReplayError::NowWithoutSnapshotTime { offset } => write!(
                f,
                "--now {}{} is an offset from the snapshot's time, and nothing dates this snapshot \
                 (no Now key, no SnapshotMeta): give an RFC 3339 time or a Unix timestamp",
                if *offset < 0 { "" } else { "+" },
                format_duration(*offset)
            ),
            ReplayError::NamespaceNotFound {
                namespace,
                candidates,
            } if candidates.is_empty() => write!(
                f,
                "no namespace {namespace:?}: the snapshot has no jobs or allocations"
            ),
            ReplayError::NamespaceNotFound {
                namespace,
                candidates,
            } => write!(
                f,
                "no job or allocation in namespace {namespace:?}; the snapshot's namespaces: {}",
                quoted(candidates)
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// `"a", "b"`: names as the user would type them.
fn quoted(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    quoted.join(", ")
}
