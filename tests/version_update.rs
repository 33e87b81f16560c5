//! `tasksUpdated` and `genericAllocUpdateFn` as 1.3 to 1.6 changed them
//! (the catalogue's section 5): which job changes replace an allocation.
//!
//! Nomad's tests are ported under the profile of the tag that added them
//! (scheduler/util_test.go), each with the release before it giving the old
//! answer.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::reconciler::Rules;
use plan_inspect::reconciler::{UpdateKind, alloc_update_kind, tasks_updated};
use plan_inspect::version::{Release, v};
use serde_json::{Value, json};

use crate::common::*;

fn job(edit: impl FnOnce(&mut Value)) -> Job {
    let mut j = mock_job_json();
    edit(&mut j);
    serde_json::from_value(j).unwrap()
}

fn updated_in(release: Release, a: &Job, b: &Job) -> bool {
    tasks_updated(a, b, "web", &Rules::new(release, true)).is_some()
}

/// TestTasksUpdated, the volume and CSI plugin steps
/// (scheduler/util_test.go at v1.3.2): adding or altering a group volume,
/// and altering a task's `csi_plugin`, are destructive.
#[test]
fn test_tasks_updated_volumes_and_csi_plugin() {
    let j24 = job(|_| {});
    let volume = |read_only: bool| {
        json!({"myvolume": {"Name": "myvolume", "Type": "csi", "Source": "test-volume[0]",
                            "ReadOnly": read_only}})
    };
    let j25 = job(|j| j["TaskGroups"][0]["Volumes"] = volume(false));
    let j26 = job(|j| j["TaskGroups"][0]["Volumes"] = volume(true));
    let plugin = |kind: &str| json!({"ID": "myplugin", "Type": kind});
    let j27 = job(|j| j["TaskGroups"][0]["Tasks"][0]["CSIPluginConfig"] = plugin("node"));
    let j28 = job(|j| j["TaskGroups"][0]["Tasks"][0]["CSIPluginConfig"] = plugin("monolith"));
    for release in [v(1, 3, 2), v(1, 4, 0)] {
        assert!(updated_in(release, &j24, &j25), "{release}");
        assert!(updated_in(release, &j25, &j26), "{release}");
        assert!(updated_in(release, &j27, &j28), "{release}");
    }
    // 1.3.0 and 1.3.1 replace for the plugin but not the volumes (B-1v).
    for release in [v(1, 3, 0), v(1, 3, 1)] {
        assert!(!updated_in(release, &j24, &j25), "{release}");
        assert!(!updated_in(release, &j25, &j26), "{release}");
        assert!(updated_in(release, &j27, &j28), "{release}");
    }
    assert!(!updated_in(Release::Seed, &j27, &j28));
}

/// A changed `volume_mount` is destructive from 1.3.2 (v1.3.2
/// scheduler/util.go:76), in place before.
#[test]
fn a_changed_volume_mount_is_destructive_from_1_3_2() {
    let mount = |dest: &str| json!([{"Volume": "myvolume", "Destination": dest}]);
    let a = job(|j| j["TaskGroups"][0]["Tasks"][0]["VolumeMounts"] = mount("/a"));
    let b = job(|j| j["TaskGroups"][0]["Tasks"][0]["VolumeMounts"] = mount("/b"));
    assert!(!updated_in(v(1, 3, 1), &a, &b));
    assert_eq!(
        tasks_updated(&a, &b, "web", &Rules::new(v(1, 3, 2), true)).as_deref(),
        Some("task \"web\": volume mounts changed")
    );
}

/// TestTasksUpdated_Identity (scheduler/util_test.go at v1.5.0): setting a
/// task identity where there was none is destructive; 1.4.14 updates it in
/// place.
#[test]
fn test_tasks_updated_identity() {
    let j1 = job(|j| j["TaskGroups"][0]["Tasks"][0]["Identity"] = Value::Null);
    let j2 = job(|j| j["TaskGroups"][0]["Tasks"][0]["Identity"] = Value::Null);
    assert!(!updated_in(v(1, 5, 0), &j1, &j2));
    let with_identity = job(|j| j["TaskGroups"][0]["Tasks"][0]["Identity"] = json!({}));
    assert!(updated_in(v(1, 5, 0), &with_identity, &j2));
    assert!(!updated_in(v(1, 4, 14), &with_identity, &j2));
}

/// TestTaskGroupUpdated_Restart (scheduler/util_test.go at v1.6.2):
/// `render_templates` on the group's or a task's restart policy is
/// destructive; 1.6.1 and 1.5.17 update it in place.
#[test]
fn test_task_group_updated_restart() {
    let policy = json!({"Attempts": 2, "Interval": 1800000000000_i64, "Delay": 15000000000_i64,
                        "Mode": "fail", "RenderTemplates": true});
    let j1 = job(|_| {});
    let j2 = job(|j| j["TaskGroups"][0]["RestartPolicy"] = policy.clone());
    let j3 = job(|j| j["TaskGroups"][0]["Tasks"][0]["RestartPolicy"] = policy.clone());
    for release in [v(1, 6, 2), v(1, 7, 0)] {
        assert!(!updated_in(release, &j1, &j1), "{release}");
        assert!(updated_in(release, &j1, &j2), "{release}");
        assert!(updated_in(release, &j1, &j3), "{release}");
    }
    for release in [v(1, 6, 1), v(1, 5, 17)] {
        assert!(!updated_in(release, &j1, &j2), "{release}");
        assert!(!updated_in(release, &j1, &j3), "{release}");
    }
}

