//! plan-inspect replays Nomad's generic scheduler reconciler (Nomad 1.3,
//! commit 8ac3e642e6) on a snapshot of cluster state.
//!
//! The core ([`model`], [`version`], [`reconciler`], [`replay`], [`report`],
//! [`explain`]) does no I/O: it takes a [`model::Snapshot`] and returns a
//! [`report::Report`]. Reading ([`read`]) and rendering ([`render`]) live at
//! the edge. The whole pipeline:
//!
//! ```
//! use plan_inspect::{read, render, replay};
//!
//! let snapshot = read::read_snapshot_from(
//!     r#"{
//!         "Now": "2022-04-01T12:00:00Z",
//!         "Jobs": [{"ID": "web", "Namespace": "default", "Type": "service", "Version": 1,
//!                   "TaskGroups": [{"Name": "web", "Count": 2}]}],
//!         "Nodes": [], "Allocs": []
//!     }"#
//!     .as_bytes(),
//!     "snapshot.json",
//! )?;
//! let report = replay::Replay::new(&snapshot, &replay::Options::default())?.report();
//! let web = &report.jobs[0];
//! assert_eq!(web.groups[0].desired_changes.place, 2);
//! assert_eq!(web.plan.place[1].name, "web.web[1]");
//! let json = render::json::render(&report);
//! assert!(json.contains(r#""schema_version": 1"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

pub mod explain;
pub mod feasibility;
pub mod fit;
pub mod job_plan;
pub mod model;
pub mod now;
pub mod placement;
pub mod read;
pub mod reconciler;
pub mod render;
pub mod replay;
pub mod report;
pub mod system;
pub mod time;
pub mod version;
pub mod warning;
