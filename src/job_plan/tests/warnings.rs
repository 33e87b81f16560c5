//! nomad/structs/structs_test.go `TestJob_Warnings` (v2.0.5) and the
//! identity warnings of workload_id_test.go `TestWorkloadIdentity_Validate`:
//! the warnings of templates, services, identities and shutdown delays.

use serde_json::{Map, Value, json};

use super::super::job_warnings;
use crate::model::{Release, v};

fn warnings(job: Value, release: Release) -> Vec<String> {
    let job: Map<String, Value> = serde_json::from_value(job).unwrap();
    job_warnings(&job, release)
}

fn group(g: Value) -> Value {
    json!({"Type": "service", "TaskGroups": [g]})
}

const S: i64 = 1_000_000_000;

#[test]
fn structs_test_go_v2_0_5_job_warnings_shutdown_delays() {
    let at = v(2, 0, 5);
    let task_with_services = |delay: i64| json!([{"Name": "api", "ShutdownDelay": delay, "Services": [{"Name": "api"}]}]);
    let cases = [
        (
            group(json!({"Name": "web", "Tasks": task_with_services(0)})),
            vec!["task \"api\" in group \"web\" defines services, but has no shutdown_delay set"],
        ),
        (
            group(json!({"Name": "web", "Tasks": task_with_services(S)})),
            vec![],
        ),
        (
            group(
                json!({"Name": "web", "Services": [{"Name": "web"}], "Tasks": [{"Name": "api"}]}),
            ),
            vec![
                "group \"web\" defines services, but neither the group nor any of its tasks have \
                 shutdown_delay set",
            ],
        ),
        (
            group(
                json!({"Name": "web", "Services": [{"Name": "web"}], "ShutdownDelay": S,
                         "Tasks": [{"Name": "api"}]}),
            ),
            vec![],
        ),
        (
            group(
                json!({"Name": "web", "Services": [{"Name": "web", "TaskName": "api"}],
                         "Tasks": [{"Name": "api", "ShutdownDelay": 0}]}),
            ),
            vec![
                "group \"web\" references task \"api\" in a service definition, but the task has \
                 no shutdown_delay set",
            ],
        ),
        (
            group(
                json!({"Name": "web", "Services": [{"Name": "web", "TaskName": "api"}],
                         "Tasks": [{"Name": "api", "ShutdownDelay": S}]}),
            ),
            vec![],
        ),
    ];
    for (job, want) in cases {
        assert_eq!(warnings(job.clone(), at), want, "{job}");
        // Before 2.0.1 no such warning.
        assert_eq!(warnings(job, v(2, 0, 0)), Vec::<String>::new());
    }
    let sidecar = |delay: Value| {
        group(json!({"Name": "web", "Services": [{"Name": "web",
            "Connect": {"SidecarTask": {"Name": "sidecar", "ShutdownDelay": delay}}}]}))
    };
    assert_eq!(warnings(sidecar(json!(0)), at), Vec::<String>::new());
    assert_eq!(warnings(sidecar(json!(S)), at), Vec::<String>::new());
    assert_eq!(
        warnings(sidecar(Value::Null), at),
        [
            "service \"web\" defines a sidecar task in Consul Connect definition, but the task has \
          no shutdown_delay set"
        ]
    );
}

/// "Template.VaultGrace Deprecated", as each release nests and words it.
#[test]
fn structs_test_go_v2_0_5_job_warnings_template_vault_grace() {
    let job = group(json!({"Name": "foo", "Tasks": [{"Name": "foo",
                                                      "Templates": [{"VaultGrace": 1}]}]}));
    let task = "Group \"foo\" has warnings: 1 error occurred:\n\t* Task \"foo\" has warnings: 1 \
                error occurred:\n\t* ";
    let grace = "VaultGrace has been deprecated as of Nomad 0.11 and ignored since Vault 0.5. \
                 Please remove VaultGrace / vault_grace from template";
    assert_eq!(
        warnings(job.clone(), v(2, 0, 5)),
        [format!("{task}Template[0] {grace} block.\n\n\n\n")]
    );
    assert_eq!(
        warnings(job.clone(), v(1, 6, 0)),
        [format!(
            "{task}1 error occurred:\n\t* Template[0] {grace} block.\n\n\n\n\n\n"
        )]
    );
    assert_eq!(
        warnings(job, v(1, 4, 0)),
        [format!(
            "{task}1 error occurred:\n\t* Template[0] {grace} stanza.\n\n\n\n\n\n"
        )]
    );
}

/// `WorkloadIdentity.Warnings` for a task's identities and a service's
/// (1.7.0 on).
#[test]
fn workload_id_test_go_v2_0_5_identity_warnings() {
    let task = |identities: Value| {
        group(
            json!({"Name": "g", "Tasks": [{"Name": "t", "ShutdownDelay": S,
                                             "Identities": identities}]}),
        )
    };
    let warned = |identity: Value, release| warnings(task(json!([identity])), release);
    let prefix = "Group \"g\" has warnings: 1 error occurred:\n\t* Task \"t\" has warnings: 1 \
                  error occurred:\n\t* 1 error occurred:\n\t* Identity[foo] ";
    // Warn audience
    assert_eq!(
        warned(json!({"Name": "foo", "TTL": S}), v(2, 0, 5)),
        [format!(
            "{prefix}identities without an audience are insecure\n\n\n\n\n\n"
        )]
    );
    // Warn too many audiences
    assert_eq!(
        warned(
            json!({"Name": "foo", "Audience": ["foo", "bar"], "TTL": S}),
            v(2, 0, 5)
        ),
        [format!(
            "{prefix}while multiple audiences is allowed, it is more secure to use 1 audience \
             per identity\n\n\n\n\n\n"
        )]
    );
    // No TTL
    assert_eq!(
        warned(json!({"Name": "foo", "Audience": ["foo"]}), v(2, 0, 5)),
        [format!(
            "{prefix}identities without an expiration are insecure\n\n\n\n\n\n"
        )]
    );
    let fine = json!({"Name": "foo", "Audience": ["foo"], "TTL": S});
    assert_eq!(warned(fine, v(2, 0, 5)), Vec::<String>::new());
    assert_eq!(
        warned(json!({"Name": "foo"}), v(1, 6, 0)),
        Vec::<String>::new()
    );
    // A service's identity, named by the server, is warned about per service.
    let service = group(
        json!({"Name": "g", "ShutdownDelay": S, "Tasks": [{"Name": "t"}],
        "Services": [{"Name": "web", "Identity": {"Name": "consul-service_web-http",
                                                   "Audience": ["consul.io"]}}]}),
    );
    assert_eq!(
        warnings(service, v(2, 0, 5)),
        [
            "Group \"g\" has warnings: 1 error occurred:\n\t* Service \"web\": identities without an \
          expiration are insecure\n\n"
        ]
    );
}
