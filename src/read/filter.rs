//! Which allocations the reader keeps at all.

/// `--job` and `--namespace` applied while reading: allocations of other jobs
/// are scanned (the document must still be valid) but never decoded or kept.
/// Jobs, nodes and deployments are all kept; they are few.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadFilter {
    pub job: Option<String>,
    pub namespace: Option<String>,
    /// `(namespace, job ID)` of the one job in `Jobs` whose JSON text is
    /// kept whole ([`crate::model::Snapshot::planned_job_text`]): a job plan
    /// diffs every field of it, which the model does not hold.
    pub keep_job_text: Option<(String, String)>,
}

impl ReadFilter {
    /// Whether nothing is filtered out.
    pub fn is_empty(&self) -> bool {
        self.job.is_none() && self.namespace.is_none()
    }

    /// Whether the text of job `id` in `namespace` is kept whole.
    pub fn keeps_text(&self, namespace: &str, id: &str) -> bool {
        self.keep_job_text
            .as_ref()
            .is_some_and(|(ns, job)| ns == namespace && job == id)
    }

    /// Whether an allocation of `job` in `namespace` is kept.
    pub fn keeps(&self, namespace: &str, job: &str) -> bool {
        self.job.as_deref().is_none_or(|j| j == job)
            && self.namespace.as_deref().is_none_or(|n| n == namespace)
    }
}
