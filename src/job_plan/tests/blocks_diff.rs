//! nomad/structs/diff_test.go (v2.0.5, with the releases before a catalogue
//! row where it changes the answer): the job's multiregion and UI blocks,
//! a group's migrate block and CNI arguments, a task's workload identities
//! and actions, services' Connect blocks and `TestDiff_SidecarVolumes`.

use serde_json::{Value, json};

use super::super::connect_diff::sidecar_task;
use super::super::job_diff;
use super::super::service_diff::services;
use super::{expect, group_lines, lines, rules_of};
use crate::model::{Release, v};

const V2: Release = v(2, 0, 5);

/// The job-level objects of a diff of two jobs, as lines.
fn job_objects(old: Value, new: Value, release: Release) -> Vec<String> {
    let d = job_diff(Some(&old), &new, false, rules_of(release));
    let mut out = Vec::new();
    lines(&d.fields, &d.objects, 0, &mut out);
    out
}

/// The one group's diff of two groups, as lines.
fn group(old: Value, new: Value, release: Release) -> Vec<String> {
    let job = |g: Value| json!({"ID": "j", "TaskGroups": [g]});
    let d = job_diff(Some(&job(old)), &job(new), false, rules_of(release));
    group_lines(&d.task_groups[0])
}

/// The one task's diff of two tasks, as lines under its header.
fn task(old: Value, new: Value, release: Release) -> Vec<String> {
    let job = |t: Value| json!({"ID": "j", "TaskGroups": [{"Name": "g", "Tasks": [t]}]});
    let d = job_diff(Some(&job(old)), &job(new), false, rules_of(release));
    group_lines(&d.task_groups[0])
        .into_iter()
        .skip(2)
        .map(|l| l.strip_prefix("    ").unwrap_or(&l).to_string())
        .collect()
}

#[test]
fn diff_test_go_v2_0_5_job_diff_multiregion_region_added() {
    let region = |name: &str, count: i64, dcs: &[&str], code: &str| {
        json!({"Name": name, "Count": count, "Datacenters": dcs, "NodePool": "",
               "Meta": {"region_code": code}})
    };
    let old = json!({"ID": "j", "NomadTokenID": "abcdef", "Multiregion": {
        "Strategy": {"MaxParallel": 1, "OnFailure": "fail_all"},
        "Regions": [region("west", 1, &["west-1"], "W")]}});
    let new = json!({"ID": "j", "NomadTokenID": "12345", "Multiregion": {
        "Strategy": {"MaxParallel": 2, "OnFailure": "fail_all"},
        "Regions": [region("west", 3, &["west-2"], "W"),
                    region("east", 2, &["east-1", "east-2"], "E")]}});
    assert_eq!(
        job_objects(old, new, V2),
        expect(
            r#"
            Edited Multiregion {
              Edited Region {
                Edited Count: "1" => "3"
                Edited Datacenters {
                  Added Datacenters: "" => "west-2"
                  Deleted Datacenters: "west-1" => ""
                }
              }
              Added Region {
                Added Count: "" => "2"
                Added Meta[region_code]: "" => "E"
                Added Name: "" => "east"
                Added Datacenters {
                  Added Datacenters: "" => "east-1"
                  Added Datacenters: "" => "east-2"
                }
              }
              Edited Strategy {
                Edited MaxParallel: "1" => "2"
              }
            }
            "#
        )
    );
}

#[test]
fn diff_test_go_v2_0_5_job_diff_ui_added_and_edited() {
    let link = |label: &str, url: &str| json!({"Label": label, "Url": url});
    let old = json!({"ID": "j", "UI": {"Description": "", "Links": null}});
    let new = json!({"ID": "j", "UI": {"Description": "a job description",
        "Links": [link("example", "http://example.com")]}});
    assert_eq!(
        job_objects(old, new, V2),
        expect(
            r#"
            Edited UI {
              Added Description: "" => "a job description"
              Added Link {
                Added Label: "" => "example"
                Added Url: "" => "http://example.com"
              }
            }
            "#
        )
    );
    let old = json!({"ID": "j", "UI": {"Description": "old job description",
        "Links": [link("foo example", "http://foo.example.com")]}});
    let new = json!({"ID": "j", "UI": {"Description": "new job description",
        "Links": [link("bar example", "http://bar.example.com"),
                  link("baz example", "http://baz.example.com")]}});
    assert_eq!(
        job_objects(old, new, V2),
        expect(
            r#"
            Edited UI {
              Edited Description: "old job description" => "new job description"
              Edited Link {
                Edited Label: "foo example" => "bar example"
                Edited Url: "http://foo.example.com" => "http://bar.example.com"
              }
              Added Link {
                Added Label: "" => "baz example"
                Added Url: "" => "http://baz.example.com"
              }
            }
            "#
        )
    );
}

