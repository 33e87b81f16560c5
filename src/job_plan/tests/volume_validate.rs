//! Volume requests and mounts: nomad/structs/volume_test.go (v1.3.0),
//! volumes_test.go (v2.0.5) `TestVolumeRequest_Validate`, and the volume
//! cases of structs_test.go `TestTaskGroup_Validate` and `TestTask_Validate`
//! (v1.3.0, v2.0.5), with the releases between where the rules changed.

use serde_json::{Map, Value, json};

use super::super::group_validate::group_errors;
use super::super::volume_validate::{legacy_mount_errors, mount_errors, volume_errors};
use super::rules_of;
use crate::model::{Release, v};

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

/// The one volume `foo`'s error in a group of `count` with `canaries`.
fn request(req: Value, kind: &str, count: i64, canaries: i64, r: Release) -> Vec<String> {
    let g = obj(json!({"Count": count, "Update": {"Canary": canaries},
        "Volumes": {"foo": req}}));
    volume_errors(&g, kind, rules_of(r))
}

fn one(errs: &[&str]) -> Vec<String> {
    let list: String = errs.iter().map(|e| format!("\t* {e}\n")).collect();
    let what = if errs.len() == 1 { "error" } else { "errors" };
    vec![format!(
        "Task group volume validation for foo failed: {} {what} occurred:\n{list}\n",
        errs.len()
    )]
}

#[test]
fn volume_test_go_v1_3_0_volume_request_validate() {
    let r = v(1, 3, 0);
    assert_eq!(
        request(json!({"Type": "host"}), "service", 0, 0, r),
        one(&["volume has an empty source"])
    );
    let csi_config = json!({"Type": "host", "AccessMode": "single-node-reader-only",
        "AttachmentMode": "block-device",
        "MountOptions": {"FSType": "ext4", "MountFlags": ["ro"]}, "PerAlloc": true});
    assert_eq!(
        request(csi_config, "service", 0, 0, r),
        one(&[
            "volume has an empty source",
            "host volumes cannot have an attachment mode",
            "host volumes cannot have an access mode",
            "host volumes cannot have mount options",
            "host volumes do not support per_alloc",
        ])
    );
    let single_writer = json!({"Type": "csi", "Source": "s", "AttachmentMode": "file-system",
        "AccessMode": "multi-node-single-writer"});
    assert_eq!(
        request(single_writer, "service", 2, 0, r),
        one(&["volume with multi-node-single-writer access mode allows only one writer"])
    );
    let reader = json!({"Type": "csi", "Source": "s", "AttachmentMode": "file-system",
        "AccessMode": "single-node-reader-only", "ReadOnly": true});
    assert_eq!(
        request(reader, "service", 2, 0, r),
        one(&["volume with single-node-reader-only access mode allows only one reader"])
    );
    // The per_alloc checks follow the modes until #15780 (1.5.0); a system
    // job's per_alloc volume is accepted before #16030.
    let per_alloc = json!({"Type": "csi", "PerAlloc": true});
    assert_eq!(
        request(per_alloc, "system", 1, 1, r),
        one(&[
            "volume has an empty source",
            "CSI volumes must have an attachment mode",
            "CSI volumes must have an access mode",
            "volume cannot be per_alloc when canaries are in use",
        ])
    );
    assert_eq!(
        request(json!({"Type": "nfs"}), "service", 1, 0, r),
        ["Task group volume validation for foo failed: volume has unrecognized type nfs"]
    );
}

#[test]
fn volumes_test_go_v2_0_5_volume_request_validate() {
    let r = v(2, 0, 5);
    let csi_config = json!({"Type": "host", "AccessMode": "single-node-reader-only",
        "AttachmentMode": "block-device",
        "MountOptions": {"FSType": "ext4", "MountFlags": ["ro"]}, "PerAlloc": true});
    assert_eq!(
        request(csi_config, "system", 0, 1, r),
        one(&[
            "volume has an empty source",
            "volume cannot be per_alloc for system or sysbatch jobs",
            "volume cannot be per_alloc when canaries are in use",
            "host volumes cannot have mount options",
            "single-node-reader-only volumes must be read-only",
        ])
    );
    let per_alloc = json!({"Type": "csi", "Source": "s", "AttachmentMode": "file-system",
        "AccessMode": "single-node-writer", "PerAlloc": true});
    assert_eq!(
        request(per_alloc, "system", 2, 1, r),
        one(&[
            "volume cannot be per_alloc for system or sysbatch jobs",
            "volume cannot be per_alloc when canaries are in use",
        ])
    );
    let sticky = json!({"Type": "csi", "Source": "s", "AttachmentMode": "file-system",
        "AccessMode": "multi-node-multi-writer", "PerAlloc": true, "Sticky": true});
    assert_eq!(
        request(sticky.clone(), "service", 1, 0, r),
        one(&["volume cannot be per_alloc and sticky at the same time"])
    );
    let bad_mode = json!({"Type": "host", "Source": "s", "AccessMode": "invalid-access-mode"});
    assert_eq!(
        request(bad_mode.clone(), "service", 1, 0, r),
        one(&["host volumes cannot be mounted with invalid-access-mode access mode"])
    );
    // #27159 (1.11.1, 2.0.0): before, Go printed the missing argument.
    assert_eq!(
        request(bad_mode, "service", 1, 0, v(1, 10, 5)),
        one(&["host volumes cannot be mounted with %!s(MISSING) access mode"])
    );
    // #24714 (1.10.0): sticky per_alloc volumes are accepted before.
    assert!(request(sticky, "service", 1, 0, v(1, 9, 7)).is_empty());
}

