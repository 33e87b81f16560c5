//! What Nomad's servers do when a node or an allocation changes, and what
//! happens next: `--what-if` events taken through the release's server
//! endpoints (heartbeats, node status, the drainer, client allocation
//! updates), every evaluation they create replayed with the scheduler at
//! its own time, each plan applied as the plan applier would, and with
//! `--until` the follow-up, blocked and node evaluations that come due.
//!
//! Each Nomad server file's behaviour has its own module; release
//! differences are rows #12955, #17443, #17598, #23858, #27423, #27499, #15808,
//! #14621, #17071, F-3, and the deployment watcher's #14001, #17341 and
//! #27804 of the catalogue ([`crate::version::Switch`]).

mod alloc_health;
mod apply;
mod blocked;
mod deployment_state;
pub mod deployment_watcher;
pub mod drain_jobs;
mod drainer;
mod engine;
pub mod error;
pub mod eval;
pub mod event;
mod events;
mod explain_story;
mod health_list;
pub mod heartbeat;
#[cfg(test)]
mod memory_max_tests;
pub mod node_evals;
pub mod node_status;
mod place;
mod preempt;
mod resources;
mod rollback;
pub mod rules;
mod snapshot_evals;
pub mod story;
mod target;
mod timeline;
pub mod update_alloc;
pub mod world;

pub use deployment_watcher::{WatcherAction, WatcherWrite};
pub use error::WhatIfError;
pub use event::{BadEvent, BadWhen, EventKind, EventSpec, HealthSet, TargetKind, When};
pub use explain_story::explain;
pub use story::{
    AppliedEvent, Assumption, EvalFacts, Mark, MarkKind, Preempted, Story, TimelineEntry,
};
pub use timeline::{Request, run};
