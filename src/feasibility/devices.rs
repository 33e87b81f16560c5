//! `DeviceChecker`: the node has healthy instances of every requested
//! device, matching its name and constraints.

use std::cmp::Ordering;

use serde_json::Value;

use crate::model::{Constraint, NodeDevice, RequestedDevice};

/// A device attribute (`psstructs.Attribute`) or a literal parsed as one.
#[derive(Clone, Debug, PartialEq)]
enum Attribute {
    Int(i64, String),
    Float(f64, String),
    Bool(bool),
    Text(String),
}

impl Attribute {
    /// `ParseAttribute` of a literal, without unit suffixes other than one
    /// separated by a space.
    fn parse(input: &str) -> Attribute {
        let (number, unit) = match input.rsplit_once(' ') {
            Some((n, u)) if u.chars().all(char::is_alphabetic) && !u.is_empty() => (n.trim(), u),
            _ => (input, ""),
        };
        if let Ok(i) = number.parse::<i64>() {
            return Attribute::Int(i, unit.to_string());
        }
        if let Ok(f) = number.parse::<f64>() {
            return Attribute::Float(f, unit.to_string());
        }
        match input {
            "true" | "True" | "TRUE" | "t" | "T" | "1" => Attribute::Bool(true),
            "false" | "False" | "FALSE" | "f" | "F" | "0" => Attribute::Bool(false),
            _ => Attribute::Text(input.to_string()),
        }
    }

    /// A node's attribute as JSON: `{"Int": 4, "Unit": "MiB", ...}`.
    fn from_json(v: &Value) -> Option<Attribute> {
        let unit = v
            .get("Unit")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let get = |k: &str| v.get(k).filter(|x| !x.is_null());
        if let Some(i) = get("Int").and_then(Value::as_i64) {
            return Some(Attribute::Int(i, unit));
        }
        if let Some(f) = get("Float").and_then(Value::as_f64) {
            return Some(Attribute::Float(f, unit));
        }
        if let Some(b) = get("Bool").and_then(Value::as_bool) {
            return Some(Attribute::Bool(b));
        }
        get("String")
            .and_then(Value::as_str)
            .map(|s| Attribute::Text(s.to_string()))
    }

    /// `Attribute.Compare`; numbers compare only in the same unit here
    /// (Nomad converts between units of one kind).
    fn compare(&self, o: &Attribute) -> Option<Ordering> {
        use Attribute::*;
        fn num(a: &Attribute) -> Option<(f64, &str)> {
            match a {
                Int(i, u) => Some((*i as f64, u.as_str())),
                Float(f, u) => Some((*f, u.as_str())),
                _ => None,
            }
        }
        match (self, o) {
            (Text(a), Text(b)) => Some(a.cmp(b)),
            (Bool(a), Bool(b)) => Some(if a == b {
                Ordering::Equal
            } else {
                Ordering::Greater
            }),
            _ => {
                let ((a, ua), (b, ub)) = (num(self)?, num(o)?);
                (ua == ub).then(|| a.partial_cmp(&b)).flatten()
            }
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Attribute::Text(s) => Some(s),
            _ => None,
        }
    }
}

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

fn resolve(target: &str, d: &NodeDevice) -> Option<Attribute> {
    if !target.starts_with("${") {
        return Some(Attribute::parse(target));
    }
    match target {
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

/// `checkAttributeConstraint` for the operands a device constraint uses.
fn meets(c: &Constraint, d: &NodeDevice) -> bool {
    let (l, r) = (resolve(&c.l_target, d), resolve(&c.r_target, d));
    let ord = || l.as_ref().zip(r.as_ref()).and_then(|(a, b)| a.compare(b));
    let texts = || {
        l.as_ref()
            .and_then(Attribute::text)
            .zip(r.as_ref().and_then(Attribute::text))
    };
    match c.operand.as_str() {
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

/// Whether node device `d` serves `req`: its name matches and its
/// attributes meet the request's constraints.
pub fn device_serves(d: &NodeDevice, req: &RequestedDevice) -> bool {
    id_matches(d, &req.name) && req.constraints.iter().all(|c| meets(c, d))
}

/// `hasDevices`: each request takes `count` healthy instances of one
/// matching device that still has that many unused.
pub fn has_devices(required: &[&RequestedDevice], devices: Option<&[NodeDevice]>) -> bool {
    if required.is_empty() {
        return true;
    }
    let Some(devices) = devices.filter(|d| !d.is_empty()) else {
        return false;
    };
    let mut unused: Vec<u64> = devices
        .iter()
        .map(|d| d.instances.iter().filter(|i| i.healthy).count() as u64)
        .collect();
    required.iter().all(|req| {
        let found = devices
            .iter()
            .enumerate()
            .find(|(i, d)| unused[*i] != 0 && unused[*i] >= req.count && device_serves(d, req));
        match found {
            Some((i, _)) => {
                unused[i] -= req.count;
                true
            }
            None => false,
        }
    })
}
