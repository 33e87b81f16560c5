//! One task group's computation (`computeGroup`): its sets built once, then
//! each step a function of them, the group's outcome returned whole.

use std::collections::HashSet;

use super::alloc_set::AllocSet;
use super::bucket::Bucket;
use super::context::GroupContext;
use super::followup::Followups;
use super::group_sets::GroupSets;
use super::ids::Ids;
use super::job_state::ClusterState;
use super::name_index::NameIndex;
use super::outcome::{GroupOutcome, GroupProgress};
use super::placement::PlacementSets;
use super::reschedule_facts::RescheduleFacts;
use super::results::DesiredChanges;
use super::set_aside::SetAside;
use super::stop::{self, StopInput};
use super::trace::{GroupTrace, PlacementBasis, UpdateSplit};
use super::unreplaced::{Keeper, LostOutcome, Unreplaced};
use super::update::{UpdateKind, skips_feasibility};
use crate::model::{Allocation, ClientStatus, DesiredStatus, DisconnectFields, Id, Job, TaskGroup};
use crate::version::Switch;

impl<'a> GroupContext<'_, 'a, '_> {
    /// `computeGroup`.
    pub fn compute_group(&self, all: AllocSet<'a>, ids: &mut Ids) -> GroupOutcome<'a> {
        let mut facts = self.cluster.facts_of(all.iter());
        let (all, dropped) = self.filter_server_terminal_allocs(all);
        let tg = self.job.job.lookup_task_group(self.name);
        let zero = tg.is_some_and(|tg| tg.count == 0 && self.rules.has(Switch::G0));
        let Some(tg) = tg.filter(|_| !zero) else {
            let why = match zero {
                true => Unreplaced::ScaledToZero,
                false => Unreplaced::GroupRemoved,
            };
            let mut outcome = stop_all(self.cluster, &all, tg.is_none(), why);
            outcome.trace.set_aside = dropped;
            outcome.trace.scaled_to_zero = zero;
            outcome.trace.facts = facts;
            return outcome;
        };
        let (mut dstate, existing_deployment) = self.initialize_deployment_state(tg);
        let mut sets = GroupSets::build(self, tg, all);
        sets.set_aside.extend(dropped);
        let lost = &sets.lost;
        let mut changes = DesiredChanges {
            // Nomad counts the cancelled canaries (reconcile.go:608), not
            // those stopped on draining or lost nodes (:621-622).
            stop: sets.set_aside_count(SetAside::CancelledCanary)
                + sets.reconnected.stopped.len() as u64,
            ignore: sets.set_aside_count(SetAside::OldTerminalBatch)
                + sets.buckets[Bucket::Ignore].len() as u64,
            ..DesiredChanges::default()
        };
        let mut stop = sets.set_aside_stops();
        stop.extend(sets.reconnect_stops());
        let followups = Followups::new(ids, self.name, self.cluster.now, &sets, self.rules);

        let mut name_index = NameIndex::new(
            self.job.job_id,
            self.name,
            tg.count,
            // One allocation in two sets holds its name once (v1.6.3
            // scheduler/reconcile.go:507 passes the union).
            &sets
                .untainted
                .union(&[&sets.migrate, &sets.reschedule_now, lost]),
            self.rules.has(Switch::D1b),
        );
        let is_canarying = dstate.desired_canaries != 0 && !dstate.promoted;
        let stops = self.compute_stop(
            tg,
            &mut name_index,
            StopInput {
                untainted: &sets.untainted,
                migrate: &sets.migrate,
                lost,
                canaries: &sets.canaries,
                reconnecting: &sets.reconnecting,
                is_canarying,
                followup_evals: &followups.stop_evals,
            },
        );
        changes.stop += stops.stopped.len() as u64;
        stop.extend(stops.results);
        let (migrate, reconnecting) = (stops.migrate, stops.reconnecting);
        let mut untainted = sets.untainted.difference(&[&stops.stopped]);

        // From C-2 the reconnects resumed are those settled first.
        let resumed = reconnecting.union(&[&sets.reconnected.reconnect]);
        let reconnect_updates = self.compute_reconnecting(&resumed);
        let (updates, destructive) = self.compute_updates(tg, &untainted);
        changes.ignore += updates.ignore.len() as u64;
        changes.in_place_update += updates.inplace.len() as u64;
        if !existing_deployment {
            dstate.desired_total += (destructive.len() + updates.inplace.len()) as i64;
        }
        if is_canarying {
            untainted = untainted.difference(&[&sets.canaries]);
        }

        let mut placement = PlacementBasis::default();
        let mut place = Vec::new();
        let requires_canaries = tg.update.as_ref().is_some_and(|u| {
            !destructive.is_empty() && (sets.canaries.len() as i64) < u.canary && !dstate.promoted
        });
        if requires_canaries {
            let canaries = self.compute_canaries(tg, &destructive, &sets.canaries, &mut name_index);
            dstate.desired_canaries = canaries.wanted;
            changes.canary += canaries.count;
            place.extend(canaries.place);
            placement.canaries_desired = dstate.desired_canaries;
            placement.canaries_existing = sets.canaries.len();
        }
        let is_canarying = dstate.desired_canaries != 0 && !dstate.promoted;
        let under_provisioned_by =
            self.compute_under_provisioned_by(tg, &untainted, &destructive, &migrate, is_canarying);

        let psets = PlacementSets {
            untainted: &untainted,
            migrate: &migrate,
            reschedule: &sets.reschedule_now,
            lost,
            reconnecting: &reconnecting,
        };
        let mut computed = Vec::new();
        if sets.lost_later.is_empty() {
            computed = self.compute_placements(tg, &mut name_index, &psets, is_canarying);
            if !existing_deployment {
                dstate.desired_total += computed.len() as i64;
            }
        }
        let replacing: HashSet<&'a Id> = computed
            .iter()
            .filter_map(|p| p.previous.map(|a| &a.id))
            .collect();
        let placements = computed.len();
        let place_ready =
            !self.job.deployment.paused && !self.job.deployment.failed && !is_canarying;
        let replacements = self.compute_replacements(
            place_ready,
            computed,
            &psets,
            &followups.disconnect_updates,
            under_provisioned_by,
        );
        changes.place += replacements.place.len() as u64;
        changes.stop += replacements.stop.len() as u64;
        place.extend(replacements.place);
        stop.extend(replacements.stop);

        let mut destructive_update = Vec::new();
        if place_ready {
            let allowed = replacements.under_provisioned_by;
            placement.destructive_allowed = allowed;
            destructive_update =
                self.compute_destructive_updates(tg, &updates.destructive, allowed);
            changes.destructive_update += destructive_update.len() as u64;
            changes.ignore += (updates.destructive.len() - destructive_update.len()) as u64;
        } else {
            changes.ignore += destructive.len() as u64;
        }

        let migrations = self.compute_migrations(tg, &migrate, is_canarying);
        changes.migrate += migrate.len() as u64;
        stop.extend(migrations.stop);
        place.extend(migrations.place);
        let cap = tg.count.max(0) as usize;
        if self.rules.has(Switch::G0) && place.len() > cap {
            place.truncate(cap);
            changes.place = cap as u64;
        }
        let mut renamed = Vec::new();
        if self.rules.has(Switch::D1b) {
            // The scheduler's pass over the placements, destructive first.
            for d in &mut destructive_update {
                if let Some(name) = name_index.rename_duplicate(&d.name) {
                    renamed.push((std::mem::replace(&mut d.name, name.clone()), name));
                }
            }
            for p in &mut place {
                if let Some(name) = name_index.rename_duplicate(&p.name) {
                    renamed.push((p.name.to_string(), name.clone()));
                    p.name = name.into();
                }
            }
        }

        let updating_spec = !destructive.is_empty() || !updates.inplace.is_empty();
        let deployment =
            self.deployment_change(tg, existing_deployment, dstate, &sets.all, updating_spec);
        let placed = if self.rules.has(Switch::G0) {
            place.len()
        } else {
            placements
        };
        let left = destructive.len()
            + updates.inplace.len()
            + placed
            + migrate.len()
            + sets.reschedule_now.len()
            + sets.reschedule_later.len();
        let progress = if left == 0 && !requires_canaries {
            GroupProgress::Settled
        } else {
            GroupProgress::Pending
        };

        let fields = self.rules.disconnect_fields();
        let expiring = &sets.buckets[Bucket::Expiring];
        let keeper = match fields {
            DisconnectFields::BlockOnly | DisconnectFields::BlockStrict => Keeper::ReplaceFalse,
            DisconnectFields::Legacy | DisconnectFields::LegacyFirst => {
                Keeper::PreventRescheduleOnLost
            }
        };
        let unreplaced = LostOutcome {
            lost,
            kept: (!expiring.is_empty() && self.rules.keeps_expiring(tg))
                .then_some((expiring, keeper)),
            place: &place,
            computed: &replacing,
            waiting: (!sets.lost_later.is_empty()).then_some(fields),
            place_ready,
            count: tg.count,
        }
        .unreplaced();
        let inplace_update = updates.inplace.iter().collect();
        if self.cluster.record {
            let rctx = self.reschedule_context();
            for (bucket, disconnecting) in
                [(Bucket::Untainted, false), (Bucket::Disconnecting, true)]
            {
                for alloc in sets.buckets[bucket].iter() {
                    if let Some(f) = facts.get_mut(&alloc.id) {
                        f.reschedule = Some(RescheduleFacts::of(alloc, rctx, disconnecting));
                    }
                }
            }
        }
        let trace = GroupTrace {
            removed: false,
            scaled_to_zero: false,
            placement: PlacementBasis {
                count: tg.count,
                untainted: untainted.len(),
                migrate: migrate.len(),
                reschedule: sets.reschedule_now.len(),
                reconnecting: reconnecting.len(),
                lost: lost.len(),
                lost_later: sets.lost_later.len(),
                place_ready,
                ..placement
            },
            reconnect_decisions: [sets.reconnected.decisions, stops.reconnect_decisions].concat(),
            updates,
            set_aside: sets.set_aside,
            buckets: sets.buckets,
            bucket_rules: sets.bucket_rules,
            reschedule_now_counted: !self.rules.has(Switch::G0) || !sets.disconnecting.is_empty(),
            reschedule_now: sets.reschedule_now,
            reschedule_later: sets.reschedule_later,
            without_policy: sets.without_policy,
            reschedule_forced: sets.forced,
            renamed,
            facts,
            unreplaced,
        };
        GroupOutcome {
            changes,
            stop,
            place,
            destructive_update,
            inplace_update,
            attribute_updates: followups.attribute_updates,
            disconnect_updates: followups.disconnect_updates,
            reconnect_updates,
            followup_evals: followups.evals,
            deployment,
            progress,
            trace,
        }
    }

    /// `computeUpdates`: splits the untainted allocations into ignore,
    /// in-place and destructive (with why each destructive one is, in ID
    /// order); the destructive ones also as a set.
    fn compute_updates(
        &self,
        tg: &'a TaskGroup,
        untainted: &AllocSet<'a>,
    ) -> (UpdateSplit<'a>, AllocSet<'a>) {
        let mut why = Vec::new();
        let [ignore, inplace, destructive] =
            untainted.split(
                |alloc| match (self.job.update_fn)(alloc, self.job.job, tg) {
                    UpdateKind::Ignore => Some(0),
                    UpdateKind::InPlace => Some(1),
                    UpdateKind::Destructive(reason) => {
                        why.push((alloc, reason));
                        Some(2)
                    }
                },
            );
        let unchecked = inplace.filter(|a| skips_feasibility(a, self.rules));
        let split = UpdateSplit {
            ignore,
            inplace,
            destructive: why,
            unchecked,
        };
        (split, destructive)
    }

    /// `computeReconnecting`: reconnecting allocations that resume, unless
    /// something asks them to move or they run an older job; from 1.3.0
    /// only running ones.
    fn compute_reconnecting(
        &self,
        reconnecting: &AllocSet<'a>,
    ) -> std::collections::BTreeMap<&'a Id, &'a Allocation> {
        let job: &Job = self.job.job;
        reconnecting
            .iter()
            .filter(|alloc| {
                let t = &alloc.desired_transition;
                !(t.should_migrate()
                    || t.should_reschedule()
                    || t.should_force_reschedule()
                    || alloc.job_version() < job.version
                    || alloc.job_create_index() < job.create_index
                    || alloc.desired_status != DesiredStatus::Run
                    || (self.rules.has(Switch::A1) && alloc.client_status != ClientStatus::Running))
            })
            .map(|alloc| (&alloc.id, alloc))
            .collect()
    }
}

/// `handleStop` for one group of a stopped or purged job: every
/// non-terminal allocation is stopped.
pub(super) fn stop_stopped_job<'a>(
    cluster: &ClusterState<'a>,
    job: Option<&Job>,
    group: &str,
    set: &AllocSet<'a>,
) -> GroupOutcome<'a> {
    let removed = job.is_none_or(|j| j.lookup_task_group(group).is_none());
    let why = match job {
        None => Unreplaced::JobPurged,
        Some(_) => Unreplaced::JobStopped,
    };
    let mut outcome = stop_all(cluster, &set.non_terminal(), removed, why);
    outcome.trace.facts = cluster.facts_of(set.iter());
    outcome.trace.set_aside = set
        .iter()
        .filter(|a| a.terminal_status())
        .map(|a| (a, SetAside::TerminalOfStoppedJob))
        .collect();
    outcome
}

/// `filterAndStopAll`: stops all but the ignored (unknown) allocations, yet
/// counts them all as stopped, as Nomad does.
fn stop_all<'a>(
    cluster: &ClusterState<'a>,
    set: &AllocSet<'a>,
    removed: bool,
    why: Unreplaced,
) -> GroupOutcome<'a> {
    let (buckets, bucket_rules) = cluster.group_buckets(set);
    let lost = [&buckets[Bucket::Lost], &buckets[Bucket::Expiring]];
    let unreplaced = Unreplaced::all(&lost, why);
    GroupOutcome {
        changes: DesiredChanges {
            stop: set.len() as u64,
            ..DesiredChanges::default()
        },
        stop: stop::stop_all(&buckets, cluster.rules),
        progress: GroupProgress::Removed,
        trace: GroupTrace {
            removed,
            buckets,
            bucket_rules,
            unreplaced,
            ..GroupTrace::default()
        },
        ..GroupOutcome::default()
    }
}
