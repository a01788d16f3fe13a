//! A small picture of a trace still being built, for the viewer to draw
//! while the decoder is busy with the rest ([`TraceBuilder::preview`]).
//!
//! It keeps the shallow spans only, at about screen resolution: per thread
//! and depth, every span at least one time bucket long, and one shorter
//! span per bucket where nothing longer stands. Its size depends on the
//! limits, not on how much was decoded, so that sending it costs little.

use super::TraceBuilder;
use crate::model::{Process, Spans, Thread, Trace, SPAN_OPEN_AT_END};
use std::collections::HashMap;

/// How big a preview may grow.
#[derive(Clone, Copy, Debug)]
pub struct PreviewLimits {
    /// Spans at this depth and deeper are left out.
    pub depths: u16,
    /// Time buckets over the time decoded so far (about the timeline's
    /// width in pixels).
    pub buckets: u32,
    /// Spans over all threads; threads past it get none.
    pub spans: usize,
}

impl Default for PreviewLimits {
    fn default() -> Self {
        PreviewLimits {
            depths: 8,
            buckets: 1024,
            spans: 100_000,
        }
    }
}

impl PreviewLimits {
    /// The width of a time bucket over the time range `range` (1 when
    /// nothing was decoded yet).
    pub fn bucket(&self, range: Option<(i64, i64)>) -> i64 {
        range
            .map_or(1, |(first, last)| {
                last.saturating_sub(first) / i64::from(self.buckets.max(1))
            })
            .max(1)
    }
}

/// What the previews of one trace remember between calls, so that each
/// call looks only at the spans built since the last one (and at the spans
/// it kept): a decoder's time is spent decoding, not re-reading its columns.
#[derive(Default)]
pub struct PreviewCursor {
    threads: Vec<ThreadCursor>,
}

/// One thread's side of a [`PreviewCursor`].
#[derive(Default)]
struct ThreadCursor {
    /// Spans before this index were looked at.
    seen: usize,
    /// Indices of the spans kept, in start order; every kept span's parent
    /// is kept too.
    kept: Vec<u32>,
    /// Per depth, as in [`Thinning`], carried over from the last look.
    thinning: Thinning,
}

/// The rule that keeps a span: a parent kept, and at least one bucket
/// long, or starting a bucket past the last span kept at its depth, or
/// still open (its length is not known yet).
#[derive(Default)]
struct Thinning {
    /// Per depth: where the next short span may start.
    next_free: Vec<i64>,
    /// Per depth: was the latest span seen at that depth (the next ones'
    /// parent) kept?
    kept: Vec<bool>,
}

impl Thinning {
    fn new(levels: usize) -> Thinning {
        Thinning {
            next_free: vec![i64::MIN; levels],
            kept: vec![false; levels],
        }
    }

    /// Does the span at `depth` from `start` to `end` (`None`: still open) stay?
    fn keep(&mut self, depth: usize, start: i64, end: Option<i64>, bucket: i64) -> bool {
        let parent_kept = depth == 0 || self.kept.get(depth - 1).copied().unwrap_or(false);
        let free = self.next_free.get(depth).copied().unwrap_or(i64::MIN);
        let keep = parent_kept
            && end.is_none_or(|end| end.saturating_sub(start) >= bucket || start >= free);
        if let Some(k) = self.kept.get_mut(depth) {
            *k = keep;
        }
        if keep {
            if let Some(n) = self.next_free.get_mut(depth) {
                let after = start.saturating_add(bucket);
                *n = end.map_or(after, |end| end.max(after));
            }
        }
        keep
    }
}

