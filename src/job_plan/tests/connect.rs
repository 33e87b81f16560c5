//! nomad/job_endpoint_hook_connect_test.go (v1.3.0, v1.6.0, v1.8.0,
//! v2.0.5): the sidecar tasks and ports the Connect mutator injects, and
//! native services' tasks.

use serde_json::{Map, Value, json};

use super::super::canonical::canonicalize;
use super::super::connect::connect;
use super::endpoint::mock_job;
use crate::model::{Release, v};

pub(super) const S: i64 = 1_000_000_000;

/// The job canonical and through the Connect mutator at `release`.
pub(super) fn mutated(
    mut job: Map<String, Value>,
    release: Release,
) -> Result<Map<String, Value>, String> {
    canonicalize(&mut job, release);
    connect(&mut job, release)?;
    Ok(job)
}

/// `mock.Job()` with its first group replaced by `group` and the job's meta.
pub(super) fn job_with(group: Value, meta: Value) -> Map<String, Value> {
    let mut job = mock_job();
    job["TaskGroups"][0] = group;
    job["Meta"] = meta;
    job
}

/// The sidecar task Nomad builds for `service` (`newConnectSidecarTask`
/// then `Task.Canonicalize`), written from the Go code.
fn sidecar(service: &str, driver: &str, restart: &Value, disabled: bool) -> Value {
    let mut logs = json!({"MaxFiles": 2, "MaxFileSizeMB": 2});
    if disabled {
        logs["Disabled"] = json!(false);
    }
    json!({
        "Name": format!("connect-proxy-{service}"),
        "Kind": format!("connect-proxy:{service}"),
        "Driver": driver,
        "Config": {
            "image": "${meta.connect.sidecar_image}",
            "args": ["-c", "${NOMAD_SECRETS_DIR}/envoy_bootstrap.json",
                     "-l", "${meta.connect.log_level}",
                     "--concurrency", "${meta.connect.proxy_concurrency}",
                     "--disable-hot-restart"]
        },
        "ShutdownDelay": 5 * S,
        "KillTimeout": 5 * S,
        "LogConfig": logs,
        "Resources": {"CPU": 250, "MemoryMB": 128},
        "Lifecycle": {"Hook": "prestart", "Sidecar": true},
        "Constraints": [
            {"LTarget": "${attr.consul.version}", "RTarget": ">= 1.8.0", "Operand": "semver"},
            {"LTarget": "${attr.consul.grpc}", "RTarget": "0", "Operand": ">"}
        ],
        "RestartPolicy": restart,
    })
}

fn proxy_port(service: &str) -> Value {
    json!({"Label": format!("connect-proxy-{service}"), "Value": 0, "To": -1, "HostNetwork": "default"})
}

fn two_sidecar_services() -> Value {
    json!({
        "Name": "web",
        "Networks": [{"Mode": "bridge"}],
        "Services": [
            {"Name": "${NOMAD_META_backend_name}", "PortLabel": "8080",
             "Connect": {"SidecarService": {}}},
            {"Name": "${NOMAD_META_admin_name}", "PortLabel": "9090",
             "Connect": {"SidecarService": {}}}
        ]
    })
}

fn group_connect_hook(release: Release) {
    let meta = json!({"backend_name": "backend", "admin_name": "admin"});
    let job = mutated(job_with(two_sidecar_services(), meta), release).unwrap();
    let g = &job["TaskGroups"][0];
    let restart = &g["RestartPolicy"];
    let disabled = release >= v(1, 5, 5);
    assert_eq!(
        g["Tasks"],
        json!([
            sidecar("backend", "docker", restart, disabled),
            sidecar("admin", "docker", restart, disabled)
        ])
    );
    assert_eq!(g["Services"][0]["Name"], "backend");
    assert_eq!(g["Services"][1]["Name"], "admin");
    assert_eq!(
        g["Networks"][0]["DynamicPorts"],
        json!([proxy_port("backend"), proxy_port("admin")])
    );
    // The hook is idempotent.
    let mut again = job.clone();
    connect(&mut again, release).unwrap();
    assert_eq!(again, job);
}

#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_group_connect_hook() {
    group_connect_hook(v(2, 0, 5));
}

#[test]
fn job_endpoint_hook_connect_test_go_v1_8_0_group_connect_hook() {
    group_connect_hook(v(1, 8, 0));
}

#[test]
fn job_endpoint_hook_connect_test_go_v1_3_0_group_connect_hook() {
    group_connect_hook(v(1, 3, 0));
}

/// `TestJobEndpointConnect_groupConnectGuessTaskDriver` (v1.6.0, v2.0.5),
/// and the releases before #17065 that always chose docker.
#[test]
fn job_endpoint_hook_connect_test_go_v1_6_0_group_connect_guess_task_driver() {
    let cases: [(&[&str], &str); 5] = [
        (&[], "docker"),
        (&["docker"], "docker"),
        (&["podman"], "podman"),
        (&["docker", "podman"], "docker"),
        (&["exec", "podman", "raw_exec"], "podman"),
    ];
    for (drivers, want) in cases {
        let tasks: Vec<Value> = drivers
            .iter()
            .enumerate()
            .map(|(i, d)| json!({"Name": format!("t{i}"), "Driver": d}))
            .collect();
        let mut group = two_sidecar_services();
        group["Tasks"] = Value::Array(tasks);
        group["Services"] = json!([{"Name": "api", "Connect": {"SidecarService": {}}}]);
        for (release, want) in [
            (v(1, 6, 0), want),
            (v(2, 0, 5), want),
            (v(1, 5, 17), "docker"),
        ] {
            let job = mutated(job_with(group.clone(), json!({})), release).unwrap();
            let tasks = job["TaskGroups"][0]["Tasks"].as_array().unwrap().clone();
            let proxy = tasks.last().unwrap();
            assert_eq!(proxy["Driver"], want, "{drivers:?} at {release}");
        }
    }
}

