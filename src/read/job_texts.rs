//! The distinct embedded job texts seen so far, known by a hash of their
//! bytes rather than kept, each with its job parsed once.
//!
//! Every allocation embeds the job version it was placed with, and all the
//! allocations of one version embed the same bytes (or a variant of them,
//! below). Where jobs are many the distinct texts are many too (35,000 per
//! 200,000 allocations of 10,000 jobs, 2.7 KB each): kept to compare the
//! next allocation's text with, they were a fifth of the reader's memory.
//! Only their [`Key`] is kept: the length, where the volatile values are, and
//! a 128-bit hash of the text without them.
//!
//! An allocation's text is recognised in one of two ways:
//! - its job's last texts: an allocation's `Namespace` and `JobID` come
//!   before its `Job` in Nomad's order, and a job has a few versions, so the
//!   texts last found for that job are tried first, by hashing the bytes
//!   ahead as each text's key lays them out ([`Key::prefix_of`]: no scan for
//!   the value's end, and a text of another length is ruled out by its last
//!   bytes before anything is hashed);
//! - otherwise the value's end is found by a scan and the complete text's
//!   key looked up by its hash.
//!
//! **Collisions.** A text is taken for a known one when their 128-bit hashes
//! (xxHash's XXH3-128, with its fixed default seed, so the same input always
//! reads the same way) are equal, without comparing bytes. For texts that are
//! not built to collide, the chance that any two of `n` distinct texts share
//! a hash is at most `n² / 2¹²⁹`: about 10⁻²⁸ for 35,000 texts, 10⁻²⁶ for a
//! million, far below the odds of a memory error in the machine reading them.
//! XXH3 is not a cryptographic hash, so a snapshot written on purpose to
//! collide could make one allocation embed the job of another text of the
//! same shape; that can only mislead the report on that same snapshot,
//! which the user supplies, and it is read the same way every time. A
//! recognised text is not parsed again: on a collision it would not be
//! checked to be JSON, and the allocation would get the other text's job.
//!
//! A text that differs from a known one only in the values the servers change
//! without a new version ([`volatile`]) is that text's variant: its hash
//! leaves those values out, so it shares the known text's entry and is
//! neither parsed nor kept again.

use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::FixedState;
use serde::de::IgnoredAny;
use xxhash_rust::xxh3::xxh3_128;

use super::volatile::Key;
use crate::model::{self, GoJson, Job};

/// Why a job text would not parse into a job.
pub(super) type JobError = serde_path_to_error::Error<serde_json::Error>;

/// The set of job texts, each with its job once parsed.
#[derive(Default)]
pub(super) struct JobTexts {
    entries: Vec<Entry>,
    /// The entry of each shape ([`Key::shape`]): a text and its variants.
    shapes: HashMap<u128, usize, FixedState>,
    /// The entries last found for each job ([`Self::prefix_hinted`]), the
    /// latest first.
    hints: HashMap<u64, Hinted, FixedState>,
}

struct Entry {
    key: Key,
    /// A hash of the first text of the entry, whole ([`Self::find_exact`]).
    exact: u128,
    /// `None` while only allocations a `--job` filter drops embedded it:
    /// their texts are checked, never parsed.
    job: Option<Arc<Job>>,
}

/// A text not among the known ones, checked (and its job parsed, when an
/// allocation kept needs it) away from the set, to be added in order
/// ([`JobTexts::add`]).
pub(super) struct NewText {
    key: Key,
    exact: u128,
    job: Option<Arc<Job>>,
}

impl NewText {
    /// The new text `text`, whose key is `key`: checked to be JSON, with its
    /// job parsed if `parse`. `Err` when it is not JSON or, parsed, not a job.
    pub(super) fn check(text: &[u8], key: Key, parse: bool) -> Result<NewText, Option<JobError>> {
        let Ok(json) = std::str::from_utf8(text) else {
            return Err(None);
        };
        let job = if parse {
            Some(parse_job_text(json).map_err(Some)?)
        } else {
            serde_json::from_slice::<IgnoredAny>(text).map_err(|_| None)?;
            None
        };
        Ok(NewText {
            key,
            exact: xxh3_128(text),
            job,
        })
    }

    pub(super) fn shape(&self) -> u128 {
        self.key.shape()
    }

    /// The text's job, if parsed, to read from.
    pub(super) fn parsed(&self) -> Option<&Job> {
        self.job.as_deref()
    }
}

/// The texts last found for one job, the latest first: as many as a job
/// usually has versions in use at once.
#[derive(Clone, Default)]
struct Hinted {
    entries: [usize; HINTED],
    len: usize,
}

