//! An allocation's task states by task name.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use thin_vec::ThinVec;

use super::Name;
use super::task_event::TaskEvent;
use crate::time::Time;

/// Task states by name, sorted by name. A Go map in Nomad; here a sorted
/// boxed slice, because an allocation has a handful of tasks and a
/// `BTreeMap` node for them would cost a kilobyte per allocation.
#[derive(Clone, Debug, Default)]
pub struct TaskStates(Box<[(Name, TaskState)]>);

impl TaskStates {
    /// Sets the state of `task`, returning the one it replaces.
    pub fn insert(&mut self, task: Name, state: TaskState) -> Option<TaskState> {
        let mut states = std::mem::take(&mut self.0).into_vec();
        let replaced = insert_sorted(&mut states, task, state);
        self.0 = states.into_boxed_slice();
        replaced
    }

    pub fn get(&self, task: &str) -> Option<&TaskState> {
        self.position(task).map(|i| &self.0[i].1)
    }

    pub fn get_mut(&mut self, task: &str) -> Option<&mut TaskState> {
        self.position(task).map(|i| &mut self.0[i].1)
    }

    fn position(&self, task: &str) -> Option<usize> {
        self.0
            .binary_search_by(|(name, _)| name.as_str().cmp(task))
            .ok()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The states, by task name.
    pub fn values(&self) -> impl Iterator<Item = &TaskState> {
        self.0.iter().map(|(_, s)| s)
    }

    /// Task names and states, by task name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &TaskState)> {
        self.0.iter().map(|(n, s)| (n.as_str(), s))
    }
}

/// Puts `state` at `task`'s place in `states`, returning the state it replaces.
fn insert_sorted(
    states: &mut Vec<(Name, TaskState)>,
    task: Name,
    state: TaskState,
) -> Option<TaskState> {
    match states.binary_search_by(|(name, _)| name.as_str().cmp(task.as_str())) {
        Ok(i) => Some(std::mem::replace(&mut states[i].1, state)),
        Err(i) => {
            states.insert(i, (task, state));
            None
        }
    }
}

impl<'de> Deserialize<'de> for TaskStates {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TaskStates, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TaskStates;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of task states or null")
            }
            fn visit_unit<E>(self) -> Result<TaskStates, E> {
                Ok(TaskStates::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TaskStates, A::Error> {
                let mut states = Vec::new();
                while let Some((task, state)) = map.next_entry::<Name, TaskState>()? {
                    // A repeated key: the last wins, as for a Go map.
                    insert_sorted(&mut states, task, state);
                }
                Ok(TaskStates(states.into_boxed_slice()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A `structs.TaskState`.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(from = "TaskStateRecord")]
pub struct TaskState {
    pub state: Name,
    pub failed: bool,
    pub finished_at: Time,
    /// `LastStartOfTask`: `LastRestart` if the task restarted, else
    /// `StartedAt`; the one of the three fields the reconnect picker reads,
    /// kept alone to keep a task state small.
    pub last_start: Time,
    /// Only the `Reconnected` events, the only ones the scheduler reads: a
    /// long-lived task has dozens, and a million allocations would hold them
    /// all. Thin: most tasks never reconnected.
    pub events: ThinVec<TaskEvent>,
}

/// A task state as the snapshot writes it.
#[derive(Default, serde::Deserialize)]
#[serde(rename_all = "PascalCase", default)]
struct TaskStateRecord {
    state: Name,
    failed: bool,
    finished_at: Time,
    started_at: Time,
    restarts: u64,
    last_restart: Time,
    #[serde(deserialize_with = "super::keep_only::reconnect_events")]
    events: ThinVec<TaskEvent>,
}

impl From<TaskStateRecord> for TaskState {
    fn from(r: TaskStateRecord) -> TaskState {
        TaskState {
            state: r.state,
            failed: r.failed,
            finished_at: r.finished_at,
            last_start: if r.restarts > 0 {
                r.last_restart
            } else {
                r.started_at
            },
            events: r.events,
        }
    }
}
