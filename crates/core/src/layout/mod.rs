//! Viewport → draw list: what the flame chart paints, computed without the
//! web so it can be tested and benchmarked natively.
//!
//! The viewer keeps one [`ThreadIndex`] per thread (span indices grouped by
//! depth, built once per trace). Each frame it asks [`layout_spans`] for the
//! rectangles of the visible rows inside the visible time window of a
//! [`Viewport`]; spans narrower than a pixel are merged, so a frame costs
//! about the pixels on screen, not the spans in the trace. [`lanes`] stacks
//! threads vertically, [`counter`] reduces counter tracks to pixel columns,
//! [`ruler`] picks the time-axis ticks, and [`query`]
//! answers "which span is under the pointer" and "what is its self time".
//!
//! Times here are `f64` offsets from an `origin` (the trace start), so that
//! absolute nanosecond timestamps keep their precision when zoomed to 1 ns.

pub mod counter;
mod index;
pub mod lanes;
pub mod query;
mod rows;
pub mod ruler;
mod viewport;

pub use index::{IndexBuilder, RowSpans, ThreadIndex};
pub use lanes::{stack_lanes, Lane, LaneMetrics};
pub use query::{instant_at, self_time, span_at};
pub use rows::{layout_instants, layout_spans, MarkerRect, SpanRect};
pub use viewport::Viewport;

#[cfg(test)]
pub(crate) mod test_util {
    use crate::model::{Spans, Thread, TraceBuilder};
    use crate::{Format, TimeUnit};

    /// A one-thread trace made of `(start, end, depth-implied nesting)` calls:
    /// each item is `(start, end)` and items nest by containment, in pre-order.
    pub fn thread_of(calls: &[(i64, i64)]) -> Thread {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "t");
        let mut open: Vec<i64> = Vec::new();
        let mut events: Vec<(i64, bool, usize)> = Vec::new();
        for (i, &(s, e)) in calls.iter().enumerate() {
            events.push((s, true, i));
            events.push((e, false, i));
        }
        // Ends before begins at the same time, inner ends before outer ends.
        events.sort_by_key(|&(time, begin, i)| {
            (time, begin, if begin { i as i64 } else { -(i as i64) })
        });
        for (time, begin, i) in events {
            if begin {
                let name = b.intern(&format!("f{i}"));
                b.begin(t, time, name, 0);
                open.push(time);
            } else {
                b.end(t, time);
                open.pop();
            }
        }
        b.finish().threads.remove(0)
    }

    /// `n` back-to-back spans of `len` units at depth 0 starting at 0.
    pub fn flat(n: i64, len: i64) -> Spans {
        let calls: Vec<(i64, i64)> = (0..n).map(|i| (i * len, i * len + len)).collect();
        thread_of(&calls).spans
    }
}