const HINTED: usize = 4;

impl Hinted {
    fn entries(&self) -> &[usize] {
        &self.entries[..self.len]
    }

    /// Puts `entry` first, dropping the oldest if full.
    fn note(&mut self, entry: usize) {
        if self.entries().first() == Some(&entry) {
            return;
        }
        let at = self.entries().iter().position(|&e| e == entry);
        let end = at.unwrap_or(self.len.min(HINTED - 1));
        self.entries.copy_within(..end, 1);
        self.entries[0] = entry;
        if at.is_none() {
            self.len = (self.len + 1).min(HINTED);
        }
    }
}

/// What [`JobTexts::lookup`] found for a complete text.
pub(super) enum Lookup {
    /// The text, or a variant of it, is this entry's.
    Known(usize),
    /// It is new: its key, to add it by.
    New(Key),
}

/// What [`JobTexts::find`] found for a complete text.
pub(super) enum Found {
    /// The entry of the text, or of a text it is a variant of, and its job.
    Parsed(usize, Arc<Job>),
    /// That entry, whose job only allocations a filter drops needed so far.
    Unparsed(usize),
    /// A text not known: its key, to add it by.
    New(Key),
}

/// A text found and its job parsed where needed, to settle in order
/// ([`JobTexts::settle`]).
pub(super) enum Prepared {
    Known(usize, Arc<Job>),
    New {
        key: Key,
        exact: u128,
        job: Arc<Job>,
    },
}

impl Found {
    /// The job of `text`, the text this was found for, parsed unless known.
    pub(super) fn prepare(self, text: &[u8]) -> Result<Prepared, JobError> {
        Ok(match self {
            Found::Parsed(entry, job) => Prepared::Known(entry, job),
            Found::Unparsed(entry) => Prepared::Known(entry, parse_job(text)?),
            Found::New(key) => Prepared::New {
                key,
                exact: xxh3_128(text),
                job: parse_job(text)?,
            },
        })
    }
}

impl JobTexts {
    /// The entry and length of the text last found for the allocation's job
    /// (`hint`, see [`Self::remember`]) that `bytes` start with, or a variant
    /// of it.
    ///
    /// A job has a few versions, and its allocations embed their texts or
    /// variants of them: trying those nearly always settles it, without
    /// finding where the value ends. At most one entry matches: two texts
    /// the same bytes were variants of would be variants of each other, and
    /// the second would not have been added.
    pub(super) fn prefix_hinted(&self, bytes: &[u8], hint: Option<u64>) -> Option<(usize, usize)> {
        let hinted = self.hints.get(&hint?)?;
        hinted
            .entries()
            .iter()
            .find_map(|&entry| Some((entry, self.entries[entry].key.prefix_of(bytes)?)))
    }

    /// Notes `entry` as a text of the job whose hash is `hint`.
    pub(super) fn remember(&mut self, hint: u64, entry: usize) {
        self.hints.entry(hint).or_default().note(entry);
    }

    /// The entries noted for the job whose hash is `hint`.
    #[cfg(test)]
    pub(super) fn hints_to(&self, hint: u64) -> &[usize] {
        self.hints.get(&hint).map_or(&[][..], |h| h.entries())
    }

    /// The entry of the complete text `text` or of a text it is a variant
    /// of, or its key if neither is known.
    pub(super) fn lookup(&self, text: &[u8]) -> Lookup {
        let key = Key::of(text);
        match self.shapes.get(&key.shape()) {
            Some(&entry) => Lookup::Known(entry),
            None => Lookup::New(key),
        }
    }

    /// The entry of `new`, added unless a text of its shape was added since
    /// it was found new; its job is kept if the entry has none yet.
    pub(super) fn add(&mut self, new: &NewText) -> usize {
        if let Some(&entry) = self.shapes.get(&new.key.shape()) {
            let known = &mut self.entries[entry];
            if known.job.is_none() {
                known.job = new.job.clone();
            }
            return entry;
        }
        self.shapes.insert(new.key.shape(), self.entries.len());
        self.entries.push(Entry {
            key: new.key.clone(),
            exact: new.exact,
            job: new.job.clone(),
        });
        self.entries.len() - 1
    }

    /// The entry of this text or of a text it is a variant of, added if
    /// neither is known, and its job, parsed if it had none. The caller
    /// vouches that it is one complete JSON value.
    pub(super) fn insert(&mut self, text: &[u8]) -> Result<(usize, Arc<Job>), JobError> {
        let prepared = self.find(text).prepare(text)?;
        Ok(self.settle(prepared))
    }

