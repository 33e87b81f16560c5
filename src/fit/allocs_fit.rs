//! `AllocsFit`: whether a set of allocations fits on a node
//! (`nomad/structs/funcs.go:166-232` at 1.3.0, `:142-232` at 2.0.5).

use super::capacity::Capacity;
use super::comparable::Comparable;
use super::devices::DeviceAccounter;
use super::network_index::NetworkIndex;
use super::rules::FitRules;
use super::shortfall::Shortfall;
use super::usage;
use crate::model::UsageView;
use crate::model::resources::NodeSupply;

/// What `AllocsFit` found: the resources the counting allocations use,
/// and the first dimension exhausted if they do not fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fit {
    pub used: Comparable,
    pub outcome: Result<(), Shortfall>,
}

/// What `AllocsFit` checks beyond CPU, cores, memory and disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// Index the ports here (Nomad's `netIdx == nil`).
    pub ports: bool,
    /// Account devices (`checkDevices`). Host volume claims, which Nomad
    /// checks with them from 1.10.0 using the allocations' jobs, are not.
    pub devices: bool,
}

impl Check {
    /// The scheduler's call: ports were indexed and offered already.
    pub const SCHEDULER: Check = Check {
        ports: false,
        devices: false,
    };
    /// The plan applier's call.
    pub const APPLIER: Check = Check {
        ports: true,
        devices: true,
    };
}

/// `AllocsFit` under the release's rules. Nomad's network `Overcommitted`
/// check ("bandwidth exceeded", removed in 1.10.3) always passed
/// (`nomad/structs/network.go:165-174` at 1.3.0), so it is not modelled;
/// bandwidth is checked where a task network is offered
/// ([`NetworkIndex::assign_task_network`]).
pub fn allocs_fit(
    node: &NodeSupply,
    allocs: &[UsageView<'_>],
    check: Check,
    rules: &FitRules,
) -> Fit {
    let mut used = Comparable::default();
    let fit = |used, outcome| Fit { used, outcome };
    if rules.node_max_allocs
        && node.node_max_allocs != 0
        && node.node_max_allocs < i64::try_from(allocs.len()).unwrap_or(i64::MAX)
    {
        return fit(used, Err(Shortfall::named("max allocation exceeded")));
    }
    let mut overlap = false;
    for alloc in allocs {
        let held = usage::held(*alloc, rules);
        overlap |= held.cores.iter().any(|c| used.cores.contains(c));
        used.add(&held);
    }
    if overlap {
        return fit(used, Err(Shortfall::named("cores")));
    }
    let available = Capacity::of(node, rules).available();
    if let Err(short) = available.superset(&used) {
        return fit(used, Err(short));
    }
    if check.ports {
        let mut idx = match NetworkIndex::of_node(node, *rules) {
            Ok(idx) => idx,
            Err(refusal) => {
                let dim = format!("reserved node port collision: {}", refusal.reason());
                return fit(used, Err(Shortfall::named(dim)));
            }
        };
        if let Err(reason) = idx.add_allocs(allocs.iter().copied()) {
            let dim = format!("reserved alloc port collision: {reason}");
            return fit(used, Err(Shortfall::named(dim)));
        }
    }
    if check.devices {
        let devices = node.node_resources.as_ref().map_or(&[][..], |r| &r.devices);
        if DeviceAccounter::new(devices, *rules).add_allocs(allocs.iter().copied()) {
            return fit(used, Err(Shortfall::named("device oversubscribed")));
        }
    }
    fit(used, Ok(()))
}
