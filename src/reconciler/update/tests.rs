//! `tasksUpdated` and `genericAllocUpdateFn` against the cases of Nomad's
//! `scheduler/util_test.go`, and the reasons given for each difference.

use std::sync::Arc;

use serde_json::{Value, json};

use super::connect::{connect_service_updated, connect_sidecar_service_updated, connect_updated};
use super::network::network_updated;
use super::*;
use crate::model::{ConsulConnect, NetworkResource, Service, SidecarService};

/// A job shaped like Nomad's `mock.Job()` after `Canonicalize`.
fn mock_job() -> Value {
    json!({
        "ID": "mock-service",
        "Name": "my-job",
        "Namespace": "default",
        "Type": "service",
        "Priority": 50,
        "Datacenters": ["dc1"],
        "TaskGroups": [{
            "Name": "web",
            "Count": 10,
            "EphemeralDisk": {"SizeMB": 150, "Sticky": false, "Migrate": false},
            "Networks": [{
                "Mode": "host",
                "DynamicPorts": [
                    {"Label": "http", "HostNetwork": "default"},
                    {"Label": "admin", "HostNetwork": "default"}
                ]
            }],
            "Tasks": [{
                "Name": "web",
                "Driver": "exec",
                "Config": {"command": "/bin/date"},
                "Env": {"FOO": "bar"},
                "Resources": {"CPU": 500, "MemoryMB": 256},
                "Meta": {"foo": "bar"}
            }],
            "Meta": {
                "elb_check_type": "http",
                "elb_check_interval": "30s",
                "elb_check_min": "3"
            }
        }],
        "Meta": {"owner": "armon"},
        "Status": "pending",
        "CreateIndex": 42,
        "ModifyIndex": 99,
        "JobModifyIndex": 99
    })
}

fn job(v: Value) -> Job {
    serde_json::from_value(v).unwrap()
}

/// `tasksUpdated(a, b, "web")` as a bool, like Nomad's tests use it.
fn updated(a: &Value, b: &Value) -> bool {
    tasks_updated(&job(a.clone()), &job(b.clone()), "web", &Rules::default()).is_some()
}

/// A mock job after `edit`.
fn mock_with(edit: impl FnOnce(&mut Value)) -> Value {
    let mut j = mock_job();
    edit(&mut j);
    j
}

fn task(j: &mut Value) -> &mut Value {
    &mut j["TaskGroups"][0]["Tasks"][0]
}

fn affinity() -> Value {
    json!([{"LTarget": "node.datacenter", "RTarget": "dc1", "Operand": "=", "Weight": 100}])
}

fn spread() -> Value {
    json!([{
        "Attribute": "node.datacenter",
        "Weight": 100,
        "SpreadTarget": [{"Value": "r1", "Percent": 50}, {"Value": "r2", "Percent": 50}]
    }])
}

#[test]
fn test_task_updated_affinity() {
    let j1 = mock_job();
    assert!(!updated(&j1, &mock_job()));

    let j2 = mock_with(|j| j["TaskGroups"][0]["Affinities"] = affinity());
    assert!(updated(&j1, &j2));

    let j3 = mock_with(|j| task(j)["Affinities"] = affinity());
    assert!(updated(&j1, &j3));

    let j4 = mock_with(|j| task(j)["Affinities"] = affinity());
    assert!(updated(&j1, &j4));

    // The same affinity at job and at group level.
    let j5 = mock_with(|j| j["Affinities"] = affinity());
    let j6 = mock_with(|j| {
        j["Affinities"] = json!([]);
        j["TaskGroups"][0]["Affinities"] = affinity();
    });
    assert!(!updated(&j5, &j6));
}

#[test]
fn test_task_updated_spread() {
    let j1 = mock_job();
    assert!(!updated(&j1, &mock_job()));

    let j2 = mock_with(|j| j["TaskGroups"][0]["Spreads"] = spread());
    assert!(updated(&j1, &j2));

    let j5 = mock_with(|j| j["Spreads"] = spread());
    let j6 = mock_with(|j| j["TaskGroups"][0]["Spreads"] = spread());
    assert!(!updated(&j5, &j6));
}

