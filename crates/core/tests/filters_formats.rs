//! uftrace's filter options on the other formats: the function sets and
//! call counts `report --json` gives after each option line, against
//! expectations worked out by hand from each fixture's source or reference
//! dump (each explained in one line).

mod common;

use common::{checked, fixtures, read_folder};
use flamedrop_core::analysis::report::report;
use flamedrop_core::analysis::transform::{self, Step, UftraceFilter};
use flamedrop_core::{decode_files, Trace};
use std::collections::BTreeMap;

fn decode(group: &str, case: &str) -> Trace {
    checked(decode_files(&read_folder(&fixtures().join(group).join(case))).expect("decodes"))
}

/// Calls per function after `options`.
fn calls(trace: &Trace, options: &str) -> BTreeMap<String, u64> {
    let narrowed = narrow(trace, options);
    report(&narrowed)
        .functions
        .into_iter()
        .map(|f| (f.name, f.calls))
        .collect()
}

fn narrow(trace: &Trace, options: &str) -> Trace {
    let filter = UftraceFilter::parse(options).expect("options parse");
    checked(
        transform::apply(trace, &[Step::Uftrace(filter)])
            .expect("applies")
            .trace,
    )
}

fn count(calls: &BTreeMap<String, u64>, name: &str) -> u64 {
    calls.get(name).copied().unwrap_or(0)
}

#[test]
fn scaler_nested_callbacks() {
    let trace = decode("scaler", "b-nested-callbacks-sync");
    let all = calls(&trace, "");
    // The reference dump: two threads, each with a qsort (8 strcmp callbacks)
    // and a bsearch (3 strcmp callbacks).
    assert_eq!((count(&all, "qsort"), count(&all, "bsearch")), (2, 2));
    assert_eq!(count(&all, "strcmp"), 22);

    // -F qsort: the two qsort calls and the 2 × 8 comparator calls inside them.
    let f = calls(&trace, "-F qsort");
    assert_eq!(
        f,
        BTreeMap::from([("qsort".into(), 2), ("strcmp".into(), 16)])
    );

    // -N strcmp: every strcmp goes; qsort keeps its 193 µs of self time,
    // because uftrace still counts the dropped callbacks as its children.
    let n = narrow(&trace, "-N strcmp");
    let r = report(&n);
    assert!(r.functions.iter().all(|f| f.name != "strcmp"));
    let qsort = r
        .functions
        .iter()
        .find(|f| f.name == "qsort")
        .expect("qsort");
    assert_eq!((qsort.calls, qsort.self_time), (2, 193));

    // -H qsort: qsort goes, its 16 callbacks stay (22 strcmp in all).
    let h = calls(&trace, "-H qsort");
    assert_eq!((count(&h, "qsort"), count(&h, "strcmp")), (0, 22));

    // -D 1: only the calls made by the threads themselves: no strcmp.
    let d = calls(&trace, "-D 1");
    assert_eq!((count(&d, "strcmp"), count(&d, "qsort")), (0, 2));

    // -t 10us: the strcmp calls of 10 µs or more (11, 12, 13, 14, 16 and
    // 49 µs in the dump): 6; printf (2 or 3 µs a call) disappears.
    let t = calls(&trace, "-t 10us");
    assert_eq!((count(&t, "strcmp"), count(&t, "printf")), (6, 0));

    // -C strcmp: only the paths to strcmp: qsort, bsearch and strcmp.
    let c = calls(&trace, "-C strcmp");
    let expected = [("bsearch", 2), ("qsort", 2), ("strcmp", 22)];
    assert_eq!(c, expected.map(|(n, c)| (n.to_owned(), c)).into());

    // --tid: one worker thread: its qsort, its bsearch and their 11 callbacks.
    let one = calls(&trace, "--tid 0x7f2135d1e6c0");
    let worker = [
        count(&one, "qsort"),
        count(&one, "bsearch"),
        count(&one, "strcmp"),
    ];
    assert_eq!(worker, [1, 1, 11]);
}

