//! A bounded, order-independent collection of reader warnings.
//!
//! A broken dump can repeat one problem millions of times; the operator needs a
//! few examples and a count. Each code keeps the [`MAX_PER_CODE`] smallest
//! messages (so the examples do not depend on input order) and counts the rest.

use std::collections::{BTreeMap, BTreeSet};

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
    dropped: usize,
}

impl Warnings {
    pub(crate) fn push(&mut self, code: &'static str, message: String) {
        let group = self.groups.entry(code).or_default();
        if group.kept.insert(message) && group.kept.len() > MAX_PER_CODE {
            group.kept.pop_last();
            group.dropped += 1;
        }
    }

    /// Sorted by code, then message; a group's `... and N more` summary last.
    pub(crate) fn finish(self) -> Vec<Warning> {
        let mut out = Vec::new();
        for (code, group) in self.groups {
            out.extend(group.kept.into_iter().map(|m| Warning::new(code, m)));
            if group.dropped > 0 {
                out.push(Warning::new(
                    code,
                    format!("... and {} more", group.dropped),
                ));
            }
        }
        out
    }
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
}
