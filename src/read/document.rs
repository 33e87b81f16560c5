//! The streaming walk over the top-level object and its arrays.
//!
//! Each array element is deserialized and handed to [`State`] at once, so the
//! reader holds the decoded model and never the document. Allocations embed the
//! job version they were placed with; thousands of allocations embed the same
//! text, so it is captured raw and parsed once per distinct text ([`State::intern`]).

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use foldhash::fast::FixedState;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::alloc_record::AllocRecord;
use super::held::Held;
use super::id_index::IdIndex;
use super::job_entry::{JobEntry, VersionEntry};
use super::job_texts::{JobError, JobTexts};
use super::observer::{Observer, UNOBSERVED};
use super::split::HeldSets;
use super::top_keys::{Presence, TopKeys};
use super::warnings::Warnings;
use super::{ReadError, ReadFilter};
use crate::model::{
    self, Allocation, CsiPlugin, CsiVolume, Deployment, Evaluation, GoJson, GoNull, Interner, Job,
    Node, NodePool, SchedulerConfig,
};
use crate::time::Time;
use crate::version::VersionRequest;

/// What the walk has gathered so far; [`State::finish`] turns it into a snapshot.
pub(super) struct State<'n> {
    pub(super) name: &'n str,
    /// Allocations this filter drops are never kept.
    pub(super) filter: ReadFilter,
    pub(super) jobs: Vec<Arc<Job>>,
    job_index: HashMap<(model::Name, model::Name), usize, FixedState>,
    pub(super) job_versions: Vec<Arc<Job>>,
    pub(super) nodes: Vec<Node>,
    node_index: IdIndex,
    pub(super) allocs: Vec<Allocation>,
    alloc_index: IdIndex,
    pub(super) deployments: Vec<Deployment>,
    pub(super) evals: Vec<Evaluation>,
    pub(super) meta_time: Option<Time>,
    pub(super) now: Option<Time>,
    pub(super) eval_id: Option<String>,
    pub(super) supports_disconnected_clients: Option<bool>,
    pub(super) nomad_version: Option<VersionRequest>,
    pub(super) scheduler_config: Option<SchedulerConfig>,
    pub(super) node_pools: Vec<NodePool>,
    /// `CSIVolumes` and `CSIPlugins`, once listed.
    pub(super) csi_volumes: Option<Vec<CsiVolume>>,
    pub(super) csi_plugins: Option<Vec<CsiPlugin>>,
    /// Embedded job texts and their parsed jobs; dropped with the state.
    pub(super) job_texts: JobTexts,
    pub(super) warnings: Warnings,
    /// An error found outside serde_json's view (an embedded job), reported
    /// instead of the placeholder that aborted the walk.
    pub(super) pending: Option<ReadError>,
    /// Whether the top-level value turned out to be an object.
    pub(super) started: bool,
    /// The top-level keys seen.
    pub(super) keys: TopKeys,
    /// Shares the texts of the names read, on every thread of the read.
    pub(super) interner: Arc<Interner>,
    /// One copy of each plain `AllocatedResources`.
    held: Held,
    /// The same, one set per thread that parses parts of the allocations.
    pub(super) held_sets: HeldSets,
    /// Told of each allocation parsed.
    pub(super) observer: &'n dyn Observer,
    /// The text of the job `filter.keep_job_text` names.
    pub(super) planned_job_text: Option<String>,
    /// The names in `Namespaces`, when the key holds a list.
    pub(super) namespaces: Option<Vec<String>>,
}

impl<'n> State<'n> {
    /// Frees what only the walk needed (the job texts' keys, the ID
    /// indexes, the shared resources and parts, the interned texts), so that
    /// it is gone before the snapshot is settled: the read's memory peaks at
    /// its end, and these with the settling's own maps made that peak.
    pub(super) fn drop_walk_tables(&mut self) {
        self.job_texts = JobTexts::default();
        self.node_index = IdIndex::default();
        self.alloc_index = IdIndex::default();
        self.held = Held::default();
        self.held_sets = HeldSets::default();
        self.interner = Arc::default();
    }