impl TraceBuilder {
    /// The trace so far, reduced to `limits`: threads and processes as
    /// known now, shallow spans (still-open calls drawn to their thread's
    /// last time and flagged [`SPAN_OPEN_AT_END`]), names only for the spans
    /// kept. Details, markers, counters and tables are left out. `cursor`
    /// (the same one for every call on this builder) remembers what earlier
    /// calls looked at.
    pub fn preview(&self, cursor: &mut PreviewCursor, limits: &PreviewLimits) -> Trace {
        let source = &self.trace;
        let mut trace = Trace {
            format: source.format,
            time_unit: source.time_unit,
            processes: source.processes.clone(),
            ..Trace::default()
        };
        let bucket = limits.bucket(source.time_range());
        let levels = usize::from(limits.depths);
        if cursor.threads.len() < source.threads.len() {
            cursor
                .threads
                .resize_with(source.threads.len(), || ThreadCursor {
                    thinning: Thinning::new(levels),
                    ..ThreadCursor::default()
                });
        }
        // The builder's string id → the preview's.
        let mut names: HashMap<u32, u32> = HashMap::new();
        let mut left = limits.spans;
        for ((t, thread), at) in source.threads.iter().enumerate().zip(&mut cursor.threads) {
            let open = self.open.get(t).map_or(&[][..], |o| o.stack.as_slice());
            at.look(thread, open, bucket, levels);
            let mut spans = kept_spans(thread, open, &at.kept, left);
            left = left.saturating_sub(spans.len());
            for name in &mut spans.name {
                *name = *names
                    .entry(*name)
                    .or_insert_with(|| trace.strings.intern(source.strings.get(*name)));
            }
            trace.threads.push(Thread {
                id: thread.id.clone(),
                name: thread.name.clone(),
                process: thread.process,
                events: thread.events,
                spans,
                first_time: thread.first_time,
                last_time: thread.last_time,
                ..Thread::default()
            });
        }
        trace
    }
}

impl ThreadCursor {
    /// Takes in the spans `thread` got since the last look, then thins the
    /// spans kept by the current `bucket` and the spans' current ends.
    fn look(&mut self, thread: &Thread, open: &[u32], bucket: i64, levels: usize) {
        let spans = &thread.spans;
        let is_open =
            |index: usize, depth: usize| open.get(depth).is_some_and(|&o| o as usize == index);
        for index in self.seen..spans.len() {
            let (Some(&depth), Some(&start), Some(&end)) = (
                spans.depth.get(index),
                spans.start.get(index),
                spans.end.get(index),
            ) else {
                break;
            };
            let d = usize::from(depth);
            if d >= levels {
                continue;
            }
            let end = (!is_open(index, d)).then_some(end);
            if self.thinning.keep(d, start, end, bucket) {
                self.kept.push(index as u32);
            }
        }
        self.seen = spans.len();
        let mut again = Thinning::new(levels);
        self.kept.retain(|&index| {
            let i = index as usize;
            let (Some(&depth), Some(&start), Some(&end)) =
                (spans.depth.get(i), spans.start.get(i), spans.end.get(i))
            else {
                return false;
            };
            let d = usize::from(depth);
            let end = (!is_open(i, d)).then_some(end);
            again.keep(d, start, end, bucket)
        });
    }
}

/// The spans at `kept` of `thread` (at most `budget`), still-open ones
/// drawn to the thread's last time.
fn kept_spans(thread: &Thread, open: &[u32], kept: &[u32], budget: usize) -> Spans {
    let from = &thread.spans;
    let last_time = thread.last_time.unwrap_or(i64::MIN);
    let mut out = Spans::default();
    for &index in kept.iter().take(budget) {
        let i = index as usize;
        let (Some(&start), Some(&end), Some(&depth), Some(&name), Some(&flags)) = (
            from.start.get(i),
            from.end.get(i),
            from.depth.get(i),
            from.name.get(i),
            from.flags.get(i),
        ) else {
            break;
        };
        let still_open = open.get(usize::from(depth)).is_some_and(|&o| o == index);
        let (end, flags) = if still_open {
            (end.max(last_time), flags | SPAN_OPEN_AT_END)
        } else {
            (end, flags)
        };
        out.start.push(start);
        out.end.push(end);
        out.depth.push(depth);
        out.name.push(name);
        out.flags.push(flags);
    }
    out
}

