//! The volume checkers, after Nomad's scheduler/feasible_test.go
//! (`TestCSIVolumeChecker`, `TestCSIVolumeChecker_PerAllocBlocking`,
//! `TestHostVolumeChecker`, `TestHostVolumeChecker_ReadOnly`) at the tags
//! named, on the mock nodes
//! of nomad/mock/mock.go.

use std::sync::Arc;

use serde_json::{Value, json};

use super::*;
use crate::model::{Allocation, Node, Snapshot, TaskGroup, from_slice};

fn parse<T: for<'de> serde::Deserialize<'de>>(v: Value) -> T {
    from_slice(v.to_string().as_bytes()).unwrap()
}

fn node(id: &str, plugins: Value) -> Node {
    parse(json!({"ID": id, "Status": "ready", "CSINodePlugins": plugins}))
}

fn foo_plugin(healthy: bool, topology: Value) -> Value {
    json!({"foo": {"PluginID": "foo", "Healthy": healthy,
                   "NodeInfo": {"MaxVolumes": 1, "AccessibleTopology": topology}}})
}

fn group(volumes: Value) -> TaskGroup {
    parse(json!({"Name": "web", "Volumes": volumes}))
}

fn rules_at_1_3_0() -> VolumeRules {
    VolumeRules::default()
}

/// The snapshot of `TestCSIVolumeChecker` (v1.3.0 feasible_test.go:283):
/// "volume-id" and "volume-id[0]" (multi-node multi-writer, racks R1 and
/// R2) and a second volume in use by an allocation on nodes[4], which is
/// then at its plugin's limit of one volume.
fn csi_snapshot() -> Snapshot {
    let rack = |r: &str| json!({"Segments": {"rack": r}});
    let volume = |id: &str, mode: &str, topologies: Value| {
        json!({"ID": id, "Namespace": "default", "PluginID": "foo",
               "AccessMode": mode, "AttachmentMode": "file-system",
               "Topologies": topologies, "ReadAllocs": {}, "WriteAllocs": {}})
    };
    let both = json!([rack("R1"), rack("R2")]);
    let in_use = "vol2-in-use";
    let mut alloc: Allocation = parse(json!({
        "ID": "a1", "Namespace": "default", "JobID": "j", "TaskGroup": "web",
        "NodeID": "n4", "DesiredStatus": "run", "ClientStatus": "pending"}));
    alloc.job = Some(Arc::new(parse(json!({
        "ID": "j", "Namespace": "default", "TaskGroups": [{"Name": "web",
            "Volumes": {in_use: {"Name": in_use, "Type": "csi", "Source": in_use}}}]}))));
    Snapshot {
        csi_volumes: Some(vec![
            parse(volume("volume-id", "multi-node-multi-writer", both.clone())),
            parse(volume(in_use, "multi-node-single-writer", Value::Null)),
            parse(volume("volume-id[0]", "multi-node-multi-writer", both)),
        ]),
        csi_plugins: Some(vec![parse(
            json!({"ID": "foo", "NodesHealthy": 4, "ControllersHealthy": 1}),
        )]),
        allocs: vec![alloc],
        ..Snapshot::default()
    }
}

fn csi_nodes() -> Vec<Node> {
    let r1 = json!({"Segments": {"rack": "R1"}});
    vec![
        node("n0", foo_plugin(true, r1.clone())),
        node("n1", foo_plugin(false, r1.clone())),
        node(
            "n2",
            json!({"bar": {"PluginID": "bar", "Healthy": true,
                           "NodeInfo": {"MaxVolumes": 1, "AccessibleTopology": r1.clone()}}}),
        ),
        node("n3", Value::Null),
        node("n4", foo_plugin(true, r1)),
        node("n5", foo_plugin(true, json!({"Segments": {"rack": "R4"}}))),
        node("n6", foo_plugin(true, Value::Null)),
    ]
}

fn csi_requests() -> Value {
    json!({
        "shared": {"Type": "csi", "Name": "baz", "Source": "volume-id"},
        "unique": {"Type": "csi", "Name": "baz", "Source": "volume-id[0]", "PerAlloc": true},
        "nonsense": {"Type": "host", "Name": "nonsense", "Source": "my-host-volume"}
    })
}

