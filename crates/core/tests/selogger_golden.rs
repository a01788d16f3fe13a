//! Golden tests for SELogger: every binary case against SELogger's own
//! LogPrinter output (per-thread event counts, per-method METHOD_ENTRY
//! counts), the text-stream cases against the numbers in their README, the
//! near-omniscient and frequency cases against their README totals, and the
//! truncated 0.4 JSON.

mod common;

use common::{fixtures, read_folder, reference};
use flamedrop_core::analysis::calltree::{build, Source};
use flamedrop_core::analysis::report::report;
use flamedrop_core::{decode_files, Trace};
use std::collections::{BTreeMap, BTreeSet};

const GROUP: &str = "selogger";

fn decode(case: &str) -> Trace {
    common::checked(
        decode_files(&read_folder(&fixtures().join(GROUP).join(case))).expect("decodes"),
    )
}

fn readme(case: &str) -> String {
    std::fs::read_to_string(fixtures().join(GROUP).join(case).join("README.md")).expect("README")
}

/// (class with dots, method, descriptor) → METHOD_ENTRY count.
type EntryCounts = BTreeMap<(String, String, String), u64>;

/// Per-thread event counts and per-method entry counts from LogPrinter lines:
/// `EventId=..,EventType=..,ThreadId=..,...,method:<methods.txt row>,...`.
fn logprinter_counts(text: &str) -> (BTreeMap<String, u64>, EntryCounts, u64) {
    let mut threads = BTreeMap::new();
    let mut entries = EntryCounts::new();
    let mut events = 0;
    for line in text.lines().filter(|l| l.starts_with("EventId=")) {
        events += 1;
        let field = |key: &str| {
            line.split(',')
                .find_map(|f| f.strip_prefix(key))
                .unwrap_or_else(|| panic!("{key} in {line}"))
        };
        *threads.entry(field("ThreadId=").to_owned()).or_insert(0) += 1;
        if field("EventType=") == "METHOD_ENTRY" {
            let row: Vec<&str> = line
                .split_once(",method:")
                .expect("method row")
                .1
                .split(',')
                .collect();
            let key = (
                row[2].replace('/', "."),
                row[3].to_owned(),
                row[4].to_owned(),
            );
            *entries.entry(key).or_insert(0) += 1;
        }
    }
    (threads, entries, events)
}

/// Every method span as ((class, method, descriptor), span name); method
/// spans are the ones with `class`, `method` and `descriptor` details.
fn method_spans(trace: &Trace) -> Vec<((String, String, String), String)> {
    let mut spans = Vec::new();
    for thread in &trace.threads {
        for index in 0..thread.spans.len() as u32 {
            let details = thread.spans.details_of(index, &trace.strings);
            let get = |key: &str| {
                details
                    .iter()
                    .find(|f| f.key == key)
                    .map(|f| f.value.clone())
            };
            if let (Some(class), Some(method), Some(desc)) =
                (get("class"), get("method"), get("descriptor"))
            {
                let name = trace.strings.get(thread.spans.name[index as usize]);
                spans.push(((class, method, desc), name.to_owned()));
            }
        }
    }
    spans
}

/// Our per-thread event counts and per-method span counts.
fn decoded_counts(trace: &Trace) -> (BTreeMap<String, u64>, EntryCounts) {
    let threads = trace
        .threads
        .iter()
        .map(|t| (t.id.clone(), t.events))
        .collect();
    let mut entries = EntryCounts::new();
    for (method, _) in method_spans(trace) {
        *entries.entry(method).or_insert(0) += 1;
    }
    (threads, entries)
}

