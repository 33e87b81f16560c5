//! nomad/structs/services_test.go's service and check validation cases
//! (`TestServiceCheck_validate_*`, `TestServiceCheck_validateNomad`,
//! `TestService_Validate`, `TestService_Validate_Address`) at the tags
//! named, and each release change of them at both sides.

use serde_json::{Value, json};

use super::super::group_service_validate::group_service_error;
use super::super::service_check::{consul_check_error, nomad_check_error};
use super::super::service_validate::task_service_error;
use super::rules_of;
use crate::model::{Release, v};

const S: i64 = 1_000_000_000;

fn consul(c: Value, r: Release) -> Option<String> {
    consul_check_error(c.as_object().unwrap(), rules_of(r))
}

fn nomad(c: Value, r: Release) -> Option<String> {
    nomad_check_error(c.as_object().unwrap(), rules_of(r))
}

/// The inner errors of one group service, joined by newlines.
fn service(s: Value, r: Release) -> String {
    let g = json!({"Name": "web", "Tasks": [{"Name": "t"}], "Services": [s]});
    group_service_error(g.as_object().unwrap(), rules_of(r)).unwrap_or_default()
}

fn check(kind: &str) -> Value {
    json!({"Name": "check", "Type": kind, "Path": "/path", "Command": "/nothing",
           "Interval": S, "Timeout": 2 * S})
}

fn with(mut c: Value, key: &str, value: Value) -> Value {
    c[key] = value;
    c
}

#[test]
fn services_test_go_v1_10_5_check_pass_fail_types() {
    let r = v(1, 10, 5);
    for kind in ["tcp", "http", "grpc"] {
        assert_eq!(
            consul(with(check(kind), "SuccessBeforePassing", json!(3)), r),
            None
        );
        let c = with(check(kind), "FailuresBeforeCritical", json!(3));
        assert_eq!(consul(with(c, "FailuresBeforeWarning", json!(2)), r), None);
    }
    let script = check("script");
    assert_eq!(consul(script.clone(), r), None);
    assert_eq!(
        consul(with(script.clone(), "SuccessBeforePassing", json!(3)), r).as_deref(),
        Some("success_before_passing not supported for check of type \"script\"")
    );
    assert_eq!(
        consul(with(script.clone(), "FailuresBeforeCritical", json!(3)), r).as_deref(),
        Some("failures_before_critical not supported for check of type \"script\"")
    );
    assert_eq!(
        consul(with(script, "FailuresBeforeWarning", json!(3)), r).as_deref(),
        Some("failures_before_warning not supported for check of type \"script\"")
    );
}

#[test]
fn services_test_go_v1_10_5_check_on_update_check_restart_conflict() {
    let r = v(1, 10, 5);
    let restart = |ignore: bool| json!({"IgnoreWarnings": ignore, "Limit": 3, "Grace": 5 * S});
    let c = |on: &str, ignore: bool| {
        with(
            with(check("script"), "CheckRestart", restart(ignore)),
            "OnUpdate",
            json!(on),
        )
    };
    assert_eq!(
        consul(c("ignore_warnings", false), r).as_deref(),
        Some(
            "on_update value \"ignore_warnings\" not supported with check_restart ignore_warnings value \"false\""
        )
    );
    assert_eq!(
        consul(c("ignore", false), r).as_deref(),
        Some("on_update value \"ignore\" is not compatible with check_restart")
    );
    assert_eq!(consul(c("ignore_warnings", true), r), None);
}

