//! Opaque parts of a job spec that Nomad compares with `reflect.DeepEqual`,
//! and its order-insensitive comparison of typed lists.
//!
//! A job keeps dozens of these per task (its config, env, templates), and a
//! cluster of many small jobs keeps tens of thousands of job versions, so
//! they are held as [`Json`]: objects as one sorted list rather than a
//! tree (a `BTreeMap` node is eleven slots, most of them empty), lists
//! without spare room, and keys and strings as shared [`Name`]s.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

use super::Name;

/// A JSON value, compact: an object's members are sorted by key, each key
/// once (a repeated key keeps its last value, as Go's decoder and
/// `serde_json`'s map do), and strings are [`Name`]s, shared with equal
/// texts read on the same thread.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Json {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(Name),
    Array(Box<[Json]>),
    Object(Box<[(Name, Json)]>),
}

/// Consistent with the derived equality: each variant and each kind of
/// number (unsigned, negative, float) is marked, and a float's zero is one
/// value whatever its sign, as `serde_json` compares floats.
impl Hash for Json {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Json::Null => {}
            Json::Bool(b) => b.hash(state),
            Json::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => (0u8, u).hash(state),
                (None, Some(i), _) => (1u8, i).hash(state),
                (None, None, f) => (2u8, f.map_or(0, |f| (f + 0.0).to_bits())).hash(state),
            },
            Json::String(s) => s.hash(state),
            Json::Array(items) => items.hash(state),
            Json::Object(members) => members.hash(state),
        }
    }
}

impl Json {
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Json::Array(_))
    }

    /// An object's members, in key order.
    pub fn as_object(&self) -> Option<&[(Name, Json)]> {
        match self {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(elements) => Some(elements),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// An object's member `key`.
    pub fn get(&self, key: &str) -> Option<&Json> {
        member(self.as_object()?, key)
    }

    /// This value without the object members `keys`, and those members'
    /// values (`null` where missing); a value that is no object is kept
    /// whole.
    pub fn without<const N: usize>(&self, keys: [&str; N]) -> (Json, [Json; N]) {
        let Json::Object(members) = self else {
            return (self.clone(), std::array::from_fn(|_| Json::Null));
        };
        let taken = keys.map(|k| self.get(k).cloned().unwrap_or_default());
        let rest = members
            .iter()
            .filter(|(k, _)| !keys.contains(&k.as_str()))
            .cloned()
            .collect();
        (Json::Object(rest), taken)
    }

    /// The object members of `members` in key order, the last of a
    /// repeated key kept.
    fn object(mut members: Vec<(Name, Json)>) -> Json {
        // Stable, so that of equal keys the one given last stays last.
        members.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept: Vec<(Name, Json)> = Vec::with_capacity(members.len());
        for m in members {
            match kept.last_mut() {
                Some(last) if last.0 == m.0 => *last = m,
                _ => kept.push(m),
            }
        }
        Json::Object(kept.into_boxed_slice())
    }
}

impl From<Value> for Json {
    fn from(v: Value) -> Json {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => Json::Number(n),
            Value::String(s) => Json::String(Name::from(s)),
            Value::Array(a) => Json::Array(a.into_iter().map(Json::from).collect()),
            Value::Object(o) => Json::object(
                o.into_iter()
                    .map(|(k, v)| (Name::from(k), Json::from(v)))
                    .collect(),
            ),
        }
    }
}

impl From<&Json> for Value {
    fn from(v: &Json) -> Value {
        match v {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(a) => Value::Array(a.iter().map(Value::from).collect()),
            Json::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.to_string(), Value::from(v)))
                    .collect(),
            ),
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

