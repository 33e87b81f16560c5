//! A job's plan as tables: stops, placements, updates, failed placements,
//! preemptions, follow-up evaluations and deployment changes.

use super::failures;
use super::grid::{Col, Grid, Yield};
use super::renderer::Renderer;
use crate::model::{ClientStatus, deployment_status};
use crate::render::wrap::wrap;
use crate::report::JobReport;

impl Renderer {
    pub(super) fn plan(&self, out: &mut String, job: &JobReport) {
        let p = &job.plan;
        if !p.stop.is_empty() {
            let mut t = Grid::of_job(
                &[
                    Col::whole("Alloc"),
                    Col::whole("Name"),
                    Col::whole("Client Status"),
                    Col::prose("Description"),
                    Col::whole("Follow-up Eval"),
                ],
                &job.id,
            );
            t.give_way(2, "Client Status", Yield::Drop)
                .give_way(3, "Follow-up Eval", Yield::Drop);
            for s in &p.stop {
                t.row(vec![
                    self.alloc_id(&s.alloc_id),
                    s.name.clone(),
                    s.client_status
                        .as_ref()
                        .map_or("", ClientStatus::as_str)
                        .to_string(),
                    s.description.to_string(),
                    s.followup_eval_id
                        .as_deref()
                        .map(|i| self.id(i).to_string())
                        .unwrap_or_default(),
                ]);
            }
            self.section(out, "Stop", &t);
        }
        if !p.place.is_empty() {
            let on_nodes = p.place.iter().any(|pl| pl.node_id.is_some());
            let mut header = vec![Col::whole("Name"), Col::whole("Task Group")];
            if on_nodes {
                header.push(Col::whole("Node"));
            }
            header.extend([Col::whole("Previous Alloc"), Col::whole("Flags")]);
            let mut t = Grid::of_job(&header, &job.id);
            t.give_way(2, "Task Group", Yield::Drop);
            for pl in &p.place {
                let older = pl.job_version.map(|v| format!("job version {v}"));
                let flags: Vec<&str> = [
                    (pl.canary, "canary"),
                    (pl.reschedule, "reschedule"),
                    (pl.lost, "lost"),
                    (pl.downgrade_non_canary, "downgrade"),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, f)| *f)
                .chain(older.as_deref())
                .collect();
                let mut row = vec![pl.name.clone(), pl.task_group.to_string()];
                if on_nodes {
                    row.push(
                        pl.node_id
                            .as_deref()
                            .map_or("(failed)".to_string(), |n| self.id(n).to_string()),
                    );
                }
                row.extend([
                    pl.previous_alloc_id
                        .as_ref()
                        .map(|i| self.alloc_id(i))
                        .unwrap_or_default(),
                    flags.join(", "),
                ]);
                t.row(row);
            }
            self.section(out, "Place", &t);
        }
        let failed = failures::lines(&job.job_type, &p.failed_placements);
        if !failed.is_empty() {
            out.push('\n');
            let width = usize::from(self.style.width);
            for line in failed {
                let body = line.trim_start();
                let indent = &line[..line.len() - body.len()];
                let wrapped = wrap(body, width.saturating_sub(indent.len()).max(20));
                for part in wrapped.lines() {
                    out.push_str(&format!("{indent}{part}\n"));
                }
            }
        }
        if !p.preemptions.is_empty() {
            let mut t = Grid::of_job(
                &[
                    Col::whole("Alloc"),
                    Col::whole("Name"),
                    Col::whole("Job"),
                    Col::whole("Priority"),
                    Col::whole("Node"),
                    Col::whole("Preempted By"),
                ],
                &job.id,
            );
            for e in &p.preemptions {
                t.row(vec![
                    self.alloc_id(&e.alloc_id),
                    e.name.clone(),
                    format!("{}/{}", e.namespace, e.job_id),
                    e.job_priority.to_string(),
                    self.id(&e.node_id).to_string(),
                    e.preempted_by.clone(),
                ]);
            }
            self.section(out, "Preemptions", &t);
        }
        if !p.destructive_update.is_empty() {
            let mut t = Grid::of_job(
                &[
                    Col::whole("Alloc"),
                    Col::whole("Name"),
                    Col::prose("Reason"),
                ],
                &job.id,
            );
            for d in &p.destructive_update {
                t.row(vec![
                    self.alloc_id(&d.alloc_id),
                    d.name.clone(),
                    d.reason.clone(),
                ]);
            }
            self.section(out, "Destructive updates", &t);
        }
        if !p.in_place_update.is_empty() {
            let mut t = Grid::of_job(
                &[
                    Col::whole("Alloc"),
                    Col::whole("Name"),
                    Col::whole("Deployment"),
                ],
                &job.id,
            );
            for u in &p.in_place_update {
                t.row(vec![
                    self.alloc_id(&u.alloc_id),
                    u.name.clone(),
                    u.deployment_id
                        .as_deref()
                        .map(|i| self.id(i).to_string())
                        .unwrap_or_default(),
                ]);
            }
            self.section(out, "In-place updates", &t);
        }
        for (title, updates, what) in [
            (
                "Disconnect updates",
                &p.disconnect_updates,
                "client status -> unknown",
            ),
            (
                "Attribute updates",
                &p.attribute_updates,
                "follow-up eval set",
            ),
        ] {
            if updates.is_empty() {
                continue;
            }
            let mut t = Grid::new(&[
                Col::whole("Alloc"),
                Col::whole("Update"),
                Col::whole("Follow-up Eval"),
            ]);
            for u in updates {
                t.row(vec![
                    self.alloc_id(&u.alloc_id),
                    what.to_string(),
                    self.id(&u.followup_eval_id).to_string(),
                ]);
            }
            self.section(out, title, &t);
        }
        if !p.reconnect_updates.is_empty() {
            let mut t = Grid::new(&[Col::whole("Alloc"), Col::whole("Update")]);
            for u in &p.reconnect_updates {
                t.row(vec![
                    self.alloc_id(&u.alloc_id),
                    "resume on reconnected client".to_string(),
                ]);
            }
            self.section(out, "Reconnect updates", &t);
        }
        if !p.followup_evals.is_empty() {
            let mut t = Grid::new(&[
                Col::whole("Eval"),
                Col::whole("Triggered By"),
                Col::whole("Wait Until"),
                Col::whole("Task Group"),
                Col::prose("Allocs"),
            ]);
            t.give_way(1, "Task Group", Yield::Drop)
                .give_way(2, "Triggered By", Yield::Drop);
            for e in &p.followup_evals {
                let allocs: Vec<String> = e.alloc_ids.iter().map(|a| self.alloc_id(a)).collect();
                t.row(vec![
                    self.id(&e.id).to_string(),
                    e.triggered_by.clone(),
                    self.time(e.wait_until),
                    e.task_group.clone(),
                    allocs.join(" "),
                ]);
            }
            self.section(out, "Follow-up evaluations", &t);
        }
        if let Some(d) = &p.deployment {
            let mut t = Grid::new(&[
                Col::whole("Task Group"),
                Col::whole("Desired Total"),
                Col::whole("Desired Canaries"),
                Col::whole("Auto Promote"),
                Col::whole("Auto Revert"),
            ]);
            for (name, g) in &d.groups {
                t.row(vec![
                    name.clone(),
                    g.desired_total.to_string(),
                    g.desired_canaries.to_string(),
                    g.auto_promote.to_string(),
                    g.auto_revert.to_string(),
                ]);
            }
            // A created deployment starts running or pending; an
            // initializing one is the current deployment, sent in full.
            let kind = if d.status == deployment_status::INITIALIZING {
                "Deployment"
            } else {
                "New deployment"
            };
            let title = format!(
                "{kind} {} ({}: {})",
                self.id(&d.id),
                d.status,
                d.status_description
            );
            self.section(out, &title, &t);
        }
        if !p.deployment_updates.is_empty() {
            let mut t = Grid::new(&[
                Col::whole("Deployment"),
                Col::whole("Status"),
                Col::prose("Description"),
            ]);
            for u in &p.deployment_updates {
                t.row(vec![
                    self.id(&u.deployment_id).to_string(),
                    u.status.clone(),
                    u.status_description.clone(),
                ]);
            }
            self.section(out, "Deployment updates", &t);
        }
    }
}
