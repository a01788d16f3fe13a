//! Scaler: every shared case decodes to the trees of its `reference/tree.txt`
//! (the independent decoder's dump): per-thread node counts and depths,
//! per-function call counts, and each returned call's start and end.

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::analysis::report;
use flamedrop_core::model::{Field, SPAN_OPEN_AT_END};
use flamedrop_core::{decode_files, Trace};
use std::collections::BTreeMap;

/// One thread section of `tree.txt`.
#[derive(Debug, Default)]
struct RefThread {
    file: String,
    nodes: u64,
    max_depth: u32,
    /// (name, start, end) of every non-root node.
    calls: Vec<(String, i64, i64)>,
}

/// `key=value` of a node line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|w| w.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

fn parse_reference(text: &str) -> Vec<RefThread> {
    let mut threads: Vec<RefThread> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== ") {
            let file = rest.split_whitespace().next().unwrap().to_owned();
            threads.push(RefThread {
                file,
                nodes: field(line, "nodes").parse().unwrap(),
                max_depth: field(line, "maxdepth").parse().unwrap(),
                ..RefThread::default()
            });
            continue;
        }
        let trimmed = line.trim_start();
        if !trimmed.starts_with('[') || trimmed.starts_with("[0]") {
            continue;
        }
        let mut name = field(line, "name").to_owned();
        if name == "-" {
            // No symbol.json: the documented fallback name.
            let id = |v: &str| {
                if v == "-1" {
                    "?".to_owned()
                } else {
                    v.to_owned()
                }
            };
            name = format!(
                "file{}/func{}",
                id(field(line, "fileID")),
                id(field(line, "funcID"))
            );
        }
        let t = threads.last_mut().expect("a section");
        t.calls.push((
            name,
            field(line, "start").parse().unwrap(),
            field(line, "end").parse().unwrap(),
        ));
    }
    threads
}

fn case(name: &str) -> (Trace, Vec<RefThread>) {
    let dir = fixtures().join("scaler").join(name);
    let files: Vec<(String, Vec<u8>)> = read_folder(&dir)
        .into_iter()
        .filter(|(path, _)| !path.contains("/reference/"))
        .collect();
    let trace = common::checked(decode_files(&files).expect("decodes"));
    let text = std::fs::read_to_string(dir.join("reference/tree.txt")).expect("tree.txt");
    (trace, parse_reference(&text))
}

fn tid(file: &str) -> String {
    let stem = file.trim_end_matches(".bin");
    stem.rsplit('_').next().unwrap().to_owned()
}

fn check_case(name: &str) {
    let (trace, reference) = case(name);
    let report = report(&trace);
    assert_eq!(report.format, "scaler");
    assert_eq!(report.time_unit, "us");
    assert_eq!(report.threads.len(), reference.len(), "{name}: threads");
    let mut expected_calls: BTreeMap<String, u64> = BTreeMap::new();
    for r in &reference {
        let thread = report
            .threads
            .iter()
            .find(|t| t.id == tid(&r.file))
            .unwrap_or_else(|| panic!("{name}: no lane for {}", r.file));
        assert_eq!(thread.events, r.nodes, "{name} {}: nodes", r.file);
        assert_eq!(thread.spans, r.nodes - 1, "{name} {}: spans", r.file);
        assert_eq!(thread.max_depth, r.max_depth, "{name} {}: depth", r.file);
        for (call, _, _) in &r.calls {
            *expected_calls.entry(call.clone()).or_default() += 1;
        }
        // Every call that has both timestamps keeps them exactly.
        if r.calls.iter().all(|c| c.1 >= 0) {
            let lane = trace.threads.iter().find(|t| t.id == tid(&r.file)).unwrap();
            let s = &lane.spans;
            let mut got: Vec<(String, i64, i64)> = (0..s.len())
                .filter(|&i| s.flags[i] & SPAN_OPEN_AT_END == 0)
                .map(|i| (trace.str(s.name[i]).to_owned(), s.start[i], s.end[i]))
                .collect();
            let mut want: Vec<(String, i64, i64)> =
                r.calls.iter().filter(|c| c.2 >= 0).cloned().collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{name} {}: calls", r.file);
        }
    }
    let got_calls: BTreeMap<String, u64> = report
        .functions
        .iter()
        .map(|f| (f.name.clone(), f.calls))
        .collect();
    assert_eq!(got_calls, expected_calls, "{name}: per-function calls");
}

#[test]
fn producer_consumer_matches_the_reference() {
    check_case("a-prodcons-mutex-cond-sem");
}

#[test]
fn nested_callbacks_match_the_reference() {
    check_case("b-nested-callbacks-sync");
}

#[test]
fn the_upstream_sample_decodes_without_json() {
    check_case("upstream-unittest-sample");
    let (trace, _) = case("upstream-unittest-sample");
    let report = report(&trace);
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.message.contains("no symbol.json")));
}