#[test]
fn test_tasks_updated() {
    let j1 = mock_job();
    assert_eq!(
        tasks_updated(&job(j1.clone()), &job(mock_job()), "web", &Rules::default()),
        None
    );

    let j2 = mock_with(|j| task(j)["Config"]["command"] = json!("/bin/other"));
    assert_eq!(
        tasks_updated(&job(j1.clone()), &job(j2), "web", &Rules::default()).as_deref(),
        Some("task \"web\": config changed")
    );

    let j3 = mock_with(|j| task(j)["Name"] = json!("foo"));
    assert!(updated(&j1, &j3));

    let j4 = mock_with(|j| task(j)["Driver"] = json!("foo"));
    assert!(updated(&j1, &j4));

    let j5 = mock_with(|j| {
        let t = task(j).clone();
        j["TaskGroups"][0]["Tasks"].as_array_mut().unwrap().push(t);
    });
    assert!(updated(&j1, &j5));

    let j6 = mock_with(|j| {
        j["TaskGroups"][0]["Networks"][0]["DynamicPorts"] = json!([
            {"Label": "http", "Value": 0},
            {"Label": "https", "Value": 0},
            {"Label": "admin", "Value": 0}
        ]);
    });
    assert!(updated(&j1, &j6));

    let j7 = mock_with(|j| task(j)["Env"]["NEW_ENV"] = json!("NEW_VALUE"));
    assert!(updated(&j1, &j7));

    let j8 = mock_with(|j| task(j)["User"] = json!("foo"));
    assert!(updated(&j1, &j8));

    let j9 = mock_with(|j| {
        task(j)["Artifacts"] = json!([{"GetterSource": "http://foo.com/bar"}]);
    });
    assert!(updated(&j1, &j9));

    let j10 = mock_with(|j| task(j)["Meta"]["baz"] = json!("boom"));
    assert!(updated(&j1, &j10));

    let j11 = mock_with(|j| task(j)["Resources"]["CPU"] = json!(1337));
    assert!(updated(&j1, &j11));

    let j11d1 = mock_with(|j| {
        task(j)["Resources"]["Devices"] = json!([{"Name": "gpu", "Count": 1}]);
    });
    let j11d2 = mock_with(|j| {
        task(j)["Resources"]["Devices"] = json!([{"Name": "gpu", "Count": 2}]);
    });
    assert!(updated(&j11d1, &j11d2));

    let j13 = mock_with(|j| {
        j["TaskGroups"][0]["Networks"][0]["DynamicPorts"][0]["Label"] = json!("foobar");
    });
    assert!(updated(&j1, &j13));

    let j14 = mock_with(|j| {
        j["TaskGroups"][0]["Networks"][0]["ReservedPorts"] =
            json!([{"Label": "foo", "Value": 1312}]);
    });
    assert!(updated(&j1, &j14));

    let j15 = mock_with(|j| task(j)["Vault"] = json!({"Policies": ["foo"]}));
    assert!(updated(&j1, &j15));

    let j16 = mock_with(|j| j["TaskGroups"][0]["EphemeralDisk"]["Sticky"] = json!(true));
    assert!(updated(&j1, &j16));

    let j17 = mock_with(|j| j["TaskGroups"][0]["Meta"]["j17_test"] = json!("roll_baby_roll"));
    assert!(updated(&j1, &j17));

    let j18 = mock_with(|j| j["Meta"]["j18_test"] = json!("roll_baby_roll"));
    assert!(updated(&j1, &j18));

    let j19 = mock_with(|j| j["TaskGroups"][0]["Networks"][0]["Mode"] = json!("bridge"));
    assert!(updated(&j1, &j19));

    let cores = |n: i64| {
        mock_with(|j| {
            task(j)["Resources"]["CPU"] = json!(0);
            task(j)["Resources"]["Cores"] = json!(n);
        })
    };
    assert!(updated(&cores(2), &cores(4)));

    let wait = |max_secs: i64| {
        mock_with(|j| {
            task(j)["Templates"] = json!([{
                "Wait": {"Min": 5_000_000_000_i64, "Max": max_secs * 1_000_000_000}
            }]);
        })
    };
    assert!(!updated(&wait(5), &wait(5)));
    assert!(updated(&wait(5), &wait(10)));
}