/// #16030 (1.3.10, 1.4.5, 1.5.0) refuses a system job's per_alloc volume;
/// #15780 (1.5.0) accepts a per_alloc host volume and checks it first.
#[test]
fn per_alloc_volumes_at_the_releases_between() {
    let csi = json!({"Type": "csi", "Source": "s", "AttachmentMode": "file-system",
        "AccessMode": "single-node-writer", "PerAlloc": true});
    for (r, refused) in [
        (v(1, 3, 9), false),
        (v(1, 3, 10), true),
        (v(1, 4, 4), false),
        (v(1, 4, 5), true),
        (v(1, 5, 0), true),
    ] {
        let want = if refused {
            one(&["volume cannot be per_alloc for system or sysbatch jobs"])
        } else {
            Vec::new()
        };
        assert_eq!(request(csi.clone(), "sysbatch", 1, 0, r), want, "{r}");
    }
    let host = json!({"Type": "host", "Source": "s", "PerAlloc": true});
    assert_eq!(
        request(host.clone(), "service", 2, 1, v(1, 4, 14)),
        one(&["host volumes do not support per_alloc"])
    );
    assert_eq!(
        request(host, "service", 2, 1, v(1, 5, 0)),
        one(&["volume cannot be per_alloc when canaries are in use"])
    );
}

/// The mounts' errors: the group's before #17344 (1.6.0), the task's from
/// then, with `VolumeMount.Validate`'s nested list from #19839 (1.8.0).
#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_group_validate_volume_mounts() {
    let g = obj(json!({"Volumes": {"foo": {"Type": "host", "Source": "foo"}}}));
    let empty = obj(json!({"Name": "task-a", "VolumeMounts": [{"Volume": ""}]}));
    let undefined = obj(json!({"Name": "task-b", "VolumeMounts": [{"Volume": "foob"}]}));
    let r = rules_of(v(1, 3, 0));
    assert_eq!(
        legacy_mount_errors(&empty, &g, r),
        ["Task task-a has a volume mount (0) referencing an empty volume"]
    );
    assert_eq!(
        legacy_mount_errors(&undefined, &g, r),
        ["Task task-b has a volume mount (0) referencing undefined volume foob"]
    );
    assert!(mount_errors(&undefined, &g, r).is_empty());
    let r = rules_of(v(1, 6, 0));
    assert!(legacy_mount_errors(&undefined, &g, r).is_empty());
    assert_eq!(
        mount_errors(&empty, &g, r),
        ["Volume Mount (0) references an empty volume"]
    );
    assert_eq!(
        mount_errors(&undefined, &g, r),
        ["Volume Mount (0) references undefined volume foob"]
    );
    let r = rules_of(v(2, 0, 5));
    assert_eq!(
        mount_errors(&empty, &g, r),
        [
            "Volume Mount (0) references undefined volume ",
            "Volume Mount (0) is invalid: \"1 error occurred:\n\t* volume mount references an empty volume\n\n\""
        ]
    );
    assert_eq!(
        mount_errors(&undefined, &g, r),
        ["Volume Mount (0) references undefined volume foob"]
    );
}

#[test]
fn volume_mount_propagation_mode_and_selinux_label() {
    let g = obj(json!({"Volumes": {"foo": {"Type": "host", "Source": "foo"}}}));
    let t = obj(json!({"Name": "web", "VolumeMounts": [{"Volume": "foo"},
        {"Volume": "foo", "PropagationMode": "shared", "SELinuxLabel": "q"}]}));
    assert_eq!(
        mount_errors(&t, &g, rules_of(v(1, 3, 0))),
        ["Volume Mount (1) has an invalid propagation mode: \"shared\""]
    );
    assert_eq!(
        mount_errors(&t, &g, rules_of(v(1, 8, 0))),
        [
            "Volume Mount (1) is invalid: \"2 errors occurred:\n\t* volume mount has an invalid propagation mode: \"shared\"\n\t* volume mount has an invalid SELinux label: \"q\"\n\n\""
        ]
    );
}

/// In the group's list, the volumes come after the leader and before the
/// networks, and before 1.6.0 a task's mounts before its own errors.
#[test]
fn volume_errors_take_their_place_in_the_group_s_list() {
    let task = json!({"Name": "web", "Driver": "exec",
        "Resources": {"CPU": 100, "MemoryMB": 100},
        "LogConfig": {"MaxFiles": 1, "MaxFileSizeMB": 1},
        "VolumeMounts": [{"Volume": "data"}], "ShutdownDelay": -1});
    let g = json!({"Name": "web", "Count": 1, "Tasks": [task, task],
        "RestartPolicy": {"Interval": 300_000_000_000_i64, "Delay": 1, "Attempts": 1,
                          "Mode": "fail"},
        "EphemeralDisk": {"SizeMB": 300},
        "Volumes": {"b": {"Type": "host"}, "a": {"Type": "nfs"}}});
    let errs = group_errors(
        g.as_object().unwrap(),
        "system",
        false,
        rules_of(v(1, 5, 17)),
    );
    let task_err = "Task web validation failed: 1 error occurred:\n\t* ShutdownDelay must be a positive value\n\n";
    let mount = "Task web has a volume mount (0) referencing undefined volume data";
    assert_eq!(
        errs,
        [
            "Task 2 redefines 'web' from task 1",
            "Task group volume validation for a failed: volume has unrecognized type nfs",
            "Task group volume validation for b failed: 1 error occurred:\n\t* volume has an empty source\n\n",
            mount,
            task_err,
            mount,
            task_err,
        ]
    );
    let errs = group_errors(
        g.as_object().unwrap(),
        "system",
        false,
        rules_of(v(1, 6, 0)),
    );
    let task_err = "Task web validation failed: 2 errors occurred:\n\t* ShutdownDelay must be a positive value\n\t* Volume Mount (0) references undefined volume data\n\n";
    assert_eq!(errs[3..], [task_err, task_err]);
}