/// Switching log collection off is destructive from 1.5.4 and 1.6.0
/// (#16962): 1.5.4 reads the switch as `LogConfig.Enabled`, later releases
/// as `LogConfig.Disabled` (v1.5.4 and v1.5.5 scheduler/util.go:308).
#[test]
fn a_log_collection_switch_is_destructive_from_1_5_4() {
    let logs = |key: &str, on: bool| {
        job(|j| {
            j["TaskGroups"][0]["Tasks"][0]["LogConfig"] =
                json!({"MaxFiles": 10, "MaxFileSizeMB": 10, key: on})
        })
    };
    let (enabled, not_enabled) = (logs("Enabled", true), logs("Enabled", false));
    let (disabled, not_disabled) = (logs("Disabled", true), logs("Disabled", false));
    assert!(!updated_in(v(1, 5, 3), &disabled, &not_disabled));
    assert!(updated_in(v(1, 5, 4), &enabled, &not_enabled));
    assert!(!updated_in(v(1, 5, 4), &disabled, &not_disabled));
    assert!(updated_in(v(1, 5, 5), &disabled, &not_disabled));
    assert!(!updated_in(v(1, 5, 5), &enabled, &not_enabled));
    assert!(updated_in(v(1, 6, 0), &disabled, &not_disabled));
}

/// An allocation of `old` on `node`, checked against `new`.
fn kind_in(release: Release, old: &Job, new: &Job, node: &Node) -> UpdateKind {
    let alloc = Allocation {
        id: "a".into(),
        node_id: node.id.as_str().into(),
        task_group: "web".into(),
        job: Some(Arc::new(old.clone())),
        desired_status: status::RUN.into(),
        client_status: status::RUNNING.into(),
        ..Allocation::default()
    };
    let rules = Rules::new(release, true);
    alloc_update_kind(&alloc, new, &new.task_groups[0], Some(node), &rules)
}

fn node_in(dc: &str, pool: &str) -> Node {
    Node {
        id: "n1".into(),
        datacenter: dc.into(),
        node_pool: pool.into(),
        status: node_status::READY.into(),
        ..Node::default()
    }
}

/// TestInplaceUpdate_WildcardDatacenters (scheduler/util_test.go at
/// v1.5.1): with `datacenters = ["*"]` an update of the job keeps the
/// allocation in place; 1.5.0 replaces it, its node matching no
/// datacenter by name.
#[test]
fn test_inplace_update_wildcard_datacenters() {
    let old = job(|j| j["Datacenters"] = json!(["*"]));
    let new = job(|j| {
        j["Datacenters"] = json!(["*"]);
        j["JobModifyIndex"] = json!(200);
        j["Priority"] = json!(60);
    });
    let node = node_in("dc1", "");
    for release in [v(1, 5, 1), v(1, 6, 0)] {
        assert_eq!(kind_in(release, &old, &new, &node), UpdateKind::InPlace);
    }
    assert_eq!(
        kind_in(v(1, 5, 0), &old, &new, &node),
        UpdateKind::Destructive(Arc::new(
            "node n1 is no longer in the job's datacenters (it is in \"dc1\")".into()
        ))
    );
    let partial = job(|j| {
        j["Datacenters"] = json!(["d*1"]);
        j["JobModifyIndex"] = json!(200);
    });
    assert_eq!(
        kind_in(v(1, 6, 0), &old, &partial, &node),
        UpdateKind::InPlace
    );
}

/// TestInplaceUpdate_NodePools (scheduler/util_test.go at v1.6.0): an
/// allocation whose node left the job's pool is replaced; 1.5.17 does not
/// read pools.
#[test]
fn test_inplace_update_node_pools() {
    let old = job(|j| j["NodePool"] = json!("default"));
    let new = job(|j| {
        j["NodePool"] = json!("default");
        j["JobModifyIndex"] = json!(200);
    });
    let in_pool = node_in("dc1", "default");
    let other = node_in("dc1", "other");
    assert_eq!(
        kind_in(v(1, 6, 0), &old, &new, &in_pool),
        UpdateKind::InPlace
    );
    assert_eq!(
        kind_in(v(1, 6, 0), &old, &new, &other),
        UpdateKind::Destructive(Arc::new(
            "node n1 is no longer in the job's node pool (it is in \"other\")".into()
        ))
    );
    assert_eq!(
        kind_in(v(1, 5, 17), &old, &new, &other),
        UpdateKind::InPlace
    );
    let all = job(|j| {
        j["NodePool"] = json!("all");
        j["JobModifyIndex"] = json!(200);
    });
    assert_eq!(kind_in(v(1, 6, 0), &old, &all, &other), UpdateKind::InPlace);
}
