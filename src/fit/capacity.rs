//! What a node offers to allocations.

use super::comparable::Comparable;
use super::rules::{CpuSource, FitRules};
use crate::model::Resources;
use crate::model::resources::{Core, NodeResources, NodeSupply, Topology};

/// A node's totals and what it keeps back, as `AllocsFit` and the fit
/// scores read them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capacity {
    pub total: Comparable,
    pub reserved: Comparable,
}

impl Capacity {
    /// The node's capacity under the release's rules. Nomad dereferences a
    /// node without any resource block; such a node offers nothing here.
    pub fn of(node: &NodeSupply, rules: &FitRules) -> Capacity {
        let total = match (&node.node_resources, &node.resources) {
            (Some(r), _) => node_total(r, rules),
            (None, Some(legacy)) if rules.legacy_fallback => of_legacy(legacy),
            _ => Comparable::default(),
        };
        let reserved = match (&node.reserved_resources, &node.reserved) {
            (Some(r), _) => Comparable {
                cpu_shares: r.cpu.cpu_shares,
                cores: r.cpu.reserved_cpu_cores.iter().copied().collect(),
                memory_mb: r.memory.memory_mb,
                disk_mb: r.disk.disk_mb,
                ..Comparable::default()
            },
            (None, Some(legacy)) if rules.legacy_fallback => of_legacy(legacy),
            _ => Comparable::default(),
        };
        Capacity { total, reserved }
    }

    /// Whether `AllocsFit` can read the node's totals at all: it has a
    /// `NodeResources` block (at any size, even zero), or before 1.7.0 the
    /// legacy `Resources` block. Without one Nomad's scheduler dereferences
    /// nil (see docs/nomad-behaviour.md), so such a node is not checked.
    pub fn described(node: &NodeSupply, rules: &FitRules) -> bool {
        node.node_resources.is_some() || (rules.legacy_fallback && node.resources.is_some())
    }

    /// What allocations may use: the totals less the reservation.
    pub fn available(&self) -> Comparable {
        let mut a = self.total.clone();
        a.subtract(&self.reserved);
        a
    }

    /// The CPU and memory of [`Capacity::available`], without copying the
    /// core sets: what the score reads for every node it ranks.
    pub fn available_cpu_memory(&self) -> (i64, i64) {
        (
            self.total
                .cpu_shares
                .saturating_sub(self.reserved.cpu_shares),
            self.total.memory_mb.saturating_sub(self.reserved.memory_mb),
        )
    }
}

/// The pre-0.9 `Resources` block as totals (or as a reservation).
fn of_legacy(legacy: &Resources) -> Comparable {
    Comparable {
        cpu_shares: legacy.cpu,
        memory_mb: legacy.memory_mb,
        disk_mb: legacy.disk_mb,
        ..Comparable::default()
    }
}

/// `NodeResources.Comparable`. From 1.7.0 CPU comes from the topology; a
/// node stored without one (an agent older than 1.7 that the server has
/// not converted) is read from its legacy block, as `Compatibility` would
/// convert it (`nomad/structs/cpucompat_linux.go:20-52` at 2.0.5: the
/// topology's compute is then the legacy shares).
fn node_total(r: &NodeResources, rules: &FitRules) -> Comparable {
    let legacy_cpu = || (r.cpu.cpu_shares, r.cpu.reservable_cpu_cores.clone());
    let (cpu_shares, cores) = match (rules.cpu_source, &r.processors.topology) {
        (CpuSource::Legacy, _) => legacy_cpu(),
        (_, Some(t)) if !t.cores.is_empty() => {
            let usable = t
                .cores
                .iter()
                .filter(|c| !c.disable)
                .map(|c| c.id)
                .collect();
            let compute = if rules.cpu_source == CpuSource::TotalCompute {
                total_compute(t)
            } else {
                usable_compute(t)
            };
            (compute, usable)
        }
        _ => legacy_cpu(),
    };
    Comparable {
        cpu_shares,
        cores: cores.into_iter().collect(),
        memory_mb: r.memory.memory_mb,
        memory_max_mb: 0,
        disk_mb: r.disk.disk_mb,
    }
}

