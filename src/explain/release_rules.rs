//! The rules `--explain` names whose wording depends on the replayed
//! release, each stated as that release has it, in one place.

use crate::model::{DisconnectFields, TaskGroup};
use crate::reconciler::Rules;
use crate::version::Setting;
use crate::version::Switch;

/// The group setting that times a disconnect out, as the release reads it
/// (D-4 from 1.8.0, F-1 from 1.10.0).
pub(super) fn lost_timeout_setting(rules: &Rules) -> String {
    let fields = rules.disconnect_fields();
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
/// running for a while, as the release reads it (D-4 from 1.8.0, F-1 from
/// 1.10.0).
pub(super) fn stop_timeout_setting(rules: &Rules) -> String {
    Setting::in_turn(Setting::stop_timeout(rules.disconnect_fields()))
}

/// How a disconnecting allocation of `group` is replaced: at once before
/// D-1; by its reschedule policy from D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0);
/// by `disconnect.replace` alone for a group with a disconnect block from
/// 1.8.0 to 1.11.1 (D-4b); from 1.11.2 (G-1) by its policy, except never
/// with `replace = false`.
pub(super) fn disconnecting_replacement(rules: &Rules, group: Option<&TaskGroup>) -> &'static str {
    if !rules.has(Switch::D1) {
        return "disconnecting allocations are replaced at once";
    }
    if rules.holds_disconnecting(group) {
        return "replace = false never reschedules a disconnecting allocation";
    }
    match rules.replaces_disconnecting_at_once(group) {
        Some(true) => {
            "with a disconnect block, replace = true replaces a disconnecting allocation at \
             once, whatever the reschedule policy"
        }
        Some(false) => {
            "with a disconnect block, replace = false never replaces a disconnecting \
             allocation"
        }
        None => "a disconnecting allocation follows its reschedule policy",
    }
}

/// Which allocations the reschedule policy can replace: failed ones, and
/// from E-1 (1.8.1, 1.9.0) also lost ones and stopped ones whose
/// replacement could not be placed.
pub(super) fn reschedule_eligibility(rules: &Rules) -> &'static str {
    if rules.has(Switch::E1) {
        "not eligible: not failed or lost (nor stopped with its replacement not placed), or \
         attempts or interval exhausted"
    } else {
        "not eligible: no failure, or attempts or interval exhausted"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DisconnectStrategy;
    use crate::version::{Release, v};

    fn rules(release: Release) -> Rules {
        Rules::new(release, true)
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
            disconnecting_replacement(&rules(Release::Seed), Some(&block(None))),
            "disconnecting allocations are replaced at once"
        );
        assert_eq!(
            disconnecting_replacement(&rules(v(1, 7, 0)), Some(&legacy)),
            "a disconnecting allocation follows its reschedule policy"
        );
        assert!(
            disconnecting_replacement(&rules(v(1, 8, 0)), Some(&block(None)))
                .starts_with("with a disconnect block, replace = true")
        );
        assert!(
            disconnecting_replacement(&rules(v(1, 11, 1)), Some(&block(Some(false))))
                .starts_with("with a disconnect block, replace = false")
        );
        assert_eq!(
            disconnecting_replacement(&rules(v(1, 8, 0)), Some(&legacy)),
            "a disconnecting allocation follows its reschedule policy"
        );
        assert_eq!(
            disconnecting_replacement(&rules(v(1, 11, 2)), Some(&block(Some(false)))),
            "replace = false never reschedules a disconnecting allocation"
        );
        assert_eq!(
            disconnecting_replacement(&rules(v(1, 11, 2)), Some(&block(None))),
            "a disconnecting allocation follows its reschedule policy"
        );
    }

    #[test]
    fn settings_and_eligibility_follow_the_release() {
        assert_eq!(
            lost_timeout_setting(&rules(Release::Seed)),
            "max_client_disconnect"
        );
        assert_eq!(
            lost_timeout_setting(&rules(v(1, 10, 0))),
            "lost timeout (disconnect.lost_after)"
        );
        assert_eq!(
            stop_timeout_setting(&rules(Release::Seed)),
            "stop_after_client_disconnect"
        );
        assert_eq!(
            stop_timeout_setting(&rules(v(1, 10, 0))),
            "disconnect.stop_on_client_after"
        );
        assert!(!reschedule_eligibility(&rules(v(1, 8, 0))).contains("lost"));
        assert!(reschedule_eligibility(&rules(v(1, 8, 1))).contains("lost"));
    }
}
