//! The node checkers besides constraints and volumes, after Nomad's
//! scheduler/feasible_test.go (v1.3.0) and scheduler/feasible/feasible_test.go
//! (v2.0.5): drivers, the bridge network of old clients, and the
//! secrets-provider checker (#26303, from v1.11.0), the last run through
//! the stack so that the filter and its metric are checked too.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::node_checks::{has_drivers, network};
use super::*;
use crate::model::{Job, Node, TaskGroup, from_slice, v};

fn parse<T: for<'de> serde::Deserialize<'de>>(v: Value) -> T {
    from_slice(v.to_string().as_bytes()).unwrap()
}

/// A node with the exec driver, `attributes` and no computed class, so that each node is
/// checked on its own.
fn node(i: usize, attributes: Value) -> Node {
    parse(
        json!({"ID": format!("node-{i}"), "Status": "ready", "Attributes": attributes,
                 "Drivers": {"exec": {"Detected": true, "Healthy": true}}}),
    )
}

/// A job of one group whose task has a `secret` block per provider.
fn job(providers: &[&str]) -> Job {
    let secrets: Vec<Value> = providers
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"Name": format!("s{i}"), "Provider": p, "Path": "x"}))
        .collect();
    parse(json!({"ID": "j", "Namespace": "default", "Type": "service",
                 "TaskGroups": [{"Name": "web", "Count": 1,
                                 "Tasks": [{"Name": "t", "Driver": "exec", "Secrets": secrets}]}]}))
}

fn verdicts(job: &Job, nodes: &[Node], release: crate::model::Release) -> Vec<Option<String>> {
    let mut stack = SystemStack::new(job, Vec::new()).with_targets(TargetRules::of(release));
    let tg = &job.task_groups[0];
    nodes
        .iter()
        .map(|n| {
            stack
                .select(tg, "j.web[0]", n, &PlanSoFar::default())
                .err()
                .map(|f| f.metric().into_owned())
        })
        .collect()
}

/// TestSecretsChecker: with provider `foo` asked for, only the node that
/// fingerprinted `plugins.secrets.foo.version` passes; the others are
/// filtered as "missing secrets provider". At 1.10.5 nobody checks.
#[test]
fn feasible_test_go_v1_11_0_v2_0_5_secrets_checker() {
    let nodes = [
        node(0, json!({})),
        node(1, json!({"plugins.secrets.foo.version": "1.0.0"})),
        node(2, json!({"plugins.secrets.bar.version": "1.0.0"})),
    ];
    let missing = Some("missing secrets provider".to_string());
    for release in [v(1, 11, 0), v(2, 0, 5)] {
        assert_eq!(
            verdicts(&job(&["foo"]), &nodes, release),
            [missing.clone(), None, missing.clone()],
            "{release}"
        );
    }
    assert_eq!(
        verdicts(&job(&["foo"]), &nodes, v(1, 10, 5)),
        [None, None, None]
    );
}

/// Every provider of every task counts, each once; a group without
/// `secret` blocks asks for none, and the explanation names only the
/// providers the node lacks.
#[test]
fn every_provider_is_needed_and_only_the_missing_are_named() {
    let both = node(
        0,
        json!({"plugins.secrets.foo.version": "1", "plugins.secrets.bar.version": "1"}),
    );
    let foo = node(1, json!({"plugins.secrets.foo.version": "1"}));
    let at = v(2, 0, 5);
    assert_eq!(
        verdicts(
            &job(&["foo", "bar", "foo"]),
            &[both.clone(), foo.clone()],
            at
        ),
        [None, Some("missing secrets provider".to_string())]
    );
    assert_eq!(verdicts(&job(&[]), &[node(2, json!({}))], at), [None]);
    let j = job(&["foo", "bar"]);
    let mut stack = SystemStack::new(&j, Vec::new()).with_targets(TargetRules::of(at));
    let why = stack
        .select(&j.task_groups[0], "j.web[0]", &foo, &PlanSoFar::default())
        .unwrap_err();
    assert_eq!(why.describe(), "missing secrets provider (bar)");
}

