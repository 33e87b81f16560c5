//! The JSON document (schema version 1, see `docs/json-schema.md`).

use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

use super::layout::{Layout, document, nested, write};
use crate::job_plan::JobPlan;
use crate::report::{JobReport, Report};
use crate::warning::Warning;

/// The report as pretty-printed JSON, ending in a newline.
pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    render_to(report, &mut out).expect("a report always serializes");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The document of a job plan: the report with `job_plan` at the top level
/// (contract section 10).
pub fn render_job_plan(report: &Report, plan: &JobPlan) -> String {
    #[derive(Serialize)]
    struct WithPlan<'a> {
        #[serde(flatten)]
        report: &'a Report,
        job_plan: &'a JobPlan,
    }
    document(&WithPlan {
        report,
        job_plan: plan,
    })
}

/// The same text, written as it is produced: a large report is never held twice.
pub fn render_to(report: &Report, out: &mut impl io::Write) -> io::Result<()> {
    write(&mut *out, 0, report)?;
    out.write_all(b"\n")
}

/// The same text for `head` (a report whose jobs are still to come) with
/// the jobs that `run` hands on, each written as it comes,
/// and the warnings `run` returns. After a failed write `run` still runs to
/// its end, but nothing more is written.
pub fn render_streamed<R>(head: &Report, run: R, out: &mut impl io::Write) -> io::Result<()>
where
    R: FnOnce(&mut dyn FnMut(&JobJson)) -> Vec<Warning>,
{
    let mut f = Layout::at(0);
    f.begin_object(out)?;
    let Report {
        schema_version,
        now,
        now_source,
        eval_id,
        eval_priority,
        supports_disconnected_clients,
        nomad_version,
        jobs: _,
        warnings: _,
    } = head;
    key(&mut f, out, "schema_version", true)?;
    value(&mut f, out, schema_version)?;
    key(&mut f, out, "now", false)?;
    value(&mut f, out, now)?;
    key(&mut f, out, "now_source", false)?;
    value(&mut f, out, now_source)?;
    key(&mut f, out, "eval_id", false)?;
    value(&mut f, out, eval_id)?;
    key(&mut f, out, "eval_priority", false)?;
    value(&mut f, out, eval_priority)?;
    key(&mut f, out, "supports_disconnected_clients", false)?;
    value(&mut f, out, supports_disconnected_clients)?;
    key(&mut f, out, "nomad_version", false)?;
    value(&mut f, out, nomad_version)?;
    key(&mut f, out, "jobs", false)?;
    f.begin_object_value(out)?;
    let mut jobs = Layout::at(1);
    jobs.begin_array(out)?;
    let mut written = Ok(());
    let mut first = true;
    let warnings = run(&mut |job| {
        if written.is_ok() {
            written = jobs
                .begin_array_value(out, first)
                .and_then(|()| job.write_to(out))
                .and_then(|()| jobs.end_array_value(out));
            first = false;
        }
    });
    written?;
    jobs.end_array(out)?;
    f.end_object_value(out)?;
    key(&mut f, out, "warnings", false)?;
    value(&mut f, out, &warnings)?;
    f.end_object(out)?;
    out.write_all(b"\n")
}

/// A key of the document's top-level object, `first` or after another.
fn key(f: &mut Layout, out: &mut impl io::Write, name: &str, first: bool) -> io::Result<()> {
    f.begin_object_key(out, first)?;
    f.begin_string(out)?;
    f.write_string_fragment(out, name)?;
    f.end_string(out)?;
    f.end_object_key(out)
}

/// The value of a top-level key, laid out one level deep.
fn value(f: &mut Layout, out: &mut impl io::Write, value: &impl Serialize) -> io::Result<()> {
    f.begin_object_value(out)?;
    write(out, 1, value)?;
    f.end_object_value(out)
}

/// The story of `--what-if` / `--until`: the document of [`render`] with
/// `what_if`, `timeline`, `pending`, `until` and `assumptions` after it.
pub fn story(story: &crate::servers::Story) -> String {
    document(story)
}

/// A job's report for [`render_streamed`]: a small one as the text
/// [`render`] writes in the `jobs` array, made on the thread that replayed
/// it so that the writing thread only copies it out; a large one whole, to
/// be written straight out by the writing thread, so that its text (larger
/// than the report) is never held while it waits for its turn.
pub enum JobJson {
    Text(String),
    Whole(Box<JobReport>),
}

