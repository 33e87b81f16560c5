//! A story told on a test cluster as a builder: the events, `--until` and
//! `--assume-healthy-after` that differ, then the story at each release
//! asked.

use plan_inspect::servers::{Story, WhatIfError};
use plan_inspect::time::Duration;

use super::{Cluster, request, try_tell};

/// The story of `events` on a cluster.
pub struct Tell<'c> {
    cluster: &'c Cluster,
    events: Vec<String>,
    until: Option<String>,
    healthy_after: Option<Duration>,
}

impl<'c> Tell<'c> {
    /// No event, not followed (no `--until`), allocations healthy at once.
    pub fn on(cluster: &'c Cluster) -> Tell<'c> {
        Tell {
            cluster,
            events: Vec::new(),
            until: None,
            healthy_after: None,
        }
    }

    /// `--what-if event`, after those given before.
    pub fn event(mut self, event: impl Into<String>) -> Tell<'c> {
        self.events.push(event.into());
        self
    }

    /// `--what-if` of each of `events`, after those given before.
    pub fn events(mut self, events: &[String]) -> Tell<'c> {
        self.events.extend_from_slice(events);
        self
    }

    /// `--until until`.
    pub fn until(mut self, until: &str) -> Tell<'c> {
        self.until = Some(until.to_string());
        self
    }

    /// `--assume-healthy-after after`.
    pub fn healthy_after(mut self, after: Duration) -> Tell<'c> {
        self.healthy_after = Some(after);
        self
    }

    /// The story as release `version` replays it; an error fails the test.
    pub fn at(&self, version: &str) -> Story {
        self.told(version)
            .unwrap_or_else(|e| panic!("{version}: {e}"))
    }

    /// The error the story stops with at release `version`; a story told
    /// to its end fails the test.
    pub fn error_at(&self, version: &str) -> WhatIfError {
        match self.told(version) {
            Ok(_) => panic!("{version}: the story was told"),
            Err(e) => e,
        }
    }

    fn told(&self, version: &str) -> Result<Story, WhatIfError> {
        let asked = request(&self.events, self.until.as_deref(), self.healthy_after);
        try_tell(self.cluster, version, &asked)
    }
}