#[test]
fn services_test_go_v1_10_5_check_validate_nomad() {
    let r = v(1, 10, 5);
    let tcp = json!({"Type": "tcp", "Interval": 3 * S, "Timeout": S});
    let cases = [
        (
            json!({"Type": "grpc"}),
            Some("invalid check type (\"grpc\"), must be one of tcp, http"),
        ),
        (
            json!({"Type": "script"}),
            Some("invalid check type (\"script\"), must be one of tcp, http"),
        ),
        (
            with(tcp.clone(), "Expose", json!(true)),
            Some("expose may only be set for Consul service checks"),
        ),
        (
            with(tcp.clone(), "OnUpdate", json!("ignore_warnings")),
            Some("on_update may only be set to ignore_warnings for Consul service checks"),
        ),
        (
            with(tcp.clone(), "SuccessBeforePassing", json!(3)),
            Some("success_before_passing may only be set for Consul service checks"),
        ),
        (
            with(tcp.clone(), "FailuresBeforeCritical", json!(3)),
            Some("failures_before_critical may only be set for Consul service checks"),
        ),
        (
            with(tcp.clone(), "FailuresBeforeWarning", json!(3)),
            Some("failures_before_warning may only be set for Consul service checks"),
        ),
        (with(tcp.clone(), "CheckRestart", json!({})), None),
        (
            with(tcp.clone(), "CheckRestart", json!({"IgnoreWarnings": true})),
            Some("ignore_warnings on check_restart only supported for Consul service checks"),
        ),
        (
            with(tcp.clone(), "AddressMode", json!("driver")),
            Some("address_mode = driver may only be set for Consul service checks"),
        ),
        (
            json!({"Type": "http", "Interval": 3 * S, "Timeout": S, "Path": "/health", "Method": "POST"}),
            None,
        ),
        (
            json!({"Type": "http", "Interval": 3 * S, "Timeout": S, "Path": "/health", "Method": "post"}),
            None,
        ),
        (
            json!({"Type": "http", "Interval": 3 * S, "Timeout": S, "Path": "/health", "Method": "BAD"}),
            Some("method type \"BAD\" not supported in Nomad http check"),
        ),
        (
            with(tcp.clone(), "TLSServerName", json!("example.com")),
            Some("tls_server_name may only be set for Consul service checks"),
        ),
        (with(tcp, "TLSSkipVerify", json!(true)), None),
    ];
    for (c, want) in cases {
        assert_eq!(nomad(c.clone(), r).as_deref(), want, "{c}");
    }
}

/// The shared rules in order: type, path, interval, timeout, status,
/// address mode, on_update; Go's duration words.
#[test]
fn services_test_go_v1_10_5_check_common_rules() {
    let r = v(1, 10, 5);
    let http = check("http");
    let cases = [
        (
            with(http.clone(), "Path", json!("")),
            "http type must have http path",
        ),
        (
            with(http.clone(), "Path", json!("http://x/y")),
            "http type must have relative http path",
        ),
        (
            with(http.clone(), "Path", json!("/a%zz")),
            "http type must have valid http path",
        ),
        (
            with(check("script"), "Command", json!("")),
            "script type must have a valid script path",
        ),
        (
            with(http.clone(), "Interval", json!(0)),
            "missing required value interval. Interval cannot be less than 1s",
        ),
        (
            with(http.clone(), "Interval", json!(S / 2)),
            "interval (500ms) cannot be lower than 1s",
        ),
        (
            with(http.clone(), "Timeout", json!(0)),
            "missing required value timeout. Timeout cannot be less than 1s",
        ),
        (
            with(http.clone(), "Timeout", json!(S / 10)),
            "timeout (100ms) is lower than required minimum timeout 1s",
        ),
        (
            with(http.clone(), "InitialStatus", json!("ok")),
            "invalid initial check state (ok), must be one of \"passing\", \"warning\", \"critical\" or empty",
        ),
        (
            with(http.clone(), "AddressMode", json!("auto")),
            "invalid address_mode \"auto\" - auto only valid for services",
        ),
        (
            with(http.clone(), "AddressMode", json!("x")),
            "invalid address_mode \"x\"",
        ),
        (
            with(http.clone(), "OnUpdate", json!("x")),
            "on_update must be \"require_healthy\", \"ignore_warnings\", or \"ignore\"; got \"x\"",
        ),
        (
            with(
                http.clone(),
                "CheckRestart",
                json!({"Limit": -1, "Grace": -2}),
            ),
            "2 errors occurred:\n\t* limit must be greater than or equal to 0 but found -1\n\t* grace \
          period must be greater than or equal to 0 but found -2\n\n",
        ),
        (with(http.clone(), "Expose", json!(false)), ""),
        (
            with(check("tcp"), "Expose", json!(true)),
            "expose may only be set on HTTP or gRPC checks",
        ),
        (
            with(http, "Type", json!("docker")),
            "invalid check type (\"docker\"), must be one of grpc, tcp, http, script",
        ),
    ];
    for (c, want) in cases {
        assert_eq!(consul(c.clone(), r).unwrap_or_default(), want, "{c}");
    }
}

