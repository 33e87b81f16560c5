//! Deserializers that keep only the elements of a list the scheduler reads,
//! so that large snapshots do not hold what nobody looks at.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{Deserialize, IgnoredAny, SeqAccess, Visitor};

use super::{Name, NodeScoreMeta, TASK_CLIENT_RECONNECTED, TaskEvent};

/// Reads a list (or `null`), keeping the elements `keep` accepts, up to `limit`.
struct Keep<T, F> {
    keep: F,
    limit: usize,
    element: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>, F: Fn(&T) -> bool> Visitor<'de> for Keep<T, F> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list or null")
    }

    fn visit_unit<E>(self) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::new();
        while out.len() < self.limit {
            match seq.next_element::<T>()? {
                Some(x) if (self.keep)(&x) => out.push(x),
                Some(_) => {}
                None => return Ok(out),
            }
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(out)
    }
}

/// A task event as read: its type is borrowed from the input, so that the
/// dozens of events a task keeps that are not kept cost no copy.
#[derive(Default, serde::Deserialize)]
#[serde(rename_all = "PascalCase", default)]
struct EventRecord<'a> {
    #[serde(rename = "Type", borrow)]
    event_type: Cow<'a, str>,
    time: i64,
}

/// A task's events: only `Reconnected` ones.
pub(super) fn reconnect_events<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<TaskEvent>, D::Error> {
    let kept = d.deserialize_any(Keep {
        keep: |e: &EventRecord<'de>| e.event_type == TASK_CLIENT_RECONNECTED,
        limit: usize::MAX,
        element: PhantomData,
    })?;
    Ok(kept
        .into_iter()
        .map(|e| TaskEvent {
            event_type: Name::from(&*e.event_type),
            time: e.time,
        })
        .collect())
}

/// An allocation's node scores: only the first.
pub(super) fn first_score<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<NodeScoreMeta>, D::Error> {
    d.deserialize_any(Keep {
        keep: |_: &NodeScoreMeta| true,
        limit: 1,
        element: PhantomData,
    })
}

#[cfg(test)]
mod tests {
    use crate::model::{AllocMetric, TaskState};

    #[test]
    fn only_reconnect_events_are_kept() {
        let s: TaskState = serde_json::from_str(
            r#"{"Events": [{"Type": "Started", "Time": 1}, {"Type": "Reconnected", "Time": 2},
                           {"Type": "Killed", "Time": 3}]}"#,
        )
        .unwrap();
        assert_eq!(s.events.len(), 1);
        assert_eq!(s.events[0].time, 2);
        let s: TaskState = serde_json::from_str(r#"{"Events": null}"#).unwrap();
        assert!(s.events.is_empty());
    }

    #[test]
    fn only_the_first_score_is_kept() {
        let m: AllocMetric = serde_json::from_str(
            r#"{"ScoreMetaData": [{"NodeID": "a", "NormScore": 0.2}, {"NodeID": "b", "NormScore": 0.9}]}"#,
        )
        .unwrap();
        assert_eq!(m.score_meta_data.len(), 1);
        assert_eq!(m.score_meta_data[0].node_id, "a");
    }
}
