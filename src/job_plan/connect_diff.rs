//! `connectDiffs` and the blocks under it (nomad/structs/diff.go): the
//! sidecar service with its proxy (upstreams, expose paths, transparent
//! proxy, config) and the sidecar task; the gateway is `gateway_diff`.

use serde_json::{Value, json};

use super::diff_types::{DiffType, ObjectDiff, sort_objects};
use super::fields::{primitive_object, primitive_object_set, string_set, whole_object};
use super::gateway_diff::gateway;
use super::nested::{self, get, list};
use super::same::{is_zero, same};
use super::schema::Type;
use super::task_block_diff::{identities, volume_mounts};
use crate::version::{Switch, Switches};

/// `connectDiffs`: the `ConsulConnect` object of a service.
pub(crate) fn connect(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::Connect, &[], "ConsulConnect", contextual)?;
    let pair = |k| (get(old, k), get(new, k));
    let (a, b) = pair("SidecarService");
    diff.objects
        .extend(sidecar_service(a, b, contextual, rules));
    let (a, b) = pair("SidecarTask");
    diff.objects.extend(sidecar_task(a, b, contextual, rules));
    let (a, b) = pair("Gateway");
    diff.objects.extend(gateway(a, b, contextual));
    Some(diff)
}

/// `connectSidecarServiceDiff`: its fields and its proxy.
fn sidecar_service(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Option<ObjectDiff> {
    let mut diff = whole_object(
        old,
        new,
        Type::SidecarService,
        &[],
        "SidecarService",
        contextual,
    )?;
    diff.objects.extend(proxy(
        get(old, "Proxy"),
        get(new, "Proxy"),
        contextual,
        rules,
    ));
    Some(diff)
}

/// `sidecarTaskDiff`: its own fields (never contextual), then config,
/// resources, identities, log config and, from #25878, volume mounts.
pub(crate) fn sidecar_task(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::SidecarTask, &[], "SidecarTask", false)?;
    let pair = |k| (get(old, k), get(new, k));
    let (a, b) = pair("Config");
    diff.objects.extend(nested::config(a, b, contextual));
    let (a, b) = pair("Resources");
    diff.objects
        .extend(nested::resources(a, b, contextual, rules));
    let (a, b) = pair("Identities");
    diff.objects.extend(identities(a, b, contextual));
    let (a, b) = pair("LogConfig");
    diff.objects.extend(primitive_object(
        a,
        b,
        Type::LogConfig,
        &[],
        "LogConfig",
        contextual,
    ));
    if rules.has(Switch::DiffSidecarVolumeMounts) {
        let (a, b) = pair("VolumeMounts");
        diff.objects.extend(volume_mounts(a, b, contextual));
    }
    Some(diff)
}

/// `consulProxyDiff`: fields, upstreams, expose (#19990), transparent
/// proxy (#20144) and the config.
fn proxy(
    old: Option<&Value>,
    new: Option<&Value>,
    contextual: bool,
    rules: Switches,
) -> Option<ObjectDiff> {
    let mut diff = whole_object(old, new, Type::Proxy, &[], "ConsulProxy", contextual)?;
    let pair = |k| (get(old, k), get(new, k));
    let (a, b) = pair("Upstreams");
    diff.objects.extend(upstreams(a, b, contextual));
    if rules.has(Switch::DiffConnectExpose) {
        let (a, b) = pair("Expose");
        diff.objects.extend(expose(a, b, contextual));
    }
    if rules.has(Switch::DiffTransparentProxy) {
        let (a, b) = pair("TransparentProxy");
        diff.objects.push(transparent_proxy(a, b, contextual));
    }
    let (a, b) = pair("Config");
    diff.objects.extend(nested::config(a, b, contextual));
    Some(diff)
}

