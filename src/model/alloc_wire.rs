//! `Allocation` as its JSON keys read: the pre-0.9 resource blocks as
//! three keys of their own, which [`Allocation`] folds into one box.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Deserializer};

use super::alloc::{
    AllocDeploymentStatus, AllocMetric, AllocState, Allocation, DesiredTransition, NormScore,
    RescheduleTracker, present_transition,
};
use super::alloc_name::AllocName;
use super::resources::{AllocUsage, AllocatedResources};
use super::{
    ClientStatus, DesiredStatus, Id, LegacyResources, Name, Resources, SparseId, TaskStates,
    nullable,
};

/// The derived reader's struct; its name is `Allocation`'s, so errors read
/// as they would for it.
#[derive(Default, Deserialize)]
#[serde(rename = "Allocation", rename_all = "PascalCase", default)]
struct AllocationWire {
    #[serde(rename = "ID")]
    id: Id,
    namespace: Name,
    name: String,
    #[serde(rename = "NodeID")]
    node_id: Name,
    #[serde(rename = "JobID")]
    job_id: Name,
    task_group: Name,
    allocated_resources: Option<Arc<AllocatedResources>>,
    metrics: Option<AllocMetric>,
    desired_status: DesiredStatus,
    desired_description: Name,
    #[serde(deserialize_with = "present_transition")]
    desired_transition: DesiredTransition,
    client_status: ClientStatus,
    task_states: TaskStates,
    #[serde(deserialize_with = "nullable")]
    alloc_states: Vec<AllocState>,
    previous_allocation: SparseId,
    next_allocation: SparseId,
    #[serde(rename = "DeploymentID")]
    deployment_id: Name,
    deployment_status: Option<AllocDeploymentStatus>,
    reschedule_tracker: Option<Box<RescheduleTracker>>,
    #[serde(rename = "FollowupEvalID")]
    followup_eval_id: SparseId,
    create_index: u64,
    modify_time: i64,
    #[serde(rename = "JobVersion")]
    stub_job_version: Option<Box<u64>>,
    resources: Option<Resources>,
    #[serde(deserialize_with = "nullable")]
    task_resources: BTreeMap<String, Resources>,
    shared_resources: Option<Resources>,
}

impl From<AllocationWire> for Allocation {
    fn from(w: AllocationWire) -> Allocation {
        Allocation {
            id: w.id,
            namespace: w.namespace,
            name: AllocName::of(&w.name, &w.job_id, &w.task_group),
            node_id: w.node_id,
            job_id: w.job_id,
            task_group: w.task_group,
            allocated_resources: w.allocated_resources,
            norm_score: NormScore::of(w.metrics.as_ref()),
            desired_status: w.desired_status,
            desired_description: w.desired_description,
            desired_transition: w.desired_transition,
            client_status: w.client_status,
            task_states: w.task_states,
            alloc_states: w.alloc_states.into(),
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
struct AllocUsageWire {
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

impl<'de> Deserialize<'de> for Allocation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Allocation, D::Error> {
        AllocationWire::deserialize(d).map(Allocation::from)
    }
}

impl<'de> Deserialize<'de> for AllocUsage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<AllocUsage, D::Error> {
        AllocUsageWire::deserialize(d).map(AllocUsage::from)
    }
}
