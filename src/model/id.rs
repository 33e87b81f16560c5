//! IDs Nomad generates (allocations, evaluations): a UUID is kept as its 16
//! bytes instead of 36 characters on the heap.
//!
//! An allocation holds up to four such IDs and a report copies one per
//! allocation; as `String`s each would cost a 48-byte heap block besides its
//! 24 bytes. Text that is not a canonical lowercase UUID (hand-written IDs,
//! upper case, the empty ID) is kept as text, so every ID reads back exactly.

use std::cmp::Ordering;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Visitor};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::in_place::RAW_VALUE;
use super::name::Name;

/// The length of a UUID's text, `8-4-4-4-12` hex digits.
const UUID_LEN: usize = 36;

/// Where a UUID's text has its dashes.
const DASHES: [usize; 4] = [8, 13, 18, 23];

/// Where each of a UUID's 32 hex digits stands in its text.
const DIGITS: [usize; 32] = digit_slots();

const fn digit_slots() -> [usize; 32] {
    let mut slots = [0; 32];
    let (mut i, mut n) = (0, 0);
    while i < UUID_LEN {
        if i != DASHES[0] && i != DASHES[1] && i != DASHES[2] && i != DASHES[3] {
            slots[n] = i;
            n += 1;
        }
        i += 1;
    }
    slots
}

/// The lowercase hex digits.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// An ID that compares, orders and prints as its text.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Id(Repr);

/// Every canonical UUID text is `Uuid`, so two `Id`s are equal exactly when
/// their texts are, and the derived equality and hash are the text's.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Uuid([u8; 16]),
    Text(Box<str>),
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Text(Box::default())
    }
}

impl Id {
    pub fn is_empty(&self) -> bool {
        matches!(&self.0, Repr::Text(t) if t.is_empty())
    }

    /// The first 8 bytes of the text as a big-endian number, zero-padded:
    /// ordering by it, then by the whole ID, orders by ID, and it seldom
    /// needs the whole ID.
    pub fn head(&self) -> u64 {
        let mut head = [0; 8];
        match &self.0 {
            // The first 8 characters, before the first dash, are the first 4 bytes.
            Repr::Uuid(bytes) => {
                for (digits, &byte) in head.chunks_exact_mut(2).zip(bytes) {
                    digits[0] = HEX[usize::from(byte >> 4)];
                    digits[1] = HEX[usize::from(byte & 0xf)];
                }
            }
            Repr::Text(t) => {
                let n = t.len().min(8);
                head[..n].copy_from_slice(&t.as_bytes()[..n]);
            }
        }
        u64::from_be_bytes(head)
    }

    /// `f` of the ID's text.
    pub fn with_str<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        match &self.0 {
            Repr::Uuid(bytes) => {
                let text = uuid_text(bytes);
                f(std::str::from_utf8(&text).expect("hex digits and dashes are ASCII"))
            }
            Repr::Text(t) => f(t),
        }
    }
}

