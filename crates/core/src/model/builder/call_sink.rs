//! [`CallSink`]: the builder's fast lane for a decoder's hot loop of plain
//! calls and returns.

use super::{OpenState, SpanRef, TIME_LIMIT};
use crate::model::{Spans, StrId};

/// One thread's span columns and call stack, borrowed from the builder for
/// the common case of a decoder's hot loop: a record in time order that
/// opens or closes a call. It keeps the builder's invariants with fewer
/// steps per record (no thread look-up, no clamping: a time that would need
/// repair is refused by [`CallSink::fits`] and goes through the builder's
/// general methods instead).
pub struct CallSink<'a> {
    pub(super) spans: &'a mut Spans,
    pub(super) open: &'a mut OpenState,
    pub(super) events: &'a mut u64,
    pub(super) first_time: &'a mut Option<i64>,
    pub(super) last_time: &'a mut Option<i64>,
}

impl CallSink<'_> {
    /// True when a record at `time` needs no repair: not before the
    /// thread's latest span time and within ±2^62 (the builder's time limit).
    #[inline]
    pub fn fits(&self, time: i64) -> bool {
        time >= self.open.cursor && (-TIME_LIMIT..=TIME_LIMIT).contains(&time)
    }

    /// How many spans are open.
    #[inline]
    pub fn depth(&self) -> usize {
        self.open.stack.len()
    }

    /// The innermost open span and its name.
    #[inline]
    pub fn top(&self) -> Option<(SpanRef, StrId)> {
        let span = *self.open.stack.last()?;
        Some((span, *self.spans.name.get(span as usize)?))
    }

    /// Counts one input record at `time` (which [`CallSink::fits`]) and
    /// widens the thread's time range to it, as the builder's
    /// [`count_events`](super::TraceBuilder::count_events) and
    /// [`touch`](super::TraceBuilder::touch) do.
    #[inline]
    pub fn record(&mut self, time: i64) {
        *self.events += 1;
        *self.first_time = Some(self.first_time.map_or(time, |f| f.min(time)));
        *self.last_time = Some(self.last_time.map_or(time, |l| l.max(time)));
    }

    /// Opens a span at `time` (which [`CallSink::fits`]), as
    /// the builder's [`begin`](super::TraceBuilder::begin) with no flags.
    #[inline]
    pub fn begin(&mut self, time: i64, name: StrId) -> SpanRef {
        self.open.cursor = time;
        let spans = &mut *self.spans;
        let index = spans.start.len() as SpanRef;
        let depth = u16::try_from(self.open.stack.len()).unwrap_or(u16::MAX);
        spans.start.push(time);
        spans.end.push(time);
        spans.depth.push(depth);
        spans.name.push(name);
        spans.flags.push(0);
        self.open.stack.push(index);
        index
    }

    /// Closes the innermost open span at `time` (which [`CallSink::fits`]),
    /// as the builder's [`end`](super::TraceBuilder::end); its start, or
    /// `None` when nothing is open.
    #[inline]
    pub fn end(&mut self, time: i64) -> Option<i64> {
        self.open.cursor = time;
        let span = self.open.stack.pop()? as usize;
        if let Some(end) = self.spans.end.get_mut(span) {
            *end = time;
        }
        self.spans.start.get(span).copied()
    }
}