/// #13715: before 1.4.0 a Nomad service has no checks, and the type and
/// HTTP path errors read differently; the check_restart rules come last.
#[test]
fn services_go_v1_3_0_and_v1_4_0_nomad_service_checks() {
    let s = json!({"Name": "web", "Provider": "nomad", "PortLabel": "http",
                   "Checks": [{"Name": "c", "Type": "tcp", "Interval": S, "Timeout": S}]});
    assert!(
        service(s.clone(), v(1, 3, 0))
            .contains("Service with provider nomad cannot include Check blocks")
    );
    assert_eq!(service(s, v(1, 4, 0)), "");
    assert_eq!(
        consul(with(check("http"), "Type", json!("Docker")), v(1, 3, 0)).as_deref(),
        Some("invalid type (\"Docker\"), must be one of \"http\", \"tcp\", or \"script\" type")
    );
    assert_eq!(
        consul(with(check("http"), "Path", json!("http://a/b")), v(1, 3, 0)).as_deref(),
        Some("http type must have a relative http path")
    );
    let late = with(
        with(check("script"), "CheckRestart", json!({"Limit": 1})),
        "SuccessBeforePassing",
        json!(2),
    );
    let late = with(late, "OnUpdate", json!("ignore"));
    assert_eq!(
        consul(late.clone(), v(1, 3, 0)).as_deref(),
        Some("success_before_passing not supported for check of type \"script\"")
    );
    assert_eq!(
        consul(late, v(1, 4, 0)).as_deref(),
        Some("on_update value \"ignore\" is not compatible with check_restart")
    );
}

/// #17334, #18333 (undone by #24781), #19336, #22397: each at both sides.
#[test]
fn services_go_check_rules_per_release() {
    let tcp = json!({"Type": "tcp", "Interval": S, "Timeout": S});
    let server_name = with(tcp.clone(), "TLSServerName", json!("x"));
    assert_eq!(nomad(server_name.clone(), v(1, 5, 0)), None);
    assert!(nomad(server_name, v(1, 6, 0)).is_some());
    let skip = with(tcp.clone(), "TLSSkipVerify", json!(true));
    for (r, refused) in [
        (v(1, 4, 12), false),
        (v(1, 4, 13), true),
        (v(1, 6, 1), false),
        (v(1, 6, 2), true),
        (v(1, 9, 5), true),
        (v(1, 9, 6), false),
        (v(1, 10, 0), false),
    ] {
        assert_eq!(nomad(skip.clone(), r).is_some(), refused, "{r:?}");
    }
    let warn = with(tcp, "FailuresBeforeWarning", json!(1));
    assert_eq!(nomad(warn.clone(), v(1, 7, 2)), None);
    assert!(nomad(warn, v(1, 7, 3)).is_some());
    let neg = with(check("grpc"), "FailuresBeforeWarning", json!(-1));
    assert_eq!(consul(neg.clone(), v(1, 7, 0)), None);
    assert_eq!(
        consul(neg, v(1, 8, 0)).as_deref(),
        Some("failures_before_warning must be non-negative")
    );
    let notes = with(check("http"), "Notes", json!("A".repeat(256)));
    assert_eq!(consul(notes.clone(), v(1, 8, 0)), None);
    assert_eq!(
        consul(notes, v(1, 9, 0)).as_deref(),
        Some("notes must not be longer than 255 characters")
    );
}

