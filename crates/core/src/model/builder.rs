//! [`TraceBuilder`]: the one way a decoder makes a [`Trace`].
//!
//! Decoders describe what they read — threads, calls that begin and end,
//! markers, problems — and the builder keeps the invariants the views rely on:
//! spans in start order, children nested inside parents, no overlap within a
//! depth, every still-open call closed at the end and counted.

use super::{
    Diagnostic, Field, Format, Process, Severity, Spans, StrId, Thread, TimeUnit, Trace, Value,
    SPAN_OPEN_AT_END,
};
use std::collections::HashMap;

mod call_sink;
mod preview;
mod step_spans;

pub use call_sink::CallSink;
pub use preview::{merge_previews, PreviewCursor, PreviewLimits};

/// Index of a thread in the trace being built.
pub type ThreadRef = u32;
/// Index of a span within its thread.
pub type SpanRef = u32;

/// Builds a [`Trace`]; see the module docs.
pub struct TraceBuilder {
    pub(super) trace: Trace,
    /// (parent, frame) → stack index, for interning stacks.
    pub(super) stack_index: HashMap<(u32, StrId), u32>,
    open: Vec<OpenState>,
    thread_index: HashMap<String, ThreadRef>,
    process_index: HashMap<String, u32>,
    diagnostic_index: HashMap<(String, Option<String>), usize>,
}

/// Per-thread state that exists only while building.
#[derive(Default)]
struct OpenState {
    /// Spans begun and not yet ended, innermost last.
    stack: Vec<SpanRef>,
    /// Latest time used by a span on this thread; later ones never go before it.
    cursor: i64,
    /// Times that went backwards and were clamped.
    clamped: u64,
}

impl TraceBuilder {
    /// Starts an empty trace of `format` whose times are in `unit`.
    pub fn new(format: Format, unit: TimeUnit) -> Self {
        TraceBuilder {
            trace: Trace {
                format: Some(format),
                time_unit: Some(unit),
                ..Trace::default()
            },
            stack_index: HashMap::new(),
            open: Vec::new(),
            thread_index: HashMap::new(),
            process_index: HashMap::new(),
            diagnostic_index: HashMap::new(),
        }
    }

    /// Interns a name.
    pub fn intern(&mut self, s: &str) -> StrId {
        self.trace.strings.intern(s)
    }

    /// The text of an interned name.
    pub fn name_of(&self, id: StrId) -> &str {
        self.trace.strings.get(id)
    }

    /// Adds a fact about the recording for the summary panel.
    pub fn metadata(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.trace.metadata.push((key.into(), value.into()));
    }

    /// The process with tracer id `id`, created on first use.
    pub fn process(&mut self, id: &str, name: &str) -> u32 {
        if let Some(&p) = self.process_index.get(id) {
            if self.trace.processes[p as usize].name.is_empty() {
                self.trace.processes[p as usize].name = name.to_owned();
            }
            return p;
        }
        let p = self.trace.processes.len() as u32;
        self.trace.processes.push(Process {
            id: id.to_owned(),
            name: name.to_owned(),
        });
        self.process_index.insert(id.to_owned(), p);
        p
    }

    /// The thread with tracer id `id`, created on first use in `process`.
    pub fn thread(&mut self, process: u32, id: &str, name: &str) -> ThreadRef {
        if let Some(&t) = self.thread_index.get(id) {
            if self.trace.threads[t as usize].name.is_empty() {
                self.trace.threads[t as usize].name = name.to_owned();
            }
            return t;
        }
        let t = self.trace.threads.len() as ThreadRef;
        self.trace.threads.push(Thread {
            id: id.to_owned(),
            name: name.to_owned(),
            process,
            ..Thread::default()
        });
        self.open.push(OpenState {
            cursor: i64::MIN,
            ..OpenState::default()
        });
        self.thread_index.insert(id.to_owned(), t);
        t
    }

    /// Makes room for about `n` more spans on thread `t` (a hint: columns
    /// still grow past it, and an absurd hint is capped at what fits).
    pub fn reserve_spans(&mut self, t: ThreadRef, n: u64) {
        let Some(thread) = self.trace.threads.get_mut(t as usize) else {
            return;
        };
        let n = usize::try_from(n)
            .unwrap_or(usize::MAX)
            .min(u32::MAX as usize);
        let spans = &mut thread.spans;
        // A hint too big for this machine is simply not followed.
        let _ = spans.start.try_reserve_exact(n);
        let _ = spans.end.try_reserve_exact(n);
        let _ = spans.depth.try_reserve_exact(n);
        let _ = spans.name.try_reserve_exact(n);
        let _ = spans.flags.try_reserve_exact(n);
    }