/// Reads any JSON value as `serde_json::Value` would, into a [`Json`].
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Json, E> {
        Ok(Json::Number(i.into()))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Json, E> {
        Ok(Json::Number(u.into()))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Json, E> {
        Ok(Number::from_f64(f).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(Name::from(s)))
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        Json::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(e) = seq.next_element()? {
            elements.push(e);
        }
        Ok(Json::Array(elements.into_boxed_slice()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some(key) = map.next_key::<Name>()? {
            members.push((key, map.next_value()?));
        }
        Ok(Json::object(members))
    }
}

/// A sub-tree of the job spec kept as JSON and compared as Go would compare the
/// decoded struct: a key missing on one side equals a zero value (`null`, `0`,
/// `false`, `""`, or an object of zeros) on the other, since Go prints every
/// field and a missing one can only mean its zero value. `null` and `[]` stay
/// distinct, as a nil and an empty slice do for `DeepEqual`.
///
/// One pointer, none allocated for `null`: a task has a dozen of these and
/// most are unset. Shared: a job's versions mostly repeat them
/// ([`super::Shared`]).
#[derive(Clone, Debug, Default)]
pub struct GoValue(Option<Arc<Json>>);

/// What an unset [`GoValue`] reads as.
static NULL: Json = Json::Null;

impl<'de> Deserialize<'de> for GoValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GoValue, D::Error> {
        Json::deserialize(d).map(GoValue::from)
    }
}

/// The value's structure: no `PartialEq` stands beside it (Go's looser
/// `reflect.DeepEqual` is a function of its own here), so two values hash
/// alike only where they are written alike, which is what sharing by value
/// needs.
impl Hash for GoValue {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.json().hash(state);
    }
}

impl From<Json> for GoValue {
    fn from(v: Json) -> GoValue {
        GoValue((!v.is_null()).then(|| Arc::new(v)))
    }
}

impl GoValue {
    /// A value read before, shared ([`super::Shared`]).
    pub(super) fn from_shared(v: Arc<Json>) -> GoValue {
        GoValue((!v.is_null()).then_some(v))
    }
}

impl From<Value> for GoValue {
    fn from(v: Value) -> GoValue {
        GoValue::from(Json::from(v))
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
    /// The value read.
    pub fn json(&self) -> &Json {
        self.0.as_deref().unwrap_or(&NULL)
    }

    pub fn is_null(&self) -> bool {
        self.0.is_none()
    }

    /// An object's member `key`.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.json().get(key)
    }

    /// The value as `serde_json` holds it, to be read into a typed struct.
    pub fn to_value(&self) -> Value {
        Value::from(self.json())
    }

    /// `reflect.DeepEqual` on a Go map (`map[string]string`, or
    /// `map[string]interface{}` whose nested objects are maps too): unlike a
    /// struct, a key present on one side only is a difference even when its
    /// value is a zero value.
    pub fn map_equal(&self, other: &GoValue) -> bool {
        maps_equal(self.json(), other.json())
    }

    /// A struct-like part compared under `eq`.
    pub fn equal_as(&self, other: &GoValue, eq: Equality) -> bool {
        deep_equal_as(self.json(), other.json(), eq)
    }

    /// A Go map compared under `eq`; under [`Equality::Typed`] nil and
    /// empty maps and lists are equal at any depth, as for the opaque maps
    /// of a task's config.
    pub fn map_equal_as(&self, other: &GoValue, eq: Equality) -> bool {
        maps_equal_as(self.json(), other.json(), eq)
    }

    /// The elements of a JSON array (empty for `null`).
    pub fn elements(&self) -> &[Json] {
        self.json().as_array().unwrap_or(&[])
    }
}

/// `reflect.DeepEqual` on two decoded JSON values, with the rules of [`GoValue`].
pub(crate) fn deep_equal(a: &Json, b: &Json) -> bool {
    deep_equal_as(a, b, Equality::Deep)
}

/// [`deep_equal`], or under [`Equality::Typed`] with nil lists equal to
/// empty ones.
pub(crate) fn deep_equal_as(a: &Json, b: &Json, eq: Equality) -> bool {
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => objects_equal(x, y, eq),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_equal_as(p, q, eq))
        }
        (Json::Null, Json::Array(l)) | (Json::Array(l), Json::Null) => {
            eq == Equality::Typed && l.is_empty()
        }
        (Json::Number(x), Json::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) if x.is_f64() || y.is_f64() => p == q,
            _ => x == y,
        },
        _ => a == b,
    }
}

/// The member `key` of the sorted members `members`.
fn member<'a>(members: &'a [(Name, Json)], key: &str) -> Option<&'a Json> {
    let i = members
        .binary_search_by(|(k, _)| k.as_str().cmp(key))
        .ok()?;
    Some(&members[i].1)
}

/// Two structs. A `null` member facing a scalar is a missing one, as
/// encoding/json decodes both to the zero value; facing an object or a list
/// it is Go's nil pointer, slice or map, which `DeepEqual` tells from an
/// empty one.
pub(crate) fn objects_equal(x: &[(Name, Json)], y: &[(Name, Json)], eq: Equality) -> bool {
    let scalar = |v: &Json| !v.is_object() && !v.is_array();
    let covered = |from: &[(Name, Json)], to: &[(Name, Json)]| {
        from.iter().all(|(k, v)| match member(to, k) {
            Some(w) if v.is_null() && scalar(w) || w.is_null() && scalar(v) => {
                is_zero(v, eq) && is_zero(w, eq)
            }
            Some(w) => deep_equal_as(v, w, eq),
            None => is_zero(v, eq),
        })
    };
    covered(x, y)
        && y.iter()
            .all(|(k, v)| member(x, k).is_some() || is_zero(v, eq))
}

