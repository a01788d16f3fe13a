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

use super::span_walk::{Step, Walk, NO_EXIT};
use crate::analysis::listing::{RowInfo, RowKind, Rows};
use crate::analysis::meter::Meter;
use crate::model::Trace;
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What a row of a span listing is, by place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::analysis::listing) enum SpanRow {
    Entry { thread: u32, span: u32 },
    Exit { thread: u32, span: u32 },
    Leaf { thread: u32, span: u32 },
    Marker { thread: u32, instant: u32 },
}

/// What a layout is told of a row besides what it is.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::analysis::listing) struct RowContext {
    /// The time of the row's thread's row before it (only when the layout
    /// asks for it, [`SpanLayout::needs_previous_time`]).
    pub previous_time: Option<i64>,
    /// The time of the thread's row before that one (same condition).
    pub before_previous_time: Option<i64>,
    /// The earliest call of any thread (uftrace's first timestamp, which
    /// `elapsed` counts from, unless a context switch came before it).
    pub first_time: Option<i64>,
    /// A marker's nesting depth (open calls of its thread at its time).
    pub depth: u16,
    /// The thread of the row before (any thread), for task changes (only
    /// when the layout asks, [`SpanLayout::needs_previous_thread`]).
    pub previous_thread: Option<u32>,
}

/// How the rows of a span listing are written: the layout's half.
pub(in crate::analysis::listing) trait SpanLayout {
    /// The lines before the first row.
    fn header(&self, trace: &Trace) -> Vec<String>;
    /// The lines after the last row.
    fn footer(&self, _trace: &Trace) -> Vec<String> {
        Vec::new()
    }
    /// Appends `row`'s text.
    fn write(&self, trace: &Trace, row: SpanRow, context: &RowContext, out: &mut String);
    /// The depth marker `instant` of `thread` is written at when `open`
    /// calls of its thread are open at its time; `None` hides it.
    fn marker_depth(&self, trace: &Trace, thread: u32, instant: u32, open: u16) -> Option<u16>;
    /// False for a span whose rows the listing leaves out (its records
    /// still keep the call around it from being one row).
    fn shows_span(&self, _trace: &Trace, _thread: u32, _span: u32) -> bool {
        true
    }
    /// False for a span shown by its exit row alone (a call its thread
    /// began inside of).
    fn shows_entry(&self, _trace: &Trace, _thread: u32, _span: u32) -> bool {
        true
    }
    /// True when marker `instant` of `thread` comes after the exits at its
    /// time (other markers come before them).
    fn marker_follows_exits(&self, _trace: &Trace, _thread: u32, _instant: u32) -> bool {
        false
    }
    /// True when rows need [`RowContext::previous_thread`].
    fn needs_previous_thread(&self) -> bool {
        false
    }
    /// True when rows need [`RowContext::previous_time`].
    fn needs_previous_time(&self) -> bool {
        false
    }
    /// True when `row` sets its thread's time for the next row's
    /// [`RowContext::previous_time`].
    fn sets_time(&self, _trace: &Trace, _row: SpanRow) -> bool {
        true
    }
}

/// A span listing: the index and the layout that writes it.
pub(in crate::analysis::listing) struct SpanRows<L: SpanLayout> {
    layout: L,
    rows: Vec<u32>,
    /// Bit `g`: span `g` is a leaf (one row).
    leaf: Vec<u64>,
    /// Spans before each thread, and in all at the end.
    span_base: Vec<u32>,
    /// Markers before each thread.
    marker_base: Vec<u32>,
    /// Per marker (global place): the depth it is written at.
    marker_depth: Vec<u16>,
    /// Each thread's last row time as of the row written last, so writing
    /// the rows in order finds [`RowContext::previous_time`] at once.
    sequence: RefCell<Sequence>,
    /// The earliest call of any thread.
    first_time: Option<i64>,
}

/// The index as the build takes the walks' steps.
struct Taken {
    rows: Vec<u32>,
    leaf: Vec<u64>,
    marker_depth: Vec<u16>,
    /// The last record taken (a row, or a call the listing leaves out).
    last: Option<u32>,
}