    /// Makes room for about `n` more detail fields on the spans of thread
    /// `t` (a hint, like [`TraceBuilder::reserve_spans`]).
    pub fn reserve_details(&mut self, t: ThreadRef, n: u64) {
        let Some(thread) = self.trace.threads.get_mut(t as usize) else {
            return;
        };
        let n = usize::try_from(n)
            .unwrap_or(usize::MAX)
            .min(u32::MAX as usize);
        // A hint too big for this machine is simply not followed.
        thread.spans.details.reserve(n);
    }

    /// Makes room for exactly `groups` more detail groups holding `slots`
    /// payload slots on the spans of thread `t` (counted by the decoder:
    /// one group per [`TraceBuilder::details`] call, a value's slots as
    /// [`Value`] stores them).
    pub fn reserve_detail_groups(&mut self, t: ThreadRef, groups: u64, slots: u64) {
        let Some(thread) = self.trace.threads.get_mut(t as usize) else {
            return;
        };
        let fit = |n: u64| {
            usize::try_from(n)
                .unwrap_or(usize::MAX)
                .min(u32::MAX as usize)
        };
        // A hint too big for this machine is simply not followed.
        thread.spans.details.reserve_exact(fit(groups), fit(slots));
    }

    /// Looks a thread up by its tracer id.
    pub fn find_thread(&self, id: &str) -> Option<ThreadRef> {
        self.thread_index.get(id).copied()
    }

    /// Counts `n` raw input records as belonging to thread `t`.
    pub fn count_events(&mut self, t: ThreadRef, n: u64) {
        if let Some(thread) = self.trace.threads.get_mut(t as usize) {
            thread.events += n;
        }
    }

    /// Widens thread `t`'s time range to include `time`.
    pub fn touch(&mut self, t: ThreadRef, time: i64) {
        let time = clamp_time(time);
        if let Some(thread) = self.trace.threads.get_mut(t as usize) {
            thread.first_time = Some(thread.first_time.map_or(time, |f| f.min(time)));
            thread.last_time = Some(thread.last_time.map_or(time, |l| l.max(time)));
        }
    }

    /// How many spans are open on thread `t`.
    pub fn depth(&self, t: ThreadRef) -> usize {
        self.open.get(t as usize).map_or(0, |o| o.stack.len())
    }

    /// The innermost open span of thread `t`.
    pub fn top(&self, t: ThreadRef) -> Option<SpanRef> {
        self.open.get(t as usize)?.stack.last().copied()
    }

    /// The name of open span number `level` (0 = outermost) of thread `t`.
    pub fn open_name(&self, t: ThreadRef, level: usize) -> Option<StrId> {
        let span = *self.open.get(t as usize)?.stack.get(level)?;
        self.trace.threads[t as usize]
            .spans
            .name
            .get(span as usize)
            .copied()
    }

