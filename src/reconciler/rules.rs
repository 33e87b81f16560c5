//! The Nomad behaviour one replay follows.
//!
//! Nomad's scheduler changed between releases (which bucket an allocation
//! falls into, when it is rescheduled, what is stopped). Every such rule is a
//! method of [`Rules`], read where the reconciler applies it, so that a
//! version profile changes what a method answers, never the code calling it.

use crate::version::Release;

/// The rules of one replay: chosen once, before any job is reconciled, and
/// lent to everything whose behaviour depends on the Nomad version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    release: Release,
    disconnected_clients: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::new(Release::Seed, true)
    }
}

impl Rules {
    /// The rules of `release`, on servers that do or do not all support
    /// disconnected clients.
    pub fn new(release: Release, supports_disconnected_clients: bool) -> Rules {
        Rules {
            release,
            disconnected_clients: supports_disconnected_clients,
        }
    }

    /// The release replayed.
    pub fn release(&self) -> Release {
        self.release
    }

    /// Whether `filterByTainted` looks at disconnect expiry and the
    /// `unknown` client status at all: Nomad asks whether every server is
    /// recent enough (`ServersMeetMinimumVersion` in `generic_sched.go`),
    /// which a snapshot or `--no-disconnected-clients` answers here.
    pub fn supports_disconnected_clients(&self) -> bool {
        self.disconnected_clients
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default is the seed on servers supporting disconnected clients,
    /// as a snapshot that says nothing else is replayed.
    #[test]
    fn default_is_the_seed_with_disconnected_clients() {
        let rules = Rules::default();
        assert_eq!(rules.release(), Release::Seed);
        assert!(rules.supports_disconnected_clients());
        assert!(!Rules::new(Release::Seed, false).supports_disconnected_clients());
    }
}
