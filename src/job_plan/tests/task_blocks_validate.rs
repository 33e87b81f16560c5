//! The task's artifacts, templates, dispatch payload and lifecycle:
//! nomad/structs/structs_test.go `TestTask_Validate_Template`,
//! `TestTemplate_Validate`, `TestTaskArtifact_Validate_Dest`,
//! `TestTaskArtifact_Validate_Checksum` and the lifecycle and dispatch
//! payload cases (v1.3.0, v2.0.5).

use serde_json::{Map, Value, json};

use super::super::task_blocks_validate::task_block_errors;
use super::rules_of;
use crate::model::{Release, v};

fn errors(t: Value, r: Release) -> Vec<String> {
    task_block_errors(t.as_object().unwrap(), &Map::new(), rules_of(r))
}

fn template(tmpl: Value, r: Release) -> Vec<String> {
    errors(json!({"Templates": [tmpl]}), r)
}

/// `Template 1 validation failed: ...` with these errors.
fn failed(errs: &[&str]) -> Vec<String> {
    let list: String = errs.iter().map(|e| format!("\t* {e}\n")).collect();
    let what = if errs.len() == 1 { "error" } else { "errors" };
    vec![format!(
        "Template 1 validation failed: {} {what} occurred:\n{list}\n",
        errs.len()
    )]
}

#[test]
fn structs_test_go_v1_3_0_v2_0_5_template_validate() {
    let good = || json!({"SourcePath": "foo", "DestPath": "local/foo", "ChangeMode": "noop"});
    for (r, modes) in [
        (v(1, 3, 0), "noop, signal, restart"),
        (v(2, 0, 5), "noop, signal, script, restart"),
    ] {
        let invalid = format!("Invalid change mode. Must be one of the following: {modes}");
        assert_eq!(
            template(json!({}), r),
            failed(&[
                "Must specify a source path or have an embedded template",
                "Must specify a destination for the template",
                &invalid,
            ])
        );
        let mut t = good();
        t["Splay"] = json!(-100);
        assert_eq!(
            template(t, r),
            failed(&["Must specify positive splay value"])
        );
        let mut t = good();
        t["ChangeMode"] = json!("signal");
        assert_eq!(
            template(t, r),
            failed(&["Must specify signal value when change mode is signal"])
        );
        let mut t = good();
        t["DestPath"] = json!("../../root");
        assert_eq!(
            template(t, r),
            failed(&["destination escapes allocation directory"])
        );
        assert!(template(good(), r).is_empty());
        let mut t = good();
        t["Perms"] = json!("0444");
        assert!(template(t, r).is_empty());
        let mut t = good();
        t["Perms"] = json!("zza");
        assert_eq!(
            template(t, r),
            failed(&[
                "Failed to parse \"zza\" as octal: strconv.ParseUint: parsing \"zza\": invalid syntax"
            ])
        );
        let mut t = good();
        t["Perms"] = json!("17777");
        assert_eq!(
            template(t, r),
            failed(&[
                "Failed to parse \"17777\" as octal: strconv.ParseUint: parsing \"17777\": value out of range"
            ])
        );
        let wait = |min: i64, max: i64| {
            let mut t = good();
            t["Wait"] = json!({"Min": min * 1_000_000_000, "Max": max * 1_000_000_000});
            template(t, r)
        };
        assert_eq!(
            wait(10, 5),
            failed(&["wait min 10s is greater than max 5s"])
        );
        assert!(wait(5, 5).is_empty());
        assert!(wait(5, 10).is_empty());
    }
    // #13972 (1.3.4, 1.4.0): the script change mode.
    let script = |s: Value| {
        let mut t = good();
        t["ChangeMode"] = json!("script");
        if !s.is_null() {
            t["ChangeScript"] = s;
        }
        t
    };
    let r = v(2, 0, 5);
    assert_eq!(
        template(script(Value::Null), r),
        failed(&["must specify change script configuration value when change mode is script"])
    );
    assert_eq!(
        template(script(json!({"Command": ""})), r),
        failed(&["must specify script path value when change mode is script"])
    );
    assert!(template(script(json!({"Command": "/bin/foo"})), r).is_empty());
    assert!(template(script(json!({"Command": "/bin/foo"})), v(1, 3, 4)).is_empty());
    assert_eq!(
        template(script(json!({"Command": "/bin/foo"})), v(1, 3, 3)),
        failed(&["Invalid change mode. Must be one of the following: noop, signal, restart"])
    );
}

