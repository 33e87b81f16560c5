//! The floor the benchmarks compare plan-inspect with: read the whole file
//! into memory and check it is JSON, keeping nothing (`IgnoredAny`).
//!
//!     cargo run --release --example floor -- /tmp/snap.json

use serde::de::IgnoredAny;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: floor SNAPSHOT.json");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("floor: {path}: {e}");
        std::process::exit(1)
    });
    if let Err(e) = serde_json::from_slice::<IgnoredAny>(&bytes) {
        eprintln!("floor: {path}: {e}");
        std::process::exit(1);
    }
}
