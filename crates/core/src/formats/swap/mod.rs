//! Tizen SWAP: the data stream of the Dynamic Analyzer's target side — the
//! bytes of the data socket or of `/dev/swap_device`, messages back to back
//! with no file header (see `specs/notes/swap.md`; there are no public real
//! captures, so the tests use streams from our own encoder).
//!
//! The stream is split as chunks arrive ([`stream`]), its messages wait a
//! little in a reorder window ([`window`]) and are read and built into the
//! model in time order as they leave it (`build.rs`), so the stream is read
//! once and only the window's payloads are held. MSG_SYSTEM waits until
//! its CPU count is inferred from the first messages of that kind or taken
//! from a `swap.cpus` file dropped beside the stream.

mod addresses;
mod build;
#[cfg(feature = "swap-encoder")]
pub mod encode;
pub mod framing;
pub mod ids;
pub mod messages;
mod parse_calls;
mod parse_misc;
mod parse_probe;
mod parse_process;
pub mod parse_system;
pub mod reader;
pub mod stream;
pub mod values;
pub mod window;

use crate::decoder::{Decoder, FileProbe};
use crate::model::{Format, Severity, Trace};
use build::Build;
use framing::Header;
use stream::{ParsedStream, StreamParser, SystemHints, WINDOW_BYTES};

/// Name of the optional file that gives MSG_SYSTEM's CPU count (and,
/// optionally, its energy device count): `4` or `4 5`.
pub const CPUS_FILE: &str = "swap.cpus";

/// True when a file starts like a SWAP stream: a header with a known id, a
/// length that fits one sub-buffer and in the file, nanoseconds below one
/// second, and, when the first 64 bytes reach it, a second such header.
pub fn looks_like_stream(probe: &FileProbe) -> bool {
    let Some(first) = Header::read(&probe.head) else {
        return false;
    };
    if !(first.is_sane() && ids::is_known(first.id)) {
        return false;
    }
    let next = framing::HEADER_LEN + first.len as usize;
    if probe.size < next as u64 {
        return false;
    }
    match probe.head.get(next..).and_then(Header::read) {
        Some(second) => second.is_plausible(),
        None => true,
    }
}

/// True when one of the files is a SWAP stream.
pub fn detect(probes: &[FileProbe]) -> bool {
    probes.iter().any(looks_like_stream)
}

/// Parses a whole stream held in memory, in stream order.
pub fn parse(bytes: &[u8], hints: SystemHints) -> ParsedStream {
    let mut parser = StreamParser::new(hints, usize::MAX);
    // Nothing leaves an unbounded window before the end.
    parser.feed(bytes, &mut Build::new("", 0));
    parser.into_parsed()
}

/// Decodes a whole stream held in memory into a trace.
pub fn decode(bytes: &[u8], hints: SystemHints, file: &str) -> Trace {
    let mut parser = StreamParser::new(hints, WINDOW_BYTES);
    let mut build = Build::new(file, bytes.len() as u64);
    parser.feed(bytes, &mut build);
    let summary = parser.finish(&mut build);
    build.finish(summary)
}

/// Reads `swap.cpus`: the CPU count, then optionally the energy device count.
pub fn parse_cpus_file(text: &str) -> Option<SystemHints> {
    let mut numbers = text.split_whitespace().map(str::parse::<u32>);
    let cpus = numbers.next()?.ok().filter(|&n| (1..=1024).contains(&n))?;
    let energy_devices = match numbers.next() {
        Some(Ok(d)) if d <= 64 => Some(d),
        Some(_) => return None,
        None => None,
    };
    Some(SystemHints {
        cpus: Some(cpus),
        energy_devices,
    })
}

/// Decodes one SWAP stream, with an optional `swap.cpus` beside it.
pub struct SwapDecoder {
    stream: Option<usize>,
    cpus_file: Option<usize>,
    ignored: Vec<String>,
    current: Option<usize>,
    parser: StreamParser,
    build: Build,
    cpus_text: Vec<u8>,
    /// `swap.cpus` was there but did not read.
    bad_cpus_file: bool,
}

