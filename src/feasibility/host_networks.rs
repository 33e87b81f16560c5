//! A group network's `host_network` templates (`${meta.public_net}`), which
//! the bin packer resolves on each node before it asks for ports
//! (`BinPackIterator.Next`, scheduler/rank.go:272-295 at 1.3.0,
//! scheduler/feasible/rank.go:291-314 at 2.0.5).

use super::target::{TargetRules, resolve};
use crate::model::{NetworkResource, Node};

/// A group network as one node sees it.
#[derive(Clone, Debug)]
pub enum HostNetworks {
    /// No port names a template: the network is the same on every node.
    Plain,
    /// Every template resolved on the node.
    Resolved(NetworkResource),
    /// A template the node does not resolve (a missing meta key or
    /// attribute, an unknown target): Nomad skips the node without
    /// counting it filtered or exhausted.
    Unresolved,
}

/// Whether a port's `host_network` is a template Nomad resolves.
pub fn templated(network: &NetworkResource) -> bool {
    let ports = network.dynamic_ports.iter().chain(&network.reserved_ports);
    ports.into_iter().any(|p| p.host_network.starts_with("${"))
}

/// `network` with its ports' `host_network` templates resolved on `node`.
pub fn host_networks(network: &NetworkResource, node: &Node, rules: TargetRules) -> HostNetworks {
    if !templated(network) {
        return HostNetworks::Plain;
    }
    let mut out = network.clone();
    for port in out.dynamic_ports.iter_mut().chain(&mut out.reserved_ports) {
        if port.host_network.is_empty() {
            continue;
        }
        let target = resolve(&port.host_network, node, rules);
        match (target.found, target.text()) {
            (true, Some(value)) => port.host_network = value.into(),
            _ => return HostNetworks::Unresolved,
        }
    }
    HostNetworks::Resolved(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::from_slice;

    fn network(host_networks: &[&str]) -> NetworkResource {
        let ports: Vec<String> = host_networks
            .iter()
            .enumerate()
            .map(|(i, h)| format!(r#"{{"Label": "p{i}", "HostNetwork": "{h}"}}"#))
            .collect();
        let json = format!(r#"{{"DynamicPorts": [{}]}}"#, ports.join(","));
        from_slice(json.as_bytes()).unwrap()
    }

    #[test]
    fn templates_resolve_on_the_node_or_skip_it() {
        let node: Node =
            from_slice(br#"{"ID": "n", "Meta": {"net": "public"}, "Datacenter": "dc1"}"#).unwrap();
        let rules = TargetRules::default();
        assert!(matches!(
            host_networks(&network(&["private", ""]), &node, rules),
            HostNetworks::Plain
        ));
        let HostNetworks::Resolved(n) =
            host_networks(&network(&["${meta.net}", "private", ""]), &node, rules)
        else {
            panic!("unresolved");
        };
        let names: Vec<&str> = n
            .dynamic_ports
            .iter()
            .map(|p| p.host_network.as_str())
            .collect();
        assert_eq!(names, ["public", "private", ""]);
        for missing in ["${meta.other}", "${attr.none}", "${node.bogus}"] {
            let got = host_networks(&network(&["${meta.net}", missing]), &node, rules);
            assert!(matches!(got, HostNetworks::Unresolved), "{missing}");
        }
    }
}
