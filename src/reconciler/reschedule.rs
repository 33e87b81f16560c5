//! Which failed allocations are rescheduled now, later, or not at all:
//! `filterByRescheduleable`, `shouldFilter`, `updateByReschedulable`.

use super::alloc_set::AllocSet;
use super::rules::Rules;
use crate::model::{Allocation, ClientStatus, Deployment, DesiredStatus, DisconnectFields};
use crate::time::{SECOND, Time};
use crate::version::Switch;

/// Nomad reschedules an allocation whose time is within this window of now,
/// to absorb clock drift between servers (`rescheduleWindowSize`).
const RESCHEDULE_WINDOW: i64 = SECOND;

/// An allocation to reschedule at a later time.
#[derive(Clone, Debug)]
pub struct DelayedReschedule<'a> {
    pub alloc: &'a Allocation,
    pub at: Time,
}

/// The result of `filterByRescheduleable`.
#[derive(Clone, Debug, Default)]
pub struct RescheduleSets<'a> {
    pub untainted: AllocSet<'a>,
    pub now: AllocSet<'a>,
    pub later: Vec<DelayedReschedule<'a>>,
    /// Those whose reschedule time was read from a policy their job
    /// version's group does not have.
    pub without_policy: AllocSet<'a>,
    /// Those in `now` only by their force-reschedule transition.
    pub forced: AllocSet<'a>,
}

/// What `updateByReschedulable` needs besides the allocation.
#[derive(Clone, Copy)]
pub struct RescheduleContext<'d> {
    pub rules: &'d Rules,
    pub batch: bool,
    pub now: Time,
    pub eval_id: &'d str,
    pub deployment: Option<&'d Deployment>,
}

impl<'a> AllocSet<'a> {
    /// `filterByRescheduleable`. With `disconnecting`, the seed leaves the
    /// untainted set empty and reschedules every candidate now; from D-1 on
    /// the candidates follow their reschedule policy like failed ones, and
    /// an allocation `shouldFilter` marks untainted is still a candidate, so
    /// that (as in Nomad until 1.8.1) a running batch allocation asked to
    /// force-reschedule is in both the untainted and the now set.
    pub fn filter_by_rescheduleable(
        &self,
        ctx: RescheduleContext<'_>,
        disconnecting: bool,
    ) -> RescheduleSets<'a> {
        let by_policy = ctx.rules.has(Switch::D1);
        let mut sets = RescheduleSets::default();
        for alloc in self.iter() {
            if disconnecting
                && ctx.rules.has(Switch::A3)
                && alloc.client_status == ClientStatus::Unknown
            {
                continue;
            }
            if !alloc.next_allocation.is_empty() && alloc.terminal_status() {
                continue;
            }
            let filter = should_filter(alloc, ctx.batch, ctx.rules);
            if filter.untainted() && !disconnecting {
                sets.untainted.insert(alloc);
            }
            if filter.skips_policy(ctx.rules, disconnecting) {
                continue;
            }
            let RescheduleDecision {
                now,
                later,
                at,
                without_policy,
                forced,
            } = update_by_reschedulable(alloc, ctx, disconnecting);
            if without_policy {
                sets.without_policy.insert(alloc);
            }
            let at_once = disconnecting && !by_policy;
            if forced && !at_once {
                sets.forced.insert(alloc);
            }
            if now || at_once {
                sets.now.insert(alloc);
                continue;
            }
            sets.untainted.insert(alloc);
            if later {
                sets.later.push(DelayedReschedule { alloc, at });
            }
        }
        sets
    }
}

/// What `shouldFilter` decides before the reschedule policy is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefilter {
    /// Counts as untainted without a reschedule decision.
    Untainted,
    /// Neither kept nor rescheduled.
    Ignore,
    /// Left to the reschedule policy.
    Reschedulable,
}

impl Prefilter {
    /// Nomad's first result, `untainted`.
    pub fn untainted(self) -> bool {
        self == Prefilter::Untainted
    }

    /// Nomad's second result, `ignore`.
    pub fn ignore(self) -> bool {
        self == Prefilter::Ignore
    }

