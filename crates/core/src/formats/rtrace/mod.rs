//! sp-rtrace: the binary `<pid>-<n>.rtrace` files of the Maemo/MeeGo resource
//! tracer, every protocol version (1.0–1.4 with `[size][type]` packet headers,
//! 2.0 with `[type][len]`), either byte order, 4- or 8-byte pointers.
//!
//! The trace file streams through the framer (`framing.rs`) into a session
//! (`session.rs`); at the end the calls become allocations per resource type,
//! one-step spans on the process lane, live counters and tables (`calls.rs`,
//! `tables.rs`). ELF files dropped beside the trace are read for their symbol
//! tables and name the frames of the modules they match (`elf.rs`,
//! `modules.rs`). Facts: `specs/notes/sp-rtrace.md`.

mod call_details;
mod calls;
mod elf;
mod framing;
mod handshake;
pub mod listing_tables;
mod matching;
mod modules;
mod packets;
mod postproc_buffer;
mod session;
mod tables;

use crate::decoder::{file_name, Decoder, FileProbe};
use crate::model::{Format, Severity, TimeUnit, Trace, TraceBuilder};
use framing::{Event, Framer};
use handshake::HandshakeError;
use session::{Problem, Session};
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
        }
    }

    fn trace_path(&self) -> String {
        trace_path(&self.probes, self.trace_file).to_owned()
    }

    fn feed_trace(&mut self, chunk: &[u8]) {
        let rest;
        let chunk = if self.framer.is_none() {
            self.head.extend_from_slice(chunk);
            match handshake::parse(&self.head) {
                // Wait for the padding too: it is part of the handshake.
                Ok(h) if self.head.len() >= h.len => {
                    if h.major >= 2 && h.pointer_size == 8 && !h.big_endian {
                        let mut replay = postproc_buffer::PostprocBuffer::default();
                        replay.feed(&self.head);
                        self.postproc_buffer = Some(replay);
                    }
                    rest = self.head.split_off(h.len.min(self.head.len()));
                    self.framer = Some(Framer::new(&h));
                    self.session = Some(Session::new(h));
                    &rest[..]
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
            // Packets are handled as they are framed, borrowing the framer's bytes.
            framer.feed(chunk, &mut |e| handle(session, builder, path, e));
        }
    }

    fn end_trace(&mut self) {
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
        if let Some(session) = self.session.as_mut() {
            let path = trace_path(&self.probes, self.trace_file);
            let builder = &mut self.builder;
            framer.flush_garbage(&mut |e| handle(session, builder, path, e));
        }
        let (pending, at, stopped) = (framer.pending(), framer.pending_offset(), framer.stopped());
        if pending > 0 && !stopped {
            self.builder.diagnose(
                Severity::DataLoss,
                "truncated-packet",
                file,
                Some(at),
                1,
                || {
                    format!(
                        "the file ends inside a packet; its last {pending} bytes were not decoded"
                    )
                },
            );
        }
    }

    fn end_elf(&mut self, name: String, bytes: &[u8], path: &str) {
        match elf::parse(bytes) {
            Ok(symbols) => {
                self.elves.insert(file_name(&name).to_owned(), symbols);
            }
            Err(why) => {
                self.builder.diagnose(
                    Severity::Info,
                    "elf-unreadable",
                    Some(path),
                    None,
                    1,
                    || format!("no symbols read from this ELF file: {why}"),
                );
            }
        }
    }
}

/// The path of the trace file (empty when there is none).
fn trace_path(probes: &[FileProbe], trace_file: Option<usize>) -> &str {
    trace_file
        .and_then(|i| probes.get(i))
        .map_or("", |p| p.path.as_str())
}

/// Takes one framing event into the session, reporting what was wrong with it.
fn handle(session: &mut Session, builder: &mut TraceBuilder, path: &str, event: Event<'_>) {
    let file = Some(path);
    match event {
        Event::Packet(p) => match packets::decode(&p.tag, p.payload, &session.handshake) {
            Some(payload) => {
                if let Some(problem) = session.apply(&p.tag, payload) {
                    report_problem(builder, file, p.offset, Some(problem));
                }
            }
            None => {
                let tag = String::from_utf8_lossy(&p.tag).into_owned();
                builder.diagnose(Severity::DataLoss, "bad-packet", file, Some(p.offset), 1, || {
                    format!("packets too short or malformed for their type were skipped (first: {tag}, {} payload bytes)", p.payload.len())
                });
            }
        },
        Event::Unknown { tag, offset, .. } => {
            let tag = tag.escape_ascii().to_string();
            builder.diagnose(Severity::Info, "unknown-packet", file, Some(offset), 1, || {
                format!("packets of a type sp-rtrace does not define were skipped by their length (first: \"{tag}\")")
            });
        }
        Event::Garbage { offset, len } => {
            builder.diagnose(Severity::DataLoss, "unreadable-bytes", file, Some(offset), len as u64, || {
                "bytes that do not frame as packets were skipped up to the next known packet (count = bytes)".into()
            });
        }
        Event::SecondHandshake { offset } => {
            builder.diagnose(Severity::DataLoss, "second-session", file, Some(offset), 1, || {
                "a second handshake starts another recording session appended to this file; only the first session was decoded".into()
            });
        }
    }
}

fn report_problem(
    builder: &mut TraceBuilder,
    file: Option<&str>,
    offset: u64,
    problem: Option<Problem>,
) {
    match problem {
        None => {}
        Some(Problem::Orphan(tag)) => {
            builder.diagnose(Severity::DataLoss, "orphan-packet", file, Some(offset), 1, || {
                format!("{tag} packets with no CALL before them were dropped")
            })
        }
        Some(Problem::MissingBacktrace) => {
            builder.diagnose(Severity::Info, "missing-backtrace", file, Some(offset), 1, || {
                "calls were not followed by their BTRC packet; they have no backtrace".into()
            })
        }
        Some(Problem::PipeOnly(path)) => {
            builder.diagnose(Severity::Info, "pipe-only-packet", file, Some(offset), 1, || {
                format!("NLIB packets (only meant for the pre-processor) were ignored (first: {path:?})")
            })
        }
    }
}

impl Decoder for RtraceDecoder {
    fn format(&self) -> Format {
        Format::SpRtrace
    }

    fn building(&self) -> Option<&crate::model::TraceBuilder> {
        Some(&self.builder)
    }

    fn plan(&self) -> Vec<usize> {
        self.plan.clone()
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
            Current::Elf { name, bytes } => {
                let path = name.clone();
                self.end_elf(name, &bytes, &path);
            }
            Current::Nothing => {}
        }
    }

    fn finish(self: Box<Self>) -> Trace {
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
        session.past_heap_info = postproc_buffer.and_then(|b| b.finish());
        tables::metadata(&session, &mut builder);
        let (pid, name) = session
            .process
            .as_ref()
            .map_or((String::from("?"), String::from("process")), |p| {
                (p.pid.to_string(), p.name.clone())
            });
        let process = builder.process(&pid, &name);
        let thread = builder.thread(process, &pid, &format!("{name} (all threads)"));
        builder.count_events(thread, session.calls.len() as u64);
        if session.mappings.is_empty() && !session.calls.is_empty() {
            builder.diagnose(Severity::Info, "no-mappings", None, None, 1, || {
                "the trace has no MMAP packets (the process ended before the pre-processor read its maps), so frames show as raw addresses".into()
            });
        }
        let symbolizer = modules::Symbolizer::new(&session.mappings, &elves);
        let outcome = calls::build(&session, &mut builder, thread, &symbolizer);
        let dropped: Vec<String> = probes.iter().map(|p| p.path.clone()).collect();
        tables::add_all(&session, &outcome, &symbolizer, &dropped, &mut builder);
        builder.finish()
    }
}
