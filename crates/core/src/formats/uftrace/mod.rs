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
mod metadata;
mod perf;
mod records;
mod replay;
mod resolve;
mod roles;
mod symbols;
mod task;
mod threads;

use crate::input::{Decoder, FileProbe};
use crate::model::{Format, Severity, TimeUnit, Trace, TraceBuilder};
use replay::{RecordingState, TaskStream};
pub use roles::detect;
use roles::{make_plan, role_of, Role};
use std::collections::{HashMap, HashSet, VecDeque};

/// Decodes a uftrace.data folder.
pub struct UftraceDecoder {
    probes: Vec<FileProbe>,
    roles: Vec<Option<Role>>,
    plan: Vec<usize>,
    /// Whole contents of metadata and perf files, until they are parsed.
    buffers: HashMap<usize, Vec<u8>>,
    current: Option<usize>,
    /// The recording-wide state, once the metadata is read.
    recording: Option<RecordingState>,
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
            recording: None,
            stream: None,
            perf_by_tid: HashMap::new(),
            ignored,
            others: HashSet::new(),
            secondary: false,
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
        if let (Some(stream), Some(recording)) = (self.stream.take(), self.recording.as_mut()) {
            stream.finish(recording);
        }
    }
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
            if let Some(recording) = self.recording.as_mut() {
                if let Some(thread) = recording.builder.find_thread(&tid) {
                    // One span per call record (16 bytes with its return):
                    // reserving it once spares the columns their growth copies.
                    let calls = self.probes[index].size / (2 * records::RECORD_SIZE as u64);
                    recording.builder.reserve_spans(thread, calls);
                    self.stream = Some(TaskStream::new(&tid, &path, thread, perf));
                }
            }
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        let Some(index) = self.current else { return };
        match (&mut self.stream, &mut self.recording) {
            (Some(stream), Some(recording)) => stream.feed(chunk, recording),
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
        let Some(mut recording) = self.recording.take() else {
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
            if let Some(thread) = recording.builder.find_thread(&tid) {
                TaskStream::new(&tid, "", thread, events).finish(&mut recording);
            }
        }
        if !ignored.is_empty() && !self.secondary {
            let first = ignored[0].clone();
            recording.builder.diagnose(Severity::Info, "ignored-files", None, None, ignored.len() as u64, || {
                format!("files that are not part of the uftrace recording were ignored (first: {first})")
            });
        }
        recording.builder.finish()
    }
}
