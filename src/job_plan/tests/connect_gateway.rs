//! nomad/job_endpoint_hook_connect_test.go (v2.0.5, v1.11.0): the
//! gateways' injected tasks, ports and proxy blocks.

use serde_json::{Map, Value, json};

use super::super::connect::connect;
use super::super::connect_gateway::proxy;
use super::connect::{S, job_with, mutated};
use crate::model::v;

/// The gateway task Nomad builds (`newConnectGatewayTask` then
/// `Task.Canonicalize`), written from the Go code.
fn gateway_task(prefix: &str, host: bool, tls: bool, restart: &Value) -> Value {
    let mut config = json!({
        "image": "${meta.connect.gateway_image}",
        "args": ["-c", "${NOMAD_SECRETS_DIR}/envoy_bootstrap.json",
                 "-l", "${meta.connect.log_level}",
                 "--concurrency", "${meta.connect.proxy_concurrency}",
                 "--disable-hot-restart"]
    });
    if host {
        config["network_mode"] = json!("host");
    }
    let mut constraints = vec![
        json!({"LTarget": "${attr.consul.version}", "RTarget": ">= 1.8.0", "Operand": "semver"}),
        json!({"LTarget": "${attr.consul.grpc}", "RTarget": "0", "Operand": ">"}),
    ];
    if tls {
        constraints.push(
            json!({"LTarget": "${attr.consul.version}", "RTarget": ">= 1.11.2", "Operand": "semver"}),
        );
    }
    json!({
        "Name": format!("{prefix}-my-gateway"),
        "Kind": format!("{prefix}:my-gateway"),
        "Driver": "docker",
        "Config": config,
        "ShutdownDelay": 5 * S,
        "KillTimeout": 5 * S,
        "LogConfig": {"MaxFiles": 2, "MaxFileSizeMB": 2, "Disabled": false},
        "Resources": {"CPU": 250, "MemoryMB": 128},
        "Constraints": constraints,
        "RestartPolicy": restart,
    })
}

/// `mock.Connect*GatewayJob`'s group: one gateway service, no task.
fn gateway_group(mode: &str, gateway: Value, port: &str) -> Value {
    json!({
        "Name": "group", "Networks": [{"Mode": mode}],
        "Services": [{"Name": "${NOMAD_META_gateway_name}", "PortLabel": port,
                      "Connect": {"Gateway": gateway}}]
    })
}

fn ingress() -> Value {
    json!({"Proxy": {"ConnectTimeout": 3 * S},
           "Ingress": {"Listeners": [{"Port": 2000, "Protocol": "tcp",
                                      "Services": [{"Name": "service1"}]}]}})
}

fn gateway_job(group: Value) -> Map<String, Value> {
    let job = job_with(group, json!({"gateway_name": "my-gateway"}));
    let job = mutated(job, v(2, 0, 5)).unwrap();
    let mut again = job.clone();
    connect(&mut again, v(2, 0, 5)).unwrap();
    assert_eq!(again, job, "the hook is idempotent");
    job
}

/// `TestJobEndpointConnect_groupConnectHook_IngressGateway_BridgeNetwork`
/// and `_HostNetwork`.
#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_group_connect_hook_ingress_gateway() {
    let mut tls = ingress();
    tls["Ingress"]["TLS"] = json!({"Enabled": true, "TLSMinVersion": "TLSv1_2"});
    let job = gateway_job(gateway_group("bridge", tls, ""));
    let g = &job["TaskGroups"][0];
    let want = gateway_task("connect-ingress", false, true, &g["RestartPolicy"]);
    assert_eq!(g["Tasks"], json!([want]));
    assert_eq!(g["Services"][0]["Name"], "my-gateway");
    assert_eq!(
        g["Services"][0]["Connect"]["Gateway"]["Proxy"],
        json!({"ConnectTimeout": 3 * S, "EnvoyGatewayNoDefaultBind": true,
               "EnvoyGatewayBindTaggedAddresses": false,
               "EnvoyGatewayBindAddresses": {"service1": {"Address": "0.0.0.0", "Port": 2000}}})
    );
    let job = gateway_job(gateway_group("host", ingress(), ""));
    let g = &job["TaskGroups"][0];
    let want = gateway_task("connect-ingress", true, false, &g["RestartPolicy"]);
    assert_eq!(g["Tasks"], json!([want]));
    assert_eq!(
        g["Services"][0]["Connect"]["Gateway"]["Proxy"],
        json!({"ConnectTimeout": 3 * S, "EnvoyGatewayNoDefaultBind": false,
               "EnvoyGatewayBindTaggedAddresses": false, "EnvoyGatewayBindAddresses": null})
    );
}

