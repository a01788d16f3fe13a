//! uftrace: the `uftrace.data/` folder written by `uftrace record` (v0.13 data,
//! file versions 3 and 4, either byte order).
//!
//! The small metadata files (`info`, `task.txt`, maps, symbols, debug info,
//! perf files) are read whole first; then each `<tid>.dat` is streamed in
//! chunks through a `replay::TaskStream`, so big traces never sit whole in
//! memory.

mod argdata;
mod argspec;
mod info;
mod perf;
mod records;
mod replay;
mod resolve;
mod symbols;
mod task;

use crate::decoder::{file_name, Decoder, FileProbe};
use crate::model::{Format, Severity, TimeUnit, Trace, TraceBuilder};
use replay::{Shared, TaskStream};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// What a file of the folder is for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    Info,
    TaskText,
    Map { sid: String },
    Symbols,
    Debug,
    EventNames,
    Perf,
    Data { tid: String },
}

/// True when the files hold a uftrace recording: an `info` file (by its
/// magic, whatever its name), or `<tid>.dat` files beside a `task.txt`.
pub fn detect(probes: &[FileProbe]) -> bool {
    probes.iter().any(|p| p.head.starts_with(info::MAGIC))
        || (probes
            .iter()
            .any(|p| p.name() == "task.txt" && p.head.starts_with(b"SESS "))
            && probes.iter().any(|p| tid_of(p.name()).is_some()))
}

/// `17763.dat` → `17763`.
fn tid_of(name: &str) -> Option<&str> {
    let tid = name.strip_suffix(".dat")?;
    (!tid.is_empty() && tid.bytes().all(|b| b.is_ascii_digit())).then_some(tid)
}

fn role_of(probe: &FileProbe) -> Option<Role> {
    let name = probe.name();
    if probe.head.starts_with(info::MAGIC) {
        return Some(Role::Info);
    }
    if let Some(tid) = tid_of(name) {
        return Some(Role::Data {
            tid: tid.to_owned(),
        });
    }
    if name == "task.txt" {
        return Some(Role::TaskText);
    }
    if let Some(sid) = name
        .strip_prefix("sid-")
        .and_then(|s| s.strip_suffix(".map"))
    {
        return Some(Role::Map {
            sid: sid.to_owned(),
        });
    }
    if name.ends_with(".sym") {
        return Some(Role::Symbols);
    }
    if name.ends_with(".dbg") {
        return Some(Role::Debug);
    }
    if name == "events.txt" {
        return Some(Role::EventNames);
    }
    if name.starts_with("perf-cpu") && name.ends_with(".dat") {
        return Some(Role::Perf);
    }
    None
}

/// Decodes a uftrace.data folder.
pub struct UftraceDecoder {
    probes: Vec<FileProbe>,
    roles: Vec<Option<Role>>,
    plan: Vec<usize>,
    /// Whole contents of metadata and perf files, until they are parsed.
    buffers: HashMap<usize, Vec<u8>>,
    current: Option<usize>,
    shared: Option<Shared>,
    stream: Option<TaskStream>,
    perf_by_tid: HashMap<String, VecDeque<perf::PerfEvent>>,
    /// Files offered but not part of the recording.
    ignored: Vec<String>,
    /// Task data files left to other parts ([`Decoder::keep_part`]).
    others: HashSet<usize>,
    /// This decoder works on a part after the first, which says what
    /// concerns the whole recording.
    secondary: bool,
}

impl UftraceDecoder {
    /// A decoder for the offered files. When several uftrace folders were
    /// offered, the first (by path) is decoded and the rest are reported.
    pub fn new(probes: Vec<FileProbe>) -> Self {
        let trace_dir = probes
            .iter()
            .filter(|p| p.head.starts_with(info::MAGIC))
            .map(|p| p.dir().to_owned())
            .min()
            .or_else(|| {
                probes
                    .iter()
                    .filter(|p| p.name() == "task.txt")
                    .map(|p| p.dir().to_owned())
                    .min()
            })
            .unwrap_or_default();
        let mut ignored = Vec::new();
        let roles: Vec<Option<Role>> = probes
            .iter()
            .map(|p| {
                let role = if p.dir() == trace_dir {
                    role_of(p)
                } else {
                    None
                };
                if role.is_none() {
                    ignored.push(p.path.clone());
                }
                role
            })
            .collect();
        let plan = make_plan(&probes, &roles);
        UftraceDecoder {
            probes,
            roles,
            plan,
            buffers: HashMap::new(),
            current: None,
            shared: None,
            stream: None,
            perf_by_tid: HashMap::new(),
            ignored,
            others: HashSet::new(),
            secondary: false,
        }
    }

