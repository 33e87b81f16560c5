//! The reconciler behaviours that changed after the seed, each with the
//! first patch of every series that has it (docs/nomad-versions.md lists
//! them with their examples).

use crate::model::{Release, v};

/// One catalogued change of the generic reconciler (or of what it reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Switch {
    /// Failed reconnects are stopped and replaced; unknown allocations of a
    /// stopped job are stopped.
    A1,
    /// Disconnect support is per group (`max_client_disconnect`).
    A2,
    /// The disconnected/draining node check runs first.
    A3,
    /// A task's `csi_plugin` change is destructive.
    A6,
    /// A batch allocation evicted by preemption is not counted.
    B1,
    /// With no deployment, a multiregion job is paused only if it uses
    /// deployments.
    B2a,
    /// A multiregion deployment starts `initializing`, which is paused, sent
    /// in full and moved to `pending`; no deployment means no pause.
    B2b,
    /// A group `volume` or task `volume_mount` change is destructive.
    B1v,
    /// A reconnect is detected from `AllocStates`, and goes into the plan.
    C1,
    /// A reconnect is reconciled first, against its replacements.
    C2,
    /// Disconnecting allocations follow the reschedule policy; unknown ones count.
    D1,
    /// Only server-terminal allocations of a disconnect group are ignored.
    D2,
    /// `prevent_reschedule_on_lost` and the `expiring` bucket.
    D3,
    /// The `disconnect` block and its reconcile strategies.
    D4,
    /// With a `disconnect` block, `replace = true` replaces at once.
    D4b,
    /// The reschedule tracker records failed placements, and such stopped
    /// allocations can be rescheduled.
    E1,
    /// A reconnect is compared with the whole chain of replacements.
    E2,
    /// A nil reschedule policy is "not eligible" instead of a panic.
    E3,
    /// `max_client_disconnect`, `stop_after_client_disconnect` and
    /// `prevent_reschedule_on_lost` are ignored.
    F1,
    /// A terminal canary with a migrate transition is migrated.
    F2,
    /// A blocked evaluation for failed placements is created even when
    /// follow-up evaluations are.
    F4,
    /// The 1.11 package: server-terminal pre-filter, count 0 as a removed
    /// group, a cap on placements, new counters and triggers.
    G0,
    /// Stopping a multi-group job stops one group's allocations only.
    G0b,
    /// The classification rewrite: replace follows the reschedule policy.
    G1,
    /// A changed `max_run_duration` is an in-place update without a
    /// feasibility check.
    H2,
    /// A client-terminal allocation can be a stop candidate; a drained batch
    /// allocation is counted.
    H3,
    /// Force-reschedule applies to client-terminal allocations only; empty
    /// `AllocStates` values are skipped.
    H4,
    /// A task `identity` change is destructive (#15755).
    TaskIdentity,
    /// An allocation stays in place on a node a wildcard datacenter of the
    /// job matches (#16362).
    DatacenterGlob,
    /// Typed `Equal` methods replace `reflect.DeepEqual` in `tasksUpdated`,
    /// and each difference is labelled (#16421).
    TypedEqual,
    /// A change of a task's log collection switch is destructive (#16962).
    LogsDisabled,
    /// An allocation on a node outside the job's `node_pool` is replaced (#17443).
    NodePool,
    /// A change of `restart.render_templates` is destructive (#18054).
    RenderTemplates,
    /// A change of a task's extra `identity` blocks is destructive (#18123).
    Identities,
    /// A change of a Consul `cluster` (group, service or task), or of the
    /// task's Consul namespace, is destructive (#18409, #18597, #19230).
    ConsulCluster,
    /// A change of a task's `numa` block is destructive (#18681).
    Numa,
    /// A change of a Consul admin `partition` is destructive (#19665).
    ConsulPartition,
    /// A change of a volume mount's SELinux label is destructive (#20074).
    SelinuxLabel,
    /// A change of `resources.secrets` (the secrets tmpfs size) is
    /// destructive (#23696).
    SecretsSize,
    /// A change of a network's `cni` arguments is destructive (#23764).
    NetworkCni,
    /// Affinity and spread changes are updated in place (#25109).
    PlacementPrefsInPlace,
    /// A change of a task's `secret` blocks is destructive (#26076).
    TaskSecrets,
    /// The system scheduler marks allocations on disconnected nodes unknown,
    /// loses expired ones and keeps unknown ones for their reconnect (#12555).
    SystemDisconnect,
    /// The system scheduler targets the nodes a wildcard datacenter of the
    /// job matches (#11170).
    SystemDatacenterGlob,
}

