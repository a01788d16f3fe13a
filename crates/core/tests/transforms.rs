//! Firefox Profiler's call-tree transforms (`analysis::transform`) on
//! spans, sample sets and allocation stacks.
//!
//! The main property: for the same calls given both as spans and as samples
//! (one sample per time unit, its stack the spans open then), the call tree
//! of the narrowed spans equals the call tree of the narrowed samples, where
//! the samples are rewritten exactly as Firefox Profiler rewrites stacks.
//! Then hand-made traces with the expected call tree spelled out, and every
//! transform on every fixture, which must leave a sound trace.

mod common;

use common::{checked, fixtures, read_folder, Rng};
use flamedrop_core::analysis::calltree::{build, Source};
use flamedrop_core::analysis::transform::{apply, apply_more, resource_of, Stack, Step};
use flamedrop_core::model::{Format, TimeUnit, TraceBuilder, SPAN_ABANDONED};
use flamedrop_core::{decode_files, Trace};
use std::collections::BTreeMap;

/// A call tree as `path → (total, self, calls)`, paths joined by `>`,
/// without the nodes that carry no time and no call.
fn tree(trace: &Trace, source: &Source) -> BTreeMap<String, (i64, i64, u64)> {
    let tree = build(trace, source, None);
    let mut out = BTreeMap::new();
    for (i, node) in tree.nodes.iter().enumerate().skip(1) {
        let path: Vec<&str> = tree
            .path_to(i as u32)
            .iter()
            .map(|&n| trace.str(tree.nodes[n as usize].name))
            .collect();
        if node.total != 0 || node.self_time != 0 || node.calls != 0 {
            out.insert(path.join(">"), (node.total, node.self_time, node.calls));
        }
    }
    out
}

fn spans_tree(trace: &Trace) -> BTreeMap<String, (i64, i64, u64)> {
    tree(trace, &Source::Spans { threads: vec![0] })
}

/// Only what both trees can agree on: `(total, self)` (or self alone) of
/// the paths with time.
fn times(
    tree: &BTreeMap<String, (i64, i64, u64)>,
    with_totals: bool,
) -> BTreeMap<String, (i64, i64)> {
    tree.iter()
        .map(|(p, &(total, own, _))| (p.clone(), (if with_totals { total } else { 0 }, own)))
        .filter(|&(_, (total, own))| total != 0 || own != 0)
        .collect()
}

/// Function names; the last two are addresses in module `m` (a resource).
const NAMES: [&str; 6] = ["A", "B", "C", "D", "m+0x5", "m+0x6"];

/// Random nested calls: (start, end, name, depth) in pre-order.
fn random_calls(rng: &mut Rng) -> Vec<(i64, i64, usize, u16)> {
    fn fill(rng: &mut Rng, from: i64, to: i64, depth: u16, out: &mut Vec<(i64, i64, usize, u16)>) {
        let mut t = from;
        while depth < 6 && t < to && rng.below(4) != 0 {
            let start = t + rng.below(3) as i64;
            if start >= to {
                break;
            }
            let end = start + 1 + rng.below((to - start) as usize) as i64;
            out.push((start, end, rng.below(NAMES.len()), depth));
            fill(rng, start, end, depth + 1, out);
            t = end;
        }
    }
    let mut out = Vec::new();
    let end = 60 + rng.below(100) as i64;
    fill(rng, 0, end, 0, &mut out);
    out
}

/// The calls as spans of thread 0 and as one sample per time unit (set 0).
fn trace_of(calls: &[(i64, i64, usize, u16)]) -> Trace {
    let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
    let p = b.process("1", "p");
    let t = b.thread(p, "1", "p");
    let names: Vec<u32> = NAMES.iter().map(|n| b.intern(n)).collect();
    let mut open: Vec<(i64, u16)> = Vec::new();
    for &(start, end, name, depth) in calls {
        while open.last().is_some_and(|&(_, d)| d >= depth) {
            if let Some((e, _)) = open.pop() {
                b.end(t, e);
            }
        }
        b.begin(t, start, names[name], 0);
        open.push((end, depth));
    }
    while let Some((e, _)) = open.pop() {
        b.end(t, e);
    }
    let last = calls.iter().map(|c| c.1).max().unwrap_or(0);
    let set = b.sample_set("samples", Some(t), &["samples"]);
    for time in 0..last {
        let frames: Vec<u32> = calls
            .iter()
            .filter(|c| c.0 <= time && time < c.1)
            .map(|c| names[c.2])
            .collect();
        if let Some(stack) = b.stack(&frames) {
            b.sample(set, Some(time), stack, &[1]);
        }
    }
    checked(b.finish())
}

