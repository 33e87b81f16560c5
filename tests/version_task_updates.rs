//! `tasksUpdated` as 1.7 to 1.11 changed it (the catalogue's section 5 from
//! 1.7.0 on): which job changes replace an allocation.
//!
//! Nomad's tests are ported under the profile of the tag that added them
//! (scheduler/util_test.go), each with the release before it giving the old
//! answer; rows without a Nomad test get a before/after test citing the
//! line of util.go that decides them.

use plan_inspect::model::*;
use plan_inspect::reconciler::Rules;
use plan_inspect::reconciler::{skips_feasibility, tasks_updated};
use plan_inspect::version::{Release, v};
use serde_json::{Value, json};

use crate::common::*;

fn job(edit: impl FnOnce(&mut Value)) -> Job {
    let mut j = mock_job_json();
    edit(&mut j);
    serde_json::from_value(j).unwrap()
}

fn task(j: &mut Value) -> &mut Value {
    &mut j["TaskGroups"][0]["Tasks"][0]
}

/// Why `tasksUpdated(a, b, "web")` replaces the allocation under `release`.
fn reason_in(release: Release, a: &Job, b: &Job) -> Option<String> {
    tasks_updated(a, b, "web", &Rules::new(release, true)).map(|d| d.reason)
}

/// TestTasksUpdated_NUMA (scheduler/util_test.go at v1.7.0): a changed
/// NUMA affinity is destructive; 1.6.10 has no NUMA block.
#[test]
fn test_tasks_updated_numa() {
    let numa =
        |affinity: &str| job(|j| task(j)["Resources"]["NUMA"] = json!({"Affinity": affinity}));
    let (j1, j2) = (numa("none"), numa("none"));
    assert_eq!(reason_in(v(1, 7, 0), &j1, &j2), None);
    let j2 = numa("require");
    assert_eq!(
        reason_in(v(1, 7, 0), &j1, &j2).as_deref(),
        Some("task \"web\": numa changed")
    );
    assert_eq!(reason_in(v(1, 6, 10), &j1, &j2), None);
    assert_eq!(reason_in(Release::Seed, &j1, &j2), None);
}

/// Extra workload identities are destructive from 1.7.0 (#18123; v1.7.0
/// scheduler/util.go:326); 1.6.10 reads only the default `Identity`.
#[test]
fn a_changed_identities_list_is_destructive_from_1_7_0() {
    let j1 = job(|_| {});
    let j2 =
        job(|j| task(j)["Identities"] = json!([{"Name": "consul", "Audience": ["consul.io"]}]));
    assert_eq!(
        reason_in(v(1, 7, 0), &j1, &j2).as_deref(),
        Some("task \"web\": identities changed")
    );
    assert_eq!(reason_in(v(1, 6, 10), &j1, &j2), None);
    let j3 = job(|j| task(j)["Identities"] = json!([{"Name": "consul", "Audience": ["other"]}]));
    assert!(reason_in(v(1, 8, 0), &j2, &j3).is_some());
}

/// The group's Consul cluster is destructive from 1.7.0 only when both
/// versions have a Consul block (v1.7.0 scheduler/util.go:383-386); the
/// namespace counts either way, as before.
#[test]
fn a_changed_group_consul_cluster_is_destructive_from_1_7_0() {
    let consul = |c: Value| job(|j| j["TaskGroups"][0]["Consul"] = c);
    let a = consul(json!({"Namespace": "", "Cluster": "default"}));
    let b = consul(json!({"Namespace": "", "Cluster": "other"}));
    assert_eq!(
        reason_in(v(1, 7, 0), &a, &b).as_deref(),
        Some("consul cluster changed")
    );
    assert_eq!(reason_in(v(1, 6, 10), &a, &b), None);
    let none = job(|_| {});
    assert_eq!(reason_in(v(1, 7, 0), &none, &b), None);
    let ns = consul(json!({"Namespace": "team", "Cluster": "other"}));
    assert_eq!(
        reason_in(v(1, 6, 10), &ns, &none).as_deref(),
        Some("consul namespace changed")
    );
}

