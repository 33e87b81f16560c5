//! Small snapshots built from the fuzzer's choices (the generator the property
//! tests use), through the reader, the replay and both renderers.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use plan_inspect::read::read_snapshot_from;
use plan_inspect::render;
use plan_inspect::replay::{Options, Replay};

#[path = "../../tests/properties/snapshot_gen.rs"]
#[allow(dead_code)]
mod snapshot_gen;

struct Fuzzed<'a, 'b>(&'b mut Unstructured<'a>);

impl snapshot_gen::Pick for Fuzzed<'_, '_> {
    fn pick(&mut self, n: u32) -> u32 {
        self.0.int_in_range(0..=n - 1).unwrap_or(0)
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let doc = snapshot_gen::snapshot(&mut Fuzzed(&mut u));
    let text = doc.to_string();
    let snapshot = read_snapshot_from(text.as_bytes(), "generated").expect("generated snapshots read");
    let report = Replay::new(&snapshot, &Options::default())
        .expect("no --job, no --eval: no error")
        .report();
    render::json::render(&report);
    for verbose in [false, true] {
        let style = render::table::Style { color: true, verbose, width: 100 };
        render::table::render(&report, style);
    }
});
