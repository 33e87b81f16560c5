//! What changed in resource fit from one Nomad release to the next, each
//! change a flag read from its catalogue row (src/version/switch.rs names
//! the file and line at the tag before and the first tag).

use crate::feasibility::DeviceRules;
use crate::version::{Release, Switch, Switches};

/// Where a node's CPU shares and reservable cores come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CpuSource {
    /// `NodeResources.Cpu` (`nomad/structs/structs.go:2945-2946` at 1.3.0).
    Legacy,
    /// The topology's usable compute: enabled cores less withheld compute
    /// (`nomad/structs/structs.go:3185` at 1.7.0,
    /// `client/lib/numalib/topology.go` `UsableCompute`).
    UsableCompute,
    /// The topology's total compute, disabled cores included
    /// (`nomad/structs/structs.go:3215` at 1.8.2).
    TotalCompute,
}

/// The fit rules of one release, each flag its catalogue row's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FitRules {
    /// An allocation stops counting once its client reports it terminal,
    /// not when the server wants it stopped: `AllocsFit`,
    /// `NetworkIndex.AddAllocs` and `DeviceAccounter.AddAllocs` test
    /// `ClientTerminalStatus` from 1.4.0 (`nomad/structs/funcs.go:176`),
    /// `TerminalStatus` before (`funcs.go:176` at 1.3.0).
    pub client_terminal_only: bool,
    /// A node without `NodeResources` falls back to `Resources` and
    /// `Reserved`, an allocation without `AllocatedResources` to
    /// `Resources` or `TaskResources` (`Node.ComparableResources`,
    /// `Allocation.ComparableResources`, `nomad/structs/structs.go:2177`
    /// and `:10105` at 1.3.0); removed in 1.7.0.
    pub legacy_fallback: bool,
    pub cpu_source: CpuSource,
    /// Poststart tasks count with the main tasks
    /// (`nomad/structs/structs.go:3875` at 1.9.2); before, they were not
    /// counted at all.
    pub poststart_counted: bool,
    /// Lifecycle phases (`AllocatedResources.Comparable`,
    /// `nomad/structs/structs.go:3850` at 1.9.4): prestart sidecars and
    /// poststart tasks run with the main tasks, the largest of the
    /// prestart, main and poststop phases counts, and reserved cores count
    /// outside any phase.
    pub lifecycle_phases: bool,
    /// A node whose reserved port ranges overlap (globally and on an
    /// address) collides with itself: `NetworkIndex.SetNode` before 1.3.2
    /// (`nomad/structs/network.go:209-226` at 1.3.0); from 1.3.2 the ranges
    /// are merged and only a range that does not parse fails the node
    /// ("network: invalid node", `scheduler/rank.go:220` at 1.3.2).
    pub node_ports_merged: bool,
    /// A node without networks in `NodeResources` offers those of its
    /// pre-0.9 `Resources`, and without `ReservedHostPorts` keeps back the
    /// ports of its pre-0.9 `Reserved` networks (`NetworkIndex.SetNode`,
    /// `nomad/structs/network.go:183-187` and `:216-229` at 1.3.0); removed
    /// in 1.11.0.
    pub legacy_node_networks: bool,
    /// A dynamic port is not one the same offer already took (`portsInOffer`
    /// in `NetworkIndex.AssignPorts`, `nomad/structs/network.go:506` at
    /// 1.3.11; also 1.4.6 and 1.5.1).
    pub dynamic_ports_avoid_offer: bool,
    /// A reserved port taken on one address of a host network is tried on
    /// the next (`nomad/structs/network.go:529` at 1.8.3); before, it
    /// failed at once.
    pub reserved_port_next_address: bool,
    /// A port mapping that ignores collisions may share its port
    /// (`AllocatedPortMapping.IgnoreCollision`, `nomad/structs/network.go:438`
    /// at 1.9.0).
    pub ignore_collision: bool,
    /// `client.node_max_allocs` limits the allocations of a node
    /// ("max allocation exceeded", `nomad/structs/funcs.go:145` at 1.10.2).
    pub node_max_allocs: bool,
    /// A task's secrets directory counts with its memory and its ceiling
    /// (`scheduler/rank.go:373-381` at 1.8.3).
    pub secrets_counted: bool,
    /// Under oversubscription, `memory_max = -1` (no limit) is kept and a
    /// task without a ceiling gets none rather than its secrets' size
    /// (`scheduler/feasible/rank.go:384-397` at 2.0.4).
    pub memory_no_limit: bool,
    /// A node matching none of the affinities still gets its
    /// "node-affinity" score of 0, which lowers its mean
    /// (`scheduler/rank.go:975` at 1.10.2; before, `scheduler/rank.go:744`
    /// at 1.3.0 skipped it).
    pub zero_affinity_scored: bool,
    /// A node where preempting for a port or bandwidth found nothing, or
    /// whose offer still failed after the evictions, counts as exhausted
    /// in that network dimension (`scheduler/rank.go:325` and `:343` at
    /// 1.5.15, 1.6.8 and 1.7.5); before, Nomad skipped it unrecorded
    /// (`scheduler/rank.go:313-317` at 1.3.0).
    pub network_preemption_exhausts: bool,
    /// The same for a device request (`scheduler/rank.go:447` and `:464`
    /// at 1.7.7; before, `scheduler/rank.go:424-427` at 1.3.0).
    pub device_preemption_exhausts: bool,
    /// An in-place update keeps its allocation's reserved cores
    /// (`genericAllocUpdateFn`, scheduler/util.go:950 at 1.10.1, #25705);
    /// before, it took the cores of its new offer.
    pub in_place_keeps_cores: bool,
    /// How device requests match and take instances (catalogue rows).
    pub devices: DeviceRules,
}