/// TestCSIVolumeChecker (v1.3.0 scheduler/feasible_test.go:246, v2.0.5 :936): each
/// node's verdict, with the reason Nomad records. The mock allocation has
/// no name, so `per_alloc` adds no suffix.
#[test]
fn feasible_test_go_v1_3_0_v2_0_5_csi_volume_checker() {
    let snapshot = csi_snapshot();
    let state = CsiState::new(&snapshot).unwrap();
    let nodes = csi_nodes();
    let check = |n: usize, requests: Value| {
        state.check(
            "default",
            "other-job",
            &group(requests),
            "",
            &nodes[n],
            rules_at_1_3_0(),
        )
    };
    let cases: [(&str, usize, Value, Result<(), String>); 9] = [
        ("ok", 0, csi_requests(), Ok(())),
        (
            "unhealthy node",
            1,
            csi_requests(),
            Err("CSI plugin foo is unhealthy on client n1".into()),
        ),
        (
            "wrong id",
            2,
            csi_requests(),
            Err("CSI plugin foo is missing from client n2".into()),
        ),
        ("no volumes requested or available", 3, json!({}), Ok(())),
        ("no volumes requested, some available", 0, json!({}), Ok(())),
        (
            "volumes requested, none available",
            3,
            csi_requests(),
            Err("CSI plugin foo is missing from client n3".into()),
        ),
        (
            "volumes requested, max volumes exceeded",
            4,
            csi_requests(),
            Err("CSI plugin foo has the maximum number of volumes on client n4".into()),
        ),
        (
            "no matching topology",
            5,
            csi_requests(),
            Err("did not meet topology requirement".into()),
        ),
        (
            "nil topology",
            6,
            csi_requests(),
            Err("did not meet topology requirement".into()),
        ),
    ];
    for (name, n, requests, want) in cases {
        assert_eq!(check(n, requests.clone()), want, "{name}");
        // The same table at 2.0.5 gives the same reasons.
        let at_2_0_5 = state.check("default", "other-job", &group(requests), "", &nodes[n], {
            VolumeRules {
                topology_contains: true,
                csi_missing_listed: true,
                ..VolumeRules::default()
            }
        });
        assert_eq!(at_2_0_5, want, "{name} at 2.0.5");
    }
    // A request for a volume the state lacks is never feasible.
    let mut missing = csi_requests();
    missing["missing"] = json!({"Type": "csi", "Name": "bar", "Source": "does-not-exist"});
    for n in 0..nodes.len() {
        let got = check(n, missing.clone());
        assert!(got.is_err(), "node {n}");
    }
    assert_eq!(
        check(0, missing),
        Err("missing CSI Volume does-not-exist".into())
    );
}

/// At 2.0.5 (#28312, v2.0.5 feasible.go:566) every missing volume is named
/// in one reason, before the plugin is even looked for.
#[test]
fn feasible_test_go_v2_0_5_csi_volume_checker_missing_listed() {
    let snapshot = csi_snapshot();
    let state = CsiState::new(&snapshot).unwrap();
    let nodes = csi_nodes();
    let rules = VolumeRules {
        csi_missing_listed: true,
        ..VolumeRules::default()
    };
    let mut requests = csi_requests();
    requests["missing"] = json!({"Type": "csi", "Source": "does-not-exist"});
    requests["zz"] = json!({"Type": "csi", "Source": "also-missing"});
    let got = state.check("default", "j", &group(requests), "", &nodes[3], rules);
    assert_eq!(
        got,
        Err("missing CSI volume(s) does-not-exist, also-missing".into())
    );
}

/// The node topology contains the volume's from #24522 (v1.10.0
/// nomad/structs/node.go:71); before, it had to equal it.
#[test]
fn csi_topology_matches_by_containment_from_1_10_0() {
    let snapshot = csi_snapshot();
    let state = CsiState::new(&snapshot).unwrap();
    let wider = node(
        "w",
        foo_plugin(true, json!({"Segments": {"rack": "R1", "zone": "z1"}})),
    );
    let requests = json!({"shared": {"Type": "csi", "Source": "volume-id"}});
    let at = |topology_contains| {
        let rules = VolumeRules {
            topology_contains,
            ..VolumeRules::default()
        };
        state.check("default", "j", &group(requests.clone()), "", &wider, rules)
    };
    assert_eq!(at(false), Err("did not meet topology requirement".into()));
    assert_eq!(at(true), Ok(()));
}

