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

/// A unit of a device attribute (plugins/shared/structs/units.go, the same
/// from 1.3.0 to 2.0.5): its base, and how many of the base it is worth
/// (or, `inverse`, how many of it make one).
struct Unit {
    name: &'static str,
    base: &'static str,
    multiplier: i64,
    inverse: bool,
}

const fn unit(name: &'static str, base: &'static str, multiplier: i64) -> Unit {
    Unit {
        name,
        base,
        multiplier,
        inverse: false,
    }
}

const KIB: i64 = 1 << 10;
const UNITS: &[Unit] = &[
    unit("KiB", "B", KIB),
    unit("MiB", "B", KIB.pow(2)),
    unit("GiB", "B", KIB.pow(3)),
    unit("TiB", "B", KIB.pow(4)),
    unit("PiB", "B", KIB.pow(5)),
    unit("EiB", "B", KIB.pow(6)),
    unit("kB", "B", 1000),
    unit("KB", "B", 1000),
    unit("MB", "B", 1000_i64.pow(2)),
    unit("GB", "B", 1000_i64.pow(3)),
    unit("TB", "B", 1000_i64.pow(4)),
    unit("PB", "B", 1000_i64.pow(5)),
    unit("EB", "B", 1000_i64.pow(6)),
    unit("KiB/s", "B/s", KIB),
    unit("MiB/s", "B/s", KIB.pow(2)),
    unit("GiB/s", "B/s", KIB.pow(3)),
    unit("TiB/s", "B/s", KIB.pow(4)),
    unit("PiB/s", "B/s", KIB.pow(5)),
    unit("EiB/s", "B/s", KIB.pow(6)),
    unit("kB/s", "B/s", 1000),
    unit("KB/s", "B/s", 1000),
    unit("MB/s", "B/s", 1000_i64.pow(2)),
    unit("GB/s", "B/s", 1000_i64.pow(3)),
    unit("TB/s", "B/s", 1000_i64.pow(4)),
    unit("PB/s", "B/s", 1000_i64.pow(5)),
    unit("EB/s", "B/s", 1000_i64.pow(6)),
    unit("MHz", "Hz", 1000_i64.pow(2)),
    unit("GHz", "Hz", 1000_i64.pow(3)),
    Unit {
        name: "mW",
        base: "W",
        multiplier: 1000,
        inverse: true,
    },
    unit("W", "W", 1),
    unit("kW", "W", 1000),
    unit("MW", "W", 1000_i64.pow(2)),
    unit("GW", "W", 1000_i64.pow(3)),
];

fn unit_named(name: &str) -> Option<&'static Unit> {
    UNITS.iter().find(|u| u.name == name)
}

impl Attribute {
    /// `ParseAttribute`: a number with an optional known unit after it
    /// (spaces between allowed: "800MHz", ".98   GiB/s"), else a Go
    /// boolean, else the text itself; an unknown unit leaves it text.
    fn parse(input: &str) -> Attribute {
        let mut numeric = input;
        let mut unit = "";
        if input.ends_with(|c: char| c.is_alphabetic()) {
            let longest = UNITS
                .iter()
                .filter(|u| input.ends_with(u.name))
                .max_by_key(|u| u.name.len());
            if let Some(u) = longest {
                unit = u.name;
                numeric = input[..input.len() - u.name.len()].trim();
            }
        }
        if let Ok(i) = numeric.parse::<i64>() {
            return Attribute::Int(i, unit.to_string());
        }
        if let Ok(f) = numeric.parse::<f64>() {
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

    /// The known unit of a number.
    fn unit(&self) -> Option<&'static Unit> {
        match self {
            Attribute::Int(_, u) | Attribute::Float(_, u) => unit_named(u),
            _ => None,
        }
    }

    /// `Attribute.Compare`: numbers of one unit base compare in that base
    /// ("1320.5 MB" < 4 GiB), a number with a unit never with one
    /// without, texts with texts and booleans with booleans (equal, or
    /// "greater").
    fn compare(&self, o: &Attribute) -> Option<Ordering> {
        use Attribute::*;
        match (self.unit(), o.unit()) {
            (Some(a), Some(b)) if a.base != b.base => return None,
            (Some(_), None) | (None, Some(_)) => return None,
            _ => {}
        }
        match (self, o) {
            (Text(a), Text(b)) => Some(a.cmp(b)),
            (Bool(a), Bool(b)) => Some(if a == b {
                Ordering::Equal
            } else {
                Ordering::Greater
            }),
            (Int(a, _), Int(b, _)) => Some(self.scaled_int(*a).cmp(&o.scaled_int(*b))),
            _ => {
                let (a, b) = (self.scaled_float()?, o.scaled_float()?);
                a.partial_cmp(&b)
            }
        }
    }

    /// An integer in its unit's base, truncated as Go's int64 division.
    fn scaled_int(&self, i: i64) -> i128 {
        match self.unit() {
            Some(u) if u.inverse => i128::from(i) / i128::from(u.multiplier),
            Some(u) => i128::from(i) * i128::from(u.multiplier),
            None => i128::from(i),
        }
    }

    fn scaled_float(&self) -> Option<f64> {
        let v = match self {
            Attribute::Int(i, _) => *i as f64,
            Attribute::Float(f, _) => *f,
            _ => return None,
        };
        Some(match self.unit() {
            Some(u) if u.inverse => v / u.multiplier as f64,
            Some(u) => v * u.multiplier as f64,
            None => v,
        })
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
