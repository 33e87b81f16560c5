//! `--explain`: the reconciler's decisions about one allocation or one
//! placement, step by step with the facts and arithmetic behind each.
//!
//! Pure: built from the snapshot and one job's replay trace, never by
//! re-running the reconciler's rules; the renderers turn it into text.

mod allocation;
mod disconnect;
mod error;
mod explanation;
mod node;
mod placement;
mod pool_config;
mod release_rules;
mod reschedule;
mod subject;
mod system;
mod verdicts;

use crate::model::Snapshot;
use crate::replay::{OneJob, Options};

pub use error::ExplainError;
pub use explanation::{Explanation, Fact, Step, StoryEvaluation, StoryPlace, Subject, SubjectKind};
pub use node::{Amounts, NodeAdd, NodeAlloc, NodeExplanation, NodeFacts, NodeFree, explain_node};
pub use subject::{ensure_of_job, find_node};
use subject::{find_alloc, placement_job};

/// Explains `subject`: an allocation ID or unique ID prefix, else a
/// placement name (`job.group[index]`); a system or sysbatch job's
/// placement is on a node: `job.group[index]@NODE` (an ID or ID prefix).
/// A service or batch placement may name a node too (an ID, name or ID
/// prefix), whose verdict is then told in full.
/// `--job` and `--namespace` do not narrow the search; they must name the
/// subject's job, so that a subject of another job is an error rather than a
/// different story.
pub fn explain(
    snapshot: &Snapshot,
    options: &Options,
    subject: &str,
) -> Result<Explanation, ExplainError> {
    if let Some((name, node)) = subject.rsplit_once('@') {
        let (namespace, job) = placement_job(snapshot, name)?;
        ensure_of_job(options, subject, namespace, job)?;
        let one = OneJob::new(snapshot, options, namespace, job)?;
        if one.is_system() {
            return one.schedule(|sr| system::placement(&sr, name, node))?;
        }
        let node = find_node(snapshot, node)?;
        return generic_placement(snapshot, options, (namespace, job), name, Some(&node.id));
    }
    if let Some(alloc) = find_alloc(snapshot, subject)? {
        ensure_of_job(options, subject, &alloc.namespace, &alloc.job_id)?;
        let one = OneJob::new(snapshot, options, &alloc.namespace, &alloc.job_id)?;
        if one.is_system() {
            return Ok(one.schedule(|sr| system::allocation(&sr, alloc))?);
        }
        return Ok(one.trace(|jr| allocation::explain(&jr, alloc))?);
    }
    let (namespace, job) = placement_job(snapshot, subject)?;
    ensure_of_job(options, subject, namespace, job)?;
    let one = OneJob::new(snapshot, options, namespace, job)?;
    if one.is_system() {
        return Err(ExplainError::NeedsNode {
            name: subject.to_string(),
            job: job.to_string(),
        });
    }
    generic_placement(snapshot, options, (namespace, job), subject, None)
}

/// A service or batch job's placement `name`, replayed with the placement
/// stage's verdicts recorded; a placement counted with its group's first
/// failure is told with that failure's verdicts, from a second replay.
fn generic_placement(
    snapshot: &Snapshot,
    options: &Options,
    (namespace, job): (&str, &str),
    name: &str,
    node: Option<&str>,
) -> Result<Explanation, ExplainError> {
    let one = OneJob::new(snapshot, options, namespace, job)?.explaining(name);
    let (mut e, first) = one.trace(|jr| placement::explain(&jr, name, node))??;
    if let Some(first) = first {
        let group = e.task_group.clone();
        let one = OneJob::new(snapshot, options, namespace, job)?.explaining(&first);
        e.steps
            .extend(one.trace(|jr| placement::first_failure(&jr, &group, node))?);
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::explanation::at;
    use super::*;
    use crate::read::read_snapshot_from;
    use crate::time::Time;

    fn snapshot() -> Snapshot {
        let text = r#"{
            "Now": "2022-04-01T12:00:00Z",
            "Jobs": [{"ID": "web", "Namespace": "default", "Type": "service", "Version": 1,
                      "TaskGroups": [{"Name": "web", "Count": 1, "MaxClientDisconnect": 300000000000}]},
                     {"ID": "api", "Namespace": "default", "Type": "service", "Version": 1,
                      "TaskGroups": [{"Name": "api", "Count": 1}]}],
            "Nodes": [{"ID": "n1", "Status": "ready"}],
            "Allocs": [{"ID": "a1", "Namespace": "default", "JobID": "web", "TaskGroup": "web",
                        "Name": "web.web[0]", "NodeID": "n1", "ClientStatus": "running",
                        "DesiredStatus": "run", "DesiredTransition": {},
                        "AllocStates": [{"Field": 0, "Value": "unknown",
                                         "Time": "0001-01-01T00:00:01Z"}]}]
        }"#;
        read_snapshot_from(text.as_bytes(), "snap.json").unwrap()
    }

    #[test]
    fn a_time_at_the_start_of_the_calendar_is_explained_without_overflow() {
        let e = explain(&snapshot(), &Options::default(), "a1").unwrap();
        let facts: Vec<&str> = e
            .steps
            .iter()
            .flat_map(|s| s.facts.iter().map(|f| f.value.as_str()))
            .collect();
        assert!(
            facts
                .iter()
                .any(|v| v.starts_with("0001-01-01T00:00:01Z (") && v.ends_with(" ago)")),
            "{facts:?}"
        );
        let far = Time::parse_rfc3339("0001-01-01T00:00:01Z").unwrap();
        let now = Time::parse_rfc3339("2022-04-01T12:00:00Z").unwrap();
        assert_eq!(
            at(far, now),
            "0001-01-01T00:00:01Z (2562047h47m16.854775807s ago)"
        );
    }

    #[test]
    fn a_subject_of_another_job_than_job_is_an_error_naming_both() {
        let options = Options {
            job: Some("api".to_string()),
            ..Options::default()
        };
        let err = |subject: &str| {
            explain(&snapshot(), &options, subject)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("a1"),
            "\"a1\" is of job default/web, not of --job \"api\"; drop --job to explain it"
        );
        assert_eq!(
            err("web.web[0]"),
            "\"web.web[0]\" is of job default/web, not of --job \"api\"; drop --job to explain it"
        );
        let options = Options {
            job: Some("web".to_string()),
            ..Options::default()
        };
        assert!(explain(&snapshot(), &options, "a1").is_ok());
    }
}