impl SwapDecoder {
    /// A decoder for the offered files: the first stream (by path) is
    /// decoded; other streams and unrelated files are reported as ignored.
    pub fn new(probes: Vec<FileProbe>) -> Self {
        let stream = probes
            .iter()
            .enumerate()
            .filter(|(_, p)| looks_like_stream(p))
            .min_by(|a, b| a.1.path.cmp(&b.1.path))
            .map(|(i, _)| i);
        let cpus_file = probes.iter().position(|p| p.name() == CPUS_FILE);
        let ignored = probes
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != stream && Some(*i) != cpus_file)
            .map(|(_, p)| p.path.clone())
            .collect();
        let (file, size) = stream
            .and_then(|i| probes.get(i))
            .map(|p| (p.path.clone(), p.size))
            .unwrap_or_default();
        SwapDecoder {
            parser: StreamParser::new(SystemHints::default(), WINDOW_BYTES),
            build: Build::new(&file, size),
            stream,
            cpus_file,
            ignored,
            current: None,
            cpus_text: Vec::new(),
            bad_cpus_file: false,
        }
    }
}

impl Decoder for SwapDecoder {
    fn format(&self) -> Format {
        Format::Swap
    }

    fn building(&self) -> Option<&crate::model::TraceBuilder> {
        Some(&self.build.b)
    }

    fn plan(&self) -> Vec<usize> {
        self.cpus_file.into_iter().chain(self.stream).collect()
    }

    fn begin_file(&mut self, index: usize) {
        self.current = Some(index);
        // The plan feeds `swap.cpus` first: its counts are known before the
        // first MSG_SYSTEM has to be read.
        if Some(index) == self.stream && self.cpus_file.is_some() {
            let text = String::from_utf8_lossy(&self.cpus_text);
            let hints = parse_cpus_file(&text);
            self.bad_cpus_file = hints.is_none();
            self.parser.set_hints(hints.unwrap_or_default());
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        if self.current.is_some() && self.current == self.cpus_file {
            // A one-line file; anything longer is not ours to keep.
            if self.cpus_text.len() < 4096 {
                self.cpus_text.extend_from_slice(chunk);
            }
        } else if self.current.is_some() && self.current == self.stream {
            self.parser.feed(chunk, &mut self.build);
        }
    }

    fn end_file(&mut self) {
        self.current = None;
    }

    /// Every part reads the whole stream in the same time order (the
    /// reorder window and every state shared across threads stay the whole
    /// stream's); part 0 builds the trace-level data, part 1 the threads'
    /// spans and markers (see `build`).
    fn keep_part(&mut self, part: usize, parts: usize) -> bool {
        if parts < 2 || self.stream.is_none() {
            return false;
        }
        self.build.split(part, parts);
        true
    }

    /// Each part reads and parses the whole stream through the same reorder
    /// window: in the page one worker alone was faster and needed less
    /// memory (110 MB stream, 2026-11-27: 995 against 1478 ms and 115
    /// against 130 MB shared-memory build; 1209 against 1394 ms copying
    /// build; docs/performance.md).
    fn parts_pay_off(&self) -> bool {
        false
    }

    fn finish(self: Box<Self>) -> Trace {
        let mut this = *self;
        let summary = this.parser.finish(&mut this.build);
        let whole_input = this.build.trace_level;
        let mut trace = this.build.finish(summary);
        if !whole_input {
            return trace;
        }
        if this.bad_cpus_file {
            trace.diagnostics.push(crate::model::Diagnostic {
                severity: Severity::DataLoss,
                kind: "bad-cpus-file".into(),
                message: format!("{CPUS_FILE} should hold the CPU count, optionally followed by the energy device count (for example \"4 5\"); it was ignored"),
                file: Some(CPUS_FILE.into()),
                offset: Some(0),
                count: 1,
            });
        }
        if !this.ignored.is_empty() {
            trace.diagnostics.push(crate::model::Diagnostic {
                severity: Severity::Info,
                kind: "ignored-files".into(),
                message: format!(
                    "files that are not part of the SWAP stream were ignored: {}",
                    this.ignored.join(", ")
                ),
                file: None,
                offset: None,
                count: this.ignored.len() as u64,
            });
        }
        trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_cpus_holds_a_count_and_an_optional_device_count() {
        assert_eq!(
            parse_cpus_file("4\n"),
            Some(SystemHints {
                cpus: Some(4),
                energy_devices: None
            })
        );
        assert_eq!(
            parse_cpus_file(" 2 3 "),
            Some(SystemHints {
                cpus: Some(2),
                energy_devices: Some(3)
            })
        );
        assert_eq!(parse_cpus_file("0"), None);
        assert_eq!(parse_cpus_file("four"), None);
        assert_eq!(parse_cpus_file("2 x"), None);
    }
}
