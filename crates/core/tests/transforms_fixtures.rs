//! Firefox Profiler's transforms on real fixtures of every format: what the
//! report, the sample sets and the allocations become. uftrace expectations
//! are built from the numbers uftrace itself printed (`reference/report.txt`);
//! the others relate the narrowed trace to the decoded one, each explained
//! in one line.

mod common;

use common::{decode_case, fixtures, read_folder, reference};
use flamedrop_core::analysis::report::report;
use flamedrop_core::analysis::transform::{apply, resource_of, Narrowed, Stack};
use flamedrop_core::{decode_files, Trace};
use std::collections::BTreeMap;

/// `name → (calls, total, self)` of the report.
fn functions(trace: &Trace) -> BTreeMap<String, (u64, i64, i64)> {
    report(trace)
        .functions
        .into_iter()
        .map(|f| (f.name, (f.calls, f.total, f.self_time)))
        .collect()
}

fn narrow(trace: &Trace, steps: &str) -> Narrowed {
    let stack: Stack = steps.parse().expect("stack text");
    let narrowed = apply(trace, &stack.steps).expect("applies");
    assert_eq!(narrowed.trace.check(), Vec::<String>::new(), "{steps}");
    narrowed
}

/// `uftrace report`'s row for `name`: (calls, total ns, self ns), read from
/// the times it printed in µs (exact to the nanosecond).
fn uftrace_row(case: &str, name: &str) -> (u64, i64, i64) {
    let text = reference("uftrace", case, "report.txt");
    let ns = |value: &str, unit: &str| -> i64 {
        let v: f64 = value.parse().expect("time");
        assert_eq!(unit, "us", "{name}: only µs rows are exact");
        (v * 1000.0).round() as i64
    };
    text.lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() > 5 && f[5..].join(" ") == name)
        .map(|f| (f[4].parse().expect("calls"), ns(f[0], f[1]), ns(f[2], f[3])))
        .unwrap_or_else(|| panic!("{name} is not in {case}'s report"))
}

fn decode_path(relative: &str) -> Trace {
    let path = fixtures().join(relative);
    let files = if path.is_dir() {
        read_folder(&path)
    } else {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        vec![(
            name.unwrap_or_default(),
            std::fs::read(&path).expect("file"),
        )]
    };
    decode_files(&files).expect("decodes")
}

#[test]
fn uftrace_simple_nested() {
    let t = decode_case("uftrace", "a-simple-nested");
    let row = |name| uftrace_row("a-simple-nested", name);
    let (top, mid, leaf) = (row("top"), row("mid"), row("leaf"));

    // Merge mid: mid goes, its self time becomes top's, the 12 leaf calls stay.
    let f = functions(&narrow(&t, "mf:mid").trace);
    assert!(!f.contains_key("mid"));
    assert_eq!(f["top"], (1, top.1, top.2 + mid.2));
    assert_eq!(f["leaf"], leaf);
    // Merge node main>top>mid: mid is only called there, so the same as merging it.
    assert_eq!(functions(&narrow(&t, "mcn:main>top>mid").trace), f);

    // Drop mid: mid and leaf go; top keeps its length and its own self time.
    let f = functions(&narrow(&t, "df:mid").trace);
    assert!(!f.contains_key("mid") && !f.contains_key("leaf"));
    assert_eq!(f["top"], top);

    // Collapse top: everything below top becomes top's self time.
    let f = functions(&narrow(&t, "cfs:top").trace);
    assert_eq!(f["top"], (1, top.1, top.1));
    assert!(!f.contains_key("mid") && !f.contains_key("leaf"));

    // Focus on function mid: only mid's 4 calls and the leaves under them remain.
    let f = functions(&narrow(&t, "ff:mid").trace);
    assert_eq!(f.len(), 2);
    assert_eq!((f["mid"], f["leaf"]), (mid, leaf));

    // Focus on self of mid: only mid, its self time as uftrace printed it.
    let f = functions(&narrow(&t, "fs:mid").trace);
    assert_eq!(f.len(), 1);
    assert_eq!(f["mid"].2, mid.2);

    // Focus on subtree main>top: top, mid and leaf, as uftrace reported them.
    let f = functions(&narrow(&t, "f:main>top").trace);
    assert_eq!(f.len(), 3);
    assert_eq!((f["top"], f["mid"], f["leaf"]), (top, mid, leaf));

    // uftrace keeps no module per resolved symbol, so printf has no resource to collapse.
    assert_eq!(resource_of(&t, "printf"), None);
    let n = narrow(&t, "cr:libc.so.6");
    assert!(
        n.notes[0].message.contains("not in this trace"),
        "{:?}",
        n.notes
    );
}

