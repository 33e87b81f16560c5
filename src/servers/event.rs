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
    AllocHealth,
    DeploymentPromote,
    DeploymentFail,
    DeploymentPause,
    DeploymentResume,
    DeploymentUnblock,
}

/// What an event's target names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    Node,
    Alloc,
    Deployment,
}

impl EventKind {
    pub const ALL: [EventKind; 13] = [
        EventKind::NodeDown,
        EventKind::NodeDrain,
        EventKind::NodeIneligible,
        EventKind::NodeUp,
        EventKind::AllocFail,
        EventKind::AllocHealthy,
        EventKind::AllocUnhealthy,
        EventKind::AllocHealth,
        EventKind::DeploymentPromote,
        EventKind::DeploymentFail,
        EventKind::DeploymentPause,
        EventKind::DeploymentResume,
        EventKind::DeploymentUnblock,
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
            EventKind::AllocHealth => "alloc-health",
            EventKind::DeploymentPromote => "deployment-promote",
            EventKind::DeploymentFail => "deployment-fail",
            EventKind::DeploymentPause => "deployment-pause",
            EventKind::DeploymentResume => "deployment-resume",
            EventKind::DeploymentUnblock => "deployment-unblock",
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
            EventKind::AllocHealthy => "alloc-healthy:ALLOC[,ALLOC...][@TIME]",
            EventKind::AllocUnhealthy => "alloc-unhealthy:ALLOC[,ALLOC...][@TIME]",
            EventKind::AllocHealth => {
                "alloc-health:healthy=ALLOC[,ALLOC...]:unhealthy=ALLOC[,ALLOC...][@TIME]"
            }
            EventKind::DeploymentPromote => {
                "deployment-promote:DEPLOYMENT[:GROUP[,GROUP...]][@TIME]"
            }
            EventKind::DeploymentFail => "deployment-fail:DEPLOYMENT[@TIME]",
            EventKind::DeploymentPause => "deployment-pause:DEPLOYMENT[@TIME]",
            EventKind::DeploymentResume => "deployment-resume:DEPLOYMENT[@TIME]",
            EventKind::DeploymentUnblock => "deployment-unblock:DEPLOYMENT[@TIME]",
        }
    }

    /// What the event's target names.
    pub fn target(self) -> TargetKind {
        match self {
            EventKind::AllocFail
            | EventKind::AllocHealthy
            | EventKind::AllocUnhealthy
            | EventKind::AllocHealth => TargetKind::Alloc,
            EventKind::DeploymentPromote
            | EventKind::DeploymentFail
            | EventKind::DeploymentPause
            | EventKind::DeploymentResume
            | EventKind::DeploymentUnblock => TargetKind::Deployment,
            _ => TargetKind::Node,
        }
    }

    /// Whether the event names an allocation rather than a node.
    pub fn targets_alloc(self) -> bool {
        self.target() == TargetKind::Alloc
    }

    /// Whether the event sets allocations' health by hand
    /// (`Deployment.SetAllocHealth`).
    pub fn sets_health(self) -> bool {
        matches!(
            self,
            EventKind::AllocHealthy | EventKind::AllocUnhealthy | EventKind::AllocHealth
        )
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

/// One allocation of a health request as typed, and the health it gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HealthSet {
    pub alloc: String,
    pub healthy: bool,
}

/// One `--what-if` as typed: its kind, the node, allocation or deployment
/// as the user named it, and its time or drain deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSpec {
    pub kind: EventKind,
    /// The node (ID, ID prefix or name), allocation (ID, ID prefix or
    /// name) or deployment (ID, ID prefix or job ID); for a health request,
    /// its first allocation.
    pub target: String,
    /// A health request's allocations in the order of Nomad's request
    /// (`HealthyAllocationIDs`, then `UnhealthyAllocationIDs`), each as
    /// typed, split at every comma until the event happens (a name may
    /// hold a comma); empty for other events.
    pub health: Vec<HealthSet>,
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

