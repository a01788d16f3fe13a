//! The level-of-detail layout of one thread: per depth row, the visible spans
//! as rectangles, with runs of sub-pixel spans merged into one rectangle; and
//! the visible instant markers, merged the same way.

use super::{ThreadIndex, Viewport};
use crate::model::{Instants, Spans};
use std::ops::Range;

/// Spans narrower than this (in px) are merged with their narrow neighbours.
const MERGE_BELOW_PX: f64 = 1.0;
/// A narrow span joins the run before it when the gap between them is at most this.
const MERGE_GAP_PX: f64 = 1.0;
/// Markers closer than this (in px) are drawn as one.
const MARKER_MERGE_PX: f64 = 3.0;

/// One rectangle of a flame chart row, in px from the chart's left edge,
/// clipped to just outside the visible width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpanRect {
    pub x: f32,
    pub w: f32,
    pub depth: u16,
    /// The span drawn, or the first of the merged ones.
    pub span: u32,
    /// How many spans this rectangle stands for (1 = a single span).
    pub count: u32,
}

/// One instant marker (or several within a few pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkerRect {
    pub x: f32,
    /// The marker drawn, or the first of the merged ones.
    pub instant: u32,
    pub count: u32,
}

/// Maps absolute times of one trace onto a viewport.
#[derive(Clone, Copy)]
struct Mapping<'a> {
    view: &'a Viewport,
    origin: i64,
}

impl Mapping<'_> {
    fn x(&self, t: i64) -> f64 {
        self.view.x_of(t.saturating_sub(self.origin) as f64)
    }

    /// The first absolute time whose x is at or right of `x`.
    fn time_ceil(&self, x: f64) -> i64 {
        self.origin
            .saturating_add(self.view.time_at(x).ceil() as i64)
    }

    /// The last absolute time whose x is at or left of `x`.
    fn time_floor(&self, x: f64) -> i64 {
        self.origin
            .saturating_add(self.view.time_at(x).floor() as i64)
    }

    /// Clips an x to just outside the visible width (canvas coordinates far
    /// off-screen lose precision and draw slowly).
    fn clip(&self, x: f64) -> f64 {
        x.clamp(-1.0, self.view.width + 1.0)
    }
}

/// Appends to `out` the rectangles of the rows `depths` of one thread that
/// intersect `view`. `origin` is the absolute time `view` offsets count from.
///
/// Per row: binary search for the first span ending in the window (a row's
/// ends are sorted because its spans never overlap), then walk right until a
/// span starts past the window. A run of narrow spans becomes one rectangle,
/// and inside a run every span ending within the current pixel is skipped by
/// another search ([`ThreadIndex::seek_end`]), so a row costs
/// O(visible pixels · log n) however many spans it holds. `out` is not
/// cleared and nothing else is allocated.
pub fn layout_spans(
    spans: &Spans,
    index: &ThreadIndex,
    view: &Viewport,
    origin: i64,
    depths: Range<usize>,
    out: &mut Vec<SpanRect>,
) {
    let map = Mapping { view, origin };
    let (lo, hi) = (map.time_floor(0.0), map.time_ceil(view.width));
    let end_of = |k: &u32| spans.end.get(*k as usize).copied().unwrap_or(i64::MIN);
    let start_of = |k: u32| spans.start.get(k as usize).copied().unwrap_or(i64::MAX);
    for depth in depths.start..depths.end.min(index.depths()) {
        let row = index.row(depth);
        let depth16 = u16::try_from(depth).unwrap_or(u16::MAX);
        let mut i = index.seek_end(depth, &spans.end, 0, lo);
        while let Some(k) = row.get(i) {
            let start = start_of(k);
            if start > hi {
                break;
            }
            let (x0, x1) = (map.x(start), map.x(end_of(&k)));
            if x1 - x0 >= MERGE_BELOW_PX {
                out.push(rect(&map, x0, x1, depth16, k, 1));
                i += 1;
                continue;
            }
            // A run of narrow spans, starting with this one.
            let first = i;
            let mut run_end = x1.max(x0);
            i += 1;
            loop {
                // Everything ending before the next pixel boundary is inside the run.
                let boundary = map.time_ceil(run_end.floor() + 1.0);
                let next = index.seek_end(depth, &spans.end, i, boundary);
                if next > i {
                    i = next;
                    let last = row.get(i - 1).unwrap_or(k);
                    run_end = run_end.max(map.x(end_of(&last)));
                }
                let Some(next) = row.get(i) else { break };
                let start = start_of(next);
                if start > hi {
                    break;
                }
                let (a, b) = (map.x(start), map.x(end_of(&next)));
                if b - a >= MERGE_BELOW_PX || a > run_end + MERGE_GAP_PX {
                    break;
                }
                run_end = run_end.max(b);
                i += 1;
            }
            let count = u32::try_from(i - first).unwrap_or(u32::MAX);
            out.push(rect(&map, x0, run_end, depth16, k, count));
        }
    }
}

