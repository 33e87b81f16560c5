//! nomad/structs/services_test.go (v1.3.0, v1.10.5): the gateway block
//! checks (`TestConsulGateway_Validate` and the blocks under it).

use serde_json::{Value, json};

use super::super::gateway_validate::gateway_error;
use super::rules_of;
use crate::model::{Release, v};

fn check(gw: Value, release: Release) -> Option<String> {
    gateway_error(gw.as_object().unwrap(), rules_of(release))
}

fn ingress(listener: Value) -> Value {
    json!({"Ingress": {"Listeners": [listener]}})
}

#[test]
fn services_test_go_v1_10_5_consul_gateway_validate() {
    let r = v(1, 10, 5);
    let cases = [
        (
            json!({"Proxy": {"ConnectTimeout": null}}),
            Some("Consul Gateway Proxy connection_timeout must be set"),
        ),
        (
            json!({"Ingress": {"Listeners": null}}),
            Some("Consul Ingress Gateway requires at least one listener"),
        ),
        (
            json!({"Terminating": {"Services": null}}),
            Some("Consul Terminating Gateway requires at least one service"),
        ),
        (
            json!({}),
            Some("One Consul Gateway Configuration must be set"),
        ),
        (
            json!({"Ingress": {"Listeners": [{"Port": 1111, "Protocol": "tcp", "Services": [{"Name": "service1"}]}]},
                   "Terminating": {"Services": [{"Name": "linked-service1"}]}}),
            Some("One Consul Gateway Configuration must be set"),
        ),
        (json!({"Mesh": {}}), None),
    ];
    for (gw, want) in cases {
        assert_eq!(check(gw.clone(), r).as_deref(), want, "{gw}");
    }
}

#[test]
fn services_test_go_v1_10_5_gateway_proxy_and_bind_address_validate() {
    let r = v(1, 10, 5);
    let proxy = |p: Value| json!({"Proxy": p, "Mesh": {}});
    let s = 1_000_000_000_i64;
    let cases = [
        (
            json!({"ConnectTimeout": s, "EnvoyGatewayBindAddresses": {"service1": {"Address": "", "Port": 2000}}}),
            Some("Consul Gateway Bind Address must be set"),
        ),
        (
            json!({"ConnectTimeout": s, "EnvoyGatewayBindAddresses": {"service1": {"Address": "10.0.0.1", "Port": 0}}}),
            Some("Consul Gateway Bind Address must set valid Port"),
        ),
        (
            json!({"ConnectTimeout": s, "EnvoyGatewayBindAddresses": {"service1": {"Address": "10.0.0.1", "Port": -1}}}),
            None,
        ),
        (
            json!({"ConnectTimeout": s, "EnvoyDNSDiscoveryType": "RANDOM_DNS"}),
            Some("Consul Gateway Proxy Envoy DNS Discovery type must be STRICT_DNS or LOGICAL_DNS"),
        ),
        (
            json!({"ConnectTimeout": s, "EnvoyDNSDiscoveryType": "LOGICAL_DNS"}),
            None,
        ),
    ];
    for (p, want) in cases {
        assert_eq!(check(proxy(p.clone()), r).as_deref(), want, "{p}");
    }
}

#[test]
fn services_test_go_v1_10_5_ingress_listener_and_service_validate() {
    let r = v(1, 10, 5);
    let listener = |port: i64, protocol: &str, services: Value| {
        ingress(json!({"Port": port, "Protocol": protocol, "Services": services}))
    };
    let cases = [
        (
            listener(0, "tcp", json!([{"Name": "s"}])),
            Some("Consul Ingress Listener requires valid Port"),
        ),
        (
            listener(2000, "gopher", json!([{"Name": "s"}])),
            Some(
                r#"Consul Ingress Listener requires protocol of tcp, http, http2, grpc, got "gopher""#,
            ),
        ),
        (
            listener(2000, "tcp", json!([])),
            Some("Consul Ingress Listener requires one or more services"),
        ),
        (
            listener(2000, "http", json!([{"Name": ""}])),
            Some("Consul Ingress Service requires a name"),
        ),
        (
            listener(2000, "tcp", json!([{"Name": "s", "Hosts": ["a.example"]}])),
            Some(
                r#"Consul Ingress Service doesn't support associating hosts to a service for the "tcp" protocol"#,
            ),
        ),
        (
            listener(2000, "tcp", json!([{"Name": "*"}])),
            Some(r#"Consul Ingress Service doesn't support wildcard name for "tcp" protocol"#),
        ),
        (
            listener(2000, "http", json!([{"Name": "*", "Hosts": ["a.example"]}])),
            Some(
                r#"Consul Ingress Service with a wildcard "*" service name can not also specify hosts"#,
            ),
        ),
        (listener(2000, "http", json!([{"Name": "s"}])), None),
    ];
    for (gw, want) in cases {
        assert_eq!(check(gw.clone(), r).as_deref(), want, "{gw}");
    }
}

/// #15749: before 1.3.10 an HTTP listener's service other than `*` needs
/// hosts, and `*` with hosts passes.
#[test]
fn services_test_go_v1_3_0_ingress_service_http_missing_hosts() {
    let gw = |name: &str, hosts: Value| {
        ingress(
            json!({"Port": 2000, "Protocol": "http", "Services": [{"Name": name, "Hosts": hosts}]}),
        )
    };
    assert_eq!(
        check(gw("service1", json!(null)), v(1, 3, 0)).as_deref(),
        Some(r#"Consul Ingress Service requires one or more hosts when using "http" protocol"#)
    );
    assert_eq!(check(gw("service1", json!(null)), v(1, 3, 10)), None);
    assert_eq!(check(gw("*", json!(["a.example"])), v(1, 3, 0)), None);
    assert!(check(gw("*", json!(["a.example"])), v(1, 4, 5)).is_some());
    assert!(check(gw("service1", json!(null)), v(1, 4, 4)).is_some());
}

#[test]
fn services_test_go_v1_10_5_consul_linked_service_validate() {
    let r = v(1, 10, 5);
    let linked = |s: Value| json!({"Terminating": {"Services": [s]}});
    let cases = [
        (
            json!({"Name": ""}),
            Some("Consul Linked Service requires Name"),
        ),
        (
            json!({"Name": "linked", "CertFile": "c.pem", "KeyFile": "k.pem"}),
            Some("Consul Linked Service TLS requires CAFile"),
        ),
        (
            json!({"Name": "linked", "CAFile": "ca.pem", "CertFile": "c.pem"}),
            Some("Consul Linked Service TLS Cert and Key must both be set"),
        ),
        (
            json!({"Name": "linked", "SNI": "linked.consul"}),
            Some("Consul Linked Service TLS SNI requires CAFile"),
        ),
        (
            json!({"Name": "linked", "CAFile": "ca.pem", "CertFile": "c.pem", "KeyFile": "k.pem", "SNI": "x"}),
            None,
        ),
    ];
    for (s, want) in cases {
        assert_eq!(check(linked(s.clone()), r).as_deref(), want, "{s}");
    }
}
