//! `--explain` for system and sysbatch jobs: an allocation, or a placement
//! `job.group[N]@NODE`, as the system scheduler decided it.

use super::error::ExplainError;
use super::explanation::{Explanation, Step, Subject, SubjectKind, yes_no};
use super::pool_config;
use crate::model::{Allocation, Node};
use crate::replay::SystemReplay;
use crate::system::{Category, DiffEntry, InPlaceFit, Targeting};

fn node_step(sr: &SystemReplay<'_, '_>, node_id: &str) -> Step {
    let Some(node) = sr.nodes.get(node_id).copied() else {
        return Step::new(
            "Node",
            format!("{node_id} is not in the snapshot: garbage-collected"),
        )
        .fact("node", node_id);
    };
    let targeting = sr.schedule.targeting.get(node_id).copied();
    let conclusion = match targeting.unwrap_or(Targeting::NotReady) {
        Targeting::OutsidePool => format!("{node_id} is not in the job's node pool: not targeted"),
        Targeting::Targeted => format!("{node_id} is ready and in the job's datacenters: targeted"),
        Targeting::NotInDatacenters => {
            format!("{node_id} is ready but not in the job's datacenters: not targeted")
        }
        Targeting::NotReady => format!("{node_id} is not ready: not targeted"),
    };
    Step::new("Node", conclusion)
        .fact("node", node_id)
        .fact("status", node.status.as_str())
        .fact("eligibility", node.scheduling_eligibility.as_str())
        .fact("drain strategy", yes_no(node.has_drain_strategy()))
        .fact("datacenter", node_dc(node))
        .fact(
            "job datacenters",
            sr.job.map_or(String::new(), |j| j.datacenters.join(", ")),
        )
}

fn node_dc(node: &Node) -> String {
    if node.datacenter.is_empty() {
        "(none: taken to be the job's)".to_string()
    } else {
        node.datacenter.to_string()
    }
}

fn diff_step(sr: &SystemReplay<'_, '_>, e: &DiffEntry<'_>) -> Step {
    let set = e.category.name();
    let job_index = sr.job.map_or(0, |j| j.job_modify_index);
    let mut step = Step::new(
        "System diff (diffSystemAllocsForNode)",
        format!("{set}: {}", e.why.describe()),
    )
    .fact("job modify index", job_index.to_string());
    if let Some(a) = e.alloc {
        step = step.fact(
            "allocation's job modify index",
            a.job.as_ref().map_or(0, |j| j.job_modify_index).to_string(),
        );
    }
    step
}

fn explanation(
    sr: &SystemReplay<'_, '_>,
    subject: Subject,
    task_group: &str,
    fate: Vec<String>,
    steps: Vec<Step>,
) -> Explanation {
    let job = &sr.report.jobs[0];
    Explanation {
        subject,
        namespace: job.namespace.clone(),
        job: job.id.clone(),
        job_version: job.version,
        task_group: task_group.to_string(),
        now: sr.report.now,
        now_source: sr.report.now_source,
        eval_id: sr.report.eval_id.clone(),
        bucket: None,
        changed: !fate.is_empty(),
        fate,
        steps,
        warnings: sr.report.warnings.clone(),
        story: None,
    }
}

/// An allocation of a system or sysbatch job.
pub(super) fn allocation(sr: &SystemReplay<'_, '_>, alloc: &Allocation) -> Explanation {
    let s = sr.schedule;
    let mut steps = vec![
        Step::new(
            "Allocation",
            format!("{} of {}/{}", alloc.name(), alloc.namespace, alloc.job_id),
        )
        .fact("id", &alloc.id)
        .fact("task group", alloc.task_group.as_str())
        .fact("client status", alloc.client_status.as_str())
        .fact("desired status", alloc.desired_status.as_str()),
        node_step(sr, &alloc.node_id),
    ];
    let entry = s
        .diff
        .entries
        .iter()
        .find(|e| e.category != Category::Place && e.alloc.is_some_and(|a| a.id == alloc.id));
    match entry {
        Some(e) => steps.push(diff_step(sr, e)),
        None => steps.push(Step::new(
            "System diff (diffSystemAllocsForNode)",
            "terminal: the diff does not look at it",
        )),
    }
    if let Some(d) = s.destructive.iter().find(|d| d.alloc.id == alloc.id) {
        let held = if d.evicted {
            "evicted now"
        } else {
            "held back by the rolling limit (update.max_parallel) for a later evaluation"
        };
        steps.push(
            Step::new("Update (inplaceUpdate)", format!("destructive, {held}"))
                .fact("reason", d.reason.as_str()),
        );
    } else if s.in_place.iter().any(|a| a.id == alloc.id) {
        steps.push(
            Step::new(
                "Update (inplaceUpdate)",
                "in place: no task change needs a new allocation",
            )
            .fact("resource fit", in_place_fit(s.in_place_fit.get(&alloc.id))),
        );
    }
    let mut fate: Vec<String> = s
        .stops
        .iter()
        .filter(|st| st.alloc.id == alloc.id)
        .map(|st| format!("stop: {:?}", st.description))
        .collect();
    if s.in_place.iter().any(|a| a.id == alloc.id) {
        fate.push("updated in place".to_string());
    }
    for p in s
        .placements
        .iter()
        .filter(|p| p.previous.is_some_and(|a| a.id == alloc.id))
    {
        fate.push(format!("replaced by {} on node {}", p.name, p.node_id));
    }
    explanation(
        sr,
        Subject {
            kind: SubjectKind::Allocation,
            id: Some(alloc.id.to_string()),
            name: alloc.name().to_string(),
        },
        &alloc.task_group,
        fate,
        steps,
    )
}

