//! The host volume cases of scheduler/feasible/feasible_test.go at v2.0.5
//! (`TestHostVolumeChecker_Static`, `_StaticSticky`,
//! `_StaticStickyMultiVolume`, `_Dynamic`) as the replay can decide them:
//! the state dump carries no `HostVolumes` table (v2.0.5
//! helper/raftutil/fsm.go:202-222; fsm_ce.go:11-12 adds nothing), so a dynamic volume (a node volume
//! with an `ID`) is checked by its presence on the node, the one part of
//! Nomad's check (v2.0.5 scheduler/feasible/feasible.go:346-395) the node
//! alone answers. Clients report every dynamic volume with `ReadOnly`
//! false (v2.0.5 client/hostvolumemanager/host_volumes.go:340-349), so
//! the static read-only rule never refuses one.

use serde_json::{Value, json};

use super::*;
use crate::model::{Node, Release, TaskGroup, from_slice, v};
use crate::version::Switch;

fn parse<T: for<'de> serde::Deserialize<'de>>(v: Value) -> T {
    from_slice(v.to_string().as_bytes()).unwrap()
}

fn node(volumes: Value) -> Node {
    parse(json!({"ID": "n", "Status": "ready", "HostVolumes": volumes}))
}

fn group(volumes: Value) -> TaskGroup {
    parse(json!({"Name": "web", "Volumes": volumes}))
}

/// The host volume rules of `release`, as the replay sets them.
fn rules(release: Release) -> VolumeRules {
    VolumeRules {
        host_per_alloc: Switch::HostVolumePerAlloc.in_release(release),
        sticky_needs_dynamic: Switch::StickyHostVolumeDynamic.in_release(release),
        ..VolumeRules::default()
    }
}

const V2_0_5: Release = v(2, 0, 5);

/// `TestHostVolumeChecker_Static` (v2.0.5 feasible_test.go:148):
/// `mock.Alloc()` has no name, so the `per_alloc` request for
/// `unique-volume[0]` gets no suffix and names that volume.
#[test]
fn feasible_test_go_v2_0_5_host_volume_checker_static() {
    let nodes = [
        node(Value::Null),
        node(json!({"foo": {"Name": "foo"}})),
        node(json!({"foo": {}, "bar": {}, "unique-volume[0]": {}})),
        node(json!({"foo": {}, "bar": {}})),
        node(json!({"foo": {}, "baz": {}})),
    ];
    let volumes = group(json!({
        "foo": {"Type": "host", "Source": "foo"},
        "bar": {"Type": "host", "Source": "bar"},
        "baz": {"Type": "nothost", "Source": "baz"},
        "unique": {"Type": "host", "Source": "unique-volume[0]", "PerAlloc": true}
    }));
    let none = group(json!({}));
    let cases = [
        (&nodes[0], &volumes, false),
        (&nodes[1], &volumes, false),
        (&nodes[2], &volumes, true),
        (&nodes[3], &none, true),
        (&nodes[4], &none, true),
    ];
    for (i, (n, tg, want)) in cases.into_iter().enumerate() {
        assert_eq!(has_host_volumes(tg, "", n, rules(V2_0_5)), want, "case {i}");
    }
}

/// `TestHostVolumeChecker_StaticSticky` (v2.0.5 feasible_test.go:244): a
/// sticky request refuses a static volume, read-only or not (#28202,
/// v2.0.4 feasible.go:400); at 2.0.3 the static volume took it.
#[test]
fn feasible_test_go_v2_0_5_host_volume_checker_static_sticky() {
    let n = node(json!({"foo": {}}));
    let cases = [
        (
            json!({"Type": "host", "Source": "foo", "Sticky": true}),
            false,
        ),
        (
            json!({"Type": "host", "Source": "foo", "Sticky": true, "ReadOnly": true}),
            false,
        ),
        (json!({"Type": "host", "Source": "foo"}), true),
    ];
    for (req, want) in cases {
        let tg = group(json!({ "foo": req }));
        assert_eq!(has_host_volumes(&tg, "", &n, rules(V2_0_5)), want, "{req}");
        assert!(has_host_volumes(&tg, "", &n, rules(v(2, 0, 3))), "{req}");
    }
}

/// `TestHostVolumeChecker_StaticStickyMultiVolume` (v2.0.5
/// feasible_test.go:293): a dynamic and a static volume, both asked for
/// sticky: the static one makes the node infeasible whichever request is
/// looked at first (the replay checks every request, in source order).
#[test]
fn feasible_test_go_v2_0_5_host_volume_checker_static_sticky_multi_volume() {
    let n = node(json!({"dyn": {"ID": "dhv-1"}, "stat": {}}));
    for (first, second) in [("dyn", "stat"), ("stat", "dyn")] {
        let tg = group(json!({
            first: {"Type": "host", "Source": first, "Sticky": true,
                    "AccessMode": "single-node-single-writer", "AttachmentMode": "file-system"},
            second: {"Type": "host", "Source": second, "Sticky": true}
        }));
        assert!(
            !has_host_volumes(&tg, "", &n, rules(V2_0_5)),
            "{first} first"
        );
    }
    let dynamic_only = group(json!({"dyn": {"Type": "host", "Source": "dyn", "Sticky": true}}));
    assert!(has_host_volumes(&dynamic_only, "", &n, rules(V2_0_5)));
}

/// `TestHostVolumeChecker_Dynamic` (v2.0.5 feasible_test.go:354), its
/// eight rows. The four static rows are decided as Nomad does; node 2 has
/// no volume at all. The three dynamic rows on nodes 3 and 4 agree with
/// Nomad because those volumes are ready and have the capability asked
/// for, which the replay cannot see: it passes any dynamic volume that is
/// on the node (the last assertion), where Nomad would also look up its
/// state, namespace, capabilities and claims.
#[test]
fn feasible_test_go_v2_0_5_host_volume_checker_dynamic() {
    let nodes = [
        node(json!({"foo": {"ReadOnly": true}})),
        node(json!({"foo": {"ReadOnly": false}})),
        node(json!({})),
        node(json!({"foo": {"ID": "dhv-read-only"}})),
        node(json!({"foo": {"ID": "dhv-read-write"}})),
    ];
    let read_write = group(json!({"foo": {"Type": "host", "Source": "foo"}}));
    let read_only = group(json!({"foo": {"Type": "host", "Source": "foo", "ReadOnly": true}}));
    let dhv_read_only = group(
        json!({"foo": {"Type": "host", "Source": "foo", "ReadOnly": true,
        "AccessMode": "single-node-reader-only", "AttachmentMode": "file-system"}}),
    );
    let dhv_read_write = group(json!({"foo": {"Type": "host", "Source": "foo",
        "AccessMode": "single-node-writer", "AttachmentMode": "file-system"}}));
    let cases = [
        (&nodes[0], &read_write, false),
        (&nodes[0], &read_only, true),
        (&nodes[1], &read_only, true),
        (&nodes[1], &read_write, true),
        (&nodes[2], &dhv_read_only, false),
        (&nodes[3], &dhv_read_only, true),
        (&nodes[4], &dhv_read_only, true),
        (&nodes[4], &dhv_read_write, true),
    ];
    for (i, (n, tg, want)) in cases.into_iter().enumerate() {
        assert_eq!(has_host_volumes(tg, "", n, rules(V2_0_5)), want, "case {i}");
    }
    // Nomad refuses a read-write request on a volume whose only capability
    // is single-node-reader-only (feasible.go:442-453); without the table
    // the replay passes it.
    assert!(has_host_volumes(
        &dhv_read_write,
        "",
        &nodes[3],
        rules(V2_0_5)
    ));
}
