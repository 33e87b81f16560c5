//! plan-inspect replays Nomad's generic scheduler reconciler on a snapshot.
pub mod model;
pub mod reconciler;
pub mod replay;
pub mod report;
pub mod time;
pub mod update;
pub mod warning;
pub mod render;
