//! A hand-written reader of one allocation element for the fast walk: it
//! matches the top-level keys `Allocation` reads by their bytes, reads the
//! plain ones (IDs, names, statuses, integers) straight from the buffer,
//! steps over the keys it does not read and the embedded job (already found
//! by [`super::scan`]) without building anything, and hands only the
//! nested blocks it keeps (resources, task states, metrics, ...) to serde_json.
//!
//! Serde's derived visitor spent most of an allocation's parse on the
//! members it ignores and on per-field dispatch; this reads the same
//! allocation, field for field. It gives up (`None`) on anything it is not
//! sure reads the same: an escape in a key or a plain string, a number that
//! is not a plain integer, a key given twice, a value of the wrong kind,
//! bytes that end early. The caller then parses the element with serde as
//! before, which reads it or says exactly what is wrong, so errors and
//! positions are serde's own. Go's rule for `null` holds as it does there:
//! a `null` member leaves the field at its zero value, which is the field's
//! default, as if the key were missing.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde::de::value::BorrowedStrDeserializer;
use serde_json::Deserializer;

use super::lexeme::{null, plain_key, plain_string, signed, skip_space, skip_value, unsigned};
use super::scan::JobSpan;
use thin_vec::ThinVec;

use crate::model::{
    AllocMetric, AllocState, Allocation, Job, LegacyResources, Name, NormScore, Resources,
    first_value, from_slice,
};

/// The keys read, in Go's field order; the index is the key's bit in the
/// set of keys seen. `Job` is the embedded job; the rest are `Allocation`'s.
pub(super) const KEYS: [&str; 27] = [
    "ID",
    "Namespace",
    "Name",
    "NodeID",
    "JobID",
    "Job",
    "TaskGroup",
    "Resources",
    "SharedResources",
    "TaskResources",
    "AllocatedResources",
    "Metrics",
    "DesiredStatus",
    "DesiredDescription",
    "DesiredTransition",
    "ClientStatus",
    "TaskStates",
    "AllocStates",
    "PreviousAllocation",
    "NextAllocation",
    "DeploymentID",
    "DeploymentStatus",
    "RescheduleTracker",
    "FollowupEvalID",
    "CreateIndex",
    "ModifyTime",
    "JobVersion",
];

/// The index of `Job` in [`KEYS`].
const JOB: usize = 5;

/// The pre-0.9 blocks, by their index in [`KEYS`].
const LEGACY: [usize; 3] = [7, 9, 8];

/// The allocation element at the start of `bytes` and its length, with its
/// embedded job at `job` (from the scan) or without one (`"Job": null` or
/// no `Job` key); `None` when serde must read it instead.
///
/// `owner` is the embedded job as parsed, if known: an allocation's
/// `Namespace` and `JobID` are most often that job's, and taking its names
/// spares looking them up among every name read, a cache miss or two for
/// each of thousands of job IDs.
pub(super) fn decode(
    bytes: &[u8],
    job: Option<&JobSpan>,
    owner: Option<&Job>,
) -> Option<(Allocation, usize)> {
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut alloc = Allocation::default();
    let mut legacy: [Option<Range<usize>>; 3] = [None, None, None];
    let mut seen = 0u32;
    let mut name = None;
    let mut checked = Checked::default();
    let mut i = skip_space(bytes, 1)?;
    if bytes[i] == b'}' {
        return Some((alloc, i + 1));
    }
    loop {
        if bytes[i] != b'"' {
            return None;
        }
        let (key, after) = plain_key(bytes, i)?;
        i = skip_space(bytes, after)?;
        if bytes[i] != b':' {
            return None;
        }
        i = skip_space(bytes, i + 1)?;
        i = match field_of(key) {
            None => skip_value(bytes, i)?,
            Some(field) => {
                let bit = 1u32 << field;
                if seen & bit != 0 {
                    return None;
                }
                seen |= bit;
                if field == JOB {
                    // The scan's job is the first `Job` key's object.
                    match job {
                        Some(job) if job.start == i => job.end,
                        Some(_) => return None,
                        None => null(bytes, i)?,
                    }
                } else if let Some(end) = null(bytes, i) {
                    end
                } else if let Some(block) = LEGACY.iter().position(|&l| l == field) {
                    let end = skip_value(bytes, i)?;
                    legacy[block] = Some(i..end);
                    end
                } else {
                    read_field(&mut alloc, &mut name, field, bytes, i, owner, &mut checked)?
                }
            }
        };
        i = skip_space(bytes, i)?;
        match bytes[i] {
            b',' => i = skip_space(bytes, i + 1)?,
            b'}' => break,
            _ => return None,
        }
    }
    if job.is_some() && seen & (1 << JOB) == 0 {
        return None;
    }
    if alloc.allocated_resources.is_none() {
        alloc.legacy = legacy_blocks(bytes, &legacy)?;
    }
    if let Some(name) = name {
        alloc.set_read_name(name);
    }
    Some((alloc, i + 1))
}

