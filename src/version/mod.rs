//! Which Nomad release is replayed: the accepted names (`--nomad-version`,
//! the snapshot's `NomadVersion`), and what a snapshot proves about the
//! servers that wrote it when the choice is `auto`.
//!
//! Releases differ in their reconciler rules (the catalogue of changes is in
//! docs/nomad-versions.md); the rules themselves are switches on the
//! reconciler's rule set, chosen once per replay from the [`Release`].

mod evidence;
mod ignored;
mod profile;
mod release;
mod request;
mod setting;
mod survey;
mod switch;
mod system_scheduler;

pub use evidence::{Evidence, agent_release};
pub use ignored::ignored_inputs;
pub use profile::{Profile, VersionSource};
pub use release::{HEAD_COMMIT, Release, SEED_COMMIT, SERIES, v};
pub use request::{BadVersion, VersionRequest, accepted, names};
pub use setting::Setting;
pub use survey::Survey;
pub use switch::{CATALOGUE, Change, Switch, Switches};
pub use system_scheduler::system_scheduler_warning;