/// A random step naming a function of `NAMES`, or a path of `calls`.
fn random_step(rng: &mut Rng, calls: &[(i64, i64, usize, u16)]) -> Step {
    let f = NAMES[rng.below(NAMES.len())].to_string();
    let path = path_to(calls, rng.below(calls.len()));
    match rng.below(11) {
        0 => Step::MergeFunction(f),
        1 => Step::MergeCallNode(path.clone()),
        2 => Step::FocusSubtree(path),
        3 => Step::FocusFunction(f),
        4 => Step::FocusSelf(f),
        5 => Step::CollapseFunctionSubtree(f),
        6 => Step::CollapseDirectRecursion(f),
        7 => Step::CollapseRecursion(f),
        8 => Step::DropFunction(f),
        9 => Step::CollapseResource("m".into()),
        _ => Step::MergeFunction("Z".into()),
    }
}

/// The names from a root down to call `at` of `calls` (`A` when none).
fn path_to(calls: &[(i64, i64, usize, u16)], at: usize) -> Vec<String> {
    let Some(&(_, _, name, depth)) = calls.get(at) else {
        return vec!["A".into()];
    };
    let mut path = vec![NAMES[name].to_string()];
    let mut want = depth;
    for c in calls[..at].iter().rev() {
        if want > 0 && c.3 == want - 1 {
            path.push(NAMES[c.2].to_string());
            want -= 1;
        }
    }
    path.reverse();
    path
}

#[test]
fn narrowed_spans_give_the_call_tree_firefox_profiler_gives_for_their_samples() {
    let mut rng = Rng(0x5eed_f00d);
    for round in 0..600 {
        let calls = random_calls(&mut rng);
        let trace = trace_of(&calls);
        let steps: Vec<Step> = (0..1 + rng.below(3))
            .map(|_| random_step(&mut rng, &calls))
            .collect();
        let narrowed = apply(&trace, &steps).expect("applies").trace;
        let context = format!("round {round}, steps {steps:?}, calls {calls:?}");
        assert_eq!(narrowed.check(), Vec::<String>::new(), "{context}");
        // Dropping keeps callers' lengths (uftrace's -N) where Firefox
        // Profiler's totals shrink, and focus-self keeps a call's length
        // around its self time: there only self times can agree.
        let with_totals = !steps
            .iter()
            .any(|s| matches!(s, Step::DropFunction(_) | Step::FocusSelf(_)));
        let from_spans = times(&spans_tree(&narrowed), with_totals);
        let from_samples = times(
            &tree(&narrowed, &Source::Samples { set: 0, weight: 0 }),
            with_totals,
        );
        assert_eq!(from_spans, from_samples, "{context}");
    }
}

/// main(0..100) { a(10..50) { b(20..30) { a(22..28) { c(24..26) } } }
///                b(60..90) { b(65..85) { c(70..80) } } }
fn hand_made() -> Trace {
    trace_of(&[
        (0, 100, 0, 0),
        (10, 50, 1, 1),
        (20, 30, 2, 2),
        (22, 28, 1, 3),
        (24, 26, 3, 4),
        (60, 90, 2, 1),
        (65, 85, 2, 2),
        (70, 80, 3, 3),
    ])
}

/// The spans' call tree after `steps`, as `path total/self/calls` lines.
fn narrowed_lines(trace: &Trace, steps: &str) -> Vec<String> {
    let stack: Stack = steps.parse().expect("stack text");
    let narrowed = apply(trace, &stack.steps).expect("applies");
    assert_eq!(narrowed.trace.check(), Vec::<String>::new());
    spans_tree(&narrowed.trace)
        .into_iter()
        .map(|(p, (t, s, c))| format!("{p} {t}/{s}/{c}"))
        .collect()
}

