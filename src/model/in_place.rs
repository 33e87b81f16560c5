//! A value's JSON text, read where it lies in the input.
//!
//! Most of what an allocation holds is read only to be checked or skipped
//! (a task's event list, the pre-0.9 resource blocks): reading it as a
//! `Box<RawValue>` copied every such text into a block of its own, only to
//! drop it. Here the text is handed to a [`TextUse`] in place, through the
//! same protocol serde_json's `RawValue` uses; only a deserializer that
//! cannot borrow from its input (a stream) hands over a copy.

use std::fmt;

use serde::Deserializer;
use serde::de::{DeserializeSeed, Error, IgnoredAny, MapAccess, Visitor};

/// serde_json's name for the newtype that captures a value's text.
pub(super) const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// What to make of a value's text.
pub(crate) trait TextUse {
    type Out;
    /// `text` is one JSON value, valid UTF-8, exactly as the input has it.
    fn take<E: Error>(self, text: &str) -> Result<Self::Out, E>;
}

/// What `used` makes of the text of the value `d` holds; `None` for `null`
/// (Go's absent value), as `Option<Box<RawValue>>` reads it.
pub(crate) fn with_text<'de, D: Deserializer<'de>, U: TextUse>(
    d: D,
    used: U,
) -> Result<Option<U::Out>, D::Error> {
    d.deserialize_option(Absent(used))
}

/// Tells `null` from a value, as the option peek does.
struct Absent<U>(U);

impl<'de, U: TextUse> Visitor<'de> for Absent<U> {
    type Value = Option<U::Out>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_none<E: Error>(self) -> Result<Option<U::Out>, E> {
        Ok(None)
    }

    fn visit_unit<E: Error>(self) -> Result<Option<U::Out>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<U::Out>, D::Error> {
        d.deserialize_newtype_struct(RAW_VALUE, Raw(self.0))
            .map(Some)
    }
}

/// The raw value's one-entry map: its key is serde_json's token, its value
/// the text.
struct Raw<U>(U);

impl<'de, U: TextUse> Visitor<'de> for Raw<U> {
    type Value = U::Out;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U::Out, A::Error> {
        if map.next_key::<IgnoredAny>()?.is_none() {
            return Err(A::Error::custom("a raw value without its text"));
        }
        map.next_value_seed(Text(self.0))
    }
}

/// The text itself, borrowed or, from a stream, a passing copy.
struct Text<U>(U);

impl<'de, U: TextUse> DeserializeSeed<'de> for Text<U> {
    type Value = U::Out;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<U::Out, D::Error> {
        d.deserialize_str(self)
    }
}

impl<U: TextUse> Visitor<'_> for Text<U> {
    type Value = U::Out;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("raw value")
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<U::Out, E> {
        self.0.take(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    struct Len;

    impl TextUse for Len {
        type Out = String;
        fn take<E: Error>(self, text: &str) -> Result<String, E> {
            Ok(text.to_string())
        }
    }

    #[derive(Deserialize)]
    struct Holder {
        #[serde(default, deserialize_with = "held")]
        v: Option<String>,
        w: u8,
    }

    fn held<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        with_text(d, Len)
    }

    #[test]
    fn the_text_is_the_input_s_from_a_slice_and_from_a_stream() {
        let text = r#"{"v": [1, {"a": "b"} ], "w": 3}"#;
        let from_slice: Holder = serde_json::from_str(text).unwrap();
        assert_eq!(from_slice.v.as_deref(), Some(r#"[1, {"a": "b"} ]"#));
        assert_eq!(from_slice.w, 3);
        let from_stream: Holder = serde_json::from_reader(text.as_bytes()).unwrap();
        assert_eq!(from_stream.v, from_slice.v);
        let null: Holder = serde_json::from_str(r#"{"v": null, "w": 1}"#).unwrap();
        assert_eq!(null.v, None);
        let bad = serde_json::from_str::<Holder>(r#"{"v": [1,], "w": 1}"#).err();
        assert!(bad.unwrap().to_string().contains("column 10"));
    }
}
