//! The placement stage's verdicts on every node for one placement, as
//! steps: nodes not targeted, filtered and exhausted grouped by reason with
//! counts and a few examples, the top scores with their parts, and why the
//! chosen node won or what came nearest. Bounded whatever the node count.

use std::collections::BTreeMap;

use super::explanation::Step;
use super::pool_config;
use crate::fit::Shortfall;
use crate::model::Node;
use crate::placement::{NodeVerdict, PlacementRecord, ScoreParts, Untargeted};
use crate::report::{NearestMiss, PlanSchedulerConfig};

/// Nodes named as examples of one reason.
const EXAMPLES: usize = 3;
/// Feasible nodes whose scores are listed.
const TOP: usize = 5;

/// A node as examples and scores name it: its name, else its ID.
pub(super) fn label(node: &Node) -> &str {
    if node.name.is_empty() {
        &node.id
    } else {
        &node.name
    }
}

/// `label`, with the ID when the name is not it.
fn full(node: &Node) -> String {
    if node.name.is_empty() || node.name == node.id {
        node.id.clone()
    } else {
        format!("{} ({})", node.id, node.name)
    }
}

/// `n nodes: a, b, c and 4 more`.
fn examples<'n>(names: impl IntoIterator<Item = &'n str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    let shown = names[..names.len().min(EXAMPLES)].join(", ");
    let rest = names.len().saturating_sub(EXAMPLES);
    let nodes = if names.len() == 1 { "node" } else { "nodes" };
    match rest {
        0 => format!("{} {nodes}: {shown}", names.len()),
        _ => format!("{} {nodes}: {shown} and {rest} more", names.len()),
    }
}

/// What `readyNodesInDCsAndPool` leaves out, in words: for a node that is
/// not ready, the field that makes it so.
fn untargeted_words(u: Untargeted, node: &Node) -> String {
    match u {
        Untargeted::OutsidePool => "outside the job's node pool".to_string(),
        Untargeted::OutsideDatacenters => "outside the job's datacenters".to_string(),
        Untargeted::NotReady if node.status != "ready" => format!("status {}", node.status),
        Untargeted::NotReady if node.has_drain_strategy() => "draining".to_string(),
        Untargeted::NotReady => match node.scheduling_eligibility.as_str() {
            "" => "eligibility unset".to_string(),
            e => e.to_string(),
        },
    }
}

/// `final 0.7342 = mean(binpack 0.6120, job-anti-affinity -0.5000)`.
pub(super) fn score_words(p: &ScoreParts) -> String {
    let parts: Vec<String> = p
        .components
        .iter()
        .map(|(name, s)| format!("{name} {s:.4}"))
        .collect();
    format!("final {:.4} = mean({})", p.final_score, parts.join(", "))
}

/// The feasible nodes, best final score first, a tie to the lower ID (the
/// record's nodes are in ID order), as (index, node, scores).
fn ranked<'r, 'a>(record: &'r PlacementRecord<'a>) -> Vec<(usize, &'a Node, &'r ScoreParts)> {
    let mut fits: Vec<(usize, &Node, &ScoreParts)> = record
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, (n, v))| match v {
            NodeVerdict::Fits(p) => Some((i, *n, p)),
            _ => None,
        })
        .collect();
    fits.sort_by(|a, b| {
        b.2.final_score
            .total_cmp(&a.2.final_score)
            .then(a.0.cmp(&b.0))
    });
    fits
}

