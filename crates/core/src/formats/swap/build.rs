//! Turns the stream's messages into the common model as they leave the
//! reorder window, in time order (the stream itself is only roughly
//! ordered: per-CPU buffers, library stamps taken before the kernel numbers
//! the message); what only the whole stream knows (its size, the sequence
//! gaps, the problems found in it) goes first in the trace at the end.
//!
//! Lanes: each thread's instrumented functions, its off-CPU time (nested
//! spans flagged `SPAN_OFF_CPU`, as uftrace's scheduler spans) and its probe
//! markers share one lane; system calls, file functions and web functions
//! get a lane of their own per thread (`<tid> syscalls`, `<tid> files`,
//! `<tid> web`); app setup stages a `startup` lane per process; messages
//! with no process a `target` lane.

use super::addresses::AddressSpace;
use super::build_calls::CallStacks;
use super::build_system::SystemCounters;
use super::messages::System;
use super::messages::{Frame, Message, ProcessInfo};
use super::stream::{Sink, Summary};
use super::texts::Texts;
use crate::fast_hash::FastMap;
use crate::model::{
    Column, CounterRef, Field, Format, SampleSetRef, Severity, StrId, Table, ThreadRef, TimeUnit,
    Trace, TraceBuilder, Value as FieldValue, SPAN_OFF_CPU,
};

/// Which lane of a thread an event goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    Functions,
    Syscalls,
    Files,
    Web,
}

/// A lane by pid, tid and kind.
type LaneKey = (u32, u32, Lane);

/// Everything the model is built from while walking the stream.
pub struct Build {
    pub b: TraceBuilder,
    pub file: String,
    pub space: AddressSpace,
    comms: FastMap<u32, String>,
    lanes: FastMap<LaneKey, ThreadRef>,
    pub calls: CallStacks,
    /// Lanes inside an off-CPU span, by lane.
    off_cpu: Vec<bool>,
    /// Recently used lanes, direct-mapped by (pid, tid, lane).
    recent_lanes: [Option<(LaneKey, ThreadRef)>; 16],
    samples: FastMap<ThreadRef, SampleSetRef>,
    counters: FastMap<(String, Option<u32>, Option<ThreadRef>), CounterRef>,
    /// The counters MSG_SYSTEM values go to, found once.
    pub system_counters: SystemCounters,
    pub tables: Tables,
    pub live_memory: FastMap<(u32, u64), usize>,
    pub live_fds: FastMap<(u32, u64), usize>,
    /// Texts already interned, by what they are made from.
    pub texts: Texts,
    /// Room for one event's fields, reused.
    pub fields: Vec<(StrId, FieldValue)>,
    /// Custom chart counters by lane and chart name.
    pub charts: FastMap<ThreadRef, FastMap<String, CounterRef>>,
    /// Probe marker names by (probe id, subtype, API id).
    pub probe_names: FastMap<(u32, u32, u32), StrId>,
    /// `API #n` by n.
    pub apis: FastMap<u32, StrId>,
    /// The `<tid> running` counter of each function lane.
    pub running: FastMap<ThreadRef, CounterRef>,
    /// Stream size in bytes, to project how big the counters will get.
    size: u64,
    /// Stream offset at which that is projected next.
    next_projection: u64,
    /// Points each counter has room for, as last reserved.
    reserved: FastMap<CounterRef, u64>,
}

/// The first projection of the counters' sizes is made this far in.
const FIRST_PROJECTION: u64 = 1 << 20;

/// Rows of the tables the stream fills.
#[derive(Default)]
pub struct Tables {
    pub file_activity: Vec<Vec<String>>,
    pub target_messages: Vec<Vec<String>>,
    pub open_files: Vec<Vec<String>>,
}

