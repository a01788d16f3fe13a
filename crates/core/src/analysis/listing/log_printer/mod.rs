//! SELogger's listing: one line per event, exactly as
//! `selogger.reader.LogPrinter` of the release that wrote the trace prints
//! it, from the trace's [`EventLog`]:
//!
//! `EventId=<n>,EventType=<type>,ThreadId=<id>,DataId=<id>,Value=<v>`
//! then `,objectType=<type>` for an object, `,method:<methods.txt row>` on
//! a METHOD_ENTRY or `,method:<attributes>` on a CALL, then
//! `,<Class>:<method>,<source file>:<line>:<instruction index>`. With
//! `-processparams` the parameters an entry took follow it as
//! `  param[<index>] <event>` (the event's text without the place). The
//! order and the parameters are the reader's (`order`).

mod order;

use super::{ListingError, LogPrinterOptions, RowInfo, RowKind, Rows};
use crate::analysis::meter::Meter;
use crate::analysis::values;
use crate::fast_hash::FastMap;
use crate::model::{site_role, EventLog, Trace};
use order::ReaderOrder;
use std::fmt::Write;

/// A row that prints a parameter under its entry.
const PARAM_ROW: u32 = 1 << 31;
/// No span, no row.
const NONE: u32 = u32::MAX;

/// The index of LogPrinter's lines: per row an event (and whether it is a
/// parameter line); per event its innermost span and its row.
pub(super) struct LogPrinterRows {
    rows: Vec<u32>,
    span_of_event: Vec<u32>,
    row_of_event: Vec<u32>,
    /// Entry row → the row of its method's exit.
    exit_of_entry: FastMap<u32, u32>,
}

impl LogPrinterRows {
    /// Builds the rows of `trace`'s event log, spending `meter` an event at a time.
    pub(super) async fn build(
        trace: &Trace,
        options: &LogPrinterOptions,
        meter: &Meter,
    ) -> Result<LogPrinterRows, ListingError> {
        let log = &trace.event_log;
        if log.site_type.is_empty() {
            return Err(ListingError::Unavailable(
                "this SELogger output has no event sequence: LogPrinter lists the omniscient \
                 streams (log-*.slg, log-*.txt) with their dataids.txt; near-omniscient and \
                 frequency outputs keep only the latest values or counts of each data id"
                    .into(),
            ));
        }
        let span_of_event = spans_of_events(trace, meter).await;
        let mut rows = Vec::with_capacity(log.len());
        let mut row_of_event = vec![NONE; log.len()];
        let first = log.seq.partition_point(|&seq| seq < options.from as i64);
        let first = if log.seq.is_empty() {
            usize::try_from(options.from).unwrap_or(usize::MAX)
        } else {
            first
        };
        let to = options.num.map_or(i64::MAX, |num| {
            (options.from as i64).saturating_add(num.min(i64::MAX as u64) as i64)
        });
        let threads: Option<Vec<u32>> = options.threads.as_ref().map(|ids| {
            let shown = |t: &crate::model::Thread| ids.iter().any(|id| t.id == id.to_string());
            (0..trace.threads.len() as u32)
                .filter(|&t| trace.threads.get(t as usize).is_some_and(shown))
                .collect()
        });
        let mut reader = ReaderOrder::new(log, first, options.process_params);
        while let Some(event) = reader.next_event() {
            meter.tick().await;
            if log.seq_of(event as usize) >= to {
                break;
            }
            let thread = log.thread_of(event as usize).unwrap_or(NONE);
            if threads.as_ref().is_some_and(|t| !t.contains(&thread)) {
                continue;
            }
            if let Some(slot) = row_of_event.get_mut(event as usize) {
                *slot = rows.len() as u32;
            }
            rows.push(event);
            for &param in reader.params_of(event) {
                if let Some(slot) = row_of_event.get_mut(param as usize) {
                    *slot = rows.len() as u32;
                }
                rows.push(param | PARAM_ROW);
            }
        }
        let exit_of_entry = exits_of_entries(log, &rows, &span_of_event);
        Ok(LogPrinterRows {
            rows,
            span_of_event,
            row_of_event,
            exit_of_entry,
        })
    }

