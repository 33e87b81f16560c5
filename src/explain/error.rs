//! Why a subject cannot be explained.

use std::fmt;

use crate::replay::ReplayError;

/// Why a subject cannot be explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplainError {
    NotFound(String),
    /// The prefix matches several allocations: `ID (name)` of each.
    Ambiguous {
        subject: String,
        candidates: Vec<String>,
    },
    /// The subject is of another job than `--job` (and `--namespace`).
    NotOfJob {
        subject: String,
        /// `namespace/job` of the subject, or of each job with such a placement name.
        found: Vec<String>,
        job: String,
    },
    /// The name belongs to a job whose plan does not place it.
    NotPlaced {
        name: String,
        job: String,
    },
    /// A system or sysbatch job places per node: the subject must name one.
    NeedsNode {
        name: String,
        job: String,
    },
    /// No node has that ID, name or ID prefix: the snapshot's nodes.
    NodeNotFound {
        node: String,
        candidates: Vec<String>,
    },
    /// The name or prefix matches several nodes.
    NodeAmbiguous {
        node: String,
        matches: Vec<String>,
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
            ExplainError::NotOfJob {
                subject,
                found,
                job,
            } => write!(
                f,
                "{subject:?} is of {}, not of --job {job:?}; drop --job to explain it",
                found.join(", ")
            ),
            ExplainError::NotPlaced { name, job } => {
                write!(f, "the plan of job {job:?} places no {name:?}")
            }
            ExplainError::NeedsNode { name, job } => write!(
                f,
                "job {job:?} is a system or sysbatch job, which places {name:?} once per node: \
                 name the node as {name}@NODE (a node ID or ID prefix)"
            ),
            ExplainError::NodeNotFound { node, candidates } if candidates.is_empty() => {
                write!(f, "no node {node:?}: the snapshot has no nodes")
            }
            ExplainError::NodeNotFound { node, candidates } => write!(
                f,
                "no node has the ID, name or ID prefix {node:?}; the snapshot's nodes: {}",
                candidates.join(", ")
            ),
            ExplainError::NodeAmbiguous { node, matches } => write!(
                f,
                "{node:?} matches {} nodes: {}; give more of the ID",
                matches.len(),
                matches.join(", ")
            ),
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