impl Build {
    /// An empty build for the stream of `size` bytes read from `file`.
    pub fn new(file: &str, size: u64) -> Self {
        Build {
            b: TraceBuilder::new(Format::Swap, TimeUnit::Ns),
            file: file.to_owned(),
            space: AddressSpace::default(),
            comms: FastMap::default(),
            lanes: FastMap::default(),
            calls: CallStacks::default(),
            off_cpu: Vec::new(),
            recent_lanes: [None; 16],
            samples: FastMap::default(),
            counters: FastMap::default(),
            system_counters: SystemCounters::default(),
            tables: Tables::default(),
            live_memory: FastMap::default(),
            live_fds: FastMap::default(),
            texts: Texts::default(),
            fields: Vec::new(),
            charts: FastMap::default(),
            probe_names: FastMap::default(),
            apis: FastMap::default(),
            running: FastMap::default(),
            size,
            next_projection: FIRST_PROJECTION,
            reserved: FastMap::default(),
        }
    }

    /// Makes room in every counter for the points the rest of the stream
    /// will likely bring, projected from those so far at `offset` (the
    /// target sends them at a steady rate), so the biggest columns of the
    /// trace are not grown by doubling (each time a copy, and the old block
    /// left behind). Done at doubling offsets; a projection that was short
    /// is made again at the next one.
    fn project(&mut self, offset: u64) {
        if offset < self.next_projection {
            return;
        }
        self.next_projection = offset.saturating_mul(2);
        for &c in self.counters.values() {
            let n = self.b.counter_len(c) as u64;
            let expected = u128::from(n) * u128::from(self.size) / u128::from(offset.max(1));
            let expected = u64::try_from(expected).unwrap_or(u64::MAX);
            let room = self.reserved.entry(c).or_default();
            if expected <= *room {
                continue;
            }
            // A little over (a projection that grows a bit need not move
            // the column again), never much more than there is so far.
            let target = expected
                .saturating_add(expected / 8)
                .min(n.saturating_mul(8).saturating_add(4096));
            if let Ok(more) = usize::try_from(target.saturating_sub(n)) {
                self.b.reserve_counter(c, more);
                *room = target;
            }
        }
    }

    /// The trace, once the stream has ended and said what it held.
    pub fn finish(self, summary: Summary) -> Trace {
        let file = self.file.clone();
        let mut trace = self.finish_model();
        // What the whole stream says comes first, as in a trace built after
        // reading it all: a builder of its own keeps the folding of repeated
        // problems (none of its kinds is one the build reports).
        let mut head = TraceBuilder::new(Format::Swap, TimeUnit::Ns);
        summarise(&mut head, &summary, &file);
        let head = head.finish();
        trace.metadata.splice(0..0, head.metadata);
        trace.diagnostics.splice(0..0, head.diagnostics);
        trace
    }
}

impl Sink for Build {
    fn system(&mut self, system: &System, _seq: u32, time: i64, offset: u64, _slack: usize) {
        self.project(offset);
        self.system_values(system, time);
    }

    fn frame(&mut self, frame: &Frame, offset: u64) {
        self.project(offset);
        self.message(frame, offset);
    }
}