    /// Whether the allocation never reaches `updateByReschedulable`: an
    /// ignored one, or an untainted one, except from D-1 until E-1 (1.8.1),
    /// where untainted ones are asked as well, and from E-1 on disconnecting
    /// ones still are.
    pub fn skips_policy(self, rules: &Rules, disconnecting: bool) -> bool {
        let by_policy = rules.has(Switch::D1);
        let retry = rules.has(Switch::E1);
        self.ignore() || (self.untainted() && (!by_policy || (retry && !disconnecting)))
    }
}

/// What a release times an allocation's reschedule from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RescheduleBasis {
    /// Disconnecting, before D-1: replaced at once whatever the policy says.
    Disconnected,
    /// Disconnecting, in a group with a `disconnect` block (D-4b): its
    /// `replace` decides at once, the policy is not read.
    Replace(bool),
    /// Disconnecting, from D-1: the policy, from the evaluation time.
    Disconnecting,
    /// Unknown, and this evaluation is its follow-up (from D-1): the
    /// policy, from its last unknown state.
    FollowUp,
    /// The policy, from its last failure (`NextRescheduleTime`).
    Failure,
}

impl RescheduleBasis {
    pub fn of(alloc: &Allocation, rules: &Rules, eval_id: &str, disconnecting: bool) -> Self {
        let by_policy = rules.has(Switch::D1);
        if disconnecting {
            match rules.replaces_disconnecting_at_once(alloc.own_task_group()) {
                Some(replace) => RescheduleBasis::Replace(replace),
                None if by_policy => RescheduleBasis::Disconnecting,
                None => RescheduleBasis::Disconnected,
            }
        } else if by_policy
            && alloc.client_status == ClientStatus::Unknown
            && alloc.followup_eval_id == eval_id
        {
            RescheduleBasis::FollowUp
        } else {
            RescheduleBasis::Failure
        }
    }

    /// The time the basis starts from: the evaluation time, the last
    /// unknown state or the last failure.
    pub fn fail_time(self, alloc: &Allocation, rules: &Rules, now: Time) -> Time {
        match self {
            RescheduleBasis::FollowUp => alloc.unknown_since(rules.disconnect_fields()),
            RescheduleBasis::Failure => alloc.last_event_time(),
            _ => now,
        }
    }

    /// When the next attempt is allowed, and whether one is.
    pub fn next(self, alloc: &Allocation, rules: &Rules, now: Time) -> (Time, bool) {
        match self {
            RescheduleBasis::Replace(replace) => (now, replace),
            RescheduleBasis::Failure => alloc.next_reschedule_time_for(
                rules.has(Switch::E1),
                rules.reschedules_stopped_batch_alloc(alloc),
            ),
            _ => alloc.next_reschedule_time_by_fail_time(self.fail_time(alloc, rules, now)),
        }
    }
}

/// What `updateByReschedulable` decides for one allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RescheduleDecision {
    /// Replace it in this evaluation.
    pub now: bool,
    /// Replace it by a follow-up evaluation at `at`.
    pub later: bool,
    /// When its reschedule policy allows the next attempt.
    pub at: Time,
    /// `NextRescheduleTime` was asked, and the allocation's job version's
    /// group has no reschedule policy (which Nomad dereferences from D-1
    /// until E-3).
    pub without_policy: bool,
    /// `now` comes from `DesiredTransition.ForceReschedule` alone, which
    /// Nomad checks before the policy: the policy would not replace it now.
    pub forced: bool,
}