    fn event_of(&self, row: usize) -> Option<(usize, bool)> {
        let at = *self.rows.get(row)?;
        Some(((at & !PARAM_ROW) as usize, at & PARAM_ROW != 0))
    }
}

/// Per event, its thread's innermost span holding its time (or [`NONE`]).
async fn spans_of_events(trace: &Trace, meter: &Meter) -> Vec<u32> {
    let log = &trace.event_log;
    let mut next_span = vec![0usize; trace.threads.len()];
    let mut open: Vec<Vec<u32>> = vec![Vec::new(); trace.threads.len()];
    let mut out = Vec::with_capacity(log.len());
    for (event, thread) in log.threads().enumerate() {
        meter.tick().await;
        let time = log.seq_of(event);
        let t = thread as usize;
        let (Some(spans), Some(next), Some(stack)) = (
            trace.threads.get(t).map(|t| &t.spans),
            next_span.get_mut(t),
            open.get_mut(t),
        ) else {
            out.push(NONE);
            continue;
        };
        let ends = |stack: &mut Vec<u32>, at: i64| {
            while let Some(&top) = stack.last() {
                match spans.end.get(top as usize) {
                    Some(&end) if end > at => break,
                    _ => stack.pop(),
                };
            }
        };
        while let Some(&start) = spans.start.get(*next) {
            if start > time {
                break;
            }
            ends(stack, start);
            stack.push(*next as u32);
            *next += 1;
        }
        ends(stack, time);
        out.push(stack.last().copied().unwrap_or(NONE));
    }
    out
}

/// Each METHOD_ENTRY row → the row of the exit of the same method span.
fn exits_of_entries(log: &EventLog, rows: &[u32], span_of_event: &[u32]) -> FastMap<u32, u32> {
    let role_of = |event: usize| {
        let site = log.site_of(event).unwrap_or(NONE) as usize;
        log.site_role
            .get(site)
            .copied()
            .unwrap_or(site_role::MISSING)
    };
    let key = |event: usize| {
        let thread = log.thread_of(event).unwrap_or(NONE);
        let span = span_of_event.get(event).copied().unwrap_or(NONE);
        (thread, span)
    };
    let mut exits: FastMap<(u32, u32), u32> = FastMap::default();
    for (row, &at) in rows.iter().enumerate() {
        let event = (at & !PARAM_ROW) as usize;
        if at & PARAM_ROW == 0 && role_of(event) == site_role::EXIT {
            exits.insert(key(event), row as u32);
        }
    }
    let mut out = FastMap::default();
    for (row, &at) in rows.iter().enumerate() {
        let event = (at & !PARAM_ROW) as usize;
        if at & PARAM_ROW == 0 && role_of(event) == site_role::ENTRY && key(event).1 != NONE {
            if let Some(&exit) = exits.get(&key(event)) {
                out.insert(row as u32, exit);
            }
        }
    }
    out
}

/// Appends `Event.toString()` of event `event`: the line without the place.
fn write_event(trace: &Trace, event: usize, out: &mut String) {
    let log = &trace.event_log;
    let site = log.site_of(event).unwrap_or(NONE) as usize;
    let thread = log.thread_of(event).unwrap_or(NONE) as usize;
    let text = |column: &[u32]| column.get(site).map_or("", |&id| log.text(id));
    let _ = write!(
        out,
        "EventId={},EventType={},ThreadId={},DataId={},Value=",
        log.seq_of(event),
        text(&log.site_type),
        trace.threads.get(thread).map_or("", |t| t.id.as_str()),
        site
    );
    values::write_value(log, event, out);
    match log.site_role.get(site).copied() {
        Some(site_role::ENTRY) => {
            let method = log.site_method.get(site).copied().unwrap_or(NONE) as usize;
            out.push_str(",method:");
            out.push_str(
                log.method_text
                    .get(method)
                    .map_or("null", |&id| log.text(id)),
            );
        }
        Some(site_role::CALL) => {
            out.push_str(",method:");
            out.push_str(text(&log.site_attributes));
        }
        _ => {}
    }
}

