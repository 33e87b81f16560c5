//! `AllocMetric`: what the placement stage counted while looking for a node
//! for one allocation (`nomad/structs/structs.go`, `AllocMetric`), kept for
//! the first failure of each task group as Nomad keeps it in the
//! evaluation's `FailedTGAllocs`.

use std::collections::BTreeMap;

use serde::Serialize;

/// Nomad's `AllocMetric` in snake case. Maps are sorted by key; the
/// strings are Nomad's own (constraint text such as
/// `${attr.kernel.name} = linux`, "missing drivers", dimensions such as
/// "memory" or "network: reserved port collision").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AllocMetric {
    /// Nodes the stack looked at.
    pub nodes_evaluated: u64,
    /// Nodes a feasibility check removed.
    pub nodes_filtered: u64,
    /// Ready nodes of the job's node pool (0 before node pools, 1.6.0).
    pub nodes_in_pool: u64,
    /// Ready nodes per datacenter of the job.
    pub nodes_available: BTreeMap<String, u64>,
    /// Filtered nodes per node class (`Node.NodeClass`).
    pub class_filtered: BTreeMap<String, u64>,
    /// Filtered nodes per failed check, in Nomad's words.
    pub constraint_filtered: BTreeMap<String, u64>,
    /// Feasible nodes on which the allocation did not fit.
    pub nodes_exhausted: u64,
    /// Exhausted nodes per node class.
    pub class_exhausted: BTreeMap<String, u64>,
    /// Exhausted nodes per dimension, in Nomad's words.
    pub dimension_exhausted: BTreeMap<String, u64>,
    /// Quotas that were exhausted (Nomad Enterprise; always empty here).
    pub quota_exhausted: Vec<String>,
}

impl AllocMetric {
    /// `FilterNode`: a node removed by the check named `constraint`.
    pub fn filter_node(&mut self, node_class: &str, constraint: &str) {
        self.nodes_filtered += 1;
        count(&mut self.class_filtered, node_class);
        count(&mut self.constraint_filtered, constraint);
    }

    /// `FilterNode` for many nodes removed by the same check, given as
    /// their count per node class: the same counts as one call per node.
    pub fn filter_nodes(&mut self, node_classes: &[(&str, u64)], constraint: &str) {
        let n: u64 = node_classes.iter().map(|(_, n)| n).sum();
        if n == 0 {
            return;
        }
        self.nodes_filtered += n;
        for (class, k) in node_classes {
            add(&mut self.class_filtered, class, *k);
        }
        add(&mut self.constraint_filtered, constraint, n);
    }

    /// Adds what `other`'s calls counted (not its datacenters' or pool's
    /// nodes), as if they had been made here.
    pub fn merge(&mut self, other: &AllocMetric) {
        self.nodes_evaluated += other.nodes_evaluated;
        self.nodes_filtered += other.nodes_filtered;
        self.nodes_exhausted += other.nodes_exhausted;
        let maps = [
            (&mut self.class_filtered, &other.class_filtered),
            (&mut self.constraint_filtered, &other.constraint_filtered),
            (&mut self.class_exhausted, &other.class_exhausted),
            (&mut self.dimension_exhausted, &other.dimension_exhausted),
        ];
        for (mine, theirs) in maps {
            for (key, n) in theirs {
                add(mine, key, *n);
            }
        }
    }

    /// `ExhaustedNode`: a feasible node without room in `dimension`.
    pub fn exhaust_node(&mut self, node_class: &str, dimension: &str) {
        self.nodes_exhausted += 1;
        count(&mut self.class_exhausted, node_class);
        count(&mut self.dimension_exhausted, dimension);
    }

    /// Takes back one [`AllocMetric::exhaust_node`] call.
    pub fn unexhaust_node(&mut self, node_class: &str, dimension: &str) {
        self.nodes_exhausted -= 1;
        uncount(&mut self.class_exhausted, node_class);
        uncount(&mut self.dimension_exhausted, dimension);
    }
}

/// One less under `key`, which goes when none is left.
fn uncount(map: &mut BTreeMap<String, u64>, key: &str) {
    if let Some(n) = map.get_mut(key) {
        *n -= 1;
        if *n == 0 {
            map.remove(key);
        }
    }
}

/// One more under `key`, unless it is empty; a key is copied only the
/// first time, as every node of a scan is counted.
fn count(map: &mut BTreeMap<String, u64>, key: &str) {
    add(map, key, 1);
}

/// `n` more under `key`, as `n` calls of [`count`].
fn add(map: &mut BTreeMap<String, u64>, key: &str, n: u64) {
    if key.is_empty() || n == 0 {
        return;
    }
    match map.get_mut(key) {
        Some(k) => *k += n,
        None => {
            map.insert(key.to_string(), n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filtering_and_exhausting_count_per_class_and_reason_as_nomad_does() {
        let mut m = AllocMetric::default();
        m.filter_node("large", "${attr.kernel.name} = linux");
        m.filter_node("", "missing drivers");
        m.exhaust_node("large", "memory");
        m.exhaust_node("", "");
        assert_eq!(m.nodes_filtered, 2);
        assert_eq!(m.class_filtered, BTreeMap::from([("large".to_string(), 1)]));
        assert_eq!(m.constraint_filtered.len(), 2);
        assert_eq!(m.nodes_exhausted, 2);
        assert_eq!(
            m.class_exhausted,
            BTreeMap::from([("large".to_string(), 1)])
        );
        assert_eq!(
            m.dimension_exhausted,
            BTreeMap::from([("memory".to_string(), 1)])
        );
    }

    #[test]
    fn filtering_nodes_at_once_counts_as_one_by_one() {
        let mut one = AllocMetric::default();
        for class in ["large", "", "large", "small"] {
            one.filter_node(class, "computed class ineligible");
        }
        let mut many = AllocMetric::default();
        many.filter_nodes(
            &[("large", 2), ("", 1), ("small", 1)],
            "computed class ineligible",
        );
        many.filter_nodes(&[("huge", 0)], "missing drivers");
        assert_eq!(many, one);
        assert_eq!(many.nodes_filtered, 4);
    }
}
