//! uftrace's replay layout: the columns `-f` asks for, `|`, then the calls
//! nested two spaces a level — `f() {` … `} /* f */`, or `f();` for a call
//! whose exit is the very next record — with arguments and return values,
//! and events as `/* … */` rows. `uftrace replay` prints it; Scaler and
//! SWAP take it too.
//!
//! Time off CPU (a `linux:schedule` span) is one row when nothing comes
//! between its two records (`/* linux:schedule (pre-empted) */` with its
//! duration), else a `linux:sched-out` row and a `linux:sched-in` row.

use super::replay_columns::{header, write_blank_cells, write_cells, Cells};
use super::replay_events::{is_hidden, sched_address, write_event, LOST};
use super::replay_symbols::Symbols;
use super::span_rows::{row_time, RowContext, SpanLayout, SpanRow};
use super::{ListingError, ReplayField, ReplayOptions};
use crate::model::{StrId, Thread, Trace, Value, SPAN_OFF_CPU, SPAN_OPEN_AT_END};
use std::cell::RefCell;
use std::fmt::Write;

/// How far apart `--column-view` puts the tasks' columns (uftrace's
/// `--column-offset` default).
const COLUMN_OFFSET: u16 = 8;

/// uftrace's replay layout with its options.
pub(super) struct ReplayLayout {
    options: ReplayOptions,
    /// The `args` and `return` detail keys, if the trace has them.
    args_key: Option<StrId>,
    return_key: Option<StrId>,
    /// Per thread: its column under `--column-view` (order of first row).
    column: Vec<u16>,
    symbols: Symbols,
    /// Scratch space for reading detail fields.
    path: RefCell<Vec<u32>>,
}

impl ReplayLayout {
    /// The layout for `trace` with `options`.
    pub(super) fn new(
        trace: &Trace,
        options: &ReplayOptions,
    ) -> Result<ReplayLayout, ListingError> {
        let needs = |f| options.fields.contains(&f);
        let symbols = Symbols::new(trace, needs(ReplayField::Addr), needs(ReplayField::Module));
        Ok(ReplayLayout {
            options: options.clone(),
            args_key: trace.strings.find("args"),
            return_key: trace.strings.find("return"),
            column: if options.column_view {
                columns(trace)
            } else {
                Vec::new()
            },
            symbols,
            path: RefCell::new(Vec::new()),
        })
    }

    /// Appends the value of detail `key` of span `span`, with `before` in
    /// front of it; false when the span has no such field.
    fn write_detail(
        &self,
        trace: &Trace,
        lane: &Thread,
        span: u32,
        key: Option<StrId>,
        before: &str,
        out: &mut String,
    ) -> bool {
        let (Some(key), false) = (key, self.options.no_args) else {
            return false;
        };
        if lane.spans.details.is_empty() {
            return false;
        }
        let mut found = false;
        let mut path = self.path.borrow_mut();
        lane.spans
            .details
            .visit_fields(span, &mut path, |k, value| {
                if !found && k == key {
                    found = true;
                    out.push_str(before);
                    write_value(trace, value, out);
                }
            });
        found
    }

    /// Appends a call's name and its arguments (`f(1, 2)`, `f()`).
    fn write_call(&self, trace: &Trace, lane: &Thread, span: u32, name: &str, out: &mut String) {
        out.push_str(name);
        if self.write_detail(trace, lane, span, self.args_key, "(", out) {
            out.push(')');
        } else if !name.ends_with(')') {
            out.push_str("()");
        }
    }

