//! An allocation as a snapshot writes it: the model's [`Allocation`] and the
//! embedded `Job` as raw text beside it, which the reader interns into
//! `Allocation::job` before it keeps the allocation. The text never reaches
//! the model.
//!
//! `Allocation` itself skips `Job`; the record's visitor hands the
//! allocation's derived visitor a view of the object without that key and
//! takes the key's value as it streams by, so nothing is buffered and errors
//! keep their positions and paths.
//!
//! The pre-0.9 `Resources`, `TaskResources` and `SharedResources` are taken
//! out the same way, as text: Nomad still writes them on every allocation
//! (with a network and its ports in `SharedResources`), but reads them only
//! when `AllocatedResources` is missing (`fit::usage`), which comes after
//! them in Go's field order. So they are parsed only once the allocation
//! is read and lacks it; building them only to drop them was a tenth of the
//! reader's time on the big cluster.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer, UnitDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, forward_to_deserialize_any};
use serde_json::value::RawValue;

use crate::model::{Allocation, LegacyResources, Resources, TextUse, from_slice, with_text};

/// The key of the embedded job.
const JOB: &str = "Job";

/// The pre-0.9 resource blocks, by [`Legacy`]'s index.
const LEGACY: [&str; 3] = ["Resources", "TaskResources", "SharedResources"];

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
        let mut legacy = Legacy::default();
        let without = WithoutJob {
            map,
            job: &mut job,
            legacy: &mut legacy,
            seen: false,
            at: Spot::Other,
            byte_keys: self.byte_keys,
        };
        let mut alloc = Allocation::deserialize(MapAccessDeserializer::new(without))?;
        if alloc.allocated_resources.is_none() {
            legacy.parse_into(&mut alloc)?;
        }
        Ok(AllocRecord { alloc, job })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<AllocRecord, A::Error> {
        let alloc = Allocation::deserialize(SeqAccessDeserializer::new(seq))?;
        Ok(AllocRecord { alloc, job: None })
    }
}

/// What the record takes out of the allocation's object, by its key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spot {
    Other,
    Job,
    /// One of [`LEGACY`], by its index.
    Legacy(usize),
}

impl Spot {
    fn of(key: &[u8]) -> Spot {
        match key {
            b"Job" => Spot::Job,
            b"Resources" => Spot::Legacy(0),
            b"TaskResources" => Spot::Legacy(1),
            b"SharedResources" => Spot::Legacy(2),
            _ => Spot::Other,
        }
    }
}

/// The texts of the pre-0.9 resource blocks of one allocation, one after
/// the other, with where each lies (`None`: `null` or no key).
#[derive(Default)]
struct Legacy {
    text: String,
    spans: [Option<Range<usize>>; 3],
    /// The key was read, if only as `null`: a second one is a duplicate field.
    seen: [bool; 3],
}

impl Legacy {
    /// Gives `alloc` the blocks, as the allocation's own fields would have
    /// read them; an error names the block.
    fn parse_into<E: de::Error>(&self, alloc: &mut Allocation) -> Result<(), E> {
        let mut blocks = LegacyResources::default();
        for (i, span) in self.spans.iter().enumerate() {
            let Some(span) = span else { continue };
            let text = &self.text.as_bytes()[span.clone()];
            let named = |e: serde_json::Error| E::custom(format!("in {}: {e}", LEGACY[i]));
            match i {
                0 => blocks.resources = from_slice::<Option<Resources>>(text).map_err(named)?,
                1 => {
                    blocks.task_resources = from_slice::<Option<BTreeMap<String, Resources>>>(text)
                        .map_err(named)?
                        .unwrap_or_default();
                }
                _ => {
                    blocks.shared_resources =
                        from_slice::<Option<Resources>>(text).map_err(named)?;
                }
            }
        }
        alloc.legacy = blocks.boxed();
        Ok(())
    }
}

/// Appends a value's text to a block's texts, giving where it lies.
struct Append<'t>(&'t mut String);

impl TextUse for Append<'_> {
    type Out = Range<usize>;

    fn take<E: de::Error>(self, text: &str) -> Result<Range<usize>, E> {
        if self.0.capacity() == 0 {
            // Room for the usual blocks (a `Resources` and a networked
            // `SharedResources` take about 400 bytes), in one allocation.
            self.0.reserve(512);
        }
        let start = self.0.len();
        self.0.push_str(text);
        Ok(start..self.0.len())
    }
}

impl<'de> DeserializeSeed<'de> for Append<'_> {
    type Value = Option<Range<usize>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        with_text(d, self)
    }
}

