//! The varied shape: a cluster whose dump looks like a real one's.
//!
//! Each allocation draws its facts from a stream of its own (seeded by its
//! job, group and number), so the writer can emit allocations in ID order
//! without holding them: a first pass draws only what naming needs (node,
//! kind, version), the second draws the rest again.

mod client;

use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::{MINUTE, NOW_NANOS, Rng, SECOND, Spec, time};

const GROUP_NAMES: [&str; 5] = ["web", "api", "worker", "cache", "edge"];
const TASK_NAMES: [&str; 4] = ["app", "sidecar", "logshipper", "init"];
const NOMAD_VERSIONS: [&str; 4] = ["1.3.0", "1.3.1", "1.3.3", "1.3.5"];

#[derive(Clone, Copy, PartialEq)]
enum NodeState {
    Ready,
    Down,
    Draining,
    Disconnected,
}

struct Node {
    id: String,
    name: String,
    state: NodeState,
    datacenter: &'static str,
    class: &'static str,
    version: &'static str,
    /// Garbage-collected: named by allocations, absent from `Nodes`.
    gone: bool,
}

/// What an allocation is doing at snapshot time.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Running,
    Pending,
    Failed,
    /// Ran to completion (batch) or was stopped by an update (service).
    Complete,
    Lost,
    Unknown,
    Reconnected,
    Migrating,
}

impl Kind {
    fn terminal(self) -> bool {
        matches!(self, Kind::Complete | Kind::Lost)
    }
}

struct Group {
    name: &'static str,
    count: usize,
    tasks: usize,
    /// Allocations written for this group.
    allocs: usize,
    max_client_disconnect: bool,
}

struct JobSpec {
    namespace: &'static str,
    id: String,
    batch: bool,
    /// Versions 0..versions; the last is the current one.
    versions: usize,
    canary: bool,
    /// No service checks, templates or task environments.
    bare: bool,
    /// The current version's first task asks for more memory than any
    /// node has, as after an update that overshot: its placements fail.
    oversized: bool,
    groups: Vec<Group>,
    /// texts[version][variant].
    texts: Vec<Vec<String>>,
    deployments: Vec<String>,
    /// The follow-up eval of each group's unknown allocations.
    followups: Vec<String>,
}

/// What the first pass keeps of one allocation.
struct Slot {
    id: String,
    job: u16,
    group: u8,
    k: u32,
    name_index: u32,
}

pub struct Cluster {
    seed: u64,
    events: usize,
    scores: usize,
    node_attrs: usize,
    own_indexes: bool,
    go_dump: bool,
    null_jobs: usize,
    varied_texts: bool,
    nodes: Vec<Node>,
    jobs: Vec<JobSpec>,
    slots: Vec<Slot>,
}

impl Cluster {
    pub fn new(args: &Spec) -> Cluster {
        let mut rng = Rng::new(args.seed);
        let mut nodes: Vec<Node> = (0..args.nodes)
            .map(|i| Node {
                id: rng.uuid(),
                name: format!("ip-10-{}-{}-{}", i / 65536, (i / 256) % 256, i % 256),
                state: match rng.below(100) {
                    0..=84 => NodeState::Ready,
                    85..=89 => NodeState::Down,
                    90..=94 => NodeState::Draining,
                    _ => NodeState::Disconnected,
                },
                datacenter: ["dc1", "dc2", "dc3"][rng.below(3) as usize],
                class: ["", "compute", "storage", "gpu"][rng.below(4) as usize],
                version: NOMAD_VERSIONS[rng.below(NOMAD_VERSIONS.len() as u64) as usize],
                gone: false,
            })
            .collect();
        // Drawn apart, so that the other draws do not depend on `gone_nodes`.
        let mut collected = Rng::new(args.seed ^ 0x676f_6e65);
        for node in &mut nodes {
            if collected.below(100) < args.gone_nodes as u64 {
                node.gone = true;
                node.state = NodeState::Down;
            }
        }
        let per_job = args.allocs / args.jobs;
        let jobs: Vec<JobSpec> = (0..args.jobs)
            .map(|i| {
                let allocs = per_job + usize::from(i < args.allocs % args.jobs);
                JobSpec::new(i, allocs, args, &mut rng)
            })
            .collect();
        let mut cluster = Cluster {
            seed: args.seed,
            events: args.events,
            scores: args.scores,
            node_attrs: args.node_attrs,
            own_indexes: args.own_indexes,
            go_dump: args.go_dump,
            null_jobs: args.null_jobs,
            varied_texts: args.varied_texts,
            nodes,
            jobs,
            slots: Vec::with_capacity(args.allocs),
        };
        cluster.slots = cluster.name_slots();
        cluster
    }

    /// Every allocation's ID and name, sorted by ID. Live allocations take the
    /// group's names in turn (past `count` during a rollout they repeat, as
    /// old and new copies of one name do); terminal ones reuse a live name.
    fn name_slots(&self) -> Vec<Slot> {
        let mut slots = Vec::with_capacity(self.slots.capacity());
        for (j, job) in self.jobs.iter().enumerate() {
            for (g, group) in job.groups.iter().enumerate() {
                let mut next = 0usize;
                for k in 0..group.allocs {
                    let mut draw = self.draw(j, g, k);
                    let name_index = if draw.kind.terminal() {
                        draw.rng.below(group.count.max(1) as u64) as usize
                    } else {
                        next += 1;
                        (next - 1) % group.count.max(1)
                    };
                    slots.push(Slot {
                        id: draw.id,
                        job: j as u16,
                        group: g as u8,
                        k: k as u32,
                        name_index: name_index as u32,
                    });
                }
            }
        }
        slots.sort_unstable_by(|a, b| a.id.cmp(&b.id));
        slots
    }