/// `consulProxyUpstreamsDiff`: upstreams keyed by datacenter and
/// destination (the last of a key), a missing one being the zero upstream.
fn upstreams(old: Option<&Value>, new: Option<&Value>, contextual: bool) -> Vec<ObjectDiff> {
    let key = |u: &Value| {
        let text = |k| u.get(k).and_then(Value::as_str).unwrap_or_default();
        format!("{}/{}", text("Datacenter"), text("DestinationName"))
    };
    let keyed = |v| {
        list(v)
            .into_iter()
            .map(|u| (key(u), u))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let (o, n) = (keyed(old), keyed(new));
    let zero = json!({});
    let mut out: Vec<ObjectDiff> = o
        .iter()
        .filter_map(|(k, u)| upstream(u, n.get(k).copied().unwrap_or(&zero), contextual))
        .chain(
            n.iter()
                .filter(|(k, _)| !o.contains_key(*k))
                .filter_map(|(_, u)| upstream(&zero, u, contextual)),
        )
        .collect();
    sort_objects(&mut out);
    out
}

/// `consulProxyUpstreamDiff`: added when the old one is the zero upstream,
/// deleted when the new one is; the mesh gateway mode as an object.
fn upstream(prev: &Value, next: &Value, contextual: bool) -> Option<ObjectDiff> {
    if same(prev, next) {
        return None;
    }
    let (kind, o, n) = if is_zero(prev) {
        (DiffType::Added, None, Some(next))
    } else if is_zero(next) {
        (DiffType::Deleted, Some(prev), None)
    } else {
        (DiffType::Edited, Some(prev), Some(next))
    };
    let (fo, fn_) = super::flat::pair(o, n, Type::Upstream, &[]);
    let zero = json!({});
    let mesh = |v: &Value| {
        v.get("MeshGateway")
            .filter(|m| !m.is_null())
            .unwrap_or(&zero)
            .clone()
    };
    let (mo, mn) = (mesh(prev), mesh(next));
    Some(ObjectDiff {
        kind,
        name: "ConsulUpstreams".into(),
        fields: super::fields::fields(fo.as_ref(), fn_.as_ref(), contextual),
        objects: primitive_object(
            Some(&mo),
            Some(&mn),
            Type::MeshGateway,
            &[],
            "MeshGateway",
            contextual,
        )
        .into_iter()
        .collect(),
    })
}

/// `consulProxyExposeDiff`: no fields; the paths as a set of objects. An
/// empty block counts as absent.
fn expose(prev: Option<&Value>, next: Option<&Value>, contextual: bool) -> Option<ObjectDiff> {
    let empty = |v: Option<&Value>| list(get(v, "Paths")).is_empty();
    if same(prev.unwrap_or(&Value::Null), next.unwrap_or(&Value::Null)) {
        return None;
    }
    let kind = if empty(prev) {
        DiffType::Added
    } else if empty(next) {
        DiffType::Deleted
    } else {
        DiffType::Edited
    };
    Some(ObjectDiff {
        kind,
        name: "Expose".into(),
        fields: Vec::new(),
        objects: primitive_object_set(
            get(prev, "Paths"),
            get(next, "Paths"),
            Type::ExposePath,
            &[],
            "Paths",
            contextual,
        ),
    })
}

/// `consulTProxyDiff`: an empty `None` object when both are equal (absent
/// included); else the fields and each exclusion list as a set when it
/// changed.
fn transparent_proxy(prev: Option<&Value>, next: Option<&Value>, contextual: bool) -> ObjectDiff {
    let Some(mut diff) = whole_object(
        prev,
        next,
        Type::TransparentProxy,
        &[],
        "TransparentProxy",
        contextual,
    ) else {
        return ObjectDiff {
            kind: DiffType::None,
            name: "TransparentProxy".into(),
            fields: Vec::new(),
            objects: Vec::new(),
        };
    };
    let texts = |v: Option<&Value>, k: &str| -> Vec<String> {
        list(get(v, k))
            .into_iter()
            .filter_map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .or_else(|| x.as_u64().map(|n| n.to_string()))
            })
            .collect()
    };
    for key in [
        "ExcludeInboundPorts",
        "ExcludeOutboundPorts",
        "ExcludeOutboundCIDRs",
        "ExcludeUIDs",
    ] {
        diff.objects.extend(
            string_set(&texts(prev, key), &texts(next, key), key, contextual)
                .filter(|d| d.kind != DiffType::None),
        );
    }
    diff
}
