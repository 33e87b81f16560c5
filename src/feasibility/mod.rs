//! Node feasibility for the system scheduler: the checks of Nomad's
//! `NewSystemStack` that filter nodes (scheduler/stack.go, feasible.go,
//! propertyset.go at 8ac3e642e6). Resource fit (bin packing, ports,
//! preemption) is `crate::fit`'s. Volumes are checked as the release
//! does (`volumes.rs`, `csi.rs`), secrets providers from 1.11.0
//! (`node_checks.rs`).

mod class_row;
mod constraint;
mod csi;
mod device_attribute;
mod device_rules;
mod devices;
mod distinct_hosts;
mod distinct_property;
mod filter;
mod host_networks;
mod memo;
mod node_checks;
mod regexp;
mod stack;
mod target;
mod version;
mod volume_rules;
mod volumes;

pub use class_row::ClassRow;
pub use constraint::{Check, DISTINCT_HOSTS, Parsed, check, describe, meets};
pub use csi::CsiState;
pub use device_rules::DeviceRules;
pub use devices::{affinity_met, device_serves, instance_serves};
pub use distinct_hosts::DistinctHostsRules;
pub use distinct_property::Placed;
pub use filter::{CLASS_INELIGIBLE, Eligibility, Filter, InvalidConstraint, Level};
pub use host_networks::{HostNetworks, host_networks};
pub use node_checks::NetworkMiss;
pub use stack::{ClassMemo, PlanSoFar, SystemStack};
pub use target::{Target, TargetRules, resolve};
pub use version::{Flavour, Version, VersionConstraints};
pub use volume_rules::VolumeRules;
pub use volumes::{Volumes, has_host_volumes};

#[cfg(test)]
mod check_tests;
#[cfg(test)]
mod device_tests;
#[cfg(test)]
mod host_volume_tests;
#[cfg(test)]
mod memo_tests;
#[cfg(test)]
mod network_tests;
#[cfg(test)]
mod node_check_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod volume_tests;
#[cfg(test)]
mod wrapper_tests;
