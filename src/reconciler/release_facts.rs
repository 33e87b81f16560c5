//! The replayed release's choices that explanations name, read once from
//! [`Rules`] by the reconciler so that no report asks the rules again.

use super::rules::Rules;
use super::taint_rule::TaintRule;
use crate::model::DisconnectFields;
use crate::version::Release;
use crate::version::Switch;

/// What the replayed release decides for every allocation alike.
#[derive(Clone, Debug)]
pub struct ReleaseFacts {
    pub release: Release,
    /// The group settings the disconnect rules read.
    pub fields: DisconnectFields,
    /// Whether expiry and unknown are checked at all (not before 1.3).
    pub disconnects_checked: bool,
    /// The checks of `filterByTainted` in the order the release tries
    /// them, each with its sentence as the release states it.
    pub taint_order: Vec<(TaintRule, String)>,
    /// How a reconnecting allocation is weighed against a replacement.
    pub reconnect_weighing: ReconnectWeighing,
    /// Lost allocations and stopped ones whose replacement failed are
    /// rescheduled by policy too (E-1).
    pub retries_failed_placements: bool,
    /// An evicted batch allocation is ignored before its policy is read.
    pub ignores_evicted_batch: bool,
    /// A missing reschedule policy makes Nomad panic (D-1 until E-3).
    pub panics_without_policy: bool,
}

/// How the release settles a reconnecting allocation with no recorded
/// decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReconnectWeighing {
    /// Down its `NextAllocation` chain, past what the servers stopped.
    ReplacementChain,
    /// By its `NextAllocation` alone.
    NextAllocation,
    /// Against allocations of its name placed after it (C-2).
    PlacedAfter,
    /// Only when the group is over its count.
    OverCount,
}

impl ReleaseFacts {
    pub fn of(rules: &Rules) -> ReleaseFacts {
        let reconnect_weighing = if rules.has(Switch::E2) {
            ReconnectWeighing::ReplacementChain
        } else if rules.has(Switch::D1) {
            ReconnectWeighing::NextAllocation
        } else if rules.has(Switch::C2) {
            ReconnectWeighing::PlacedAfter
        } else {
            ReconnectWeighing::OverCount
        };
        ReleaseFacts {
            release: rules.release(),
            fields: rules.disconnect_fields(),
            disconnects_checked: rules.supports_disconnected_clients() || rules.has(Switch::G1),
            taint_order: rules
                .taint_order()
                .iter()
                .map(|r| (*r, r.describe(rules)))
                .collect(),
            reconnect_weighing,
            retries_failed_placements: rules.has(Switch::E1),
            ignores_evicted_batch: rules.has(Switch::B1),
            panics_without_policy: rules.panics_without_reschedule_policy(),
        }
    }
}