    /// The columns of a span row.
    fn span_cells<'a>(
        &'a self,
        trace: &'a Trace,
        lane: &'a Thread,
        thread: u32,
        span: u32,
        row: SpanRow,
    ) -> Cells<'a> {
        let s = span as usize;
        let start = lane.spans.start.get(s).copied().unwrap_or(0);
        let end = lane.spans.end.get(s).copied().unwrap_or(start);
        let off_cpu = lane
            .spans
            .flags
            .get(s)
            .is_some_and(|f| f & SPAN_OFF_CPU != 0);
        let name = lane.spans.name.get(s).copied().unwrap_or(0);
        let mut cells = Cells {
            tid: lane.id.as_str(),
            task: lane.name.as_str(),
            ..Cells::default()
        };
        if matches!(row, SpanRow::Entry { .. }) && off_cpu {
            return cells; // sched-out: no time, no address
        }
        if !matches!(row, SpanRow::Entry { .. }) {
            cells.duration = end.saturating_sub(start).max(0) as u64;
        }
        if off_cpu {
            cells.addr = Some(sched_address(trace.str(name)));
            cells.module = Some("[event]");
        } else {
            cells.addr = self.symbols.address(thread, name);
            cells.module = Some(self.symbols.module(name));
        }
        cells
    }

    fn indent(&self, thread: u32, depth: u16, out: &mut String) {
        let column = self.column.get(thread as usize).copied().unwrap_or(0);
        for _ in 0..depth + column * COLUMN_OFFSET {
            out.push_str("  ");
        }
    }

    /// Appends the function part of a span row.
    fn write_span(&self, trace: &Trace, lane: &Thread, row: SpanRow, span: u32, out: &mut String) {
        let s = span as usize;
        let name = lane.spans.name.get(s).map_or("", |&id| trace.str(id));
        let off_cpu = lane
            .spans
            .flags
            .get(s)
            .is_some_and(|f| f & SPAN_OFF_CPU != 0);
        match (row, off_cpu) {
            (SpanRow::Entry { .. }, false) => {
                self.write_call(trace, lane, span, name, out);
                out.push_str(" {");
            }
            (SpanRow::Leaf { .. }, false) => {
                self.write_call(trace, lane, span, name, out);
                self.write_detail(trace, lane, span, self.return_key, " = ", out);
                out.push(';');
            }
            (SpanRow::Exit { .. }, false) => {
                out.push('}');
                if self.write_detail(trace, lane, span, self.return_key, " = ", out) {
                    out.push(';');
                }
                let _ = write!(out, " /* {name} */");
            }
            (SpanRow::Entry { .. }, true) => {
                let reason = name.strip_prefix("linux:schedule").unwrap_or("");
                let _ = write!(out, "/* linux:sched-out{reason} */");
            }
            (SpanRow::Exit { .. }, true) => out.push_str("/* linux:sched-in */"),
            (_, true) => {
                let _ = write!(out, "/* {name} */");
            }
            (SpanRow::Marker { .. }, false) => {}
        }
    }
}

impl SpanLayout for ReplayLayout {
    fn header(&self, _trace: &Trace) -> Vec<String> {
        header(&self.options.fields).into_iter().collect()
    }

    fn footer(&self, trace: &Trace) -> Vec<String> {
        remaining_functions(trace)
    }

    fn write(&self, trace: &Trace, row: SpanRow, context: &RowContext, out: &mut String) {
        let (SpanRow::Entry { thread, .. }
        | SpanRow::Exit { thread, .. }
        | SpanRow::Leaf { thread, .. }
        | SpanRow::Marker { thread, .. }) = row;
        let Some(lane) = trace.threads.get(thread as usize) else {
            return;
        };
        if self.options.task_newline && context.previous_thread.is_some_and(|p| p != thread) {
            write_blank_cells(out, &self.options.fields);
            out.push('\n');
        }
        let time = row_time(trace, row).unwrap_or(0);
        let (mut cells, depth) = match row {
            SpanRow::Entry { span, .. }
            | SpanRow::Exit { span, .. }
            | SpanRow::Leaf { span, .. } => {
                let depth = lane.spans.depth.get(span as usize).copied().unwrap_or(0);
                (self.span_cells(trace, lane, thread, span, row), depth)
            }
            SpanRow::Marker { .. } => {
                let cells = Cells {
                    tid: lane.id.as_str(),
                    task: lane.name.as_str(),
                    ..Cells::default()
                };
                (cells, context.depth)
            }
        };
        cells.time = time.max(0) as u64;
        cells.delta = context
            .previous_time
            .map_or(0, |p| time.saturating_sub(p).max(0) as u64);
        cells.elapsed = context
            .first_time
            .map_or(0, |f| time.saturating_sub(f).max(0) as u64);
        write_cells(out, &self.options.fields, &cells);
        self.indent(thread, depth, out);
        match row {
            SpanRow::Entry { span, .. }
            | SpanRow::Exit { span, .. }
            | SpanRow::Leaf { span, .. } => {
                self.write_span(trace, lane, row, span, out);
            }
            SpanRow::Marker { instant, .. } => {
                out.push_str("/* ");
                write_event(trace, thread, instant, &mut self.path.borrow_mut(), out);
                out.push_str(" */");
            }
        }
    }

