//! Splits the byte stream into messages as chunks arrive and keeps what the
//! whole stream decides: the sequence log, the pids seen (for the 0x0015
//! rule), the function-call layout in use, and the MSG_SYSTEM layout, which
//! is settled from the first messages of that kind.
//!
//! Each message is checked as it arrives only as far as the stream's state
//! needs (which layout a function call is in, whether 0x0015 is sampling),
//! then waits in the reorder [`Window`] and is read once, in time order, as
//! it leaves it for a [`Sink`] — the build, or a list of frames.

mod read;
mod sink;
mod system;

use super::framing::{Header, SequenceLog, HEADER_LEN};
use super::messages::{Frame, Message, System, WireTime};
use super::parse_system;
use super::reader::ByteCursor;
use super::window::{Arrival, Kept, Window};
use super::{ids, parse_calls, parse_misc, parse_process};
use crate::formats::common::Carry;
use crate::model::Severity;
use read::{reread, HOW_LEGACY, HOW_SAMPLING};
use sink::{bad_payload, Frames};
pub use sink::{Located, ParsedStream, Problem, Sink, Summary, SystemHints};
use std::collections::HashSet;
use system::SystemState;

/// Payload bytes the window holds before it releases a message: 4 MiB of
/// stream is far more than the target's buffers ever reorder (eight 32 KiB
/// sub-buffers), and a stream this size or smaller is sorted exactly.
pub const WINDOW_BYTES: usize = 4 << 20;

/// The MSG_SYSTEM id as kept.
const SYSTEM: u16 = ids::SYSTEM as u16;

/// Incremental splitter and parser; see the module docs.
pub struct StreamParser {
    /// The start of a message split across chunks, and the stream offset
    /// of the next byte not consumed.
    carry: Carry,
    /// Inside a stretch of bytes skipped while looking for a header.
    resyncing: bool,
    /// Problems in the order found; put in stream order at the end.
    problems: Vec<Problem>,
    sequence: SequenceLog,
    pids: HashSet<u32>,
    /// The pre-4.0 FUNCTION_ENTRY/EXIT layout was the last one that fitted.
    legacy_calls: bool,
    /// Some function call used the pre-4.0 layout.
    any_legacy: bool,
    hints: SystemHints,
    system: SystemState,
    /// MSG_SYSTEM messages split, and the offset of the first.
    systems: u64,
    first_system: Option<u64>,
    /// Offsets of MSG_SYSTEM messages the settled layout did not read.
    bad_systems: Vec<u64>,
    window: Window,
    /// One MSG_SYSTEM read at a time, into reused vectors.
    scratch: System,
    /// The latest (time, offset) released, to count late messages.
    released: Option<(i64, u64)>,
    late: u64,
    first_late: Option<u64>,
    messages: u64,
}

impl StreamParser {
    /// A parser whose window holds `window` payload bytes (`usize::MAX`:
    /// the whole stream, released only by [`StreamParser::finish`]).
    pub fn new(hints: SystemHints, window: usize) -> Self {
        StreamParser {
            carry: Carry::new(),
            resyncing: false,
            problems: Vec::new(),
            sequence: SequenceLog::default(),
            pids: HashSet::new(),
            legacy_calls: false,
            any_legacy: false,
            hints,
            system: SystemState::Waiting,
            systems: 0,
            first_system: None,
            bad_systems: Vec::new(),
            window: Window::new(window),
            scratch: System::default(),
            released: None,
            late: 0,
            first_late: None,
            messages: 0,
        }
    }

    /// Sets what the user told about MSG_SYSTEM; only before the first one.
    pub fn set_hints(&mut self, hints: SystemHints) {
        if self.systems == 0 {
            self.hints = hints;
        }
    }

    /// Adds bytes, splits every complete message in them, and hands the
    /// messages the window lets go of to `sink`. Messages are read where
    /// they lie in `chunk`; only the one split across chunks is put
    /// together (the shared kit's [`Carry`]), so a chunk is not copied as a
    /// whole.
    pub fn feed(&mut self, chunk: &[u8], sink: &mut impl Sink) {
        let mut carry = std::mem::take(&mut self.carry);
        carry.feed(chunk, |bytes, base| self.split(bytes, base, sink));
        self.carry = carry;
        self.window.compact();
    }

    /// Splits the complete messages at the start of `bytes` (which begin at
    /// stream offset `base`); returns how many bytes are done with.
    fn split(&mut self, bytes: &[u8], base: u64, sink: &mut impl Sink) -> usize {
        let mut at = 0usize;
        while let Some(header) = bytes.get(at..).and_then(Header::read) {
            let accept = if self.resyncing {
                header.is_plausible()
            } else {
                header.is_sane() && header.id <= 0xFFFF
            };
            if !accept {
                if !self.resyncing {
                    self.resyncing = true;
                    self.problem(
                        Severity::DataLoss,
                        "bad-header",
                        Some(base + at as u64),
                        1,
                        "a message header has an impossible length or time; bytes were skipped up to the next plausible header".into(),
                    );
                }
                at += 1;
                continue;
            }
            self.resyncing = false;
            let end = at + HEADER_LEN + header.len as usize;
            let Some(payload) = bytes.get(at + HEADER_LEN..end) else {
                break;
            };
            self.message(base + at as u64, header, payload);
            self.release(false, sink);
            at = end;
        }
        if self.resyncing {
            // Keep the last bytes: a header may start in them.
            at = bytes.len().saturating_sub(HEADER_LEN - 1).max(at);
        }
        at
    }

