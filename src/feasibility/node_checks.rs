//! The per-node checks of a task group besides its constraints and
//! volumes: drivers, network mode and host networks, secrets providers.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::target::{TargetRules, resolve};
use super::version::{Flavour, Version, VersionConstraints};
use crate::model::{NetworkResource, Node, Port, TaskGroup};

/// `DriverChecker`: every task's driver is detected and healthy, or, on a
/// client too old to report driver info, its `driver.<name>` attribute is true.
pub fn has_drivers(drivers: &BTreeSet<&str>, node: &Node) -> bool {
    drivers.iter().all(|d| match node.drivers.get(*d) {
        Some(Some(info)) => info.detected && info.healthy,
        Some(None) => false,
        None => node
            .attributes
            .get(format!("driver.{d}").as_str())
            .and_then(|v| go_parse_bool(v))
            .unwrap_or(false),
    })
}

/// The providers of the group's task `secret` blocks, each once (an
/// empty provider included, which no node has).
pub fn secrets_providers(tg: &TaskGroup) -> BTreeSet<&str> {
    tg.tasks
        .iter()
        .flat_map(|t| t.secrets.elements())
        .map(|s| s.get("Provider").and_then(|p| p.as_str()).unwrap_or(""))
        .collect()
}

/// `SecretsProviderChecker` (#26303): the providers the node has not
/// fingerprinted as `plugins.secrets.<provider>.version`; the node passes
/// when there are none.
pub fn missing_secrets_providers<'p>(providers: &BTreeSet<&'p str>, node: &Node) -> Vec<&'p str> {
    providers
        .iter()
        .copied()
        .filter(|p| {
            node.attributes
                .get(format!("plugins.secrets.{p}.version").as_str())
                .is_none()
        })
        .collect()
}

/// Go's `strconv.ParseBool`.
fn go_parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Why `NetworkChecker` filtered a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkMiss {
    Mode(String),
    InvalidHostNetwork { template: String, port: String },
    HostNetwork { name: String, port: String },
}

impl NetworkMiss {
    /// The filter text Nomad records.
    pub fn describe(&self) -> String {
        match self {
            NetworkMiss::Mode(mode) => format!("missing network (mode {mode:?})"),
            NetworkMiss::InvalidHostNetwork { template, port } => {
                format!("invalid host network {template:?} template for port {port:?}")
            }
            NetworkMiss::HostNetwork { name, port } => {
                format!("missing host network {name:?} for port {port:?}")
            }
        }
    }
}

/// `NetworkChecker` on the group's network: the node fingerprinted a
/// network of that mode (a pre-0.12 client passes for `bridge`; from
/// #14300 mode `none` needs none), and every port's host network is one
/// of the node's aliases.
pub fn network(
    net: &NetworkResource,
    node: &Node,
    targets: TargetRules,
) -> Result<(), NetworkMiss> {
    let mode = if net.mode.is_empty() {
        "host"
    } else {
        net.mode.as_str()
    };
    if mode == "none" && targets.network_none {
        return Ok(());
    }
    let has_mode = node.node_resources.as_ref().is_some_and(|r| {
        r.networks
            .iter()
            .any(|n| (if n.mode.is_empty() { "host" } else { &n.mode }) == mode)
    });
    if !has_mode {
        if mode == "bridge" && predates_bridge(node) {
            return Ok(());
        }
        return Err(NetworkMiss::Mode(mode.to_string()));
    }
    let ports: Vec<&Port> = net
        .dynamic_ports
        .iter()
        .chain(&net.reserved_ports)
        .collect();
    for port in ports.iter().filter(|p| !p.host_network.is_empty()) {
        let value = resolve(&port.host_network, node, targets);
        let Some(name) = value.text() else {
            return Err(NetworkMiss::InvalidHostNetwork {
                template: port.host_network.to_string(),
                port: port.label.to_string(),
            });
        };
        let aliased = node
            .node_resources
            .iter()
            .flat_map(|r| &r.node_networks)
            .any(|n| n.addresses.iter().any(|a| a.alias == name));
        if !aliased {
            return Err(NetworkMiss::HostNetwork {
                name: name.to_string(),
                port: port.label.to_string(),
            });
        }
    }
    Ok(())
}

/// A client older than 0.12 never fingerprints the bridge network.
fn predates_bridge(node: &Node) -> bool {
    static OLDER: LazyLock<Option<VersionConstraints>> =
        LazyLock::new(|| VersionConstraints::parse("< 0.12", Flavour::Version));
    let older = OLDER.as_ref();
    let version = node
        .attributes
        .get("nomad.version")
        .and_then(|v| Version::parse_semver(v));
    matches!((older, version), (Some(c), Some(v)) if c.check(&v))
}
