//! A story from the command line as a builder: the snapshot file, the
//! flags that differ, then one run per format.

use super::plan_inspect;

/// `plan-inspect SNAPSHOT FLAGS... --format FORMAT`.
pub struct CliStory {
    args: Vec<String>,
}

impl CliStory {
    /// The story of the snapshot file `snapshot` (relative to the crate).
    pub fn on(snapshot: &str) -> CliStory {
        CliStory {
            args: vec![snapshot.to_string()],
        }
    }

    /// tests/what-if/rolling.json as release `version` replays it: web's
    /// version 2 registered one allocation at a time, each healthy a
    /// minute after it starts, followed for 30 minutes.
    pub fn rolling(version: &str) -> CliStory {
        CliStory::on("tests/what-if/rolling.json")
            .version(version)
            .healthy_after("1m")
            .until("30m")
    }

    /// `--nomad-version version`.
    pub fn version(self, version: &str) -> CliStory {
        self.flag("--nomad-version", version)
    }

    /// `--what-if event`.
    pub fn what_if(self, event: &str) -> CliStory {
        self.flag("--what-if", event)
    }

    /// `--until until`.
    pub fn until(self, until: &str) -> CliStory {
        self.flag("--until", until)
    }

    /// `--assume-healthy-after after`.
    pub fn healthy_after(self, after: &str) -> CliStory {
        self.flag("--assume-healthy-after", after)
    }

    fn flag(mut self, name: &str, value: &str) -> CliStory {
        self.args.extend([name.to_string(), value.to_string()]);
        self
    }

    /// The story in `format`; the run must succeed.
    pub fn run(&self, format: &str) -> String {
        let mut args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        args.extend(["--format", format]);
        let (code, stdout, stderr) = plan_inspect(&args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        stdout
    }

    /// The story as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.run("json")).unwrap()
    }
}

/// The deployment `id` of a story's JSON `doc`, as the story left it.
pub fn json_deployment<'d>(doc: &'d serde_json::Value, id: &str) -> &'d serde_json::Value {
    doc["deployments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == id)
        .unwrap_or_else(|| panic!("deployment {id} written: {doc}"))
}

/// The row of a story's table that names `event`.
pub fn event_row<'t>(table: &'t str, event: &str) -> &'t str {
    table
        .lines()
        .find(|l| l.contains(event))
        .unwrap_or_else(|| panic!("a row of {event}: {table}"))
}
