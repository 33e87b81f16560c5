//! Connect gateway and sidecar-task blocks, typed because Nomad compares them
//! with hand-written `Equals` methods whose rules differ from `DeepEqual`:
//! some lists are compared as sets, and some nil and empty values are equal.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{GoValue, Resources, list, nullable, set_equal};
use crate::time::Duration;

/// A `structs.ConsulGateway`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulGateway {
    pub proxy: Option<ConsulGatewayProxy>,
    pub ingress: Option<ConsulIngressConfigEntry>,
    pub terminating: Option<ConsulTerminatingConfigEntry>,
    pub mesh: Option<ConsulMeshConfigEntry>,
}

/// A `structs.ConsulGatewayProxy`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulGatewayProxy {
    pub connect_timeout: Option<Duration>,
    pub envoy_gateway_bind_tagged_addresses: bool,
    /// Values are pointers in Go; a `null` value is kept as `None`.
    #[serde(deserialize_with = "nullable")]
    pub envoy_gateway_bind_addresses: BTreeMap<String, Option<ConsulGatewayBindAddress>>,
    pub envoy_gateway_no_default_bind: bool,
    #[serde(rename = "EnvoyDNSDiscoveryType")]
    pub envoy_dns_discovery_type: String,
    pub config: GoValue,
}

/// A `structs.ConsulGatewayBindAddress`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulGatewayBindAddress {
    pub address: String,
    pub port: i64,
}

/// A `structs.ConsulIngressConfigEntry`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulIngressConfigEntry {
    #[serde(rename = "TLS")]
    pub tls: Option<ConsulGatewayTlsConfig>,
    #[serde(deserialize_with = "list")]
    pub listeners: Vec<Option<ConsulIngressListener>>,
}

/// A `structs.ConsulGatewayTLSConfig`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulGatewayTlsConfig {
    pub enabled: bool,
}

/// A `structs.ConsulIngressListener`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulIngressListener {
    pub port: i64,
    pub protocol: String,
    #[serde(deserialize_with = "list")]
    pub services: Vec<Option<ConsulIngressService>>,
}

/// A `structs.ConsulIngressService`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulIngressService {
    pub name: String,
    #[serde(deserialize_with = "list")]
    pub hosts: Vec<String>,
}

/// A `structs.ConsulTerminatingConfigEntry`.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulTerminatingConfigEntry {
    #[serde(deserialize_with = "list")]
    pub services: Vec<Option<ConsulLinkedService>>,
}

/// A `structs.ConsulLinkedService`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConsulLinkedService {
    pub name: String,
    #[serde(rename = "CAFile")]
    pub ca_file: String,
    pub cert_file: String,
    pub key_file: String,
    #[serde(rename = "SNI")]
    pub sni: String,
}

/// A `structs.ConsulMeshConfigEntry`: only its presence matters.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
pub struct ConsulMeshConfigEntry {}

/// A `structs.SidecarTask`: the overrides of a Connect sidecar.
#[derive(Clone, Debug, Default, Deserialize, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct SidecarTask {
    pub name: String,
    pub driver: String,
    pub user: String,
    pub config: GoValue,
    /// `None` for a nil map, which Nomad tells apart from an empty one here.
    pub env: Option<BTreeMap<String, String>>,
    pub resources: Option<Resources>,
    pub meta: Option<BTreeMap<String, String>>,
    pub kill_timeout: Option<Duration>,
    pub log_config: Option<LogConfig>,
    pub shutdown_delay: Option<Duration>,
    pub kill_signal: String,
}

/// A `structs.LogConfig`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "PascalCase", default)]
pub struct LogConfig {
    pub max_files: i64,
    #[serde(rename = "MaxFileSizeMB")]
    pub max_file_size_mb: i64,
}

/// Go's `a == nil || b == nil ? a == b : a.Equals(b)` for optional pointers.
fn both_nil_or<T>(a: Option<&T>, b: Option<&T>, eq: impl Fn(&T, &T) -> bool) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => eq(x, y),
        (x, y) => x.is_none() && y.is_none(),
    }
}

/// `opaqueMapsEqual`: two empty maps are equal whether nil or not; otherwise
/// `DeepEqual` on maps, where a key with a zero value still counts.
fn opaque_maps_equal(a: &GoValue, b: &GoValue) -> bool {
    let empty = |v: &GoValue| v.is_null() || v.json().as_object().is_some_and(<[_]>::is_empty);
    (empty(a) && empty(b)) || a.map_equal(b)
}

impl ConsulGateway {
    /// `ConsulGateway.Equals`.
    pub fn equals(a: Option<&Self>, b: Option<&Self>) -> bool {
        both_nil_or(a, b, |a, b| {
            both_nil_or(
                a.proxy.as_ref(),
                b.proxy.as_ref(),
                ConsulGatewayProxy::equals,
            ) && both_nil_or(a.ingress.as_ref(), b.ingress.as_ref(), |a, b| {
                a.tls == b.tls
                    && set_equal(&a.listeners, &b.listeners, |x, y| {
                        both_nil_or(x.as_ref(), y.as_ref(), ConsulIngressListener::equals)
                    })
            }) && both_nil_or(a.terminating.as_ref(), b.terminating.as_ref(), |a, b| {
                set_equal(&a.services, &b.services, |x, y| x == y)
            }) && a.mesh.is_some() == b.mesh.is_some()
        })
    }
}

impl ConsulGatewayProxy {
    fn equals(&self, o: &Self) -> bool {
        // Bind addresses: equal sizes, then each of ours looked up in theirs,
        // where a missing key reads as nil (so it equals a nil value).
        let binds = self.envoy_gateway_bind_addresses.len() == o.envoy_gateway_bind_addresses.len()
            && self
                .envoy_gateway_bind_addresses
                .iter()
                .all(|(k, v)| o.envoy_gateway_bind_addresses.get(k).cloned().flatten() == *v);
        self.connect_timeout == o.connect_timeout
            && self.envoy_gateway_bind_tagged_addresses == o.envoy_gateway_bind_tagged_addresses
            && binds
            && self.envoy_gateway_no_default_bind == o.envoy_gateway_no_default_bind
            && self.envoy_dns_discovery_type == o.envoy_dns_discovery_type
            && opaque_maps_equal(&self.config, &o.config)
    }
}

impl ConsulIngressListener {
    fn equals(&self, o: &Self) -> bool {
        self.port == o.port
            && self.protocol == o.protocol
            && set_equal(&self.services, &o.services, |x, y| {
                both_nil_or(x.as_ref(), y.as_ref(), |x, y| {
                    // Hosts are a set too; `CompareSliceSetString` looks each
                    // of the other side's hosts up among ours.
                    x.name == y.name && set_equal(&y.hosts, &x.hosts, |h, g| h == g)
                })
            })
    }
}

impl SidecarTask {
    /// `SidecarTask.Equals`.
    pub fn equals(a: Option<&Self>, b: Option<&Self>) -> bool {
        both_nil_or(a, b, |a, b| {
            a.name == b.name
                && a.driver == b.driver
                && a.user == b.user
                && opaque_maps_equal(&a.config, &b.config)
                && a.env == b.env
                && both_nil_or(
                    a.resources.as_ref(),
                    b.resources.as_ref(),
                    Resources::equals,
                )
                && a.meta == b.meta
                && a.kill_timeout == b.kill_timeout
                && a.log_config == b.log_config
                && a.shutdown_delay == b.shutdown_delay
                && a.kill_signal == b.kill_signal
        })
    }
}