/// The index in [`KEYS`] of `key`: told apart by length and first byte,
/// then compared once.
pub(super) fn field_of(key: &[u8]) -> Option<usize> {
    let i = match (key.len(), *key.first()?) {
        (2, b'I') => 0,
        (9, b'N') => 1,
        (4, b'N') => 2,
        (6, b'N') => 3,
        (5, b'J') => 4,
        (3, b'J') => 5,
        (9, b'T') => 6,
        (9, b'R') => 7,
        (15, b'S') => 8,
        (13, b'T') => 9,
        (18, b'A') => 10,
        (7, b'M') => 11,
        (13, b'D') => 12,
        (18, b'D') => 13,
        (17, b'D') => 14,
        (12, b'C') => 15,
        (10, b'T') => 16,
        (11, b'A') => 17,
        (18, b'P') => 18,
        (14, b'N') => 19,
        (12, b'D') => 20,
        (16, b'D') => 21,
        (17, b'R') => 22,
        (14, b'F') => 23,
        (11, b'C') => 24,
        (10, b'M') => 25,
        (10, b'J') => 26,
        _ => return None,
    };
    (KEYS[i].as_bytes() == key).then_some(i)
}

/// Reads the value at `at` of the field `KEYS[field]` into `alloc`, or
/// its name into `read_name` (kept once the job ID and group are read); the
/// index after the value.
fn read_field<'a>(
    alloc: &mut Allocation,
    read_name: &mut Option<&'a str>,
    field: usize,
    bytes: &'a [u8],
    at: usize,
    owner: Option<&Job>,
    checked: &mut Checked<'a>,
) -> Option<usize> {
    let a = alloc;
    match field {
        0 => text(&mut a.id, bytes, at),
        1 => owned(&mut a.namespace, owner.map(|j| &j.namespace), bytes, at),
        2 => {
            let (name, end) = string(bytes, at)?;
            *read_name = Some(name);
            Some(end)
        }
        3 => text(&mut a.node_id, bytes, at),
        4 => owned(&mut a.job_id, owner.map(|j| &j.id), bytes, at),
        6 => text(&mut a.task_group, bytes, at),
        10 => nested(&mut a.allocated_resources, bytes, at, checked),
        11 => {
            let mut metric: Option<AllocMetric> = None;
            let end = nested(&mut metric, bytes, at, checked)?;
            a.norm_score = NormScore::of(metric.as_ref());
            Some(end)
        }
        12 => text(&mut a.desired_status, bytes, at),
        13 => text(&mut a.desired_description, bytes, at),
        14 => {
            // Present, not `null`: the transition says so.
            let mut transition = None;
            let end = nested(&mut transition, bytes, at, checked)?;
            a.desired_transition = transition?;
            a.desired_transition.present = true;
            Some(end)
        }
        15 => text(&mut a.client_status, bytes, at),
        16 => nested(&mut a.task_states, bytes, at, checked),
        17 => {
            let mut states: Option<Vec<AllocState>> = None;
            let end = nested(&mut states, bytes, at, checked)?;
            a.alloc_states = states.map(ThinVec::from).unwrap_or_default();
            Some(end)
        }
        18 => text(&mut a.previous_allocation, bytes, at),
        19 => text(&mut a.next_allocation, bytes, at),
        20 => text(&mut a.deployment_id, bytes, at),
        21 => nested(&mut a.deployment_status, bytes, at, checked),
        22 => nested(&mut a.reschedule_tracker, bytes, at, checked),
        23 => text(&mut a.followup_eval_id, bytes, at),
        24 => {
            let (n, end) = unsigned(bytes, at)?;
            a.create_index = n;
            Some(end)
        }
        25 => {
            let (n, end) = signed(bytes, at)?;
            a.modify_time = n;
            Some(end)
        }
        26 => {
            let (n, end) = unsigned(bytes, at)?;
            a.stub_job_version = Some(Box::new(n));
            Some(end)
        }
        _ => None,
    }
}

