//! Resources as Nomad's JSON carries them: what a node offers and keeps back,
//! what an allocation holds, and the group's disk ask. Go writes these
//! structs without tags, so every key is the field's PascalCase name; nil
//! lists and maps come as `null` and read as empty.
//!
//! Field sets follow `nomad/structs/structs.go` at 2.0.5 (`NodeResources`
//! 3159, `NodeReservedResources` 3671, `AllocatedPortMapping` 2751,
//! `AllocatedDeviceResource` 4175, `TaskLifecycleConfig` 6163) and
//! `nomad/structs/numa.go` 104-128 with `client/lib/numalib/topology.go`
//! 56-115 for the processor topology written from 1.7.0 on. Older releases
//! write a subset of the same keys.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;

use super::{
    ClientStatus, DesiredStatus, GoValue, Id, LegacyResources, Name, NetworkResource, Resources,
    SortedMap, TaskLifecycle, list, nullable,
};

/// The resource fields of a `structs.Node`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodeSupply {
    #[serde(rename = "ID")]
    pub id: String,
    pub node_resources: Option<NodeResources>,
    pub reserved_resources: Option<NodeReservedResources>,
    /// The pre-0.9 totals, read by releases before 1.7.0 when
    /// `NodeResources` is absent.
    pub resources: Option<Resources>,
    /// The pre-0.9 reservation, read before 1.7.0 when `ReservedResources`
    /// is absent.
    pub reserved: Option<Resources>,
    /// `client.node_max_allocs` (1.10.2 on); 0 is no limit.
    pub node_max_allocs: i64,
}

/// A `structs.NodeResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodeResources {
    /// `LegacyNodeCpuResources` from 1.7.0 on, the only CPU block before.
    pub cpu: NodeCpu,
    /// The fingerprinted topology (1.7.0 on).
    pub processors: Processors,
    pub memory: MemoryAmount,
    pub disk: DiskAmount,
    /// The node's bridge and default interface, for task-level networks.
    #[serde(deserialize_with = "nullable")]
    pub networks: Vec<NetworkResource>,
    /// Host networks and their addresses, for group-level ports.
    #[serde(deserialize_with = "nullable")]
    pub node_networks: Vec<NodeNetwork>,
    #[serde(deserialize_with = "nullable")]
    pub devices: Vec<NodeDevice>,
    pub min_dynamic_port: i64,
    pub max_dynamic_port: i64,
}

/// `NodeCpuResources` (`LegacyNodeCpuResources` from 1.7.0 on).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodeCpu {
    pub cpu_shares: i64,
    pub total_cpu_cores: u16,
    #[serde(deserialize_with = "nullable")]
    pub reservable_cpu_cores: Vec<u16>,
}

/// `NodeProcessorResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Processors {
    pub topology: Option<Topology>,
}

/// `numalib.Topology`, as far as compute and usable cores go.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Topology {
    #[serde(deserialize_with = "nullable")]
    pub cores: Vec<Core>,
    /// `cpu_total_compute` from the client configuration, in MHz.
    pub override_total_compute: i64,
    /// Compute the client keeps back, in MHz.
    pub override_withold_compute: i64,
}

/// `numalib.Core`: one logical core.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Core {
    #[serde(rename = "ID")]
    pub id: u16,
    /// The client configuration keeps Nomad off this core.
    pub disable: bool,
    pub base_speed: i64,
    pub max_speed: i64,
    pub guess_speed: i64,
}

/// A memory block (`NodeMemoryResources`, `NodeReservedMemoryResources`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct MemoryAmount {
    #[serde(rename = "MemoryMB")]
    pub memory_mb: i64,
}

/// A disk block (`NodeDiskResources`, `NodeReservedDiskResources`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct DiskAmount {
    #[serde(rename = "DiskMB")]
    pub disk_mb: i64,
}

/// A `structs.NodeDeviceResource`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodeDevice {
    pub vendor: String,
    #[serde(rename = "Type")]
    pub device_type: String,
    pub name: String,
    #[serde(deserialize_with = "nullable")]
    pub instances: Vec<NodeDeviceInstance>,
    #[serde(deserialize_with = "nullable")]
    pub attributes: BTreeMap<String, GoValue>,
}

