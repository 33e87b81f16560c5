//! Opaque parts of a job spec that Nomad compares with `reflect.DeepEqual`,
//! and its order-insensitive comparison of typed lists.

use serde::Deserialize;
use serde_json::{Map, Value};

/// A sub-tree of the job spec kept as JSON and compared as Go would compare the
/// decoded struct: a key missing on one side equals a zero value (`null`, `0`,
/// `false`, `""`, or an object of zeros) on the other, since Go prints every
/// field and a missing one can only mean its zero value. `null` and `[]` stay
/// distinct, as a nil and an empty slice do for `DeepEqual`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct GoValue(pub Value);

impl PartialEq for GoValue {
    fn eq(&self, other: &GoValue) -> bool {
        deep_equal(&self.0, &other.0)
    }
}

/// How `tasksUpdated` compares the parts of a job it does not type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Equality {
    /// `reflect.DeepEqual`: a nil list or map differs from an empty one.
    #[default]
    Deep,
    /// The typed `Equal` methods, `maps.Equal` and `helper.OpaqueMapsEqual`
    /// that replaced it in 1.5.2: a nil list equals an empty one, and so
    /// does a nil map where the field is a map.
    Typed,
}

impl GoValue {
    pub fn is_null(&self) -> bool {
        self.0.is_null()
    }

    /// `reflect.DeepEqual` on a Go map (`map[string]string`, or
    /// `map[string]interface{}` whose nested objects are maps too): unlike a
    /// struct, a key present on one side only is a difference even when its
    /// value is a zero value.
    pub fn map_equal(&self, other: &GoValue) -> bool {
        maps_equal(&self.0, &other.0)
    }

    /// A struct-like part compared under `eq`.
    pub fn equal_as(&self, other: &GoValue, eq: Equality) -> bool {
        deep_equal_as(&self.0, &other.0, eq)
    }

    /// A Go map compared under `eq`; under [`Equality::Typed`] nil and
    /// empty maps and lists are equal at any depth, as for the opaque maps
    /// of a task's config.
    pub fn map_equal_as(&self, other: &GoValue, eq: Equality) -> bool {
        maps_equal_as(&self.0, &other.0, eq)
    }

    /// The elements of a JSON array (empty for `null`).
    pub fn elements(&self) -> &[Value] {
        match &self.0 {
            Value::Array(a) => a,
            _ => &[],
        }
    }
}

/// `reflect.DeepEqual` on two decoded JSON values, with the rules of [`GoValue`].
pub(crate) fn deep_equal(a: &Value, b: &Value) -> bool {
    deep_equal_as(a, b, Equality::Deep)
}

/// [`deep_equal`], or under [`Equality::Typed`] with nil lists equal to
/// empty ones.
pub(crate) fn deep_equal_as(a: &Value, b: &Value, eq: Equality) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => objects_equal(x, y, eq),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_equal_as(p, q, eq))
        }
        (Value::Null, Value::Array(l)) | (Value::Array(l), Value::Null) => {
            eq == Equality::Typed && l.is_empty()
        }
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) if x.is_f64() || y.is_f64() => p == q,
            _ => x == y,
        },
        _ => a == b,
    }
}

/// Two structs. A `null` member facing a scalar is a missing one, as
/// encoding/json decodes both to the zero value; facing an object or a list
/// it is Go's nil pointer, slice or map, which `DeepEqual` tells from an
/// empty one.
pub(crate) fn objects_equal(x: &Map<String, Value>, y: &Map<String, Value>, eq: Equality) -> bool {
    let scalar = |v: &Value| !v.is_object() && !v.is_array();
    let covered = |from: &Map<String, Value>, to: &Map<String, Value>| {
        from.iter().all(|(k, v)| match to.get(k) {
            Some(w) if v.is_null() && scalar(w) || w.is_null() && scalar(v) => {
                is_zero(v, eq) && is_zero(w, eq)
            }
            Some(w) => deep_equal_as(v, w, eq),
            None => is_zero(v, eq),
        })
    };
    covered(x, y) && y.iter().all(|(k, v)| x.contains_key(k) || is_zero(v, eq))
}

