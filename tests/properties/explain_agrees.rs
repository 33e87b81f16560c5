//! `--explain` never contradicts the report: for every allocation of a
//! service or batch job, the explanation's bucket, Fate line, Rescheduling,
//! Disconnect and Job update steps agree with the JSON report's bucket,
//! reschedule sets and plan for that allocation.

use plan_inspect::explain::{Explanation, Step, explain};
use plan_inspect::model::Snapshot;
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};
use serde_json::Value;

/// Checks every allocation of `snapshot` replayed with `options`; the
/// message names the allocation and the disagreement.
pub fn check(snapshot: &Snapshot, options: &Options) -> Result<(), String> {
    let report = Replay::new(snapshot, options)
        .map(Replay::report)
        .map_err(|e| e.to_string())?;
    let report: Value = serde_json::from_str(&render::json::render(&report)).unwrap();
    for job in report["jobs"].as_array().unwrap() {
        if matches!(job["type"].as_str(), Some("system" | "sysbatch")) {
            continue;
        }
        for group in job["groups"].as_array().unwrap() {
            for (bucket, entries) in group["buckets"].as_object().unwrap() {
                for entry in entries.as_array().unwrap() {
                    let id = entry["id"].as_str().unwrap();
                    let e = explain(snapshot, options, id).map_err(|e| e.to_string())?;
                    agrees(&e, id, Some(bucket), group, &job["plan"])
                        .map_err(|why| format!("{id}: {why}\n{}", table(&e)))?;
                }
            }
            for entry in group["set_aside"].as_array().unwrap() {
                let id = entry["id"].as_str().unwrap();
                let e = explain(snapshot, options, id).map_err(|e| e.to_string())?;
                agrees(&e, id, None, group, &job["plan"])
                    .map_err(|why| format!("{id}: {why}\n{}", table(&e)))?;
            }
        }
    }
    Ok(())
}

fn table(e: &Explanation) -> String {
    render::explain::table(e, false, 100, true)
}

fn step<'e>(e: &'e Explanation, title: &str) -> Option<&'e Step> {
    e.steps.iter().find(|s| s.title == title)
}

fn fact<'s>(s: &'s Step, name: &str) -> Option<&'s str> {
    s.facts
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.value.as_str())
}

fn has(list: &Value, id: &str, key: &str) -> bool {
    list.as_array()
        .unwrap()
        .iter()
        .any(|x| x[key].as_str() == Some(id))
}

fn check_that(ok: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(why()) }
}

fn agrees(
    e: &Explanation,
    id: &str,
    bucket: Option<&str>,
    group: &Value,
    plan: &Value,
) -> Result<(), String> {
    let named = e.bucket.map(|b| b.as_str());
    check_that(named == bucket, || {
        format!("bucket {named:?}, report {bucket:?}")
    })?;
    if let Some(b) = step(e, "Bucket") {
        check_that(Some(b.conclusion.as_str()) == bucket, || {
            format!("Bucket step {:?}, report {bucket:?}", b.conclusion)
        })?;
    }

    let text = table(e);
    let fates = text.lines().filter(|l| l.starts_with("Fate:")).count();
    check_that(fates == 1, || format!("{fates} Fate lines"))?;
    // The Fate line with its wrapped continuation.
    let fate: String = text
        .lines()
        .skip_while(|l| !l.starts_with("Fate:"))
        .enumerate()
        .take_while(|(i, l)| *i == 0 || l.starts_with("  "))
        .map(|(_, l)| l.trim())
        .collect::<Vec<_>>()
        .join(" ");
    let stopped = has(&plan["stop"], id, "alloc_id");
    let replaced = has(&plan["place"], id, "previous_alloc_id");
    let destructive = has(&plan["destructive_update"], id, "alloc_id");
    let in_place = has(&plan["in_place_update"], id, "alloc_id");
    check_that(stopped == fate.contains("stop"), || {
        format!("plan stop {stopped}, Fate {fate:?}")
    })?;
    check_that(replaced == fate.contains("replacement placed"), || {
        format!("plan replacement {replaced}, Fate {fate:?}")
    })?;

    if let Some(r) = step(e, "Rescheduling") {
        let c = r.conclusion.as_str();
        let now = group["reschedule_now"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x.as_str() == Some(id));
        let later = has(&group["reschedule_later"], id, "id");
        let placed = plan["place"].as_array().unwrap().iter().any(|p| {
            p["previous_alloc_id"].as_str() == Some(id) && p["reschedule"] == Value::Bool(true)
        });
        check_that(!placed || now, || {
            format!("Rescheduling {c:?}, plan places a reschedule of it")
        })?;
        check_that(c.starts_with("reschedule now") == now, || {
            format!("Rescheduling {c:?}, report reschedule_now {now}")
        })?;
        check_that(c.starts_with("reschedule later") == later, || {
            format!("Rescheduling {c:?}, report reschedule_later {later}")
        })?;
        if fact(r, "eligible") == Some("no") {
            check_that(
                !c.contains(": eligible") && !c.starts_with("eligible"),
                || format!("Rescheduling {c:?} beside eligible: no"),
            )?;
            check_that(!later, || {
                "reschedule later beside eligible: no".to_string()
            })?;
        }
    }

    if let Some(d) = step(e, "Disconnect") {
        let c = d.conclusion.as_str();
        let says_expired = c.contains("expired") && !c.contains("not expired");
        // Nomad's Expired holds only for a client status of unknown.
        let unknown = step(e, "Status").and_then(|s| fact(s, "client status")) == Some("unknown");
        check_that(!says_expired || unknown, || {
            format!("Disconnect {c:?} for an allocation that is not unknown")
        })?;
    }

    if let Some(u) = step(e, "Job update") {
        let c = u.conclusion.as_str();
        if c.starts_with("ignore") || c.starts_with("in-place") {
            check_that(!destructive, || {
                format!("Job update {c:?}, plan destructive")
            })?;
            check_that(stopped == c.contains("the plan stops it"), || {
                format!("Job update {c:?}, plan stop {stopped}")
            })?;
            check_that(replaced == c.contains("replaces it"), || {
                format!("Job update {c:?}, plan replacement {replaced}")
            })?;
        }
        check_that(c.starts_with("in-place") == in_place, || {
            format!("Job update {c:?}, plan in-place {in_place}")
        })?;
        check_that((c == "destructive: replaced now") == destructive, || {
            format!("Job update {c:?}, plan destructive {destructive}")
        })?;
    }
    Ok(())
}