/// The stream's metadata, its sequence gaps and its problems.
fn summarise(b: &mut TraceBuilder, stream: &Summary, file: &str) {
    b.metadata("stream bytes", stream.bytes.to_string());
    b.metadata("messages", stream.messages.to_string());
    if let Some((layout, inferred)) = stream.system_layout {
        let how = if inferred {
            "inferred from message lengths"
        } else {
            "from swap.cpus"
        };
        b.metadata(
            "MSG_SYSTEM layout",
            format!(
                "{} CPUs, {} energy devices{} ({how})",
                layout.cpus,
                layout.energy_devices,
                if layout.v42 {
                    ", protocol 4.2 memory fields"
                } else {
                    ""
                }
            ),
        );
    }
    if stream.legacy_calls {
        b.metadata(
            "function call layout",
            "pre-4.0 (probe type and sub-type after the tid)",
        );
    }
    let seq = &stream.sequence;
    if seq.missing > 0 {
        b.diagnose(Severity::DataLoss, "dropped-messages", Some(file), None, seq.missing, || {
            "messages are missing from the sequence numbering: the target dropped them when its buffer was full".into()
        });
    }
    if seq.wraps > 0 {
        b.diagnose(
            Severity::Info,
            "sequence-wrap",
            Some(file),
            None,
            seq.wraps,
            || "the sequence number wrapped from 0xFFFFFFFF to 0".into(),
        );
    }
    if seq.duplicates > 0 {
        b.diagnose(
            Severity::Info,
            "duplicate-sequence",
            Some(file),
            None,
            seq.duplicates,
            || {
                "messages repeat a sequence number already seen (a new session, or a reset counter)"
                    .into()
            },
        );
    }
    for p in &stream.problems {
        b.diagnose(p.severity, p.kind, Some(file), p.offset, p.count, || {
            p.message.clone()
        });
    }
    if stream.late > 0 {
        b.diagnose(Severity::Info, "out-of-order", Some(file), stream.first_late, stream.late, || {
            format!("messages came more than {} MiB of stream after messages with later times, too late to be put in time order; they were added where they came (times that went backwards within a thread were moved forward)", super::stream::WINDOW_BYTES >> 20)
        });
    }
}

impl Build {
    /// The process's display name.
    pub fn comm(&self, pid: u32) -> String {
        self.comms.get(&pid).cloned().unwrap_or_default()
    }

    /// The lane of `tid` (in process `pid`) for `lane`, created on first use.
    pub fn lane(&mut self, pid: u32, tid: u32, lane: Lane) -> ThreadRef {
        let key = (pid, tid, lane);
        let slot = (tid ^ pid.rotate_left(4) ^ lane as u32) as usize % self.recent_lanes.len();
        if let Some(Some((k, t))) = self.recent_lanes.get(slot) {
            if *k == key {
                return *t;
            }
        }
        if let Some(&t) = self.lanes.get(&key) {
            if let Some(recent) = self.recent_lanes.get_mut(slot) {
                *recent = Some((key, t));
            }
            return t;
        }
        let comm = self.comm(pid);
        let process = self.b.process(&pid.to_string(), &comm);
        let (id, name) = match lane {
            Lane::Functions if tid == pid && !comm.is_empty() => (tid.to_string(), comm),
            Lane::Functions => (tid.to_string(), tid.to_string()),
            Lane::Syscalls => (format!("{tid}/syscalls"), format!("{tid} syscalls")),
            Lane::Files => (format!("{tid}/files"), format!("{tid} files")),
            Lane::Web => (format!("{tid}/web"), format!("{tid} web")),
        };
        let t = self.b.thread(process, &id, &name);
        self.lanes.insert((pid, tid, lane), t);
        t
    }

    /// A lane for things that belong to a process but no thread.
    pub fn process_lane(&mut self, pid: u32, what: &str) -> ThreadRef {
        let comm = self.comm(pid);
        let process = self.b.process(&pid.to_string(), &comm);
        self.b.thread(process, &format!("{pid}/{what}"), what)
    }

    /// The lane for messages that name no process.
    pub fn target_lane(&mut self) -> ThreadRef {
        let process = self.b.process("target", "target");
        self.b.thread(process, "target", "target")
    }

    /// The counter `name`, created on first use.
    pub fn counter(
        &mut self,
        name: String,
        unit: &str,
        process: Option<u32>,
        thread: Option<ThreadRef>,
    ) -> CounterRef {
        let key = (name, process, thread);
        if let Some(&c) = self.counters.get(&key) {
            return c;
        }
        let c = self.b.counter(&key.0, unit, process, thread);
        self.counters.insert(key, c);
        c
    }

    /// Ends an open off-CPU span of `t` at `time` (a call event proves the
    /// thread runs again even if the switch-in was lost).
    pub fn end_off_cpu(&mut self, t: ThreadRef, time: i64) {
        let was_off = self
            .off_cpu
            .get_mut(t as usize)
            .is_some_and(|off| std::mem::replace(off, false));
        if was_off {
            self.b.end(t, time);
        }
    }