#[test]
fn uftrace_recursion() {
    let t = decode_case("uftrace", "b-recursion-hot");
    let recurse = uftrace_row("b-recursion-hot", "recurse");
    let (a, b) = (
        uftrace_row("b-recursion-hot", "mutual_a"),
        uftrace_row("b-recursion-hot", "mutual_b"),
    );
    // Collapse recursion of recurse: its 201 nested calls become one with all their time.
    let f = functions(&narrow(&t, "rec:recurse").trace);
    assert_eq!(f["recurse"], (1, recurse.1, recurse.2));
    // recurse only calls itself directly, so collapsing direct recursion gives the same.
    assert_eq!(
        functions(&narrow(&t, "drec:recurse").trace)["recurse"],
        f["recurse"]
    );
    // mutual_a recurses only through mutual_b: direct recursion leaves it as it was.
    assert_eq!(functions(&narrow(&t, "drec:mutual_a").trace)["mutual_a"], a);
    // Collapse recursion of mutual_a: one call left; its time and mutual_b's self time are conserved;
    // each mutual_b is cut around the mutual_a it calls, and still counts as one call.
    let f = functions(&narrow(&t, "rec:mutual_a").trace);
    assert_eq!(f["mutual_a"].0, 1);
    assert_eq!(f["mutual_b"].0, b.0);
    assert_eq!(f["mutual_a"].1, a.1);
    assert_eq!(f["mutual_a"].2 + f["mutual_b"].2, a.2 + b.2);
}

#[test]
fn scaler_libraries_and_callbacks() {
    let t = decode_path("scaler/upstream-unittest-sample");
    // A function without a symbol is named after its image: file21/func? belongs to file21.
    assert_eq!(resource_of(&t, "file21/func?").as_deref(), Some("file21"));
    let before = functions(&t);
    let f = functions(&narrow(&t, "cr:file21").trace);
    // Collapsing file21 shows its one function's call under the library's name.
    assert_eq!(f["file21"], before["file21/func?"]);
    assert!(!f.contains_key("file21/func?"));

    let t = decode_path("scaler/b-nested-callbacks-sync");
    let before = functions(&t);
    // strcmp is called back by qsort and by bsearch; these are bsearch's.
    let by_bsearch = functions(&narrow(&t, "ff:bsearch").trace)["strcmp"];
    assert!(by_bsearch.0 < before["strcmp"].0);
    // Collapse qsort: its strcmp callbacks become qsort's self time; bsearch's stay.
    let f = functions(&narrow(&t, "cfs:qsort").trace);
    assert_eq!(
        f["qsort"],
        (before["qsort"].0, before["qsort"].1, before["qsort"].1)
    );
    assert_eq!(f["strcmp"], by_bsearch);
    // Drop qsort: qsort and the callbacks under it go, bsearch's stay.
    let f = functions(&narrow(&t, "df:qsort").trace);
    assert!(!f.contains_key("qsort"));
    assert_eq!(f["strcmp"], by_bsearch);
}

