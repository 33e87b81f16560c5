//! The uniform shape: every job embeds one text per version, nodes and
//! allocations follow a few fixed patterns. It is what the project measured
//! first; kept to compare against the varied shape.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{Value, json};

use super::{MINUTE, NOW_NANOS, Rng, SECOND, Spec, time};

const GROUPS: [&str; 3] = ["web", "api", "worker"];
const TASKS: [&str; 2] = ["app", "logshipper"];

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
}

/// How a job is being changed at snapshot time.
#[derive(Clone, Copy, PartialEq)]
enum Rollout {
    Settled,
    Rolling,
    Canary,
}

struct JobSpec {
    namespace: &'static str,
    id: String,
    batch: bool,
    version: u64,
    rollout: Rollout,
    groups: usize,
    /// The allocations of each group.
    allocs: Vec<usize>,
    /// The embedded text of each version, oldest first.
    texts: Vec<String>,
    /// The deployment of the current version, and of the one before.
    deployment: String,
    old_deployment: String,
}

pub struct Cluster {
    seed: u64,
    nodes: Vec<Node>,
    jobs: Vec<JobSpec>,
}

impl Cluster {
    pub fn new(args: &Spec) -> Cluster {
        let mut rng = Rng::new(args.seed);
        let nodes = (0..args.nodes)
            .map(|i| Node {
                id: rng.uuid(),
                name: format!("client-{i:05}"),
                state: match rng.below(100) {
                    0..=89 => NodeState::Ready,
                    90..=93 => NodeState::Down,
                    94..=96 => NodeState::Draining,
                    _ => NodeState::Disconnected,
                },
            })
            .collect();
        // Job i gets a share of the allocations proportional to 1/(i+1), so
        // the first job is big and the last ones small, as in real clusters.
        let weights: Vec<f64> = (0..args.jobs).map(|i| 1.0 / (i + 1) as f64).collect();
        let total: f64 = weights.iter().sum();
        let mut left = args.allocs;
        let jobs = (0..args.jobs)
            .map(|i| {
                let share = if i + 1 == args.jobs {
                    left
                } else {
                    ((args.allocs as f64 * weights[i] / total) as usize).min(left)
                };
                left -= share;
                JobSpec::new(i, share, &mut rng)
            })
            .collect();
        Cluster {
            seed: args.seed,
            nodes,
            jobs,
        }
    }

    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut rng = Rng::new(self.seed.wrapping_add(7));
        // Go's encoding/json writes map keys sorted.
        write!(
            out,
            r#"{{"ACLTokens":[{{"AccessorID":"{}","SecretID":"{}","Name":"bootstrap","Type":"management"}}],"#,
            rng.uuid(),
            rng.uuid()
        )?;
        out.write_all(b"\"Allocs\":[")?;
        let mut first = true;
        let mut buf = String::with_capacity(16 * 1024);
        for job in &self.jobs {
            for g in 0..job.groups {
                let live = job.live_count(self.seed, g);
                let mut index = 0;
                for k in 0..job.allocs[g] {
                    buf.clear();
                    self.alloc(job, g, k, &mut index, live, &mut buf);
                    if !first {
                        out.write_all(b",")?;
                    }
                    first = false;
                    out.write_all(buf.as_bytes())?;
                }
            }
        }
        out.write_all(b"],\"Deployments\":")?;
        serde_json::to_writer(&mut *out, &self.deployments())?;
        out.write_all(b",\"Evals\":")?;
        serde_json::to_writer(&mut *out, &self.evals(&mut rng))?;
        out.write_all(b",\"JobVersions\":[")?;
        let mut first = true;
        for text in self.jobs.iter().flat_map(|j| j.texts.iter().rev()) {
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            out.write_all(text.as_bytes())?;
        }
        out.write_all(b"],\"Jobs\":[")?;
        for (i, job) in self.jobs.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            out.write_all(job.texts.last().expect("a job has a version").as_bytes())?;
        }
        out.write_all(b"],\"Nodes\":[")?;
        for (i, node) in self.nodes.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, &node_json(node))?;
        }
        let millis = NOW_NANOS / 1_000_000;
        writeln!(
            out,
            r#"],"SnapshotMeta":{{"ID":"7-{}-{millis}","Index":{},"Term":7}}}}"#,
            900_000 + self.jobs.len(),
            900_000 + self.jobs.len()
        )
    }

    /// One allocation as Go prints a `structs.Allocation`.
    fn alloc(
        &self,
        job: &JobSpec,
        g: usize,
        k: usize,
        index: &mut usize,
        live: usize,
        o: &mut String,
    ) {
        let mut rng = Rng::new(alloc_seed(self.seed, &job.id, g, k));
        let id = rng.uuid();
        let node = &self.nodes[rng.below(self.nodes.len() as u64) as usize];
        let group = GROUPS[g];
        let terminal = is_terminal(self.seed, &job.id, g, k);
        let name_index = if terminal {
            rng.below(live.max(1) as u64) as usize
        } else {
            *index += 1;
            *index - 1
        };
        let created = NOW_NANOS - (rng.below(600) as i64 + 10) * MINUTE;
        let canary = job.rollout == Rollout::Canary && !terminal && name_index < 2;
        let current = match job.rollout {
            Rollout::Settled => true,
            Rollout::Rolling => !terminal && rng.chance(40),
            Rollout::Canary => canary,
        };
        let version = if current {
            job.version
        } else {
            job.version - 1
        };
        let mut desired = "run";
        let mut desired_desc = "";
        let mut client = "running";
        let mut migrate = false;
        let mut alloc_states = String::from("null");
        let mut reconnected = false;
        let mut tracker = String::from("null");
        let mut task_state = "running";
        let mut failed = false;
        if terminal {
            desired = "stop";
            desired_desc = "alloc not needed due to job update";
            client = "complete";
            task_state = "dead";
        } else if job.batch {
            client = if rng.chance(70) {
                "complete"
            } else {
                "running"
            };
            task_state = if client == "complete" {
                "dead"
            } else {
                "running"
            };
        } else {
            match node.state {
                NodeState::Down if rng.chance(50) => {
                    desired = "stop";
                    desired_desc = "alloc is lost since its node is down";
                    client = "lost";
                    task_state = "dead";
                }
                NodeState::Down => {}
                NodeState::Draining => migrate = true,
                NodeState::Disconnected => {
                    client = "unknown";
                    alloc_states = unknown_states(created + 5 * MINUTE);
                }
                NodeState::Ready => match rng.below(100) {
                    0..=4 => client = "pending",
                    5..=9 => {
                        client = "failed";
                        task_state = "dead";
                        failed = true;
                        if rng.chance(50) {
                            tracker = format!(
                                r#"{{"Events":[{{"RescheduleTime":{},"PrevAllocID":"{}","PrevNodeID":"{}","Delay":30000000000}}]}}"#,
                                created - 20 * MINUTE,
                                rng.uuid(),
                                node.id
                            );
                        }
                    }
                    10..=12 => {
                        alloc_states = unknown_states(created + 2 * MINUTE);
                        reconnected = true;
                    }
                    _ => {}
                },
            }
        }
        let deployment = match (job.batch, current) {
            (true, _) => "",
            (false, true) => job.deployment.as_str(),
            (false, false) => job.old_deployment.as_str(),
        };
        let deployment_status = if deployment.is_empty() {
            "null".to_string()
        } else {
            let healthy = match client {
                "running" => "true",
                "failed" => "false",
                _ => "null",
            };
            format!(
                r#"{{"Healthy":{healthy},"Timestamp":"{}","Canary":{canary},"ModifyIndex":{}}}"#,
                time(created + MINUTE),
                1000 + k
            )
        };
        let text = &job.texts[version as usize];
        let modify = created + rng.below(10) as i64 * MINUTE;
        let _ = write!(
            o,
            r#"{{"ID":"{id}","Namespace":"{ns}","EvalID":"{eval}","Name":"{job}.{group}[{name_index}]","NodeID":"{node_id}","NodeName":"{node_name}","JobID":"{job}","Job":{text},"TaskGroup":"{group}","Resources":{{"CPU":600,"Cores":0,"MemoryMB":704,"MemoryMaxMB":0,"DiskMB":300,"IOPS":0,"Networks":null,"Devices":null}},"SharedResources":{{"CPU":0,"Cores":0,"MemoryMB":0,"MemoryMaxMB":0,"DiskMB":300,"IOPS":0,"Networks":[{{"Mode":"bridge","Device":"","CIDR":"","IP":"10.0.{a}.{b}","Hostname":"","MBits":0,"DNS":null,"ReservedPorts":null,"DynamicPorts":[{{"Label":"http","Value":{port},"To":8080,"HostNetwork":"default"}}]}}],"Devices":null}},"TaskResources":null,"#,
            ns = job.namespace,
            eval = rng.uuid(),
            job = job.id,
            node_id = node.id,
            node_name = node.name,
            a = rng.below(256),
            b = rng.below(256),
            port = 20000 + rng.below(10000),
        );
        o.push_str(r#""AllocatedResources":{"Tasks":{"#);
        for (t, task) in TASKS.iter().enumerate() {
            if t > 0 {
                o.push(',');
            }
            let _ = write!(
                o,
                r#""{task}":{{"Cpu":{{"CpuShares":200,"ReservedCores":null}},"Memory":{{"MemoryMB":{},"MemoryMaxMB":0}},"Networks":null,"Devices":null}}"#,
                128 << t
            );
        }
        let _ = write!(
            o,
            r#"}},"TaskLifecycles":null,"Shared":{{"Networks":null,"DiskMB":300,"Ports":null}}}},"Metrics":{{"NodesEvaluated":{ne},"NodesFiltered":0,"NodesAvailable":{{"dc1":{avail}}},"ClassFiltered":null,"ConstraintFiltered":null,"NodesExhausted":0,"ClassExhausted":null,"DimensionExhausted":null,"QuotaExhausted":null,"ResourcesExhausted":null,"Scores":null,"ScoreMetaData":[{{"NodeID":"{node_id}","Scores":{{"binpack":0.41,"job-anti-affinity":0,"node-affinity":0,"node-reschedule-penalty":0}},"NormScore":0.41}}],"AllocationTime":{at},"CoalescedFailures":0}},"DesiredStatus":"{desired}","DesiredDescription":"{desired_desc}","DesiredTransition":{{"Migrate":{migrate},"Reschedule":null,"ForceReschedule":null}},"ClientStatus":"{client}","ClientDescription":"","TaskStates":{{"#,
            ne = self.nodes.len().min(100),
            avail = self.nodes.len(),
            node_id = node.id,
            at = 100_000 + rng.below(900_000),
            migrate = if migrate { "true" } else { "null" },
        );
        let mut names = TASKS;
        names.sort_unstable();
        for (t, task) in names.iter().enumerate() {
            if t > 0 {
                o.push(',');
            }
            let started = created + 30 * SECOND;
            let finished = if task_state == "dead" {
                time(modify)
            } else {
                "0001-01-01T00:00:00Z".to_string()
            };
            let _ = write!(
                o,
                r#""{task}":{{"State":"{task_state}","Failed":{failed},"Restarts":0,"LastRestart":"0001-01-01T00:00:00Z","StartedAt":"{}","FinishedAt":"{finished}","Events":[{{"Type":"Received","Time":{},"Message":"","DisplayMessage":"Task received by client","Details":{{}}}},{{"Type":"Started","Time":{started},"Message":"","DisplayMessage":"Task started by client","Details":{{}}}}"#,
                time(started),
                created + SECOND,
            );
            if reconnected {
                let _ = write!(
                    o,
                    r#",{{"Type":"Reconnected","Time":{},"Message":"","DisplayMessage":"Client reconnected","Details":{{}}}}"#,
                    created + 4 * MINUTE
                );
            }
            o.push_str("]}");
        }
        let _ = write!(
            o,
            r#"}},"AllocStates":{alloc_states},"PreviousAllocation":"","NextAllocation":"","DeploymentID":"{deployment}","DeploymentStatus":{deployment_status},"RescheduleTracker":{tracker},"NetworkStatus":{{"InterfaceName":"eth0","Address":"172.26.{}.{}","DNS":null}},"FollowupEvalID":"","PreemptedAllocations":null,"PreemptedByAllocation":"","CreateIndex":{ci},"ModifyIndex":{mi},"AllocModifyIndex":{ci},"CreateTime":{created},"ModifyTime":{modify}}}"#,
            rng.below(256),
            rng.below(256),
            ci = 2000 + k,
            mi = 3000 + k,
        );
    }

    fn deployments(&self) -> Vec<Value> {
        let mut out = Vec::new();
        for job in self.jobs.iter().filter(|j| !j.batch) {
            let groups = |status_of_current: bool| {
                let mut m = serde_json::Map::new();
                for (g, name) in GROUPS.iter().enumerate().take(job.groups) {
                    let canaries = if job.rollout == Rollout::Canary && status_of_current {
                        2
                    } else {
                        0
                    };
                    let placed: Vec<String> = (0..canaries)
                        .map(|k| canary_id(self.seed, job, g, k))
                        .collect();
                    let total = job.live_count(self.seed, g);
                    m.insert(
                        name.to_string(),
                        json!({
                            "AutoRevert": true, "AutoPromote": false, "Promoted": false,
                            "PlacedCanaries": if placed.is_empty() { Value::Null } else { json!(placed) },
                            "DesiredCanaries": canaries, "DesiredTotal": total,
                            "PlacedAllocs": if status_of_current { canaries } else { total },
                            "HealthyAllocs": if status_of_current { canaries } else { total },
                            "UnhealthyAllocs": 0,
                            "ProgressDeadline": 600_000_000_000i64,
                            "RequireProgressBy": time(NOW_NANOS + 10 * MINUTE),
                        }),
                    );
                }
                Value::Object(m)
            };
            let deployment = |id: &str, version: u64, current: bool, status: &str, desc: &str| {
                json!({
                    "ID": id, "Namespace": job.namespace, "JobID": job.id,
                    "JobVersion": version, "JobModifyIndex": 100 + version,
                    "JobSpecModifyIndex": 100 + version, "JobCreateIndex": 10,
                    "IsMultiregion": false, "TaskGroups": groups(current),
                    "Status": status, "StatusDescription": desc, "EvalPriority": 50,
                    "CreateIndex": 500 + version, "ModifyIndex": 600 + version,
                })
            };
            out.push(deployment(
                &job.old_deployment,
                job.version - 1,
                false,
                "successful",
                "Deployment completed successfully",
            ));
            if job.rollout != Rollout::Settled {
                out.push(deployment(
                    &job.deployment,
                    job.version,
                    true,
                    "running",
                    if job.rollout == Rollout::Canary {
                        "Deployment is running but requires manual promotion"
                    } else {
                        "Deployment is running"
                    },
                ));
            }
        }
        out
    }

    fn evals(&self, rng: &mut Rng) -> Vec<Value> {
        self.jobs
            .iter()
            .map(|job| {
                json!({
                    "ID": rng.uuid(), "Namespace": job.namespace, "Priority": 50,
                    "Type": if job.batch { "batch" } else { "service" },
                    "TriggeredBy": "job-register", "JobID": job.id,
                    "Status": "complete", "CreateIndex": 700, "ModifyIndex": 701,
                })
            })
            .collect()
    }
}