// In `hand_made`, NAMES map A=main, B=a, C=b, D=c.
#[test]
fn each_transform_on_a_hand_made_trace() {
    let t = hand_made();
    // Merge a: b(20..30) hangs under main beside b(60..90); a's 30 of self go to main, the inner a's 4 to b.
    assert_eq!(
        narrowed_lines(&t, "mf:B"),
        [
            "A 100/60/1",
            "A>C 40/18/2",
            "A>C>C 20/10/1",
            "A>C>C>D 10/10/1",
            "A>C>D 2/2/1"
        ]
    );
    // Merge node main>b only: the outer b under main goes, the b inside a stays.
    assert_eq!(
        narrowed_lines(&t, "mcn:A>C"),
        [
            "A 100/40/1",
            "A>B 40/30/1",
            "A>B>C 10/4/1",
            "A>B>C>B 6/4/1",
            "A>B>C>B>D 2/2/1",
            "A>C 20/10/1",
            "A>C>D 10/10/1"
        ]
    );
    // Focus on subtree main>b: the b at that path is the only root.
    assert_eq!(
        narrowed_lines(&t, "f:A>C"),
        ["C 30/10/1", "C>C 20/10/1", "C>C>D 10/10/1"]
    );
    // Focus on function b: both outermost b calls become roots and merge into one node.
    assert_eq!(
        narrowed_lines(&t, "ff:C"),
        [
            "C 40/14/2",
            "C>B 6/4/1",
            "C>B>D 2/2/1",
            "C>C 20/10/1",
            "C>C>D 10/10/1"
        ]
    );
    // Focus on self of b: two roots whose self is b's own time (4 + 10 + 10), no children.
    assert_eq!(narrowed_lines(&t, "fs:C"), ["C 40/24/2"]);
    // Collapse a: everything a called becomes a's self time.
    assert_eq!(
        narrowed_lines(&t, "cfs:B"),
        [
            "A 100/30/1",
            "A>B 40/40/1",
            "A>C 30/10/1",
            "A>C>C 20/10/1",
            "A>C>C>D 10/10/1"
        ]
    );
    // Collapse direct recursion of b: the inner b merges into the outer; a>b>a>b is indirect and stays.
    assert_eq!(
        narrowed_lines(&t, "drec:C"),
        [
            "A 100/30/1",
            "A>B 40/30/1",
            "A>B>C 10/4/1",
            "A>B>C>B 6/4/1",
            "A>B>C>B>D 2/2/1",
            "A>C 30/20/1",
            "A>C>D 10/10/1"
        ]
    );
    // Collapse recursion of a: a>b>a>c becomes a>c, the inner a's 4 of self go to a; b is cut around the inner a (two pieces of 2, one call).
    assert_eq!(
        narrowed_lines(&t, "rec:B"),
        [
            "A 100/30/1",
            "A>B 40/34/1",
            "A>B>C 4/4/1",
            "A>B>D 2/2/1",
            "A>C 30/10/1",
            "A>C>C 20/10/1",
            "A>C>C>D 10/10/1"
        ]
    );
    // Drop b: both b subtrees go; a and main keep their length, not the dropped time as self.
    assert_eq!(narrowed_lines(&t, "df:C"), ["A 100/30/1", "A>B 40/30/1"]);
}

#[test]
fn abandoned_calls_narrow_into_sound_traces() {
    let mut rng = Rng(0xabad_cafe);
    for round in 0..300 {
        let calls = random_calls(&mut rng);
        let mut trace = trace_of(&calls);
        // A call that never returned (longjmp, exec): drawn, not timed.
        for f in trace.threads[0].spans.flags.iter_mut() {
            if rng.below(5) == 0 {
                *f = SPAN_ABANDONED;
            }
        }
        let steps: Vec<Step> = (0..1 + rng.below(3))
            .map(|_| random_step(&mut rng, &calls))
            .collect();
        let narrowed = apply(&trace, &steps).expect("applies").trace;
        assert_eq!(
            narrowed.check(),
            Vec::<String>::new(),
            "round {round}, {steps:?}"
        );
    }
}

#[test]
fn a_step_naming_what_is_not_there_says_so_and_changes_nothing() {
    let t = hand_made();
    for text in ["mf:nowhere", "ff:nowhere", "f:A>D", "cr:libnothing.so"] {
        let stack: Stack = text.parse().expect("stack text");
        let narrowed = apply(&t, &stack.steps).expect("applies");
        assert_eq!(spans_tree(&narrowed.trace), spans_tree(&t), "{text}");
        assert_eq!(narrowed.notes.len(), 1, "{text}: {:?}", narrowed.notes);
        assert!(narrowed.notes[0].message.contains("not in this trace"));
    }
}

/// Every fixture folder or file that decodes, with its name.
fn every_fixture() -> Vec<(String, Trace)> {
    let mut out = Vec::new();
    for group in [
        "uftrace",
        "uftrace-extra",
        "scaler",
        "selogger",
        "rtrace",
        "swap",
    ] {
        let mut entries: Vec<_> = std::fs::read_dir(fixtures().join(group))
            .expect("fixture group")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for path in entries {
            let files = if path.join("uftrace.data").is_dir() {
                read_folder(&path.join("uftrace.data"))
            } else if path.is_dir() {
                read_folder(&path)
            } else {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                vec![(
                    name.unwrap_or_default(),
                    std::fs::read(&path).expect("file"),
                )]
            };
            if let Ok(trace) = decode_files(&files) {
                let name = path.strip_prefix(fixtures()).unwrap_or(&path);
                out.push((name.display().to_string(), trace));
            }
        }
    }
    out
}

