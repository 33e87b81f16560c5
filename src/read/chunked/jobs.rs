//! `Jobs` and `JobVersions` on several threads ([`super::batches`]): a
//! cluster of many small jobs keeps tens of thousands of versions, each
//! looked up among the embedded job texts and parsed when new.

use std::sync::{Arc, PoisonError, RwLock};

use super::batches::{Ahead, Batched, JOBS_IN_FLIGHT};
use super::{Chunked, Step};
use crate::read::document::State;
use crate::read::job_entry::{JobEntry, VersionEntry};
use crate::read::job_texts::JobTexts;
use crate::read::scan::job_hint;

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
            prepare: &|text: &[u8], _| JobEntry::prepare(&texts, &filter, text),
            settle: |entry: Result<JobEntry, serde_json::Error>| st.settle_job(entry?),
            // The cut reads an element as one thread does: its error is that one's.
            check: |_: &mut Self, _: &dyn Fn() -> String| Ok(()),
            ahead: (),
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
            prepare: &|text: &[u8], known: Option<usize>| {
                VersionEntry::prepare(text, |text| {
                    let texts = texts.read().unwrap_or_else(PoisonError::into_inner);
                    match known {
                        Some(entry) => texts.found(entry),
                        None => texts.find(text),
                    }
                })
            },
            settle: |entry: Result<VersionEntry, serde_json::Error>| {
                let mut texts = texts.write().unwrap_or_else(PoisonError::into_inner);
                st.job_versions.push(entry?.settle(&mut texts));
                Ok(())
            },
            // The cut reads an element as one thread does: its error is that one's.
            check: |_: &mut Self, _: &dyn Fn() -> String| Ok(()),
            ahead: Versions {
                texts: &texts,
                hint: None,
                known: false,
            },
        };
        let read = self.in_batches(key, &pool, &interner, how);
        st.job_texts = texts.into_inner().unwrap_or_else(PoisonError::into_inner);
        read
    }
}

/// The job versions an allocation embedded, known to the walk before it
/// checks them: a job's versions are written one after the other, so the
/// texts last found for the job of the version before ([`JobTexts::prefix_hinted`])
/// are tried on the bytes ahead. A version found so is a text checked
/// before (or a variant of one, its volatile values checked by their kind),
/// and the walk only steps over it, handing the pool the entry found.
struct Versions<'t> {
    texts: &'t RwLock<JobTexts>,
    /// The job of the version before, as an allocation's hint names it.
    hint: Option<u64>,
    /// Whether the version before was found among the texts of `hint`.
    known: bool,
}

impl Ahead for Versions<'_> {
    /// The entry of the text found.
    type Found = usize;

    fn known(&mut self, bytes: &[u8]) -> Option<(usize, usize)> {
        let texts = self.texts.read().unwrap_or_else(PoisonError::into_inner);
        let found = texts
            .prefix_hinted(bytes, self.hint)
            .map(|(entry, len)| (len, entry));
        self.known = found.is_some();
        found
    }

    fn passed(&mut self, text: &[u8]) {
        if !self.known {
            self.hint = job_hint(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = r#"{"ID":"web","Namespace":"n","Version":1,"ModifyIndex":10}"#;
    const V2: &str = r#"{"ID":"web","Namespace":"n","Version":2,"ModifyIndex":20}"#;
    const API: &str = r#"{"ID":"api","Namespace":"n","Version":1,"ModifyIndex":10}"#;

    #[test]
    fn a_version_an_allocation_embedded_is_known_after_a_version_of_its_job() {
        let mut texts = JobTexts::default();
        let (v2, _) = texts.insert(V2.as_bytes()).unwrap();
        let hint = job_hint(V1.as_bytes()).unwrap();
        texts.remember(hint, v2);
        let texts = RwLock::new(texts);
        let mut ahead = Versions {
            texts: &texts,
            hint: None,
            known: false,
        };
        let next = |text: &str| format!("{text},\n{API}");
        // The first version of a job: its job is not known yet.
        assert_eq!(ahead.known(next(V2).as_bytes()), None);
        ahead.passed(V1.as_bytes());
        assert_eq!(ahead.hint, Some(hint));
        // Known by the job of the version before, and its variant too.
        assert_eq!(ahead.known(next(V2).as_bytes()), Some((V2.len(), v2)));
        ahead.passed(V2.as_bytes());
        let variant = V2.replace("20}", "123}");
        assert_eq!(
            ahead.known(next(&variant).as_bytes()),
            Some((variant.len(), v2))
        );
        ahead.passed(variant.as_bytes());
        // Not a text of that job, or cut short: checked.
        assert_eq!(ahead.known(API.as_bytes()), None);
        assert_eq!(ahead.known(&V2.as_bytes()[..V2.len() - 1]), None);
        let bad = V2.replace("20}", "2x}");
        assert_eq!(ahead.known(bad.as_bytes()), None);
        // A version checked names the job of the next.
        ahead.passed(API.as_bytes());
        assert_eq!(ahead.hint, job_hint(API.as_bytes()));
    }
}