/// A Connect service's Consul cluster is destructive from 1.7.0 (v1.7.0
/// scheduler/util.go:411), checked after its port label.
#[test]
fn a_changed_connect_service_cluster_is_destructive_from_1_7_0() {
    let service = |cluster: &str| {
        job(|j| {
            j["TaskGroups"][0]["Services"] = json!([{
                "Name": "api", "PortLabel": "http", "Cluster": cluster,
                "Connect": {"SidecarService": {"Port": "http"}}
            }])
        })
    };
    let (a, b) = (service("default"), service("east"));
    assert_eq!(
        reason_in(v(1, 7, 0), &a, &b).as_deref(),
        Some("connect service \"api\": cluster changed")
    );
    assert_eq!(reason_in(v(1, 6, 10), &a, &b), None);
}

/// The task's own Consul block is compared from 1.7.0 (v1.7.0
/// scheduler/util.go:292): its namespace always, its cluster when both
/// versions have one.
#[test]
fn a_changed_task_consul_block_is_destructive_from_1_7_0() {
    let consul = |c: Value| job(|j| task(j)["Consul"] = c);
    let none = job(|_| {});
    let ns = consul(json!({"Namespace": "team"}));
    assert_eq!(
        reason_in(v(1, 7, 0), &none, &ns).as_deref(),
        Some("task \"web\": consul namespace changed")
    );
    assert_eq!(reason_in(v(1, 6, 10), &none, &ns), None);
    let east = consul(json!({"Cluster": "east"}));
    let west = consul(json!({"Cluster": "west"}));
    assert_eq!(
        reason_in(v(1, 7, 0), &east, &west).as_deref(),
        Some("task \"web\": consul cluster changed")
    );
    assert_eq!(reason_in(v(1, 7, 0), &none, &west), None);
}

/// The Consul admin partition is destructive from 1.7.3 and 1.8.0
/// (#19665; v1.7.3 scheduler/util.go:388), on the group and the task,
/// when both versions have a Consul block.
#[test]
fn a_changed_consul_partition_is_destructive_from_1_7_3() {
    let group = |p: &str| job(|j| j["TaskGroups"][0]["Consul"] = json!({"Partition": p}));
    let (a, b) = (group("one"), group("two"));
    for release in [v(1, 7, 3), v(1, 8, 0)] {
        assert_eq!(
            reason_in(release, &a, &b).as_deref(),
            Some("consul partition changed"),
            "{release}"
        );
    }
    assert_eq!(reason_in(v(1, 7, 2), &a, &b), None);
    let in_task = |p: &str| job(|j| task(j)["Consul"] = json!({"Partition": p}));
    assert_eq!(
        reason_in(v(1, 7, 3), &in_task("one"), &in_task("two")).as_deref(),
        Some("task \"web\": consul partition changed")
    );
}

/// TestTasksUpdated, the volume mount steps j31 and j32
/// (scheduler/util_test.go at v1.8.0): a mount whose SELinux label changed
/// is destructive, and so is removing the mounts. 1.7.7 has no label on a
/// mount, so the first change is in place there.
#[test]
fn test_tasks_updated_volume_mount_selinux_label() {
    let j31 = job(|_| {});
    let j32 = job(|_| {});
    assert_eq!(reason_in(v(1, 8, 0), &j31, &j32), None);
    let mount = |label: &str| {
        job(|j| task(j)["VolumeMounts"] = json!([{"Volume": "myvolume", "SELinuxLabel": label}]))
    };
    let (j31, j32) = (mount("z"), mount(""));
    assert_eq!(
        reason_in(v(1, 8, 0), &j31, &j32).as_deref(),
        Some("task \"web\": volume mounts changed")
    );
    assert_eq!(reason_in(v(1, 7, 7), &j31, &j32), None);
    let removed = job(|j| task(j)["VolumeMounts"] = Value::Null);
    assert!(reason_in(v(1, 8, 0), &j31, &removed).is_some());
    assert!(reason_in(v(1, 7, 7), &j31, &removed).is_some());
}

