//! The Nomad behaviour one replay follows.
//!
//! Nomad's scheduler changed between releases (which bucket an allocation
//! falls into, when it is rescheduled, what is stopped). Each change is a row
//! of the catalogue ([`crate::version::CATALOGUE`]); the reconciler asks
//! [`Rules::has`] whether the replayed release has it. The methods here are
//! the rules that combine changes or read a group's settings.

use super::taint_rule::TaintRule;
use crate::model::{Allocation, DisconnectFields, Equality, Job, ReconcileStrategy, TaskGroup};
use crate::version::{Release, Switch, Switches};

/// The rules of one replay: chosen once, before any job is reconciled, and
/// lent to everything whose behaviour depends on the Nomad version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    release: Release,
    switches: Switches,
    disconnected_clients: bool,
    taint_order: TaintOrder,
}

/// The release's classification rules in the order it tries them, made
/// once per replay: every allocation is classified through this list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TaintOrder {
    rules: [TaintRule; TaintOrder::MAX],
    len: usize,
}

impl TaintOrder {
    const MAX: usize = 40;

    fn of(order: &[TaintRule]) -> TaintOrder {
        let mut rules = [TaintRule::TaintedNodeKept; TaintOrder::MAX];
        rules[..order.len()].copy_from_slice(order);
        TaintOrder {
            rules,
            len: order.len(),
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::new(Release::Seed, true)
    }
}

impl Rules {
    /// The rules of `release`, on servers that do or do not all support
    /// disconnected clients.
    pub fn new(release: Release, supports_disconnected_clients: bool) -> Rules {
        let mut rules = Rules {
            release,
            switches: Switches::of(release),
            disconnected_clients: supports_disconnected_clients,
            taint_order: TaintOrder::of(&[]),
        };
        rules.taint_order = TaintOrder::of(&TaintRule::order(rules.switches));
        rules
    }

    /// The classification rules of the release, in the order it tries
    /// them ([`TaintRule::order`]).
    pub fn taint_order(&self) -> &[TaintRule] {
        &self.taint_order.rules[..self.taint_order.len]
    }

    /// The release replayed.
    pub fn release(&self) -> Release {
        self.release
    }

    /// Whether the release has the catalogued change `switch` (its row says
    /// what the change does and where Nomad does it).
    pub fn has(&self, switch: Switch) -> bool {
        self.switches.has(switch)
    }

    /// Whether `filterByTainted` looks at disconnect expiry and the
    /// `unknown` client status at all: Nomad asks whether every server is
    /// recent enough (`ServersMeetMinimumVersion` in `generic_sched.go`),
    /// which a snapshot or `--no-disconnected-clients` answers here.
    pub fn supports_disconnected_clients(&self) -> bool {
        self.disconnected_clients
    }

    /// Whether reconnect updates go into the plan. The seed only logged
    /// them (the contract lists them in the plan); 1.3.0 dropped even the
    /// log (A-5, PR #12555); C-1 (1.3.8, 1.4.3, 1.5.0; v1.3.8
    /// scheduler/generic_sched.go:420) appends each, with a new running
    /// client-status state, to the plan.
    pub fn plans_reconnect_updates(&self) -> bool {
        !self.has(Switch::A1) || self.has(Switch::C1)
    }

    /// #16421 (1.5.2, 1.6.0; v1.5.2 scheduler/util.go:174-205): how
    /// `tasksUpdated` compares the job's untyped parts. Before, with
    /// `reflect.DeepEqual`, a nil list or map differs from an empty one and
    /// affinities differ in order; from then on typed `Equal` methods take
    /// them as equal and affinities as a set.
    pub fn update_equality(&self) -> Equality {
        if self.has(Switch::TypedEqual) {
            Equality::Typed
        } else {
            Equality::Deep
        }
    }

    /// 1.5.4 alone names the log switch `LogConfig.Enabled` (#16962); from
    /// #17089 (1.5.5, 1.6.0) it is `LogConfig.Disabled` (v1.5.5
    /// scheduler/util.go:308).
    pub fn log_switch_reads_enabled(&self) -> bool {
        self.has(Switch::LogsDisabled) && !self.has(Switch::AnnotateLogsDisabled)
    }

    /// Whether a terminal allocation of a disconnect group (not reconnecting)
    /// is ignored rather than untainted. D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0;
    /// v1.6.3 scheduler/reconcile_util.go:302) ignores every terminal one; D-2
    /// (1.5.17, 1.6.10, 1.7.7, 1.8.0; v1.7.7 reconcile_util.go:298) only
    /// those the server stopped or evicted.
    pub fn ignores_terminal(&self, alloc: &Allocation) -> bool {
        if self.has(Switch::D2) {
            alloc.server_terminal_status()
        } else {
            self.has(Switch::D1)
        }
    }

