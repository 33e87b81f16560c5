//! An allocation's task states by task name.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

use super::{Name, TaskState};

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
