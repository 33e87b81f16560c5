//! The incident fixtures (`fixtures/incidents/`): golden tables and JSON,
//! every table line within 100 columns, colors, and the worked examples and
//! jq recipes of README.md and docs/*.md checked against the binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::render::table::Style;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::Report;

const INCIDENTS: [&str; 7] = [
    "node-down",
    "client-disconnected",
    "client-reconnected",
    "disconnect-expired",
    "node-drain",
    "rolling-update-canary",
    "failed-alloc-reschedule",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn report(path: &Path) -> Report {
    let file = std::fs::File::open(path).unwrap();
    let snapshot = read_snapshot_from(file, &path.display().to_string()).unwrap();
    Replay::new(&snapshot, &Options::default())
        .unwrap()
        .report()
}

fn incident(name: &str) -> Report {
    report(&root().join(format!("fixtures/incidents/{name}.json")))
}

#[test]
fn golden_tables_and_json() {
    for name in INCIDENTS {
        let report = incident(name);
        insta::assert_snapshot!(
            format!("{name}_table"),
            render::table::render(&report, Style::default())
        );
        insta::assert_snapshot!(format!("{name}_json"), render::json::render(&report));
    }
}

#[test]
fn verbose_tables_show_every_job_full_ids_and_exact_times() {
    let report = incident("node-down");
    let text = render::table::render(
        &report,
        Style {
            verbose: true,
            ..Style::default()
        },
    );
    insta::assert_snapshot!("node-down_table_verbose", text);
    assert!(text.contains("default/cache"));
    assert!(text.contains("2b7a4d3f-1c5e-4f90-b2d3-4e5f6a7b8c02"));
    let text = render::table::render(
        &incident("disconnect-expired"),
        Style {
            verbose: true,
            ..Style::default()
        },
    );
    assert!(
        text.contains("unknown since 2022-04-01T02:50:00Z, max_client_disconnect expires"),
        "{text}"
    );
}

/// Every fixture the project ships, incidents and the two bundled examples.
fn all_fixtures() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/incidents"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.push(root().join("fixtures/example.json"));
    paths.push(root().join("fixtures/rollout.json"));
    paths.sort();
    paths
}

#[test]
fn table_lines_fit_the_default_80_columns() {
    for path in all_fixtures() {
        let report = report(&path);
        for color in [false, true] {
            let text = render::table::render(
                &report,
                Style {
                    color,
                    ..Style::default()
                },
            );
            for line in text.lines() {
                let width = console::measure_text_width(line);
                assert!(width <= 80, "{}: {width} columns: {line}", path.display());
            }
        }
    }
}

#[test]
fn buckets_have_their_colors() {
    // The ignore bucket is untouched: only --verbose lists it.
    let colored = |path: &Path| {
        let style = Style {
            color: true,
            verbose: path.ends_with("rollout.json"),
            ..Style::default()
        };
        render::table::render(&report(path), style)
    };
    let incident = |name: &str| root().join(format!("fixtures/incidents/{name}.json"));
    for (path, painted) in [
        (incident("node-down"), "\u{1b}[31mlost\u{1b}[39m"),
        (
            incident("client-disconnected"),
            "\u{1b}[33mdisconnecting\u{1b}[39m",
        ),
        (
            incident("client-reconnected"),
            "\u{1b}[36mreconnecting\u{1b}[39m",
        ),
        (incident("node-drain"), "\u{1b}[35mmigrate\u{1b}[39m"),
        (
            root().join("fixtures/rollout.json"),
            "\u{1b}[2mignore\u{1b}[0m",
        ),
    ] {
        let text = colored(&path);
        assert!(text.contains(painted), "{}: {text}", path.display());
        assert!(!text.contains("\u{1b}[31muntainted"));
    }
    insta::assert_snapshot!(
        "client-reconnected_table_color",
        colored(&incident("client-reconnected"))
    );
}

/// README.md and every markdown page under docs/, with their paths: the
/// examples and recipes they show are checked wherever they are moved.
fn documents() -> Vec<(PathBuf, String)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    paths.sort();
    paths.insert(0, root().join("README.md"));
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// Each `$ plan-inspect ARGS` line of the documents followed by a fenced
/// block is the binary's real output.
#[test]
fn documented_examples_are_real_output() {
    let mut checked = 0;
    let mut in_readme = 0;
    for (path, text) in documents() {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(args) = line.trim().strip_prefix("$ plan-inspect ") else {
                continue;
            };
            let start = i
                + lines[i..]
                    .iter()
                    .position(|l| l.starts_with("```"))
                    .unwrap()
                + 1;
            let end = start
                + lines[start..]
                    .iter()
                    .position(|l| l.starts_with("```"))
                    .unwrap();
            let expected = lines[start..end].join("\n");
            let out = Command::cargo_bin("plan-inspect")
                .unwrap()
                .current_dir(root())
                .env_remove("COLUMNS")
                .args(args.split_whitespace())
                .output()
                .unwrap();
            let actual = String::from_utf8(out.stdout).unwrap();
            let actual: Vec<&str> = actual.lines().map(str::trim_end).collect();
            assert_eq!(
                actual.join("\n"),
                expected,
                "{}: example `plan-inspect {args}` is out of date",
                path.display()
            );
            checked += 1;
            if path.ends_with("README.md") {
                in_readme += 1;
            }
        }
    }
    assert!(in_readme >= 1, "no example in README.md");
    // The incidents and the --explain example.
    assert!(checked > INCIDENTS.len(), "only {checked} examples");
}

/// The documents' jq recipes run on a bundled snapshot (skipped without jq).
#[test]
fn documented_jq_recipes_work() {
    if Command::new("jq").arg("--version").output().is_err() {
        eprintln!("jq is not installed: recipes not checked");
        return;
    }
    let bin = Command::cargo_bin("plan-inspect").unwrap();
    let bin = bin.get_program().to_str().unwrap().to_string();
    let mut checked = 0;
    let documents = documents();
    let lines = documents
        .iter()
        .flat_map(|(path, text)| text.lines().map(move |line| (path, line.trim())));
    for (path, line) in lines {
        if !line.starts_with("plan-inspect state.json --format json | jq") {
            continue;
        }
        let script = line.replacen("plan-inspect", &bin, 1).replacen(
            "state.json",
            "fixtures/example.json",
            1,
        );
        let out = Command::new("sh")
            .args(["-c", &script])
            .current_dir(root())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {line}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !out.stdout.is_empty(),
            "{}: {line}: no output",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} recipes");
}
