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
pub mod scan;
mod symbols;
mod task;
mod threads;

use crate::decoder::{Decoder, FileProbe, Selection};
use crate::formats::common::Recording;
use crate::model::{Column, Format, Table, ThreadRef, TimeUnit, Trace, TraceBuilder};
use replay::{RecordingState, TaskStream};
pub use roles::detect;
use roles::{plan_key, role_of, Role};
use std::collections::{HashMap, HashSet, VecDeque};

/// Decodes a uftrace.data folder.
pub struct UftraceDecoder {
    /// The folder's files, their roles, and the metadata read so far.
    files: Recording<Role>,
    plan: Vec<usize>,
    /// The recording-wide state, once the metadata is read.
    recording: Option<RecordingState>,
    stream: Option<TaskStream>,
    perf_by_tid: HashMap<String, VecDeque<perf::PerfEvent>>,
    /// Task data files left to other parts ([`Decoder::keep_part`]).
    others: HashSet<usize>,
    /// This decoder works on a part after the first, which says what
    /// concerns the whole recording.
    secondary: bool,
    /// The threads and time window to keep ([`Decoder::keep_only`]).
    selection: Selection,
}

impl UftraceDecoder {
    /// A decoder for the offered files. When several uftrace folders were
    /// offered, the first (by path) is decoded and the rest are reported.
    pub fn new(probes: Vec<FileProbe>) -> Self {
        let folder = Recording::<Role>::folder_of(&probes, |p| p.head.starts_with(info::MAGIC))
            .or_else(|| Recording::<Role>::folder_of(&probes, |p| p.name() == "task.txt"))
            .unwrap_or_default();
        let files = Recording::new(probes, &folder, role_of);
        let plan = files.plan(plan_key);
        UftraceDecoder {
            files,
            plan,
            recording: None,
            stream: None,
            perf_by_tid: HashMap::new(),
            others: HashSet::new(),
            secondary: false,
            selection: Selection::default(),
        }
    }

    /// The size of file `index` in bytes.
    fn size_of(&self, index: usize) -> u64 {
        self.files.probe(index).map_or(0, |p| p.size)
    }

    /// The tid of a task data file.
    fn tid_at(&self, index: usize) -> Option<&str> {
        match self.files.role(index) {
            Some(Role::Data { tid }) => Some(tid),
            _ => None,
        }
    }

    /// File `index` is not the data of a thread left out by the selection.
    fn selected(&self, index: usize) -> bool {
        self.tid_at(index)
            .is_none_or(|tid| self.selection.keeps_thread(tid))
    }

    /// A stream for one task's records, keeping the selection's window.
    fn stream(
        &self,
        tid: &str,
        path: &str,
        thread: ThreadRef,
        perf: VecDeque<perf::PerfEvent>,
    ) -> TaskStream {
        TaskStream::new(tid, path, thread, perf).keep_window(self.selection.window)
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

    fn building(&self) -> Option<&crate::model::TraceBuilder> {
        self.recording.as_ref().map(|r| &r.builder)
    }

    fn plan(&self) -> Vec<usize> {
        self.plan
            .iter()
            .copied()
            .filter(|i| !self.others.contains(i) && self.selected(*i))
            .collect()
    }

    /// Keeps only the selected tasks' data files (the others are never
    /// read) and, inside them, only the records in the window.
    fn keep_only(&mut self, selection: &Selection) -> bool {
        self.selection = selection.clone();
        true
    }

    /// Splits the task data files between the parts, biggest first onto the
    /// part with the fewest bytes so far; every part reads the metadata.
    fn keep_part(&mut self, part: usize, parts: usize) -> bool {
        let mut data: Vec<usize> = self
            .plan
            .iter()
            .copied()
            .filter(|&i| self.tid_at(i).is_some() && self.selected(i))
            .collect();
        if parts < 2 || part >= parts || data.len() < parts {
            return false;
        }
        data.sort_by_key(|&i| (std::cmp::Reverse(self.size_of(i)), i));
        let mut load = vec![0u64; parts];
        for index in data {
            let Some((lightest, least)) =
                load.iter_mut().enumerate().min_by_key(|(p, l)| (**l, *p))
            else {
                break;
            };
            *least += self.size_of(index);
            if lightest != part {
                self.others.insert(index);
            }
        }
        self.secondary = part > 0;
        true
    }

    fn begin_file(&mut self, index: usize) {
        self.finish_stream();
        self.files.begin(index);
        if let Some(Role::Data { tid }) = self.files.role(index).cloned() {
            self.prepare();
            let path = self.files.path(index).to_owned();
            // One span per call record (16 bytes with its return):
            // reserving it once spares the columns their growth copies.
            let calls = self.size_of(index) / (2 * records::RECORD_SIZE as u64);
            let perf = self.perf_by_tid.remove(&tid).unwrap_or_default();
            let thread = self
                .recording
                .as_ref()
                .and_then(|r| r.builder.find_thread(&tid));
            if let (Some(thread), Some(recording)) = (thread, self.recording.as_mut()) {
                if self.selection.window.is_none() {
                    recording.builder.reserve_spans(thread, calls);
                }
                self.stream = Some(self.stream(&tid, &path, thread, perf));
            }
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        match (&mut self.stream, &mut self.recording) {
            (Some(stream), Some(recording)) => stream.feed(chunk, recording),
            _ => self.files.buffer(chunk),
        }
    }

    fn end_file(&mut self) {
        self.finish_stream();
        self.files.end();
    }

    fn finish(mut self: Box<Self>) -> Trace {
        self.finish_stream();
        self.prepare();
        let Some(mut recording) = self.recording.take() else {
            return TraceBuilder::new(Format::Uftrace, TimeUnit::Ns).finish();
        };
        let elsewhere: HashSet<String> = self
            .others
            .iter()
            .filter_map(|&i| self.tid_at(i).map(str::to_owned))
            .collect();
        // Threads whose .dat never arrived (the caller stopped) still get their perf events.
        for (tid, events) in std::mem::take(&mut self.perf_by_tid) {
            if elsewhere.contains(&tid) {
                continue; // the part that decodes the thread's data has them
            }
            if let Some(thread) = recording.builder.find_thread(&tid) {
                TaskStream::new(&tid, "", thread, events)
                    .keep_window(self.selection.window)
                    .finish(&mut recording);
            }
        }
        if !self.secondary {
            if !self.selection.keeps_everything() {
                let tasks = self
                    .plan
                    .iter()
                    .filter(|&&i| self.tid_at(i).is_some())
                    .count();
                let kept = self.selection.describe(tasks, scan::uftrace_time);
                recording.builder.metadata("loaded part only", kept);
            }
            self.files
                .report_ignored(&mut recording.builder, "uftrace recording");
            let resolved = recording.resolved_modules();
            let modules = recording.resolver.function_modules(&resolved);
            if !modules.is_empty() {
                recording.builder.table(symbols_table(modules));
            }
        }
        recording.builder.finish()
    }
}

/// The `symbols` table: each traced function with its module, as the
/// recording's `.sym` files place it (part 0 writes it, from the metadata
/// every part reads).
fn symbols_table(modules: Vec<(String, String)>) -> Table {
    Table {
        id: "symbols".into(),
        title: "Functions by module".into(),
        columns: vec![Column::text("function"), Column::text("module")],
        rows: modules.into_iter().map(|(f, m)| vec![f, m]).collect(),
        row_highlight: Vec::new(),
        note: "Each symbol of the recording's .sym files with the module it belongs to \
               (what Collapse module groups by)."
            .into(),
    }
}
