//! Finding the node, allocation or deployment an event names: an ID, an
//! unambiguous ID prefix, or a name (for a deployment its job's ID), as the
//! Nomad CLI accepts them.

use crate::model::{Allocation, Deployment, DesiredStatus, Node};
use crate::time::Time;

use super::error::WhatIfError;
use super::event::EventSpec;

/// At most this many candidates are listed in a message.
const SHOWN: usize = 10;

/// The index in `nodes` of the node `spec` names: its ID, else its name,
/// else the one node whose ID starts with it.
pub fn node(nodes: &[Node], spec: &EventSpec) -> Result<usize, WhatIfError> {
    let text = spec.target.as_str();
    if let Some(i) = nodes.iter().position(|n| n.id == text) {
        return Ok(i);
    }
    let by_name: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].name == text)
        .collect();
    let by_prefix: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].id.starts_with(text))
        .collect();
    let matches = if by_name.is_empty() {
        by_prefix
    } else {
        by_name
    };
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => Err(WhatIfError::NodeNotFound {
            event: spec.text.clone(),
            node: text.to_string(),
            candidates: listed(nodes.iter().map(describe_node)),
        }),
        many => Err(WhatIfError::NodeAmbiguous {
            event: spec.text.clone(),
            node: text.to_string(),
            matches: listed(many.iter().map(|&i| describe_node(&nodes[i]))),
        }),
    }
}

/// Where an allocation is looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Before the story runs, among the snapshot's allocations.
    Snapshot,
    /// When the event happens, at `at`: `allocs` is the story's world then,
    /// whose allocations from `placed_from` on are the ones it placed.
    Story { placed_from: usize, at: Time },
}

/// The index in `allocs` of the allocation `text` (`spec`'s target, or
/// one of its health request's allocations) names. An ID or ID prefix
/// is looked for among the snapshot's allocations first, then among those
/// the story placed; a name (`job.group[index]`) names the one live
/// allocation of that name when the event happens. `None` when the lookup
/// waits for the event: with [`Lookup::Snapshot`], for a name or an ID no
/// snapshot allocation has; with [`Lookup::Story`] never.
pub fn alloc(
    allocs: &[Allocation],
    spec: &EventSpec,
    text: &str,
    lookup: Lookup,
) -> Result<Option<usize>, WhatIfError> {
    let is_name = reads_as_name(text);
    match lookup {
        Lookup::Snapshot if is_name => Ok(None),
        Lookup::Snapshot => match by_id(allocs, 0, text).as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(*one)),
            many => Err(ambiguous(allocs, spec, text, many)),
        },
        Lookup::Story { at, .. } if is_name => by_name(allocs, spec, text, at).map(Some),
        Lookup::Story { placed_from, at } => match by_id(allocs, placed_from, text).as_slice() {
            [one] => Ok(Some(*one)),
            [] => Err(WhatIfError::AllocNotFound {
                event: spec.text.clone(),
                alloc: text.to_string(),
                candidates: listed((0..placed_from).map(|i| describe_alloc(&allocs[i]))),
                at,
                placed: listed(allocs[placed_from..].iter().map(describe_alloc)),
            }),
            many => Err(ambiguous(allocs, spec, text, many)),
        },
    }
}

/// Whether `text` is written as an allocation's name (`job.group[index]`)
/// rather than an ID or ID prefix.
pub(super) fn reads_as_name(text: &str) -> bool {
    text.ends_with(']') && text.contains('[')
}

/// The allocations from `from` on with the ID `text`, else those whose ID
/// starts with it.
fn by_id(allocs: &[Allocation], from: usize, text: &str) -> Vec<usize> {
    if let Some(i) = (from..allocs.len()).find(|&i| allocs[i].id == text) {
        return vec![i];
    }
    (from..allocs.len())
        .filter(|&i| allocs[i].id.with_str(|id| id.starts_with(text)))
        .collect()
}

/// The one live allocation named `name` at `at`.
pub(super) fn by_name(
    allocs: &[Allocation],
    spec: &EventSpec,
    name: &str,
    at: Time,
) -> Result<usize, WhatIfError> {
    let matches: Vec<usize> = (0..allocs.len())
        .filter(|&i| live(&allocs[i]) && allocs[i].name() == name)
        .collect();
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => {
            let mut names: Vec<String> = allocs
                .iter()
                .filter(|a| live(a))
                .map(|a| a.name().to_string())
                .collect();
            names.sort();
            names.dedup();
            Err(WhatIfError::AllocNameNotLive {
                event: spec.text.clone(),
                name: name.to_string(),
                at,
                live: listed(names.into_iter()),
            })
        }
        many => Err(WhatIfError::AllocNameAmbiguous {
            event: spec.text.clone(),
            name: name.to_string(),
            at,
            matches: listed(many.iter().map(|&i| {
                let a = &allocs[i];
                format!("{} (namespace {}, job {})", a.id, a.namespace, a.job_id)
            })),
        }),
    }
}

