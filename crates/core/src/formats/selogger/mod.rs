//! SELogger (github.com/takashi-ishio/selogger) output folders of releases
//! 0.4, 0.5 and 0.6: the omniscient event stream (binary `log-*.slg` or text
//! `log-*.txt`) drawn as per-thread method spans on an event clock, and the
//! near-omniscient (`recentdata.*`, `trace.*`) and frequency
//! (`eventfreq.txt`, `trace.json`) outputs shown as tables and a frequency
//! flame graph, since they hold no sequence of events.
//!
//! The weaver's static files (`dataids.txt`, `methods.txt`, `classes.txt`)
//! and the object side files (`LOG$*.txt`) are read whole first; the event
//! streams are then fed in chunks, in file-number order.

// Decoders never index input data unchecked: every lookup is `get`.

mod binary;
mod names;
mod objects;
mod printer;
mod recent;
mod replay;
mod roles;
mod signature;
mod statics;
mod summary;
mod text;
mod tolerant_json;

use crate::decoder::{Decoder, FileProbe};
use crate::formats::common::Recording;
use crate::model::{Format, Severity, TimeUnit, Trace, TraceBuilder};
use binary::BinaryStream;
use objects::Objects;
use printer::PrinterTables;
use replay::{Replay, Split, Statics};
use roles::{is_distinctive, role_of, Role};
use statics::{BadLine, Dialect};
use text::TextStream;

/// True when the files hold SELogger output: a dataids.txt (by content), an
/// `.slg` stream, or a near-omniscient/frequency JSON file (by content).
pub fn detect(probes: &[FileProbe]) -> bool {
    probes.iter().any(is_distinctive)
}

enum Stream {
    Binary(BinaryStream),
    Text(TextStream),
}

/// Decodes a SELogger output folder.
pub struct SeloggerDecoder {
    recording: Recording<Role>,
    plan: Vec<usize>,
    replay: Option<Replay>,
    stream: Option<Stream>,
    dialect: Option<Dialect>,
    /// The static files as LogPrinter reads them, for the listing.
    printer: PrinterTables,
    /// Part and parts when the input is decoded in parts ([`Decoder::keep_part`]).
    part: Option<(usize, usize)>,
}

impl SeloggerDecoder {
    /// A decoder for the offered files; only the folder holding the
    /// distinctive files (the first by path) is read.
    pub fn new(probes: Vec<FileProbe>) -> Self {
        let folder = Recording::<Role>::folder_of(&probes, is_distinctive).unwrap_or_default();
        let mut recording = Recording::new(probes, &folder, role_of);
        // Both stream encodings in one folder: the binary one is read.
        let has_binary = recording.roles().any(|(_, r)| matches!(r, Role::Binary(_)));
        if has_binary {
            let texts: Vec<usize> = recording
                .roles()
                .filter(|(_, r)| matches!(r, Role::Text(_)))
                .map(|(i, _)| i)
                .collect();
            for index in texts {
                recording.ignore(index);
            }
        }
        let plan = recording.plan(|role| role.rank());
        SeloggerDecoder {
            recording,
            plan,
            replay: None,
            stream: None,
            dialect: None,
            printer: PrinterTables::default(),
            part: None,
        }
    }

    /// True for a later part of a split decode, which leaves what concerns
    /// the whole recording to part 0.
    fn is_later_part(&self) -> bool {
        self.part.is_some_and(|(part, _)| part > 0)
    }

    /// The role of file `index`, if it is read.
    fn role(&self, index: usize) -> Option<Role> {
        self.recording.role(index).copied()
    }

    fn files_of(&self, role: Role) -> Vec<usize> {
        self.plan
            .iter()
            .copied()
            .filter(|&i| self.role(i) == Some(role))
            .collect()
    }

    /// The whole text of file `index`, handed over.
    fn text_of(&mut self, index: usize) -> String {
        String::from_utf8_lossy(&self.recording.take_buffer(index)).into_owned()
    }

    fn report_bad(&self, builder: &mut TraceBuilder, index: usize, bad: &[BadLine]) {
        if let Some(first) = bad.first() {
            let path = self.recording.path(index);
            builder.diagnose(
                Severity::DataLoss,
                "bad-line",
                Some(path),
                Some(first.offset),
                bad.len() as u64,
                || "lines that could not be read were skipped".into(),
            );
        }
    }

