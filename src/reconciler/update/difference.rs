//! The first difference between two job versions that makes an update
//! destructive, with Nomad's label for it.

/// The first difference `tasksUpdated` found between two job versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Nomad's name for it (`comparison.label`, scheduler/util.go), from
    /// 1.5.2 on, when Nomad names its differences; `None` before, and for
    /// what Nomad does not compare (a group missing from a job version).
    pub label: Option<&'static str>,
    /// What changed, in plan-inspect's words.
    pub reason: String,
}

impl std::ops::Deref for Difference {
    type Target = str;

    fn deref(&self) -> &str {
        &self.reason
    }
}

impl From<&str> for Difference {
    /// A difference Nomad does not name.
    fn from(reason: &str) -> Difference {
        Difference {
            label: None,
            reason: reason.to_string(),
        }
    }
}
