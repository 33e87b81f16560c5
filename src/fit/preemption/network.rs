//! `PreemptForNetwork`: evictions that free a task or group network's
//! bandwidth and reserved ports on one device of the node.

use std::collections::{BTreeMap, BTreeSet};

use super::super::network_index::NetworkIndex;
use super::{Candidate, Detail, Preemptor, distance};
use crate::model::NetworkResource;

impl<'a> Preemptor<'a> {
    /// The candidates to evict on one device so that `ask` fits, or
    /// `None`. Only a candidate's first network counts, as in Nomad; the
    /// devices are tried in name order where Nomad walks a Go map.
    pub fn for_network(
        &self,
        ask: &NetworkResource,
        idx: &NetworkIndex,
    ) -> Option<Vec<&'a Candidate<'a>>> {
        if self.current.is_empty() {
            return None;
        }
        let needed = ask.mbits;
        let mut by_device: BTreeMap<&str, Vec<&Detail<'a>>> = BTreeMap::new();
        // Reserved ports held by allocations that may not be evicted.
        let mut kept_ports: BTreeMap<&str, BTreeSet<i64>> = BTreeMap::new();
        for d in &self.current {
            if d.c.priority.is_none() {
                continue;
            }
            let Some(first) = d.networks.first() else {
                continue;
            };
            if !self.may_evict(d.c.priority) {
                let ports = kept_ports.entry(&first.device).or_default();
                ports.extend(first.reserved_ports.iter().copied());
                continue;
            }
            by_device.entry(&first.device).or_default().push(d);
        }
        if by_device.is_empty() {
            return None;
        }
        let mut found = None;
        'devices: for (device, allocs) in by_device {
            let total = idx.avail_bandwidth(device);
            if total < needed {
                continue;
            }
            let free = total - idx.used_bandwidth(device);
            let mut freed = 0;
            let mut chosen: Vec<&Detail<'a>> = Vec::new();
            let mut rest = allocs;
            if !ask.reserved_ports.is_empty() {
                let mut holders: BTreeMap<i64, &Detail<'a>> = BTreeMap::new();
                for d in &rest {
                    for n in &d.networks {
                        for p in &n.reserved_ports {
                            holders.insert(*p, d);
                        }
                    }
                }
                for port in &ask.reserved_ports {
                    match holders.get(&port.value) {
                        Some(d) => {
                            freed += d.networks[0].mbits;
                            chosen.push(d);
                        }
                        None if kept_ports
                            .get(device)
                            .is_some_and(|p| p.contains(&port.value)) =>
                        {
                            continue 'devices;
                        }
                        None => {}
                    }
                }
                rest.retain(|d| !chosen.iter().any(|c| c.c.usage.id == d.c.usage.id));
            }
            if freed + free >= needed {
                found = Some((device, free, chosen));
                break;
            }
            for mut group in self.by_priority(rest) {
                group.sort_by(|a, b| {
                    let score = |d: &Detail<'_>| {
                        distance::network_score(
                            d.networks.first().map(|n| n.mbits),
                            needed,
                            d.c.max_parallel,
                            self.preemptions_of(d.c),
                        )
                    };
                    score(a).total_cmp(&score(b))
                });
                for d in group {
                    freed += d.networks[0].mbits;
                    chosen.push(d);
                    if freed + free >= needed {
                        found = Some((device, free, chosen));
                        break 'devices;
                    }
                }
            }
        }
        let (device, free, mut chosen) = found?;
        // The final pass: largest distance first, until the bandwidth is met.
        let held = |d: &Detail<'_>| d.networks.first().map(|n| n.mbits);
        chosen.sort_by(|a, b| {
            distance::network(held(b), needed).total_cmp(&distance::network(held(a), needed))
        });
        let mut available = free;
        let mut kept = Vec::new();
        for d in chosen {
            kept.push(d.c);
            available += d
                .networks
                .iter()
                .filter(|n| n.device == device)
                .map(|n| n.mbits)
                .sum::<i64>();
            if available != 0 && needed != 0 && available >= needed {
                break;
            }
        }
        Some(kept)
    }
}