#[test]
fn selogger_classes_on_spans_and_on_frequency_stacks() {
    let t = decode_path("selogger/demo-v060-omnibinary");
    // A method span names its class in a detail; a call site belongs to the callee's class.
    assert_eq!(
        resource_of(&t, "demo.MathUtil.fib").as_deref(),
        Some("demo.MathUtil")
    );
    assert_eq!(
        resource_of(&t, "call demo.Bank.deposit").as_deref(),
        Some("demo.Bank")
    );
    let before = functions(&t);
    let f = functions(&narrow(&t, "cr:demo.MathUtil").trace);
    // No call site nor method of demo.MathUtil is left under its own name.
    assert!(!f.keys().any(|n| n.contains("MathUtil.")), "{f:?}");
    // Collapsing moves time between names but never loses any: self times sum alike.
    let self_sum = |f: &BTreeMap<String, (u64, i64, i64)>| f.values().map(|v| v.2).sum::<i64>();
    assert_eq!(self_sum(&f), self_sum(&before));

    let t = decode_path("selogger/demo-v060-freq");
    let set = &t.sample_sets[0];
    let weight_with = |t: &Trace, frame: &str| -> i64 {
        let set = &t.sample_sets[0];
        (0..set.len())
            .filter(|&i| {
                t.stacks
                    .frames(set.stack[i])
                    .iter()
                    .any(|&f| t.str(f) == frame)
            })
            .map(|i| set.weights[0][i])
            .sum()
    };
    let total: i64 = set.weights[0].iter().sum();
    // Focus on demo.Bank.deposit keeps exactly the events of the locations inside it.
    let n = narrow(&t, "ff:demo.Bank.deposit").trace;
    let kept: i64 = n.sample_sets[0].weights[0].iter().sum();
    assert_eq!(kept, weight_with(&t, "demo.Bank.deposit"));
    // Collapse class demo.Bank: class and method frames become one frame; no event is lost.
    let n = narrow(&t, "cr:demo.Bank").trace;
    assert_eq!(n.sample_sets[0].weights[0].iter().sum::<i64>(), total);
    assert_eq!(weight_with(&n, "demo.Bank"), weight_with(&t, "demo.Bank"));
    assert_eq!(weight_with(&n, "demo.Bank.deposit"), 0);
}

#[test]
fn sp_rtrace_modules_in_allocation_stacks() {
    let t = decode_path("rtrace/c-leaks");
    assert_eq!(resource_of(&t, "leaks+0x111").as_deref(), Some("leaks"));
    let with_frame = |t: &Trace, frame: &str| {
        t.allocations[0]
            .stack
            .iter()
            .filter(|&&s| t.stacks.frames(s).iter().any(|&f| t.str(f) == frame))
            .count()
    };
    // Collapse module leaks: every allocation stays, its leaks+0x… frames read "leaks".
    let n = narrow(&t, "cr:leaks");
    assert_eq!(n.trace.allocations[0].len(), t.allocations[0].len());
    assert_eq!(with_frame(&n.trace, "leaks"), t.allocations[0].len());
    // The calls (malloc, free, …) are not in module leaks: the note says they were left alone.
    assert!(
        n.notes.iter().any(|x| x.message.contains("calls (spans)")),
        "{:?}",
        n.notes
    );
    // Focus on malloc: only malloc's calls, and only allocations made through malloc.
    let n = narrow(&t, "ff:malloc").trace;
    assert_eq!(functions(&n).keys().collect::<Vec<_>>(), ["malloc"]);
    assert_eq!(n.allocations[0].len(), with_frame(&t, "malloc"));
}

#[test]
fn swap_libraries_on_spans_and_cpu_samples() {
    let t = decode_path("swap/demo.swap");
    assert_eq!(
        resource_of(&t, "gallery+0x3000").as_deref(),
        Some("gallery")
    );
    // Collapse gallery: no gallery+0x… name is left, in spans or in CPU samples; no sample is lost.
    let n = narrow(&t, "cr:gallery").trace;
    assert!(!functions(&n).keys().any(|k| k.starts_with("gallery+")));
    assert!(!n
        .stacks
        .frame
        .iter()
        .any(|&f| n.str(f).starts_with("gallery+")));
    let sizes = |t: &Trace| t.sample_sets.iter().map(|s| s.len()).collect::<Vec<_>>();
    assert_eq!(sizes(&n), sizes(&t));
    // main is in the spans only: dropping it says the stacks never reach it.
    let n = narrow(&t, "df:main");
    assert!(!functions(&n.trace).contains_key("main"));
    assert!(n
        .notes
        .iter()
        .any(|x| x.message.contains("stacks never reach it")));
    // Focusing on main keeps its calls but empties the CPU samples and allocations, which never reach it.
    let n = narrow(&t, "ff:main");
    assert_eq!(functions(&n.trace)["main"], functions(&t)["main"]);
    assert!(n.trace.sample_sets.iter().all(|s| s.is_empty()));
    assert!(n.trace.allocations.iter().all(|a| a.stack.is_empty()));
    assert!(n
        .notes
        .iter()
        .any(|x| x.message.contains("focusing left them empty")));
}
