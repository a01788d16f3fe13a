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
//!
//! Decoded in two parts side by side (see [`Build::split`]), both parts read
//! every message in the same time order and make every lane and process in
//! the same order; part 0 keeps what belongs to the whole trace (counters,
//! samples, allocations, tables, diagnostics, metadata) and drops the
//! threads' spans and markers, part 1 keeps only those (with their details).

mod call_kinds;
mod calls;
mod probes;
mod process;
mod scheduling;
mod summary;
mod system;
mod tables;
mod target;
mod texts;

use super::addresses::AddressSpace;
use super::messages::{Frame, Message, System};
use super::stream::{Sink, Summary};
use crate::fast_hash::FastMap;
use crate::model::{
    CounterRef, Field, Format, SampleSetRef, Severity, StrId, Thread, ThreadRef, TimeUnit, Trace,
    TraceBuilder, Value as FieldValue,
};
use calls::CallStacks;
use summary::summarise;
use system::SystemCounters;
use tables::Tables;
use texts::Texts;

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
    /// This part makes the trace-level data (counters, samples,
    /// allocations, tables, diagnostics, metadata).
    pub trace_level: bool,
    /// This part keeps the threads' spans and markers and their details.
    pub thread_data: bool,
}

/// The first projection of the counters' sizes is made this far in.
const FIRST_PROJECTION: u64 = 1 << 20;

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
            trace_level: true,
            thread_data: true,
        }
    }

    /// Makes this build part `part` of `parts` decoded side by side: part 0
    /// keeps the trace-level data, part 1 the threads' data, any further
    /// part neither (it only agrees on the lanes). Both walk every message,
    /// so every state the handlers share (open calls, off-CPU time, the
    /// address space, names) is the whole stream's in each part.
    pub fn split(&mut self, part: usize, parts: usize) {
        if parts > 1 {
            self.trace_level = part == 0;
            self.thread_data = part == 1;
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
        let trace_level = self.trace_level;
        let mut trace = self.finish_model();
        if !trace_level {
            return trace;
        }
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
        if !self.trace_level {
            // No counter is made; points for this one go nowhere.
            return CounterRef::MAX;
        }
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
        if !self.thread_data {
            self.b.touch(t, time);
            self.b.count_events(t, 1);
            return;
        }
        let name = self.b.intern(name);
        self.b.instant(t, time, name, fields);
        self.b.count_events(t, 1);
    }

    /// Hands one message to the handler of its kind.
    fn message(&mut self, frame: &Frame, offset: u64) {
        let time = frame.time.ns();
        match &frame.message {
            Message::ProcessInfo(info) => self.process_info(info, time),
            Message::Terminate { pid } => self.terminate(*pid, time),
            Message::ProcessComm { pid, comm } => self.process_comm(*pid, comm, time),
            Message::ProcessMap {
                pid,
                low,
                high,
                path,
            } => self.process_map(*pid, (*low, *high), path, time),
            Message::ProcessUnmap { pid, low, high } => {
                self.process_unmap(*pid, (*low, *high), time)
            }
            Message::ProcessStatusInfo(status) => self.status_info(status),
            Message::Sample(s) => self.sample(s.pid, s.tid, s.pc, time),
            Message::System(system) => self.system_values(system, time),
            Message::ContextSwitch(c) => self.context_switch(c.pid, c.tid, c.entry, time),
            Message::FunctionEntry(e) => self.function_entry(e, time),
            Message::FunctionExit(e) => self.function_exit(e, time),
            Message::SyscallEntry(e) => self.syscall_entry(e, time),
            Message::SyscallExit(e) => self.syscall_exit(e, time),
            Message::FileFunctionEntry(e) => self.file_function_entry(e, time),
            Message::FileFunctionExit { pid, tid, ret } => {
                self.file_function_exit(*pid, *tid, ret, time)
            }
            Message::WebFunctionEntry(c) => self.web_function_entry(c, time),
            Message::WebFunctionExit { pid, tid, name } => {
                self.web_function_exit(*pid, *tid, name, time)
            }
            Message::WebSampling { subtype, call } => self.web_sampling(*subtype, call, time),
            Message::AppSetupStage(s) => self.app_setup_stage(s),
            Message::Probe(p) => self.probe(p, time),
            Message::Error { text } => self.target_error(text, time, offset),
            Message::Lsan(l) => self.lsan(l, time, offset),
            Message::Record { events } => self.record(events, time),
            Message::WebAppSetupStage(w) => self.web_app_setup_stage(w, time),
            Message::Fbi { variable, data } => self.fbi(*variable, data, time),
            Message::UiHierarchy { path } => self.ui_hierarchy(path, time),
            Message::Image { payload } => self.image(payload, time),
            Message::Unknown { .. } => {}
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
        if self.trace_level {
            self.add_tables();
        }
        let lanes = std::mem::take(&mut self.lanes);
        let mut trace = self.b.finish();
        name_lanes(&mut trace, lanes, &self.comms);
        if !self.trace_level {
            trace.diagnostics.clear();
        }
        if !self.thread_data {
            for thread in &mut trace.threads {
                drop_thread_data(thread);
            }
        }
        trace
    }
}

/// Empties a thread whose data another part keeps.
fn drop_thread_data(thread: &mut Thread) {
    thread.events = 0;
    thread.spans = Default::default();
    thread.instants = Default::default();
    thread.addresses = Default::default();
    thread.first_time = None;
    thread.last_time = None;
}

/// A lane made before its process was introduced learns its name now; so
/// does every process.
fn name_lanes(trace: &mut Trace, lanes: FastMap<LaneKey, ThreadRef>, comms: &FastMap<u32, String>) {
    for ((pid, tid, lane), t) in lanes {
        let comm = comms.get(&pid).filter(|c| !c.is_empty());
        if let (Lane::Functions, true, Some(comm)) = (lane, pid == tid, comm) {
            if let Some(thread) = trace.threads.get_mut(t as usize) {
                thread.name = comm.clone();
            }
        }
    }
    for process in &mut trace.processes {
        if let Some(comm) = process.id.parse().ok().and_then(|pid: u32| comms.get(&pid)) {
            process.name = comm.clone();
        }
    }
}
