//! The row index of a listing made of spans and markers (uftrace's replay
//! layout): every thread's calls and events as one time-ordered sequence.
//!
//! Per thread, a walk of the spans in start order gives the entries and
//! exits in nesting order (an exit comes before the next call at its depth
//! or above it), with the thread's markers between them by time; the
//! threads' walks are merged by time. A call with nothing inside it is one
//! row (a leaf), so its exit is not a row of its own.
//!
//! A row is a `u32`: a span's entry `2g`, its exit `2g + 1` (`g` the span's
//! place over all threads, thread after thread), a marker `2S + m` (`S`
//! spans in all, `m` the marker's place over all threads). Leaves are a bit
//! each. The rows are in time order, so a span's row is found by binary
//! search on its start time.

use super::{RowInfo, RowKind, Rows};
use crate::analysis::meter::Meter;
use crate::model::{Thread, Trace};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What a row of a span listing is, by place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SpanRow {
    Entry { thread: u32, span: u32 },
    Exit { thread: u32, span: u32 },
    Leaf { thread: u32, span: u32 },
    Marker { thread: u32, instant: u32 },
}

/// How the rows of a span listing are written: the layout's half.
pub(super) trait SpanLayout {
    /// The lines before the first row.
    fn header(&self, trace: &Trace) -> Vec<String>;
    /// Appends `row`'s text; `previous` is the row before it, if any (for
    /// delta columns and task changes).
    fn write(&self, trace: &Trace, row: SpanRow, previous: Option<SpanRow>, out: &mut String);
    /// True when marker `instant` of `thread` is a row of the listing.
    fn shows_marker(&self, trace: &Trace, thread: u32, instant: u32) -> bool;
}

/// A span listing: the index and the layout that writes it.
pub(super) struct SpanRows<L: SpanLayout> {
    layout: L,
    rows: Vec<u32>,
    /// Bit `g`: span `g` is a leaf (one row).
    leaf: Vec<u64>,
    /// Spans before each thread, and in all at the end.
    span_base: Vec<u32>,
    /// Markers before each thread.
    marker_base: Vec<u32>,
}

impl<L: SpanLayout> SpanRows<L> {
    /// Builds the index of `trace`'s rows, spending `meter` a row at a time.
    pub(super) async fn build(trace: &Trace, layout: L, meter: &Meter) -> SpanRows<L> {
        let span_base = bases(trace.threads.iter().map(|t| t.spans.len()));
        let marker_base = bases(trace.threads.iter().map(|t| t.instants.len()));
        let spans = span_base.last().copied().unwrap_or(0) as usize;
        let mut rows = Vec::new();
        let mut leaf = vec![0u64; spans.div_ceil(64)];
        let mut walks: Vec<Walk> = (0..trace.threads.len()).map(|_| Walk::default()).collect();
        let mut next: BinaryHeap<Reverse<(i64, u32)>> = BinaryHeap::new();
        for (index, thread) in trace.threads.iter().enumerate() {
            let walk = &mut walks[index];
            walk.advance(thread, index as u32, &layout, trace);
            if let Some(time) = walk.time() {
                next.push(Reverse((time, index as u32)));
            }
        }
        let marker_row = 2 * spans as u64;
        while let Some(Reverse((_, index))) = next.pop() {
            let t = index as usize;
            let (Some(walk), Some(thread)) = (walks.get_mut(t), trace.threads.get(t)) else {
                continue;
            };
            let base = u64::from(span_base.get(t).copied().unwrap_or(0));
            match walk.take() {
                Some(Step::Entry(span)) => rows.push(row_id(2 * (base + u64::from(span)))),
                Some(Step::Exit(span, is_leaf)) => {
                    let g = base + u64::from(span);
                    if is_leaf {
                        if let Some(bits) = leaf.get_mut((g / 64) as usize) {
                            *bits |= 1 << (g % 64);
                        }
                    } else {
                        rows.push(row_id(2 * g + 1));
                    }
                }
                Some(Step::Marker(instant)) => {
                    let m = u64::from(marker_base.get(t).copied().unwrap_or(0));
                    rows.push(row_id(marker_row + m + u64::from(instant)));
                }
                None => {}
            }
            walk.advance(thread, index, &layout, trace);
            if let Some(time) = walk.time() {
                next.push(Reverse((time, index)));
            }
            meter.tick().await;
        }
        SpanRows {
            layout,
            rows,
            leaf,
            span_base,
            marker_base,
        }
    }

