//! IDs of what an evaluation creates (follow-up evals, a deployment).

use crate::model::Job;

/// Issues deterministic IDs: a UUID derived from the eval, the job and a
/// sequence number counted across the job's groups, so that an ID depends
/// on everything issued before it in the job.
pub(super) struct Ids<'a> {
    eval_id: &'a str,
    namespace: &'a str,
    job_id: &'a str,
    issued: u64,
}

impl<'a> Ids<'a> {
    pub fn new(eval_id: &'a str, job: Option<&'a Job>, job_id: &'a str) -> Ids<'a> {
        Ids {
            eval_id,
            namespace: job.map_or("", |j| j.namespace.as_str()),
            job_id,
            issued: 0,
        }
    }

    /// The next ID, for something of `kind` within `scope` (a group, or none).
    pub fn issue(&mut self, kind: &str, scope: &str) -> String {
        self.issued += 1;
        let name = format!(
            "plan-inspect/{kind}/{}/{}/{}/{scope}/{}",
            self.eval_id, self.namespace, self.job_id, self.issued
        );
        uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, name.as_bytes()).to_string()
    }
}