    /// A marker with fields.
    pub fn marker(&mut self, t: ThreadRef, time: i64, name: &str, fields: Vec<Field>) {
        let name = self.b.intern(name);
        self.b.instant(t, time, name, fields);
        self.b.count_events(t, 1);
    }

    fn message(&mut self, frame: &Frame, offset: u64) {
        let time = frame.time.ns();
        match &frame.message {
            Message::ProcessInfo(info) => self.process_info(info, time),
            Message::Terminate { pid } => {
                let t = self.lane(*pid, *pid, Lane::Functions);
                self.marker(t, time, "process terminated", Vec::new());
            }
            Message::ProcessComm { pid, comm } => {
                self.comms.insert(*pid, comm.clone());
                let t = self.lane(*pid, *pid, Lane::Functions);
                self.marker(
                    t,
                    time,
                    "name changed",
                    vec![Field::new("comm", comm.clone())],
                );
            }
            Message::ProcessMap {
                pid,
                low,
                high,
                path,
            } => {
                self.space.map(*pid, *low, *high, path);
                self.texts.mappings_changed();
                let t = self.lane(*pid, *pid, Lane::Functions);
                self.marker(
                    t,
                    time,
                    "map",
                    vec![Field::new("path", path.clone()), range(*low, *high)],
                );
            }
            Message::ProcessUnmap { pid, low, high } => {
                self.space.unmap(*pid, *low, *high);
                self.texts.mappings_changed();
                let t = self.lane(*pid, *pid, Lane::Functions);
                self.marker(t, time, "unmap", vec![range(*low, *high)]);
            }
            Message::ProcessStatusInfo(status) => {
                for f in &status.files {
                    self.tables.open_files.push(vec![
                        status.pid.to_string(),
                        f.fd.to_string(),
                        f.size.to_string(),
                        f.path.clone(),
                    ]);
                }
            }
            Message::Sample(s) => self.sample(s.pid, s.tid, s.pc, s.cpu, time),
            Message::System(system) => self.system_values(system, time),
            Message::ContextSwitch(c) => self.context_switch(c.pid, c.tid, c.entry, time),
            Message::FunctionEntry(_)
            | Message::FunctionExit(_)
            | Message::SyscallEntry(_)
            | Message::SyscallExit(_)
            | Message::FileFunctionEntry(_)
            | Message::FileFunctionExit { .. }
            | Message::WebFunctionEntry(_)
            | Message::WebFunctionExit { .. }
            | Message::WebSampling { .. }
            | Message::AppSetupStage(_) => self.call(&frame.message, time, offset),
            Message::Probe(p) => self.probe(p, time),
            Message::Error { text } => {
                let text = text.clone();
                self.tables.target_messages.push(vec![
                    time.to_string(),
                    "error".into(),
                    String::new(),
                    text.clone(),
                ]);
                self.b.diagnose(Severity::Info, "target-error", Some(&self.file), Some(offset), 1, || {
                    format!("the target reported errors (MSG_ERROR; all are in the target messages table), first: {text}")
                });
            }
            Message::Lsan(l) => {
                let status = lsan_status(l.status);
                self.tables.target_messages.push(vec![
                    time.to_string(),
                    format!("LSan {status}"),
                    l.pid.to_string(),
                    l.message.clone(),
                ]);
                let t = self.lane(l.pid, l.pid, Lane::Functions);
                self.marker(
                    t,
                    time,
                    &format!("LSan {status}"),
                    vec![Field::new("message", l.message.clone())],
                );
                if l.status == 2 {
                    let text = l.message.clone();
                    self.b.diagnose(Severity::Info, "lsan-report", Some(&self.file), Some(offset), 1, || {
                        format!("LeakSanitizer wrote leak reports on the target (not in the stream), first: {text}")
                    });
                }
            }
            Message::Record { events } => {
                let t = self.target_lane();
                for e in events {
                    let device = if e.device == 0 { "touch" } else { "key" };
                    self.marker(
                        t,
                        time,
                        &format!("input: {device}"),
                        vec![
                            Field::new("type", e.kind.to_string()),
                            Field::new("code", e.code.to_string()),
                            Field::new("value", e.value.to_string()),
                        ],
                    );
                }
            }
            Message::WebAppSetupStage(w) => {
                let t = self.process_lane(w.pid, "web startup");
                let mut fields = Vec::new();
                if let Some(r) = w.resource {
                    fields.push(Field::new("resource", r.to_string()));
                }
                if let Some(p) = &w.path {
                    fields.push(Field::new("path", p.clone()));
                }
                self.marker(t, time, wsp_name(w.wsp_id), fields);
            }
            Message::Fbi { variable, data } => {
                let t = self.target_lane();
                let hex: String = data.iter().take(32).map(|b| format!("{b:02x}")).collect();
                self.marker(
                    t,
                    time,
                    &format!("variable #{variable}"),
                    vec![
                        Field::new("size", data.len().to_string()),
                        Field::new("bytes", hex),
                    ],
                );
            }
            Message::UiHierarchy { path } => {
                let t = self.target_lane();
                self.marker(
                    t,
                    time,
                    "UI hierarchy",
                    vec![Field::new("file on target", path.clone())],
                );
            }
            Message::Image { payload } => {
                let t = self.target_lane();
                self.marker(
                    t,
                    time,
                    "image",
                    vec![Field::new("bytes", payload.len().to_string())],
                );
            }
            Message::Unknown { .. } => {}
        }
    }

