//! plan-inspect replays Nomad's generic scheduler reconciler on a snapshot.
pub mod model;
pub mod read;
pub mod time;
pub mod warning;
