//! The command line: flags, help and examples.

use std::path::PathBuf;

use std::ffi::OsStr;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Arg, Command, Parser, ValueEnum, ValueHint};
use plan_inspect::version::VersionRequest;

const EXAMPLES: &str = "\
Examples:
  # What Nomad decides for every job, as the release the snapshot proves:
  plan-inspect state.json
  # Half an hour before the dump, one job, as Nomad 1.8 would:
  plan-inspect state.json --job web --now -30m --nomad-version 1.8
  # Why one allocation was replaced, and a CI gate on any change:
  plan-inspect state.json --explain 3c1a9e2b
  plan-inspect state.json --format json --detailed-exitcode | jq '.jobs[].plan.stop'
  # If client-7 went down now: what the servers do over the next hour, and
  # the evaluation that decides that allocation's fate in the end:
  plan-inspect state.json --what-if node-down:client-7 --until 1h
  plan-inspect state.json --what-if node-down:client-7 --until 1h --explain 3c1a9e2b
  # nomad job plan without a cluster, for CI:
  plan-inspect state.json --job-file web.json --detailed-exitcode

Exit status:
  0  done; with --detailed-exitcode: the plan changes nothing
  1  an error (unreadable input, not a snapshot, an unknown job, namespace,
     eval or allocation); with --detailed-exitcode, usage errors too
  2  with --detailed-exitcode: the plan changes something;
     without it: a usage error (a bad flag or value)";

/// The man page's EXIT STATUS section, next to `nomad job plan`'s codes.
pub const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "Success. With --detailed-exitcode: the plan is a no-op in the terms of Nomad's \
         Plan.IsNoOp (no stop, placement, destructive, in-place, disconnect or attribute \
         update, no deployment created or updated); with --explain, the explained \
         allocation is untouched. --help and --version exit 0 too.",
    ),
    (
        "1",
        "Any error: unreadable or invalid input, input that is not a snapshot, an unknown \
         job, eval or allocation. Usage errors too when --detailed-exitcode is given \
         (without it they exit 2, as clap does).",
    ),
    (
        "2",
        "With --detailed-exitcode: the plan changes something (with --explain: the \
         explained allocation, or a placement). Without --detailed-exitcode: a usage error.",
    ),
];

/// How the codes map to `nomad job plan`'s, for the man page.
pub const EXIT_STATUS_NOMAD: &str = "nomad job plan exits 0 for no allocations created or \
    destroyed, 1 for allocations created or destroyed, and 255 on error; plan-inspect \
    --detailed-exitcode uses 0, 2 and 1 instead (as terraform plan -detailed-exitcode does), \
    and counts every change Plan.IsNoOp counts, not only creations and destructions.";

/// The man page's ENVIRONMENT section.
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "COLUMNS",
        "The width tables are laid out for; else the terminal's width when standard output \
         is a terminal, else 80.",
    ),
    (
        "NO_COLOR",
        "When set and not empty, --color auto never colors.",
    ),
    (
        "TERM",
        "dumb turns off colors under --color auto and the progress bar.",
    ),
];

/// Replay Nomad's scheduler offline on a cluster snapshot.
///
/// Reads the JSON that `nomad operator snapshot state` prints (plain or
/// gzip) and replays, as the Nomad release the cluster runs (1.3.0 to 2.0),
/// what the schedulers decide: for service and batch jobs the reconciler
/// (which bucket every allocation falls into and why, reschedules, the
/// DesiredChanges counts and the concrete plan), for system and sysbatch jobs
/// the system scheduler. Tables for people, one stable JSON document for
/// scripts and CI.
#[derive(Debug, Parser)]
#[command(name = "plan-inspect", version, after_help = EXAMPLES)]
pub struct Cli {
    /// The snapshot file, or `-` for standard input.
    #[arg(value_name = "SNAPSHOT", required_unless_present_any = ["completions", "man"])]
    pub snapshot: Option<PathBuf>,

    /// Evaluate at this time instead of the snapshot's: RFC 3339
    /// (2022-04-01T03:12:00Z), a Unix timestamp in seconds, or an offset from
    /// the snapshot's time with its sign (-30m, +1h30m).
    #[arg(long, value_name = "TIME", value_parser = parse_now, allow_hyphen_values = true)]
    pub now: Option<plan_inspect::now::NowRequest>,

