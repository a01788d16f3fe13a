//! uftrace's read triggers as numbers (`analysis::read_events`): the
//! per-call deltas equal the `diff:` comments `uftrace replay` printed in
//! each function block of `reference/replay.txt`, the tree columns equal
//! their sums per call path, and the counter tracks hold every value
//! `uftrace dump` printed for a `read:` event, at its timestamp.

mod common;

use common::{decode_case, reference};
use flamedrop_core::analysis::read_events::{
    bottom_up_deltas, call_deltas, read_counters, top_down_deltas, DeltaColumn, Quantity,
};
use flamedrop_core::analysis::{bottom_up, build_call_tree, Source};
use flamedrop_core::Trace;
use std::collections::BTreeMap;

/// The cases recorded with read triggers.
const CASES: [&str; 2] = ["i-events", "i-read-events"];

/// One call with the diffs uftrace printed inside its block: (tid, path of
/// function names from the outermost call, [(quantity name, value)]).
type Call = (String, Vec<String>, Vec<(String, i64)>);

/// The quantity name of one of uftrace's labels in a `diff:` comment.
fn quantity_name(event: &str, label: &str) -> Option<&'static str> {
    Some(match (event, label) {
        ("proc/statm", "vmsize") => "vmsize",
        ("proc/statm", "vmrss") => "vmrss",
        ("proc/statm", "shared") => "shared",
        ("page-fault", "major") => "major faults",
        ("page-fault", "minor") => "minor faults",
        ("pmu-cycle", "cycles") => "cycles",
        ("pmu-cycle", "instructions") => "instructions",
        ("pmu-cache", "refers") => "cache references",
        ("pmu-cache", "misses") => "cache misses",
        ("pmu-branch", "branch") => "branches",
        ("pmu-branch", "misses") => "branch misses",
        // IPC=, hit=, predict= are ratios uftrace adds, not recorded values.
        _ => return None,
    })
}

/// `diff:proc/statm (vmsize=+0KB vmrss=+64KB shared=+0KB)` → values, each
/// `+%PRIu64` read back as the signed difference it stands for.
fn diff_values(comment: &str) -> Vec<(String, i64)> {
    let Some(rest) = comment.strip_prefix("diff:") else {
        return Vec::new();
    };
    let (event, values) = rest.split_once(" (").expect("diff values");
    values
        .trim_end_matches(')')
        .split(' ')
        .filter_map(|pair| {
            let (label, value) = pair.split_once("=+")?;
            let name = quantity_name(event, label)?;
            let digits = value.trim_end_matches("KB");
            let value = digits.parse::<u64>().expect("number") as i64;
            Some((name.to_owned(), value))
        })
        .collect()
}

/// The calls of `replay.txt` that hold `diff:` comments, in the order they
/// were entered, each diff given to the block around it.
fn reference_calls(replay: &str) -> Vec<Call> {
    let mut calls: Vec<Call> = Vec::new();
    // Per tid: the open blocks (index into `calls`).
    let mut open: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for line in replay.lines().filter(|l| !l.starts_with('#')) {
        let Some((head, text)) = line.split_once(" | ") else {
            continue;
        };
        let tid = head.split('[').nth(1).and_then(|r| r.split(']').next());
        let tid = tid.expect("tid").trim().to_owned();
        let text = text.trim();
        let stack = open.entry(tid.clone()).or_default();
        if let Some(name) = text.strip_suffix("() {") {
            let mut path = stack
                .last()
                .map(|&c| calls[c].1.clone())
                .unwrap_or_default();
            path.push(name.to_owned());
            calls.push((tid, path, Vec::new()));
            stack.push(calls.len() - 1);
        } else if text.starts_with("} /* ") {
            stack.pop();
        } else if let Some(comment) = text.strip_prefix("/* ").and_then(|t| t.strip_suffix(" */")) {
            let values = diff_values(comment);
            if !values.is_empty() {
                let at = *stack.last().expect("a diff inside a function block");
                calls[at].2.extend(values);
            }
        }
    }
    calls.retain(|c| !c.2.is_empty());
    calls
}

