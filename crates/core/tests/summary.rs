//! One format-independent snapshot per fixture: every input under
//! `tests/fixtures/` (found as the CLI-output comparison finds them) is
//! decoded and summed up as text — threads with span counts and depth, the
//! time range, a hash of the names, the heaviest stacks, allocations,
//! counters, tables and diagnostics — and compared with
//! `tests/snapshots/<group>/<case>.summary.txt`. The snapshots live outside
//! the fixture folders, whose every file the decoders see.
//!
//! `BLESS=1 cargo test -p flamedrop-core --test summary` rewrites them.

mod common;

use common::{checked, fixtures, read_folder};
use flamedrop_core::model::{SampleSet, NEVER_FREED};
use flamedrop_core::{decode_files, Trace};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Stacks listed per source (spans, each sample set).
const TOP_STACKS: usize = 5;

/// Fixture inputs as (group, case, path to decode): each entry of a group
/// folder but notes, sources and references; a case's `uftrace.data` when
/// it has one.
fn inputs() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for group in sorted_entries(&fixtures())
        .into_iter()
        .filter(|g| g.is_dir())
    {
        for entry in sorted_entries(&group) {
            let case = name_of(&entry);
            let skip = ["README.md", "PROVENANCE.md", "reference", "elf"].contains(&case.as_str())
                || case.ends_with(".c");
            if skip {
                continue;
            }
            let data = entry.join("uftrace.data");
            let path = if data.is_dir() { data } else { entry };
            out.push((name_of(&group), case, path));
        }
    }
    out
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .collect();
    all.sort();
    all
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The files of an input, named as the command line names them.
fn files_of(path: &Path) -> Vec<(String, Vec<u8>)> {
    if path.is_dir() {
        read_folder(path)
    } else {
        vec![(name_of(path), std::fs::read(path).expect("fixture file"))]
    }
}

/// FNV-1a, 64 bits: a hash that stays the same across Rust versions.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn summary(trace: &Trace) -> String {
    let mut s = String::new();
    let format = trace.format.map_or("none", |f| f.name());
    let unit = trace.time_unit.map_or("none", |u| u.name());
    let _ = writeln!(s, "format {format}, time in {unit}");
    let _ = writeln!(s, "time range {:?}", trace.time_range());
    let names: BTreeSet<&str> = trace.strings.all().iter().map(String::as_str).collect();
    let all: Vec<&str> = names.into_iter().collect();
    let _ = writeln!(
        s,
        "{} distinct strings, hash {:016x}",
        all.len(),
        fnv(&all.join("\n"))
    );
    threads(&mut s, trace);
    let _ = writeln!(s, "heaviest call paths by self time:");
    top(&mut s, span_paths(trace));
    for set in &trace.sample_sets {
        let _ = writeln!(
            s,
            "sample set {:?}: {} samples, weights {:?}",
            set.name,
            set.len(),
            set.weight_names
        );
        top(&mut s, sample_paths(trace, set));
    }
    resources(&mut s, trace);
    for d in &trace.diagnostics {
        let (kind, severity, count) = (&d.kind, d.severity.name(), d.count);
        let _ = writeln!(s, "diagnostic {kind} ({severity}) x{count}");
    }
    s
}

fn threads(s: &mut String, trace: &Trace) {
    let _ = writeln!(
        s,
        "{} processes, {} threads",
        trace.processes.len(),
        trace.threads.len()
    );
    for t in &trace.threads {
        let _ = writeln!(
            s,
            "  thread {:?} {:?}: {} spans, max depth {}, {} markers, {} details, {} events, range {:?}",
            t.id,
            t.name,
            t.spans.len(),
            t.max_depth(),
            t.instants.len(),
            t.spans.detail_count() + t.instants.detail_count(),
            t.events,
            t.time_range()
        );
    }
}

fn resources(s: &mut String, trace: &Trace) {
    let _ = writeln!(s, "{} stacks", trace.stacks.len());
    for a in &trace.allocations {
        let live = a.free_time.iter().filter(|&&f| f == NEVER_FREED).count();
        let total: u64 = a.size.iter().sum();
        let _ = writeln!(
            s,
            "allocations {:?}: {} ({live} live), {total} {}, {} unmatched frees",
            a.resource,
            a.len(),
            a.size_unit,
            a.unmatched_frees
        );
    }
    for c in &trace.counters {
        let _ = writeln!(
            s,
            "counter {:?} ({}): {} values",
            c.name,
            c.unit,
            c.time.len()
        );
    }
    for t in &trace.tables {
        let _ = writeln!(s, "table {:?}: {} rows", t.id, t.rows.len());
    }
}