#[test]
fn services_test_go_v1_10_5_service_validate_name_and_address() {
    let r = v(1, 10, 5);
    let named = |n: &str| service(json!({"Name": n, "Provider": "consul"}), r);
    assert_eq!(named("testservice"), "");
    assert_eq!(named("${TASK}-db-${NOMAD_ALLOC_INDEX}"), "");
    assert!(named("a.b").contains(
        "Service name must be valid per RFC 1123 and can contain only alphanumeric characters or \
         dashes and must be no longer than 63 characters: \"a.b\""
    ));
    assert!(named(&"a".repeat(64)).contains("no longer than 63 characters"));
    assert!(named("-a").contains("RFC 1123"));
    let addr = |mode: &str, address: &str| {
        service(
            json!({"Name": "s1", "Provider": "consul", "AddressMode": mode, "Address": address}),
            r,
        )
    };
    for mode in ["", "auto", "host", "alloc"] {
        assert_eq!(addr(mode, ""), "", "{mode}");
    }
    // `Service.Validate` takes driver; a group service refuses it after.
    assert!(addr("driver", "").contains(
        "service \"s1\" cannot use address_mode=\"driver\", only services defined in a \"task\" block can use this mode"
    ));
    let refused = "Service address_mode must be \"auto\" if address is set";
    assert_eq!(addr("", "example.com"), "");
    assert_eq!(addr("auto", "example.com"), "");
    for mode in ["host", "alloc"] {
        assert!(addr(mode, "example.com").contains(refused), "{mode}");
    }
    assert!(addr("driver", "example.com").contains(refused));
    assert!(
        addr("bogus", "").contains(
            "Service address_mode must be \"auto\", \"host\", or \"driver\"; not \"bogus\""
        )
    );
    let provider = service(json!({"Name": "s", "Provider": "other"}), r);
    assert!(provider.contains("Service provider must be \"consul\", or \"nomad\"; not \"other\""));
    let on_update = service(json!({"Name": "s", "OnUpdate": "never"}), r);
    assert!(on_update.contains(
        "Service on_update must be \"require_healthy\", \"ignore_warnings\", or \"ignore\"; not \"never\""
    ));
}

/// #26170 and #25632 at both sides; #18239's audience from 1.7.0.
#[test]
fn services_go_service_rules_per_release() {
    let kind = json!({"Name": "testservice", "Provider": "consul", "Kind": "garbage"});
    assert_eq!(service(kind.clone(), v(1, 10, 2)), "");
    assert!(
        service(kind, v(1, 10, 3))
            .contains("Service testservice kind must be one of consul service kind or empty")
    );
    let ok_kind = json!({"Name": "testservice", "Provider": "consul", "Kind": "api-gateway"});
    assert_eq!(service(ok_kind, v(1, 11, 0)), "");
    let v6 = json!({"Name": "s", "Provider": "consul", "AddressMode": "alloc_ipv6"});
    assert!(service(v6.clone(), v(1, 10, 3)).contains("not \"alloc_ipv6\""));
    assert_eq!(service(v6, v(1, 10, 4)), "");
    let id = json!({"Name": "s", "Identity": {"Name": "consul-service_s", "Audience": []}});
    assert_eq!(service(id.clone(), v(1, 6, 0)), "");
    assert!(
        service(id, v(1, 7, 0))
            .contains("Service identity must provide at least one target aud value")
    );
}

