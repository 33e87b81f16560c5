//! A group's or task's networks: ports and modes, and from 1.8.3 the CNI
//! arguments.

use crate::model::{CniConfig, Equality, NetworkResource};
use crate::reconciler::rules::Rules;
use crate::version::Switch;

/// `networkUpdated`: networks compare pairwise in order, ignoring the values
/// of dynamic ports (they are assigned at placement).
/// From 1.8.3 the CNI arguments count too. Returns Nomad's label for the
/// first difference.
pub(super) fn network_updated(
    a: &[NetworkResource],
    b: &[NetworkResource],
    rules: &Rules,
) -> Option<&'static str> {
    if a.len() != b.len() {
        return Some("network lengths");
    }
    let eq = rules.update_equality();
    a.iter().zip(b).find_map(|(na, nb)| {
        let checks = [
            ("network mode", na.mode != nb.mode),
            ("network mbits", na.mbits != nb.mbits),
            ("network hostname", na.hostname != nb.hostname),
            ("network dns", !na.dns.equal_as(&nb.dns, eq)),
            (
                "network cni",
                rules.has(Switch::NetworkCni) && !cni_equal(&na.cni, &nb.cni),
            ),
            (
                "network port map",
                network_port_map(na) != network_port_map(nb),
            ),
        ];
        checks.into_iter().find(|(_, d)| *d).map(|(label, _)| label)
    })
}

/// `CNIConfig.Equal`: both absent, or arguments equal as maps.
pub(super) fn cni_equal(a: &Option<CniConfig>, b: &Option<CniConfig>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.args.map_equal_as(&b.args, Equality::Typed),
        (a, b) => a.is_none() && b.is_none(),
    }
}

/// `networkPortMap`: (label, value, to, host network) of reserved then dynamic
/// ports, with dynamic values replaced by -1.
pub(super) fn network_port_map(n: &NetworkResource) -> Vec<(&str, i64, i64, &str)> {
    let reserved = n.reserved_ports.iter().map(|p| (p.value, p));
    let dynamic = n.dynamic_ports.iter().map(|p| (-1, p));
    reserved
        .chain(dynamic)
        .map(|(value, p)| (p.label.as_str(), value, p.to, p.host_network.as_str()))
        .collect()
}