/// `TestJobEndpointConnect_groupConnectHook_TerminatingGateway` and
/// `_MeshGateway`; a terminating gateway without a port gets one.
#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_group_connect_hook_terminating_and_mesh() {
    let terminating = json!({"Terminating": {"Services": [{"Name": "service1"}]}});
    let job = gateway_job(gateway_group("bridge", terminating.clone(), "port"));
    let g = &job["TaskGroups"][0];
    let want = gateway_task("connect-terminating", false, false, &g["RestartPolicy"]);
    assert_eq!(g["Tasks"], json!([want]));
    assert!(
        g["Networks"][0]["DynamicPorts"].is_null(),
        "the port is given"
    );
    let job = gateway_job(gateway_group("bridge", terminating, ""));
    let g = &job["TaskGroups"][0];
    assert_eq!(
        g["Services"][0]["PortLabel"],
        "connect-terminating-my-gateway"
    );
    assert_eq!(
        g["Networks"][0]["DynamicPorts"][0]["Label"],
        "connect-terminating-my-gateway"
    );
    let mesh = json!({"Mesh": {}});
    let job = gateway_job(gateway_group("bridge", mesh.clone(), "public_port"));
    let g = &job["TaskGroups"][0];
    let want = gateway_task("connect-mesh", false, false, &g["RestartPolicy"]);
    assert_eq!(g["Tasks"], json!([want]));
    assert_eq!(
        g["Networks"][0]["DynamicPorts"],
        json!([{"Label": "connect-mesh-my-gateway-lan", "Value": 0, "To": -1, "HostNetwork": "default"}])
    );
    let no_port = job_with(gateway_group("bridge", mesh, ""), json!({}));
    assert_eq!(
        mutated(no_port, v(2, 0, 5)).unwrap_err(),
        "service.port must be set for mesh gateway service"
    );
}

/// `TestJobEndpointConnect_gatewayProxy` (v2.0.5).
#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_gateway_proxy() {
    let obj = |v: Value| v.as_object().unwrap().clone();
    let listeners = json!({"Listeners": [{"Port": 3000, "Protocol": "tcp", "Services": [{"Name": "service1"}]}]});
    // nil proxy
    let got = proxy(&obj(json!({"Ingress": listeners})), true);
    assert_eq!(
        got,
        json!({"ConnectTimeout": 5 * S, "EnvoyGatewayNoDefaultBind": true,
               "EnvoyGatewayBindTaggedAddresses": false,
               "EnvoyGatewayBindAddresses": {"service1": {"Address": "0.0.0.0", "Port": 3000}}})
    );
    // ingress set defaults
    let given =
        json!({"Proxy": {"ConnectTimeout": 2 * S, "Config": {"foo": 1}}, "Ingress": listeners});
    assert_eq!(proxy(&obj(given), true)["Config"], json!({"foo": 1}));
    // ingress leave as-is
    let as_is = json!({"Config": {"foo": 1}, "EnvoyGatewayBindTaggedAddresses": true});
    let given = json!({"Proxy": as_is, "Ingress": listeners});
    assert_eq!(proxy(&obj(given), true), as_is);
    // terminating set defaults
    let given = json!({"Proxy": {"ConnectTimeout": 2 * S, "EnvoyDNSDiscoveryType": "STRICT_DNS"},
                       "Terminating": {"Services": [{"Name": "service1"}]}});
    assert_eq!(
        proxy(&obj(given), true),
        json!({"ConnectTimeout": 2 * S, "EnvoyDNSDiscoveryType": "STRICT_DNS",
               "EnvoyGatewayNoDefaultBind": true, "EnvoyGatewayBindTaggedAddresses": false,
               "EnvoyGatewayBindAddresses": {"default": {"Address": "0.0.0.0", "Port": -1}}})
    );
    // mesh set defaults in bridge, and in host
    let given = obj(json!({"Proxy": {"ConnectTimeout": 2 * S}, "Mesh": {}}));
    assert_eq!(
        proxy(&given, true)["EnvoyGatewayBindAddresses"],
        json!({"lan": {"Address": "0.0.0.0", "Port": -1}, "wan": {"Address": "0.0.0.0", "Port": -1}})
    );
    assert_eq!(
        proxy(&given, false),
        json!({"ConnectTimeout": 2 * S, "EnvoyGatewayNoDefaultBind": false,
               "EnvoyGatewayBindTaggedAddresses": false, "EnvoyGatewayBindAddresses": null})
    );
}

/// #26449: a gateway in a `cni/*` network binds as in a bridge one from
/// 1.11.0; before, as in a host one.
#[test]
fn job_endpoint_hook_connect_test_go_v1_11_0_gateway_in_a_cni_network() {
    let bound = |release| {
        let group = gateway_group("cni/mesh", ingress(), "");
        let job = mutated(job_with(group, json!({})), release).unwrap();
        job["TaskGroups"][0]["Services"][0]["Connect"]["Gateway"]["Proxy"]
            ["EnvoyGatewayNoDefaultBind"]
            .clone()
    };
    assert_eq!(
        (bound(v(1, 11, 0)), bound(v(1, 10, 5))),
        (json!(true), json!(false))
    );
}
