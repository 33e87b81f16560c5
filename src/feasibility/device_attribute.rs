//! Device attributes (`psstructs.Attribute`, plugins/shared/structs):
//! numbers with units, booleans and text, compared as device constraints
//! and affinities compare them.

use std::cmp::Ordering;

use serde_json::Value;

/// A device attribute (`psstructs.Attribute`) or a literal parsed as one.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Attribute {
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
    pub(super) fn parse(input: &str) -> Attribute {
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
    pub(super) fn from_json(v: &Value) -> Option<Attribute> {
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
    pub(super) fn compare(&self, o: &Attribute) -> Option<Ordering> {
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

    pub(super) fn text(&self) -> Option<&str> {
        match self {
            Attribute::Text(s) => Some(s),
            _ => None,
        }
    }
}