    fn marker_depth(&self, trace: &Trace, thread: u32, instant: u32, open: u16) -> Option<u16> {
        let lane = trace.threads.get(thread as usize)?;
        let name = trace.str(*lane.instants.name.get(instant as usize)?);
        if name == "linux:task-exit" {
            // uftrace shows a task's exit while its stack is not empty:
            // inside a call, or ever after a LOST (its stack count never
            // comes back to zero).
            let lost_before = lane
                .instants
                .name
                .get(..instant as usize)
                .unwrap_or(&[])
                .iter()
                .any(|&id| trace.str(id) == LOST);
            return (open > 0 || lost_before).then_some(open);
        }
        if is_hidden(name) {
            return None;
        }
        if name == LOST {
            return Some(open + 1);
        }
        // uftrace shows events inside functions only (without --event-full).
        (open > 0).then_some(open)
    }

    fn marker_follows_exits(&self, trace: &Trace, thread: u32, instant: u32) -> bool {
        // The decoder puts a LOST record at the time of the record before it.
        marker_name(trace, thread, instant) == LOST
    }

    fn needs_previous_time(&self) -> bool {
        self.options
            .fields
            .iter()
            .any(|f| matches!(f, ReplayField::Delta | ReplayField::Elapsed))
    }

    fn sets_time(&self, trace: &Trace, row: SpanRow) -> bool {
        // A LOST row leaves the task's time as it was.
        let SpanRow::Marker { thread, instant } = row else {
            return true;
        };
        marker_name(trace, thread, instant) != LOST
    }
}

/// The name of marker `instant` of `thread`.
fn marker_name(trace: &Trace, thread: u32, instant: u32) -> &str {
    trace
        .threads
        .get(thread as usize)
        .and_then(|t| t.instants.name.get(instant as usize))
        .map_or("", |&id| trace.str(id))
}

/// Appends a detail value as text.
fn write_value(trace: &Trace, value: Value, out: &mut String) {
    match value {
        Value::Text(id) | Value::Fixed(id) => out.push_str(trace.str(id)),
        Value::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Hex(n) => {
            let _ = write!(out, "{n:#x}");
        }
        Value::Numbered(id, n) => {
            let _ = write!(out, "{}{n}", trace.str(id));
        }
    }
}

/// Each thread's `--column-view` column: threads in the order of their
/// first record.
fn columns(trace: &Trace) -> Vec<u16> {
    let first = |t: &Thread| {
        let span = t.spans.start.first().copied().unwrap_or(i64::MAX);
        span.min(t.instants.time.first().copied().unwrap_or(i64::MAX))
    };
    let mut order: Vec<usize> = (0..trace.threads.len()).collect();
    order.sort_by_key(|&t| trace.threads.get(t).map_or(i64::MAX, first));
    let mut column = vec![0u16; trace.threads.len()];
    for (at, t) in order.into_iter().enumerate() {
        if let Some(slot) = column.get_mut(t) {
            *slot = at as u16;
        }
    }
    column
}

/// uftrace's closing note on the calls still open when the recording
/// stopped: per task, innermost first.
fn remaining_functions(trace: &Trace) -> Vec<String> {
    let mut lines = Vec::new();
    for lane in &trace.threads {
        let open: Vec<usize> = (0..lane.spans.len())
            .filter(|&s| {
                lane.spans
                    .flags
                    .get(s)
                    .is_some_and(|f| f & SPAN_OPEN_AT_END != 0 && f & SPAN_OFF_CPU == 0)
            })
            .collect();
        if open.is_empty() {
            continue;
        }
        if lines.is_empty() {
            lines.push(String::new());
            lines.push("uftrace stopped tracing with remaining functions".into());
            lines.push("================================================".into());
        }
        lines.push(format!("task: {}", lane.id));
        for &s in open.iter().rev() {
            let depth = lane.spans.depth.get(s).copied().unwrap_or(0);
            let name = lane.spans.name.get(s).map_or("", |&id| trace.str(id));
            lines.push(format!("[{depth}] {name}"));
        }
        lines.push(String::new());
    }
    lines
}