#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_validate_template() {
    for r in [v(1, 3, 0), v(2, 0, 5)] {
        let good = json!({"SourcePath": "foo", "DestPath": "local/foo", "ChangeMode": "noop"});
        assert_eq!(
            errors(json!({"Templates": [good, good]}), r),
            ["Template 2 has same destination as 1"]
        );
        let env = json!({"Envvars": true, "ChangeMode": "signal", "ChangeSignal": "SIGHUP",
            "EmbeddedTmpl": "x", "DestPath": "local/env"});
        assert_eq!(
            errors(json!({"Templates": [env]}), r),
            failed(&["cannot use signals with env var templates"])
        );
    }
}

#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_artifact_validate_dest() {
    let artifact = |dest: &str| {
        errors(
            json!({"Artifacts": [{"GetterSource": "google.com", "RelativeDest": dest}]}),
            v(2, 0, 5),
        )
    };
    // Nomad's relative path starting `..` counts as escaping, so does a
    // directory `..x` beside the task's.
    for fine in ["", "local/", "local/..", "/etc/passwd", "../task2", "..x"] {
        assert!(artifact(fine).is_empty(), "{fine}");
    }
    for escaping in ["local/../../..", "../../x", "../..x"] {
        assert_eq!(
            artifact(escaping),
            [
                "Artifact 1 validation failed: 1 error occurred:\n\t* destination escapes allocation directory\n\n"
            ],
            "{escaping}"
        );
    }
    assert_eq!(
        errors(
            json!({"Artifacts": [{"GetterMode": "link", "RelativeDest": "local/"}]}),
            v(1, 3, 0)
        ),
        [
            "Artifact 1 validation failed: 2 errors occurred:\n\t* source must be specified\n\t* invalid artifact mode \"link\"; must be one of: any, file, dir\n\n"
        ]
    );
}

#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_artifact_validate_checksum() {
    let checked = |sum: &str| {
        errors(
            json!({"Artifacts": [{"GetterSource": "foo.com", "RelativeDest": "local/",
                "GetterOptions": {"checksum": sum}}]}),
            v(2, 0, 5),
        )
    };
    let one = |e: &str| {
        vec![format!(
            "Artifact 1 validation failed: 1 error occurred:\n\t* {e}\n\n"
        )]
    };
    assert_eq!(
        checked("md5:test"),
        one("invalid checksum: encoding/hex: invalid byte: U+0074 't'")
    );
    assert_eq!(
        checked("md5:abc"),
        one("invalid checksum: encoding/hex: odd length hex string")
    );
    assert_eq!(checked("md5:abcd"), one("invalid md5 checksum: abcd"));
    assert_eq!(
        checked("md5"),
        one("checksum must be given as \"type:value\"; got \"md5\"")
    );
    assert_eq!(checked("  "), one("checksum value cannot be empty"));
    assert_eq!(checked("crc:00"), one("unsupported checksum type: crc"));
    assert!(checked("md5:00112233445566778899aabbccddeeff").is_empty());
    assert!(checked("sha256:${ARTIFACT_CHECKSUM}").is_empty());
}

#[test]
fn dispatch_payload_and_lifecycle() {
    for r in [v(1, 3, 0), v(2, 0, 5)] {
        assert_eq!(
            errors(json!({"DispatchPayload": {"File": "../../../foo"}}), r),
            ["Dispatch Payload validation failed: destination escapes allocation directory"]
        );
        assert!(errors(json!({"DispatchPayload": {"File": "../secret"}}), r).is_empty());
        assert_eq!(
            errors(json!({"Lifecycle": {"Hook": ""}}), r),
            ["Lifecycle validation failed: no lifecycle hook provided"]
        );
        assert_eq!(
            errors(json!({"Lifecycle": {"Hook": "prestop"}}), r),
            ["Lifecycle validation failed: invalid hook: prestop"]
        );
        assert!(
            errors(
                json!({"Lifecycle": {"Hook": "poststop", "Sidecar": true}}),
                r
            )
            .is_empty()
        );
    }
}