/// Our per-call deltas in the same form, calls in span order per thread.
fn our_calls(trace: &Trace) -> Vec<Call> {
    let deltas = call_deltas(trace);
    let mut out = Vec::new();
    for (t, thread) in trace.threads.iter().enumerate() {
        let mut path: Vec<(u16, String)> = Vec::new();
        for s in 0..thread.spans.len() {
            let depth = thread.spans.depth[s];
            path.retain(|(d, _)| *d < depth);
            path.push((depth, trace.str(thread.spans.name[s]).to_owned()));
            let of = deltas.of(t, s as u32);
            if of.is_empty() {
                continue;
            }
            let names = path.iter().map(|(_, n)| n.clone()).collect();
            let values = of
                .iter()
                .map(|d| (d.quantity.name().to_owned(), d.value))
                .collect();
            out.push((thread.id.clone(), names, values));
        }
    }
    out
}

#[test]
fn per_call_deltas_equal_uftrace_replays_diff_comments() {
    for case in CASES {
        let trace = decode_case("uftrace-extra", case);
        let theirs = reference_calls(&reference("uftrace-extra", case, "replay.txt"));
        assert!(theirs.len() >= 2, "{case}: {theirs:?}");
        assert_eq!(our_calls(&trace), theirs, "{case}");
    }
}

#[test]
fn the_first_work_call_of_i_events_gained_64_kb_and_16_faults() {
    let trace = decode_case("uftrace-extra", "i-events");
    let calls = our_calls(&trace);
    let (_, path, values) = &calls[0];
    assert_eq!(path, &["main", "work"]);
    assert!(values.contains(&("vmrss".to_owned(), 64)));
    assert!(values.contains(&("minor faults".to_owned(), 16)));
}

#[test]
fn a_freed_mapping_is_a_negative_delta() {
    let trace = decode_case("uftrace-extra", "i-read-events");
    let release: Vec<i64> = our_calls(&trace)
        .into_iter()
        .filter(|(_, path, _)| path.last().is_some_and(|n| n == "release"))
        .flat_map(|(_, _, v)| v.into_iter().filter(|(q, _)| q == "vmrss").map(|(_, v)| v))
        .collect();
    // uftrace printed +18446744073709551100KB and +18446744073709550588KB.
    assert_eq!(release, vec![-516, -1028]);
}

/// The reference's diffs summed per call path (column quantities only).
fn sums_by_path(calls: &[Call], column: DeltaColumn) -> BTreeMap<Vec<String>, i64> {
    let counted: &[&str] = match column {
        DeltaColumn::Rss => &["vmrss"],
        DeltaColumn::Faults => &["major faults", "minor faults"],
        _ => &[],
    };
    let mut out: BTreeMap<Vec<String>, i64> = BTreeMap::new();
    for (_, path, values) in calls {
        for (q, v) in values {
            if counted.contains(&q.as_str()) {
                *out.entry(path.clone()).or_default() += v;
            }
        }
    }
    out
}

#[test]
fn tree_columns_sum_the_reference_diffs_per_path() {
    for case in CASES {
        let trace = decode_case("uftrace-extra", case);
        let calls = reference_calls(&reference("uftrace-extra", case, "replay.txt"));
        let threads: Vec<u32> = (0..trace.threads.len() as u32).collect();
        let source = Source::Spans {
            threads: threads.clone(),
        };
        let tree = build_call_tree(&trace, &source, None);
        let deltas = top_down_deltas(&trace, &threads, None, &tree, &call_deltas(&trace));
        assert_eq!(
            deltas.columns,
            vec![DeltaColumn::Rss, DeltaColumn::Faults],
            "{case}"
        );
        for (c, &column) in deltas.columns.iter().enumerate() {
            let mut ours = BTreeMap::new();
            for n in 1..tree.nodes.len() as u32 {
                if let Some(v) = deltas.get(c, n) {
                    let path = tree
                        .path_to(n)
                        .iter()
                        .map(|&p| trace.str(tree.nodes[p as usize].name).to_owned())
                        .collect();
                    ours.insert(path, v);
                }
            }
            assert_eq!(ours, sums_by_path(&calls, column), "{case} {column:?}");
        }
        // Bottom-up: no function here calls itself, so a function's row
        // sums every call of it.
        let inverted = bottom_up(&tree);
        let up = bottom_up_deltas(&tree, &deltas, &inverted);
        for &root in &inverted.root().children {
            let name = trace.str(inverted.nodes[root as usize].name);
            let expected: i64 = sums_by_path(&calls, DeltaColumn::Rss)
                .iter()
                .filter(|(p, _)| p.last().is_some_and(|n| n == name))
                .map(|(_, v)| v)
                .sum();
            assert_eq!(up.get(0, root).unwrap_or(0), expected, "{case} {name}");
        }
    }
}