    /// The first draws of allocation `k` of group `g` of job `j`: its ID, node,
    /// kind and job version; `rng` goes on with the rest.
    fn draw(&self, j: usize, g: usize, k: usize) -> Draw<'_> {
        let job = &self.jobs[j];
        let mut rng = Rng::new(alloc_seed(self.seed, &job.id, g, k));
        let id = rng.uuid();
        let node = &self.nodes[rng.below(self.nodes.len() as u64) as usize];
        let roll = rng.below(100);
        let kind = if job.batch {
            match (node.state, roll) {
                (NodeState::Down, 0..=59) => Kind::Lost,
                (NodeState::Disconnected, 0..=69) if job.groups[g].max_client_disconnect => {
                    Kind::Unknown
                }
                (_, 0..=54) => Kind::Complete,
                (_, 55..=64) => Kind::Failed,
                (_, 65..=69) => Kind::Pending,
                _ => Kind::Running,
            }
        } else {
            match (node.state, roll) {
                (NodeState::Down, 0..=49) => Kind::Lost,
                (NodeState::Down, _) => Kind::Running,
                (NodeState::Draining, 0..=59) => Kind::Migrating,
                (NodeState::Disconnected, 0..=79) => Kind::Unknown,
                (_, 0..=6) => Kind::Failed,
                (_, 7..=11) => Kind::Pending,
                (_, 12..=19) => Kind::Complete,
                (_, 20..=22) => Kind::Reconnected,
                _ => Kind::Running,
            }
        };
        // Nomad collects a node only once its allocations are terminal.
        let kind = match (node.gone, job.batch) {
            (false, _) => kind,
            (true, true) if roll < 50 => Kind::Complete,
            (true, _) => Kind::Lost,
        };
        // Most allocations run the current version; the rest are spread over
        // older ones, the older the fewer. Completed ones lean old.
        let current = job.versions - 1;
        let version = match rng.below(100) {
            0..=54 if kind != Kind::Complete => current,
            0..=79 => current.saturating_sub(1),
            80..=94 => current.saturating_sub(2),
            _ => rng.below(job.versions as u64) as usize,
        };
        Draw {
            id,
            node,
            kind,
            version,
            rng,
        }
    }

    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut rng = Rng::new(self.seed.wrapping_add(7));
        let policies = if self.go_dump { "[]" } else { "null" };
        write!(
            out,
            r#"{{"ACLPolicies":{policies},"ACLTokens":[{{"AccessorID":"{}","SecretID":"{}","Name":"bootstrap","Type":"management","Policies":null,"Global":true,"CreateTime":"{}","CreateIndex":8,"ModifyIndex":8}}],"#,
            rng.uuid(),
            rng.uuid(),
            time(NOW_NANOS - 90 * 24 * 60 * MINUTE)
        )?;
        out.write_all(b"\"Allocs\":[")?;
        let mut buf = String::with_capacity(32 * 1024);
        for (i, slot) in self.slots.iter().enumerate() {
            buf.clear();
            self.alloc(slot, &mut buf);
            if i > 0 {
                out.write_all(b",")?;
            }
            out.write_all(buf.as_bytes())?;
        }
        out.write_all(b"]")?;
        if self.go_dump {
            out.write_all(br#","CSIPlugins":[],"CSIVolumes":[]"#)?;
        }
        out.write_all(b",\"Deployments\":")?;
        serde_json::to_writer(&mut *out, &self.deployments())?;
        out.write_all(b",\"Evals\":")?;
        serde_json::to_writer(&mut *out, &self.evals(&mut rng))?;
        let index = 2_000_000 + self.slots.len();
        if self.go_dump {
            self.go_indexes_and_summaries(out, index)?;
        }
        out.write_all(b",\"JobVersions\":[")?;
        let mut first = true;
        for job in &self.jobs {
            for texts in job.texts.iter().rev() {
                if !first {
                    out.write_all(b",")?;
                }
                first = false;
                out.write_all(texts.last().expect("a version has a text").as_bytes())?;
            }
        }
        out.write_all(b"],\"Jobs\":[")?;
        for (i, job) in self.jobs.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            let current = job.texts.last().expect("a job has a version");
            out.write_all(current.last().expect("a version has a text").as_bytes())?;
        }
        out.write_all(b"],\"Nodes\":[")?;
        let mut first = true;
        for (i, node) in self.nodes.iter().enumerate().filter(|(_, n)| !n.gone) {
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            if self.go_dump {
                out.write_all(client::go_node(node, i, self.node_attrs).as_bytes())?;
            } else {
                serde_json::to_writer(&mut *out, &node_json(node, i, self.node_attrs))?;
            }
        }
        let meta = format!(
            r#"{{"ID":"42-{index}-{}","Index":{index},"Term":42}}"#,
            NOW_NANOS / 1_000_000
        );
        if self.go_dump {
            // The keys Go sorts between Nodes and SnapshotMeta ('I' < 'c' < 'n'),
            // the meta as a list, and the last key.
            writeln!(
                out,
                r#"],"PeriodicLaunches":[],"RootKeys":[],"SITokenAccessors":[],"ScalingEvents":[],"ScalingPolicies":[],"SnapshotMeta":[{meta}],"VaultAccessors":[]}}"#
            )
        } else {
            writeln!(out, r#"],"SnapshotMeta":{meta}}}"#)
        }
    }

    /// `Indexes` (a table's last write) and `JobSummaries` (each group's
    /// allocations by client status), between `Evals` and `JobVersions`.
    fn go_indexes_and_summaries(&self, out: &mut impl Write, index: usize) -> io::Result<()> {
        out.write_all(b",\"Indexes\":[")?;
        for (i, table) in [
            "allocs",
            "deployment",
            "evals",
            "job_summary",
            "job_version",
            "jobs",
            "nodes",
        ]
        .iter()
        .enumerate()
        {
            if i > 0 {
                out.write_all(b",")?;
            }
            write!(out, r#"{{"Key":"{table}","Value":{}}}"#, index - 7 + i)?;
        }
        out.write_all(b"],\"JobSummaries\":[")?;
        for (i, job) in self.jobs.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            let groups: Vec<String> = job
                .groups
                .iter()
                .map(|g| {
                    format!(
                        r#""{}":{{"Queued":0,"Complete":0,"Failed":0,"Running":{},"Starting":0,"Lost":0,"Unknown":0}}"#,
                        g.name, g.count
                    )
                })
                .collect();
            write!(
                out,
                r#"{{"JobID":"{}","Namespace":"{}","Summary":{{{}}},"Children":{{"Pending":0,"Running":0,"Dead":0}},"CreateIndex":{},"ModifyIndex":{index}}}"#,
                job.id,
                job.namespace,
                groups.join(","),
                10 + i
            )?;
        }
        out.write_all(b"]")
    }

    /// One allocation as Go prints a `structs.Allocation`.
    fn alloc(&self, slot: &Slot, o: &mut String) {
        let (j, g, k) = (slot.job as usize, slot.group as usize, slot.k as usize);
        let Draw {
            id,
            node,
            kind,
            version,
            mut rng,
        } = self.draw(j, g, k);
        let job = &self.jobs[j];
        let group = &job.groups[g];
        let created = NOW_NANOS - (rng.below(20 * 24 * 60) as i64 + 5) * MINUTE;
        let modify = created + rng.below(120) as i64 * MINUTE;
        let variant = rng.below(job.texts[version].len() as u64) as usize;
        let ci = 10_000 + (j * 100_000 + k) as u64;
        let text = &job.texts[version][variant];
        let own;
        let text = if self.own_indexes {
            own = with_modify_index(text, ci);
            &own
        } else {
            text
        };
        let null_job = self.null_jobs > 0
            && Rng::new(alloc_seed(self.seed ^ 0x6e75_6c6c, &job.id, g, k)).below(1000)
                < self.null_jobs as u64;
        let text = if null_job { "null" } else { text };
        let current = version + 1 == job.versions;
        let canary = job.canary && current && !kind.terminal() && slot.name_index < 2;
        let (desired, desired_desc, client) = match kind {
            Kind::Running | Kind::Reconnected | Kind::Migrating => ("run", "", "running"),
            Kind::Pending => ("run", "", "pending"),
            Kind::Failed if rng.chance(30) => {
                ("stop", "alloc was rescheduled because it failed", "failed")
            }
            Kind::Failed => ("run", "", "failed"),
            Kind::Complete if job.batch => ("run", "", "complete"),
            Kind::Complete => ("stop", "alloc not needed due to job update", "complete"),
            Kind::Lost => ("stop", "alloc is lost since its node is down", "lost"),
            Kind::Unknown => ("run", "", "unknown"),
        };
        let _ = write!(
            o,
            r#"{{"ID":"{id}","Namespace":"{ns}","EvalID":"{eval}","Name":"{jid}.{gname}[{index}]","NodeID":"{node_id}","NodeName":"{node_name}","JobID":"{jid}","Job":{text},"TaskGroup":"{gname}","Resources":{{"CPU":{cpu},"Cores":0,"MemoryMB":{mem},"MemoryMaxMB":0,"DiskMB":300,"IOPS":0,"Networks":null,"Devices":null}},"SharedResources":{{"CPU":0,"Cores":0,"MemoryMB":0,"MemoryMaxMB":0,"DiskMB":300,"IOPS":0,"Networks":[{{"Mode":"bridge","Device":"","CIDR":"","IP":"10.{a}.{b}.{c}","Hostname":"","MBits":0,"DNS":null,"ReservedPorts":null,"DynamicPorts":[{{"Label":"http","Value":{port},"To":8080,"HostNetwork":"default"}}]}}],"Devices":null}},"TaskResources":null,"AllocatedResources":{{"Tasks":{{"#,
            ns = job.namespace,
            eval = rng.uuid(),
            jid = job.id,
            gname = group.name,
            index = slot.name_index,
            node_id = node.id,
            node_name = node.name,
            cpu = 100 * (group.tasks as u64 + rng.below(8)),
            mem = 128 * (group.tasks as u64 + rng.below(16)),
            a = rng.below(256),
            b = rng.below(256),
            c = rng.below(256),
            port = 20000 + rng.below(12000),
        );
        for (t, task) in TASK_NAMES.iter().take(group.tasks).enumerate() {
            if t > 0 {
                o.push(',');
            }
            let _ = write!(
                o,
                r#""{}":{{"Cpu":{{"CpuShares":{},"ReservedCores":null}},"Memory":{{"MemoryMB":{},"MemoryMaxMB":0}},"Networks":null,"Devices":null}}"#,
                task,
                100 + 50 * rng.below(8),
                64 << rng.below(5)
            );
        }
        let score = rng.below(1000) as f64 / 1000.0;
        let _ = write!(
            o,
            r#"}},"TaskLifecycles":null,"Shared":{{"Networks":null,"DiskMB":300,"Ports":null}}}},"Metrics":{{"NodesEvaluated":{ne},"NodesFiltered":{nf},"NodesAvailable":{{"dc1":{avail},"dc2":{avail2}}},"ClassFiltered":null,"ConstraintFiltered":null,"NodesExhausted":{nx},"ClassExhausted":null,"DimensionExhausted":null,"QuotaExhausted":null,"ResourcesExhausted":null,"Scores":null,"ScoreMetaData":[{{"NodeID":"{node_id}","Scores":{{"binpack":{score},"job-anti-affinity":{anti},"node-affinity":0,"node-reschedule-penalty":0}},"NormScore":{norm}}}"#,
            ne = 1 + rng.below(self.nodes.len() as u64),
            nf = rng.below(40),
            avail = rng.below(self.nodes.len() as u64),
            avail2 = rng.below(self.nodes.len() as u64),
            nx = rng.below(5),
            node_id = node.id,
            anti = -(rng.below(4) as f64) / 4.0,
            norm = score / 2.0,
        );
        // Drawn whether written or not, so that the rest of the snapshot
        // does not depend on `scores`.
        for extra in 1..=rng.below(3) as usize {
            let (id, binpack, norm) = (rng.uuid(), rng.below(1000), rng.below(1000));
            if extra < self.scores {
                let _ = write!(
                    o,
                    r#",{{"NodeID":"{id}","Scores":{{"binpack":{}}},"NormScore":{}}}"#,
                    binpack as f64 / 1000.0,
                    norm as f64 / 2000.0
                );
            }
        }
        let migrate = if kind == Kind::Migrating {
            "true"
        } else {
            "null"
        };
        let force = if rng.chance(1) { "true" } else { "null" };
        let _ = write!(
            o,
            r#"],"AllocationTime":{at},"CoalescedFailures":{cf}}},"DesiredStatus":"{desired}","DesiredDescription":"{desired_desc}","DesiredTransition":{{"Migrate":{migrate},"Reschedule":null,"ForceReschedule":{force}}},"ClientStatus":"{client}","ClientDescription":"{cdesc}","TaskStates":{{"#,
            at = 50_000 + rng.below(2_000_000),
            cf = rng.below(3),
            cdesc = match client {
                "running" => "Tasks are running",
                "failed" => "Failed tasks",
                "complete" => "All tasks have completed",
                "pending" => "No tasks have started",
                _ => "",
            },
        );
        for (t, task) in TASK_NAMES.iter().take(group.tasks).enumerate() {
            if t > 0 {
                o.push(',');
            }
            self.task_state(task, kind, created, modify, &mut rng, o);
        }
        o.push_str("},\"AllocStates\":");
        match kind {
            Kind::Unknown => {
                o.push('[');
                let disconnects = 1 + rng.below(3);
                for d in 0..disconnects {
                    let at = created + (d as i64 + 1) * 30 * MINUTE;
                    if d > 0 {
                        let _ = write!(
                            o,
                            r#"{{"Field":0,"Value":"running","Time":"{}"}},"#,
                            time(at - 10 * MINUTE)
                        );
                    }
                    let _ = write!(
                        o,
                        r#"{{"Field":0,"Value":"unknown","Time":"{}"}}"#,
                        time(at)
                    );
                    if d + 1 < disconnects {
                        o.push(',');
                    }
                }
                o.push(']');
            }
            Kind::Reconnected => {
                let at = created + rng.below(600) as i64 * MINUTE / 10 + MINUTE;
                let _ = write!(
                    o,
                    r#"[{{"Field":0,"Value":"unknown","Time":"{}"}},{{"Field":0,"Value":"running","Time":"{}"}}]"#,
                    time(at),
                    time(at + (1 + rng.below(30) as i64) * MINUTE)
                );
            }
            _ => o.push_str("null"),
        }
        let previous = if rng.chance(15) {
            rng.uuid()
        } else {
            String::new()
        };
        let next = if kind == Kind::Failed && rng.chance(50) {
            rng.uuid()
        } else {
            String::new()
        };
        let deployment = if job.batch {
            ""
        } else {
            job.deployments[version.min(job.deployments.len() - 1)].as_str()
        };
        let _ = write!(
            o,
            r#","PreviousAllocation":"{previous}","NextAllocation":"{next}","DeploymentID":"{deployment}","DeploymentStatus":"#
        );
        if deployment.is_empty() || kind == Kind::Pending {
            o.push_str("null");
        } else {
            let healthy = match client {
                "running" | "complete" => "true",
                "failed" => "false",
                _ => "null",
            };
            let _ = write!(
                o,
                r#"{{"Healthy":{healthy},"Timestamp":"{}","Canary":{canary},"ModifyIndex":{}}}"#,
                time(created + 2 * MINUTE),
                100_000 + k
            );
        }
        o.push_str(",\"RescheduleTracker\":");
        if previous.is_empty() && kind != Kind::Failed {
            o.push_str("null");
        } else {
            o.push_str("{\"Events\":[");
            let events = 1 + rng.below(4);
            for e in 0..events {
                if e > 0 {
                    o.push(',');
                }
                let _ = write!(
                    o,
                    r#"{{"RescheduleTime":{},"PrevAllocID":"{}","PrevNodeID":"{}","Delay":{}}}"#,
                    created - (events - e) as i64 * 7 * MINUTE,
                    rng.uuid(),
                    self.nodes[rng.below(self.nodes.len() as u64) as usize].id,
                    (30 * SECOND) << e
                );
            }
            o.push_str("]}");
        }
        let followup = if kind == Kind::Unknown {
            job.followups[g].as_str()
        } else {
            ""
        };
        let _ = write!(
            o,
            r#","NetworkStatus":{{"InterfaceName":"eth0","Address":"172.{}.{}.{}","DNS":null}},"FollowupEvalID":"{followup}","PreemptedAllocations":null,"PreemptedByAllocation":"","CreateIndex":{ci},"ModifyIndex":{mi},"AllocModifyIndex":{ci},"CreateTime":{created},"ModifyTime":{modify}}}"#,
            16 + rng.below(16),
            rng.below(256),
            rng.below(256),
            mi = ci + rng.below(5000),
        );
    }

    /// A task's state with an event history as long as its life made it.
    fn task_state(
        &self,
        task: &str,
        kind: Kind,
        created: i64,
        modify: i64,
        rng: &mut Rng,
        o: &mut String,
    ) {
        let started = created + (5 + rng.below(60) as i64) * SECOND;
        // Most tasks never restarted; a few restarted many times.
        let restarts = if kind == Kind::Pending || rng.chance(75) {
            0
        } else {
            1 + rng.below((self.events as u64).saturating_sub(4) / 3)
        };
        let dead = matches!(kind, Kind::Failed | Kind::Complete | Kind::Lost);
        let failed = kind == Kind::Failed;
        let state = match kind {
            Kind::Pending => "pending",
            _ if dead => "dead",
            _ => "running",
        };
        let last_restart = if restarts > 0 {
            time(started + restarts as i64 * 3 * MINUTE)
        } else {
            "0001-01-01T00:00:00Z".to_string()
        };
        let finished = if dead {
            time(modify)
        } else {
            "0001-01-01T00:00:00Z".to_string()
        };
        let started_at = if kind == Kind::Pending {
            "0001-01-01T00:00:00Z".to_string()
        } else {
            time(started)
        };
        let _ = write!(
            o,
            r#""{task}":{{"State":"{state}","Failed":{failed},"Restarts":{restarts},"LastRestart":"{last_restart}","StartedAt":"{started_at}","FinishedAt":"{finished}","Events":["#
        );
        let event = |o: &mut String, kind: &str, at: i64, message: &str, details: &str| {
            let _ = write!(
                o,
                r#"{{"Type":"{kind}","Time":{at},"Message":"{message}","DisplayMessage":"{message}","Details":{{{details}}}}}"#
            );
        };
        event(
            o,
            "Received",
            created + SECOND,
            "Task received by client",
            "",
        );
        o.push(',');
        event(
            o,
            "Task Setup",
            created + 2 * SECOND,
            "Building Task Directory",
            r#""message":"Building Task Directory""#,
        );
        if self.varied_texts && rng.chance(20) {
            let (path, n) = (
                ["db", "queue", "cache", "tls"][rng.below(4) as usize],
                rng.below(900),
            );
            let missing = format!(
                "Missing: vault.read(secret/data/{task}/{path}-{n}), kv.block(config/{path}/{n}/endpoint)"
            );
            o.push(',');
            event(o, "Template", created + 2 * SECOND, &missing, "");
        }
        if kind != Kind::Pending {
            let image = if self.varied_texts {
                format!(
                    r#""image":"registry.example.com/{task}/{}:{}.{}.{}""#,
                    ["app", "svc", "worker", "proxy"][rng.below(4) as usize],
                    rng.below(4),
                    rng.below(30),
                    rng.below(100)
                )
            } else {
                r#""image":"registry.example.com/app:1.4.2""#.to_string()
            };
            o.push(',');
            event(
                o,
                "Driver",
                created + 3 * SECOND,
                "Downloading image",
                &image,
            );
            o.push(',');
            event(o, "Started", started, "Task started by client", "");
        }
        for r in 0..restarts {
            let at = started + (r as i64 + 1) * 3 * MINUTE;
            let (exit, message, oom) = if self.varied_texts {
                match rng.below(4) {
                    0 => (137, r#"OOM Killed"#.to_string(), true),
                    1 => (
                        1,
                        format!(
                            "exit status 1: connection refused 10.{}.{}.{}:5432",
                            rng.below(256),
                            rng.below(256),
                            rng.below(256)
                        ),
                        false,
                    ),
                    2 => (143, "terminated".to_string(), false),
                    _ => (
                        2,
                        format!(
                            "panic: runtime error: index out of range [{}] with length {}",
                            rng.below(64) + 3,
                            rng.below(3)
                        ),
                        false,
                    ),
                }
            } else {
                (137, "OOM Killed".to_string(), true)
            };
            let delay = if self.varied_texts {
                15_000 + rng.below(9_000)
            } else {
                15_600
            };
            o.push(',');
            event(
                o,
                "Terminated",
                at - 20 * SECOND,
                &format!("Exit Code: {exit}, Exit Message: \\\"{message}\\\""),
                &format!(r#""exit_code":"{exit}","oom_killed":"{oom}","signal":"0""#),
            );
            o.push(',');
            event(
                o,
                "Restarting",
                at - 15 * SECOND,
                &format!(
                    "Task restarting in {}.{}s",
                    delay / 1000,
                    delay % 1000 / 100
                ),
                &format!(
                    r#""restart_reason":"Restart within policy","start_delay":"{}""#,
                    delay * 1_000_000
                ),
            );
            o.push(',');
            event(o, "Started", at, "Task started by client", "");
        }
        if kind == Kind::Reconnected {
            o.push(',');
            event(o, "Reconnected", modify, "Client reconnected", "");
        }
        if dead {
            o.push(',');
            if failed {
                event(
                    o,
                    "Not Restarting",
                    modify,
                    "Exceeded allowed attempts 2 in interval 30m0s and mode is \\\"fail\\\"",
                    r#""fails_task":"true","restart_reason":"Exceeded allowed attempts 2 in interval 30m0s and mode is \"fail\"""#,
                );
            } else {
                event(
                    o,
                    "Killing",
                    modify - 5 * SECOND,
                    "Sent interrupt",
                    r#""kill_timeout":"5s""#,
                );
                o.push(',');
                event(o, "Killed", modify, "Task successfully killed", "");
            }
        }
        o.push_str("]}");
    }

    fn deployments(&self) -> Vec<Value> {
        let mut out = Vec::new();
        for job in self.jobs.iter().filter(|j| !j.batch) {
            for (v, id) in job.deployments.iter().enumerate() {
                let current = v + 1 == job.deployments.len();
                let canaries = if job.canary && current { 2 } else { 0 };
                let mut groups = Map::new();
                for group in &job.groups {
                    groups.insert(
                        group.name.to_string(),
                        json!({
                            "AutoRevert": true, "AutoPromote": false, "Promoted": false,
                            "PlacedCanaries": null, "DesiredCanaries": canaries,
                            "DesiredTotal": group.count,
                            "PlacedAllocs": if current { group.count / 3 } else { group.count },
                            "HealthyAllocs": if current { group.count / 4 } else { group.count },
                            "UnhealthyAllocs": 0, "ProgressDeadline": 600_000_000_000i64,
                            "RequireProgressBy": time(NOW_NANOS + 10 * MINUTE),
                        }),
                    );
                }
                let (status, desc) = match (current, job.canary) {
                    (false, _) => ("successful", "Deployment completed successfully"),
                    (true, true) => (
                        "running",
                        "Deployment is running but requires manual promotion",
                    ),
                    (true, false) => ("running", "Deployment is running"),
                };
                out.push(json!({
                    "ID": id, "Namespace": job.namespace, "JobID": job.id,
                    "JobVersion": v, "JobModifyIndex": 1000 + v, "JobSpecModifyIndex": 1000 + v,
                    "JobCreateIndex": 900, "IsMultiregion": false, "TaskGroups": groups,
                    "Status": status, "StatusDescription": desc, "EvalPriority": 50,
                    "CreateIndex": 5000 + v, "ModifyIndex": 6000 + v,
                }));
            }
        }
        out
    }

    fn evals(&self, rng: &mut Rng) -> Vec<Value> {
        let mut out = Vec::new();
        for job in &self.jobs {
            let kind = if job.batch { "batch" } else { "service" };
            out.push(json!({
                "ID": rng.uuid(), "Namespace": job.namespace, "Priority": 50, "Type": kind,
                "TriggeredBy": "job-register", "JobID": job.id, "Status": "complete",
                "CreateIndex": 7000, "ModifyIndex": 7001,
            }));
            for id in &job.followups {
                out.push(json!({
                    "ID": id, "Namespace": job.namespace, "Priority": 50, "Type": kind,
                    "TriggeredBy": "max-disconnect-timeout", "JobID": job.id, "Status": "pending",
                    "StatusDescription": "created for delayed disconnect timeout",
                    "WaitUntil": time(NOW_NANOS + 40 * MINUTE),
                    "CreateIndex": 7100, "ModifyIndex": 7100,
                }));
            }
        }
        out
    }
}

struct Draw<'a> {
    id: String,
    node: &'a Node,
    kind: Kind,
    version: usize,
    rng: Rng,
}