/// The steps of one attempt at the placement. `nearest` is the report's
/// nearest miss of the group's first failure.
pub(super) fn steps(record: &PlacementRecord<'_>, nearest: Option<&NearestMiss>) -> Vec<Step> {
    let mut untargeted: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut filtered: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut exhausted: BTreeMap<&str, Vec<(&Node, &Shortfall)>> = BTreeMap::new();
    for (node, verdict) in &record.nodes {
        match verdict {
            NodeVerdict::Untargeted(u) => untargeted
                .entry(untargeted_words(*u, node))
                .or_default()
                .push(label(node)),
            NodeVerdict::Filtered { check, first } => {
                let key = match first {
                    Some(first) => format!("{check} ({first})"),
                    None => check.clone(),
                };
                filtered.entry(key).or_default().push(label(node))
            }
            NodeVerdict::Exhausted(s) => exhausted.entry(&s.dimension).or_default().push((node, s)),
            NodeVerdict::Fits(_) => {}
        }
    }
    let total = record.nodes.len();
    let not_targeted: usize = untargeted.values().map(Vec::len).sum();
    let evaluated = total - not_targeted;
    let n_filtered: usize = filtered.values().map(Vec::len).sum();
    let n_exhausted: usize = exhausted.values().map(Vec::len).sum();
    let fits = ranked(record);
    let mut steps = Vec::new();

    if let Some(c) = record
        .pool_config
        .as_deref()
        .and_then(PlanSchedulerConfig::of)
    {
        steps.push(pool_config::step(&c));
    }
    let mut targets = Step::new(
        "Targets",
        format!(
            "{evaluated} of {total} nodes are ready and in the job's datacenters and node pool: \
             the stack evaluates them"
        ),
    );
    for (why, names) in by_count(untargeted) {
        targets = targets.fact(&why, examples(names));
    }
    steps.push(targets);
    if evaluated == 0 {
        steps.push(Step::new(
            "Choice",
            "no node takes it: the stack has no node to evaluate: a failed placement",
        ));
        return steps;
    }

    let mut feasibility = Step::new(
        "Feasibility",
        match n_filtered {
            0 => format!("all {evaluated} evaluated nodes pass every check"),
            n => format!("{n} of {evaluated} evaluated nodes are filtered"),
        },
    );
    for (why, names) in by_count(filtered) {
        feasibility = feasibility.fact(&why, examples(names));
    }
    steps.push(feasibility);

    let feasible = evaluated - n_filtered;
    if feasible > 0 {
        let mut resources = Step::new(
            "Resources",
            match n_exhausted {
                0 => format!("all {feasible} feasible nodes have room"),
                n => format!("{n} of {feasible} feasible nodes have no room"),
            },
        );
        let mut dims: Vec<(&str, Vec<(&Node, &Shortfall)>)> = exhausted.into_iter().collect();
        dims.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
        for (dim, mut nodes) in dims {
            // The least short first; a dimension that is no amount keeps ID order.
            nodes.sort_by_key(|(_, s)| s.lacks.map_or(i64::MAX, |l| l.amount));
            let value = match nodes[0].1.lacks {
                Some(_) => {
                    let shown: Vec<String> = nodes
                        .iter()
                        .take(EXAMPLES)
                        .map(|(n, s)| format!("{} {s}", label(n)))
                        .collect();
                    let rest = nodes.len().saturating_sub(EXAMPLES);
                    let more = if rest > 0 {
                        format!(" and {rest} more")
                    } else {
                        String::new()
                    };
                    let noun = if nodes.len() == 1 { "node" } else { "nodes" };
                    format!("{} {noun}: {}{more}", nodes.len(), shown.join(", "))
                }
                None => examples(nodes.iter().map(|(n, _)| label(n))),
            };
            resources = resources.fact(dim, value);
        }
        steps.push(resources);
    }

    if !fits.is_empty() {
        let mut scores = Step::new(
            "Scores",
            format!(
                "{} nodes fit; the best {} by final score, the mean of the scores each got",
                fits.len(),
                fits.len().min(TOP)
            ),
        );
        for (_, node, parts) in fits.iter().take(TOP) {
            scores = scores.fact(label(node), score_words(parts));
        }
        if fits.len() > TOP {
            let low = fits.last().map_or(0.0, |f| f.2.final_score);
            let high = fits[TOP].2.final_score;
            scores = scores.fact(
                "more",
                format!(
                    "{} more nodes fit, scoring {low:.4} to {high:.4}",
                    fits.len() - TOP
                ),
            );
        }
        if !record.penalised.is_empty() {
            scores = scores.fact(
                "penalised",
                format!(
                    "the node(s) the replaced allocation failed on get node-reschedule-penalty -1: {}",
                    record.penalised.join(", ")
                ),
            );
        }
        steps.push(scores);
    }

    steps.push(choice(
        record,
        &fits,
        evaluated,
        n_filtered,
        n_exhausted,
        nearest,
    ));
    steps
}

/// Groups sorted by how many nodes they hold, most first, then by reason.
fn by_count(groups: BTreeMap<String, Vec<&str>>) -> Vec<(String, Vec<&str>)> {
    let mut out: Vec<_> = groups.into_iter().collect();
    out.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    out
}