/// The bytes of a canonical lowercase UUID text.
fn parse_uuid(text: &str) -> Option<[u8; 16]> {
    let text = text.as_bytes();
    if text.len() != UUID_LEN || DASHES.iter().any(|&i| text[i] != b'-') {
        return None;
    }
    let digit = |n: usize| match text[DIGITS[n]] {
        c @ b'0'..=b'9' => Some(c - b'0'),
        c @ b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut bytes = [0; 16];
    for (k, byte) in bytes.iter_mut().enumerate() {
        *byte = (digit(2 * k)? << 4) | digit(2 * k + 1)?;
    }
    Some(bytes)
}

/// The text of a UUID's bytes.
fn uuid_text(bytes: &[u8; 16]) -> [u8; UUID_LEN] {
    let mut text = [b'-'; UUID_LEN];
    for (k, &byte) in bytes.iter().enumerate() {
        text[DIGITS[2 * k]] = HEX[usize::from(byte >> 4)];
        text[DIGITS[2 * k + 1]] = HEX[usize::from(byte & 0xf)];
    }
    text
}

impl From<&str> for Id {
    fn from(text: &str) -> Id {
        Id(match parse_uuid(text) {
            Some(bytes) => Repr::Uuid(bytes),
            None => Repr::Text(Box::from(text)),
        })
    }
}

impl From<String> for Id {
    fn from(text: String) -> Id {
        Id::from(text.as_str())
    }
}

impl From<&String> for Id {
    fn from(text: &String) -> Id {
        Id::from(text.as_str())
    }
}

impl From<&Id> for String {
    fn from(id: &Id) -> String {
        id.to_string()
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        match &self.0 {
            Repr::Uuid(bytes) => parse_uuid(other).as_ref() == Some(bytes),
            Repr::Text(t) => **t == *other,
        }
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for Id {
    fn eq(&self, other: &String) -> bool {
        *self == **other
    }
}

/// An allocation names its deployment by a shared [`Name`], the deployment
/// itself by its `Id`.
impl PartialEq<Name> for Id {
    fn eq(&self, other: &Name) -> bool {
        *self == **other
    }
}

impl PartialEq<Id> for Name {
    fn eq(&self, other: &Id) -> bool {
        *other == **self
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Id) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The order of the texts: lowercase hex digits order as the nibbles they
/// write, and the dashes stand at the same places in every UUID, so two
/// UUIDs order as their bytes.
impl Ord for Id {
    fn cmp(&self, other: &Id) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Uuid(a), Repr::Uuid(b)) => a.cmp(b),
            (Repr::Text(a), Repr::Text(b)) => a.cmp(b),
            _ => self.with_str(|a| other.with_str(|b| a.cmp(b))),
        }
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with_str(|text| fmt::Debug::fmt(text, f))
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with_str(|text| f.write_str(text))
    }
}

impl Serialize for Id {
    /// A UUID's text (hex digits and dashes) needs no escape: it is handed
    /// to serde_json quoted, as a raw value, which a report writes
    /// as it is rather than checking each byte; an ID a report holds is
    /// most often a UUID.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Uuid(bytes) => {
                let mut quoted = [b'"'; UUID_LEN + 2];
                quoted[1..=UUID_LEN].copy_from_slice(&uuid_text(bytes));
                let text = std::str::from_utf8(&quoted).expect("hex digits, dashes and quotes");
                let mut raw = s.serialize_struct(RAW_VALUE, 1)?;
                raw.serialize_field(RAW_VALUE, text)?;
                raw.end()
            }
            Repr::Text(t) => s.serialize_str(t),
        }
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Id, E> {
                Ok(Id::from(s))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UUID: &str = "0a1b2c3d-4e5f-6789-abcd-ef0123456789";

    #[test]
    fn a_lowercase_uuid_is_kept_as_bytes_and_reads_back() {
        let id = Id::from(UUID);
        assert!(matches!(id.0, Repr::Uuid(_)));
        assert_eq!(id.to_string(), UUID);
        assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{UUID}\""));
        assert_eq!(format!("{id:?}"), format!("\"{UUID}\""));
        assert_eq!(id, UUID);
        assert_ne!(id, "0a1b2c3d-4e5f-6789-abcd-ef0123456788");
        assert_eq!(
            serde_json::from_str::<Id>(&format!("\"{UUID}\"")).unwrap(),
            id
        );
    }

    #[test]
    fn writes_as_its_text_in_json_and_in_a_json_value() {
        for text in ["9d6f1e2a-0b3c-4d5e-8f70-a1b2c3d4e5f6", "Web \"1\"", ""] {
            let id = Id::from(text);
            let written = serde_json::to_string(&id).unwrap();
            assert_eq!(written, serde_json::to_string(text).unwrap());
            assert_eq!(serde_json::to_value(&id).unwrap(), text);
            let pretty = serde_json::to_string_pretty(&[&id]).unwrap();
            assert_eq!(pretty, format!("[\n  {written}\n]"));
        }
    }

    #[test]
    fn other_texts_are_kept_as_text() {
        for text in [
            "",
            "a1",
            "0A1B2C3D-4E5F-6789-ABCD-EF0123456789",
            "0a1b2c3d-4e5f-6789-abcd-ef012345678",
            "0a1b2c3d-4e5f-6789-abcd-ef01234567890",
            "0a1b2c3d+4e5f-6789-abcd-ef0123456789",
            "0a1b2c3d-4e5f-6789-abcd-ef012345678g",
            "0a1b2c3d4-e5f-6789-abcd-ef0123456789",
        ] {
            let id = Id::from(text);
            assert!(matches!(id.0, Repr::Text(_)), "{text}");
            assert_eq!(id.to_string(), text);
            assert_eq!(id, text);
            assert_eq!(id.is_empty(), text.is_empty());
        }
        assert_ne!(Id::from(UUID), Id::from(UUID.to_uppercase()));
    }

    #[test]
    fn the_head_is_the_first_8_bytes_of_the_text() {
        let text_head = |t: &str| {
            let mut head = [0; 8];
            let n = t.len().min(8);
            head[..n].copy_from_slice(&t.as_bytes()[..n]);
            u64::from_be_bytes(head)
        };
        for text in [
            UUID,
            "ffffffff-0000-0000-0000-000000000000",
            "a1",
            "",
            "0A1B2C3D-x",
        ] {
            assert_eq!(Id::from(text).head(), text_head(text), "{text}");
        }
    }

    #[test]
    fn orders_as_its_text_across_both_forms() {
        let texts = [
            "",
            "0",
            "00000000-0000-0000-0000-000000000000",
            "00000000-0000-0000-0000-00000000000a",
            "0000000a-0000-0000-0000-000000000000",
            "0a1b2c3d-4e5f-6789-abcd-ef0123456789",
            "0a1b2c3d-4e5f-6789-abcd-ef0123456789x",
            "9fffffff-ffff-ffff-ffff-ffffffffffff",
            "A1",
            "a1",
            "a1000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "g",
        ];
        let mut ids: Vec<Id> = texts.iter().rev().map(|&t| Id::from(t)).collect();
        ids.sort();
        let sorted: Vec<String> = ids.iter().map(Id::to_string).collect();
        assert_eq!(sorted, texts);
        for a in texts {
            for b in texts {
                assert_eq!(Id::from(a).cmp(&Id::from(b)), a.cmp(b), "{a} {b}");
            }
        }
    }
}