    /// Parses every metadata file fed so far and sets up the threads.
    fn prepare(&mut self) {
        if self.shared.is_some() {
            return;
        }
        let mut builder = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let info = self.read_info(&mut builder);
        for (label, value) in info::summary(&info) {
            builder.metadata(label, value);
        }
        let tasks = self.read_tasks(&mut builder);
        let mut maps = Vec::new();
        let mut tables = Vec::new();
        let mut debug = Vec::new();
        let mut event_names = HashMap::new();
        for (index, role) in self.roles.iter().enumerate() {
            let Some(role) = role else { continue };
            let Some(bytes) = self.buffers.get(&index) else {
                continue;
            };
            let text = String::from_utf8_lossy(bytes);
            let name = file_name(&self.probes[index].path).to_owned();
            match role {
                Role::Map { sid } => maps.push((sid.clone(), symbols::parse_map(&text))),
                Role::Symbols => tables.push((name, symbols::parse_sym(&text))),
                Role::Debug => debug.push((name, symbols::parse_dbg(&text))),
                Role::EventNames => event_names.extend(parse_event_names(&text)),
                _ => {}
            }
        }
        let resolver = resolve::Resolver::new(tasks, maps, tables, debug);
        if !resolver.modules_without_symbols.is_empty() {
            let n = resolver.modules_without_symbols.len() as u64;
            builder.diagnose(Severity::Info, "no-symbols", None, None, n, || {
                "mapped modules have no .sym file (uftrace saves none for libraries it did not trace); their addresses show as module+offset".into()
            });
        }
        let mut shared = Shared::new(builder, resolver, info, event_names);
        for bad in &shared.specs.bad_patterns.clone() {
            shared.builder.diagnose(Severity::DataLoss, "bad-pattern", Some("info"), None, 1, || {
                format!("argument spec pattern {bad:?} is not a valid regular expression; calls it names cannot show arguments")
            });
        }
        self.read_perf(&mut shared);
        self.create_threads(&mut shared);
        if self.secondary {
            // Part 0 reports the metadata's problems, once.
            shared.builder.forget_diagnostics();
        }
        self.shared = Some(shared);
    }

    fn read_info(&self, builder: &mut TraceBuilder) -> info::Info {
        let found = self.roles.iter().position(|r| *r == Some(Role::Info));
        let Some(index) = found else {
            builder.diagnose(Severity::DataLoss, "no-info", None, None, 1, || {
                "there is no info file: assuming little-endian 64-bit data without argument specs".into()
            });
            return info::Info::assumed();
        };
        let path = self.probes[index].path.clone();
        match info::parse(self.buffers.get(&index).map_or(&[][..], Vec::as_slice)) {
            Ok(info) => info,
            Err(why) => {
                builder.diagnose(Severity::Error, "bad-info", Some(&path), None, 1, || {
                    format!("{why}; assuming little-endian 64-bit data without argument specs")
                });
                info::Info::assumed()
            }
        }
    }