    /// Only this job (by ID).
    #[arg(long, value_name = "ID", value_hint = ValueHint::Other)]
    pub job: Option<String>,

    /// Only jobs in this namespace.
    #[arg(long, value_name = "NS", value_hint = ValueHint::Other)]
    pub namespace: Option<String>,

    /// Replay this evaluation from the snapshot's `Evals` (its job, ID and priority).
    #[arg(long, value_name = "ID", value_hint = ValueHint::Other)]
    pub eval: Option<String>,

    /// Evaluate as servers older than Nomad 1.3 would (no disconnected-client support).
    #[arg(long)]
    pub no_disconnected_clients: bool,

    /// The Nomad release whose reconciler to replay: 1.3.0 ... 2.0.5, a
    /// series such as 1.8 (its latest patch), head, seed (commit
    /// 8ac3e642e6), or auto: the newest release the snapshot proves, else
    /// seed. Overrides the snapshot's NomadVersion key.
    #[arg(long, value_name = "VERSION", value_parser = VersionValues, hide_possible_values = true)]
    pub nomad_version: Option<VersionRequest>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// When to color the tables.
    #[arg(long, value_enum, default_value_t = Color::Auto, value_name = "WHEN")]
    pub color: Color,

    /// Every allocation (by default a changing job lists only those the plan
    /// or their bucket moves, and counts the untouched), every job, every
    /// column, full IDs and exact times, and in --explain the facts that did
    /// not decide the fate; rows never wrap, so lines may be wider than the
    /// terminal.
    #[arg(long, short)]
    pub verbose: bool,

    /// Explain one allocation (ID or unique ID prefix) or one placement
    /// (`job.group[index]`): every step the reconciler took, with its facts,
    /// and for a placement every node's verdict (filtered, exhausted, the
    /// top scores, the choice). `job.group[index]@NODE` tells NODE's verdict
    /// in full (for a system job: the placement on NODE). With --what-if or
    /// --until: in the last evaluation of the story that decided it (placed
    /// it, or changed the allocation), on the cluster as the story left it
    /// then; an allocation the story placed is explained too.
    #[arg(long, value_name = "ALLOC", value_hint = ValueHint::Other)]
    pub explain: Option<String>,

