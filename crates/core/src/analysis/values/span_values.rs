//! The values one call saw in its own frame (not in its callees): for a
//! method span, its parameters, field and array accesses, locals, calls'
//! arguments and results, its return or exception; for a call span, the
//! call's receiver, arguments and result. For the detail panel.

use super::attributes::site_name;
use super::text::{event_type, has_value, value_detail, value_text};
use crate::model::{site_role, Trace};

/// One value in a call's frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanValue {
    /// The event's index in the event log and its place in the recording.
    pub event: u32,
    pub seq: i64,
    /// The source line from dataids.txt.
    pub line: i32,
    /// `EVENT_TYPE` or `EVENT_TYPE name` (the variable or field it names).
    pub label: String,
    /// The value as LogPrinter prints it, and what the recording wrote
    /// about an object (string content, exception message and causes).
    pub text: String,
    pub detail: Option<String>,
}

/// The value events of span `span` of thread `thread` in its own frame, at
/// most `limit`; empty when the trace keeps no event sequence.
pub fn span_values(trace: &Trace, thread: u32, span: u32, limit: usize) -> Vec<SpanValue> {
    let log = &trace.event_log;
    let Some(spans) = trace.threads.get(thread as usize).map(|t| &t.spans) else {
        return Vec::new();
    };
    let (Some(&start), Some(&end)) = (spans.start.get(span as usize), spans.end.get(span as usize))
    else {
        return Vec::new();
    };
    let first = if log.seq.is_empty() {
        usize::try_from(start).unwrap_or(usize::MAX)
    } else {
        log.seq.partition_point(|&seq| seq < start)
    };
    let mut out = Vec::new();
    // Entries met minus exits met after the span's first event: 0 in its frame.
    let mut level: i64 = 0;
    for event in first..log.len() {
        if log.seq_of(event) >= end || out.len() >= limit {
            break;
        }
        if log.thread_of(event) != Some(thread) {
            continue;
        }
        let site = log.site_of(event).unwrap_or(u32::MAX);
        let role = log.site_role.get(site as usize).copied();
        if role == Some(site_role::ENTRY) && event != first {
            level += 1;
        }
        if level == 0 && has_value(log, site) {
            let kind = event_type(log, site);
            out.push(SpanValue {
                event: event as u32,
                seq: log.seq_of(event),
                line: log.site_line.get(site as usize).map_or(0, |&l| l as i32),
                label: match site_name(log, site) {
                    Some(name) => format!("{kind} {name}"),
                    None => kind.to_owned(),
                },
                text: value_text(log, event),
                detail: value_detail(log, event),
            });
        }
        if role == Some(site_role::EXIT) && level > 0 {
            level -= 1;
        }
    }
    out
}
