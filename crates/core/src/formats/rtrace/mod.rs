//! sp-rtrace: the binary `<pid>-<n>.rtrace` files of the Maemo/MeeGo resource
//! tracer, every protocol version (1.0–1.4 with `[size][type]` packet headers,
//! 2.0 with `[type][len]`), either byte order, 4- or 8-byte pointers.
//!
//! The trace file streams through the framer (`framing.rs`) into a session
//! (`session.rs`); at the end the calls become allocations per resource type,
//! one-step spans on the process lane, live counters and tables (`calls.rs`,
//! `tables.rs`). ELF files dropped beside the trace are read for their symbol
//! tables and name the frames of the modules they match (`elf.rs`,
//! `modules.rs`). Facts: `specs/notes/sp-rtrace.md`. A big file can be
//! decoded in parts side by side, joined before the calls are built
//! (`parts.rs`, `joining.rs`). While it decodes, pictures of the calls so
//! far are made from the session (`picture.rs`).

mod call_details;
mod calls;
mod collected;
mod elf;
mod events;
mod framing;
mod handshake;
mod joining;
pub mod listing_tables;
mod matching;
mod modules;
mod packets;
mod parts;
mod picture;
mod postproc_buffer;
mod reserve;
mod said;
mod session;
mod tables;

use crate::decoder::{Decoder, FileProbe, PartHandOver};
use crate::model::{Format, PreviewCursor, PreviewLimits, Severity, TimeUnit, Trace, TraceBuilder};
use events::{end_framing, handle, is_damage};
use framing::Framer;
use handshake::HandshakeError;
use joining::{HandOver, PartMode};
use parts::Action;
use said::ToBuilder;
use session::Session;
use std::collections::HashMap;

/// ELF files larger than this are not read for symbols.
const MAX_ELF_BYTES: u64 = 512 << 20;

/// True when a file starts with an sp-rtrace handshake.
pub fn detect(probes: &[FileProbe]) -> bool {
    probes.iter().any(is_trace)
}

fn is_trace(probe: &FileProbe) -> bool {
    handshake::parse(&probe.head).is_ok()
}

fn is_elf(probe: &FileProbe) -> bool {
    probe.head.starts_with(elf::MAGIC)
}

/// What the file being fed is.
enum Current {
    Trace,
    Elf { name: String, bytes: Vec<u8> },
    Nothing,
}

/// Decodes one sp-rtrace file, with ELF files for symbols.
pub struct RtraceDecoder {
    probes: Vec<FileProbe>,
    trace_file: Option<usize>,
    plan: Vec<usize>,
    builder: TraceBuilder,
    current: Current,
    /// Bytes before the handshake could be read.
    head: Vec<u8>,
    framer: Option<Framer>,
    session: Option<Session>,
    /// postproc's read buffer replayed, for a 64-bit 2.0 trace (see
    /// `postproc_buffer.rs`).
    postproc_buffer: Option<postproc_buffer::PostprocBuffer>,
    elves: HashMap<String, elf::ElfSymbols>,
    /// The part of the trace file this decoder reads, when split, and
    /// which of its bytes to frame.
    part: Option<PartMode>,
    part_reader: Option<parts::PartReader>,
}

impl RtraceDecoder {
    /// A decoder for the offered files: the first trace by path, and every ELF file.
    pub fn new(probes: Vec<FileProbe>) -> Self {
        let mut builder = TraceBuilder::new(Format::SpRtrace, TimeUnit::Events);
        let mut traces: Vec<(usize, &str)> = probes
            .iter()
            .enumerate()
            .filter(|(_, p)| is_trace(p))
            .map(|(i, p)| (i, p.path.as_str()))
            .collect();
        traces.sort_by(|a, b| a.1.cmp(b.1));
        let trace_file = traces.first().map(|&(i, _)| i);
        if let [(_, first), others @ ..] = traces.as_slice() {
            if !others.is_empty() {
                let others: Vec<&str> = others.iter().map(|&(_, path)| path).collect();
                let n = others.len() as u64;
                builder.diagnose(Severity::Info, "other-sessions", None, None, n, || {
                    format!(
                        "only {first} was decoded; open the other trace files on their own: {}",
                        others.join(", ")
                    )
                });
            }
        }
        let mut plan: Vec<usize> = trace_file.into_iter().collect();
        for (i, p) in probes.iter().enumerate() {
            if !is_elf(p) {
                continue;
            }
            if p.size > MAX_ELF_BYTES {
                let path = p.path.clone();
                builder.diagnose(Severity::Info, "elf-too-big", Some(&path), None, 1, || {
                    format!(
                        "ELF files over {} MiB are not read for symbols",
                        MAX_ELF_BYTES >> 20
                    )
                });
            } else {
                plan.push(i);
            }
        }
        RtraceDecoder {
            probes,
            trace_file,
            plan,
            builder,
            current: Current::Nothing,
            head: Vec::new(),
            framer: None,
            session: None,
            postproc_buffer: None,
            elves: HashMap::new(),
            part: None,
            part_reader: None,
        }
    }

