//! The snapshot's own time, to catch a `--now` that asks a later snapshot
//! about an earlier moment: the state it holds may not have existed then.

use crate::model::Snapshot;
use crate::report::NowSource;
use crate::time::Time;
use crate::warning::Warning;

/// A warning when `--now` is earlier than the snapshot's own time: the time
/// in `SnapshotMeta`, else the newest allocation `ModifyTime`, task event or
/// `AllocStates` time in it.
pub(super) fn now_before_snapshot(
    snapshot: &Snapshot,
    now: Time,
    source: NowSource,
) -> Option<Warning> {
    if source != NowSource::Flag {
        return None;
    }
    let (taken, what) = match snapshot.meta_time {
        Some(t) => (t, "its SnapshotMeta time"),
        None => (newest_time(snapshot)?, "the newest time recorded in it"),
    };
    (now < taken).then(|| {
        Warning::new(
            "now_before_snapshot",
            format!(
                "--now {now} is earlier than the snapshot's own time {taken} ({what}): a later snapshot \
                 cannot reconstruct earlier state, so the replay may use facts from after --now"
            ),
        )
    })
}

/// The newest allocation `ModifyTime`, task event or `AllocStates` time.
fn newest_time(snapshot: &Snapshot) -> Option<Time> {
    let nanos = |n: i64| (n > 0).then(|| Time::from_unix_nanos(i128::from(n)));
    snapshot
        .allocs
        .iter()
        .flat_map(|a| {
            let modified = nanos(a.modify_time);
            let states = a
                .alloc_states
                .iter()
                .map(|s| s.time)
                .filter(|t| !t.is_zero());
            let events = a
                .task_states
                .values()
                .flat_map(|t| t.events.iter().filter_map(|e| nanos(e.time)));
            modified.into_iter().chain(states).chain(events)
        })
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Allocation;

    fn at(s: &str) -> Time {
        Time::parse_rfc3339(s).unwrap()
    }

    #[test]
    fn warns_only_for_a_flag_earlier_than_the_snapshot() {
        let mut snapshot = Snapshot::default();
        snapshot.allocs.push(Allocation {
            modify_time: 1_648_782_720_000_000_000, // 2022-04-01T03:12:00Z
            ..Allocation::default()
        });
        let early = at("2022-04-01T03:00:00Z");
        let w = now_before_snapshot(&snapshot, early, NowSource::Flag).unwrap();
        assert_eq!(
            w.message,
            "--now 2022-04-01T03:00:00Z is earlier than the snapshot's own time 2022-04-01T03:12:00Z \
             (the newest time recorded in it): a later snapshot cannot reconstruct earlier state, so the \
             replay may use facts from after --now"
        );
        assert!(now_before_snapshot(&snapshot, early, NowSource::Snapshot).is_none());
        let late = at("2022-04-01T03:12:00Z");
        assert!(now_before_snapshot(&snapshot, late, NowSource::Flag).is_none());
        snapshot.meta_time = Some(at("2022-04-01T02:00:00Z"));
        assert!(now_before_snapshot(&snapshot, early, NowSource::Flag).is_none());
        assert!(now_before_snapshot(&Snapshot::default(), early, NowSource::Flag).is_none());
    }
}
