//! `contrib/snapshot-from-api.sh` against a small fake Nomad HTTP API that
//! serves the node-down incident (and a job in a second namespace) and
//! checks the ACL token; the snapshot it assembles replays like the fixture.
//! Skipped, with a note, when `curl` or `jq` is not installed.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::{Value, json};

const TOKEN: &str = "5e1f-secret-token";
const NOW: &str = "2022-04-01T03:12:00Z";
/// An allocation the list names but that is collected when fetched.
const GONE: &str = "9f0e1d2c-0000-4000-8000-00000000dead";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn installed(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// The cluster the fake API serves: the node-down incident's jobs,
/// allocations and nodes, and a job `batch-report` in namespace `staging`.
fn cluster() -> Value {
    let text = std::fs::read_to_string(root().join("fixtures/incidents/node-down.json")).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    let mut staging = doc["Jobs"][0].clone();
    staging["ID"] = json!("batch-report");
    staging["Name"] = json!("batch-report");
    staging["Namespace"] = json!("staging");
    doc["Jobs"].as_array_mut().unwrap().push(staging);
    doc
}

/// A fake Nomad agent on a free local port: GET only, JSON bodies, 403
/// without the token, 404 for anything else. Records each request as
/// `path namespace`.
struct FakeNomad {
    addr: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl FakeNomad {
    fn start() -> FakeNomad {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        let cluster = cluster();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                serve(stream, &cluster, &log);
            }
        });
        FakeNomad { addr, requests }
    }
}

fn serve(mut stream: TcpStream, cluster: &Value, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request = String::new();
    reader.read_line(&mut request).unwrap();
    let mut token = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("x-nomad-token")
        {
            token = Some(value.trim().to_string());
        }
    }
    let target = request.split(' ').nth(1).unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let query: BTreeMap<&str, String> = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k, percent_decode(v)))
        .collect();
    let namespace = query.get("namespace").map_or("default", String::as_str);
    match query.get("region") {
        Some(region) => log
            .lock()
            .unwrap()
            .push(format!("{path} {namespace} region={region}")),
        None => log.lock().unwrap().push(format!("{path} {namespace}")),
    }
    let (status, body) = if token.as_deref() != Some(TOKEN) {
        ("403 Forbidden", "Permission denied".to_string())
    } else {
        match route(cluster, path, namespace) {
            Some(v) => ("200 OK", v.to_string()),
            None => ("404 Not Found", format!("{path} not found")),
        }
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
}

