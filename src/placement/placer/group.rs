//! What one task group's placements share within an evaluation: its ask,
//! its scorers, its class verdicts and its ranking.

use super::super::ask::ask_of;
use super::super::metric::AllocMetric;
use super::super::ranked::RankIndex;
use super::super::ranking::{Ranking, affinities_of};
use super::setup::Setup;
use crate::feasibility::{DISTINCT_HOSTS, SystemStack};
use crate::fit::{GroupAsk, NodeFreeAsk};
use crate::model::{Constraint, Job, TaskGroup};

/// A class not yet checked for the group, and the two verdicts.
pub(super) const UNKNOWN: u8 = 0;
pub(super) const ELIGIBLE: u8 = 1;
pub(super) const INELIGIBLE: u8 = 2;

pub(super) struct Group<'a> {
    pub tg: &'a TaskGroup,
    pub ask: GroupAsk<'a>,
    /// The ask, when it does not depend on the node.
    pub free: Option<NodeFreeAsk<'a>>,
    pub ranking: Ranking,
    /// The job or group has a `distinct_property` constraint.
    pub properties: bool,
    /// The group asks for volumes, which are checked on every node for
    /// each allocation's name, outside any class verdict.
    pub volumes: bool,
    /// `distinct_hosts` at the job level, and at the group's.
    pub distinct: (bool, bool),
    /// Per computed class, the verdict of its checks for this group, as
    /// the stack's cache holds it once the class was checked; empty when
    /// the checks are not shared per class (a constraint escapes).
    pub classes: Vec<u8>,
    /// The group is ranked once and kept ([`RankIndex`]).
    pub indexable: bool,
    pub index: Option<RankIndex>,
    /// The class checks' counts, when the current placement ran them
    /// before a scan (`Placer::board_index`).
    pub sorted: Option<AllocMetric>,
}

impl<'a> Group<'a> {
    pub fn new(
        tg: &'a TaskGroup,
        job: &Job,
        checks: &SystemStack<'a>,
        setup: &Setup,
        classes: usize,
    ) -> Group<'a> {
        let ask = ask_of(tg);
        let distinct = |cs: &[Constraint]| cs.iter().any(|c| c.operand == DISTINCT_HOSTS);
        let volumes = !tg.volumes.is_empty();
        // A group with volumes keeps to the stack's own class cache, which
        // tells a cached verdict from a checked one (#13274), and is judged
        // on every node each time, since `per_alloc` volumes differ by name.
        let cacheable = checks.caches(tg) && !volumes;
        let properties = checks.has_distinct_properties(tg);
        Group {
            tg,
            free: NodeFreeAsk::of(&ask, &setup.settings),
            ask,
            ranking: Ranking::new(
                tg,
                setup.spread_algorithm,
                affinities_of(job, tg),
                setup.settings.rules,
                checks.targets(),
            ),
            properties,
            volumes,
            distinct: (distinct(&job.constraints), distinct(&tg.constraints)),
            classes: vec![UNKNOWN; if cacheable { classes } else { 0 }],
            indexable: cacheable && !properties,
            index: None,
            sorted: None,
        }
    }
}
