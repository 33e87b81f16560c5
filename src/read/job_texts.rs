//! The distinct embedded job texts seen so far, each with its job parsed on
//! first use.
//!
//! Every allocation embeds the job version it was placed with, and all the
//! allocations of one version embed the same bytes. The texts are kept in a
//! crit-bit tree, so that the text at the start of the bytes still to read is
//! recognised by looking at a handful of bytes and then one `memcmp`: the fast
//! walk skips kilobytes of known job per allocation without scanning them.
//!
//! That is sound because a complete JSON value ends where its text ends: if
//! the input starts with a known (valid) job text, the value there is exactly
//! that text. The same fact makes the texts prefix-free, which a crit-bit tree
//! needs: two of them always differ at a position both have.
//!
//! A text that differs from a known one only in the values the servers change
//! without a new version ([`volatile`]) is that text's variant: it shares the
//! known text's entry and is neither kept nor parsed again. The crit-bit
//! lookup finds the variant's text when the volatile values have the same
//! lengths; otherwise a hash of the text without them does.

use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::FixedState;

use super::volatile::{self, Near, Span};
use crate::model::{self, GoJson, Job};

/// Why a job text would not parse into a job.
pub(super) type JobError = serde_path_to_error::Error<serde_json::Error>;

/// The set of job texts, each parsed into a [`Job`] at most once.
#[derive(Default)]
pub(super) struct JobTexts {
    entries: Vec<Arc<Entry>>,
    nodes: Vec<Node>,
    root: Option<Link>,
    /// The first entry of each shape ([`volatile::shape`]).
    shapes: HashMap<u64, usize, FixedState>,
    /// The job of each entry, parsed on first use: the texts of jobs a
    /// `--job` filter drops are never parsed.
    jobs: Vec<Option<Arc<Job>>>,
    /// The entries last found for each job ([`Self::prefix_hinted`]), the
    /// latest first.
    hints: HashMap<u64, Hinted, FixedState>,
}

struct Entry {
    text: Box<[u8]>,
    /// Where the text's volatile values are.
    volatile: Box<[Span]>,
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

/// A branch on one bit of one byte: texts with the bit set go right.
#[derive(Clone)]
struct Node {
    position: usize,
    mask: u8,
    children: [Link; 2],
}

#[derive(Clone, Copy)]
enum Link {
    Node(usize),
    Entry(usize),
}

/// What [`JobTexts::prefix_of`] found at the start of some bytes.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Prefix {
    /// The bytes start with this entry's text.
    Known { entry: usize, len: usize },
    /// The bytes start with no known text.
    Unknown,
    /// The bytes end before they could be told apart: read more.
    Short,
}

impl JobTexts {
    /// The known text, or a variant of it, that `bytes` starts with.
    pub(super) fn prefix_of(&self, bytes: &[u8]) -> Prefix {
        let Some(mut link) = self.root else {
            return Prefix::Unknown;
        };
        let entry = loop {
            match link {
                Link::Entry(e) => break e,
                Link::Node(n) => {
                    let node = &self.nodes[n];
                    let Some(&byte) = bytes.get(node.position) else {
                        return Prefix::Short;
                    };
                    link = node.children[usize::from(byte & node.mask != 0)];
                }
            }
        };
        let Entry { text, volatile } = &*self.entries[entry];
        match volatile::compare(text, volatile, bytes) {
            Near::Variant(len) => Prefix::Known { entry, len },
            Near::Differs => Prefix::Unknown,
            Near::Short => Prefix::Short,
        }
    }

