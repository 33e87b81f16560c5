//! Why a lost (or expiring) allocation gets no replacement in this
//! evaluation: recorded by the group as it decides, worded once for every
//! output.

use std::collections::{BTreeMap, HashSet};

use super::alloc_set::AllocSet;
use super::results::PlaceResult;
use crate::model::{DisconnectFields, Id};

/// Why a lost or expiring allocation is not replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreplaced {
    JobStopped,
    JobPurged,
    /// Its task group is gone from the job spec.
    GroupRemoved,
    /// Count 0 stops the group whole (from 1.11.0).
    ScaledToZero,
    /// The group keeps its expiring allocations rather than replacing them.
    Kept(Keeper),
    /// Lost allocations of the group wait out their stop-after timeout, and
    /// while any does no placement is computed; the setting as the release
    /// reads it.
    WaitsForStopAfter(DisconnectFields),
    /// The group's count is met by the allocations that stay.
    CountMet {
        count: i64,
    },
    /// The deployment is paused or failed, or the group is canarying, and
    /// the replacements allowed went to others.
    PlacementsHeld,
    /// Placements are capped at the group's count (from 1.11.0).
    Capped {
        count: i64,
    },
}

/// The group setting that keeps expiring allocations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeper {
    /// `prevent_reschedule_on_lost` (D-3, 1.7.2 to 1.9).
    PreventRescheduleOnLost,
    /// `disconnect { replace = false }` (F-1, 1.10.0 to 1.11.1).
    ReplaceFalse,
}

impl Unreplaced {
    /// The reason as the table row and `--explain` say it.
    pub fn describe(self) -> String {
        match self {
            Unreplaced::JobStopped => "not replaced: job stopped".into(),
            Unreplaced::JobPurged => "not replaced: job purged".into(),
            Unreplaced::GroupRemoved => "not replaced: group removed from the job".into(),
            Unreplaced::ScaledToZero => "not replaced: group count is 0".into(),
            Unreplaced::Kept(Keeper::PreventRescheduleOnLost) => {
                "not replaced: prevent_reschedule_on_lost".into()
            }
            Unreplaced::Kept(Keeper::ReplaceFalse) => {
                "not replaced: disconnect.replace = false".into()
            }
            Unreplaced::WaitsForStopAfter(fields) => {
                let setting = match fields {
                    DisconnectFields::Legacy => "stop_after_client_disconnect",
                    DisconnectFields::LegacyFirst => {
                        "stop_after_client_disconnect or disconnect.stop_on_client_after"
                    }
                    DisconnectFields::BlockOnly | DisconnectFields::BlockStrict => {
                        "disconnect.stop_on_client_after"
                    }
                };
                format!("not replaced yet: lost allocations wait for {setting}")
            }
            Unreplaced::CountMet { count } => {
                format!("not replaced: group count {count} met without it")
            }
            Unreplaced::PlacementsHeld => {
                "not replaced: placements held (deployment paused or failed, or canarying)".into()
            }
            Unreplaced::Capped { count } => {
                format!("not replaced: placements capped at group count {count}")
            }
        }
    }

    /// Every allocation of `sets` with `why`: a group stopped whole.
    pub(super) fn all<'a>(sets: &[&AllocSet<'a>], why: Unreplaced) -> BTreeMap<&'a Id, Unreplaced> {
        sets.iter()
            .flat_map(|s| s.iter())
            .map(|a| (&a.id, why))
            .collect()
    }
}

/// What a computed group decided about its lost allocations.
pub(super) struct LostOutcome<'s, 'a> {
    /// The lost allocations placements were counted from.
    pub lost: &'s AllocSet<'a>,
    /// Expiring allocations the group kept, and by which setting.
    pub kept: Option<(&'s AllocSet<'a>, Keeper)>,
    /// The group's placements as planned.
    pub place: &'s [PlaceResult<'a>],
    /// The allocations `computePlacements` made a replacement for.
    pub computed: &'s HashSet<&'a Id>,
    /// Lost allocations wait out the stop-after timeout.
    pub waiting: Option<DisconnectFields>,
    pub place_ready: bool,
    pub count: i64,
}

impl<'a> LostOutcome<'_, 'a> {
    /// Each lost allocation without a replacement, with why.
    pub fn unreplaced(&self) -> BTreeMap<&'a Id, Unreplaced> {
        let replaced: HashSet<&Id> = self
            .place
            .iter()
            .filter_map(|p| p.previous.map(|a| &a.id))
            .collect();
        let mut out = BTreeMap::new();
        for alloc in self.lost.iter().filter(|a| !replaced.contains(&a.id)) {
            let why = if let Some(fields) = self.waiting {
                Unreplaced::WaitsForStopAfter(fields)
            } else if !self.computed.contains(&alloc.id) {
                Unreplaced::CountMet { count: self.count }
            } else if !self.place_ready {
                Unreplaced::PlacementsHeld
            } else {
                Unreplaced::Capped { count: self.count }
            };
            out.insert(&alloc.id, why);
        }
        if let Some((kept, keeper)) = self.kept {
            for alloc in kept.iter() {
                out.insert(&alloc.id, Unreplaced::Kept(keeper));
            }
        }
        out
    }
}
