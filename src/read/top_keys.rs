//! Which top-level keys a document had. A document with none of the keys that
//! hold cluster state is not a snapshot (`nomad job inspect` output, a job
//! file's JSON, lowercase keys), and one that lacks some of them would be
//! replayed as if that part of the cluster were empty: both must be said.

use std::collections::BTreeMap;

/// The keys that hold cluster state; a snapshot has at least one of them.
const STATE: [&str; 4] = ["Jobs", "Allocs", "Allocations", "Nodes"];

/// Keys the reader takes, as `&'static str` so both walks record the same.
const KNOWN: [&str; 15] = [
    "Jobs",
    "JobVersions",
    "Nodes",
    "Allocs",
    "Allocations",
    "Deployments",
    "Evals",
    "SnapshotMeta",
    "Now",
    "EvalID",
    "SupportsDisconnectedClients",
    "SchedulerConfig",
    "NodePools",
    "CSIVolumes",
    "CSIPlugins",
];

/// Other keys named in a message, at most.
const OTHER_NAMED: usize = 8;

/// How a key was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Presence {
    Absent,
    Null,
    Value,
}

#[derive(Debug, Default)]
pub(super) struct TopKeys {
    /// Keys the reader takes, and whether each held more than `null`.
    known: BTreeMap<&'static str, bool>,
    /// Other keys in document order, the first [`OTHER_NAMED`] of them.
    other: Vec<String>,
    other_count: usize,
    /// A `TaskGroups` key: the document is a job.
    task_groups: bool,
}

impl TopKeys {
    /// Records `key`; `value` is false when it held `null`.
    pub(super) fn saw(&mut self, key: &str, value: bool) {
        match KNOWN.iter().find(|k| **k == key) {
            Some(k) => {
                let held = self.known.entry(k).or_default();
                *held |= value;
            }
            None => {
                self.task_groups |= key == "TaskGroups";
                self.other_count += 1;
                if self.other.len() < OTHER_NAMED {
                    self.other.push(key.to_string());
                }
            }
        }
    }

    pub(super) fn presence(&self, key: &str) -> Presence {
        match self.known.get(key) {
            None => Presence::Absent,
            Some(false) => Presence::Null,
            Some(true) => Presence::Value,
        }
    }

    /// Allocations come under `Allocs` or `Allocations`; either will do.
    pub(super) fn allocs_presence(&self) -> Presence {
        match (self.presence("Allocs"), self.presence("Allocations")) {
            (Presence::Value, _) | (_, Presence::Value) => Presence::Value,
            (Presence::Null, _) | (_, Presence::Null) => Presence::Null,
            _ => Presence::Absent,
        }
    }

    /// `None` for a snapshot; else what the document is, for the error.
    pub(super) fn not_a_snapshot(&self) -> Option<String> {
        if STATE.iter().any(|k| self.known.contains_key(k)) {
            return None;
        }
        let has = |k: &str| self.other.iter().any(|o| o == k);
        let found = if self.known.is_empty() && self.other_count == 0 {
            "an empty object".to_string()
        } else if has("Job") && self.other_count == 1 && self.known.is_empty() {
            "an object with only a \"Job\" key: `nomad job inspect` output (one job, not the cluster's state)"
                .to_string()
        } else if self.task_groups {
            "a single job object (it has TaskGroups): `GET /v1/job/:id` or a job file's JSON, not the cluster's state"
                .to_string()
        } else {
            let mut keys: Vec<String> = self.known.keys().map(|k| k.to_string()).collect();
            keys.extend(self.other.iter().cloned());
            let more = self.other_count - self.other.len();
            let mut list = keys.join(", ");
            if more > 0 {
                list.push_str(&format!(" and {more} more"));
            }
            let folded: Vec<&str> = STATE
                .iter()
                .copied()
                .filter(|s| self.other.iter().any(|o| o.eq_ignore_ascii_case(s)))
                .collect();
            let case = if folded.is_empty() {
                String::new()
            } else {
                format!(
                    " (keys are case-sensitive: Nomad writes {})",
                    folded.join(", ")
                )
            };
            format!(
                "an object with the keys {list} but none of Jobs, Allocs (or Allocations), Nodes{case}"
            )
        };
        Some(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(list: &[(&str, bool)]) -> TopKeys {
        let mut k = TopKeys::default();
        for (key, value) in list {
            k.saw(key, *value);
        }
        k
    }

    #[test]
    fn a_document_with_a_state_key_is_a_snapshot_even_when_null() {
        assert_eq!(keys(&[("Nodes", false)]).not_a_snapshot(), None);
        assert_eq!(keys(&[("Allocations", true)]).not_a_snapshot(), None);
    }

    #[test]
    fn says_what_the_document_is() {
        let found = |list: &[(&str, bool)]| keys(list).not_a_snapshot().unwrap();
        assert_eq!(found(&[]), "an empty object");
        assert!(found(&[("Job", true)]).contains("`nomad job inspect` output"));
        assert!(found(&[("ID", true), ("TaskGroups", true)]).starts_with("a single job object"));
        assert_eq!(
            found(&[("jobs", true), ("allocs", true), ("Now", true)]),
            "an object with the keys Now, jobs, allocs but none of Jobs, Allocs (or Allocations), \
             Nodes (keys are case-sensitive: Nomad writes Jobs, Allocs)"
        );
        let many: Vec<(String, bool)> = (0..10).map(|i| (format!("k{i}"), true)).collect();
        let many: Vec<(&str, bool)> = many.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert!(found(&many).contains("k7 and 2 more but none"));
    }

    #[test]
    fn presence_tells_absent_from_null() {
        let k = keys(&[("Nodes", false), ("Allocs", false), ("Allocations", true)]);
        assert_eq!(k.presence("Nodes"), Presence::Null);
        assert_eq!(k.presence("Jobs"), Presence::Absent);
        assert_eq!(k.allocs_presence(), Presence::Value);
        // A key given twice holds a value if either time did.
        assert_eq!(
            keys(&[("Jobs", true), ("Jobs", false)]).presence("Jobs"),
            Presence::Value
        );
    }
}