/// Nomad's order-insensitive list comparison: equal lengths and every element
/// of `a` matches some element of `b` (duplicates are not counted).
pub(crate) fn set_equal<T>(a: &[T], b: &[T], eq: impl Fn(&T, &T) -> bool) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.iter().any(|y| eq(x, y)))
}

/// [`GoValue::map_equal`] on two decoded JSON values.
pub(crate) fn maps_equal(a: &Json, b: &Json) -> bool {
    maps_equal_as(a, b, Equality::Deep)
}

/// [`GoValue::map_equal_as`] on two decoded JSON values.
pub(crate) fn maps_equal_as(a: &Json, b: &Json, eq: Equality) -> bool {
    let empty = |v: &Json| match v {
        Json::Null => true,
        Json::Array(l) => l.is_empty(),
        Json::Object(m) => m.is_empty(),
        _ => false,
    };
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| member(y, k).is_some_and(|w| maps_equal_as(v, w, eq)))
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| maps_equal_as(p, q, eq))
        }
        (Json::Null, _) | (_, Json::Null) if eq == Equality::Typed => empty(a) && empty(b),
        _ => deep_equal_as(a, b, eq),
    }
}

fn is_zero(v: &Json, eq: Equality) -> bool {
    match v {
        Json::Null => true,
        Json::Bool(b) => !b,
        Json::Number(n) => n.as_f64() == Some(0.0),
        Json::String(s) => s.is_empty(),
        Json::Array(l) => eq == Equality::Typed && l.is_empty(),
        Json::Object(o) => o.iter().all(|(_, v)| is_zero(v, eq)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eq(a: Value, b: Value) -> bool {
        deep_equal(GoValue::from(a).json(), GoValue::from(b).json())
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
        let map_eq = |a: Value, b: Value| GoValue::from(a).map_equal(&GoValue::from(b));
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
        let (a, b) = (
            GoValue::from(json!({"A": null})),
            GoValue::from(json!({"A": []})),
        );
        assert!(!a.equal_as(&b, deep));
        assert!(a.equal_as(&b, typed));
        assert!(GoValue::from(json!({})).equal_as(&b, typed));
        // A nil pointer to a struct still differs from an empty struct.
        assert!(
            !GoValue::from(json!({"A": null})).equal_as(&GoValue::from(json!({"A": {}})), typed)
        );
        let map = |v: Value| GoValue::from(v);
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
    fn an_object_is_sorted_with_the_last_of_a_repeated_key() {
        let v: Json = crate::model::from_slice(br#"{"b": 1, "a": null, "b": [2, "x"]}"#).unwrap();
        let keys: Vec<&str> = v
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(v.get("a"), Some(&Json::Null));
        assert_eq!(Value::from(&v), json!({"a": null, "b": [2, "x"]}));
        assert_eq!(Json::from(json!({"b": [2, "x"], "a": null})), v);
    }

    #[test]
    fn without_takes_members_out_of_an_object_only() {
        let v = Json::from(json!({"A": 1, "B": {"x": 2}, "C": 3}));
        let (rest, [b, d]) = v.without(["B", "D"]);
        assert_eq!(rest, Json::from(json!({"A": 1, "C": 3})));
        assert_eq!((b, d), (Json::from(json!({"x": 2})), Json::Null));
        let list = Json::from(json!([1]));
        assert_eq!(list.without(["A"]).0, list);
    }

    #[test]
    fn a_value_is_three_words_and_an_unset_one_allocates_nothing() {
        assert_eq!(size_of::<Json>(), 3 * size_of::<usize>());
        assert_eq!(size_of::<GoValue>(), size_of::<usize>());
        let v: GoValue = crate::model::from_slice(b"null").unwrap();
        assert!(v.is_null() && v.0.is_none());
        assert_eq!(v.json(), &Json::Null);
        assert!(!GoValue::from(json!({})).is_null());
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(eq(json!(1.0), json!(1.0)));
        assert!(!eq(json!(1), json!(2)));
    }
}
