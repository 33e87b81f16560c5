//! `nomad/heartbeat.go`: a node that misses its heartbeat is marked
//! `disconnected` or `down` (`invalidateHeartbeat`, `disconnectState`,
//! v1.3.0 heartbeat.go:135-205; the same rule at every tag since, with the
//! release's reading of a group's disconnect settings through
//! `Allocation.DisconnectTimeout` and `Expired`).

use serde::Serialize;

use crate::model::{DesiredStatus, node_status};
use crate::time::Time;

use super::rules::ServerRules;
use super::world::World;

/// Why the heartbeat's invalidation chose the status it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MissedHeartbeat {
    /// An allocation on the node may disconnect (its group has a lost
    /// timeout), is desired running and has not expired.
    Disconnected,
    /// No allocation on the node may disconnect.
    DownNoDisconnect,
    /// Some may, but none is desired running and unexpired.
    DownNothingPending,
    /// The node was `initializing`: it never disconnects.
    DownWhileInitializing,
}

impl MissedHeartbeat {
    pub fn status(self) -> &'static str {
        match self {
            MissedHeartbeat::Disconnected => node_status::DISCONNECTED,
            _ => node_status::DOWN,
        }
    }
}

/// The status `invalidateHeartbeat` asks `Node.UpdateStatus` for, for the
/// node `node_id` (not down) at `now`.
pub fn invalidate(world: &World, node_id: &str, now: Time, rules: &ServerRules) -> MissedHeartbeat {
    let status = world.node(node_id).map(|n| n.status.as_str());
    if status == Some(node_status::INIT) {
        return MissedHeartbeat::DownWhileInitializing;
    }
    let mut can_disconnect = false;
    for i in world.allocs_on(node_id) {
        let alloc = world.alloc(i);
        let may = alloc.disconnect_timeout(now, rules.fields()) > now;
        can_disconnect |= may;
        if may && alloc.desired_status == DesiredStatus::Run && !alloc.expired(now, rules.fields())
        {
            return MissedHeartbeat::Disconnected;
        }
    }
    if can_disconnect {
        MissedHeartbeat::DownNothingPending
    } else {
        MissedHeartbeat::DownNoDisconnect
    }
}
