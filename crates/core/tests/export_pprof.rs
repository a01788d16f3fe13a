//! `convert --to pprof`: the gzipped profile of fixtures of every format,
//! gunzipped and decoded, adds up to the report (`report --json` is
//! `analysis::report`): per function, flat time is the self time, flat calls
//! the calls and cum time the total; per allocated resource, the allocated
//! and live objects and sizes are its totals; per thread, the sample counts
//! are its samples.

mod common;

use common::{decode_input, fixture_inputs};
use flamedrop_core::analysis::report::report;
use flamedrop_core::export::pprof::proto::Profile;
use flamedrop_core::export::pprof::to_pprof;
use flamedrop_core::model::{Trace, SPAN_ABANDONED};
use prost::Message;
use std::collections::{HashMap, HashSet};
use std::io::Read;

fn read_back(trace: &Trace) -> Profile {
    let gz = to_pprof(trace);
    assert_eq!(gz.get(..2), Some(&[0x1f, 0x8b][..]), "gzip magic");
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut bytes)
        .expect("gunzips");
    Profile::decode(&bytes[..]).expect("a pprof Profile message")
}

/// The profile's strings, locations' functions, and column indices by name.
struct Reader<'p> {
    profile: &'p Profile,
    function_of_location: HashMap<u64, &'p str>,
}

impl<'p> Reader<'p> {
    fn new(profile: &'p Profile) -> Self {
        assert_eq!(profile.string_table.first().map(String::as_str), Some(""));
        let functions: HashMap<u64, &str> = profile
            .function
            .iter()
            .map(|f| (f.id, profile.string_table[f.name as usize].as_str()))
            .collect();
        let function_of_location = profile
            .location
            .iter()
            .map(|l| {
                assert!(profile.mapping.iter().any(|m| m.id == l.mapping_id));
                (l.id, functions[&l.line[0].function_id])
            })
            .collect();
        Reader {
            profile,
            function_of_location,
        }
    }

    fn str(&self, index: i64) -> &'p str {
        &self.profile.string_table[index as usize]
    }

    fn column(&self, name: &str) -> Option<usize> {
        self.profile
            .sample_type
            .iter()
            .position(|t| self.str(t.r#type) == name)
    }

    /// Per function: (flat, cum) of column `column`, pprof's way (cum counts
    /// a function once per sample however often it recurs).
    fn by_function(&self, column: usize) -> HashMap<&'p str, (i64, i64)> {
        let mut out: HashMap<&str, (i64, i64)> = HashMap::new();
        for sample in &self.profile.sample {
            let value = sample.value[column];
            let names: Vec<&str> = sample
                .location_id
                .iter()
                .map(|l| self.function_of_location[l])
                .collect();
            out.entry(names[0]).or_default().0 += value;
            for name in names.iter().collect::<HashSet<_>>() {
                out.entry(name).or_default().1 += value;
            }
        }
        out
    }

    fn sum(&self, column: usize) -> i64 {
        self.profile.sample.iter().map(|s| s.value[column]).sum()
    }
}

fn has_abandoned(trace: &Trace) -> bool {
    trace
        .threads
        .iter()
        .any(|t| t.spans.flags.iter().any(|f| f & SPAN_ABANDONED != 0))
}

#[test]
fn call_totals_equal_the_report() {
    let mut formats = HashSet::new();
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        let r = report(&trace);
        if r.functions.is_empty() {
            continue;
        }
        formats.insert(r.format.clone());
        let profile = read_back(&trace);
        let read = Reader::new(&profile);
        let what = format!("{group}/{case}");
        let time = read.column("time").expect("a time column");
        let calls = read.column("calls").expect("a calls column");
        assert_eq!(
            read.str(profile.sample_type[time].unit),
            match r.time_unit.as_str() {
                "ns" => "nanoseconds",
                "us" => "microseconds",
                _ => "events",
            }
        );
        assert_eq!(read.str(profile.default_sample_type), "time", "{what}");
        let times = read.by_function(time);
        let counts = read.by_function(calls);
        for f in &r.functions {
            let (flat, cum) = times.get(f.name.as_str()).copied().unwrap_or_default();
            assert_eq!(flat, f.self_time, "{what}: {} self", f.name);
            if !has_abandoned(&trace) {
                assert_eq!(cum, f.total, "{what}: {} total", f.name);
            }
            let (called, _) = counts.get(f.name.as_str()).copied().unwrap_or_default();
            assert_eq!(called as u64, f.calls, "{what}: {} calls", f.name);
        }
        let self_sum: i64 = r.functions.iter().map(|f| f.self_time).sum();
        assert_eq!(read.sum(time), self_sum, "{what}");
    }
    for format in ["uftrace", "scaler", "swap", "sp-rtrace", "selogger"] {
        assert!(formats.contains(format), "{format} has calls: {formats:?}");
    }
}

#[test]
fn allocation_totals_equal_the_report() {
    let mut seen = 0;
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        let r = report(&trace);
        if r.resources.is_empty() {
            continue;
        }
        seen += 1;
        let profile = read_back(&trace);
        let read = Reader::new(&profile);
        for resource in &r.resources {
            let prefix = if resource.resource == "memory" {
                String::new()
            } else {
                format!("{} ", resource.resource)
            };
            let sum = |name: &str| {
                let column = read
                    .column(&format!("{prefix}{name}"))
                    .unwrap_or_else(|| panic!("{group}/{case}: {prefix}{name}"));
                read.sum(column) as u64
            };
            let what = format!("{group}/{case} {}", resource.resource);
            assert_eq!(sum("alloc_objects"), resource.totals.allocs, "{what}");
            assert_eq!(sum("alloc_space"), resource.totals.alloc_bytes, "{what}");
            assert_eq!(sum("inuse_objects"), resource.totals.live_blocks, "{what}");
            assert_eq!(sum("inuse_space"), resource.totals.live_bytes, "{what}");
        }
    }
    assert!(seen >= 3, "sp-rtrace and SWAP fixtures have allocations");
}

/// Per thread, the sample counts of every set add up to the report's samples.
#[test]
fn sample_counts_equal_the_report_per_thread() {
    let mut seen = 0;
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        if trace.sample_sets.is_empty() {
            continue;
        }
        seen += 1;
        let r = report(&trace);
        let profile = read_back(&trace);
        let read = Reader::new(&profile);
        let columns: Vec<usize> = profile
            .sample_type
            .iter()
            .enumerate()
            .filter(|(_, t)| read.str(t.r#type).ends_with(" samples"))
            .map(|(i, _)| i)
            .collect();
        let total: i64 = columns.iter().map(|&c| read.sum(c)).sum();
        let in_sets: usize = trace.sample_sets.iter().map(|s| s.len()).sum();
        assert_eq!(total as usize, in_sets, "{group}/{case}");
        for thread in &r.threads {
            let label = format!("{} {}", thread.name, thread.id);
            let on_thread: i64 = profile
                .sample
                .iter()
                .filter(|s| s.label.iter().any(|l| read.str(l.str) == label))
                .map(|s| columns.iter().map(|&c| s.value[c]).sum::<i64>())
                .sum();
            assert_eq!(on_thread as u64, thread.samples, "{group}/{case} {label}");
        }
    }
    assert!(seen > 0, "some fixture has sample sets");
}
