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

mod binary;
mod objects;
mod recent;
mod replay;
mod signature;
mod statics;
mod summary;
mod text;
mod tolerant_json;

use crate::decoder::{Decoder, FileProbe};
use crate::model::{Format, Severity, TimeUnit, Trace, TraceBuilder};
use binary::BinaryStream;
use objects::Objects;
use replay::{Replay, Statics};
use statics::{BadLine, Dialect};
use std::collections::HashMap;
use text::TextStream;

/// What a file of the output folder is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    DataIds,
    Methods,
    Classes,
    Types,
    ObjectTypes,
    Strings,
    Exceptions,
    WeavingProperties,
    WeaverLog,
    Binary(u64),
    Text(u64),
    RecentJson,
    RecentCsv,
    EventFreq,
}

impl Role {
    /// Reading order: static files, then streams, then the summaries.
    fn rank(self) -> (u8, u64) {
        match self {
            Role::DataIds => (0, 0),
            Role::Methods => (1, 0),
            Role::Classes => (2, 0),
            Role::Types => (3, 0),
            Role::ObjectTypes => (4, 0),
            Role::Strings => (5, 0),
            Role::Exceptions => (6, 0),
            Role::WeavingProperties => (7, 0),
            Role::WeaverLog => (8, 0),
            Role::Binary(n) => (9, n),
            Role::Text(n) => (10, n),
            Role::RecentJson => (11, 0),
            Role::RecentCsv => (12, 0),
            Role::EventFreq => (13, 0),
        }
    }

    fn is_stream(self) -> bool {
        matches!(self, Role::Binary(_) | Role::Text(_))
    }
}

/// A 0.4 `dataids.txt` row (no header): ids, line, instruction, event type, value type.
fn looks_like_v04_dataids(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let first = text.lines().next().unwrap_or("");
    let cols: Vec<&str> = first.split(',').collect();
    cols.len() >= 7
        && cols.iter().take(3).all(|c| c.parse::<u64>().is_ok())
        && cols
            .iter()
            .skip(3)
            .take(2)
            .all(|c| c.parse::<i64>().is_ok())
        && cols.get(5).is_some_and(|c| {
            !c.is_empty() && c.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        })
}

/// `log-00001.slg` → 1 (for `ext` = `.slg`).
fn stream_number(name: &str, ext: &str) -> Option<u64> {
    let digits = name.strip_prefix("log-")?.strip_suffix(ext)?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

fn json_head(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    compact.starts_with("{\"format\":\"nearomni\"")
        || compact.starts_with("{\"format\":\"freq\"")
        || compact.starts_with("{\"events\":[{\"dataid\"")
}

/// The role of a file, by content where it is distinctive, else by name.
fn role_of(probe: &FileProbe) -> Option<Role> {
    let head = &probe.head;
    let name = probe.name();
    if head.starts_with(b"DataID,ClassID,MethodID,") {
        return Some(Role::DataIds);
    }
    if head.starts_with(b"ClassID,MethodID,") {
        return Some(Role::Methods);
    }
    if head.starts_with(b"ClassID,LoadedFrom,") {
        return Some(Role::Classes);
    }
    if let Some(n) = stream_number(name, ".slg") {
        return Some(Role::Binary(n));
    }
    if let Some(n) = stream_number(name, ".txt") {
        return Some(Role::Text(n));
    }
    if json_head(head) {
        return Some(Role::RecentJson);
    }
    match name {
        "dataids.txt" => return Some(Role::DataIds),
        "methods.txt" => return Some(Role::Methods),
        "classes.txt" => return Some(Role::Classes),
        "LOG$Types.txt" => return Some(Role::Types),
        "weaving.properties" => return Some(Role::WeavingProperties),
        "log.txt" | "weaverlog.txt" => return Some(Role::WeaverLog),
        "recentdata.json" | "trace.json" => return Some(Role::RecentJson),
        "recentdata.txt" => return Some(Role::RecentCsv),
        "trace.txt" if head.starts_with(b"{") => return Some(Role::RecentJson),
        "trace.txt" => return Some(Role::RecentCsv),
        "eventfreq.txt" => return Some(Role::EventFreq),
        _ => {}
    }
    if name.ends_with(".txt") {
        if name.starts_with("LOG$ObjectTypes") {
            return Some(Role::ObjectTypes);
        }
        if name.starts_with("LOG$String") {
            return Some(Role::Strings);
        }
        if name.starts_with("LOG$Exception") {
            return Some(Role::Exceptions);
        }
    }
    looks_like_v04_dataids(head).then_some(Role::DataIds)
}

/// A file that on its own says "SELogger output".
fn is_distinctive(probe: &FileProbe) -> bool {
    match role_of(probe) {
        Some(Role::DataIds) => {
            probe.head.starts_with(b"DataID,") || looks_like_v04_dataids(&probe.head)
        }
        Some(Role::Binary(_)) => true,
        Some(Role::RecentJson) => json_head(&probe.head),
        _ => false,
    }
}

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
            for (i, role) in roles.iter_mut().enumerate() {
                if matches!(role, Some(Role::Text(_))) {
                    *role = None;
                    ignored.push(probes[i].path.clone());
                }
            }
        }
        let mut plan: Vec<usize> = (0..probes.len()).filter(|&i| roles[i].is_some()).collect();
        plan.sort_by_key(|&i| (roles[i].map(Role::rank), probes[i].name().to_owned()));
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

    fn files_of(&self, role: Role) -> Vec<usize> {
        self.plan
            .iter()
            .copied()
            .filter(|&i| self.roles[i] == Some(role))
            .collect()
    }

    fn text_of(&self, index: usize) -> String {
        String::from_utf8_lossy(self.buffers.get(&index).map_or(&[][..], Vec::as_slice))
            .into_owned()
    }

    fn report_bad(&self, builder: &mut TraceBuilder, index: usize, bad: &[BadLine]) {
        if let Some(first) = bad.first() {
            let path = &self.probes[index].path;
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
            let parsed = match self.roles[index] {
                Some(Role::RecentJson) => {
                    recent::parse_json(self.buffers.get(&index).map_or(&[][..], Vec::as_slice))
                }
                Some(Role::RecentCsv) => recent::parse_csv(&self.text_of(index)),
                Some(Role::EventFreq) => recent::parse_eventfreq(&self.text_of(index)),
                _ => continue,
            };
            let path = self.probes[index].path.clone();
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
            kinds.push(format!("{} ({})", parsed.kind, self.probes[index].name()));
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
            .filter_map(|&i| self.roles[i])
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
        if !self.ignored.is_empty() {
            let first = self.ignored[0].clone();
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
