//! The networks of an allocation as `AllocatedResources.Comparable`
//! flattens them: one entry per device, bandwidth summed and ports joined.

use super::super::rules::FitRules;
use crate::model::{NetworkResource, Resources, UsageView};

/// One device's share of an allocation's networks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlatNetwork {
    pub device: String,
    pub mbits: i64,
    pub reserved_ports: Vec<i64>,
}

/// The task networks of the phases that count (sidecars, then prestart,
/// main and poststop tasks, each in task name order where Nomad walks a
/// Go map), then the group's networks; the legacy `TaskResources` before
/// 1.7.0 when the allocation has no `AllocatedResources` (its `Resources`,
/// else its shared and task resources).
pub fn networks(alloc: UsageView<'_>, rules: &FitRules) -> Vec<FlatNetwork> {
    let mut out: Vec<FlatNetwork> = Vec::new();
    let Some(r) = alloc.allocated_resources else {
        if rules.legacy_fallback {
            let blocks = alloc.legacy;
            let legacy: Vec<&Resources> = match &blocks.resources {
                Some(r) => vec![r],
                None => blocks
                    .shared_resources
                    .iter()
                    .chain(blocks.task_resources.values())
                    .collect(),
            };
            for n in legacy.into_iter().flat_map(|r| &r.networks) {
                add(&mut out, n);
            }
        }
        return out;
    };
    let phase = |task: &str| -> Option<u8> {
        match r.task_lifecycles.get(task).and_then(Option::as_ref) {
            None => Some(2),
            Some(l) if l.hook == "prestart" && l.sidecar => Some(0),
            Some(l) if l.hook == "prestart" => Some(1),
            Some(l) if l.hook == "poststart" && rules.poststart_counted => Some(2),
            Some(l) if l.hook == "poststop" => Some(3),
            Some(_) => None,
        }
    };
    for wanted in 0..4 {
        for (task, res) in &r.tasks {
            if phase(task) == Some(wanted) {
                res.networks.iter().for_each(|n| add(&mut out, n));
            }
        }
    }
    r.shared.networks.iter().for_each(|n| add(&mut out, n));
    out
}

/// `AllocatedTaskResources.Add` of one network: merged into the entry of
/// its device.
fn add(out: &mut Vec<FlatNetwork>, n: &NetworkResource) {
    let ports = n.reserved_ports.iter().map(|p| p.value);
    match out.iter_mut().find(|f| f.device == n.device) {
        Some(f) => {
            f.mbits = f.mbits.saturating_add(n.mbits);
            f.reserved_ports.extend(ports);
        }
        None => out.push(FlatNetwork {
            device: n.device.to_string(),
            mbits: n.mbits,
            reserved_ports: ports.collect(),
        }),
    }
}