    /// Explain one node (ID, name or unique ID prefix): its capacity, what
    /// runs there, what the plan of the jobs --job and --namespace select
    /// adds there and frees, and what is left.
    #[arg(long, value_name = "NODE", value_hint = ValueHint::Other,
          conflicts_with_all = ["explain", "job_file"])]
    pub explain_node: Option<String>,

    /// What if: a node, allocation or operator's deployment event, taken
    /// through Nomad's servers as the release replayed does, then every
    /// evaluation it creates replayed at its time (repeatable, in order):
    /// node-down:NODE[@TIME], node-drain:NODE[:DEADLINE],
    /// node-ineligible:NODE, node-up:NODE[@TIME], alloc-fail:ALLOC[@TIME],
    /// alloc-healthy:ALLOC[,ALLOC...][@TIME],
    /// alloc-unhealthy:ALLOC[,ALLOC...][@TIME],
    /// alloc-health:healthy=ALLOC[,ALLOC...]:unhealthy=ALLOC[,ALLOC...][@TIME]
    /// (health set by hand, the allocations listed in one request; either
    /// list of alloc-health may be left out; a piece between commas that
    /// names no allocation is joined with the next until the text is a live
    /// allocation's name, so names with commas can be listed, and a list
    /// that reads two ways is refused),
    /// deployment-promote:DEPLOYMENT[:GROUP[,GROUP...]][@TIME]
    /// (the groups named, else every group; a job ID with a colon ends with
    /// one to promote every group), deployment-fail:DEPLOYMENT[@TIME],
    /// deployment-pause:DEPLOYMENT[@TIME], deployment-resume:DEPLOYMENT[@TIME],
    /// deployment-unblock:DEPLOYMENT[@TIME] (taken, and a no-op, in Nomad
    /// CE: multiregion deployments are Enterprise).
    /// NODE is an ID, unique ID prefix or name; ALLOC an ID, unique ID prefix
    /// or name (job.group[index]), of the snapshot or placed by the story;
    /// DEPLOYMENT an ID, unique ID prefix or job ID (its latest active
    /// deployment), looked up when the event happens; TIME an RFC 3339 time
    /// or a duration after the evaluation time (30m); DEADLINE a duration
    /// (default 1h).
    #[arg(long = "what-if", value_name = "EVENT", value_parser = parse_event, conflicts_with_all = ["explain_node", "job_file"])]
    pub what_if: Vec<plan_inspect::servers::EventSpec>,

    /// Follow the story until TIME (RFC 3339, or a duration after the
    /// evaluation time): each plan applied, then every follow-up, blocked
    /// and node-update evaluation due by then, in time order.
    #[arg(long, value_name = "TIME", value_parser = parse_when, conflicts_with_all = ["explain_node", "job_file"])]
    pub until: Option<plan_inspect::servers::When>,

    /// With --what-if or --until: placed allocations become healthy this
    /// long after they start (default: at once); the drainer waits for it.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub assume_healthy_after: Option<plan_inspect::time::Duration>,

    /// Exit 2 when the plan would change anything, 0 when it would not.
    #[arg(long)]
    pub detailed_exitcode: bool,

    /// Plan a new version of one job against the snapshot, as `nomad job
    /// plan` does: the job as Nomad's API JSON (`nomad job run -output`,
    /// `nomad job inspect`), `-` for standard input when the snapshot is a
    /// file. Shows Nomad's job diff and the plan of the new version.
    #[arg(long, value_name = "PATH", value_hint = ValueHint::FilePath,
          conflicts_with_all = ["job", "namespace", "eval", "explain"])]
    pub job_file: Option<PathBuf>,

    /// With --job-file: the diff in full, as `nomad job plan -verbose`
    /// (added and deleted groups and tasks expanded, the job's fields shown
    /// even when only its groups changed).
    #[arg(long, requires = "job_file")]
    pub diff_verbose: bool,

    /// Parse allocations and replay jobs on this many threads: 0 (the
    /// default) is one per core, 1 reads and replays on one thread only.
    /// The output is the same on any count.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// Print a shell completion script and exit.
    #[arg(long, value_enum, value_name = "SHELL")]
    pub completions: Option<clap_complete::Shell>,

    /// Print the man page and exit.
    #[arg(long)]
    pub man: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    /// One self-contained HTML page: the timeline drawn, and the tables.
    Html,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

/// `--nomad-version`: parsed as the snapshot's `NomadVersion` key is, and
/// every accepted name offered to shell completion (not listed in `--help`).
#[derive(Clone)]
struct VersionValues;

impl TypedValueParser for VersionValues {
    type Value = VersionRequest;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<VersionRequest, clap::Error> {
        StringValueParser::new()
            .try_map(|s| {
                s.parse().map_err(|_: plan_inspect::version::BadVersion| {
                    format!(
                        "not a Nomad version plan-inspect replays; {}",
                        plan_inspect::version::accepted()
                    )
                })
            })
            .parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            plan_inspect::version::names()
                .into_iter()
                .map(PossibleValue::new),
        ))
    }
}

fn parse_now(s: &str) -> Result<plan_inspect::now::NowRequest, String> {
    s.parse()
        .map_err(|e: plan_inspect::now::BadNow| e.to_string())
}

fn parse_event(s: &str) -> Result<plan_inspect::servers::EventSpec, String> {
    s.parse()
        .map_err(|e: plan_inspect::servers::BadEvent| e.to_string())
}

fn parse_when(s: &str) -> Result<plan_inspect::servers::When, String> {
    s.parse()
        .map_err(|e: plan_inspect::servers::BadWhen| e.to_string())
}

fn parse_duration(s: &str) -> Result<plan_inspect::time::Duration, String> {
    plan_inspect::now::parse_duration(s)
        .ok_or_else(|| format!("{s:?} is not a duration: give one such as 30s, 5m or 1h30m"))
}
