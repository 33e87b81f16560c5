//! Which allocations the reader keeps at all.

/// `--job` and `--namespace` applied while reading: allocations of other jobs
/// are scanned (the document must still be valid) but never decoded or kept.
/// Jobs, nodes and deployments are all kept; they are few.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadFilter {
    pub job: Option<String>,
    pub namespace: Option<String>,
}

impl ReadFilter {
    /// Whether nothing is filtered out.
    pub fn is_empty(&self) -> bool {
        self.job.is_none() && self.namespace.is_none()
    }

    /// Whether an allocation of `job` in `namespace` is kept.
    pub fn keeps(&self, namespace: &str, job: &str) -> bool {
        self.job.as_deref().is_none_or(|j| j == job)
            && self.namespace.as_deref().is_none_or(|n| n == namespace)
    }
}
