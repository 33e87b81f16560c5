//! The Connect and Consul blocks of a task group's services: what
//! re-registering in Consul cannot change.

use crate::model::{Consul, ConsulConnect, ConsulGateway, Service, SidecarService, SidecarTask};
use crate::reconciler::rules::Rules;
use crate::version::Switch;

/// `connectServiceUpdated`: only services with a Connect block on the new side
/// are checked, each against the first same-named service on the old side.
/// Other service changes are applied in place by re-registering in Consul.
///
/// Returns Nomad's label and the reason.
pub(super) fn connect_service_updated(
    services_a: &[Service],
    services_b: &[Service],
    rules: &Rules,
) -> Option<(&'static str, String)> {
    for sa in services_a.iter().filter(|s| s.connect.is_some()) {
        let Some(sb) = services_b.iter().find(|s| s.name == sa.name) else {
            continue;
        };
        let changed = |label, what| {
            Some((
                label,
                format!("connect service {:?}: {what} changed", sa.name),
            ))
        };
        if let Some((label, what)) = connect_updated(sa.connect.as_deref(), sb.connect.as_deref()) {
            return changed(label, what);
        }
        // The Connect plumbing is derived from the port label.
        if sa.port_label != sb.port_label {
            return changed("connect service port label", "port label");
        }
        if rules.has(Switch::ConsulCluster) && sa.cluster != sb.cluster {
            return changed("connect service cluster", "cluster");
        }
    }
    None
}

/// `connectUpdated`: the parts of a Connect block that cannot be changed by
/// re-registering in Consul. Returns Nomad's label and what changed. Nomad
/// labels a Connect block the old version lacks "connect removed": its
/// first argument is the new version's.
pub(super) fn connect_updated(
    a: Option<&ConsulConnect>,
    b: Option<&ConsulConnect>,
) -> Option<(&'static str, &'static str)> {
    let (a, b) = match (a, b) {
        (Some(a), Some(b)) => (a, b),
        (None, None) => return None,
        (None, Some(_)) => return Some(("connect added", "connect block")),
        (Some(_), None) => return Some(("connect removed", "connect block")),
    };
    if a.native != b.native {
        return Some(("connect native", "native"));
    }
    if !ConsulGateway::equals(a.gateway.as_ref(), b.gateway.as_ref()) {
        return Some(("connect gateway", "gateway"));
    }
    if !SidecarTask::equals(a.sidecar_task.as_ref(), b.sidecar_task.as_ref()) {
        return Some(("connect sidecar task", "sidecar task"));
    }
    connect_sidecar_service_updated(a.sidecar_service.as_ref(), b.sidecar_service.as_ref())
        .map(|label| (label, "sidecar service"))
}

/// `connectSidecarServiceUpdated`: presence and port only; tags and proxy
/// settings are applied in place. Returns Nomad's label.
pub(super) fn connect_sidecar_service_updated(
    a: Option<&SidecarService>,
    b: Option<&SidecarService>,
) -> Option<&'static str> {
    match (a, b) {
        (Some(a), Some(b)) => (a.port != b.port).then_some("connect port"),
        (None, None) => None,
        (None, Some(_)) => Some("connect service add"),
        (Some(_), None) => Some("connect service delete"),
    }
}

/// `consulUpdated`: which part of a Consul block changed. The namespace
/// counts even when one side has no block; the cluster (1.7.0) and the
/// admin partition (1.7.3) only when both have one.
pub(super) fn consul_updated(
    a: Option<&Consul>,
    b: Option<&Consul>,
    rules: &Rules,
) -> Option<&'static str> {
    fn namespace(c: Option<&Consul>) -> &str {
        c.map_or("", |c| c.namespace.as_str())
    }
    if namespace(a) != namespace(b) {
        return Some("consul namespace");
    }
    let (a, b) = a.zip(b)?;
    if rules.has(Switch::ConsulCluster) && a.cluster != b.cluster {
        return Some("consul cluster");
    }
    if rules.has(Switch::ConsulPartition) && a.partition != b.partition {
        return Some("consul partition");
    }
    None
}
