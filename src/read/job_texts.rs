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

use std::sync::Arc;

use crate::model::Job;

/// Why a job text would not parse into a job.
pub(super) type JobError = serde_path_to_error::Error<serde_json::Error>;

/// The set of job texts, each parsed into a [`Job`] at most once. A copy is
/// cheap: the texts and jobs are shared.
#[derive(Clone, Default)]
pub(super) struct JobTexts {
    entries: Vec<Entry>,
    nodes: Vec<Node>,
    root: Option<Link>,
}

#[derive(Clone)]
struct Entry {
    text: Arc<[u8]>,
    /// Parsed on first use: the texts of jobs a `--job` filter drops are
    /// never parsed.
    job: Option<Arc<Job>>,
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
    /// The known text that `bytes` starts with.
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
        let text = &self.entries[entry].text;
        match bytes.get(..text.len()) {
            Some(head) if head == &text[..] => Prefix::Known {
                entry,
                len: text.len(),
            },
            // A difference before the end of what is there settles it.
            None if !text.starts_with(bytes) => Prefix::Unknown,
            None => Prefix::Short,
            Some(_) => Prefix::Unknown,
        }
    }

    /// The entry of exactly this text, added if new. The caller vouches that
    /// it is one complete JSON value.
    pub(super) fn insert(&mut self, text: &[u8]) -> usize {
        let Some(root) = self.root else {
            self.root = Some(self.push(text));
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
        let leaf = self.push(text);
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

    /// The entry of exactly this text, if known.
    pub(super) fn find(&self, text: &[u8]) -> Option<usize> {
        match self.prefix_of(text) {
            Prefix::Known { entry, len } if len == text.len() => Some(entry),
            _ => None,
        }
    }

    /// The job of an entry, parsed the first time it is asked for.
    /// The text of `entry`.
    pub(super) fn text(&self, entry: usize) -> &[u8] {
        &self.entries[entry].text
    }

    pub(super) fn job(&mut self, entry: usize) -> Result<Arc<Job>, JobError> {
        let entry = &mut self.entries[entry];
        if let Some(job) = &entry.job {
            return Ok(Arc::clone(job));
        }
        let mut de = serde_json::Deserializer::from_slice(&entry.text);
        let job = Arc::new(serde_path_to_error::deserialize::<_, Job>(&mut de)?);
        entry.job = Some(Arc::clone(&job));
        Ok(job)
    }

    fn push(&mut self, text: &[u8]) -> Link {
        self.entries.push(Entry {
            text: text.into(),
            job: None,
        });
        Link::Entry(self.entries.len() - 1)
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
