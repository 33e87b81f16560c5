//! Text laid out for the terminal: tables at 80, 100 and 160 columns (golden
//! files), tables and explanations at 60 to 160, long job names, header
//! words, `COLUMNS`, and explanation bytes compared untrimmed.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use plan_inspect::explain::explain;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::render::table::Style;
use plan_inspect::replay::{Options, Replay};
use plan_inspect::report::Report;
use serde_json::Value;

/// 60 characters.
const LONG: &str = "payments-reconciliation-worker-eu-west-1-blue-green-canary-x";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/incidents"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for name in [
        "example.json",
        "rollout.json",
        "mixed-cluster.json",
        "evals.json",
    ] {
        paths.push(root().join("fixtures").join(name));
    }
    paths.sort();
    paths
}

fn report_of(text: &str) -> Report {
    let snapshot = read_snapshot_from(text.as_bytes(), "snapshot.json").unwrap();
    Replay::new(&snapshot, &Options::default())
        .unwrap()
        .report()
}

/// The node-down incident with job `web` renamed to [`LONG`].
fn long_named_snapshot() -> String {
    let text = std::fs::read_to_string(root().join("fixtures/incidents/node-down.json")).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    let rename = |job: &mut Value| {
        if job["ID"] == "web" {
            job["ID"] = LONG.into();
            job["Name"] = LONG.into();
        }
    };
    doc["Jobs"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .for_each(rename);
    for a in doc["Allocs"].as_array_mut().unwrap() {
        if a["JobID"] == "web" {
            a["JobID"] = LONG.into();
            let name = a["Name"]
                .as_str()
                .unwrap()
                .replacen("web.", &format!("{LONG}."), 1);
            a["Name"] = name.into();
            rename(&mut a["Job"]);
        }
    }
    doc.to_string()
}

fn at(width: u16) -> Style {
    Style {
        width,
        ..Style::default()
    }
}

/// The sections of a table rendering: title, header lines, body lines.
fn sections(text: &str) -> Vec<(&str, Vec<&str>, Vec<&str>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        if !l.starts_with('─') {
            continue;
        }
        let title = (0..k).rev().find(|&i| lines[i].is_empty()).unwrap() + 1;
        // A wrapped title goes on indented by two.
        let continued = |l: &str| l.starts_with("  ") && !l[2..].starts_with(' ');
        let header = (title + 1..k).find(|&i| !continued(lines[i])).unwrap_or(k);
        let end = (k..lines.len())
            .find(|&i| lines[i].is_empty())
            .unwrap_or(lines.len());
        out.push((
            lines[title],
            lines[header..k].to_vec(),
            lines[k..end].to_vec(),
        ));
    }
    out
}

fn width(line: &str) -> usize {
    console::measure_text_width(line)
}

/// The bundled snapshots at 80, 100 and 160 columns. At 80 (the width
/// off a terminal) every table fits: names lose their job before anything
/// wraps, and reasons wrap between words.
#[test]
fn golden_tables_at_80_100_and_160_columns() {
    for name in ["example", "rollout", "mixed-cluster", "evals"] {
        let path = root().join("fixtures").join(format!("{name}.json"));
        let report = report_of(&std::fs::read_to_string(path).unwrap());
        for w in [80, 100, 160] {
            let text = render::table::render(&report, at(w));
            insta::assert_snapshot!(format!("{name}_{w}"), text);
        }
    }
}

#[test]
fn tables_fit_80_100_and_160_columns() {
    let mut texts: Vec<(String, Report)> = fixtures()
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            (p.display().to_string(), report_of(&text))
        })
        .collect();
    texts.push((
        "long job name".to_string(),
        report_of(&long_named_snapshot()),
    ));
    for (name, report) in &texts {
        for w in [80, 100, 160] {
            for color in [false, true] {
                let style = Style { color, ..at(w) };
                for line in render::table::render(report, style).lines() {
                    assert!(width(line) <= usize::from(w), "{name} at {w}: {line}");
                }
            }
        }
    }
}

