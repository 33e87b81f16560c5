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
mod setting;
mod survey;
mod switch;

pub use evidence::{Evidence, agent_release};
pub use ignored::ignored_inputs;
pub use profile::{Profile, VersionSource};
pub use setting::Setting;
pub use survey::Survey;
pub use switch::{CATALOGUE, Change, Switch, Switches};
// The names of releases are the snapshot's (the model's); they are this
// module's vocabulary too.
pub use crate::model::{
    BadVersion, HEAD_COMMIT, Release, SEED_COMMIT, SERIES, VersionRequest, accepted, names, v,
};
