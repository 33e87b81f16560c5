//! `--what-if EVENT`: what an operator asks to happen, as typed, before
//! its node, allocation or deployment is looked up.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::now::parse_duration;
use crate::time::{Duration, SECOND, Time};

/// The default drain deadline of `node-drain:NODE` (`nomad node drain
/// -deadline`'s default).
pub const DEFAULT_DRAIN_DEADLINE: Duration = 3600 * SECOND;

/// The kinds of event, by the names the flag takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    NodeDown,
    NodeDrain,
    NodeIneligible,
    NodeUp,
    AllocFail,
    AllocHealthy,
    AllocUnhealthy,
    DeploymentPromote,
    DeploymentFail,
    DeploymentPause,
    DeploymentResume,
}

/// What an event's target names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    Node,
    Alloc,
    Deployment,
}

impl EventKind {
    pub const ALL: [EventKind; 11] = [
        EventKind::NodeDown,
        EventKind::NodeDrain,
        EventKind::NodeIneligible,
        EventKind::NodeUp,
        EventKind::AllocFail,
        EventKind::AllocHealthy,
        EventKind::AllocUnhealthy,
        EventKind::DeploymentPromote,
        EventKind::DeploymentFail,
        EventKind::DeploymentPause,
        EventKind::DeploymentResume,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EventKind::NodeDown => "node-down",
            EventKind::NodeDrain => "node-drain",
            EventKind::NodeIneligible => "node-ineligible",
            EventKind::NodeUp => "node-up",
            EventKind::AllocFail => "alloc-fail",
            EventKind::AllocHealthy => "alloc-healthy",
            EventKind::AllocUnhealthy => "alloc-unhealthy",
            EventKind::DeploymentPromote => "deployment-promote",
            EventKind::DeploymentFail => "deployment-fail",
            EventKind::DeploymentPause => "deployment-pause",
            EventKind::DeploymentResume => "deployment-resume",
        }
    }

    /// The syntax of the kind, for messages.
    pub fn syntax(self) -> &'static str {
        match self {
            EventKind::NodeDown => "node-down:NODE[@TIME]",
            EventKind::NodeDrain => "node-drain:NODE[:DEADLINE]",
            EventKind::NodeIneligible => "node-ineligible:NODE",
            EventKind::NodeUp => "node-up:NODE[@TIME]",
            EventKind::AllocFail => "alloc-fail:ALLOC[@TIME]",
            EventKind::AllocHealthy => "alloc-healthy:ALLOC[@TIME]",
            EventKind::AllocUnhealthy => "alloc-unhealthy:ALLOC[@TIME]",
            EventKind::DeploymentPromote => {
                "deployment-promote:DEPLOYMENT[:GROUP[,GROUP...]][@TIME]"
            }
            EventKind::DeploymentFail => "deployment-fail:DEPLOYMENT[@TIME]",
            EventKind::DeploymentPause => "deployment-pause:DEPLOYMENT[@TIME]",
            EventKind::DeploymentResume => "deployment-resume:DEPLOYMENT[@TIME]",
        }
    }

    /// What the event's target names.
    pub fn target(self) -> TargetKind {
        match self {
            EventKind::AllocFail | EventKind::AllocHealthy | EventKind::AllocUnhealthy => {
                TargetKind::Alloc
            }
            EventKind::DeploymentPromote
            | EventKind::DeploymentFail
            | EventKind::DeploymentPause
            | EventKind::DeploymentResume => TargetKind::Deployment,
            _ => TargetKind::Node,
        }
    }

    /// Whether the event names an allocation rather than a node.
    pub fn targets_alloc(self) -> bool {
        self.target() == TargetKind::Alloc
    }

    fn takes_time(self) -> bool {
        !matches!(self, EventKind::NodeDrain | EventKind::NodeIneligible)
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A time as `@TIME` and `--until` take it: an instant, or a duration after
/// the evaluation time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    At(Time),
    After(Duration),
}

impl When {
    /// The instant, for an evaluation at `eval_time`.
    pub fn resolve(self, eval_time: Time) -> Time {
        match self {
            When::At(t) => t,
            When::After(d) => eval_time.add(d),
        }
    }
}

/// A `When` that is neither form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadWhen(pub String);

impl fmt::Display for BadWhen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a time: give an RFC 3339 time (2022-04-01T03:12:00Z) or a duration after \
             the evaluation time (30m, 1h30m; units ns, us, ms, s, m, h)",
            self.0
        )
    }
}

impl std::error::Error for BadWhen {}

impl FromStr for When {
    type Err = BadWhen;

    fn from_str(s: &str) -> Result<When, BadWhen> {
        let s = s.trim();
        if let Some(d) = parse_duration(s.strip_prefix('+').unwrap_or(s)) {
            return Ok(When::After(d));
        }
        Time::parse_rfc3339(s)
            .map(When::At)
            .map_err(|_| BadWhen(s.to_string()))
    }
}