/// The widest line of each table, in order, and of the text outside tables.
fn widths(text: &str) -> (Vec<usize>, usize) {
    let sections = sections(text);
    let in_table: Vec<&str> = sections
        .iter()
        .flat_map(|(_, h, b)| h.iter().chain(b).copied())
        .collect();
    let tables = sections
        .iter()
        .map(|(_, h, b)| h.iter().chain(b).map(|l| width(l)).max().unwrap_or(0))
        .collect();
    let free = text
        .lines()
        .filter(|l| !in_table.contains(l))
        .map(width)
        .max()
        .unwrap_or(0);
    (tables, free)
}

/// Checks that at `w` columns the text fits and so does every table that
/// can: a table wider than `w` is no wider than at 1 column, where every
/// column is at its floor (identifiers and statuses whole, header words
/// whole, names and reasons at their minimum).
fn fits_where_it_can(report: &Report, w: u16, what: &str) {
    let (tables, free) = widths(&render::table::render(report, at(w)));
    let (floors, _) = widths(&render::table::render(report, at(1)));
    assert!(
        free <= usize::from(w),
        "{what} at {w}: text of {free} columns"
    );
    assert_eq!(tables.len(), floors.len());
    for (i, (got, floor)) in tables.iter().zip(&floors).enumerate() {
        assert!(
            *got <= usize::from(w).max(*floor),
            "{what} at {w}: table {i} is {got} wide, its floor {floor}"
        );
    }
}

#[test]
fn at_60_columns_tables_that_cannot_fit_are_at_their_floor() {
    let mut fitting = 0;
    for path in fixtures() {
        let report = report_of(&std::fs::read_to_string(&path).unwrap());
        fits_where_it_can(&report, 60, &path.display().to_string());
        let (tables, _) = widths(&render::table::render(&report, at(60)));
        fitting += tables.iter().filter(|&&t| t <= 60).count();
    }
    // Most tables (stops, placements, updates, evaluations) do fit.
    assert!(fitting > 20, "{fitting}");
}

#[test]
fn long_job_names_are_never_broken_at_60_100_and_160_columns() {
    let report = report_of(&long_named_snapshot());
    for w in [60, 100, 160] {
        let text = render::table::render(&report, at(w));
        insta::assert_snapshot!(format!("long_job_name_{w}"), text);
        fits_where_it_can(&report, w, "long job name");
    }
    // In the tables an allocation name is whole, or without its job (which
    // the header above says) where it would not fit whole; never broken.
    let names = |w| {
        let text = render::table::render(&report, at(w));
        let cells: Vec<String> = sections(&text)
            .into_iter()
            .flat_map(|(_, _, body)| body)
            .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .filter(|c| c.contains("web["))
            .collect();
        cells
    };
    let whole = format!("{LONG}.web[1]");
    assert!(names(160).contains(&whole));
    for w in [60, 100, 160] {
        for name in names(w) {
            assert!(name == "web[1]" || name == whole, "at {w}: {name}");
        }
    }
    assert!(names(100).contains(&"web[1]".to_string()));
}

/// Headers wrap between words only: every word of every header line is a
/// whole header word.
#[test]
fn header_words_are_never_broken() {
    const HEADERS: &str = "Alloc Name Version Canary Node Status Client Bucket Reason Task \
        Group Ignore Place Stop InPlace Destructive Migrate Preemptions Disconnect Reconnect \
        Reschedule Now Later Description Follow-up Eval Previous Flags Deployment Update \
        Triggered By Wait Until Allocs Desired Total Canaries Auto Promote Revert Destruct \
        Preempt Discon Recon Resched";
    let words: Vec<&str> = HEADERS.split_whitespace().collect();
    let mut reports: Vec<Report> = fixtures()
        .iter()
        .map(|p| report_of(&std::fs::read_to_string(p).unwrap()))
        .collect();
    reports.push(report_of(&long_named_snapshot()));
    for report in &reports {
        for w in [40, 60, 100, 160] {
            let text = render::table::render(report, at(w));
            for (title, header, _) in sections(&text) {
                for word in header.iter().flat_map(|l| l.split_whitespace()) {
                    assert!(words.contains(&word), "{title} at {w}: {word:?} in\n{text}");
                }
            }
        }
    }
}

