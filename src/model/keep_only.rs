//! Deserializers that keep only the elements of a list the scheduler reads,
//! so that large snapshots do not hold what nobody looks at.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{Deserialize, Error, IgnoredAny, SeqAccess, Unexpected, Visitor};
use thin_vec::ThinVec;

use super::{GoNull, Name, TASK_CLIENT_RECONNECTED, TaskEvent, TextUse, with_text};

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

/// A task event as read: its type is borrowed from the input, so that the
/// dozens of events a task keeps that are not kept cost no copy.
#[derive(Default, serde::Deserialize)]
#[serde(rename_all = "PascalCase", default)]
struct EventRecord<'a> {
    #[serde(rename = "Type", borrow)]
    event_type: Cow<'a, str>,
    time: i64,
}

/// A task's events: only `Reconnected` ones. The list's text is read in
/// place and parsed only when it has the word, which few do: a long-lived
/// task keeps dozens of events that the scheduler never reads.
pub(super) fn reconnect_events<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<ThinVec<TaskEvent>, D::Error> {
    Ok(with_text(d, ReconnectEvents)?.unwrap_or_default())
}

/// The `Reconnected` events of an event list's text.
struct ReconnectEvents;

impl TextUse for ReconnectEvents {
    type Out = ThinVec<TaskEvent>;

    fn take<E: Error>(self, text: &str) -> Result<ThinVec<TaskEvent>, E> {
        if !text.starts_with('[') {
            let value: serde_json::Value = serde_json::from_str(text).map_err(E::custom)?;
            return Err(E::invalid_type(unexpected(&value), &"a list or null"));
        }
        if memchr::memmem::find(text.as_bytes(), TASK_CLIENT_RECONNECTED.as_bytes()).is_none() {
            return Ok(ThinVec::new());
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let kept = GoNull(&mut de)
            .deserialize_any(Keep {
                keep: |e: &EventRecord<'_>| e.event_type == TASK_CLIENT_RECONNECTED,
                limit: usize::MAX,
                element: PhantomData,
            })
            .map_err(|e| E::custom(format!("in Events: {e}")))?;
        Ok(kept
            .into_vec()
            .into_iter()
            .map(|e| TaskEvent {
                event_type: Name::from(&*e.event_type),
                time: e.time,
            })
            .collect())
    }
}

/// What a value that is not a list is, for the type error.
fn unexpected(value: &serde_json::Value) -> Unexpected<'_> {
    use serde_json::Value;
    match value {
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u),
            (_, Some(i), _) => Unexpected::Signed(i),
            (_, _, f) => Unexpected::Float(f.unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Object(_) => Unexpected::Map,
        Value::Null | Value::Array(_) => Unexpected::Other("a value"),
    }
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
        let s: TaskState =
            serde_json::from_str(r#"{"Events": [{"Type": "Started", "Time": "not read"}]}"#)
                .unwrap();
        assert!(s.events.is_empty());
        let e = serde_json::from_str::<TaskState>(r#"{"Events": 5}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid type: integer `5`, expected a list or null at line 1 column 13"
        );
        let e = serde_json::from_str::<TaskState>(
            r#"{"Events": [{"Type": "Reconnected", "Time": "soon"}]}"#,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("in Events: invalid type: string \"soon\""),
            "{e}"
        );
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