impl FitRules {
    pub fn of(release: Release) -> FitRules {
        let rules = Switches::of(release);
        let cpu_source = if rules.has(Switch::TotalCompute) {
            CpuSource::TotalCompute
        } else if rules.has(Switch::Numa) {
            CpuSource::UsableCompute
        } else {
            CpuSource::Legacy
        };
        FitRules {
            client_terminal_only: rules.has(Switch::ClientTerminalFit),
            legacy_fallback: !rules.has(Switch::Numa),
            cpu_source,
            poststart_counted: rules.has(Switch::PoststartCounted),
            lifecycle_phases: rules.has(Switch::LifecyclePhases),
            node_ports_merged: rules.has(Switch::UnknownTargetEmpty),
            legacy_node_networks: !rules.has(Switch::LegacyNodeNetworksRemoved),
            dynamic_ports_avoid_offer: rules.has(Switch::DynamicPortsAvoidOffer),
            reserved_port_next_address: rules.has(Switch::ReservedPortNextAddress),
            ignore_collision: rules.has(Switch::IgnoreCollision),
            node_max_allocs: rules.has(Switch::NodeMaxAllocs),
            secrets_counted: rules.has(Switch::SecretsSize),
            memory_no_limit: rules.has(Switch::MemoryNoLimit),
            zero_affinity_scored: rules.has(Switch::ZeroAffinityScored),
            network_preemption_exhausts: rules.has(Switch::NetworkPreemptionExhausts),
            device_preemption_exhausts: rules.has(Switch::DevicePreemptionExhausts),
            in_place_keeps_cores: rules.has(Switch::InPlaceKeepsCores),
            devices: DeviceRules::of(release),
        }
    }

