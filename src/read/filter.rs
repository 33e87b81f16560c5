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

#[cfg(test)]
mod tests {
    use super::ReadFilter;

    const DUMP: &str = r#"{"Namespaces": [{"Name": "default"}, {"Name": "prod"}],
        "Jobs": [{"ID": "web", "Namespace": "prod", "Type": "service",
                  "TaskGroups": [{"Name": "web", "Count": 1}], "Meta": {"kept": "whole"}},
                 {"ID": "api", "Namespace": "prod", "Type": "service", "TaskGroups": []}],
        "Nodes": [], "Allocs": []}"#;

    /// The planned job's text is kept as written, by the fast walk and the
    /// exact one, and the namespaces' names are read; other jobs' texts are not kept.
    #[test]
    fn the_planned_job_s_text_and_the_namespaces_are_kept() {
        let filter = ReadFilter {
            keep_job_text: Some(("prod".into(), "web".into())),
            ..ReadFilter::default()
        };
        let fast = super::super::read(DUMP.as_bytes(), "d.json", &filter, 1, None).unwrap();
        let exact = super::super::exact(DUMP.as_bytes(), "d.json", &filter).unwrap();
        for s in [&fast, &exact] {
            let text = s.planned_job_text.as_deref().unwrap();
            assert!(
                text.starts_with(r#"{"ID": "web""#) && text.contains(r#""kept": "whole""#),
                "{text}"
            );
            assert_eq!(
                s.namespaces,
                Some(vec!["default".to_string(), "prod".to_string()])
            );
            assert_eq!(s.jobs.len(), 2);
        }
        let none =
            super::super::read(DUMP.as_bytes(), "d.json", &ReadFilter::default(), 1, None).unwrap();
        assert_eq!(none.planned_job_text, None);
        let bare = r#"{"Jobs": [], "Nodes": [], "Allocs": [], "Namespaces": []}"#;
        let empty = super::super::read(bare.as_bytes(), "d.json", &filter, 1, None).unwrap();
        assert_eq!(empty.namespaces, Some(vec![]));
    }
}
