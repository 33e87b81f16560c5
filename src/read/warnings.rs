//! A bounded, order-independent collection of reader warnings.
//!
//! A broken dump can repeat one problem millions of times; the operator needs a
//! few examples and a count. Each code keeps the [`MAX_PER_CODE`] smallest
//! messages (so the examples do not depend on input order) and counts the
//! other distinct messages: a message given twice counts once, whether it was
//! kept, dropped, or kept first and pushed out later.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::{Hash, Hasher};

use crate::warning::Warning;

/// Examples kept per warning code.
pub const MAX_PER_CODE: usize = 20;

#[derive(Default)]
pub(crate) struct Warnings {
    groups: BTreeMap<&'static str, Group>,
}

#[derive(Default)]
struct Group {
    kept: BTreeSet<String>,
    /// Hashes of the distinct messages not kept (with a fixed key, so the
    /// count is the same on every run).
    dropped: HashSet<u64>,
}

impl Warnings {
    pub(crate) fn push(&mut self, code: &'static str, message: String) {
        let group = self.groups.entry(code).or_default();
        if group.kept.insert(message) && group.kept.len() > MAX_PER_CODE {
            let out = group.kept.pop_last().expect("over the limit");
            group.dropped.insert(fingerprint(&out));
        }
    }

    /// Sorted by code, then message; a group's `... and N more` summary last.
    pub(crate) fn finish(self) -> Vec<Warning> {
        let mut out = Vec::new();
        for (code, group) in self.groups {
            out.extend(group.kept.into_iter().map(|m| Warning::new(code, m)));
            if !group.dropped.is_empty() {
                out.push(Warning::new(
                    code,
                    format!("... and {} more", group.dropped.len()),
                ));
            }
        }
        out
    }
}

fn fingerprint(message: &str) -> u64 {
    let mut h = DefaultHasher::new();
    message.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_smallest_examples_whatever_the_order() {
        let mut a = Warnings::default();
        let mut b = Warnings::default();
        for i in 0..50 {
            a.push("x", format!("m{i:02}"));
            b.push("x", format!("m{:02}", 49 - i));
        }
        let (a, b) = (a.finish(), b.finish());
        assert_eq!(a, b);
        assert_eq!(a.len(), MAX_PER_CODE + 1);
        assert_eq!(a[0].message, "m00");
        assert_eq!(a[MAX_PER_CODE].message, "... and 30 more");
    }

    #[test]
    fn a_repeated_message_counts_once_whatever_the_order() {
        let messages: Vec<String> = (0..25).map(|i| format!("m{i:02}")).collect();
        // The largest message twice: first, while it is still kept, and last,
        // after it was pushed out.
        let mut early = Warnings::default();
        early.push("x", "m24".to_string());
        for m in &messages {
            early.push("x", m.clone());
        }
        let mut late = Warnings::default();
        for m in &messages {
            late.push("x", m.clone());
        }
        late.push("x", "m24".to_string());
        let (early, late) = (early.finish(), late.finish());
        assert_eq!(early, late);
        assert_eq!(early[MAX_PER_CODE].message, "... and 5 more");
    }
}
