//! `--format html` in a real browser: Debian's headless Chromium driven by
//! chromedriver over WebDriver (plain HTTP on a local port, a small client
//! on `TcpStream`). The page of the what-if cluster's story must render
//! without console errors, with a lane per node, a bar per allocation and a
//! tick per evaluation where the timeline says. Without Chromium the test
//! fails under `CI=true` and is skipped with a note otherwise.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::what_if_cli::{OPERATOR_STORY, STORY, run};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One HTTP/1.1 request to the driver; the JSON body of its answer.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream
        .write_all(format!("{head}{body}").as_bytes())
        .map_err(|e| e.to_string())?;
    let (headers, payload) = read_answer(&mut stream)?;
    let value: Value = serde_json::from_str(&payload).map_err(|e| format!("{e}: {payload}"))?;
    if !headers.starts_with("HTTP/1.1 200") {
        return Err(format!("{method} {path}: {headers}: {value}"));
    }
    Ok(value["value"].clone())
}

/// The head and body of one answer: chromedriver keeps the connection
/// open, so the body is read by its `Content-Length`.
fn read_answer(stream: &mut TcpStream) -> Result<(String, String), String> {
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte).map_err(|e| e.to_string())? {
            0 => {
                return Err(format!(
                    "the driver hung up: {}",
                    String::from_utf8_lossy(&raw)
                ));
            }
            _ => raw.push(byte[0]),
        }
    }
    let headers = String::from_utf8_lossy(&raw).to_string();
    let length = headers
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        })
        .ok_or_else(|| format!("no Content-Length: {headers}"))?;
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).map_err(|e| e.to_string())?;
    Ok((headers, String::from_utf8_lossy(&body).to_string()))
}

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver { child, port };
        let started = Instant::now();
        while !ready(port) {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver never got ready"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        driver
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// chromedriver answers its status as ready.
fn ready(port: u16) -> bool {
    request(port, "GET", "/status", None).is_ok_and(|v| v["ready"] == json!(true))
}

/// A browser session, ended when dropped.
struct Session<'d> {
    driver: &'d Driver,
    id: String,
}

impl<'d> Session<'d> {
    fn new(driver: &'d Driver, profile: &Path) -> Session<'d> {
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    format!("--user-data-dir={}", profile.display()),
                ]
            },
            "goog:loggingPrefs": {"browser": "ALL"}
        }}});
        let created = request(driver.port, "POST", "/session", Some(&capabilities))
            .unwrap_or_else(|e| panic!("no browser session: {e}"));
        Session {
            driver,
            id: created["sessionId"].as_str().unwrap().to_string(),
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let path = format!("/session/{}{path}", self.id);
        request(self.driver.port, method, &path, body).unwrap_or_else(|e| panic!("{e}"))
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(&json!({"script": script, "args": []})),
        )
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = request(
            self.driver.port,
            "DELETE",
            &format!("/session/{}", self.id),
            None,
        );
    }
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether Chromium and its driver are here; without them a test is
/// skipped with a note, and fails under `CI=true`.
fn browser_here() -> bool {
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and no {CHROMIUM} or {CHROMEDRIVER}: .ci/run installs chromium and chromium-driver"
        );
        eprintln!(
            "note: skipping the browser test: install Debian's chromium and chromium-driver to run it"
        );
        return false;
    }
    true
}

/// The browser's console errors since the session started.
fn console_errors(driver: &Driver, session: &Session) -> Vec<Value> {
    let logs = request(
        driver.port,
        "POST",
        &format!("/session/{}/se/log", session.id),
        Some(&json!({"type": "browser"})),
    )
    .unwrap_or_else(|e| panic!("the browser's console log: {e}"));
    logs.as_array()
        .unwrap()
        .iter()
        .filter(|l| l["level"] == "SEVERE")
        .cloned()
        .collect()
}

