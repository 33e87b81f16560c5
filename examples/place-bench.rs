//! Writes the snapshot of the placement benchmark to stdout: service jobs
//! that ask for 100,000 new allocations in all, on 10,000 ready client nodes
//! of realistic sizes and attributes, and nothing running yet, so that
//! plan-inspect's time is the placement stage's (see docs/performance.md):
//!
//!     cargo run --release --example place-bench > /tmp/place.json
//!     /usr/bin/time -v target/release/plan-inspect /tmp/place.json --format json > /dev/null
//!
//! `--nodes N`, `--placements N`, `--jobs N` and `--groups N` (per job)
//! change the sizes. The nodes come in four sizes (8 to 64 cores, 16 to
//! 128 GiB), four node classes and three datacenters; one node in twenty
//! is down, draining or ineligible. Every job has a kernel constraint and
//! an affinity for one node class; its first group asks for a dynamic port
//! on the host network, the others for none; asks vary from 100 MHz and
//! 128 MB to 500 MHz and 1 GiB.

use std::io::{self, BufWriter, Write};

use serde_json::{Value, json};

const NOW: u64 = 1_764_979_200_000_000_000;

struct Sizes {
    nodes: usize,
    placements: usize,
    jobs: usize,
    groups: usize,
}

fn main() {
    let mut sizes = Sizes {
        nodes: 10_000,
        placements: 100_000,
        jobs: 10,
        groups: 2,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let n: Option<usize> = pair.get(1).and_then(|v| v.parse().ok());
        let (Some(n), flag) = (n, pair[0].as_str()) else {
            usage(&format!("{}: needs a number", pair[0]));
        };
        match flag {
            "--nodes" => sizes.nodes = n.max(1),
            "--placements" => sizes.placements = n,
            "--jobs" => sizes.jobs = n.max(1),
            "--groups" => sizes.groups = n.max(1),
            _ => usage(&format!("unknown flag {flag}")),
        }
    }
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    if let Err(e) = write(&sizes, &mut out).and_then(|()| out.flush())
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("place-bench: {e}");
        std::process::exit(1);
    }
}

fn usage(why: &str) -> ! {
    eprintln!(
        "place-bench: {why}\nusage: place-bench [--nodes N] [--placements N] [--jobs N] [--groups N]"
    );
    std::process::exit(2)
}

fn write(sizes: &Sizes, out: &mut impl Write) -> io::Result<()> {
    out.write_all(
        br#"{"NomadVersion":"1.10.5","Now":"2025-12-06T00:00:00Z","Allocs":[],"Deployments":[],"Jobs":["#,
    )?;
    let per_group = sizes.placements / (sizes.jobs * sizes.groups);
    let mut extra = sizes.placements % (sizes.jobs * sizes.groups);
    for j in 0..sizes.jobs {
        if j > 0 {
            out.write_all(b",")?;
        }
        let counts: Vec<usize> = (0..sizes.groups)
            .map(|_| {
                let more = usize::from(extra > 0);
                extra = extra.saturating_sub(1);
                per_group + more
            })
            .collect();
        serde_json::to_writer(&mut *out, &job(j, &counts))?;
    }
    out.write_all(br#"],"Nodes":["#)?;
    for i in 0..sizes.nodes {
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, &node(i))?;
    }
    out.write_all(b"]}\n")
}

const CLASSES: [&str; 4] = ["compute", "storage", "general", "gpu"];

fn job(j: usize, counts: &[usize]) -> Value {
    let groups: Vec<Value> = counts
        .iter()
        .enumerate()
        .map(|(g, count)| {
            let cpu = [100, 250, 500][(j + g) % 3];
            let memory = [128, 256, 512, 1024][(j * 3 + g) % 4];
            let networks = match g {
                0 => json!([{"Mode": "host", "DynamicPorts": [
                    {"Label": "http", "To": 8080, "Value": 0, "HostNetwork": "default"}]}]),
                _ => Value::Null,
            };
            json!({
                "Name": format!("group-{g}"), "Count": count,
                "EphemeralDisk": {"SizeMB": 300},
                "Networks": networks,
                "ReschedulePolicy": {"Delay": 30_000_000_000u64, "DelayFunction": "exponential",
                    "MaxDelay": 3_600_000_000_000u64, "Unlimited": true},
                "Update": {"MaxParallel": 10, "HealthCheck": "checks",
                    "MinHealthyTime": 10_000_000_000u64, "HealthyDeadline": 300_000_000_000u64},
                "Tasks": [{
                    "Name": "app", "Driver": "docker",
                    "Config": {"image": format!("registry.example.com/svc-{j}:1.{g}.0")},
                    "Resources": {"CPU": cpu, "MemoryMB": memory},
                    "KillTimeout": 5_000_000_000u64
                }]
            })
        })
        .collect();
    json!({
        "ID": format!("svc-{j:03}"), "Name": format!("svc-{j:03}"), "Namespace": "default",
        "Type": "service", "Priority": 50, "Status": "pending", "Version": 0,
        "CreateIndex": 100 + j, "ModifyIndex": 100 + j, "JobModifyIndex": 100 + j,
        "SubmitTime": NOW, "Datacenters": ["dc1", "dc2", "dc3"], "NodePool": "default",
        "Constraints": [{"LTarget": "${attr.kernel.name}", "RTarget": "linux", "Operand": "="}],
        "Affinities": [{"LTarget": "${node.class}", "RTarget": CLASSES[j % 4],
            "Operand": "=", "Weight": 50}],
        "TaskGroups": groups
    })
}

