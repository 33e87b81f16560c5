//! The job specification, as far as the reconciler reads it.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::shared::shared_value;
use super::{
    Constraint, ConsulGateway, GoValue, JobType, Name, NetworkResource, Resources, Shared,
    SidecarTask, SortedMap, list, nullable, reconcile_option,
};
use crate::time::Duration;

/// A `structs.Job`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Job {
    #[serde(rename = "ID")]
    pub id: Name,
    pub namespace: Name,
    pub name: Name,
    #[serde(rename = "Type")]
    pub job_type: JobType,
    pub priority: i64,
    pub stop: bool,
    /// `Status`, `Stable` and `ModifyIndex` change without a new version. Of
    /// a job embedded in allocations they are those of the first text of its
    /// version read (texts differing only there share one job); no rule
    /// reads them there.
    pub status: Name,
    pub stable: bool,
    pub version: u64,
    pub create_index: u64,
    pub modify_index: u64,
    pub job_modify_index: u64,
    #[serde(deserialize_with = "list")]
    pub datacenters: Vec<Name>,
    #[serde(deserialize_with = "list")]
    pub constraints: Vec<Constraint>,
    /// The job-level update block; the system scheduler's rolling limit.
    pub update: Option<UpdateStrategy>,
    /// Shared with the job's other versions where their texts are equal.
    #[serde(deserialize_with = "list")]
    pub task_groups: Vec<Shared<TaskGroup>>,
    #[serde(deserialize_with = "shared_value")]
    pub affinities: GoValue,
    #[serde(deserialize_with = "shared_value")]
    pub spreads: GoValue,
    #[serde(deserialize_with = "nullable")]
    pub meta: SortedMap<Name, Name>,
    pub multiregion: Option<Multiregion>,
    pub periodic: GoValue,
    pub parameterized_job: GoValue,
    pub dispatched: bool,
    /// Written by servers from 1.6.0 on ("default" unless set).
    pub node_pool: Name,
    /// A tag set on this version (1.9.0 on).
    pub version_tag: GoValue,
}

/// The part of `structs.Multiregion` that makes a job multiregion.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Multiregion {
    pub regions: GoValue,
}

/// The most allocations of one task group the replay places or names:
/// 4,194,304, four times the largest snapshot plan-inspect is built for.
/// Each placement is held until the job's report is written (about 460
/// bytes), so this bound is what keeps memory bounded (about 2 GB for a
/// group this large placed from nothing).
const MAX_GROUP_COUNT: i64 = 1 << 22;

/// `TaskGroup.Count`, refused where Nomad could not have stored it (its job
/// validation rejects a negative count: v1.9.7
/// nomad/structs/structs.go:7126) or where the replay could not hold it.
fn group_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let count = i64::deserialize(d)?;
    if count < 0 {
        return Err(serde::de::Error::custom(format_args!(
            "Count {count} is negative, which Nomad's job validation refuses: the snapshot is \
             damaged or edited; give the group a count of 0 or more"
        )));
    }
    if count > MAX_GROUP_COUNT {
        return Err(serde::de::Error::custom(format_args!(
            "Count {count} is more than plan-inspect replays (at most {MAX_GROUP_COUNT} \
             allocations per task group); no Nomad scheduler places that many in one evaluation"
        )));
    }
    Ok(count)
}