/// A core's speed: base, else max, else the guess (`Core.MHz`).
pub(super) fn mhz(c: &Core) -> i64 {
    [c.base_speed, c.max_speed]
        .into_iter()
        .find(|s| *s > 0)
        .unwrap_or(c.guess_speed)
}

/// `Topology.TotalCompute`: every core, or the configured override.
fn total_compute(t: &Topology) -> i64 {
    if t.override_total_compute > 0 {
        return t.override_total_compute;
    }
    t.cores.iter().map(mhz).fold(0, i64::saturating_add)
}

/// `Topology.UsableCompute`: enabled cores less withheld compute, or the
/// configured override.
fn usable_compute(t: &Topology) -> i64 {
    if t.override_total_compute > 0 {
        return t.override_total_compute;
    }
    t.cores
        .iter()
        .filter(|c| !c.disable)
        .map(mhz)
        .fold(0, i64::saturating_add)
        .saturating_sub(t.override_withold_compute)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::from_slice;
    use crate::version::v;

    fn node(json: &str) -> NodeSupply {
        from_slice(json.as_bytes()).unwrap()
    }

    const TOPOLOGY_NODE: &str = r#"{
        "NodeResources": {
            "Cpu": {"CpuShares": 4000, "TotalCpuCores": 4, "ReservableCpuCores": [0, 1, 2, 3]},
            "Processors": {"Topology": {"Cores": [
                {"ID": 0, "BaseSpeed": 1000}, {"ID": 1, "BaseSpeed": 1000},
                {"ID": 2, "MaxSpeed": 1000}, {"ID": 3, "GuessSpeed": 1000, "Disable": true}],
                "OverrideWitholdCompute": 500}},
            "Memory": {"MemoryMB": 8192}, "Disk": {"DiskMB": 100}},
        "ReservedResources": {"Cpu": {"CpuShares": 100, "ReservedCpuCores": [0]},
            "Memory": {"MemoryMB": 256}, "Disk": {"DiskMB": 10}}}"#;

    #[test]
    fn cpu_comes_from_the_legacy_block_then_usable_then_total_compute() {
        let n = node(TOPOLOGY_NODE);
        let cpu = |ma, mi, p| {
            Capacity::of(&n, &FitRules::of(v(ma, mi, p)))
                .total
                .cpu_shares
        };
        assert_eq!(cpu(1, 6, 10), 4000);
        assert_eq!(cpu(1, 7, 0), 2500);
        assert_eq!(cpu(1, 8, 1), 2500);
        assert_eq!(cpu(1, 8, 2), 4000);
        let c = Capacity::of(&n, &FitRules::of(v(1, 8, 2)));
        assert_eq!(c.total.cores, [0, 1, 2].into_iter().collect());
        let avail = c.available();
        assert_eq!(avail.cpu_shares, 3900);
        assert_eq!(avail.cores, [1, 2].into_iter().collect());
        assert_eq!((avail.memory_mb, avail.disk_mb), (7936, 90));
    }

    #[test]
    fn legacy_node_blocks_count_before_1_7_0_only() {
        let n = node(
            r#"{"Resources": {"CPU": 2000, "MemoryMB": 1024, "DiskMB": 50},
                "Reserved": {"CPU": 100, "MemoryMB": 24}}"#,
        );
        let old = Capacity::of(&n, &FitRules::of(v(1, 6, 0))).available();
        assert_eq!(
            (old.cpu_shares, old.memory_mb, old.disk_mb),
            (1900, 1000, 50)
        );
        assert_eq!(
            Capacity::of(&n, &FitRules::of(v(1, 7, 0))),
            Capacity::default()
        );
    }

    #[test]
    fn a_node_without_topology_keeps_its_legacy_cpu_from_1_7_0() {
        let n = node(
            r#"{"NodeResources": {"Cpu": {"CpuShares": 3000, "ReservableCpuCores": [0, 1]}}}"#,
        );
        let c = Capacity::of(&n, &FitRules::of(v(2, 0, 5))).total;
        assert_eq!((c.cpu_shares, c.cores.len()), (3000, 2));
    }
}