    fn trace_path(&self) -> String {
        trace_path(&self.probes, self.trace_file).to_owned()
    }

    fn feed_trace(&mut self, chunk: &[u8]) {
        match (self.part.take(), self.part_reader.take()) {
            (Some(mut part), Some(mut reader)) => {
                reader.feed(chunk, &mut |action| self.act(&mut part, action));
                (self.part, self.part_reader) = (Some(part), Some(reader));
            }
            _ => self.feed_whole(chunk),
        }
    }

    /// Does what the part's reader says (see `parts.rs`).
    fn act(&mut self, part: &mut PartMode, action: Action<'_>) -> bool {
        match action {
            Action::Start(offset) => {
                let h = part.handshake.clone();
                part.start = offset;
                if postproc_buffer::replayed_for(&h) {
                    self.postproc_buffer =
                        Some(postproc_buffer::PostprocBuffer::mid_stream(offset));
                }
                self.framer = Some(Framer::starting_at(&h, offset));
                self.session = Some(Session::part(h));
                // Part 0 is joined by the others' calls: room for all.
                let share = if part.index == 0 { 1 } else { part.parts };
                self.reserve_calls(share);
            }
            Action::Bytes(bytes) if part.index == 0 => self.feed_whole(bytes),
            Action::Bytes(bytes) => {
                if let Some(replay) = self.postproc_buffer.as_mut() {
                    replay.feed(bytes);
                }
                if let (Some(framer), Some(session)) = (self.framer.as_mut(), self.session.as_mut())
                {
                    let (record, damaged) = (&mut part.record, &mut part.damaged);
                    framer.feed(bytes, &mut |e| {
                        *damaged |= is_damage(&e);
                        handle(session, record, e);
                    });
                }
            }
            Action::End(offset) => {
                part.end = offset;
                return self
                    .framer
                    .as_ref()
                    .is_some_and(|f| f.pending() == 0 && !f.stopped());
            }
        }
        true
    }

    /// Room for the calls of `1 / share` of the trace file ([`reserve::room_for_calls`]).
    fn reserve_calls(&mut self, share: usize) {
        let probe = self.trace_file.and_then(|i| self.probes.get(i));
        let size = probe.map_or(0, |p| p.size);
        reserve::room_for_calls(self.session.as_mut(), size, share as u64);
    }

    fn feed_whole(&mut self, chunk: &[u8]) {
        let rest;
        let chunk = if self.framer.is_none() {
            self.head.extend_from_slice(chunk);
            match handshake::parse(&self.head) {
                // Wait for the padding too: it is part of the handshake.
                Ok(h) if self.head.len() >= h.len => {
                    if postproc_buffer::replayed_for(&h) {
                        let mut replay = postproc_buffer::PostprocBuffer::default();
                        replay.feed(&self.head);
                        self.postproc_buffer = Some(replay);
                    }
                    // The bytes past the handshake are the first packets;
                    // the head is dropped with them once they are framed
                    // (left in place, its capacity, a whole first chunk,
                    // stayed to the end of the decode: 1 MiB at the peak).
                    rest = std::mem::take(&mut self.head);
                    let packets = rest.get(h.len..).unwrap_or_default();
                    self.framer = Some(Framer::new(&h));
                    self.session = Some(Session::new(h));
                    self.reserve_calls(1);
                    packets
                }
                _ => return,
            }
        } else {
            if let Some(replay) = self.postproc_buffer.as_mut() {
                replay.feed(chunk);
            }
            chunk
        };
        let RtraceDecoder {
            probes,
            trace_file,
            builder,
            framer,
            session,
            ..
        } = self;
        let path = trace_path(probes, *trace_file);
        if let (Some(framer), Some(session)) = (framer.as_mut(), session.as_mut()) {
            let damaged = self.part.as_mut().map(|p| &mut p.damaged);
            let mut sink = ToBuilder {
                builder,
                file: Some(path),
            };
            // Packets are handled as they are framed, borrowing the framer's bytes.
            match damaged {
                Some(damaged) => framer.feed(chunk, &mut |e| {
                    *damaged |= is_damage(&e);
                    handle(session, &mut sink, e);
                }),
                None => framer.feed(chunk, &mut |e| handle(session, &mut sink, e)),
            }
        }
    }

