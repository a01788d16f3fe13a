//! Narrowing a big trace: one Firefox Profiler transform, and a stack of
//! three, applied with `analysis::transform::apply`
//! (`cargo bench -p flamedrop-core --bench transform`).
//!
//! The trace is synthetic: one thread of `FLAMEDROP_BENCH_SPANS` nested
//! calls (default 20 M, the size of the 320 MB uftrace benchmark trace),
//! 1000 function names, up to 24 levels deep; or the trace named by
//! `FLAMEDROP_BENCH_TRACE` (any format the core decodes).

mod inputs;

use criterion::{criterion_group, criterion_main, Criterion};
use flamedrop_core::analysis::transform::{apply, Step};
use flamedrop_core::model::{Format, Process, Spans, Thread, TimeUnit};
use flamedrop_core::Trace;
use std::hint::black_box;

/// Function names of the synthetic trace.
const NAMES: u32 = 1000;
/// Deepest nesting of the synthetic trace.
const MAX_DEPTH: u16 = 24;

fn transform(c: &mut Criterion) {
    let trace = match inputs::from_env("FLAMEDROP_BENCH_TRACE") {
        Some(input) => input.decode(),
        None => synthetic(spans_wanted()),
    };
    let spans: usize = trace.threads.iter().map(|t| t.spans.len()).sum();
    let name = |id: u32| trace.str(id).to_owned();
    let busy = busiest(&trace);
    let mut group = c.benchmark_group(format!("transform/{spans} spans"));
    group.sample_size(10);
    let cases = [
        ("merge function", vec![Step::MergeFunction(name(busy))]),
        ("focus function", vec![Step::FocusFunction(name(busy))]),
        ("drop function", vec![Step::DropFunction(name(busy))]),
        (
            "collapse recursion",
            vec![Step::CollapseRecursion(name(busy))],
        ),
        (
            "merge, collapse, drop",
            vec![
                Step::MergeFunction(name(busy)),
                Step::CollapseFunctionSubtree(name(busy + 1)),
                Step::DropFunction(name(busy + 2)),
            ],
        ),
    ];
    for (label, steps) in cases {
        group.bench_function(label, |b| {
            b.iter(|| black_box(apply(&trace, &steps).expect("applies")))
        });
    }
    group.finish();
}

fn spans_wanted() -> usize {
    std::env::var("FLAMEDROP_BENCH_SPANS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000_000)
}

/// The most frequent span name (the first thread's, or any).
fn busiest(trace: &Trace) -> u32 {
    let mut count = vec![0u32; trace.strings.len()];
    for t in &trace.threads {
        for &n in &t.spans.name {
            if let Some(c) = count.get_mut(n as usize) {
                *c += 1;
            }
        }
    }
    (0..count.len() as u32)
        .max_by_key(|&n| count[n as usize])
        .unwrap_or(0)
        .min(trace.strings.len().saturating_sub(3) as u32)
}

/// One thread of `n` nested calls made by a random walk over depths.
fn synthetic(n: usize) -> Trace {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut spans = Spans::default();
    let mut open: Vec<usize> = Vec::new();
    let mut time = 0i64;
    while spans.len() < n {
        let r = next();
        time += 1 + (r & 3) as i64;
        let deeper = open.len() < usize::from(MAX_DEPTH) && (r >> 8) % 8 < 4;
        if deeper || open.is_empty() {
            // Skewed names, so some functions are called everywhere and
            // recurse through others.
            let name = ((r >> 16) % u64::from(NAMES)) as u32;
            let name = if (r >> 40) % 4 == 0 { name % 10 } else { name };
            spans.start.push(time);
            spans.end.push(time);
            spans.depth.push(open.len() as u16);
            spans.name.push(name);
            spans.flags.push(0);
            open.push(spans.len() - 1);
        } else if let Some(at) = open.pop() {
            spans.end[at] = time;
        }
    }
    while let Some(at) = open.pop() {
        time += 1;
        spans.end[at] = time;
    }
    Trace {
        format: Some(Format::Uftrace),
        time_unit: Some(TimeUnit::Ns),
        strings: flamedrop_core::model::StringTable::from_vec(
            (0..NAMES).map(|i| format!("f{i}")).collect(),
        ),
        processes: vec![Process {
            id: "1".into(),
            name: "synthetic".into(),
        }],
        threads: vec![Thread {
            id: "1".into(),
            name: "synthetic".into(),
            spans,
            first_time: Some(0),
            last_time: Some(time),
            ..Thread::default()
        }],
        ..Trace::default()
    }
}

criterion_group!(benches, transform);
criterion_main!(benches);
