//! Splits the byte stream into messages as chunks arrive, parses each by its
//! id, and keeps what the whole stream decides: the sequence log, the pids
//! seen (for the 0x0015 rule), the function-call layout in use, and the
//! MSG_SYSTEM payloads whose layout is settled at the end.

use super::framing::{Header, SequenceLog, SequenceSummary, HEADER_LEN};
use super::messages::{Frame, Message, WireTime};
use super::parse_system::{self, SystemLayout};
use super::reader::Reader;
use super::{ids, parse_calls, parse_misc, parse_probe, parse_process};
use crate::model::Severity;
use std::collections::HashSet;

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

/// The whole stream, parsed.
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

/// Incremental splitter and parser; see the module docs.
#[derive(Default)]
pub struct StreamParser {
    buffer: Vec<u8>,
    /// Stream offset of `buffer[0]`.
    base: u64,
    frames: Vec<Located>,
    system_payloads: Vec<(u64, u32, WireTime, Vec<u8>)>,
    problems: Vec<Problem>,
    sequence: SequenceLog,
    pids: HashSet<u32>,
    /// The pre-4.0 FUNCTION_ENTRY/EXIT layout was the last one that fitted.
    legacy_calls: bool,
    /// Inside a stretch of bytes skipped while looking for a header.
    resyncing: bool,
}