fn services(v: Value) -> Vec<Service> {
    serde_json::from_value(v).unwrap()
}

fn connect_service(port_label: &str, sidecar: Value) -> Value {
    json!({
        "Name": "service1",
        "PortLabel": port_label,
        "Connect": {"SidecarService": sidecar}
    })
}

#[test]
fn test_tasks_updated_connect_service_updated() {
    let a = services(json!([connect_service("1111", json!({"Tags": ["a"]}))]));
    let with_others = |s: Value| services(json!([{"Name": "service0"}, s, {"Name": "service2"}]));

    // service not updated
    let b = with_others(connect_service("1111", json!({"Tags": ["a"]})));
    assert_eq!(connect_service_updated(&a, &b, &Rules::default()), None);

    // sidecar tags are updated in place
    let b = with_others(connect_service("1111", json!({"Tags": ["b"]})));
    assert_eq!(connect_service_updated(&a, &b, &Rules::default()), None);

    // sidecar port is destructive
    let b = with_others(connect_service(
        "1111",
        json!({"Tags": ["a"], "Port": "2222"}),
    ));
    assert_eq!(
        connect_service_updated(&a, &b, &Rules::default()),
        Some((
            "connect port",
            "connect service \"service1\": sidecar service changed".to_string()
        ))
    );

    // port label is destructive
    let b = with_others(connect_service("1112", json!({"Tags": ["1"]})));
    assert_eq!(
        connect_service_updated(&a, &b, &Rules::default()),
        Some((
            "connect service port label",
            "connect service \"service1\": port label changed".to_string()
        ))
    );
}

fn nets(v: Value) -> Vec<NetworkResource> {
    serde_json::from_value(v).unwrap()
}

#[test]
fn test_network_updated() {
    let http = |port: Value| nets(json!([{"DynamicPorts": [port]}]));
    let cases = [
        (
            "network mode",
            nets(json!([{"Mode": "host"}])),
            nets(json!([{"Mode": "bridge"}])),
        ),
        (
            "network port map",
            http(json!({"Label": "http", "To": 8080})),
            http(json!({"Label": "http", "To": 8080, "HostNetwork": "public"})),
        ),
        (
            "network port map",
            http(json!({"Label": "http", "To": 8080})),
            http(json!({"Label": "http", "To": 8088})),
        ),
        (
            "network hostname",
            nets(json!([{"Hostname": "foo"}])),
            nets(json!([{"Hostname": "bar"}])),
        ),
    ];
    for (label, a, b) in cases {
        assert_eq!(network_updated(&a, &b, &Rules::default()), Some(label));
    }
}

#[test]
fn network_updated_ignores_dynamic_port_values() {
    let a = nets(json!([{"DynamicPorts": [{"Label": "http", "Value": 20001}]}]));
    let b = nets(json!([{"DynamicPorts": [{"Label": "http", "Value": 31337}]}]));
    assert_eq!(network_updated(&a, &b, &Rules::default()), None);
    let a = nets(json!([{"ReservedPorts": [{"Label": "http", "Value": 80}]}]));
    let b = nets(json!([{"ReservedPorts": [{"Label": "http", "Value": 8080}]}]));
    assert_eq!(
        network_updated(&a, &b, &Rules::default()),
        Some("network port map")
    );
}

fn connect(v: Value) -> ConsulConnect {
    serde_json::from_value(v).unwrap()
}