impl Switch {
    /// Every switch, in catalogue order.
    pub const ALL: [Switch; 44] = [
        Switch::A1,
        Switch::A2,
        Switch::A3,
        Switch::A6,
        Switch::B1,
        Switch::B1v,
        Switch::B2a,
        Switch::B2b,
        Switch::C1,
        Switch::C2,
        Switch::D1,
        Switch::D2,
        Switch::D3,
        Switch::D4,
        Switch::D4b,
        Switch::E1,
        Switch::E2,
        Switch::E3,
        Switch::F1,
        Switch::F2,
        Switch::F4,
        Switch::G0,
        Switch::G0b,
        Switch::G1,
        Switch::H2,
        Switch::H3,
        Switch::H4,
        Switch::TaskIdentity,
        Switch::DatacenterGlob,
        Switch::TypedEqual,
        Switch::LogsDisabled,
        Switch::NodePool,
        Switch::RenderTemplates,
        Switch::Identities,
        Switch::ConsulCluster,
        Switch::Numa,
        Switch::ConsulPartition,
        Switch::SelinuxLabel,
        Switch::SecretsSize,
        Switch::NetworkCni,
        Switch::PlacementPrefsInPlace,
        Switch::TaskSecrets,
        Switch::SystemDisconnect,
        Switch::SystemDatacenterGlob,
    ];