fn bin(columns: Option<&str>, args: &[&str]) -> String {
    let mut c = Command::cargo_bin("plan-inspect").unwrap();
    c.current_dir(root()).env_remove("NO_COLOR").args(args);
    match columns {
        Some(v) => c.env("COLUMNS", v),
        None => c.env_remove("COLUMNS"),
    };
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn columns_sets_the_width_and_80_is_the_default_off_a_terminal() {
    let path = "fixtures/incidents/client-disconnected.json";
    let report = report_of(&std::fs::read_to_string(root().join(path)).unwrap());
    let table = |w| render::table::render(&report, at(w));
    assert_eq!(bin(Some("60"), &[path]), table(60));
    assert_eq!(bin(Some("160"), &[path]), table(160));
    assert_eq!(bin(None, &[path]), table(80));
    for invalid in ["", "0", "wide", "-1"] {
        assert_eq!(
            bin(Some(invalid), &[path]),
            table(80),
            "COLUMNS={invalid:?}"
        );
    }
    assert_ne!(table(60), table(100));
}

/// The explanation's bytes, trailing blanks included, against a golden file;
/// and at every width no line ends in a blank, all is ASCII, lines fit.
#[test]
fn explanations_are_byte_for_byte_and_have_no_trailing_blanks() {
    let args = [
        "fixtures/example.json",
        "--explain",
        "32c3",
        "--color",
        "never",
    ];
    let golden = std::fs::read_to_string(root().join("tests/untrimmed/explain-32c3.txt")).unwrap();
    assert_eq!(bin(None, &args), golden);
    assert_eq!(bin(Some("60"), &args), {
        std::fs::read_to_string(root().join("tests/untrimmed/explain-32c3-60.txt")).unwrap()
    });
    let text = std::fs::read_to_string(root().join("fixtures/example.json")).unwrap();
    let snapshot = read_snapshot_from(text.as_bytes(), "example.json").unwrap();
    let report = Replay::new(&snapshot, &Options::default())
        .unwrap()
        .report();
    let subjects = report.jobs.iter().flat_map(|j| {
        let allocs = j.groups.iter().flat_map(|g| {
            g.buckets
                .iter()
                .flat_map(|(_, es)| es.iter().map(|e| e.id.to_string()))
        });
        allocs
            .chain(j.plan.place.iter().map(|p| p.name.clone()))
            .collect::<Vec<_>>()
    });
    for subject in subjects {
        let e = explain(&snapshot, &Options::default(), &subject).unwrap();
        for w in [60, 100, 160] {
            let out = render::explain::table(&e, false, w, true);
            assert!(out.is_ascii(), "{subject} at {w}:\n{out}");
            for line in out.lines() {
                assert_eq!(line, line.trim_end(), "{subject} at {w}");
                assert!(width(line) <= usize::from(w), "{subject} at {w}: {line}");
            }
        }
    }
}

/// On a terminal of 70 columns (made by util-linux `script`, skipped with a
/// note without it) the tables are laid out for 70; `COLUMNS` still wins.
#[test]
fn a_terminal_gives_its_width() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("script is not installed: the terminal width is not tested");
        return;
    }
    let path = "fixtures/incidents/client-disconnected.json";
    let bin = Command::cargo_bin("plan-inspect").unwrap();
    let bin = bin.get_program().to_str().unwrap().to_string();
    // The shell `script` starts may set COLUMNS itself: the command sets or
    // unsets it last.
    let on_terminal = |columns: &str| {
        let out = Command::new("script")
            .current_dir(root())
            .arg("-qec")
            .arg(format!(
                "stty cols 70 rows 20; {columns}; exec {bin} {path} --color never"
            ))
            .arg("/dev/null")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().replace("\r\n", "\n")
    };
    let report = report_of(&std::fs::read_to_string(root().join(path)).unwrap());
    assert_eq!(
        on_terminal("unset COLUMNS"),
        render::table::render(&report, at(70))
    );
    assert_eq!(
        on_terminal("export COLUMNS=120"),
        render::table::render(&report, at(120))
    );
}
