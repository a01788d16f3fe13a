//! uftrace's replay layout: the columns `-f` asks for, `|`, then the calls
//! nested two spaces a level — `f() {` … `} /* f */`, or `f();` for a call
//! whose exit is the very next record — with arguments and return values,
//! and events as `/* … */` rows. `uftrace replay` prints it; Scaler and
//! SWAP take it too.
//!
//! Time off CPU (a `linux:schedule` span) is one row when nothing comes
//! between its two records (`/* linux:schedule (pre-empted) */` with its
//! duration), else a `linux:sched-out` row and a `linux:sched-in` row.

mod columns;
mod events;
mod span_rows;
mod span_walk;
mod symbols;
mod tasks;
mod time;

pub(super) use span_rows::SpanRows;

use super::{ListingError, ReplayField, ReplayOptions};
use crate::model::{
    Format, StrId, Thread, TimeUnit, Trace, Value, SPAN_OFF_CPU, SPAN_START_REPAIRED,
};
use columns::{header, write_blank_cells, write_cells, Cells};
use events::{is_hidden, sched_address, write_event, LOST};
use span_rows::{row_time, RowContext, SpanLayout, SpanRow};
use std::cell::RefCell;
use std::fmt::Write;
use symbols::Symbols;
use tasks::{base_depths, columns, remaining_functions};

/// How far apart `--column-view` puts the tasks' columns (uftrace's
/// `--column-offset` default).
const COLUMN_OFFSET: u16 = 8;

/// uftrace's replay layout with its options.
pub(super) struct ReplayLayout {
    options: ReplayOptions,
    /// The `args` and `return` detail keys, if the trace has them.
    args_key: Option<StrId>,
    return_key: Option<StrId>,
    /// Detail keys shown as arguments, in order, besides `args` (Scaler's
    /// sync-object ids).
    arg_keys: Vec<StrId>,
    /// Per thread: 1 until the time given when it began inside a call (a
    /// forked child, whose first record returns from `fork`), which uftrace
    /// keeps as a level until an `exec` starts the stack anew.
    base_depth: Vec<(u16, i64)>,
    /// Nanoseconds a unit of the trace's time is (1000 for Scaler's µs).
    ns_per_unit: u64,
    /// Events outside every call are rows (not in uftrace's recordings:
    /// `uftrace replay` leaves them out without `--event-full`).
    events_outside_calls: bool,
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
            arg_keys: argument_keys(trace),
            events_outside_calls: trace.format != Some(Format::Uftrace),
            base_depth: base_depths(trace),
            ns_per_unit: if trace.time_unit == Some(TimeUnit::Us) {
                1000
            } else {
                1
            },
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

    /// Appends `(` and the values of the span's [`ReplayLayout::arg_keys`]
    /// fields, `, ` between them; false when it has none.
    fn write_arg_keys(&self, trace: &Trace, lane: &Thread, span: u32, out: &mut String) -> bool {
        if self.arg_keys.is_empty() || self.options.no_args || lane.spans.details.is_empty() {
            return false;
        }
        let mut count = 0;
        let mut path = self.path.borrow_mut();
        lane.spans
            .details
            .visit_fields(span, &mut path, |k, value| {
                if self.arg_keys.contains(&k) {
                    out.push_str(if count == 0 { "(" } else { ", " });
                    write_value(trace, value, out);
                    count += 1;
                }
            });
        count > 0
    }

    /// Appends a call's name and its arguments (`f(1, 2)`, `f()`).
    fn write_call(&self, trace: &Trace, lane: &Thread, span: u32, name: &str, out: &mut String) {
        out.push_str(name);
        if self.write_detail(trace, lane, span, self.args_key, "(", out)
            || self.write_arg_keys(trace, lane, span, out)
        {
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

    fn indent(&self, thread: u32, depth: u16, time: i64, out: &mut String) {
        let column = self.column.get(thread as usize).copied().unwrap_or(0);
        let base = match self.base_depth.get(thread as usize) {
            Some(&(base, until)) if time < until => base,
            _ => 0,
        };
        for _ in 0..depth + base + column * COLUMN_OFFSET {
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
                out.push_str(" /* ");
                out.push_str(name);
                out.push_str(" */");
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
        let ns = |t: i64| (t.max(0) as u64).saturating_mul(self.ns_per_unit);
        // A LOST row shows the task's time as it was: the row before's
        // time and delta.
        let (time, previous_time) = match row {
            SpanRow::Marker { instant, .. } if marker_name(trace, thread, instant) == LOST => (
                context.previous_time.unwrap_or(0),
                context.before_previous_time,
            ),
            _ => (time, context.previous_time),
        };
        cells.duration = cells.duration.saturating_mul(self.ns_per_unit);
        cells.time = ns(time);
        cells.delta = previous_time.map_or(0, |p| ns(time.saturating_sub(p)));
        cells.elapsed = context.first_time.map_or(0, |f| ns(time.saturating_sub(f)));
        write_cells(out, &self.options.fields, &cells);
        self.indent(thread, depth, row_time(trace, row).unwrap_or(0), out);
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
        (open > 0 || self.events_outside_calls).then_some(open)
    }

    fn shows_span(&self, trace: &Trace, thread: u32, span: u32) -> bool {
        let off_cpu = || {
            let flags = trace
                .threads
                .get(thread as usize)
                .and_then(|t| t.spans.flags.get(span as usize));
            flags.is_some_and(|f| f & SPAN_OFF_CPU != 0)
        };
        !(self.options.no_sched && off_cpu())
    }

    fn shows_entry(&self, trace: &Trace, thread: u32, span: u32) -> bool {
        let flags = trace
            .threads
            .get(thread as usize)
            .and_then(|t| t.spans.flags.get(span as usize));
        flags.is_none_or(|f| f & SPAN_START_REPAIRED == 0)
    }

    fn marker_follows_exits(&self, trace: &Trace, thread: u32, instant: u32) -> bool {
        // The decoder puts a LOST record at the time of the record before it.
        marker_name(trace, thread, instant) == LOST
    }

    fn needs_previous_thread(&self) -> bool {
        self.options.task_newline
    }

    fn needs_previous_time(&self) -> bool {
        self.options.fields.iter().any(|f| {
            matches!(
                f,
                ReplayField::Time | ReplayField::Delta | ReplayField::Elapsed
            )
        })
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

/// Scaler's sync-object detail keys (and the raw extra fields of a
/// recording without names), shown as a call's arguments.
fn argument_keys(trace: &Trace) -> Vec<StrId> {
    if trace.format != Some(Format::Scaler) {
        return Vec::new();
    }
    const KEYS: [&str; 10] = [
        "mutex",
        "cond",
        "cond mutex",
        "sem",
        "rwlock",
        "spinlock",
        "barrier",
        "joined thread",
        "extra field 1",
        "extra field 2",
    ];
    KEYS.iter().filter_map(|k| trace.strings.find(k)).collect()
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