    /// The catalogue's name, `A-1` ... `H-4`; a `tasksUpdated` change of
    /// its section 5 without one goes by its PR.
    pub fn id(self) -> &'static str {
        match self {
            Switch::A1 => "A-1",
            Switch::A2 => "A-2",
            Switch::A3 => "A-3",
            Switch::A6 => "A-6",
            Switch::B1 => "B-1",
            Switch::B1v => "B-1v",
            Switch::B2a => "B-2a",
            Switch::B2b => "B-2b",
            Switch::C1 => "C-1",
            Switch::C2 => "C-2",
            Switch::D1 => "D-1",
            Switch::D2 => "D-2",
            Switch::D3 => "D-3",
            Switch::D4 => "D-4",
            Switch::D4b => "D-4b",
            Switch::E1 => "E-1",
            Switch::E2 => "E-2",
            Switch::E3 => "E-3",
            Switch::F1 => "F-1",
            Switch::F2 => "F-2",
            Switch::F4 => "F-4",
            Switch::G0 => "G-0",
            Switch::G0b => "G-0b",
            Switch::G1 => "G-1",
            Switch::H2 => "H-2",
            Switch::H3 => "H-3",
            Switch::H4 => "H-4",
            Switch::TaskIdentity => "#15755",
            Switch::DatacenterGlob => "#16362",
            Switch::TypedEqual => "#16421",
            Switch::LogsDisabled => "#16962",
            Switch::NodePool => "#17443",
            Switch::RenderTemplates => "#18054",
            Switch::Identities => "#18123",
            Switch::ConsulCluster => "#18409",
            Switch::Numa => "#18681",
            Switch::ConsulPartition => "#19665",
            Switch::SelinuxLabel => "#20074",
            Switch::SecretsSize => "#23696",
            Switch::NetworkCni => "#23764",
            Switch::PlacementPrefsInPlace => "#25109",
            Switch::TaskSecrets => "#26076",
            Switch::SystemDisconnect => "#12555",
            Switch::SystemDatacenterGlob => "#11170",
        }
    }

    /// The first patch of each series that has the change.
    pub fn firsts(self) -> &'static [Release] {
        match self {
            Switch::A1 | Switch::A2 | Switch::A3 | Switch::A6 => const { &[v(1, 3, 0)] },
            Switch::B1 | Switch::B1v => const { &[v(1, 3, 2), v(1, 4, 0)] },
            Switch::B2a => const { &[v(1, 3, 6), v(1, 4, 0)] },
            Switch::B2b => const { &[v(1, 3, 10), v(1, 4, 5), v(1, 5, 0)] },
            Switch::C1 => const { &[v(1, 3, 8), v(1, 4, 3), v(1, 5, 0)] },
            Switch::C2 => const { &[v(1, 3, 14), v(1, 4, 9), v(1, 5, 4), v(1, 6, 0)] },
            Switch::D1 => const { &[v(1, 4, 14), v(1, 5, 10), v(1, 6, 3), v(1, 7, 0)] },
            Switch::D2 => const { &[v(1, 5, 17), v(1, 6, 10), v(1, 7, 7), v(1, 8, 0)] },
            Switch::D3 => const { &[v(1, 7, 2), v(1, 8, 0)] },
            Switch::D4 | Switch::D4b => const { &[v(1, 8, 0)] },
            Switch::E1 => const { &[v(1, 8, 1), v(1, 9, 0)] },
            Switch::E2 => const { &[v(1, 9, 1), v(1, 10, 0)] },
            Switch::E3 => const { &[v(1, 9, 7), v(1, 10, 0)] },
            Switch::F1 => const { &[v(1, 10, 0)] },
            Switch::F2 => const { &[v(1, 10, 1), v(1, 11, 0)] },
            Switch::F4 => const { &[v(1, 10, 5), v(1, 11, 0)] },
            Switch::G0 | Switch::G0b => const { &[v(1, 11, 0)] },
            Switch::G1 => const { &[v(1, 11, 2), v(2, 0, 0)] },
            Switch::H2 => const { &[v(2, 0, 3)] },
            Switch::H3 => const { &[v(2, 0, 4)] },
            Switch::H4 => &[Release::Head],
            Switch::TaskIdentity => const { &[v(1, 5, 0)] },
            Switch::DatacenterGlob => const { &[v(1, 5, 1), v(1, 6, 0)] },
            Switch::TypedEqual => const { &[v(1, 5, 2), v(1, 6, 0)] },
            Switch::LogsDisabled => const { &[v(1, 5, 4), v(1, 6, 0)] },
            Switch::NodePool => const { &[v(1, 6, 0)] },
            Switch::RenderTemplates => const { &[v(1, 6, 2), v(1, 7, 0)] },
            Switch::Identities | Switch::ConsulCluster | Switch::Numa => const { &[v(1, 7, 0)] },
            Switch::ConsulPartition => const { &[v(1, 7, 3), v(1, 8, 0)] },
            Switch::SelinuxLabel => const { &[v(1, 8, 0)] },
            Switch::SecretsSize | Switch::NetworkCni => const { &[v(1, 8, 3), v(1, 9, 0)] },
            Switch::PlacementPrefsInPlace => const { &[v(1, 10, 0)] },
            Switch::TaskSecrets => const { &[v(1, 11, 0)] },
            Switch::SystemDisconnect => const { &[v(1, 3, 0)] },
            Switch::SystemDatacenterGlob => const { &[v(1, 5, 0)] },
        }
    }

    /// The change that undid this one, if any: D-4b ends with G-1 and the
    /// 1.11.0 job-stop bug with its fix in 1.11.1.
    fn undone_by(self) -> Option<&'static [Release]> {
        match self {
            Switch::D4b => Some(Switch::G1.firsts()),
            Switch::G0b => Some(const { &[v(1, 11, 1)] }),
            _ => None,
        }
    }

    /// Whether `release` behaves this way.
    pub fn in_release(self, release: Release) -> bool {
        release.has(self.firsts()) && !self.undone_by().is_some_and(|u| release.has(u))
    }

    /// Whether plan-inspect replays this change yet; until it does, every
    /// profile follows the seed's rule there and says so in a warning. F-4
    /// changes only whether Nomad creates a blocked evaluation, which
    /// depends on placements failing in the scheduler, after the
    /// reconciler; plan-inspect models neither, so it stays listed.
    pub fn implemented(self) -> bool {
        matches!(
            self,
            Switch::A1
                | Switch::A2
                | Switch::A3
                | Switch::A6
                | Switch::B1
                | Switch::B1v
                | Switch::B2a
                | Switch::B2b
                | Switch::C1
                | Switch::C2
                | Switch::TaskIdentity
                | Switch::DatacenterGlob
                | Switch::TypedEqual
                | Switch::LogsDisabled
                | Switch::NodePool
                | Switch::RenderTemplates
                | Switch::Identities
                | Switch::ConsulCluster
                | Switch::Numa
                | Switch::ConsulPartition
                | Switch::SelinuxLabel
                | Switch::SecretsSize
                | Switch::NetworkCni
                | Switch::PlacementPrefsInPlace
                | Switch::TaskSecrets
                | Switch::H2
                | Switch::D1
                | Switch::D2
                | Switch::D3
                | Switch::D4
                | Switch::D4b
                | Switch::E1
                | Switch::E2
                | Switch::E3
                | Switch::F1
                | Switch::F2
                | Switch::G0
                | Switch::G0b
                | Switch::G1
                | Switch::H3
                | Switch::H4
                | Switch::SystemDisconnect
                | Switch::SystemDatacenterGlob
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_1_4_2_and_1_4_3_profiles_differ_exactly_by_the_allocstate_reconnect() {
        let differ: Vec<Switch> = Switch::ALL
            .into_iter()
            .filter(|s| s.in_release(v(1, 4, 2)) != s.in_release(v(1, 4, 3)))
            .collect();
        assert_eq!(differ, [Switch::C1]);
    }

    #[test]
    fn the_seed_has_no_switch_and_head_has_every_one_not_undone() {
        assert!(Switch::ALL.iter().all(|s| !s.in_release(Release::Seed)));
        let head: Vec<Switch> = Switch::ALL
            .into_iter()
            .filter(|s| !s.in_release(Release::Head))
            .collect();
        assert_eq!(head, [Switch::D4b, Switch::G0b]);
    }

    #[test]
    fn undone_changes_hold_only_between_their_two_releases() {
        assert!(!Switch::D4b.in_release(v(1, 7, 7)));
        assert!(Switch::D4b.in_release(v(1, 8, 0)));
        assert!(Switch::D4b.in_release(v(1, 11, 1)));
        assert!(!Switch::D4b.in_release(v(1, 11, 2)));
        assert!(!Switch::D4b.in_release(v(2, 0, 0)));
        assert!(Switch::G0b.in_release(v(1, 11, 0)));
        assert!(!Switch::G0b.in_release(v(1, 11, 1)));
        assert!(!Switch::G0b.in_release(v(2, 0, 0)));
    }

    #[test]
    fn d1_never_reached_the_1_3_series() {
        assert!(!Switch::D1.in_release(v(1, 3, 16)));
        assert!(Switch::D1.in_release(v(1, 5, 10)));
        assert!(!Switch::D1.in_release(v(1, 5, 9)));
    }
}
