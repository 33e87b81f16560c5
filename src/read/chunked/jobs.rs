//! `Jobs` and `JobVersions` on several threads ([`super::batches`]): a
//! cluster of many small jobs keeps tens of thousands of versions, each
//! looked up among the embedded job texts and parsed when new.

use std::sync::{Arc, PoisonError, RwLock};

use super::batches::{Batched, JOBS_IN_FLIGHT};
use super::{Chunked, Step};
use crate::read::document::State;
use crate::read::job_entry::{JobEntry, VersionEntry};

impl Chunked<'_> {
    /// The jobs of record, added to `st`; false for `null`.
    pub(super) fn jobs(&mut self, key: &str, st: &mut State<'_>) -> Step<bool> {
        let Some(pool) = self.pool() else {
            return self.each_text(key, |text| st.add_job_text(text));
        };
        let interner = Arc::clone(&st.interner);
        // Set aside while the threads read them: the state takes the jobs.
        let (texts, filter) = (std::mem::take(&mut st.job_texts), st.filter.clone());
        let how = Batched {
            in_flight: JOBS_IN_FLIGHT,
            prepare: &|text: &[u8]| JobEntry::prepare(&texts, &filter, text),
            settle: |entry: Result<JobEntry, serde_json::Error>| st.settle_job(entry?),
            // The cut reads an element as one thread does: its error is that one's.
            check: |_: &mut Self, _: &dyn Fn() -> String| Ok(()),
        };
        let read = self.in_batches(key, &pool, &interner, how);
        st.job_texts = texts;
        read
    }

    /// The job versions, added to `st`; false for `null`. A version's text
    /// is looked up on the thread that prepares it, and added to the job
    /// texts in order: the threads take the texts' lock to look up, the
    /// walk to add.
    pub(super) fn job_versions(&mut self, key: &str, st: &mut State<'_>) -> Step<bool> {
        let Some(pool) = self.pool() else {
            return self.each_text(key, |text| st.add_job_version_text(text));
        };
        let interner = Arc::clone(&st.interner);
        let texts = RwLock::new(std::mem::take(&mut st.job_texts));
        let how = Batched {
            in_flight: JOBS_IN_FLIGHT,
            prepare: &|text: &[u8]| {
                VersionEntry::prepare(text, |text| {
                    texts
                        .read()
                        .unwrap_or_else(PoisonError::into_inner)
                        .find(text)
                })
            },
            settle: |entry: Result<VersionEntry, serde_json::Error>| {
                let mut texts = texts.write().unwrap_or_else(PoisonError::into_inner);
                st.job_versions.push(entry?.settle(&mut texts));
                Ok(())
            },
            // The cut reads an element as one thread does: its error is that one's.
            check: |_: &mut Self, _: &dyn Fn() -> String| Ok(()),
        };
        let read = self.in_batches(key, &pool, &interner, how);
        st.job_texts = texts.into_inner().unwrap_or_else(PoisonError::into_inner);
        read
    }
}