/// The allocation's object with the `Job` entry taken out into `job`, and
/// the legacy resource blocks into `legacy`.
struct WithoutJob<'j, A> {
    map: A,
    job: &'j mut Option<Box<RawValue>>,
    legacy: &'j mut Legacy,
    /// `Job` was read, if only as `null`: a second one is a duplicate field.
    seen: bool,
    /// What the key just read was.
    at: Spot,
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
            at: &mut self.at,
            byte_keys: self.byte_keys,
        })
    }

    /// `Job` is not a field of `Allocation`, so its visitor ignores the
    /// value: it is given a unit while the real value goes to `job`. A
    /// legacy block's field is given a unit too, Go's absent value, while
    /// its text goes to `legacy`.
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match std::mem::replace(&mut self.at, Spot::Other) {
            Spot::Other => return self.map.next_value_seed(seed),
            Spot::Job => {
                if std::mem::replace(&mut self.seen, true) {
                    return Err(de::Error::duplicate_field(JOB));
                }
                *self.job = self.map.next_value()?;
            }
            Spot::Legacy(i) => {
                if std::mem::replace(&mut self.legacy.seen[i], true) {
                    return Err(de::Error::duplicate_field(LEGACY[i]));
                }
                self.legacy.spans[i] = self.map.next_value_seed(Append(&mut self.legacy.text))?;
            }
        }
        seed.deserialize(UnitDeserializer::new())
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// The key seed of `seed`, noting whether the key is one the record takes
/// out as it passes; the key is asked for as bytes with `byte_keys`.
struct SpotJob<'f, K> {
    seed: K,
    at: &'f mut Spot,
    byte_keys: bool,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for SpotJob<'_, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(SpotJob {
            seed: d,
            at: self.at,
            byte_keys: self.byte_keys,
        })
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for SpotJob<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.seed.deserialize_any(SpotJob {
            seed: v,
            at: self.at,
            byte_keys: self.byte_keys,
        })
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        let byte_keys = self.byte_keys;
        let v = SpotJob {
            seed: v,
            at: self.at,
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
        *self.at = Spot::of(s.as_bytes());
        self.seed.visit_str(s)
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<V::Value, E> {
        *self.at = Spot::of(s.as_bytes());
        self.seed.visit_borrowed_str(s)
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<V::Value, E> {
        *self.at = Spot::of(s.as_bytes());
        self.seed.visit_string(s)
    }

    fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<V::Value, E> {
        *self.at = Spot::of(b);
        checked_key(b)?;
        self.seed.visit_bytes(b)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> Result<V::Value, E> {
        *self.at = Spot::of(b);
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
    fn legacy_blocks_are_read_only_without_allocated_resources() {
        let legacy = r#""Resources": {"CPU": 100, "Networks": [{"IP": "10.0.0.1",
            "DynamicPorts": [{"Label": "http", "Value": 25485}]}]},
            "TaskResources": {"web": {"MemoryMB": 256}}, "SharedResources": {"DiskMB": 300}"#;
        let without = format!(r#"{{"ID": "a1", {legacy}, "TaskGroup": "web"}}"#);
        let r = record(&without).unwrap();
        let whole: Allocation = from_slice(without.as_bytes()).unwrap();
        let blocks = r.alloc.legacy.as_deref().unwrap();
        let resources = blocks.resources.as_ref().unwrap();
        assert_eq!(resources.cpu, 100);
        assert_eq!(resources.networks[0].ip, "10.0.0.1");
        assert_eq!(resources.networks[0].dynamic_ports[0].label, "http");
        let whole_blocks = whole.legacy.as_deref().unwrap();
        assert!(resources.equals(whole_blocks.resources.as_ref().unwrap()));
        assert_eq!(blocks.task_resources["web"].memory_mb, 256);
        assert_eq!(blocks.shared_resources.as_ref().unwrap().disk_mb, 300);
        assert_eq!(r.alloc.task_group, "web");
        let FastRecord(fast) = serde_json::from_str(&without).unwrap();
        let fast_blocks = fast.alloc.legacy.unwrap();
        assert_eq!(fast_blocks.resources.unwrap().networks[0].ip, "10.0.0.1");
        // In Go's order `AllocatedResources` comes after them; in any order
        // the blocks it supersedes are neither kept nor checked.
        for text in [
            format!(r#"{{{legacy}, "AllocatedResources": {{"Tasks": {{}}}}}}"#),
            r#"{"AllocatedResources": {}, "Resources": 5, "SharedResources": [1]}"#.to_string(),
        ] {
            let r = record(&text).unwrap();
            assert!(r.alloc.allocated_resources.is_some());
            assert!(r.alloc.legacy.is_none());
        }
        let nulls = record(r#"{"Resources": null, "TaskResources": null}"#).unwrap();
        assert!(nulls.alloc.legacy.is_none());
    }

    #[test]
    fn a_bad_legacy_block_is_named_and_a_repeated_one_is_a_duplicate() {
        let e = record(r#"{"ID": "a1", "SharedResources": {"CPU": "lots"}}"#)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.starts_with("in SharedResources: invalid type: string \"lots\", expected i64"),
            "{e}"
        );
        let e = record(r#"{"Resources": {}, "ID": "a1", "Resources": null}"#)
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "duplicate field `Resources` at line 1 column 41"
        );
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
