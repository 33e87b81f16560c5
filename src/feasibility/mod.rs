//! Node feasibility for the system scheduler: the checks of Nomad's
//! `NewSystemStack` that filter nodes (scheduler/stack.go, feasible.go,
//! propertyset.go at 8ac3e642e6). Resource fit (bin packing, ports,
//! preemption) and CSI volumes are not checked: the snapshot does not
//! carry what they need.

mod constraint;
mod devices;
mod distinct_property;
mod node_checks;
mod stack;
mod target;
mod version;

pub use constraint::{Check, DISTINCT_HOSTS, Parsed, check, describe, meets};
pub use devices::device_serves;
pub use distinct_property::Placed;
pub use node_checks::NetworkMiss;
pub use stack::{CLASS_INELIGIBLE, Filter, InvalidConstraint, Level, PlanSoFar, SystemStack};
pub use target::{Target, resolve};
pub use version::{Flavour, Version, VersionConstraints};

#[cfg(test)]
mod tests;
