//! The command line: flags, help and examples.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

const EXAMPLES: &str = "\
Examples:
  plan-inspect snapshot.json
  plan-inspect snapshot.json --format json | jq '.jobs[].plan.stop'
  nomad operator snapshot state backup.snap | plan-inspect -
  plan-inspect snapshot.json.gz --job web --now 2022-04-01T03:12:00Z
  plan-inspect snapshot.json --eval 5f2c --detailed-exitcode
  plan-inspect snapshot.json --explain 3c1a9e2b
  plan-inspect snapshot.json --explain 'web.web[3]' --format json

Exit status: 0 done (with --detailed-exitcode: the plan is a no-op),
2 with --detailed-exitcode: the plan changes something, 1 on any error.";

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
         is a terminal, else 100.",
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

/// Replay Nomad's scheduler reconciler (1.3, PR #12333) on a cluster snapshot.
///
/// Reads the JSON that `nomad operator snapshot state` prints (plain or
/// gzip) and shows, per job and task group, which bucket every allocation
/// falls into, what the reconciler wants to change, and the concrete plan.
#[derive(Debug, Parser)]
#[command(name = "plan-inspect", version, after_help = EXAMPLES)]
pub struct Cli {
    /// The snapshot file, or `-` for standard input.
    #[arg(value_name = "SNAPSHOT", required_unless_present_any = ["completions", "man"])]
    pub snapshot: Option<PathBuf>,

    /// Evaluate at this RFC 3339 time instead of the snapshot's.
    #[arg(long, value_name = "RFC3339", value_parser = parse_time)]
    pub now: Option<plan_inspect::time::Time>,

    /// Only this job (by ID).
    #[arg(long, value_name = "ID")]
    pub job: Option<String>,

    /// Only jobs in this namespace.
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,

    /// Replay this evaluation from the snapshot's `Evals` (its job, ID and priority).
    #[arg(long, value_name = "ID")]
    pub eval: Option<String>,

    /// Evaluate as servers older than Nomad 1.3 would (no disconnected-client support).
    #[arg(long)]
    pub no_disconnected_clients: bool,

    /// The Nomad release whose reconciler to replay: 1.3.0 ... 2.0.5, a
    /// series such as 1.8 (its latest patch), head, seed (commit
    /// 8ac3e642e6), or auto: the newest release the snapshot proves, else
    /// seed. Overrides the snapshot's NomadVersion key.
    #[arg(long, value_name = "VERSION", value_parser = parse_version)]
    pub nomad_version: Option<plan_inspect::version::VersionRequest>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// When to color the tables.
    #[arg(long, value_enum, default_value_t = Color::Auto, value_name = "WHEN")]
    pub color: Color,

    /// Full IDs, exact times, every job and every DesiredChanges column; rows
    /// never wrap, so lines may be wider than 100 columns.
    #[arg(long, short)]
    pub verbose: bool,

    /// Explain one allocation (ID or unique ID prefix) or one placement
    /// (`job.group[index]`): every step the reconciler took, with its facts.
    #[arg(long, value_name = "ALLOC")]
    pub explain: Option<String>,

    /// Exit 2 when the plan would change anything, 0 when it would not.
    #[arg(long)]
    pub detailed_exitcode: bool,

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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

fn parse_version(s: &str) -> Result<plan_inspect::version::VersionRequest, String> {
    s.parse().map_err(|_: plan_inspect::version::BadVersion| {
        format!(
            "not a Nomad version plan-inspect replays; {}",
            plan_inspect::version::accepted()
        )
    })
}

fn parse_time(s: &str) -> Result<plan_inspect::time::Time, String> {
    plan_inspect::time::Time::parse_rfc3339(s)
}