/// The job file's `URL` is the stored job's `Url`: an unchanged UI block
/// planned from an API job file is no change.
#[test]
fn an_api_ui_link_is_stored_as_nomad_stores_it() {
    let mut job = serde_json::Map::new();
    job.insert(
        "UI".into(),
        json!({"Description": "d", "Links": [{"Label": "l", "URL": "http://x"}]}),
    );
    super::super::api_names::to_stored(&mut job);
    assert_eq!(
        job["UI"]["Links"][0],
        json!({"Label": "l", "Url": "http://x"})
    );
}

#[test]
fn diff_test_go_v2_0_5_job_diff_vault_token_from_1_3_6() {
    let old = json!({"ID": "j", "VaultToken": ""});
    let new = json!({"ID": "j", "VaultToken": "s.token"});
    assert_eq!(
        job_objects(old.clone(), new.clone(), V2),
        Vec::<String>::new()
    );
    assert_eq!(
        job_objects(old.clone(), new.clone(), v(1, 3, 6)),
        Vec::<String>::new()
    );
    assert_eq!(
        job_objects(old, new, v(1, 3, 5)),
        expect(r#"Added VaultToken: "" => "s.token""#)
    );
}

#[test]
fn diff_test_go_v2_0_5_task_group_diff_edited_migrate() {
    let migrate = |p: i64, check: &str, min: i64, deadline: i64| {
        json!({"Name": "g", "Migrate": {"MaxParallel": p, "HealthCheck": check,
               "MinHealthyTime": min, "HealthyDeadline": deadline}})
    };
    let (old, new) = (
        migrate(1, "checks", 1_000_000_000, 60_000_000_000),
        migrate(5, "task_states", 5_000_000_000, 300_000_000_000),
    );
    assert_eq!(
        group(old.clone(), new.clone(), V2),
        expect(
            r#"
            Edited group "g"
              Edited Migrate {
                Edited HealthCheck: "checks" => "task_states"
                Edited HealthyDeadline: "60000000000" => "300000000000"
                Edited MaxParallel: "1" => "5"
                Edited MinHealthyTime: "1000000000" => "5000000000"
              }
            "#
        )
    );
    // Before #25528 (1.10.0) the group is edited but shows nothing.
    assert_eq!(group(old, new, v(1, 9, 7)), expect(r#"Edited group "g""#));
}

#[test]
fn diff_test_go_v2_0_5_task_group_diff_cni() {
    let net = |arg: Option<&str>| match arg {
        Some(a) => json!({"Name": "g", "Networks": [{"CNI": {"Args": {"example": a}}}]}),
        None => json!({"Name": "g", "Networks": []}),
    };
    assert_eq!(
        group(net(None), net(Some("example1")), V2),
        expect(
            r#"
            Edited group "g"
              Added Network {
                Added CNIConfig {
                  Added example: "" => "example1"
                }
              }
            "#
        )
    );
    assert_eq!(
        group(net(Some("example1")), net(None), V2),
        expect(
            r#"
            Edited group "g"
              Deleted Network {
                Deleted CNIConfig {
                  Deleted example: "example1" => ""
                }
              }
            "#
        )
    );
    assert_eq!(
        group(net(Some("example1")), net(Some("example2")), V2),
        expect(
            r#"
            Edited group "g"
              Added Network {
                Added CNIConfig {
                  Added example: "" => "example2"
                }
              }
              Deleted Network {
                Deleted CNIConfig {
                  Deleted example: "example1" => ""
                }
              }
            "#
        )
    );
}

/// #23489: a network's `MBits` is a field of the diff until 1.8.1.
#[test]
fn a_network_s_mbits_shows_before_1_8_2() {
    let net = |mbits: i64| json!({"Name": "g", "Networks": [{"Mode": "host", "MBits": mbits}]});
    assert_eq!(
        group(net(10), net(20), v(1, 8, 1)),
        expect(
            r#"
            Edited group "g"
              Added Network {
                Added MBits: "" => "20"
                Added Mode: "" => "host"
              }
              Deleted Network {
                Deleted MBits: "10" => ""
                Deleted Mode: "host" => ""
              }
            "#
        )
    );
    assert_eq!(
        group(net(10), net(20), v(1, 8, 2)),
        expect(
            r#"
            Edited group "g"
              Added Network {
                Added Mode: "" => "host"
              }
              Deleted Network {
                Deleted Mode: "host" => ""
              }
            "#
        )
    );
}

fn identity(env: bool, file: bool) -> Value {
    json!({"Name": "", "Audience": null, "ChangeMode": "", "ChangeSignal": "", "Env": env,
           "File": file, "Filepath": "", "ServiceName": "", "TTL": 0, "ExtraClaims": null})
}

#[test]
fn diff_test_go_v2_0_5_task_diff_identity() {
    let t = |id: Option<Value>| json!({"Name": "t", "Identity": id});
    assert_eq!(
        task(t(None), t(Some(identity(true, false))), V2),
        expect(
            r#"
            Added Identity {
              Added Env: "" => "true"
              Added File: "" => "false"
              Added TTL: "" => "0"
            }
            "#
        )
    );
    assert_eq!(
        task(t(Some(identity(true, false))), t(None), V2),
        expect(
            r#"
            Deleted Identity {
              Deleted Env: "true" => ""
              Deleted File: "false" => ""
              Deleted TTL: "0" => ""
            }
            "#
        )
    );
    assert_eq!(
        task(
            t(Some(identity(true, false))),
            t(Some(identity(true, true))),
            V2
        ),
        expect(
            r#"
            Edited Identity {
              Edited File: "false" => "true"
            }
            "#
        )
    );
}

/// Alternate identities are matched by name (`idSliceDiffs`); an audience
/// only added to is an added set.
#[test]
fn alternate_identities_are_matched_by_name() {
    let named = |name: &str, aud: &[&str], file: bool| {
        let mut id = identity(false, file);
        id["Name"] = name.into();
        id["Audience"] = json!(aud);
        id
    };
    let t = |ids: Value| json!({"Name": "t", "Identities": ids});
    let old = t(json!([named("consul", &["consul.io"], false)]));
    let new = t(json!([
        named("consul", &["consul.io", "nomad.dev"], true),
        named("vault", &["vault.io"], false)
    ]));
    assert_eq!(
        task(old, new, V2),
        expect(
            r#"
            Edited Identity {
              Edited File: "false" => "true"
              Added Audience {
                Added Audience: "" => "nomad.dev"
              }
            }
            Added Identity {
              Added Env: "" => "false"
              Added File: "" => "false"
              Added Name: "" => "vault"
              Added TTL: "" => "0"
              Added Audience {
                Added Audience: "" => "vault.io"
              }
            }
            "#
        )
    );
}

#[test]
fn diff_test_go_v2_0_5_task_diff_actions() {
    let action = |cmd: &str, args: &[&str]| json!({"Name": "foo", "Command": cmd, "Args": args});
    let t = |a: Value| json!({"Name": "t", "Actions": a});
    assert_eq!(
        task(t(json!([])), t(json!([action("echo", &["bar"])])), V2),
        expect(
            r#"
            Added Action {
              Added Command: "" => "echo"
              Added Name: "" => "foo"
              Added Args {
                Added Args: "" => "bar"
              }
            }
            "#
        )
    );
    assert_eq!(
        task(t(json!([action("echo", &["bar"])])), t(json!(null)), V2),
        expect(
            r#"
            Deleted Action {
              Deleted Command: "echo" => ""
              Deleted Name: "foo" => ""
              Deleted Args {
                Deleted Args: "bar" => ""
              }
            }
            "#
        )
    );
    assert_eq!(
        task(
            t(json!([action("bar", &["hello world"])])),
            t(json!([action("baz", &["hello world"])])),
            V2
        ),
        expect(
            r#"
            Edited Action {
              Edited Command: "bar" => "baz"
            }
            "#
        )
    );
}

#[test]
fn a_task_schedule_is_its_cron_block() {
    let t = |s: Value| json!({"Name": "t", "Schedule": s});
    let cron = |start: &str| json!({"Cron": {"Start": start, "End": "0 17", "Timezone": "UTC"}});
    assert_eq!(
        task(t(cron("0 9 * * mon-fri")), t(cron("0 8 * * mon-fri")), V2),
        expect(
            r#"
            Edited Schedule {
              Edited Start: "0 9 * * mon-fri" => "0 8 * * mon-fri"
            }
            "#
        )
    );
    assert_eq!(
        task(t(Value::Null), t(cron("0 9 * * *")), V2),
        expect(
            r#"
            Added Schedule {
              Added End: "" => "0 17"
              Added Start: "" => "0 9 * * *"
              Added Timezone: "" => "UTC"
            }
            "#
        )
    );
}

/// #20575: a task's volume mounts show from 1.8.0.
#[test]
fn a_task_s_volume_mounts_show_from_1_8_0() {
    let mount = |ro: bool| {
        json!({"Name": "t", "VolumeMounts": [{"Volume": "v", "Destination": "/d",
               "ReadOnly": ro, "PropagationMode": "private", "SELinuxLabel": ""}]})
    };
    assert_eq!(
        task(mount(false), mount(true), v(1, 8, 0)),
        expect(
            r#"
            Edited VolumeMount {
              Edited ReadOnly: "false" => "true"
            }
            "#
        )
    );
    assert_eq!(
        task(mount(false), mount(true), v(1, 7, 7)),
        Vec::<String>::new()
    );
}

fn service_lines(old: Value, new: Value, release: Release) -> Vec<String> {
    let mut out = Vec::new();
    lines(
        &[],
        &services(Some(&old), Some(&new), false, rules_of(release)),
        0,
        &mut out,
    );
    out
}

#[test]
fn diff_test_go_v2_0_5_task_diff_service_with_connect() {
    let old = json!([{"Name": "foo"}]);
    let new = json!([{"Name": "foo", "Connect": {"Native": false, "SidecarService": {
        "Tags": null, "Port": "", "Proxy": null, "DisableDefaultTCPCheck": false, "Meta": null},
        "SidecarTask": null, "Gateway": null}}]);
    assert_eq!(
        service_lines(old.clone(), new, V2),
        expect(
            r#"
            Edited Service {
              Added ConsulConnect {
                Added Native: "" => "false"
                Added SidecarService {
                  Added DisableDefaultTCPCheck: "" => "false"
                }
              }
            }
            "#
        )
    );
    let native = json!([{"Name": "foo", "TaskName": "task1", "Connect": {"Native": true}}]);
    assert_eq!(
        service_lines(old, native, V2),
        expect(
            r#"
            Edited Service {
              Added TaskName: "" => "task1"
              Added ConsulConnect {
                Added Native: "" => "true"
              }
            }
            "#
        )
    );
}

fn webapp(upstream: Value, expose: Value) -> Value {
    json!([{"Name": "webapp", "Provider": "consul", "PortLabel": "http", "Connect": {
        "Native": false, "SidecarService": {"Port": "http", "Proxy": {
            "LocalServiceAddress": "127.0.0.1", "LocalServicePort": 8080,
            "Upstreams": [upstream], "Expose": expose, "TransparentProxy": null}}}}])
}

/// `TestServicesDiff` "ConsulUpstream with different Upstreams", and the
/// releases before #20144, whose proxy diff has no transparent proxy.
#[test]
fn diff_test_go_v2_0_5_services_diff_consul_upstreams() {
    let old = json!({"DestinationName": "count-api", "LocalBindPort": 8080,
        "Datacenter": "dc2", "LocalBindAddress": "127.0.0.1",
        "DestinationType": "prepared_query", "MeshGateway": {"Mode": "remote"}});
    let mut new = old.clone();
    new["LocalBindSocketMode"] = "0700".into();
    new["LocalBindSocketPath"] = "/tmp/redis_5678.sock".into();
    new["DestinationPeer"] = "cloud-services".into();
    new["DestinationPartition"] = "infra".into();
    new["DestinationType"] = "service".into();
    let upstreams = r#"
            Edited Service {
              Edited ConsulConnect {
                Edited SidecarService {
                  Edited ConsulProxy {
                    Edited ConsulUpstreams {
                      Added DestinationPartition: "" => "infra"
                      Added DestinationPeer: "" => "cloud-services"
                      Edited DestinationType: "prepared_query" => "service"
                      Added LocalBindSocketMode: "" => "0700"
                      Added LocalBindSocketPath: "" => "/tmp/redis_5678.sock"
                    }"#;
    let (o, n) = (webapp(old, Value::Null), webapp(new, Value::Null));
    let mut want = expect(upstreams);
    want.extend(expect(
        r#"
                    None TransparentProxy {
                    }
                  }
                }
              }
            }
            "#,
    ));
    let got = service_lines(o.clone(), n.clone(), V2);
    assert_eq!(
        got.iter().map(|l| l.trim()).collect::<Vec<_>>(),
        want.iter().map(|l| l.trim()).collect::<Vec<_>>()
    );
    let before = service_lines(o, n, v(1, 7, 7));
    assert!(
        !before.iter().any(|l| l.contains("TransparentProxy")),
        "{before:?}"
    );
    assert_eq!(before.len(), want.len() - 2);
}

/// #19990: expose paths show from 1.5.16, 1.6.9, 1.7.6 and 1.8.0.
#[test]
fn a_proxy_s_expose_paths_show_from_the_fix() {
    let up = json!({"DestinationName": "db", "LocalBindPort": 5432});
    let path = json!({"Path": "/health", "Protocol": "http", "LocalPathPort": 8080,
                      "ListenerPort": "expose"});
    let (old, new) = (
        webapp(up.clone(), Value::Null),
        webapp(up, json!({"Paths": [path]})),
    );
    let got = service_lines(old.clone(), new.clone(), v(1, 7, 6));
    let want = expect(
        r#"
        Added Expose {
          Added Paths {
            Added ListenerPort: "" => "expose"
            Added LocalPathPort: "" => "8080"
            Added Path: "" => "/health"
            Added Protocol: "" => "http"
          }
        }
        "#,
    );
    let trimmed: Vec<&str> = got.iter().map(|l| l.trim()).collect();
    let want: Vec<&str> = want.iter().map(|l| l.trim()).collect();
    assert!(trimmed.windows(want.len()).any(|w| w == want), "{got:#?}");
    let before = service_lines(old, new, v(1, 7, 5));
    assert!(!before.iter().any(|l| l.contains("Expose")), "{before:?}");
}

/// `TestDiff_SidecarVolumes`.
#[test]
fn diff_test_go_v2_0_5_diff_sidecar_volumes() {
    let sidecar = |name: &str,
                   driver: &str,
                   user: &str,
                   config: Value,
                   env: Value,
                   cores: i64,
                   affinity: &str,
                   mounts: Value| {
        json!({"Name": name, "Driver": driver, "User": user, "Config": config, "Env": env,
            "Resources": {"CPU": 0, "Cores": cores, "MemoryMB": 0, "MemoryMaxMB": 0,
                          "DiskMB": 0, "IOPS": 0, "SecretsMB": 0, "Networks": null,
                          "Devices": null, "NUMA": {"Affinity": affinity, "Devices": null}},
            "Meta": {"meta": "val"}, "KillTimeout": 10_000_000_000i64,
            "LogConfig": {"MaxFiles": 3, "MaxFileSizeMB": 100, "Disabled": false},
            "ShutdownDelay": 20_000_000_000i64, "KillSignal": "SIGUSR1",
            "VolumeMounts": mounts, "Identities": null})
    };
    let mount = |vol: &str, ro: bool| {
        json!({"Volume": vol, "Destination": "", "ReadOnly": ro, "PropagationMode": "",
               "SELinuxLabel": ""})
    };
    let old = sidecar(
        "old",
        "docker",
        "sidecar",
        json!({"foo": "bar"}),
        json!({"FOO": "BAR"}),
        2,
        "none",
        json!([mount("foo", true)]),
    );
    let new = sidecar(
        "new",
        "podman",
        "proxy",
        json!({"eggs": "spam"}),
        json!({"EGGS": "SPAM"}),
        4,
        "prefer",
        json!([mount("foo", false), mount("bar", true)]),
    );
    let diff = sidecar_task(Some(&old), Some(&new), true, rules_of(V2)).unwrap();
    let mut got = Vec::new();
    lines(&[], &[diff], 0, &mut got);
    assert_eq!(
        got,
        expect(
            r#"
            Edited SidecarTask {
              Edited Driver: "docker" => "podman"
              Added Env[EGGS]: "" => "SPAM"
              Deleted Env[FOO]: "BAR" => ""
              Edited Name: "old" => "new"
              Edited User: "sidecar" => "proxy"
              Edited Config {
                Added eggs: "" => "spam"
                Deleted foo: "bar" => ""
              }
              Edited Resources {
                None CPU: "0" => "0"
                Edited Cores: "2" => "4"
                None DiskMB: "0" => "0"
                None IOPS: "0" => "0"
                None MemoryMB: "0" => "0"
                None MemoryMaxMB: "0" => "0"
                None SecretsMB: "0" => "0"
                Edited NUMA {
                  Edited Affinity: "none" => "prefer"
                }
              }
              Edited VolumeMount {
                None Destination: "" => ""
                None PropagationMode: "" => ""
                Edited ReadOnly: "true" => "false"
                None SELinuxLabel: "" => ""
                None Volume: "foo" => "foo"
              }
              Added VolumeMount {
                None Destination: "" => ""
                None PropagationMode: "" => ""
                Added ReadOnly: "" => "true"
                None SELinuxLabel: "" => ""
                Added Volume: "" => "bar"
              }
            }
            "#
        )
    );
    // Before #25878 (1.10.2, 1.11.0) the mounts do not show.
    let before = sidecar_task(Some(&old), Some(&new), true, rules_of(v(1, 10, 1))).unwrap();
    assert!(before.objects.iter().all(|o| o.name != "VolumeMount"));
}

/// `TestTaskGroupDiff` "TaskGroup Services edited" (contextual), the
/// gateway of its Connect block.
#[test]
fn diff_test_go_v2_0_5_task_group_diff_services_edited_gateway() {
    let gateway = |timeout: i64,
                   tagged: bool,
                   addr: &str,
                   port: i64,
                   dns: &str,
                   nodef: bool,
                   foo: i64,
                   tls: bool,
                   listener: Value,
                   linked: &str| {
        json!({
            "Proxy": {"ConnectTimeout": timeout, "EnvoyGatewayBindTaggedAddresses": tagged,
                "EnvoyGatewayBindAddresses": {"service1": {"Address": addr, "Port": port}},
                "EnvoyDNSDiscoveryType": dns, "EnvoyGatewayNoDefaultBind": nodef,
                "Config": {"foo": foo}},
            "Ingress": {"TLS": {"Enabled": tls, "TLSMinVersion": "", "TLSMaxVersion": "",
                                "CipherSuites": null, "SDS": null},
                        "Listeners": [listener]},
            "Terminating": {"Services": [{"Name": linked, "CAFile": format!("ca{}.pem", &linked[6..]),
                "CertFile": format!("cert{}.pem", &linked[6..]),
                "KeyFile": format!("key{}.pem", &linked[6..]), "SNI": format!("{linked}.consul")}]},
            "Mesh": {}})
    };
    let old = gateway(
        1_000_000_000,
        false,
        "10.0.0.1",
        2001,
        "STRICT_DNS",
        false,
        1,
        false,
        json!({"Port": 3001, "Protocol": "tcp", "Services": [{"Name": "listener1", "Hosts": null}]}),
        "linked1",
    );
    let new = gateway(
        2_000_000_000,
        true,
        "10.0.0.2",
        2002,
        "LOGICAL_DNS",
        true,
        2,
        true,
        json!({"Port": 3002, "Protocol": "http", "Services": [{"Name": "listener2",
               "Hosts": ["127.0.0.1", "127.0.0.1:3002"]}]}),
        "linked2",
    );
    let diff = super::super::gateway_diff::gateway(Some(&old), Some(&new), true).unwrap();
    let mut got = Vec::new();
    lines(&[], &[diff], 0, &mut got);
    assert_eq!(
        got,
        expect(
            r#"
            Edited Gateway {
              Edited Proxy {
                Edited ConnectTimeout: "1s" => "2s"
                Edited EnvoyDNSDiscoveryType: "STRICT_DNS" => "LOGICAL_DNS"
                Edited EnvoyGatewayBindTaggedAddresses: "false" => "true"
                Edited EnvoyGatewayNoDefaultBind: "false" => "true"
                Edited EnvoyGatewayBindAddresses {
                  Edited service1: "10.0.0.1:2001" => "10.0.0.2:2002"
                }
                Edited Config {
                  Edited foo: "1" => "2"
                }
              }
              Edited Ingress {
                Edited TLS {
                  Edited Enabled: "false" => "true"
                  None TLSMaxVersion: "" => ""
                  None TLSMinVersion: "" => ""
                }
                Added Listener {
                  Added Port: "" => "3002"
                  Added Protocol: "" => "http"
                  Added ConsulIngressService {
                    Added Name: "" => "listener2"
                    Added Hosts {
                      Added Hosts: "" => "127.0.0.1"
                      Added Hosts: "" => "127.0.0.1:3002"
                    }
                  }
                }
                Deleted Listener {
                  Deleted Port: "3001" => ""
                  Deleted Protocol: "tcp" => ""
                  Deleted ConsulIngressService {
                    Deleted Name: "listener1" => ""
                  }
                }
              }
              Edited Terminating {
                Added Service {
                  Added CAFile: "" => "ca2.pem"
                  Added CertFile: "" => "cert2.pem"
                  Added KeyFile: "" => "key2.pem"
                  Added Name: "" => "linked2"
                  Added SNI: "" => "linked2.consul"
                }
                Deleted Service {
                  Deleted CAFile: "ca1.pem" => ""
                  Deleted CertFile: "cert1.pem" => ""
                  Deleted KeyFile: "key1.pem" => ""
                  Deleted Name: "linked1" => ""
                  Deleted SNI: "linked1.consul" => ""
                }
              }
            }
            "#
        )
    );
}

/// `TestServicesDiff` "Service with different identity name and aud".
#[test]
fn diff_test_go_v2_0_5_services_diff_identity_name_and_aud() {
    let service = |name: &str, aud: &[&str], file: bool| {
        let mut id = identity(false, file);
        id["Name"] = name.into();
        id["Audience"] = json!(aud);
        json!([{"Name": name, "Provider": "consul", "PortLabel": "http", "Identity": id}])
    };
    assert_eq!(
        service_lines(
            service("test", &["consul.io"], true),
            service("test2", &["consul.io", "nomad.dev"], false),
            V2
        ),
        expect(
            r#"
            Edited Service {
              Edited Name: "test" => "test2"
              Edited Identity {
                Edited File: "true" => "false"
                Edited Name: "test" => "test2"
                Added Audience {
                  Added Audience: "" => "nomad.dev"
                }
              }
            }
            "#
        )
    );
}

/// `TestTaskGroupDiff` "TaskGroup Services edited" (contextual), the
/// sidecar service its Connect block gains.
#[test]
fn diff_test_go_v2_0_5_task_group_diff_services_edited_sidecar_service() {
    let old =
        json!({"Native": false, "SidecarService": null, "SidecarTask": null, "Gateway": null});
    let new = json!({"Native": true, "SidecarTask": null, "Gateway": null, "SidecarService": {
        "Tags": null, "Port": "http", "DisableDefaultTCPCheck": false, "Meta": null,
        "Proxy": {"LocalServiceAddress": "127.0.0.1", "LocalServicePort": 8080,
            "Upstreams": [{"DestinationName": "foo", "DestinationNamespace": "ns2",
                "DestinationPartition": "", "DestinationPeer": "", "DestinationType": "",
                "LocalBindPort": 8000, "Datacenter": "dc2", "LocalBindAddress": "127.0.0.2",
                "LocalBindSocketPath": "", "LocalBindSocketMode": "",
                "MeshGateway": {"Mode": "remote"}, "Config": null}],
            "Expose": {"Paths": [{"Path": "/health", "Protocol": "http", "LocalPathPort": 9001,
                                  "ListenerPort": "api_expose_healthcheck"}]},
            "Config": {"foo": "qux"},
            "TransparentProxy": {"UID": "101", "OutboundPort": 15001,
                "ExcludeInboundPorts": ["www", "9000"], "ExcludeOutboundPorts": [4443],
                "ExcludeOutboundCIDRs": ["10.0.0.0/8"], "ExcludeUIDs": ["1", "10"],
                "NoDNS": true}}}});
    let diff =
        super::super::connect_diff::connect(Some(&old), Some(&new), true, rules_of(V2)).unwrap();
    let mut got = Vec::new();
    lines(&[], &[diff], 0, &mut got);
    assert_eq!(
        got,
        expect(
            r#"
            Edited ConsulConnect {
              Edited Native: "false" => "true"
              Added SidecarService {
                Added DisableDefaultTCPCheck: "" => "false"
                Added Port: "" => "http"
                Added ConsulProxy {
                  Added LocalServiceAddress: "" => "127.0.0.1"
                  Added LocalServicePort: "" => "8080"
                  Added ConsulUpstreams {
                    Added Datacenter: "" => "dc2"
                    Added DestinationName: "" => "foo"
                    Added DestinationNamespace: "" => "ns2"
                    None DestinationPartition: "" => ""
                    None DestinationPeer: "" => ""
                    None DestinationType: "" => ""
                    Added LocalBindAddress: "" => "127.0.0.2"
                    Added LocalBindPort: "" => "8000"
                    None LocalBindSocketMode: "" => ""
                    None LocalBindSocketPath: "" => ""
                    Added MeshGateway {
                      Added Mode: "" => "remote"
                    }
                  }
                  Added Expose {
                    Added Paths {
                      Added ListenerPort: "" => "api_expose_healthcheck"
                      Added LocalPathPort: "" => "9001"
                      Added Path: "" => "/health"
                      Added Protocol: "" => "http"
                    }
                  }
                  Added TransparentProxy {
                    Added NoDNS: "" => "true"
                    Added OutboundPort: "" => "15001"
                    Added UID: "" => "101"
                    Added ExcludeInboundPorts {
                      Added ExcludeInboundPorts: "" => "9000"
                      Added ExcludeInboundPorts: "" => "www"
                    }
                    Added ExcludeOutboundPorts {
                      Added ExcludeOutboundPorts: "" => "4443"
                    }
                    Added ExcludeOutboundCIDRs {
                      Added ExcludeOutboundCIDRs: "" => "10.0.0.0/8"
                    }
                    Added ExcludeUIDs {
                      Added ExcludeUIDs: "" => "1"
                      Added ExcludeUIDs: "" => "10"
                    }
                  }
                  Added Config {
                    Added foo: "" => "qux"
                  }
                }
              }
            }
            "#
        )
    );
}

/// `TestTaskDiff` "Secret edited", "Secret added", "Secret deleted".
#[test]
fn diff_test_go_v2_0_5_task_diff_secrets() {
    let secret = |provider: &str, path: &str, foo: &str, env: Value| {
        json!({"Name": "foo", "Provider": provider, "Path": path, "Config": {"foo": foo},
               "Env": env})
    };
    let t = |s: Value| json!({"Name": "t", "Secrets": s});
    assert_eq!(
        task(
            t(json!([secret(
                "bar",
                "/foo/bar",
                "bar",
                json!({"foo": "bar"})
            )])),
            t(json!([secret(
                "bar1",
                "/foo/bar1",
                "bar1",
                json!({"foo": "bar"})
            )])),
            V2
        ),
        expect(
            r#"
            Edited Secret {
              Edited Config[foo]: "bar" => "bar1"
              Edited Path: "/foo/bar" => "/foo/bar1"
              Edited Provider: "bar" => "bar1"
            }
            "#
        )
    );
    let one = t(json!([secret("bar", "/foo/bar", "bar", Value::Null)]));
    assert_eq!(
        task(t(json!([])), one.clone(), V2),
        expect(
            r#"
            Added Secret {
              Added Config[foo]: "" => "bar"
              Added Name: "" => "foo"
              Added Path: "" => "/foo/bar"
              Added Provider: "" => "bar"
            }
            "#
        )
    );
    assert_eq!(
        task(one, t(json!([])), V2),
        expect(
            r#"
            Deleted Secret {
              Deleted Config[foo]: "bar" => ""
              Deleted Name: "foo" => ""
              Deleted Path: "/foo/bar" => ""
              Deleted Provider: "bar" => ""
            }
            "#
        )
    );
}

/// `TestTaskDiff` "Artifacts edited": artifacts are matched by their
/// destination (`TaskArtifact.DiffID`), so one is edited in place.
#[test]
fn diff_test_go_v2_0_5_task_diff_artifacts_edited() {
    let artifact =
        |source: &str, options: Value, headers: Value, mode: &str, dest: &str, chown: bool| {
            json!({"GetterSource": source, "GetterOptions": options, "GetterHeaders": headers,
               "GetterMode": mode, "GetterInsecure": false, "RelativeDest": dest,
               "Chown": chown})
        };
    let t = |a: Value| json!({"Name": "t", "Artifacts": a});
    let old = t(json!([
        artifact("foo", json!({"foo": "bar"}), Value::Null, "", "foo", false),
        artifact(
            "bar",
            json!({"bar": "baz"}),
            json!({"User": "user1"}),
            "dir",
            "bar",
            false
        )
    ]));
    let new = t(json!([
        artifact(
            "foo/bar",
            json!({"foo": "bar"}),
            Value::Null,
            "",
            "foo",
            false
        ),
        artifact(
            "bam",
            json!({"bam": "baz"}),
            json!({"User": "user2", "User-Agent": "nomad"}),
            "file",
            "bam",
            true
        )
    ]));
    assert_eq!(
        task(old, new, V2),
        expect(
            r#"
            Edited Artifact {
              Edited GetterSource: "foo" => "foo/bar"
            }
            Added Artifact {
              Added Chown: "" => "true"
              Added GetterHeaders[User-Agent]: "" => "nomad"
              Added GetterHeaders[User]: "" => "user2"
              Added GetterInsecure: "" => "false"
              Added GetterMode: "" => "file"
              Added GetterOptions[bam]: "" => "baz"
              Added GetterSource: "" => "bam"
              Added RelativeDest: "" => "bam"
            }
            Deleted Artifact {
              Deleted Chown: "false" => ""
              Deleted GetterHeaders[User]: "user1" => ""
              Deleted GetterInsecure: "false" => ""
              Deleted GetterMode: "dir" => ""
              Deleted GetterOptions[bar]: "baz" => ""
              Deleted GetterSource: "bar" => ""
              Deleted RelativeDest: "bar" => ""
            }
            "#
        )
    );
}