#[test]
fn test_util_connect_updated() {
    assert_eq!(connect_updated(None, None), None);
    assert!(connect_updated(None, Some(&connect(json!({})))).is_some());

    let differ = |a: Value, b: Value| connect_updated(Some(&connect(a)), Some(&connect(b)));
    assert_eq!(
        differ(json!({"Native": true}), json!({"Native": false})),
        Some(("connect native", "native"))
    );
    assert_eq!(
        differ(
            json!({"Gateway": {"Ingress": {}}}),
            json!({"Gateway": {"Terminating": {}}})
        ),
        Some(("connect gateway", "gateway"))
    );
    assert_eq!(
        differ(
            json!({"SidecarTask": {"Driver": "exec"}}),
            json!({"SidecarTask": {"Driver": "docker"}})
        ),
        Some(("connect sidecar task", "sidecar task"))
    );
    assert_eq!(
        differ(
            json!({"SidecarService": {"Port": "1111"}}),
            json!({"SidecarService": {"Port": "2222"}})
        ),
        Some(("connect port", "sidecar service"))
    );
    assert_eq!(differ(json!({}), json!({})), None);
}

#[test]
fn test_util_connect_sidecar_service_updated() {
    let ss = |port: &str| SidecarService { port: port.into() };
    assert_eq!(connect_sidecar_service_updated(None, None), None);
    assert_eq!(
        connect_sidecar_service_updated(None, Some(&ss(""))),
        Some("connect service add")
    );
    assert_eq!(
        connect_sidecar_service_updated(Some(&ss("")), None),
        Some("connect service delete")
    );
    assert_eq!(
        connect_sidecar_service_updated(Some(&ss("1111")), Some(&ss("2222"))),
        Some("connect port")
    );
    assert_eq!(
        connect_sidecar_service_updated(Some(&ss("1111")), Some(&ss("1111"))),
        None
    );
}

/// Where Nomad's `Equals` methods differ from `DeepEqual`.
#[test]
fn connect_equals_follow_nomad_not_deep_equal() {
    let same = |a: Value, b: Value| connect_updated(Some(&connect(a)), Some(&connect(b)));
    // Ingress listeners, their services and hosts are sets.
    let listeners = |order: [&str; 2]| {
        json!({"Gateway": {"Ingress": {"Listeners": [
            {"Port": 1, "Protocol": "tcp", "Services": [{"Name": order[0]}]},
            {"Port": 2, "Protocol": "http", "Services": [
                {"Name": "x", "Hosts": [order[0], order[1]]}
            ]}
        ]}}})
    };
    assert_eq!(same(listeners(["a", "b"]), listeners(["a", "b"])), None);
    let reordered = |mut v: Value| {
        v["Gateway"]["Ingress"]["Listeners"]
            .as_array_mut()
            .unwrap()
            .reverse();
        v
    };
    assert_eq!(
        same(listeners(["a", "b"]), reordered(listeners(["a", "b"]))),
        None
    );
    assert_eq!(
        same(listeners(["a", "b"]), listeners(["a", "c"])),
        Some(("connect gateway", "gateway"))
    );
    // Terminating linked services are a set.
    let linked = |names: [&str; 2]| json!({"Gateway": {"Terminating": {"Services": [{"Name": names[0]}, {"Name": names[1]}]}}});
    assert_eq!(same(linked(["a", "b"]), linked(["b", "a"])), None);
    // Opaque proxy and sidecar configs: nil equals empty.
    assert_eq!(
        same(
            json!({"Gateway": {"Proxy": {"Config": null}}}),
            json!({"Gateway": {"Proxy": {"Config": {}}}})
        ),
        None
    );
    assert_eq!(
        same(
            json!({"SidecarTask": {"Config": null}}),
            json!({"SidecarTask": {"Config": {}}})
        ),
        None
    );
    // Sidecar env: nil and empty differ (`CompareMapStringString`).
    assert_eq!(
        same(
            json!({"SidecarTask": {"Env": null}}),
            json!({"SidecarTask": {"Env": {}}})
        ),
        Some(("connect sidecar task", "sidecar task"))
    );
    // Sidecar resources: networks compare as sets, nil devices equal empty.
    let res = |nets: Value, devices: Value| json!({"SidecarTask": {"Resources": {"CPU": 1, "Networks": nets, "Devices": devices}}});
    assert_eq!(
        same(
            res(json!([{"Mode": "a"}, {"Mode": "b"}]), json!(null)),
            res(json!([{"Mode": "b"}, {"Mode": "a"}]), json!([]))
        ),
        None
    );
    assert_eq!(
        same(
            res(json!([{"Mode": "a"}]), json!(null)),
            res(json!([{"Mode": "a", "MBits": 10}]), json!(null))
        ),
        Some(("connect sidecar task", "sidecar task"))
    );
}

