//! Allocations and the per-allocation predicates of `nomad/structs`.

use std::sync::Arc;

use serde::Deserialize;
use thin_vec::ThinVec;

use super::alloc_name::AllocName;
use super::resources::{AllocUsage, AllocatedResources};
use super::status::{ClientStatus, DesiredStatus};
use super::task_event::TASK_CLIENT_RECONNECTED;
use super::{
    DisconnectFields, Id, Job, LegacyResources, Name, ReschedulePolicy, SparseId, TaskGroup,
    TaskStates, UsageView,
};
use crate::time::{Duration, Time};

/// A `structs.Allocation`.
///
/// Read through `AllocationWire` (`alloc_wire`), which folds the pre-0.9
/// blocks into one box.
#[derive(Clone, Debug, Default)]
pub struct Allocation {
    pub id: Id,
    pub namespace: Name,
    /// Read with [`Allocation::name`]: a snapshot's `<job>.<group>[<index>]`
    /// is kept as its index; a text given here is kept as given.
    pub name: AllocName,
    pub node_id: Name,
    pub job_id: Name,
    /// The job version the allocation was placed with. The reader interns
    /// embedded jobs, so allocations of one version share one `Job`.
    pub job: Option<Arc<Job>>,
    pub task_group: Name,
    /// What the allocation holds on its node, for fit and preemption.
    pub allocated_resources: Option<Arc<AllocatedResources>>,
    /// The one figure of `Metrics` the scheduler reads.
    pub norm_score: NormScore,
    pub desired_status: DesiredStatus,
    pub desired_description: Name,
    pub desired_transition: DesiredTransition,
    pub client_status: ClientStatus,
    pub task_states: TaskStates,
    /// Thin: most allocations never changed state while disconnected.
    pub alloc_states: ThinVec<AllocState>,
    pub previous_allocation: SparseId,
    pub next_allocation: SparseId,
    pub deployment_id: Name,
    pub deployment_status: Option<AllocDeploymentStatus>,
    /// Boxed: most allocations were never rescheduled.
    pub reschedule_tracker: Option<Box<RescheduleTracker>>,
    pub followup_eval_id: SparseId,
    pub create_index: u64,
    pub modify_time: i64,
    /// Only an `AllocListStub` (a list endpoint's entry) has `JobVersion`;
    /// a full allocation embeds its job instead. Boxed: a word, not two, on
    /// the allocations that lack it.
    pub stub_job_version: Option<Box<u64>>,
    /// The pre-0.9 blocks older dumps carry instead of
    /// `AllocatedResources`, in one box: most allocations lack them.
    pub legacy: Option<Box<LegacyResources>>,
}

/// A `structs.DesiredTransition`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct DesiredTransition {
    pub migrate: Option<bool>,
    pub reschedule: Option<bool>,
    pub force_reschedule: Option<bool>,
    /// Whether the allocation had the key, not `null`: every allocation
    /// Nomad stores has it, so one without it is a stub or was cut down.
    #[serde(skip)]
    pub present: bool,
    /// Set with `reschedule` by a drain or `alloc stop` of a batch
    /// allocation (1.11.0 on): it is rescheduled, but not migrated.
    pub migrate_disable_placement: Option<bool>,
}

pub(super) fn present_transition<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<DesiredTransition, D::Error> {
    let t = Option::<DesiredTransition>::deserialize(d)?;
    Ok(t.map(|t| DesiredTransition { present: true, ..t })
        .unwrap_or_default())
}

impl DesiredTransition {
    pub fn should_migrate(&self) -> bool {
        self.migrate == Some(true)
    }
    pub fn should_reschedule(&self) -> bool {
        self.reschedule == Some(true)
    }
    pub fn should_force_reschedule(&self) -> bool {
        self.force_reschedule == Some(true)
    }
    pub fn should_disable_migration_placement(&self) -> bool {
        self.migrate_disable_placement == Some(true)
    }
}

/// A `structs.AllocState`: a recorded transition of one field.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocState {
    pub field: AllocStateField,
    /// A client status: the one field Nomad records.
    pub value: ClientStatus,
    pub time: Time,
}

/// `structs.AllocStateField`, a Go `uint8` enum that JSON dumps write as a
/// number (0 is the client status). Its name is accepted too, for snapshots
/// written by hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AllocStateField {
    #[default]
    ClientStatus,
    /// A field this Nomad version does not define.
    Other(u64),
}

