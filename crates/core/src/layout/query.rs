//! Questions the pointer asks: which span or marker is under it, and how much
//! of a span's time is its own (not spent in its children).

use super::{ThreadIndex, Viewport};
use crate::model::{Instants, Spans};

/// The span at `depth` under x (px), or the nearest one within `slop` px of
/// it, so that one-pixel rectangles can still be hovered.
pub fn span_at(
    spans: &Spans,
    index: &ThreadIndex,
    view: &Viewport,
    origin: i64,
    depth: usize,
    x: f64,
    slop: f64,
) -> Option<u32> {
    let row = index.row(depth);
    let at = |px: f64| origin.saturating_add(view.time_at(px).floor() as i64);
    let (t, lo, hi) = (at(x), at(x - slop), at(x + slop) + 1);
    let start = |k: u32| spans.start[k as usize];
    let end = |k: u32| spans.end[k as usize];
    // First span not ending before t: it contains t if it has started.
    let i = index.seek_end(depth, &spans.end, 0, t);
    if let Some(k) = row.get(i) {
        if start(k) <= t {
            return Some(k);
        }
    }
    // Otherwise the closer of the neighbours on each side, if within slop.
    let after = row.get(i).filter(|&k| start(k) <= hi);
    let before = i
        .checked_sub(1)
        .and_then(|j| row.get(j))
        .filter(|&k| end(k) >= lo);
    match (before, after) {
        (Some(b), Some(a)) => Some(if t - end(b) <= start(a) - t { b } else { a }),
        (b, a) => b.or(a),
    }
}

/// The instant marker nearest to x within `slop` px.
pub fn instant_at(
    instants: &Instants,
    view: &Viewport,
    origin: i64,
    x: f64,
    slop: f64,
) -> Option<u32> {
    let at = |px: f64| origin.saturating_add(view.time_at(px).round() as i64);
    let (t, lo, hi) = (at(x), at(x - slop), at(x + slop));
    let times = &instants.time;
    let i = times.partition_point(|&u| u < t);
    let after = times.get(i).filter(|&&u| u <= hi).map(|_| i);
    let before = i.checked_sub(1).filter(|&j| times[j] >= lo);
    let pick = match (before, after) {
        (Some(b), Some(a)) => Some(if t - times[b] <= times[a] - t { b } else { a }),
        (b, a) => b.or(a),
    };
    pick.map(|i| i as u32)
}

/// The span's duration minus the durations of its direct children. Costs
/// O(log n + children): the children are the spans one row deeper that lie
/// inside it, a contiguous stretch of that row.
pub fn self_time(spans: &Spans, index: &ThreadIndex, span: u32) -> i64 {
    let s = span as usize;
    let (Some(&start), Some(&end), Some(&depth)) =
        (spans.start.get(s), spans.end.get(s), spans.depth.get(s))
    else {
        return 0;
    };
    let row = index.row(usize::from(depth) + 1);
    let first = row.partition_point(|k| spans.start[k as usize] < start);
    let last = row.partition_point(|k| spans.end[k as usize] <= end);
    let children: i64 = row
        .range(first..last.max(first))
        .map(|k| spans.end[k as usize] - spans.start[k as usize])
        .sum();
    (end - start) - children
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::test_util::thread_of;

    #[test]
    fn the_span_under_the_pointer_is_found_per_depth() {
        let t = thread_of(&[(0, 100), (10, 20), (50, 60)]);
        let index = ThreadIndex::new(&t.spans);
        let view = Viewport::new(0.0, 100.0, 100.0);
        let at = |depth, x| span_at(&t.spans, &index, &view, 0, depth, x, 0.0);
        assert_eq!(at(0, 75.0), Some(0));
        assert_eq!(at(1, 15.5), Some(1));
        assert_eq!(at(1, 55.0), Some(2));
        assert_eq!(at(1, 35.0), None);
        assert_eq!(at(2, 15.0), None);
    }

    #[test]
    fn a_thin_span_can_be_hovered_from_a_few_pixels_away() {
        let t = thread_of(&[(500, 501)]);
        let index = ThreadIndex::new(&t.spans);
        let view = Viewport::new(0.0, 1000.0, 100.0); // 10 units per px; the span is at x = 50
        assert_eq!(span_at(&t.spans, &index, &view, 0, 0, 52.0, 3.0), Some(0));
        assert_eq!(span_at(&t.spans, &index, &view, 0, 0, 48.0, 3.0), Some(0));
        assert_eq!(span_at(&t.spans, &index, &view, 0, 0, 60.0, 3.0), None);
    }

    #[test]
    fn self_time_subtracts_direct_children_only() {
        // main [0,100) > a [10,40) > b [15,25); main > c [50,70)
        let t = thread_of(&[(0, 100), (10, 40), (15, 25), (50, 70)]);
        let index = ThreadIndex::new(&t.spans);
        assert_eq!(self_time(&t.spans, &index, 0), 100 - 30 - 20);
        assert_eq!(self_time(&t.spans, &index, 1), 30 - 10);
        assert_eq!(self_time(&t.spans, &index, 2), 10);
        assert_eq!(self_time(&t.spans, &index, 99), 0);
    }

    #[test]
    fn self_time_ignores_spans_of_a_sibling() {
        // a [0,10) > x [2,4); b [10,20) > y [12,18)
        let t = thread_of(&[(0, 10), (2, 4), (10, 20), (12, 18)]);
        let index = ThreadIndex::new(&t.spans);
        assert_eq!(self_time(&t.spans, &index, 0), 8);
        assert_eq!(self_time(&t.spans, &index, 2), 4);
    }

    #[test]
    fn the_nearest_marker_within_slop_is_picked() {
        let instants = Instants {
            time: vec![100, 200, 900],
            name: vec![0; 3],
            details: Default::default(),
        };
        let view = Viewport::new(0.0, 1000.0, 100.0);
        assert_eq!(instant_at(&instants, &view, 0, 11.0, 3.0), Some(0));
        assert_eq!(instant_at(&instants, &view, 0, 19.0, 3.0), Some(1));
        assert_eq!(instant_at(&instants, &view, 0, 50.0, 3.0), None);
        assert_eq!(instant_at(&Instants::default(), &view, 0, 50.0, 3.0), None);
    }
}