impl Taken {
    /// Takes `step` of thread `index` (with its span and marker bases and
    /// its open calls); markers' rows start at `marker_row`.
    fn take(
        &mut self,
        trace: &Trace,
        layout: &impl SpanLayout,
        (index, (span_base, marker_base), open): (u32, (u32, u32), u16),
        step: Step,
        marker_row: u64,
    ) {
        let base = u64::from(span_base);
        match step {
            Step::Entry(span) => {
                let id = row_id(2 * (base + u64::from(span)));
                // An entry that is no row can't make its call one row.
                let shown =
                    layout.shows_span(trace, index, span) && layout.shows_entry(trace, index, span);
                self.last = shown.then_some(id);
                if shown {
                    self.rows.push(id);
                }
            }
            Step::Exit(span) => {
                let g = base + u64::from(span);
                let flags = trace
                    .threads
                    .get(index as usize)
                    .and_then(|t| t.spans.flags.get(span as usize))
                    .copied()
                    .unwrap_or(0);
                // A call whose exit was never recorded (still open at the
                // end, lost, left by longjmp or exec) has no exit row and is
                // never a leaf. A call whose exit comes right after its
                // entry, over all threads, is one row (uftrace merges them).
                let has_exit = flags & NO_EXIT == 0;
                if !layout.shows_span(trace, index, span) {
                    self.last = Some(row_id(2 * g + 1));
                } else if has_exit && self.last == Some(row_id(2 * g)) {
                    if let Some(bits) = self.leaf.get_mut((g / 64) as usize) {
                        *bits |= 1 << (g % 64);
                    }
                } else if has_exit {
                    self.last = Some(row_id(2 * g + 1));
                    self.rows.push(row_id(2 * g + 1));
                }
            }
            Step::Marker(instant) => {
                let m = u64::from(marker_base) + u64::from(instant);
                if let Some(depth) = layout.marker_depth(trace, index, instant, open) {
                    if let Some(slot) = self.marker_depth.get_mut(m as usize) {
                        *slot = depth;
                    }
                    self.last = Some(row_id(marker_row + m));
                    self.rows.push(row_id(marker_row + m));
                }
            }
        }
    }
}

#[derive(Default)]
struct Sequence {
    next_row: usize,
    last_time: Vec<[Option<i64>; 2]>,
}