/// Write claims: a single-writer volume claimed by another job's live
/// allocation is exhausted; by the job's own, it is not; by an allocation
/// gone from the state, the claim is waiting to be released
/// (v1.3.0 feasible.go:334-352).
#[test]
fn write_claims_block_other_jobs_only() {
    let mut snapshot = csi_snapshot();
    let claimed = |writer: &str| -> crate::model::CsiVolume {
        parse(
            json!({"ID": "single", "Namespace": "default", "PluginID": "foo",
                     "AccessMode": "single-node-writer", "WriteAllocs": {writer: null}}),
        )
    };
    snapshot.csi_volumes = Some(vec![claimed("a1")]);
    let requests = json!({"data": {"Type": "csi", "Source": "single"}});
    let n0 = &csi_nodes()[0];
    let state = CsiState::new(&snapshot).unwrap();
    let rules = VolumeRules::default();
    assert_eq!(
        state.check("default", "other", &group(requests.clone()), "", n0, rules),
        Err("CSI volume single has exhausted its available writer claims".into())
    );
    assert_eq!(
        state.check("default", "j", &group(requests.clone()), "", n0, rules),
        Ok(())
    );
    snapshot.csi_volumes = Some(vec![claimed("gone")]);
    let state = CsiState::new(&snapshot).unwrap();
    assert_eq!(
        state.check("default", "j", &group(requests.clone()), "", n0, rules),
        Err(
            "CSI volume single has exhausted its available writer claims and is claimed by a \
             garbage collected allocation gone; waiting for claim to be released"
                .into()
        )
    );
    // A read-only request reads only whether the volume is schedulable:
    // with its plugin gone from CSIPlugins, it is not.
    snapshot.csi_plugins = Some(Vec::new());
    let state = CsiState::new(&snapshot).unwrap();
    let read = json!({"data": {"Type": "csi", "Source": "single", "ReadOnly": true}});
    assert_eq!(
        state.check("default", "j", &group(read), "", n0, rules),
        Err(
            "CSI volume single is unschedulable or has exhausted its available reader claims"
                .into()
        )
    );
}

fn host_node(volumes: Value) -> Node {
    parse(json!({"ID": "h", "HostVolumes": volumes}))
}

/// TestHostVolumeChecker (v1.3.0 feasible_test.go:92): the node must have
/// every requested source.
#[test]
fn feasible_test_go_v1_3_0_host_volume_checker() {
    let nodes = [
        host_node(Value::Null),
        host_node(json!({"foo": {"Name": "foo"}})),
        host_node(json!({"foo": {"Name": "foo"}, "bar": {"Name": "bar"}})),
        host_node(json!({"foo": {"Name": "foo"}, "bar": {"Name": "bar"},
                         "unique-volume[0]": {"Name": "unique-volume[0]"}})),
    ];
    let none = group(json!({}));
    let volumes = group(json!({
        "foo": {"Type": "host", "Source": "foo"},
        "bar": {"Type": "host", "Source": "bar"},
        "baz": {"Type": "nothost", "Source": "baz"}
    }));
    let rules = rules_at_1_3_0();
    let cases = [
        (&nodes[0], &none, true),
        (&nodes[1], &volumes, false),
        (&nodes[2], &volumes, true),
        (&nodes[3], &volumes, true),
    ];
    for (i, (node, tg, want)) in cases.into_iter().enumerate() {
        assert_eq!(has_host_volumes(tg, "", node, rules), want, "case {i}");
    }
}

/// `per_alloc` host volumes from #15780 (v1.5.0 feasible_test.go:112,
/// `TestHostVolumeChecker` "unique" case): the allocation `web[0]` needs
/// `unique-volume[0]`; before 1.5.0 `per_alloc` is not read for host
/// volumes and `unique-volume` itself is looked for.
#[test]
fn feasible_test_go_v1_5_0_host_volume_checker_per_alloc() {
    let node = host_node(json!({"foo": {}, "unique-volume[0]": {}}));
    let tg = group(json!({
        "foo": {"Type": "host", "Source": "foo"},
        "unique": {"Type": "host", "Source": "unique-volume", "PerAlloc": true}
    }));
    let at = |host_per_alloc| {
        let rules = VolumeRules {
            host_per_alloc,
            ..VolumeRules::default()
        };
        has_host_volumes(&tg, "example.web[0]", &node, rules)
    };
    assert!(at(true));
    assert!(!at(false));
    let rules = VolumeRules {
        host_per_alloc: true,
        ..VolumeRules::default()
    };
    assert!(!has_host_volumes(&tg, "example.web[1]", &node, rules));
}

