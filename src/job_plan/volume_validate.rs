//! A group's volume requests (`VolumeRequest.Validate`, v1.3.0
//! nomad/structs/volumes.go:105, v2.0.5 :147) and its tasks' volume
//! mounts: before #17344 (1.6.0) checked by the group (v1.3.0
//! structs.go:6472), then by `Task.Validate` (v2.0.5 structs.go:8367), with
//! `VolumeMount.Validate` (v2.0.5 volumes.go:326) from #19839 (1.8.0).

use serde_json::{Map, Value};

use super::json_map::{list, text};
use super::multierror::multierror;
use crate::model::go_quote;
use crate::version::{Switch, Switches};

fn flag(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key).and_then(Value::as_bool) == Some(true)
}

/// `Task group volume validation for <name> failed: ...` for each failing
/// volume. Nomad walks a Go map, so two failing volumes come in any order;
/// plan-inspect lists them by name.
pub(crate) fn volume_errors(g: &Map<String, Value>, kind: &str, rules: Switches) -> Vec<String> {
    let Some(volumes) = g.get("Volumes").and_then(Value::as_object) else {
        return Vec::new();
    };
    let count = g.get("Count").and_then(Value::as_i64).unwrap_or(0);
    let canaries = g
        .get("Update")
        .and_then(|u| u.get("Canary"))
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let mut names: Vec<&String> = volumes.keys().collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|name| {
            let v = volumes[name].as_object()?;
            let err = request_error(v, kind, count, canaries, rules)?;
            Some(format!(
                "Task group volume validation for {name} failed: {err}"
            ))
        })
        .collect()
}

/// One request's error: an unknown type alone, else the list of faults.
fn request_error(
    v: &Map<String, Value>,
    kind: &str,
    count: i64,
    canaries: i64,
    rules: Switches,
) -> Option<String> {
    let kind_of_volume = text(v, "Type");
    if !matches!(kind_of_volume.as_str(), "host" | "csi") {
        return Some(format!("volume has unrecognized type {kind_of_volume}"));
    }
    let host = kind_of_volume == "host";
    let mut errs = Vec::new();
    if text(v, "Source").is_empty() {
        errs.push("volume has an empty source".to_string());
    }
    let per_alloc = flag(v, "PerAlloc");
    let per_alloc_checks = |errs: &mut Vec<String>| {
        if per_alloc {
            if matches!(kind, "system" | "sysbatch") && rules.has(Switch::PerAllocNotSystem) {
                errs.push("volume cannot be per_alloc for system or sysbatch jobs".into());
            }
            if canaries > 0 {
                errs.push("volume cannot be per_alloc when canaries are in use".into());
            }
            if flag(v, "Sticky") && rules.has(Switch::StickyPerAlloc) {
                errs.push("volume cannot be per_alloc and sticky at the same time".into());
            }
        }
    };
    if rules.has(Switch::HostVolumePerAlloc) {
        per_alloc_checks(&mut errs);
    }
    let access = text(v, "AccessMode");
    let attachment = text(v, "AttachmentMode");
    let mount_options = v.get("MountOptions").is_some_and(|o| !o.is_null());
    if host {
        if rules.has(Switch::HostVolumeModes) {
            if mount_options {
                errs.push("host volumes cannot have mount options".into());
            }
            host_access_error(&access, flag(v, "ReadOnly"), rules, &mut errs);
        } else {
            if !attachment.is_empty() {
                errs.push("host volumes cannot have an attachment mode".into());
            }
            if !access.is_empty() {
                errs.push("host volumes cannot have an access mode".into());
            }
            if mount_options {
                errs.push("host volumes cannot have mount options".into());
            }
            if per_alloc && !rules.has(Switch::HostVolumePerAlloc) {
                errs.push("host volumes do not support per_alloc".into());
            }
        }
    } else {
        csi_errors(v, &access, &attachment, mount_options, count, &mut errs);
        if !rules.has(Switch::HostVolumePerAlloc) {
            per_alloc_checks(&mut errs);
        }
    }
    (!errs.is_empty()).then(|| multierror(&errs))
}

/// From #24896 (1.10.0) a host volume's access mode: a reader one must be
/// read-only, an unknown one is refused.
fn host_access_error(access: &str, read_only: bool, rules: Switches, errs: &mut Vec<String>) {
    match access {
        "single-node-reader-only" if !read_only => {
            errs.push(format!("{access} volumes must be read-only"));
        }
        "single-node-reader-only"
        | "single-node-writer"
        | "single-node-single-writer"
        | "single-node-multi-writer"
        | "" => {}
        _ if rules.has(Switch::HostAccessModeNamed) => {
            errs.push(format!(
                "host volumes cannot be mounted with {access} access mode"
            ));
        }
        _ => errs.push("host volumes cannot be mounted with %!s(MISSING) access mode".into()),
    }
}

