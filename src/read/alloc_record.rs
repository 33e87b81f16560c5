//! An allocation as a snapshot writes it: the model's [`Allocation`] and the
//! embedded `Job` as raw text beside it, which the reader interns into
//! `Allocation::job` before it keeps the allocation. The text never reaches
//! the model.
//!
//! `Allocation` itself skips `Job`; the record's visitor hands the
//! allocation's derived visitor a view of the object without that key and
//! takes the key's value as it streams by, so nothing is buffered and errors
//! keep their positions and paths.

use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer, UnitDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, forward_to_deserialize_any};
use serde_json::value::RawValue;

use crate::model::Allocation;

/// The key of the embedded job.
const JOB: &str = "Job";

/// One element of `Allocs`.
pub(super) struct AllocRecord {
    pub(super) alloc: Allocation,
    /// The embedded job's text; `None` for `null` or no `Job` key.
    pub(super) job: Option<Box<RawValue>>,
}

impl<'de> Deserialize<'de> for AllocRecord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let byte_keys = false;
        d.deserialize_struct("Allocation", &[], RecordVisitor { byte_keys })
    }
}

/// An [`AllocRecord`] for the fast walk, which reads the allocation's keys
/// as bytes: serde_json then skips checking that each key is UTF-8 (what
/// is not ASCII is still checked here). The exact walk reads keys as text,
/// so that an error's path names them.
pub(super) struct FastRecord(pub(super) AllocRecord);

impl<'de> Deserialize<'de> for FastRecord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let byte_keys = true;
        d.deserialize_struct("Allocation", &[], RecordVisitor { byte_keys })
            .map(FastRecord)
    }
}

struct RecordVisitor {
    byte_keys: bool,
}

impl<'de> Visitor<'de> for RecordVisitor {
    type Value = AllocRecord;

    /// The derived visitor's words, so errors read as they would for `Allocation`.
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct Allocation")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<AllocRecord, A::Error> {
        let mut job = None;
        let without = WithoutJob {
            map,
            job: &mut job,
            seen: false,
            at_job: false,
            byte_keys: self.byte_keys,
        };
        let alloc = Allocation::deserialize(MapAccessDeserializer::new(without))?;
        Ok(AllocRecord { alloc, job })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<AllocRecord, A::Error> {
        let alloc = Allocation::deserialize(SeqAccessDeserializer::new(seq))?;
        Ok(AllocRecord { alloc, job: None })
    }
}