#[test]
fn devices_compare_as_a_set_keyed_by_name() {
    let devices = |v: Value| mock_with(|j| task(j)["Resources"]["Devices"] = v);
    let gpu_fpga = devices(json!([
        {"Name": "gpu", "Count": 1, "Constraints": [
            {"LTarget": "a", "RTarget": "1", "Operand": "="},
            {"LTarget": "b", "RTarget": "2", "Operand": "="}
        ]},
        {"Name": "fpga", "Count": 1}
    ]));
    let fpga_gpu = devices(json!([
        {"Name": "fpga", "Count": 1},
        {"Name": "gpu", "Count": 1, "Constraints": [
            {"LTarget": "b", "RTarget": "2", "Operand": "="},
            {"LTarget": "a", "RTarget": "1", "Operand": "="}
        ]}
    ]));
    assert!(!updated(&gpu_fpga, &fpga_gpu));
    assert!(!updated(&devices(json!(null)), &devices(json!([]))));
    assert_eq!(
        tasks_updated(
            &job(gpu_fpga),
            &job(devices(json!(null))),
            "web",
            &Rules::default()
        )
        .as_deref(),
        Some("task \"web\": devices changed")
    );
}

#[test]
fn missing_task_resources_count_as_zero() {
    let none = mock_with(|j| task(j)["Resources"] = json!(null));
    let zero = mock_with(|j| task(j)["Resources"] = json!({}));
    assert!(!updated(&none, &zero));
    assert!(updated(&none, &mock_job()));
}

#[test]
fn missing_group_is_destructive() {
    let other = mock_with(|j| j["TaskGroups"][0]["Name"] = json!("api"));
    assert!(updated(&mock_job(), &other));
}

fn alloc(old_job: Option<Value>, client_status: &str) -> Allocation {
    Allocation {
        node_id: "node-1".into(),
        task_group: "web".into(),
        desired_status: "run".into(),
        client_status: client_status.into(),
        job: old_job.map(|j| Arc::new(job(j))),
        ..Allocation::default()
    }
}

fn node(dc: &str) -> Node {
    Node {
        id: "node-1".into(),
        datacenter: dc.into(),
        status: "ready".into(),
        ..Node::default()
    }
}

/// Job version 2 of the mock: a new modify index and an in-place change.
fn new_job(edit: impl FnOnce(&mut Value)) -> Job {
    job(mock_with(|j| {
        j["JobModifyIndex"] = json!(120);
        j["TaskGroups"][0]["Count"] = json!(3);
        edit(j);
    }))
}

/// `alloc_update_kind`, checked against `UpdateCheck` (asked twice, so
/// that its second answer comes from what it remembers).
fn kind(existing: &Allocation, new: &Job, node: Option<&Node>) -> UpdateKind {
    let want = alloc_update_kind(existing, new, &new.task_groups[0], node, &Rules::default());
    let check = UpdateCheck::default();
    for _ in 0..2 {
        assert_eq!(
            check.kind(existing, new, &new.task_groups[0], || node),
            want
        );
    }
    want
}

#[test]
fn alloc_update_kind_branches() {
    let running = alloc(Some(mock_job()), "running");
    let dc1 = node("dc1");

    // Same job modify index.
    let same = job(mock_job());
    assert_eq!(kind(&running, &same, Some(&dc1)), UpdateKind::Ignore);

    // Destructive task change wins over everything after it.
    let changed = new_job(|j| task(j)["Driver"] = json!("docker"));
    assert_eq!(
        kind(&alloc(Some(mock_job()), "complete"), &changed, None),
        UpdateKind::Destructive(Arc::new("task \"web\": driver changed".into()))
    );

    // Terminal allocations are left alone.
    let inplace = new_job(|_| {});
    assert_eq!(
        kind(&alloc(Some(mock_job()), "complete"), &inplace, None),
        UpdateKind::Ignore
    );

    // Node garbage-collected.
    assert_eq!(
        kind(&running, &inplace, None),
        UpdateKind::Destructive(Arc::new("node node-1 no longer exists".into()))
    );

    // Node's datacenter dropped from the job.
    let moved = new_job(|j| j["Datacenters"] = json!(["dc2"]));
    assert!(matches!(
        kind(&running, &moved, Some(&dc1)),
        UpdateKind::Destructive(r) if r.contains("datacenters")
    ));

    // Everything else is in place.
    assert_eq!(kind(&running, &inplace, Some(&dc1)), UpdateKind::InPlace);
}

