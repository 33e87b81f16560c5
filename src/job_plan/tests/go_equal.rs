//! Equality of two API jobs as `reflect.DeepEqual` decides it on Go's
//! structs: their pointers and slices are nil or not, so a missing field (a
//! nil pointer, `null` in Go's JSON) is not its zero value; only the fields
//! Go holds by value read as zero when missing.

use serde_json::Value;

/// The API structs' fields held by value, by the key their struct sits
/// under ("" for the job): Go's encoder writes them zero, so a missing one
/// is zero.
const VALUE_FIELDS: &[(&str, &[&str])] = &[
    ("", &["Dispatched"]),
    ("Tasks", &["Name", "Driver", "Leader", "Kind"]),
    ("Consul", &["Namespace"]),
    ("DynamicPorts", &["Label", "Value", "To", "HostNetwork"]),
    ("Regions", &["Name"]),
];

/// Where `got` and `want` differ as Go's values would, as a path.
pub(super) fn differs(got: &Value, want: &Value, under: &str, path: &str) -> Option<String> {
    match (got, want) {
        (Value::Object(x), Value::Object(y)) => {
            let by_value = VALUE_FIELDS
                .iter()
                .find(|(k, _)| *k == under)
                .map_or(&[][..], |(_, f)| f);
            x.keys().chain(y.keys()).find_map(|k| {
                let here = format!("{path}.{k}");
                let (a, b) = (x.get(k), y.get(k));
                let absent = |v: Option<&Value>| v.is_none_or(Value::is_null);
                match (a, b) {
                    _ if absent(a) && absent(b) => None,
                    (Some(a), Some(b)) if !a.is_null() && !b.is_null() => differs(a, b, k, &here),
                    (Some(v), _) | (_, Some(v))
                        if by_value.contains(&k.as_str()) && super::super::same::is_zero(v) =>
                    {
                        None
                    }
                    _ => Some(here),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (a, b))| differs(a, b, under, &format!("{path}[{i}]"))),
        (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => None,
        _ if got == want => None,
        _ => Some(path.to_string()),
    }
}

pub(super) fn assert_go_equal(got: &Value, want: &Value) {
    if let Some(at) = differs(got, want, "", "job") {
        panic!(
            "differs at {at}\ngot {}\nwant {}",
            serde_json::to_string_pretty(got).unwrap(),
            serde_json::to_string_pretty(want).unwrap()
        );
    }
}
