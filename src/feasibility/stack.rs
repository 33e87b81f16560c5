//! `SystemStack`: the checks that filter nodes for a system or sysbatch
//! task group, with results shared per computed node class.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use foldhash::fast::FixedState;

use super::class_row::ClassRow;
use super::constraint::{Check, DISTINCT_PROPERTY, Parsed, describe, meets};
use super::devices::has_devices;
use super::distinct_property::{Placed, PropertySet};
use super::filter::{Eligibility, Filter, InvalidConstraint, Level};
use super::memo::{Key, Memo, group_key, job_key};
use super::node_checks::{has_drivers, missing_secrets_providers, network, secrets_providers};
use super::target::{TargetRules, escapes, resolve};
use super::volumes::{Volumes, has_host_volumes};
use crate::model::{Constraint, Job, Name, NetworkResource, Node, RequestedDevice, TaskGroup};

/// The plan as far as distinct properties read it.
#[derive(Clone, Debug, Default)]
pub struct PlanSoFar<'a> {
    pub stopping: Vec<Placed<'a>>,
    pub proposed: Vec<Placed<'a>>,
}

/// The system stack of one evaluation: its class cache lives as long as
/// the evaluation, across in-place checks and placements.
pub struct SystemStack<'a> {
    job: &'a Job,
    pub(super) job_escaped: bool,
    pub(super) job_classes: HashMap<Name, Result<(), Filter>, FixedState>,
    pub(super) group_escaped: HashMap<&'a str, bool, FixedState>,
    pub(super) group_classes: HashMap<(&'a str, Name), Result<(), Filter>, FixedState>,
    job_properties: Vec<PropertySet>,
    group_properties: HashMap<String, Vec<PropertySet>>,
    existing: Vec<Placed<'a>>,
    /// Nomad's network checker keeps the last group's network when a group
    /// has none; so does this.
    network: Option<&'a NetworkResource>,
    pub(super) invalid: BTreeSet<InvalidConstraint>,
    parsed: Parsed,
    volumes: Volumes<'a>,
    targets: TargetRules,
    /// The replay's shared outcomes, with this stack's keys into it: the
    /// job's checks, and each group's under the network it is checked with.
    memo: Option<&'a ClassMemo>,
    job_key: Option<Option<Key>>,
    group_keys: Vec<(&'a TaskGroup, Option<&'a NetworkResource>, Option<Key>)>,
    /// A group's class verdicts taken whole from another evaluation
    /// ([`ClassRow`]), read where the maps above have no entry.
    pub(super) adopted: Option<(&'a str, Arc<ClassRow>)>,
}

/// The outcome of one class check on one node: its verdict and the broken
/// constraints it met on the way.
#[derive(Debug)]
pub struct Outcome {
    result: Result<(), Filter>,
    invalid: Vec<InvalidConstraint>,
}

/// The replay's shared class check outcomes, by their inputs and node.
pub type ClassMemo = Memo<Outcome>;

/// The class key of a node without a computed class.
const NODE_CLASS_PREFIX: &str = "node:";

/// The class results are shared by. A node without a computed class is a
/// class of its own: plan-inspect cannot compute Nomad's hash.
fn class_of(node: &Node) -> Name {
    if node.computed_class.is_empty() {
        Name::from(format!("{NODE_CLASS_PREFIX}{}", node.id))
    } else {
        node.computed_class.clone()
    }
}

/// Whether a constraint of `cs` escapes the computed class.
fn escaping<'c>(cs: impl IntoIterator<Item = &'c Constraint>) -> bool {
    cs.into_iter()
        .any(|c| escapes(&c.l_target) || escapes(&c.r_target))
}

fn group_constraints(tg: &TaskGroup) -> Vec<&Constraint> {
    tg.constraints
        .iter()
        .chain(tg.tasks.iter().flat_map(|t| &t.constraints))
        .collect()
}

