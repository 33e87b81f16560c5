//! The task events the scheduler reads.

use serde::Deserialize;

use super::Name;

/// A `structs.TaskEvent`; `Time` is Unix nanoseconds.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct TaskEvent {
    #[serde(rename = "Type")]
    pub event_type: Name,
    pub time: i64,
}

/// The task event a client records when it reconnects (`TaskClientReconnected`).
pub const TASK_CLIENT_RECONNECTED: &str = "Reconnected";