#[test]
fn every_shared_case_is_checked() {
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join("scaler"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("reference/tree.txt").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "a-prodcons-mutex-cond-sem",
            "b-nested-callbacks-sync",
            "upstream-unittest-sample"
        ]
    );
}

#[test]
fn calls_are_shown_in_call_order_nested_in_their_callers() {
    let (trace, _) = case("b-nested-callbacks-sync");
    for thread in &trace.threads {
        let s = &thread.spans;
        assert!(s.start.windows(2).all(|w| w[0] <= w[1]), "{}", thread.id);
    }
    let worker = trace
        .threads
        .iter()
        .find(|t| t.id == "0x7f2135d1e6c0")
        .unwrap();
    let s = &worker.spans;
    let qsort = (0..s.len())
        .find(|&i| trace.str(s.name[i]) == "qsort")
        .unwrap();
    assert_eq!(s.depth[qsort], 0);
    assert_eq!(trace.str(s.name[qsort + 1]), "strcmp");
    assert_eq!(s.depth[qsort + 1], 1);
    assert!(s.start[qsort + 1] >= s.start[qsort] && s.end[qsort + 1] <= s.end[qsort]);
}

#[test]
fn sync_calls_carry_their_objects() {
    let (trace, _) = case("a-prodcons-mutex-cond-sem");
    let consumer = trace
        .threads
        .iter()
        .find(|t| t.id == "0x7f05e18d56c0")
        .unwrap();
    let s = &consumer.spans;
    let wait = (0..s.len())
        .find(|&i| trace.str(s.name[i]) == "pthread_cond_wait")
        .unwrap() as u32;
    assert_eq!(
        s.details_of(wait, &trace.strings),
        vec![
            Field::new("cond", "0x55f71d12b0e0"),
            Field::new("cond mutex", "0x55f71d12b0a0")
        ]
    );
    let main = trace
        .threads
        .iter()
        .find(|t| t.id == "0x7f05e24a6800")
        .unwrap();
    let joins: Vec<Vec<Field>> = (0..main.spans.len())
        .filter(|&i| trace.str(main.spans.name[i]) == "pthread_join")
        .map(|i| main.spans.details_of(i as u32, &trace.strings))
        .collect();
    assert_eq!(joins.len(), 3);
    // A join names the joined thread's pthread_t, which is a lane's id.
    for fields in joins {
        let joined = &fields[0];
        assert_eq!(joined.key, "joined thread");
        assert!(trace.threads.iter().any(|t| t.id == joined.value));
    }
}

#[test]
fn the_sync_table_lists_each_object_with_its_threads_and_waits() {
    let (trace, _) = case("a-prodcons-mutex-cond-sem");
    let table = trace
        .tables
        .iter()
        .find(|t| t.id == "sync-objects")
        .expect("sync table");
    assert_eq!(table.rows.len(), table.row_highlight.len());
    let row = |kind: &str| {
        let i = table.rows.iter().position(|r| r[0] == kind).unwrap();
        (&table.rows[i], table.row_highlight[i].clone().unwrap())
    };
    let (mutex, highlight) = row("mutex");
    assert_eq!(mutex[1], "0x55f71d12b0a0");
    let column = |name: &str| {
        table
            .columns
            .iter()
            .position(|c| c.name.starts_with(name))
            .unwrap()
    };
    assert_eq!(
        mutex[column("threads")],
        "3",
        "producer and both consumers lock it"
    );
    assert_eq!(mutex[column("calls")], "38", "19 locks and 19 unlocks");
    assert_eq!(highlight, Field::new("mutex", "0x55f71d12b0a0"));
    // The waited time is the sum of the lock calls' durations.
    let locks: i64 = trace
        .threads
        .iter()
        .flat_map(|t| {
            (0..t.spans.len())
                .filter(|&i| trace.str(t.spans.name[i]) == "pthread_mutex_lock")
                .map(move |i| t.spans.end[i] - t.spans.start[i])
        })
        .sum();
    assert_eq!(mutex[column("waited")], locks.to_string());
    let (sem, _) = row("sem");
    assert_eq!(sem[column("calls")], "16", "8 sem_wait and 8 sem_post");
    assert_eq!(
        row("cond").0[column("calls")],
        "10",
        "8 signals, a broadcast and a wait"
    );
    assert_eq!(mutex[column("thread ids")].split(' ').count(), 3);
    let kinds: Vec<&str> = table.rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(kinds, ["mutex", "cond", "sem"]);
    let (b, _) = case("b-nested-callbacks-sync");
    let kinds: Vec<String> = b.tables[0].rows.iter().map(|r| r[0].clone()).collect();
    assert_eq!(
        kinds,
        ["mutex", "rwlock", "cond", "spinlock", "barrier", "sem"]
    );
}
