//! What-if requests the snapshot cannot answer (bad input, exit 1).

use std::fmt;

use crate::explain::ExplainError;
use crate::replay::ReplayError;
use crate::time::Time;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhatIfError {
    /// No node has that ID, name or ID prefix; the snapshot's nodes.
    NodeNotFound {
        event: String,
        node: String,
        candidates: Vec<String>,
    },
    /// The prefix or name matches several nodes.
    NodeAmbiguous {
        event: String,
        node: String,
        matches: Vec<String>,
    },
    /// No allocation's ID starts with it when the event happens at `at`:
    /// the snapshot's allocations, and those the story placed by then.
    AllocNotFound {
        event: String,
        alloc: String,
        candidates: Vec<String>,
        at: Time,
        placed: Vec<String>,
    },
    /// The prefix matches several allocations.
    AllocAmbiguous {
        event: String,
        alloc: String,
        matches: Vec<String>,
    },
    /// No live allocation has the name at `at`; the names live then.
    AllocNameNotLive {
        event: String,
        name: String,
        at: Time,
        live: Vec<String>,
    },
    /// Several live allocations have the name at `at` (of jobs in
    /// different namespaces).
    AllocNameAmbiguous {
        event: String,
        name: String,
        at: Time,
        matches: Vec<String>,
    },
    /// A health request's list reads two ways at `at`: each reading's text
    /// (a piece, or pieces joined at their commas) names the allocation
    /// described.
    AllocListAmbiguous {
        event: String,
        at: Time,
        readings: Vec<(String, String)>,
    },
    /// No deployment has the ID or ID prefix, and no job of that ID has a
    /// deployment, at `at`; the deployments then.
    DeploymentNotFound {
        event: String,
        deployment: String,
        at: Time,
        candidates: Vec<String>,
    },
    /// The prefix matches several deployments.
    DeploymentAmbiguous {
        event: String,
        deployment: String,
        matches: Vec<String>,
    },
    /// Jobs of that ID in several namespaces have deployments at `at`.
    DeploymentJobAmbiguous {
        event: String,
        job: String,
        at: Time,
        namespaces: Vec<String>,
    },
    /// The event's time is before the evaluation time.
    EventInThePast {
        event: String,
        at: Time,
        eval_time: Time,
    },
    /// `--until` is before the evaluation time.
    UntilInThePast { until: Time, eval_time: Time },
    /// The replay itself refused the request (`--job`, `--now`, ...).
    Replay(ReplayError),
    /// `--explain` in a story: the subject cannot be explained.
    Explain(ExplainError),
    /// `--explain` in a story: no evaluation of the story decides the
    /// subject (the allocation's full ID, where it names one).
    NotDecided {
        subject: String,
        allocation: Option<String>,
        evaluations: usize,
    },
}