/// The Δ rss of every node of thread 0's top-down tree within `range`.
fn rss_in_range(trace: &Trace, range: (i64, i64)) -> Vec<(String, i64)> {
    let source = Source::Spans { threads: vec![0] };
    let tree = build_call_tree(trace, &source, Some(range));
    let deltas = top_down_deltas(trace, &[0], Some(range), &tree, &call_deltas(trace));
    (1..tree.nodes.len() as u32)
        .filter_map(|n| {
            Some((
                trace.str(tree.nodes[n as usize].name).to_owned(),
                deltas.get(0, n)?,
            ))
        })
        .collect()
}

#[test]
fn a_range_counts_the_calls_that_exit_inside_it() {
    let trace = decode_case("uftrace-extra", "i-read-events");
    let spans = &trace.threads[0].spans;
    let grows: Vec<usize> = (0..spans.len())
        .filter(|&s| trace.str(spans.name[s]) == "grow")
        .collect();
    let of = |s: usize| (spans.start[s], spans.end[s]);
    // main's exit is outside the range: only the first grow counts.
    assert_eq!(
        rss_in_range(&trace, of(grows[0])),
        vec![("grow".to_owned(), 516)]
    );
    // The second grow alone: the calls with deltas before it are outside.
    assert_eq!(
        rss_in_range(&trace, of(grows[1])),
        vec![("grow".to_owned(), 1028)]
    );
}

/// (time in ns as the trace keeps it, quantity name, value) of every
/// `read:` event `uftrace dump` printed.
fn dumped_reads(dump: &str) -> Vec<(i64, String, i64)> {
    let mut out = Vec::new();
    let mut time = None;
    for line in dump.lines() {
        if line.contains("[event] read:") {
            let stamp = line.split_whitespace().next().expect("timestamp");
            let (s, ns) = stamp.split_once('.').expect("sec.nsec");
            time = Some(s.parse::<i64>().unwrap() * 1_000_000_000 + ns.parse::<i64>().unwrap());
        } else if let Some(rest) = line.trim().strip_prefix("read:") {
            let (event, values) = rest.split_once(": ").expect("values");
            for pair in values.split(' ') {
                let (label, value) = pair.split_once('=').expect("pair");
                let name = quantity_name(event, label).expect("known label");
                let value = value.trim_end_matches("KB").parse().expect("number");
                out.push((time.expect("event line first"), name.to_owned(), value));
            }
        }
    }
    out
}

#[test]
fn counters_hold_every_read_value_at_its_time() {
    for case in CASES {
        let trace = decode_case("uftrace-extra", case);
        let counters = read_counters(&trace);
        let names: Vec<&str> = counters.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["vmsize", "vmrss", "shared", "major faults", "minor faults"],
            "{case}"
        );
        let reads = dumped_reads(&reference("uftrace-extra", case, "dump.txt"));
        assert!(reads.len() >= 10, "{case}: {reads:?}");
        for (time, name, value) in &reads {
            let counter = counters.iter().find(|c| &c.name == name).expect("track");
            let at = counter.time.iter().position(|t| t == time);
            let at = at.unwrap_or_else(|| panic!("{case}: no {name} sample at {time}"));
            assert_eq!(counter.value[at], *value as f64, "{case} {name} at {time}");
        }
        let diffs = reference_calls(&reference("uftrace-extra", case, "replay.txt"));
        for counter in &counters {
            assert!(counter.time.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(counter.process, Some(0));
            let quantity = Quantity::from_name(&counter.name).expect("quantity");
            assert_eq!(counter.unit, quantity.unit());
            // A sample at each read, and one at the exit of each call with
            // a diff of it.
            let read_count = reads.iter().filter(|r| r.1 == counter.name).count();
            let diff_count = diffs
                .iter()
                .filter(|c| c.2.iter().any(|v| v.0 == counter.name))
                .count();
            assert_eq!(
                counter.time.len(),
                read_count + diff_count,
                "{case} {}",
                counter.name
            );
        }
        // Faults are cumulative counts since the process started.
        let minor = counters
            .iter()
            .find(|c| c.name == "minor faults")
            .expect("minor");
        assert!(minor.value.windows(2).all(|w| w[0] <= w[1]), "{case}");
    }
}

#[test]
fn traces_without_read_triggers_have_nothing() {
    let trace = decode_case("uftrace-extra", "i-max-stack");
    assert!(call_deltas(&trace).is_empty());
    assert!(read_counters(&trace).is_empty());
}