/// `shouldFilter`: whether an allocation counts as untainted, or is ignored,
/// before its reschedule policy is looked at. When the release retries
/// failed placements (E-1) a stopped allocation whose replacement could not
/// be placed is a candidate again.
pub fn should_filter(alloc: &Allocation, batch: bool, rules: &Rules) -> Prefilter {
    let desired_terminal = matches!(
        alloc.desired_status,
        DesiredStatus::Stop | DesiredStatus::Evict
    );
    let retry = rules.has(Switch::E1) && alloc.last_reschedule_failed();
    if batch {
        if rules.has(Switch::H3)
            && alloc
                .desired_transition
                .should_disable_migration_placement()
        {
            return Prefilter::Untainted;
        }
        if rules.has(Switch::G0) && alloc.desired_transition.should_reschedule() {
            return Prefilter::Reschedulable;
        }
        if alloc.desired_status == DesiredStatus::Evict && rules.has(Switch::B1) {
            return Prefilter::Ignore;
        }
        if desired_terminal {
            return if alloc.ran_successfully() {
                Prefilter::Untainted
            } else if retry && alloc.desired_status == DesiredStatus::Stop {
                Prefilter::Reschedulable
            } else {
                Prefilter::Ignore
            };
        }
        return if alloc.client_status == ClientStatus::Failed {
            Prefilter::Reschedulable
        } else {
            Prefilter::Untainted
        };
    }
    if desired_terminal {
        return if retry {
            Prefilter::Reschedulable
        } else {
            Prefilter::Ignore
        };
    }
    if matches!(
        alloc.client_status,
        ClientStatus::Complete | ClientStatus::Lost
    ) {
        return Prefilter::Ignore;
    }
    Prefilter::Reschedulable
}

/// `updateByReschedulable`: reschedule now, or later at `at`.
pub fn update_by_reschedulable(
    alloc: &Allocation,
    ctx: RescheduleContext<'_>,
    disconnecting: bool,
) -> RescheduleDecision {
    if let Some(d) = ctx.deployment
        && alloc.deployment_id == d.id
        && d.active()
        && !alloc.desired_transition.should_reschedule()
    {
        return RescheduleDecision {
            now: false,
            later: false,
            at: Time::ZERO,
            without_policy: false,
            forced: false,
        };
    }
    let forced = alloc.desired_transition.should_force_reschedule()
        && (!ctx.rules.has(Switch::H4) || alloc.client_terminal_status());
    if disconnecting && ctx.rules.holds_disconnecting(alloc.own_task_group()) {
        return RescheduleDecision {
            now: forced,
            later: false,
            at: Time::ZERO,
            without_policy: false,
            forced,
        };
    }
    let by_policy = ctx.rules.has(Switch::D1);
    let basis = RescheduleBasis::of(alloc, ctx.rules, ctx.eval_id, disconnecting);
    let without_policy = basis == RescheduleBasis::Failure && alloc.reschedule_policy().is_none();
    let (at, eligible) = basis.next(alloc, ctx.rules, ctx.now);
    if eligible && (alloc.followup_eval_id == ctx.eval_id || at.sub(ctx.now) <= RESCHEDULE_WINDOW) {
        return RescheduleDecision {
            now: true,
            later: false,
            at,
            without_policy,
            forced: false,
        };
    }
    let always = by_policy && disconnecting && !ctx.rules.has(Switch::G1);
    let later = eligible && (alloc.followup_eval_id.is_empty() || always);
    RescheduleDecision {
        now: forced,
        later,
        at,
        without_policy,
        forced,
    }
}

impl<'a> AllocSet<'a> {
    /// `delayByStopAfterClientDisconnect`: lost allocations whose group waits
    /// `stop_after_client_disconnect` before replacing them. Nomad reads the
    /// wall clock here; plan-inspect uses the evaluation time.
    pub fn delay_by_stop_after_client_disconnect(
        &self,
        now: Time,
        fields: DisconnectFields,
    ) -> Vec<DelayedReschedule<'a>> {
        self.iter()
            .filter(|a| a.should_client_stop(fields))
            .map(|alloc| DelayedReschedule {
                alloc,
                at: alloc.wait_client_stop(now, fields),
            })
            .filter(|d| d.at > now)
            .collect()
    }

    /// `delayByMaxClientDisconnect`: when each disconnecting allocation
    /// becomes lost (now, without a lost timeout).
    pub fn delay_by_max_client_disconnect(
        &self,
        now: Time,
        fields: DisconnectFields,
    ) -> Vec<DelayedReschedule<'a>> {
        self.iter()
            .map(|alloc| DelayedReschedule {
                alloc,
                at: alloc.disconnect_timeout(now, fields),
            })
            .collect()
    }
}