#[test]
fn binary_cases_match_logprinter_per_thread_and_per_method() {
    let cases = [
        "demo-v040-omni",
        "demo-v051-omnibinary",
        "demo-v060-omnibinary",
        "bridge-v060-omnibinary",
    ];
    for case in cases {
        let trace = decode(case);
        let (want_threads, want_entries, want_events) =
            logprinter_counts(&reference(GROUP, case, "LogPrinter.txt"));
        let (threads, entries) = decoded_counts(&trace);
        assert_eq!(threads, want_threads, "{case}: per-thread events");
        assert_eq!(entries, want_entries, "{case}: per-method entries");
        assert_eq!(threads.values().sum::<u64>(), want_events, "{case}");
        let r = report(&trace);
        let calls: u64 = r
            .functions
            .iter()
            .filter(|f| !f.name.starts_with("call "))
            .map(|f| f.calls)
            .sum();
        assert_eq!(
            calls,
            want_entries.values().sum::<u64>(),
            "{case}: report calls"
        );
        assert_eq!(r.time_unit, "events");
        assert!(
            trace.diagnostics.iter().all(|d| d.kind == "ignored-files"),
            "{case}: {:?}",
            trace.diagnostics
        );
    }
}

/// Numbers from a README line like `events: **7394**; per SELogger thread ID: 0: 3502, 1: 1284`.
fn readme_numbers(case: &str) -> (u64, BTreeMap<String, u64>, u64) {
    let text = readme(case);
    let line = text
        .lines()
        .find(|l| l.starts_with("- events: **"))
        .expect("events line");
    let events = line["- events: **".len()..]
        .split("**")
        .next()
        .and_then(|n| n.parse().ok())
        .expect("event count");
    let threads = line
        .split_once("per SELogger thread ID: ")
        .expect("threads")
        .1
        .split(", ")
        .map(|pair| {
            let (id, n) = pair.split_once(": ").expect("id: n");
            (id.to_owned(), n.trim().parse().expect("count"))
        })
        .collect();
    let entries = text
        .lines()
        .find_map(|l| l.strip_prefix("- METHOD_ENTRY: "))
        .and_then(|l| l.split(';').next())
        .and_then(|n| n.parse().ok())
        .expect("METHOD_ENTRY count");
    (events, threads, entries)
}

#[test]
fn text_stream_cases_match_their_readme() {
    for case in [
        "demo-v051-omni-text",
        "demo-v060-omni-text",
        "demo-v060-omni-text-timestamp",
        "bridge-v060-omni-text",
    ] {
        let trace = decode(case);
        let (events, want_threads, want_entries) = readme_numbers(case);
        let (threads, entries) = decoded_counts(&trace);
        assert_eq!(threads, want_threads, "{case}");
        assert_eq!(threads.values().sum::<u64>(), events, "{case}");
        assert_eq!(entries.values().sum::<u64>(), want_entries, "{case}");
    }
}

#[test]
fn binary_and_text_streams_of_one_version_give_the_same_spans() {
    let binary = decode("demo-v060-omnibinary");
    let text = decode("demo-v060-omni-text");
    // Different runs, same program: the per-method entry counts agree.
    assert_eq!(decoded_counts(&binary).1, decoded_counts(&text).1);
}

/// (class, method, descriptor) → the names of the method spans of that method.
fn span_names_per_method(trace: &Trace) -> BTreeMap<(String, String, String), BTreeSet<String>> {
    let mut names: BTreeMap<_, BTreeSet<String>> = BTreeMap::new();
    for (method, name) in method_spans(trace) {
        names.entry(method).or_default().insert(name);
    }
    names
}