impl From<&str> for AllocStateField {
    fn from(name: &str) -> AllocStateField {
        match name {
            "ClientStatus" => AllocStateField::ClientStatus,
            _ => AllocStateField::Other(u64::MAX),
        }
    }
}

impl<'de> Deserialize<'de> for AllocStateField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<AllocStateField, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = AllocStateField;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an AllocStateField (0 for ClientStatus)")
            }
            /// Read as any value, a `null` member comes as itself: Go's zero.
            fn visit_unit<E: serde::de::Error>(self) -> Result<AllocStateField, E> {
                Ok(AllocStateField::default())
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<AllocStateField, E> {
                Ok(if n == 0 {
                    AllocStateField::ClientStatus
                } else {
                    AllocStateField::Other(n)
                })
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<AllocStateField, E> {
                u64::try_from(n)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(n), &self))
                    .and_then(|n| self.visit_u64(n))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<AllocStateField, E> {
                Ok(AllocStateField::from(s))
            }
        }
        d.deserialize_any(V)
    }
}

/// A `structs.AllocDeploymentStatus`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocDeploymentStatus {
    pub healthy: Option<bool>,
    pub canary: bool,
}

/// A `structs.RescheduleTracker`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct RescheduleTracker {
    /// `None` for Go's nil slice, which `NextRescheduleTime` tells apart from empty.
    pub events: Option<Box<[RescheduleEvent]>>,
    /// How the last reschedule went, `ok` or `no placement` (1.8.1 on);
    /// empty when no server wrote it.
    pub last_reschedule: Name,
}

/// A `structs.RescheduleEvent`; `RescheduleTime` is Unix nanoseconds.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct RescheduleEvent {
    pub reschedule_time: i64,
    #[serde(rename = "PrevAllocID")]
    pub prev_alloc_id: Id,
    /// The node the failed allocation ran on, which the next placement
    /// avoids (`getSelectOptions`).
    #[serde(rename = "PrevNodeID")]
    pub prev_node_id: Name,
    pub delay: Duration,
}

/// A `structs.AllocMetric`, reduced to what `MaxNormScore` reads: kept
/// inline, so an allocation's metrics cost no heap block.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AllocMetric {
    /// The `NormScore` of the first `ScoreMetaData` entry: Nomad keeps them
    /// best-first and `MaxNormScore` reads the first.
    #[serde(
        rename = "ScoreMetaData",
        deserialize_with = "super::keep_only::first_score"
    )]
    pub first_norm_score: Option<f64>,
}

/// Where `NextDelay` starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayBase {
    /// No reschedule policy: no delay.
    NoPolicy,
    /// No earlier reschedule: the policy's delay.
    FirstAttempt,
    /// The `constant` function: always the policy's delay.
    Constant,
    /// Twice the last delay.
    Exponential { last: Duration },
    /// The sum of the last two delays.
    Fibonacci { last: Duration, previous: Duration },
    /// One earlier reschedule only: the policy's delay.
    FibonacciSecond,
    /// The sequence restarted after a `MaxDelay` reset: the last delay again.
    FibonacciRestarted { last: Duration },
}

/// The steps of `NextDelay`: the base, capped at `MaxDelay`, and reset to
/// the policy's delay once more than `MaxDelay` passed since the last reschedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelaySteps {
    pub base: DelayBase,
    /// The resulting delay.
    pub delay: Duration,
    pub capped: bool,
    /// The time since the last reschedule, when it reset the delay.
    pub reset_after: Option<Duration>,
}

impl DelaySteps {
    fn new(base: DelayBase, delay: Duration) -> DelaySteps {
        DelaySteps {
            base,
            delay,
            capped: false,
            reset_after: None,
        }
    }
}

/// `MaxNormScore`'s `NormScore` held in one word: JSON has no NaN, so NaN
/// stands for no score (no `Metrics`, or no `ScoreMetaData`), where an
/// `Option<f64>` took two words on every allocation.
#[derive(Clone, Copy)]
pub struct NormScore(f64);

impl NormScore {
    /// The score of `metric`: Nomad keeps score metadata sorted best-first,
    /// so it is the first entry's, not the largest one.
    pub fn of(metric: Option<&AllocMetric>) -> NormScore {
        NormScore(metric.and_then(|m| m.first_norm_score).unwrap_or(f64::NAN))
    }

    /// A score read elsewhere than from `Metrics`.
    pub fn new(score: f64) -> NormScore {
        NormScore(score)
    }

