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
#![deny(clippy::indexing_slicing)]

mod binary;
mod names;
mod objects;
mod recent;
mod replay;
mod roles;
mod signature;
mod statics;
mod summary;
mod text;
mod tolerant_json;

use crate::input::{Decoder, FileProbe};
use crate::model::{Format, Severity, TimeUnit, Trace, TraceBuilder};
use binary::BinaryStream;
use objects::Objects;
use replay::{Replay, Statics};
use roles::{is_distinctive, role_of, Role};
use statics::{BadLine, Dialect};
use std::collections::HashMap;
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
    probes: Vec<FileProbe>,
    roles: Vec<Option<Role>>,
    plan: Vec<usize>,
    buffers: HashMap<usize, Vec<u8>>,
    current: Option<usize>,
    replay: Option<Replay>,
    stream: Option<Stream>,
    dialect: Option<Dialect>,
    ignored: Vec<String>,
}

impl SeloggerDecoder {
    /// A decoder for the offered files; only the folder holding the
    /// distinctive files (the first by path) is read.
    pub fn new(probes: Vec<FileProbe>) -> Self {
        let dir = probes
            .iter()
            .filter(|p| is_distinctive(p))
            .map(|p| p.dir().to_owned())
            .min()
            .unwrap_or_default();
        let mut ignored = Vec::new();
        let mut roles: Vec<Option<Role>> = probes
            .iter()
            .map(|p| {
                let role = if p.dir() == dir { role_of(p) } else { None };
                if role.is_none() {
                    ignored.push(p.path.clone());
                }
                role
            })
            .collect();
        // Both stream encodings in one folder: the binary one is read.
        let has_binary = roles.iter().any(|r| matches!(r, Some(Role::Binary(_))));
        if has_binary {
            for (role, probe) in roles.iter_mut().zip(&probes) {
                if matches!(role, Some(Role::Text(_))) {
                    *role = None;
                    ignored.push(probe.path.clone());
                }
            }
        }
        let mut plan: Vec<(usize, Role, &FileProbe)> = roles
            .iter()
            .zip(&probes)
            .enumerate()
            .filter_map(|(i, (role, probe))| Some((i, (*role)?, probe)))
            .collect();
        plan.sort_by_key(|&(_, role, probe)| (role.rank(), probe.name().to_owned()));
        let plan = plan.into_iter().map(|(i, _, _)| i).collect();
        SeloggerDecoder {
            probes,
            roles,
            plan,
            buffers: HashMap::new(),
            current: None,
            replay: None,
            stream: None,
            dialect: None,
            ignored,
        }
    }

    /// The role of file `index`, if it is read.
    fn role(&self, index: usize) -> Option<Role> {
        self.roles.get(index).copied().flatten()
    }

    /// The path of file `index`.
    fn path(&self, index: usize) -> &str {
        self.probes.get(index).map_or("", |p| p.path.as_str())
    }

    fn files_of(&self, role: Role) -> Vec<usize> {
        self.plan
            .iter()
            .copied()
            .filter(|&i| self.role(i) == Some(role))
            .collect()
    }

    fn text_of(&self, index: usize) -> String {
        String::from_utf8_lossy(self.buffers.get(&index).map_or(&[][..], Vec::as_slice))
            .into_owned()
    }

    fn report_bad(&self, builder: &mut TraceBuilder, index: usize, bad: &[BadLine]) {
        if let Some(first) = bad.first() {
            let path = self.path(index);
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

    /// Parses the static files fed so far and starts the replay.
    fn prepare(&mut self) {
        if self.replay.is_some() {
            return;
        }
        let mut builder = TraceBuilder::new(Format::Selogger, TimeUnit::Events);
        let mut data = Vec::new();
        let dataids = self.files_of(Role::DataIds);
        if let Some(&index) = dataids.first() {
            let text = self.text_of(index);
            let dialect = statics::dataids_dialect(&text);
            self.dialect = Some(dialect);
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
            let (rows, bad) = statics::parse_methods(&self.text_of(index));
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
                let bad = add(&mut objects, &self.text_of(index));
                self.report_bad(&mut builder, index, &bad);
            }
        }
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
        let statics = Statics::new(methods, data, objects);
        self.replay = Some(Replay::new(statics, Some(builder)));
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
    fn summaries(&mut self, replay: &mut Replay) {
        let mut entries = Vec::new();
        let mut near_omniscient = false;
        let mut kinds = Vec::new();
        for index in self.plan.clone() {
            let parsed = match self.role(index) {
                Some(Role::RecentJson) => {
                    recent::parse_json(self.buffers.get(&index).map_or(&[][..], Vec::as_slice))
                }
                Some(Role::RecentCsv) => recent::parse_csv(&self.text_of(index)),
                Some(Role::EventFreq) => recent::parse_eventfreq(&self.text_of(index)),
                _ => continue,
            };
            let path = self.path(index).to_owned();
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
            let name = self.probes.get(index).map_or("", FileProbe::name);
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

    fn plan(&self) -> Vec<usize> {
        self.plan.clone()
    }

    fn begin_file(&mut self, index: usize) {
        self.finish_stream();
        self.current = Some(index);
        let path = self.probes.get(index).map(|p| p.path.clone());
        match (self.roles.get(index).copied().flatten(), path) {
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
        let Some(index) = self.current else { return };
        match (&mut self.stream, &mut self.replay) {
            (Some(Stream::Binary(s)), Some(replay)) => s.feed(chunk, replay),
            (Some(Stream::Text(s)), Some(replay)) => s.feed(chunk, replay),
            _ => self
                .buffers
                .entry(index)
                .or_default()
                .extend_from_slice(chunk),
        }
    }

    fn end_file(&mut self) {
        self.finish_stream();
        self.current = None;
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
        self.summaries(&mut replay);
        if let Some(first) = self.ignored.first().cloned() {
            replay.builder.diagnose(
                Severity::Info,
                "ignored-files",
                None,
                None,
                self.ignored.len() as u64,
                || format!("files that are not part of the SELogger output were ignored (first: {first})"),
            );
        }
        replay.builder.finish()
    }
}
