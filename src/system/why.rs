//! Why the system diff put an allocation (or a missing one) in its set,
//! as facts, and the one sentence each makes.

use crate::model::{Allocation, Job};

/// The fact that put an allocation (or a missing one) in its set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Its name is not one the job requires.
    NotRequired(Unrequired),
    /// Marked for migration (`DesiredTransition.Migrate`).
    MarkedForMigration,
    /// A terminal sysbatch allocation whose job version is current.
    SysbatchDone,
    /// On a tainted node that is gone or down.
    NodeLost { node_status: Option<String> },
    /// On a tainted node that is neither gone nor down (draining,
    /// disconnected): left alone.
    NodeTainted { node_status: String },
    /// A batch allocation that finished successfully on a tainted node.
    BatchDone,
    /// Unknown past its group's disconnect timeout.
    DisconnectExpired,
    /// Unknown and still desired: it may reconnect.
    AwaitingReconnect,
    /// Running on a disconnected node, with a group that allows it.
    NodeDisconnected,
    /// Its client reported again from a node that is no longer tainted.
    Reconnected,
    /// On a node that is not ready: down, initializing, draining or ineligible.
    NodeNotReady {
        node_status: String,
        eligibility: String,
        draining: bool,
    },
    /// On a ready node the job no longer targets (its datacenter).
    NodeNotTargeted {
        datacenter: Option<String>,
        job_datacenters: Vec<String>,
    },
    /// The job's `JobModifyIndex` moved past the allocation's.
    JobChanged { from: u64, to: u64 },
    /// On a node that is not ready, of a job changed since (from 1.11.0).
    NotReadyJobChanged { from: u64, to: u64 },
    /// Already as the job wants it.
    UpToDate,
    /// A ready, targeted node without an allocation of this name.
    Missing,
}

/// Why the job requires no allocation of a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrequired {
    JobPurged,
    JobStopped,
    GroupRemoved,
    /// The group's count is below the name's index.
    CountLowered {
        count: i64,
    },
}

impl Unrequired {
    pub(super) fn of(job: Option<&Job>, alloc: &Allocation) -> Unrequired {
        match job {
            None => Unrequired::JobPurged,
            Some(j) if j.stop => Unrequired::JobStopped,
            Some(j) => match j.lookup_task_group(&alloc.task_group) {
                None => Unrequired::GroupRemoved,
                Some(tg) => Unrequired::CountLowered { count: tg.count },
            },
        }
    }
}

impl Why {
    /// The fact as one sentence: the reason reports and explanations give.
    pub fn describe(&self) -> String {
        match self {
            Why::NotRequired(Unrequired::JobPurged) => {
                "job purged: no allocation is required".to_string()
            }
            Why::NotRequired(Unrequired::JobStopped) => {
                "job stopped: no allocation is required".to_string()
            }
            Why::NotRequired(Unrequired::GroupRemoved) => {
                "task group removed from the job".to_string()
            }
            Why::NotRequired(Unrequired::CountLowered { count }) => {
                format!("name not required: group count is {count}")
            }
            Why::MarkedForMigration => "marked for migration (desired transition)".to_string(),
            Why::SysbatchDone => {
                "sysbatch allocation already ran for this job modify index: not run again"
                    .to_string()
            }
            Why::NodeLost { node_status: None } => {
                "node missing from the snapshot (garbage-collected): lost".to_string()
            }
            Why::NodeLost {
                node_status: Some(s),
            } => format!("node {s}: lost"),
            Why::NodeTainted { node_status } => {
                format!("node {node_status} and draining or disconnected: left alone")
            }
            Why::BatchDone => "batch work finished successfully on a tainted node".to_string(),
            Why::DisconnectExpired => {
                "unknown past its group's disconnect timeout: lost".to_string()
            }
            Why::AwaitingReconnect => {
                "unknown and desired to run: left alone until its client reconnects".to_string()
            }
            Why::NodeDisconnected => {
                "running on a disconnected node whose group allows disconnects: marked unknown"
                    .to_string()
            }
            Why::Reconnected => "its client reconnected on an untainted node".to_string(),
            Why::NodeNotReady {
                node_status,
                eligibility,
                draining,
            } => format!(
                "node not ready (status {node_status}, {eligibility}{}): left alone",
                if *draining { ", draining" } else { "" }
            ),
            Why::NodeNotTargeted {
                datacenter,
                job_datacenters,
            } => format!(
                "node datacenter {} is not one of the job's {:?}",
                datacenter.as_deref().unwrap_or("?"),
                job_datacenters
            ),
            Why::JobChanged { from, to } => {
                format!("job updated: JobModifyIndex {from} on the allocation, {to} now")
            }
            Why::NotReadyJobChanged { from, to } => format!(
                "node not ready and job updated (JobModifyIndex {from} on the allocation, {to} now): stopped"
            ),
            Why::UpToDate => "node ready and targeted, job unchanged".to_string(),
            Why::Missing => "ready, targeted node without this allocation".to_string(),
        }
    }
}
