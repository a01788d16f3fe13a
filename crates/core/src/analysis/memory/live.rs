//! Live bytes and blocks over time ([`live_series`](super::live_series)),
//! the blocks live at a moment and the blocks allocated in a range.
//!
//! A block is live at time `t` when it was allocated at or before `t` and
//! freed after `t` (or never): an allocation and a free at one time both
//! count at that time. The peak follows `sp-rtrace-timeline`'s totals
//! report (`src/rtrace-timeline/totals_generator.cpp`, `reportAlloc`): the
//! first moment live bytes are higher than at every moment before.

use super::{LivePoint, LiveSeries, MemoryQuery, Moment};
use crate::analysis::calltree::TimeRange;
use crate::model::{Allocations, Trace, NEVER_FREED};

/// One change of what is live: `+size` at an allocation, `-size` at a free.
struct Change {
    time: i64,
    bytes: i128,
    blocks: i64,
}

/// The selected blocks' allocations and frees, in time order.
fn changes(a: &Allocations, selected: &[u32]) -> Vec<Change> {
    let mut changes = Vec::with_capacity(selected.len() * 2);
    for &at in selected {
        let at = at as usize;
        let (Some(&time), Some(&size), Some(&freed)) =
            (a.time.get(at), a.size.get(at), a.free_time.get(at))
        else {
            continue;
        };
        let size = i128::from(size);
        changes.push(Change {
            time,
            bytes: size,
            blocks: 1,
        });
        if freed != NEVER_FREED {
            changes.push(Change {
                time: freed,
                bytes: -size,
                blocks: -1,
            });
        }
    }
    changes.sort_by_key(|c| c.time);
    changes
}

/// The trace's end: its latest timestamp, or the latest change.
fn trace_end(trace: &Trace, changes: &[Change]) -> i64 {
    let last = changes.last().map_or(0, |c| c.time);
    trace.time_range().map_or(last, |(_, end)| end.max(last))
}

fn point(time: i64, bytes: i128, blocks: i64) -> LivePoint {
    LivePoint {
        time,
        bytes: u64::try_from(bytes).unwrap_or(0),
        blocks: u64::try_from(blocks).unwrap_or(0),
    }
}

/// See [`super::live_series`]. In a range `[lo, hi]`: a first point at `lo`
/// with what is live then (changes at `lo` included), one point per later
/// change time up to `hi`, the peak among those points, the end at `hi`.
/// Without a range: one point per change time, the end at the trace's end
/// (what was never freed).
pub(super) fn live_series(trace: &Trace, query: &MemoryQuery, selected: &[u32]) -> LiveSeries {
    let Some(a) = trace.allocations.get(query.resource as usize) else {
        return LiveSeries::default();
    };
    let changes = changes(a, selected);
    let (lo, hi) = query.range.unwrap_or_else(|| {
        (
            changes.first().map_or(0, |c| c.time),
            trace_end(trace, &changes),
        )
    });
    let (mut bytes, mut blocks) = live_totals(&changes, lo);
    let mut points = vec![point(lo, bytes, blocks)];
    let mut later = changes
        .iter()
        .skip_while(|c| c.time <= lo)
        .take_while(|c| c.time <= hi)
        .peekable();
    while let Some(c) = later.next() {
        bytes += c.bytes;
        blocks += c.blocks;
        if later.peek().is_none_or(|next| next.time != c.time) {
            points.push(point(c.time, bytes, blocks));
        }
    }
    let mut peak = points.first().copied().unwrap_or_default();
    for p in &points {
        if p.bytes > peak.bytes {
            peak = *p;
        }
    }
    let (end_bytes, end_blocks) = live_totals(&changes, hi);
    LiveSeries {
        points,
        peak,
        end: point(hi, end_bytes, end_blocks),
    }
}

/// Live bytes and blocks at `time` (changes at `time` included).
fn live_totals(changes: &[Change], time: i64) -> (i128, i64) {
    changes
        .iter()
        .take_while(|c| c.time <= time)
        .fold((0, 0), |(b, n), c| (b + c.bytes, n + c.blocks))
}

/// The time a [`Moment`] stands for under the query.
pub(super) fn moment_time(trace: &Trace, query: &MemoryQuery, selected: &[u32], at: Moment) -> i64 {
    match at {
        Moment::At(time) => time,
        Moment::Peak => live_series(trace, query, selected).peak.time,
        Moment::End => match query.range {
            Some((_, hi)) => hi,
            None => live_series(trace, query, selected).end.time,
        },
    }
}

/// See [`super::live_at`]: allocated at or before the moment, freed after it.
/// `End` without a range is the trace's end: the blocks never freed.
pub(super) fn live_at(
    trace: &Trace,
    query: &MemoryQuery,
    selected: &[u32],
    at: Moment,
) -> Vec<u32> {
    let Some(a) = trace.allocations.get(query.resource as usize) else {
        return Vec::new();
    };
    let time = moment_time(trace, query, selected, at);
    selected
        .iter()
        .copied()
        .filter(|&i| {
            let i = i as usize;
            matches!((a.time.get(i), a.free_time.get(i)), (Some(&t), Some(&f)) if t <= time && f > time)
        })
        .collect()
}

/// See [`super::allocated_in_range`]: allocation time within `[lo, hi]`.
pub(super) fn allocated_in(
    trace: &Trace,
    resource: u32,
    range: Option<TimeRange>,
    selected: &[u32],
) -> Vec<u32> {
    let Some(a) = trace.allocations.get(resource as usize) else {
        return Vec::new();
    };
    selected
        .iter()
        .copied()
        .filter(|&i| {
            a.time
                .get(i as usize)
                .is_some_and(|&t| range.is_none_or(|(lo, hi)| lo <= t && t <= hi))
        })
        .collect()
}