/// A `structs.TaskGroup`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct TaskGroup {
    pub name: String,
    #[serde(deserialize_with = "group_count")]
    pub count: i64,
    pub update: Option<UpdateStrategy>,
    pub reschedule_policy: Option<ReschedulePolicy>,
    #[serde(deserialize_with = "shared_value")]
    pub ephemeral_disk: GoValue,
    #[serde(deserialize_with = "list")]
    pub networks: Vec<NetworkResource>,
    #[serde(deserialize_with = "shared_value")]
    pub affinities: GoValue,
    #[serde(deserialize_with = "shared_value")]
    pub spreads: GoValue,
    pub consul: Option<Box<Consul>>,
    #[serde(deserialize_with = "list")]
    pub services: Vec<Service>,
    /// Shared with other groups' where their texts are equal.
    #[serde(deserialize_with = "list")]
    pub tasks: Vec<Shared<Task>>,
    #[serde(deserialize_with = "nullable")]
    pub meta: SortedMap<Name, Name>,
    pub stop_after_client_disconnect: Option<Duration>,
    pub max_client_disconnect: Option<Duration>,
    #[serde(deserialize_with = "list")]
    pub constraints: Vec<Constraint>,
    #[serde(deserialize_with = "nullable")]
    pub volumes: BTreeMap<String, VolumeRequest>,
    /// Nomad 1.7.2 to 1.9: the node going down or disconnected marks the
    /// allocation unknown instead of replacing it. Ignored from 1.10.0.
    pub prevent_reschedule_on_lost: bool,
    /// The `disconnect` block, read from 1.8.0 on.
    pub disconnect: Option<DisconnectStrategy>,
    /// Batch and sysbatch tasks are stopped after this long (2.0.3 on).
    pub max_run_duration: Option<Duration>,
    pub restart_policy: Option<RestartPolicy>,
    /// The `migrate` block: the drainer and preemption read its
    /// `max_parallel`; Nomad's job register endpoint gives every service
    /// group one (`max_parallel = 1`).
    pub migrate: Option<MigrateStrategy>,
}

/// A group's `structs.MigrateStrategy`, as far as the drainer and
/// preemption read it.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct MigrateStrategy {
    pub max_parallel: i64,
}

/// A `structs.VolumeRequest` of a task group.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct VolumeRequest {
    pub name: String,
    #[serde(rename = "Type")]
    pub volume_type: String,
    pub source: String,
    pub read_only: bool,
    /// Every other field, compared as Nomad's `reflect.DeepEqual` does. The
    /// flattened keys are buffered by serde past the `null` rule, so a
    /// `null` is kept here, and the comparison reads it as Go would.
    #[serde(flatten)]
    pub other: GoValue,
}

/// A `structs.DisconnectStrategy` (the group's `disconnect` block, 1.8.0 on).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct DisconnectStrategy {
    /// How long a disconnected node's allocations stay unknown before they
    /// are lost; 0 for "lost at once".
    pub lost_after: Duration,
    /// Whether to place a replacement while the allocation is unknown; nil
    /// means the server default (true).
    pub replace: Option<bool>,
    /// Which copy survives a reconnect: `best_score` (the default),
    /// `keep_original`, `keep_replacement` or `longest_running`.
    pub reconcile: String,
    /// How long the client keeps running allocations while disconnected.
    pub stop_on_client_after: Option<Duration>,
}

/// Which of a group's disconnect settings a release reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DisconnectFields {
    /// `max_client_disconnect` and `stop_after_client_disconnect` (to 1.7).
    #[default]
    Legacy,
    /// Those first, else the `disconnect` block (1.8, 1.9).
    LegacyFirst,
    /// The `disconnect` block alone (1.10 on).
    BlockOnly,
    /// The block alone, read as 1.11.2 and 2.0 read it: an unset
    /// `lost_after` is zero, so an unknown allocation of a group without one
    /// has expired, and an allocation is unknown since the start of its
    /// latest run of unknown states.
    BlockStrict,
}

/// A `structs.UpdateStrategy`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct UpdateStrategy {
    pub stagger: Duration,
    pub max_parallel: i64,
    pub canary: i64,
    pub auto_revert: bool,
    pub auto_promote: bool,
    pub progress_deadline: Duration,
    /// `checks`, `task_states` or `manual`: with `manual` an operator
    /// sets the health of a deployment's allocations, not their client.
    pub health_check: String,
}

/// A `structs.ReschedulePolicy`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ReschedulePolicy {
    pub attempts: i64,
    pub interval: Duration,
    pub delay: Duration,
    pub delay_function: Name,
    pub max_delay: Duration,
    pub unlimited: bool,
}

/// A `structs.Consul` block of a task group or (1.7.0 on) a task.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct Consul {
    pub namespace: String,
    /// The Consul cluster the workload registers in (1.7.0 on).
    pub cluster: String,
    /// The Consul admin partition (1.7.3 on).
    pub partition: String,
}