    fn problem(
        &mut self,
        severity: Severity,
        kind: &'static str,
        offset: Option<u64>,
        count: u64,
        message: String,
    ) {
        self.problems.push(Problem {
            severity,
            kind,
            offset,
            count,
            message,
        });
    }

    /// Checks one complete message as far as the stream's state needs and
    /// puts it in the window (its id fits 16 bits: the splitter refuses
    /// larger ones).
    fn message(&mut self, offset: u64, header: Header, payload: &[u8]) {
        self.sequence.push(header.seq);
        let how = match header.id {
            ids::SYSTEM => {
                self.systems += 1;
                self.first_system.get_or_insert(offset);
                if self.system == SystemState::Unknown {
                    return;
                }
                0
            }
            ids::FUNCTION_ENTRY | ids::FUNCTION_EXIT => {
                let entry = header.id == ids::FUNCTION_ENTRY;
                let Some(legacy) = parse_calls::call_layout(payload, entry, self.legacy_calls)
                else {
                    bad_payload(&mut self.problems, header.id, offset);
                    return;
                };
                self.legacy_calls = legacy;
                self.any_legacy |= legacy;
                if legacy {
                    HOW_LEGACY
                } else {
                    0
                }
            }
            ids::WEB_0015 if parse_misc::is_sampling(payload, |pid| self.pids.contains(&pid)) => {
                HOW_SAMPLING
            }
            ids::PROCESS_INFO => {
                // 0x0015 is read by the pids introduced before it.
                let mut r = ByteCursor::le(payload);
                if let Some(Message::ProcessInfo(p)) = parse_process::process_info(&mut r) {
                    self.pids.insert(p.pid);
                }
                0
            }
            _ => 0,
        };
        let time = WireTime {
            sec: header.sec,
            nsec: header.nsec,
        };
        let arrival = Arrival {
            time: time.ns(),
            offset,
            seq: header.seq,
            id: header.id as u16,
            how,
        };
        self.window.insert(arrival, payload);
        if self.system == SystemState::Waiting
            && header.id == ids::SYSTEM
            && self.systems >= parse_system::INFER_SAMPLE as u64
        {
            self.settle_system();
        }
    }

    /// Hands on messages in time order while the window holds more than it
    /// should (`all`: every one). MSG_SYSTEM waits for its layout, and
    /// everything after it with it.
    fn release(&mut self, all: bool, sink: &mut impl Sink) {
        while all || self.window.over_budget() {
            match self.window.front() {
                None => break,
                Some(k) if k.id == SYSTEM && self.system == SystemState::Waiting => break,
                Some(_) => {}
            }
            let Some(kept) = self.window.pop() else {
                break;
            };
            self.deliver(kept, sink);
        }
    }

    /// Reads one message that left the window and hands it to `sink`.
    fn deliver(&mut self, kept: Kept, sink: &mut impl Sink) {
        let key = (kept.time, kept.offset);
        match self.released {
            Some(last) if key < last => {
                self.late += 1;
                self.first_late.get_or_insert(kept.offset);
            }
            _ => self.released = Some(key),
        }
        let payload = self.window.payload(&kept);
        if kept.id == SYSTEM {
            let SystemState::Settled(layout, _) = self.system else {
                return;
            };
            match parse_system::parse_into(payload, layout, &mut self.scratch) {
                Some(slack) => {
                    self.messages += 1;
                    sink.system(&self.scratch, kept.seq, kept.time, kept.offset, slack);
                }
                None => self.bad_systems.push(kept.offset),
            }
            return;
        }
        let id = u32::from(kept.id);
        let Some((message, slack)) = reread(id, payload, kept.how) else {
            bad_payload(&mut self.problems, id, kept.offset);
            return;
        };
        if slack > 0 {
            self.problem(
                Severity::Info,
                "trailing-bytes",
                Some(kept.offset),
                1,
                "messages had bytes after their last field; they were skipped by the message length".into(),
            );
        }
        if let Message::Unknown { id, .. } = message {
            self.problem(
                Severity::Info,
                "unknown-id",
                Some(kept.offset),
                1,
                format!("messages with an id no SWAP version writes were skipped by their length (first id {id:#06x})"),
            );
        }
        self.messages += 1;
        let frame = Frame {
            seq: kept.seq,
            time: WireTime {
                sec: (kept.time / 1_000_000_000) as u32,
                nsec: (kept.time % 1_000_000_000) as u32,
            },
            message,
            slack: slack as u32,
        };
        sink.frame(&frame, kept.offset);
    }

    /// The stream is complete: settles MSG_SYSTEM if it is still waiting,
    /// hands every pending message to `sink` in time order, and says what
    /// the stream held.
    pub fn finish(self, sink: &mut impl Sink) -> Summary {
        self.finish_in(false, sink)
    }

