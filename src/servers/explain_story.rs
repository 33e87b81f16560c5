//! `--explain` in a story: an allocation or placement explained in the
//! last evaluation of the story that decided it (the one that left it as
//! the story ends), replayed again on the cluster as the story had left it
//! then, with the explain stage's own trace. The evaluations before it that
//! decided it too are listed; an earlier `--until` explains it as it stood
//! then.

use crate::explain::{self, ExplainError, Explanation, StoryEvaluation, StoryPlace};
use crate::model::{Allocation, Id, JobType, Snapshot};
use crate::replay::Options;
use crate::report::JobReport;

use super::error::WhatIfError;
use super::place;
use super::story::TimelineEntry;
use super::timeline::{Request, tell};
use super::world::World;

/// What the subject names, resolved on the cluster as the story ends.
enum Target {
    /// An allocation of the snapshot or one the story placed: its ID.
    Alloc(Id),
    /// A placement name, and the node a system job places it on (or
    /// whose verdict is asked for).
    Placement { name: String, node: Option<String> },
}

/// Explains `subject` in the story `request` tells on `snapshot`.
pub fn explain(
    snapshot: &Snapshot,
    options: &Options,
    request: &Request,
    subject: &str,
) -> Result<Explanation, WhatIfError> {
    let whole = tell(snapshot, options, request, None)?;
    let target = target(snapshot, options, &whole.world, subject)?;
    let decided: Vec<(&TimelineEntry, Decided)> = whole
        .story
        .timeline
        .iter()
        .filter_map(|e| decides(&whole.world, e, &target, subject).map(|d| (e, d)))
        .collect();
    let Some((last, asked)) = decided.last() else {
        return Err(WhatIfError::NotDecided {
            subject: subject.to_string(),
            allocation: match &target {
                Target::Alloc(id) => Some(id.to_string()),
                Target::Placement { .. } => None,
            },
            evaluations: whole.story.timeline.len(),
        });
    };
    let then = tell(snapshot, options, request, Some(last.seq))?;
    let eval_options = then
        .stopped
        .expect("the story stops at an evaluation it ran");
    let mut e = explain::explain(&then.world.snapshot, &eval_options, &asked.subject)
        .map_err(WhatIfError::Explain)?;
    let named = |e: &TimelineEntry| StoryEvaluation {
        id: e.evaluation.id.clone(),
        at: e.at,
        triggered_by: e.evaluation.triggered_by.clone(),
    };
    e.now_source = whole.story.report.now_source;
    e.story = Some(StoryPlace {
        evaluation: named(last),
        decided_in: decided.iter().map(|(e, _)| named(e)).collect(),
        placed_alloc_id: match &target {
            Target::Alloc(id) if asked.placed => Some(id.to_string()),
            _ => None,
        },
    });
    Ok(e)
}

/// An allocation ID or unique ID prefix among every allocation the story
/// knows (the snapshot's and those it placed), of the job `--job` and
/// `--namespace` name where given, else a placement name, with `@NODE` for
/// a node.
fn target(
    snapshot: &Snapshot,
    options: &Options,
    world: &World,
    subject: &str,
) -> Result<Target, WhatIfError> {
    if let Some((name, node)) = subject.rsplit_once('@') {
        let node = explain::find_node(snapshot, node).map_err(WhatIfError::Explain)?;
        return Ok(Target::Placement {
            name: name.to_string(),
            node: Some(node.id.clone()),
        });
    }
    let allocs = &world.snapshot.allocs;
    let of_job = |a: &Allocation| {
        explain::ensure_of_job(options, subject, &a.namespace, &a.job_id)
            .map(|()| Target::Alloc(a.id.clone()))
            .map_err(WhatIfError::Explain)
    };
    if let Some(a) = allocs.iter().find(|a| a.id == subject) {
        return of_job(a);
    }
    let mut matches: Vec<_> = allocs
        .iter()
        .filter(|a| a.id.with_str(|id| id.starts_with(subject)))
        .collect();
    matches.sort_by(|a, b| a.id.cmp(&b.id));
    matches.dedup_by(|a, b| a.id == b.id);
    match matches.as_slice() {
        [] => Ok(Target::Placement {
            name: subject.to_string(),
            node: None,
        }),
        [one] => of_job(one),
        many => Err(WhatIfError::Explain(ExplainError::Ambiguous {
            subject: subject.to_string(),
            candidates: many
                .iter()
                .map(|a| format!("{} ({})", a.id, a.name()))
                .collect(),
        })),
    }
}

/// What an evaluation decided of the target: the subject to explain there.
struct Decided {
    subject: String,
    /// The evaluation placed the allocation asked for, explained as that
    /// placement.
    placed: bool,
}

/// Whether evaluation `e` decided the target, and if so what: an
/// allocation its plan changes, a placement it makes (or fails to make),
/// or an allocation it placed.
fn decides(world: &World, e: &TimelineEntry, target: &Target, subject: &str) -> Option<Decided> {
    let job = &e.job;
    let decided = |subject: String, placed: bool| Some(Decided { subject, placed });
    match target {
        Target::Alloc(id) if job.plan.touches(id) => decided(id.to_string(), false),
        Target::Alloc(id) => {
            let id = id.to_string();
            let (_, made) = place::of_plan(world, &job.plan)
                .into_iter()
                .enumerate()
                .find(|(n, p)| place::alloc_id(&e.evaluation.id, *n, &p.name) == id)?;
            let name = if system(job) {
                format!("{}@{}", made.name, made.node)
            } else {
                made.name
            };
            decided(name, true)
        }
        Target::Placement { name, node } if places(job, name, node.as_deref()) => {
            decided(subject.to_string(), false)
        }
        Target::Placement { .. } => None,
    }
}

/// Whether the plan places `name` (or fails to), or replaces an
/// allocation of that name; for a system job, on `node`.
fn places(job: &JobReport, name: &str, node: Option<&str>) -> bool {
    let on = |n: Option<&str>| !system(job) || node.is_none() || n == node;
    job.plan
        .place
        .iter()
        .any(|p| p.name == name && on(p.node_id.as_deref()))
        || job
            .plan
            .destructive_update
            .iter()
            .any(|d| d.name == name && on(d.node_id.as_deref()))
}

/// A system or sysbatch job, which places once per node.
fn system(job: &JobReport) -> bool {
    matches!(job.job_type, JobType::System | JobType::Sysbatch)
}