/// Appends `,<Class>:<method>,<source>:<line>:<instruction index>`.
fn write_place(trace: &Trace, event: usize, out: &mut String) {
    let log = &trace.event_log;
    let site = log.site_of(event).unwrap_or(NONE) as usize;
    let method = log.site_method.get(site).copied().unwrap_or(NONE) as usize;
    let method_text = |column: &[u32]| column.get(method).map_or("null", |&id| log.text(id));
    let number = |column: &[u32]| column.get(site).map_or(0, |&n| n as i32);
    let _ = write!(
        out,
        ",{},{}:{}:{}",
        method_text(&log.method_place),
        method_text(&log.method_source),
        number(&log.site_line),
        number(&log.site_inst)
    );
}

impl Rows for LogPrinterRows {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn header(&self, _trace: &Trace) -> Vec<String> {
        Vec::new()
    }

    fn write_row(&self, trace: &Trace, row: usize, out: &mut String) {
        let Some((event, param)) = self.event_of(row) else {
            return;
        };
        if param {
            let log = &trace.event_log;
            let site = log.site_of(event).unwrap_or(NONE) as usize;
            let index = log.site_param_index.get(site).map_or(-1, |&i| i as i32);
            let _ = write!(out, "  param[{index}] ");
            write_event(trace, event, out);
        } else {
            write_event(trace, event, out);
            write_place(trace, event, out);
        }
    }

    fn info(&self, trace: &Trace, row: usize) -> RowInfo {
        let Some((event, param)) = self.event_of(row) else {
            return RowInfo::new(RowKind::Note);
        };
        let log = &trace.event_log;
        let site = log.site_of(event).unwrap_or(NONE) as usize;
        let closed_by = self.exit_of_entry.get(&(row as u32)).map(|&r| r as usize);
        let kind = match log.site_role.get(site).copied() {
            _ if param => RowKind::Continuation,
            Some(site_role::ENTRY) => RowKind::Entry,
            Some(site_role::EXIT) => RowKind::Exit,
            _ => RowKind::Event,
        };
        let thread = log.thread_of(event);
        let span = self
            .span_of_event
            .get(event)
            .copied()
            .filter(|&s| s != NONE);
        let spans = thread
            .and_then(|t| trace.threads.get(t as usize))
            .map(|t| &t.spans);
        let at = |column: Option<&Vec<u16>>| column?.get(span? as usize).copied();
        RowInfo {
            kind,
            thread,
            span,
            time: Some(log.seq_of(event)),
            depth: at(spans.map(|s| &s.depth)).unwrap_or(0),
            name: span.and_then(|s| spans?.name.get(s as usize).copied()),
            closed_by,
        }
    }

    fn row_of_span(&self, trace: &Trace, thread: u32, span: u32) -> Option<usize> {
        let start = *trace
            .threads
            .get(thread as usize)?
            .spans
            .start
            .get(span as usize)?;
        let log = &trace.event_log;
        let event = if log.seq.is_empty() {
            usize::try_from(start).ok()?
        } else {
            log.seq.partition_point(|&seq| seq < start)
        };
        if log.seq_of(event) != start || log.thread_of(event) != Some(thread) {
            return None;
        }
        let row = *self.row_of_event.get(event)?;
        (row != NONE).then_some(row as usize)
    }

    fn row_of_event(&self, event: u32) -> Option<usize> {
        let row = *self.row_of_event.get(event as usize)?;
        (row != NONE).then_some(row as usize)
    }

    fn event_of_row(&self, row: usize) -> Option<u32> {
        self.event_of(row).map(|(event, _)| event as u32)
    }
}
