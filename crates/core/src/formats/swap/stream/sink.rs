//! What the parser hands on and reports: messages for a [`Sink`] (the
//! build, or [`Frames`], a plain list), the problems found, and the
//! [`Summary`] of the whole stream.

use super::super::framing::SequenceSummary;
use super::super::ids;
use super::super::messages::{Frame, Message, System, WireTime};
use super::super::parse_system::SystemLayout;
use crate::model::Severity;

/// A parsed message and the byte offset of its header in the stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub offset: u64,
    pub frame: Frame,
}

/// A problem found while splitting or parsing, reported through the builder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    pub kind: &'static str,
    pub offset: Option<u64>,
    pub count: u64,
    pub message: String,
}

/// What the user may tell the decoder about MSG_SYSTEM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SystemHints {
    pub cpus: Option<u32>,
    pub energy_devices: Option<u32>,
}

/// The whole stream, parsed, in stream order.
#[derive(Debug, Default)]
pub struct ParsedStream {
    /// Messages in stream order.
    pub frames: Vec<Located>,
    pub problems: Vec<Problem>,
    pub sequence: SequenceSummary,
    /// The MSG_SYSTEM layout used and whether it was inferred.
    pub system_layout: Option<(SystemLayout, bool)>,
    /// Stream bytes read.
    pub bytes: u64,
}

/// What the whole stream said, known once it has ended.
#[derive(Debug, Default)]
pub struct Summary {
    /// In stream order, then the truncated tail, then MSG_SYSTEM's.
    pub problems: Vec<Problem>,
    pub sequence: SequenceSummary,
    /// The MSG_SYSTEM layout used and whether it was inferred.
    pub system_layout: Option<(SystemLayout, bool)>,
    /// Stream bytes read.
    pub bytes: u64,
    /// Messages read and handed on.
    pub messages: u64,
    /// Some function call used the pre-4.0 layout.
    pub legacy_calls: bool,
    /// Messages that left the window after a message with a later time,
    /// and the offset of the first.
    pub late: u64,
    pub first_late: Option<u64>,
}

/// Where messages go as they leave the window, in time order.
pub trait Sink {
    /// A MSG_SYSTEM message, read with the stream's layout, with its
    /// header's sequence number and time, its offset and its slack.
    fn system(&mut self, system: &System, seq: u32, time: i64, offset: u64, slack: usize);
    /// Any other message.
    fn frame(&mut self, frame: &Frame, offset: u64);
}

/// Records a message whose fields do not fit its payload.
pub fn bad_payload(problems: &mut Vec<Problem>, id: u32, offset: u64) {
    let name = ids::name(id).unwrap_or("a message");
    problems.push(Problem {
        severity: Severity::DataLoss,
        kind: "bad-payload",
        offset: Some(offset),
        count: 1,
        message: format!("messages whose payload is shorter than its fields or malformed were skipped (first: {name})"),
    });
}

/// A sink that keeps every message as a frame.
pub struct Frames(pub Vec<Located>);

impl Sink for Frames {
    fn system(&mut self, system: &System, seq: u32, time: i64, offset: u64, slack: usize) {
        self.0.push(Located {
            offset,
            frame: Frame {
                seq,
                time: WireTime {
                    sec: (time / 1_000_000_000) as u32,
                    nsec: (time % 1_000_000_000) as u32,
                },
                message: Message::System(system.clone()),
                slack: slack as u32,
            },
        });
    }

    fn frame(&mut self, frame: &Frame, offset: u64) {
        self.0.push(Located {
            offset,
            frame: frame.clone(),
        });
    }
}
