//! Nomad's generic-scheduler reconciler (`scheduler/reconcile.go` at
//! 8ac3e642e6): from a job, its allocations, its tainted nodes and its
//! deployment, the changes that bring the cluster to the job spec.
//!
//! Where Nomad iterates a Go map, this port iterates in a fixed order: task
//! groups by name, allocations by ID. Each such order is one that Nomad
//! itself could take, so every result here is one Nomad could produce.

mod alloc_facts;
mod alloc_reconciler;
mod alloc_set;
mod bucket;
mod bucket_reason;
mod canary;
mod context;
mod deployment;
mod fold;
mod followup;
mod group;
mod group_sets;
mod ids;
mod input;
mod job_state;
mod name_index;
mod outcome;
mod placement;
mod reason_shape;
mod reconciliation;
mod reconnect;
mod reconnect_decision;
mod reconnect_picker;
mod release_facts;
mod reschedule;
mod reschedule_facts;
mod results;
mod rules;
mod set_aside;
mod stop;
mod taint_order;
mod taint_rule;
mod tainted;
mod trace;
mod unreplaced;
mod update;

pub use alloc_facts::{AllocFacts, DisconnectFacts, ReconnectCheck};
pub use alloc_reconciler::Reconciler;
pub use alloc_set::AllocSet;
pub use bucket::{Bucket, ByBucket};
pub use bucket_reason::{BucketReason, ReasonNode, ReasonTimes};
pub use input::{ReconcileInput, UpdateFn};
pub use name_index::{Bitmap, NameIndex, alloc_name};
pub use reason_shape::{ReasonKind, ReasonShape};
pub use reconciliation::Reconciliation;
pub use reconnect_decision::{ReconnectDecision, ReconnectVerdict};
pub use reconnect_picker::pick_reconnecting_alloc;
pub use release_facts::{ReconnectWeighing, ReleaseFacts};
pub use reschedule::{
    DelayedReschedule, Prefilter, RescheduleBasis, RescheduleContext, RescheduleDecision,
    RescheduleSets, should_filter, update_by_reschedulable,
};
pub use reschedule_facts::{DisconnectingReplacement, RescheduleFacts};
pub use results::{
    AllocUpdate, DeploymentUpdate, DesiredChanges, DestructiveResult, FollowupEval, PlaceResult,
    ReconcileResults, StopResult, desc, trigger,
};
pub use rules::Rules;
pub use set_aside::SetAside;
pub use taint_rule::TaintRule;
pub use tainted::{
    TaintContext, TaintRules, TaintedNodes, TaintedSets, classify, classify_rule, reason,
    tainted_nodes,
};
pub use trace::{GroupTrace, PlacementBasis, UpdateSplit};
pub use unreplaced::{Keeper, Unreplaced};
pub use update::{
    Difference, UpdateCheck, UpdateKind, alloc_update_kind, glob_match, skips_feasibility,
    tasks_updated,
};