/// TestHostVolumeChecker_ReadOnly (v1.3.0 feasible_test.go:176): a
/// read-only volume takes only read-only requests.
#[test]
fn feasible_test_go_v1_3_0_host_volume_checker_read_only() {
    let nodes = [
        host_node(json!({"foo": {"ReadOnly": true}})),
        host_node(json!({"foo": {"ReadOnly": false}})),
    ];
    let rw = group(json!({"foo": {"Type": "host", "Source": "foo"}}));
    let ro = group(json!({"foo": {"Type": "host", "Source": "foo", "ReadOnly": true}}));
    let rules = rules_at_1_3_0();
    assert!(!has_host_volumes(&rw, "", &nodes[0], rules));
    assert!(has_host_volumes(&ro, "", &nodes[0], rules));
    assert!(has_host_volumes(&rw, "", &nodes[1], rules));
    assert!(has_host_volumes(&ro, "", &nodes[1], rules));
}

/// #28202 (v2.0.4 feasible.go:400): a sticky request refuses a static
/// volume; a dynamic one (with an ID) is checked as static otherwise.
#[test]
fn a_sticky_request_refuses_a_static_host_volume_from_2_0_4() {
    let tg = group(json!({"foo": {"Type": "host", "Source": "foo", "Sticky": true}}));
    let at = |sticky_needs_dynamic, volume: Value| {
        let rules = VolumeRules {
            sticky_needs_dynamic,
            ..VolumeRules::default()
        };
        has_host_volumes(&tg, "", &host_node(json!({"foo": volume})), rules)
    };
    assert!(at(false, json!({})));
    assert!(!at(true, json!({})));
    assert!(at(true, json!({"ID": "dhv-1"})));
}

/// TestCSIVolumeChecker_PerAllocBlocking (v2.0.5 feasible_test.go:1197):
/// a `per_alloc` request for `test-volume` with no volume fails on every
/// node for `web[0]` and `web[1]`; once `test-volume[1]` exists, `web[1]`
/// passes everywhere and `web[0]` still fails. (Nomad also lists the
/// missing volumes on the eligibility tracker for the blocked evaluation,
/// which the report does not carry.) Before #28312, as at 1.3.0, the same
/// verdicts with the older wording.
#[test]
fn feasible_test_go_v2_0_5_csi_volume_checker_per_alloc_blocking() {
    let plugin = foo_plugin(true, json!({"Segments": {"rack": "R1"}}));
    let nodes: Vec<Node> = (0..3)
        .map(|i| node(&format!("n{i}"), plugin.clone()))
        .collect();
    let tg = group(json!({"test-volume": {"Name": "test-volume", "Type": "csi",
                                          "Source": "test-volume", "PerAlloc": true}}));
    let snapshot = |volumes: Vec<Value>| Snapshot {
        csi_volumes: Some(volumes.into_iter().map(parse).collect()),
        csi_plugins: Some(vec![parse(json!({"ID": "foo", "NodesHealthy": 3}))]),
        ..Snapshot::default()
    };
    let listed = VolumeRules {
        csi_missing_listed: true,
        ..VolumeRules::default()
    };
    for (rules, missing) in [
        (listed, "missing CSI volume(s) test-volume"),
        (rules_at_1_3_0(), "missing CSI Volume test-volume"),
    ] {
        let none = snapshot(Vec::new());
        let state = CsiState::new(&none).unwrap();
        for n in &nodes {
            for i in 0..2 {
                assert_eq!(
                    state.check("default", "j", &tg, &format!("web[{i}]"), n, rules),
                    Err(format!("{missing}[{i}]"))
                );
            }
        }
        let one = snapshot(vec![json!({
            "ID": "test-volume[1]", "Namespace": "default", "PluginID": "foo",
            "AccessMode": "multi-node-multi-writer", "AttachmentMode": "file-system",
            "ReadAllocs": {}, "WriteAllocs": {}})]);
        let state = CsiState::new(&one).unwrap();
        for n in &nodes {
            assert_eq!(
                state.check("default", "j", &tg, "web[0]", n, rules),
                Err(format!("{missing}[0]"))
            );
            assert_eq!(state.check("default", "j", &tg, "web[1]", n, rules), Ok(()));
        }
    }
}