/// Puts the previews of parts decoded side by side (one per worker) into
/// one trace: the first part's threads, then every other part's threads
/// that have spans, their names interned into the first part's table.
pub fn merge_previews(parts: Vec<Trace>) -> Option<Trace> {
    let mut parts = parts.into_iter();
    let mut whole = parts.next()?;
    for part in parts {
        let processes: Vec<u32> = part
            .processes
            .iter()
            .map(|p| process_in(&mut whole.processes, p))
            .collect();
        for mut thread in part.threads {
            if thread.spans.is_empty() {
                continue;
            }
            for name in &mut thread.spans.name {
                *name = whole.strings.intern(part.strings.get(*name));
            }
            thread.process = processes
                .get(thread.process as usize)
                .copied()
                .unwrap_or(thread.process);
            match whole.threads.iter_mut().find(|t| t.id == thread.id) {
                Some(same) if same.spans.is_empty() => *same = thread,
                Some(_) => {}
                None => whole.threads.push(thread),
            }
        }
    }
    Some(whole)
}

/// The index of `process` (by id) in `processes`, added when missing.
fn process_in(processes: &mut Vec<Process>, process: &Process) -> u32 {
    match processes.iter().position(|p| p.id == process.id) {
        Some(i) => i as u32,
        None => {
            processes.push(process.clone());
            (processes.len() - 1) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, TimeUnit};

    /// A thread "main" with: a call 0..1000 holding 100 calls of 1 (each
    /// holding a deeper call), a long call 900..990 at depth 1, and a call
    /// still open from 1000.
    fn sample() -> TraceBuilder {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "prog");
        let t = b.thread(p, "1", "main");
        let (outer, short, inner, long, open) = (
            b.intern("outer"),
            b.intern("short"),
            b.intern("inner"),
            b.intern("long"),
            b.intern("open"),
        );
        b.begin(t, 0, outer, 0);
        for i in 0..100 {
            b.begin(t, i * 2, short, 0);
            b.begin(t, i * 2, inner, 0);
            b.end(t, i * 2 + 1);
            b.end(t, i * 2 + 1);
        }
        b.begin(t, 900, long, 0);
        b.end(t, 990);
        b.end(t, 1000);
        b.begin(t, 1000, open, 0);
        b.begin(t, 1010, short, 0);
        b.end(t, 1011);
        b
    }

    fn names(trace: &Trace) -> Vec<&str> {
        let spans = &trace.threads[0].spans;
        spans.name.iter().map(|&n| trace.strings.get(n)).collect()
    }

    #[test]
    fn keeps_long_spans_and_one_short_span_per_bucket() {
        let limits = PreviewLimits {
            depths: 2,
            buckets: 10, // buckets of 101 ns over 0..1011
            spans: 1000,
        };
        let preview = sample().preview(&mut PreviewCursor::default(), &limits);
        // Of the 100 short calls in 0..200 (two buckets), the first of each
        // bucket; nothing at depth 2; the still-open call to the last time.
        assert_eq!(
            names(&preview),
            ["outer", "short", "short", "long", "open", "short"]
        );
        let spans = &preview.threads[0].spans;
        assert_eq!(spans.start, [0, 0, 102, 900, 1000, 1010]);
        assert_eq!(spans.end, [1000, 1, 103, 990, 1011, 1011]);
        assert_eq!(spans.depth, [0, 1, 1, 1, 0, 1]);
        assert_eq!(spans.flags[4], SPAN_OPEN_AT_END);
        assert_eq!(spans.flags[0], 0);
        // Only the names kept travel.
        assert_eq!(preview.strings.len(), 4);
        assert_eq!(preview.threads[0].name, "main");
        assert_eq!(preview.threads[0].last_time, Some(1011));
    }

    #[test]
    fn a_child_whose_parent_was_left_out_is_left_out() {
        let limits = PreviewLimits {
            depths: 3,
            buckets: 10,
            spans: 1000,
        };
        let preview = sample().preview(&mut PreviewCursor::default(), &limits);
        let inner = names(&preview).iter().filter(|&&n| n == "inner").count();
        // One inner call under each kept short call of 0..200.
        assert_eq!(inner, 2);
    }

    #[test]
    fn the_span_budget_is_kept() {
        let limits = PreviewLimits {
            depths: 8,
            buckets: 100_000,
            spans: 7,
        };
        assert_eq!(
            sample()
                .preview(&mut PreviewCursor::default(), &limits)
                .threads[0]
                .spans
                .len(),
            7
        );
    }

    /// Every span of `b` shallower than `depths` and at least `bucket` long.
    fn long_spans(b: &TraceBuilder, depths: u16, bucket: i64) -> Vec<(i64, i64)> {
        let spans = &b.trace.threads[0].spans;
        (0..spans.len())
            .filter(|&i| spans.depth[i] < depths && spans.end[i] - spans.start[i] >= bucket)
            .map(|i| (spans.start[i], spans.end[i]))
            .collect()
    }

    #[test]
    fn a_cursor_looks_at_new_spans_only_and_still_keeps_every_long_span() {
        let limits = PreviewLimits {
            depths: 2,
            buckets: 10,
            spans: 1000,
        };
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "prog");
        let t = b.thread(p, "1", "main");
        let (outer, short) = (b.intern("outer"), b.intern("short"));
        let mut cursor = PreviewCursor::default();
        b.begin(t, 0, outer, 0);
        let mut sizes = Vec::new();
        for step in 0..20i64 {
            for i in 0..50 {
                let at = step * 1000 + i * 20;
                b.begin(t, at, short, 0);
                b.end(t, at + 1 + (i % 7) * 30);
            }
            let preview = b.preview(&mut cursor, &limits);
            sizes.push(preview.threads[0].spans.len());
            assert_eq!(cursor.threads[0].seen, b.trace.threads[0].spans.len());
            // The open outer call, drawn to the last time.
            let spans = &preview.threads[0].spans;
            assert_eq!(spans.flags[0], SPAN_OPEN_AT_END);
            assert_eq!(spans.end[0], b.trace.threads[0].last_time.unwrap());
            let (first, last) = b.trace.time_range().unwrap();
            let bucket = ((last - first) / 10).max(1);
            let drawn: Vec<(i64, i64)> = (0..spans.len())
                .map(|i| (spans.start[i], spans.end[i]))
                .collect();
            for long in &long_spans(&b, 2, bucket) {
                assert!(drawn.contains(long), "step {step}: {long:?} missing");
            }
        }
        // Bounded by the buckets, not by the 1,000 calls made.
        assert!(sizes.iter().all(|&n| n < 100), "{sizes:?}");
        assert!(*sizes.last().unwrap() <= 2 * 10 + 2, "{sizes:?}");
    }

    #[test]
    fn previews_of_parts_merge_by_thread_id() {
        let limits = PreviewLimits::default();
        let first = sample().preview(&mut PreviewCursor::default(), &limits);
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "prog");
        b.thread(p, "1", "main"); // known to this part too, without spans
        let t = b.thread(p, "2", "worker");
        let name = b.intern("work");
        b.begin(t, 5, name, 0);
        b.end(t, 50);
        let second = b.preview(&mut PreviewCursor::default(), &limits);
        let whole = merge_previews(vec![first, second]).unwrap();
        assert_eq!(whole.threads.len(), 2);
        assert_eq!(whole.processes.len(), 1);
        let worker = &whole.threads[1];
        assert_eq!(worker.id, "2");
        assert_eq!(whole.strings.get(worker.spans.name[0]), "work");
        assert!(!whole.threads[0].spans.is_empty());
    }
}
