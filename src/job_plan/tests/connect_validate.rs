//! nomad/job_endpoint_hook_connect_test.go (v1.3.0, v1.8.0, v1.8.1,
//! v1.10.5, v2.0.5): the Connect validator's group checks, through
//! `connect_error` on a job of one group.

use serde_json::{Value, json};

use super::super::connect_validate::connect_error;
use super::rules_of;
use crate::model::{Release, v};

/// The validator's answer for a job whose only group is `group`.
fn check(group: Value, release: Release) -> Option<String> {
    let job = json!({"ID": "j", "TaskGroups": [group]});
    connect_error(job.as_object().expect("object"), rules_of(release))
}

fn sidecar(name: &str) -> Value {
    json!({"Name": name, "Connect": {"SidecarService": {}}})
}

fn upstreams(name: &str, ups: &[(&str, i64)]) -> Value {
    let ups: Vec<Value> = ups
        .iter()
        .map(|(a, p)| json!({"LocalBindAddress": a, "LocalBindPort": p}))
        .collect();
    json!({"Name": name, "Connect": {"SidecarService": {"Proxy": {"Upstreams": ups}}}})
}

fn tproxy(name: &str, tp: Value) -> Value {
    json!({"Name": name, "Connect": {"SidecarService": {"Proxy": {"TransparentProxy": tp}}}})
}

#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_group_connect_sidecar_validate() {
    let r = v(2, 0, 5);
    let g = |name: &str, networks: Value, service: Value| json!({"Name": name, "Networks": networks, "Services": [service]});
    assert_eq!(
        check(g("g1", json!([]), sidecar("s1")), r).as_deref(),
        Some(
            r#"connect sidecar: must have exactly one network for Consul Connect: group "g1" has 0 networks"#
        )
    );
    assert_eq!(
        check(g("g2", json!([{"Mode": "host"}]), sidecar("s1")), r).as_deref(),
        Some(
            r#"connect sidecar: invalid network mode for Consul Connect: group "g2" uses network mode "host"; must be "bridge" or "cni/*""#
        )
    );
    assert_eq!(
        check(g("g3", json!([{"Mode": "bridge"}]), sidecar("s1")), r),
        None
    );
    assert_eq!(
        check(g("g4", json!([{"Mode": "cni/test-net"}]), sidecar("s1")), r),
        None
    );
    let bridge = json!([{"Mode": "bridge"}]);
    assert_eq!(
        check(
            g("group", bridge.clone(), json!({"Name": "Other-Service"})),
            r
        ),
        None,
        "not a Connect service"
    );
    assert_eq!(
        check(g("group", bridge.clone(), sidecar("Connect-Service")), r).as_deref(),
        Some(
            r#"Consul Connect service name "Connect-Service" in group "group" must not contain uppercase characters"#
        )
    );
    assert_eq!(
        check(
            g(
                "Other-Group",
                bridge.clone(),
                json!({"Name": "other-service"})
            ),
            r
        ),
        None
    );
    assert_eq!(
        check(
            g("Connect-Group", bridge.clone(), sidecar("connect-service")),
            r
        )
        .as_deref(),
        Some(
            r#"Consul Connect group "Connect-Group" with service "connect-service" must not contain uppercase characters"#
        )
    );
    assert_eq!(
        check(g("connect-group", bridge, sidecar("other-service")), r),
        None
    );
}

#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_connect_group_overlap_upstreams() {
    let group = json!({
        "Name": "connect-group", "Networks": [{"Mode": "bridge"}],
        "Services": [upstreams("s1", &[("", 8999)]), upstreams("s2", &[("", 8999)])]
    });
    assert_eq!(
        check(group, v(2, 0, 5)).as_deref(),
        Some(
            r#"Consul Connect services "s2" and "s1" in group "connect-group" using same address for upstreams (:8999)"#
        )
    );
}