#[test]
fn selogger_recursion_and_call_sites() {
    let trace = decode("selogger", "demo-v060-omni-text");
    // fib(8) from main (TraceDemo.java:46): C(8) = 1 + C(7) + C(6) = 67 calls,
    // each entered from a "call" span at its call site.
    let fib = calls(&trace, "--match=glob -F demo.MathUtil.fib");
    // Under the outermost fib: all 67 fib calls and the 66 call sites inside
    // fib (the 67th call site is in main, above the filter).
    assert_eq!(count(&fib, "demo.MathUtil.fib"), 67);
    assert_eq!(count(&fib, "call demo.MathUtil.fib"), 66);
    assert_eq!(fib.len(), 2);

    // As a regex the same pattern is searched anywhere in a name, so the call
    // sites match too and the one in main starts a subtree: all 67 of each.
    let regex = calls(&trace, "-F demo.MathUtil.fib");
    assert_eq!(count(&regex, "call demo.MathUtil.fib"), 67);

    // -N on the call sites into Bank drops every Bank method with them.
    let bank = calls(&trace, "--match=glob -N 'call demo.Bank.*'");
    assert!(bank.keys().all(|name| !name.contains("Bank.")));
    assert_eq!(count(&bank, "demo.MathUtil.fib"), 67);

    // -t counts events in a trace without a clock; a time unit is an error.
    let t = calls(&trace, "-t 1000");
    assert!(t.contains_key("demo.TraceDemo.main"));
    assert_eq!(count(&t, "demo.MathUtil.fib"), 0);
    let filter = UftraceFilter::parse("-t 5us").expect("parses");
    let error = transform::apply(&trace, &[Step::Uftrace(filter)]).expect_err("no clock");
    assert!(error.message.contains("counts events"));
}

#[test]
fn rtrace_calls_and_allocation_stacks() {
    let trace = decode("rtrace", "c-leaks");
    let heap = |t: &Trace| report(t).allocations;
    let before = heap(&trace);

    // -F malloc: only the 45 malloc calls, and only the allocations whose
    // stack holds malloc (the others came from calloc, realloc, memalign).
    let f = narrow(&trace, "-F malloc");
    assert_eq!(
        calls(&trace, "-F malloc"),
        BTreeMap::from([("malloc".into(), 45)])
    );
    assert!(heap(&f).allocs < before.allocs && heap(&f).allocs > 0);

    // -N free: the 35 free calls go; no allocation stack holds free, so the
    // heap totals stay.
    let n = narrow(&trace, "-N free");
    assert_eq!(count(&calls(&trace, "-N free"), "free"), 0);
    assert_eq!(heap(&n), before);

    // -N posix_memalign: its 2 calls and the 2 blocks it allocated go (one of
    // them the 5000-byte leak).
    let p = narrow(&trace, "-N posix_memalign");
    assert_eq!(heap(&p).allocs, before.allocs - 2);
    assert_eq!(heap(&p).live_bytes, before.live_bytes - 5000);
}

#[test]
fn selogger_frequency_samples() {
    let trace = decode("selogger", "demo-v060-freq");
    // One whole-trace set of counts; each stack is class › method › location.
    let set = |t: &Trace| t.sample_sets.first().cloned().expect("the frequency set");
    let frames = |t: &Trace, i: usize| -> Vec<String> {
        let s = set(t);
        let ids = t.stacks.frames(s.stack[i]);
        ids.iter().map(|&f| t.str(f).to_owned()).collect()
    };
    let total = |t: &Trace| set(t).weights[0].iter().sum::<i64>();
    let in_fib = (0..set(&trace).len())
        .filter(|&i| frames(&trace, i)[1] == "demo.MathUtil.fib")
        .count();
    assert!(in_fib > 0);

    // -F the method: only its locations stay, each stack starting at it.
    let f = narrow(&trace, "--match=glob -F demo.MathUtil.fib");
    assert_eq!(set(&f).len(), in_fib);
    assert!((0..in_fib).all(|i| frames(&f, i)[0] == "demo.MathUtil.fib"));

    // -N the class: none of its methods' locations stay.
    let n = narrow(&trace, "-N demo.Bank");
    assert!((0..set(&n).len()).all(|i| frames(&n, i)[0] != "demo.Bank"));
    assert!(set(&n).len() < set(&trace).len());

    // -D 1: every stack cut to its class; the counts stay, with the class.
    let d = narrow(&trace, "-D 1");
    assert!((0..set(&d).len()).all(|i| frames(&d, i).len() == 1));
    assert_eq!(total(&d), total(&trace));

    // -t, -r and --tid cannot apply to untimed whole-trace counts: notes.
    // (uftrace takes -t and -r in one line as an error: two steps here.)
    let steps = ["-t 5", "-r 1~9 --tid 1"]
        .map(|line| Step::Uftrace(UftraceFilter::parse(line).expect("parses")));
    let narrowed = transform::apply(&trace, &steps).expect("applies");
    let notes: Vec<&str> = narrowed.notes.iter().map(|n| n.message.as_str()).collect();
    assert!(notes.iter().any(|n| n.starts_with("-t:")), "{notes:?}");
    assert!(notes.iter().any(|n| n.starts_with("-r:")), "{notes:?}");
    assert!(notes.iter().any(|n| n.starts_with("--tid:")), "{notes:?}");
    assert_eq!(total(&narrowed.trace), total(&trace));
}