/// `TestVault_Validate` (v1.3.0, v2.0.5) and the releases that changed it.
#[test]
fn structs_test_go_v1_3_0_v2_0_5_vault_validate() {
    let vault = |v: Value, r: Release| errors(json!({"Vault": v}), r);
    let failed = |errs: &[&str]| {
        let list: String = errs.iter().map(|e| format!("\t* {e}\n")).collect();
        let what = if errs.len() == 1 { "error" } else { "errors" };
        vec![format!(
            "Vault validation failed: {} {what} occurred:\n{list}\n",
            errs.len()
        )]
    };
    let bad = json!({"Policies": ["foo", "root"], "ChangeMode": "signal"});
    assert_eq!(
        vault(bad.clone(), v(1, 3, 0)),
        failed(&[
            "Can not specify \"root\" policy",
            "Signal must be specified when using change mode \"signal\""
        ])
    );
    // #25155 (1.10.0): the root policy is no longer refused.
    assert_eq!(
        vault(bad, v(2, 0, 5)),
        failed(&["Signal must be specified when using change mode \"signal\""])
    );
    // #18343 (1.7.0): no policies.
    let none = json!({"ChangeMode": "restart"});
    assert_eq!(
        vault(none.clone(), v(1, 6, 10)),
        failed(&["Policy list cannot be empty"])
    );
    assert!(vault(none, v(1, 7, 0)).is_empty());
    assert_eq!(
        vault(json!({"ChangeMode": "reload"}), v(2, 0, 5)),
        failed(&["Unknown change mode \"reload\""])
    );
}

/// The CSI plugin block (structs_test.go `TestTask_Validate_CSIPluginConfig`,
/// v1.3.0, v2.0.5), and from #19441 (1.5.12, 1.6.5, 1.7.2) the stage
/// directory outside the mount directory.
#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_validate_csi_plugin_config() {
    use super::super::vault_csi_validate::csi_plugin_errors;
    let csi = |c: Value, r: Release| {
        csi_plugin_errors(
            json!({"CSIPluginConfig": c}).as_object().unwrap(),
            rules_of(r),
        )
    };
    assert_eq!(
        csi(json!({"Type": "nonsense"}), v(1, 3, 0)),
        [
            "CSIPluginConfig must have a non-empty PluginID",
            "CSIPluginConfig PluginType must be one of 'node', 'controller', or 'monolith', got: \"nonsense\""
        ]
    );
    let nested = json!({"ID": "p", "Type": "node", "MountDir": "/csi",
        "StagePublishBaseDir": "/csi/stage"});
    assert_eq!(
        csi(nested.clone(), v(2, 0, 5)),
        [
            "CSIPluginConfig StagePublishBaseDir must not be a subdirectory of MountDir, got: StagePublishBaseDir=\"/csi/stage\" MountDir=\"/csi\""
        ]
    );
    assert!(csi(nested.clone(), v(1, 6, 4)).is_empty());
    assert_eq!(csi(nested, v(1, 6, 5)).len(), 1);
    for apart in ["/local/csi", "csi/stage", "/csi/../stage"] {
        let c = json!({"ID": "p", "Type": "monolith", "MountDir": "/csi",
            "StagePublishBaseDir": apart});
        assert!(csi(c, v(2, 0, 5)).is_empty(), "{apart}");
    }
}