/// A `structs.NodeDevice`: one instance of a device.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodeDeviceInstance {
    #[serde(rename = "ID")]
    pub id: String,
    pub healthy: bool,
}

/// A `structs.NodeNetworkResource`: one interface of a node.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodeNetwork {
    pub mode: String,
    pub device: String,
    #[serde(deserialize_with = "nullable")]
    pub addresses: Vec<NodeNetworkAddress>,
}

/// A `structs.NodeNetworkAddress`: one address of a host network.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodeNetworkAddress {
    pub alias: String,
    pub address: String,
    /// Port ranges kept back on this address ("22,80-90").
    pub reserved_ports: String,
}

/// A `structs.NodeReservedResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct NodeReservedResources {
    pub cpu: ReservedCpu,
    pub memory: MemoryAmount,
    pub disk: DiskAmount,
    pub networks: ReservedNetworks,
}

/// `NodeReservedCpuResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ReservedCpu {
    pub cpu_shares: i64,
    #[serde(deserialize_with = "nullable")]
    pub reserved_cpu_cores: Vec<u16>,
}

/// `NodeReservedNetworkResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ReservedNetworks {
    /// Port ranges kept back on every address of the node.
    pub reserved_host_ports: String,
}

/// The resource fields of a `structs.Allocation`, owned: what a plan's
/// placements and in-place updates hold (the snapshot's own allocations are
/// read in place, through [`super::UsageView`]). Small, as some callers keep
/// one per allocation of a node: the ID without a copy of its text, the
/// statuses as their enums, the rare pre-0.9 blocks in one box.
///
/// Read through `AllocUsageWire` (`alloc_wire`).
#[derive(Clone, Debug, Default)]
pub struct AllocUsage {
    pub id: Id,
    pub client_status: ClientStatus,
    pub desired_status: DesiredStatus,
    /// Shared with the snapshot's allocation, not copied.
    pub allocated_resources: Option<Arc<AllocatedResources>>,
    /// The pre-0.9 blocks, read before 1.7.0 when `AllocatedResources` is
    /// absent; one box, as most allocations lack them.
    pub legacy: Option<Box<LegacyResources>>,
}

/// A `structs.AllocatedResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocatedResources {
    #[serde(deserialize_with = "nullable")]
    pub tasks: SortedMap<String, AllocatedTaskResources>,
    /// A `null` entry is a main task.
    #[serde(deserialize_with = "nullable")]
    pub task_lifecycles: SortedMap<String, Option<TaskLifecycle>>,
    pub shared: AllocatedShared,
}

impl AllocatedResources {
    /// A hash of what the allocation holds when that is only CPU, memory
    /// and disk (no networks, ports or devices, which differ from one
    /// allocation to the next): allocations of one group version then hold
    /// the same, and [`Self::same_plain`] lets the reader share one copy.
    pub fn plain_hash(&self) -> Option<u64> {
        use std::hash::{BuildHasher, Hash, Hasher};
        let plain = self.shared.networks.is_empty()
            && self.shared.ports.is_empty()
            && self
                .tasks
                .values()
                .all(|t| t.networks.is_empty() && t.devices.is_empty());
        if !plain {
            return None;
        }
        let mut h = foldhash::fast::FixedState::default().build_hasher();
        self.shared.disk_mb.hash(&mut h);
        for (name, t) in &self.tasks {
            name.hash(&mut h);
            t.cpu.cpu_shares.hash(&mut h);
            t.cpu.reserved_cores.hash(&mut h);
            t.memory.memory_mb.hash(&mut h);
            t.memory.memory_max_mb.hash(&mut h);
        }
        for (name, l) in &self.task_lifecycles {
            name.hash(&mut h);
            l.as_ref().map(|l| (&l.hook, l.sidecar)).hash(&mut h);
        }
        Some(h.finish())
    }

