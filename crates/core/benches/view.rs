//! What the viewer does with a decoded trace, natively: the codec, the
//! per-function report (an aggregation over every span, as the aggregated
//! views make), the per-thread index, and the level-of-detail layout of one
//! frame at several zoom levels
//! (`cargo bench -p flamedrop-core --bench view`).
//!
//! The trace is the b-recursion-hot fixture, or the trace named by
//! `FLAMEDROP_BENCH_TRACE` (any format the core decodes).

mod inputs;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use flamedrop_core::layout::{layout_spans, span_at, ThreadIndex, Viewport};
use flamedrop_core::model::codec;
use flamedrop_core::Trace;
use std::hint::black_box;

/// Chart width in CSS px, as in the browser benchmark's 1280 px window.
const WIDTH: f64 = 1000.0;

fn view(c: &mut Criterion) {
    let input = inputs::from_env("FLAMEDROP_BENCH_TRACE")
        .unwrap_or_else(|| inputs::fixture("uftrace/b-recursion-hot/uftrace.data"));
    let trace = input.decode();
    let big = codec_and_report(c, &input.name, &trace);
    thread_layout(c, &input.name, &trace, big);
}

/// The codec both ways and the report; true when the trace is big (fewer
/// samples then).
fn codec_and_report(c: &mut Criterion, name: &str, trace: &Trace) -> bool {
    let encoded = codec::encode(trace);
    let big = encoded.len() > 32 << 20;
    let mut group = c.benchmark_group(format!("codec/{name}"));
    group.throughput(Throughput::Bytes(encoded.len() as u64));
    if big {
        group.sample_size(10);
    }
    group.bench_function("encode", |b| b.iter(|| black_box(codec::encode(trace))));
    group.bench_function("decode", |b| {
        b.iter_batched(
            || (),
            |()| black_box(codec::decode(&encoded)),
            BatchSize::PerIteration,
        )
    });
    group.finish();

    // The per-function report aggregates every span, like the aggregated
    // views (call tree, flame graph) do.
    let mut group = c.benchmark_group(format!("aggregate/{name}"));
    if big {
        group.sample_size(10);
    }
    group.bench_function("report", |b| {
        b.iter(|| black_box(flamedrop_core::analysis::report(trace)))
    });
    group.finish();
    big
}

/// Indexing the busiest thread, and laying out and hovering one frame of
/// it at several zoom levels.
fn thread_layout(c: &mut Criterion, name: &str, trace: &Trace, big: bool) {
    // The busiest thread is what a frame costs most on.
    let Some(thread) = trace.threads.iter().max_by_key(|t| t.spans.len()) else {
        return;
    };
    let spans = &thread.spans;
    let mut group = c.benchmark_group(format!("layout/{name}"));
    group.throughput(Throughput::Elements(spans.len() as u64));
    if big {
        group.sample_size(10);
    }
    group.bench_function("index", |b| b.iter(|| black_box(ThreadIndex::new(spans))));
    group.finish();

    let index = ThreadIndex::new(spans);
    let (Some((origin, end)), Some(&first)) = (thread.time_range(), spans.start.first()) else {
        return;
    };
    let whole = (end - origin) as f64;
    let centre = (first - origin) as f64 + whole / 2.0;
    let mut group = c.benchmark_group(format!("frame/{name}"));
    let mut rects = Vec::new();
    // From the whole thread down to a few nanoseconds, centred on the middle.
    for zoom in [1.0, 1e2, 1e4, 1e6, 1e8] {
        let half = (whole / zoom / 2.0).max(1.0);
        let viewport = Viewport::new(centre - half, centre + half, WIDTH);
        group.bench_function(format!("layout-zoom-{zoom:e}"), |b| {
            b.iter(|| {
                rects.clear();
                layout_spans(
                    spans,
                    &index,
                    &viewport,
                    origin,
                    0..index.depths(),
                    &mut rects,
                );
                black_box(rects.len())
            })
        });
        group.bench_function(format!("hover-zoom-{zoom:e}"), |b| {
            b.iter(|| {
                (0..index.depths())
                    .filter_map(|d| span_at(spans, &index, &viewport, origin, d, WIDTH / 2.0, 3.0))
                    .count()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, view);
criterion_main!(benches);