fn rect(map: &Mapping, x0: f64, x1: f64, depth: u16, span: u32, count: u32) -> SpanRect {
    let (a, b) = (map.clip(x0), map.clip(x1));
    SpanRect {
        x: a as f32,
        w: (b - a) as f32,
        depth,
        span,
        count,
    }
}

/// Appends to `out` the instant markers of one thread inside `view` (with a
/// few pixels of slack on each side), merging markers closer than a few
/// pixels. Costs O(visible markers drawn · log n).
pub fn layout_instants(
    instants: &Instants,
    view: &Viewport,
    origin: i64,
    out: &mut Vec<MarkerRect>,
) {
    let map = Mapping { view, origin };
    let times = &instants.time;
    let lo = map.time_floor(-MARKER_MERGE_PX);
    let hi = map.time_ceil(view.width + MARKER_MERGE_PX);
    let mut i = times.partition_point(|&t| t < lo);
    while let Some(&t) = times.get(i) {
        if t > hi {
            break;
        }
        let x = map.x(t);
        let boundary = map.time_floor(x + MARKER_MERGE_PX);
        let count = times[i..].partition_point(|&u| u <= boundary).max(1);
        out.push(MarkerRect {
            x: x as f32,
            instant: i as u32,
            count: u32::try_from(count).unwrap_or(u32::MAX),
        });
        i += count;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::test_util::{flat, thread_of};

    fn layout(spans: &Spans, view: Viewport) -> Vec<SpanRect> {
        let index = ThreadIndex::new(spans);
        let mut out = Vec::new();
        layout_spans(spans, &index, &view, 0, 0..usize::MAX, &mut out);
        out
    }

    #[test]
    fn only_spans_in_the_window_are_laid_out() {
        let spans = flat(10, 100); // [0,100), [100,200) … [900,1000)
        let rects = layout(&spans, Viewport::new(250.0, 450.0, 200.0));
        let drawn: Vec<u32> = rects.iter().map(|r| r.span).collect();
        assert_eq!(drawn, vec![2, 3, 4]);
        assert!(rects.iter().all(|r| r.count == 1));
        // [200,300) starts before the window: clipped to just left of it.
        assert_eq!(rects[0].x, -1.0);
        assert_eq!(rects[0].w, 51.0);
        assert_eq!((rects[1].x, rects[1].w), (50.0, 100.0));
    }

    #[test]
    fn a_span_starting_before_the_window_and_covering_it_is_drawn_across() {
        let t = thread_of(&[(0, 1_000_000), (10, 20)]);
        let rects = layout(&t.spans, Viewport::new(500_000.0, 500_010.0, 800.0));
        assert_eq!(rects.len(), 1);
        assert_eq!((rects[0].x, rects[0].w, rects[0].depth), (-1.0, 802.0, 0));
    }

    #[test]
    fn zooming_to_a_single_unit_still_finds_the_span() {
        let t = thread_of(&[(0, 100), (40, 60)]);
        let rects = layout(&t.spans, Viewport::new(50.0, 51.0, 1000.0));
        assert_eq!(
            rects.iter().map(|r| r.depth).collect::<Vec<_>>(),
            vec![0, 1]
        );
        assert!(rects.iter().all(|r| r.x == -1.0 && r.w == 1002.0));
    }

    #[test]
    fn sub_pixel_neighbours_merge_into_one_rect() {
        let spans = flat(1000, 1); // 1000 spans of 1 unit
        let rects = layout(&spans, Viewport::new(0.0, 1_000_000.0, 1000.0));
        assert_eq!(rects.len(), 1);
        assert_eq!((rects[0].span, rects[0].count), (0, 1000));
        assert!((rects[0].w - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_wide_span_ends_a_merged_run() {
        // 50 tiny spans, then a wide one, then 50 tiny ones.
        let mut calls: Vec<(i64, i64)> = (0..50).map(|i| (i, i + 1)).collect();
        calls.push((50, 5_000));
        calls.extend((0..50).map(|i| (5_000 + i, 5_001 + i)));
        let t = thread_of(&calls);
        let rects = layout(&t.spans, Viewport::new(0.0, 10_000.0, 100.0)); // 100 units per px
        let shape: Vec<(u32, u32)> = rects.iter().map(|r| (r.span, r.count)).collect();
        assert_eq!(shape, vec![(0, 50), (50, 1), (51, 50)]);
    }

    #[test]
    fn narrow_spans_far_apart_stay_separate() {
        let calls: Vec<(i64, i64)> = (0..5).map(|i| (i * 1000, i * 1000 + 1)).collect();
        let t = thread_of(&calls);
        let rects = layout(&t.spans, Viewport::new(0.0, 5000.0, 500.0)); // 10 units per px
        assert_eq!(rects.len(), 5);
        assert!(rects.iter().all(|r| r.count == 1));
    }

    #[test]
    fn work_is_bounded_by_pixels_not_spans() {
        let spans = flat(1_000_000, 3);
        let rects = layout(&spans, Viewport::new(0.0, 3_000_000.0, 500.0));
        assert!(rects.len() <= 500, "{} rects", rects.len());
        assert_eq!(
            rects.iter().map(|r| r.count as usize).sum::<usize>(),
            1_000_000
        );
    }

    #[test]
    fn rows_outside_the_depth_range_are_skipped() {
        let t = thread_of(&[(0, 100), (10, 20), (12, 15)]);
        let index = ThreadIndex::new(&t.spans);
        let mut out = Vec::new();
        layout_spans(
            &t.spans,
            &index,
            &Viewport::new(0.0, 100.0, 100.0),
            0,
            1..2,
            &mut out,
        );
        assert_eq!(out.iter().map(|r| r.depth).collect::<Vec<_>>(), vec![1]);
    }

    #[test]
    fn an_empty_thread_lays_out_nothing() {
        assert!(layout(&Spans::default(), Viewport::new(0.0, 10.0, 100.0)).is_empty());
        let mut out = Vec::new();
        layout_instants(
            &Instants::default(),
            &Viewport::new(0.0, 10.0, 100.0),
            0,
            &mut out,
        );
        assert!(out.is_empty());
    }

    #[test]
    fn absolute_times_keep_their_precision() {
        let base = 1_700_000_000_000_000_000i64; // ns since 1970, around 2023
        let mut spans = flat(3, 10);
        spans.start.iter_mut().for_each(|t| *t += base);
        spans.end.iter_mut().for_each(|t| *t += base);
        let index = ThreadIndex::new(&spans);
        let mut out = Vec::new();
        layout_spans(
            &spans,
            &index,
            &Viewport::new(10.0, 20.0, 100.0),
            base,
            0..1,
            &mut out,
        );
        assert_eq!(
            out.iter().map(|r| r.span).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!((out[1].x, out[1].w), (0.0, 100.0));
    }

    #[test]
    fn close_markers_merge_and_far_ones_do_not() {
        let instants = Instants {
            time: vec![0, 1, 2, 500, 990, 2000],
            name: vec![0; 6],
            details: Default::default(),
        };
        let mut out = Vec::new();
        layout_instants(&instants, &Viewport::new(0.0, 1000.0, 100.0), 0, &mut out);
        let shape: Vec<(u32, u32)> = out.iter().map(|m| (m.instant, m.count)).collect();
        assert_eq!(shape, vec![(0, 3), (3, 1), (4, 1)]);
    }
}