/// A placement `name` on the node whose ID is or starts with `node`.
pub(super) fn placement(
    sr: &SystemReplay<'_, '_>,
    name: &str,
    node: &str,
) -> Result<Explanation, ExplainError> {
    let mut ids: Vec<&str> = sr
        .nodes
        .keys()
        .copied()
        .filter(|id| id.starts_with(node))
        .collect();
    ids.sort();
    let node_id = match ids.as_slice() {
        [] => return Err(ExplainError::NotFound(format!("{name}@{node}"))),
        [one] => *one,
        _ if ids.contains(&node) => node,
        _ => {
            return Err(ExplainError::Ambiguous {
                subject: node.to_string(),
                candidates: ids.iter().map(|s| s.to_string()).collect(),
            });
        }
    };
    let s = sr.schedule;
    let group = sr
        .job
        .and_then(|j| {
            j.task_groups
                .iter()
                .find(|tg| name.starts_with(&format!("{}.{}[", j.name, tg.name)))
        })
        .map_or(String::new(), |tg| tg.name.clone());
    let mut steps = vec![node_step(sr, node_id)];
    let config = sr
        .report
        .jobs
        .first()
        .and_then(|j| j.plan.scheduler_config.as_ref());
    steps.extend(config.map(pool_config::step));
    let entries: Vec<&DiffEntry<'_>> = s
        .diff
        .entries
        .iter()
        .filter(|e| e.node_id == node_id && e.name == name)
        .collect();
    if entries.is_empty() {
        steps.push(Step::new(
            "System diff (diffSystemAllocsForNode)",
            "nothing for this name on this node: the node is tainted or not targeted",
        ));
    }
    steps.extend(entries.iter().map(|e| diff_step(sr, e)));
    let mut fate = Vec::new();
    if let Some(p) = s
        .placements
        .iter()
        .find(|p| p.node_id == node_id && p.name == name)
    {
        steps.push(
            Step::new(
                "Feasibility (SystemStack)",
                "every filtering check passes: placed",
            )
            .fact("checks", "job and group constraints, drivers, host volumes, devices, network, distinct_property")
            .fact("resource fit", fit_fact(sr, name, node_id)),
        );
        let previous = p
            .previous
            .map_or(String::new(), |a| format!(", replacing {}", a.id));
        fate.push(format!("place {name} on node {node_id}{previous}"));
    } else if let Some(f) = s
        .filtered
        .iter()
        .find(|f| f.node_id == node_id && f.name == name)
    {
        steps.push(
            Step::new(
                "Feasibility (SystemStack)",
                format!("filtered: {}", f.filter.describe()),
            )
            .fact("desired changes", "Place lowered by one for this node"),
        );
    } else if let Some(e) = s
        .exhausted
        .iter()
        .find(|e| e.node_id == node_id && e.name == name)
    {
        steps.push(
            Step::new(
                "Resource fit (BinPackIterator)",
                format!("the node {}: failed placement", e.shortfall),
            )
            .fact("dimension", e.shortfall.dimension.as_str()),
        );
    } else if s.skipped.iter().any(|(n, id)| n == name && *id == node_id) {
        steps.push(Step::new(
            "Placement (computePlacements)",
            "the node is not among the ready nodes: skipped",
        ));
    }
    Ok(explanation(
        sr,
        Subject {
            kind: SubjectKind::Placement,
            id: None,
            name: format!("{name}@{node_id}"),
        },
        &group,
        fate,
        steps,
    ))
}

/// What resource fit decided for a placement made.
fn fit_fact(sr: &SystemReplay<'_, '_>, name: &str, node_id: &str) -> String {
    let s = sr.schedule;
    if s.unsized_nodes.contains(node_id) {
        return "not checked: the snapshot gives the node no resources block".to_string();
    }
    let evicted: Vec<String> = s
        .preemptions
        .iter()
        .filter(|p| p.by == name && p.alloc.node_id.as_str() == node_id)
        .map(|p| p.alloc.name().to_string())
        .collect();
    match evicted.is_empty() {
        true => "fits beside what the node runs".to_string(),
        false => format!("fits after preempting {}", evicted.join(", ")),
    }
}

/// How the in-place update's group fits its node, in words.
fn in_place_fit(fit: Option<&InPlaceFit>) -> String {
    match fit {
        Some(InPlaceFit::Fits) => "fits beside what the node runs".to_string(),
        Some(InPlaceFit::Preempting(n)) => format!(
            "fits only by preempting {n} allocation(s); Nomad keeps the update in place and \
             leaves them running (inplaceUpdate drops the preemptions)"
        ),
        Some(InPlaceFit::Unchecked) | None => {
            "not checked: the snapshot gives the node no resources block".to_string()
        }
    }
}