impl<L: SpanLayout> SpanRows<L> {
    /// Builds the index of `trace`'s rows, spending `meter` a row at a time.
    pub(in crate::analysis::listing) async fn build(
        trace: &Trace,
        layout: L,
        meter: &Meter,
    ) -> SpanRows<L> {
        let span_base = bases(trace.threads.iter().map(|t| t.spans.len()));
        let marker_base = bases(trace.threads.iter().map(|t| t.instants.len()));
        let spans = span_base.last().copied().unwrap_or(0) as usize;
        let markers = marker_base.last().copied().unwrap_or(0) as usize;
        let mut index_of = Taken {
            // At most an entry and an exit a span and a row a marker: taken
            // at once, the vector never copies itself while it grows (a
            // 15 M-row copy is a long pause in one slice of the page's build).
            rows: Vec::with_capacity(2 * spans + markers),
            leaf: vec![0u64; spans.div_ceil(64)],
            marker_depth: vec![0u16; markers],
            last: None,
        };
        let mut walks: Vec<Walk> = (0..trace.threads.len()).map(|_| Walk::default()).collect();
        let mut next: BinaryHeap<Reverse<(i64, u32)>> = BinaryHeap::new();
        for (index, thread) in trace.threads.iter().enumerate() {
            let walk = &mut walks[index];
            walk.advance(thread, |m| {
                layout.marker_follows_exits(trace, index as u32, m)
            });
            if let Some(time) = walk.time() {
                next.push(Reverse((time, index as u32)));
            }
        }
        let marker_row = 2 * spans as u64;
        let mut current = next.pop();
        while let Some(Reverse((_, index))) = current {
            let t = index as usize;
            let (Some(walk), Some(thread)) = (walks.get_mut(t), trace.threads.get(t)) else {
                continue;
            };
            let open = walk.open.len() as u16;
            if let Some(step) = walk.take() {
                let bases = (
                    span_base.get(t).copied().unwrap_or(0),
                    marker_base.get(t).copied().unwrap_or(0),
                );
                index_of.take(trace, &layout, (index, bases, open), step, marker_row);
            }
            walk.advance(thread, |m| layout.marker_follows_exits(trace, index, m));
            current = match walk.time() {
                None => next.pop(),
                Some(time) => {
                    let this = Reverse((time, index));
                    match next.peek_mut() {
                        // Another thread's step comes first: it swaps places
                        // with this one (one sift, not a push and a pop).
                        Some(mut first) if *first > this => {
                            Some(std::mem::replace(&mut *first, this))
                        }
                        // This thread stays first: no heap work at all.
                        _ => Some(this),
                    }
                }
            };
            meter.tick().await;
        }
        SpanRows {
            layout,
            rows: index_of.rows,
            leaf: index_of.leaf,
            span_base,
            marker_base,
            marker_depth: index_of.marker_depth,
            sequence: RefCell::new(Sequence::default()),
            first_time: trace
                .threads
                .iter()
                .filter_map(|t| t.spans.start.first().copied())
                .min(),
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
        self.row(row)
            .and_then(|r| row_time(trace, r))
            .unwrap_or(i64::MAX)
    }

    /// The row holding id `id`, which is at time `time`: rows are in time
    /// order, so only the rows at that time are looked through.
    fn find(&self, trace: &Trace, id: u32, time: i64) -> Option<usize> {
        let first = partition(self.rows.len(), |row| self.time(trace, row) < time);
        (first..self.rows.len())
            .take_while(|&row| self.time(trace, row) <= time)
            .find(|&row| self.rows.get(row) == Some(&id))
    }

    /// The times of the last two rows before `row` of `thread` that set
    /// its thread's time (the last one first).
    fn previous_times(&self, trace: &Trace, row: usize, thread: u32) -> [Option<i64>; 2] {
        let mut sequence = self.sequence.borrow_mut();
        if row == 0 {
            sequence.next_row = 0;
            sequence.last_time.clear();
            sequence.last_time.resize(trace.threads.len(), [None; 2]);
        }
        if sequence.next_row == row && sequence.last_time.len() == trace.threads.len() {
            let times = sequence
                .last_time
                .get(thread as usize)
                .copied()
                .unwrap_or_default();
            if let Some(this) = self.row(row) {
                if self.layout.sets_time(trace, this) {
                    let slot = sequence.last_time.get_mut(row_thread(this) as usize);
                    if let Some(slot) = slot {
                        *slot = [row_time(trace, this), slot[0]];
                    }
                }
            }
            sequence.next_row = row + 1;
            return times;
        }
        let mut earlier = (0..row).rev().filter_map(|r| {
            let earlier = self.row(r)?;
            (row_thread(earlier) == thread && self.layout.sets_time(trace, earlier))
                .then(|| row_time(trace, earlier))
                .flatten()
        });
        [earlier.next(), earlier.next()]
    }
}

/// The thread of a row.
fn row_thread(row: SpanRow) -> u32 {
    match row {
        SpanRow::Entry { thread, .. }
        | SpanRow::Exit { thread, .. }
        | SpanRow::Leaf { thread, .. }
        | SpanRow::Marker { thread, .. } => thread,
    }
}

/// The time of a row: a call's start (entry, leaf) or end (exit), a marker's time.
pub(in crate::analysis::listing) fn row_time(trace: &Trace, row: SpanRow) -> Option<i64> {
    let at = |thread: u32| trace.threads.get(thread as usize);
    match row {
        SpanRow::Entry { thread, span } | SpanRow::Leaf { thread, span } => {
            at(thread)?.spans.start.get(span as usize).copied()
        }
        SpanRow::Exit { thread, span } => at(thread)?.spans.end.get(span as usize).copied(),
        SpanRow::Marker { thread, instant } => {
            at(thread)?.instants.time.get(instant as usize).copied()
        }
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

    fn footer(&self, trace: &Trace) -> Vec<String> {
        self.layout.footer(trace)
    }

    fn write_row(&self, trace: &Trace, row: usize, out: &mut String) {
        let Some(this) = self.row(row) else {
            return;
        };
        let thread = row_thread(this);
        let mut context = RowContext::default();
        if self.layout.needs_previous_thread() {
            context.previous_thread = row.checked_sub(1).and_then(|r| self.row(r)).map(row_thread);
        }
        if self.layout.needs_previous_time() {
            [context.previous_time, context.before_previous_time] =
                self.previous_times(trace, row, thread);
            context.first_time = self.first_time;
        }
        if let SpanRow::Marker { thread, instant } = this {
            let m = self.marker_base.get(thread as usize).copied().unwrap_or(0) + instant;
            context.depth = self.marker_depth.get(m as usize).copied().unwrap_or(0);
        }
        self.layout.write(trace, this, &context, out);
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
            let m = self.marker_base.get(thread as usize).copied().unwrap_or(0) + instant;
            info.depth = self.marker_depth.get(m as usize).copied().unwrap_or(0);
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