    /// Frees the job texts' table when the section `key` starts and no
    /// section that reads job texts (allocations, `Jobs`, `JobVersions`)
    /// is still to come, each having been read: in Go's key order that is
    /// from `Namespaces` on, so the table is gone before `Nodes`, where the
    /// read's memory peaks. A document that repeats one of those keys after
    /// that (Go's encoder never does) gets the repeated section's jobs
    /// parsed anew rather than shared: the same jobs, in more memory.
    pub(super) fn before_section(&mut self, key: &str) {
        let job_sections = ["Jobs", "JobVersions", "Allocs", "Allocations"];
        if !job_sections.contains(&key)
            && self.keys.allocs_presence() != Presence::Absent
            && self.keys.presence("Jobs") != Presence::Absent
            && self.keys.presence("JobVersions") != Presence::Absent
        {
            self.job_texts = JobTexts::default();
        }
    }

    pub(super) fn new(name: &'n str, filter: ReadFilter) -> State<'n> {
        State {
            name,
            filter,
            jobs: Vec::new(),
            job_index: HashMap::default(),
            job_versions: Vec::new(),
            nodes: Vec::new(),
            node_index: IdIndex::default(),
            allocs: Vec::new(),
            alloc_index: IdIndex::default(),
            deployments: Vec::new(),
            evals: Vec::new(),
            meta_time: None,
            now: None,
            eval_id: None,
            supports_disconnected_clients: None,
            nomad_version: None,
            scheduler_config: None,
            node_pools: Vec::new(),
            csi_volumes: None,
            csi_plugins: None,
            job_texts: JobTexts::default(),
            warnings: Warnings::default(),
            pending: None,
            started: false,
            keys: TopKeys::default(),
            interner: Arc::default(),
            held: Held::default(),
            held_sets: HeldSets::default(),
            observer: UNOBSERVED,
            planned_job_text: None,
            namespaces: None,
        }
    }

    pub(super) fn add_job_version(&mut self, job: Job) {
        self.job_versions.push(Arc::new(job));
    }

    /// Keeps a job of record read as text, as the fast walk reads them
    /// ([`JobEntry::prepare`]).
    pub(super) fn add_job_text(&mut self, text: &[u8]) -> Result<(), serde_json::Error> {
        let entry = JobEntry::prepare(&self.job_texts, &self.filter, text)?;
        self.settle_job(entry)
    }

    /// Keeps a job of record prepared apart.
    pub(super) fn settle_job(&mut self, entry: JobEntry) -> Result<(), serde_json::Error> {
        if entry.text.is_some() {
            self.planned_job_text = entry.text;
        }
        self.add_job(entry.job).map_err(de::Error::custom)
    }

    /// Keeps a job version read as text, as the fast walk reads them
    /// ([`VersionEntry::prepare`]). A cluster keeps up to six versions of
    /// every job, and a cluster of many small jobs has more versions than
    /// allocations.
    pub(super) fn add_job_version_text(&mut self, text: &[u8]) -> Result<(), serde_json::Error> {
        let entry = VersionEntry::prepare(text, |text| self.job_texts.find(text))?;
        let job = entry.settle(&mut self.job_texts);
        self.job_versions.push(job);
        Ok(())
    }

    /// Keeps a namespace's name (`None`: the key held a list, maybe empty).
    pub(super) fn add_namespace(&mut self, name: Option<String>) {
        let names = self.namespaces.get_or_insert_with(Vec::new);
        names.extend(name);
    }

    pub(super) fn add_deployment(&mut self, deployment: Deployment) {
        self.deployments.push(deployment);
    }

    pub(super) fn add_eval(&mut self, eval: Evaluation) {
        self.evals.push(eval);
    }

    /// Keeps the job (the last of a duplicate ID). A job without an ID is no
    /// job of Nomad's state: most often `nomad job inspect` output pasted whole.
    pub(super) fn add_job(&mut self, job: Arc<Job>) -> Result<(), String> {
        if job.id.is_empty() {
            return Err(EMPTY_JOB_ID.to_string());
        }
        let key = (job.namespace.clone(), job.id.clone());
        match self.job_index.get(&key) {
            Some(&i) => {
                self.warnings.push(
                    "duplicate_job",
                    format!(
                        "job {:?} in namespace {:?} appears more than once in Jobs; the last one is kept",
                        key.1, key.0
                    ),
                );
                self.jobs[i] = job;
            }
            None => {
                self.job_index.insert(key, self.jobs.len());
                self.jobs.push(job);
            }
        }
        Ok(())
    }

    pub(super) fn add_node(&mut self, node: Node) {
        match self
            .node_index
            .find_or_add(&self.nodes, |n| &n.id, &node.id)
        {
            Some(i) => {
                self.warnings.push(
                    "duplicate_node_id",
                    format!(
                        "node {} appears more than once in Nodes; the last one is kept",
                        node.id
                    ),
                );
                self.nodes[i] = node;
            }
            None => {
                reserve_one(&mut self.nodes);
                self.nodes.push(node);
            }
        }
    }

    /// Interns the embedded job, then keeps the allocation (the last of a duplicate ID).
    pub(super) fn add_alloc(
        &mut self,
        key: &str,
        index: usize,
        record: AllocRecord,
    ) -> Result<(), String> {
        self.keep_alloc(key, index, record, true)
    }

    /// [`Self::add_alloc`] for an allocation whose resources the thread
    /// that parsed it shared already ([`HeldSets`]).
    pub(super) fn add_shared_alloc(
        &mut self,
        key: &str,
        index: usize,
        record: AllocRecord,
    ) -> Result<(), String> {
        self.keep_alloc(key, index, record, false)
    }

    fn keep_alloc(
        &mut self,
        key: &str,
        index: usize,
        record: AllocRecord,
        share: bool,
    ) -> Result<(), String> {
        self.observer.allocation();
        let AllocRecord { mut alloc, job } = record;
        if !self.filter.keeps(&alloc.namespace, &alloc.job_id) {
            return Ok(());
        }
        if share {
            self.held.share(&mut alloc);
        }
        if let Some(raw) = job {
            match self.intern(raw.get().as_bytes()) {
                Ok(job) => alloc.job = Some(job),
                Err(e) => {
                    let path = format!("{key}[{index}]");
                    self.pending = Some(ReadError::embedded_job(self.name, path, e));
                    return Err("invalid embedded job".to_string());
                }
            }
        }
        match self
            .alloc_index
            .find_or_add(&self.allocs, |a| &a.id, &alloc.id)
        {
            Some(i) => {
                self.warnings.push(
                    "duplicate_alloc_id",
                    format!(
                        "allocation {} appears more than once in {key}; the last one is kept",
                        alloc.id
                    ),
                );
                self.allocs[i] = alloc;
            }
            None => {
                reserve_one(&mut self.allocs);
                self.allocs.push(alloc);
            }
        }
        Ok(())
    }

    /// The job for an embedded job text, parsed only the first time the text is seen.
    fn intern(&mut self, text: &[u8]) -> Result<Arc<Job>, JobError> {
        Ok(self.job_texts.insert(text)?.1)
    }

    pub(super) fn set_meta(&mut self, meta: Option<MetaField>) {
        let meta = match meta {
            Some(MetaField::One(GoJson(m))) => m,
            // `snapshot state` writes a one-element array; the last entry wins.
            Some(MetaField::Many(list)) => match list.into_iter().last() {
                Some(GoJson(m)) => m,
                None => return,
            },
            None => return,
        };
        self.meta_time = parse_snapshot_id(&meta.id);
        if self.meta_time.is_none() {
            self.warnings.push(
                "snapshot_meta",
                format!(
                    "SnapshotMeta ID {:?} is not a raft snapshot ID term-index-unixmillis; it does not date the snapshot",
                    meta.id
                ),
            );
        }
    }
}

/// Makes room for one more element by growing a full `list` by a quarter,
/// not doubling it as `push` does: allocations and nodes are the
/// largest lists a read keeps, and just after doubling up to half of one
/// would be unused at the read's peak. Blocks that large grow by
/// remapping pages, so growing more often copies nothing.
fn reserve_one<T>(list: &mut Vec<T>) {
    if list.len() == list.capacity() {
        list.reserve_exact((list.len() / 4).max(16));
    }
}

/// Why a `Jobs` entry without an ID is refused.
pub(super) const EMPTY_JOB_ID: &str = "a job without an ID: is this `nomad job inspect` output \
    ({\"Job\": {...}})? Put its \"Job\" object in Jobs (jq '.Job')";

/// `SnapshotMeta` as `nomad operator snapshot state` writes it (an array of
/// one raft `SnapshotMeta`), or as a plain object. serde buffers an
/// untagged value and reads each variant from the buffer, past the
/// deserializer's `null` rule: the variants apply it themselves.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum MetaField {
    One(GoJson<SnapshotMeta>),
    Many(Vec<GoJson<SnapshotMeta>>),
}