    fn end_trace(&mut self) {
        let (Some(mut part), Some(mut reader)) = (self.part.take(), self.part_reader.take()) else {
            return self.end_whole_trace();
        };
        reader.end(&mut |action| self.act(&mut part, action));
        let to_the_end = reader.to_the_end();
        part.to_the_end = to_the_end;
        self.part_reader = Some(reader);
        let replay = self.postproc_buffer.take();
        part.replay = replay.map(|r| match to_the_end {
            true => r.finish_last_part(),
            false => r.finish_part(),
        });
        if part.index == 0 {
            let path = self.trace_path();
            let mut sink = ToBuilder {
                builder: &mut self.builder,
                file: Some(&path),
            };
            end_framing(
                self.framer.as_mut(),
                self.session.as_mut(),
                &mut sink,
                to_the_end,
            );
            part.ended();
        } else {
            let record = &mut part.record;
            end_framing(
                self.framer.as_mut(),
                self.session.as_mut(),
                record,
                to_the_end,
            );
        }
        self.part = Some(part);
    }

    fn end_whole_trace(&mut self) {
        let path = self.trace_path();
        let file = Some(path.as_str());
        let Some(framer) = self.framer.as_mut() else {
            let reason = match handshake::parse(&self.head) {
                Err(HandshakeError::Invalid(why)) => why,
                _ => format!(
                    "the file ends after {} bytes, inside the handshake",
                    self.head.len()
                ),
            };
            self.builder
                .diagnose(Severity::Error, "no-handshake", file, Some(0), 1, || {
                    format!("not a readable sp-rtrace stream: {reason}")
                });
            return;
        };
        let mut sink = ToBuilder {
            builder: &mut self.builder,
            file,
        };
        end_framing(Some(framer), self.session.as_mut(), &mut sink, true);
    }
}

/// The path of the trace file (empty when there is none).
fn trace_path(probes: &[FileProbe], trace_file: Option<usize>) -> &str {
    trace_file
        .and_then(|i| probes.get(i))
        .map_or("", |p| p.path.as_str())
}

impl Decoder for RtraceDecoder {
    fn format(&self) -> Format {
        Format::SpRtrace
    }

    /// The calls so far (`picture.rs`: read by index, so no cursor); none
    /// from a part after the first, whose calls' numbers (their times) are
    /// known only once part 0 has joined it.
    fn preview(&self, _: &mut PreviewCursor, limits: &PreviewLimits) -> Option<Trace> {
        if self.part.as_ref().is_some_and(|p| p.index > 0) {
            return None;
        }
        Some(picture::picture(self.session.as_ref()?, limits))
    }

    fn plan(&self) -> Vec<usize> {
        self.plan.clone()
    }

    /// The parts' calls are only collected in parallel: the build that
    /// follows (matching, spans, details) runs after the join, in one part,
    /// and the second worker's calls are copied into the first's. In the
    /// page one worker alone was faster and needed less memory (110 MB
    /// trace, 2026-11-28, five loads each: 675 against 726 ms, 132 against
    /// 143 MB; docs/performance.md).
    fn parts_pay_off(&self) -> bool {
        false
    }

    fn keep_part(&mut self, part: usize, parts: usize) -> bool {
        let Some(probe) = self.trace_file.and_then(|i| self.probes.get(i)) else {
            return false;
        };
        let handshake = match handshake::parse(&probe.head) {
            Ok(h) if parts >= 2 && probe.head.len() >= h.len => h,
            _ => return false,
        };
        self.part_reader = Some(parts::PartReader::new(&handshake, probe.size, part, parts));
        self.part = Some(PartMode::new(handshake, probe.size, part, parts));
        if part > 0 {
            self.plan.truncate(1);
        }
        true
    }