/// #19450: a service on a non-default Consul cluster constrains its
/// sidecar on that cluster from 1.7.2.
#[test]
fn job_endpoint_hook_connect_test_go_v1_8_0_new_connect_sidecar_task_cluster() {
    let mut group = two_sidecar_services();
    group["Services"] =
        json!([{"Name": "api", "Cluster": "infra", "Connect": {"SidecarService": {}}}]);
    let targets = |release| {
        let job = mutated(job_with(group.clone(), json!({})), release).unwrap();
        let c = &job["TaskGroups"][0]["Tasks"][0]["Constraints"];
        (c[0]["LTarget"].clone(), c[1]["LTarget"].clone())
    };
    assert_eq!(
        targets(v(1, 8, 0)),
        (
            json!("${attr.consul.infra.version}"),
            json!("${attr.consul.infra.grpc}")
        )
    );
    assert_eq!(
        targets(v(1, 7, 1)),
        (
            json!("${attr.consul.version}"),
            json!("${attr.consul.grpc}")
        )
    );
}

/// `TestJobEndpointConnect_ConnectInterpolation`: the task is named after
/// the interpolated service name.
#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_connect_interpolation() {
    let mut group = two_sidecar_services();
    group["Services"] = json!([{"Name": "${JOB}-api", "Connect": {"SidecarService": {}}},
                               {"Name": "${NOMAD_JOB_NAME}-${NOMAD_GROUP_NAME}-db",
                                "Connect": {"SidecarService": {}}}]);
    let job = mutated(job_with(group, json!({})), v(2, 0, 5)).unwrap();
    let names: Vec<&str> = job["TaskGroups"][0]["Tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["Name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["connect-proxy-my-job-api", "connect-proxy-my-job-web-db"]
    );
}

/// A `sidecar_task` block merges over the injected task, with the API's
/// defaults of the block (`SidecarTask.MergeIntoTask` after
/// `api.SidecarTask.Canonicalize`): 100 MHz unless set, 300 MB, ten 10 MB
/// log files, no shutdown delay.
#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_sidecar_task_merged() {
    let mut group = two_sidecar_services();
    group["Services"] = json!([{"Name": "api", "Connect": {
        "SidecarService": {"Port": "envoy"},
        "SidecarTask": {"Resources": {"CPU": 500}, "Config": {"image": "envoy:v1"},
                        "Env": {"A": "b"}, "KillSignal": "SIGINT"}}}]);
    let job = mutated(job_with(group, json!({})), v(2, 0, 5)).unwrap();
    let t = &job["TaskGroups"][0]["Tasks"][0];
    assert_eq!(t["Resources"], json!({"CPU": 500, "MemoryMB": 300}));
    assert_eq!(
        t["LogConfig"],
        json!({"MaxFiles": 10, "MaxFileSizeMB": 10, "Disabled": false})
    );
    assert_eq!(
        (t["ShutdownDelay"].clone(), t["KillTimeout"].clone()),
        (json!(0), json!(5 * S))
    );
    assert_eq!(t["Config"]["image"], "envoy:v1");
    assert_eq!(t["Config"]["args"][0], "-c", "the args are kept");
    assert_eq!(
        (t["Env"].clone(), t["KillSignal"].clone()),
        (json!({"A": "b"}), json!("SIGINT"))
    );
    let ports = &job["TaskGroups"][0]["Networks"][0]["DynamicPorts"];
    assert_eq!(
        ports,
        &json!([{"Label": "envoy", "Value": 0, "To": -1, "HostNetwork": "default"}])
    );
}

/// `TestJobEndpointConnect_getNamedTaskForNativeService`.
#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_get_named_task_for_native_service() {
    let native = |task_name: &str, tasks: &[&str]| {
        let group = json!({
            "Name": "g1", "Networks": [{"Mode": "host"}],
            "Services": [{"Name": "s1", "TaskName": task_name, "Connect": {"Native": true}}],
            "Tasks": tasks.iter().map(|t| json!({"Name": t, "Driver": "exec"})).collect::<Vec<_>>(),
        });
        mutated(job_with(group, json!({})), v(2, 0, 5))
    };
    let job = native("", &["t1"]).unwrap();
    let g = &job["TaskGroups"][0];
    assert_eq!(g["Tasks"][0]["Kind"], "connect-native:s1");
    assert_eq!(g["Services"][0]["TaskName"], "t1", "inferred");
    let job = native("t2", &["t1", "t2"]).unwrap();
    assert_eq!(
        job["TaskGroups"][0]["Tasks"][1]["Kind"],
        "connect-native:s1"
    );
    assert_eq!(
        native("", &["t1", "t2"]).unwrap_err(),
        "task for Consul Connect Native service g1->s1 is ambiguous and must be set"
    );
    assert_eq!(
        native("t3", &["t1", "t2"]).unwrap_err(),
        "task t3 named by Consul Connect Native service g1->s1 does not exist"
    );
}
