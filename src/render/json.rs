//! The JSON document (schema version 1, see `docs/json-schema.md`).

use crate::report::Report;

/// The report as pretty-printed JSON, ending in a newline.
pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    render_to(report, &mut out).expect("a report always serializes");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The same text, written as it is produced: a large report is never held twice.
pub fn render_to(report: &Report, out: &mut impl std::io::Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
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
                "deployment_updates": []
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
}