/// Issue 23: a bridge method (javac's `createInstance(...)Object` beside
/// `createInstance(...)Format`, two `copy()` bridges beside `copy()Ring`)
/// has the name and parameters of the method it calls; SELogger gives each
/// its own method id, so each is its own report row, call-tree node and
/// flame-graph key, with LogPrinter's METHOD_ENTRY count.
#[test]
fn bridge_methods_are_rows_of_their_own() {
    let (_, want_entries, _) = logprinter_counts(&reference(
        GROUP,
        "bridge-v060-omnibinary",
        "LogPrinter.txt",
    ));
    for case in ["bridge-v060-omnibinary", "bridge-v060-omni-text"] {
        let trace = decode(case);
        let names = span_names_per_method(&trace);
        assert_eq!(
            names.keys().collect::<Vec<_>>(),
            want_entries.keys().collect::<Vec<_>>(),
            "{case}: methods entered"
        );
        let calls: BTreeMap<String, u64> = report(&trace)
            .functions
            .into_iter()
            .map(|f| (f.name, f.calls))
            .collect();
        let mut seen = BTreeSet::new();
        for (method, count) in &want_entries {
            let name = names[method].iter().next().expect("a name");
            assert_eq!(names[method].len(), 1, "{case}: {method:?} has one name");
            assert!(
                seen.insert(name.clone()),
                "{case}: {name} names two methods"
            );
            assert_eq!(calls.get(name), Some(count), "{case}: report row {name}");
        }
        let main = Source::Spans {
            threads: (0..trace.threads.len() as u32).collect(),
        };
        let tree = build(&trace, &main, None);
        let nodes: BTreeSet<&str> = tree
            .nodes
            .iter()
            .skip(1)
            .map(|n| trace.strings.get(n.name))
            .collect();
        for name in [
            "bridge.FormatFactory.createInstance(String, TimeZone, Locale) : Format",
            "bridge.FormatFactory.createInstance(String, TimeZone, Locale) : Object (bridge)",
            "bridge.Ring.copy() : Ring",
            "bridge.Ring.copy() : Circle (bridge)",
            "bridge.Ring.copy() : Shape (bridge)",
            "bridge.Version.compareTo(Version)",
            "bridge.Version.compareTo(Object)",
        ] {
            assert!(calls.contains_key(name), "{case}: no report row {name}");
            assert!(nodes.contains(name), "{case}: no call-tree node {name}");
        }
    }
}

/// The frequency output of the same program: no timeline, but the
/// frequency flame graph keeps each bridge method apart from the method it
/// calls, under the names the event-stream views give them, each weighing
/// the events recorded inside it (the hot-methods row of its descriptor).
#[test]
fn bridge_methods_are_frames_of_their_own_in_the_frequency_flame_graph() {
    let trace = decode("bridge-v060-freq");
    let hot = trace
        .tables
        .iter()
        .find(|t| t.id == "hot-methods")
        .expect("hot methods");
    let tree = build(&trace, &Source::Samples { set: 0, weight: 0 }, None);
    let totals: BTreeMap<&str, i64> = tree
        .nodes
        .iter()
        .skip(1)
        .map(|n| (trace.strings.get(n.name), n.total))
        .collect();
    let create = "(Ljava/lang/String;Ljava/util/TimeZone;Ljava/util/Locale;)";
    for (name, desc) in [
        (
            "bridge.FormatFactory.createInstance(String, TimeZone, Locale) : Format",
            format!("{create}Lbridge/Format;"),
        ),
        (
            "bridge.FormatFactory.createInstance(String, TimeZone, Locale) : Object (bridge)",
            format!("{create}Ljava/lang/Object;"),
        ),
        ("bridge.Ring.copy() : Ring", "()Lbridge/Ring;".into()),
        (
            "bridge.Ring.copy() : Circle (bridge)",
            "()Lbridge/Circle;".into(),
        ),
        (
            "bridge.Ring.copy() : Shape (bridge)",
            "()Lbridge/Shape;".into(),
        ),
    ] {
        let row = hot
            .rows
            .iter()
            .find(|r| r[1] == desc && name.starts_with(&format!("{}(", r[0])))
            .unwrap_or_else(|| panic!("hot-methods row for {name}"));
        assert_eq!(
            totals.get(name),
            Some(&row[3].parse().expect("events")),
            "{name}"
        );
    }
}

