//! The Nomad behaviour one replay follows.
//!
//! Nomad's scheduler changed between releases (which bucket an allocation
//! falls into, when it is rescheduled, what is stopped). Every such rule is a
//! method of [`Rules`], read where the reconciler applies it, so that a
//! version profile changes what a method answers, never the code calling it.

use super::TaintRule;
use crate::model::{Allocation, DisconnectFields, Equality, Job, ReconcileStrategy, TaskGroup};
use crate::version::{Release, Switch};

/// The rules of one replay: chosen once, before any job is reconciled, and
/// lent to everything whose behaviour depends on the Nomad version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    release: Release,
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
            disconnected_clients: supports_disconnected_clients,
            taint_order: TaintOrder::of(&[]),
        };
        rules.taint_order = TaintOrder::of(&TaintRule::order(&rules));
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

    /// Whether `filterByTainted` looks at disconnect expiry and the
    /// `unknown` client status at all: Nomad asks whether every server is
    /// recent enough (`ServersMeetMinimumVersion` in `generic_sched.go`),
    /// which a snapshot or `--no-disconnected-clients` answers here.
    pub fn supports_disconnected_clients(&self) -> bool {
        self.disconnected_clients
    }

    /// A-1 (1.3.0; v1.3.0 scheduler/reconcile_util.go:243, reconcile.go:927):
    /// an allocation that reconnects as `failed` is a failed reconnect,
    /// stopped as failed and replaced, instead of a terminal allocation
    /// left to its reschedule policy; and the reconnect check runs only for
    /// unknown, running and failed allocations.
    pub fn replaces_failed_reconnects(&self) -> bool {
        Switch::A1.in_release(self.release)
    }

    /// A-2 (1.3.0; v1.3.0 nomad/structs/structs.go:9955): disconnect
    /// handling applies to an allocation only if its own job version's
    /// group sets `max_client_disconnect`; elsewhere a disconnected node's
    /// allocations are lost.
    pub fn disconnect_support_per_group(&self) -> bool {
        Switch::A2.in_release(self.release)
    }

    /// A-3 (1.3.0; v1.3.0 scheduler/reconcile_util.go:257): the
    /// disconnected and ready-but-tainted node checks run before the
    /// terminal, migrate, expiry and unknown checks; stopping a job also
    /// stops its ignored unknown allocations (reconcile.go:346).
    pub fn checks_tainted_node_first(&self) -> bool {
        Switch::A3.in_release(self.release)
    }

    /// A-3 (1.3.0; v1.3.0 scheduler/reconcile_util.go:365): a disconnecting
    /// allocation that is already unknown (a canary cut off by the
    /// disconnect) is not rescheduled again.
    pub fn skips_unknown_disconnecting(&self) -> bool {
        Switch::A3.in_release(self.release)
    }

    /// A-3 (1.3.0; v1.3.0 scheduler/reconcile.go:353): stopping a job or
    /// removing a group also stops its ignored unknown allocations.
    pub fn stops_unknown_with_job(&self) -> bool {
        Switch::A3.in_release(self.release)
    }

    /// B-1 (1.3.2, 1.4.0; v1.3.2 scheduler/reconcile_util.go:427): a batch
    /// allocation evicted (by preemption) is ignored, so it is replaced,
    /// even when its tasks ran successfully.
    pub fn ignores_evicted_batch_allocs(&self) -> bool {
        Switch::B1.in_release(self.release)
    }

    /// C-1 (1.3.8, 1.4.3, 1.5.0; v1.3.8 scheduler/reconcile_util.go:241,
    /// nomad/structs/structs.go:10366): an allocation needs to reconnect
    /// while its latest client-status transition is to unknown, and is
    /// expired by the evaluation time; before, any `Reconnected` task event
    /// marked it reconnected for good, expired as of that event.
    pub fn reconnect_from_alloc_states(&self) -> bool {
        Switch::C1.in_release(self.release)
    }

    /// Whether reconnect updates go into the plan. The seed only logged
    /// them (the contract lists them in the plan); 1.3.0 dropped even the
    /// log (A-5, PR #12555); C-1 (1.3.8, 1.4.3, 1.5.0; v1.3.8
    /// scheduler/generic_sched.go:420) appends each, with a new running
    /// client-status state, to the plan.
    pub fn plans_reconnect_updates(&self) -> bool {
        !Switch::A1.in_release(self.release) || Switch::C1.in_release(self.release)
    }

    /// C-1 (v1.3.8 scheduler/generic_sched.go:420): a reconnect update is an
    /// allocation of the plan (`AppendAlloc`), so alone it is not a no-op;
    /// the seed's are only logged.
    pub fn reconnect_updates_change_the_plan(&self) -> bool {
        Switch::C1.in_release(self.release)
    }

    /// C-1 (1.3.8, 1.4.3, 1.5.0; v1.3.8 scheduler/reconcile.go:1208): a
    /// reconnect update appends a client-status state with the
    /// allocation's status, which ends its reconnect for later evaluations.
    pub fn reconnect_updates_append_state(&self) -> bool {
        Switch::C1.in_release(self.release)
    }

    /// C-2 (1.3.14, 1.4.9, 1.5.4, 1.6.0; v1.3.14 scheduler/reconcile.go:1077,
    /// :1173): reconnecting allocations are settled right after
    /// classification, each against every same-named allocation of the
    /// group placed after it, whatever its bucket; the survivors join the
    /// untainted. Before, `computeStop` weighed them against untainted
    /// allocations only while the group was over its count, and counted
    /// every reconnect update of the job so far as ignored.
    pub fn reconciles_reconnects_first(&self) -> bool {
        Switch::C2.in_release(self.release)
    }

    /// A-6 (1.3.0; v1.3.0 scheduler/util.go:554): a changed task
    /// `csi_plugin` block is a destructive update.
    pub fn csi_plugin_change_is_destructive(&self) -> bool {
        Switch::A6.in_release(self.release)
    }

    /// B-1v (1.3.2, 1.4.0; v1.3.2 scheduler/util.go:529): changed group
    /// `volume` requests or task `volume_mount`s are a destructive update.
    pub fn volume_change_is_destructive(&self) -> bool {
        Switch::B1v.in_release(self.release)
    }

    /// #15755 (1.5.0; v1.5.0 scheduler/util.go:286): a changed task
    /// `identity` is a destructive update.
    pub fn identity_change_is_destructive(&self) -> bool {
        Switch::TaskIdentity.in_release(self.release)
    }

    /// #16362 (1.5.1, 1.6.0; v1.5.1 scheduler/util.go:801): the in-place
    /// check keeps an allocation whose node any of the job's datacenters
    /// matches as a wildcard (`IsInAnyDC`); before, only exact names.
    pub fn matches_datacenter_globs(&self) -> bool {
        Switch::DatacenterGlob.in_release(self.release)
    }

    /// #16421 (1.5.2, 1.6.0; v1.5.2 scheduler/util.go:174-205): how
    /// `tasksUpdated` compares the job's untyped parts. Before, with
    /// `reflect.DeepEqual`, a nil list or map differs from an empty one and
    /// affinities differ in order; from then on typed `Equal` methods take
    /// them as equal and affinities as a set.
    pub fn update_equality(&self) -> Equality {
        if Switch::TypedEqual.in_release(self.release) {
            Equality::Typed
        } else {
            Equality::Deep
        }
    }

    /// #16421 (1.5.2, 1.6.0; v1.5.2 scheduler/util.go:185-205): each
    /// difference `tasksUpdated` finds carries a label (`comparison.label`),
    /// which plan-inspect reports with its own reason.
    pub fn labels_update_differences(&self) -> bool {
        Switch::TypedEqual.in_release(self.release)
    }

    /// #16962 (1.5.4, 1.6.0; v1.5.4 scheduler/util.go:308): switching a
    /// task's log collection on or off is a destructive update.
    pub fn log_switch_is_destructive(&self) -> bool {
        Switch::LogsDisabled.in_release(self.release)
    }

    /// 1.5.4 alone names the log switch `LogConfig.Enabled`; 1.5.5 and
    /// 1.6.0 on compare `LogConfig.Disabled` (v1.5.5 scheduler/util.go:308).
    pub fn log_switch_reads_enabled(&self) -> bool {
        self.release == crate::version::v(1, 5, 4)
    }

    /// #17443 (1.6.0; v1.6.0 scheduler/util.go:890): an allocation whose
    /// node is not in the new job's `node_pool` (unless `all`) is replaced.
    pub fn checks_node_pool_in_place(&self) -> bool {
        Switch::NodePool.in_release(self.release)
    }

    /// #18054 (1.6.2, 1.7.0; v1.6.2 scheduler/util.go:582): turning
    /// `restart.render_templates` on or off, on the group or a task, is a
    /// destructive update.
    pub fn render_templates_change_is_destructive(&self) -> bool {
        Switch::RenderTemplates.in_release(self.release)
    }

    /// #18123 (1.7.0; v1.7.0 scheduler/util.go:326): a change of a task's
    /// extra workload `identity` blocks is a destructive update.
    pub fn identities_change_is_destructive(&self) -> bool {
        Switch::Identities.in_release(self.release)
    }

    /// #18409, #18597, #19230 (1.7.0; v1.7.0 scheduler/util.go:384, :411,
    /// :292): a changed Consul `cluster` of the group (when both versions
    /// set a Consul block) or of a Connect service, and a changed Consul
    /// namespace or cluster of the task's own Consul block, are destructive.
    pub fn consul_cluster_change_is_destructive(&self) -> bool {
        Switch::ConsulCluster.in_release(self.release)
    }

    /// #18681 (1.7.0; v1.7.0 scheduler/util.go:363): a changed task `numa`
    /// block is a destructive update.
    pub fn numa_change_is_destructive(&self) -> bool {
        Switch::Numa.in_release(self.release)
    }

    /// #19665 (1.7.3, 1.8.0; v1.7.3 scheduler/util.go:388): a changed
    /// Consul admin `partition` (when both versions set a Consul block) is
    /// a destructive update.
    pub fn consul_partition_change_is_destructive(&self) -> bool {
        Switch::ConsulPartition.in_release(self.release)
    }

    /// #20074 (1.8.0; v1.8.0 nomad/structs/volumes.go:272, compared from
    /// scheduler/util.go:302): a volume mount's SELinux label is part of
    /// the mount, so changing it is a destructive update; earlier releases
    /// have no such field.
    pub fn selinux_label_change_is_destructive(&self) -> bool {
        Switch::SelinuxLabel.in_release(self.release)
    }

    /// #23696 (1.8.3, 1.9.0; v1.8.3 scheduler/util.go:371): a changed
    /// `resources.secrets` (the secrets tmpfs size) is destructive.
    pub fn secrets_size_change_is_destructive(&self) -> bool {
        Switch::SecretsSize.in_release(self.release)
    }

    /// #23764 (1.8.3, 1.9.0; v1.8.3 scheduler/util.go:547): changed `cni`
    /// arguments of a network are a destructive update.
    pub fn cni_change_is_destructive(&self) -> bool {
        Switch::NetworkCni.in_release(self.release)
    }

    /// Whether changed affinities or spreads replace an allocation: from
    /// before the seed to 1.9.x they do (v1.9.7 scheduler/util.go:237,
    /// :242); #25109 (1.10.0; v1.10.0 scheduler/util.go:217) drops both
    /// checks, so such a change is updated in place.
    pub fn placement_prefs_change_is_destructive(&self) -> bool {
        !Switch::PlacementPrefsInPlace.in_release(self.release)
    }

    /// #26076 (1.11.0; v1.11.0 scheduler/util.go:233): a change of a
    /// task's `secret` blocks is a destructive update.
    pub fn task_secrets_change_is_destructive(&self) -> bool {
        Switch::TaskSecrets.in_release(self.release)
    }

    /// H-2 (2.0.3; v2.0.3 scheduler/util.go:845-859): an in-place update
    /// whose `max_run_duration` reads as changed skips the placement-stack
    /// check.
    pub fn updates_run_duration_in_place_unchecked(&self) -> bool {
        Switch::H2.in_release(self.release)
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

    /// D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0; v1.4.14 scheduler/reconcile.go:1150,
    /// :1175): a reconnecting allocation is weighed only against its direct
    /// successor (`NextAllocation`), not every later allocation of its name,
    /// and a failed successor is not stopped when the original is kept.
    pub fn replaces_reconnecting_by_next_allocation(&self) -> bool {
        Switch::D1.in_release(self.release)
    }

    /// E-2 (1.9.1, 1.10.0; v1.9.1 scheduler/reconcile.go:1158, the chain at
    /// :1197): a reconnecting allocation is weighed against every allocation
    /// of the group down its chain of `NextAllocation`s (a failed replacement
    /// replaced again is still compared), and when it is kept every one of
    /// them not stopped yet is stopped, failed ones too; before, only the
    /// direct successor, and not a failed one (D-1).
    pub fn weighs_replacement_chain(&self) -> bool {
        Switch::E2.in_release(self.release)
    }

    /// D-1b (1.4.14, 1.5.10, 1.6.3, 1.7.0; v1.6.3
    /// scheduler/reconcile_util.go:617, :725, generic_sched.go:641): a
    /// group's name index counts the names held twice; releasing such a
    /// name keeps it in use; and the scheduler gives a planned allocation
    /// whose name is held twice the next free name instead.
    pub fn renames_duplicate_names(&self) -> bool {
        Switch::D1.in_release(self.release)
    }

    /// D-1 (v1.4.14 scheduler/reconcile.go:437, :445): the untainted
    /// allocations are filtered for rescheduling before the reconnecting
    /// ones are settled, so that those resuming are not reschedule
    /// candidates; from C-2 to then, after.
    pub fn reschedules_before_reconnecting(&self) -> bool {
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

    /// D-3 (1.7.2, 1.8.0; v1.7.2 scheduler/reconcile_util.go:338): the
    /// reconnect checks of an allocation on a tainted ready node run with
    /// those of an untainted node, after the terminal, migrate, expiry and
    /// unknown checks; from A-3 to then they ran first, with the
    /// disconnected-node checks (v1.3.0 reconcile_util.go:273).
    pub fn checks_ready_nodes_with_untainted(&self) -> bool {
        Switch::D3.in_release(self.release)
    }

    /// #12555 (1.3.0; v1.3.0 scheduler/util.go:103-205): the system
    /// scheduler's diff marks a running allocation on a disconnected node
    /// unknown, loses an expired unknown one, keeps an unknown one that may
    /// reconnect and sets a reconnecting one apart, when the allocation's
    /// group supports disconnected clients; the seed loses or ignores them
    /// by node status alone. The same change ignores a successfully
    /// finished allocation on a tainted node for sysbatch jobs (v1.3.0
    /// util.go:184) where the seed asked for batch, which no system job is.
    pub fn system_handles_disconnects(&self) -> bool {
        Switch::SystemDisconnect.in_release(self.release)
    }

    /// #11170 (1.5.0; v1.5.0 scheduler/util.go:70 `IsInDC`): the system
    /// scheduler targets a ready node whose datacenter one of the job's
    /// datacenters matches as a wildcard (`dc*`); before, by name only.
    /// Its in-place check agrees from #16362 (1.5.1; v1.5.1 util.go:557),
    /// [`Rules::matches_datacenter_globs`].
    pub fn system_targets_datacenter_globs(&self) -> bool {
        Switch::SystemDatacenterGlob.in_release(self.release)
    }

    /// #17443 (1.6.0; v1.6.0 scheduler/util.go:49 `readyNodesInDCsAndPool`,
    /// :64): the system scheduler reads only the nodes of the job's
    /// `node_pool` (every node for `all`), and its in-place check replaces
    /// an allocation outside it (:643, [`Rules::checks_node_pool_in_place`]).
    pub fn system_targets_node_pool(&self) -> bool {
        Switch::NodePool.in_release(self.release)
    }

    /// C-1 in the system scheduler (1.3.8, 1.4.3, 1.5.0; v1.3.8
    /// scheduler/scheduler_system.go:260): reconnecting allocations join the
    /// updates, so an unchanged job updates them in place; from #12555 to
    /// then they were set apart and dropped.
    pub fn system_updates_reconnects(&self) -> bool {
        Switch::SystemDisconnect.in_release(self.release) && Switch::C1.in_release(self.release)
    }

    /// Which disconnect settings of a group the release reads. D-4 (1.8.0;
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
        if Switch::G1.in_release(self.release) {
            DisconnectFields::BlockStrict
        } else if Switch::F1.in_release(self.release) {
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

    /// How a reconnecting allocation is weighed against a replacement of the
    /// same job: by the current job's group `disconnect.reconcile` from D-4
    /// (1.8.0; v1.8.0 scheduler/reconnecting_picker/reconnecting_picker.go:25,
    /// scheduler/reconcile.go:1212), a missing block or strategy (and a name
    /// Nomad's validation rejects) being best_score; before, always by the
    /// best score (C-2's `pickReconnectingAlloc`).
    pub fn reconcile_strategy(&self, group: &TaskGroup) -> ReconcileStrategy {
        if !Switch::D4.in_release(self.release) {
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
        Switch::D3.in_release(self.release)
            && !Switch::F1.in_release(self.release)
            && group.is_some_and(|tg| tg.prevent_reschedule_on_lost)
    }

    /// Whether `computeGroup` keeps the expiring allocations of `group`
    /// untainted rather than lost: the legacy `prevent_reschedule_on_lost`
    /// (D-3, still in 1.8 and 1.9), from F-1 (1.10.0; v1.10.0
    /// scheduler/reconcile.go:498) `disconnect { replace = false }`; from
    /// G-1 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/reconcile_cluster.go:439)
    /// never: expiring allocations are always lost.
    pub fn keeps_expiring(&self, group: &TaskGroup) -> bool {
        if Switch::G1.in_release(self.release) {
            false
        } else if Switch::F1.in_release(self.release) {
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

    /// Whether the scheduler panics on an allocation whose job version's
    /// group has no reschedule policy when its reschedule time is asked: D-1
    /// (1.4.14, 1.5.10, 1.6.3, 1.7.0; v1.6.3 nomad/structs/structs.go:10741)
    /// reads the policy's attempts before the nil check, E-3 (1.9.7, 1.10.0;
    /// v1.9.7 nomad/structs/structs.go:11467) checks first. plan-inspect
    /// answers "not eligible" either way and warns where it would panic.
    pub fn panics_without_reschedule_policy(&self) -> bool {
        Switch::D1.in_release(self.release) && !Switch::E3.in_release(self.release)
    }

    /// G-0 (1.11.0; v1.11.0 scheduler/reconciler/filters.go:42,
    /// reconcile_cluster.go:384): a group drops the allocations the server
    /// stopped or evicted before anything else, except batch ones without a
    /// reschedule transition, which still count against the batch's count.
    pub fn drops_server_terminal_first(&self) -> bool {
        Switch::G0.in_release(self.release)
    }

    /// G-0 (1.11.0; v1.11.0 scheduler/reconciler/reconcile_cluster.go:397): a
    /// group scaled to `count = 0` is stopped whole like a removed group;
    /// before, the full computation ran and could still reschedule.
    pub fn removes_scaled_to_zero_groups(&self) -> bool {
        Switch::G0.in_release(self.release)
    }

    /// G-0 (1.11.0; v1.11.0 scheduler/reconciler/reconcile_cluster.go:560): a
    /// group never places more than its count: the placements (canaries,
    /// replacements, then migrations) are cut to the first `count`, and the
    /// desired `place` is set to `count`.
    pub fn caps_placements_at_count(&self) -> bool {
        Switch::G0.in_release(self.release)
    }

    /// G-0 (1.11.0; v1.11.0 scheduler/reconciler/reconcile_cluster.go:564):
    /// whether a group's deployment is complete counts the placements the
    /// group emits (canaries, replacements let through, migrations, after
    /// the cap) instead of those `computePlacements` asked for, so a paused
    /// or failed deployment that withholds placements can be complete.
    pub fn settles_by_emitted_placements(&self) -> bool {
        Switch::G0.in_release(self.release)
    }

    /// G-0 (1.11.0; v1.11.2 scheduler/reconciler/reconcile_cluster.go:546,
    /// :1046): a group that runs this job version is "updating spec" only
    /// with destructive or in-place updates of its own; before, the
    /// in-place updates of the groups reconciled before it counted too
    /// (v1.10.5 scheduler/reconcile.go:974), so it joined or created a
    /// deployment after them.
    pub fn updates_spec_by_own_group_only(&self) -> bool {
        Switch::G0.in_release(self.release)
    }

    /// G-0 (1.11.0; v1.11.0 scheduler/reconciler/reconcile_cluster.go:1427):
    /// the first batch of delayed reschedules is triggered by
    /// `alloc-reschedule`, later batches still by `alloc-failure`.
    pub fn triggers_reschedules_as_reschedule(&self) -> bool {
        Switch::G0.in_release(self.release)
    }

    /// G-0 (1.11.0; v1.11.0 scheduler/reconciler/reconcile_cluster.go:1656):
    /// Nomad's `RescheduleNow` counter is written only for a group with a
    /// disconnecting allocation (then counting every reschedule-now one);
    /// before 1.11 the counter does not exist and plan-inspect counts the set.
    pub fn counts_reschedule_now_with_disconnects_only(&self) -> bool {
        Switch::G0.in_release(self.release)
    }

    /// G-0 (1.11.0; #26961, v1.11.0 scheduler/reconciler/filters.go:386,
    /// reconcile_cluster.go:425, :1009, :906; nomad/structs/structs.go:11480):
    /// a batch allocation with a reschedule transition (`alloc stop`, a
    /// drain) is a reschedule candidate whatever its client status, the
    /// migrating allocations are filtered for rescheduling too, a batch
    /// migration with a reschedule or `MigrateDisablePlacement` transition
    /// gets no migration placement, and a migrating allocation rescheduled
    /// now is not stopped again as rescheduled.
    pub fn reschedules_stopped_batch_allocs(&self) -> bool {
        Switch::G0.in_release(self.release)
    }

    /// Whether `alloc` is such a batch allocation: eligible for rescheduling
    /// whatever its client status.
    pub fn reschedules_stopped_batch_alloc(&self, alloc: &Allocation) -> bool {
        self.reschedules_stopped_batch_allocs()
            && alloc.desired_transition.should_reschedule()
            && alloc.job.as_ref().is_some_and(|j| j.is_batch())
    }

    /// G-0b (1.11.0 only; v1.11.0 scheduler/reconciler/reconcile_cluster.go:318):
    /// stopping a job keeps the stops of one group only, each group's list
    /// overwriting the last; the desired changes still count every group.
    /// Nomad keeps the group its map visits last; plan-inspect the last by
    /// name. Fixed in 1.11.1 (:325).
    pub fn stops_one_group_of_a_stopped_job(&self) -> bool {
        Switch::G0b.in_release(self.release)
    }

    /// G-1 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/filters.go:111,
    /// scheduler/generic_sched.go:354): `filterByTainted` no longer asks
    /// whether the servers support disconnected clients nor whether the
    /// allocation's group sets a lost timeout: every check applies to every
    /// allocation, in the order [`super::TaintRule::order`] gives.
    pub fn classifies_without_disconnect_support(&self) -> bool {
        Switch::G1.in_release(self.release)
    }

    /// G-1 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/reconcile_cluster.go:1618,
    /// filters.go:464): every disconnecting allocation gets a timeout eval,
    /// at now when its group has no lost timeout; before, only groups with a
    /// lost timeout, and none at all if one allocation had no future timeout.
    pub fn times_out_every_disconnecting(&self) -> bool {
        Switch::G1.in_release(self.release)
    }

    /// G-1 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/filters.go:411):
    /// a disconnecting allocation whose own group sets `replace = false` is
    /// never rescheduled (only a force-reschedule moves it).
    pub fn holds_disconnecting(&self, group: Option<&TaskGroup>) -> bool {
        Switch::G1.in_release(self.release)
            && group.is_some_and(|tg| !tg.replaces(self.disconnect_fields()))
    }

    /// G-1 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/filters.go:433): a
    /// disconnecting allocation is rescheduled later only if it carries no
    /// follow-up eval yet, like a failed one; from D-1 to then, always.
    pub fn reschedules_disconnecting_later_once(&self) -> bool {
        Switch::G1.in_release(self.release)
    }

    /// H-3 (2.0.4; #27971, v2.0.4 scheduler/reconciler/reconcile_cluster.go:1145):
    /// the scale-down stop of `computeStop` passes over server-terminal
    /// allocations only, so a client-failed one still desired to run can be
    /// stopped as surplus; before, every terminal one was passed over.
    pub fn stops_client_terminal_surplus(&self) -> bool {
        Switch::H3.in_release(self.release)
    }

    /// H-3 (2.0.4; #28018, v2.0.4 scheduler/reconciler/filters.go:162, :474):
    /// a server-terminal allocation with `MigrateDisablePlacement` (a
    /// drained batch allocation) that is not reconnecting is untainted and
    /// counted, and `shouldFilter` keeps such a batch allocation untainted,
    /// so that no replacement is placed for it.
    pub fn counts_drained_batch_allocs(&self) -> bool {
        Switch::H3.in_release(self.release)
    }

    /// H-4 (after 2.0.5; #28445, main scheduler/reconciler/filters.go:537):
    /// a force-reschedule transition reschedules an allocation now only if
    /// its client status is terminal.
    pub fn force_reschedules_client_terminal_only(&self) -> bool {
        Switch::H4.in_release(self.release)
    }

    /// H-4 (after 2.0.5; #28445, main nomad/structs/alloc.go:864):
    /// `NeedsToReconnect` skips client-status entries with an empty value, so
    /// such an entry after `unknown` no longer ends the wait for a reconnect.
    pub fn skips_empty_alloc_states(&self) -> bool {
        Switch::H4.in_release(self.release)
    }

    /// Whether a multiregion job with no current deployment holds its
    /// placements back, as its deployment would be created pending. B-2a
    /// (1.3.6, 1.4.0; v1.4.0 scheduler/reconcile.go:286) limits this to jobs
    /// that use deployments (services); B-2b (1.3.10, 1.4.5, 1.5.0; v1.4.5
    /// scheduler/reconcile.go:293) drops the rule.
    pub fn pauses_multiregion_without_deployment(&self, job: &Job) -> bool {
        !Switch::B2b.in_release(self.release)
            && job.is_multiregion()
            && (!Switch::B2a.in_release(self.release) || job.uses_deployments())
            && !(job.is_periodic() || job.is_parameterized())
    }

    /// B-2b (1.3.10, 1.4.5, 1.5.0; v1.4.5 scheduler/reconcile.go:263, :297,
    /// :525): an `initializing` deployment is paused, goes into the plan in
    /// full and is moved to `pending`; a created multiregion deployment
    /// starts `running` rather than `pending` (the start status is the
    /// multiregion deployment watcher's, outside the scheduler).
    pub fn initializes_multiregion_deployments(&self) -> bool {
        Switch::B2b.in_release(self.release)
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
            assert_eq!(rules.taint_order(), TaintRule::order(&rules), "{release:?}");
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
