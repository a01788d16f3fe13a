//! Splits the byte stream into messages as chunks arrive, parses each by its
//! id, and keeps what the whole stream decides: the sequence log, the pids
//! seen (for the 0x0015 rule), the function-call layout in use, and the
//! MSG_SYSTEM payloads whose layout is settled at the end.
//!
//! Parsed messages are not kept: a message that parses has its payload
//! copied into one arena and a small [`Kept`] entry saying where it is and
//! which layout its first reading chose, so the build reads it again, one
//! message at a time, in time order. That keeps about the stream's size in
//! memory instead of an owned message (and its allocations) per message.

use super::framing::{Header, SequenceLog, SequenceSummary, HEADER_LEN, MAX_MESSAGE};
use super::messages::{Frame, Message, System, WireTime};
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

/// The most a parser reserves up front (it still grows past it).
const MAX_RESERVE: u64 = 4 << 30;
/// `Kept::how`: the function call was read in the pre-4.0 layout.
const HOW_LEGACY: u8 = 1;
/// `Kept::how`: 0x0015 was read as the document's web sampling.
const HOW_SAMPLING: u8 = 2;

/// A message that parsed: its header fields, where its payload sits in the
/// arena, and the layout its first reading chose (`HOW_*`), so that reading
/// it again gives the same message without the stream's state.
#[derive(Clone, Copy, Debug)]
pub struct Kept {
    /// Nanoseconds since the epoch.
    pub time: i64,
    /// Stream offset of the header.
    pub offset: u64,
    start: usize,
    pub seq: u32,
    len: u32,
    pub id: u16,
    how: u8,
}

/// The whole stream, split and checked: every message that parsed as a
/// [`Kept`] entry (in stream order) over the arena of their payloads.
#[derive(Debug, Default)]
pub struct IndexedStream {
    pub kept: Vec<Kept>,
    arena: Vec<u8>,
    pub problems: Vec<Problem>,
    pub sequence: SequenceSummary,
    /// The MSG_SYSTEM layout used and whether it was inferred.
    pub system_layout: Option<(SystemLayout, bool)>,
    /// Stream bytes read.
    pub bytes: u64,
    /// Some function call used the pre-4.0 layout.
    pub legacy_calls: bool,
}

impl IndexedStream {
    /// The payload of `kept`.
    pub fn payload(&self, kept: &Kept) -> &[u8] {
        self.arena
            .get(kept.start..kept.start + kept.len as usize)
            .unwrap_or(&[])
    }

    /// The message of `kept`, read again from its payload.
    pub fn frame(&self, kept: &Kept) -> Option<Frame> {
        let payload = self.payload(kept);
        let id = u32::from(kept.id);
        let (message, slack) = if id == ids::SYSTEM {
            let (system, slack) = parse_system::parse(payload, self.system_layout?.0)?;
            (Message::System(system), slack)
        } else {
            reread(id, payload, kept.how)?
        };
        Some(Frame {
            seq: kept.seq,
            time: WireTime {
                sec: (kept.time / 1_000_000_000) as u32,
                nsec: (kept.time % 1_000_000_000) as u32,
            },
            message,
            slack: slack as u32,
        })
    }

    /// Every message as an owned frame, in stream order.
    pub fn into_parsed(self) -> ParsedStream {
        let frames = self
            .kept
            .iter()
            .filter_map(|kept| {
                Some(Located {
                    offset: kept.offset,
                    frame: self.frame(kept)?,
                })
            })
            .collect();
        ParsedStream {
            frames,
            problems: self.problems,
            sequence: self.sequence,
            system_layout: self.system_layout,
            bytes: self.bytes,
        }
    }
}

/// A message read with the layout its first reading chose.
fn reread(id: u32, payload: &[u8], how: u8) -> Option<(Message, usize)> {
    match id {
        ids::FUNCTION_ENTRY | ids::FUNCTION_EXIT => {
            let mut r = Reader::new(payload);
            let legacy = how & HOW_LEGACY != 0;
            let m = if id == ids::FUNCTION_ENTRY {
                parse_calls::function_entry(&mut r, legacy)
            } else {
                parse_calls::function_exit(&mut r, legacy)
            }?;
            Some((m, r.remaining()))
        }
        ids::WEB_0015 => parse_misc::web_0015_as(payload, how & HOW_SAMPLING != 0),
        _ => parse_stateless(id, payload),
    }
}

