//! Go's rule for `null` in JSON, applied under every type the model reads.
//!
//! encoding/json leaves a field untouched on `null` and sets a pointer, slice
//! or map to nil: a member `"Key": null` decodes exactly as a missing key,
//! to the zero value. Serde refuses `null` for a `bool`, a number or a
//! string, and a derived struct cannot be told that a key it was handed has
//! no value after all. So [`GoNull`] wraps the deserializer and, for every
//! object member and list element whose value is `null`, hands the value's
//! type a deserializer of its zero value instead ([`Zero`]): `false`, `0`,
//! `""`, an empty list, map or object (whose fields then take their
//! defaults). Every model struct defaults its missing fields to its type's
//! default, which is that zero value, so `null` and a missing key read the
//! same. Where serde already accepted `null` (an `Option`, a `null`-aware
//! visitor) the type sees exactly what it saw before; other values pass
//! through untouched, so a wrong type is refused with the same message.
//! What serde buffers (`untagged`, `flatten`) is read from its buffer past
//! the wrapper; those few types apply the rule themselves.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde::{Deserialize, forward_to_deserialize_any};

use super::in_place::RAW_VALUE;

/// A `T` read under Go's `null` rule, for entry points that name a type
/// (`serde_json::from_slice::<GoJson<Job>>`).
pub(crate) struct GoJson<T>(pub(crate) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for GoJson<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(GoNull(d)).map(GoJson)
    }
}

/// `T` from the JSON text `bytes` under Go's `null` rule; otherwise as
/// `serde_json::from_slice`.
///
/// Bytes that are UTF-8 throughout are checked so once and read as a
/// `str`: serde_json then takes every string and key in them as it is,
/// where from bytes it checks each one again (a tenth of a many-jobs
/// read's instructions went to those checks of short keys). Other bytes
/// are read as bytes, so that serde_json says where they stop being UTF-8.
pub(crate) fn from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    match std::str::from_utf8(bytes) {
        Ok(text) => from_str(text),
        Err(_) => serde_json::from_slice::<GoJson<T>>(bytes).map(|GoJson(t)| t),
    }
}

/// `T` from the JSON text `text` under Go's `null` rule; otherwise as
/// `serde_json::from_str`.
pub(crate) fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    serde_json::from_str::<GoJson<T>>(text).map(|GoJson(t)| t)
}

/// The first JSON value `de` reads, under Go's `null` rule, and how many
/// bytes it took; an end-of-input error when the input ends before the
/// value does.
pub(crate) fn first_value<'de, R, T>(
    de: serde_json::Deserializer<R>,
) -> serde_json::Result<(T, usize)>
where
    R: serde_json::de::Read<'de>,
    T: Deserialize<'de>,
{
    let mut values = de.into_iter::<GoJson<T>>();
    match values.next() {
        Some(Ok(GoJson(value))) => Ok((value, values.byte_offset())),
        Some(Err(e)) => Err(e),
        None => Err(de::Error::custom("no value")),
    }
}

/// A deserializer whose members and elements read `null` as Go does.
pub(crate) struct GoNull<D>(pub(crate) D);

macro_rules! forward_wrapped {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {
        $(fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* v: V) -> Result<V::Value, D::Error> {
            self.0.$method($($arg,)* Wrap(v))
        })*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for GoNull<D> {
    type Error = D::Error;

    forward_wrapped! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16()
        deserialize_i32() deserialize_i64() deserialize_i128() deserialize_u8()
        deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64() deserialize_char() deserialize_str()
        deserialize_string() deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit() deserialize_seq() deserialize_map()
        deserialize_identifier()
        deserialize_unit_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, D::Error> {
        // A raw value must reach serde_json unwrapped to be recognised.
        if name == RAW_VALUE {
            self.0.deserialize_newtype_struct(name, v)
        } else {
            self.0.deserialize_newtype_struct(name, Wrap(v))
        }
    }

    /// A skipped value has nothing to read as zero.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_ignored_any(v)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// A visitor whose nested values are read under the rule.
struct Wrap<V>(V);

macro_rules! forward_visits {
    ($($method:ident($ty:ty))*) => {
        $(fn $method<E: de::Error>(self, x: $ty) -> Result<V::Value, E> {
            self.0.$method(x)
        })*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }

    forward_visits! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
        visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
        visit_u128(u128) visit_f32(f32) visit_f64(f64) visit_char(char)
        visit_str(&str) visit_borrowed_str(&'de str) visit_string(String)
        visit_bytes(&[u8]) visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(GoNull(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(GoNull(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Seq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Map(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Enum(data))
    }
}

/// An object whose values read `null` as their zero value.
struct Map<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Map<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(Member(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A list whose elements read `null` as their zero value, as Go's do.
struct Seq<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.0.next_element_seed(Member(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// An enum's content, read under the rule.
struct Enum<A>(A);

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Enum<A> {
    type Error = A::Error;
    type Variant = Enum<A::Variant>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(seed)
            .map(|(v, access)| (v, Enum(access)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Enum<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        self.0.newtype_variant_seed(Member(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(v))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap(v))
    }
}

/// One value: `null` gives the seed the zero value, anything else the value
/// itself under the rule. Asking whether it is `null` is serde's option
/// peek, which consumes nothing else.
struct Member<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Member<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Member<S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value")
    }

    fn visit_none<E: de::Error>(self) -> Result<S::Value, E> {
        self.0.deserialize(Zero(PhantomData))
    }

    fn visit_unit<E: de::Error>(self) -> Result<S::Value, E> {
        self.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(GoNull(d))
    }
}

/// Go's zero value of whatever type asks: the value a `null` member leaves.
/// A type that reads any JSON value sees `null` itself, as before.
struct Zero<E>(PhantomData<E>);

/// An empty object or list.
struct Empty<E>(PhantomData<E>);

impl<'de, E: de::Error> MapAccess<'de> for Empty<E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, _: K) -> Result<Option<K::Value>, E> {
        Ok(None)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, E> {
        seed.deserialize(Zero(PhantomData))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(0)
    }
}

impl<'de, E: de::Error> SeqAccess<'de> for Empty<E> {
    type Error = E;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, _: S) -> Result<Option<S::Value>, E> {
        Ok(None)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(0)
    }
}

/// Methods of [`Zero`] whose zero is another method's (`i8` is `i64`'s).
macro_rules! forward_zero {
    ($($($method:ident)+ => $to:ident;)*) => {
        $($(fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
            self.$to(v)
        })+)*
    };
}

impl<'de, E: de::Error> Deserializer<'de> for Zero<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_unit()
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_bool(false)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_i64(0)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_i128(0)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_u64(0)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_u128(0)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_f64(0.0)
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_borrowed_str("")
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_borrowed_bytes(&[])
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_none()
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_seq(Empty(PhantomData))
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_map(Empty(PhantomData))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, E> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, E> {
        self.deserialize_map(v)
    }

    forward_zero! {
        deserialize_i8 deserialize_i16 deserialize_i32 => deserialize_i64;
        deserialize_u8 deserialize_u16 deserialize_u32 => deserialize_u64;
        deserialize_f32 => deserialize_f64;
        deserialize_string deserialize_identifier => deserialize_str;
        deserialize_byte_buf => deserialize_bytes;
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, E> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value, E> {
        self.deserialize_seq(v)
    }

    // No zero is a character, a unit or an enum variant: these see `null`.
    forward_to_deserialize_any! {
        char unit unit_struct enum ignored_any
    }
}
