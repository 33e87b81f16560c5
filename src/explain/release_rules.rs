//! The release's choices `--explain` names, put into words from the facts
//! the reconciler recorded, in one place.

use crate::model::DisconnectFields;
use crate::reconciler::{DisconnectingReplacement, ReleaseFacts};
use crate::version::Setting;

/// The group setting that times a disconnect out, as the release reads it
/// (D-4a from 1.8.0, F-1 from 1.10.0).
pub(super) fn lost_timeout_setting(fields: DisconnectFields) -> String {
    let settings = Setting::lost_timeout(fields);
    match fields {
        DisconnectFields::Legacy => Setting::in_turn(settings),
        DisconnectFields::LegacyFirst | DisconnectFields::BlockOnly => {
            format!("lost timeout ({})", Setting::in_turn(settings))
        }
        DisconnectFields::BlockStrict => format!("{} (0s if unset)", Setting::in_turn(settings)),
    }
}

/// The group setting that keeps a disconnected client's allocations
/// running for a while, as the release reads it (D-4a from 1.8.0, F-1 from
/// 1.10.0).
pub(super) fn stop_timeout_setting(fields: DisconnectFields) -> String {
    Setting::in_turn(Setting::stop_timeout(fields))
}

/// How a disconnecting allocation is replaced.
pub(super) fn disconnecting_replacement(rule: DisconnectingReplacement) -> &'static str {
    match rule {
        DisconnectingReplacement::AtOnce => "disconnecting allocations are replaced at once",
        DisconnectingReplacement::Held => {
            "replace = false never reschedules a disconnecting allocation"
        }
        DisconnectingReplacement::ByReplace(true) => {
            "with a disconnect block, replace = true replaces a disconnecting allocation at \
             once, whatever the reschedule policy"
        }
        DisconnectingReplacement::ByReplace(false) => {
            "with a disconnect block, replace = false never replaces a disconnecting \
             allocation"
        }
        DisconnectingReplacement::ByPolicy => {
            "a disconnecting allocation follows its reschedule policy"
        }
    }
}

/// Which allocations the reschedule policy can replace: failed ones, and
/// from E-1 (1.8.1, 1.9.0) also lost ones and stopped ones whose
/// replacement could not be placed.
pub(super) fn reschedule_eligibility(release: &ReleaseFacts) -> &'static str {
    if release.retries_failed_placements {
        "not eligible: not failed or lost (nor stopped with its replacement not placed), or \
         attempts or interval exhausted"
    } else {
        "not eligible: no failure, or attempts or interval exhausted"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DisconnectStrategy, TaskGroup};
    use crate::reconciler::Rules;
    use crate::version::{Release, v};

    fn rules(release: Release) -> Rules {
        Rules::new(release, true)
    }

    /// The words for a disconnecting allocation of `group` under `release`.
    fn replacement(release: Release, group: &TaskGroup) -> &'static str {
        let rule = DisconnectingReplacement::of(&rules(release), Some(group));
        disconnecting_replacement(rule)
    }

    fn facts(release: Release) -> ReleaseFacts {
        ReleaseFacts::of(&rules(release))
    }

    #[test]
    fn each_release_states_the_disconnecting_rule_it_has() {
        let block = |replace| TaskGroup {
            disconnect: Some(DisconnectStrategy {
                replace,
                ..DisconnectStrategy::default()
            }),
            ..TaskGroup::default()
        };
        let legacy = TaskGroup::default();
        assert_eq!(
            replacement(Release::Seed, &block(None)),
            "disconnecting allocations are replaced at once"
        );
        assert_eq!(
            replacement(v(1, 7, 0), &legacy),
            "a disconnecting allocation follows its reschedule policy"
        );
        assert!(
            replacement(v(1, 8, 0), &block(None))
                .starts_with("with a disconnect block, replace = true")
        );
        assert!(
            replacement(v(1, 11, 1), &block(Some(false)))
                .starts_with("with a disconnect block, replace = false")
        );
        assert_eq!(
            replacement(v(1, 8, 0), &legacy),
            "a disconnecting allocation follows its reschedule policy"
        );
        assert_eq!(
            replacement(v(1, 11, 2), &block(Some(false))),
            "replace = false never reschedules a disconnecting allocation"
        );
        assert_eq!(
            replacement(v(1, 11, 2), &block(None)),
            "a disconnecting allocation follows its reschedule policy"
        );
    }

    #[test]
    fn settings_and_eligibility_follow_the_release() {
        assert_eq!(
            lost_timeout_setting(facts(Release::Seed).fields),
            "max_client_disconnect"
        );
        assert_eq!(
            lost_timeout_setting(facts(v(1, 10, 0)).fields),
            "lost timeout (disconnect.lost_after)"
        );
        assert_eq!(
            stop_timeout_setting(facts(Release::Seed).fields),
            "stop_after_client_disconnect"
        );
        assert_eq!(
            stop_timeout_setting(facts(v(1, 10, 0)).fields),
            "disconnect.stop_on_client_after"
        );
        assert!(!reschedule_eligibility(&facts(v(1, 8, 0))).contains("lost"));
        assert!(reschedule_eligibility(&facts(v(1, 8, 1))).contains("lost"));
    }
}
