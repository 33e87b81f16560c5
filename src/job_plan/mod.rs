//! Planning a new version of one job against a snapshot, as `nomad job
//! plan` does on a live cluster (contract section 10): the API job made
//! canonical and admitted as the register endpoint does, diffed against the
//! job in the snapshot as `Job.Diff` does, annotated with the plan's counts.
//! Pure: it takes JSON values and returns facts; reading and printing are
//! elsewhere.

mod actions_secrets_validate;
mod admission;
mod annotate;
mod api_names;
mod block_warnings;
mod canonical;
mod check_hash;
mod connect;
mod connect_diff;
mod connect_env;
mod connect_gateway;
mod connect_validate;
mod consul_hook;
mod cron;
mod cron_next;
mod diff_types;
mod disconnect_validate;
mod expose_check;
mod fields;
mod flat;
mod gateway_diff;
mod gateway_validate;
mod go_regexp;
mod go_url;
mod group_diff;
mod group_service_validate;
mod group_validate;
mod identities;
mod identity_validate;
mod injected_task;
mod job_blocks;
mod job_diff;
mod json_map;
mod multierror;
mod nested;
mod network_validate;
mod node_pool_validate;
mod periodic;
mod placement_validate;
mod plan;
mod reschedule_validate;
mod resources_validate;
mod same;
mod schema;
mod service_check;
mod service_diff;
mod service_validate;
mod sidecar_merge;
mod task_block_diff;
mod task_blocks_validate;
mod task_defaults;
mod task_diff;
mod task_validate;
mod tproxy_validate;
mod vault_csi_validate;
mod volume_validate;
mod warnings;

pub use admission::{implied_constraints, validate};
pub use annotate::annotate;
pub use canonical::canonicalize;
pub use diff_types::{DiffType, FieldDiff, JobDiff, ObjectDiff, TaskDiff, TaskGroupDiff};
pub use job_diff::job_diff;
pub use plan::{JobPlan, PlanError, admit, job_key, plan_job};
pub use warnings::{job_warnings, merged as merged_warnings};

#[cfg(test)]
mod tests;
