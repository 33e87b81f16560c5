//! An unchanged Connect job file planned against the job a 1.8.0 server
//! stored for it (the sidecar task the Connect mutator injected included),
//! and the admission errors of the mutator.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::super::{DiffType, admit, plan_job};
use super::connect::S;
use super::endpoint::options;
use crate::model::{Release, Snapshot, v};
use crate::replay::Options;
use crate::version::VersionRequest;

/// The countdash API group as `nomad job run -output` prints it: what the
/// HCL gives, no defaults, no sidecar task.
fn countdash_file() -> Map<String, Value> {
    serde_json::from_value(json!({
        "ID": "countdash", "Name": "countdash", "Datacenters": ["dc1"],
        "TaskGroups": [{
            "Name": "api",
            "Networks": [{"Mode": "bridge", "DynamicPorts": [{"Label": "http", "To": 9001}]}],
            "Services": [{"Name": "count-api", "PortLabel": "9001",
                          "Connect": {"SidecarService": {}}}],
            "Tasks": [{"Name": "web", "Driver": "docker",
                       "Config": {"image": "hashicorpdev/counter-api:v3"}}]
        }]
    }))
    .unwrap()
}

/// The stored countdash job as a 1.8.0 server writes it (`nomad job
/// inspect`): every default of the job file's blocks, the implied
/// constraints, and the injected sidecar task and port.
fn countdash_stored() -> Value {
    let restart = json!({"Attempts": 2, "Interval": 1800 * S, "Delay": 15 * S,
                         "Mode": "fail", "RenderTemplates": false});
    json!({
        "Region": "global", "Namespace": "default", "ID": "countdash", "Name": "countdash",
        "Type": "service", "Priority": 50, "AllAtOnce": false, "Datacenters": ["dc1"],
        "NodePool": "default", "Constraints": null, "Affinities": null, "Spreads": null,
        "Update": {"Stagger": 30 * S, "MaxParallel": 1, "HealthCheck": "", "MinHealthyTime": 0,
                   "HealthyDeadline": 0, "ProgressDeadline": 0, "AutoRevert": false,
                   "AutoPromote": false, "Canary": 0},
        "Periodic": null, "ParameterizedJob": null, "Dispatched": false, "Payload": null,
        "Meta": null, "ConsulToken": "", "ConsulNamespace": "", "VaultToken": "",
        "VaultNamespace": "", "NomadTokenID": "", "Stop": false, "ParentID": "",
        "Status": "running", "StatusDescription": "", "Stable": true, "Version": 0,
        "SubmitTime": 1_700_000_000_000_000_000_i64, "CreateIndex": 10, "ModifyIndex": 12,
        "JobModifyIndex": 10,
        "TaskGroups": [countdash_group(&restart)]
    })
}

