//! plan-inspect's integration tests, one program with a module per area.
//!
//! The reconciler areas (placement to tainted) hold Nomad's own tests, ported
//! from scheduler/reconcile_test.go, reconcile_util_test.go and
//! nomad/structs/structs_test.go at 8ac3e642e6 under their Nomad names in
//! snake case (`fixtures/nomad/README.md` maps each to its module), next to
//! tests of behaviour those do not reach, each citing the Go source that
//! decides it.

mod common;

mod allocation;
mod blocked_eval;
mod browser;
mod canary;
mod cli;
mod contrib;
mod count_note;
mod deployment;
mod determinism;
mod devices;
mod disconnect;
mod explain;
mod explain_verdicts;
mod feasible;
mod generic_sched;
mod generic_sched_batch;
mod generic_sched_downgrade;
mod generic_sched_modify;
mod generic_sched_placement;
mod generic_sched_queued;
mod generic_sched_reconcile;
mod generic_sched_spread;
mod golden;
mod incidents;
mod job_plan;
mod layers;
mod layout;
mod memory;
mod node_pool_config;
mod nomad_version;
mod placement;
mod properties;
mod rank;
mod rank_network;
mod reader;
mod reconnect;
mod reschedule;
mod reshape;
mod schema;
mod secrets;
mod spread;
mod stack;
mod stop;
mod system;
mod system_deployment;
mod system_fit;
mod tainted;
mod threads;
mod unreplaced;
mod update;
mod version_1_11;
mod version_2_0;
mod version_disconnect;
mod version_multiregion;
mod version_names;
mod version_picker;
mod version_policy;
mod version_reconnect;
mod version_reconnected;
mod version_reschedule;
mod version_system;
mod version_tainted;
mod version_task_updates;
mod version_update;
mod volumes;
mod what_if;
mod what_if_alloc_fail;
mod what_if_alloc_health;
mod what_if_canary;
mod what_if_cli;
mod what_if_deployment;
mod what_if_explain;
mod what_if_operator;
mod what_if_preemption;
