//! An explanation: its subject and its steps, each with the facts behind it.

use serde::Serialize;

use crate::reconciler::Bucket;
use crate::report::NowSource;
use crate::time::{Time, format_duration};
use crate::warning::Warning;

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
    /// The replay's warnings, as the report has them.
    pub warnings: Vec<Warning>,
    /// With `--what-if` or `--until`: the evaluation of the story it is
    /// explained in; written only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub story: Option<StoryPlace>,
}

/// Where in a story the subject is explained: the last evaluation that
/// decided it, on the cluster as the story had left it then.
#[derive(Clone, Debug, Serialize)]
pub struct StoryPlace {
    /// The evaluation explained, the last of `decided_in`.
    pub evaluation: StoryEvaluation,
    /// Every evaluation of the story whose plan decided the subject (placed
    /// it, or changed the allocation), in the order they ran.
    pub decided_in: Vec<StoryEvaluation>,
    /// When the subject is an allocation the story placed: its ID, and the
    /// explanation is of the placement that made it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed_alloc_id: Option<String>,
}

/// One evaluation of a story, as its timeline names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoryEvaluation {
    pub id: String,
    pub at: Time,
    pub triggered_by: String,
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
    /// Background that did not decide the fate (the rules that did not
    /// match, the arithmetic of a policy that never applied): tables show
    /// it under `--verbose` only; JSON always has it.
    #[serde(skip)]
    pub detail: bool,
}

impl Step {
    pub(super) fn new(title: &str, conclusion: impl Into<String>) -> Step {
        Step {
            title: title.to_string(),
            conclusion: conclusion.into(),
            facts: Vec::new(),
        }
    }

    pub(super) fn fact(mut self, name: &str, value: impl Into<String>) -> Step {
        self.facts.push(Fact {
            name: name.to_string(),
            value: value.into(),
            detail: false,
        });
        self
    }

    /// A fact shown only under `--verbose` ([`Fact::detail`]).
    pub(super) fn detail(mut self, name: &str, value: impl Into<String>) -> Step {
        self = self.fact(name, value);
        if let Some(f) = self.facts.last_mut() {
            f.detail = true;
        }
        self
    }

    /// Marks every fact from `from` on as detail.
    pub(super) fn details_from(mut self, from: usize) -> Step {
        for f in self.facts.iter_mut().skip(from) {
            f.detail = true;
        }
        self
    }
}

/// A time with its distance from `now`: `2022-04-01T12:05:00Z (in 5m)`.
pub(super) fn at(t: Time, now: Time) -> String {
    let d = t.sub(now);
    match d {
        0 => format!("{t} (now)"),
        d if d > 0 => format!("{t} (in {})", format_duration(d)),
        d => format!("{t} ({} ago)", format_duration(d.saturating_neg())),
    }
}

/// `yes` or `no`.
pub(super) fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}