#[test]
fn the_timestamp_column_is_kept_as_a_span_detail() {
    let trace = decode("demo-v060-omni-text-timestamp");
    let main = &trace.threads[0].spans;
    let with_ms = (0..main.len() as u32)
        .filter(|&i| {
            main.details_of(i, &trace.strings)
                .iter()
                .any(|f| f.key == "time (ms)")
        })
        .count();
    assert!(with_ms > 0);
    assert!(trace.metadata.iter().any(|(k, _)| k == "timestamps"));
    let plain = decode("demo-v060-omni-text");
    assert!(!plain.metadata.iter().any(|(k, _)| k == "timestamps"));
}

#[test]
fn method_spans_of_every_dialect_have_a_source_line() {
    for case in [
        "demo-v040-omni",
        "demo-v051-omnibinary",
        "demo-v060-omnibinary",
    ] {
        let trace = decode(case);
        let spans = &trace.threads[0].spans;
        let main = (0..spans.len() as u32)
            .find(|&i| trace.str(spans.name[i as usize]) == "demo.TraceDemo.main")
            .expect("main");
        let details = spans.details_of(main, &trace.strings);
        let line = details.iter().find(|f| f.key == "line");
        assert!(
            line.is_some_and(|f| f.value.parse::<i64>().is_ok_and(|l| l > 0)),
            "{case}"
        );
    }
}

#[test]
fn exceptional_exits_carry_the_exception_type_and_message() {
    let trace = decode("demo-v060-omnibinary");
    let mut exceptions = Vec::new();
    for t in &trace.threads {
        for i in 0..t.spans.len() as u32 {
            for f in t.spans.details_of(i, &trace.strings) {
                if f.key == "exception" {
                    exceptions.push(f.value.clone());
                }
            }
        }
    }
    assert!(exceptions
        .iter()
        .any(|e| e == "demo.InsufficientFundsException: need 500, have 100"));
    assert!(exceptions
        .iter()
        .any(|e| e.contains("wrapped: line1\nline2, with comma")));
}

#[test]
fn spans_have_readable_signatures_and_decoded_values() {
    let trace = decode("demo-v060-omnibinary");
    let strings = &trace.strings;
    let all: Vec<String> = trace
        .threads
        .iter()
        .flat_map(|t| {
            (0..t.spans.len() as u32).flat_map(move |i| {
                t.spans
                    .details_of(i, strings)
                    .into_iter()
                    .map(|f| format!("{}={}", f.key, f.value))
            })
        })
        .collect();
    assert!(all.contains(
        &"signature=demo.TraceDemo.primitives(byte, short, char, float, double, long, boolean) : double"
            .to_owned()
    ));
    assert!(
        all.iter()
            .any(|d| d.starts_with("param 3") && d.ends_with("-1.5")),
        "a negative float parameter"
    );
    assert!(all.iter().any(|d| d == "source=TraceDemo.java"));
    assert!(
        all.iter().any(|d| d == "param 0=label = \"default\""),
        "string contents from LOG$String"
    );
}

/// `key=value` pairs from the README's facts line of a near-omniscient or freq case.
fn readme_fact(case: &str, key: &str) -> u64 {
    let text = readme(case);
    let needle = format!("{key}=");
    text.lines()
        .filter(|l| l.starts_with("- `"))
        .find_map(|l| {
            let at = l.find(&needle)? + needle.len();
            l[at..].split([',', ' ']).next()?.parse().ok()
        })
        .unwrap_or_else(|| panic!("{case}: {key}"))
}

