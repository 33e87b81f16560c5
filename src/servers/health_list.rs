//! A health request's lists as the cluster reads them when the event
//! happens. Nomad lets a job ID or a group name hold a comma (`Job.Validate`
//! and `TaskGroup.Validate` refuse only a space in the job ID and a NUL,
//! v2.0.5 nomad/structs/structs.go:4743-4754, :7114-7118), so an
//! allocation's name may too: the text between two commas is a piece, and
//! a piece that names no allocation is joined with the pieces after it
//! until the joined text is the name of a live allocation.

use std::collections::HashMap;

use crate::model::{Allocation, Name};
use crate::time::Time;

use super::error::WhatIfError;
use super::event::{EventSpec, HealthSet};
use super::target::{self, Lookup};

/// `spec`'s health request read at `at` in `allocs` (the allocations from
/// `placed_from` on placed by the story): each allocation with the text
/// that names it, in the request's order. A piece names an allocation by
/// its ID, unique ID prefix or live name; where it does not, the pieces
/// after it in its list are joined on until the text is one live
/// allocation's name. A piece that names one while it and the pieces after
/// it name another is refused as reading two ways; a piece nothing names,
/// alone or joined, is refused with its own error when the pieces after it
/// name an allocation, else with the error of the first name it reads as
/// (`...[N]`), else with its own.
pub fn resolve(
    allocs: &[Allocation],
    spec: &EventSpec,
    placed_from: usize,
    at: Time,
) -> Result<(Vec<HealthSet>, Vec<usize>), WhatIfError> {
    let live = live_names(allocs);
    let (mut sets, mut found) = (Vec::new(), Vec::new());
    for healthy in [true, false] {
        let pieces: Vec<&str> = spec
            .health
            .iter()
            .filter(|h| h.healthy == healthy)
            .map(|h| h.alloc.as_str())
            .collect();
        for (alloc, i) in list(allocs, &live, spec, &pieces, placed_from, at)? {
            sets.push(HealthSet { alloc, healthy });
            found.push(i);
        }
    }
    Ok((sets, found))
}

/// One list's pieces put together, each allocation with its text.
fn list(
    allocs: &[Allocation],
    live: &HashMap<Name, Vec<usize>>,
    spec: &EventSpec,
    pieces: &[&str],
    placed_from: usize,
    at: Time,
) -> Result<Vec<(String, usize)>, WhatIfError> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < pieces.len() {
        let alone = one(allocs, spec, pieces[start], placed_from, at);
        let joined: Vec<(usize, usize)> = (start + 1..pieces.len())
            .filter_map(
                |end| match live.get(pieces[start..=end].join(",").as_str()) {
                    Some(one) if one.len() == 1 => Some((end, one[0])),
                    _ => None,
                },
            )
            .collect();
        let (end, i) = match (alone, joined.as_slice()) {
            (Ok(i), []) => (start, i),
            (Err(_), [only]) => *only,
            (Ok(i), [(end, other), ..]) => {
                return Err(two_ways(
                    allocs,
                    spec,
                    pieces,
                    start,
                    (start, i),
                    (*end, *other),
                    at,
                ));
            }
            (Err(_), [a, b, ..]) => return Err(two_ways(allocs, spec, pieces, start, *a, *b, at)),
            // A piece followed by an allocation's text is the mistake itself.
            (Err(e), []) if names_from(allocs, live, spec, pieces, start + 1, placed_from, at) => {
                return Err(e);
            }
            (Err(e), []) => return Err(unresolved(allocs, spec, pieces, start, e, at)),
        };
        out.push((pieces[start..=end].join(","), i));
        start = end + 1;
    }
    Ok(out)
}

/// Whether the pieces from `start` on begin with a text that names an
/// allocation: a piece alone, or pieces joined into a live name.
fn names_from(
    allocs: &[Allocation],
    live: &HashMap<Name, Vec<usize>>,
    spec: &EventSpec,
    pieces: &[&str],
    start: usize,
    placed_from: usize,
    at: Time,
) -> bool {
    pieces
        .get(start)
        .is_some_and(|piece| one(allocs, spec, piece, placed_from, at).is_ok())
        || (start + 1..pieces.len())
            .any(|end| live.contains_key(pieces[start..=end].join(",").as_str()))
}

/// The allocation `text` alone names: by ID or ID prefix among the
/// snapshot's allocations, else among those the story placed, or by live
/// name.
fn one(
    allocs: &[Allocation],
    spec: &EventSpec,
    text: &str,
    placed_from: usize,
    at: Time,
) -> Result<usize, WhatIfError> {
    match target::alloc(&allocs[..placed_from], spec, text, Lookup::Snapshot)? {
        Some(i) => Ok(i),
        None => target::alloc(allocs, spec, text, Lookup::Story { placed_from, at })
            .map(|i| i.expect("a lookup in the story finds the allocation or fails")),
    }
}

/// The live allocations by name.
fn live_names(allocs: &[Allocation]) -> HashMap<Name, Vec<usize>> {
    let mut live: HashMap<Name, Vec<usize>> = HashMap::new();
    for (i, a) in allocs.iter().enumerate().filter(|(_, a)| target::live(a)) {
        live.entry(a.name()).or_default().push(i);
    }
    live
}

/// The list from piece `start` read two ways: pieces `start..=a.0` name
/// allocation `a.1`, and pieces `start..=b.0` name `b.1`.
fn two_ways(
    allocs: &[Allocation],
    spec: &EventSpec,
    pieces: &[&str],
    start: usize,
    a: (usize, usize),
    b: (usize, usize),
    at: Time,
) -> WhatIfError {
    let reading = |(end, i): (usize, usize)| {
        (
            pieces[start..=end].join(","),
            target::describe_alloc(&allocs[i]),
        )
    };
    WhatIfError::AllocListAmbiguous {
        event: spec.text.clone(),
        at,
        readings: vec![reading(a), reading(b)],
    }
}

/// Why nothing from piece `start` on names an allocation: the lookup of
/// the first text from there that reads as a name, else `alone`, the
/// piece's own.
fn unresolved(
    allocs: &[Allocation],
    spec: &EventSpec,
    pieces: &[&str],
    start: usize,
    alone: WhatIfError,
    at: Time,
) -> WhatIfError {
    let name = (start..pieces.len())
        .map(|end| pieces[start..=end].join(","))
        .find(|text| target::reads_as_name(text));
    name.and_then(|name| target::by_name(allocs, spec, &name, at).err())
        .unwrap_or(alone)
}
