//! Client nodes.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Resources;
use super::csi::CsiInfo;
use super::resources::{NodeReservedResources, NodeResources, NodeSupply};
use super::string_map::{self, StringMap};
use super::{GoValue, Name, nullable};

/// A `structs.Node`, as far as tainting and the system scheduler's
/// feasibility checks read it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Node {
    #[serde(rename = "ID")]
    pub id: String,
    pub name: String,
    pub datacenter: Name,
    pub status: Name,
    pub drain_strategy: GoValue,
    /// Pre-1.0 drain flag; Nomad 1.3 keeps it in step with `DrainStrategy`.
    pub drain: bool,
    pub scheduling_eligibility: Name,
    #[serde(deserialize_with = "string_map::attributes")]
    pub attributes: StringMap,
    #[serde(deserialize_with = "string_map::meta")]
    pub meta: StringMap,
    pub node_class: Name,
    /// The hash of the class-relevant fields the client computed; feasibility
    /// results are shared by nodes with the same one.
    pub computed_class: Name,
    /// A `null` entry is a driver without info, which no task may use.
    #[serde(deserialize_with = "nullable")]
    pub drivers: BTreeMap<String, Option<DriverInfo>>,
    #[serde(deserialize_with = "nullable")]
    pub host_volumes: BTreeMap<String, Option<HostVolume>>,
    /// The node's CSI node plugins by plugin ID; `null` entries are absent.
    #[serde(rename = "CSINodePlugins", deserialize_with = "nullable")]
    pub csi_node_plugins: BTreeMap<String, Option<CsiInfo>>,
    pub node_resources: Option<NodeResources>,
    /// What the client keeps back from allocations.
    pub reserved_resources: Option<NodeReservedResources>,
    /// The pre-0.9 totals, read before 1.7.0 when the blocks above are
    /// absent.
    pub resources: Option<Resources>,
    /// The pre-0.9 reservation, read with `resources`.
    pub reserved: Option<Resources>,
    /// `client.node_max_allocs` (1.10.2 on); 0 is no limit.
    pub node_max_allocs: i64,
    /// Written by servers from 1.6.0 on ("default" unless set).
    pub node_pool: Name,
    /// The agent version a `NodeListStub` (`/v1/nodes`) carries instead of
    /// its attributes.
    pub version: Name,
}

/// A `structs.DriverInfo`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct DriverInfo {
    pub detected: bool,
    pub healthy: bool,
}

/// A `structs.ClientHostVolumeConfig`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct HostVolume {
    pub read_only: bool,
    /// A dynamic host volume's ID (1.10.0 on); empty for a static one.
    #[serde(rename = "ID")]
    pub id: String,
}

/// Scheduling eligibility strings of `nomad/structs`.
pub mod eligibility {
    pub const ELIGIBLE: &str = "eligible";
    pub const INELIGIBLE: &str = "ineligible";
}

/// Node status strings of `nomad/structs`.
pub mod node_status {
    pub const INIT: &str = "initializing";
    pub const READY: &str = "ready";
    pub const DOWN: &str = "down";
    pub const DISCONNECTED: &str = "disconnected";
    pub const ALL: [&str; 4] = [INIT, READY, DOWN, DISCONNECTED];
}

impl Node {
    /// The client agent's version, as its fingerprint reports it
    /// (`Attributes["nomad.version"]`, else a list stub's `Version`).
    pub fn agent_version(&self) -> Option<&str> {
        self.attributes
            .get("nomad.version")
            .map(Name::as_str)
            .or((!self.version.is_empty()).then_some(self.version.as_str()))
    }

    /// `TerminalStatus`: the node is down.
    pub fn terminal_status(&self) -> bool {
        self.status == node_status::DOWN
    }

    /// `ShouldDrainNode(status)`. Nomad panics on a status it does not know;
    /// plan-inspect treats it as not draining and warns at read time.
    pub fn should_drain(&self) -> bool {
        self.status == node_status::DOWN
    }

    pub fn has_drain_strategy(&self) -> bool {
        !self.drain_strategy.is_null()
    }

    /// `Node.Ready`: ready, not draining and eligible for scheduling.
    pub fn ready(&self) -> bool {
        self.status == node_status::READY
            && !self.has_drain_strategy()
            && self.scheduling_eligibility == eligibility::ELIGIBLE
    }
}

/// Nodes by ID, as the replay looks every allocation's node up; with a fast
/// hash, as no output depends on its order.
pub type NodesById<'a> = std::collections::HashMap<&'a str, &'a Node, foldhash::fast::FixedState>;

impl Node {
    /// The node's resources as the fit arithmetic reads them.
    pub fn supply(&self) -> NodeSupply {
        NodeSupply {
            id: self.id.clone(),
            node_resources: self.node_resources.clone(),
            reserved_resources: self.reserved_resources.clone(),
            resources: self.resources.clone(),
            reserved: self.reserved.clone(),
            node_max_allocs: self.node_max_allocs,
        }
    }
}
