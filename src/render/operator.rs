//! The words the table and the picture share for what the servers made of
//! an operator's request: what a deployment request did, and why an event
//! changed nothing.

use crate::servers::EventKind;
use crate::servers::story::Ignored;

/// What a deployment request Nomad took did; `None` for other events.
pub fn deployment_done(kind: EventKind) -> Option<&'static str> {
    Some(match kind {
        EventKind::DeploymentPromote => "promoted",
        EventKind::DeploymentFail => "deployment failed",
        EventKind::DeploymentPause => "paused",
        EventKind::DeploymentResume => "resumed",
        EventKind::DeploymentUnblock => "unblocked",
        _ => return None,
    })
}

/// Why an event changed nothing.
pub fn ignored(why: &Ignored) -> String {
    match why {
        Ignored::AlreadyDown => "already down: no heartbeat to miss".to_string(),
        Ignored::AlreadyReady => "already ready".to_string(),
        Ignored::UpdateRefused { node_status } => {
            format!("allocation update refused: node is {node_status}")
        }
        Ignored::AfterUntil => "after --until: not applied".to_string(),
        Ignored::EnterpriseOnly => {
            "accepted; nothing written: unblocking is a multiregion step, Nomad Enterprise only"
                .to_string()
        }
        Ignored::Refused { errors } => format!("refused: {}", errors.join("; ")),
    }
}