/// The allocation's object with the `Job` entry taken out into `job`.
struct WithoutJob<'j, A> {
    map: A,
    job: &'j mut Option<Box<RawValue>>,
    /// `Job` was read, if only as `null`: a second one is a duplicate field.
    seen: bool,
    /// The key just read was `Job`.
    at_job: bool,
    byte_keys: bool,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WithoutJob<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.map.next_key_seed(SpotJob {
            seed,
            at_job: &mut self.at_job,
            byte_keys: self.byte_keys,
        })
    }

    /// `Job` is not a field of `Allocation`, so its visitor ignores the
    /// value: it is given a unit while the real value goes to `job`.
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        if !std::mem::take(&mut self.at_job) {
            return self.map.next_value_seed(seed);
        }
        if std::mem::replace(&mut self.seen, true) {
            return Err(de::Error::duplicate_field(JOB));
        }
        *self.job = self.map.next_value()?;
        seed.deserialize(UnitDeserializer::new())
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// The key seed of `seed`, noting whether the key is `Job` as it passes;
/// the key is asked for as bytes with `byte_keys`.
struct SpotJob<'f, K> {
    seed: K,
    at_job: &'f mut bool,
    byte_keys: bool,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for SpotJob<'_, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(SpotJob {
            seed: d,
            at_job: self.at_job,
            byte_keys: self.byte_keys,
        })
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for SpotJob<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.seed.deserialize_any(SpotJob {
            seed: v,
            at_job: self.at_job,
            byte_keys: self.byte_keys,
        })
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        let byte_keys = self.byte_keys;
        let v = SpotJob {
            seed: v,
            at_job: self.at_job,
            byte_keys,
        };
        if byte_keys {
            self.seed.deserialize_bytes(v)
        } else {
            self.seed.deserialize_identifier(v)
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum ignored_any
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for SpotJob<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.seed.expecting(f)
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<V::Value, E> {
        *self.at_job = s == JOB;
        self.seed.visit_str(s)
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<V::Value, E> {
        *self.at_job = s == JOB;
        self.seed.visit_borrowed_str(s)
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<V::Value, E> {
        *self.at_job = s == JOB;
        self.seed.visit_string(s)
    }

    fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<V::Value, E> {
        *self.at_job = b == JOB.as_bytes();
        checked_key(b)?;
        self.seed.visit_bytes(b)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> Result<V::Value, E> {
        *self.at_job = b == JOB.as_bytes();
        checked_key(b)?;
        self.seed.visit_borrowed_bytes(b)
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<V::Value, E> {
        self.seed.visit_u64(n)
    }
}

/// A key read as bytes must still be UTF-8, as JSON text is.
fn checked_key<E: de::Error>(b: &[u8]) -> Result<(), E> {
    if b.is_ascii() || std::str::from_utf8(b).is_ok() {
        Ok(())
    } else {
        Err(E::custom("invalid UTF-8 in a key"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> Result<AllocRecord, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn the_job_text_is_taken_out_verbatim() {
        let r = record(r#"{"ID": "a1", "Job": {"ID": "web",  "Version": 2}, "TaskGroup": "web"}"#)
            .unwrap();
        assert_eq!(r.alloc.id, "a1");
        assert_eq!(r.alloc.task_group, "web");
        assert_eq!(r.job.unwrap().get(), r#"{"ID": "web",  "Version": 2}"#);
    }

    #[test]
    fn a_null_or_absent_job_is_none() {
        assert!(
            record(r#"{"ID": "a1", "Job": null}"#)
                .unwrap()
                .job
                .is_none()
        );
        assert!(record(r#"{"ID": "a1"}"#).unwrap().job.is_none());
    }

    #[test]
    fn the_fast_record_reads_keys_as_bytes() {
        let text = r#"{"ID": "a1", "Job": {"ID": "web"}, "TaskGroup": "web", "Other": 1}"#;
        let FastRecord(r) = serde_json::from_str(text).unwrap();
        assert_eq!(r.alloc.id, "a1");
        assert_eq!(r.alloc.task_group, "web");
        assert_eq!(r.job.unwrap().get(), r#"{"ID": "web"}"#);
        let e = serde_json::from_str::<FastRecord>(r#"{"Job": {}, "Job": {}}"#).err();
        assert_eq!(
            e.unwrap().to_string(),
            "duplicate field `Job` at line 1 column 17"
        );
        let bad = b"{\"ID\": \"a1\", \"\xff\": 1}";
        let e = serde_json::from_slice::<FastRecord>(bad).err().unwrap();
        assert_eq!(e.to_string(), "invalid UTF-8 in a key at line 1 column 16");
        assert!(serde_json::from_slice::<FastRecord>("{\"Ünï\": 1}".as_bytes()).is_ok());
    }

    #[test]
    fn errors_read_as_for_an_allocation() {
        let e = record(r#""a1""#).err().unwrap();
        assert_eq!(
            e.to_string(),
            "invalid type: string \"a1\", expected struct Allocation at line 1 column 4"
        );
        let e = record(r#"{"ID": "a1", "Job": {}, "Job": {}}"#)
            .err()
            .unwrap();
        assert_eq!(e.to_string(), "duplicate field `Job` at line 1 column 29");
        let e = record(r#"{"Job": null, "ID": "a1", "Job": {}}"#)
            .err()
            .unwrap();
        assert_eq!(e.to_string(), "duplicate field `Job` at line 1 column 31");
        let e = record(r#"{"Job": {}, "ClientStatus": 3}"#).err().unwrap();
        assert_eq!(
            e.to_string(),
            "invalid type: integer `3`, expected a string at line 1 column 29"
        );
    }
}
