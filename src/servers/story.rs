//! What the servers did over the story, as facts for the renderers: the
//! events applied, each evaluation with its job's report, what the replay
//! had to assume, and what happened to allocations when.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{ClientStatus, Deployment, DesiredStatus, Id};
use crate::report::{JobReport, Report};
use crate::time::{Duration, Time, format_duration};

use super::deployment_watcher::WatcherWrite;
use super::eval::PendingEval;
use super::event::EventKind;
use super::heartbeat::MissedHeartbeat;
use super::node_status::StatusChange;

/// The whole answer to `--what-if` / `--until`.
#[derive(Clone, Debug, Serialize)]
pub struct Story {
    /// The document of section 6: `jobs` holds each job's plan in its
    /// first evaluation of the story, or as without `--what-if`.
    #[serde(flatten)]
    pub report: Report,
    pub what_if: Vec<AppliedEvent>,
    pub timeline: Vec<TimelineEntry>,
    /// Evaluations created but not replayed: due after `--until`, or
    /// follow-ups when no `--until` was given.
    pub pending: Vec<EvalFacts>,
    /// Evaluations canceled before they ran.
    pub canceled: Vec<Canceled>,
    /// What the deployment watcher wrote besides its batched evaluations:
    /// promotions and failures.
    pub deployment_watcher: Vec<WatcherWrite>,
    /// Every deployment the story wrote, as the story left it.
    pub deployments: Vec<DeploymentFacts>,
    pub until: Option<Time>,
    pub assumptions: Vec<Assumption>,
    /// What happened to allocations, for the picture: first every live
    /// allocation at the evaluation time (`Running`), then each change.
    #[serde(skip)]
    pub marks: Vec<Mark>,
    /// Node names by ID, for the picture's lanes.
    #[serde(skip)]
    pub node_names: BTreeMap<String, String>,
}

/// A deployment as the state store holds it at the end of the story.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeploymentFacts {
    pub id: String,
    pub namespace: String,
    pub job_id: String,
    pub job_version: u64,
    pub status: String,
    pub status_description: String,
    pub groups: BTreeMap<String, DeploymentGroupFacts>,
}

/// One group's `DeploymentState`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeploymentGroupFacts {
    pub desired_total: i64,
    pub desired_canaries: i64,
    pub placed_canaries: Vec<Id>,
    pub promoted: bool,
    pub placed_allocs: i64,
    pub healthy_allocs: i64,
    pub unhealthy_allocs: i64,
    /// Absent until the group's progress deadline starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub require_progress_by: Option<Time>,
}

impl DeploymentFacts {
    pub fn of(d: &Deployment) -> DeploymentFacts {
        DeploymentFacts {
            id: d.id.to_string(),
            namespace: d.namespace.to_string(),
            job_id: d.job_id.to_string(),
            job_version: d.job_version,
            status: d.status.to_string(),
            status_description: d.status_description.to_string(),
            groups: d
                .task_groups
                .iter()
                .map(|(name, s)| {
                    let g = DeploymentGroupFacts {
                        desired_total: s.desired_total,
                        desired_canaries: s.desired_canaries,
                        placed_canaries: s.placed_canaries.clone(),
                        promoted: s.promoted,
                        placed_allocs: s.placed_allocs,
                        healthy_allocs: s.healthy_allocs,
                        unhealthy_allocs: s.unhealthy_allocs,
                        require_progress_by: (!s.require_progress_by.is_zero())
                            .then_some(s.require_progress_by),
                    };
                    (name.to_string(), g)
                })
                .collect(),
        }
    }
}

/// One `--what-if` event as the servers took it.
#[derive(Clone, Debug, Serialize)]
pub struct AppliedEvent {
    pub event: EventKind,
    /// As typed.
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<String>,
    /// The allocation an `alloc-*` event naming one allocation names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_id: Option<String>,
    /// `alloc-health`, or a health event naming several allocations: the
    /// request's lists (`HealthyAllocationIDs`, `UnhealthyAllocationIDs`),
    /// each in the order given; empty until every allocation is looked up.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub healthy_alloc_ids: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unhealthy_alloc_ids: Vec<String>,
    /// The deployment a `deployment-*` event named, as found at its time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deployment_id: Option<String>,
    pub at: Time,
    /// `node-drain`: the drain's force deadline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<Time>,
    /// The node status updates it made, in order.
    pub node_status: Vec<StatusChange>,
    /// `node-down`: why the heartbeat's invalidation chose the status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heartbeat: Option<MissedHeartbeat>,
    /// The evaluations it created, by ID.
    pub evaluations: Vec<String>,
    /// Why it changed nothing, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<Ignored>,
}

