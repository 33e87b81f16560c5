//! The predicates of `plan_inspect::model::Allocation`, tested as Nomad's
//! nomad/structs/structs_test.go at 8ac3e642e6 tests its `Allocation`; the
//! tests keep Nomad's names (snake case).
//!
//! Nomad's tests read `time.Now()`; here every time is relative to the pinned
//! `common::now()`. Where Nomad's test relies on two `time.Now()` calls being
//! a moment apart, the port uses the same instant and says so.

use std::sync::Arc;

use plan_inspect::model::*;
use plan_inspect::time::{Duration, SECOND, Time};

use crate::common::*;

/// `testJob()` of structs_test.go as far as these predicates read it: group
/// "web", reschedule policy 10 attempts in 5m, constant 5s delay.
fn test_job() -> Job {
    let mut j = mock_job();
    j.task_groups[0].reschedule_policy = Some(ReschedulePolicy {
        attempts: 10,
        interval: 5 * MINUTE,
        delay: 5 * SECOND,
        delay_function: "constant".into(),
        ..ReschedulePolicy::default()
    });
    j
}

/// `structs.MockAlloc()`: a pending allocation of `MockJob()`'s group "web".
fn mock_alloc() -> Allocation {
    let job = mock_job();
    Allocation {
        id: "alloc-mock".into(),
        node_id: "12345678-abcd-efab-cdef-123456789abc".into(),
        namespace: "default".into(),
        task_group: "web".into(),
        job_id: job.id.as_str().into(),
        job: Some(Arc::new(job)),
        desired_status: status::RUN.into(),
        client_status: status::PENDING.into(),
        ..Allocation::default()
    }
}

fn unknown_state(at: Time) -> AllocState {
    AllocState {
        field: "ClientStatus".into(),
        value: status::UNKNOWN.into(),
        time: at,
    }
}

fn reconnect_event_at(at: Time) -> TaskState {
    TaskState {
        events: vec![TaskEvent {
            event_type: TASK_CLIENT_RECONNECTED.into(),
            time: at.unix_nanos_i64(),
        }]
        .into(),
        ..TaskState::default()
    }
}

fn nanos(t: Time) -> i64 {
    t.unix_nanos_i64()
}

/// TestAllocation_Index (nomad/structs/structs_test.go:4190).
#[test]
fn test_allocation_index() {
    let mut job = mock_job();
    job.id = "example".into();
    job.task_groups[0].name = "cache".into();
    let a1 = Allocation {
        name: "example.cache[1]".into(),
        task_group: "cache".into(),
        job_id: "example".into(),
        job: Some(Arc::new(job)),
        ..Allocation::default()
    };
    let mut a2 = a1.clone();
    a2.name = "example.cache[713127]".into();
    assert_eq!(a1.index(), 1);
    assert_eq!(a2.index(), 713127);
}

fn terminated(client: &str, desired: &str) -> bool {
    Allocation {
        client_status: client.into(),
        desired_status: desired.into(),
        ..Allocation::default()
    }
    .client_terminal_status()
}

/// TestAllocation_Terminated, row 1 (nomad/structs/structs_test.go:4585).
#[test]
fn test_allocation_terminated_pending_stop() {
    assert!(!terminated(status::PENDING, status::STOP));
}

/// TestAllocation_Terminated, row 2 (nomad/structs/structs_test.go:4585).
#[test]
fn test_allocation_terminated_running_stop() {
    assert!(!terminated(status::RUNNING, status::STOP));
}

/// TestAllocation_Terminated, row 3 (nomad/structs/structs_test.go:4585).
#[test]
fn test_allocation_terminated_failed_stop() {
    assert!(terminated(status::FAILED, status::STOP));
}

/// TestAllocation_Terminated, row 4 (nomad/structs/structs_test.go:4585).
#[test]
fn test_allocation_terminated_failed_run() {
    assert!(terminated(status::FAILED, status::RUN));
}

fn policy(attempts: i64, interval: Duration, unlimited: bool) -> Option<ReschedulePolicy> {
    Some(ReschedulePolicy {
        attempts,
        interval,
        unlimited,
        ..ReschedulePolicy::default()
    })
}