#[test]
fn near_omniscient_and_frequency_cases_match_their_readme_totals() {
    let cases = [
        ("demo-v040-freq", "rows", "total_count"),
        ("demo-v040-nearomni-json", "entries", "total_freq"),
        ("demo-v040-nearomni-txt", "rows", "total_freq"),
        ("demo-v051-nearomni-json", "entries", "total_freq"),
        ("demo-v060-freq", "entries", "total_freq"),
        ("bridge-v060-freq", "entries", "total_freq"),
        ("demo-v060-nearomni-json", "entries", "total_freq"),
        ("demo-v060-nearomni-txt", "rows", "total_freq"),
    ];
    for (case, rows_key, total_key) in cases {
        let trace = decode(case);
        let table = trace
            .tables
            .iter()
            .find(|t| t.id == "event-frequency")
            .unwrap_or_else(|| panic!("{case}: event-frequency table"));
        assert_eq!(
            table.rows.len() as u64,
            readme_fact(case, rows_key),
            "{case}"
        );
        let total: u64 = table
            .rows
            .iter()
            .map(|r| r[4].parse::<u64>().expect("count"))
            .sum();
        assert_eq!(total, readme_fact(case, total_key), "{case}");
        let set = &trace.sample_sets[0];
        assert_eq!(set.weights[0].iter().sum::<i64>() as u64, total, "{case}");
        assert!(set.time.is_empty() && !set.note.is_empty());
        assert!(trace.tables.iter().any(|t| t.id == "hot-methods"));
        let near = case.contains("nearomni");
        assert_eq!(
            trace.tables.iter().any(|t| t.id == "recent-values"),
            near,
            "{case}"
        );
        assert!(trace.diagnostics.iter().any(|d| d.kind == "no-timeline"));
        assert!(
            !trace
                .diagnostics
                .iter()
                .any(|d| d.kind == "unknown-data-id"),
            "{case}"
        );
        if let Ok(kept) = std::panic::catch_unwind(|| readme_fact(case, "values_kept")) {
            let recent = trace
                .tables
                .iter()
                .find(|t| t.id == "recent-values")
                .expect("recent");
            let ours: u64 = recent
                .rows
                .iter()
                .map(|r| r[4].parse::<u64>().expect("kept"))
                .sum();
            assert_eq!(ours, kept, "{case}: values kept");
        }
    }
}

#[test]
fn hot_methods_count_method_entries() {
    let trace = decode("demo-v060-freq");
    let hot = trace
        .tables
        .iter()
        .find(|t| t.id == "hot-methods")
        .expect("hot");
    let calls: u64 = hot
        .rows
        .iter()
        .map(|r| r[2].parse::<u64>().expect("calls"))
        .sum();
    let (_, _, entries) = readme_numbers("demo-v060-omnibinary");
    assert_eq!(calls, entries);
}

#[test]
fn the_truncated_04_json_keeps_what_is_readable_and_says_where_it_broke() {
    let case = "demo-v040-nearomni-json-truncated";
    let trace = decode(case);
    let size = std::fs::metadata(fixtures().join(GROUP).join(case).join("recentdata.json"))
        .expect("file")
        .len();
    let cut = trace
        .diagnostics
        .iter()
        .find(|d| d.kind == "truncated-json")
        .expect("truncation reported");
    assert_eq!(cut.offset, Some(size));
    assert!(cut
        .file
        .as_deref()
        .is_some_and(|f| f.ends_with("recentdata.json")));
    let table = trace
        .tables
        .iter()
        .find(|t| t.id == "event-frequency")
        .expect("table");
    assert!(table.rows.len() > 100, "{} rows kept", table.rows.len());
}

#[test]
fn a_real_stream_cut_anywhere_keeps_the_events_before_the_cut() {
    let case = "demo-v060-omnibinary";
    let files = read_folder(&fixtures().join(GROUP).join(case));
    let slg = files
        .iter()
        .position(|(p, _)| p.ends_with("log-00001.slg"))
        .expect("slg");
    let length = files[slg].1.len();
    for cut in (0..length).step_by(4999) {
        let mut cut_files = files.clone();
        cut_files[slg].1.truncate(cut);
        let trace = decode_files(&cut_files).expect("decodes");
        let events: u64 = trace.threads.iter().map(|t| t.events).sum();
        assert_eq!(events, (cut / 16) as u64, "cut at {cut}");
        if cut % 16 != 0 {
            let d = trace
                .diagnostics
                .iter()
                .find(|d| d.kind == "truncated-record")
                .expect("reported");
            assert_eq!(d.offset, Some((cut / 16 * 16) as u64));
        }
        let _ = report(&trace);
    }
}
