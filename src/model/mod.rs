//! The cluster state plan-inspect replays: Nomad's `structs` types, reduced to
//! the fields the generic scheduler reads, deserialized from the PascalCase JSON
//! that Go's encoding/json writes.

mod alloc;
mod alloc_name;
mod alloc_wire;
mod applied_config;
mod connect;
mod constraint;
mod csi;
mod deployment;
mod evaluation;
mod go_null;
mod go_quote;
mod id;
mod in_place;
mod job;
mod job_type;
mod keep_only;
mod known_names;
mod legacy;
mod name;
mod node;
mod node_pool;
mod other_text;
mod parts;
mod reconcile_strategy;
mod release;
pub mod resources;
mod scheduler_config;
mod shared;
#[cfg(test)]
mod shared_tests;
mod snapshot;
mod sorted_map;
mod sparse_id;
pub mod status;
mod string_map;
mod task_event;
mod task_resources;
mod task_states;
mod usage_view;
mod value;
mod value_hash;
mod version_request;

pub use alloc::{
    AllocDeploymentStatus, AllocMetric, AllocState, AllocStateField, Allocation, DelayBase,
    DelaySteps, DesiredTransition, NormScore, Reconnection, RescheduleEvent, RescheduleTracker,
    alloc_index_from_name,
};
pub use alloc_name::AllocName;
pub use applied_config::{AppliedConfig, PoolOverride};
pub use connect::{
    ConsulGateway, ConsulGatewayBindAddress, ConsulGatewayProxy, ConsulGatewayTlsConfig,
    ConsulIngressConfigEntry, ConsulIngressListener, ConsulIngressService, ConsulLinkedService,
    ConsulMeshConfigEntry, ConsulTerminatingConfigEntry, LogConfig, SidecarTask,
};
pub use constraint::{Affinity, Constraint};
pub use csi::{
    CsiCapability, CsiInfo, CsiNodeInfo, CsiPlugin, CsiTopology, CsiVolume, access_mode,
};
pub use deployment::{Deployment, DeploymentState, deployment_status};
pub use evaluation::{DesiredUpdates, Evaluation, PlanAnnotations};
pub(crate) use go_null::{GoJson, GoNull, first_value, from_slice, from_str};
pub use go_quote::{go_plus_quote, go_quote};
pub use id::Id;
pub(crate) use in_place::{TextUse, with_text};
pub use job::{
    Consul, ConsulConnect, DEFAULT_KILL_TIMEOUT, DisconnectFields, DisconnectStrategy, Job,
    MigrateStrategy, Multiregion, ReschedulePolicy, RestartPolicy, Service, SidecarService, Task,
    TaskGroup, TaskLifecycle, TaskLogs, UpdateStrategy, VolumeRequest,
};
pub use job_type::JobType;
pub use legacy::LegacyResources;
pub use name::{Interner, Name};
pub use node::{DriverInfo, HostVolume, Node, NodesById, eligibility, node_status};
pub use node_pool::{NodePool, NodePoolSchedulerConfig};
pub use other_text::OtherText;
pub use reconcile_strategy::{ReconcileStrategy, reconcile_option};
pub use release::{HEAD_COMMIT, Release, SEED_COMMIT, SERIES, v};
pub use resources::{
    NodeDevice, NodeDeviceInstance, NodeNetwork, NodeNetworkAddress, NodeResources,
};
pub use scheduler_config::{PreemptionConfig, SchedulerConfig};
pub use shared::Shared;
pub(crate) use shared::{from_slice_shared, from_str_shared};
pub use snapshot::Snapshot;
pub use sorted_map::SortedMap;
pub use sparse_id::SparseId;
pub use status::{ClientStatus, DesiredStatus};
pub use string_map::StringMap;
pub use task_event::{TASK_CLIENT_RECONNECTED, TaskEvent};
pub use task_resources::{CniConfig, NetworkResource, Numa, Port, RequestedDevice, Resources};
pub use task_states::{TaskState, TaskStates};
pub use usage_view::UsageView;
pub use value::{Equality, GoValue, Json};
pub(crate) use value::{deep_equal, deep_equal_as, maps_equal_as, objects_equal, set_equal};
pub(crate) use value_hash::value_hash;
pub use version_request::{BadVersion, VersionRequest, accepted, names};

use serde::{Deserialize, Deserializer};

/// Go writes nil slices and maps as `null`; read that as empty.
pub(crate) fn nullable<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A list that Go may write as `null`, without the room its growth left: a
/// list read element by element starts with room for four, and a job's
/// lists are short with large elements (a task group, a task), so the room
/// would be most of what a parsed job weighs.
pub(crate) fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let mut list: Vec<T> = Option::deserialize(d)?.unwrap_or_default();
    list.shrink_to_fit();
    Ok(list)
}