/// One row: the alloc's tracker holds events at the given offsets from the
/// failure time; an empty list is Go's nil slice.
fn should_reschedule(
    client: &str,
    desired: &str,
    policy: Option<ReschedulePolicy>,
    event_offsets: &[Duration],
) -> bool {
    let fail = now();
    let events: Vec<RescheduleEvent> = event_offsets
        .iter()
        .map(|d| RescheduleEvent {
            reschedule_time: nanos(fail.add(*d)),
            ..RescheduleEvent::default()
        })
        .collect();
    let alloc = Allocation {
        client_status: client.into(),
        desired_status: desired.into(),
        reschedule_tracker: Some(Box::new(RescheduleTracker {
            events: (!events.is_empty()).then_some(events.into()),
            ..RescheduleTracker::default()
        })),
        ..Allocation::default()
    };
    alloc.should_reschedule(policy.as_ref(), fail)
}

/// TestAllocation_ShouldReschedule, "Reschedule when desired state is stop"
/// (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_when_desired_state_is_stop() {
    assert!(!should_reschedule(status::PENDING, status::STOP, None, &[]));
}

/// TestAllocation_ShouldReschedule, "Disabled rescheduling"
/// (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_disabled_rescheduling() {
    assert!(!should_reschedule(
        status::FAILED,
        status::RUN,
        policy(0, MINUTE, false),
        &[]
    ));
}

/// TestAllocation_ShouldReschedule, "Reschedule when client status is
/// complete" (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_when_client_status_is_complete() {
    assert!(!should_reschedule(status::COMPLETE, status::RUN, None, &[]));
}

/// TestAllocation_ShouldReschedule, "Reschedule with nil reschedule policy"
/// (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_with_nil_reschedule_policy() {
    assert!(!should_reschedule(status::FAILED, status::RUN, None, &[]));
}

/// TestAllocation_ShouldReschedule, "Reschedule with unlimited and attempts >0"
/// (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_with_unlimited_and_attempts_gt_0() {
    assert!(should_reschedule(
        status::FAILED,
        status::RUN,
        policy(1, 0, true),
        &[]
    ));
}

/// TestAllocation_ShouldReschedule, "Reschedule when client status is
/// complete", the table's second row of that name
/// (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_when_client_status_is_complete_2() {
    assert!(!should_reschedule(status::COMPLETE, status::RUN, None, &[]));
}

/// TestAllocation_ShouldReschedule, "Reschedule with policy when client status
/// complete" (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_with_policy_when_client_status_complete() {
    assert!(!should_reschedule(
        status::COMPLETE,
        status::RUN,
        policy(1, MINUTE, false),
        &[]
    ));
}

/// TestAllocation_ShouldReschedule, "Reschedule with no previous attempts"
/// (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_with_no_previous_attempts() {
    assert!(should_reschedule(
        status::FAILED,
        status::RUN,
        policy(1, MINUTE, false),
        &[]
    ));
}

/// TestAllocation_ShouldReschedule, "Reschedule with leftover attempts"
/// (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_with_leftover_attempts() {
    assert!(should_reschedule(
        status::FAILED,
        status::RUN,
        policy(2, 5 * MINUTE, false),
        &[-MINUTE]
    ));
}

/// TestAllocation_ShouldReschedule, "Reschedule with too old previous
/// attempts" (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_with_too_old_previous_attempts() {
    assert!(should_reschedule(
        status::FAILED,
        status::RUN,
        policy(1, 5 * MINUTE, false),
        &[-6 * MINUTE]
    ));
}

/// TestAllocation_ShouldReschedule, "Reschedule with no leftover attempts"
/// (nomad/structs/structs_test.go:4625).
#[test]
fn test_allocation_should_reschedule_reschedule_with_no_leftover_attempts() {
    assert!(!should_reschedule(
        status::FAILED,
        status::RUN,
        policy(2, 5 * MINUTE, false),
        &[-3 * MINUTE, -4 * MINUTE]
    ));
}

/// An allocation modified at `now()` with the given task states
/// (name, finished-at); `Time::ZERO` is an unset `FinishedAt`.
fn last_event_time(states: Option<Vec<(&str, Time, Vec<TaskEvent>)>>) -> Time {
    let t1 = now();
    let mut alloc = Allocation {
        modify_time: nanos(t1),
        ..Allocation::default()
    };
    for (name, finished_at, events) in states.unwrap_or_default() {
        alloc.task_states.insert(
            name.into(),
            TaskState {
                state: "start".into(),
                finished_at,
                events: events.into(),
                ..TaskState::default()
            },
        );
    }
    alloc.last_event_time()
}

