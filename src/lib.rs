//! plan-inspect replays Nomad's generic scheduler reconciler on a snapshot.
//!
//! The core ([`model`], [`reconciler`], [`update`], [`replay`], [`report`])
//! does no I/O: it takes a [`model::Snapshot`] and returns a
//! [`report::Report`]. Reading ([`read`]) and rendering ([`render`]) live at
//! the edge.
pub mod explain;
pub mod model;
pub mod read;
pub mod reconciler;
pub mod render;
pub mod replay;
pub mod report;
pub mod time;
pub mod update;
pub mod warning;
