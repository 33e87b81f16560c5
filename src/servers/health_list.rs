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
    let reading = Reading {
        allocs,
        live: live_names(allocs),
        spec,
        placed_from,
        at,
    };
    let (mut sets, mut found) = (Vec::new(), Vec::new());
    for healthy in [true, false] {
        let pieces: Vec<&str> = spec
            .health
            .iter()
            .filter(|h| h.healthy == healthy)
            .map(|h| h.alloc.as_str())
            .collect();
        for (alloc, i) in reading.list(&pieces)? {
            sets.push(HealthSet { alloc, healthy });
            found.push(i);
        }
    }
    Ok((sets, found))
}

/// What a request's lists are read against: the allocations when the event
/// happens, the live ones by name.
struct Reading<'r> {
    allocs: &'r [Allocation],
    live: HashMap<Name, Vec<usize>>,
    spec: &'r EventSpec,
    /// Where the allocations the story placed begin.
    placed_from: usize,
    at: Time,
}

impl Reading<'_> {
    /// One list's pieces put together, each allocation with its text.
    fn list(&self, pieces: &[&str]) -> Result<Vec<(String, usize)>, WhatIfError> {
        let mut out = Vec::new();
        let mut start = 0;
        while start < pieces.len() {
            let alone = self.one(pieces[start]);
            let joined: Vec<(usize, usize)> = self
                .joined(pieces, start)
                .filter(|(_, named)| named.len() == 1)
                .map(|(end, named)| (end, named[0]))
                .collect();
            let (end, i) = match (alone, joined.as_slice()) {
                (Ok(i), []) => (start, i),
                (Err(_), [only]) => *only,
                (Ok(i), [other, ..]) => {
                    return Err(self.two_ways(pieces, start, (start, i), *other));
                }
                (Err(_), [a, b, ..]) => return Err(self.two_ways(pieces, start, *a, *b)),
                // A piece followed by an allocation's text is the mistake itself.
                (Err(e), []) if self.names_from(pieces, start + 1) => return Err(e),
                (Err(e), []) => return Err(self.unresolved(pieces, start, e)),
            };
            out.push((pieces[start..=end].join(","), i));
            start = end + 1;
        }
        Ok(out)
    }

    /// The live allocations named by pieces `start..=end` joined, for each
    /// `end` after `start` whose joined text is a live name.
    fn joined<'p>(
        &'p self,
        pieces: &'p [&str],
        start: usize,
    ) -> impl Iterator<Item = (usize, &'p Vec<usize>)> + 'p {
        (start + 1..pieces.len()).filter_map(move |end| {
            Some((end, self.live.get(pieces[start..=end].join(",").as_str())?))
        })
    }

    /// Whether the pieces from `start` on begin with a text that names an
    /// allocation: a piece alone, or pieces joined into a live name.
    fn names_from(&self, pieces: &[&str], start: usize) -> bool {
        pieces
            .get(start)
            .is_some_and(|piece| self.one(piece).is_ok())
            || self.joined(pieces, start).next().is_some()
    }

    /// The allocation `text` alone names: by ID or ID prefix among the
    /// snapshot's allocations, else among those the story placed, or by
    /// live name.
    fn one(&self, text: &str) -> Result<usize, WhatIfError> {
        let (allocs, spec, placed_from) = (self.allocs, self.spec, self.placed_from);
        match target::alloc(&allocs[..placed_from], spec, text, Lookup::Snapshot)? {
            Some(i) => Ok(i),
            None => target::alloc(
                allocs,
                spec,
                text,
                Lookup::Story {
                    placed_from,
                    at: self.at,
                },
            )
            .map(|i| i.expect("a lookup in the story finds the allocation or fails")),
        }
    }

    /// The list from piece `start` read two ways: pieces `start..=a.0` name
    /// allocation `a.1`, and pieces `start..=b.0` name `b.1`.
    fn two_ways(
        &self,
        pieces: &[&str],
        start: usize,
        a: (usize, usize),
        b: (usize, usize),
    ) -> WhatIfError {
        let reading = |(end, i): (usize, usize)| {
            (
                pieces[start..=end].join(","),
                target::describe_alloc(&self.allocs[i]),
            )
        };
        WhatIfError::AllocListAmbiguous {
            event: self.spec.text.clone(),
            at: self.at,
            readings: vec![reading(a), reading(b)],
        }
    }

    /// Why nothing from piece `start` on names an allocation: the lookup of
    /// the first text from there that reads as a name, else `alone`, the
    /// piece's own.
    fn unresolved(&self, pieces: &[&str], start: usize, alone: WhatIfError) -> WhatIfError {
        let name = (start..pieces.len())
            .map(|end| pieces[start..=end].join(","))
            .find(|text| target::reads_as_name(text));
        name.and_then(|name| target::by_name(self.allocs, self.spec, &name, self.at).err())
            .unwrap_or(alone)
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
