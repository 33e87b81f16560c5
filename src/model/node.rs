//! Client nodes.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{GoValue, nullable};

/// A `structs.Node`, as far as tainting reads it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct Node {
    #[serde(rename = "ID")]
    pub id: String,
    pub name: String,
    pub datacenter: String,
    pub status: String,
    pub drain_strategy: GoValue,
    /// Pre-1.0 drain flag; Nomad 1.3 keeps it in step with `DrainStrategy`.
    pub drain: bool,
    pub scheduling_eligibility: String,
    #[serde(deserialize_with = "nullable")]
    pub attributes: BTreeMap<String, String>,
    /// Written by servers from 1.6.0 on ("default" unless set).
    pub node_pool: String,
    /// The agent version a `NodeListStub` (`/v1/nodes`) carries instead of
    /// its attributes.
    pub version: String,
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
            .map(String::as_str)
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
}