impl<'a> SystemStack<'a> {
    /// A stack for `job`, whose `existing` non-terminal allocations count
    /// towards its distinct properties.
    pub fn new(job: &'a Job, existing: Vec<Placed<'a>>) -> SystemStack<'a> {
        SystemStack {
            job,
            job_escaped: escaping(&job.constraints),
            job_classes: HashMap::default(),
            group_escaped: job
                .task_groups
                .iter()
                .map(|tg| (tg.name.as_str(), escaping(group_constraints(tg))))
                .collect(),
            group_classes: HashMap::default(),
            job_properties: PropertySet::all(
                &job.constraints,
                None,
                &existing,
                TargetRules::default(),
            ),
            group_properties: HashMap::new(),
            existing,
            network: None,
            invalid: BTreeSet::new(),
            parsed: Parsed::default(),
            volumes: Volumes::default(),
            targets: TargetRules::default(),
            memo: None,
            job_key: None,
            group_keys: Vec::new(),
            adopted: None,
        }
    }

    /// The stack with the replay's shared class check outcomes: checks
    /// whose inputs another evaluation already ran on a node are not run
    /// again. What this stack records is the same either way.
    pub fn with_memo(mut self, memo: &'a ClassMemo) -> SystemStack<'a> {
        self.memo = Some(memo);
        self
    }

    /// The stack with the release's rules for `${...}` targets (the
    /// default is the seed's). The job's distinct properties read them too.
    pub fn with_targets(mut self, targets: TargetRules) -> SystemStack<'a> {
        self.targets = targets;
        self.parsed = Parsed::new(targets);
        self.job_properties =
            PropertySet::all(&self.job.constraints, None, &self.existing, targets);
        self
    }

    /// How the stack resolves `${...}` targets, which the ranking of its
    /// nodes shares.
    pub fn targets(&self) -> TargetRules {
        self.targets
    }

    /// The stack with the volume checks of a release; from #28312 a group
    /// that asks for CSI volumes escapes its computed class.
    pub fn with_volumes(mut self, volumes: Volumes<'a>) -> SystemStack<'a> {
        self.volumes = volumes;
        self.escape_csi_groups();
        self
    }

    fn escape_csi_groups(&mut self) {
        if self.volumes.rules.csi_missing_listed {
            for tg in &self.job.task_groups {
                if tg.volumes.values().any(|v| v.volume_type == "csi") {
                    self.group_escaped.insert(tg.name.as_str(), true);
                }
            }
        }
    }

    /// `GenericStack.SetJob` to another version of the same job, as the
    /// placement of an older version does and undoes: its constraints and
    /// escapes are read from `job`, while the class verdicts, kept by
    /// group name, stay (`EvalEligibility.SetJob` keeps them), as do the
    /// group `distinct_property` sets; the job's `distinct_property` sets
    /// are added to, not replaced (`DistinctPropertyIterator.SetJob`).
    pub fn set_job(&mut self, job: &'a Job) {
        self.job = job;
        self.job_escaped = escaping(&job.constraints);
        for tg in &job.task_groups {
            self.group_escaped
                .insert(tg.name.as_str(), escaping(group_constraints(tg)));
        }
        self.escape_csi_groups();
        self.job_properties.extend(PropertySet::all(
            &job.constraints,
            None,
            &self.existing,
            self.targets,
        ));
        self.job_key = None;
    }

    /// `GetClasses`: per computed class seen so far, whether the job may
    /// run there; a group's verdict stands unless the job's rules the class
    /// out. Nodes without a computed class are left out.
    pub fn class_eligibility(&self) -> BTreeMap<String, bool> {
        let mut out = BTreeMap::new();
        let adopted = self.adopted.iter().map(|(_, row)| row);
        let groups = self.group_classes.iter().map(|((_, c), r)| (c, r));
        for (class, r) in groups.chain(adopted.clone().flat_map(|row| &row.group)) {
            let eligible = r.is_ok();
            let seen = out.entry(class.to_string()).or_insert(eligible);
            *seen |= eligible;
        }
        for (class, r) in self
            .job_classes
            .iter()
            .chain(adopted.flat_map(|row| &row.job))
        {
            match r {
                Ok(()) => {
                    out.entry(class.to_string()).or_insert(true);
                }
                Err(_) => {
                    out.insert(class.to_string(), false);
                }
            }
        }
        out.retain(|class, _| !class.starts_with(NODE_CLASS_PREFIX));
        out
    }

    /// `HasEscaped`: a job or group constraint reads what the computed
    /// class leaves out, so class results are not shared.
    pub fn escaped(&self) -> bool {
        self.job_escaped || self.group_escaped.values().any(|e| *e)
    }

    /// Whether the class checks of `tg` are shared per computed class:
    /// neither the job's constraints nor the group's escape it.
    pub fn caches(&self, tg: &TaskGroup) -> bool {
        !self.job_escaped
            && !self
                .group_escaped
                .get(tg.name.as_str())
                .copied()
                .unwrap_or(false)
    }

    /// Whether the job or `tg` has a `distinct_property` constraint, whose
    /// verdict on a node changes with the plan's placements on other nodes.
    pub fn has_distinct_properties(&self, tg: &TaskGroup) -> bool {
        !self.job_properties.is_empty()
            || tg
                .constraints
                .iter()
                .any(|c| c.operand == DISTINCT_PROPERTY)
    }

    /// What [`SystemStack::class_checks`] does first for every node: the
    /// network checker takes the group's network, if it has one. A caller
    /// that answers for a class from its own copy of the cache calls this
    /// instead, so that the checker's network stays as Nomad leaves it.
    pub fn enter(&mut self, tg: &'a TaskGroup) {
        if let Some(net) = tg.networks.first() {
            self.network = Some(net);
        }
    }

    /// The broken constraints seen so far.
    pub fn invalid_constraints(&self) -> &BTreeSet<InvalidConstraint> {
        &self.invalid
    }

    fn constraints(
        &mut self,
        cs: &[&Constraint],
        level: Level,
        node: &Node,
        invalid: &mut Vec<InvalidConstraint>,
    ) -> Result<(), Filter> {
        for c in cs {
            let check = meets(c, node, &mut self.parsed);
            if let Check::Invalid(why) = &check {
                invalid.push(InvalidConstraint {
                    constraint: describe(c),
                    why: why.clone(),
                });
            }
            if check != Check::Met {
                let left = c.l_target.starts_with("${").then(|| {
                    let value = resolve(&c.l_target, node, self.targets)
                        .text()
                        .map(str::to_string);
                    (c.l_target.to_string(), value)
                });
                return Err(Filter::Constraint {
                    text: describe(c),
                    level,
                    left,
                });
            }
        }
        Ok(())
    }

    fn group_checks(
        &mut self,
        tg: &'a TaskGroup,
        alloc_name: &str,
        node: &Node,
        invalid: &mut Vec<InvalidConstraint>,
    ) -> Result<(), Filter> {
        let drivers: BTreeSet<&str> = tg.tasks.iter().map(|t| t.driver.as_str()).collect();
        if !has_drivers(&drivers, node) {
            return Err(Filter::Drivers(
                drivers.iter().map(|d| d.to_string()).collect(),
            ));
        }
        self.constraints(&group_constraints(tg), Level::Group, node, invalid)?;
        let rules = self.volumes.rules;
        if !rules.host_per_node && !has_host_volumes(tg, alloc_name, node, rules) {
            return Err(Filter::HostVolumes);
        }
        let requested: Vec<&RequestedDevice> = tg
            .tasks
            .iter()
            .flat_map(|t| t.resources.iter().flat_map(|r| &r.devices))
            .collect();
        let devices = node.node_resources.as_ref().map(|r| r.devices.as_slice());
        if !has_devices(&requested, devices, self.targets.devices) {
            return Err(Filter::Devices);
        }
        if let Some(net) = self.network {
            network(net, node, self.targets).map_err(Filter::Network)?;
        }
        if self.targets.secrets_providers {
            let missing = missing_secrets_providers(&secrets_providers(tg), node);
            if !missing.is_empty() {
                return Err(Filter::SecretsProviders(
                    missing.iter().map(|p| p.to_string()).collect(),
                ));
            }
        }
        Ok(())
    }

    /// `Select` on a single node for the allocation `alloc_name`: `Ok`
    /// when `tg` may be placed there as far as the filtering checks go
    /// (resource fit is not checked).
    pub fn select(
        &mut self,
        tg: &'a TaskGroup,
        alloc_name: &str,
        node: &Node,
        plan: &PlanSoFar<'_>,
    ) -> Result<(), Filter> {
        self.class_checks(tg, alloc_name, node)?;
        self.available(tg, alloc_name, node)?;
        self.distinct_properties(tg, node, plan)
    }

    /// The wrapper's checks that hold only for now and so are never
    /// shared by a class (`tgAvailable`): CSI volumes, and host volumes
    /// from #18679.
    pub fn available(&self, tg: &TaskGroup, alloc_name: &str, node: &Node) -> Result<(), Filter> {
        let rules = self.volumes.rules;
        if rules.host_per_node && !has_host_volumes(tg, alloc_name, node, rules) {
            return Err(Filter::HostVolumes);
        }
        match self.volumes.csi {
            Some(csi) => csi
                .check(
                    &self.job.namespace,
                    &self.job.id,
                    tg,
                    alloc_name,
                    node,
                    rules,
                )
                .map_err(Filter::Csi),
            None => Ok(()),
        }
    }

    /// The checks of Nomad's `FeasibilityWrapper`, whose results are shared
    /// per computed node class unless a constraint escapes it.
    pub fn class_checks(
        &mut self,
        tg: &'a TaskGroup,
        alloc_name: &str,
        node: &Node,
    ) -> Result<Eligibility, Filter> {
        self.enter(tg);
        let class = class_of(node);
        // Job-level checks, cached per class unless a constraint escapes.
        let job_result = match self.job_class(&class) {
            Some(r) if !self.job_escaped => r.clone().map_err(|first| Filter::ClassIneligible {
                class: class.to_string(),
                first: Box::new(first),
            }),
            _ => {
                let r = self.job_checks(node);
                if !self.job_escaped {
                    self.job_classes.entry(class.clone()).or_insert(r.clone());
                }
                r
            }
        };
        job_result?;
        let escaped = self
            .group_escaped
            .get(tg.name.as_str())
            .copied()
            .unwrap_or(false);
        let key = (tg.name.as_str(), class);
        match self.group_class(&key) {
            Some(r) if !escaped => {
                r.clone()
                    .map(|()| Eligibility::Cached)
                    .map_err(|first| Filter::ClassIneligible {
                        class: key.1.to_string(),
                        first: Box::new(first),
                    })
            }
            _ => {
                let r = self.shared_group_checks(tg, alloc_name, node, escaped);
                if !escaped {
                    self.group_classes.entry(key).or_insert(r.clone());
                }
                r.map(|()| Eligibility::Checked)
            }
        }
    }

    /// The job's constraints on `node`, from the memo where another
    /// evaluation with the same constraints ran them there.
    fn job_checks(&mut self, node: &Node) -> Result<(), Filter> {
        let key = self.job_memo_key();
        self.memoized(key, node, |stack, invalid| {
            let cs: Vec<&Constraint> = stack.job.constraints.iter().collect();
            stack.constraints(&cs, Level::Job, node, invalid)
        })
    }

    /// The group's checks on `node`, from the memo where another
    /// evaluation with the same inputs ran them there. A group that
    /// escapes its class or asks for volumes (which read the allocation's
    /// name) is always checked.
    fn shared_group_checks(
        &mut self,
        tg: &'a TaskGroup,
        alloc_name: &str,
        node: &Node,
        escaped: bool,
    ) -> Result<(), Filter> {
        let key = self.group_memo_key(tg, escaped);
        self.memoized(key, node, |stack, invalid| {
            stack.group_checks(tg, alloc_name, node, invalid)
        })
    }

    /// The memo key of the job's checks, unless a constraint escapes the
    /// class or there is no memo.
    pub(super) fn job_memo_key(&mut self) -> Option<Key> {
        match (self.memo, self.job_escaped) {
            (Some(memo), false) => *self
                .job_key
                .get_or_insert_with(|| Some(memo.key(job_key(self.job, self.targets)))),
            _ => None,
        }
    }

    /// The memo key of `tg`'s checks under the network the checker holds,
    /// unless the group escapes its class, asks for volumes or there is no
    /// memo.
    pub(super) fn group_memo_key(&mut self, tg: &'a TaskGroup, escaped: bool) -> Option<Key> {
        let memo = self.memo.filter(|_| !escaped && tg.volumes.is_empty())?;
        let net = self.network;
        let known = self.group_keys.iter().find(|(g, n, _)| {
            std::ptr::eq(*g, tg)
                && match (n, net) {
                    (Some(a), Some(b)) => std::ptr::eq(*a, b),
                    (a, b) => a.is_none() && b.is_none(),
                }
        });
        match known {
            Some((_, _, k)) => *k,
            None => {
                let k = Some(memo.key(group_key(tg, net, self.targets)));
                self.group_keys.push((tg, net, k));
                k
            }
        }
    }

    /// The job's verdict cached for `class`, in this stack or its adopted row.
    fn job_class(&self, class: &Name) -> Option<&Result<(), Filter>> {
        let adopted = || {
            self.adopted
                .as_ref()
                .and_then(|(_, row)| row.job.get(class))
        };
        self.job_classes.get(class).or_else(adopted)
    }

    /// The group's verdict cached for a class, in this stack or its
    /// adopted row.
    fn group_class(&self, key: &(&'a str, Name)) -> Option<&Result<(), Filter>> {
        let adopted = || match &self.adopted {
            Some((tg, row)) if *tg == key.0 => row.group.get(&key.1),
            _ => None,
        };
        self.group_classes.get(key).or_else(adopted)
    }

    /// `check` on `node`, or its outcome kept under `key`; the broken
    /// constraints it meets are noted either way.
    fn memoized(
        &mut self,
        key: Option<Key>,
        node: &Node,
        check: impl FnOnce(&mut Self, &mut Vec<InvalidConstraint>) -> Result<(), Filter>,
    ) -> Result<(), Filter> {
        let memo = self.memo.zip(key);
        if let Some(kept) = memo.and_then(|(m, k)| m.get(k, node)) {
            self.invalid.extend(kept.invalid.iter().cloned());
            return kept.result.clone();
        }
        let mut invalid = Vec::new();
        let result = check(self, &mut invalid);
        self.invalid.extend(invalid.iter().cloned());
        if let Some((m, k)) = memo {
            m.put(
                k,
                node,
                Outcome {
                    result: result.clone(),
                    invalid,
                },
            );
        }
        result
    }

    /// The `distinct_property` checks, which read the plan.
    pub fn distinct_properties(
        &mut self,
        tg: &'a TaskGroup,
        node: &Node,
        plan: &PlanSoFar<'_>,
    ) -> Result<(), Filter> {
        if !self.group_properties.contains_key(&tg.name) {
            let sets = PropertySet::all(
                &tg.constraints,
                Some(&tg.name),
                &self.existing,
                self.targets,
            );
            self.group_properties.insert(tg.name.clone(), sets);
        }
        let group = &self.group_properties[&tg.name];
        for set in self.job_properties.iter().chain(group) {
            if let Some(why) = set.invalid() {
                self.invalid.insert(InvalidConstraint {
                    constraint: format!("distinct_property on {}", tg.name),
                    why: why.to_string(),
                });
            }
            set.satisfied(node, &plan.stopping, &plan.proposed)
                .map_err(Filter::DistinctProperty)?;
        }
        Ok(())
    }
}

impl<'a> SystemStack<'a> {
    /// Whether no class was checked yet and no broken constraint met: the
    /// only state a row is made in and adopted in.
    pub fn is_fresh(&self) -> bool {
        self.job_classes.is_empty()
            && self.group_classes.is_empty()
            && self.adopted.is_none()
            && self.invalid.is_empty()
    }

    /// The inputs of `tg`'s class checks as the memo numbers them (the
    /// job's, the group's under the network the checker then holds), once
    /// other stacks asked for both; `None` where the checks escape their
    /// class or read volumes. Takes the group's network first, as the
    /// class checks do.
    pub fn row_key(&mut self, tg: &'a TaskGroup) -> Option<(u32, u32)> {
        let escaped = self
            .group_escaped
            .get(tg.name.as_str())
            .copied()
            .unwrap_or(false);
        if self.job_escaped || escaped {
            return None;
        }
        self.enter(tg);
        let job = self.job_memo_key()?.shared_id()?;
        let group = self.group_memo_key(tg, escaped)?.shared_id()?;
        Some((job, group))
    }

    /// The class cache of a stack that was fresh before the class checks
    /// of `tg` alone ran, as a row.
    pub fn row(&self, tg: &TaskGroup) -> ClassRow {
        ClassRow {
            job: self.job_classes.clone(),
            group: self
                .group_classes
                .iter()
                .filter(|((g, _), _)| *g == tg.name)
                .map(|((_, class), r)| (class.clone(), r.clone()))
                .collect(),
            invalid: self.invalid.iter().cloned().collect(),
        }
    }

    /// Takes `row` as this fresh stack's class cache for `tg`, as if its
    /// checks had run here.
    pub fn adopt(&mut self, tg: &'a TaskGroup, row: Arc<ClassRow>) {
        debug_assert!(self.is_fresh(), "a row is adopted by a fresh stack");
        self.enter(tg);
        self.invalid.extend(row.invalid.iter().cloned());
        self.adopted = Some((tg.name.as_str(), row));
    }
}