impl JobJson {
    pub fn new(job: JobReport) -> JobJson {
        if !job.is_large() {
            JobJson::Text(String::from_utf8(nested(2, &job)).expect("serde_json writes UTF-8"))
        } else {
            JobJson::Whole(Box::new(job))
        }
    }

    fn write_to(&self, out: &mut impl io::Write) -> io::Result<()> {
        match self {
            JobJson::Text(text) => out.write_all(text.as_bytes()),
            JobJson::Whole(job) => write(out, 2, job),
        }
    }
}

#[cfg(test)]
mod tests {
    use insta::assert_snapshot;

    use super::*;
    use crate::report::{JobReport, NowSource, Plan, PlanReconnect};
    use crate::time::Time;
    use crate::warning::Warning;

    /// One job without groups whose plan resumes one allocation, and one
    /// warning: every top-level and plan key, in the order the schema gives.
    fn report() -> Report {
        Report {
            schema_version: 1,
            now: Time::parse_rfc3339("2022-04-01T12:00:00Z").unwrap(),
            now_source: NowSource::Snapshot,
            eval_id: "e7b2c9d4-0000-4000-8000-0000000000e1".into(),
            eval_priority: None,
            supports_disconnected_clients: true,
            nomad_version: crate::version::Profile::choose(None, None, &[]),
            jobs: vec![JobReport {
                namespace: "default".into(),
                id: "web".into(),
                job_type: "service".into(),
                version: 3,
                priority: 50,
                stopped: false,
                purged: false,
                groups: Vec::new(),
                plan: Plan {
                    reconnect_updates: vec![PlanReconnect {
                        alloc_id: "6b1f7c4e-0000-4000-8000-000000000000".into(),
                        alloc_state: None,
                    }],
                    ..Plan::default()
                },
            }],
            warnings: vec![Warning::new(
                "absent_node",
                "1 allocation is on an absent node",
            )],
        }
    }

    #[test]
    fn document_shape() {
        assert_snapshot!(render(&report()), @r#"
        {
          "schema_version": 1,
          "now": "2022-04-01T12:00:00Z",
          "now_source": "snapshot",
          "eval_id": "e7b2c9d4-0000-4000-8000-0000000000e1",
          "eval_priority": null,
          "supports_disconnected_clients": true,
          "nomad_version": {
            "profile": "seed",
            "source": "default",
            "evidence": null
          },
          "jobs": [
            {
              "namespace": "default",
              "id": "web",
              "type": "service",
              "version": 3,
              "priority": 50,
              "stopped": false,
              "purged": false,
              "groups": [],
              "plan": {
                "stop": [],
                "place": [],
                "destructive_update": [],
                "in_place_update": [],
                "disconnect_updates": [],
                "reconnect_updates": [
                  {
                    "alloc_id": "6b1f7c4e-0000-4000-8000-000000000000"
                  }
                ],
                "attribute_updates": [],
                "followup_evals": [],
                "deployment": null,
                "deployment_updates": [],
                "failed_placements": [],
                "blocked_eval": null,
                "queued_allocations": {}
              }
            }
          ],
          "warnings": [
            {
              "code": "absent_node",
              "message": "1 allocation is on an absent node"
            }
          ]
        }
        "#);
    }

    #[test]
    fn streamed_text_is_the_rendered_text() {
        let mut out = Vec::new();
        render_to(&report(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), render(&report()));
    }

    /// With two jobs, one, and none, with and without warnings, and with
    /// warnings known before the replay, each job as a text or whole: the
    /// same bytes as the whole report's.
    #[test]
    fn jobs_written_as_they_come_are_the_rendered_text() {
        for (count, warnings) in [(2, 1), (1, 1), (0, 1), (2, 0), (0, 0)] {
            let mut whole = report();
            whole.jobs = vec![whole.jobs[0].clone(); count];
            whole.warnings.truncate(warnings);
            // The head's own warnings are replaced by those the run returns.
            let mut head = whole.clone();
            head.jobs.clear();
            let mut out = Vec::new();
            render_streamed(
                &head,
                |emit| {
                    for (k, job) in whole.jobs.iter().enumerate() {
                        let json = match k % 2 {
                            0 => JobJson::new(job.clone()),
                            _ => JobJson::Whole(Box::new(job.clone())),
                        };
                        assert_eq!(matches!(json, JobJson::Text(_)), k % 2 == 0);
                        emit(&json);
                    }
                    whole.warnings.clone()
                },
                &mut out,
            )
            .unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                render(&whole),
                "{count} jobs, {warnings} warnings"
            );
        }
    }
}