    /// C-1 in the system scheduler (1.3.8, 1.4.3, 1.5.0; v1.3.8
    /// scheduler/scheduler_system.go:260): reconnecting allocations join the
    /// updates, so an unchanged job updates them in place; from #12555 to
    /// then they were set apart and dropped.
    pub fn system_updates_reconnects(&self) -> bool {
        self.has(Switch::SystemDisconnect) && self.has(Switch::C1)
    }

    /// Which disconnect settings of a group the release reads. D-4a (1.8.0;
    /// v1.8.0 nomad/structs/structs.go:7519 `GetDisconnectLostTimeout`,
    /// :7534, :7504, :11521 `Expired`): `max_client_disconnect` and
    /// `stop_after_client_disconnect` if set, else the `disconnect` block's
    /// `lost_after` and `stop_on_client_after`; before, the legacy fields
    /// alone.
    /// F-1 (1.10.0; v1.10.0 nomad/structs/structs.go:7621, :7631): the
    /// block alone. G-1 (1.11.2, 2.0.0; v1.11.2 nomad/structs/alloc.go:753,
    /// :779): an unset `lost_after` is zero when expiry is computed, and an
    /// allocation is unknown since the start of its latest unknown run.
    pub fn disconnect_fields(&self) -> DisconnectFields {
        if self.has(Switch::G1) {
            DisconnectFields::BlockStrict
        } else if self.has(Switch::F1) {
            DisconnectFields::BlockOnly
        } else if self.has(Switch::D4a) {
            DisconnectFields::LegacyFirst
        } else {
            DisconnectFields::Legacy
        }
    }

    /// Whether `filterByTainted` keeps allocations of `group` on a down or
    /// disconnected node as unknown (`PreventRescheduleOnDisconnect`): the
    /// legacy `prevent_reschedule_on_lost` (D-3), or from D-4a (1.8.0; v1.8.0
    /// nomad/structs/structs.go:11315) also `disconnect { replace = false }`.
    pub fn prevents_replacement(&self, group: Option<&TaskGroup>) -> bool {
        if !self.has(Switch::D4a) {
            return self.prevents_reschedule_on_lost(group);
        }
        group.is_some_and(|tg| !tg.replaces(self.disconnect_fields()))
    }

    /// D-4b (1.8.0 to 1.11.1): a disconnecting allocation of a group with a
    /// `disconnect` block is replaced at once if `replace` is true (the
    /// server default) and never if it is false, whatever its reschedule
    /// policy (v1.8.0 nomad/structs/structs.go:11223
    /// `RescheduleTimeOnDisconnect`); `None` when the policy decides.
    pub fn replaces_disconnecting_at_once(&self, group: Option<&TaskGroup>) -> Option<bool> {
        if !self.has(Switch::D4b) {
            return None;
        }
        let block = group?.canonical_disconnect(true)?;
        block.replace
    }

    /// How a reconnecting allocation is weighed against a replacement of the
    /// same job: by the current job's group `disconnect.reconcile` from D-4a
    /// (1.8.0; v1.8.0 scheduler/reconnecting_picker/reconnecting_picker.go:25,
    /// scheduler/reconcile.go:1212), a missing block or strategy (and a name
    /// Nomad's validation rejects) being best_score; before, always by the
    /// best score (C-2's `pickReconnectingAlloc`).
    pub fn reconcile_strategy(&self, group: &TaskGroup) -> ReconcileStrategy {
        if !self.has(Switch::D4a) {
            return ReconcileStrategy::BestScore;
        }
        group
            .disconnect
            .as_ref()
            .and_then(|d| ReconcileStrategy::parse(&d.reconcile))
            .unwrap_or_default()
    }

    /// D-3 (1.7.2, 1.8.0): whether `group` keeps allocations of a down or
    /// disconnected node as unknown instead of replacing them
    /// (`prevent_reschedule_on_lost`, v1.7.2 nomad/structs/structs.go:6654,
    /// :11040); F-1 (1.10.0) ignores the field again. `filterByTainted`
    /// asks about the allocation's own job version, `computeGroup` about the
    /// current one.
    pub fn prevents_reschedule_on_lost(&self, group: Option<&TaskGroup>) -> bool {
        self.has(Switch::D3)
            && !self.has(Switch::F1)
            && group.is_some_and(|tg| tg.prevent_reschedule_on_lost)
    }