fn alloc_seed(seed: u64, job: &str, g: usize, k: usize) -> u64 {
    let mut h = seed.wrapping_mul(0x100_0000_01b3) ^ 0xa11c;
    let index = (g as u64) << 48 | k as u64;
    for b in job.bytes().chain(index.to_le_bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    Rng::new(h).next()
}

/// A fingerprinted attribute: its key, and how many values it takes across
/// nodes (0: one of its own on each node).
const FINGERPRINT: [(&str, usize); 24] = [
    ("consul.datacenter", 3),
    ("consul.revision", 2),
    ("consul.server", 1),
    ("consul.version", 2),
    ("cpu.frequency", 4),
    ("cpu.modelname", 3),
    ("cpu.totalcompute", 6),
    ("driver.docker.bridge_ip", 1),
    ("driver.docker.os_type", 1),
    ("driver.docker.runtimes", 2),
    ("driver.docker.version", 3),
    ("kernel.version", 4),
    ("memory.totalbytes", 3),
    ("os.signals", 1),
    ("platform.aws.ami-id", 5),
    ("platform.aws.instance-type", 6),
    ("platform.aws.placement.availability-zone", 3),
    ("storage.bytesfree", 0),
    ("storage.bytestotal", 2),
    ("storage.volume", 1),
    ("unique.cgroup.mountpoint", 1),
    ("unique.platform.aws.hostname", 0),
    ("unique.platform.aws.instance-id", 0),
    ("unique.platform.aws.local-ipv4", 0),
];

/// `n` attributes past the ten every node has, cycling through
/// [`FINGERPRINT`] (numbered after the first round), and the drivers such a
/// client reports; both empty when `n` is 0.
fn fingerprint(i: usize, n: usize) -> (Map<String, Value>, Value) {
    let mut attrs = std::collections::BTreeMap::new();
    for k in 0..n {
        let (key, kinds) = FINGERPRINT[k % FINGERPRINT.len()];
        let round = k / FINGERPRINT.len();
        let key = if round == 0 {
            key.to_string()
        } else {
            format!("{key}.{round}")
        };
        let value = match kinds {
            0 => format!("{key}-{i:06}"),
            _ => format!("{key}-value-{}", (i + round) % kinds),
        };
        attrs.insert(key, Value::String(value));
    }
    if n == 0 {
        return (Map::new(), Value::Null);
    }
    let driver = |healthy: bool| {
        json!({"Attributes": {"driver.version": "1.0"}, "Detected": true, "Healthy": healthy,
               "HealthDescription": if healthy { "Healthy" } else { "Unhealthy" },
               "UpdateTime": time(NOW_NANOS - 3600 * SECOND)})
    };
    let drivers =
        json!({"docker": driver(true), "exec": driver(i.is_multiple_of(3)), "raw_exec": null});
    (attrs.into_iter().collect(), drivers)
}

fn node_json(node: &Node, i: usize, extra: usize) -> Value {
    let (status, eligibility, drain) = match node.state {
        NodeState::Ready => (
            "ready",
            if i % 50 == 7 {
                "ineligible"
            } else {
                "eligible"
            },
            Value::Null,
        ),
        NodeState::Down => ("down", "eligible", Value::Null),
        NodeState::Disconnected => ("disconnected", "eligible", Value::Null),
        NodeState::Draining => (
            "ready",
            "ineligible",
            json!({"Deadline": 3_600_000_000_000i64, "IgnoreSystemJobs": false,
                   "ForceDeadline": time(NOW_NANOS + 50 * MINUTE), "StartedAt": time(NOW_NANOS - 10 * MINUTE)}),
        ),
    };
    let mut json = json!({
        "ID": node.id, "SecretID": "", "Datacenter": node.datacenter, "Name": node.name,
        "HTTPAddr": format!("{}:4646", node.name), "TLSEnabled": true,
        "Attributes": {"kernel.name": "linux", "arch": "amd64", "cpu.numcores": (4 << (i % 3)).to_string(),
                       "driver.docker": "1", "driver.exec": if i.is_multiple_of(3) { "1" } else { "0" },
                       "os.name": "ubuntu", "os.version": "22.04", "nomad.version": node.version,
                       "unique.hostname": node.name, "unique.network.ip-address": format!("10.0.{}.{}", i / 256 % 256, i % 256)},
        "NodeResources": {"Cpu": {"CpuShares": 16000}, "Memory": {"MemoryMB": 32000},
                          "Disk": {"DiskMB": 100000}, "Networks": null, "Devices": null},
        "Meta": {"rack": format!("r{}", i % 13), "zone": format!("zone-{}", i % 3)},
        "NodeClass": node.class, "Drain": !drain.is_null(), "DrainStrategy": drain,
        "SchedulingEligibility": eligibility, "Status": status,
        "StatusDescription": "", "StatusUpdatedAt": NOW_NANOS / SECOND - 300 - (i as i64 % 5000),
        "CreateIndex": 5 + i, "ModifyIndex": 6 + i,
    });
    let (attrs, drivers) = fingerprint(i, extra);
    if !attrs.is_empty() {
        json["Attributes"]
            .as_object_mut()
            .expect("attributes are an object")
            .extend(attrs);
        // Go writes a map's keys in order.
        json["Attributes"].sort_all_objects();
        json["Drivers"] = drivers;
    }
    json
}

impl JobSpec {
    fn new(i: usize, allocs: usize, args: &Spec, rng: &mut Rng) -> JobSpec {
        let batch = i % 7 == 5;
        let n_groups = [1, 1, 2, 1, 1, 1][i % 6];
        // Uneven groups: the first takes the largest share.
        let weights: Vec<usize> = (0..n_groups).map(|g| n_groups - g + 1).collect();
        let total: usize = weights.iter().sum();
        let mut left = allocs;
        let groups: Vec<Group> = (0..n_groups)
            .map(|g| {
                let share = if g + 1 == n_groups {
                    left
                } else {
                    (allocs * weights[g] / total).min(left)
                };
                left -= share;
                Group {
                    name: GROUP_NAMES[g],
                    count: (share * 85 / 100).max(1),
                    tasks: if (i + g) % 4 == 3 { args.tasks } else { 1 },
                    allocs: share,
                    max_client_disconnect: (i + g) % 3 != 2,
                }
            })
            .collect();
        let versions = 2 + i % (args.versions - 1);
        let variants = 1 + i % args.variants;
        let mut job = JobSpec {
            namespace: ["default", "default", "platform", "payments"][i % 4],
            id: format!(
                "{}-{}-{i:02}",
                ["checkout", "search", "ingest", "billing", "edge"][i % 5],
                if batch { "batch" } else { "svc" }
            ),
            batch,
            versions,
            canary: !batch && i % 4 == 1,
            bare: args.bare_jobs,
            oversized: i % 20 == 13,
            groups,
            texts: Vec::new(),
            deployments: (0..versions).map(|_| rng.uuid()).collect(),
            followups: (0..n_groups).map(|_| rng.uuid()).collect(),
        };
        job.texts = (0..versions)
            .map(|v| (0..variants).map(|variant| job.text(v, variant)).collect())
            .collect();
        job
    }

    /// The job as Go prints a `structs.Job` at version `v`. Even versions
    /// change an image (destructive); odd ones change only service tags and
    /// the priority (in place). Variants of one version differ only in what
    /// the servers change as allocations come and go: the modify index,
    /// status and stability.
    fn text(&self, v: usize, variant: usize) -> String {
        let image_rev = v / 2;
        let groups: Vec<Value> = self
            .groups
            .iter()
            .map(|group| {
                let mut tasks: Vec<Value> = (0..group.tasks)
                    .map(|t| task_json(&self.id, TASK_NAMES[t], t, image_rev, self.bare))
                    .collect();
                if self.oversized && v + 1 == self.versions {
                    tasks[0]["Resources"]["MemoryMB"] = json!(OVERSIZED_MB);
                }
                json!({
                    "Name": group.name, "Count": group.count,
                    "Update": if self.batch { Value::Null } else { json!({
                        "Stagger": 30_000_000_000i64, "MaxParallel": 1 + group.tasks,
                        "HealthCheck": "checks", "MinHealthyTime": 10_000_000_000i64,
                        "HealthyDeadline": 300_000_000_000i64, "ProgressDeadline": 600_000_000_000i64,
                        "AutoRevert": true, "AutoPromote": false,
                        "Canary": if self.canary { 2 } else { 0 },
                    })},
                    "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
                    "RestartPolicy": {"Attempts": 2, "Interval": 1_800_000_000_000i64,
                                      "Delay": 15_000_000_000i64, "Mode": "fail"},
                    "Tasks": tasks,
                    "EphemeralDisk": {"Sticky": false, "SizeMB": 300, "Migrate": false},
                    "Meta": {"team": self.namespace, "tier": group.name},
                    "ReschedulePolicy": if self.batch {
                        json!({"Attempts": 1, "Interval": 86_400_000_000_000i64, "Delay": 5_000_000_000i64,
                               "DelayFunction": "constant", "MaxDelay": 0, "Unlimited": false})
                    } else {
                        json!({"Attempts": 0, "Interval": 0, "Delay": 30_000_000_000i64,
                               "DelayFunction": "exponential", "MaxDelay": 3_600_000_000_000i64, "Unlimited": true})
                    },
                    "Affinities": null, "Spreads": null,
                    "Networks": [{"Mode": "bridge", "Device": "", "CIDR": "", "IP": "", "Hostname": "",
                                  "MBits": 0, "DNS": null, "ReservedPorts": null,
                                  "DynamicPorts": [{"Label": "http", "Value": 0, "To": 8080, "HostNetwork": "default"}]}],
                    "Consul": {"Namespace": ""},
                    "Services": [{
                        "Name": format!("{}-{}", self.id, group.name), "TaskName": "", "PortLabel": "http",
                        "Tags": ["traefik.enable=true", format!("release=v{v}")],
                        "CanaryTags": ["canary"], "EnableTagOverride": false,
                        "Checks": if self.bare { Value::Null } else {
                            json!([{"Name": "alive", "Type": "http", "Path": "/health", "Protocol": "",
                                    "PortLabel": "http", "Interval": 10_000_000_000i64, "Timeout": 2_000_000_000i64,
                                    "Method": "GET", "OnUpdate": "require_healthy"}])
                        },
                        "Connect": null, "OnUpdate": "require_healthy", "Provider": "consul",
                    }],
                    "StopAfterClientDisconnect": null,
                    "MaxClientDisconnect": if group.max_client_disconnect { json!(3_600_000_000_000i64) } else { Value::Null },
                })
            })
            .collect();
        let status = if variant == 0 { "pending" } else { "running" };
        let job = json!({
            "Stop": false, "Region": "global", "Namespace": self.namespace, "ID": self.id,
            "ParentID": "", "Name": self.id, "Type": if self.batch { "batch" } else { "service" },
            "Priority": 50 + v % 2 * 10, "AllAtOnce": false, "Datacenters": ["dc1", "dc2", "dc3"],
            "Constraints": [{"LTarget": "${attr.os.name}", "RTarget": "ubuntu", "Operand": "="}],
            "Affinities": null, "Spreads": null, "TaskGroups": groups,
            "Update": {"Stagger": 30_000_000_000i64, "MaxParallel": 1, "HealthCheck": "",
                       "MinHealthyTime": 0, "HealthyDeadline": 0, "ProgressDeadline": 0,
                       "AutoRevert": false, "AutoPromote": false, "Canary": 0},
            "Multiregion": null, "Periodic": null, "ParameterizedJob": null, "Dispatched": false,
            "Payload": null, "Meta": {"owner": self.namespace, "revision": image_rev.to_string()},
            "ConsulToken": "", "VaultToken": "", "VaultNamespace": "", "NomadTokenID": "",
            "Status": status, "StatusDescription": "", "Stable": variant > 0 && v + 1 < self.versions,
            "Version": v, "SubmitTime": NOW_NANOS - (40 - v as i64) * 3600 * SECOND,
            "CreateIndex": 900, "ModifyIndex": 1000 + v * 10 + variant, "JobModifyIndex": 1000 + v,
        });
        serde_json::to_string(&job).expect("a job serializes")
    }
}

/// The job text `text` with its own `ModifyIndex` set to `index`.
fn with_modify_index(text: &str, index: u64) -> String {
    const KEY: &str = "\"ModifyIndex\":";
    let at = text.find(KEY).expect("a job has a ModifyIndex") + KEY.len();
    let digits = text[at..]
        .find(|c: char| !c.is_ascii_digit())
        .expect("more follows");
    format!("{}{index}{}", &text[..at], &text[at + digits..])
}

/// The memory of an oversized job's current version: more than the
/// 32,000 MB every generated node has.
const OVERSIZED_MB: usize = 49_152;

fn task_json(job: &str, task: &str, t: usize, image_rev: usize, bare: bool) -> Value {
    let env: Map<String, Value> = (0..if bare { 0 } else { 2 + t })
        .map(|e| (format!("SETTING_{e}"), json!(format!("value-{e}-{job}"))))
        .collect();
    json!({
        "Name": task, "Driver": "docker", "User": "",
        "Config": {"image": format!("registry.example.com/{job}/{task}:2.{image_rev}.0"),
                   "ports": ["http"], "args": ["--listen", "0.0.0.0:8080"]},
        "Env": env,
        "Templates": if t == 0 && !bare { json!([{
            "SourcePath": "", "DestPath": "local/config.yml",
            "EmbeddedTmpl": "{{ range service \"db\" }}db: {{ .Address }}:{{ .Port }}{{ end }}",
            "ChangeMode": "restart", "Splay": 5_000_000_000i64, "Perms": "0644",
        }]) } else { Value::Null },
        "Resources": {"CPU": 100 + 100 * t, "Cores": 0, "MemoryMB": 128 << t, "MemoryMaxMB": 0, "DiskMB": 0,
                      "IOPS": 0, "Networks": null, "Devices": null},
        "KillTimeout": 5_000_000_000i64,
        "LogConfig": {"MaxFiles": 10, "MaxFileSizeMB": 10},
        "Leader": t == 0, "ShutdownDelay": 0,
        "Lifecycle": if task == "init" { json!({"Hook": "prestart", "Sidecar": false}) } else { Value::Null },
    })
}
