//! `flatmap.Flatten` over JSON: an object's primitive fields as Nomad's
//! diff strings.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::schema::{self, Field, Type};

/// Field name to diff string.
pub(crate) type Flat = BTreeMap<String, String>;

/// The primitive fields of `old` and `new` (either may be absent: a nil
/// pointer flattens to nothing), without the `filter`ed names. A field
/// missing on one side reads as Go's zero value when the other side has it.
pub(crate) fn pair(
    old: Option<&Value>,
    new: Option<&Value>,
    ty: Type,
    filter: &[&str],
) -> (Option<Flat>, Option<Flat>) {
    let (o, n) = (object(old), object(new));
    let has = |k: &str| [o, n].iter().flatten().any(|m| m.contains_key(k));
    let one = |m: Option<&Map<String, Value>>| {
        m.map(|m| {
            let mut flat = Flat::new();
            for &(name, kind) in schema::fields(ty) {
                if filter.contains(&name) || !has(name) {
                    continue;
                }
                match (kind, m.get(name)) {
                    (Field::Map, Some(Value::Object(entries))) => {
                        for (k, v) in entries {
                            if let Some(s) = scalar(v) {
                                flat.insert(format!("{name}[{k}]"), s);
                            }
                        }
                    }
                    (Field::Map, _) => {}
                    (_, Some(v)) if !v.is_null() && scalar(v).is_some() => {
                        flat.insert(name.to_string(), scalar(v).unwrap_or_default());
                    }
                    (zero, _) => {
                        flat.insert(name.to_string(), zero_of(zero).to_string());
                    }
                }
            }
            for (k, v) in m {
                let known = schema::fields(ty).iter().any(|(f, _)| f == k);
                if known
                    || filter.contains(&k.as_str())
                    || schema::skipped(ty).contains(&k.as_str())
                {
                    continue;
                }
                if let Some(s) = scalar(v).filter(|_| !v.is_null()) {
                    flat.insert(k.clone(), s);
                }
            }
            flat
        })
    };
    (one(o), one(n))
}

fn zero_of(kind: Field) -> &'static str {
    match kind {
        Field::Str | Field::Map => "",
        Field::Num => "0",
        Field::Bool => "false",
    }
}

/// The object a value is, `null` and absence being none.
pub(crate) fn object(v: Option<&Value>) -> Option<&Map<String, Value>> {
    v.and_then(Value::as_object)
}

/// A scalar as Go's `%v` prints it; `null` is the zero string.
pub(crate) fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(number(n)),
        Value::Null => Some(String::new()),
        _ => None,
    }
}

/// Integers as they are; other numbers as Go's `%v` of a float64
/// (shortest digits, exponent form below 1e-4 and from 1e6 on).
fn number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        return n.to_string();
    }
    go_float(n.as_f64().unwrap_or_default())
}

/// Go's `%v` of a float64.
pub(crate) fn go_float(f: f64) -> String {
    if f == 0.0 {
        return "0".to_string();
    }
    if !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        // Plain form: Rust's Display is the shortest round-trip too.
        return format!("{f}");
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// `flatmap.Flatten(_, nil, false)`: every scalar at any depth, maps as
/// `a[b]` and lists as `a[0]`, nil lists and pointers as `nil`.
pub(crate) fn all(value: Option<&Value>) -> Flat {
    let mut out = Flat::new();
    if let Some(Value::Object(m)) = value {
        for (k, v) in m {
            walk(k, v, &mut out);
        }
    }
    out
}

fn walk(prefix: &str, v: &Value, out: &mut Flat) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                walk(&format!("{prefix}[{k}]"), v, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(&format!("{prefix}[{i}]"), v, out);
            }
        }
        Value::Null => {
            out.insert(prefix.to_string(), "nil".to_string());
        }
        scalar_value => {
            out.insert(prefix.to_string(), scalar(scalar_value).unwrap_or_default());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_go_prints_them() {
        assert_eq!(go_float(8080.0), "8080");
        assert_eq!(go_float(0.5), "0.5");
        assert_eq!(go_float(1e6), "1e+06");
        assert_eq!(go_float(123456789.0), "1.23456789e+08");
        assert_eq!(go_float(0.0001), "0.0001");
        assert_eq!(go_float(0.00001), "1e-05");
    }
}