/// The sidecar's network checks before #26449.
#[test]
fn job_endpoint_hook_connect_test_go_v1_10_5_group_connect_sidecar_validate() {
    for r in [v(1, 3, 0), v(1, 10, 5)] {
        let g = |networks: Value| json!({"Name": "g1", "Networks": networks, "Services": [sidecar("s1")]});
        assert_eq!(
            check(g(json!([])), r).as_deref(),
            Some(r#"Consul Connect sidecars require exactly 1 network, found 0 in group "g1""#)
        );
        assert_eq!(
            check(g(json!([{"Mode": "host"}])), r).as_deref(),
            Some(r#"Consul Connect sidecar requires bridge network, found "host" in group "g1""#)
        );
        assert!(
            check(g(json!([{"Mode": "cni/test-net"}])), r).is_some(),
            "{r}"
        );
        assert_eq!(check(g(json!([{"Mode": "bridge"}])), r), None);
    }
}

#[test]
fn job_endpoint_hook_connect_test_go_v1_10_5_group_connect_gateway_validate() {
    let gateway = json!({"Name": "gw", "Connect": {"Gateway": {"Ingress": {}}}});
    let g = |networks: Value| json!({"Name": "g1", "Networks": networks, "Services": [gateway.clone()]});
    let r = v(1, 10, 5);
    assert_eq!(
        check(g(json!([])), r).as_deref(),
        Some(r#"Consul Connect gateways require exactly 1 network, found 0 in group "g1""#)
    );
    assert_eq!(
        check(g(json!([{"Mode": ""}])), r).as_deref(),
        Some(
            r#"Consul Connect Gateway service requires Task Group with network mode of type "bridge" or "host""#
        )
    );
    for good in ["bridge", "host"] {
        assert_eq!(check(g(json!([{"Mode": good}])), r), None);
    }
    assert!(check(g(json!([{"Mode": "cni/test-net"}])), r).is_some());
}

#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_group_connect_gateway_validate() {
    let gateway = json!({"Name": "gw", "Connect": {"Gateway": {"Ingress": {}}}});
    let g = |networks: Value| json!({"Name": "g1", "Networks": networks, "Services": [gateway.clone()]});
    let r = v(2, 0, 5);
    assert_eq!(
        check(g(json!([])), r).as_deref(),
        Some(
            r#"connect gateway: must have exactly one network for Consul Connect: group "g1" has 0 networks"#
        )
    );
    assert_eq!(
        check(g(json!([{"Mode": ""}])), r).as_deref(),
        Some(
            r#"connect gateway: invalid network mode for Consul Connect: group "g1" uses network mode ""; must be "bridge", "host", or "cni/*""#
        )
    );
    for good in ["bridge", "host", "cni/test-net"] {
        assert_eq!(check(g(json!([{"Mode": good}])), r), None);
    }
}

#[test]
fn job_endpoint_hook_connect_test_go_v1_10_5_group_connect_upstreams_validate() {
    let r = v(1, 10, 5);
    let g = |services: Value| json!({"Name": "group", "Services": services});
    assert_eq!(check(g(json!([{"Name": "s1"}, {"Name": "s2"}])), r), None);
    let apart = json!([
        upstreams("s1", &[("127.0.0.1", 9001), ("127.0.0.1", 9002)]),
        upstreams("s2", &[("10.0.0.1", 9001), ("127.0.0.1", 9003)]),
    ]);
    // Sidecars without a network fail their own check first; the upstream
    // rule is reached through a bridge group.
    let bridged = |services: Value| json!({"Name": "group", "Networks": [{"Mode": "bridge"}], "Services": services});
    assert_eq!(check(bridged(apart), r), None);
    let overlap = json!([
        upstreams("s1", &[("127.0.0.1", 9001), ("127.0.0.1", 9002)]),
        upstreams("s2", &[("127.0.0.1", 9002), ("127.0.0.1", 9003)]),
    ]);
    assert_eq!(
        check(bridged(overlap), r).as_deref(),
        Some(
            r#"Consul Connect services "s2" and "s1" in group "group" using same address for upstreams (127.0.0.1:9002)"#
        )
    );
    let excluded = json!({
        "Name": "group",
        "Networks": [{"Mode": "bridge", "ReservedPorts": [{"Label": "www"}]}],
        "Services": [tproxy("s1", json!({"ExcludeInboundPorts": ["www", "9000", "no-such-label"]}))]
    });
    assert_eq!(
        check(excluded, r).as_deref(),
        Some(
            r#"Consul Connect transparent proxy port "no-such-label" must be numeric or one of network.port labels"#
        )
    );
    let two = json!({
        "Name": "group", "Networks": [{"Mode": "bridge"}],
        "Services": [{"Name": "s1", "Connect": {}}, tproxy("s2", json!({}))]
    });
    assert_eq!(
        check(two, r).as_deref(),
        Some("Consul Connect transparent proxy requires there is only one connect block")
    );
    let dns = |no_dns: bool| {
        json!({
            "Name": "group", "Networks": [{"Mode": "bridge", "DNS": {"Servers": ["1.1.1.1"]}}],
            "Services": [tproxy("s1", json!({"NoDNS": no_dns}))]
        })
    };
    assert_eq!(
        check(dns(false), r).as_deref(),
        Some("Consul Connect transparent proxy cannot be used with network.dns unless no_dns=true")
    );
    assert_eq!(check(dns(true), r), None);
}

/// #20244: before 1.8.0 a transparent proxy is not validated (the block
/// does not exist in those releases' jobs).
#[test]
fn job_endpoint_hook_connect_test_go_v1_8_0_tproxy_checks_start_at_1_8_0() {
    let two = json!({
        "Name": "group", "Networks": [{"Mode": "bridge"}],
        "Services": [{"Name": "s1", "Connect": {}}, tproxy("s2", json!({}))]
    });
    assert!(check(two.clone(), v(1, 8, 0)).is_some());
    assert_eq!(check(two, v(1, 7, 7)), None);
}

/// #16550: an IPv6 upstream address is written in brackets from 1.3.14
/// (and 1.4.9, 1.5.4, 1.6.0).
#[test]
fn job_endpoint_hook_connect_test_go_v1_6_0_upstream_ipv6_host_port() {
    let group = json!({
        "Name": "group", "Networks": [{"Mode": "bridge"}],
        "Services": [upstreams("s1", &[("::1", 9001)]), upstreams("s2", &[("::1", 9001)])]
    });
    let at = |r| check(group.clone(), r).expect("collides");
    assert!(at(v(1, 6, 0)).ends_with("([::1]:9001)"));
    assert!(at(v(1, 3, 14)).ends_with("([::1]:9001)"));
    assert!(at(v(1, 5, 3)).ends_with("(::1:9001)"));
    assert!(at(v(1, 3, 0)).ends_with("(::1:9001)"));
}

/// #22312: upstreams on unix sockets collide on `:0` until 1.8.1.
#[test]
fn job_endpoint_hook_connect_test_go_v1_8_1_multiple_local_bind_socket_paths() {
    let socket = |name: &str, path: &str| {
        json!({"Name": name, "Connect": {"SidecarService": {"Proxy": {"Upstreams": [
            {"LocalBindSocketPath": path, "LocalBindSocketMode": "0700"}]}}}})
    };
    let group = json!({
        "Name": "group", "Networks": [{"Mode": "bridge"}],
        "Services": [socket("s1", "/tmp/a.sock"), socket("s2", "/tmp/b.sock")]
    });
    assert_eq!(check(group.clone(), v(1, 8, 1)), None);
    assert_eq!(
        check(group, v(1, 8, 0)).as_deref(),
        Some(
            r#"Consul Connect services "s2" and "s1" in group "group" using same address for upstreams (:0)"#
        )
    );
    let same = json!({
        "Name": "group", "Networks": [{"Mode": "bridge"}],
        "Services": [socket("s1", "/tmp/a.sock"), socket("s2", "/tmp/a.sock")]
    });
    assert!(check(same, v(1, 8, 1)).unwrap().ends_with("(/tmp/a.sock)"));
}

#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_native_task_checked_by_the_validator() {
    let native = json!({"Name": "s1", "Connect": {"Native": true}});
    let group = |tasks: Value| json!({"Name": "g1", "Services": [native.clone()], "Tasks": tasks});
    let r = v(2, 0, 5);
    assert_eq!(check(group(json!([{"Name": "t1"}])), r), None);
    assert_eq!(
        check(group(json!([{"Name": "t1"}, {"Name": "t2"}])), r).as_deref(),
        Some("task for Consul Connect Native service g1->s1 is ambiguous and must be set")
    );
}
