//! What a task asks of a node: its `structs.Resources` with the networks,
//! ports and devices they hold, compared as `SidecarTask.Equals` compares them.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Affinity, Constraint, GoValue, Name, list, set_equal};

/// A task's `structs.Resources`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct Resources {
    #[serde(rename = "CPU")]
    pub cpu: i64,
    pub cores: i64,
    #[serde(rename = "MemoryMB")]
    pub memory_mb: i64,
    #[serde(rename = "MemoryMaxMB")]
    pub memory_max_mb: i64,
    #[serde(rename = "DiskMB")]
    pub disk_mb: i64,
    #[serde(rename = "IOPS")]
    pub iops: i64,
    #[serde(deserialize_with = "list")]
    pub networks: Vec<NetworkResource>,
    #[serde(deserialize_with = "list")]
    pub devices: Vec<RequestedDevice>,
    /// The NUMA scheduling block (1.7.0 on).
    #[serde(rename = "NUMA")]
    pub numa: Option<Numa>,
    /// The size of the secrets directory's tmpfs (1.8.3 on).
    #[serde(rename = "SecretsMB")]
    pub secrets_mb: i64,
}

/// A `structs.NUMA` block of task resources.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct Numa {
    /// `none`, `prefer` or `require`.
    pub affinity: String,
}

/// A `structs.RequestedDevice`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct RequestedDevice {
    pub name: String,
    pub count: u64,
    #[serde(deserialize_with = "list")]
    pub constraints: Vec<Constraint>,
    #[serde(deserialize_with = "list")]
    pub affinities: Vec<Affinity>,
}

/// A `structs.NetworkResource`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct NetworkResource {
    pub mode: Name,
    pub device: Name,
    #[serde(rename = "CIDR")]
    pub cidr: Name,
    #[serde(rename = "IP")]
    pub ip: Name,
    #[serde(rename = "MBits")]
    pub mbits: i64,
    pub hostname: Name,
    #[serde(rename = "DNS")]
    pub dns: GoValue,
    #[serde(deserialize_with = "list")]
    pub reserved_ports: Vec<Port>,
    #[serde(deserialize_with = "list")]
    pub dynamic_ports: Vec<Port>,
    /// Arguments for the CNI plugins (1.8.3 on).
    #[serde(rename = "CNI")]
    pub cni: Option<CniConfig>,
}

/// A `structs.CNIConfig`: arguments passed to the CNI plugins.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct CniConfig {
    pub args: GoValue,
}

/// A `structs.Port`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct Port {
    pub label: Name,
    pub value: i64,
    pub to: i64,
    pub host_network: Name,
}

impl Resources {
    /// `Resources.Equals`, as `SidecarTask.Equals` uses it: networks and
    /// devices compare as sets, so nil and empty lists are equal.
    pub fn equals(&self, o: &Resources) -> bool {
        self.cpu == o.cpu
            && self.cores == o.cores
            && self.memory_mb == o.memory_mb
            && self.memory_max_mb == o.memory_max_mb
            && self.disk_mb == o.disk_mb
            && self.iops == o.iops
            && set_equal(&self.networks, &o.networks, |a, b| {
                a.hash_text() == b.hash_text()
            })
            && RequestedDevice::devices_equal(&self.devices, &o.devices)
    }
}

impl NetworkResource {
    /// The text `NetworkResource.Hash` feeds to CRC-32; `Equals` compares those
    /// hashes. Comparing the text instead gives the same answer except on a
    /// CRC collision. DNS and host networks are not part of it, as in Nomad.
    pub fn hash_text(&self) -> String {
        use std::fmt::Write;
        let mut s = format!(
            "{}{}{}{}{}{}",
            self.mode, self.device, self.cidr, self.ip, self.hostname, self.mbits
        );
        for (i, p) in self.reserved_ports.iter().enumerate() {
            let _ = write!(s, "r{i}{}{}{}", p.label, p.value, p.to);
        }
        for (i, p) in self.dynamic_ports.iter().enumerate() {
            let _ = write!(s, "d{i}{}{}{}", p.label, p.value, p.to);
        }
        s
    }
}

impl RequestedDevice {
    /// `ResourceDevices.Equals`: a set keyed by name (a later duplicate name on
    /// our side shadows an earlier one); nil and empty are equal.
    pub fn devices_equal(a: &[RequestedDevice], b: &[RequestedDevice]) -> bool {
        let ours: BTreeMap<&str, &RequestedDevice> =
            a.iter().map(|d| (d.name.as_str(), d)).collect();
        a.len() == b.len()
            && b.iter()
                .all(|o| ours.get(o.name.as_str()).is_some_and(|d| d.equals(o)))
    }

    /// `RequestedDevice.Equals`: constraints and affinities compare as sets.
    pub fn equals(&self, o: &RequestedDevice) -> bool {
        self.name == o.name
            && self.count == o.count
            && set_equal(&self.constraints, &o.constraints, |x, y| x == y)
            && set_equal(&self.affinities, &o.affinities, |x, y| x == y)
    }
}