/// One `--what-if` as typed: its kind, the node, allocation or deployment
/// as the user named it, and its time or drain deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSpec {
    pub kind: EventKind,
    /// The node (ID, ID prefix or name), allocation (ID, ID prefix or
    /// name) or deployment (ID, ID prefix or job ID).
    pub target: String,
    /// `@TIME`; the evaluation time when absent.
    pub at: Option<When>,
    /// `node-drain`'s `:DEADLINE`.
    pub deadline: Option<Duration>,
    /// `deployment-promote`'s `:GROUP,...`: the groups promoted (`nomad
    /// deployment promote -group`); empty for every group.
    pub groups: Vec<String>,
    /// The text given, for messages.
    pub text: String,
}

/// A `--what-if` the flag parser refuses (a usage error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadEvent {
    pub text: String,
    pub problem: String,
}

impl fmt::Display for BadEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kinds: Vec<&str> = EventKind::ALL.iter().map(|k| k.syntax()).collect();
        write!(
            f,
            "{:?}: {}; events are {}",
            self.text,
            self.problem,
            kinds.join(", ")
        )
    }
}

impl std::error::Error for BadEvent {}

impl FromStr for EventSpec {
    type Err = BadEvent;

    fn from_str(s: &str) -> Result<EventSpec, BadEvent> {
        let bad = |problem: String| BadEvent {
            text: s.to_string(),
            problem,
        };
        let (kind_text, rest) = s
            .split_once(':')
            .ok_or_else(|| bad("no KIND:TARGET".to_string()))?;
        let kind = EventKind::ALL
            .into_iter()
            .find(|k| k.name() == kind_text)
            .ok_or_else(|| bad(format!("unknown event kind {kind_text:?}")))?;
        let mut target = rest;
        let mut at = None;
        let mut deadline = None;
        if kind.takes_time()
            && let Some((head, time)) = rest.rsplit_once('@')
        {
            at = Some(time.parse::<When>().map_err(|e| bad(e.to_string()))?);
            target = head;
        }
        if kind == EventKind::NodeDrain
            && let Some((head, tail)) = rest.rsplit_once(':')
        {
            let d = parse_duration(tail).ok_or_else(|| {
                bad(format!(
                    "{tail:?} is not a deadline: give a duration (30m, 1h)"
                ))
            })?;
            deadline = Some(d);
            target = head;
        }
        let mut groups = Vec::new();
        if kind == EventKind::DeploymentPromote
            && let Some((head, tail)) = target.rsplit_once(':')
        {
            // The last colon starts the groups: a job ID with colons of its
            // own ends with one (`web:v2:` promotes every group of `web:v2`).
            if !tail.is_empty() {
                groups = tail.split(',').map(str::to_string).collect();
                if groups.iter().any(|g| g.is_empty()) {
                    return Err(bad(format!("{tail:?} names an empty GROUP")));
                }
            }
            target = head;
        }
        if target.is_empty() {
            return Err(bad(format!(
                "no {} given",
                match kind.target() {
                    TargetKind::Node => "NODE",
                    TargetKind::Alloc => "ALLOC",
                    TargetKind::Deployment => "DEPLOYMENT",
                }
            )));
        }
        if !kind.takes_time() && kind != EventKind::NodeDrain && target.contains('@') {
            return Err(bad(format!("{} takes no @TIME", kind.name())));
        }
        Ok(EventSpec {
            kind,
            target: target.to_string(),
            at,
            deadline,
            groups,
            text: s.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> EventSpec {
        s.parse().unwrap()
    }

    #[test]
    fn each_kind_with_and_without_its_time() {
        let d = spec("node-down:c3");
        assert_eq!(
            (d.kind, d.target.as_str(), d.at),
            (EventKind::NodeDown, "c3", None)
        );
        let d = spec("node-down:c3@2h");
        assert_eq!(d.at, Some(When::After(7200 * SECOND)));
        let t = Time::parse_rfc3339("2022-04-01T03:00:00Z").unwrap();
        assert_eq!(
            spec("node-up:abc@2022-04-01T03:00:00Z").at,
            Some(When::At(t))
        );
        assert_eq!(
            spec("alloc-fail:1a6f@30m").at,
            Some(When::After(1800 * SECOND))
        );
        let drain = spec("node-drain:c3:30m");
        assert_eq!(
            (drain.target.as_str(), drain.deadline),
            ("c3", Some(1800 * SECOND))
        );
        assert_eq!(spec("node-drain:c3").deadline, None);
        assert_eq!(spec("node-ineligible:c3").kind, EventKind::NodeIneligible);
    }

    #[test]
    fn an_unknown_kind_or_a_bad_time_is_refused_with_the_syntax() {
        let e = "node-explode:c3".parse::<EventSpec>().unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown event kind \"node-explode\""),
            "{e}"
        );
        assert!(e.to_string().contains("node-drain:NODE[:DEADLINE]"), "{e}");
        let e = "node-down:c3@yesterday".parse::<EventSpec>().unwrap_err();
        assert!(e.to_string().contains("not a time"), "{e}");
        assert!("node-down:".parse::<EventSpec>().is_err());
        assert!("node-down".parse::<EventSpec>().is_err());
        assert!("node-drain:c3:soon".parse::<EventSpec>().is_err());
    }

    #[test]
    fn deployment_events_name_a_deployment_or_a_job_with_an_optional_time() {
        for (text, kind) in [
            ("deployment-promote:078de2a8", EventKind::DeploymentPromote),
            ("deployment-fail:078de2a8", EventKind::DeploymentFail),
            ("deployment-pause:078de2a8", EventKind::DeploymentPause),
            ("deployment-resume:078de2a8", EventKind::DeploymentResume),
        ] {
            let d = spec(text);
            assert_eq!((d.kind, d.target.as_str(), d.at), (kind, "078de2a8", None));
            assert_eq!(kind.target(), TargetKind::Deployment);
            assert!(!kind.targets_alloc());
        }
        let d = spec("deployment-promote:web@5m");
        assert_eq!(
            (d.target.as_str(), d.at, d.deadline),
            ("web", Some(When::After(300 * SECOND)), None)
        );
        let t = Time::parse_rfc3339("2022-04-01T03:20:00Z").unwrap();
        assert_eq!(
            spec("deployment-fail:web@2022-04-01T03:20:00Z").at,
            Some(When::At(t))
        );
        // A job ID with a colon stays whole: only node-drain takes :DEADLINE.
        assert_eq!(
            spec("deployment-fail:batch:nightly").target,
            "batch:nightly"
        );
    }

    #[test]
    fn a_deployment_event_without_its_deployment_or_with_a_bad_time_is_refused() {
        let e = "deployment-promote:".parse::<EventSpec>().unwrap_err();
        assert_eq!(e.problem, "no DEPLOYMENT given");
        assert!(
            e.to_string().contains("deployment-fail:DEPLOYMENT[@TIME]"),
            "{e}"
        );
        let e = "deployment-fail:web@soon".parse::<EventSpec>().unwrap_err();
        assert!(e.problem.contains("\"soon\" is not a time"), "{e}");
        let e = "deployment-pause:@5m".parse::<EventSpec>().unwrap_err();
        assert_eq!(e.problem, "no DEPLOYMENT given");
    }

    #[test]
    fn health_set_by_hand_names_an_allocation_with_an_optional_time() {
        for (text, kind) in [
            ("alloc-healthy:1a6f@2m", EventKind::AllocHealthy),
            ("alloc-unhealthy:1a6f@2m", EventKind::AllocUnhealthy),
        ] {
            let d = spec(text);
            assert_eq!(
                (d.kind, d.target.as_str(), d.at),
                (kind, "1a6f", Some(When::After(120 * SECOND)))
            );
            assert!(kind.targets_alloc());
        }
        assert_eq!(spec("alloc-healthy:web.app[0]").target, "web.app[0]");
        assert_eq!(spec("alloc-unhealthy:1a6f").at, None);
        let e = "alloc-healthy:@1m".parse::<EventSpec>().unwrap_err();
        assert_eq!(e.problem, "no ALLOC given");
        assert!(
            e.to_string().contains("alloc-unhealthy:ALLOC[@TIME]"),
            "{e}"
        );
    }

    #[test]
    fn a_promotion_names_its_groups_after_the_last_colon() {
        let d = spec("deployment-promote:web:api,cache@5m");
        assert_eq!(
            (d.target.as_str(), d.at),
            ("web", Some(When::After(300 * SECOND)))
        );
        assert_eq!(d.groups, ["api", "cache"]);
        assert_eq!(spec("deployment-promote:078de2a8:web").groups, ["web"]);
        assert!(spec("deployment-promote:web@5m").groups.is_empty());
        // A job ID with a colon: the last colon starts the groups, so an
        // empty list after it promotes every group of `batch:nightly`.
        let d = spec("deployment-promote:batch:nightly:");
        assert_eq!((d.target.as_str(), d.groups.len()), ("batch:nightly", 0));
        let d = spec("deployment-promote:batch:nightly:web");
        assert_eq!((d.target.as_str(), d.groups.len()), ("batch:nightly", 1));
        assert_eq!(d.groups, ["web"]);
        // Only a promotion takes groups.
        let d = spec("deployment-pause:batch:nightly");
        assert_eq!((d.target.as_str(), d.groups.len()), ("batch:nightly", 0));
    }

    #[test]
    fn a_promotion_with_an_empty_group_or_no_deployment_is_refused() {
        let e = "deployment-promote:web:api,"
            .parse::<EventSpec>()
            .unwrap_err();
        assert_eq!(e.problem, "\"api,\" names an empty GROUP");
        let e = "deployment-promote::web".parse::<EventSpec>().unwrap_err();
        assert_eq!(e.problem, "no DEPLOYMENT given");
        assert!(
            e.to_string()
                .contains("deployment-promote:DEPLOYMENT[:GROUP[,GROUP...]][@TIME]"),
            "{e}"
        );
    }
}