/// A check's port: a group service's check of a portless service, and a
/// task service's duplicates, group-only modes and numeric ports
/// (structs.go `validateServices`), in Nomad's order.
#[test]
fn structs_go_v1_10_5_task_service_checks() {
    let r = v(1, 10, 5);
    let portless = json!({"Name": "s", "Checks": [check("http")]});
    assert!(service(portless, r).contains(
        "Check check invalid: check requires a port but neither check nor service \"s\" have a port"
    ));
    let t = json!({"Name": "t", "Services": [
        {"Name": "s", "Provider": "consul", "PortLabel": "8080", "AddressMode": "alloc",
         "Checks": [check("script"), with(check("tcp"), "PortLabel", json!("0")),
                    with(with(check("tcp"), "PortLabel", json!("0")), "AddressMode", json!("driver"))]},
        {"Name": "s", "Provider": "consul", "PortLabel": "8080"}
    ]});
    let no_group = json!({"Name": "g"});
    let err = task_service_error(
        t.as_object().unwrap(),
        no_group.as_object().unwrap(),
        rules_of(r),
    )
    .unwrap();
    assert_eq!(
        err,
        "7 errors occurred:\n\
         \t* service \"s\" cannot use address_mode=\"alloc\", only services defined in a \"group\" block can use this mode\n\
         \t* check \"check\" is duplicate\n\
         \t* check \"check\" cannot use a numeric port 0 without setting address_mode=\"driver\"\n\
         \t* check \"check\" is duplicate\n\
         \t* check \"check\" has invalid numeric port 0\n\
         \t* service \"s\" is duplicate\n\
         \t* port label \"8080\" referenced by services s does not exist\n\n"
    );
}

/// structs_test.go `TestTask_Validate_Service_Check_AddressMode`-style
/// port labels (structs.go `validateServices`, :7372-7413 at v1.3.0,
/// :8537-8582 at v2.0.5): a label a service or check names must be a port
/// of the group's first network or of the task's own networks; a numeric
/// port of a `driver` service is not a label; missing labels are listed
/// sorted, each with its services sorted.
#[test]
fn structs_go_v1_3_0_v2_0_5_service_port_labels_must_exist() {
    let task = json!({"Name": "t",
    "Resources": {"Networks": [{"DynamicPorts": [{"Label": "task-port"}]}]},
    "Services": [
        {"Name": "b", "Provider": "consul", "PortLabel": "http"},
        {"Name": "a", "Provider": "consul", "PortLabel": "http"},
        {"Name": "c", "Provider": "consul", "PortLabel": "task-port",
         "Checks": [with(check("tcp"), "PortLabel", json!("admin"))]},
        {"Name": "d", "Provider": "consul", "PortLabel": "9090", "AddressMode": "driver"},
        {"Name": "e", "Provider": "consul", "PortLabel": "second"}
    ]});
    let group = json!({"Name": "g", "Networks": [
        {"ReservedPorts": [{"Label": "admin", "Value": 9000}]},
        {"DynamicPorts": [{"Label": "second"}]}
    ]});
    for r in [v(1, 3, 0), v(2, 0, 5)] {
        let err = task_service_error(
            task.as_object().unwrap(),
            group.as_object().unwrap(),
            rules_of(r),
        )
        .unwrap();
        assert_eq!(
            err,
            "2 errors occurred:\n\
             \t* port label \"http\" referenced by services a, b does not exist\n\
             \t* port label \"second\" referenced by services e does not exist\n\n",
            "{r}"
        );
    }
    let defined = json!({"Name": "g", "Networks": [
        {"ReservedPorts": [{"Label": "admin", "Value": 9000}],
         "DynamicPorts": [{"Label": "http"}, {"Label": "second"}]}
    ]});
    let ok = task_service_error(
        task.as_object().unwrap(),
        defined.as_object().unwrap(),
        rules_of(v(2, 0, 5)),
    );
    assert_eq!(ok, None);
}