    fn total_spans(&self) -> u32 {
        self.span_base.last().copied().unwrap_or(0)
    }

    /// What row `row` is.
    fn row(&self, row: usize) -> Option<SpanRow> {
        let id = *self.rows.get(row)?;
        let spans = self.total_spans();
        if id / 2 < spans {
            let g = id / 2;
            let (thread, span) = place(&self.span_base, g)?;
            if id % 2 == 1 {
                return Some(SpanRow::Exit { thread, span });
            }
            let is_leaf = self
                .leaf
                .get((g / 64) as usize)
                .is_some_and(|bits| bits & (1 << (g % 64)) != 0);
            return Some(if is_leaf {
                SpanRow::Leaf { thread, span }
            } else {
                SpanRow::Entry { thread, span }
            });
        }
        let m = id.checked_sub(2 * spans)?;
        let (thread, instant) = place(&self.marker_base, m)?;
        Some(SpanRow::Marker { thread, instant })
    }

    /// The time of row `row` (a span's start or end, a marker's time).
    fn time(&self, trace: &Trace, row: usize) -> i64 {
        let at = |thread: u32| trace.threads.get(thread as usize);
        let time = match self.row(row) {
            Some(SpanRow::Entry { thread, span } | SpanRow::Leaf { thread, span }) => {
                at(thread).and_then(|t| t.spans.start.get(span as usize).copied())
            }
            Some(SpanRow::Exit { thread, span }) => {
                at(thread).and_then(|t| t.spans.end.get(span as usize).copied())
            }
            Some(SpanRow::Marker { thread, instant }) => {
                at(thread).and_then(|t| t.instants.time.get(instant as usize).copied())
            }
            None => None,
        };
        time.unwrap_or(i64::MAX)
    }

    /// The row holding id `id`, which is at time `time`: rows are in time
    /// order, so only the rows at that time are looked through.
    fn find(&self, trace: &Trace, id: u32, time: i64) -> Option<usize> {
        let first = partition(self.rows.len(), |row| self.time(trace, row) < time);
        (first..self.rows.len())
            .take_while(|&row| self.time(trace, row) <= time)
            .find(|&row| self.rows.get(row) == Some(&id))
    }
}

/// The first index in `0..len` where `before` is false (`before` is true
/// then false along the range).
fn partition(len: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, len);
    while low < high {
        let middle = low + (high - low) / 2;
        if before(middle) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    low
}

impl<L: SpanLayout> Rows for SpanRows<L> {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn header(&self, trace: &Trace) -> Vec<String> {
        self.layout.header(trace)
    }

    fn write_row(&self, trace: &Trace, row: usize, out: &mut String) {
        if let Some(this) = self.row(row) {
            let previous = row.checked_sub(1).and_then(|r| self.row(r));
            self.layout.write(trace, this, previous, out);
        }
    }

    fn info(&self, trace: &Trace, row: usize) -> RowInfo {
        let Some(this) = self.row(row) else {
            return RowInfo::new(RowKind::Note);
        };
        let (kind, thread, span, instant) = match this {
            SpanRow::Entry { thread, span } => (RowKind::Entry, thread, Some(span), None),
            SpanRow::Exit { thread, span } => (RowKind::Exit, thread, Some(span), None),
            SpanRow::Leaf { thread, span } => (RowKind::Leaf, thread, Some(span), None),
            SpanRow::Marker { thread, instant } => (RowKind::Event, thread, None, Some(instant)),
        };
        let lane = trace.threads.get(thread as usize);
        let mut info = RowInfo::new(kind);
        info.thread = Some(thread);
        info.span = span;
        if let (Some(lane), Some(span)) = (lane, span) {
            let s = span as usize;
            info.depth = lane.spans.depth.get(s).copied().unwrap_or(0);
            info.name = lane.spans.name.get(s).copied();
            info.time = if kind == RowKind::Exit {
                lane.spans.end.get(s).copied()
            } else {
                lane.spans.start.get(s).copied()
            };
        }
        if let (Some(lane), Some(instant)) = (lane, instant) {
            let i = instant as usize;
            info.time = lane.instants.time.get(i).copied();
            info.name = lane.instants.name.get(i).copied();
            info.depth = info.time.map_or(0, |t| open_depth(lane, t));
        }
        if let (RowKind::Entry, Some(lane), Some(span)) = (kind, lane, span) {
            let end = lane
                .spans
                .end
                .get(span as usize)
                .copied()
                .unwrap_or(i64::MAX);
            let exit = self.rows.get(row).map_or(u32::MAX, |id| id + 1);
            info.closed_by = self.find(trace, exit, end);
        }
        info
    }

