//! `DeviceChecker`: the node has healthy instances of every requested
//! device, matching its name and constraints; and the matching the bin
//! packer's device allocator shares with it (`nodeDeviceMatches`, instance
//! IDs, affinities).

use std::cmp::Ordering;

use super::device_attribute::Attribute;
use super::device_rules::DeviceRules;
use crate::model::{Affinity, Constraint, NodeDevice, RequestedDevice};

/// `RequestedDevice.ID().Matches`: `type`, `vendor/type` or
/// `vendor/type/name`; empty parts match anything.
fn id_matches(d: &NodeDevice, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let parts: Vec<&str> = name.splitn(3, '/').collect();
    let (vendor, kind, model) = match parts.as_slice() {
        [t] => ("", *t, ""),
        [v, t] => (*v, *t, ""),
        [v, t, n, ..] => (*v, *t, *n),
        [] => ("", "", ""),
    };
    (model.is_empty() || model == d.name)
        && (vendor.is_empty() || vendor == d.vendor)
        && (kind.is_empty() || kind == d.device_type)
}

/// `${device.ids}`.
const DEVICE_IDS: &str = "${device.ids}";

/// `resolveDeviceTarget`: a literal, or the device's name parts, an
/// attribute, or (#15455) its instance IDs joined by commas, unhealthy
/// ones included; anything else is not found.
fn resolve(target: &str, d: &NodeDevice, rules: DeviceRules) -> Option<Attribute> {
    if !target.starts_with("${") {
        return Some(Attribute::parse(target));
    }
    match target {
        DEVICE_IDS if rules.ids_target => {
            let ids: Vec<&str> = d.instances.iter().map(|i| i.id.as_str()).collect();
            Some(Attribute::Text(ids.join(",")))
        }
        "${device.model}" => Some(Attribute::Text(d.name.clone())),
        "${device.vendor}" => Some(Attribute::Text(d.vendor.clone())),
        "${device.type}" => Some(Attribute::Text(d.device_type.clone())),
        t => t
            .strip_prefix("${device.attr.")
            .map(|k| k.strip_suffix('}').unwrap_or(k))
            .and_then(|k| d.attributes.get(k))
            .and_then(|v| Attribute::from_json(&v.to_value())),
    }
}

/// `checkAttributeConstraint` for the operands a device constraint or
/// affinity uses; `None` is a side not found.
fn holds(operand: &str, l: Option<Attribute>, r: Option<Attribute>) -> bool {
    let ord = || l.as_ref().zip(r.as_ref()).and_then(|(a, b)| a.compare(b));
    let texts = || {
        l.as_ref()
            .and_then(Attribute::text)
            .zip(r.as_ref().and_then(Attribute::text))
    };
    match operand {
        "distinct_hosts" | "distinct_property" => true,
        "!=" | "not" => match (&l, &r) {
            (None, None) => false,
            (Some(_), None) | (None, Some(_)) => true,
            _ => ord().is_some_and(|o| o != Ordering::Equal),
        },
        "=" | "==" | "is" => ord() == Some(Ordering::Equal),
        "<" => ord() == Some(Ordering::Less),
        "<=" => ord().is_some_and(|o| o != Ordering::Greater),
        ">" => ord() == Some(Ordering::Greater),
        ">=" => ord().is_some_and(|o| o != Ordering::Less),
        "is_set" => l.is_some(),
        "is_not_set" => l.is_none(),
        op => texts().is_some_and(|(a, b)| {
            let lt = super::target::Target {
                value: Some(a),
                found: true,
            };
            let rt = super::target::Target {
                value: Some(b),
                found: true,
            };
            super::constraint::check(op, &lt, &rt) == super::constraint::Check::Met
        }),
    }
}

fn meets(c: &Constraint, d: &NodeDevice, rules: DeviceRules) -> bool {
    let (l, r) = (
        resolve(&c.l_target, d, rules),
        resolve(&c.r_target, d, rules),
    );
    holds(&c.operand, l, r)
}

/// `nodeDeviceMatches`: node device `d` serves `req` when its name
/// matches and its attributes meet the request's constraints.
pub fn device_serves(d: &NodeDevice, req: &RequestedDevice, rules: DeviceRules) -> bool {
    id_matches(d, &req.name) && req.constraints.iter().all(|c| meets(c, d, rules))
}

/// `deviceIDMatchesConstraint`: instance `id` of `d` meets each of the
/// request's constraints with `${device.ids}` on one side, the other side
/// resolved on the left and the ID on the right, whichever side it was
/// written on.
pub fn instance_serves(
    id: &str,
    d: &NodeDevice,
    req: &RequestedDevice,
    rules: DeviceRules,
) -> bool {
    req.constraints.iter().all(|c| {
        let other = match (c.l_target.as_str(), c.r_target.as_str()) {
            (DEVICE_IDS, r) => r,
            (l, DEVICE_IDS) => l,
            _ => return true,
        };
        let target = resolve(other, d, rules);
        holds(&c.operand, target, Some(Attribute::Text(id.to_string())))
    })
}

/// `checkAttributeAffinity` of a device affinity: the same test as a
/// constraint's.
pub fn affinity_met(a: &Affinity, d: &NodeDevice, rules: DeviceRules) -> bool {
    let (l, r) = (
        resolve(&a.l_target, d, rules),
        resolve(&a.r_target, d, rules),
    );
    holds(&a.operand, l, r)
}

/// `hasDevices`: each request takes `count` healthy instances of one
/// matching device that still has that many unused, the devices tried in
/// vendor, type and name order where Nomad walks a Go map; with #26649 it
/// takes what each matching device has left until its count is reached.
pub fn has_devices(
    required: &[&RequestedDevice],
    devices: Option<&[NodeDevice]>,
    rules: DeviceRules,
) -> bool {
    if required.is_empty() {
        return true;
    }
    let Some(devices) = devices.filter(|d| !d.is_empty()) else {
        return false;
    };
    let mut devices: Vec<&NodeDevice> = devices.iter().collect();
    devices.sort_by_key(|d| (&d.vendor, &d.device_type, &d.name));
    let mut unused: Vec<u64> = devices
        .iter()
        .map(|d| d.instances.iter().filter(|i| i.healthy).count() as u64)
        .collect();
    required.iter().all(|req| {
        let mut wanted = req.count;
        for (i, d) in devices.iter().enumerate() {
            let left = unused[i];
            let enough = rules.spans_devices || left >= wanted;
            if left == 0 || !enough || !device_serves(d, req, rules) {
                continue;
            }
            let taken = left.min(wanted);
            unused[i] -= taken;
            wanted -= taken;
            if wanted == 0 {
                return true;
            }
        }
        false
    })
}
