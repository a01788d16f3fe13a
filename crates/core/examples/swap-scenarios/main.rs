//! Writes the synthetic SWAP streams under `tests/fixtures/swap/` and the
//! bundled demo, from scenarios described as data and encoded with the
//! test-only encoder (`--features swap-encoder`). The layouts follow
//! `specs/notes/swap.md`; nothing here comes from a real target.
//!
//! `cargo run -p flamedrop-core --example swap-scenarios --features swap-encoder -- <repo root>`
//!
//! `… -- --big OUT.swap MB` writes a benchmark input instead: the demo's
//! recording (two threads' function entries and exits, samples, memory, file,
//! sync and thread probes, syscalls, system messages) repeated back to back
//! in time, with sequence numbers running on, until MB megabytes.

mod activity;
mod big;
mod demo;
mod legacy;
mod scenario;
mod streams;

use activity::activity;
use big::big;
use demo::demo;
use flamedrop_core::formats::swap::encode::encode;
use legacy::{legacy, legacy_syscalls};
use std::path::Path;
use streams::{gaps_and_wrap, no_cpu_count};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--big") {
        let (Some(out), Some(mb)) = (args.get(1), args.get(2).and_then(|m| m.parse().ok())) else {
            eprintln!("usage: swap-scenarios --big OUT.swap MB");
            std::process::exit(2);
        };
        return big(Path::new(out), mb);
    }
    let root = args.first().cloned().unwrap_or_else(|| ".".into());
    let root = Path::new(&root);
    let fixtures = root.join("tests/fixtures/swap");
    std::fs::create_dir_all(&fixtures)?;
    let demo_bytes = encode(&demo());
    std::fs::write(fixtures.join("demo.swap"), &demo_bytes)?;
    std::fs::write(
        fixtures.join("gaps-wrap-unknown.swap"),
        encode(&gaps_and_wrap()),
    )?;
    std::fs::write(fixtures.join("legacy-3.0.swap"), encode(&legacy()))?;
    std::fs::write(
        fixtures.join("legacy-syscalls-3.0.swap"),
        encode(&legacy_syscalls()),
    )?;
    std::fs::write(fixtures.join("activity.swap"), encode(&activity()))?;
    let mut truncated = encode(&legacy());
    truncated.truncate(truncated.len() - 7);
    std::fs::write(fixtures.join("truncated.swap"), truncated)?;
    let no_cpus = fixtures.join("no-cpu-count");
    std::fs::create_dir_all(&no_cpus)?;
    std::fs::write(no_cpus.join("stream.swap"), encode(&no_cpu_count()))?;
    std::fs::write(no_cpus.join("swap.cpus"), "2 5\n")?;
    let demo_dir = root.join("www/demos/swap-gallery");
    std::fs::create_dir_all(&demo_dir)?;
    std::fs::write(demo_dir.join("gallery.swap"), &demo_bytes)?;
    println!("wrote {} demo bytes", demo_bytes.len());
    Ok(())
}
