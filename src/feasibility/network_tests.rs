//! `TestNetworkChecker` (scheduler/feasible_test.go:507 at v1.3.0,
//! scheduler/feasible/feasible_test.go:1302 at v2.0.5; the same table):
//! network modes, bridge and CNI, and host networks named literally or by
//! a `${meta.*}` template; and the `none` mode of #14300.

use serde_json::{Value, json};

use super::node_checks::{NetworkMiss, network};
use super::*;
use crate::model::{NetworkResource, Node, Release, from_slice, v};

fn parse<T: for<'de> serde::Deserialize<'de>>(v: Value) -> T {
    from_slice(v.to_string().as_bytes()).unwrap()
}

/// `mock.Node()`'s networks (host `eth0`, aliased `default`) plus one of
/// `mode`; a bridge node's host networks are `public` and `private`
/// instead. Every node is a 0.12 client with the test's meta.
fn node(mode: &str) -> Node {
    let node_networks = if mode == "bridge" {
        json!([{"Addresses": [{"Alias": "public"}, {"Alias": "private"}]}])
    } else {
        json!([{"Mode": "host", "Device": "eth0",
                "Addresses": [{"Alias": "default", "Address": "192.168.0.100"}]}])
    };
    parse(json!({
        "ID": format!("node-{mode}"), "Status": "ready",
        "Attributes": {"nomad.version": "0.12.0", "kernel.name": "linux"},
        "Meta": {"public_network": "public", "private_network": "private",
                 "wrong_network": "empty"},
        "NodeResources": {
            "Networks": [{"Mode": "host", "Device": "eth0", "CIDR": "192.168.0.100/32"},
                         {"Mode": mode}],
            "NodeNetworks": node_networks
        }
    }))
}

/// A bridge network whose dynamic ports name `host_networks`.
fn bridge(host_networks: &[(&str, &str)]) -> NetworkResource {
    let ports: Vec<Value> = host_networks
        .iter()
        .map(|(label, hn)| json!({"Label": label, "Value": 9090, "To": 9090, "HostNetwork": hn}))
        .collect();
    parse(json!({"Mode": "bridge", "ReservedPorts": [], "DynamicPorts": ports}))
}

fn mode(mode: &str) -> NetworkResource {
    parse(json!({ "Mode": mode }))
}

fn feasible(net: &NetworkResource, nodes: &[Node], release: Release) -> Vec<bool> {
    let rules = TargetRules::of(release);
    nodes
        .iter()
        .map(|n| network(net, n, rules).is_ok())
        .collect()
}

#[test]
fn feasible_test_go_v1_3_0_v2_0_5_network_checker() {
    let nodes = [node("bridge"), node("bridge"), node("cni/mynet")];
    let cases = [
        (mode("host"), [true, true, true]),
        (mode("bridge"), [true, true, false]),
        (
            bridge(&[
                ("http", "${meta.public_network}"),
                ("metrics", "${meta.private_network}"),
            ]),
            [true, true, false],
        ),
        (
            bridge(&[("metrics", "${meta.wrong_network}")]),
            [false, false, false],
        ),
        (
            bridge(&[("metrics", "${meta.nonetwork}")]),
            [false, false, false],
        ),
        (bridge(&[("metrics", "public")]), [true, true, false]),
        (
            bridge(&[("metrics", "${meta.private_network}-nonexisting")]),
            [false, false, false],
        ),
        (mode("cni/mynet"), [false, false, true]),
        (mode("cni/nonexistent"), [false, false, false]),
    ];
    for release in [v(1, 3, 0), v(2, 0, 5)] {
        for (i, (net, want)) in cases.iter().enumerate() {
            assert_eq!(feasible(net, &nodes, release), want, "{release:?} case {i}");
        }
    }
}

/// The reasons the table's filtered nodes are recorded with (v1.3.0
/// feasible.go:397, :415, :426; v2.0.5 feasible/feasible.go:716, :734,
/// :745): a missing mode, a template naming no meta key, an alias the
/// node lacks (a template's value or the text after it).
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_network_checker_filter_reasons() {
    let rules = TargetRules::of(v(2, 0, 5));
    let cni = node("cni/mynet");
    let bridged = node("bridge");
    assert_eq!(
        network(&mode("bridge"), &cni, rules),
        Err(NetworkMiss::Mode("bridge".into()))
    );
    assert_eq!(
        network(
            &bridge(&[("metrics", "${meta.nonetwork}")]),
            &bridged,
            rules
        ),
        Err(NetworkMiss::InvalidHostNetwork {
            template: "${meta.nonetwork}".into(),
            port: "metrics".into()
        })
    );
    assert_eq!(
        network(
            &bridge(&[("metrics", "${meta.wrong_network}")]),
            &bridged,
            rules
        ),
        Err(NetworkMiss::HostNetwork {
            name: "empty".into(),
            port: "metrics".into()
        })
    );
    assert_eq!(
        network(
            &bridge(&[("metrics", "${meta.private_network}-nonexisting")]),
            &bridged,
            rules
        ),
        Err(NetworkMiss::InvalidHostNetwork {
            template: "${meta.private_network}-nonexisting".into(),
            port: "metrics".into()
        })
    );
}

/// #14300 (v1.4.2 scheduler/feasible.go:386, v1.5.0 :393): a group
/// whose network mode is `none` needs no network on the node; before, it
/// needed a fingerprinted network of mode `none`, which no client has.
#[test]
fn feasible_test_go_v1_4_2_v1_5_0_network_checker_mode_none() {
    let nodes = [node("bridge"), node("cni/mynet")];
    let none = mode("none");
    for release in [v(1, 3, 0), v(1, 4, 1)] {
        assert_eq!(feasible(&none, &nodes, release), [false, false]);
    }
    for release in [v(1, 4, 2), v(1, 5, 0), v(2, 0, 5)] {
        assert_eq!(feasible(&none, &nodes, release), [true, true]);
    }
    let bare: Node = parse(json!({"ID": "bare", "Status": "ready"}));
    assert!(network(&none, &bare, TargetRules::of(v(2, 0, 5))).is_ok());
}
