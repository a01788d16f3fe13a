//! Spans of one step each, written whole after the fact: for a decoder whose
//! every record is a span of length 1 in record order (sp-rtrace's calls),
//! the span columns can wait until the records are gone, so that the two
//! never take memory at once (issue 20: the page's memory keeps its
//! high-water mark).

use super::TraceBuilder;
use crate::model::{StrId, ThreadRef};

impl TraceBuilder {
    /// Appends to thread `t` one top-level span per name: the `i`-th from
    /// `first_time + i` to `first_time + i + 1`, named `names[i]`. Details
    /// may already have been given to these spans by index. The names
    /// become the thread's name column when it has no spans yet (no copy).
    pub fn step_spans(&mut self, t: ThreadRef, first_time: i64, names: Vec<StrId>) {
        let empty = (self.trace.threads.get(t as usize)).is_some_and(|th| th.spans.is_empty());
        let no_open = self.depth(t) == 0;
        if !(empty && no_open) || names.is_empty() {
            return self.step_spans_one_by_one(t, first_time, &names);
        }
        let last = first_time.saturating_add(names.len() as i64);
        // Both ends through the clamp, so the times are what `begin` and
        // `end` would have written.
        let (first, last) = (self.monotonic(t, first_time), self.monotonic(t, last));
        self.touch(t, first);
        self.touch(t, last);
        let Some(thread) = self.trace.threads.get_mut(t as usize) else {
            return;
        };
        let spans = &mut thread.spans;
        let n = names.len();
        spans.start.reserve_exact(n);
        spans.end.reserve_exact(n);
        spans.depth.reserve_exact(n);
        spans.flags.reserve_exact(n);
        let step = |i: usize| first.saturating_add(i as i64).min(last);
        spans.start.extend((0..n).map(step));
        spans.end.extend((1..=n).map(step));
        spans.depth.resize(n, 0);
        spans.flags.resize(n, 0);
        spans.name = names;
    }

    /// [`TraceBuilder::step_spans`] through `begin` and `end`.
    fn step_spans_one_by_one(&mut self, t: ThreadRef, first_time: i64, names: &[StrId]) {
        for (i, &name) in names.iter().enumerate() {
            let time = first_time.saturating_add(i as i64);
            self.begin(t, time, name, 0);
            self.end(t, time.saturating_add(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Format, TimeUnit, TraceBuilder};

    /// The columns `step_spans` writes are the ones `begin` and `end` write.
    #[test]
    fn step_spans_write_what_begin_and_end_write() {
        let made = |whole: bool| {
            let mut b = TraceBuilder::new(Format::SpRtrace, TimeUnit::Ns);
            let p = b.process("1", "p");
            let t = b.thread(p, "1", "t");
            let names = vec![b.intern("malloc"), b.intern("free"), b.intern("malloc")];
            if whole {
                b.step_spans(t, 1, names);
            } else {
                b.step_spans_one_by_one(t, 1, &names);
            }
            b.finish()
        };
        let (whole, one_by_one) = (made(true), made(false));
        let (a, b) = (&whole.threads[0], &one_by_one.threads[0]);
        assert_eq!(a.spans.start, [1, 2, 3]);
        assert_eq!(a.spans.end, [2, 3, 4]);
        assert_eq!(a.spans.start, b.spans.start);
        assert_eq!(a.spans.end, b.spans.end);
        assert_eq!(a.spans.depth, b.spans.depth);
        assert_eq!(a.spans.name, b.spans.name);
        assert_eq!(a.spans.flags, b.spans.flags);
        assert_eq!(a.time_range(), b.time_range());
    }
}