impl fmt::Display for WhatIfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhatIfError::NodeNotFound {
                event,
                node,
                candidates,
            } if candidates.is_empty() => write!(
                f,
                "--what-if {event}: no node {node:?}: the snapshot has no nodes"
            ),
            WhatIfError::NodeNotFound {
                event,
                node,
                candidates,
            } => write!(
                f,
                "--what-if {event}: no node has the ID, name or ID prefix {node:?}; the snapshot's \
                 nodes: {}",
                candidates.join(", ")
            ),
            WhatIfError::NodeAmbiguous {
                event,
                node,
                matches,
            } => write!(
                f,
                "--what-if {event}: {node:?} matches {} nodes: {}; give more of the ID",
                matches.len(),
                matches.join(", ")
            ),
            WhatIfError::AllocNotFound {
                event,
                alloc,
                candidates,
                at,
                placed,
            } => {
                if candidates.is_empty() {
                    write!(
                        f,
                        "--what-if {event}: no allocation {alloc:?}: the snapshot has no \
                         allocations"
                    )?;
                } else {
                    write!(
                        f,
                        "--what-if {event}: no allocation ID starts with {alloc:?}; the \
                         snapshot's allocations: {}",
                        candidates.join(", ")
                    )?;
                }
                if placed.is_empty() {
                    Ok(())
                } else {
                    write!(f, "; placed by {at}: {}", placed.join(", "))
                }
            }
            WhatIfError::AllocAmbiguous {
                event,
                alloc,
                matches,
            } => write!(
                f,
                "--what-if {event}: {alloc:?} matches {} allocations: {}; give more of the ID",
                matches.len(),
                matches.join(", ")
            ),
            WhatIfError::AllocNameNotLive {
                event,
                name,
                at,
                live,
            } if live.is_empty() => write!(
                f,
                "--what-if {event}: no live allocation is named {name:?} at {at}: none is live \
                 then"
            ),
            WhatIfError::AllocNameNotLive {
                event,
                name,
                at,
                live,
            } => write!(
                f,
                "--what-if {event}: no live allocation is named {name:?} at {at}; the names live \
                 then: {}",
                live.join(", ")
            ),
            WhatIfError::AllocNameAmbiguous {
                event,
                name,
                at,
                matches,
            } => write!(
                f,
                "--what-if {event}: {name:?} names {} live allocations at {at}: {}; give the \
                 allocation's ID",
                matches.len(),
                matches.join(", ")
            ),
            WhatIfError::AllocListAmbiguous {
                event,
                at,
                readings,
            } => {
                let readings: Vec<String> = readings
                    .iter()
                    .map(|(text, alloc)| format!("{text:?} names {alloc}"))
                    .collect();
                write!(
                    f,
                    "--what-if {event}: the list reads two ways at {at}: {}; give the \
                     allocations' IDs",
                    readings.join(", and ")
                )
            }
            WhatIfError::DeploymentNotFound {
                event,
                deployment,
                at,
                candidates,
            } if candidates.is_empty() => write!(
                f,
                "--what-if {event}: no deployment {deployment:?} at {at}: the cluster has no \
                 deployments then"
            ),
            WhatIfError::DeploymentNotFound {
                event,
                deployment,
                at,
                candidates,
            } => write!(
                f,
                "--what-if {event}: no deployment has the ID or ID prefix {deployment:?}, nor \
                 does a job of that ID have one, at {at}; the deployments then: {}",
                candidates.join(", ")
            ),
            WhatIfError::DeploymentAmbiguous {
                event,
                deployment,
                matches,
            } => write!(
                f,
                "--what-if {event}: {deployment:?} matches {} deployments: {}; give more of the ID",
                matches.len(),
                matches.join(", ")
            ),
            WhatIfError::DeploymentJobAmbiguous {
                event,
                job,
                at,
                namespaces,
            } => write!(
                f,
                "--what-if {event}: jobs {job:?} of {} namespaces have deployments at {at} \
                 ({}); give the deployment's ID",
                namespaces.len(),
                namespaces.join(", ")
            ),
            WhatIfError::EventInThePast {
                event,
                at,
                eval_time,
            } => write!(
                f,
                "--what-if {event}: {at} is before the evaluation time {eval_time}: give a time \
                 at or after it, or a duration after it (@30m)"
            ),
            WhatIfError::UntilInThePast { until, eval_time } => write!(
                f,
                "--until {until} is before the evaluation time {eval_time}: give a time at or \
                 after it, or a duration after it (2h)"
            ),
            WhatIfError::Replay(e) => e.fmt(f),
            WhatIfError::Explain(e) => e.fmt(f),
            WhatIfError::NotDecided {
                subject,
                allocation,
                evaluations,
            } => {
                match allocation {
                    Some(id) if id != subject => write!(
                        f,
                        "--explain {subject:?}: no evaluation of the story changes allocation {id}"
                    )?,
                    Some(_) => write!(
                        f,
                        "--explain {subject:?}: no evaluation of the story changes the allocation"
                    )?,
                    None => write!(
                        f,
                        "--explain {subject:?}: no allocation ID starts with it, and no evaluation \
                         of the story places it"
                    )?,
                }
                write!(
                    f,
                    " ({evaluations} evaluation(s) replayed); without --what-if and --until, \
                     --explain explains it in the snapshot's evaluation"
                )
            }
        }
    }
}

impl std::error::Error for WhatIfError {}

impl From<ReplayError> for WhatIfError {
    fn from(e: ReplayError) -> WhatIfError {
        WhatIfError::Replay(e)
    }
}
