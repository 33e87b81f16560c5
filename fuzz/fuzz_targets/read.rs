//! Any bytes through the reader; whatever it accepts, through the replay and
//! both renderers, and `--explain` of its first allocation and of its first
//! placement, in both renderings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan_inspect::explain::explain;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};

fuzz_target!(|data: &[u8]| {
    let Ok(snapshot) = read_snapshot_from(data, "fuzz") else {
        return;
    };
    if let Ok(report) = Replay::new(&snapshot, &Options::default()).map(Replay::report) {
        render::json::render(&report);
        for (verbose, width) in [(false, 1), (false, 60), (true, 100)] {
            let style = render::table::Style { color: true, verbose, width };
            render::table::render(&report, style);
        }
        let alloc = snapshot.allocs.first().map(|a| a.id.clone());
        let placement = report
            .jobs
            .iter()
            .find_map(|j| j.plan.place.first().map(|p| p.name.clone()));
        for subject in alloc.into_iter().chain(placement) {
            if let Ok(e) = explain(&snapshot, &Options::default(), &subject) {
                render::explain::json(&e);
                render::explain::table(&e, true, 60);
            }
        }
    }
});