/// The body Nomad would send for `path` in `namespace` (`*` for all).
fn route(cluster: &Value, path: &str, namespace: &str) -> Option<Value> {
    let in_ns = |v: &&Value| namespace == "*" || v["Namespace"] == namespace;
    let list = |key: &str| cluster[key].as_array().cloned().unwrap_or_default();
    let find = |key: &str, id: &str| {
        list(key)
            .into_iter()
            .find(|v| v["ID"] == id && (key == "Nodes" || in_ns(&v)))
    };
    let parts: Vec<String> = path.split('/').skip(2).map(percent_decode).collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    match parts.as_slice() {
        ["jobs"] => Some(
            list("Jobs")
                .iter()
                .filter(in_ns)
                .map(|j| {
                    json!({"ID": j["ID"], "Name": j["Name"], "Namespace": j["Namespace"],
                           "Type": j["Type"], "Status": j["Status"], "JobSummary": {}})
                })
                .collect(),
        ),
        ["job", id] => find("Jobs", id),
        ["job", id, "versions"] => {
            find("Jobs", id).map(|j| json!({"Versions": [j], "Diffs": null}))
        }
        ["allocations"] => {
            // The list also names an allocation collected since.
            let gone = json!({"ID": GONE, "Namespace": "default", "JobID": "web"});
            let stubs = list("Allocs").into_iter().filter(|a| in_ns(&a)).map(|a| {
                json!({"ID": a["ID"], "Namespace": a["Namespace"], "JobID": a["JobID"],
                       "NodeID": a["NodeID"], "ClientStatus": a["ClientStatus"]})
            });
            Some(stubs.chain(in_ns(&&gone).then_some(gone)).collect())
        }
        ["allocation", id] => find("Allocs", id),
        ["nodes"] => Some(
            list("Nodes")
                .iter()
                .map(|n| json!({"ID": n["ID"], "Name": n["Name"], "Status": n["Status"]}))
                .collect(),
        ),
        ["node", id] => find("Nodes", id),
        ["deployments"] => Some(list("Deployments").iter().filter(in_ns).cloned().collect()),
        ["evaluations"] => Some(json!([])),
        _ => None,
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(b) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Runs the script with the given environment (on top of a clean one).
fn script(server: &FakeNomad, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("bash");
    c.arg(root().join("contrib/snapshot-from-api.sh"))
        .env("NOMAD_ADDR", &server.addr)
        .env_remove("NOMAD_TOKEN")
        .env_remove("NOMAD_NAMESPACE")
        .env_remove("NOMAD_CACERT")
        .env_remove("NOMAD_CLIENT_CERT")
        .env_remove("NOMAD_CLIENT_KEY")
        .env_remove("NOMAD_CAPATH")
        .env_remove("NOMAD_REGION")
        .env_remove("NOMAD_SKIP_VERIFY")
        .env_remove("NOMAD_TLS_SERVER_NAME");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// The JSON report plan-inspect gives for `snapshot` at the incident's time.
fn replayed(snapshot: &Path) -> Value {
    let out = Command::cargo_bin("plan-inspect")
        .unwrap()
        .arg(snapshot)
        .args(["--now", NOW, "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A directory of this test process under the temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("plan-inspect-contrib-{}", std::process::id()))
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn saved(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch("snapshots").join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn job_ids(report: &Value) -> Vec<String> {
    report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            format!(
                "{}/{}",
                j["namespace"].as_str().unwrap(),
                j["id"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn snapshot_from_api_replays_like_the_snapshot_it_mirrors() {
    if !installed("curl") || !installed("jq") {
        eprintln!("curl or jq is not installed: contrib/snapshot-from-api.sh not tested");
        return;
    }
    let server = FakeNomad::start();
    let out = script(&server, &[("NOMAD_TOKEN", TOKEN), ("NOMAD_NAMESPACE", "*")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "snapshot-from-api: reading 3 jobs (namespace *)\n\
             snapshot-from-api: reading 5 allocations\n\
             snapshot-from-api: GET /v1/allocation/{GONE} (namespace default): gone since listed, left out\n\
             snapshot-from-api: reading 3 nodes\n\
             snapshot-from-api: 4 allocations and 3 nodes read; writing the snapshot\n"
        )
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["Jobs"].as_array().unwrap().len(), 3);
    assert_eq!(doc["JobVersions"].as_array().unwrap().len(), 3);
    assert_eq!(doc["Nodes"].as_array().unwrap().len(), 3);
    assert_eq!(doc["Deployments"], json!([]));
    assert_eq!(doc["Evals"], json!([]));
    let allocs = doc["Allocs"].as_array().unwrap();
    assert_eq!(allocs.len(), 4);
    // Full allocations, not the list's stubs.
    assert!(allocs.iter().all(|a| a["Job"]["TaskGroups"].is_array()));
    assert!(allocs.iter().all(|a| a["DesiredTransition"].is_object()));
    assert!(doc["Now"].as_str().is_some_and(|t| t.ends_with('Z')));
    {
        let requests = server.requests.lock().unwrap();
        for expected in [
            "/v1/jobs *",
            "/v1/job/web default",
            "/v1/job/web/versions default",
            "/v1/job/batch-report staging",
            "/v1/allocation/2b7a4d3f-1c5e-4f90-b2d3-4e5f6a7b8c02 default",
            "/v1/node/8e2b7d9c-1e4a-4b3f-8c22-1d8f3a2c9b02 *",
            "/v1/deployments *",
            "/v1/evaluations *",
        ] {
            assert!(
                requests.iter().any(|r| r == expected),
                "{expected}: {requests:?}"
            );
        }
    }

    let report = replayed(&saved("all.json", &out.stdout));
    assert_eq!(
        job_ids(&report),
        ["default/cache", "default/web", "staging/batch-report"]
    );
    // The API's node stubs carry no resources: the placement stage says it
    // did not check fit there, and nothing else is warned about.
    let codes: Vec<&str> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.iter().all(|c| *c == "resource_fit_unknown"),
        "{codes:?}"
    );
    let fixture = replayed(&root().join("fixtures/incidents/node-down.json"));
    assert_eq!(report["jobs"][0], fixture["jobs"][0]);
    assert_eq!(report["jobs"][1], fixture["jobs"][1]);
    let plan = &report["jobs"][1]["plan"];
    assert_eq!(
        plan["stop"][0]["alloc_id"],
        "2b7a4d3f-1c5e-4f90-b2d3-4e5f6a7b8c02"
    );
    assert_eq!(
        plan["stop"][0]["description"],
        "alloc is lost since its node is down"
    );
    assert_eq!(plan["place"][0]["name"], "web.web[1]");
    assert_eq!(plan["place"][0]["lost"], true);
}

#[test]
fn snapshot_from_api_reads_the_default_namespace_unless_told() {
    if !installed("curl") || !installed("jq") {
        eprintln!("curl or jq is not installed: contrib/snapshot-from-api.sh not tested");
        return;
    }
    let server = FakeNomad::start();
    let out = script(&server, &[("NOMAD_TOKEN", TOKEN)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = replayed(&saved("default.json", &out.stdout));
    assert_eq!(job_ids(&report), ["default/cache", "default/web"]);
    let out = script(
        &server,
        &[("NOMAD_TOKEN", TOKEN), ("NOMAD_NAMESPACE", "staging")],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["Jobs"][0]["ID"], "batch-report");
    assert_eq!(doc["Allocs"], json!([]));
}

#[test]
fn snapshot_from_api_fails_clearly() {
    if !installed("curl") || !installed("jq") {
        eprintln!("curl or jq is not installed: contrib/snapshot-from-api.sh not tested");
        return;
    }
    let server = FakeNomad::start();
    let out = script(&server, &[("NOMAD_TOKEN", "wrong")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "snapshot-from-api: GET /v1/jobs (namespace default): HTTP 403: Permission denied\n"
    );
    // No agent listening.
    let gone = FakeNomad {
        addr: "http://127.0.0.1:9".to_string(),
        requests: Arc::default(),
    };
    let out = script(&gone, &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("snapshot-from-api: GET /v1/jobs (namespace default): curl: (7)"),
        "{stderr}"
    );
    // Without jq: a PATH that holds curl alone.
    let dir = scratch("bin");
    let curl = which("curl");
    let _ = std::os::unix::fs::symlink(&curl, dir.join("curl"));
    let out = Command::new(which("bash"))
        .arg(root().join("contrib/snapshot-from-api.sh"))
        .env("PATH", &dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "snapshot-from-api: jq is required but not installed\n"
    );
}

#[test]
fn snapshot_from_api_has_help_and_refuses_arguments() {
    let out = Command::new("bash")
        .arg(root().join("contrib/snapshot-from-api.sh"))
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.starts_with("Assembles a snapshot"), "{help}");
    for var in [
        "NOMAD_ADDR",
        "NOMAD_REGION",
        "NOMAD_NAMESPACE",
        "NOMAD_TOKEN",
        "NOMAD_CACERT",
        "NOMAD_CAPATH",
        "NOMAD_CLIENT_CERT",
        "NOMAD_CLIENT_KEY",
        "NOMAD_TLS_SERVER_NAME",
        "NOMAD_SKIP_VERIFY",
    ] {
        assert!(help.contains(var), "{var}: {help}");
    }
    let out = Command::new("bash")
        .arg(root().join("contrib/snapshot-from-api.sh"))
        .arg("state.json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "snapshot-from-api: unexpected argument state.json; see --help\n"
    );
}

#[test]
fn snapshot_from_api_asks_the_region_it_is_given() {
    if !installed("curl") || !installed("jq") {
        eprintln!("curl or jq is not installed: contrib/snapshot-from-api.sh not tested");
        return;
    }
    let server = FakeNomad::start();
    let out = script(
        &server,
        &[("NOMAD_TOKEN", TOKEN), ("NOMAD_REGION", "eu west")],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let requests = server.requests.lock().unwrap();
    assert!(!requests.is_empty());
    assert!(
        requests.iter().all(|r| r.ends_with(" region=eu west")),
        "{requests:?}"
    );
}

/// TLS settings reach curl as the nomad CLI applies them: the certificate
/// is checked against NOMAD_TLS_SERVER_NAME while the connection goes to
/// NOMAD_ADDR's host, and NOMAD_SKIP_VERIFY turns verification off. A curl
/// that records its arguments stands in front of the real one.
#[test]
fn snapshot_from_api_applies_tls_settings_like_the_nomad_cli() {
    if !installed("curl") || !installed("jq") {
        eprintln!("curl or jq is not installed: contrib/snapshot-from-api.sh not tested");
        return;
    }
    let dir = scratch("recording-curl");
    let log = dir.join("args");
    let wrapper = dir.join("curl");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            which("curl").display()
        ),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&wrapper).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&wrapper, perms).unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |env: &[(&str, &str)]| {
        let _ = std::fs::remove_file(&log);
        let mut c = Command::new("bash");
        c.arg(root().join("contrib/snapshot-from-api.sh"))
            .env("PATH", &path)
            .env("NOMAD_ADDR", "https://127.0.0.1:9")
            .env_remove("NOMAD_TLS_SERVER_NAME")
            .env_remove("NOMAD_SKIP_VERIFY");
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        (out, std::fs::read_to_string(&log).unwrap_or_default())
    };
    let (out, args) = run(&[
        ("NOMAD_TLS_SERVER_NAME", "server.global.nomad"),
        ("NOMAD_SKIP_VERIFY", "true"),
    ]);
    // Nothing listens there: one clear failure after the first request.
    assert_eq!(out.status.code(), Some(1));
    let args: Vec<&str> = args.lines().collect();
    assert!(args.contains(&"--insecure"), "{args:?}");
    let connect = args
        .iter()
        .position(|a| *a == "--connect-to")
        .expect("--connect-to");
    assert_eq!(args[connect + 1], "server.global.nomad:9:127.0.0.1:9");
    assert!(
        args.iter()
            .any(|a| a.starts_with("https://server.global.nomad:9/v1/jobs?")),
        "{args:?}"
    );
    let (_, args) = run(&[]);
    assert!(
        !args.contains("--insecure") && !args.contains("--connect-to"),
        "{args}"
    );
    let (out, _) = run(&[("NOMAD_SKIP_VERIFY", "maybe")]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "snapshot-from-api: NOMAD_SKIP_VERIFY=maybe is not a boolean (true, false, 1, 0)\n"
    );
}

fn which(tool: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{tool} not on PATH"))
}