/// The index in `deployments` (the cluster as the story has it at `at`) of
/// the deployment `spec` names: its ID; else, the ID of a job with
/// deployments, that job's latest active one (its latest, which the
/// endpoint then refuses, when none is active), as `nomad job promote`
/// takes the job's latest deployment; else the one deployment whose ID
/// starts with it.
pub fn deployment(
    deployments: &[Deployment],
    spec: &EventSpec,
    at: Time,
) -> Result<usize, WhatIfError> {
    let text = spec.target.as_str();
    if let Some(i) = deployments.iter().position(|d| d.id == text) {
        return Ok(i);
    }
    let of_job: Vec<usize> = (0..deployments.len())
        .filter(|&i| deployments[i].job_id == text)
        .collect();
    let mut namespaces: Vec<&str> = of_job
        .iter()
        .map(|&i| deployments[i].namespace.as_str())
        .collect();
    namespaces.sort();
    namespaces.dedup();
    if namespaces.len() > 1 {
        return Err(WhatIfError::DeploymentJobAmbiguous {
            event: spec.text.clone(),
            job: text.to_string(),
            at,
            namespaces: namespaces.iter().map(|n| n.to_string()).collect(),
        });
    }
    if let Some(i) = latest(deployments, &of_job) {
        return Ok(i);
    }
    let by_prefix: Vec<usize> = (0..deployments.len())
        .filter(|&i| deployments[i].id.with_str(|id| id.starts_with(text)))
        .collect();
    match by_prefix.as_slice() {
        [one] => Ok(*one),
        [] => Err(WhatIfError::DeploymentNotFound {
            event: spec.text.clone(),
            deployment: text.to_string(),
            at,
            candidates: listed(deployments.iter().map(describe_deployment)),
        }),
        many => Err(WhatIfError::DeploymentAmbiguous {
            event: spec.text.clone(),
            deployment: text.to_string(),
            matches: listed(many.iter().map(|&i| describe_deployment(&deployments[i]))),
        }),
    }
}

/// The deployment a job's ID names, as [`deployment`] takes it: of the
/// job `job_id` in `namespace`, its latest active deployment, else its
/// latest.
pub fn job_latest(deployments: &[Deployment], namespace: &str, job_id: &str) -> Option<usize> {
    let of_job: Vec<usize> = (0..deployments.len())
        .filter(|&i| deployments[i].namespace == namespace && deployments[i].job_id == job_id)
        .collect();
    latest(deployments, &of_job)
}

/// Of `of_job`, the latest active deployment, else the latest: Nomad's
/// `LatestDeploymentByJobID` takes the highest create index.
fn latest(deployments: &[Deployment], of_job: &[usize]) -> Option<usize> {
    let newest = |active: bool| {
        of_job
            .iter()
            .copied()
            .filter(|&i| !active || deployments[i].active())
            .max_by_key(|&i| {
                (
                    deployments[i].create_index,
                    std::cmp::Reverse(&deployments[i].id),
                )
            })
    };
    newest(true).or_else(|| newest(false))
}

fn describe_deployment(d: &Deployment) -> String {
    format!(
        "{} ({}/{} v{}, {})",
        d.id, d.namespace, d.job_id, d.job_version, d.status
    )
}

/// Desired to run, and neither complete, failed nor lost.
pub(super) fn live(a: &Allocation) -> bool {
    a.desired_status == DesiredStatus::Run && !a.client_terminal_status()
}

fn ambiguous(allocs: &[Allocation], spec: &EventSpec, text: &str, many: &[usize]) -> WhatIfError {
    WhatIfError::AllocAmbiguous {
        event: spec.text.clone(),
        alloc: text.to_string(),
        matches: listed(many.iter().map(|&i| describe_alloc(&allocs[i]))),
    }
}

pub(super) fn describe_alloc(a: &Allocation) -> String {
    format!("{} ({})", a.id, a.name())
}

fn describe_node(n: &Node) -> String {
    if n.name.is_empty() || n.name == n.id.as_str() {
        n.id.clone()
    } else {
        format!("{} ({})", n.id, n.name)
    }
}

/// The texts sorted, at most [`SHOWN`] of them and a count of the rest.
fn listed(texts: impl Iterator<Item = String>) -> Vec<String> {
    let mut all: Vec<String> = texts.collect();
    all.sort();
    let rest = all.len().saturating_sub(SHOWN);
    all.truncate(SHOWN);
    if rest > 0 {
        all.push(format!("and {rest} more"));
    }
    all
}
