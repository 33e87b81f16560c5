//! `Allocation` as its JSON keys read: the pre-0.9 resource blocks as
//! three keys of their own, which [`Allocation`] folds into one box.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;

use super::alloc::{
    AllocDeploymentStatus, AllocMetric, AllocState, Allocation, DesiredTransition,
    RescheduleTracker, present_transition,
};
use super::resources::{AllocUsage, AllocatedResources};
use super::{
    ClientStatus, DesiredStatus, Id, LegacyResources, Name, Resources, SparseId, TaskStates,
    nullable,
};

/// The derived reader's struct; its name is `Allocation`'s, so errors read
/// as they would for it.
#[derive(Default, Deserialize)]
#[serde(rename = "Allocation", rename_all = "PascalCase", default)]
pub(super) struct AllocationWire {
    #[serde(rename = "ID")]
    pub(super) id: Id,
    pub(super) namespace: Name,
    pub(super) name: Arc<str>,
    #[serde(rename = "NodeID")]
    pub(super) node_id: Name,
    #[serde(rename = "JobID")]
    pub(super) job_id: Name,
    pub(super) task_group: Name,
    pub(super) allocated_resources: Option<Arc<AllocatedResources>>,
    pub(super) metrics: Option<AllocMetric>,
    pub(super) desired_status: DesiredStatus,
    pub(super) desired_description: Name,
    #[serde(deserialize_with = "present_transition")]
    pub(super) desired_transition: DesiredTransition,
    pub(super) client_status: ClientStatus,
    pub(super) task_states: TaskStates,
    #[serde(deserialize_with = "nullable")]
    pub(super) alloc_states: Box<[AllocState]>,
    pub(super) previous_allocation: SparseId,
    pub(super) next_allocation: SparseId,
    #[serde(rename = "DeploymentID")]
    pub(super) deployment_id: Name,
    pub(super) deployment_status: Option<AllocDeploymentStatus>,
    pub(super) reschedule_tracker: Option<Box<RescheduleTracker>>,
    #[serde(rename = "FollowupEvalID")]
    pub(super) followup_eval_id: SparseId,
    pub(super) create_index: u64,
    pub(super) modify_time: i64,
    #[serde(rename = "JobVersion")]
    pub(super) stub_job_version: Option<u64>,
    pub(super) resources: Option<Resources>,
    #[serde(deserialize_with = "nullable")]
    pub(super) task_resources: BTreeMap<String, Resources>,
    pub(super) shared_resources: Option<Resources>,
}

impl From<AllocationWire> for Allocation {
    fn from(w: AllocationWire) -> Allocation {
        Allocation {
            id: w.id,
            namespace: w.namespace,
            name: w.name,
            node_id: w.node_id,
            job_id: w.job_id,
            task_group: w.task_group,
            allocated_resources: w.allocated_resources,
            metrics: w.metrics,
            desired_status: w.desired_status,
            desired_description: w.desired_description,
            desired_transition: w.desired_transition,
            client_status: w.client_status,
            task_states: w.task_states,
            alloc_states: w.alloc_states,
            previous_allocation: w.previous_allocation,
            next_allocation: w.next_allocation,
            deployment_id: w.deployment_id,
            deployment_status: w.deployment_status,
            reschedule_tracker: w.reschedule_tracker,
            followup_eval_id: w.followup_eval_id,
            create_index: w.create_index,
            modify_time: w.modify_time,
            stub_job_version: w.stub_job_version,
            job: None,
            legacy: LegacyResources {
                resources: w.resources,
                task_resources: w.task_resources,
                shared_resources: w.shared_resources,
            }
            .boxed(),
        }
    }
}

/// `AllocUsage` as its JSON keys read.
#[derive(Default, Deserialize)]
#[serde(rename = "AllocUsage", rename_all = "PascalCase", default)]
pub(super) struct AllocUsageWire {
    #[serde(rename = "ID")]
    id: Id,
    client_status: ClientStatus,
    desired_status: DesiredStatus,
    allocated_resources: Option<Arc<AllocatedResources>>,
    resources: Option<Resources>,
    #[serde(deserialize_with = "nullable")]
    task_resources: BTreeMap<String, Resources>,
    shared_resources: Option<Resources>,
}

impl From<AllocUsageWire> for AllocUsage {
    fn from(w: AllocUsageWire) -> AllocUsage {
        AllocUsage {
            id: w.id,
            client_status: w.client_status,
            desired_status: w.desired_status,
            allocated_resources: w.allocated_resources,
            legacy: LegacyResources {
                resources: w.resources,
                task_resources: w.task_resources,
                shared_resources: w.shared_resources,
            }
            .boxed(),
        }
    }
}
