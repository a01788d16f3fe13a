//! The Memory view's model over a hand-built trace whose numbers are worked
//! out here: the summary the view shows and the flame-graph sources (the
//! Export SVG test in `render::memory_svg` uses the same trace).

use super::filter_key::FilterKey;
use super::sources::{tree, LiveWhen};
use super::MemoryState;
use crate::view_model::{Loaded, SourceKey};
use flamedrop_core::analysis::memory::{MemoryFilter, Weighting};
use flamedrop_core::layout::ThreadIndex;
use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};

/// main → a allocates 100 at t=10 (freed at 40) and 50 at t=20 (never
/// freed); main → b allocates 30 at t=30 (freed at 60). Live bytes: 100,
/// 150, 180 (peak at 30, 3 blocks), 80, 50 at the end (t=100).
pub(crate) fn loaded() -> Loaded {
    let mut b = TraceBuilder::new(Format::SpRtrace, TimeUnit::Ns);
    let p = b.process("1", "p");
    let t = b.thread(p, "1", "p");
    let (main, fa, fb) = (b.intern("main"), b.intern("a"), b.intern("b"));
    let under_a = b.stack(&[main, fa]).unwrap_or(0);
    let under_b = b.stack(&[main, fb]).unwrap_or(0);
    let r = b.resource("memory", "bytes");
    let x = b.allocate(r, t, 10, 100, 0x1000, under_a);
    b.allocate(r, t, 20, 50, 0x2000, under_a);
    let z = b.allocate(r, t, 30, 30, 0x3000, under_b);
    b.free(r, x, 40);
    b.free(r, z, 60);
    b.begin(t, 0, main, 0);
    b.end(t, 100);
    let trace = b.finish();
    let index = trace
        .threads
        .iter()
        .map(|t| ThreadIndex::new(&t.spans))
        .collect();
    Loaded::new(trace, index, Vec::new(), "test".to_owned())
}

#[test]
fn the_summary_has_the_worked_out_peak_and_end() {
    let loaded = loaded();
    let s = MemoryState::default()
        .summarize(&loaded.trace, None)
        .expect("a resource");
    assert_eq!(
        (
            s.series.peak.time,
            s.series.peak.bytes,
            s.series.peak.blocks
        ),
        (30, 180, 3)
    );
    assert_eq!((s.series.end.bytes, s.series.end.blocks), (50, 1));
    // The peak's blocks by backtrace: a holds 150 in 2, b 30 in 1.
    let groups: Vec<(u64, u64)> = s.live_groups.iter().map(|g| (g.bytes, g.blocks)).collect();
    assert_eq!(groups, vec![(150, 2), (30, 1)]);
    // A range ending at 50 ends with 80 live (the 50 and the 30).
    let ranged = MemoryState::default()
        .summarize(&loaded.trace, Some((0, 50)))
        .expect("ok");
    assert_eq!((ranged.series.end.bytes, ranged.series.end.blocks), (80, 2));
}

#[test]
fn the_sources_weigh_what_was_live() {
    let loaded = loaded();
    let all = || (0, MemoryFilter::default());
    let total = |when, w| tree(&loaded.trace, all(), when, w, None).root().total;
    assert_eq!(total(LiveWhen::End, Weighting::Bytes), 50);
    assert_eq!(total(LiveWhen::Peak, Weighting::Bytes), 180);
    assert_eq!(total(LiveWhen::Peak, Weighting::Count), 3);
    assert_eq!(total(LiveWhen::At(45), Weighting::Bytes), 80);
    assert_eq!(total(LiveWhen::InRange, Weighting::Count), 3);
    // Through the page's trees, by key.
    let key = SourceKey::Memory {
        resource: 0,
        when: LiveWhen::End,
        weighting: Weighting::Bytes,
        filter: FilterKey::default(),
    };
    assert_eq!(loaded.top_down(key, None).root().total, 50);
    let at = SourceKey::Memory {
        resource: 0,
        when: LiveWhen::At(45),
        weighting: Weighting::Bytes,
        filter: FilterKey::default(),
    };
    assert_eq!(
        SourceKey::parse("mem:0:at45:bytes").map(|k| k.or_available(&loaded.trace)),
        Some(at)
    );
}

#[test]
fn a_filtered_source_weighs_what_the_filter_keeps() {
    let loaded = loaded();
    // Sizes from 40 keep the 100 and the 50: their peak is 150 at t=20.
    let filter = MemoryFilter {
        size: Some((40, u64::MAX)),
        ..Default::default()
    };
    let key = SourceKey::Memory {
        resource: 0,
        when: LiveWhen::Peak,
        weighting: Weighting::Bytes,
        filter: FilterKey::of(&loaded.trace, &filter),
    };
    assert_eq!(loaded.top_down(key, None).root().total, 150);
    let round_trip = SourceKey::parse(&key.name()).map(|k| k.or_available(&loaded.trace));
    assert_eq!(round_trip, Some(key));
    // Through `a` only: the same two blocks.
    let through = MemoryFilter {
        through: Some("a".to_owned()),
        ..Default::default()
    };
    let key = SourceKey::Memory {
        resource: 0,
        when: LiveWhen::Peak,
        weighting: Weighting::Count,
        filter: FilterKey::of(&loaded.trace, &through),
    };
    assert_eq!(loaded.top_down(key, None).root().total, 2);
}
