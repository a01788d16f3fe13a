//! Reading the metadata files whole: `info`, `task.txt`, the session maps,
//! symbol and debug files, event names and perf files, into the
//! recording-wide state the task streams share.

use super::roles::Role;
use super::{info, perf, resolve, symbols, task, RecordingState, UftraceDecoder};
use crate::model::{Format, Severity, TimeUnit, TraceBuilder};
use std::collections::{BTreeMap, HashMap};

impl UftraceDecoder {
    /// Parses every metadata file fed so far and sets up the threads, once.
    pub(super) fn prepare(&mut self) {
        if self.recording.is_none() {
            self.read_metadata();
        }
    }

    /// [`UftraceDecoder::prepare`]'s work. Out of line, its parsers too:
    /// V8 compiles a wasm function again, optimized, once it has run long
    /// or often, and this one runs once (docs/performance.md, "Run-once
    /// functions kept small"); inlined into `prepare`, the symbol tables' loops made
    /// that 68 KB function hot, and optimizing it took 0.45 s of a core and
    /// 24 MB during the load.
    #[inline(never)]
    fn read_metadata(&mut self) {
        let mut builder = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let info = self.read_info(&mut builder);
        for (label, value) in info::summary(&info) {
            builder.metadata(label, value);
        }
        let tasks = self.read_tasks(&mut builder);
        let metadata: Vec<(usize, Role)> = self
            .files
            .roles()
            .filter(|(_, role)| !matches!(role, Role::Data { .. } | Role::Perf))
            .map(|(index, role)| (index, role.clone()))
            .collect();
        let mut parsed = TextFiles::default();
        for (index, role) in metadata {
            let bytes = self.files.take_buffer(index);
            let name = self.files.probe(index).map_or("", |p| p.name()).to_owned();
            parsed.add(&role, name, &bytes);
        }
        let TextFiles {
            maps,
            tables,
            debug,
            event_names,
        } = parsed;
        let resolver = resolve::Resolver::new(tasks, maps, tables, debug);
        if !resolver.modules_without_symbols.is_empty() {
            let n = resolver.modules_without_symbols.len() as u64;
            builder.diagnose(Severity::Info, "no-symbols", None, None, n, || {
                "mapped modules have no .sym file (uftrace saves none for libraries it did not trace); their addresses show as module+offset".into()
            });
        }
        let mut recording = RecordingState::new(builder, resolver, info, event_names);
        for bad in &recording.specs.bad_patterns.clone() {
            recording.builder.diagnose(Severity::DataLoss, "bad-pattern", Some("info"), None, 1, || {
                format!("argument spec pattern {bad:?} is not a valid regular expression; calls it names cannot show arguments")
            });
        }
        self.read_perf(&mut recording);
        self.create_threads(&mut recording);
        if self.secondary {
            // Part 0 reports the metadata's problems, once.
            recording.builder.forget_diagnostics();
        }
        self.recording = Some(recording);
    }

    /// The index of the first file with role `role`.
    fn file_with(&self, role: &Role) -> Option<usize> {
        self.files.roles().find(|(_, r)| *r == role).map(|(i, _)| i)
    }

    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    fn read_info(&mut self, builder: &mut TraceBuilder) -> info::Info {
        let Some(index) = self.file_with(&Role::Info) else {
            builder.diagnose(Severity::DataLoss, "no-info", None, None, 1, || {
                "there is no info file: assuming little-endian 64-bit data without argument specs".into()
            });
            return info::Info::assumed();
        };
        let path = self.files.path(index).to_owned();
        match info::parse(&self.files.take_buffer(index)) {
            Ok(info) => info,
            Err(why) => {
                builder.diagnose(Severity::Error, "bad-info", Some(&path), None, 1, || {
                    format!("{why}; assuming little-endian 64-bit data without argument specs")
                });
                info::Info::assumed()
            }
        }
    }

    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    fn read_tasks(&mut self, builder: &mut TraceBuilder) -> task::TaskFile {
        let Some(index) = self.file_with(&Role::TaskText) else {
            builder.diagnose(Severity::DataLoss, "no-task-txt", None, None, 1, || {
                "there is no task.txt (or only the old binary task file): addresses cannot be matched to sessions and show as raw addresses".into()
            });
            return task::TaskFile::default();
        };
        let text = String::from_utf8_lossy(&self.files.take_buffer(index)).into_owned();
        let tasks = task::parse(&text);
        if let Some(&(offset, _)) = tasks.bad_lines.first() {
            let path = self.files.path(index).to_owned();
            builder.diagnose(
                Severity::DataLoss,
                "bad-task-line",
                Some(&path),
                Some(offset),
                tasks.bad_lines.len() as u64,
                || "lines that are not SESS, TASK, FORK or DLOP were skipped".into(),
            );
        }
        tasks
    }

    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    fn read_perf(&mut self, recording: &mut RecordingState) {
        let mut files: Vec<(String, usize)> = self
            .files
            .roles()
            .filter(|(_, r)| **r == Role::Perf)
            .map(|(i, _)| (self.files.probe(i).map_or("", |p| p.name()).to_owned(), i))
            .collect();
        files.sort();
        let mut parsed = Vec::new();
        for (name, index) in files {
            let bytes = self.files.take_buffer(index);
            let (events, problems) = perf::parse(&bytes, recording.info.big_endian);
            if let Some(at) = problems.broken_at {
                let lost = problems.bytes_lost;
                recording.builder.diagnose(Severity::DataLoss, "bad-perf-record", Some(&name), Some(at), lost, || {
                    "bytes of scheduler events could not be read (a record's size runs past the file)".into()
                });
            }
            parsed.push(events);
        }
        for event in perf::merge(parsed) {
            self.perf_by_tid
                .entry(event.tid.to_string())
                .or_default()
                .push_back(event);
        }
    }
}

/// The session maps, symbol and debug files and event names, parsed.
#[derive(Default)]
struct TextFiles {
    maps: Vec<(String, Vec<symbols::Mapping>)>,
    tables: Vec<(String, symbols::SymbolTable)>,
    debug: Vec<(String, symbols::DebugInfo)>,
    event_names: HashMap<u64, String>,
}

impl TextFiles {
    /// Parses the file `name` of role `role` (other roles are not text).
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    fn add(&mut self, role: &Role, name: String, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(bytes);
        match role {
            Role::Map { sid } => self.maps.push((sid.clone(), symbols::parse_map(&text))),
            Role::Symbols => self.tables.push((name, symbols::parse_sym(&text))),
            Role::Debug => self.debug.push((name, symbols::parse_dbg(&text))),
            Role::EventNames => self.event_names.extend(parse_event_names(&text)),
            _ => {}
        }
    }
}

/// `EVENT: 1000000 fixture:tick` lines.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
fn parse_event_names(text: &str) -> BTreeMap<u64, String> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("EVENT:")?.trim();
            let (id, name) = rest.split_once(' ')?;
            Some((id.parse().ok()?, name.trim().to_owned()))
        })
        .collect()
}