/// Steps naming what `trace` holds: its busiest function, a path to a
/// deep call, the resource of a function that has one.
fn steps_for(trace: &Trace) -> Vec<Step> {
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for thread in &trace.threads {
        for &n in &thread.spans.name {
            *count.entry(n).or_default() += 1;
        }
    }
    for &f in &trace.stacks.frame {
        *count.entry(f).or_default() += 1;
    }
    let busiest = count
        .iter()
        .max_by_key(|&(_, c)| *c)
        .map(|(&n, _)| trace.str(n).to_owned())
        .unwrap_or_else(|| "main".into());
    let path = deep_path(trace);
    let resource = count
        .keys()
        .find_map(|&n| resource_of(trace, trace.str(n)))
        .unwrap_or_else(|| "libc.so.6".into());
    vec![
        Step::MergeFunction(busiest.clone()),
        Step::MergeCallNode(path.clone()),
        Step::FocusSubtree(path),
        Step::FocusFunction(busiest.clone()),
        Step::FocusSelf(busiest.clone()),
        Step::CollapseFunctionSubtree(busiest.clone()),
        Step::CollapseResource(resource),
        Step::CollapseDirectRecursion(busiest.clone()),
        Step::CollapseRecursion(busiest.clone()),
        Step::DropFunction(busiest),
    ]
}

/// The names from a root down to the deepest span of the first thread
/// with spans (or the longest stack).
fn deep_path(trace: &Trace) -> Vec<String> {
    for thread in &trace.threads {
        let spans = &thread.spans;
        let Some(deepest) = (0..spans.len()).max_by_key(|&i| spans.depth[i]) else {
            continue;
        };
        let mut path = vec![trace.str(spans.name[deepest]).to_owned()];
        let mut want = spans.depth[deepest];
        for i in (0..deepest).rev() {
            if want > 0 && spans.depth[i] == want - 1 {
                path.push(trace.str(spans.name[i]).to_owned());
                want -= 1;
            }
        }
        path.reverse();
        return path;
    }
    let longest = (0..trace.stacks.len() as u32).max_by_key(|&s| trace.stacks.frames(s).len());
    longest
        .map(|s| {
            trace
                .stacks
                .frames(s)
                .iter()
                .map(|&f| trace.str(f).to_owned())
                .collect()
        })
        .unwrap_or_else(|| vec!["main".into()])
}

#[test]
fn every_transform_on_every_fixture_leaves_a_sound_trace() {
    let fixtures = every_fixture();
    assert!(fixtures.len() > 40, "{} fixtures decoded", fixtures.len());
    for (name, trace) in &fixtures {
        let steps = steps_for(trace);
        let nothing = Step::MergeFunction("no such function".into());
        for step in &steps {
            let narrowed = apply(trace, std::slice::from_ref(step)).expect("applies");
            let problems = narrowed.trace.check();
            assert!(problems.is_empty(), "{name}, {step:?}: {problems:#?}");
            // A first step reads the input's spans in place, a later one the
            // spans the step before made: both give the same trace.
            let later = apply(trace, &[nothing.clone(), step.clone()]).expect("applies");
            for (a, b) in narrowed.trace.threads.iter().zip(&later.trace.threads) {
                assert_eq!(
                    (&a.spans.name, &a.spans.depth, &a.spans.taken_self),
                    (&b.spans.name, &b.spans.depth, &b.spans.taken_self),
                    "{name}, {step:?}"
                );
            }
            assert_eq!(
                narrowed.trace.stacks, later.trace.stacks,
                "{name}, {step:?}"
            );
        }
        // All of them stacked, as a person narrowing step by step would;
        // pushing a step on a narrowed trace gives what the whole stack gives.
        let narrowed = apply(trace, &steps[..3]).expect("applies");
        assert_eq!(narrowed.trace.check(), Vec::<String>::new(), "{name}");
        let two = apply(trace, &steps[..2]).expect("applies");
        let pushed = apply_more(two, &steps[2..3], 2).expect("applies");
        assert_eq!(pushed.notes, narrowed.notes, "{name}");
        for (a, b) in narrowed.trace.threads.iter().zip(&pushed.trace.threads) {
            assert_eq!((&a.spans.name, &a.spans.end), (&b.spans.name, &b.spans.end));
        }
        let text = Stack { steps }.to_string();
        assert_eq!(text.parse::<Stack>().map(|s| s.to_string()), Ok(text));
    }
}