    /// Whether two allocations of [`Self::plain_hash`] hold the same.
    pub fn same_plain(&self, other: &AllocatedResources) -> bool {
        let task = |a: &AllocatedTaskResources, b: &AllocatedTaskResources| {
            a.cpu.cpu_shares == b.cpu.cpu_shares
                && a.cpu.reserved_cores == b.cpu.reserved_cores
                && a.memory.memory_mb == b.memory.memory_mb
                && a.memory.memory_max_mb == b.memory.memory_max_mb
                && a.networks.is_empty() == b.networks.is_empty()
                && a.devices.is_empty() == b.devices.is_empty()
        };
        self.shared.disk_mb == other.shared.disk_mb
            && self.shared.networks.is_empty() == other.shared.networks.is_empty()
            && self.shared.ports.is_empty() == other.shared.ports.is_empty()
            && self.task_lifecycles == other.task_lifecycles
            && self.tasks.len() == other.tasks.len()
            && self
                .tasks
                .iter()
                .zip(&other.tasks)
                .all(|((n, a), (m, b))| n == m && task(a, b))
    }
}

/// A `structs.AllocatedTaskResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocatedTaskResources {
    pub cpu: AllocatedCpu,
    pub memory: AllocatedMemory,
    #[serde(deserialize_with = "list")]
    pub networks: Vec<NetworkResource>,
    #[serde(deserialize_with = "nullable")]
    pub devices: Vec<AllocatedDevice>,
}

/// `AllocatedCpuResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocatedCpu {
    pub cpu_shares: i64,
    #[serde(deserialize_with = "nullable")]
    pub reserved_cores: Vec<u16>,
}

/// `AllocatedMemoryResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocatedMemory {
    #[serde(rename = "MemoryMB")]
    pub memory_mb: i64,
    /// Only set when memory oversubscription was on at placement.
    #[serde(rename = "MemoryMaxMB")]
    pub memory_max_mb: i64,
}

/// A `structs.AllocatedDeviceResource`: the instances a task holds.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocatedDevice {
    pub vendor: String,
    #[serde(rename = "Type")]
    pub device_type: String,
    pub name: String,
    #[serde(rename = "DeviceIDs", deserialize_with = "nullable")]
    pub device_ids: Vec<String>,
}

/// `AllocatedSharedResources`: the group's disk, networks and ports.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocatedShared {
    #[serde(deserialize_with = "list")]
    pub networks: Vec<NetworkResource>,
    #[serde(rename = "DiskMB")]
    pub disk_mb: i64,
    #[serde(deserialize_with = "list")]
    pub ports: Vec<PortMapping>,
}

/// A `structs.AllocatedPortMapping`: one port the group holds on an address.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct PortMapping {
    pub label: Name,
    pub value: i64,
    pub to: i64,
    #[serde(rename = "HostIP")]
    pub host_ip: Name,
    /// The port may be shared with others that ignore collisions (1.9.0 on).
    pub ignore_collision: bool,
}

