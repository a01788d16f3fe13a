//! [`rates`](super::rates): allocations and frees per time slice.
//!
//! `sp-rtrace-timeline`'s activity report (`src/rtrace-timeline/
//! activity_generator.cpp`) slides a window of `--slice` width along the
//! events and plots, at every step, the allocation count, free count and
//! allocated bytes inside the window. Here the range is cut into equal,
//! disjoint slices instead (a histogram the page can draw as bars): an
//! allocation counts in the slice holding its time, a free in the slice
//! holding its free time (with the freed block's size); a slice is
//! `[start, end)`, the last one also holds the range's end.

use super::{MemoryQuery, RateSlice};
use crate::model::{Trace, NEVER_FREED};

/// See [`super::rates`]. The span cut is the query's range, or the trace's
/// time range (the selected allocations' times when the trace has none).
pub(super) fn rates(
    trace: &Trace,
    query: &MemoryQuery,
    selected: &[u32],
    slices: usize,
) -> Vec<RateSlice> {
    let Some(a) = trace.allocations.get(query.resource as usize) else {
        return Vec::new();
    };
    let Some((lo, hi)) = query.range.or_else(|| span(trace, a, selected)) else {
        return Vec::new();
    };
    if slices == 0 || hi < lo {
        return Vec::new();
    }
    let width = i128::from(hi) - i128::from(lo) + 1;
    let n = slices as i128;
    // Rounded up, so that a time's slice by division below agrees with the
    // bounds: `t` is in slice `k` exactly when `k ≤ (t - lo)·n / width < k + 1`.
    let bound = |k: i128| (i128::from(lo) + (width * k + n - 1) / n) as i64;
    let mut out: Vec<RateSlice> = (0..n)
        .map(|k| RateSlice {
            start: bound(k),
            end: bound(k + 1),
            ..RateSlice::default()
        })
        .collect();
    let slice_of = |t: i64| -> Option<usize> {
        if t < lo || t > hi {
            return None;
        }
        let k = (i128::from(t) - i128::from(lo)) * n / width;
        usize::try_from(k).ok()
    };
    for &at in selected {
        let at = at as usize;
        let (Some(&time), Some(&size), Some(&freed)) =
            (a.time.get(at), a.size.get(at), a.free_time.get(at))
        else {
            continue;
        };
        if let Some(s) = slice_of(time).and_then(|k| out.get_mut(k)) {
            s.allocations += 1;
            s.allocated_bytes = s.allocated_bytes.saturating_add(size);
        }
        if freed == NEVER_FREED {
            continue;
        }
        if let Some(s) = slice_of(freed).and_then(|k| out.get_mut(k)) {
            s.frees += 1;
            s.freed_bytes = s.freed_bytes.saturating_add(size);
        }
    }
    out
}

/// The trace's time range, or else the selected allocations' first and
/// last times.
fn span(trace: &Trace, a: &crate::model::Allocations, selected: &[u32]) -> Option<(i64, i64)> {
    trace.time_range().or_else(|| {
        let times = selected
            .iter()
            .filter_map(|&i| a.time.get(i as usize).copied());
        let lo = times.clone().min()?;
        Some((lo, times.max()?))
    })
}
