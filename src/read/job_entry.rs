//! An entry of `Jobs` or `JobVersions` read as text in two steps: prepared
//! (looked up among the job texts and parsed unless known) apart from the
//! walk's state, so that threads can prepare several at once, then settled
//! into the state in order.

use std::sync::Arc;

use serde::de;

use super::ReadFilter;
use super::job_texts::{Found, JobTexts, Prepared};
use crate::model::{self, Job};

/// A `JobVersions` entry, prepared.
pub(super) enum VersionEntry {
    /// Not an object (`null`): read as one, never shared.
    Plain(Box<Job>),
    Text(Prepared),
}

impl VersionEntry {
    /// The entry `text`, one JSON value, with what the job texts know of it
    /// (`find`): an embedded job text or a variant of one shares that job.
    pub(super) fn prepare(
        text: &[u8],
        find: impl FnOnce(&[u8]) -> Found,
    ) -> Result<VersionEntry, serde_json::Error> {
        if !text.starts_with(b"{") {
            return Ok(VersionEntry::Plain(Box::new(model::from_slice(text)?)));
        }
        find(text)
            .prepare(text)
            .map(VersionEntry::Text)
            .map_err(|_| job_error(text))
    }

    /// The entry's job, its text added to `texts`.
    pub(super) fn settle(self, texts: &mut JobTexts) -> Arc<Job> {
        match self {
            VersionEntry::Plain(job) => Arc::new(*job),
            VersionEntry::Text(prepared) => texts.settle(prepared).1,
        }
    }
}

/// A `Jobs` entry, prepared: the job of record, and its text when the
/// filter keeps it for a job plan.
pub(super) struct JobEntry {
    pub(super) job: Arc<Job>,
    pub(super) text: Option<String>,
}

impl JobEntry {
    /// The entry `text`, one JSON value: one whose text is exactly one kept
    /// before (most often its latest entry in `JobVersions`) shares that
    /// job. A variant does not: the job of record's own `ModifyIndex` is
    /// read. The text is kept only if `filter` keeps it.
    pub(super) fn prepare(
        texts: &JobTexts,
        filter: &ReadFilter,
        text: &[u8],
    ) -> Result<JobEntry, serde_json::Error> {
        let shared = texts.find_exact(text).and_then(|entry| texts.job(entry));
        let job = match shared {
            Some(job) => job,
            None => match model::from_slice_shared::<Job>(text) {
                Ok(job) => Arc::new(job),
                Err(_) => Arc::new(model::from_slice::<Job>(text)?),
            },
        };
        let text = filter
            .keeps_text(&job.namespace, &job.id)
            .then(|| String::from_utf8_lossy(text).into_owned());
        Ok(JobEntry { job, text })
    }
}

/// Why the job text `text`, which did not parse into a job, does not, with
/// the line and column in it (the reason kept with its path has neither).
fn job_error(text: &[u8]) -> serde_json::Error {
    model::from_slice::<Job>(text)
        .err()
        .unwrap_or_else(|| de::Error::custom("not a job"))
}