    /// The object side files (`LOG$Types`, `LOG$ObjectTypes*`, strings,
    /// exceptions), for the replay and for LogPrinter's view.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    fn read_objects(&mut self, builder: &mut TraceBuilder) -> Objects {
        let mut objects = Objects::default();
        for (role, add) in [
            (
                Role::Types,
                Objects::add_types as fn(&mut Objects, &str) -> Vec<BadLine>,
            ),
            (Role::ObjectTypes, Objects::add_object_types),
            (Role::Strings, Objects::add_strings),
            (Role::Exceptions, Objects::add_exceptions),
        ] {
            for index in self.files_of(role) {
                let text = self.text_of(index);
                match role {
                    Role::Types => self.printer.add_types(&text),
                    Role::ObjectTypes => self.printer.add_object_types(&text),
                    _ => {}
                }
                let bad = add(&mut objects, &text);
                self.report_bad(builder, index, &bad);
            }
        }
        objects
    }

    /// Parses the static files fed so far and starts the replay, once.
    fn prepare(&mut self) {
        if self.replay.is_none() {
            self.start_replay();
        }
    }

    /// [`SeloggerDecoder::prepare`]'s work. Out of line, its parsers too:
    /// V8 compiles a wasm function again, optimized, once it has run long
    /// or often, and this one runs once (docs/performance.md, "Run-once
    /// functions kept small"); inlined into `prepare`, the data ids' loops made that
    /// 37 KB function hot, and optimizing it took 0.29 s of a core and 12 MB
    /// during the load.
    #[inline(never)]
    fn start_replay(&mut self) {
        let mut builder = TraceBuilder::new(Format::Selogger, TimeUnit::Events);
        let mut data = Vec::new();
        let dataids = self.files_of(Role::DataIds);
        if let Some(&index) = dataids.first() {
            let text = self.text_of(index);
            let dialect = statics::dataids_dialect(&text);
            self.dialect = Some(dialect);
            self.printer.add_dataids(&text, dialect);
            let (rows, bad) = statics::parse_dataids(&text, dialect);
            self.report_bad(&mut builder, index, &bad);
            builder.metadata("SELogger version (static files)", dialect.name());
            builder.metadata("data IDs", rows.iter().flatten().count().to_string());
            data = rows;
        } else {
            builder.diagnose(Severity::Error, "no-dataids", None, None, 1, || {
                "there is no dataids.txt: events cannot be tied to methods and are only counted"
                    .into()
            });
        }
        let mut methods = Vec::new();
        if let Some(&index) = self.files_of(Role::Methods).first() {
            let text = self.text_of(index);
            let dialect = self.dialect.unwrap_or(Dialect::V06);
            self.printer.add_methods(&text, dialect);
            let (rows, bad) = statics::parse_methods(&text);
            self.report_bad(&mut builder, index, &bad);
            builder.metadata("methods", rows.iter().flatten().count().to_string());
            methods = rows;
        } else if !data.is_empty() {
            builder.diagnose(Severity::DataLoss, "no-methods", None, None, 1, || {
                "there is no methods.txt: methods are shown by number".into()
            });
        }
        if let Some(&index) = self.files_of(Role::Classes).first() {
            let count = statics::count_classes(&self.text_of(index));
            builder.metadata("woven classes", count.to_string());
        }
        let objects = self.read_objects(&mut builder);
        for index in self.files_of(Role::WeavingProperties) {
            for line in self.text_of(index).lines() {
                if let Some(events) = line.strip_prefix("Events=") {
                    builder.metadata("woven events", events);
                }
            }
        }
        for index in self.files_of(Role::WeaverLog) {
            for line in self.text_of(index).lines() {
                for key in ["Weaving configuration:", "Selected File Format:"] {
                    if let Some(value) = line.strip_prefix(key) {
                        builder.metadata(key.trim_end_matches(':'), value.trim());
                    }
                }
            }
        }
        if self.is_later_part() {
            // Part 0 reports the static files' problems.
            builder.forget_diagnostics();
        }
        let statics = Statics::new(methods, data, objects);
        let split = self.part.map(|(part, parts)| Split::new(part, parts));
        let mut replay = Replay::new(statics, Some(builder), split);
        if replay.keeps_whole() {
            replay.log.reserve_exact(self.binary_records());
        }
        self.replay = Some(replay);
    }

    /// Records in the binary stream files to be read (their sizes are known
    /// before reading): every one may become an event of the log.
    fn binary_records(&self) -> usize {
        self.plan
            .iter()
            .filter(|&&i| matches!(self.role(i), Some(Role::Binary(_))))
            .filter_map(|&i| self.recording.probe(i))
            .map(|probe| usize::try_from(probe.size).unwrap_or(0) / binary::RECORD_BYTES)
            .sum()
    }

    fn finish_stream(&mut self) {
        if let (Some(stream), Some(replay)) = (self.stream.take(), self.replay.as_mut()) {
            match stream {
                Stream::Binary(s) => s.finish(replay),
                Stream::Text(s) => s.finish(replay),
            }
        }
    }

    /// Near-omniscient and frequency files → tables and a sample set.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    fn summaries(&mut self, replay: &mut Replay) {
        let mut entries = Vec::new();
        let mut near_omniscient = false;
        let mut kinds = Vec::new();
        for index in self.plan.clone() {
            let parsed = match self.role(index) {
                Some(Role::RecentJson) => recent::parse_json(&self.recording.take_buffer(index)),
                Some(Role::RecentCsv) => recent::parse_csv(&self.text_of(index)),
                Some(Role::EventFreq) => recent::parse_eventfreq(&self.text_of(index)),
                _ => continue,
            };
            let path = self.recording.path(index).to_owned();
            if let Some((offset, count)) = parsed.bad {
                replay.builder.diagnose(
                    Severity::DataLoss,
                    "bad-entry",
                    Some(&path),
                    Some(offset),
                    count,
                    || "entries that could not be read were skipped".into(),
                );
            }
            if let Some(broken) = &parsed.stopped {
                let kept = parsed.entries.len();
                let why = broken.message.clone();
                replay.builder.diagnose(Severity::DataLoss, "truncated-json", Some(&path), Some(broken.offset), 1, || {
                    format!("{why}; the {kept} entries before it are shown (SELogger 0.4 stops writing this file when it meets a null object)")
                });
            }
            near_omniscient |= parsed.kind == "nearomni";
            let name = self.recording.probe(index).map_or("", FileProbe::name);
            kinds.push(format!("{} ({})", parsed.kind, name));
            entries.extend(parsed.entries);
        }
        if kinds.is_empty() {
            return;
        }
        replay.builder.metadata("output", kinds.join(", "));
        summary::add_views(
            &mut replay.builder,
            &entries,
            &replay.statics.data,
            &replay.statics.methods,
            near_omniscient,
        );
    }
}