/// A `structs.Service`, for the Connect checks of `tasksUpdated`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct Service {
    pub name: Name,
    pub port_label: Name,
    /// Boxed: most services have no Connect block, which is large.
    pub connect: Option<Box<ConsulConnect>>,
    /// The Consul cluster of the service (1.7.0 on).
    pub cluster: Name,
}

/// A `structs.ConsulConnect`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulConnect {
    pub native: bool,
    pub gateway: Option<ConsulGateway>,
    pub sidecar_task: Option<SidecarTask>,
    pub sidecar_service: Option<SidecarService>,
}

/// A `structs.ConsulSidecarService`: only its port forces a destructive update.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct SidecarService {
    pub port: String,
}

/// A `structs.TaskLifecycleConfig`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct TaskLifecycle {
    /// `prestart`, `poststart` or `poststop`.
    pub hook: String,
    pub sidecar: bool,
}

/// A `structs.Task`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct Task {
    pub name: String,
    pub driver: Name,
    /// The group's leader task, whose start decides `longest_running`.
    pub leader: bool,
    pub user: Name,
    #[serde(deserialize_with = "shared_value")]
    pub config: GoValue,
    #[serde(deserialize_with = "shared_value")]
    pub env: GoValue,
    #[serde(deserialize_with = "shared_value")]
    pub artifacts: GoValue,
    #[serde(deserialize_with = "shared_value")]
    pub vault: GoValue,
    #[serde(deserialize_with = "shared_value")]
    pub templates: GoValue,
    #[serde(deserialize_with = "nullable")]
    pub meta: SortedMap<Name, Name>,
    pub resources: Option<Resources>,
    /// Its lifecycle hook; `None` for a main task.
    pub lifecycle: Option<TaskLifecycle>,
    pub kill_timeout: Duration,
    #[serde(deserialize_with = "shared_value")]
    pub affinities: GoValue,
    #[serde(deserialize_with = "list")]
    pub constraints: Vec<Constraint>,
    #[serde(rename = "CSIPluginConfig", deserialize_with = "shared_value")]
    pub csi_plugin_config: GoValue,
    #[serde(deserialize_with = "shared_value")]
    pub volume_mounts: GoValue,
    #[serde(deserialize_with = "shared_value")]
    pub identity: GoValue,
    /// Workload identities beyond the default one (1.7.0 on).
    #[serde(deserialize_with = "shared_value")]
    pub identities: GoValue,
    /// The task's own Consul block (1.7.0 on).
    pub consul: Option<Box<Consul>>,
    /// `secret` blocks (1.11.0 on).
    #[serde(deserialize_with = "shared_value")]
    pub secrets: GoValue,
    pub log_config: Option<TaskLogs>,
    pub restart_policy: Option<RestartPolicy>,
}

/// The part of a task's `structs.LogConfig` that decides updates: 1.5.4
/// wrote `Enabled`, later releases `Disabled`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct TaskLogs {
    pub enabled: bool,
    pub disabled: bool,
}

/// The part of a `structs.RestartPolicy` that decides updates.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct RestartPolicy {
    pub render_templates: bool,
}

/// Go's `structs.DefaultKillTimeout`.
pub const DEFAULT_KILL_TIMEOUT: Duration = 5 * crate::time::SECOND;

impl Job {
    pub fn lookup_task_group(&self, name: &str) -> Option<&TaskGroup> {
        self.task_groups
            .iter()
            .find(|tg| tg.name == name)
            .map(|tg| &**tg)
    }

    pub fn is_batch(&self) -> bool {
        self.job_type == JobType::Batch
    }

    /// Scheduled by Nomad's system scheduler: `system` or `sysbatch`.
    pub fn is_system(&self) -> bool {
        matches!(self.job_type, JobType::System | JobType::Sysbatch)
    }

    pub fn is_periodic(&self) -> bool {
        !self.periodic.is_null()
    }

