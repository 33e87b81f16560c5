//! The Nomad behaviour one replay follows.
//!
//! Nomad's scheduler changed between releases (which bucket an allocation
//! falls into, when it is rescheduled, what is stopped). Every such rule is a
//! method of [`Rules`], read where the reconciler applies it, so that a
//! version profile changes what a method answers, never the code calling it.

use crate::model::{Allocation, DisconnectFields, TaskGroup};
use crate::version::{Release, Switch};

/// The rules of one replay: chosen once, before any job is reconciled, and
/// lent to everything whose behaviour depends on the Nomad version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    release: Release,
    disconnected_clients: bool,
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
        Rules {
            release,
            disconnected_clients: supports_disconnected_clients,
        }
    }

    /// The release replayed.
    pub fn release(&self) -> Release {
        self.release
    }

    /// Whether `filterByTainted` looks at disconnect expiry and the
    /// `unknown` client status at all: Nomad asks whether every server is
    /// recent enough (`ServersMeetMinimumVersion` in `generic_sched.go`),
    /// which a snapshot or `--no-disconnected-clients` answers here.
    pub fn supports_disconnected_clients(&self) -> bool {
        self.disconnected_clients
    }

    /// D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0): an unknown allocation of a
    /// disconnect group is untainted, so it counts toward the group's count
    /// and goes through updates, instead of being ignored; the surplus
    /// count of `computeStop` leaves it out, and a reschedule of it does not
    /// stop it (v1.6.3 scheduler/reconcile_util.go:328, reconcile.go:997,
    /// :824).
    pub fn counts_unknown_allocs(&self) -> bool {
        Switch::D1.in_release(self.release)
    }

    /// D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0): a disconnecting allocation is
    /// replaced only as its reschedule policy allows, now or by a follow-up
    /// evaluation, instead of always at once (v1.6.3
    /// scheduler/reconcile_util.go:480 `updateByReschedulable`, reconcile.go:473).
    pub fn reschedules_disconnecting_by_policy(&self) -> bool {
        Switch::D1.in_release(self.release)
    }

    /// Whether a terminal allocation of a disconnect group (not reconnecting)
    /// is ignored rather than untainted. D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0;
    /// v1.6.3 scheduler/reconcile_util.go:302) ignores every terminal one; D-2
    /// (1.5.17, 1.6.10, 1.7.7, 1.8.0; v1.7.7 reconcile_util.go:298) only
    /// those the server stopped or evicted.
    pub fn ignores_terminal(&self, alloc: &Allocation) -> bool {
        if self.ignores_only_server_terminal() {
            alloc.server_terminal_status()
        } else {
            Switch::D1.in_release(self.release)
        }
    }

    /// D-2 (1.5.17, 1.6.10, 1.7.7, 1.8.0): of the terminal allocations of a
    /// disconnect group, only server-terminal ones are ignored; a complete or
    /// failed one still desired to run is untainted again (v1.7.7
    /// scheduler/reconcile_util.go:298).
    pub fn ignores_only_server_terminal(&self) -> bool {
        Switch::D2.in_release(self.release)
    }

    /// D-3 (1.7.2, 1.8.0): `filterByTainted` returns a seventh set,
    /// `expiring`, for unknown allocations past their disconnect expiry,
    /// which were lost before; the group then treats them as lost, or keeps
    /// them untainted if it prevents rescheduling on lost (v1.7.2
    /// scheduler/reconcile_util.go:316, :338; reconcile.go:487).
    pub fn has_expiring_bucket(&self) -> bool {
        Switch::D3.in_release(self.release)
    }

    /// Which disconnect settings of a group the release reads. D-4 (1.8.0;
    /// v1.8.0 nomad/structs/structs.go:7519 `GetDisconnectLostTimeout`,
    /// :7534, :7504, :11521 `Expired`): `max_client_disconnect` and
    /// `stop_after_client_disconnect` if set, else the `disconnect` block's
    /// `lost_after` and `stop_on_client_after`; before, the legacy fields
    /// alone.
    /// F-1 (1.10.0; v1.10.0 nomad/structs/structs.go:7621, :7631): the
    /// block alone.
    pub fn disconnect_fields(&self) -> DisconnectFields {
        if Switch::F1.in_release(self.release) {
            DisconnectFields::BlockOnly
        } else if Switch::D4.in_release(self.release) {
            DisconnectFields::LegacyFirst
        } else {
            DisconnectFields::Legacy
        }
    }

    /// Whether `filterByTainted` keeps allocations of `group` on a down or
    /// disconnected node as unknown (`PreventRescheduleOnDisconnect`): the
    /// legacy `prevent_reschedule_on_lost` (D-3), or from D-4 (1.8.0; v1.8.0
    /// nomad/structs/structs.go:11315) also `disconnect { replace = false }`.
    pub fn prevents_replacement(&self, group: Option<&TaskGroup>) -> bool {
        if !Switch::D4.in_release(self.release) {
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
        if !Switch::D4b.in_release(self.release) {
            return None;
        }
        let block = group?.canonical_disconnect(true)?;
        block.replace
    }

    /// D-3 (1.7.2, 1.8.0): whether `group` keeps allocations of a down or
    /// disconnected node as unknown instead of replacing them
    /// (`prevent_reschedule_on_lost`, v1.7.2 nomad/structs/structs.go:6654,
    /// :11040); F-1 (1.10.0) ignores the field again. `filterByTainted`
    /// asks about the allocation's own job version, `computeGroup` about the
    /// current one.
    pub fn prevents_reschedule_on_lost(&self, group: Option<&TaskGroup>) -> bool {
        Switch::D3.in_release(self.release)
            && !Switch::F1.in_release(self.release)
            && group.is_some_and(|tg| tg.prevent_reschedule_on_lost)
    }

    /// Whether `computeGroup` keeps the expiring allocations of `group`
    /// untainted rather than lost: the legacy `prevent_reschedule_on_lost`
    /// (D-3, still in 1.8 and 1.9), from F-1 (1.10.0; v1.10.0
    /// scheduler/reconcile.go:498) `disconnect { replace = false }`.
    pub fn keeps_expiring(&self, group: &TaskGroup) -> bool {
        if Switch::F1.in_release(self.release) {
            !group.replaces(self.disconnect_fields())
        } else {
            self.prevents_reschedule_on_lost(Some(group))
        }
    }

    /// E-1 (1.8.1, 1.9.0): an allocation stopped for rescheduling whose
    /// replacement could not be placed (reschedule tracker `LastReschedule`
    /// "no placement") is rescheduled again, and a lost allocation is
    /// eligible like a failed one; untainted allocations are no longer
    /// reschedule candidates, ending D-1's force-reschedule quirk (v1.8.1
    /// scheduler/reconcile_util.go:417, :465; nomad/structs/structs.go:11194).
    pub fn retries_failed_placements(&self) -> bool {
        Switch::E1.in_release(self.release)
    }

    /// F-2 (1.10.1, 1.11.0): a terminal canary with a migrate transition is
    /// migrated instead of staying untainted, which held its deployment back
    /// (v1.10.1 scheduler/reconcile_util.go:310).
    pub fn migrates_terminal_canaries(&self) -> bool {
        Switch::F2.in_release(self.release)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