    pub fn get(self) -> Option<f64> {
        (!self.0.is_nan()).then_some(self.0)
    }
}

impl Default for NormScore {
    fn default() -> NormScore {
        NormScore(f64::NAN)
    }
}

impl std::fmt::Debug for NormScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl Allocation {
    /// What the allocation holds, as the fit arithmetic reads it.
    pub fn usage(&self) -> AllocUsage {
        AllocUsage {
            id: self.id.clone(),
            client_status: self.client_status.clone(),
            desired_status: self.desired_status.clone(),
            allocated_resources: self.allocated_resources.clone(),
            legacy: self.legacy.clone(),
        }
    }

    /// What the allocation holds, borrowed, as the placement stage reads
    /// it: without the pre-0.9 blocks when it has `AllocatedResources`,
    /// which Nomad reads instead (see `fit::usage`).
    pub fn usage_view(&self) -> UsageView<'_> {
        let legacy = match self.allocated_resources {
            Some(_) => LegacyResources::none(),
            None => LegacyResources::of(&self.legacy),
        };
        UsageView {
            id: &self.id,
            client_status: &self.client_status,
            desired_status: &self.desired_status,
            allocated_resources: self.allocated_resources.as_deref(),
            legacy,
        }
    }

    /// Drops the pre-0.9 `Resources`, `TaskResources` and
    /// `SharedResources` of an allocation that has `AllocatedResources`:
    /// Nomad reads them only without it (see `fit::usage`), and Nomad
    /// still writes them on every allocation, a block of networks each.
    pub fn forget_superseded_resources(&mut self) {
        if self.allocated_resources.is_some() {
            self.legacy = None;
        }
    }

    /// The task group of the allocation's own job version.
    pub fn own_task_group(&self) -> Option<&TaskGroup> {
        self.job.as_deref()?.lookup_task_group(&self.task_group)
    }

    /// The job version this allocation runs, 0 without an embedded job.
    pub fn job_version(&self) -> u64 {
        self.job.as_ref().map_or(0, |j| j.version)
    }

    /// The create index of this allocation's job, 0 without an embedded job.
    pub fn job_create_index(&self) -> u64 {
        self.job.as_ref().map_or(0, |j| j.create_index)
    }

    /// `Allocation.Index`: the number in `job.group[N]`, 0 when unparsable.
    pub fn index(&self) -> u64 {
        match self.name.index() {
            Some(index) => u64::from(index),
            None => alloc_index_from_name(&self.name(), &self.job_id, &self.task_group),
        }
    }

    /// The allocation's name (`Name`).
    pub fn name(&self) -> Name {
        self.name.text(&self.job_id, &self.task_group)
    }

    /// Whether the two allocations have the same name, compared without
    /// writing them when both are Nomad's form of one job and group.
    pub fn same_name(&self, other: &Allocation) -> bool {
        match (&self.name, &other.name) {
            (AllocName::Indexed(a), AllocName::Indexed(b))
                if self.job_id == other.job_id && self.task_group == other.task_group =>
            {
                a == b
            }
            _ => self.name() == other.name(),
        }
    }

    /// Names the allocation `text` once its job ID and group are set:
    /// Nomad's own form is kept as its index.
    pub(crate) fn set_read_name(&mut self, text: &str) {
        self.name = AllocName::of(text, &self.job_id, &self.task_group);
    }

    pub fn server_terminal_status(&self) -> bool {
        matches!(
            self.desired_status,
            DesiredStatus::Stop | DesiredStatus::Evict
        )
    }

    pub fn client_terminal_status(&self) -> bool {
        matches!(
            self.client_status,
            ClientStatus::Complete | ClientStatus::Failed | ClientStatus::Lost
        )
    }

    /// `TerminalStatus`: desired or client status will no longer transition.
    pub fn terminal_status(&self) -> bool {
        self.server_terminal_status() || self.client_terminal_status()
    }

    /// `RanSuccessfully`: every task is dead and none failed.
    pub fn ran_successfully(&self) -> bool {
        !self.task_states.is_empty()
            && self
                .task_states
                .values()
                .all(|s| s.state == "dead" && !s.failed)
    }

    pub fn is_canary(&self) -> bool {
        self.deployment_status.as_ref().is_some_and(|d| d.canary)
    }

    /// The deployment health verdict, `None` until one is given.
    pub fn health(&self) -> Option<bool> {
        self.deployment_status.as_ref().and_then(|d| d.healthy)
    }

    pub fn is_healthy(&self) -> bool {
        self.deployment_status
            .as_ref()
            .is_some_and(|d| d.healthy == Some(true))
    }

    pub fn is_unhealthy(&self) -> bool {
        self.deployment_status
            .as_ref()
            .is_some_and(|d| d.healthy == Some(false))
    }

    /// `LastUnknown`: the latest transition of the client status to unknown.
    pub fn last_unknown(&self) -> Time {
        self.alloc_states
            .iter()
            .filter(|s| {
                s.field == AllocStateField::ClientStatus && s.value == ClientStatus::Unknown
            })
            .map(|s| s.time)
            .max()
            .unwrap_or(Time::ZERO)
    }

    /// `LastUnknown` as `fields` says the release reads it: the latest
    /// unknown transition, or from 1.11.2 the first of the latest unbroken
    /// run of unknown client-status entries (v1.11.2
    /// nomad/structs/alloc.go:779), so repeated unknown entries do not push
    /// the expiry back.
    pub fn unknown_since(&self, fields: DisconnectFields) -> Time {
        if fields != DisconnectFields::BlockStrict {
            return self.last_unknown();
        }
        let mut since = None;
        for s in self.alloc_states.iter().rev() {
            if s.field != AllocStateField::ClientStatus {
                continue;
            }
            if s.value == ClientStatus::Unknown {
                since = Some(s.time);
            } else if since.is_some() {
                break;
            }
        }
        since.unwrap_or(Time::ZERO)
    }

    /// The time `Expired` compares with: last unknown plus the group's
    /// expiry timeout as `fields` reads it, if both are known.
    pub fn disconnect_expiry(&self, fields: DisconnectFields) -> Option<Time> {
        let last = self.unknown_since(fields);
        if last.is_zero() {
            return None;
        }
        let timeout = self.own_task_group()?.expiry_timeout(fields)?;
        Some(last.add(timeout))
    }

    /// `Expired`: an unknown allocation whose disconnect timeout has passed
    /// at `now` (inclusive).
    pub fn expired(&self, now: Time, fields: DisconnectFields) -> bool {
        self.client_status == ClientStatus::Unknown
            && self
                .disconnect_expiry(fields)
                .is_some_and(|expiry| now >= expiry)
    }

    /// The latest `Reconnected` task event, if any.
    pub fn last_reconnect(&self) -> Option<Time> {
        self.task_states
            .values()
            .flat_map(|s| &s.events)
            .filter(|e| e.event_type == TASK_CLIENT_RECONNECTED)
            .map(|e| Time::from_unix_nanos(e.time as i128))
            .max()
    }

    /// `Reconnected`: whether a reconnect event exists, and whether the
    /// allocation had already expired at that event.
    pub fn reconnected(&self, fields: DisconnectFields) -> Reconnection {
        match self.last_reconnect() {
            // Go's zero check applies to the Unix-epoch event time too only
            // when it equals year 1, which an int64 cannot; so any event counts.
            Some(t) if self.expired(t, fields) => Reconnection::AfterExpiry,
            Some(_) => Reconnection::InTime,
            None => Reconnection::None,
        }
    }

    /// `NeedsToReconnect`: the latest client-status transition recorded is
    /// to unknown, so the client has not reported since it went away.
    pub fn needs_to_reconnect(&self) -> bool {
        self.needs_to_reconnect_from(false)
    }

    /// [`Allocation::needs_to_reconnect`], passing over client-status
    /// entries without a value when `skip_empty` (Nomad after 2.0.5).
    pub fn needs_to_reconnect_from(&self, skip_empty: bool) -> bool {
        self.alloc_states
            .iter()
            .rev()
            .find(|s| {
                s.field == AllocStateField::ClientStatus
                    && !(skip_empty && s.value.as_str().is_empty())
            })
            .is_some_and(|s| s.value == ClientStatus::Unknown)
    }

    /// Whether the group of the allocation's own job version supports
    /// disconnected clients, reading the group fields `fields` names (the
    /// group half of `SupportsDisconnectedClients`).
    pub fn group_allows_disconnect(&self, fields: DisconnectFields) -> bool {
        self.own_task_group()
            .is_some_and(|tg| tg.disconnect_supported(fields))
    }

    /// `DisconnectTimeout`: `now` plus the group's lost timeout.
    pub fn disconnect_timeout(&self, now: Time, fields: DisconnectFields) -> Time {
        match self.own_task_group().and_then(|tg| tg.lost_timeout(fields)) {
            Some(timeout) => now.add(timeout),
            None => now,
        }
    }

    /// `ReschedulePolicy` of the allocation's own job version.
    pub fn reschedule_policy(&self) -> Option<&ReschedulePolicy> {
        self.own_task_group()?.reschedule_policy.as_ref()
    }

    /// The recorded reschedule events, oldest first.
    pub fn reschedule_events(&self) -> &[RescheduleEvent] {
        self.reschedule_tracker
            .as_ref()
            .and_then(|t| t.events.as_deref())
            .unwrap_or(&[])
    }

    /// `LastEventTime`: the latest task `FinishedAt`, else `ModifyTime`.
    ///
    /// Go's loop takes the first state's `FinishedAt` even when it is zero and
    /// only replaces it with later ones; the maximum is the same instant.
    pub fn last_event_time(&self) -> Time {
        let last = self
            .task_states
            .values()
            .map(|s| s.finished_at)
            .max()
            .unwrap_or(Time::ZERO);
        if last.is_zero() {
            Time::from_unix_nanos(self.modify_time as i128)
        } else {
            last
        }
    }

    /// `rescheduleInfo`: attempts within the policy interval before `fail_time`.
    pub fn reschedule_attempts(&self, policy: &ReschedulePolicy, fail_time: Time) -> i64 {
        if policy.attempts <= 0 {
            return 0;
        }
        let fail = fail_time.unix_nanos_i64();
        self.reschedule_events()
            .iter()
            .filter(|e| (fail.wrapping_sub(e.reschedule_time)) < policy.interval)
            .count() as i64
    }

    /// `RescheduleEligible`.
    pub fn reschedule_eligible(&self, policy: Option<&ReschedulePolicy>, fail_time: Time) -> bool {
        let Some(policy) = policy else { return false };
        if !(policy.attempts > 0 || policy.unlimited) {
            return false;
        }
        if policy.unlimited {
            return true;
        }
        if self.reschedule_events().is_empty() {
            return true;
        }
        self.reschedule_attempts(policy, fail_time) < policy.attempts
    }

    /// `ShouldReschedule`: a failed, still desired allocation within policy.
    pub fn should_reschedule(&self, policy: Option<&ReschedulePolicy>, fail_time: Time) -> bool {
        !self.server_terminal_status()
            && self.client_status == ClientStatus::Failed
            && self.reschedule_eligible(policy, fail_time)
    }

    /// `NextDelay`: the delay before the next reschedule attempt.
    pub fn next_delay(&self) -> Duration {
        self.next_delay_steps().delay
    }

    /// `NextDelay` with how it was reached, for explanations.
    pub fn next_delay_steps(&self) -> DelaySteps {
        let Some(policy) = self.reschedule_policy() else {
            return DelaySteps::new(DelayBase::NoPolicy, 0);
        };
        let events = self.reschedule_events();
        let Some(last) = events.last() else {
            return DelaySteps::new(DelayBase::FirstAttempt, policy.delay);
        };
        let base = match policy.delay_function.as_str() {
            "exponential" => DelayBase::Exponential { last: last.delay },
            "fibonacci" if events.len() >= 2 => {
                let previous = events[events.len() - 2].delay;
                if previous == policy.max_delay && last.delay == policy.delay {
                    DelayBase::FibonacciRestarted { last: last.delay }
                } else {
                    DelayBase::Fibonacci {
                        last: last.delay,
                        previous,
                    }
                }
            }
            "fibonacci" => DelayBase::FibonacciSecond,
            _ => return DelaySteps::new(DelayBase::Constant, policy.delay),
        };
        let mut steps = DelaySteps::new(
            base,
            match base {
                DelayBase::Exponential { last } => last.wrapping_mul(2),
                DelayBase::Fibonacci { last, previous } => last.wrapping_add(previous),
                DelayBase::FibonacciRestarted { last } => last,
                _ => policy.delay,
            },
        );
        if policy.max_delay > 0 && steps.delay > policy.max_delay {
            steps.delay = policy.max_delay;
            steps.capped = true;
            let since = self
                .last_event_time()
                .unix_nanos_i64()
                .wrapping_sub(last.reschedule_time);
            if since > steps.delay {
                steps.delay = policy.delay;
                steps.reset_after = Some(since);
            }
        }
        steps
    }

    /// `NextRescheduleTime`: when a failed allocation may be rescheduled, and
    /// whether it may be at all. With `retry_failed_placements` (Nomad 1.8.1
    /// and 1.9.0 on) a stopped allocation whose replacement could not be
    /// placed, and a lost one, may be rescheduled too.
    pub fn next_reschedule_time(&self, retry_failed_placements: bool) -> (Time, bool) {
        self.next_reschedule_time_for(retry_failed_placements, false)
    }

    /// [`Allocation::next_reschedule_time`], where from 1.11.0 a batch
    /// allocation with a reschedule transition (`rescheduled_batch`) may be
    /// rescheduled whatever its client status (v1.11.0
    /// nomad/structs/structs.go:11480).
    pub fn next_reschedule_time_for(
        &self,
        retry_failed_placements: bool,
        rescheduled_batch: bool,
    ) -> (Time, bool) {
        let failed_placement = retry_failed_placements && self.last_reschedule_failed();
        let status_ok = rescheduled_batch
            || self.client_status == ClientStatus::Failed
            || (retry_failed_placements && self.client_status == ClientStatus::Lost);
        // Checked first: most allocations are not failed.
        if (self.desired_status == DesiredStatus::Stop && !failed_placement) || !status_ok {
            return (Time::ZERO, false);
        }
        let fail_time = self.last_event_time();
        match self.reschedule_policy() {
            Some(policy) if !fail_time.is_zero() => self.next_reschedule_from(fail_time, policy),
            _ => (Time::ZERO, false),
        }
    }

    /// `LastRescheduleFailed`: the scheduler could not place this
    /// allocation's replacement (the tracker's `LastReschedule`, 1.8.1 on).
    pub fn last_reschedule_failed(&self) -> bool {
        self.reschedule_tracker
            .as_ref()
            .is_some_and(|t| !t.last_reschedule.is_empty() && t.last_reschedule != "ok")
    }

    /// `NextRescheduleTimeByFailTime`.
    pub fn next_reschedule_time_by_fail_time(&self, fail_time: Time) -> (Time, bool) {
        match self.reschedule_policy() {
            Some(policy) => self.next_reschedule_from(fail_time, policy),
            None => (Time::ZERO, false),
        }
    }

    fn next_reschedule_from(&self, fail_time: Time, policy: &ReschedulePolicy) -> (Time, bool) {
        let delay = self.next_delay();
        let at = fail_time.add(delay);
        let tracker = self.reschedule_tracker.as_ref();
        let mut eligible = policy.unlimited || (policy.attempts > 0 && tracker.is_none());
        if policy.attempts > 0 && tracker.is_some_and(|t| t.events.is_some()) {
            eligible = self.reschedule_attempts(policy, fail_time) < policy.attempts
                && delay < policy.interval;
        }
        (at, eligible)
    }

    /// `ShouldClientStop`: the group sets a non-zero stop timeout
    /// (`stop_after_client_disconnect`, from 1.8 also `stop_on_client_after`).
    pub fn should_client_stop(&self, fields: DisconnectFields) -> bool {
        self.own_task_group()
            .and_then(|tg| tg.stop_timeout(fields))
            .is_some_and(|d| d != 0)
    }

    /// `WaitClientStop`: first lost transition (or `now`) plus
    /// `stop_after_client_disconnect` plus the longest kill timeout.
    ///
    /// Nomad reads the wall clock here; plan-inspect uses the evaluation time.
    pub fn wait_client_stop(&self, now: Time, fields: DisconnectFields) -> Time {
        let Some(tg) = self.own_task_group() else {
            return now;
        };
        let lost = self
            .alloc_states
            .iter()
            .find(|s| s.field == AllocStateField::ClientStatus && s.value == ClientStatus::Lost)
            .map(|s| s.time)
            .filter(|t| !t.is_zero())
            .unwrap_or(now);
        let kill = tg
            .tasks
            .iter()
            .map(|t| t.kill_timeout)
            .fold(super::job::DEFAULT_KILL_TIMEOUT, i64::max);
        // Go sums the two durations in int64 first, wrapping on overflow.
        lost.add(tg.stop_timeout(fields).unwrap_or(0).wrapping_add(kill))
    }
}