    fn process_info(&mut self, info: &ProcessInfo, time: i64) {
        self.comms.insert(info.pid, info.comm.clone());
        self.space.process_info(info);
        self.texts.mappings_changed();
        let process = self.b.process(&info.pid.to_string(), &info.comm);
        let _ = process;
        let t = self.lane(info.pid, info.pid, Lane::Functions);
        self.marker(
            t,
            time,
            "process info",
            vec![
                Field::new("binary", info.binary.clone()),
                Field::new("ppid", info.ppid.to_string()),
                Field::new("libraries", info.libs.len().to_string()),
            ],
        );
    }

    fn sample(&mut self, pid: u32, tid: u32, pc: u64, cpu: u32, time: i64) {
        let _ = cpu;
        let t = self.lane(pid, tid, Lane::Functions);
        let set = match self.samples.get(&t) {
            Some(&s) => s,
            None => {
                let s = self.b.sample_set("CPU samples", Some(t), &["samples"]);
                self.b.sample_set_note(
                    s,
                    "MSG_SAMPLE program counters under the instrumented calls open at the time",
                );
                self.samples.insert(t, s);
                s
            }
        };
        // The open instrumented calls give the sample a call path.
        let calls = self.calls.open_stack(&mut self.b, t);
        let leaf = self.address_name(pid, pc);
        let stack = self.calls.child(&mut self.b, calls, leaf);
        self.b.sample(set, Some(time), stack, &[1]);
        self.b.count_events(t, 1);
    }

    fn context_switch(&mut self, pid: u32, tid: u32, entry: bool, time: i64) {
        let t = self.lane(pid, tid, Lane::Functions);
        self.b.count_events(t, 1);
        let running = match self.running.get(&t) {
            Some(&c) => c,
            None => {
                let c = self.counter(format!("{tid} running"), "on CPU", None, Some(t));
                self.running.insert(t, c);
                c
            }
        };
        // ENTRY is sent as the thread is switched out, EXIT as it is switched in.
        if entry {
            if self.off_cpu.get(t as usize) != Some(&true) {
                let name = self.b.intern("off-CPU");
                self.b.begin(t, time, name, SPAN_OFF_CPU);
                let at = t as usize;
                if self.off_cpu.len() <= at {
                    self.off_cpu.resize(at + 1, false);
                }
                if let Some(off) = self.off_cpu.get_mut(at) {
                    *off = true;
                }
            }
            self.b.counter_value(running, time, 0.0);
        } else {
            self.end_off_cpu(t, time);
            self.b.touch(t, time);
            self.b.counter_value(running, time, 1.0);
        }
    }