    /// Thread `t`'s spans and call stack for a decoder's hot loop
    /// ([`CallSink`]); `None` for an unknown thread.
    pub fn call_sink(&mut self, t: ThreadRef) -> Option<CallSink<'_>> {
        let thread = self.trace.threads.get_mut(t as usize)?;
        let open = self.open.get_mut(t as usize)?;
        Some(CallSink {
            spans: &mut thread.spans,
            open,
            events: &mut thread.events,
            first_time: &mut thread.first_time,
            last_time: &mut thread.last_time,
        })
    }

    /// Opens a span named `name` at `time` one level below the current top.
    pub fn begin(&mut self, t: ThreadRef, time: i64, name: StrId, flags: u8) -> SpanRef {
        let time = self.monotonic(t, time);
        self.touch(t, time);
        let (Some(thread), Some(open)) = (
            self.trace.threads.get_mut(t as usize),
            self.open.get_mut(t as usize),
        ) else {
            return SpanRef::MAX;
        };
        let spans = &mut thread.spans;
        let index = spans.start.len() as SpanRef;
        let depth = u16::try_from(open.stack.len()).unwrap_or(u16::MAX);
        spans.start.push(time);
        spans.end.push(time);
        spans.depth.push(depth);
        spans.name.push(name);
        spans.flags.push(flags);
        open.stack.push(index);
        index
    }

    /// Closes the innermost open span at `time`; `None` when nothing is open.
    pub fn end(&mut self, t: ThreadRef, time: i64) -> Option<SpanRef> {
        let time = self.monotonic(t, time);
        self.touch(t, time);
        let span = self.open.get_mut(t as usize)?.stack.pop()?;
        let thread = self.trace.threads.get_mut(t as usize)?;
        if let Some(end) = thread.spans.end.get_mut(span as usize) {
            *end = time;
        }
        Some(span)
    }

    /// Closes open spans until only `depth` remain, at `time`, marking each
    /// with `flags`. Returns how many were closed.
    pub fn cut_to(&mut self, t: ThreadRef, depth: usize, time: i64, flags: u8) -> usize {
        let mut closed = 0;
        while self.depth(t) > depth {
            if let Some(span) = self.end(t, time) {
                self.add_flags(t, span, flags);
                closed += 1;
            }
        }
        closed
    }

    /// Renames a span (a repaired call learns its name when it returns).
    pub fn set_name(&mut self, t: ThreadRef, span: SpanRef, name: StrId) {
        if let Some(n) = self
            .trace
            .threads
            .get_mut(t as usize)
            .and_then(|th| th.spans.name.get_mut(span as usize))
        {
            *n = name;
        }
    }

    /// Thread `t`'s spans so far (open ones end at their start).
    pub fn spans(&self, t: ThreadRef) -> Option<&Spans> {
        Some(&self.trace.threads.get(t as usize)?.spans)
    }

    /// The name and flags of a span.
    pub fn span_info(&self, t: ThreadRef, span: SpanRef) -> Option<(StrId, u8)> {
        let spans = &self.trace.threads.get(t as usize)?.spans;
        Some((
            *spans.name.get(span as usize)?,
            *spans.flags.get(span as usize)?,
        ))
    }

    /// Start and end of a span (the end is its start while it is open).
    pub fn span_times(&self, t: ThreadRef, span: SpanRef) -> Option<(i64, i64)> {
        let spans = &self.trace.threads.get(t as usize)?.spans;
        Some((
            *spans.start.get(span as usize)?,
            *spans.end.get(span as usize)?,
        ))
    }

    /// Renames a thread.
    pub fn set_thread_name(&mut self, t: ThreadRef, name: &str) {
        if let Some(thread) = self.trace.threads.get_mut(t as usize) {
            thread.name = name.to_owned();
        }
    }

    /// Sets extra flag bits on a span.
    pub fn add_flags(&mut self, t: ThreadRef, span: SpanRef, flags: u8) {
        if let Some(f) = self
            .trace
            .threads
            .get_mut(t as usize)
            .and_then(|th| th.spans.flags.get_mut(span as usize))
        {
            *f |= flags;
        }
    }

    /// Attaches a field (an argument, a return value…) to a span, interning
    /// its key and its text. Hot paths use [`TraceBuilder::detail`].
    pub fn add_detail(&mut self, t: ThreadRef, span: SpanRef, field: Field) {
        let key = self.intern(&field.key);
        let value = Value::Text(self.intern(&field.value));
        self.detail(t, span, key, value);
    }

    /// Attaches a field with an interned key and a value that is interned
    /// text or a number (formatted only when shown) to a span.
    pub fn detail(&mut self, t: ThreadRef, span: SpanRef, key: StrId, value: Value) {
        if let Some(thread) = self.trace.threads.get_mut(t as usize) {
            thread.spans.details.push(span, key, value);
        }
    }

    /// Adds several detail fields to a span, in order.
    pub fn details(&mut self, t: ThreadRef, span: SpanRef, fields: &[(StrId, Value)]) {
        if let Some(thread) = self.trace.threads.get_mut(t as usize) {
            thread.spans.details.extend(span, fields);
        }
    }

    /// Adds a span's fields that always come as one list for `memo` (the
    /// same keys, kinds and fixed texts), as [`TraceBuilder::details`]: the
    /// list's shape is looked up once and kept in `memo` (start it at
    /// [`NO_SHAPE`](crate::model::NO_SHAPE); one memo per list and thread).
    pub fn details_memo(
        &mut self,
        t: ThreadRef,
        span: SpanRef,
        memo: &mut u32,
        fields: &[(StrId, Value)],
    ) {
        if let Some(thread) = self.trace.threads.get_mut(t as usize) {
            thread.spans.details.extend_memo(span, memo, fields);
        }
    }

    /// Adds an instant marker.
    pub fn instant(&mut self, t: ThreadRef, time: i64, name: StrId, fields: Vec<Field>) {
        let fields: Vec<(StrId, Value)> = fields
            .iter()
            .map(|f| (self.intern(&f.key), Value::Text(self.intern(&f.value))))
            .collect();
        self.instant_with(t, time, name, &fields);
    }

    /// Adds an instant marker whose fields are already interned.
    pub fn instant_with(
        &mut self,
        t: ThreadRef,
        time: i64,
        name: StrId,
        fields: &[(StrId, Value)],
    ) {
        self.touch(t, time);
        let Some(thread) = self.trace.threads.get_mut(t as usize) else {
            return;
        };
        let index = thread.instants.time.len() as u32;
        thread.instants.time.push(time);
        thread.instants.name.push(name);
        thread.instants.details.extend(index, fields);
    }

    /// Records a problem. Repeats of the same `kind` in the same `file` are
    /// counted into one diagnostic that keeps the first offset and message.
    pub fn diagnose(
        &mut self,
        severity: Severity,
        kind: &str,
        file: Option<&str>,
        offset: Option<u64>,
        count: u64,
        message: impl FnOnce() -> String,
    ) {
        let key = (kind.to_owned(), file.map(str::to_owned));
        if let Some(&i) = self.diagnostic_index.get(&key) {
            let d = &mut self.trace.diagnostics[i];
            d.count += count;
            if d.offset.is_none() {
                d.offset = offset;
            }
            return;
        }
        self.diagnostic_index
            .insert(key, self.trace.diagnostics.len());
        self.trace.diagnostics.push(Diagnostic {
            severity,
            kind: kind.to_owned(),
            message: message(),
            file: file.map(str::to_owned),
            offset,
            count,
        });
    }

    /// Forgets every diagnostic so far: a decoder working on one part of an
    /// input drops what another part reports for the whole input.
    pub fn forget_diagnostics(&mut self) {
        self.trace.diagnostics.clear();
        self.diagnostic_index.clear();
    }

    /// Closes what is still open, puts details in order and hands over the trace.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub fn finish(mut self) -> Trace {
        let mut open_at_end = 0u64;
        let mut clamped = 0u64;
        for t in 0..self.trace.threads.len() as ThreadRef {
            let last = self.trace.threads[t as usize].last_time.unwrap_or(0);
            open_at_end += self.cut_to(t, 0, last, SPAN_OPEN_AT_END) as u64;
            clamped += self.open[t as usize].clamped;
        }
        if open_at_end > 0 {
            self.diagnose(Severity::Info, "open-at-end", None, None, open_at_end, || {
                "calls had not returned when the recording ended; they are drawn to their thread's last timestamp".into()
            });
        }
        if clamped > 0 {
            self.diagnose(Severity::Info, "time-backwards", None, None, clamped, || {
                "timestamps went backwards within a thread and were moved forward to keep calls nested".into()
            });
        }
        for thread in &mut self.trace.threads {
            thread.spans.details.sort_by_owner();
            sort_instants(&mut thread.instants);
        }
        self.trace
    }

    /// Never lets a thread's span times go backwards, so spans stay nested.
    fn monotonic(&mut self, t: ThreadRef, time: i64) -> i64 {
        let time = clamp_time(time);
        let Some(open) = self.open.get_mut(t as usize) else {
            return time;
        };
        if time < open.cursor {
            open.clamped += 1;
            open.cursor
        } else {
            open.cursor = time;
            time
        }
    }
}

