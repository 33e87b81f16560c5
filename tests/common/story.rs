//! Stories told on a test snapshot, as `--what-if`, `--until` and
//! `--assume-healthy-after` ask for them.

use plan_inspect::replay::Options;
use plan_inspect::servers::story::Ignored;
use plan_inspect::servers::{Request, Story, WhatIfError, run};
use plan_inspect::time::Duration;

use super::Cluster;

/// The story `events` (as `--what-if` gives them) tell until `until`, with
/// allocations healthy `healthy_after` after they start.
pub fn request(
    events: &[impl AsRef<str>],
    until: Option<&str>,
    healthy_after: Option<Duration>,
) -> Request {
    Request {
        events: events.iter().map(|e| e.as_ref().parse().unwrap()).collect(),
        until: until.map(|u| u.parse().unwrap()),
        healthy_after,
    }
}

/// The story `request` tells on `c` as release `version` replays it.
pub fn try_tell(c: &Cluster, version: &str, request: &Request) -> Result<Story, WhatIfError> {
    let options = Options {
        nomad_version: Some(version.parse().unwrap()),
        ..Options::default()
    };
    run(&c.snapshot, &options, request)
}

/// Nomad's refusal of an operator's request with `errors`, as an event
/// records it.
pub fn refused(errors: &[&str]) -> Option<Ignored> {
    Some(Ignored::Refused {
        errors: errors.iter().map(|e| e.to_string()).collect(),
    })
}