/// The message and its unread bytes for every id whose reading needs none of
/// the stream's state, or `None` when the fields do not fit.
fn parse_stateless(id: u32, payload: &[u8]) -> Option<(Message, usize)> {
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

/// Incremental splitter and parser; see the module docs.
#[derive(Default)]
pub struct StreamParser {
    /// The start of a message split across chunks.
    buffer: Vec<u8>,
    /// Stream offset of the next byte not consumed.
    base: u64,
    kept: Vec<Kept>,
    arena: Vec<u8>,
    /// MSG_SYSTEM messages kept (their layout is settled at the end).
    systems: u64,
    problems: Vec<Problem>,
    sequence: SequenceLog,
    pids: HashSet<u32>,
    /// The pre-4.0 FUNCTION_ENTRY/EXIT layout was the last one that fitted.
    legacy_calls: bool,
    /// Some function call used the pre-4.0 layout.
    any_legacy: bool,
    /// Inside a stretch of bytes skipped while looking for a header.
    resyncing: bool,
}

impl StreamParser {
    /// A parser that makes room for a stream of about `bytes` bytes up
    /// front, so its arena does not grow (and copy itself) by doubling. A
    /// size this machine cannot hold is not reserved.
    pub fn with_capacity(bytes: u64) -> Self {
        let mut parser = StreamParser::default();
        // A size past what any machine holds is a bad hint, not a plan.
        if let Ok(bytes) = usize::try_from(bytes.min(MAX_RESERVE)) {
            let _ = parser.arena.try_reserve_exact(bytes);
            // Messages are about 100 bytes; the index grows past this if not.
            let _ = parser.kept.try_reserve_exact(bytes / 96);
        }
        parser
    }

    /// Adds bytes and parses every complete message in them. Messages are
    /// read where they lie in `chunk`; only the one split across chunks is
    /// put together in the buffer, a piece at a time, so a chunk is not
    /// copied as a whole.
    pub fn feed(&mut self, mut chunk: &[u8]) {
        while !self.buffer.is_empty() && !chunk.is_empty() {
            let (piece, rest) = chunk.split_at(self.pending_need().clamp(1, chunk.len()));
            chunk = rest;
            let mut buffer = std::mem::take(&mut self.buffer);
            buffer.extend_from_slice(piece);
            let used = self.split(&buffer);
            buffer.drain(..used);
            self.buffer = buffer;
        }
        if self.buffer.is_empty() {
            let used = self.split(chunk);
            self.buffer
                .extend_from_slice(chunk.get(used..).unwrap_or(&[]));
        }
    }

    /// How many more bytes the buffered start of a message needs: the rest
    /// of its header, then the rest of its payload. While resynchronising,
    /// or after a header the splitter will refuse, any amount will do.
    fn pending_need(&self) -> usize {
        if self.resyncing {
            return MAX_MESSAGE;
        }
        match Header::read(&self.buffer) {
            None => HEADER_LEN.saturating_sub(self.buffer.len()),
            Some(h) if h.is_sane() && h.id <= 0xFFFF => {
                (HEADER_LEN + h.len as usize).saturating_sub(self.buffer.len())
            }
            Some(_) => 1,
        }
    }

    /// Parses the complete messages at the start of `bytes` (which begin at
    /// stream offset `base`); returns how many bytes are done with.
    fn split(&mut self, bytes: &[u8]) -> usize {
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
            let Some(payload) = bytes.get(at + HEADER_LEN..end) else {
                break;
            };
            self.message(self.base + at as u64, header, payload);
            at = end;
        }
        if self.resyncing {
            // Keep the last bytes: a header may start in them.
            at = bytes.len().saturating_sub(HEADER_LEN - 1).max(at);
        }
        self.base += at as u64;
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

    /// Keeps a message that parsed (its id fits 16 bits: the splitter
    /// refuses larger ones).
    fn keep(&mut self, offset: u64, header: Header, payload: &[u8], how: u8) {
        let time = WireTime {
            sec: header.sec,
            nsec: header.nsec,
        };
        self.kept.push(Kept {
            time: time.ns(),
            offset,
            start: self.arena.len(),
            seq: header.seq,
            len: payload.len() as u32,
            id: header.id as u16,
            how,
        });
        self.arena.extend_from_slice(payload);
    }

    /// Parses one complete message.
    fn message(&mut self, offset: u64, header: Header, payload: &[u8]) {
        self.sequence.push(header.seq);
        if header.id == ids::SYSTEM {
            self.systems += 1;
            self.keep(offset, header, payload, 0);
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
        let how = match &message {
            Message::FunctionEntry(e) if e.legacy.is_some() => HOW_LEGACY,
            Message::FunctionExit(e) if e.legacy.is_some() => HOW_LEGACY,
            Message::WebSampling { .. } => HOW_SAMPLING,
            _ => 0,
        };
        self.any_legacy |= how == HOW_LEGACY;
        self.keep(offset, header, payload, how);
    }

    /// The message and its unread bytes, or `None` when the fields do not
    /// fit; the ids whose reading depends on what came before are read here.
    fn parse(&mut self, id: u32, payload: &[u8]) -> Option<(Message, usize)> {
        match id {
            ids::FUNCTION_ENTRY | ids::FUNCTION_EXIT => {
                let entry = id == ids::FUNCTION_ENTRY;
                let (m, left, legacy) =
                    parse_calls::function_call(payload, entry, self.legacy_calls)?;
                self.legacy_calls = legacy;
                Some((m, left))
            }
            ids::WEB_0015 => parse_misc::web_0015(payload, |pid| self.pids.contains(&pid)),
            other => parse_stateless(other, payload),
        }
    }

    /// The stream is complete: reports a truncated tail and settles MSG_SYSTEM.
    pub fn finish(mut self, hints: SystemHints) -> IndexedStream {
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
        IndexedStream {
            kept: self.kept,
            arena: self.arena,
            problems: self.problems,
            sequence: self.sequence.summary(),
            system_layout,
            bytes,
            legacy_calls: self.any_legacy,
        }
    }

    /// The payload of a kept message.
    fn payload(&self, kept: &Kept) -> &[u8] {
        self.arena
            .get(kept.start..kept.start + kept.len as usize)
            .unwrap_or(&[])
    }

    /// Picks the MSG_SYSTEM layout and checks those messages with it; the
    /// ones that do not parse (all of them when no layout fits) are dropped.
    fn settle_system(&mut self, hints: SystemHints) -> Option<(SystemLayout, bool)> {
        let system = u16::try_from(ids::SYSTEM).ok()?;
        let first_offset = self.kept.iter().find(|k| k.id == system)?.offset;
        // Only the first messages are scored: the layout is the same for all.
        let payloads: Vec<&[u8]> = self
            .kept
            .iter()
            .filter(|k| k.id == system)
            .take(parse_system::INFER_SAMPLE)
            .map(|k| self.payload(k))
            .collect();
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
                let count = self.systems;
                self.problem(
                    Severity::DataLoss,
                    "system-layout-unknown",
                    Some(first_offset),
                    count,
                    "MSG_SYSTEM messages were not decoded: the stream does not say how many CPUs the target has and their lengths do not reveal it. Put a text file named swap.cpus beside the stream holding the CPU count (optionally followed by the energy device count, 3 or 5) and open both".into(),
                );
                self.kept.retain(|k| k.id != system);
                return None;
            }
        };
        let mut scratch = System::default();
        let mut bad: Vec<u64> = Vec::new();
        for kept in self.kept.iter().filter(|k| k.id == system) {
            if parse_system::parse_into(self.payload(kept), layout.0, &mut scratch).is_none() {
                bad.push(kept.offset);
            }
        }
        for &offset in &bad {
            self.problem(
                Severity::DataLoss,
                "bad-payload",
                Some(offset),
                1,
                "messages whose payload is shorter than its fields or malformed were skipped (first: MSG_SYSTEM)".into(),
            );
        }
        if !bad.is_empty() {
            self.kept
                .retain(|k| k.id != system || bad.binary_search(&k.offset).is_err());
        }
        Some(layout)
    }
}