/// The stored job's group: its defaults and implied constraints, then
/// its network, services and tasks.
fn countdash_group(restart: &Value) -> Value {
    let mut g = json!({
            "Name": "api", "Count": 1,
            "Update": {"Stagger": 30 * S, "MaxParallel": 1, "HealthCheck": "checks",
                       "MinHealthyTime": 10 * S, "HealthyDeadline": 300 * S,
                       "ProgressDeadline": 600 * S, "AutoRevert": false, "AutoPromote": false,
                       "Canary": 0},
            "Migrate": {"MaxParallel": 1, "HealthCheck": "checks", "MinHealthyTime": 10 * S,
                        "HealthyDeadline": 300 * S},
            "Constraints": [
                {"LTarget": "${attr.consul.version}", "RTarget": ">= 1.8.0", "Operand": "semver"},
                {"LTarget": "${attr.plugins.cni.version.bridge}", "RTarget": ">= 0.4.0", "Operand": "semver"},
                {"LTarget": "${attr.plugins.cni.version.firewall}", "RTarget": ">= 0.4.0", "Operand": "semver"},
                {"LTarget": "${attr.plugins.cni.version.host-local}", "RTarget": ">= 0.4.0", "Operand": "semver"},
                {"LTarget": "${attr.plugins.cni.version.loopback}", "RTarget": ">= 0.4.0", "Operand": "semver"},
                {"LTarget": "${attr.plugins.cni.version.portmap}", "RTarget": ">= 0.4.0", "Operand": "semver"}
            ],
            "Scaling": null,
            "RestartPolicy": restart,
            "ReschedulePolicy": {"Attempts": 0, "Interval": 0, "Delay": 30 * S,
                                 "DelayFunction": "exponential", "MaxDelay": 3600 * S,
                                 "Unlimited": true},
            "EphemeralDisk": {"Sticky": false, "SizeMB": 300, "Migrate": false},
            "Affinities": null, "Spreads": null, "Volumes": null, "Meta": null
    });
    let more = json!({
            "Networks": [{"Mode": "bridge", "Device": "", "CIDR": "", "IP": "", "Hostname": "",
                          "MBits": 0, "DNS": null, "ReservedPorts": null,
                          "DynamicPorts": [{"Label": "http", "Value": 0, "To": 9001,
                                            "HostNetwork": "default"},
                                           {"Label": "connect-proxy-count-api", "Value": 0,
                                            "To": -1, "HostNetwork": "default"}],
                          "CNI": null}],
            "Consul": {"Namespace": "", "Cluster": "default", "Partition": ""},
            "Services": [{
                "Name": "count-api", "TaskName": "", "PortLabel": "9001",
                "AddressMode": "auto", "Address": "", "EnableTagOverride": false,
                "Tags": null, "CanaryTags": null, "Checks": null,
                "Connect": {"Native": false, "Gateway": null, "SidecarTask": null,
                            "SidecarService": {"Tags": null, "Port": "", "Proxy": null,
                                               "DisableDefaultTCPCheck": false, "Meta": null}},
                "Meta": null, "CanaryMeta": null, "TaggedAddresses": null,
                "Namespace": "default", "OnUpdate": "require_healthy", "Provider": "consul",
                "Cluster": "default", "Identity": null
            }]
    });
    let rest = json!({
            "ShutdownDelay": null, "StopAfterClientDisconnect": null,
            "MaxClientDisconnect": null, "PreventRescheduleOnLost": false, "Disconnect": null,
            "Tasks": [web_task(restart), proxy_task(restart)]
    });
    for extra in [more, rest] {
        for (k, val) in extra.as_object().unwrap() {
            g[k] = val.clone();
        }
    }
    g
}

/// The stored job's own task.
fn web_task(restart: &Value) -> Value {
    let mut t = json!({"Name": "web", "Driver": "docker", "User": "",
                 "Config": {"image": "hashicorpdev/counter-api:v3"}, "Env": null,
                 "Services": null, "Vault": null, "Consul": null, "Templates": null,
                 "Constraints": null, "Affinities": null,
                 "Resources": {"CPU": 100, "Cores": 0, "MemoryMB": 300, "MemoryMaxMB": 0,
                               "DiskMB": 0, "IOPS": 0, "Networks": null, "Devices": null,
                               "NUMA": null},
                 "RestartPolicy": restart, "DispatchPayload": null, "Lifecycle": null,
                 "Meta": null, "KillTimeout": 5 * S,
                 "LogConfig": {"MaxFiles": 10, "MaxFileSizeMB": 10, "Disabled": false},
                 "Artifacts": null, "Leader": false, "ShutdownDelay": 0,
                 "VolumeMounts": null, "ScalingPolicies": null, "KillSignal": "",
                 "Kind": "", "CSIPluginConfig": null,
                 "Identities": null, "Actions": null, "Schedule": null});
    t["Identity"] = default_identity();
    t
}