    /// Whether an allocation with these statuses still holds its resources.
    pub fn counts(&self, client_status: &str, desired_status: &str) -> bool {
        let client_terminal = matches!(client_status, "complete" | "failed" | "lost");
        let server_terminal = matches!(desired_status, "stop" | "evict");
        !(client_terminal || (!self.client_terminal_only && server_terminal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::v;

    #[test]
    fn each_rule_starts_at_its_first_tag() {
        let at = |ma, mi, p| FitRules::of(v(ma, mi, p));
        assert!(!at(1, 3, 16).client_terminal_only && at(1, 4, 0).client_terminal_only);
        assert!(at(1, 6, 10).legacy_fallback && !at(1, 7, 0).legacy_fallback);
        assert_eq!(at(1, 6, 10).cpu_source, CpuSource::Legacy);
        assert_eq!(at(1, 8, 1).cpu_source, CpuSource::UsableCompute);
        assert_eq!(at(1, 7, 7).cpu_source, CpuSource::UsableCompute);
        assert_eq!(at(1, 8, 2).cpu_source, CpuSource::TotalCompute);
        assert!(!at(1, 9, 1).poststart_counted && at(1, 9, 2).poststart_counted);
        assert!(!at(1, 9, 3).lifecycle_phases && at(1, 9, 4).lifecycle_phases);
        assert!(!at(1, 3, 1).node_ports_merged && at(1, 3, 2).node_ports_merged);
        assert!(at(1, 10, 5).legacy_node_networks && !at(1, 11, 0).legacy_node_networks);
        assert!(!at(1, 3, 10).dynamic_ports_avoid_offer && at(1, 3, 11).dynamic_ports_avoid_offer);
        assert!(!at(1, 4, 5).dynamic_ports_avoid_offer && at(1, 4, 6).dynamic_ports_avoid_offer);
        assert!(!at(1, 5, 0).dynamic_ports_avoid_offer && at(1, 5, 1).dynamic_ports_avoid_offer);
        assert!(!at(1, 8, 2).reserved_port_next_address && at(1, 8, 3).reserved_port_next_address);
        assert!(!at(1, 7, 7).reserved_port_next_address);
        assert!(!at(1, 8, 4).ignore_collision && at(1, 9, 0).ignore_collision);
        assert!(!at(1, 10, 1).node_max_allocs && at(1, 10, 2).node_max_allocs);
        assert!(!at(1, 9, 7).node_max_allocs && at(2, 0, 5).node_max_allocs);
        assert!(!at(1, 8, 2).secrets_counted && at(1, 8, 3).secrets_counted);
        assert!(!at(1, 7, 7).secrets_counted);
        assert!(!at(2, 0, 3).memory_no_limit && at(2, 0, 4).memory_no_limit);
        assert!(!at(1, 11, 3).memory_no_limit);
        assert!(!at(1, 10, 1).zero_affinity_scored && at(1, 10, 2).zero_affinity_scored);
        assert!(!at(1, 10, 0).in_place_keeps_cores && at(1, 10, 1).in_place_keeps_cores);
        assert!(!at(1, 9, 7).in_place_keeps_cores && at(2, 0, 5).in_place_keeps_cores);
        assert!(!at(1, 9, 7).zero_affinity_scored);
        let net = |ma, mi, p| at(ma, mi, p).network_preemption_exhausts;
        assert!(!net(1, 5, 14) && net(1, 5, 15) && !net(1, 6, 0) && net(1, 6, 8));
        assert!(!net(1, 7, 4) && net(1, 7, 5) && net(2, 0, 5));
        let dev = |ma, mi, p| at(ma, mi, p).device_preemption_exhausts;
        assert!(!dev(1, 7, 6) && dev(1, 7, 7) && !dev(1, 6, 9) && dev(1, 8, 0));
    }

    #[test]
    fn a_stopping_allocation_counts_from_1_4_0_until_its_client_stops_it() {
        let old = FitRules::of(v(1, 3, 0));
        let new = FitRules::of(v(1, 4, 0));
        assert!(!old.counts("running", "stop"));
        assert!(new.counts("running", "stop"));
        assert!(!new.counts("complete", "run") && !old.counts("lost", "run"));
        assert!(old.counts("pending", "run") && new.counts("running", "run"));
    }
}