impl StreamParser {
    /// Adds bytes and parses every complete message in them.
    pub fn feed(&mut self, chunk: &[u8]) {
        self.buffer.extend_from_slice(chunk);
        let mut at = 0usize;
        while let Some(header) = self.buffer.get(at..).and_then(Header::read) {
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
                        Some(self.base + at as u64),
                        1,
                        "a message header has an impossible length or time; bytes were skipped up to the next plausible header".into(),
                    );
                }
                at += 1;
                continue;
            }
            self.resyncing = false;
            let end = at + HEADER_LEN + header.len as usize;
            let Some(payload) = self.buffer.get(at + HEADER_LEN..end) else {
                break;
            };
            let payload = payload.to_vec();
            self.message(self.base + at as u64, header, &payload);
            at = end;
        }
        if self.resyncing {
            // Keep the last bytes: a header may start in them.
            let keep_from = self.buffer.len().saturating_sub(HEADER_LEN - 1).max(at);
            at = keep_from;
        }
        self.buffer.drain(..at);
        self.base += at as u64;
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

    /// Parses one complete message.
    fn message(&mut self, offset: u64, header: Header, payload: &[u8]) {
        self.sequence.push(header.seq);
        let time = WireTime {
            sec: header.sec,
            nsec: header.nsec,
        };
        if header.id == ids::SYSTEM {
            self.system_payloads
                .push((offset, header.seq, time, payload.to_vec()));
            return;
        }
        let Some((message, slack)) = self.parse(header.id, payload) else {
            let name = ids::name(header.id).unwrap_or("a message");
            self.problem(
                Severity::DataLoss,
                "bad-payload",
                Some(offset),
                1,
                format!("messages whose payload is shorter than its fields or malformed were skipped (first: {name})"),
            );
            return;
        };
        if let Message::ProcessInfo(p) = &message {
            self.pids.insert(p.pid);
        }
        if slack > 0 {
            self.problem(
                Severity::Info,
                "trailing-bytes",
                Some(offset),
                1,
                "messages had bytes after their last field; they were skipped by the message length".into(),
            );
        }
        if let Message::Unknown { id, .. } = message {
            self.problem(
                Severity::Info,
                "unknown-id",
                Some(offset),
                1,
                format!("messages with an id no SWAP version writes were skipped by their length (first id {id:#06x})"),
            );
        }
        self.frames.push(Located {
            offset,
            frame: Frame {
                seq: header.seq,
                time,
                message,
                slack: slack as u32,
            },
        });
    }

    /// The message and its unread bytes, or `None` when the fields do not fit.
    fn parse(&mut self, id: u32, payload: &[u8]) -> Option<(Message, usize)> {
        let simple = |f: fn(&mut Reader) -> Option<Message>| {
            let mut r = Reader::new(payload);
            let m = f(&mut r)?;
            Some((m, r.remaining()))
        };
        match id {
            ids::PROCESS_INFO => simple(parse_process::process_info),
            ids::TERMINATE => simple(parse_process::terminate),
            ids::ERROR => simple(parse_misc::error),
            ids::SAMPLE => simple(parse_calls::sample),
            ids::IMAGE => Some((
                Message::Image {
                    payload: payload.to_vec(),
                },
                0,
            )),
            ids::RECORD => simple(parse_misc::record),
            ids::FUNCTION_ENTRY | ids::FUNCTION_EXIT => {
                let entry = id == ids::FUNCTION_ENTRY;
                let (m, left, legacy) =
                    parse_calls::function_call(payload, entry, self.legacy_calls)?;
                self.legacy_calls = legacy;
                Some((m, left))
            }
            ids::SYSCALL_ENTRY => simple(parse_calls::syscall_entry),
            ids::SYSCALL_EXIT => simple(parse_calls::syscall_exit),
            ids::FILE_FUNCTION_ENTRY => simple(parse_calls::file_entry),
            ids::FILE_FUNCTION_EXIT => simple(parse_calls::file_exit),
            ids::PROCESS_STATUS_INFO => parse_process::status_info(payload),
            ids::CONTEXT_SWITCH_ENTRY => simple(|r| parse_calls::context_switch(r, true)),
            ids::CONTEXT_SWITCH_EXIT => simple(|r| parse_calls::context_switch(r, false)),
            ids::PROCESS_MAP => simple(parse_process::map),
            ids::PROCESS_UNMAP => simple(parse_process::unmap),
            ids::PROCESS_COMM => simple(parse_process::comm),
            ids::WEB_0015 => parse_misc::web_0015(payload, |pid| self.pids.contains(&pid)),
            ids::WEB_FUNCTION_EXIT => simple(parse_misc::web_exit),
            ids::APP_SETUP_STAGE => simple(parse_misc::app_setup_stage),
            ids::WEB_APP_SETUP_STAGE => simple(parse_misc::web_app_setup_stage),
            ids::FBI => simple(parse_misc::fbi),
            ids::UI_HIERARCHY => simple(parse_misc::ui_hierarchy),
            ids::LSAN => simple(parse_misc::lsan),
            probe if probe & 0xFF00 == ids::PROBE_BIT => {
                let mut r = Reader::new(payload);
                let m = parse_probe::probe(probe, &mut r)?;
                Some((m, r.remaining()))
            }
            other => Some((
                Message::Unknown {
                    id: other,
                    payload: payload.to_vec(),
                },
                0,
            )),
        }
    }

    /// The stream is complete: reports a truncated tail, settles MSG_SYSTEM
    /// and hands over the messages in stream order.
    pub fn finish(mut self, hints: SystemHints) -> ParsedStream {
        if !self.buffer.is_empty() && !self.resyncing {
            let bytes = self.buffer.len();
            self.problem(
                Severity::DataLoss,
                "truncated-message",
                Some(self.base),
                1,
                format!("the stream ends inside a message ({bytes} bytes of it are there); that message was lost"),
            );
        }
        let bytes = self.base + self.buffer.len() as u64;
        let system_layout = self.settle_system(hints);
        self.frames.sort_by_key(|f| f.offset);
        ParsedStream {
            frames: self.frames,
            problems: self.problems,
            sequence: self.sequence.summary(),
            system_layout,
            bytes,
        }
    }

    /// Picks the MSG_SYSTEM layout and parses those messages with it.
    fn settle_system(&mut self, hints: SystemHints) -> Option<(SystemLayout, bool)> {
        let pending = std::mem::take(&mut self.system_payloads);
        let first_offset = pending.first()?.0;
        let payloads: Vec<&[u8]> = pending.iter().map(|p| p.3.as_slice()).collect();
        let inferred = parse_system::infer(&payloads, hints.cpus, hints.energy_devices);
        let layout = match (inferred, hints.cpus) {
            (Some(layout), _) => (layout, hints.cpus.is_none()),
            (None, Some(cpus)) => (
                SystemLayout {
                    cpus,
                    energy_devices: hints.energy_devices.unwrap_or(5),
                    v42: false,
                },
                false,
            ),
            (None, None) => {
                self.problem(
                    Severity::DataLoss,
                    "system-layout-unknown",
                    Some(first_offset),
                    pending.len() as u64,
                    "MSG_SYSTEM messages were not decoded: the stream does not say how many CPUs the target has and their lengths do not reveal it. Put a text file named swap.cpus beside the stream holding the CPU count (optionally followed by the energy device count, 3 or 5) and open both".into(),
                );
                return None;
            }
        };
        for (offset, seq, time, payload) in pending {
            match parse_system::parse(&payload, layout.0) {
                Some((system, slack)) => self.frames.push(Located {
                    offset,
                    frame: Frame {
                        seq,
                        time,
                        message: Message::System(system),
                        slack: slack as u32,
                    },
                }),
                None => self.problem(
                    Severity::DataLoss,
                    "bad-payload",
                    Some(offset),
                    1,
                    "messages whose payload is shorter than its fields or malformed were skipped (first: MSG_SYSTEM)".into(),
                ),
            }
        }
        Some(layout)
    }
}