/// The secrets tmpfs size (`resources.secrets`, #23696; v1.8.3
/// scheduler/util.go:371) and a network's CNI arguments (#23764; :547) are
/// destructive from 1.8.3 and 1.9.0.
#[test]
fn secrets_size_and_cni_args_are_destructive_from_1_8_3() {
    let size = |mb: i64| job(|j| task(j)["Resources"]["SecretsMB"] = json!(mb));
    let (a, b) = (size(1), size(2));
    let cni = |arg: &str| {
        job(|j| j["TaskGroups"][0]["Networks"][0]["CNI"] = json!({"Args": {"env": arg}}))
    };
    let (c, d) = (cni("dev"), cni("prod"));
    for release in [v(1, 8, 3), v(1, 9, 0)] {
        assert_eq!(
            reason_in(release, &a, &b).as_deref(),
            Some("task \"web\": secrets size changed"),
            "{release}"
        );
        assert_eq!(
            reason_in(release, &c, &d).as_deref(),
            Some("task group networks changed"),
            "{release}"
        );
    }
    assert_eq!(reason_in(v(1, 8, 2), &a, &b), None);
    assert_eq!(reason_in(v(1, 8, 2), &c, &d), None);
    assert_eq!(reason_in(v(1, 9, 0), &c, &cni("dev")), None);
}

/// TestTaskUpdatedAffinity and TestTaskUpdatedSpread
/// (scheduler/util_test.go at v1.9.7) hold to 1.9.x; v1.10.0 removed both
/// tests with the checks (#25109; v1.10.0 scheduler/util.go:217), so the
/// same changes are updated in place.
#[test]
fn affinity_and_spread_changes_are_in_place_from_1_10_0() {
    let j1 = job(|_| {});
    let affinity = json!([{"LTarget": "node.datacenter", "RTarget": "dc1", "Operand": "=",
                           "Weight": 100}]);
    let j2 = job(|j| j["TaskGroups"][0]["Affinities"] = affinity.clone());
    let j3 = job(|j| task(j)["Affinities"] = affinity.clone());
    let spread = json!([{"Attribute": "node.datacenter", "Weight": 100,
                         "SpreadTarget": [{"Value": "r1", "Percent": 50}]}]);
    let j4 = job(|j| j["TaskGroups"][0]["Spreads"] = spread.clone());
    for release in [Release::Seed, v(1, 8, 4), v(1, 9, 7)] {
        assert_eq!(
            reason_in(release, &j1, &j2).as_deref(),
            Some("affinities changed")
        );
        assert_eq!(
            reason_in(release, &j1, &j3).as_deref(),
            Some("affinities changed")
        );
        assert_eq!(
            reason_in(release, &j1, &j4).as_deref(),
            Some("spreads changed")
        );
    }
    for release in [v(1, 10, 0), v(1, 11, 0), Release::Head] {
        assert_eq!(reason_in(release, &j1, &j2), None, "{release}");
        assert_eq!(reason_in(release, &j1, &j3), None, "{release}");
        assert_eq!(reason_in(release, &j1, &j4), None, "{release}");
    }
}

/// TestTasksUpdated, the task secret step j33 (scheduler/util_test.go at
/// v1.11.0): adding a `secret` block is destructive; 1.10.5 has none.
#[test]
fn test_tasks_updated_task_secret() {
    let j32 = job(|_| {});
    let j33 = job(|_| {});
    assert_eq!(reason_in(v(1, 11, 0), &j32, &j33), None);
    let j33 = job(|j| {
        task(j)["Secrets"] = json!([{"Name": "mysecret", "Provider": "nomad", "Path": "/my/path"}])
    });
    assert_eq!(
        reason_in(v(1, 11, 0), &j32, &j33).as_deref(),
        Some("task \"web\": secrets changed")
    );
    assert_eq!(reason_in(v(1, 10, 5), &j32, &j33), None);
}

/// Nomad's label for the difference `tasksUpdated` finds under `release`.
fn label_in(release: Release, a: &Job, b: &Job) -> Option<&'static str> {
    tasks_updated(a, b, "web", &Rules::new(release, true)).and_then(|d| d.label)
}

