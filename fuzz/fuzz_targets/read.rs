//! Any bytes through the reader; whatever it accepts, through the replay and
//! both renderers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, replay};

fuzz_target!(|data: &[u8]| {
    let Ok(snapshot) = read_snapshot_from(data, "fuzz") else {
        return;
    };
    if let Ok(report) = replay(&snapshot, &Options::default()) {
        render::json::render(&report);
        for verbose in [false, true] {
            let style = render::table::Style { color: true, verbose };
            render::table::render(&report, style);
        }
    }
});
