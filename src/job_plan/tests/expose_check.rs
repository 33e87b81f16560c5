//! nomad/job_endpoint_hook_expose_check_test.go (v1.10.5, v2.0.5): the
//! expose-check mutator and validator; nomad/structs/services_test.go's
//! check hash, with digests computed outside plan-inspect.

use serde_json::{Map, Value, json};

use super::super::check_hash::check_hash;
use super::super::expose_check::{expose_checks, expose_error};
use super::rules_of;
use crate::model::{Release, v};

fn job(groups: Value) -> Map<String, Value> {
    json!({"ID": "j", "TaskGroups": groups})
        .as_object()
        .cloned()
        .expect("object")
}

fn mutate(groups: Value, release: Release) -> Result<Map<String, Value>, String> {
    let mut j = job(groups);
    expose_checks(&mut j, release).map(|()| j)
}

fn check1_expose() -> Value {
    json!({"Name": "s1-check1", "Type": "http", "Expose": true})
}

#[test]
fn job_endpoint_hook_expose_check_test_go_v1_10_5_validate() {
    let r = rules_of(v(1, 10, 5));
    let s1 = json!({"Name": "s1", "Checks": [check1_expose()]});
    let double = json!([{"Name": "g1", "Networks": [{"Mode": "bridge"}, {"Mode": "bridge"}],
                         "Services": [s1]}]);
    assert_eq!(
        expose_error(&job(double), r).as_deref(),
        Some(r#"group "g1" must specify one bridge network for exposing service check(s)"#)
    );
    let host = json!([{"Name": "g1", "Networks": [{"Mode": "host"}], "Services": [s1]}]);
    assert_eq!(
        expose_error(&job(host), r).as_deref(),
        Some(r#"group "g1" must use bridge network for exposing service check(s)"#)
    );
    let in_task = json!([{"Name": "g1", "Networks": [{"Mode": "bridge"}],
        "Tasks": [{"Name": "t1", "Services": [{"Name": "s2",
            "Checks": [{"Name": "s2-check1", "Type": "http", "Expose": true}]}]}]}]);
    assert_eq!(
        expose_error(&job(in_task), r).as_deref(),
        Some("exposed service check g1[t1]->s2->s2-check1 is not a task-group service")
    );
    let no_sidecar = json!([{"Name": "g1", "Networks": [{"Mode": "bridge"}], "Services": [s1]}]);
    assert_eq!(
        expose_error(&job(no_sidecar), r).as_deref(),
        Some("exposed service check g1->s1->s1-check1 requires use of sidecar_proxy")
    );
    let ok = json!([{"Name": "g1", "Networks": [{"Mode": "bridge"}],
        "Services": [{"Name": "s1", "Connect": {"SidecarService": {}},
                      "Checks": [{"Name": "check1", "Type": "http", "Expose": true}]}],
        "Tasks": [{"Name": "t1", "Services": [{"Name": "s2",
            "Checks": [{"Name": "s2-check1", "Type": "http", "Expose": false}]}]}]}]);
    assert_eq!(expose_error(&job(ok), r), None);
}

/// #26449: from 1.11.0 a `cni/*` network carries exposed checks, and the
/// errors name the Connect network rule.
#[test]
fn job_endpoint_hook_expose_check_test_go_v2_0_5_validate() {
    let r = rules_of(v(2, 0, 5));
    let s1 = json!({"Name": "s1", "Connect": {"SidecarService": {}}, "Checks": [check1_expose()]});
    let group =
        |networks: Value| job(json!([{"Name": "g1", "Networks": networks, "Services": [s1]}]));
    assert_eq!(
        expose_error(&group(json!([{"Mode": "bridge"}, {"Mode": "bridge"}])), r).as_deref(),
        Some(
            r#"connect expose check: must have exactly one network for Consul Connect: group "g1" has 2 networks"#
        )
    );
    assert_eq!(
        expose_error(&group(json!([{"Mode": "host"}])), r).as_deref(),
        Some(
            r#"connect expose check: invalid network mode for Consul Connect: group "g1" uses network mode "host"; must be "bridge" or "cni/*""#
        )
    );
    assert_eq!(expose_error(&group(json!([{"Mode": "cni/mesh"}])), r), None);
    assert!(expose_error(&group(json!([{"Mode": "cni/mesh"}])), rules_of(v(1, 10, 5))).is_some());
}

#[test]
fn job_endpoint_hook_expose_check_test_go_v1_10_5_mutate_typical() {
    let groups = json!([
        {"Name": "group0", "Networks": [{"Mode": "host"}]},
        {"Name": "group1", "Networks": [{"Mode": "bridge"}], "Services": [
            {"Name": "service1", "PortLabel": "8000", "Checks": [
                {"Name": "check1", "Type": "tcp", "PortLabel": "8100"},
                {"Name": "check2", "Type": "http", "PortLabel": "health", "Path": "/health", "Expose": true},
                {"Name": "check3", "Type": "grpc", "PortLabel": "health", "Path": "/v2/health", "Expose": true}],
             "Connect": {"SidecarService": {"Proxy": {"Expose": {"Paths": [
                {"Path": "/pre-existing", "Protocol": "http", "LocalPathPort": 9000, "ListenerPort": "otherPort"}]}}}}},
            {"Name": "service2", "PortLabel": "3000", "Checks": [
                {"Name": "check1", "Type": "grpc", "Protocol": "http2", "Path": "/ok", "PortLabel": "health", "Expose": true}],
             "Connect": {"SidecarService": {"Proxy": {}}}}]}
    ]);
    let out = mutate(groups, v(1, 10, 5)).expect("mutates");
    let g = &out["TaskGroups"][1];
    assert_eq!(
        g["Services"][0]["Connect"]["SidecarService"]["Proxy"]["Expose"]["Paths"],
        json!([
            {"Path": "/pre-existing", "Protocol": "http", "LocalPathPort": 9000, "ListenerPort": "otherPort"},
            {"Path": "/health", "Protocol": "", "LocalPathPort": 8000, "ListenerPort": "health"},
            {"Path": "/v2/health", "Protocol": "", "LocalPathPort": 8000, "ListenerPort": "health"}
        ])
    );
    assert_eq!(
        g["Services"][1]["Connect"]["SidecarService"]["Proxy"]["Expose"]["Paths"],
        json!([{"Path": "/ok", "Protocol": "http2", "LocalPathPort": 3000, "ListenerPort": "health"}])
    );
    // Running it again adds nothing (`containsExposePath`).
    let again = mutate(out["TaskGroups"].clone(), v(1, 10, 5)).expect("mutates");
    assert_eq!(again["TaskGroups"], out["TaskGroups"]);
}

fn one_check_group(check: Value, service_port: &str, networks: Value) -> Value {
    json!([{"Name": "group1", "Networks": networks, "Services": [
        {"Name": "service1", "PortLabel": service_port, "Checks": [check],
         "Connect": {"SidecarService": {}}}]}])
}

#[test]
fn job_endpoint_hook_expose_check_test_go_v1_10_5_expose_path_for_check() {
    let r = v(1, 10, 5);
    let check = json!({"Name": "check1", "Type": "http", "Path": "/health", "PortLabel": "hcPort", "Expose": true});
    let bridge = json!([{"Mode": "bridge"}]);
    let path = |out: &Map<String, Value>| {
        out["TaskGroups"][0]["Services"][0]["Connect"]["SidecarService"]["Proxy"]["Expose"]["Paths"]
            [0]
        .clone()
    };
    // Direct port.
    let out = mutate(one_check_group(check.clone(), "4000", bridge.clone()), r).unwrap();
    assert_eq!(
        path(&out),
        json!({"Path": "/health", "Protocol": "", "LocalPathPort": 4000, "ListenerPort": "hcPort"})
    );
    // Labeled port.
    let labeled = json!([{"Mode": "bridge", "DynamicPorts": [{"Label": "sPort", "Value": 4000}]}]);
    let out = mutate(one_check_group(check.clone(), "sPort", labeled), r).unwrap();
    assert_eq!(path(&out)["LocalPathPort"], 4000);
    // Missing port.
    assert_eq!(
        mutate(one_check_group(check.clone(), "sPort", bridge.clone()), r).unwrap_err(),
        "unable to determine local service port for service check group1->service1->check1"
    );
    // A dynamic port with no value yet is no local port (Nomad reads only
    // the value), so a label on a dynamic port fails too.
    let dynamic = json!([{"Mode": "bridge", "DynamicPorts": [{"Label": "sPort", "To": 8080}]}]);
    assert!(mutate(one_check_group(check.clone(), "sPort", dynamic), r).is_err());
    // Not exposable: nothing added.
    let tcp = json!({"Name": "check1", "Type": "tcp", "Expose": true});
    let out = mutate(one_check_group(tcp, "4000", bridge.clone()), r).unwrap();
    assert!(
        out["TaskGroups"][0]["Services"][0]["Connect"]["SidecarService"]
            .get("Proxy")
            .is_none()
    );
    // Missing network.
    let no_port = json!({"Name": "check1", "Type": "http", "Path": "/health", "Expose": true});
    assert_eq!(
        mutate(one_check_group(no_port, "9999", json!(null)), r).unwrap_err(),
        r#"group "group1" must specify one bridge network for exposing service check(s)"#
    );
}

/// The generated port of a check without one: `svc_<service>_ck_` and six
/// hex digits of the check's hash, on the default host network.
#[test]
fn job_endpoint_hook_expose_check_test_go_v1_10_5_empty_check_port() {
    let check = json!({"Name": "check1", "Type": "http", "Path": "/health", "Expose": true});
    let groups = one_check_group(
        check,
        "9999",
        json!([{"Mode": "bridge", "DynamicPorts": []}]),
    );
    for (release, label) in [
        (v(1, 10, 5), "svc_service1_ck_6737db"),
        (v(2, 0, 4), "svc_service1_ck_6737db"),
        (v(2, 0, 5), "svc_service1_ck_a8e990"),
    ] {
        let out = mutate(groups.clone(), release).unwrap();
        let g = &out["TaskGroups"][0];
        assert_eq!(
            g["Networks"][0]["DynamicPorts"],
            json!([{"Label": label, "Value": 0, "To": -1, "HostNetwork": "default"}]),
            "{release}"
        );
        assert_eq!(g["Services"][0]["Checks"][0]["PortLabel"], label);
        assert_eq!(
            g["Services"][0]["Connect"]["SidecarService"]["Proxy"]["Expose"]["Paths"],
            json!([{"Path": "/health", "Protocol": "", "LocalPathPort": 9999, "ListenerPort": label}])
        );
    }
}

/// `ServiceCheck.Hash`: every field in Nomad's order; the digests are
/// Python's hashlib over the text Nomad's code builds.
#[test]
fn services_test_go_v1_10_5_service_check_hash() {
    let check = json!({"Name": "check1", "Type": "http", "Path": "/health"});
    let c = check.as_object().unwrap();
    assert!(check_hash(c, "service1_0", v(1, 10, 5)).starts_with("6737db"));
    assert!(check_hash(c, "service1_1", v(1, 10, 5)).starts_with("393dcd"));
    assert!(check_hash(c, "service1_1", v(2, 0, 5)).starts_with("dbee9f"));
    let full = json!({
        "Name": "api-health", "Type": "http", "Path": "/health",
        "Interval": 10_000_000_000_i64, "Timeout": 2_000_000_000_i64,
        "Method": "GET", "OnUpdate": "require_healthy", "TLSSkipVerify": false,
        "Header": {"X-A": ["a", ",b"], "Authorization": ["Bearer x"]},
        "SuccessBeforePassing": 2, "Expose": true
    });
    let c = full.as_object().unwrap();
    assert!(check_hash(c, "api_0", v(1, 10, 5)).starts_with("b27832"));
    assert!(check_hash(c, "api_0", v(2, 0, 5)).starts_with("e312fd"));
}