/// The part of a `Namespaces` entry a job plan reads.
#[derive(Deserialize)]
pub(super) struct NamespaceName {
    #[serde(rename = "Name", default)]
    pub(super) name: String,
}

/// The part of raft's `SnapshotMeta` that dates the snapshot.
#[derive(Deserialize)]
pub(super) struct SnapshotMeta {
    #[serde(rename = "ID", default)]
    id: String,
}

/// The time in a raft snapshot ID, `term-index-unixmillis`.
pub(super) fn parse_snapshot_id(id: &str) -> Option<Time> {
    let mut parts = id.split('-');
    let (term, index, millis) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    term.parse::<u64>().ok()?;
    index.parse::<u64>().ok()?;
    let millis: i64 = millis.parse().ok()?;
    Some(Time::from_unix_nanos(millis as i128 * 1_000_000))
}

/// The top-level object.
pub(super) struct Document<'s, 'n>(pub(super) &'s mut State<'n>);

impl<'de> DeserializeSeed<'de> for Document<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Document<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object with Jobs, Nodes, Allocs, ...")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let st = self.0;
        st.started = true;
        while let Some(key) = map.next_key::<String>()? {
            st.before_section(&key);
            let value = match key.as_str() {
                // A job kept whole is read as text, as the fast walk reads jobs.
                "Jobs" if st.filter.keep_job_text.is_some() => map.next_value_seed(Each::new(
                    "an array of jobs",
                    |_, text: Box<serde_json::value::RawValue>| {
                        st.add_job_text(text.get().as_bytes())
                            .map_err(|e| e.to_string())
                    },
                ))?,
                "Jobs" => map.next_value_seed(Each::new("an array of jobs", |_, job| {
                    st.add_job(Arc::new(job))
                }))?,
                "JobVersions" => map.next_value_seed(Each::new("an array of jobs", |_, job| {
                    st.add_job_version(job);
                    Ok(())
                }))?,
                "Nodes" => map.next_value_seed(Each::new("an array of nodes", |_, node| {
                    st.add_node(node);
                    Ok(())
                }))?,
                "Allocs" | "Allocations" => map
                    .next_value_seed(Each::new("an array of allocations", |i, alloc| {
                        st.add_alloc(&key, i, alloc)
                    }))?,
                "Deployments" => {
                    map.next_value_seed(Each::new("an array of deployments", |_, d| {
                        st.add_deployment(d);
                        Ok(())
                    }))?
                }
                "Evals" => map.next_value_seed(Each::new("an array of evaluations", |_, e| {
                    st.add_eval(e);
                    Ok(())
                }))?,
                "Namespaces" => {
                    let listed = map.next_value_seed(Each::new(
                        "an array of namespaces",
                        |_, ns: NamespaceName| {
                            st.add_namespace(Some(ns.name));
                            Ok(())
                        },
                    ))?;
                    if listed {
                        st.add_namespace(None);
                    }
                    listed
                }
                "SnapshotMeta" => {
                    st.set_meta(map.next_value::<GoJson<_>>()?.0);
                    true
                }
                "Now" => {
                    st.now = map.next_value()?;
                    true
                }
                "EvalID" => {
                    st.eval_id = map.next_value()?;
                    true
                }
                "SupportsDisconnectedClients" => {
                    st.supports_disconnected_clients = map.next_value()?;
                    true
                }
                "NomadVersion" => {
                    st.nomad_version = map.next_value()?;
                    true
                }
                "SchedulerConfig" => {
                    let config: Option<GoJson<SchedulerConfig>> = map.next_value()?;
                    st.scheduler_config = config.map(|c| c.0);
                    true
                }
                "NodePools" => {
                    let pools: Option<GoJson<Vec<NodePool>>> = map.next_value()?;
                    let listed = pools.is_some();
                    st.node_pools = pools.map(|p| p.0).unwrap_or_default();
                    listed
                }
                "CSIVolumes" => {
                    let listed = map.next_value_seed(Each::new(
                        "an array of CSI volumes",
                        |_, v: CsiVolume| {
                            st.add_csi_volume(Some(v));
                            Ok(())
                        },
                    ))?;
                    if listed {
                        st.add_csi_volume(None);
                    }
                    listed
                }
                "CSIPlugins" => {
                    let listed = map.next_value_seed(Each::new(
                        "an array of CSI plugins",
                        |_, p: CsiPlugin| {
                            st.add_csi_plugin(Some(p));
                            Ok(())
                        },
                    ))?;
                    if listed {
                        st.add_csi_plugin(None);
                    }
                    listed
                }
                // Anything else (ACLTokens hold secrets) is skipped unread.
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    true
                }
            };
            st.keys.saw(&key, value);
        }
        Ok(())
    }
}