/// TestAllocation_LastEventTime, "nil task state"
/// (nomad/structs/structs_test.go:4762).
#[test]
fn test_allocation_last_event_time_nil_task_state() {
    assert_eq!(last_event_time(None), now());
}

/// TestAllocation_LastEventTime, "empty task state"
/// (nomad/structs/structs_test.go:4762).
#[test]
fn test_allocation_last_event_time_empty_task_state() {
    assert_eq!(last_event_time(Some(vec![])), now());
}

/// TestAllocation_LastEventTime, "Finished At not set"
/// (nomad/structs/structs_test.go:4762).
#[test]
fn test_allocation_last_event_time_finished_at_not_set() {
    assert_eq!(
        last_event_time(Some(vec![("foo", Time::ZERO, vec![])])),
        now()
    );
}

/// TestAllocation_LastEventTime, "One finished "
/// (nomad/structs/structs_test.go:4762).
#[test]
fn test_allocation_last_event_time_one_finished() {
    assert_eq!(
        last_event_time(Some(vec![("foo", now().add(-HOUR), vec![])])),
        now().add(-HOUR)
    );
}

/// TestAllocation_LastEventTime, "Multiple task groups"
/// (nomad/structs/structs_test.go:4762).
#[test]
fn test_allocation_last_event_time_multiple_task_groups() {
    assert_eq!(
        last_event_time(Some(vec![
            ("foo", now().add(-HOUR), vec![]),
            ("bar", now().add(-40 * MINUTE), vec![]),
        ])),
        now().add(-40 * MINUTE)
    );
}

/// TestAllocation_LastEventTime, "No finishedAt set, one task event, should
/// use modify time" (nomad/structs/structs_test.go:4762).
#[test]
fn test_allocation_last_event_time_no_finished_at_set_one_task_event_should_use_modify_time() {
    let event = TaskEvent {
        event_type: "start".into(),
        time: nanos(now().add(-20 * MINUTE)),
    };
    assert_eq!(
        last_event_time(Some(vec![("foo", Time::ZERO, vec![event])])),
        now()
    );
}

fn delay_policy(function: &str, delay: Duration, max_delay: Duration) -> ReschedulePolicy {
    ReschedulePolicy {
        delay_function: function.into(),
        delay: delay * SECOND,
        max_delay: max_delay * SECOND,
        unlimited: true,
        ..ReschedulePolicy::default()
    }
}

/// A failed allocation whose task "foo" finished at `finished`.
fn failed_at(finished: Time) -> Allocation {
    let mut a = Allocation {
        client_status: status::FAILED.into(),
        ..Allocation::default()
    };
    a.task_states.insert("foo".into(), finished_state(finished));
    a
}

/// Reschedule events (offset from now, delay in seconds).
fn tracked(mut a: Allocation, events: &[(Duration, Duration)]) -> Allocation {
    a.reschedule_tracker = Some(Box::new(RescheduleTracker {
        events: Some(
            events
                .iter()
                .map(|(at, delay)| RescheduleEvent {
                    reschedule_time: nanos(now().add(*at)),
                    delay: delay * SECOND,
                    ..RescheduleEvent::default()
                })
                .collect(),
        ),
        ..RescheduleTracker::default()
    }));
    a
}

fn next_reschedule_time(policy: Option<ReschedulePolicy>, mut alloc: Allocation) -> (Time, bool) {
    let mut j = test_job();
    if let Some(p) = policy {
        j.task_groups[0].reschedule_policy = Some(p);
    }
    alloc.task_group = j.task_groups[0].name.as_str().into();
    alloc.job = Some(Arc::new(j));
    alloc.next_reschedule_time(false)
}

/// TestAllocation_NextDelay, "Allocation hasn't failed yet"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_allocation_hasnt_failed_yet() {
    let mut p = delay_policy("constant", 5, 0);
    p.unlimited = false;
    assert_eq!(
        next_reschedule_time(Some(p), Allocation::default()),
        (Time::ZERO, false)
    );
}