/// Options that remove nothing leave every fixture of every format as its
/// report says it is: the replay through uftrace's stack is exact for
/// every format's spans (off-CPU ones included).
#[test]
fn a_line_that_removes_nothing_keeps_every_report() {
    for group in ["scaler", "selogger", "rtrace", "swap"] {
        let dir = fixtures().join(group);
        let mut cases: Vec<_> = std::fs::read_dir(&dir)
            .expect("group")
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name() != "README.md")
            .collect();
        cases.sort_by_key(|e| e.file_name());
        let mut decoded = 0;
        for case in cases {
            let path = case.path();
            let files = if path.is_dir() {
                read_folder(&path)
            } else {
                let bytes = std::fs::read(&path).expect("fixture file");
                vec![(case.file_name().to_string_lossy().into_owned(), bytes)]
            };
            let Ok(trace) = decode_files(&files) else {
                continue;
            };
            decoded += 1;
            let narrowed = narrow(&trace, "-D 65000");
            let name = case.file_name();
            assert_eq!(report(&narrowed), report(&trace), "{group}/{name:?}");
        }
        assert!(decoded >= 3, "{group}: only {decoded} fixtures decoded");
    }
}

/// Random nested calls (with off-CPU spans, calls that never return and
/// calls open at the end) under random option lines: the narrowed trace
/// always keeps the model's rules, and keeps no more calls than it had.
#[test]
fn random_traces_stay_well_formed_under_any_line() {
    use common::Rng;
    use flamedrop_core::model::{
        Format, TimeUnit, TraceBuilder, SPAN_ABANDONED, SPAN_OFF_CPU, SPAN_OPEN_AT_END,
    };
    let lines = [
        "-F f1",
        "-N f2",
        "-H f3",
        "-C f4",
        "-D 2",
        "-t 5",
        "-r 10ns~200ns",
        "-r 0.000000050~",
        "-r ~90ns -H f1",
        "-F f1 -N f2 -D 3",
        "-H 'f1;f2' -t 3",
        "-C f2 -H f1",
        "--match=glob -F 'f*' -D 1",
        "-F f0 -H f0",
    ];
    let mut rng = Rng(0x5eed_f11e);
    for round in 0..2000 {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let names: Vec<_> = (0..5).map(|i| b.intern(&format!("f{i}"))).collect();
        let sched = b.intern("linux:schedule");
        let mut time = 0i64;
        let mut depth = 0;
        for _ in 0..rng.below(60) {
            time += 1 + rng.below(9) as i64;
            match rng.below(5) {
                0 | 1 if depth < 6 => {
                    let flags = match rng.below(12) {
                        0 => SPAN_ABANDONED,
                        1 => SPAN_OPEN_AT_END,
                        _ => 0,
                    };
                    b.begin(t, time, names[rng.below(5)], flags);
                    depth += 1;
                }
                2 if depth > 0 => {
                    b.begin(t, time, sched, SPAN_OFF_CPU);
                    time += 1 + rng.below(20) as i64;
                    b.end(t, time);
                }
                _ if depth > 0 => {
                    b.end(t, time);
                    depth -= 1;
                }
                _ => {}
            }
        }
        while depth > 0 {
            time += 1;
            b.end(t, time);
            depth -= 1;
        }
        let trace = checked(b.finish());
        let before = trace.threads[0].spans.len();
        let line = lines[round % lines.len()];
        let narrowed = narrow(&trace, line);
        assert!(narrowed.threads[0].spans.len() <= before + 1, "{line}");
    }
}