/// actions_test.go `TestAction_Validate` (v2.0.5) and the task's duplicate
/// names, from #18904 (1.7.0).
#[test]
fn actions_test_go_v2_0_5_action_validate() {
    let actions = |a: Value, r: Release| errors(json!({"Actions": a}), r);
    let good = json!({"Name": "echo", "Command": "/bin/echo", "Args": ["hi"]});
    assert!(actions(json!([good]), v(2, 0, 5)).is_empty());
    let three = json!([good, good, good]);
    assert_eq!(
        actions(three.clone(), v(1, 7, 0)),
        ["Action echo defined multiple times"]
    );
    assert!(actions(three, v(1, 6, 10)).is_empty());
    let long = "x".repeat(129);
    assert_eq!(
        actions(json!([{"Name": "has space"}, {"Name": long, "Command": "c"},
                       {"Name": "é".repeat(128), "Command": "c"}]), v(2, 0, 5)),
        [
            "Action has space validation failed: 2 errors occurred:\n\t* command cannot be empty\n\t* invalid name 'has space'\n\n".to_string(),
            format!("Action {long} validation failed: 1 error occurred:\n\t* invalid name '{long}'\n\n"),
        ]
    );
}

/// structs_test.go `TestTask_Validate_Secret` and `TestSecrets_Validate`
/// (v2.0.5), from #26076 (1.11.0).
#[test]
fn structs_test_go_v2_0_5_task_validate_secret() {
    use super::super::actions_secrets_validate::secret_errors;
    let secrets = |t: Value, r: Release| secret_errors(t.as_object().unwrap(), rules_of(r));
    let good = json!({"Name": "db", "Provider": "nomad", "Path": "p"});
    assert!(secrets(json!({"Secrets": [good]}), v(2, 0, 5)).is_empty());
    let vault = json!({"Name": "db", "Provider": "vault", "Path": "p", "Env": {"A": "b"}});
    assert_eq!(
        secrets(json!({"Secrets": [good, vault]}), v(1, 11, 0)),
        [
            "Duplicate secret \"db\" found",
            "Secret \"db\" has provider \"vault\" but no vault block",
            "Secret \"db\" is invalid: 1 error occurred:\n\t* vault provider cannot use the env block\n\n",
        ]
    );
    assert!(secrets(json!({"Secrets": [good, good]}), v(1, 10, 5)).is_empty());
    let custom = json!({"Name": "bad-name", "Provider": "", "Config": {"a": 1}});
    assert_eq!(
        secrets(json!({"Secrets": [custom]}), v(2, 0, 5)),
        [
            "Secret \"bad-name\" is invalid: 4 errors occurred:\n\t* secret name must match regex ^[a-zA-Z0-9_]{1,128}$\n\t* secret provider cannot be empty\n\t* secret path cannot be empty\n\t* custom plugin provider  cannot use the config block\n\n"
        ]
    );
}

/// structs_test.go `TestTask_Validate_ConnectProxyKind` (v1.3.0, v2.0.5):
/// a proxy task with services or leadership, and its service missing from
/// the group's Connect services; `stanza` before #15941.
#[test]
fn structs_test_go_v1_3_0_v2_0_5_task_validate_connect_proxy_kind() {
    let proxy = |t: Value, services: Value, r: Release| {
        let g = json!({"Services": services});
        task_block_errors(t.as_object().unwrap(), g.as_object().unwrap(), rules_of(r))
    };
    let sidecar = |name: &str| json!({"Name": name, "Connect": {"SidecarService": {}}});
    let t = json!({"Kind": "connect-proxy:redis", "Leader": true,
        "Services": [{"Name": "x"}]});
    assert_eq!(
        proxy(t.clone(), json!([]), v(1, 3, 0)),
        [
            "Connect proxy task must not have a service stanza",
            "Connect proxy task must not have leader set",
            "No Connect services in task group with Connect proxy (\"redis\")"
        ]
    );
    assert_eq!(
        proxy(
            t,
            json!([sidecar("db"), {"Name": "redis"}, sidecar("web")]),
            v(2, 0, 5)
        ),
        [
            "Connect proxy task must not have a service block",
            "Connect proxy task must not have leader set",
            "Connect proxy service name (\"redis\") not found in Connect services from task group: [db web]"
        ]
    );
    let ok = json!({"Kind": "connect-proxy:redis"});
    assert!(proxy(ok, json!([sidecar("redis")]), v(2, 0, 5)).is_empty());
}
