//! An allocation's `ClientStatus` and `DesiredStatus`, and the names Nomad
//! writes for them.

use super::known_names::known_names;

pub const PENDING: &str = "pending";
pub const RUNNING: &str = "running";
pub const COMPLETE: &str = "complete";
pub const FAILED: &str = "failed";
pub const LOST: &str = "lost";
pub const UNKNOWN: &str = "unknown";
pub const RUN: &str = "run";
pub const STOP: &str = "stop";
pub const EVICT: &str = "evict";

known_names! {
    /// What the client last said of an allocation (`AllocClientStatus*`).
    ClientStatus {
        Pending = PENDING,
        Running = RUNNING,
        Complete = COMPLETE,
        Failed = FAILED,
        Lost = LOST,
        /// On a disconnected client (Nomad 1.3 on).
        Unknown = UNKNOWN,
    }
}

known_names! {
    /// What the servers want of an allocation (`AllocDesiredStatus*`).
    DesiredStatus {
        Run = RUN,
        Stop = STOP,
        Evict = EVICT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_defined_value_is_its_variant_and_any_other_is_kept_as_given() {
        assert_eq!(ClientStatus::from("running"), ClientStatus::Running);
        assert_eq!(DesiredStatus::from("evict"), DesiredStatus::Evict);
        let odd = ClientStatus::from("Running");
        assert!(!odd.is_known());
        assert_eq!(odd.to_string(), "Running");
        assert_eq!(format!("{odd:?}"), "\"Running\"");
        assert_eq!(ClientStatus::default().as_str(), "");
        let read: DesiredStatus = serde_json::from_str("\"drain\"").unwrap();
        assert_eq!(serde_json::to_string(&read).unwrap(), "\"drain\"");
    }

    #[test]
    fn a_status_takes_one_word() {
        // Two on every allocation: an undefined value is a number, not a name.
        assert!(size_of::<ClientStatus>() <= size_of::<usize>());
        assert!(size_of::<DesiredStatus>() <= size_of::<usize>());
    }
}