/// Weight and count per call path (`a -> b -> c`).
type Paths = BTreeMap<String, (i64, u64)>;

/// Every span's path from its thread's root, weighted by its self time.
fn span_paths(trace: &Trace) -> Paths {
    let mut paths = Paths::new();
    for t in &trace.threads {
        let spans = &t.spans;
        // Per depth: the open span's path and self time so far.
        let mut open: Vec<(String, i64)> = Vec::new();
        let mut close = |open: &mut Vec<(String, i64)>, depth: usize| {
            while open.len() > depth {
                if let Some((path, own)) = open.pop() {
                    let entry = paths.entry(path).or_default();
                    entry.0 = entry.0.saturating_add(own);
                    entry.1 += 1;
                }
            }
        };
        for i in 0..spans.len() {
            let depth = usize::from(spans.depth[i]).min(open.len());
            close(&mut open, depth);
            let length = spans.end[i].saturating_sub(spans.start[i]);
            if let Some(parent) = open.last_mut() {
                parent.1 = parent.1.saturating_sub(length);
            }
            let name = trace.str(spans.name[i]);
            let path = match open.last() {
                Some((above, _)) => format!("{above} -> {name}"),
                None => name.to_owned(),
            };
            open.push((path, length));
        }
        close(&mut open, 0);
    }
    paths
}

/// A sample set's stacks, weighted by its first weight column.
fn sample_paths(trace: &Trace, set: &SampleSet) -> Paths {
    let mut paths = Paths::new();
    for (i, &stack) in set.stack.iter().enumerate() {
        let frames: Vec<&str> = trace
            .stacks
            .frames(stack)
            .into_iter()
            .map(|f| trace.str(f))
            .collect();
        let weight = set.weights.first().and_then(|w| w.get(i)).copied();
        let entry = paths.entry(frames.join(" -> ")).or_default();
        entry.0 = entry.0.saturating_add(weight.unwrap_or(1));
        entry.1 += 1;
    }
    paths
}

/// The heaviest paths, as `weight (count×) path`.
fn top(s: &mut String, paths: Paths) {
    let mut all: Vec<(String, (i64, u64))> = paths.into_iter().collect();
    all.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then_with(|| a.0.cmp(&b.0)));
    for (path, (weight, count)) in all.into_iter().take(TOP_STACKS) {
        let _ = writeln!(s, "  {weight} ({count}×) {path}");
    }
}

fn snapshot_path(group: &str, case: &str) -> PathBuf {
    fixtures()
        .join("../snapshots")
        .join(group)
        .join(format!("{case}.summary.txt"))
}

#[test]
fn every_fixture_matches_its_summary_snapshot() {
    let bless = std::env::var_os("BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let inputs = inputs();
    assert!(inputs.len() > 40, "fixtures not found");
    for (group, case, path) in inputs {
        let text = match decode_files(&files_of(&path)) {
            Ok(trace) => summary(&checked(trace)),
            Err(e) => format!("error: {e}\n"),
        };
        let snapshot = snapshot_path(&group, &case);
        if bless {
            std::fs::create_dir_all(snapshot.parent().expect("folder")).expect("snapshot folder");
            std::fs::write(&snapshot, &text).expect("write snapshot");
            continue;
        }
        match std::fs::read_to_string(&snapshot) {
            Ok(expected) if expected == text => {}
            Ok(expected) => {
                let first = expected.lines().zip(text.lines()).position(|(a, b)| a != b);
                let line = first.unwrap_or(expected.lines().count().min(text.lines().count()));
                let (was, now) = (
                    expected.lines().nth(line).unwrap_or("(end)"),
                    text.lines().nth(line).unwrap_or("(end)"),
                );
                failures.push(format!(
                    "{group}/{case}: line {}\n    snapshot: {was}\n    now:      {now}",
                    line + 1
                ));
            }
            Err(_) => failures.push(format!("{group}/{case}: no snapshot yet")),
        }
    }
    assert!(
        failures.is_empty(),
        "summaries differ from tests/snapshots (if the change is intended, rewrite them with \
         `BLESS=1 cargo test -p flamedrop-core --test summary` and review the diff):\n{}",
        failures.join("\n")
    );
}