    /// What the set knows of the complete text `text`, read without
    /// changing it: threads look texts up at once, then parse apart.
    pub(super) fn find(&self, text: &[u8]) -> Found {
        match self.lookup(text) {
            Lookup::Known(entry) => self.found(entry),
            Lookup::New(key) => Found::New(key),
        }
    }

    /// What the set knows of entry `entry`, a text found by other means
    /// ([`Self::prefix_hinted`]): as [`Self::find`] finds its text.
    pub(super) fn found(&self, entry: usize) -> Found {
        match &self.entries[entry].job {
            Some(job) => Found::Parsed(entry, Arc::clone(job)),
            None => Found::Unparsed(entry),
        }
    }

    /// The entry and job of a text found and prepared, added to the set as
    /// [`Self::insert`] would have. The set may have gained the text's
    /// shape, or that entry its job, since the text was looked up: the
    /// entry's job then stays, as if it had been looked up now.
    pub(super) fn settle(&mut self, prepared: Prepared) -> (usize, Arc<Job>) {
        let (entry, job) = match prepared {
            Prepared::Known(entry, job) => (entry, job),
            Prepared::New { key, exact, job } => {
                let entry = self.add(&NewText {
                    key,
                    exact,
                    job: None,
                });
                (entry, job)
            }
        };
        let kept = self.entries[entry].job.get_or_insert(job);
        (entry, Arc::clone(kept))
    }

    /// How many texts there are.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entry whose first text is exactly `text`, not one it is a
    /// variant of.
    pub(super) fn find_exact(&self, text: &[u8]) -> Option<usize> {
        let Lookup::Known(entry) = self.lookup(text) else {
            return None;
        };
        let known = &self.entries[entry];
        (known.key.len() == text.len() && known.exact == xxh3_128(text)).then_some(entry)
    }

    /// The job of an entry, if parsed.
    pub(super) fn job(&self, entry: usize) -> Option<Arc<Job>> {
        self.entries[entry].job.clone()
    }

    /// The entry's job, if parsed, to read from.
    pub(super) fn parsed(&self, entry: usize) -> Option<&Job> {
        self.entries[entry].job.as_deref()
    }
}

/// The job of a text, its parts shared with the versions read before; the
/// path is tracked only to say where a text that fails is wrong, read again
/// without sharing.
fn parse_job(text: &[u8]) -> Result<Arc<Job>, JobError> {
    match std::str::from_utf8(text) {
        Ok(json) => parse_job_text(json),
        Err(_) => job_with_path(text),
    }
}

/// [`parse_job`] of a text known to be UTF-8.
fn parse_job_text(text: &str) -> Result<Arc<Job>, JobError> {
    match model::from_str_shared::<Job>(text) {
        Ok(job) => Ok(Arc::new(job)),
        Err(_) => job_with_path(text.as_bytes()),
    }
}