/// Why an event changed nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum Ignored {
    /// `node-down` of a node already down: it has no heartbeat to miss.
    AlreadyDown,
    /// `node-up` of a node already ready.
    AlreadyReady,
    /// From #15808, `Node.UpdateAlloc` refuses updates of a node in this status.
    UpdateRefused { node_status: String },
    /// After `--until`.
    AfterUntil,
    /// Nomad CE took the operator's request and did nothing: unblocking a
    /// deployment is a step of multiregion deployments, which only Nomad
    /// Enterprise runs.
    EnterpriseOnly,
    /// Nomad refused the operator's request, with its errors: the
    /// deployment endpoint's for a terminal deployment (or, setting an
    /// allocation's health, none or one gone), the state store's for each
    /// group short of healthy canaries or an allocation outside the
    /// deployment.
    Refused { errors: Vec<String> },
}

/// The evaluation of one timeline entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EvalFacts {
    pub id: String,
    pub job_id: String,
    pub namespace: String,
    pub triggered_by: String,
    /// Set on node-update evaluations only, as Nomad sets it.
    pub node_id: Option<String>,
    pub priority: i64,
    pub created_at: Time,
    pub wait_until: Option<Time>,
}

impl EvalFacts {
    /// What the story says of `p`.
    pub fn of(p: &PendingEval) -> EvalFacts {
        EvalFacts {
            id: p.eval.id.clone(),
            job_id: p.eval.job_id.clone(),
            namespace: p.eval.namespace.clone(),
            triggered_by: p.eval.triggered_by.clone(),
            node_id: p.eval.node_id.clone(),
            priority: p.eval.priority,
            created_at: p.created,
            wait_until: p.eval.wait_until,
        }
    }
}

/// An evaluation canceled before it ran, and by whom.
#[derive(Clone, Debug, Serialize)]
pub struct Canceled {
    pub at: Time,
    pub by: CanceledBy,
    /// Nomad's `EvalStatusCancelled`.
    pub status: &'static str,
    /// The `StatusDescription` Nomad writes on it.
    pub status_description: String,
    /// The job's evaluation kept in its place, where one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_eval_id: Option<String>,
    pub evaluation: EvalFacts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CanceledBy {
    /// #14621: the broker kept a newer evaluation of the job.
    Broker,
    /// F-3: the state store, as the allocations it waited for reconnected.
    StateStore,
    /// The blocked-evals tracker kept a later blocked evaluation of the
    /// job, and the leader canceled this one.
    BlockedEvals,
    /// A later evaluation of the job completed with no failed placement,
    /// and the state store canceled this blocked one.
    SuccessfulEval,
}

impl Canceled {
    /// The blocked `evaluation` the successful evaluation `successful`
    /// cancels at `at`; before #17071 (`names_success` false) Nomad's
    /// description named the blocked evaluation itself (v1.3.0
    /// nomad/state/state_store.go:3063).
    pub fn by_success(
        at: Time,
        successful: String,
        evaluation: EvalFacts,
        names_success: bool,
    ) -> Canceled {
        let mut c = Canceled::new(at, CanceledBy::SuccessfulEval, Some(successful), evaluation);
        if !names_success {
            c.status_description = format!("evaluation {:?} successful", c.evaluation.id);
        }
        c
    }