    fn read_tasks(&self, builder: &mut TraceBuilder) -> task::TaskFile {
        let Some(index) = self.roles.iter().position(|r| *r == Some(Role::TaskText)) else {
            builder.diagnose(Severity::DataLoss, "no-task-txt", None, None, 1, || {
                "there is no task.txt (or only the old binary task file): addresses cannot be matched to sessions and show as raw addresses".into()
            });
            return task::TaskFile::default();
        };
        let text = String::from_utf8_lossy(self.buffers.get(&index).map_or(&[][..], Vec::as_slice))
            .into_owned();
        let tasks = task::parse(&text);
        if let Some(&(offset, _)) = tasks.bad_lines.first() {
            let path = self.probes[index].path.clone();
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

    fn read_perf(&mut self, shared: &mut Shared) {
        let mut files: Vec<(String, usize)> = self
            .roles
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == Some(Role::Perf))
            .map(|(i, _)| (file_name(&self.probes[i].path).to_owned(), i))
            .collect();
        files.sort();
        let mut parsed = Vec::new();
        for (name, index) in files {
            let bytes = self.buffers.remove(&index).unwrap_or_default();
            let (events, problems) = perf::parse(&bytes, shared.info.big_endian);
            if let Some(at) = problems.broken_at {
                let lost = problems.bytes_lost;
                shared.builder.diagnose(Severity::DataLoss, "bad-perf-record", Some(&name), Some(at), lost, || {
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

    fn create_threads(&mut self, shared: &mut Shared) {
        let mut data_tids: Vec<String> = self
            .plan
            .iter()
            .filter_map(|&i| match &self.roles[i] {
                Some(Role::Data { tid }) => Some(tid.clone()),
                _ => None,
            })
            .collect();
        // Lanes in the order info lists the tasks; unlisted ones after them.
        let listed = &shared.info.tids;
        data_tids.sort_by_key(|tid| listed.iter().position(|t| t == tid).unwrap_or(usize::MAX));
        let missing: Vec<&String> = shared
            .info
            .tids
            .iter()
            .filter(|t| !data_tids.contains(t))
            .collect();
        if !missing.is_empty() {
            let list = missing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            shared.builder.diagnose(
                Severity::DataLoss,
                "missing-dat",
                None,
                None,
                missing.len() as u64,
                || format!("tasks listed in info have no .dat file: {list}"),
            );
        }
        let unlisted = data_tids
            .iter()
            .filter(|t| !shared.info.tids.is_empty() && !shared.info.tids.contains(t))
            .count();
        if unlisted > 0 {
            shared.builder.diagnose(
                Severity::Info,
                "unlisted-dat",
                None,
                None,
                unlisted as u64,
                || {
                    ".dat files of tasks not listed in info (uftrace ignores them) were decoded too"
                        .into()
                },
            );
        }
        for tid in &data_tids {
            let tasks = &shared.resolver.tasks;
            let pid = tasks
                .tasks
                .get(tid)
                .map_or_else(|| tid.clone(), |t| t.pid.clone());
            let exe = tasks
                .sessions
                .iter()
                .find(|s| s.pid == pid)
                .or_else(|| {
                    tasks
                        .session_for(tid, i64::MAX)
                        .and_then(|i| tasks.sessions.get(i))
                })
                .map(|s| symbols::basename(&s.exename).to_owned())
                .unwrap_or_default();
            let process = shared.builder.process(&pid, &exe);
            shared.builder.thread(process, tid, &exe);
        }
        let orphan_events: u64 = self
            .perf_by_tid
            .iter()
            .filter(|(tid, _)| !data_tids.contains(tid))
            .map(|(_, events)| events.len() as u64)
            .sum();
        if orphan_events > 0 {
            shared.builder.diagnose(
                Severity::Info,
                "perf-without-task",
                None,
                None,
                orphan_events,
                || {
                    "scheduler events of tasks with no trace data were left out, as uftrace does"
                        .into()
                },
            );
        }
    }

    /// The tid of a task data file.
    fn tid_at(&self, index: usize) -> Option<&str> {
        match self.roles.get(index) {
            Some(Some(Role::Data { tid })) => Some(tid),
            _ => None,
        }
    }

    fn finish_stream(&mut self) {
        if let (Some(stream), Some(shared)) = (self.stream.take(), self.shared.as_mut()) {
            stream.finish(shared);
        }
    }
}

/// Metadata first (info, task.txt, maps, symbols, debug info, event names),
/// then perf files, then task data in `info`'s task order.
fn make_plan(probes: &[FileProbe], roles: &[Option<Role>]) -> Vec<usize> {
    let rank = |r: &Role| match r {
        Role::Info => 0,
        Role::TaskText => 1,
        Role::Map { .. } => 2,
        Role::Symbols => 3,
        Role::Debug => 4,
        Role::EventNames => 5,
        Role::Perf => 6,
        Role::Data { .. } => 7,
    };
    let mut plan: Vec<usize> = (0..probes.len()).filter(|&i| roles[i].is_some()).collect();
    plan.sort_by_key(|&i| {
        let role = roles[i].as_ref().map_or(9, rank);
        let tid = match &roles[i] {
            Some(Role::Data { tid }) => tid.parse::<u64>().unwrap_or(u64::MAX),
            _ => 0,
        };
        (role, tid, probes[i].name().to_owned())
    });
    plan
}

/// `EVENT: 1000000 fixture:tick` lines.
fn parse_event_names(text: &str) -> BTreeMap<u64, String> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("EVENT:")?.trim();
            let (id, name) = rest.split_once(' ')?;
            Some((id.parse().ok()?, name.trim().to_owned()))
        })
        .collect()
}

impl Decoder for UftraceDecoder {
    fn format(&self) -> Format {
        Format::Uftrace
    }

    fn plan(&self) -> Vec<usize> {
        self.plan
            .iter()
            .copied()
            .filter(|i| !self.others.contains(i))
            .collect()
    }

    /// Splits the task data files between the parts, biggest first onto the
    /// part with the fewest bytes so far; every part reads the metadata.
    fn keep_part(&mut self, part: usize, parts: usize) -> bool {
        let mut data: Vec<usize> = self
            .plan
            .iter()
            .copied()
            .filter(|&i| self.tid_at(i).is_some())
            .collect();
        if parts < 2 || part >= parts || data.len() < parts {
            return false;
        }
        data.sort_by_key(|&i| (std::cmp::Reverse(self.probes[i].size), i));
        let mut load = vec![0u64; parts];
        for index in data {
            let lightest = (0..parts).min_by_key(|&p| (load[p], p)).unwrap_or(0);
            load[lightest] += self.probes[index].size;
            if lightest != part {
                self.others.insert(index);
            }
        }
        self.secondary = part > 0;
        true
    }

    fn begin_file(&mut self, index: usize) {
        self.finish_stream();
        self.current = Some(index);
        if let Some(Some(Role::Data { tid })) = self.roles.get(index).cloned() {
            self.prepare();
            let path = self.probes[index].path.clone();
            let perf = self.perf_by_tid.remove(&tid).unwrap_or_default();
            if let Some(shared) = self.shared.as_mut() {
                if let Some(thread) = shared.builder.find_thread(&tid) {
                    // One span per call record (16 bytes with its return):
                    // reserving it once spares the columns their growth copies.
                    let calls = self.probes[index].size / (2 * records::RECORD_SIZE as u64);
                    shared.builder.reserve_spans(thread, calls);
                    self.stream = Some(TaskStream::new(&tid, &path, thread, perf));
                }
            }
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        let Some(index) = self.current else { return };
        match (&mut self.stream, &mut self.shared) {
            (Some(stream), Some(shared)) => stream.feed(chunk, shared),
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
        let ignored = std::mem::take(&mut self.ignored);
        let Some(mut shared) = self.shared.take() else {
            return TraceBuilder::new(Format::Uftrace, TimeUnit::Ns).finish();
        };
        let elsewhere: HashSet<String> = self
            .others
            .iter()
            .filter_map(|&i| self.tid_at(i).map(str::to_owned))
            .collect();
        // Threads whose .dat never arrived (the caller stopped) still get their perf events.
        for (tid, events) in self.perf_by_tid.drain() {
            if elsewhere.contains(&tid) {
                continue; // the part that decodes the thread's data has them
            }
            if let Some(thread) = shared.builder.find_thread(&tid) {
                TaskStream::new(&tid, "", thread, events).finish(&mut shared);
            }
        }
        if !ignored.is_empty() && !self.secondary {
            let first = ignored[0].clone();
            shared.builder.diagnose(Severity::Info, "ignored-files", None, None, ignored.len() as u64, || {
                format!("files that are not part of the uftrace recording were ignored (first: {first})")
            });
        }
        shared.builder.finish()
    }
}