/// The stored sidecar task, as `newConnectSidecarTask` and
/// `Task.Canonicalize` leave it at 1.8.0.
fn proxy_task(restart: &Value) -> Value {
    let mut t = json!({"Name": "connect-proxy-count-api", "Driver": "docker", "User": "",
                 "Config": {"image": "${meta.connect.sidecar_image}",
                            "args": ["-c", "${NOMAD_SECRETS_DIR}/envoy_bootstrap.json",
                                     "-l", "${meta.connect.log_level}",
                                     "--concurrency", "${meta.connect.proxy_concurrency}",
                                     "--disable-hot-restart"]},
                 "Env": null, "Services": null, "Vault": null, "Consul": null,
                 "Templates": null,
                 "Constraints": [
                    {"LTarget": "${attr.consul.version}", "RTarget": ">= 1.8.0", "Operand": "semver"},
                    {"LTarget": "${attr.consul.grpc}", "RTarget": "0", "Operand": ">"}],
                 "Affinities": null,
                 "Resources": {"CPU": 250, "Cores": 0, "MemoryMB": 128, "MemoryMaxMB": 0,
                               "DiskMB": 0, "IOPS": 0, "Networks": null, "Devices": null,
                               "NUMA": null},
                 "RestartPolicy": restart, "DispatchPayload": null,
                 "Lifecycle": {"Hook": "prestart", "Sidecar": true},
                 "Meta": null, "KillTimeout": 5 * S,
                 "LogConfig": {"MaxFiles": 2, "MaxFileSizeMB": 2, "Disabled": false},
                 "Artifacts": null, "Leader": false, "ShutdownDelay": 5 * S,
                 "VolumeMounts": null, "ScalingPolicies": null, "KillSignal": "",
                 "Kind": "connect-proxy:count-api", "CSIPluginConfig": null,
                 "Identities": null, "Actions": null, "Schedule": null});
    t["Identity"] = default_identity();
    t
}

fn default_identity() -> Value {
    json!({"Name": "default", "Audience": ["nomadproject.io"], "ChangeMode": "", "ChangeSignal": "",
           "Env": false, "File": false, "ServiceName": "", "TTL": 0})
}

fn plan_at(stored: Option<Value>, file: Map<String, Value>, release: Release) -> DiffType {
    let snapshot = match stored {
        Some(job) => {
            let text = job.to_string();
            Snapshot {
                jobs: vec![Arc::new(crate::model::from_slice(text.as_bytes()).unwrap())],
                planned_job_text: Some(text),
                ..Snapshot::default()
            }
        }
        None => Snapshot::default(),
    };
    let at = Options {
        nomad_version: Some(VersionRequest::Release(release)),
        ..options()
    };
    let (_, plan) = plan_job(&snapshot, file, &at).unwrap();
    plan.diff.kind
}

/// An unchanged Connect job file plans no change against the job the
/// server stored, from the HCL's JSON and from `nomad job inspect`'s.
#[test]
fn job_endpoint_hook_connect_test_go_v1_8_0_an_unchanged_connect_job_plans_nothing() {
    let stored = countdash_stored();
    assert_eq!(
        plan_at(Some(stored.clone()), countdash_file(), v(1, 8, 0)),
        DiffType::None
    );
    let inspected = stored.as_object().unwrap().clone();
    assert_eq!(
        plan_at(Some(stored.clone()), inspected, v(1, 8, 0)),
        DiffType::None
    );
    let mut bigger = countdash_file();
    bigger["TaskGroups"][0]["Services"][0]["Connect"]["SidecarTask"] =
        json!({"Resources": {"MemoryMB": 256}});
    assert_eq!(plan_at(Some(stored), bigger, v(1, 8, 0)), DiffType::Edited);
}

/// Admission keeps a native service's task and refuses one it cannot find.
#[test]
fn job_endpoint_hook_connect_test_go_v2_0_5_native_task_not_found_is_refused() {
    let mut file = countdash_file();
    file["TaskGroups"][0]["Services"][0]["Connect"] = json!({"Native": true});
    file["TaskGroups"][0]["Services"][0]["TaskName"] = json!("nope");
    let err = admit(file, v(2, 0, 5), None).unwrap_err().to_string();
    assert!(
        err.contains(
            "task nope named by Consul Connect Native service api->count-api does not exist"
        ),
        "{err}"
    );
}