/// #16421 (1.5.2, 1.6.0; v1.5.2 scheduler/util.go:262-281): typed `Equal`
/// methods, `maps.Equal` and `helper.OpaqueMapsEqual` replace
/// `reflect.DeepEqual`, so a nil list or map equals an empty one (in a
/// task's config at any depth); 1.5.1 replaces the allocation for each.
#[test]
fn nil_and_empty_lists_and_maps_are_equal_from_1_5_2() {
    let pairs: [(&str, Value, Value); 5] = [
        ("env", json!(null), json!({})),
        ("artifacts", json!(null), json!([])),
        ("templates", json!(null), json!([])),
        ("volume mounts", json!(null), json!([])),
        (
            "config",
            json!({"command": "/bin/date", "args": null}),
            json!({"command": "/bin/date", "args": []}),
        ),
    ];
    let key = |what: &str| match what {
        "env" => "Env",
        "artifacts" => "Artifacts",
        "templates" => "Templates",
        "volume mounts" => "VolumeMounts",
        _ => "Config",
    };
    for (what, nil, empty) in pairs {
        let a = job(|j| task(j)[key(what)] = nil.clone());
        let b = job(|j| task(j)[key(what)] = empty.clone());
        assert_eq!(
            reason_in(v(1, 5, 1), &a, &b),
            Some(format!("task \"web\": {what} changed")),
            "{what}"
        );
        for release in [v(1, 5, 2), v(1, 6, 0), Release::Head] {
            assert_eq!(reason_in(release, &a, &b), None, "{what} at {release}");
        }
    }
    // A nil block still differs from an empty one (`Vault.Equal`).
    let a = job(|j| task(j)["Vault"] = json!(null));
    let b = job(|j| task(j)["Vault"] = json!({"Policies": null}));
    assert_eq!(
        reason_in(v(1, 5, 2), &a, &b).as_deref(),
        Some("task \"web\": vault changed")
    );
    // A key added with an empty value is still a change of the map.
    let b = job(|j| task(j)["Env"] = json!({"FOO": "bar", "EMPTY": ""}));
    assert!(reason_in(v(1, 5, 2), &job(|_| {}), &b).is_some());
}

/// From 1.5.2 affinities compare as a set (`Affinities.Equal`, v1.5.2
/// nomad/structs/structs.go:9287): reordering them is in place; 1.5.1
/// compares them in order.
#[test]
fn reordered_affinities_are_in_place_from_1_5_2() {
    let affinity = |dc: &str| {
        json!({"LTarget": "node.datacenter", "RTarget": dc, "Operand": "=",
                                     "Weight": 50})
    };
    let a = job(|j| j["TaskGroups"][0]["Affinities"] = json!([affinity("dc1"), affinity("dc2")]));
    let b = job(|j| j["TaskGroups"][0]["Affinities"] = json!([affinity("dc2"), affinity("dc1")]));
    assert_eq!(
        reason_in(v(1, 5, 1), &a, &b).as_deref(),
        Some("affinities changed")
    );
    assert_eq!(reason_in(v(1, 5, 2), &a, &b), None);
    assert_eq!(reason_in(v(1, 9, 7), &a, &b), None);
    let c = job(|j| j["TaskGroups"][0]["Affinities"] = json!([affinity("dc2"), affinity("dc3")]));
    assert_eq!(
        reason_in(v(1, 9, 7), &a, &c).as_deref(),
        Some("affinities changed")
    );
}

/// From 1.5.2 each difference carries Nomad's label (`comparison.label`,
/// v1.5.2 scheduler/util.go:185-205), as the release words it; releases
/// before it name none.
#[test]
fn each_difference_carries_nomad_s_label_from_1_5_2() {
    let base = job(|_| {});
    let config = job(|j| task(j)["Config"]["command"] = json!("/bin/other"));
    assert_eq!(label_in(v(1, 5, 1), &base, &config), None);
    assert_eq!(label_in(v(1, 5, 2), &base, &config), Some("task config"));
    let cases: [(Release, Job, &str); 8] = [
        (
            v(1, 5, 2),
            job(|j| task(j)["Resources"]["CPU"] = json!(1000)),
            "task cpu",
        ),
        (
            v(1, 5, 2),
            job(|j| task(j)["Name"] = json!("other")),
            "task deleted",
        ),
        (
            v(1, 5, 2),
            job(|j| j["TaskGroups"][0]["Networks"][0]["Mode"] = json!("bridge")),
            "network mode",
        ),
        (
            v(1, 5, 2),
            job(|j| j["TaskGroups"][0]["Volumes"] = json!({"v": {"Name": "v"}})),
            "volume request",
        ),
        (
            v(1, 5, 4),
            job(|j| task(j)["LogConfig"] = json!({"Enabled": true})),
            "task log enabled",
        ),
        (
            v(1, 5, 5),
            job(|j| task(j)["LogConfig"] = json!({"Disabled": true})),
            "task log disabled",
        ),
        (
            v(1, 7, 0),
            job(|j| task(j)["Identities"] = json!([{"Name": "vault"}])),
            "task identity",
        ),
        (
            v(1, 8, 3),
            job(|j| task(j)["Resources"]["SecretsMB"] = json!(5)),
            "task secrets",
        ),
    ];
    for (release, changed, label) in cases {
        assert_eq!(
            label_in(release, &changed, &base),
            Some(label),
            "{label} at {release}"
        );
    }
}