    pub fn is_parameterized(&self) -> bool {
        !self.parameterized_job.is_null() && !self.dispatched
    }

    /// `Job.UsesDeployments`: only service jobs have deployments.
    pub fn uses_deployments(&self) -> bool {
        self.job_type == JobType::Service
    }

    /// `Job.IsMultiregion`: a multiregion block with at least one region.
    pub fn is_multiregion(&self) -> bool {
        self.multiregion
            .as_ref()
            .is_some_and(|m| !m.regions.elements().is_empty())
    }

    /// `Job.CombinedTaskMeta`: task meta over group meta over job meta.
    pub fn combined_task_meta(&self, group: &str, task: &str) -> BTreeMap<String, String> {
        let own = |m: &SortedMap<Name, Name>| -> BTreeMap<String, String> {
            m.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let Some(tg) = self.lookup_task_group(group) else {
            return own(&self.meta);
        };
        let mut meta = tg
            .lookup_task(task)
            .map(|t| own(&t.meta))
            .unwrap_or_default();
        for (k, v) in tg.meta.iter().chain(&self.meta) {
            meta.entry(k.to_string()).or_insert_with(|| v.to_string());
        }
        meta
    }
}

impl TaskGroup {
    /// The group's `EphemeralDisk.SizeMB`, 0 without the block.
    pub fn disk_mb(&self) -> i64 {
        self.ephemeral_disk
            .get("SizeMB")
            .and_then(|v| v.as_i64())
            .unwrap_or(0)
    }

    pub fn lookup_task(&self, name: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.name == name).map(|t| &**t)
    }

    /// `GetDisconnectLostTimeout`: how long an allocation may stay unknown
    /// before it is lost, as `fields` says the release reads the group;
    /// `None` when nothing sets it.
    pub fn lost_timeout(&self, fields: DisconnectFields) -> Option<Duration> {
        let block = || self.disconnect.as_ref().map(|d| d.lost_after);
        match fields {
            DisconnectFields::Legacy => self.max_client_disconnect,
            DisconnectFields::LegacyFirst => self.max_client_disconnect.or_else(block),
            DisconnectFields::BlockOnly | DisconnectFields::BlockStrict => block(),
        }
    }

    /// `GetDisconnectStopTimeout`: how long a disconnected client keeps
    /// running the allocations, as `fields` says the release reads the group.
    pub fn stop_timeout(&self, fields: DisconnectFields) -> Option<Duration> {
        let block = || {
            self.disconnect
                .as_ref()
                .and_then(|d| d.stop_on_client_after)
        };
        match fields {
            DisconnectFields::Legacy => self.stop_after_client_disconnect,
            DisconnectFields::LegacyFirst => self.stop_after_client_disconnect.or_else(block),
            DisconnectFields::BlockOnly | DisconnectFields::BlockStrict => block(),
        }
    }

    /// Whether the group supports disconnected clients at all: a
    /// `max_client_disconnect` is set (to 1.7), or the lost timeout is not
    /// zero (1.8 on, `SupportsDisconnectedClients`).
    pub fn disconnect_supported(&self, fields: DisconnectFields) -> bool {
        match fields {
            DisconnectFields::Legacy => self.max_client_disconnect.is_some(),
            _ => self.lost_timeout(fields).unwrap_or(0) != 0,
        }
    }

    /// `TaskGroup.Replace` (1.8 on): whether an unknown allocation is
    /// replaced; the block's `replace` (true by default), which the legacy
    /// `prevent_reschedule_on_lost` overrides while the release reads it.
    pub fn replaces(&self, fields: DisconnectFields) -> bool {
        if fields == DisconnectFields::LegacyFirst && self.prevent_reschedule_on_lost {
            return false;
        }
        self.disconnect
            .as_ref()
            .and_then(|d| d.replace)
            .unwrap_or(true)
    }