    /// Everything the stream held, in stream order (nothing is built).
    pub fn into_parsed(self) -> ParsedStream {
        let mut frames = Frames(Vec::new());
        let summary = self.finish_in(true, &mut frames);
        ParsedStream {
            frames: frames.0,
            problems: summary.problems,
            sequence: summary.sequence,
            system_layout: summary.system_layout,
            bytes: summary.bytes,
        }
    }

    fn finish_in(mut self, stream_order: bool, sink: &mut impl Sink) -> Summary {
        let bytes = self.carry.offset() + self.carry.held().len() as u64;
        let truncated = self
            .carry
            .take_unfinished()
            .filter(|_| !self.resyncing)
            .map(|cut| Problem {
                severity: Severity::DataLoss,
                kind: "truncated-message",
                offset: Some(cut.offset),
                count: 1,
                message: format!(
                    "the stream ends inside a message ({} bytes of it are there); that message was lost",
                    cut.bytes.len()
                ),
            });
        if self.system == SystemState::Waiting && self.systems > 0 {
            self.settle_system();
        }
        if stream_order {
            self.window.sort_by_offset();
        }
        self.release(true, sink);
        // Found as messages left the window: put back in stream order (one
        // problem per offset at most, so the order is the stream's).
        self.problems.sort_by_key(|p| p.offset);
        self.problems.extend(truncated);
        if let (SystemState::Unknown, Some(first)) = (self.system, self.first_system) {
            let count = self.systems;
            self.problem(
                Severity::DataLoss,
                "system-layout-unknown",
                Some(first),
                count,
                "MSG_SYSTEM messages were not decoded: the stream does not say how many CPUs the target has and their lengths do not reveal it. Put a text file named swap.cpus beside the stream holding the CPU count (optionally followed by the energy device count, 3 or 5) and open both".into(),
            );
        }
        let mut bad_systems = std::mem::take(&mut self.bad_systems);
        bad_systems.sort_unstable();
        for offset in bad_systems {
            bad_payload(&mut self.problems, ids::SYSTEM, offset);
        }
        let system_layout = match self.system {
            SystemState::Settled(layout, inferred) => Some((layout, inferred)),
            _ => None,
        };
        Summary {
            problems: self.problems,
            sequence: self.sequence.summary(),
            system_layout,
            bytes,
            messages: self.messages,
            legacy_calls: self.any_legacy,
            late: if stream_order { 0 } else { self.late },
            first_late: if stream_order { None } else { self.first_late },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::build::Build;
    use super::*;

    /// MSG_TERMINATE of pid 7 at each of `seconds`, in that stream order.
    fn terminations(seconds: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        for (seq, &sec) in seconds.iter().enumerate() {
            let header = Header {
                id: ids::TERMINATE,
                seq: seq as u32,
                sec,
                nsec: 0,
                len: 4,
            };
            out.extend_from_slice(&header.to_bytes());
            out.extend_from_slice(&7u32.to_le_bytes());
        }
        out
    }

    fn decode(bytes: &[u8], window: usize) -> (Summary, Vec<i64>) {
        let mut parser = StreamParser::new(SystemHints::default(), window);
        let mut build = Build::new("s.swap", bytes.len() as u64);
        for chunk in bytes.chunks(50) {
            parser.feed(chunk, &mut build);
        }
        let summary = parser.finish(&mut build);
        let late = (summary.late, summary.first_late);
        let trace = build.finish(summary);
        let times = trace.threads[0].instants.time.clone();
        let out_of_order = trace
            .diagnostics
            .iter()
            .find(|d| d.kind == "out-of-order")
            .map(|d| (d.count, d.offset));
        assert_eq!(out_of_order, (late.0 > 0).then_some(late));
        (
            Summary {
                late: late.0,
                first_late: late.1,
                ..Summary::default()
            },
            times,
        )
    }

    #[test]
    fn a_message_within_the_window_is_put_in_time_order() {
        let mut seconds: Vec<u32> = (10..40).collect();
        // Second 12 again after second 20: 11 messages late, within the 16
        // the window holds.
        seconds.insert(11, 12);
        let (summary, times) = decode(&terminations(&seconds), 64);
        assert_eq!(summary.late, 0);
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(times.len(), 31);
    }

    #[test]
    fn a_message_later_than_the_window_is_kept_and_counted() {
        let mut seconds: Vec<u32> = (10..40).collect();
        seconds.push(5);
        let bytes = terminations(&seconds);
        let (summary, times) = decode(&bytes, 64);
        // 16 payloads of 4 bytes fill the window: the message of second 5
        // comes after second 23 was built.
        assert_eq!(summary.late, 1);
        assert_eq!(summary.first_late, Some(30 * 24));
        // Kept, at its own time (markers are sorted when the trace ends).
        assert_eq!(times.len(), 31);
        assert_eq!(times[0], 5_000_000_000);
        // The same stream, whole in the window: nothing is late.
        let (summary, _) = decode(&bytes, usize::MAX);
        assert_eq!(summary.late, 0);
    }
}
