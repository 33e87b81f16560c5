//! The register endpoint's hooks through `admit`: nomad/job_endpoint_test.go
//! (Connect and expose-check cases, v1.10.5, v2.0.5) and
//! nomad/job_endpoint_hook_consul_ce_test.go (v1.10.5).

use serde_json::{Map, Value, json};

use super::super::admit;
use super::super::consul_hook::{consul_error, consul_hook};
use super::endpoint::mock_job;
use crate::model::v;

const S: i64 = 1_000_000_000;

fn paths(job: &Map<String, Value>) -> Value {
    job["TaskGroups"][0]["Services"][0]["Connect"]["SidecarService"]["Proxy"]["Expose"]["Paths"]
        .clone()
}

/// `mock.Job()` with the expose-check group of the register test.
fn expose_job() -> Map<String, Value> {
    let mut job = mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Services"] = json!(null);
    job["TaskGroups"][0]["Networks"] = json!([{"Mode": "bridge", "DynamicPorts": [
        {"Label": "hcPort", "To": -1}, {"Label": "v2Port", "To": -1}]}]);
    job["TaskGroups"][0]["Services"] = json!([{
        "Name": "backend", "PortLabel": "8080",
        "Checks": [
            {"Name": "check1", "Type": "http", "Protocol": "http", "Path": "/health",
             "Expose": true, "PortLabel": "hcPort", "Interval": S, "Timeout": S},
            {"Name": "check2", "Type": "script", "Command": "/bin/true", "TaskName": "web",
             "Interval": S, "Timeout": S},
            {"Name": "check3", "Type": "grpc", "Protocol": "grpc", "Path": "/v2/health",
             "Expose": true, "PortLabel": "v2Port", "Interval": S, "Timeout": S}],
        "Connect": {"SidecarService": {}}
    }]);
    job
}

#[test]
fn job_endpoint_test_go_v1_10_5_register_connect_expose_check() {
    let out = admit(expose_job(), v(1, 10, 5), None).expect("admitted");
    let want = json!([
        {"Path": "/health", "Protocol": "http", "LocalPathPort": 8080, "ListenerPort": "hcPort"},
        {"Path": "/v2/health", "Protocol": "grpc", "LocalPathPort": 8080, "ListenerPort": "v2Port"}
    ]);
    assert_eq!(paths(&out), want);
    // Registering the stored job again adds no second copy.
    let mut again = out.clone();
    again["Meta"]["test"] = json!("abc");
    let again = admit(again, v(1, 10, 5), None).expect("admitted");
    assert_eq!(paths(&again), want);
}

#[test]
fn job_endpoint_test_go_v1_10_5_register_connect_validates_without_sidecar_task() {
    let mut job = mock_job();
    job["TaskGroups"][0]["Networks"] = json!([{"Mode": "bridge"}]);
    job["TaskGroups"][0]["Tasks"][0]["Services"] = json!(null);
    job["TaskGroups"][0]["Services"] = json!([{
        "Name": "backend", "PortLabel": "8080", "Connect": {"SidecarService": null},
        "Checks": [{"Name": "exposed_no_sidecar", "Type": "http", "Expose": true,
                    "Path": "/health", "Interval": 10 * S, "Timeout": 2 * S}]
    }]);
    let err = admit(job, v(1, 10, 5), None).unwrap_err().to_string();
    assert!(
        err.contains("exposed_no_sidecar requires use of sidecar_proxy"),
        "{err}"
    );
}

fn connect_job(networks: Value) -> Map<String, Value> {
    let mut job = mock_job();
    job["TaskGroups"][0]["Services"] = json!([{"Name": "count-api", "PortLabel": "9001",
        "Connect": {"SidecarService": {}}}]);
    job["TaskGroups"][0]["Networks"] = networks;
    job
}

#[test]
fn job_endpoint_test_go_v1_10_5_validate_job_consul_connect() {
    let r = v(1, 10, 5);
    assert!(admit(mock_job(), r, None).is_ok(), "plain job");
    let bridge =
        json!([{"Mode": "bridge", "DynamicPorts": [{"Label": "http"}, {"Label": "admin"}]}]);
    assert!(
        admit(connect_job(bridge), r, None).is_ok(),
        "valid consul connect"
    );
    let err = admit(connect_job(json!(null)), r, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Consul Connect sidecars require exactly 1 network"),
        "{err}"
    );
    let err = admit(connect_job(json!([{"Mode": "host"}])), r, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            r#"Consul Connect sidecar requires bridge network, found "host" in group "web""#
        ),
        "{err}"
    );
}