/// A task group's `EphemeralDisk` block.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct EphemeralDisk {
    #[serde(rename = "SizeMB")]
    pub size_mb: i64,
    pub sticky: bool,
    pub migrate: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::from_slice;

    /// `nomad/mock/node.go` `Node()` at 2.0.5 as the API writes it, with
    /// the legacy CPU block that `Compatibility` fills in.
    const MOCK_NODE_V2_0_5: &str = r#"{
        "ID": "n1", "NodeMaxAllocs": 0,
        "NodeResources": {
            "Cpu": {"CpuShares": 14000, "TotalCpuCores": 4, "ReservableCpuCores": [0, 1, 2, 3]},
            "Processors": {"Topology": {"Nodes": [0], "Distances": [[10]],
                "Cores": [
                    {"SocketID": 0, "NodeID": 0, "ID": 0, "Grade": true, "Disable": false,
                     "BaseSpeed": 3500, "MaxSpeed": 0, "GuessSpeed": 0},
                    {"SocketID": 0, "NodeID": 0, "ID": 1, "Grade": true, "Disable": false,
                     "BaseSpeed": 3500, "MaxSpeed": 0, "GuessSpeed": 0},
                    {"SocketID": 0, "NodeID": 0, "ID": 2, "Grade": true, "Disable": false,
                     "BaseSpeed": 3500, "MaxSpeed": 0, "GuessSpeed": 0},
                    {"SocketID": 0, "NodeID": 0, "ID": 3, "Grade": true, "Disable": true,
                     "BaseSpeed": 3500, "MaxSpeed": 0, "GuessSpeed": 0}],
                "BusAssociativity": null, "OverrideTotalCompute": 0, "OverrideWitholdCompute": 0}},
            "Memory": {"MemoryMB": 8192},
            "Disk": {"DiskMB": 102400},
            "Networks": [{"Mode": "host", "Device": "eth0", "CIDR": "192.168.0.100/32",
                          "IP": "", "MBits": 1000, "DNS": null,
                          "ReservedPorts": null, "DynamicPorts": null}],
            "NodeNetworks": [{"Mode": "host", "Device": "eth0", "MacAddress": "", "Speed": 1000,
                "Addresses": [{"Family": "ipv4", "Alias": "default", "Address": "192.168.0.100",
                               "ReservedPorts": "", "Gateway": ""}]}],
            "Devices": null,
            "MinDynamicPort": 20000, "MaxDynamicPort": 32000
        },
        "ReservedResources": {
            "Cpu": {"CpuShares": 100, "ReservedCpuCores": null},
            "Memory": {"MemoryMB": 256},
            "Disk": {"DiskMB": 4096},
            "Networks": {"ReservedHostPorts": "22"}
        },
        "Resources": null, "Reserved": null
    }"#;

    #[test]
    fn node_supply_reads_the_mock_node_of_2_0_5() {
        let n: NodeSupply = from_slice(MOCK_NODE_V2_0_5.as_bytes()).unwrap();
        let r = n.node_resources.as_ref().unwrap();
        assert_eq!(r.cpu.cpu_shares, 14000);
        assert_eq!(r.cpu.total_cpu_cores, 4);
        assert_eq!(r.cpu.reservable_cpu_cores, [0, 1, 2, 3]);
        let top = r.processors.topology.as_ref().unwrap();
        assert_eq!(top.cores.len(), 4);
        assert!(top.cores[3].disable);
        assert_eq!(top.cores[2].base_speed, 3500);
        assert_eq!(r.memory.memory_mb, 8192);
        assert_eq!(r.disk.disk_mb, 102400);
        assert_eq!(r.networks[0].cidr, "192.168.0.100/32");
        assert_eq!(r.networks[0].mbits, 1000);
        assert_eq!(r.node_networks[0].addresses[0].address, "192.168.0.100");
        assert_eq!(r.node_networks[0].addresses[0].alias, "default");
        assert!(r.devices.is_empty());
        assert_eq!((r.min_dynamic_port, r.max_dynamic_port), (20000, 32000));
        let reserved = n.reserved_resources.as_ref().unwrap();
        assert_eq!(reserved.cpu.cpu_shares, 100);
        assert!(reserved.cpu.reserved_cpu_cores.is_empty());
        assert_eq!(reserved.memory.memory_mb, 256);
        assert_eq!(reserved.disk.disk_mb, 4096);
        assert_eq!(reserved.networks.reserved_host_ports, "22");
        assert!(n.resources.is_none() && n.reserved.is_none());
    }

    /// A node of the API docs (`/v1/node/:id`, 1.10.0 docs, written by a
    /// 1.1.0 agent): no topology, legacy blocks beside the new ones.
    #[test]
    fn node_supply_reads_a_pre_topology_node_with_legacy_blocks() {
        let json = r#"{
            "NodeResources": {"Cpu": {"CpuShares": 32000},
                "Devices": [{"Attributes": {"attrA": {"Int": 1024, "Unit": "MB"}},
                    "Instances": [{"HealthDescription": "", "Healthy": true,
                        "ID": "6a61929e-d572-092d-5921-156a913f8e56",
                        "Locality": {"PciBusID": "77cda534"}}],
                    "Name": "modelA", "Type": "skeleton", "Vendor": "hashicorp"}],
                "Disk": {"DiskMB": 7890}, "Memory": {"MemoryMB": 15803},
                "Networks": [{"CIDR": "127.0.0.1/32", "Device": "lo", "DynamicPorts": null,
                    "IP": "127.0.0.1", "MBits": 1000, "Mode": "", "ReservedPorts": null}],
                "NodeNetworks": [{"Addresses": [{"Address": "127.0.0.1", "Alias": "default",
                    "Family": "ipv4", "Gateway": "", "ReservedPorts": ""}],
                    "Device": "lo", "MacAddress": "00:00:00:00:00:00", "Mode": "host"}]},
            "Reserved": {"CPU": 0, "Devices": null, "DiskMB": 0, "IOPS": 0, "MemoryMB": 0,
                         "Networks": null},
            "ReservedResources": {"Cpu": {"CpuShares": 0}, "Disk": {"DiskMB": 0},
                "Memory": {"MemoryMB": 0}, "Networks": {"ReservedHostPorts": ""}},
            "Resources": {"CPU": 32000, "Devices": null, "DiskMB": 7890, "IOPS": 0,
                "MemoryMB": 15803, "Networks": null}
        }"#;
        let n: NodeSupply = from_slice(json.as_bytes()).unwrap();
        let r = n.node_resources.as_ref().unwrap();
        assert_eq!(r.cpu.cpu_shares, 32000);
        assert!(r.processors.topology.is_none());
        assert_eq!(
            r.devices[0].instances[0].id,
            "6a61929e-d572-092d-5921-156a913f8e56"
        );
        assert_eq!(n.resources.as_ref().unwrap().cpu, 32000);
        assert_eq!(n.reserved.as_ref().unwrap().memory_mb, 0);
        assert_eq!((r.min_dynamic_port, r.max_dynamic_port), (0, 0));
    }

    /// An allocation of the autoscaler-cluster1 snapshot (realworld), with
    /// the new blocks and the legacy ones a 1.x server still writes.
    #[test]
    fn alloc_usage_reads_a_real_allocation() {
        let json = r#"{"ID": "a1", "ClientStatus": "running", "DesiredStatus": "run",
            "AllocatedResources": {"Tasks": {"batch_pause": {"Cpu": {"CpuShares": 100},
                "Memory": {"MemoryMB": 256}, "Networks": null, "Devices": null}},
                "TaskLifecycles": {"batch_pause": null},
                "Shared": {"Networks": null, "DiskMB": 300, "Ports": null}},
            "Resources": {"CPU": 100, "MemoryMB": 256, "DiskMB": 300, "IOPS": 0,
                          "Networks": null, "Devices": null},
            "TaskResources": {"batch_pause": {"CPU": 100, "MemoryMB": 256, "DiskMB": 0,
                "IOPS": 0, "Networks": null, "Devices": null}},
            "SharedResources": {"CPU": 0, "MemoryMB": 0, "DiskMB": 300, "IOPS": 0,
                "Networks": null, "Devices": null}}"#;
        let a: AllocUsage = from_slice(json.as_bytes()).unwrap();
        let ar = a.allocated_resources.as_ref().unwrap();
        assert_eq!(ar.tasks["batch_pause"].cpu.cpu_shares, 100);
        assert_eq!(ar.tasks["batch_pause"].memory.memory_mb, 256);
        assert_eq!(ar.task_lifecycles["batch_pause"], None);
        assert_eq!(ar.shared.disk_mb, 300);
        let legacy = a.legacy.as_deref().unwrap();
        assert_eq!(legacy.resources.as_ref().unwrap().disk_mb, 300);
        assert_eq!(legacy.task_resources["batch_pause"].cpu, 100);
        assert_eq!(legacy.shared_resources.as_ref().unwrap().disk_mb, 300);
    }

    /// Shapes of `nomad/mock/alloc.go` at 2.0.5 (`Alloc`, with a group
    /// network, ports and a prestart sidecar) and of `ConnectAlloc`.
    #[test]
    fn alloc_usage_reads_ports_cores_devices_and_lifecycles() {
        let json = r#"{"ID": "a2", "ClientStatus": "pending", "DesiredStatus": "run",
            "AllocatedResources": {
                "Tasks": {
                    "web": {"Cpu": {"CpuShares": 500, "ReservedCores": [2, 3]},
                        "Memory": {"MemoryMB": 256, "MemoryMaxMB": 512},
                        "Networks": [{"Device": "eth0", "IP": "192.168.0.100", "MBits": 50,
                            "ReservedPorts": [{"Label": "admin", "Value": 5000}],
                            "DynamicPorts": [{"Label": "http", "Value": 9876}]}],
                        "Devices": [{"Vendor": "nvidia", "Type": "gpu", "Name": "1080ti",
                                     "DeviceIDs": ["uuid1", "uuid2"]}]},
                    "init": {"Cpu": {"CpuShares": 100}, "Memory": {"MemoryMB": 64}}},
                "TaskLifecycles": {"web": null, "init": {"Hook": "prestart", "Sidecar": true}},
                "Shared": {"DiskMB": 150,
                    "Networks": [{"Mode": "bridge", "IP": "10.0.0.1", "MBits": 0,
                                  "DynamicPorts": [{"Label": "connect-proxy", "Value": 21000}]}],
                    "Ports": [{"Label": "connect-proxy", "Value": 21000, "To": 21000,
                               "HostIP": "10.0.0.1", "IgnoreCollision": true}]}}}"#;
        let a: AllocUsage = from_slice(json.as_bytes()).unwrap();
        let ar = a.allocated_resources.unwrap();
        let web = &ar.tasks["web"];
        assert_eq!(web.cpu.reserved_cores, [2, 3]);
        assert_eq!(web.memory.memory_max_mb, 512);
        assert_eq!(web.networks[0].reserved_ports[0].value, 5000);
        assert_eq!(web.networks[0].dynamic_ports[0].label, "http");
        assert_eq!(web.devices[0].device_ids, ["uuid1", "uuid2"]);
        assert_eq!(web.devices[0].device_type, "gpu");
        let init = ar.task_lifecycles["init"].as_ref().unwrap();
        assert_eq!((init.hook.as_str(), init.sidecar), ("prestart", true));
        assert_eq!(ar.shared.ports[0].host_ip, "10.0.0.1");
        assert!(ar.shared.ports[0].ignore_collision);
        assert_eq!(ar.shared.networks[0].mode, "bridge");
    }

    /// Go's rule: `null` anywhere reads as the zero value.
    #[test]
    fn null_members_read_as_absent() {
        let json = r#"{"NodeResources": {"Cpu": null, "Memory": {"MemoryMB": null},
            "MinDynamicPort": null, "Processors": {"Topology": null}},
            "ReservedResources": {"Networks": {"ReservedHostPorts": null}},
            "NodeMaxAllocs": null}"#;
        let n: NodeSupply = from_slice(json.as_bytes()).unwrap();
        let r = n.node_resources.unwrap();
        assert_eq!(r.cpu.cpu_shares, 0);
        assert_eq!(r.memory.memory_mb, 0);
        assert_eq!(r.min_dynamic_port, 0);
        assert_eq!(
            n.reserved_resources.unwrap().networks.reserved_host_ports,
            ""
        );
        let disk: EphemeralDisk =
            from_slice(br#"{"SizeMB": 300, "Sticky": null, "Migrate": true}"#).unwrap();
        assert_eq!(
            (disk.size_mb, disk.sticky, disk.migrate),
            (300, false, true)
        );
    }

    #[test]
    fn an_allocation_usage_is_small_and_reads_as_before() {
        // The placement stage keeps one per running allocation for the whole replay.
        // The pre-0.9 blocks are one pointer, where inline they took five words.
        assert!(size_of::<AllocUsage>() <= 9 * size_of::<usize>());
        let a: AllocUsage = from_slice(
            br#"{"ID": "5d1f0b1e-6a1c-4f6e-9a0b-3c2d1e0f9a8b", "ClientStatus": "running",
                "DesiredStatus": "stop", "Resources": {"CPU": 250}}"#,
        )
        .unwrap();
        assert_eq!(a.id, "5d1f0b1e-6a1c-4f6e-9a0b-3c2d1e0f9a8b");
        assert_eq!(a.client_status.as_str(), "running");
        assert_eq!(a.desired_status.as_str(), "stop");
        assert_eq!(a.legacy.unwrap().resources.unwrap().cpu, 250);
        let none: AllocUsage = from_slice(br#"{"Resources": null, "TaskResources": {}}"#).unwrap();
        assert!(none.legacy.is_none());
    }
}