/// Every allocation's fields come from its own stream, so that a group's
/// live allocations can be counted before they are written.
fn alloc_seed(seed: u64, job: &str, g: usize, k: usize) -> u64 {
    let mut h = seed.wrapping_mul(0x100_0000_01b3);
    let index = (g as u64) << 48 | k as u64;
    for b in job.bytes().chain(index.to_le_bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    // FNV alone leaves nearby inputs nearby; mix so that no two collide.
    Rng::new(h).next()
}

/// About one allocation in twelve is an old, complete one.
fn is_terminal(seed: u64, job: &str, g: usize, k: usize) -> bool {
    Rng::new(alloc_seed(seed, job, g, k) ^ 0x5151).chance(8)
}

/// The ID of the k-th canary of group `g`, which the alloc writer also draws.
fn canary_id(seed: u64, job: &JobSpec, g: usize, canary: usize) -> String {
    let mut seen = 0;
    for k in 0..job.allocs[g] {
        if !is_terminal(seed, &job.id, g, k) {
            if seen == canary {
                return Rng::new(alloc_seed(seed, &job.id, g, k)).uuid();
            }
            seen += 1;
        }
    }
    String::new()
}

fn unknown_states(at: i64) -> String {
    format!(
        r#"[{{"Field":"ClientStatus","Value":"unknown","Time":"{}"}}]"#,
        time(at)
    )
}

fn node_json(node: &Node) -> Value {
    let (status, eligibility, drain) = match node.state {
        NodeState::Ready => ("ready", "eligible", Value::Null),
        NodeState::Down => ("down", "eligible", Value::Null),
        NodeState::Disconnected => ("disconnected", "eligible", Value::Null),
        NodeState::Draining => (
            "ready",
            "ineligible",
            json!({"Deadline": 3_600_000_000_000i64, "IgnoreSystemJobs": false,
                   "ForceDeadline": time(NOW_NANOS + 50 * MINUTE), "StartedAt": time(NOW_NANOS - 10 * MINUTE)}),
        ),
    };
    json!({
        "ID": node.id, "SecretID": "", "Datacenter": "dc1", "Name": node.name,
        "HTTPAddr": "10.0.0.1:4646", "TLSEnabled": false,
        "Attributes": {"kernel.name": "linux", "arch": "amd64", "cpu.numcores": "8",
                       "driver.docker": "1", "os.name": "ubuntu", "nomad.version": "1.3.0"},
        "NodeResources": {"Cpu": {"CpuShares": 16000}, "Memory": {"MemoryMB": 32000},
                          "Disk": {"DiskMB": 100000}},
        "Meta": {"rack": format!("r{}", node.name.len() % 7)},
        "NodeClass": "", "Drain": !drain.is_null(), "DrainStrategy": drain,
        "SchedulingEligibility": eligibility, "Status": status,
        "StatusDescription": "", "StatusUpdatedAt": NOW_NANOS / SECOND - 300,
        "CreateIndex": 5, "ModifyIndex": 6,
    })
}

impl JobSpec {
    fn new(i: usize, allocs: usize, rng: &mut Rng) -> JobSpec {
        let batch = i % 10 == 9;
        let rollout = match i % 6 {
            _ if batch => Rollout::Settled,
            0 => Rollout::Canary,
            3 => Rollout::Rolling,
            _ => Rollout::Settled,
        };
        let groups = if i % 5 == 4 { 3 } else { 2 };
        let mut per_group = vec![allocs / groups; groups];
        per_group[0] += allocs % groups;
        let version = 1 + (i % 4) as u64;
        let mut job = JobSpec {
            namespace: if i % 7 == 6 { "platform" } else { "default" },
            id: format!("{}-{i:03}", if batch { "batch" } else { "svc" }),
            batch,
            version,
            rollout,
            groups,
            allocs: per_group,
            texts: Vec::new(),
            deployment: rng.uuid(),
            old_deployment: rng.uuid(),
        };
        job.texts = (0..=version).map(|v| job.text(v)).collect();
        job
    }

    fn live_count(&self, seed: u64, g: usize) -> usize {
        (0..self.allocs[g])
            .filter(|&k| !is_terminal(seed, &self.id, g, k))
            .count()
    }

    /// The job as Go prints a `structs.Job` at version `v`; each version
    /// changes the image, a destructive update.
    fn text(&self, v: u64) -> String {
        let groups: Vec<Value> = (0..self.groups)
            .map(|g| {
                let count = self.allocs[g] * 92 / 100;
                // The first group has a log shipper beside the app.
                let tasks: Vec<Value> = TASKS[..if g == 0 { 2 } else { 1 }]
                    .iter()
                    .map(|t| task_json(&self.id, t, v))
                    .collect();
                json!({
                    "Name": GROUPS[g], "Count": count,
                    "Update": if self.batch { Value::Null } else { json!({
                        "Stagger": 30_000_000_000i64, "MaxParallel": 2 + g,
                        "HealthCheck": "checks", "MinHealthyTime": 10_000_000_000i64,
                        "HealthyDeadline": 300_000_000_000i64, "ProgressDeadline": 600_000_000_000i64,
                        "AutoRevert": true, "AutoPromote": false,
                        "Canary": if self.rollout == Rollout::Canary { 2 } else { 0 },
                    })},
                    "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
                    "RestartPolicy": {"Attempts": 2, "Interval": 1_800_000_000_000i64,
                                      "Delay": 15_000_000_000i64, "Mode": "fail"},
                    "Tasks": tasks,
                    "EphemeralDisk": {"Sticky": false, "SizeMB": 300, "Migrate": false},
                    "Meta": {"team": "payments", "tier": GROUPS[g]},
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
                        "Name": format!("{}-{}", self.id, GROUPS[g]), "TaskName": "", "PortLabel": "http",
                                                "Tags": ["traefik.enable=true", format!("traefik.http.routers.{}.rule=Host(`{}.example.com`)", self.id, self.id)],
                        "CanaryTags": ["canary"],
                        "Checks": [{"Name": "alive", "Type": "http", "Path": "/health", "Protocol": "",
                                    "PortLabel": "http", "Interval": 10_000_000_000i64, "Timeout": 2_000_000_000i64,
                                    "Method": "GET", "OnUpdate": "require_healthy"}],
                        "Connect": null, "OnUpdate": "require_healthy", "Provider": "consul",
                    }],
                    "StopAfterClientDisconnect": null,
                    "MaxClientDisconnect": if g == 0 { json!(3_600_000_000_000i64) } else { Value::Null },
                })
            })
            .collect();
        let job = json!({
            "Stop": false, "Region": "global", "Namespace": self.namespace, "ID": self.id,
            "ParentID": "", "Name": self.id, "Type": if self.batch { "batch" } else { "service" },
            "Priority": 50, "AllAtOnce": false, "Datacenters": ["dc1", "dc2"],
            "Constraints": [{"LTarget": "${attr.os.name}", "RTarget": "ubuntu", "Operand": "="}],
            "Affinities": null, "Spreads": null, "TaskGroups": groups,
            "Update": {"Stagger": 30_000_000_000i64, "MaxParallel": 1, "HealthCheck": "",
                       "MinHealthyTime": 0, "HealthyDeadline": 0, "ProgressDeadline": 0,
                       "AutoRevert": false, "AutoPromote": false, "Canary": 0},
            "Multiregion": null, "Periodic": null, "ParameterizedJob": null, "Dispatched": false,
            "Payload": null, "Meta": {"owner": "team-payments", "git_sha": format!("{:07x}", 0xabc000 + v)},
            "ConsulToken": "", "VaultToken": "", "VaultNamespace": "", "NomadTokenID": "",
            "Status": "running", "StatusDescription": "", "Stable": v < self.version,
            "Version": v, "SubmitTime": NOW_NANOS - (10 - v as i64) * 3600 * SECOND,
            "CreateIndex": 10, "ModifyIndex": 100 + v, "JobModifyIndex": 100 + v,
        });
        serde_json::to_string(&job).expect("a job serializes")
    }
}

fn task_json(job: &str, task: &str, version: u64) -> Value {
    json!({
        "Name": task, "Driver": "docker", "User": "",
        "Config": {"image": format!("registry.example.com/{job}/{task}:1.{version}.0"),
                   "ports": ["http"], "args": ["--listen", "0.0.0.0:8080"]},
        "Env": {"APP_ENV": "production", "LOG_LEVEL": "info", "DATABASE_URL": format!("postgres://{job}@db.service.consul:5432/{job}")
                },
        "Templates": [{
            "SourcePath": "", "DestPath": "local/config.yml",
            "EmbeddedTmpl": "{{ range service \"db\" }}db: {{ .Address }}:{{ .Port }}{{ end }}",
            "ChangeMode": "restart", "Splay": 5_000_000_000i64, "Perms": "0644",
        }],
        "Resources": {"CPU": 200, "Cores": 0, "MemoryMB": 256, "MemoryMaxMB": 0, "DiskMB": 0,
                      "IOPS": 0, "Networks": null, "Devices": null},
        "KillTimeout": 5_000_000_000i64,
        "LogConfig": {"MaxFiles": 10, "MaxFileSizeMB": 10},
        "Leader": task == "app", "ShutdownDelay": 0,
    })
}