#[test]
fn the_timeline_page_renders_in_chromium() {
    if !browser_here() {
        return;
    }
    let mut args = vec!["tests/what-if/cluster.json", "--format", "html"];
    args.extend(STORY);
    let (code, html, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    let (_, json, _) = run(&[
        &["tests/what-if/cluster.json", "--format", "json"],
        &STORY[..],
    ]
    .concat());
    let story: Value = serde_json::from_str(&json).unwrap();
    let dir = scratch("browser");
    let page = dir.join("story.html");
    std::fs::write(&page, &html).unwrap();

    let driver = Driver::start();
    let session = Session::new(&driver, &dir.join("profile"));
    session.call(
        "POST",
        "/url",
        Some(&json!({"url": format!("file://{}", page.display())})),
    );
    let drawn = session.script(
        r#"
        const at = (e) => { const r = e.getBoundingClientRect(); return {x: r.left, w: r.width, y: r.top}; };
        const lanes = [...document.querySelectorAll('svg#timeline g.lane')].map(g => ({
            node: g.dataset.node,
            label: g.querySelector('text').textContent,
            box: at(g),
            bars: [...g.querySelectorAll('rect.bar')].map(r => ({alloc: r.dataset.alloc, status: r.dataset.status, box: at(r)})),
            unknown: [...g.querySelectorAll('rect.unknown')].map(r => ({alloc: r.dataset.alloc, box: at(r)})),
            disconnect: [...g.querySelectorAll('line.disconnect')].map(l => ({at: l.dataset.at, box: at(l)})),
        }));
        const ticks = [...document.querySelectorAll('svg#timeline line.tick')].map(l => ({
            eval: l.dataset.eval, trigger: l.dataset.trigger, at: l.dataset.at, box: at(l)}));
        const expiry = [...document.querySelectorAll('svg#timeline line.expiry')].map(l => ({at: l.dataset.at, box: at(l)}));
        return {lanes, ticks, expiry, title: document.title, tables: document.querySelector('pre').textContent};
        "#,
    );
    let errors = console_errors(&driver, &session);
    assert!(errors.is_empty(), "console errors: {errors:?}");

    assert_eq!(drawn["title"], "plan-inspect timeline");
    // A lane per node, labelled by name, each drawn.
    let lanes = drawn["lanes"].as_array().unwrap();
    let labels: Vec<&str> = lanes.iter().map(|l| l["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["client-1", "client-2", "client-3"]);
    // A bar per allocation live at the start, on its node's lane, drawn
    // to the end (nothing in this story stops one).
    let mut bars = 0;
    for lane in lanes {
        for bar in lane["bars"].as_array().unwrap() {
            bars += 1;
            assert!(bar["box"]["w"].as_f64().unwrap() > 100.0, "{bar}");
            assert_eq!(bar["status"], "running");
        }
    }
    assert_eq!(bars, 5);
    // Ticks in the timeline's order, placed by time: same instant, same x;
    // later, further right.
    let ticks = drawn["ticks"].as_array().unwrap();
    let timeline = story["timeline"].as_array().unwrap();
    assert_eq!(ticks.len(), timeline.len());
    for (tick, entry) in ticks.iter().zip(timeline) {
        assert_eq!(tick["eval"], entry["evaluation"]["id"]);
        assert_eq!(tick["trigger"], entry["evaluation"]["triggered_by"]);
        assert_eq!(tick["at"], entry["at"]);
    }
    let x = |v: &Value| v["box"]["x"].as_f64().unwrap();
    for pair in ticks.windows(2) {
        match (pair[0]["at"] == pair[1]["at"], x(&pair[1]) - x(&pair[0])) {
            (true, d) => assert!(d.abs() < 0.5, "{pair:?}"),
            (false, d) => assert!(d > 10.0, "{pair:?}"),
        }
    }
    // client-2: the missed heartbeat at the first tick, the unknown stretch
    // from there to the reconnect (the +15m ticks), the expiry at +25m.
    let client2 = &lanes[1];
    let down = &client2["disconnect"][0];
    assert_eq!(down["at"], "2022-04-01T03:17:00Z");
    assert!((x(down) - x(&ticks[0])).abs() < 2.0);
    let unknown = &client2["unknown"][0];
    assert_eq!(unknown["alloc"], "2b7a4d3f-1c5e-4f90-b2d3-4e5f6a7b8c02");
    let end = x(unknown) + unknown["box"]["w"].as_f64().unwrap();
    assert!((x(unknown) - x(&ticks[0])).abs() < 2.0);
    assert!((end - x(&ticks[2])).abs() < 2.0, "{unknown} {}", ticks[2]);
    let expiry = &drawn["expiry"][0];
    assert_eq!(expiry["at"], "2022-04-01T03:37:00Z");
    assert!((x(expiry) - x(ticks.last().unwrap())).abs() < 2.0);
    // The tables come along.
    assert!(
        drawn["tables"]
            .as_str()
            .unwrap()
            .contains("max-disconnect-timeout")
    );
    drop(session);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The operator's story drawn: each request Nomad took in the operator's
/// blue, each it refused in grey (a hollow dot, a dashed line); a health
/// request's dot on its allocation's bar, red where set unhealthy, at the
/// tick of the evaluation written with it; a deployment request's line
/// across every lane.
#[test]
fn the_operators_requests_render_in_chromium() {
    if !browser_here() {
        return;
    }
    let (code, html, stderr) = run(&OPERATOR_STORY);
    assert_eq!(code, 0, "{stderr}");
    let json_args: Vec<&str> = OPERATOR_STORY
        .iter()
        .copied()
        .filter(|a| *a != "html")
        .chain(["json"])
        .collect();
    let (_, json, _) = run(&json_args);
    let story: Value = serde_json::from_str(&json).unwrap();
    let dir = scratch("browser-operator");
    let page = dir.join("story.html");
    std::fs::write(&page, &html).unwrap();

    let driver = Driver::start();
    let session = Session::new(&driver, &dir.join("profile"));
    session.call(
        "POST",
        "/url",
        Some(&json!({"url": format!("file://{}", page.display())})),
    );
    let drawn = session.script(
        r#"
        const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
        const marks = [...document.querySelectorAll('svg#timeline .operator')].map(m => {
            const s = getComputedStyle(m);
            const bar = m.dataset.alloc
                ? m.closest('g.lane').querySelector(`rect.bar[data-alloc="${m.dataset.alloc}"]`) : null;
            return {tag: m.tagName, event: m.dataset.event, at: m.dataset.at, refused: m.dataset.refused || null,
                    health: m.dataset.health || null, stroke: s.stroke, fill: s.fill, dash: s.strokeDasharray,
                    box: box(m), bar: bar ? box(bar) : null};
        });
        const ticks = [...document.querySelectorAll('svg#timeline line.tick')].map(l => ({eval: l.dataset.eval, box: box(l)}));
        const lanes = [...document.querySelectorAll('svg#timeline g.lane')].map(box);
        return {marks, ticks, lanes};
        "#,
    );
    let errors = console_errors(&driver, &session);
    assert!(errors.is_empty(), "console errors: {errors:?}");

    const BLUE: &str = "rgb(31, 95, 191)";
    const GREY: &str = "rgb(119, 119, 119)";
    let marks = drawn["marks"].as_array().unwrap();
    assert_eq!(marks.len(), 6, "{marks:?}");
    let f = |v: &Value, k: &str| v["box"][k].as_f64().unwrap();
    let lanes = drawn["lanes"].as_array().unwrap();
    let (top, bottom) = (
        lanes[0]["y"].as_f64().unwrap(),
        lanes
            .last()
            .map(|l| l["y"].as_f64().unwrap() + l["h"].as_f64().unwrap())
            .unwrap(),
    );
    for m in marks {
        let refused = !m["refused"].is_null();
        assert_eq!(m["stroke"], if refused { GREY } else { BLUE }, "{m}");
        match (m["tag"].as_str().unwrap(), m["health"].as_str()) {
            ("circle", Some(health)) => {
                let fill = match (refused, health) {
                    (true, _) => "rgb(255, 255, 255)",
                    (false, "unhealthy") => "rgb(192, 80, 77)",
                    _ => BLUE,
                };
                assert_eq!(m["fill"], fill, "{m}");
                // On its allocation's bar.
                let bar = &m["bar"];
                let middle = f(m, "y") + f(m, "h") / 2.0;
                let (y, h) = (bar["y"].as_f64().unwrap(), bar["h"].as_f64().unwrap());
                assert!(y - 1.0 <= middle && middle <= y + h + 1.0, "{m}");
            }
            ("line", None) => {
                assert!(
                    f(m, "y") <= top && f(m, "y") + f(m, "h") >= bottom - 1.0,
                    "{m}"
                );
                assert_eq!(m["dash"] != "none", refused, "{m}");
            }
            other => panic!("{other:?}: {m}"),
        }
    }
    // The mixed request's dots stand at the tick of its evaluation.
    let event = story["what_if"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"] == "alloc-health")
        .unwrap();
    let tick = drawn["ticks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["eval"] == event["evaluations"][0])
        .expect("the request's evaluation runs");
    let centre = |v: &Value| f(v, "x") + f(v, "w") / 2.0;
    for m in marks.iter().filter(|m| m["event"] == "alloc-health") {
        assert!((centre(m) - centre(tick)).abs() < 2.0, "{m} {tick}");
    }
    drop(session);
    let _ = std::fs::remove_dir_all(&dir);
}
