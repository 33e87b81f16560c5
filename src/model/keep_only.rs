//! Deserializers that keep only the elements of a list the scheduler reads,
//! so that large snapshots do not hold what nobody looks at.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{Deserialize, IgnoredAny, SeqAccess, Visitor};

use super::{TASK_CLIENT_RECONNECTED, TaskEvent};

/// Reads a list (or `null`), keeping the elements `keep` accepts, up to `limit`.
struct Keep<T, F> {
    keep: F,
    limit: usize,
    element: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>, F: Fn(&T) -> bool> Visitor<'de> for Keep<T, F> {
    type Value = Box<[T]>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list or null")
    }

    fn visit_unit<E>(self) -> Result<Box<[T]>, E> {
        Ok(Box::default())
    }

    /// A boxed slice, so the kept elements hold no spare capacity.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Box<[T]>, A::Error> {
        let mut out = Vec::new();
        while out.len() < self.limit {
            match seq.next_element::<T>()? {
                Some(x) if (self.keep)(&x) => out.push(x),
                Some(_) => {}
                None => return Ok(out.into_boxed_slice()),
            }
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(out.into_boxed_slice())
    }
}

/// A task's events: only `Reconnected` ones.
pub(super) fn reconnect_events<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Box<[TaskEvent]>, D::Error> {
    d.deserialize_any(Keep {
        keep: |e: &TaskEvent| e.event_type == TASK_CLIENT_RECONNECTED,
        limit: usize::MAX,
        element: PhantomData,
    })
}

/// A `structs.NodeScoreMeta`, as far as `MaxNormScore` reads it.
#[derive(serde::Deserialize)]
#[serde(rename_all = "PascalCase")]
struct NodeScore {
    #[serde(default)]
    norm_score: f64,
}

/// An allocation's node scores: only the first one's normalized score.
pub(super) fn first_score<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let first = d.deserialize_any(Keep {
        keep: |_: &NodeScore| true,
        limit: 1,
        element: PhantomData,
    })?;
    Ok(first.first().map(|s| s.norm_score))
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
        assert_eq!(m.first_norm_score, Some(0.2));
        let m: AllocMetric = serde_json::from_str(r#"{"ScoreMetaData": null}"#).unwrap();
        assert_eq!(m.first_norm_score, None);
    }
}