/// Puts markers in time order (stable), renumbering their details to match.
fn sort_instants(instants: &mut super::Instants) {
    if instants.time.windows(2).all(|w| w[0] <= w[1]) {
        instants.details.sort_by_owner();
        return;
    }
    let mut order: Vec<u32> = (0..instants.time.len() as u32).collect();
    order.sort_by_key(|&i| instants.time[i as usize]);
    let mut new_index = vec![0u32; order.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old as usize] = new as u32;
    }
    instants.time = order.iter().map(|&i| instants.time[i as usize]).collect();
    instants.name = order.iter().map(|&i| instants.name[i as usize]).collect();
    instants.details.renumber(&new_index);
}

/// Largest magnitude a span or thread time may have: any two such times
/// differ by less than `i64::MAX`, so durations never overflow, whatever a
/// damaged file claims.
pub const TIME_LIMIT: i64 = 1 << 62;

/// `time` brought inside ±[`TIME_LIMIT`].
fn clamp_time(time: i64) -> i64 {
    time.clamp(-TIME_LIMIT, TIME_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{SPAN_CUT, SPAN_OPEN_AT_END};

    fn builder() -> (TraceBuilder, ThreadRef) {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "prog");
        let t = b.thread(p, "1", "prog");
        (b, t)
    }

    #[test]
    fn spans_nest_in_start_order_with_depths() {
        let (mut b, t) = builder();
        let main = b.intern("main");
        let leaf = b.intern("leaf");
        b.begin(t, 10, main, 0);
        b.begin(t, 11, leaf, 0);
        b.end(t, 12);
        b.begin(t, 13, leaf, 0);
        b.end(t, 14);
        b.end(t, 20);
        let trace = b.finish();
        let s = &trace.threads[0].spans;
        assert_eq!(s.start, vec![10, 11, 13]);
        assert_eq!(s.end, vec![20, 12, 14]);
        assert_eq!(s.depth, vec![0, 1, 1]);
        assert!(trace.diagnostics.is_empty());
    }

    #[test]
    fn open_spans_are_closed_at_the_last_timestamp_and_counted() {
        let (mut b, t) = builder();
        let f = b.intern("f");
        b.begin(t, 5, f, 0);
        b.begin(t, 6, f, 0);
        b.touch(t, 30);
        let trace = b.finish();
        let s = &trace.threads[0].spans;
        assert_eq!(s.end, vec![30, 30]);
        assert!(s.flags.iter().all(|f| f & SPAN_OPEN_AT_END != 0));
        assert_eq!(trace.diagnostics[0].count, 2);
    }

    #[test]
    fn time_going_backwards_is_clamped_and_reported() {
        let (mut b, t) = builder();
        let f = b.intern("f");
        b.begin(t, 50, f, 0);
        b.end(t, 40);
        let trace = b.finish();
        assert_eq!(trace.threads[0].spans.end, vec![50]);
        assert_eq!(trace.diagnostics[0].kind, "time-backwards");
    }

    #[test]
    fn cut_closes_down_to_a_depth_and_flags() {
        let (mut b, t) = builder();
        let f = b.intern("f");
        for i in 0..4 {
            b.begin(t, i, f, 0);
        }
        assert_eq!(b.cut_to(t, 1, 9, SPAN_CUT), 3);
        assert_eq!(b.depth(t), 1);
        let trace = b.finish();
        assert_eq!(trace.threads[0].spans.flags[3] & SPAN_CUT, SPAN_CUT);
    }

    #[test]
    fn details_added_out_of_order_end_up_grouped_by_span() {
        let (mut b, t) = builder();
        let f = b.intern("f");
        let outer = b.begin(t, 1, f, 0);
        let inner = b.begin(t, 2, f, 0);
        b.add_detail(t, inner, Field::new("args", "1"));
        b.end(t, 3);
        b.end(t, 4);
        b.add_detail(t, outer, Field::new("return", "7"));
        b.add_detail(t, inner, Field::new("return", "2"));
        let trace = b.finish();
        let s = &trace.threads[0].spans;
        assert_eq!(
            s.details_of(outer, &trace.strings),
            vec![Field::new("return", "7")]
        );
        assert_eq!(
            s.details_of(inner, &trace.strings),
            vec![Field::new("args", "1"), Field::new("return", "2")]
        );
    }

    #[test]
    fn repeated_diagnostics_fold_into_one_with_the_first_offset() {
        let (mut b, _) = builder();
        b.diagnose(Severity::DataLoss, "x", Some("a.dat"), Some(16), 1, || {
            "bad".into()
        });
        b.diagnose(Severity::DataLoss, "x", Some("a.dat"), Some(32), 2, || {
            "bad".into()
        });
        let trace = b.finish();
        assert_eq!(trace.diagnostics.len(), 1);
        assert_eq!(trace.diagnostics[0].count, 3);
        assert_eq!(trace.diagnostics[0].offset, Some(16));
    }
}