    /// [`Self::prefix_of`], trying first the entries last found for the
    /// allocation's job (`hint`, see [`Self::remember`]).
    ///
    /// A job has a few versions, and its allocations embed their texts or
    /// variants of them: comparing with those nearly always settles it,
    /// without the walk down the tree (a dozen and more dependent loads,
    /// most of them cache misses, where texts are tens of thousands). A
    /// hinted text that is not the one costs a comparison up to the first
    /// byte that differs. At most one entry matches: two texts the same
    /// bytes were variants of would be variants of each other, and the
    /// second would not have been added.
    pub(super) fn prefix_hinted(&self, bytes: &[u8], hint: Option<u64>) -> Prefix {
        let hinted = hint.and_then(|h| self.hints.get(&h));
        for &entry in hinted.map_or(&[][..], |h| h.entries()) {
            let Entry { text, volatile } = &*self.entries[entry];
            if let Near::Variant(len) = volatile::compare(text, volatile, bytes) {
                return Prefix::Known { entry, len };
            }
        }
        self.prefix_of(bytes)
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

    /// The entry of which the complete text `text` is a variant whose
    /// volatile values differ in length, which [`Self::prefix_of`] misses.
    fn variant_of(&self, text: &[u8]) -> Option<usize> {
        let spans = volatile::spans(text);
        self.variant_of_shape(text, volatile::shape(text, &spans))
    }

    /// The entry of the first text of `shape`, if `text` is its variant.
    fn variant_of_shape(&self, text: &[u8], shape: u64) -> Option<usize> {
        let &entry = self.shapes.get(&shape)?;
        let known = &self.entries[entry];
        let near = volatile::compare(&known.text, &known.volatile, text);
        (near == Near::Variant(text.len())).then_some(entry)
    }

    /// The entry of this text or of a text it is a variant of, added if
    /// neither is known. The caller vouches that it is one complete JSON
    /// value.
    pub(super) fn insert(&mut self, text: &[u8]) -> usize {
        if let Prefix::Known { entry, len } = self.prefix_of(text)
            && len == text.len()
        {
            return entry;
        }
        let spans = volatile::spans(text);
        let shape = volatile::shape(text, &spans);
        if let Some(entry) = self.variant_of_shape(text, shape) {
            return entry;
        }
        let entry = Entry {
            text: text.into(),
            volatile: spans.into(),
        };
        let Some(root) = self.root else {
            self.root = Some(self.push(entry, shape));
            return 0;
        };
        // The closest text, then the first bit where the new one differs.
        let mut link = root;
        while let Link::Node(n) = link {
            let node = &self.nodes[n];
            let byte = text.get(node.position).copied().unwrap_or(0);
            link = node.children[usize::from(byte & node.mask != 0)];
        }
        let Link::Entry(closest) = link else {
            unreachable!("the loop ends at an entry")
        };
        let other = &self.entries[closest].text;
        let Some(position) =
            (0..text.len().max(other.len())).find(|&i| byte_at(text, i) != byte_at(other, i))
        else {
            return closest;
        };
        let diff = byte_at(text, position) ^ byte_at(other, position);
        let mask = 1u8 << (7 - diff.leading_zeros());
        let right = byte_at(text, position) & mask != 0;
        // The new branch goes below every branch on an earlier bit.
        let mut parent: Option<(usize, usize)> = None;
        let mut link = root;
        while let Link::Node(n) = link {
            let node = &self.nodes[n];
            if node.position > position || (node.position == position && node.mask < mask) {
                break;
            }
            let side = usize::from(byte_at(text, node.position) & node.mask != 0);
            parent = Some((n, side));
            link = node.children[side];
        }
        let leaf = self.push(entry, shape);
        let children = if right { [link, leaf] } else { [leaf, link] };
        self.nodes.push(Node {
            position,
            mask,
            children,
        });
        let branch = Link::Node(self.nodes.len() - 1);
        match parent {
            Some((n, side)) => self.nodes[n].children[side] = branch,
            None => self.root = Some(branch),
        }
        self.entries.len() - 1
    }

    /// The entry of this text or of a text it is a variant of, if known.
    pub(super) fn find(&self, text: &[u8]) -> Option<usize> {
        match self.prefix_of(text) {
            Prefix::Known { entry, len } if len == text.len() => Some(entry),
            _ => self.variant_of(text),
        }
    }

    /// How many texts there are.
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// A copy to look texts up in on another thread: it shares the texts
    /// (one count each), not the jobs parsed so far.
    pub(super) fn for_lookup(&self) -> JobTexts {
        JobTexts {
            entries: self.entries.clone(),
            nodes: self.nodes.clone(),
            root: self.root,
            shapes: self.shapes.clone(),
            jobs: Vec::new(),
            hints: self.hints.clone(),
        }
    }

    /// The entry of exactly this text, not of a text it is a variant of.
    pub(super) fn find_exact(&self, text: &[u8]) -> Option<usize> {
        match self.prefix_of(text) {
            Prefix::Known { entry, .. } if *self.entries[entry].text == *text => Some(entry),
            _ => None,
        }
    }

    /// The job of an entry, parsed the first time it is asked for.
    pub(super) fn job(&mut self, entry: usize) -> Result<Arc<Job>, JobError> {
        if self.jobs.len() <= entry {
            self.jobs.resize(self.entries.len(), None);
        }
        if let Some(job) = &self.jobs[entry] {
            return Ok(Arc::clone(job));
        }
        let text = &self.entries[entry].text;
        // The path is tracked only to say where a text that fails is wrong.
        let job = match model::from_slice::<Job>(text) {
            Ok(job) => Arc::new(job),
            Err(_) => {
                let mut de = serde_json::Deserializer::from_slice(text);
                Arc::new(serde_path_to_error::deserialize::<_, GoJson<Job>>(&mut de)?.0)
            }
        };
        self.jobs[entry] = Some(Arc::clone(&job));
        Ok(job)
    }

    fn push(&mut self, entry: Entry, shape: u64) -> Link {
        let index = self.entries.len();
        self.shapes.entry(shape).or_insert(index);
        self.entries.push(Arc::new(entry));
        Link::Entry(index)
    }
}

/// Bytes past the end read as 0, which valid JSON never contains.
fn byte_at(text: &[u8], i: usize) -> u8 {
    text.get(i).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(list: &[&str]) -> JobTexts {
        let mut t = JobTexts::default();
        for (i, s) in list.iter().enumerate() {
            assert_eq!(t.insert(s.as_bytes()), i, "{s}");
        }
        t
    }

    #[test]
    fn recognises_every_text_at_the_start_of_longer_input() {
        let list = [
            r#"{"ID":"a","Version":1}"#,
            r#"{"ID":"a","Version":2}"#,
            r#"{"ID":"b","Version":1}"#,
            r#"{"ID":"a","Version":10}"#,
            r#"{"ID":"ab","Version":1}"#,
            r#"{}"#,
            r#"{"ID":"a","Version":1,"X":[]}"#,
        ];
        let t = texts(&list);
        for (i, s) in list.iter().enumerate() {
            let input = format!("{s},\"JobID\":\"a\"}}");
            assert_eq!(
                t.prefix_of(input.as_bytes()),
                Prefix::Known {
                    entry: i,
                    len: s.len()
                },
                "{s}"
            );
            assert_eq!(t.find(s.as_bytes()), Some(i));
        }
    }

    #[test]
    fn an_unseen_text_is_unknown_and_inserting_twice_keeps_one() {
        let mut t = texts(&[r#"{"ID":"a"}"#, r#"{"ID":"b"}"#]);
        assert_eq!(t.prefix_of(br#"{"ID":"c"},"#), Prefix::Unknown);
        assert_eq!(t.prefix_of(br#"{"ID":"a","V":1},"#), Prefix::Unknown);
        assert_eq!(t.find(br#"{"ID":"c"}"#), None);
        assert_eq!(t.insert(br#"{"ID":"b"}"#), 1);
        assert_eq!(t.insert(br#"{"ID":"c"}"#), 2);
        assert_eq!(t.find(br#"{"ID":"c"}"#), Some(2));
    }

    #[test]
    fn input_cut_before_a_match_asks_for_more() {
        let t = texts(&[r#"{"ID":"a","Version":1}"#, r#"{"ID":"a","Version":2}"#]);
        assert_eq!(t.prefix_of(br#"{"ID":"a","Ver"#), Prefix::Short);
        assert_eq!(t.prefix_of(br#"{"ID":"a","Version":1"#), Prefix::Short);
        assert_eq!(t.prefix_of(br#"{"ID":"z","Version":1"#), Prefix::Unknown);
        assert_eq!(JobTexts::default().prefix_of(b"{"), Prefix::Unknown);
    }

    #[test]
    fn a_variant_in_volatile_values_is_its_known_text() {
        let t = texts(&[
            r#"{"ID":"a","Version":1,"Status":"pending","Stable":false,"ModifyIndex":1040}"#,
            r#"{"ID":"a","Version":2,"Status":"pending","Stable":false,"ModifyIndex":1050}"#,
        ]);
        // Of the same lengths: found by the lookup at the start of the input.
        let same = r#"{"ID":"a","Version":2,"Status":"running","Stable":false,"ModifyIndex":1057}"#;
        let input = format!("{same},\"JobID\":\"a\"}}");
        assert_eq!(
            t.prefix_of(input.as_bytes()),
            Prefix::Known {
                entry: 1,
                len: same.len()
            }
        );
        // Of other lengths: found by its shape once the text is complete.
        let longer = r#"{"ID":"a","Version":1,"Status":"dead","Stable":true,"ModifyIndex":99999}"#;
        assert_eq!(t.find(longer.as_bytes()), Some(0));
        assert_eq!(t.variant_of(longer.as_bytes()), Some(0));
        // Anything else is a text of its own.
        let other =
            r#"{"ID":"a","Version":3,"Status":"pending","Stable":false,"ModifyIndex":1040}"#;
        assert_eq!(t.prefix_of(other.as_bytes()), Prefix::Unknown);
        assert_eq!(t.find(other.as_bytes()), None);
    }

    #[test]
    fn hints_are_tried_latest_first_and_fall_back_to_the_tree() {
        let known =
            r#"{"ID":"a","Version":1,"Status":"pending","Stable":false,"ModifyIndex":1040}"#;
        let mut t = texts(&[known, r#"{"ID":"b","Version":1}"#]);
        let longer = r#"{"ID":"a","Version":1,"Status":"dead","Stable":true,"ModifyIndex":99999}"#;
        let input = format!("{longer},\"JobID\":\"a\"}}");
        let found = Prefix::Known {
            entry: 0,
            len: longer.len(),
        };
        for (job, hints) in [&[][..], &[1], &[0], &[1, 0]].into_iter().enumerate() {
            let job = job as u64;
            for &e in hints.iter().rev() {
                t.remember(job, e);
            }
            assert_eq!(t.hints_to(job), hints);
            assert_eq!(t.prefix_hinted(input.as_bytes(), Some(job)), found);
            assert_eq!(t.prefix_hinted(input.as_bytes(), None), found);
        }
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
        let b = t.job(0).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!((a.id.as_str(), a.version), ("web", 3));
        let bad = t.insert(br#"{"ID":7}"#);
        assert!(t.job(bad).is_err());
    }
}
