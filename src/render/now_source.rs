//! Where the evaluation time came from, in the words every text renderer
//! uses.

use crate::report::NowSource;

/// The flag or field the evaluation time was taken from.
pub(super) fn words(source: NowSource) -> &'static str {
    match source {
        NowSource::Flag => "--now",
        NowSource::Snapshot => "snapshot Now",
        NowSource::SnapshotMeta => "snapshot meta",
        NowSource::Clock => "clock",
    }
}
