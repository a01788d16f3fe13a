//! uftrace's replay layout: the columns `-f` asks for, `|`, then the calls
//! nested two spaces a level — `f() {` … `} /* f */`, or `f();` for a call
//! with nothing inside — with arguments and return values, and events as
//! `/* … */` rows. `uftrace replay` prints it; Scaler and SWAP take it too.

use super::span_rows::{SpanLayout, SpanRow};
use super::{ListingError, ReplayField, ReplayOptions};
use crate::model::Trace;
use std::fmt::Write;

/// uftrace's replay layout with its options.
pub(super) struct ReplayLayout {
    options: ReplayOptions,
}

impl ReplayLayout {
    /// The layout for `trace` with `options`.
    pub(super) fn new(
        _trace: &Trace,
        options: &ReplayOptions,
    ) -> Result<ReplayLayout, ListingError> {
        Ok(ReplayLayout {
            options: options.clone(),
        })
    }
}

impl SpanLayout for ReplayLayout {
    fn header(&self, _trace: &Trace) -> Vec<String> {
        let mut line = String::from("#");
        for field in &self.options.fields {
            line.push_str(match field {
                ReplayField::Duration => " DURATION    ",
                ReplayField::Tid => " TID    ",
                _ => "",
            });
        }
        line.push_str(" FUNCTION");
        vec![line]
    }

    fn write(&self, trace: &Trace, row: SpanRow, _previous: Option<SpanRow>, out: &mut String) {
        let (thread, depth, duration) = match row {
            SpanRow::Entry { thread, span }
            | SpanRow::Exit { thread, span }
            | SpanRow::Leaf { thread, span } => {
                let spans = trace.threads.get(thread as usize).map(|t| &t.spans);
                let depth = spans.and_then(|s| s.depth.get(span as usize)).copied();
                let duration = match row {
                    SpanRow::Entry { .. } => None,
                    _ => spans.and_then(|s| {
                        Some(s.end.get(span as usize)? - s.start.get(span as usize)?)
                    }),
                };
                (thread, depth.unwrap_or(0), duration)
            }
            SpanRow::Marker { thread, .. } => (thread, 0, None),
        };
        let tid = trace
            .threads
            .get(thread as usize)
            .map_or("", |t| t.id.as_str());
        for field in &self.options.fields {
            match field {
                ReplayField::Duration => match duration {
                    Some(ns) => {
                        let _ = write!(out, " {:>3}.{:03} us", ns / 1000, ns % 1000);
                    }
                    None => out.push_str("           "),
                },
                ReplayField::Tid => {
                    let _ = write!(out, " [{tid:>6}]");
                }
                _ => {}
            }
        }
        out.push_str(" | ");
        for _ in 0..depth {
            out.push_str("  ");
        }
        let name = |span: u32| {
            trace
                .threads
                .get(thread as usize)
                .and_then(|t| t.spans.name.get(span as usize))
                .map_or("", |&id| trace.str(id))
        };
        match row {
            SpanRow::Entry { span, .. } => {
                let _ = write!(out, "{}() {{", name(span));
            }
            SpanRow::Exit { span, .. } => {
                let _ = write!(out, "}} /* {} */", name(span));
            }
            SpanRow::Leaf { span, .. } => {
                let _ = write!(out, "{}();", name(span));
            }
            SpanRow::Marker { instant, .. } => {
                let event = trace
                    .threads
                    .get(thread as usize)
                    .and_then(|t| t.instants.name.get(instant as usize))
                    .map_or("", |&id| trace.str(id));
                let _ = write!(out, "/* {event} */");
            }
        }
    }

    fn shows_marker(&self, _trace: &Trace, _thread: u32, _instant: u32) -> bool {
        true
    }
}