impl Decoder for SeloggerDecoder {
    fn format(&self) -> Format {
        Format::Selogger
    }

    fn building(&self) -> Option<&crate::model::TraceBuilder> {
        self.replay.as_ref().map(|r| &r.builder)
    }

    fn plan(&self) -> Vec<usize> {
        self.plan.clone()
    }

    fn begin_file(&mut self, index: usize) {
        self.finish_stream();
        self.recording.begin(index);
        let path = self.recording.probe(index).map(|p| p.path.clone());
        match (self.role(index), path) {
            (Some(Role::Binary(_)), Some(path)) => {
                self.prepare();
                self.stream = Some(Stream::Binary(BinaryStream::new(&path)));
            }
            (Some(Role::Text(_)), Some(path)) => {
                self.prepare();
                self.stream = Some(Stream::Text(TextStream::new(&path)));
            }
            _ => {}
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        if self.recording.current().is_none() {
            return;
        }
        match (&mut self.stream, &mut self.replay) {
            (Some(Stream::Binary(s)), Some(replay)) => s.feed(chunk, replay),
            (Some(Stream::Text(s)), Some(replay)) => s.feed(chunk, replay),
            _ => self.recording.buffer(chunk),
        }
    }

    fn end_file(&mut self) {
        self.finish_stream();
        self.recording.end();
    }

    /// Splits the event stream's threads between the parts (see
    /// `replay::Split`): every part reads every record, each replays the
    /// threads it owns. Only a recording with an event stream is split.
    fn keep_part(&mut self, part: usize, parts: usize) -> bool {
        let has_stream = self
            .plan
            .iter()
            .any(|&i| self.role(i).is_some_and(Role::is_stream));
        if parts < 2 || part >= parts || !has_stream || self.replay.is_some() {
            return false;
        }
        self.part = Some((part, parts));
        true
    }

    /// Each part reads and walks every record of the stream: in the page,
    /// one worker alone was faster than two (110 MB recording, quiet
    /// machine: 1215 against 1545 ms, docs/performance.md).
    fn parts_pay_off(&self) -> bool {
        false
    }

    fn finish(mut self: Box<Self>) -> Trace {
        self.finish_stream();
        self.prepare();
        let Some(mut replay) = self.replay.take() else {
            return TraceBuilder::new(Format::Selogger, TimeUnit::Events).finish();
        };
        let streams: Vec<Role> = self
            .plan
            .iter()
            .filter_map(|&i| self.role(i))
            .filter(|r| r.is_stream())
            .collect();
        if let Some(first) = streams.first() {
            let kind = match first {
                Role::Binary(_) => "binary log-*.slg (16-byte big-endian records)",
                _ => "text log-*.txt",
            };
            replay.builder.metadata("event stream", kind);
            replay
                .builder
                .metadata("stream files", streams.len().to_string());
            replay.builder.metadata("events", replay.events.to_string());
            replay.builder.metadata(
                "clock",
                "event sequence number (SELogger records no time in the binary stream)",
            );
            if replay.saw_millis {
                replay.builder.metadata(
                    "timestamps",
                    "the text stream has a millisecond column: spans are laid out by event sequence, and each method and call span shows its wall-clock start and end as the detail \"time (ms)\"",
                );
            }
        }
        if self.is_later_part() {
            return replay.builder.finish();
        }
        self.summaries(&mut replay);
        self.recording
            .report_ignored(&mut replay.builder, "SELogger output");
        let mut log = std::mem::take(&mut replay.log);
        // Before the builder's own finishing work, so the two peaks do not add.
        log.compact_threads();
        let mut trace = replay.builder.finish();
        if !streams.is_empty() {
            std::mem::take(&mut self.printer).fill(&mut log);
            printer::fill_objects(&replay.statics.objects, &mut log);
            trace.event_log = log;
        }
        trace
    }
}