/// Nomad's order-insensitive list comparison: equal lengths and every element
/// of `a` matches some element of `b` (duplicates are not counted).
pub(crate) fn set_equal<T>(a: &[T], b: &[T], eq: impl Fn(&T, &T) -> bool) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.iter().any(|y| eq(x, y)))
}

/// [`GoValue::map_equal`] on two decoded JSON values.
pub(crate) fn maps_equal(a: &Value, b: &Value) -> bool {
    maps_equal_as(a, b, Equality::Deep)
}

/// [`GoValue::map_equal_as`] on two decoded JSON values.
pub(crate) fn maps_equal_as(a: &Value, b: &Value, eq: Equality) -> bool {
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::Array(l) => l.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| maps_equal_as(v, w, eq)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| maps_equal_as(p, q, eq))
        }
        (Value::Null, _) | (_, Value::Null) if eq == Equality::Typed => empty(a) && empty(b),
        _ => deep_equal_as(a, b, eq),
    }
}

fn is_zero(v: &Value, eq: Equality) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(l) => eq == Equality::Typed && l.is_empty(),
        Value::Object(o) => o.values().all(|v| is_zero(v, eq)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eq(a: Value, b: Value) -> bool {
        GoValue(a) == GoValue(b)
    }

    #[test]
    fn a_null_member_is_a_missing_one() {
        let null = json!({"Sticky": null, "SizeMB": 300});
        assert!(eq(null.clone(), json!({"SizeMB": 300})));
        assert!(eq(null.clone(), json!({"Sticky": false, "SizeMB": 300})));
        assert!(eq(json!({"Sticky": false, "SizeMB": 300}), null.clone()));
        assert!(!eq(null.clone(), json!({"Sticky": true, "SizeMB": 300})));
        assert!(!eq(json!({"Sticky": true, "SizeMB": 300}), null));
        assert!(!eq(json!({"Volumes": null}), json!({"Volumes": []})));
    }

    #[test]
    fn missing_fields_equal_zero_values() {
        assert!(eq(json!({"A": 0, "B": ""}), json!({})));
        assert!(!eq(json!({"A": 1}), json!({})));
    }

    #[test]
    fn nil_and_empty_slices_differ() {
        assert!(!eq(json!({"A": null}), json!({"A": []})));
        assert!(eq(json!([1, 2]), json!([1, 2])));
        assert!(!eq(json!([1, 2]), json!([2, 1])));
    }

    #[test]
    fn map_keys_count_even_with_zero_values() {
        let map_eq = |a: Value, b: Value| GoValue(a).map_equal(&GoValue(b));
        assert!(!map_eq(json!({"A": ""}), json!({})));
        assert!(!map_eq(json!({"A": {"B": 0}}), json!({"A": {}})));
        assert!(!map_eq(json!(null), json!({})));
        assert!(map_eq(
            json!({"A": [1, {"B": 2}]}),
            json!({"A": [1, {"B": 2}]})
        ));
    }

    #[test]
    fn typed_equality_takes_nil_lists_as_empty_and_nil_maps_as_empty_maps() {
        let (deep, typed) = (Equality::Deep, Equality::Typed);
        let (a, b) = (GoValue(json!({"A": null})), GoValue(json!({"A": []})));
        assert!(!a.equal_as(&b, deep));
        assert!(a.equal_as(&b, typed));
        assert!(GoValue(json!({})).equal_as(&b, typed));
        // A nil pointer to a struct still differs from an empty struct.
        assert!(!GoValue(json!({"A": null})).equal_as(&GoValue(json!({"A": {}})), typed));
        let map = |v: Value| GoValue(v);
        assert!(!map(json!(null)).map_equal_as(&map(json!({})), deep));
        assert!(map(json!(null)).map_equal_as(&map(json!({})), typed));
        assert!(
            map(json!({"k": [1, {"x": null}]}))
                .map_equal_as(&map(json!({"k": [1, {"x": []}]})), typed)
        );
        assert!(
            !map(json!({"k": [1, {"x": null}]}))
                .map_equal_as(&map(json!({"k": [1, {"x": []}]})), deep)
        );
        // A key on one side only is still a difference.
        assert!(!map(json!({"k": ""})).map_equal_as(&map(json!({})), typed));
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(eq(json!(1.0), json!(1.0)));
        assert!(!eq(json!(1), json!(2)));
    }
}
