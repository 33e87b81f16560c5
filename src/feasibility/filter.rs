//! Why a node was filtered for a task group, and the broken constraints
//! met on the way: the words of Nomad's `AllocMetric` filter counts.

use std::borrow::Cow;

use super::node_checks::NetworkMiss;

/// What `AllocMetric.ConstraintFiltered` counts for a node whose computed
/// class the cache already rules out.
pub const CLASS_INELIGIBLE: &str = "computed class ineligible";

/// Why a node was filtered for a task group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Filter {
    /// A job, group or task constraint is not met.
    /// `left` is the node's value of the constraint's left side, when it
    /// interpolates one (`None`: not set on the node).
    Constraint {
        text: String,
        level: Level,
        left: Option<(String, Option<String>)>,
    },
    Drivers(Vec<String>),
    HostVolumes,
    /// `CSIVolumeChecker`'s reason, in Nomad's words.
    Csi(String),
    Devices,
    Network(NetworkMiss),
    /// #26303: the providers of the group's `secret` blocks the node lacks.
    SecretsProviders(Vec<String>),
    DistinctProperty(String),
    /// Another node of the same computed class failed a cached check.
    ClassIneligible {
        class: String,
        first: Box<Filter>,
    },
}

/// Where a constraint was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Job,
    Group,
}

impl Filter {
    /// The reason Nomad's `AllocMetric.ConstraintFiltered` counts, in its
    /// words (`scheduler/feasible.go` at 1.3.0 and 1.10.5, feasible/ at
    /// 2.0.5), as `nomad job
    /// plan` prints it.
    pub fn metric(&self) -> Cow<'_, str> {
        match self {
            Filter::Constraint { text, .. } => Cow::Borrowed(text),
            Filter::Drivers(_) => Cow::Borrowed("missing drivers"),
            Filter::HostVolumes => Cow::Borrowed("missing compatible host volumes"),
            Filter::Csi(why) => Cow::Borrowed(why),
            Filter::Devices => Cow::Borrowed("missing devices"),
            Filter::Network(NetworkMiss::Mode(_)) => Cow::Borrowed("missing network"),
            Filter::Network(miss) => Cow::Owned(miss.describe()),
            Filter::SecretsProviders(_) => Cow::Borrowed("missing secrets provider"),
            Filter::DistinctProperty(why) => Cow::Borrowed(why),
            Filter::ClassIneligible { .. } => Cow::Borrowed(CLASS_INELIGIBLE),
        }
    }

    /// One line naming the fact that filtered the node.
    pub fn describe(&self) -> String {
        match self {
            Filter::Constraint { text, level, left } => {
                let level = match level {
                    Level::Job => "job",
                    Level::Group => "group",
                };
                let node = match left {
                    None => String::new(),
                    Some((target, Some(v))) => format!(" (node: {target} = {v:?})"),
                    Some((target, None)) => format!(" (node: {target} not set)"),
                };
                format!("{level} constraint \"{text}\" not met{node}")
            }
            Filter::Drivers(d) => format!("missing drivers ({})", d.join(", ")),
            Filter::HostVolumes => "missing compatible host volumes".to_string(),
            Filter::Csi(why) => why.clone(),
            Filter::Devices => "missing devices".to_string(),
            Filter::Network(miss) => miss.describe(),
            Filter::SecretsProviders(p) => {
                format!("missing secrets provider ({})", p.join(", "))
            }
            Filter::DistinctProperty(why) => why.clone(),
            Filter::ClassIneligible { class, first } => {
                format!("computed class {class} ineligible: {}", first.describe())
            }
        }
    }
}

/// How a node passed the class-cached checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eligibility {
    /// The checks ran on this node.
    Checked,
    /// Another node of its computed class already passed them: Nomad's
    /// fast path for an eligible class.
    Cached,
}

/// A broken constraint met while checking, for a warning.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct InvalidConstraint {
    pub constraint: String,
    pub why: String,
}
