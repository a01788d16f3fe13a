//! What the framer and the session report, turned into diagnostics for
//! the trace builder or a part's record (`said.rs`).

use super::framing::{Event, Framer};
use super::packets;
use super::said::{Diagnose, Head};
use super::session::{Problem, Session};
use crate::model::Severity;

/// True for the framing events that show damage.
pub fn is_damage(event: &Event<'_>) -> bool {
    matches!(event, Event::Unknown { .. } | Event::Garbage { .. })
}

/// The end of the framed bytes: damage still open is reported, and, when
/// they ran to the end of the file, a cut last packet.
pub fn end_framing(
    framer: Option<&mut Framer>,
    session: Option<&mut Session>,
    sink: &mut impl Diagnose,
    to_the_end: bool,
) {
    let Some(framer) = framer else {
        return;
    };
    if let Some(session) = session {
        framer.flush_garbage(&mut |e| handle(session, sink, e));
    }
    let (pending, at, stopped) = (framer.pending(), framer.pending_offset(), framer.stopped());
    if to_the_end && pending > 0 && !stopped {
        say(sink, Severity::DataLoss, "truncated-packet", at, || {
            format!("the file ends inside a packet; its last {pending} bytes were not decoded")
        });
    }
}

fn say(
    sink: &mut impl Diagnose,
    severity: Severity,
    kind: &'static str,
    at: u64,
    message: impl FnOnce() -> String,
) {
    let head = Head {
        severity,
        kind,
        offset: Some(at),
        count: 1,
    };
    sink.said(head, None, message);
}

/// Takes one framing event into the session, reporting what was wrong with it.
pub fn handle(session: &mut Session, sink: &mut impl Diagnose, event: Event<'_>) {
    match event {
        Event::Packet(p) => match packets::decode(&p.tag, p.payload, &session.handshake) {
            Some(payload) => {
                if let Some(problem) = session.apply(&p.tag, payload) {
                    report_problem(sink, p.offset, problem, None);
                }
            }
            None => {
                let tag = String::from_utf8_lossy(&p.tag).into_owned();
                say(sink, Severity::DataLoss, "bad-packet", p.offset, || {
                    format!("packets too short or malformed for their type were skipped (first: {tag}, {} payload bytes)", p.payload.len())
                });
            }
        },
        Event::Unknown { tag, offset, .. } => {
            let tag = tag.escape_ascii().to_string();
            say(sink, Severity::Info, "unknown-packet", offset, || {
                format!("packets of a type sp-rtrace does not define were skipped by their length (first: \"{tag}\")")
            });
        }
        Event::Garbage { offset, len } => {
            let head = Head {
                severity: Severity::DataLoss,
                kind: "unreadable-bytes",
                offset: Some(offset),
                count: len as u64,
            };
            sink.said(head, None, || "bytes that do not frame as packets were skipped up to the next known packet (count = bytes)".into());
        }
        Event::SecondHandshake { offset } => {
            say(sink, Severity::DataLoss, "second-session", offset, || {
                "a second handshake starts another recording session appended to this file; only the first session was decoded".into()
            });
        }
    }
}

fn report_problem(sink: &mut impl Diagnose, offset: u64, problem: Problem, awaited: Option<bool>) {
    let head = |severity, kind| Head {
        severity,
        kind,
        offset: Some(offset),
        count: 1,
    };
    match problem {
        Problem::Orphan(tag) => sink.said(head(Severity::DataLoss, "orphan-packet"), awaited, || {
            format!("{tag} packets with no CALL before them were dropped")
        }),
        Problem::MissingBacktrace => {
            sink.said(head(Severity::Info, "missing-backtrace"), awaited, || {
                "calls were not followed by their BTRC packet; they have no backtrace".into()
            })
        }
        Problem::PipeOnly(path) => sink.said(head(Severity::Info, "pipe-only-packet"), awaited, || {
            format!("NLIB packets (only meant for the pre-processor) were ignored (first: {path:?})")
        }),
        Problem::Depends { awaited, problem } => {
            report_problem(sink, offset, *problem, Some(awaited))
        }
    }
}