    /// How long after its last unknown transition an unknown allocation
    /// expires (`Expired`): its `max_client_disconnect` (to 1.7); from 1.8
    /// the lost timeout, except that a zero timeout with replacement never
    /// expires; from 1.11.2 the lost timeout, zero if unset
    /// (v1.11.2 nomad/structs/alloc.go:753).
    pub fn expiry_timeout(&self, fields: DisconnectFields) -> Option<Duration> {
        let timeout = self.lost_timeout(fields).unwrap_or(0);
        match fields {
            DisconnectFields::Legacy => return self.max_client_disconnect,
            DisconnectFields::BlockStrict => return Some(timeout),
            DisconnectFields::LegacyFirst | DisconnectFields::BlockOnly => {}
        }
        (timeout != 0 || !self.replaces(fields)).then_some(timeout)
    }

    /// The `disconnect` block as the server stores it on register: a nil
    /// `replace` becomes true and an empty `reconcile` best_score; with
    /// `copy_legacy` (servers 1.8.x and 1.9.x) an unset `lost_after` and
    /// `stop_on_client_after` are filled from `max_client_disconnect` and
    /// `stop_after_client_disconnect`. `prevent_reschedule_on_lost` would set
    /// a nil `replace` to false, but the default is applied first, so it
    /// never does (v1.8.0 nomad/structs/structs.go:6853-6865). No block is
    /// made for a group without one.
    pub fn canonical_disconnect(&self, copy_legacy: bool) -> Option<DisconnectStrategy> {
        let mut d = self.disconnect.clone()?;
        d.replace.get_or_insert(true);
        if d.reconcile.is_empty() {
            d.reconcile = reconcile_option::BEST_SCORE.to_string();
        }
        if copy_legacy {
            if let Some(max) = self.max_client_disconnect
                && d.lost_after == 0
            {
                d.lost_after = max;
            }
            if d.stop_on_client_after.is_none() {
                d.stop_on_client_after = self.stop_after_client_disconnect;
            }
        }
        Some(d)
    }

    /// The update strategy unless it is empty (`UpdateStrategy.IsEmpty`).
    pub fn update_strategy(&self) -> Option<&UpdateStrategy> {
        self.update.as_ref().filter(|u| u.max_parallel != 0)
    }
}

impl UpdateStrategy {
    /// `UpdateStrategy.Rolling`: both a stagger and a parallel limit.
    pub fn rolling(&self) -> bool {
        self.stagger > 0 && self.max_parallel > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SECOND;

    fn group(disconnect: Option<DisconnectStrategy>) -> TaskGroup {
        TaskGroup {
            max_client_disconnect: Some(600 * SECOND),
            stop_after_client_disconnect: Some(60 * SECOND),
            prevent_reschedule_on_lost: true,
            disconnect,
            ..TaskGroup::default()
        }
    }

    #[test]
    fn no_disconnect_block_is_made_for_a_group_without_one() {
        assert_eq!(group(None).canonical_disconnect(true), None);
    }

    #[test]
    fn the_server_defaults_replace_and_reconcile_before_prevent_reschedule_is_looked_at() {
        let tg = group(Some(DisconnectStrategy::default()));
        let d = tg.canonical_disconnect(true).unwrap();
        assert_eq!(d.replace, Some(true));
        assert_eq!(d.reconcile, "best_score");
        assert_eq!(d.lost_after, 600 * SECOND);
        assert_eq!(d.stop_on_client_after, Some(60 * SECOND));
        // 1.10.0 on: the legacy fields are no longer copied in.
        let d = tg.canonical_disconnect(false).unwrap();
        assert_eq!(d.lost_after, 0);
        assert_eq!(d.stop_on_client_after, None);
        assert_eq!(d.replace, Some(true));
    }

    #[test]
    fn values_the_block_sets_are_kept() {
        let tg = group(Some(DisconnectStrategy {
            lost_after: 5 * SECOND,
            replace: Some(false),
            reconcile: "longest_running".into(),
            stop_on_client_after: Some(SECOND),
        }));
        let d = tg.canonical_disconnect(true).unwrap();
        assert_eq!(d.lost_after, 5 * SECOND);
        assert_eq!(d.replace, Some(false));
        assert_eq!(d.reconcile, "longest_running");
        assert_eq!(d.stop_on_client_after, Some(SECOND));
    }
}