/// An exposed check as a 1.8.0 server stores it: its generated port
/// `svc_count-api_ck_aaeca5` (the digits begin SHA-1 of the check's hash
/// text, computed with Python's hashlib), the port on the group's network,
/// and the expose path on the sidecar's proxy. The job file with
/// `expose = true` and no port plans no change against it; a second check
/// is a change.
#[test]
fn job_endpoint_hook_expose_check_test_go_v1_8_0_an_unchanged_exposed_check_plans_nothing() {
    let label = "svc_count-api_ck_aaeca5";
    let mut stored = countdash_stored();
    let g = &mut stored["TaskGroups"][0];
    g["Networks"][0]["DynamicPorts"]
        .as_array_mut()
        .unwrap()
        .push(json!({"Label": label, "Value": 0, "To": -1, "HostNetwork": "default"}));
    let service = &mut g["Services"][0];
    service["Checks"] = json!([{
        "Name": "api-health", "Type": "http", "Command": "", "Args": null, "Path": "/health",
        "Protocol": "", "PortLabel": label, "Expose": true, "AddressMode": "",
        "Interval": 10 * S, "Timeout": 2 * S, "InitialStatus": "", "TLSServerName": "",
        "TLSSkipVerify": false, "Method": "", "Header": null, "CheckRestart": null,
        "GRPCService": "", "GRPCUseTLS": false, "TaskName": "", "SuccessBeforePassing": 0,
        "FailuresBeforeCritical": 0, "FailuresBeforeWarning": 0, "Body": "",
        "OnUpdate": "require_healthy"
    }]);
    service["Connect"]["SidecarService"]["Proxy"] = json!({
        "LocalServiceAddress": "", "LocalServicePort": 0, "Upstreams": null, "Config": null,
        "TransparentProxy": null,
        "Expose": {"Paths": [{"Path": "/health", "Protocol": "", "LocalPathPort": 9001,
                              "ListenerPort": label}]}
    });
    let mut file = countdash_file();
    file["TaskGroups"][0]["Services"][0]["Checks"] = json!([{
        "Name": "api-health", "Type": "http", "Path": "/health", "Expose": true,
        "Interval": 10 * S, "Timeout": 2 * S
    }]);
    assert_eq!(
        plan_at(Some(stored.clone()), file.clone(), v(1, 8, 0)),
        DiffType::None
    );
    let inspected = stored.as_object().unwrap().clone();
    assert_eq!(
        plan_at(Some(stored.clone()), inspected, v(1, 8, 0)),
        DiffType::None
    );
    let mut two = file;
    two["TaskGroups"][0]["Services"][0]["Checks"]
        .as_array_mut()
        .unwrap()
        .push(
            json!({"Name": "ready", "Type": "http", "Path": "/ready", "Expose": true,
                     "Interval": 10 * S, "Timeout": 2 * S}),
        );
    assert_eq!(plan_at(Some(stored), two, v(1, 8, 0)), DiffType::Edited);
}

/// A group `consul` block with an admin partition as a 1.8.0 server stores
/// it: the partition constraint before the implied ones (the Consul hook
/// runs first). The job file plans no change; the inspected job gets the
/// constraint a second time, as the server appends it (a change).
#[test]
fn job_endpoint_hook_consul_go_v1_8_0_partition_constraint_plans_nothing() {
    let mut stored = countdash_stored();
    let g = &mut stored["TaskGroups"][0];
    g["Consul"] = json!({"Namespace": "", "Cluster": "default", "Partition": "foo"});
    let partition =
        json!({"LTarget": "${attr.consul.partition}", "RTarget": "foo", "Operand": "="});
    g["Constraints"]
        .as_array_mut()
        .unwrap()
        .insert(0, partition);
    let mut file = countdash_file();
    file["TaskGroups"][0]["Consul"] = json!({"Partition": "foo"});
    assert_eq!(
        plan_at(Some(stored.clone()), file, v(1, 8, 0)),
        DiffType::None
    );
    let inspected = stored.as_object().unwrap().clone();
    assert_eq!(
        plan_at(Some(stored), inspected, v(1, 8, 0)),
        DiffType::Edited
    );
}