/// H-2 (2.0.3; v2.0.3 scheduler/util.go:845-859), reproduced as written:
/// the new `max_run_duration` is read from a copy whose job was cleared, so
/// any batch or sysbatch allocation whose own job version sets one is
/// updated in place without the placement check, even when the new job
/// keeps the same value; 2.0.2 has no such shortcut, and a service group
/// (whose duration Nomad does not read) never takes it.
#[test]
fn max_run_duration_updates_skip_the_placement_check_from_2_0_3() {
    let alloc_of = |job_type: &str, max_run: Option<i64>| {
        let old = job(|j| {
            j["Type"] = json!(job_type);
            if let Some(d) = max_run {
                j["TaskGroups"][0]["MaxRunDuration"] = json!(d);
            }
        });
        Allocation {
            id: "a".into(),
            task_group: "web".into(),
            job: Some(std::sync::Arc::new(old)),
            ..Allocation::default()
        }
    };
    let rules = |release| Rules::new(release, true);
    let batch = alloc_of("batch", Some(3_600_000_000_000));
    assert!(skips_feasibility(&batch, &rules(v(2, 0, 3))));
    assert!(skips_feasibility(&batch, &rules(Release::Head)));
    assert!(skips_feasibility(
        &alloc_of("sysbatch", Some(1)),
        &rules(v(2, 0, 3))
    ));
    assert!(!skips_feasibility(&batch, &rules(v(2, 0, 2))));
    assert!(!skips_feasibility(&batch, &rules(v(1, 11, 3))));
    assert!(!skips_feasibility(
        &alloc_of("service", Some(1)),
        &rules(v(2, 0, 3))
    ));
    assert!(!skips_feasibility(
        &alloc_of("batch", None),
        &rules(v(2, 0, 3))
    ));
    assert!(!skips_feasibility(
        &alloc_of("batch", Some(0)),
        &rules(v(2, 0, 3))
    ));
}

/// TestServiceSched_JobModify_MaxRunDuration_InPlace
/// (scheduler/generic_sched_test.go at v2.0.3): a batch job whose only
/// change is its max_run_duration (1h to 4h) updates its one allocation in
/// place: no stop, no placement, no destructive update; under 2.0.3 the
/// update skips the placement check, under 2.0.2 it is the ordinary path.
#[test]
fn test_service_sched_job_modify_max_run_duration_in_place() {
    let mut c = Cluster::new();
    let mut first = mock_job();
    first.job_type = "batch".into();
    first.task_groups[0].count = 1;
    first.task_groups[0].max_run_duration = Some(3600 * plan_inspect::time::SECOND);
    let first = c.job(first);
    let id = c.alloc(&first, 0);
    let mut second = (*first).clone();
    second.task_groups[0].max_run_duration = Some(4 * 3600 * plan_inspect::time::SECOND);
    second.job_modify_index += 1;
    c.job(second);
    for release in [v(2, 0, 2), v(2, 0, 3)] {
        c.snapshot.nomad_version = Some(VersionRequest::Release(release));
        let r = c.replay_job(&first.id);
        let changes = web_changes(&r);
        assert_eq!(
            (
                changes.in_place_update,
                changes.destructive_update,
                changes.place,
                changes.stop
            ),
            (1, 0, 0, 0),
            "{release}"
        );
        assert_eq!(r.plan.in_place_update.len(), 1);
        assert_eq!(r.plan.in_place_update[0].alloc_id, id);
    }
    let alloc = c.alloc_ref(&id);
    assert!(skips_feasibility(alloc, &Rules::new(v(2, 0, 3), true)));
    assert!(!skips_feasibility(alloc, &Rules::new(v(2, 0, 2), true)));
}