/// `mock.Node()`'s drivers and attributes, with `drivers` in place of its
/// driver infos (`None`: a client too old to report them).
fn driver_node(drivers: Option<Value>, attributes: Value) -> Node {
    let mut attrs = json!({"kernel.name": "linux", "driver.exec": "1"});
    for (k, v) in attributes.as_object().unwrap() {
        attrs[k] = v.clone();
    }
    let mut n = json!({"ID": "n", "Status": "ready", "Attributes": attrs});
    if let Some(d) = drivers {
        n["Drivers"] = d;
    }
    parse(n)
}

fn drivers<'a>(names: &[&'a str]) -> BTreeSet<&'a str> {
    names.iter().copied().collect()
}

/// TestDriverChecker_DriverInfo (v1.3.0, v2.0.5): a driver info decides,
/// detected and healthy both needed.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_driver_checker_driver_info() {
    let exec = json!({"Detected": true, "Healthy": true});
    let with_foo = |detected: bool, healthy: bool| {
        driver_node(
            Some(json!({"exec": exec, "foo": {"Detected": detected, "Healthy": healthy}})),
            json!({}),
        )
    };
    let want = drivers(&["exec", "foo"]);
    assert!(has_drivers(&want, &with_foo(true, true)));
    assert!(!has_drivers(&want, &with_foo(true, false)));
    assert!(!has_drivers(&want, &with_foo(false, false)));
}

/// TestDriverChecker_Compatibility (v1.3.0, v2.0.5): without driver
/// infos, the `driver.<name>` attribute is read as Go's `ParseBool`.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_driver_checker_compatibility() {
    let want = drivers(&["exec", "foo"]);
    for (value, ok) in [("1", true), ("0", false), ("true", true), ("False", false)] {
        let n = driver_node(None, json!({"driver.foo": value}));
        assert_eq!(has_drivers(&want, &n), ok, "{value}");
    }
    let n = driver_node(None, json!({"driver.foo": "yes"}));
    assert!(!has_drivers(&want, &n));
}

/// Test_HealthChecks (v1.3.0, v2.0.5): with both a driver info and the
/// attribute, the info decides: healthy passes, unhealthy or undetected
/// does not, whatever the attribute says.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_health_checks() {
    let cases = [
        ("foo", json!({"Detected": true, "Healthy": true}), "1", true),
        (
            "bar",
            json!({"Detected": true, "Healthy": false}),
            "1",
            false,
        ),
        (
            "baz",
            json!({"Detected": false, "Healthy": false}),
            "0",
            false,
        ),
    ];
    for (name, info, attribute, ok) in cases {
        let n = driver_node(
            Some(json!({ name: info })),
            json!({ format!("driver.{name}"): attribute }),
        );
        assert_eq!(has_drivers(&drivers(&[name]), &n), ok, "{name}");
    }
}

/// TestNetworkChecker_bridge_upgrade_path (v1.3.0, v2.0.5): a 0.11 client
/// never fingerprints the bridge network and passes a bridge group; a 0.12
/// one without it is filtered.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_network_checker_bridge_upgrade_path() {
    let tg: TaskGroup = parse(json!({"Name": "web", "Networks": [{"Mode": "bridge"}]}));
    let client = |version: &str| -> Node {
        parse(json!({"ID": "n", "Status": "ready",
                     "Attributes": {"nomad.version": version},
                     "NodeResources": {"Networks": [{"Mode": "host", "Device": "eth0"}]}}))
    };
    assert_eq!(
        network(&tg.networks[0], &client("0.11.0"), TargetRules::default()),
        Ok(())
    );
    assert_eq!(
        network(&tg.networks[0], &client("0.12.0"), TargetRules::default()),
        Err(NetworkMiss::Mode("bridge".to_string()))
    );
}