/// TestAllocation_NextDelay, "Allocation has no reschedule policy"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_allocation_has_no_reschedule_policy() {
    assert_eq!(
        next_reschedule_time(None, Allocation::default()),
        (Time::ZERO, false)
    );
}

/// TestAllocation_NextDelay, "Allocation lacks task state"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_allocation_lacks_task_state() {
    let alloc = Allocation {
        client_status: status::FAILED.into(),
        modify_time: nanos(now()),
        ..Allocation::default()
    };
    assert_eq!(
        next_reschedule_time(Some(delay_policy("constant", 5, 0)), alloc),
        (now().add(5 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "linear delay, unlimited restarts, no reschedule
/// tracker" (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_linear_delay_unlimited_restarts_no_reschedule_tracker() {
    let mut alloc = failed_at(now().add(-2 * SECOND));
    alloc.task_states.get_mut("foo").unwrap().state = "dead".into();
    assert_eq!(
        next_reschedule_time(Some(delay_policy("constant", 5, 0)), alloc),
        (now().add(-2 * SECOND).add(5 * SECOND), true)
    );
}

fn linear_limited() -> ReschedulePolicy {
    ReschedulePolicy {
        delay_function: "constant".into(),
        delay: 5 * SECOND,
        interval: 10 * MINUTE,
        attempts: 2,
        ..ReschedulePolicy::default()
    }
}

/// TestAllocation_NextDelay, "linear delay with reschedule tracker"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_linear_delay_with_reschedule_tracker() {
    let alloc = tracked(failed_at(now().add(-2 * SECOND)), &[(-2 * MINUTE, 5)]);
    assert_eq!(
        next_reschedule_time(Some(linear_limited()), alloc),
        (now().add(-2 * SECOND).add(5 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "linear delay with reschedule tracker, attempts
/// exhausted" (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_linear_delay_with_reschedule_tracker_attempts_exhausted() {
    let alloc = tracked(
        failed_at(now().add(-2 * SECOND)),
        &[(-3 * MINUTE, 5), (-2 * MINUTE, 5)],
    );
    assert_eq!(
        next_reschedule_time(Some(linear_limited()), alloc),
        (now().add(-2 * SECOND).add(5 * SECOND), false)
    );
}

/// TestAllocation_NextDelay, "exponential delay - no reschedule tracker"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_exponential_delay_no_reschedule_tracker() {
    let alloc = failed_at(now().add(-2 * SECOND));
    assert_eq!(
        next_reschedule_time(Some(delay_policy("exponential", 5, 90)), alloc),
        (now().add(-2 * SECOND).add(5 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "exponential delay with reschedule tracker"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_exponential_delay_with_reschedule_tracker() {
    let alloc = tracked(
        failed_at(now().add(-2 * SECOND)),
        &[(-2 * HOUR, 5), (-HOUR, 10), (-HOUR, 20)],
    );
    assert_eq!(
        next_reschedule_time(Some(delay_policy("exponential", 5, 90)), alloc),
        (now().add(-2 * SECOND).add(40 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "exponential delay with delay ceiling reached"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_exponential_delay_with_delay_ceiling_reached() {
    let alloc = tracked(
        failed_at(now().add(-15 * SECOND)),
        &[
            (-2 * HOUR, 5),
            (-HOUR, 10),
            (-HOUR, 20),
            (-HOUR, 40),
            (-40 * SECOND, 80),
        ],
    );
    assert_eq!(
        next_reschedule_time(Some(delay_policy("exponential", 5, 90)), alloc),
        (now().add(-15 * SECOND).add(90 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "exponential delay, delay ceiling reset condition
/// met" (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_exponential_delay_delay_ceiling_reset_condition_met() {
    let alloc = tracked(
        failed_at(now().add(-15 * MINUTE)),
        &[
            (-2 * HOUR, 5),
            (-HOUR, 10),
            (-HOUR, 20),
            (-HOUR, 40),
            (-HOUR, 80),
            (-HOUR, 90),
            (-HOUR, 90),
        ],
    );
    assert_eq!(
        next_reschedule_time(Some(delay_policy("exponential", 5, 90)), alloc),
        (now().add(-15 * MINUTE).add(5 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "fibonacci delay - no reschedule tracker"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_fibonacci_delay_no_reschedule_tracker() {
    let alloc = failed_at(now().add(-2 * SECOND));
    assert_eq!(
        next_reschedule_time(Some(delay_policy("fibonacci", 5, 90)), alloc),
        (now().add(-2 * SECOND).add(5 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "fibonacci delay with reschedule tracker"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_fibonacci_delay_with_reschedule_tracker() {
    let alloc = tracked(
        failed_at(now().add(-2 * SECOND)),
        &[(-2 * HOUR, 5), (-5 * SECOND, 5)],
    );
    assert_eq!(
        next_reschedule_time(Some(delay_policy("fibonacci", 5, 90)), alloc),
        (now().add(-2 * SECOND).add(10 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "fibonacci delay with more events"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_fibonacci_delay_with_more_events() {
    let alloc = tracked(
        failed_at(now().add(-2 * SECOND)),
        &[
            (-2 * HOUR, 5),
            (-HOUR, 5),
            (-HOUR, 10),
            (-HOUR, 15),
            (-HOUR, 25),
        ],
    );
    assert_eq!(
        next_reschedule_time(Some(delay_policy("fibonacci", 5, 90)), alloc),
        (now().add(-2 * SECOND).add(40 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "fibonacci delay with delay ceiling reached"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_fibonacci_delay_with_delay_ceiling_reached() {
    let alloc = tracked(
        failed_at(now().add(-15 * SECOND)),
        &[
            (-2 * HOUR, 5),
            (-HOUR, 5),
            (-HOUR, 10),
            (-HOUR, 15),
            (-HOUR, 25),
            (-40 * SECOND, 40),
        ],
    );
    assert_eq!(
        next_reschedule_time(Some(delay_policy("fibonacci", 5, 50)), alloc),
        (now().add(-15 * SECOND).add(50 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "fibonacci delay with delay reset condition met"
/// (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_fibonacci_delay_with_delay_reset_condition_met() {
    let alloc = tracked(
        failed_at(now().add(-5 * MINUTE)),
        &[
            (-2 * HOUR, 5),
            (-HOUR, 5),
            (-HOUR, 10),
            (-HOUR, 15),
            (-HOUR, 25),
            (-HOUR, 40),
        ],
    );
    assert_eq!(
        next_reschedule_time(Some(delay_policy("fibonacci", 5, 50)), alloc),
        (now().add(-5 * MINUTE).add(5 * SECOND), true)
    );
}

/// TestAllocation_NextDelay, "fibonacci delay with the most recent event that
/// reset delay value" (nomad/structs/structs_test.go:4825).
#[test]
fn test_allocation_next_delay_fibonacci_delay_with_the_most_recent_event_that_reset_delay_value() {
    let alloc = tracked(
        failed_at(now().add(-5 * SECOND)),
        &[
            (-2 * HOUR, 5),
            (-HOUR, 5),
            (-HOUR, 10),
            (-HOUR, 15),
            (-HOUR, 25),
            (-HOUR, 40),
            (-HOUR, 50),
            (-MINUTE, 5),
        ],
    );
    assert_eq!(
        next_reschedule_time(Some(delay_policy("fibonacci", 5, 50)), alloc),
        (now().add(-5 * SECOND).add(5 * SECOND), true)
    );
}

/// Nomad stamps the lost transition with `time.Now()`; here it is `now()`,
/// and `WaitClientStop`'s own clock is the evaluation time `now()` too.
fn wait_client_stop_case(stop: Duration, client: &str, should: bool) {
    let mut j = test_job();
    j.task_groups[0].stop_after_client_disconnect = Some(stop);
    let mut a = Allocation {
        client_status: client.into(),
        task_group: j.task_groups[0].name.as_str().into(),
        job: Some(Arc::new(j)),
        ..Allocation::default()
    };
    if client == status::LOST {
        a.alloc_states.push(AllocState {
            field: "ClientStatus".into(),
            value: status::LOST.into(),
            time: now(),
        });
    }
    assert_eq!(a.should_client_stop(DisconnectFields::Legacy), should);
    if !should || client != status::LOST {
        return;
    }
    // stop_after_client_disconnect plus the default 5s kill timeout.
    assert_eq!(
        a.wait_client_stop(now(), DisconnectFields::Legacy),
        now().add(stop + 5 * SECOND)
    );
}

/// TestAllocation_WaitClientStop, "running" (nomad/structs/structs_test.go:5309).
#[test]
fn test_allocation_wait_client_stop_running() {
    wait_client_stop_case(2 * SECOND, status::RUNNING, true);
}

/// TestAllocation_WaitClientStop, "no stop_after_client_disconnect"
/// (nomad/structs/structs_test.go:5309).
#[test]
fn test_allocation_wait_client_stop_no_stop_after_client_disconnect() {
    wait_client_stop_case(0, status::LOST, false);
}

/// TestAllocation_WaitClientStop, "stop" (nomad/structs/structs_test.go:5309).
#[test]
fn test_allocation_wait_client_stop_stop() {
    wait_client_stop_case(2 * SECOND, status::LOST, true);
}

fn disconnect_timeout(max: Option<Duration>) -> Duration {
    let mut j = test_job();
    j.task_groups[0].max_client_disconnect = max;
    let a = Allocation {
        task_group: j.task_groups[0].name.as_str().into(),
        job: Some(Arc::new(j)),
        ..Allocation::default()
    };
    a.disconnect_timeout(now(), DisconnectFields::Legacy)
        .sub(now())
}

/// TestAllocation_DisconnectTimeout, "no max_client_disconnect"
/// (nomad/structs/structs_test.go:5369).
#[test]
fn test_allocation_disconnect_timeout_no_max_client_disconnect() {
    assert_eq!(disconnect_timeout(None), 0);
}

/// TestAllocation_DisconnectTimeout, "has max_client_disconnect"
/// (nomad/structs/structs_test.go:5369).
#[test]
fn test_allocation_disconnect_timeout_has_max_client_disconnect() {
    assert_eq!(disconnect_timeout(Some(30 * SECOND)), 30 * SECOND);
}

/// TestAllocation_DisconnectTimeout, "zero max_client_disconnect"
/// (nomad/structs/structs_test.go:5369).
#[test]
fn test_allocation_disconnect_timeout_zero_max_client_disconnect() {
    assert_eq!(disconnect_timeout(Some(0)), 0);
}

#[derive(Default)]
struct DiscoCase {
    max_disconnect: Option<Duration>,
    elapsed: Duration,
    nil_job: bool,
    bad_task_group: bool,
    no_reconnect_event: bool,
    status: Option<&'static str>,
}

/// The allocation of both tables: `MockAlloc()`, unknown since `now()`
/// (Nomad: `time.Now()`, a moment before the test's own `now`).
fn disco_alloc(tc: &DiscoCase, reconnect_at: Time) -> Allocation {
    let mut alloc = mock_alloc();
    if let Some(max) = tc.max_disconnect {
        let mut job = (**alloc.job.as_ref().unwrap()).clone();
        job.task_groups[0].max_client_disconnect = Some(max);
        alloc.job = Some(Arc::new(job));
    }
    if tc.nil_job {
        alloc.job = None;
    }
    if tc.bad_task_group {
        alloc.task_group = "bad".into();
    }
    alloc.client_status = tc.status.unwrap_or(status::UNKNOWN).into();
    alloc.alloc_states = vec![unknown_state(now())].into();
    if !tc.no_reconnect_event {
        alloc
            .task_states
            .insert("web".into(), reconnect_event_at(reconnect_at));
    }
    alloc
}

/// `Expired` at `now() + elapsed`; the reconnect event is at `now()`.
fn expired(tc: DiscoCase) -> bool {
    disco_alloc(&tc, now()).expired(now().add(tc.elapsed), DisconnectFields::Legacy)
}

/// `Reconnected` with the reconnect event at `now() + elapsed`, as Nomad's
/// pair (reconnected, expired).
fn reconnected(tc: DiscoCase) -> (bool, bool) {
    let r = disco_alloc(&tc, now().add(tc.elapsed)).reconnected(DisconnectFields::Legacy);
    (r != Reconnection::None, r == Reconnection::AfterExpiry)
}

fn five_s() -> Option<Duration> {
    Some(5 * SECOND)
}

/// TestAllocation_Expired, "has-expired" (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_has_expired() {
    assert!(expired(DiscoCase {
        max_disconnect: five_s(),
        elapsed: 10 * SECOND,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "has-not-expired" (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_has_not_expired() {
    assert!(!expired(DiscoCase {
        max_disconnect: five_s(),
        elapsed: 3 * SECOND,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "are-equal" (nomad/structs/structs_test.go:5414).
/// Here the instants are exactly equal, which Nomad counts as expired.
#[test]
fn test_allocation_expired_are_equal() {
    assert!(expired(DiscoCase {
        max_disconnect: five_s(),
        elapsed: 5 * SECOND,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "nil-job" (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_nil_job() {
    assert!(!expired(DiscoCase {
        max_disconnect: five_s(),
        elapsed: 10 * SECOND,
        nil_job: true,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "wrong-status" (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_wrong_status() {
    assert!(!expired(DiscoCase {
        max_disconnect: five_s(),
        elapsed: 10 * SECOND,
        status: Some(status::RUNNING),
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "bad-task-group" (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_bad_task_group() {
    assert!(!expired(DiscoCase {
        bad_task_group: true,
        elapsed: 10 * SECOND,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "no-max-disconnect" (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_no_max_disconnect() {
    assert!(!expired(DiscoCase {
        elapsed: 10 * SECOND,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "mixed-utc-has-expired"
/// (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_mixed_utc_has_expired() {
    assert!(expired(DiscoCase {
        max_disconnect: five_s(),
        elapsed: 10 * SECOND,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "mixed-utc-has-not-expired"
/// (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_mixed_utc_has_not_expired() {
    assert!(!expired(DiscoCase {
        max_disconnect: five_s(),
        elapsed: 3 * SECOND,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Expired, "no-reconnect-event" (nomad/structs/structs_test.go:5414).
#[test]
fn test_allocation_expired_no_reconnect_event() {
    assert!(!expired(DiscoCase {
        max_disconnect: five_s(),
        elapsed: 2 * SECOND,
        no_reconnect_event: true,
        ..DiscoCase::default()
    }));
}

/// TestAllocation_Reconnected, "has-expired" (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_has_expired() {
    let tc = DiscoCase {
        max_disconnect: five_s(),
        elapsed: 10 * SECOND,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (true, true));
}

/// TestAllocation_Reconnected, "has-not-expired" (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_has_not_expired() {
    let tc = DiscoCase {
        max_disconnect: five_s(),
        elapsed: 3 * SECOND,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (true, false));
}

/// TestAllocation_Reconnected, "are-equal" (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_are_equal() {
    let tc = DiscoCase {
        max_disconnect: five_s(),
        elapsed: 5 * SECOND,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (true, true));
}

/// TestAllocation_Reconnected, "nil-job" (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_nil_job() {
    let tc = DiscoCase {
        max_disconnect: five_s(),
        elapsed: 10 * SECOND,
        nil_job: true,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (true, false));
}

/// TestAllocation_Reconnected, "bad-task-group" (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_bad_task_group() {
    let tc = DiscoCase {
        elapsed: 10 * SECOND,
        bad_task_group: true,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (true, false));
}

/// TestAllocation_Reconnected, "no-max-disconnect" (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_no_max_disconnect() {
    let tc = DiscoCase {
        elapsed: 10 * SECOND,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (true, false));
}

/// TestAllocation_Reconnected, "mixed-utc-has-expired"
/// (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_mixed_utc_has_expired() {
    let tc = DiscoCase {
        max_disconnect: five_s(),
        elapsed: 10 * SECOND,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (true, true));
}

/// TestAllocation_Reconnected, "mixed-utc-has-not-expired"
/// (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_mixed_utc_has_not_expired() {
    let tc = DiscoCase {
        max_disconnect: five_s(),
        elapsed: 3 * SECOND,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (true, false));
}

/// TestAllocation_Reconnected, "no-reconnect-event"
/// (nomad/structs/structs_test.go:5551).
#[test]
fn test_allocation_reconnected_no_reconnect_event() {
    let tc = DiscoCase {
        max_disconnect: five_s(),
        elapsed: 2 * SECOND,
        no_reconnect_event: true,
        ..DiscoCase::default()
    };
    assert_eq!(reconnected(tc), (false, false));
}