/// A CSI volume's attachment and access modes against its count.
fn csi_errors(
    v: &Map<String, Value>,
    access: &str,
    attachment: &str,
    mount_options: bool,
    count: i64,
    errs: &mut Vec<String>,
) {
    match attachment {
        "" => errs.push("CSI volumes must have an attachment mode".into()),
        "block-device" if mount_options => {
            errs.push("block devices cannot have mount options".into());
        }
        _ => {}
    }
    let (read_only, per_alloc) = (flag(v, "ReadOnly"), flag(v, "PerAlloc"));
    let shared = count > 1 && !per_alloc;
    match access {
        "" => errs.push("CSI volumes must have an access mode".into()),
        "single-node-reader-only" => {
            if !read_only {
                errs.push(format!("{access} volumes must be read-only"));
            }
            if shared {
                errs.push(format!(
                    "volume with {access} access mode allows only one reader"
                ));
            }
        }
        "single-node-writer" if shared => errs.push(format!(
            "volume with {access} access mode allows only one reader or writer"
        )),
        "multi-node-reader-only" if !read_only => {
            errs.push(format!("{access} volumes must be read-only"));
        }
        "multi-node-single-writer" if !read_only && shared => errs.push(format!(
            "volume with {access} access mode allows only one writer"
        )),
        _ => {}
    }
}

/// Before #17344 (1.6.0) the group refuses, before each task's own errors,
/// its mounts of an empty or undefined volume.
pub(crate) fn legacy_mount_errors(
    t: &Map<String, Value>,
    g: &Map<String, Value>,
    rules: Switches,
) -> Vec<String> {
    if rules.has(Switch::TaskValidateRefactor) {
        return Vec::new();
    }
    let name = text(t, "Name");
    mounts(t)
        .enumerate()
        .filter_map(|(i, m)| {
            let volume = text(&m, "Volume");
            if volume.is_empty() {
                Some(format!(
                    "Task {name} has a volume mount ({i}) referencing an empty volume"
                ))
            } else {
                (!defined(g, &volume)).then(|| {
                    format!(
                        "Task {name} has a volume mount ({i}) referencing undefined volume {volume}"
                    )
                })
            }
        })
        .collect()
}

/// The task's own errors of its volume mounts, in Nomad's order.
pub(crate) fn mount_errors(
    t: &Map<String, Value>,
    g: &Map<String, Value>,
    rules: Switches,
) -> Vec<String> {
    let mut errs = Vec::new();
    for (i, m) in mounts(t).enumerate() {
        let volume = text(&m, "Volume");
        let mode = text(&m, "PropagationMode");
        let mode_valid = matches!(
            mode.as_str(),
            "" | "private" | "host-to-task" | "bidirectional"
        );
        if rules.has(Switch::VolumeMountValidate) {
            if !defined(g, &volume) {
                errs.push(format!(
                    "Volume Mount ({i}) references undefined volume {volume}"
                ));
            }
            let mut inner = Vec::new();
            if volume.is_empty() {
                inner.push("volume mount references an empty volume".to_string());
            }
            if !mode_valid {
                inner.push(format!(
                    "volume mount has an invalid propagation mode: {}",
                    go_quote(&mode)
                ));
            }
            let label = text(&m, "SELinuxLabel");
            if !matches!(label.as_str(), "" | "z" | "Z") {
                inner.push(format!(
                    "volume mount has an invalid SELinux label: \"{label}\""
                ));
            }
            if !inner.is_empty() {
                errs.push(format!(
                    "Volume Mount ({i}) is invalid: \"{}\"",
                    multierror(&inner)
                ));
            }
            continue;
        }
        if !mode_valid {
            errs.push(format!(
                "Volume Mount ({i}) has an invalid propagation mode: \"{mode}\""
            ));
        }
        if !rules.has(Switch::TaskValidateRefactor) {
            continue;
        }
        if volume.is_empty() {
            errs.push(format!("Volume Mount ({i}) references an empty volume"));
        } else if !defined(g, &volume) {
            errs.push(format!(
                "Volume Mount ({i}) references undefined volume {volume}"
            ));
        }
    }
    errs
}

fn mounts(t: &Map<String, Value>) -> impl Iterator<Item = Map<String, Value>> {
    list(t, "VolumeMounts").into_iter().filter_map(|m| match m {
        Value::Object(m) => Some(m),
        _ => None,
    })
}

fn defined(g: &Map<String, Value>, volume: &str) -> bool {
    g.get("Volumes")
        .and_then(Value::as_object)
        .is_some_and(|v| v.contains_key(volume))
}