    fn start_of(&self, index: usize) -> u64 {
        match &self.part_reader {
            Some(reader) if Some(index) == self.trace_file => reader.start(),
            _ => 0,
        }
    }

    fn has_enough(&self) -> bool {
        matches!(self.current, Current::Trace)
            && self.part_reader.as_ref().is_some_and(|r| r.done())
    }

    fn joins_parts(&self) -> bool {
        self.part.is_some()
    }

    fn hand_over(self: Box<Self>) -> PartHandOver {
        let RtraceDecoder { part, session, .. } = *self;
        Box::new(part.map(|part| part.hand_over(session)))
    }

    fn take_over(&mut self, next: PartHandOver) -> Result<(), String> {
        let next = next
            .downcast::<Option<HandOver>>()
            .map_err(|_| "a part of another decoder".to_owned())?;
        let path = self.trace_path();
        let (Some(part), Some(session), Some(next)) =
            (self.part.as_mut(), self.session.as_mut(), *next)
        else {
            return Err("a part with nothing to join".into());
        };
        part.join(session, &mut self.builder, Some(&path), next)
    }

    fn begin_file(&mut self, index: usize) {
        self.current = match self.probes.get(index) {
            Some(_) if Some(index) == self.trace_file => Current::Trace,
            Some(p) if is_elf(p) => Current::Elf {
                name: p.path.clone(),
                bytes: Vec::new(),
            },
            _ => Current::Nothing,
        };
    }

    fn feed(&mut self, chunk: &[u8]) {
        match &mut self.current {
            Current::Trace => self.feed_trace(chunk),
            Current::Elf { bytes, .. } => bytes.extend_from_slice(chunk),
            Current::Nothing => {}
        }
    }

    fn end_file(&mut self) {
        match std::mem::replace(&mut self.current, Current::Nothing) {
            Current::Trace => self.end_trace(),
            Current::Elf { name, bytes } => match self.part.as_mut() {
                Some(part) => part.elves.push((name, bytes)),
                None => {
                    let path = name.clone();
                    self.end_elf(name, &bytes, &path);
                }
            },
            Current::Nothing => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Trace {
        let elves = self.part.as_mut().map(|p| std::mem::take(&mut p.elves));
        for (name, bytes) in elves.unwrap_or_default() {
            let path = name.clone();
            self.end_elf(name, &bytes, &path);
        }
        let joined_heap = self.part.as_ref().map(PartMode::past_heap_info);
        let RtraceDecoder {
            probes,
            mut builder,
            session,
            postproc_buffer,
            elves,
            ..
        } = *self;
        let Some(mut session) = session else {
            builder.diagnose(Severity::Error, "no-trace", None, None, 1, || {
                "no sp-rtrace data was read".into()
            });
            return builder.finish();
        };
        session.past_heap_info = match joined_heap {
            Some(joined) => joined,
            None => postproc_buffer.and_then(|b| b.finish()),
        };
        tables::metadata(&session, &mut builder);
        let (pid, name, lane) = picture::lane_names(&session);
        let process = builder.process(&pid, &name);
        let thread = builder.thread(process, &pid, &lane);
        builder.count_events(thread, session.collected.len() as u64);
        if session.mappings.is_empty() && !session.collected.is_empty() {
            builder.diagnose(Severity::Info, "no-mappings", None, None, 1, || {
                "the trace has no MMAP packets (the process ended before the pre-processor read its maps), so frames show as raw addresses".into()
            });
        }
        // The room made for calls beyond them goes back before the build.
        session.collected.shrink_to_fit();
        let symbolizer = modules::Symbolizer::new(&session.mappings, &elves);
        let mut outcome = calls::build(&session, &mut builder, thread, &symbolizer);
        // Every call is in the model now: they go before the live counters
        // are made, so that the two never exist whole at once.
        session.collected = Vec::new();
        calls::live_counters(&mut builder, &mut outcome);
        let dropped: Vec<String> = probes.iter().map(|p| p.path.clone()).collect();
        tables::add_all(&session, &outcome, &symbolizer, &dropped, &mut builder);
        // The session and the outcome go before the spans' columns are made.
        let names = calls::span_names(outcome);
        drop(session);
        builder.step_spans(thread, 1, names);
        builder.finish()
    }
}
