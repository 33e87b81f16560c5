//! plan-inspect replays Nomad's generic scheduler reconciler on a snapshot.
pub mod model;
pub mod time;
pub mod update;
pub mod warning;