/// A plain string at `at`, and the index after it.
fn string(bytes: &[u8], at: usize) -> Option<(&str, usize)> {
    if bytes[at] != b'"' {
        return None;
    }
    plain_string(bytes, at)
}

/// A string field: a plain string at `at`, as its type reads one.
fn text<'a, T: Deserialize<'a>>(slot: &mut T, bytes: &'a [u8], at: usize) -> Option<usize> {
    let (s, end) = string(bytes, at)?;
    let d = BorrowedStrDeserializer::<serde_json::Error>::new(s);
    *slot = T::deserialize(d).ok()?;
    Some(end)
}

/// A name field: a plain string at `at`, taken from `known` when it is
/// the same text.
fn owned(slot: &mut Name, known: Option<&Name>, bytes: &[u8], at: usize) -> Option<usize> {
    let (s, end) = string(bytes, at)?;
    *slot = match known {
        Some(name) if name.as_str() == s => name.clone(),
        _ => Name::from(s),
    };
    Some(end)
}

/// A nested block at `at`, read by serde_json under Go's `null` rule: as
/// a `str` where the bytes from `at` on were checked to be UTF-8 (see
/// [`from_slice`]: serde_json then does not check each key again), as
/// bytes past them.
fn nested<'a, T: DeserializeOwned>(
    slot: &mut T,
    bytes: &'a [u8],
    at: usize,
    checked: &mut Checked<'a>,
) -> Option<usize> {
    if let Some(text) = checked.text_at(bytes, at) {
        match first_value(Deserializer::from_str(text)) {
            Ok((value, len)) if len < text.len() => {
                *slot = value;
                return Some(at + len);
            }
            Err(e) if !e.is_eof() => return None,
            // The block goes on past the bytes checked.
            _ => checked.widen(),
        }
    }
    let (value, len) = first_value(Deserializer::from_slice(&bytes[at..])).ok()?;
    *slot = value;
    Some(at + len)
}

/// Bytes of an allocation element checked to be UTF-8, from the first
/// nested block on: a window of a few kilobytes, which holds the blocks of
/// most allocations, widened when a block goes past it.
#[derive(Default)]
pub(super) struct Checked<'a> {
    start: usize,
    text: &'a str,
    window: usize,
}

/// The first window's length: an allocation's blocks after its job.
const WINDOW: usize = 4 << 10;

impl<'a> Checked<'a> {
    /// The checked text from `at` on, checking a window from `at` first if
    /// `at` is past the text checked.
    fn text_at(&mut self, bytes: &'a [u8], at: usize) -> Option<&'a str> {
        let within = at.checked_sub(self.start).filter(|&n| n < self.text.len());
        let offset = match within {
            Some(n) => n,
            None => {
                self.window = self.window.max(WINDOW);
                let window = &bytes[at..bytes.len().min(at + self.window)];
                let valid = match std::str::from_utf8(window) {
                    Ok(text) => text,
                    Err(e) => std::str::from_utf8(&window[..e.valid_up_to()]).unwrap_or_default(),
                };
                self.start = at;
                self.text = valid;
                0
            }
        };
        self.text.get(offset..).filter(|t| !t.is_empty())
    }

    /// Checks a window twice as long from the next block on.
    fn widen(&mut self) {
        self.window *= 2;
        self.text = "";
    }
}

/// The pre-0.9 blocks at `spans`, read as the allocation's own fields would
/// read them: what an allocation without `AllocatedResources` holds.
fn legacy_blocks(
    bytes: &[u8],
    spans: &[Option<Range<usize>>; 3],
) -> Option<Option<Box<LegacyResources>>> {
    let text = |i: usize| spans[i].clone().map(|s| &bytes[s]);
    let mut blocks = LegacyResources::default();
    if let Some(t) = text(0) {
        blocks.resources = from_slice::<Option<Resources>>(t).ok()?;
    }
    if let Some(t) = text(1) {
        blocks.task_resources = from_slice::<Option<BTreeMap<String, Resources>>>(t)
            .ok()?
            .unwrap_or_default();
    }
    if let Some(t) = text(2) {
        blocks.shared_resources = from_slice::<Option<Resources>>(t).ok()?;
    }
    Some(blocks.boxed())
}