/// An array (or `null`, Go's nil slice) whose elements go to `f` one by one
/// with their index; its value is false for `null`.
struct Each<T, F> {
    what: &'static str,
    f: F,
    element: PhantomData<fn() -> T>,
}

impl<T, F> Each<T, F> {
    fn new(what: &'static str, f: F) -> Self {
        Each {
            what,
            f,
            element: PhantomData,
        }
    }
}

impl<'de, T, F> DeserializeSeed<'de> for Each<T, F>
where
    T: Deserialize<'de>,
    F: FnMut(usize, T) -> Result<(), String>,
{
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de, T, F> Visitor<'de> for Each<T, F>
where
    T: Deserialize<'de>,
    F: FnMut(usize, T) -> Result<(), String>,
{
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} or null", self.what)
    }

    fn visit_none<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_seq(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<bool, A::Error> {
        let mut index = 0;
        while seq
            .next_element_seed(Element {
                index,
                f: &mut self.f,
                element: PhantomData::<fn() -> T>,
            })?
            .is_some()
        {
            index += 1;
        }
        Ok(true)
    }
}

/// One element, handed to `f` while still inside it, so that an error `f`
/// finds carries the element's path (`Jobs[3]`) and position.
struct Element<'f, T, F> {
    index: usize,
    f: &'f mut F,
    element: PhantomData<fn() -> T>,
}

impl<'de, T, F> DeserializeSeed<'de> for Element<'_, T, F>
where
    T: Deserialize<'de>,
    F: FnMut(usize, T) -> Result<(), String>,
{
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let element = T::deserialize(GoNull(d))?;
        (self.f)(self.index, element).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_job_texts_are_freed_once_no_section_that_reads_them_can_follow() {
        let mut st = State::new("d.json", ReadFilter::default());
        st.add_job_version_text(br#"{"ID": "web", "Version": 1}"#)
            .unwrap();
        st.keys.saw("JobVersions", true);
        st.before_section("Jobs");
        st.keys.saw("Jobs", true);
        // Allocations may still come, and may embed that text.
        st.before_section("Nodes");
        assert_eq!(st.job_texts.len(), 1);
        st.before_section("Allocs");
        st.keys.saw("Allocs", false);
        st.before_section("Deployments");
        assert_eq!(st.job_texts.len(), 0);
    }
}
