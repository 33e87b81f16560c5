//! `ReschedulePolicy.Validate` (nomad/structs/structs.go; v1.3.0 and
//! v2.0.5 alike, v2.0.5 :6647-6785): a policy with attempts or unlimited
//! has an interval, delays and a delay function that can make its attempts
//! within the interval.

use serde_json::{Map, Value};

use super::json_map::text;
use crate::model::go_quote;
use crate::time::format_duration as go_duration;

const SECOND: i64 = 1_000_000_000;
/// `ReschedulePolicyMinDelay` and `ReschedulePolicyMinInterval`.
const MIN_DELAY: i64 = 5 * SECOND;
const MIN_INTERVAL: i64 = 15 * SECOND;

/// The policy's errors in Nomad's order; none for a disabled policy.
pub(crate) fn reschedule_errors(r: &Map<String, Value>) -> Vec<String> {
    let p = Policy::of(r);
    let mut errs = Vec::new();
    if !(p.attempts > 0 || p.unlimited) {
        return errs;
    }
    if p.attempts > 0 {
        if p.interval <= 0 {
            errs.push("Interval must be a non zero value if Attempts > 0".to_string());
        }
        if p.unlimited {
            errs.push(format!(
                "Reschedule Policy with Attempts = {}, Interval = {}, and Unlimited = true is ambiguous",
                p.attempts,
                go_duration(p.interval)
            ));
            errs.push("If Attempts >0, Unlimited cannot also be set to true".into());
        }
    }
    let mut delays_ok = true;
    if p.delay < MIN_DELAY {
        errs.push(format!(
            "Delay cannot be less than 5s (got {})",
            go_duration(p.delay)
        ));
        delays_ok = false;
    }
    if !matches!(
        p.function.as_str(),
        "constant" | "exponential" | "fibonacci"
    ) {
        errs.push(format!(
            "Invalid delay function {}, must be one of [\"constant\" \"exponential\" \"fibonacci\"]",
            go_quote(&p.function)
        ));
        delays_ok = false;
    }
    if p.function != "constant" {
        // Nomad prints the delay where it means the ceiling.
        if p.max_delay < MIN_DELAY {
            errs.push(format!(
                "Max Delay cannot be less than 5s (got {})",
                go_duration(p.delay)
            ));
            delays_ok = false;
        }
        if p.max_delay < p.delay {
            errs.push(format!(
                "Max Delay cannot be less than Delay {} (got {})",
                go_duration(p.delay),
                go_duration(p.max_delay)
            ));
            delays_ok = false;
        }
    }
    if !p.unlimited {
        if p.interval < MIN_INTERVAL {
            errs.push(format!(
                "Interval cannot be less than 15s (got {})",
                go_duration(p.interval)
            ));
        }
        if delays_ok {
            errs.extend(p.delay_errors());
        }
    }
    errs
}

struct Policy {
    attempts: i64,
    interval: i64,
    delay: i64,
    max_delay: i64,
    function: String,
    unlimited: bool,
}

impl Policy {
    fn of(r: &Map<String, Value>) -> Policy {
        let int = |k: &str| r.get(k).and_then(Value::as_i64).unwrap_or(0);
        Policy {
            attempts: int("Attempts"),
            interval: int("Interval"),
            delay: int("Delay"),
            max_delay: int("MaxDelay"),
            function: text(r, "DelayFunction"),
            unlimited: r.get("Unlimited").and_then(Value::as_bool) == Some(true),
        }
    }

    /// `validateDelayParams`: the attempts the interval allows and the
    /// interval the attempts need, when they fall short.
    fn delay_errors(&self) -> Vec<String> {
        let Some((possible, recommended)) = self.shortfall() else {
            return Vec::new();
        };
        let (interval, delay) = (go_duration(self.interval), go_duration(self.delay));
        let first = if self.function == "constant" {
            format!(
                "Nomad can only make {possible} attempts in {interval} with initial delay {delay} and delay function \"constant\""
            )
        } else {
            format!(
                "Nomad can only make {possible} attempts in {interval} with initial delay {delay}, delay function {}, and delay ceiling {}",
                go_quote(&self.function),
                go_duration(self.max_delay)
            )
        };
        vec![
            first,
            format!(
                "Set the interval to at least {} to accommodate {} attempts",
                go_duration(round_to_second(recommended)),
                self.attempts
            ),
        ]
    }

    /// `viableAttempts` when not viable: the possible attempts and the
    /// recommended interval, with Go's wrapping arithmetic and the
    /// exponential case's habit of keeping only the last uncapped delay.
    fn shortfall(&self) -> Option<(i64, i64)> {
        let mut possible = 0;
        let recommended;
        let mut valid = true;
        match self.function.as_str() {
            "constant" => {
                recommended = self.attempts.wrapping_mul(self.delay);
                if self.interval < recommended {
                    possible = self.interval / self.delay;
                    valid = false;
                }
            }
            "exponential" => {
                let mut sum = 0i64;
                for i in 0..self.attempts {
                    let factor = if i < 63 { 1i64 << i } else { i64::MIN };
                    let next = factor.wrapping_mul(self.delay);
                    if next > self.max_delay {
                        sum = sum.wrapping_add(self.max_delay);
                    } else {
                        sum = next;
                    }
                    if sum < self.interval {
                        possible += 1;
                    }
                }
                recommended = sum;
                valid = possible >= self.attempts;
            }
            _ => {
                // The Fibonacci slots, kept as the last two and the first
                // that passes the interval.
                let (mut before, mut last) = (self.delay, self.delay);
                let mut over = (self.delay > self.interval).then_some(0);
                let mut capped = false;
                for i in 2..self.attempts {
                    let next = if capped {
                        last.wrapping_add(self.max_delay)
                    } else {
                        let n = last.wrapping_add(before);
                        capped = n > self.max_delay;
                        if capped { self.max_delay } else { n }
                    };
                    if over.is_none() && next > self.interval {
                        over = Some(i);
                    }
                    (before, last) = (last, next);
                }
                recommended = last;
                if self.interval < recommended {
                    valid = false;
                    possible = over.unwrap_or(0);
                }
            }
        }
        (!valid).then_some((possible.max(0), recommended))
    }
}

/// Go's `Duration.Round(time.Second)`: halves away from zero.
fn round_to_second(d: i64) -> i64 {
    let r = d % SECOND;
    if d < 0 {
        let r = -r;
        if r + r < SECOND {
            d + r
        } else {
            d + r - SECOND
        }
    } else if r + r < SECOND {
        d - r
    } else {
        d - r + SECOND
    }
}