fn node(i: usize) -> Value {
    let (cores, memory) = [(8, 16_384), (16, 32_768), (32, 65_536), (64, 131_072)][i % 4];
    let class = CLASSES[(i / 4) % 4];
    let (status, eligibility, drain) = match i % 20 {
        7 => ("down", "eligible", false),
        13 => ("ready", "ineligible", true),
        17 => ("ready", "ineligible", false),
        _ => ("ready", "eligible", false),
    };
    let ip = format!("10.{}.{}.{}", i / 65_536, (i / 256) % 256, i % 256);
    let attributes: serde_json::Map<String, Value> = [
        ("arch", "x86_64".to_string()),
        ("cpu.arch", "amd64".to_string()),
        (
            "cpu.modelname",
            "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz".to_string(),
        ),
        ("cpu.numcores", cores.to_string()),
        ("cpu.frequency", "2900".to_string()),
        ("cpu.totalcompute", (cores * 2900).to_string()),
        ("driver.docker", "1".to_string()),
        ("driver.docker.version", "24.0.7".to_string()),
        ("driver.exec", "1".to_string()),
        ("kernel.name", "linux".to_string()),
        ("kernel.version", "6.1.0-18-amd64".to_string()),
        ("memory.totalbytes", (memory as u64 * 1_048_576).to_string()),
        ("nomad.version", "1.10.5".to_string()),
        ("os.name", "debian".to_string()),
        ("os.version", "12".to_string()),
        (
            "platform.aws.instance-type",
            format!("m6i.{}xlarge", cores / 4),
        ),
        (
            "platform.aws.placement.availability-zone",
            format!("us-east-1{}", ["a", "b", "c"][i % 3]),
        ),
        ("unique.hostname", format!("client-{i:05}")),
        ("unique.network.ip-address", ip.clone()),
        (
            "unique.platform.aws.instance-id",
            format!("i-{:017x}", i * 7919),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), Value::String(v)))
    .collect();
    json!({
        "ID": format!("{:08x}-5e6f-4a7b-8c9d-{:012x}", i * 2_654_435_761 % 4_294_967_296, i),
        "Name": format!("client-{i:05}"), "Datacenter": format!("dc{}", i % 3 + 1),
        "NodeClass": class, "NodePool": "default",
        "ComputedClass": format!("v1:{}", (i % 4) * 4 + (i / 4) % 4),
        "Status": status, "SchedulingEligibility": eligibility,
        "DrainStrategy": if drain { json!({"Deadline": 3_600_000_000_000u64}) } else { Value::Null },
        "Attributes": attributes,
        "Drivers": {
            "docker": {"Detected": true, "Healthy": true, "Attributes": {"driver.docker": "true"}},
            "exec": {"Detected": true, "Healthy": true, "Attributes": {"driver.exec": "true"}}
        },
        "NodeResources": {
            "Cpu": {"CpuShares": cores * 2900, "TotalCpuCores": cores,
                "ReservableCpuCores": (0..cores).collect::<Vec<_>>()},
            "Memory": {"MemoryMB": memory}, "Disk": {"DiskMB": 200_000},
            "MinDynamicPort": 20000, "MaxDynamicPort": 32000,
            "Networks": [{"CIDR": format!("{ip}/32"), "Device": "eth0", "IP": ip,
                "MBits": 10_000, "Mode": "host"}],
            "NodeNetworks": [{"Addresses": [{"Address": ip, "Alias": "default",
                "Family": "ipv4", "Gateway": "", "ReservedPorts": ""}],
                "Device": "eth0", "Mode": "host", "Speed": 10_000}]
        },
        "ReservedResources": {"Cpu": {"CpuShares": 200}, "Memory": {"MemoryMB": 1024},
            "Disk": {"DiskMB": 10_000}, "Networks": {"ReservedHostPorts": "22"}},
        "CreateIndex": 11 + i, "ModifyIndex": 11 + i
    })
}