    fn row_of_span(&self, trace: &Trace, thread: u32, span: u32) -> Option<usize> {
        let base = *self.span_base.get(thread as usize)?;
        let start = *trace
            .threads
            .get(thread as usize)?
            .spans
            .start
            .get(span as usize)?;
        self.find(trace, 2 * (base + span), start)
    }
}

/// Where a thread's walk stands.
#[derive(Default)]
struct Walk {
    next_span: usize,
    next_marker: usize,
    /// Open spans, outermost first.
    open: Vec<u32>,
    /// The step taken last, to tell a leaf (its exit right after its entry).
    last_entry: Option<u32>,
    pending: Option<(i64, Step)>,
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Entry(u32),
    /// The span, and whether nothing came between its entry and its exit.
    Exit(u32, bool),
    Marker(u32),
}

impl Walk {
    fn time(&self) -> Option<i64> {
        self.pending.map(|(time, _)| time)
    }

    fn take(&mut self) -> Option<Step> {
        let (_, step) = self.pending.take()?;
        self.last_entry = match step {
            Step::Entry(span) => Some(span),
            _ => None,
        };
        Some(step)
    }

    /// Finds the thread's next step (entry, exit or marker).
    fn advance(&mut self, thread: &Thread, index: u32, layout: &impl SpanLayout, trace: &Trace) {
        let spans = &thread.spans;
        let instants = &thread.instants;
        while self.next_marker < instants.len()
            && !layout.shows_marker(trace, index, self.next_marker as u32)
        {
            self.next_marker += 1;
        }
        let next_start = spans.start.get(self.next_span).copied();
        let next_depth = spans.depth.get(self.next_span).copied();
        let marker_time = instants.time.get(self.next_marker).copied();
        // The innermost open span closes first if it ends before what comes
        // next, or if the next call is at its depth or above.
        if let Some(&top) = self.open.last() {
            let top_end = spans.end.get(top as usize).copied().unwrap_or(i64::MAX);
            let top_depth = spans.depth.get(top as usize).copied().unwrap_or(0);
            let call_outside = next_depth.is_some_and(|d| d <= top_depth);
            let before_call = next_start.is_none_or(|s| top_end <= s) || call_outside;
            let before_marker = marker_time.is_none_or(|m| top_end <= m);
            if before_call && before_marker {
                self.open.pop();
                let is_leaf = self.last_entry == Some(top);
                self.pending = Some((top_end, Step::Exit(top, is_leaf)));
                return;
            }
        }
        match (next_start, marker_time) {
            (Some(start), marker) if marker.is_none_or(|m| start <= m) => {
                let span = self.next_span as u32;
                self.next_span += 1;
                self.open.push(span);
                self.pending = Some((start, Step::Entry(span)));
            }
            (_, Some(time)) => {
                let marker = self.next_marker as u32;
                self.next_marker += 1;
                self.pending = Some((time, Step::Marker(marker)));
            }
            _ => self.pending = None,
        }
    }
}

/// Running totals: entry `i` is the sum of the first `i` counts; the last
/// entry is the sum of all.
fn bases(counts: impl Iterator<Item = usize>) -> Vec<u32> {
    let mut total = 0u32;
    let mut out = vec![0];
    for count in counts {
        total = total.saturating_add(count as u32);
        out.push(total);
    }
    out
}

/// The thread and local place of global place `g` over `base`.
fn place(base: &[u32], g: u32) -> Option<(u32, u32)> {
    let thread = base.partition_point(|&b| b <= g).checked_sub(1)?;
    let local = g - base.get(thread)?;
    Some((thread as u32, local))
}

fn row_id(id: u64) -> u32 {
    u32::try_from(id).unwrap_or(u32::MAX)
}

/// How many spans of `thread` are open at `time` (the depth a marker at
/// that time is written at).
fn open_depth(thread: &Thread, time: i64) -> u16 {
    let spans = &thread.spans;
    let last = spans.start.partition_point(|&s| s <= time);
    (0..last)
        .rev()
        .find(|&s| spans.end.get(s).is_some_and(|&e| e > time))
        .and_then(|s| spans.depth.get(s).map(|d| d + 1))
        .unwrap_or(0)
}
