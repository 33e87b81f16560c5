//! The job settings whose reading changed between releases, each spelled
//! once: the catalogue names what a change reads, and every sentence that
//! names a setting (bucket reasons, `--explain`, warnings) takes the name
//! from here.

use crate::model::DisconnectFields;

/// A task group setting that some releases read and others do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    MaxClientDisconnect,
    StopAfterClientDisconnect,
    PreventRescheduleOnLost,
    LostAfter,
    StopOnClientAfter,
    Replace,
    Reconcile,
    MaxRunDuration,
}

impl Setting {
    /// The setting as a job file writes it, with its block: `disconnect.lost_after`.
    pub const fn name(self) -> &'static str {
        match self {
            Setting::MaxClientDisconnect => "max_client_disconnect",
            Setting::StopAfterClientDisconnect => "stop_after_client_disconnect",
            Setting::PreventRescheduleOnLost => "prevent_reschedule_on_lost",
            Setting::LostAfter => "disconnect.lost_after",
            Setting::StopOnClientAfter => "disconnect.stop_on_client_after",
            Setting::Replace => "disconnect.replace",
            Setting::Reconcile => "disconnect.reconcile",
            Setting::MaxRunDuration => "max_run_duration",
        }
    }

    /// The name within its block, for sentences that already say which
    /// block they mean: `lost_after`.
    pub fn field(self) -> &'static str {
        let name = self.name();
        name.rsplit_once('.').map_or(name, |(_, field)| field)
    }

    /// `settings` read in turn, the first set winning: `a, else b`.
    pub fn in_turn(settings: &[Setting]) -> String {
        Setting::joined(settings, ", else ")
    }

    /// `settings` as alternatives: `a or b`.
    pub fn any_of(settings: &[Setting]) -> String {
        Setting::joined(settings, " or ")
    }

    fn joined(settings: &[Setting], by: &str) -> String {
        settings
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(by)
    }

    /// The settings that time a disconnected allocation out, in the order
    /// the release reads them (D-4a reads the legacy one first, F-1 the
    /// block alone).
    pub fn lost_timeout(fields: DisconnectFields) -> &'static [Setting] {
        match fields {
            DisconnectFields::Legacy => &[Setting::MaxClientDisconnect],
            DisconnectFields::LegacyFirst => &[Setting::MaxClientDisconnect, Setting::LostAfter],
            DisconnectFields::BlockOnly | DisconnectFields::BlockStrict => &[Setting::LostAfter],
        }
    }

    /// The settings that stop a disconnected client's allocations on the
    /// client, in the order the release reads them.
    pub fn stop_timeout(fields: DisconnectFields) -> &'static [Setting] {
        match fields {
            DisconnectFields::Legacy => &[Setting::StopAfterClientDisconnect],
            DisconnectFields::LegacyFirst => &[
                Setting::StopAfterClientDisconnect,
                Setting::StopOnClientAfter,
            ],
            DisconnectFields::BlockOnly | DisconnectFields::BlockStrict => {
                &[Setting::StopOnClientAfter]
            }
        }
    }

    /// The settings that keep a lost client's allocations unknown instead
    /// of replacing them (`replace` when false), in the order the release
    /// reads them.
    pub fn keeps_unknown(fields: DisconnectFields) -> &'static [Setting] {
        match fields {
            DisconnectFields::Legacy => &[Setting::PreventRescheduleOnLost],
            DisconnectFields::LegacyFirst => &[Setting::Replace, Setting::PreventRescheduleOnLost],
            DisconnectFields::BlockOnly | DisconnectFields::BlockStrict => &[Setting::Replace],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_its_name_within_the_block() {
        assert_eq!(Setting::LostAfter.field(), "lost_after");
        assert_eq!(Setting::Replace.field(), "replace");
        assert_eq!(
            Setting::MaxClientDisconnect.field(),
            "max_client_disconnect"
        );
    }

    #[test]
    fn lists_read_in_turn_or_as_alternatives() {
        let both = Setting::lost_timeout(DisconnectFields::LegacyFirst);
        assert_eq!(
            Setting::in_turn(both),
            "max_client_disconnect, else disconnect.lost_after"
        );
        assert_eq!(
            Setting::any_of(both),
            "max_client_disconnect or disconnect.lost_after"
        );
    }

    #[test]
    fn legacy_settings_come_first_where_both_are_read() {
        assert_eq!(
            Setting::lost_timeout(DisconnectFields::LegacyFirst),
            [Setting::MaxClientDisconnect, Setting::LostAfter]
        );
        assert_eq!(
            Setting::keeps_unknown(DisconnectFields::BlockStrict),
            [Setting::Replace]
        );
    }
}
