//! The example format of ARCHITECTURE.md's "How to add a format" recipe,
//! compiled only with the test-only `example-format` feature and walked by
//! `crates/core/tests/example_format.rs`.
//!
//! A file is `flamedrop-example\n` and then one line per event:
//! `<time> call <name>` or `<time> return`, times in microseconds, all on one
//! thread. Lines cut by a chunk's end are carried over with
//! [`common::Carry`]; a last line without its newline is reported.

use super::common::Carry;
use super::Sniff;
use crate::decoder::{Decoder, FileProbe};
use crate::model::{Format, Severity, ThreadRef, TimeUnit, Trace, TraceBuilder};

/// The first line of every example file, without its newline.
const HEADER: &str = "flamedrop-example";

/// The first bytes of every example file.
pub const MAGIC: &[u8] = b"flamedrop-example\n";

/// Yes when a file starts with [`MAGIC`]; need-more when a head is a
/// shorter start of it while the file is longer.
pub fn sniff(probes: &[FileProbe]) -> Sniff {
    let mut answer = Sniff::No;
    for probe in probes {
        if probe.head.starts_with(MAGIC) {
            return Sniff::Yes;
        }
        if MAGIC.starts_with(&probe.head) && probe.size > probe.head.len() as u64 {
            answer = Sniff::NeedMore;
        }
    }
    answer
}

/// Decodes the first example file offered.
pub struct ExampleDecoder {
    probes: Vec<FileProbe>,
    builder: TraceBuilder,
    thread: ThreadRef,
    carry: Carry,
    file: String,
}

impl ExampleDecoder {
    /// A decoder for the offered files.
    pub fn new(probes: Vec<FileProbe>) -> Self {
        let mut builder = TraceBuilder::new(Format::Example, TimeUnit::Us);
        let process = builder.process("1", "example");
        let thread = builder.thread(process, "1", "main");
        ExampleDecoder {
            probes,
            builder,
            thread,
            carry: Carry::new(),
            file: String::new(),
        }
    }

    /// Applies the whole lines at the front of `bytes`; how many bytes they took.
    fn lines(&mut self, bytes: &[u8], offset: u64) -> usize {
        let mut used = 0;
        while let Some(end) = bytes
            .get(used..)
            .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        {
            let line = bytes.get(used..used + end).unwrap_or_default();
            self.line(line, offset + used as u64);
            used += end + 1;
        }
        used
    }

    fn line(&mut self, line: &[u8], offset: u64) {
        if offset == 0 && line == HEADER.as_bytes() {
            return;
        }
        let text = String::from_utf8_lossy(line);
        let mut words = text.split_whitespace();
        let time = words.next().and_then(|t| t.parse::<i64>().ok());
        match (time, words.next(), words.next()) {
            (Some(time), Some("call"), Some(name)) => {
                let name = self.builder.intern(name);
                self.builder.begin(self.thread, time, name, 0);
            }
            (Some(time), Some("return"), None) => {
                self.builder.end(self.thread, time);
            }
            _ => self.builder.diagnose(
                Severity::DataLoss,
                "example-bad-line",
                Some(&self.file),
                Some(offset),
                1,
                || "lines that are not `<time> call <name>` or `<time> return` were skipped".into(),
            ),
        }
    }
}

impl Decoder for ExampleDecoder {
    fn format(&self) -> Format {
        Format::Example
    }

    fn plan(&self) -> Vec<usize> {
        let first = self.probes.iter().position(|p| p.head.starts_with(MAGIC));
        first.into_iter().collect()
    }

    fn begin_file(&mut self, index: usize) {
        self.file = self
            .probes
            .get(index)
            .map(|p| p.path.clone())
            .unwrap_or_default();
        self.carry = Carry::new();
    }

    fn feed(&mut self, chunk: &[u8]) {
        let mut carry = std::mem::take(&mut self.carry);
        carry.feed(chunk, |bytes, offset| self.lines(bytes, offset));
        self.carry = carry;
    }

    fn end_file(&mut self) {
        if let Some(cut) = self.carry.take_unfinished() {
            let lost = cut.bytes.len() as u64;
            self.builder.diagnose(
                Severity::DataLoss,
                "truncated-record",
                Some(&self.file),
                Some(cut.offset),
                1,
                || {
                    format!(
                        "the file ends inside a line ({lost} bytes without a newline were skipped)"
                    )
                },
            );
        }
    }

    fn finish(self: Box<Self>) -> Trace {
        self.builder.finish()
    }
}
