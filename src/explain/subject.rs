//! Which allocation, placement or node a subject names, and whether it is
//! of the job `--job` and `--namespace` ask for.

use super::error::ExplainError;
use crate::model::{Allocation, Node, Snapshot};
use crate::replay::Options;

/// The node whose ID is `text`, else whose name is, else the one whose ID
/// starts with it.
pub fn find_node<'s>(snapshot: &'s Snapshot, text: &str) -> Result<&'s Node, ExplainError> {
    if let Some(n) = snapshot.nodes.iter().find(|n| n.id == text) {
        return Ok(n);
    }
    let mut by_name: Vec<&Node> = snapshot.nodes.iter().filter(|n| n.name == text).collect();
    if by_name.is_empty() {
        by_name = snapshot
            .nodes
            .iter()
            .filter(|n| n.id.starts_with(text))
            .collect();
    }
    by_name.sort_by(|a, b| a.id.cmp(&b.id));
    by_name.dedup_by(|a, b| a.id == b.id);
    let listed = |nodes: &[&Node]| -> Vec<String> {
        let mut out: Vec<String> = nodes
            .iter()
            .take(NODES_LISTED)
            .map(|n| node_words(n))
            .collect();
        if nodes.len() > NODES_LISTED {
            out.push(format!("and {} more", nodes.len() - NODES_LISTED));
        }
        out
    };
    match by_name.as_slice() {
        [one] => Ok(one),
        [] => {
            let mut all: Vec<&Node> = snapshot.nodes.iter().collect();
            all.sort_by(|a, b| a.id.cmp(&b.id));
            Err(ExplainError::NodeNotFound {
                node: text.to_string(),
                candidates: listed(&all),
            })
        }
        many => Err(ExplainError::NodeAmbiguous {
            node: text.to_string(),
            matches: listed(many),
        }),
    }
}

/// Nodes an error lists before it counts the rest.
const NODES_LISTED: usize = 10;

/// `ID (name)`, or the ID alone when the node has no other name.
fn node_words(n: &Node) -> String {
    if n.name.is_empty() || n.name == n.id {
        n.id.clone()
    } else {
        format!("{} ({})", n.id, n.name)
    }
}

/// An error unless `--job` and `--namespace`, where given, name the job
/// (`namespace`, `job`) that `subject` belongs to.
pub fn ensure_of_job(
    options: &Options,
    subject: &str,
    namespace: &str,
    job: &str,
) -> Result<(), ExplainError> {
    if of_job(options, namespace, job) {
        return Ok(());
    }
    Err(ExplainError::NotOfJob {
        subject: subject.to_string(),
        found: vec![format!("job {namespace}/{job}")],
        job: asked_job(options),
    })
}

/// The allocation whose ID is `subject` or, failing that, the only one whose
/// ID starts with it.
pub(super) fn find_alloc<'s>(
    snapshot: &'s Snapshot,
    subject: &str,
) -> Result<Option<&'s Allocation>, ExplainError> {
    if let Some(a) = snapshot.allocs.iter().find(|a| a.id == subject) {
        return Ok(Some(a));
    }
    let mut matches: Vec<&Allocation> = snapshot
        .allocs
        .iter()
        .filter(|a| a.id.with_str(|id| id.starts_with(subject)))
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
                    .map(|a| format!("{} ({})", a.id, a.name()))
                    .collect(),
            })
        }
    }
}

/// Whether `--job` and `--namespace`, where given, name this job.
fn of_job(options: &Options, namespace: &str, job: &str) -> bool {
    options.job.as_deref().is_none_or(|j| j == job)
        && options.namespace.as_deref().is_none_or(|n| n == namespace)
}

/// `--job` and `--namespace` as one name, for messages.
fn asked_job(options: &Options) -> String {
    match (&options.namespace, &options.job) {
        (Some(ns), Some(j)) => format!("{ns}/{j}"),
        (Some(ns), None) => format!("{ns}/*"),
        (None, Some(j)) => j.clone(),
        (None, None) => String::new(),
    }
}

/// The one job (namespace, ID) with a task group `G` such that `name` is
/// `job.G[N]`.
pub(super) fn placement_job<'s>(
    snapshot: &'s Snapshot,
    name: &str,
) -> Result<(&'s str, &'s str), ExplainError> {
    let mut jobs: Vec<(&str, &str)> = snapshot
        .jobs
        .iter()
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
