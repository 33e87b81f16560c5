//! The release's server-side rules: the catalogue rows a server change is,
//! and how the release reads a group's disconnect settings.

use crate::model::{DisconnectFields, Release};
use crate::reconciler::Rules;
use crate::version::{Switch, Switches};

/// What the servers of one release do differently.
#[derive(Clone, Copy, Debug)]
pub struct ServerRules {
    pub release: Release,
    switches: Switches,
    fields: DisconnectFields,
}

impl ServerRules {
    pub fn of(release: Release) -> ServerRules {
        ServerRules {
            release,
            switches: Switches::of(release),
            fields: Rules::new(release, true).disconnect_fields(),
        }
    }

    pub fn has(&self, switch: Switch) -> bool {
        self.switches.has(switch)
    }

    /// How `DisconnectTimeout` and `Expired` read a group's settings.
    pub fn fields(&self) -> DisconnectFields {
        self.fields
    }
}