/// The validators' errors make one list, the Connect hook's first; a
/// mutator's error stops admission and is named after its mutator.
#[test]
fn job_endpoint_hooks_go_v2_0_5_validator_and_mutator_errors() {
    let r = v(2, 0, 5);
    // The mock's services name ports "http" and "admin": a host network
    // without them would add Nomad's port label errors to the list.
    let host = json!([{"Mode": "host", "DynamicPorts": [{"Label": "http"}, {"Label": "admin"}]}]);
    let mut job = connect_job(host);
    job["Priority"] = json!(200);
    let err = admit(job, r, None).unwrap_err().to_string();
    assert_eq!(
        err,
        "Nomad would reject the job: 2 errors occurred:\n\t* connect sidecar: invalid network \
         mode for Consul Connect: group \"web\" uses network mode \"host\"; must be \"bridge\" or \
         \"cni/*\"\n\t* job priority must be between [1, 100]"
    );
    let mut job = mock_job();
    job["TaskGroups"][0]["Tasks"][0]["Services"] = json!(null);
    job["TaskGroups"][0]["Networks"] = json!([{"Mode": "bridge"}]);
    job["TaskGroups"][0]["Services"] = json!([{"Name": "api", "PortLabel": "http",
        "Checks": [{"Name": "c", "Type": "http", "Path": "/h", "Expose": true}],
        "Connect": {"SidecarService": {}}}]);
    let err = admit(job, r, None).unwrap_err().to_string();
    assert_eq!(
        err,
        "Nomad would reject the job: error in job mutator expose-check: unable to determine \
         local service port for service check web->api->c"
    );
}

#[test]
fn job_endpoint_hook_consul_ce_test_go_v1_10_5_consul_ce() {
    let mut job = mock_job();
    let mut task_service = job["TaskGroups"][0]["Tasks"][0]["Services"][0].clone();
    task_service["Provider"] = json!("consul");
    task_service["Cluster"] = json!("nondefault");
    job["TaskGroups"][0]["Tasks"][0]["Services"] = json!([task_service.clone()]);
    let (mut first, mut second) = (task_service.clone(), task_service);
    first["Cluster"] = json!("");
    second["Cluster"] = json!("infra");
    job["TaskGroups"][0]["Services"] = json!([first, second]);
    job["TaskGroups"][0]["Consul"] = json!({"Partition": "foo"});
    consul_hook(&mut job, v(1, 10, 5));
    let g = &job["TaskGroups"][0];
    assert_eq!(g["Services"][0]["Cluster"], "default");
    assert_eq!(g["Services"][1]["Cluster"], "infra");
    assert_eq!(g["Tasks"][0]["Services"][0]["Cluster"], "nondefault");
    let partition =
        json!({"LTarget": "${attr.consul.partition}", "RTarget": "foo", "Operand": "="});
    assert!(
        g["Constraints"].as_array().unwrap().contains(&partition),
        "{}",
        g["Constraints"]
    );
    assert_eq!(
        consul_error(&job, v(1, 10, 5)).as_deref(),
        Some("non-default Consul cluster requires Nomad Enterprise")
    );
}

/// #19665: the partition constraint and the task/group partition check
/// start at 1.7.3; a task's block on another cluster names that cluster.
#[test]
fn job_endpoint_hook_consul_go_v1_7_3_partition() {
    let job_with = |group: Value, task: Value| {
        let mut job = mock_job();
        job["TaskGroups"][0]["Consul"] = group;
        job["TaskGroups"][0]["Tasks"][0]["Consul"] = task;
        job
    };
    let mut job = job_with(json!({"Partition": "foo"}), json!({"Partition": "bar"}));
    consul_hook(&mut job, v(1, 7, 3));
    assert_eq!(
        consul_error(&job, v(1, 7, 3)).as_deref(),
        Some(
            r#"task.consul.partition "bar" must match group.consul.partition "foo" if both are set"#
        )
    );
    let mut old = job_with(json!({"Partition": "foo"}), json!({"Partition": "bar"}));
    consul_hook(&mut old, v(1, 7, 2));
    assert_eq!(consul_error(&old, v(1, 7, 2)), None);
    let constraints = old["TaskGroups"][0]["Constraints"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(constraints, 1, "only mock.Job's own before 1.7.3");

    let mut other = job_with(json!(null), json!({"Cluster": "infra", "Partition": "p"}));
    consul_hook(&mut other, v(1, 8, 0));
    let task = &other["TaskGroups"][0]["Tasks"][0];
    assert_eq!(
        task["Constraints"].as_array().unwrap().last().unwrap(),
        &json!({"LTarget": "${attr.consul.infra.partition}", "RTarget": "p", "Operand": "="})
    );
    // Admitted twice (a job file from `nomad job inspect`), the constraint
    // is there twice, as on the server.
    let once = admit(
        job_with(json!({"Partition": "foo"}), json!(null)),
        v(1, 10, 5),
        None,
    )
    .unwrap();
    let twice = admit(once.clone(), v(1, 10, 5), None).unwrap();
    let count = |j: &Map<String, Value>| {
        j["TaskGroups"][0]["Constraints"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["LTarget"] == "${attr.consul.partition}")
            .count()
    };
    assert_eq!((count(&once), count(&twice)), (1, 2));
}
