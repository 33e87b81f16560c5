//! Resource fit and scoring: the arithmetic of Nomad's placement stage, as
//! pure functions over a node's resources, the allocations proposed on it
//! and a task group's ask, for every release from 1.3.0 to 2.0.
//!
//! What is modelled, each with its Nomad source:
//!
//! - [`usage`]: what an allocation holds (`AllocatedResources.Comparable`,
//!   `nomad/structs/structs.go:3561` at 1.3.0): lifecycle phases (prestart
//!   sidecars beside the largest of prestart, main and poststop), poststart
//!   tasks from 1.9.2, reserved cores outside the phases from 1.9.4, and the
//!   pre-0.9 `Resources` fallback before 1.7.0.
//! - [`capacity`]: what a node offers (`NodeResources.Comparable` less
//!   `ReservedResources`), CPU from the legacy block before 1.7.0, from the
//!   topology's usable compute in 1.7.0-1.8.1 and its total compute from
//!   1.8.2.
//! - [`allocs_fit`](mod@allocs_fit): `AllocsFit` (`nomad/structs/funcs.go:166` at 1.3.0):
//!   `node_max_allocs` from 1.10.2, overlapping cores, then CPU, cores,
//!   memory and disk in Nomad's order ("cpu", "cores", "memory", "disk"),
//!   and for the plan applier ports and devices.
//! - [`network_index`]: `NetworkIndex` (`nomad/structs/network.go`): the
//!   node's reserved ports (colliding before 1.3.2, merged after; the
//!   pre-0.9 `Resources` and `Reserved` networks read until 1.11.0), the
//!   proposed allocations' ports, offers of group ports on host networks
//!   and of task networks with bandwidth ("network: reserved port
//!   collision a=80", "network: bandwidth exceeded", "network: dynamic port
//!   selection failed", "network: no addresses available for x network").
//! - [`devices`]: `DeviceAccounter` and `AssignDevice` ("devices: no devices
//!   match request"): the matching device whose affinities score best, its
//!   instances as the release's `${device.ids}` rules allow.
//! - [`in_place`]: what an in-place update keeps of its allocation (its
//!   ports and devices; its reserved cores from 1.10.1).
//! - [`node_use`]: what a node's proposed allocations use, as running
//!   totals the placement stage builds once and updates with its plan.
//! - [`place`](mod@place): the fit half of `BinPackIterator.Next`, with
//!   preemption when the scheduler allows it ([`place_evicting`]):
//!   the group's ports, each task's memory (secrets from 1.8.3,
//!   `memory_max` only under memory oversubscription, `-1` kept from
//!   2.0.4), task network, devices and cores, then `AllocsFit`; a miss
//!   names the dimension and, for amounts, by how much ([`Shortfall`]).
//! - [`preemption`]: the `Preemptor`: which lower-priority allocations a
//!   node evicts for a port, bandwidth, a device or the fit.
//! - [`score`]: `ScoreFitBinPack`, `ScoreFitSpread`, the binpack, job
//!   anti-affinity, reschedule penalty, node and device affinity scores,
//!   and the final score as their mean (spread blocks, which need the
//!   plan's property sets, are the placement stage's).
//!
//! Each release difference is a flag of [`FitRules`] with its file and line.
//!
//! Left for the wiring into the placement stage: reading these types from
//! `Node` and `Allocation`; the proposed allocations (the node's, less the
//! plan's stops and evictions, plus its placements); a group port's
//! `host_network` template, resolved on each node
//! (`crate::feasibility::host_networks`); `IgnoreCollision` on a group's ports
//! (1.9.0), which the job model does not read yet; NUMA ("numa-cores"); the plan
//! applier's host volume claims (1.10.0). Nomad ranks a random sample of
//! the feasible nodes and picks dynamic ports and cores at random:
//! plan-inspect ranks every feasible node, picks the best final score with
//! ties broken by node ID, and takes the lowest free ports and cores, so
//! its choice is one Nomad could make.

pub mod allocs_fit;
pub mod capacity;
pub mod cidr;
pub mod comparable;
pub mod devices;
pub mod in_place;
pub mod network_index;
pub mod node_refusal;
pub mod node_use;
pub mod place;
pub mod ports;
pub mod preemption;
pub mod rules;
pub mod score;
pub mod shortfall;
pub mod usage;

pub use allocs_fit::{Check, Fit, allocs_fit};
pub use capacity::Capacity;
pub use comparable::Comparable;
pub use in_place::in_place_resources;
pub use node_use::{NodeFreeAsk, NodeUse};
pub use place::{Eviction, GroupAsk, Packed, Placed, Settings, TaskAsk, place, place_evicting};
pub use preemption::{Candidate, Preemptor};
pub use rules::FitRules;
pub use shortfall::{Lack, Shortfall};

#[cfg(test)]
mod device_alloc_tests;
#[cfg(test)]
mod device_rank_tests;
#[cfg(test)]
mod rank_tests;
#[cfg(test)]
mod tests;