impl EventSpec {
    /// The allocations an `alloc-*` event names, as typed, in order (a
    /// health list's pieces until the event happens).
    pub fn alloc_texts(&self) -> Vec<&str> {
        if self.health.is_empty() {
            vec![self.target.as_str()]
        } else {
            self.health.iter().map(|h| h.alloc.as_str()).collect()
        }
    }
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
        let mut health = Vec::new();
        if kind.sets_health() && !target.is_empty() {
            health = health_sets(kind, target).map_err(bad)?;
            target = &health[0].alloc;
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
            health,
            text: s.to_string(),
        })
    }
}

/// The allocations a health event names: `ALLOC,...` set healthy or
/// unhealthy as the kind says, or `alloc-health`'s
/// `healthy=ALLOC,...:unhealthy=ALLOC,...`, either list left out at will,
/// each list split at every comma: the pieces of a name with a comma of
/// its own are put back together when the event happens, as the cluster
/// then names its allocations.
fn health_sets(kind: EventKind, text: &str) -> Result<Vec<HealthSet>, String> {
    let list = |text: &str, healthy: bool| -> Result<Vec<HealthSet>, String> {
        let allocs: Vec<&str> = text.split(',').collect();
        if allocs.iter().any(|a| a.is_empty()) {
            return Err(format!("{text:?} names an empty ALLOC"));
        }
        Ok(allocs
            .into_iter()
            .map(|alloc| HealthSet {
                alloc: alloc.to_string(),
                healthy,
            })
            .collect())
    };
    if kind != EventKind::AllocHealth {
        return list(text, kind == EventKind::AllocHealthy);
    }
    let (healthy, unhealthy) = if let Some(rest) = text.strip_prefix("unhealthy=") {
        if rest.contains(":healthy=") {
            return Err("give healthy=ALLOC,... before unhealthy=ALLOC,...".to_string());
        }
        (None, Some(rest))
    } else if let Some(rest) = text.strip_prefix("healthy=") {
        match rest.split_once(":unhealthy=") {
            Some((h, u)) => (Some(h), Some(u)),
            None => (Some(rest), None),
        }
    } else {
        return Err(format!(
            "{text:?} is neither healthy=ALLOC,... nor unhealthy=ALLOC,... nor both, in that order"
        ));
    };
    let mut sets = Vec::new();
    if let Some(h) = healthy {
        sets = list(h, true)?;
    }
    if let Some(u) = unhealthy {
        sets.extend(list(u, false)?);
    }
    Ok(sets)
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
    fn an_unblock_names_a_deployment_or_a_job_with_an_optional_time() {
        let d = spec("deployment-unblock:078de2a8");
        assert_eq!(
            (d.kind, d.target.as_str(), d.at, d.groups.len()),
            (EventKind::DeploymentUnblock, "078de2a8", None, 0)
        );
        assert_eq!(d.kind.target(), TargetKind::Deployment);
        let d = spec("deployment-unblock:batch:nightly@5m");
        assert_eq!(
            (d.target.as_str(), d.at),
            ("batch:nightly", Some(When::After(300 * SECOND)))
        );
        let e = "deployment-unblock:@5m".parse::<EventSpec>().unwrap_err();
        assert_eq!(e.problem, "no DEPLOYMENT given");
        assert!(
            e.to_string()
                .contains("deployment-unblock:DEPLOYMENT[@TIME]"),
            "{e}"
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
            e.to_string()
                .contains("alloc-unhealthy:ALLOC[,ALLOC...][@TIME]"),
            "{e}"
        );
    }

    fn sets(d: &EventSpec) -> Vec<(&str, bool)> {
        d.health
            .iter()
            .map(|h| (h.alloc.as_str(), h.healthy))
            .collect()
    }

    #[test]
    fn a_health_request_names_several_allocations() {
        let d = spec("alloc-healthy:1a6f,web.app[1],2b7a@2m");
        assert_eq!(
            (d.target.as_str(), d.at),
            ("1a6f", Some(When::After(120 * SECOND)))
        );
        assert_eq!(
            sets(&d),
            [("1a6f", true), ("web.app[1]", true), ("2b7a", true)]
        );
        assert_eq!(d.alloc_texts(), ["1a6f", "web.app[1]", "2b7a"]);
        let d = spec("alloc-unhealthy:1a6f,2b7a");
        assert_eq!(sets(&d), [("1a6f", false), ("2b7a", false)]);
        assert_eq!(sets(&spec("alloc-healthy:1a6f")), [("1a6f", true)]);
        assert_eq!(spec("alloc-fail:1a6f").alloc_texts(), ["1a6f"]);
        assert!(spec("alloc-fail:1a6f").health.is_empty());
        let e = "alloc-healthy:1a6f,,2b7a".parse::<EventSpec>().unwrap_err();
        assert_eq!(e.problem, "\"1a6f,,2b7a\" names an empty ALLOC");
    }

    #[test]
    fn a_health_list_is_split_at_every_comma_until_the_event_happens() {
        // Job `a,b`'s allocations: the pieces are put back together when
        // the cluster is read (servers::health_list).
        let d = spec("alloc-health:healthy=a,b.g[0]:unhealthy=a,b.g[1],1a6f");
        assert_eq!(
            sets(&d),
            [
                ("a", true),
                ("b.g[0]", true),
                ("a", false),
                ("b.g[1]", false),
                ("1a6f", false)
            ]
        );
        assert_eq!(d.target, "a");
    }

    #[test]
    fn alloc_health_takes_both_lists_healthy_first() {
        let d = spec("alloc-health:healthy=1a6f,2b7a:unhealthy=web.app[2]@5m");
        assert_eq!(d.kind, EventKind::AllocHealth);
        assert!(d.kind.targets_alloc() && d.kind.sets_health());
        assert_eq!(d.at, Some(When::After(300 * SECOND)));
        assert_eq!(
            sets(&d),
            [("1a6f", true), ("2b7a", true), ("web.app[2]", false)]
        );
        assert_eq!(d.target, "1a6f");
        assert_eq!(sets(&spec("alloc-health:healthy=1a6f")), [("1a6f", true)]);
        assert_eq!(
            sets(&spec("alloc-health:unhealthy=1a6f,2b7a")),
            [("1a6f", false), ("2b7a", false)]
        );
        // A job ID with a colon stays in its name.
        assert_eq!(
            sets(&spec(
                "alloc-health:healthy=batch:nightly.g[0]:unhealthy=3c8b"
            )),
            [("batch:nightly.g[0]", true), ("3c8b", false)]
        );
    }

    #[test]
    fn alloc_health_without_its_lists_is_refused() {
        for (text, problem) in [
            (
                "alloc-health:1a6f",
                "\"1a6f\" is neither healthy=ALLOC,... nor unhealthy=ALLOC,... nor both, in that order",
            ),
            (
                "alloc-health:unhealthy=1a6f:healthy=2b7a",
                "give healthy=ALLOC,... before unhealthy=ALLOC,...",
            ),
            ("alloc-health:healthy=", "\"\" names an empty ALLOC"),
            (
                "alloc-health:healthy=1a6f:unhealthy=",
                "\"\" names an empty ALLOC",
            ),
            ("alloc-health:@5m", "no ALLOC given"),
        ] {
            let e = text.parse::<EventSpec>().unwrap_err();
            assert_eq!(e.problem, problem, "{text}");
        }
        let e = "alloc-health:1a6f".parse::<EventSpec>().unwrap_err();
        assert!(
            e.to_string().contains(
                "alloc-health:healthy=ALLOC[,ALLOC...]:unhealthy=ALLOC[,ALLOC...][@TIME]"
            ),
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