/// Whether an allocation's client reconnected (`Reconnected`, or from 1.3.8
/// `NeedsToReconnect`), and whether the allocation had expired by then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reconnection {
    /// No reconnect event.
    None,
    /// Reconnected before `max_client_disconnect` expired.
    InTime,
    /// Reconnected after it expired.
    AfterExpiry,
}

/// `AllocIndexFromName`: the number in `job.group[N]`, 0 when unparsable.
pub fn alloc_index_from_name(name: &str, job_id: &str, group: &str) -> u64 {
    let prefix = job_id.len() + group.len() + 2;
    let l = name.len();
    if l <= 3 || l <= prefix {
        return 0;
    }
    name.get(prefix..l - 1)
        .and_then(|s| s.parse::<i64>().ok())
        // Go converts a negative index to a huge `uint`; so do we.
        .map_or(0, |n| n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Task;

    #[test]
    fn a_norm_score_is_one_word_and_tells_no_score_from_zero() {
        assert_eq!(size_of::<NormScore>(), size_of::<f64>());
        let read = |json: &str| {
            let a: Allocation = serde_json::from_str(json).unwrap();
            a.norm_score.get()
        };
        assert_eq!(
            read(r#"{"Metrics": {"ScoreMetaData": [{"NormScore": 0}]}}"#),
            Some(0.0)
        );
        assert_eq!(
            read(r#"{"Metrics": {"ScoreMetaData": [{"NormScore": -1.5}]}}"#),
            Some(-1.5)
        );
        assert_eq!(read(r#"{"Metrics": {"ScoreMetaData": []}}"#), None);
        assert_eq!(read(r#"{"Metrics": null}"#), None);
        assert_eq!(read("{}"), None);
    }

    fn alloc_with(tg: TaskGroup, tracker: Option<RescheduleTracker>) -> Allocation {
        let job = Job {
            task_groups: vec![tg.into()],
            ..Job::default()
        };
        Allocation {
            task_group: "web".into(),
            job: Some(Arc::new(job)),
            reschedule_tracker: tracker.map(Box::new),
            ..Allocation::default()
        }
    }

    #[test]
    fn wait_client_stop_wraps_the_duration_sum_like_go() {
        let tg = TaskGroup {
            name: "web".into(),
            stop_after_client_disconnect: Some(i64::MAX),
            tasks: vec![Task::default().into()],
            ..TaskGroup::default()
        };
        let now = Time::parse_rfc3339("2022-04-01T00:00:00Z").unwrap();
        // i64::MAX + 5s wraps to a negative duration in Go's int64 sum.
        let expected = now.add(i64::MAX.wrapping_add(5 * crate::time::SECOND));
        assert_eq!(
            alloc_with(tg, None).wait_client_stop(now, DisconnectFields::Legacy),
            expected
        );
        assert!(expected < now);
    }

    #[test]
    fn reschedule_arithmetic_near_the_limits_does_not_panic() {
        let tg = TaskGroup {
            name: "web".into(),
            reschedule_policy: Some(ReschedulePolicy {
                attempts: 3,
                interval: i64::MAX,
                delay: i64::MAX,
                delay_function: "fibonacci".into(),
                max_delay: 0,
                unlimited: false,
            }),
            ..TaskGroup::default()
        };
        let events = vec![
            RescheduleEvent {
                reschedule_time: i64::MIN,
                prev_alloc_id: "a".into(),
                prev_node_id: Name::default(),
                delay: i64::MAX,
            },
            RescheduleEvent {
                reschedule_time: i64::MAX,
                prev_alloc_id: "b".into(),
                prev_node_id: Name::default(),
                delay: i64::MAX,
            },
        ];
        let mut alloc = alloc_with(
            tg,
            Some(RescheduleTracker {
                events: Some(events.into()),
                ..RescheduleTracker::default()
            }),
        );
        alloc.client_status = ClientStatus::Failed;
        alloc.modify_time = i64::MAX;
        // Go: MaxInt64 + MaxInt64 wraps to -2.
        assert_eq!(alloc.next_delay(), -2);
        let (at, _) = alloc.next_reschedule_time(false);
        assert_eq!(at, Time::from_unix_nanos(i64::MAX as i128 - 2));
        // failTime - RescheduleTime wraps in Go: MaxInt64 - MinInt64 = -1 < interval.
        let fail = Time::from_unix_nanos(i64::MAX as i128);
        let policy = alloc.reschedule_policy().unwrap().clone();
        assert_eq!(alloc.reschedule_attempts(&policy, fail), 2);
    }
}