    /// The model built from the messages, with its tables.
    fn finish_model(mut self) -> Trace {
        let file = self.file.clone();
        let file = file.as_str();
        let cut = self.calls.unmatched_entries;
        if cut > 0 {
            self.b.diagnose(Severity::DataLoss, "unmatched-entry", Some(file), None, cut, || {
                "function entries had no exit (a later exit of an outer call closed them); they are cut there".into()
            });
        }
        let lost = self.calls.unmatched_exits;
        if lost > 0 {
            self.b.diagnose(
                Severity::DataLoss,
                "unmatched-exit",
                Some(file),
                None,
                lost,
                || "function exits matched no open entry on their thread and were dropped".into(),
            );
        }
        let tables = std::mem::take(&mut self.tables);
        if !tables.file_activity.is_empty() {
            self.b.table(table(
                "file-activity",
                "File activity",
                &[
                    ("time (ns)", true),
                    ("pid", true),
                    ("tid", true),
                    ("fd", true),
                    ("operation", false),
                    ("size", true),
                    ("file size", true),
                    ("path", false),
                ],
                tables.file_activity,
                "MSG_PROBE_RESOURCE calls of the traced processes",
            ));
        }
        if !tables.target_messages.is_empty() {
            self.b.table(table(
                "target-messages",
                "Target messages",
                &[
                    ("time (ns)", true),
                    ("kind", false),
                    ("pid", false),
                    ("text", false),
                ],
                tables.target_messages,
                "MSG_ERROR and MSG_LSAN messages",
            ));
        }
        if !tables.open_files.is_empty() {
            self.b.table(table(
                "open-files",
                "Files open at attach",
                &[("pid", true), ("fd", true), ("size", true), ("path", false)],
                tables.open_files,
                "MSG_PROCESS_STATUS_INFO",
            ));
        }
        let lanes = std::mem::take(&mut self.lanes);
        let mut trace = self.b.finish();
        // A lane made before its process was introduced learns its name now.
        for ((pid, tid, lane), t) in lanes {
            let comm = self.comms.get(&pid).filter(|c| !c.is_empty());
            if let (Lane::Functions, true, Some(comm)) = (lane, pid == tid, comm) {
                if let Some(thread) = trace.threads.get_mut(t as usize) {
                    thread.name = comm.clone();
                }
            }
        }
        for process in &mut trace.processes {
            if let Some(comm) = process
                .id
                .parse()
                .ok()
                .and_then(|pid: u32| self.comms.get(&pid))
            {
                process.name = comm.clone();
            }
        }
        trace
    }
}

fn table(
    id: &str,
    title: &str,
    columns: &[(&str, bool)],
    rows: Vec<Vec<String>>,
    note: &str,
) -> Table {
    Table {
        id: id.to_owned(),
        title: title.to_owned(),
        columns: columns
            .iter()
            .map(|&(name, numeric)| {
                if numeric {
                    Column::number(name)
                } else {
                    Column::text(name)
                }
            })
            .collect(),
        rows,
        row_highlight: Vec::new(),
        note: note.to_owned(),
    }
}

fn range(low: u64, high: u64) -> Field {
    Field::new("range", format!("{low:#x}-{high:#x}"))
}

fn lsan_status(status: u32) -> &'static str {
    match status {
        0 => "error",
        1 => "status",
        2 => "report",
        4 => "init done",
        _ => "message",
    }
}

fn wsp_name(id: u32) -> &'static str {
    match id {
        1 => "resource load begin",
        2 => "resource load end",
        3 => "resource processing begin",
        4 => "resource processing end",
        5 => "draw begin",
        6 => "draw end",
        _ => "web setup stage",
    }
}