    /// Whether `computeGroup` keeps the expiring allocations of `group`
    /// untainted rather than lost: the legacy `prevent_reschedule_on_lost`
    /// (D-3, still in 1.8 and 1.9), from F-1 (1.10.0; v1.10.0
    /// scheduler/reconcile.go:498) `disconnect { replace = false }`; from
    /// G-1 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/reconcile_cluster.go:439)
    /// never: expiring allocations are always lost.
    pub fn keeps_expiring(&self, group: &TaskGroup) -> bool {
        if self.has(Switch::G1) {
            false
        } else if self.has(Switch::F1) {
            !group.replaces(self.disconnect_fields())
        } else {
            self.prevents_reschedule_on_lost(Some(group))
        }
    }

    /// Whether the scheduler panics on an allocation whose job version's
    /// group has no reschedule policy when its reschedule time is asked: D-1
    /// (1.4.14, 1.5.10, 1.6.3, 1.7.0; v1.6.3 nomad/structs/structs.go:10741)
    /// reads the policy's attempts before the nil check, E-3 (1.9.7, 1.10.0;
    /// v1.9.7 nomad/structs/structs.go:11467) checks first. plan-inspect
    /// answers "not eligible" either way and warns where it would panic.
    pub fn panics_without_reschedule_policy(&self) -> bool {
        self.has(Switch::D1) && !self.has(Switch::E3)
    }

    /// G-0 (1.11.0; #26961, v1.11.0 scheduler/reconciler/filters.go:386):
    /// whether `alloc` is a batch allocation with a reschedule transition
    /// (`alloc stop`, a drain), eligible for rescheduling whatever its
    /// client status.
    pub fn reschedules_stopped_batch_alloc(&self, alloc: &Allocation) -> bool {
        self.has(Switch::G0)
            && alloc.desired_transition.should_reschedule()
            && alloc.job.as_ref().is_some_and(|j| j.is_batch())
    }

    /// G-1 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/filters.go:411):
    /// a disconnecting allocation whose own group sets `replace = false` is
    /// never rescheduled (only a force-reschedule moves it).
    pub fn holds_disconnecting(&self, group: Option<&TaskGroup>) -> bool {
        self.has(Switch::G1) && group.is_some_and(|tg| !tg.replaces(self.disconnect_fields()))
    }

    /// Whether a multiregion job with no current deployment holds its
    /// placements back, as its deployment would be created pending. B-2 #14659
    /// (1.3.6, 1.4.0; v1.4.0 scheduler/reconcile.go:286) limits this to jobs
    /// that use deployments (services); B-2 #15325 (1.3.10, 1.4.5, 1.5.0; v1.4.5
    /// scheduler/reconcile.go:293) drops the rule.
    pub fn pauses_multiregion_without_deployment(&self, job: &Job) -> bool {
        !self.has(Switch::B2b)
            && job.is_multiregion()
            && (!self.has(Switch::B2a) || job.uses_deployments())
            && !(job.is_periodic() || job.is_parameterized())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1.5.4 alone reads `LogConfig.Enabled`: #16962 brought the switch,
    /// #17089 renamed it in 1.5.5 and 1.6.0.
    #[test]
    fn only_1_5_4_reads_the_log_switch_as_enabled() {
        use crate::version::v;
        let reads = |r| Rules::new(r, true).log_switch_reads_enabled();
        assert!(!reads(v(1, 5, 3)) && reads(v(1, 5, 4)) && !reads(v(1, 5, 5)));
        assert!(!reads(v(1, 6, 0)) && !reads(Release::Seed) && !reads(Release::Head));
    }

    /// Every release's classification list fits the fixed list [`Rules`]
    /// keeps, and is the order [`TaintRule::order`] gives.
    #[test]
    fn every_release_keeps_its_whole_taint_order() {
        let tags = crate::version::SERIES
            .iter()
            .flat_map(|&(major, minor, last)| {
                (0..=last).filter_map(move |patch| Release::tag(major, minor, patch))
            });
        for release in [Release::Seed, Release::Head].into_iter().chain(tags) {
            let rules = Rules::new(release, true);
            assert_eq!(
                rules.taint_order(),
                TaintRule::order(Switches::of(release)),
                "{release:?}"
            );
            assert!(!rules.taint_order().is_empty(), "{release:?}");
        }
    }

    /// The default is the seed on servers supporting disconnected clients,
    /// as a snapshot that says nothing else is replayed.
    #[test]
    fn default_is_the_seed_with_disconnected_clients() {
        let rules = Rules::default();
        assert_eq!(rules.release(), Release::Seed);
        assert!(rules.supports_disconnected_clients());
        assert!(!Rules::new(Release::Seed, false).supports_disconnected_clients());
    }
}
