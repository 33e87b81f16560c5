//! `PreemptForDevice` and `selectBestAllocs`: evictions that free enough
//! instances of one device for a task's device request.

use std::collections::BTreeMap;

use super::super::devices::DeviceAccounter;
use super::{Candidate, Detail, Preemptor};
use crate::model::{Id, NodeDevice, RequestedDevice};

/// The candidates holding instances of one device, and how many each holds.
#[derive(Default)]
struct Holders<'d, 'a> {
    allocs: Vec<&'d Detail<'a>>,
    instances: BTreeMap<&'a Id, u64>,
}

impl<'a> Preemptor<'a> {
    /// The candidates to evict so that `ask` gets its instances of one
    /// matching device, or `None`. `matches` says whether a node device
    /// serves the request, as the feasibility checks decide. Devices are
    /// tried in vendor, type and name order where Nomad walks a Go map; a
    /// candidate's tasks in name order.
    pub fn for_device(
        &self,
        ask: &RequestedDevice,
        devices: &DeviceAccounter<'_>,
        matches: impl Fn(&NodeDevice) -> bool,
    ) -> Option<Vec<&'a Candidate<'a>>> {
        let mut by_device: BTreeMap<(&str, &str, &str), (usize, Holders<'_, 'a>)> = BTreeMap::new();
        for d in &self.current {
            let Some(r) = d.c.usage.allocated_resources else {
                continue;
            };
            for held in r.tasks.values().flat_map(|t| &t.devices) {
                let Some((device, free)) = devices.lookup(held) else {
                    continue;
                };
                if !matches(device) {
                    continue;
                }
                let key = (
                    held.vendor.as_str(),
                    held.device_type.as_str(),
                    held.name.as_str(),
                );
                let (_, holders) = by_device.entry(key).or_insert((free, Holders::default()));
                holders.allocs.push(d);
                let count = u64::try_from(held.device_ids.len()).unwrap_or(u64::MAX);
                *holders.instances.entry(d.c.usage.id).or_default() += count;
            }
        }
        let needed = ask.count;
        let mut options = Vec::new();
        for (free, holders) in by_device.values() {
            let mut count = 0u64;
            let mut chosen = Vec::new();
            'groups: for group in self.by_priority(holders.allocs.clone()) {
                for d in group {
                    count += holders.instances[&d.c.usage.id];
                    chosen.push(d);
                    if count + u64::try_from(*free).unwrap_or(u64::MAX) >= needed {
                        options.push((chosen, &holders.instances));
                        break 'groups;
                    }
                }
            }
        }
        best_option(options, needed)
    }
}

/// `selectBestAllocs`: in each option, the holders of the most instances
/// first until the request's count is reached; the option whose distinct
/// priorities sum lowest wins, the first on a tie.
fn best_option<'a>(
    options: Vec<(Vec<&Detail<'a>>, &BTreeMap<&Id, u64>)>,
    needed: u64,
) -> Option<Vec<&'a Candidate<'a>>> {
    let mut best: Option<(i64, Vec<&'a Candidate<'a>>)> = None;
    for (mut allocs, instances) in options {
        let held = |d: &Detail<'_>| instances[&d.c.usage.id];
        allocs.sort_by_key(|d| std::cmp::Reverse(held(d)));
        let mut count = 0;
        let mut priorities = Vec::new();
        let mut kept = Vec::new();
        for d in allocs {
            if count >= needed {
                break;
            }
            count += held(d);
            kept.push(d.c);
            let p = d.c.priority.unwrap_or(0);
            if !priorities.contains(&p) {
                priorities.push(p);
            }
        }
        let net: i64 = priorities.iter().sum();
        if best.as_ref().is_none_or(|(b, _)| net < *b) && net < i64::from(i32::MAX) {
            best = Some((net, kept));
        }
    }
    best.map(|(_, kept)| kept)
}