    /// `evaluation`, canceled at `at` by `by` for `kept_eval_id`, with
    /// the status description Nomad writes: v2.0.5 nomad/leader.go:1220
    /// (broker), nomad/state/state_store.go:4214 (state store),
    /// nomad/leader.go:1169 (v1.3.0 :908) for a duplicate blocked one, and
    /// state_store.go:3543 for one a success cancels, which names
    /// `kept_eval_id`, the successful evaluation ([`Canceled::by_success`]
    /// for the releases before #17071).
    pub fn new(
        at: Time,
        by: CanceledBy,
        kept_eval_id: Option<String>,
        evaluation: EvalFacts,
    ) -> Canceled {
        let status_description = match by {
            CanceledBy::Broker => "canceled after more recent eval was processed".to_string(),
            CanceledBy::StateStore => "allocs reconnected".to_string(),
            CanceledBy::BlockedEvals => format!(
                "existing blocked evaluation exists for job {:?}",
                evaluation.job_id
            ),
            CanceledBy::SuccessfulEval => format!(
                "evaluation {:?} successful",
                kept_eval_id.as_deref().unwrap_or_default()
            ),
        };
        Canceled {
            at,
            by,
            status: "canceled",
            status_description,
            kept_eval_id,
            evaluation,
        }
    }
}

/// One evaluation replayed at its time, with its job's report.
#[derive(Clone, Debug, Serialize)]
pub struct TimelineEntry {
    /// How many evaluations the story replayed before this one, of every
    /// job: its place in the story before `--job` narrows the timeline.
    #[serde(skip)]
    pub seq: usize,
    pub at: Time,
    pub evaluation: EvalFacts,
    pub job: JobReport,
    /// The allocations its plan evicted, as the plan applier wrote them;
    /// written only when there are some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preempted: Vec<Preempted>,
}

/// An allocation of another job evicted for one of the plan's placements,
/// as the plan applier writes it (`PreemptedByAllocation`, desired status
/// `evict`) and its client then reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Preempted {
    pub alloc_id: String,
    pub name: String,
    pub node_id: String,
    pub namespace: String,
    pub job_id: String,
    /// The allocation placed in its stead: its `PreemptedByAllocation`,
    /// and one of that allocation's `PreemptedAllocations`.
    pub preempted_by_alloc_id: String,
    /// Nomad's `evict`.
    pub desired_status: DesiredStatus,
    /// Nomad's `Preempted by alloc ID <id>`.
    pub desired_description: String,
    /// What the client reports once it killed the allocation's tasks.
    pub client_status: ClientStatus,
    /// The `preemption` evaluation of its job, null when the job is gone.
    pub eval_id: Option<String>,
}

/// Something the replay assumes where Nomad depends on clients.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Assumption {
    pub code: &'static str,
    pub message: String,
}

impl Assumption {
    fn new(code: &'static str, message: impl Into<String>) -> Assumption {
        Assumption {
            code,
            message: message.into(),
        }
    }

    /// The assumptions every story makes, and those its events and
    /// evictions add.
    pub fn of(
        healthy_after: Option<Duration>,
        snapshot_awaits_health: bool,
        node_up: bool,
        drain: bool,
        evicted: bool,
    ) -> Vec<Assumption> {
        let mut out = vec![
            Assumption::new(
                "placements_start_at_once",
                "placed allocations start running as soon as their plan is applied",
            ),
            match healthy_after {
                Some(d) if d > 0 => Assumption::new(
                    "healthy_after",
                    format!(
                        "placed allocations become healthy {} after they start",
                        format_duration(d)
                    ),
                ),
                _ => Assumption::new(
                    "healthy_at_once",
                    "placed allocations are healthy as soon as they start",
                ),
            },
            Assumption::new(
                "stops_complete_at_once",
                "stopped allocations are complete (lost on a down node) as soon as their plan is applied",
            ),
        ];
        if snapshot_awaits_health {
            out.push(Assumption::new(
                "awaiting_health",
                match healthy_after {
                    Some(d) if d > 0 => format!(
                        "running allocations of a deployment without a health verdict become healthy {} after the evaluation time",
                        format_duration(d)
                    ),
                    _ => "running allocations of a deployment without a health verdict are healthy at the evaluation time".to_string(),
                },
            ));
        }
        if evicted {
            out.push(Assumption::new(
                "evictions_complete_at_once",
                "preempted allocations are complete as soon as the plan that evicts them is applied",
            ));
        }
        if node_up {
            out.push(Assumption::new(
                "client_reports_at_once",
                "a returning node's client reports its allocations and sends its next heartbeat at the moment it is up",
            ));
        }
        if drain {
            out.push(Assumption::new(
                "drainer_acts_at_once",
                "the drainer marks allocations for migration as soon as a change allows it (Nomad's watchers react within moments)",
            ));
        }
        out
    }
}

/// A change of one allocation at one time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub at: Time,
    pub alloc_id: String,
    pub name: String,
    pub node_id: String,
    pub namespace: String,
    pub job_id: String,
    pub kind: MarkKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// Live at the evaluation time.
    Running,
    Placed,
    Stopped,
    Lost,
    Failed,
    Unknown,
    Reconnected,
    /// Evicted for a placement of higher priority.
    Preempted,
}
