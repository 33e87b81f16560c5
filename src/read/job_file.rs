//! Reading `--job-file`: one job as Nomad's API JSON, as `nomad job run
//! -output` and `nomad job inspect` print it, with or without the
//! `{"Job": ...}` wrapper. HCL is refused with the command that converts
//! it; anything else that is not one job, with where and what was expected.

use std::fmt;
use std::io::Read;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::Source;
use crate::model::{self, Job};

/// Why a job file was refused. `Display` starts with the file's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobFileError {
    name: String,
    position: Option<(usize, usize)>,
    message: String,
}

impl fmt::Display for JobFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.name, self.message),
            None => write!(f, "{}: {}", self.name, self.message),
        }
    }
}

impl std::error::Error for JobFileError {}

/// What a job file must hold, for messages.
const EXPECTED: &str = "expected one Nomad job as API JSON: an object with \"ID\" and \
    \"TaskGroups\", or {\"Job\": {...}} (nomad job run -output, nomad job inspect)";

/// Reads the job file from `source` (a path, or standard input for `-`).
pub fn read_job_file(source: &Source) -> Result<Map<String, Value>, JobFileError> {
    let name = source.name();
    let mut bytes = Vec::new();
    let read = match source {
        Source::Path(p) => std::fs::File::open(p).and_then(|mut f| f.read_to_end(&mut bytes)),
        Source::Stdin => std::io::stdin().lock().read_to_end(&mut bytes),
    };
    read.map_err(|e| JobFileError {
        name: name.clone(),
        position: None,
        message: format!("cannot read: {e}"),
    })?;
    parse_job_file(&bytes, &name)
}

/// The job object in `bytes`, unwrapped from `{"Job": ...}`.
pub fn parse_job_file(bytes: &[u8], name: &str) -> Result<Map<String, Value>, JobFileError> {
    let err = |position, message: String| JobFileError {
        name: name.to_string(),
        position,
        message,
    };
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = first else {
        return Err(err(None, format!("empty file, {EXPECTED}")));
    };
    if bytes[start] != b'{' {
        let stem = name.rsplit('/').next().unwrap_or(name);
        let (hcl, json) = if name == "<stdin>" {
            ("job.nomad.hcl".to_string(), "job.json".to_string())
        } else {
            let base = stem.trim_end_matches(".hcl").trim_end_matches(".nomad");
            (stem.to_string(), format!("{base}.json"))
        };
        return Err(err(
            Some(line_column(bytes, start)),
            format!(
                "not JSON (HCL?): plan-inspect reads a job as Nomad's API JSON; convert it with \
                 `nomad job run -output {hcl} > {json}`"
            ),
        ));
    }
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| err(Some((e.line(), e.column())), strip_position(&e)))?;
    let Value::Object(mut top) = value else {
        return Err(err(Some(line_column(bytes, start)), EXPECTED.to_string()));
    };
    let wrapped = top.contains_key("Job") && !top.contains_key("TaskGroups");
    if wrapped {
        check_shape::<Wrapped>(bytes, name)?;
        return match top.remove("Job") {
            Some(Value::Object(job)) => Ok(job),
            _ => Err(err(
                Some(line_column(bytes, start)),
                format!("\"Job\" is not an object; {EXPECTED}"),
            )),
        };
    }
    if !top.contains_key("TaskGroups") && !top.contains_key("ID") {
        let mut keys: Vec<&String> = top.keys().collect();
        keys.truncate(5);
        let found = if keys.is_empty() {
            "an empty object".to_string()
        } else {
            format!(
                "an object with {}",
                keys.iter()
                    .map(|k| k.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Err(err(
            Some(line_column(bytes, start)),
            format!("found {found}; {EXPECTED}"),
        ));
    }
    check_shape::<Job>(bytes, name)?;
    Ok(top)
}

#[derive(Deserialize)]
struct Wrapped {
    #[serde(rename = "Job")]
    _job: Job,
}

/// The job's values have the types Nomad's job has, else where one does not.
fn check_shape<T: for<'de> Deserialize<'de>>(bytes: &[u8], name: &str) -> Result<(), JobFileError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result: Result<model::GoJson<T>, _> = serde_path_to_error::deserialize(&mut de);
    result.map(|_| ()).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        JobFileError {
            name: name.to_string(),
            position: Some((inner.line(), inner.column())),
            message: format!("at {path}: {}", strip_position(&inner)),
        }
    })
}

/// serde_json's message without its " at line L column C" tail.
fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The 1-based line and column of byte `at`.
fn line_column(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = at
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hcl_is_refused_with_the_converting_command() {
        let e = parse_job_file(b"job \"web\" {\n}\n", "web.nomad.hcl").unwrap_err();
        assert_eq!(
            e.to_string(),
            "web.nomad.hcl:1:1: not JSON (HCL?): plan-inspect reads a job as Nomad's API JSON; \
             convert it with `nomad job run -output web.nomad.hcl > web.json`"
        );
        let e = parse_job_file(b"  job {}", "<stdin>").unwrap_err();
        assert!(
            e.to_string()
                .contains("`nomad job run -output job.nomad.hcl > job.json`")
        );
    }

    #[test]
    fn the_wrapper_is_optional() {
        let bare = parse_job_file(br#"{"ID": "web", "TaskGroups": []}"#, "j.json").unwrap();
        let wrapped =
            parse_job_file(br#"{"Job": {"ID": "web", "TaskGroups": []}}"#, "j.json").unwrap();
        assert_eq!(bare, wrapped);
    }

    #[test]
    fn not_a_job_is_located() {
        let e = parse_job_file(b"{\"Jobs\": [], \"Nodes\": []}", "snap.json").unwrap_err();
        assert!(
            e.to_string().starts_with(
                "snap.json:1:1: found an object with Jobs, Nodes; expected one Nomad job"
            ),
            "{e}"
        );
        let e = parse_job_file(
            b"{\"ID\": \"web\",\n \"TaskGroups\": [{\"Count\": \"three\"}]}",
            "j.json",
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("j.json:2:"), "{e}");
        assert!(
            e.to_string()
                .contains("at TaskGroups[0].Count: invalid type: string \"three\""),
            "{e}"
        );
        let e = parse_job_file(b"{\"ID\": ", "j.json").unwrap_err();
        assert!(
            e.to_string().starts_with("j.json:1:7: EOF while parsing"),
            "{e}"
        );
    }
}