/// The job `text` holds, read without sharing, or why it holds none, with
/// the path to where it stops being one.
fn job_with_path(text: &[u8]) -> Result<Arc<Job>, JobError> {
    let mut de = serde_json::Deserializer::from_slice(text);
    let job = serde_path_to_error::deserialize::<_, GoJson<Job>>(&mut de)?.0;
    Ok(Arc::new(job))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(list: &[&str]) -> JobTexts {
        let mut t = JobTexts::default();
        for (i, s) in list.iter().enumerate() {
            assert_eq!(t.insert(s.as_bytes()).unwrap().0, i, "{s}");
        }
        t
    }

    fn known(t: &JobTexts, text: &str) -> Option<usize> {
        match t.lookup(text.as_bytes()) {
            Lookup::Known(entry) => Some(entry),
            Lookup::New(_) => None,
        }
    }

    #[test]
    fn recognises_every_text_and_only_those() {
        let list = [
            r#"{"ID":"a","Version":1}"#,
            r#"{"ID":"a","Version":2}"#,
            r#"{"ID":"b","Version":1}"#,
            r#"{"ID":"a","Version":10}"#,
            r#"{"ID":"ab","Version":1}"#,
            r#"{}"#,
            r#"{"ID":"a","Version":1,"X":[]}"#,
        ];
        let mut t = texts(&list);
        for (i, s) in list.iter().enumerate() {
            assert_eq!(known(&t, s), Some(i), "{s}");
            assert_eq!(t.find_exact(s.as_bytes()), Some(i), "{s}");
            assert_eq!(t.insert(s.as_bytes()).unwrap().0, i, "{s}");
        }
        assert_eq!(t.len(), list.len());
        assert_eq!(known(&t, r#"{"ID":"c"}"#), None);
        assert_eq!(known(&t, r#"{"ID":"a","Version":3}"#), None);
    }

    #[test]
    fn a_variant_in_volatile_values_is_its_known_text_but_not_exactly() {
        let t = texts(&[
            r#"{"ID":"a","Version":1,"Status":"pending","Stable":false,"ModifyIndex":1040}"#,
            r#"{"ID":"a","Version":2,"Status":"pending","Stable":false,"ModifyIndex":1050}"#,
        ]);
        for variant in [
            r#"{"ID":"a","Version":2,"Status":"running","Stable":false,"ModifyIndex":1057}"#,
            r#"{"ID":"a","Version":2,"Status":"dead","Stable":true,"ModifyIndex":99999}"#,
        ] {
            assert_eq!(known(&t, variant), Some(1), "{variant}");
            assert_eq!(t.find_exact(variant.as_bytes()), None, "{variant}");
        }
        let other =
            r#"{"ID":"a","Version":3,"Status":"pending","Stable":false,"ModifyIndex":1040}"#;
        assert_eq!(known(&t, other), None);
    }

    #[test]
    fn hints_find_texts_and_variants_of_any_length_at_the_start_of_longer_input() {
        let v1 = r#"{"ID":"a","Version":1,"Status":"pending","Stable":false,"ModifyIndex":1040}"#;
        let v2 = r#"{"ID":"a","Version":2,"Status":"pending","Stable":false,"ModifyIndex":1050}"#;
        let mut t = texts(&[v1, v2, r#"{"ID":"b","Version":1}"#]);
        let job = 7;
        t.remember(job, 0);
        t.remember(job, 1);
        assert_eq!(t.hints_to(job), [1, 0]);
        let longer = r#"{"ID":"a","Version":1,"Status":"dead","Stable":true,"ModifyIndex":99999}"#;
        for (text, entry) in [(v1, 0), (v2, 1), (longer, 0)] {
            let input = format!("{text},\"JobID\":\"a\"}}");
            let found = Some((entry, text.len()));
            assert_eq!(
                t.prefix_hinted(input.as_bytes(), Some(job)),
                found,
                "{text}"
            );
            assert_eq!(t.prefix_hinted(input.as_bytes(), None), None);
            assert_eq!(t.prefix_hinted(input.as_bytes(), Some(8)), None);
            // Cut before its end: not found by the hint.
            let cut = &input[..text.len() - 1];
            assert_eq!(t.prefix_hinted(cut.as_bytes(), Some(job)), None);
        }
        let other =
            r#"{"ID":"a","Version":3,"Status":"pending","Stable":false,"ModifyIndex":1040}"#;
        assert_eq!(t.prefix_hinted(other.as_bytes(), Some(job)), None);
    }

    #[test]
    fn a_job_keeps_its_latest_hints() {
        let mut h = Hinted::default();
        for e in [1, 2, 3, 2, 4, 5, 4] {
            h.note(e);
        }
        assert_eq!(h.entries(), [4, 5, 2, 3]);
    }

    #[test]
    fn jobs_are_parsed_once_and_shared() {
        let mut t = texts(&[r#"{"ID":"web","Version":3}"#]);
        let a = t.job(0).unwrap();
        assert_eq!(t.insert(br#"{"ID":"web","Version":3}"#).unwrap().0, 0);
        let b = t.job(0).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!((a.id.as_str(), a.version), ("web", 3));
        assert!(t.insert(br#"{"ID":7}"#).is_err());
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn a_text_added_unparsed_gets_its_job_later() {
        let text = br#"{"ID":"web","Version":3}"#;
        let mut t = JobTexts::default();
        let Lookup::New(key) = t.lookup(text) else {
            panic!("known");
        };
        let unparsed = NewText::check(text, key.clone(), false).ok().unwrap();
        let entry = t.add(&unparsed);
        assert!(t.parsed(entry).is_none());
        let parsed = NewText::check(text, key, true).ok().unwrap();
        assert_eq!(t.add(&parsed), entry);
        assert_eq!(t.job(entry).unwrap().version, 3);
        assert!(NewText::check(b"{\"ID\":", Key::of(b"{"), false).is_err());
        assert!(matches!(
            NewText::check(br#"{"ID":7}"#, Key::of(b"{}"), true),
            Err(Some(_))
        ));
    }
}