#[test]
fn alloc_without_job_is_replaced() {
    let orphan = alloc(None, "running");
    assert_eq!(
        kind(&orphan, &new_job(|_| {}), Some(&node("dc1"))),
        UpdateKind::Destructive(Arc::new(
            "task group \"web\" is not in both job versions".into()
        ))
    );
}

/// `reflect.DeepEqual` on Go maps compares key sets: a key added with a
/// zero value is a change (scheduler/util.go:470-475, task Config and Env;
/// TaskArtifact.GetterOptions/GetterHeaders are maps too).
#[test]
fn map_keys_with_zero_values_are_changes() {
    let j1 = mock_job();
    let env = mock_with(|j| task(j)["Env"]["EMPTY"] = json!(""));
    assert_eq!(
        tasks_updated(&job(env), &job(j1.clone()), "web", &Rules::default()).as_deref(),
        Some("task \"web\": env changed")
    );
    let config = mock_with(|j| task(j)["Config"]["privileged"] = json!(false));
    assert_eq!(
        tasks_updated(&job(config), &job(j1.clone()), "web", &Rules::default()).as_deref(),
        Some("task \"web\": config changed")
    );
    let nested = |v: Value| mock_with(|j| task(j)["Config"]["opts"] = v);
    assert!(updated(
        &nested(json!({"a": 1, "b": null})),
        &nested(json!({"a": 1}))
    ));
    assert!(!updated(&nested(json!({"a": 1})), &nested(json!({"a": 1}))));
    let artifact = |options: Value| {
        mock_with(|j| {
            task(j)["Artifacts"] = json!([{"GetterSource": "s", "GetterOptions": options}]);
        })
    };
    assert!(updated(&artifact(json!({"x": ""})), &artifact(json!({}))));
    // A struct field a hand-written snapshot leaves out is still its zero value.
    assert!(!updated(
        &artifact(json!({})),
        &mock_with(|j| task(j)["Artifacts"] =
            json!([{"GetterSource": "s", "GetterOptions": {}, "RelativeDest": ""}]))
    ));
}

/// `opaqueMapsEqual` (nomad/structs/services.go:1263) is `DeepEqual` on
/// maps once either is non-empty: a key with a zero value is a change.
#[test]
fn opaque_connect_configs_compare_as_maps() {
    let differ = |a: Value, b: Value| connect_updated(Some(&connect(a)), Some(&connect(b)));
    assert_eq!(
        differ(
            json!({"SidecarTask": {"Config": {"a": ""}}}),
            json!({"SidecarTask": {"Config": {}}})
        ),
        Some(("connect sidecar task", "sidecar task"))
    );
    assert_eq!(
        differ(
            json!({"Gateway": {"Proxy": {"Config": {"a": 0}}}}),
            json!({"Gateway": {"Proxy": {"Config": {}}}})
        ),
        Some(("connect gateway", "gateway"))
    );
}

#[test]
fn globs_match_as_go_glob_does() {
    assert!(glob_match("*", "dc1"));
    assert!(glob_match("dc1", "dc1"));
    assert!(!glob_match("dc1", "dc2"));
    assert!(glob_match("dc*", "dc1"));
    assert!(glob_match("*1", "dc1"));
    assert!(glob_match("d*1", "dc1"));
    assert!(!glob_match("x*", "dc1"));
    // The suffix is looked for after the prefix: "dc1" is used up.
    assert!(!glob_match("dc1*dc1", "dc1"));
    assert!(glob_match("*c*", "dc1"));
}