fn choice(
    record: &PlacementRecord<'_>,
    fits: &[(usize, &Node, &ScoreParts)],
    evaluated: usize,
    filtered: usize,
    exhausted: usize,
    nearest: Option<&NearestMiss>,
) -> Step {
    let Some(chosen) = record.chosen else {
        let mut step = Step::new(
            "Choice",
            format!(
                "no node takes it: of {evaluated} evaluated, {filtered} filtered and {exhausted} \
                 without room: a failed placement"
            ),
        );
        if let Some(miss) = nearest {
            let short = Shortfall {
                dimension: miss.dimension.clone(),
                lacks: miss
                    .lacks
                    .zip(miss.unit)
                    .map(|(amount, unit)| crate::fit::Lack { amount, unit }),
                unrecorded: false,
            };
            step = step.fact(
                "nearest miss",
                format!("node {} {short}", nearest_label(record, miss)),
            );
        } else if evaluated > 0 {
            step = step.fact("nearest miss", "none: no node passes the checks");
        }
        return step;
    };
    let (node, verdict) = &record.nodes[chosen];
    let NodeVerdict::Fits(parts) = verdict else {
        return Step::new("Choice", format!("{} was chosen", full(node)));
    };
    let runner_up = fits.iter().find(|(i, _, _)| *i != chosen);
    let conclusion = match runner_up {
        None => format!(
            "{}: the only node that fits, final score {:.4}",
            label(node),
            parts.final_score
        ),
        Some((_, _, p)) if p.final_score == parts.final_score => format!(
            "{}: the highest final score, {:.4}, tied; the lowest node ID wins the tie",
            label(node),
            parts.final_score
        ),
        Some(_) => format!(
            "{}: the highest final score, {:.4}",
            label(node),
            parts.final_score
        ),
    };
    let mut step = Step::new("Choice", conclusion).fact("node", full(node));
    if let Some((_, other, p)) = runner_up {
        step = step.fact(
            "runner-up",
            if p.final_score == parts.final_score {
                format!("{} with {:.4}, tied", label(other), p.final_score)
            } else {
                format!(
                    "{} with {:.4}, {:.4} lower",
                    label(other),
                    p.final_score,
                    parts.final_score - p.final_score
                )
            },
        );
    }
    step.detail(
        "sampling",
        "Nomad ranks a random sample of the feasible nodes; plan-inspect ranks all of them, so \
         its node is one Nomad could choose",
    )
}

/// The nearest miss's node as the other steps name it.
fn nearest_label(record: &PlacementRecord<'_>, miss: &NearestMiss) -> String {
    record
        .nodes
        .iter()
        .find(|(n, _)| n.id == miss.node_id)
        .map_or(miss.node_id.clone(), |(n, _)| label(n).to_string())
}

/// The verdict on one node, for `NAME@NODE`.
pub(super) fn node_step(record: &PlacementRecord<'_>, node_id: &str) -> Step {
    let Some(at) = record.nodes.iter().position(|(n, _)| n.id == node_id) else {
        return Step::new("Node", format!("{node_id} is not in the snapshot"));
    };
    let (node, verdict) = &record.nodes[at];
    let step = |conclusion: String| Step::new("Node", conclusion).fact("node", full(node));
    match verdict {
        NodeVerdict::Untargeted(u) => step(format!(
            "{}: {}, not evaluated",
            label(node),
            untargeted_words(*u, node)
        ))
        .fact("status", node.status.as_str())
        .fact("eligibility", node.scheduling_eligibility.as_str())
        .fact("datacenter", node.datacenter.as_str())
        .fact("node pool", node.node_pool.as_str()),
        NodeVerdict::Filtered { check, first } => {
            let s = step(format!("{}: filtered by {check}", label(node))).fact("check", check);
            match first {
                Some(first) => s.fact("class failed", first),
                None => s,
            }
        }
        NodeVerdict::Exhausted(s) => {
            step(format!("{}: no room, it {s}", label(node))).fact("dimension", &s.dimension)
        }
        NodeVerdict::Fits(parts) => {
            let fits = ranked(record);
            let rank = fits.iter().position(|(i, _, _)| *i == at).unwrap_or(0) + 1;
            let conclusion = if record.chosen == Some(at) {
                format!("{}: fits and is chosen", label(node))
            } else {
                format!("{}: fits, ranked {rank} of {}", label(node), fits.len())
            };
            let mut s = step(conclusion).fact("scores", score_words(parts));
            if let Some(best) = record.chosen.filter(|&c| c != at)
                && let NodeVerdict::Fits(p) = &record.nodes[best].1
            {
                s = s.fact(
                    "chosen instead",
                    if p.final_score == parts.final_score {
                        format!(
                            "{} with {:.4}, tied: the lower node ID wins",
                            label(record.nodes[best].0),
                            p.final_score
                        )
                    } else {
                        format!(
                            "{} with {:.4}, {:.4} higher",
                            label(record.nodes[best].0),
                            p.final_score,
                            p.final_score - parts.final_score
                        )
                    },
                );
            }
            s
        }
    }
}