fn tproxy(tp: Value, r: Release) -> String {
    service(
        json!({"Name": "api", "PortLabel": "9090",
               "Connect": {"SidecarService": {"Proxy": {"TransparentProxy": tp}}}}),
        r,
    )
}

/// connect_test.go `TestConnectTransparentProxy_Validate` (v1.8.0), and
/// the proxy's errors replacing the rest of the Connect block's.
#[test]
fn connect_test_go_v1_8_0_transparent_proxy_validate() {
    let r = v(1, 8, 0);
    assert_eq!(tproxy(json!({}), r), "");
    let cases = [
        (
            json!({"ExcludeOutboundCIDRs": ["192.168.1.1"]}),
            "could not parse transparent proxy excluded outbound CIDR as network prefix: netip.ParsePrefix(\"192.168.1.1\"): no '/'",
        ),
        (
            json!({"UID": "foo"}),
            "transparent proxy block has invalid UID field: invalid user ID \"foo\": invalid syntax",
        ),
        (
            json!({"ExcludeUIDs": ["500000"]}),
            "transparent proxy block has invalid ExcludeUIDs field: invalid user ID \"500000\": value out of range",
        ),
        (
            json!({"ExcludeOutboundCIDRs": ["10.0.0.0/33"]}),
            "netip.ParsePrefix(\"10.0.0.0/33\"): prefix length out of range",
        ),
        (
            json!({"ExcludeOutboundCIDRs": ["10.0.0.0/08"]}),
            "bad bits after slash: \"08\"",
        ),
        (
            json!({"ExcludeOutboundCIDRs": ["10.0.0/8"]}),
            "ParseAddr(\"10.0.0\"): IPv4 address too short",
        ),
        (
            json!({"ExcludeOutboundCIDRs": ["10.0.x.1/8"]}),
            "ParseAddr(\"10.0.x.1\"): unexpected character (at \"x.1\")",
        ),
    ];
    for (tp, want) in cases {
        let err = tproxy(tp.clone(), r);
        assert!(err.contains(want), "{tp}: {err}");
    }
    for ok in ["10.0.0.0/8", "::1/128", "fd00::/8", "0.0.0.0/0"] {
        assert_eq!(tproxy(json!({"ExcludeOutboundCIDRs": [ok]}), r), "", "{ok}");
    }
    let two = tproxy(json!({"UID": "x", "ExcludeUIDs": ["-1"]}), r);
    assert!(two.contains("2 errors occurred"), "{two}");
    // Not checked before the transparent proxy (#20244).
    assert_eq!(tproxy(json!({"UID": "foo"}), v(1, 7, 7)), "");
}

/// Nested as `structs.Job.Validate` nests them: a task service's bad
/// check inside its task's errors, through `admit`.
#[test]
fn structs_go_v1_10_5_service_check_errors_nest_in_the_task() {
    let mut job = super::endpoint::mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Services"][0]["Checks"][0]["Interval"] = json!(S / 2);
    let err = super::super::admit(job, v(1, 10, 5), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "* Task web validation failed: 1 error occurred:\n\t* 1 error occurred:\n\t* \
             service[0] \"web-frontend\" validation failed: 1 error occurred:\n\t* Check \
             check-table invalid: interval (500ms) cannot be lower than 1s"
        ),
        "{err:?}"
    );
}

/// helper/funcs_test.go `Test_IsMethodHTTP` (v2.0.5): any case of the nine
/// methods, nothing else.
#[test]
fn funcs_test_go_v2_0_5_is_method_http() {
    use super::super::service_check::is_method_http;
    for m in [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "CONNECT", "OPTIONS", "TRACE",
    ] {
        let title = format!("{}{}", &m[..1], m[1..].to_lowercase());
        for form in [m.to_string(), title, m.to_lowercase()] {
            assert!(is_method_http(&form), "{form}");
        }
    }
    for not in ["GETTER", "!GET", ""] {
        assert!(!is_method_http(not), "{not}");
    }
}
