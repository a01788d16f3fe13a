//! One task's records → spans, the way `uftrace replay`/`report` rebuild the
//! call stack: depth from the first record (and after LOST), then counting;
//! scheduler events from perf merged in as `linux:schedule` spans; `exec` and
//! `longjmp` cutting the stack; arguments, return values and events decoded.

mod plain;

use super::argdata::{find_enum, format_value, split_block, ValueContext};
use super::argspec::{FunctionSpec, SpecBook};
use super::info::Info;
use super::perf::{PerfEvent, PerfKind};
use super::records::{self, Kind, Record, MAX_GAP_NS, RECORD_SIZE};
use super::resolve::Resolver;
use crate::fast_hash::FastMap;
use crate::model::{
    Field, Severity, StrId, ThreadRef, TraceBuilder, SPAN_ABANDONED, SPAN_CUT, SPAN_OFF_CPU,
    SPAN_START_REPAIRED,
};
use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// Functions whose calls replace or unwind the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    None,
    Exec,
    Setjmp,
    Longjmp,
}

fn special_of(name: &str) -> Special {
    match name {
        "execl" | "execlp" | "execle" | "execv" | "execve" | "execvp" | "execvpe" => Special::Exec,
        "setjmp" | "_setjmp" | "sigsetjmp" | "__sigsetjmp" => Special::Setjmp,
        "longjmp" | "siglongjmp" | "__longjmp_chk" => Special::Longjmp,
        _ => Special::None,
    }
}

/// What an address means, cached per address space.
#[derive(Clone, Copy, Debug)]
struct AddrInfo {
    name: StrId,
    symbol: Option<(usize, usize)>,
    special: Special,
}

impl AddrInfo {
    /// What an empty slot of [`Shared::recent`] holds (its address never matches).
    const UNSET: AddrInfo = AddrInfo {
        name: 0,
        symbol: None,
        special: Special::None,
    };
}

/// Slots of the direct-mapped table in front of the address cache.
const RECENT_SLOTS: usize = 256;

/// Where `addr` lives in [`Shared::recent`]: functions are at least a few
/// bytes apart, so the low bits past the first four spread them well.
fn recent_slot(addr: u64) -> usize {
    ((addr >> 4) ^ (addr >> 12)) as usize % RECENT_SLOTS
}

/// State shared by every task of one recording.
pub struct Shared {
    pub builder: TraceBuilder,
    pub resolver: Resolver,
    pub specs: SpecBook,
    pub info: Info,
    /// SDT event ids (from `events.txt`) → `provider:event`.
    pub event_names: HashMap<u64, String>,
    addr_cache: FastMap<(usize, u64), AddrInfo>,
    /// The latest answers of `addr_cache`, by [`recent_slot`] of the address.
    recent: Vec<(u64, usize, AddrInfo)>,
    spec_cache: FastMap<StrId, Rc<FunctionSpec>>,
    enum_sources: Vec<String>,
    unknown: StrId,
    schedule: StrId,
    schedule_preempted: StrId,
}

impl Shared {
    /// Shared state over parsed metadata.
    pub fn new(
        mut builder: TraceBuilder,
        resolver: Resolver,
        info: Info,
        event_names: HashMap<u64, String>,
    ) -> Self {
        let specs = SpecBook::new(&info);
        let mut enum_sources: Vec<String> = resolver.debug_enums().map(str::to_owned).collect();
        enum_sources.extend(info.enumauto.clone());
        Shared {
            unknown: builder.intern("<unknown>"),
            schedule: builder.intern("linux:schedule"),
            schedule_preempted: builder.intern("linux:schedule (pre-empted)"),
            builder,
            resolver,
            specs,
            info,
            event_names,
            addr_cache: FastMap::default(),
            recent: vec![(u64::MAX, usize::MAX, AddrInfo::UNSET); RECENT_SLOTS],
            spec_cache: FastMap::default(),
            enum_sources,
        }
    }

    /// What `addr` is, in address space `space` (from [`TaskStream::space_at`]) at `time`.
    fn addr_info(&mut self, space: Option<usize>, time: i64, addr: u64) -> AddrInfo {
        // Every call record asks, and a hot loop calls few functions: a small
        // direct-mapped table answers most questions before the hash map.
        let slot = recent_slot(addr);
        if let (Some(s), Some((a, sp, info))) = (space, self.recent.get(slot)) {
            if *a == addr && *sp == s {
                return *info;
            }
        }
        if let Some(info) = space.and_then(|s| self.addr_cache.get(&(s, addr))) {
            let info = *info;
            if let (Some(s), Some(entry)) = (space, self.recent.get_mut(slot)) {
                *entry = (addr, s, info);
            }
            return info;
        }
        let resolved = self.resolver.resolve_in(space, time, addr);
        let info = AddrInfo {
            name: self.builder.intern(&resolved.name),
            symbol: resolved.symbol,
            special: special_of(&resolved.name),
        };
        if let Some(s) = space.filter(|&s| self.resolver.in_map(s, addr)) {
            self.addr_cache.insert((s, addr), info);
        }
        info
    }

    fn spec(&mut self, info: AddrInfo) -> Rc<FunctionSpec> {
        if let Some(spec) = self.spec_cache.get(&info.name) {
            return Rc::clone(spec);
        }
        let debug = info
            .symbol
            .and_then(|at| self.resolver.debug_entry(at))
            .map(|e| (e.args.clone(), e.retval.clone()));
        let name = self.builder.name_of(info.name).to_owned();
        let spec = Rc::new(self.specs.spec_for(
            &name,
            debug.as_ref().map(|(a, r)| (a.as_deref(), r.as_deref())),
        ));
        self.spec_cache.insert(info.name, Rc::clone(&spec));
        spec
    }
}

/// Formatting context for one task's values.
struct TaskValues<'a> {
    resolver: &'a mut Resolver,
    enums: &'a [String],
    tid: &'a str,
    time: i64,
}

impl ValueContext for TaskValues<'_> {
    fn symbol_at(&mut self, addr: u64) -> Option<String> {
        let space = self.resolver.space_for(self.tid, self.time);
        let resolved = self.resolver.resolve_in(space, self.time, addr);
        resolved.symbol.map(|_| resolved.name)
    }
    fn enum_definition(&self, name: &str) -> Option<String> {
        find_enum(self.enums.iter().map(String::as_str), name)
    }
}

/// How much extra data follows a record.
enum Extra {
    Bytes(usize),
    NeedMore,
    Unknown,
}

/// Where the next plausible record starts in `buf`, searching from `from`
/// in steps of 8 bytes (records are 8-byte aligned).
fn find_next_record(buf: &[u8], from: usize, big_endian: bool, last_time: i64) -> Option<usize> {
    let min_time = u64::try_from(last_time).unwrap_or(0);
    let mut at = from;
    while at + RECORD_SIZE <= buf.len() {
        let mut head = [0u8; RECORD_SIZE];
        head.copy_from_slice(&buf[at..at + RECORD_SIZE]);
        if records::plausible(&head, big_endian, min_time) {
            return Some(at);
        }
        at += 8;
    }
    None
}

/// Decodes one `<tid>.dat`, fed in chunks.
pub struct TaskStream {
    tid: String,
    file: String,
    thread: ThreadRef,
    carry: Vec<u8>,
    /// File offset of `carry[0]`.
    carry_offset: u64,
    perf: VecDeque<PerfEvent>,
    /// The stack was based on a first record (uftrace's `fstack_set`).
    started: bool,
    lost_seen: bool,
    /// Calls deeper than max-stack, counted but not shown.
    hidden: u32,
    sched_open: bool,
    pending_exec: bool,
    pending_longjmp: Option<usize>,
    setjmp_depth: Option<usize>,
    last_time: i64,
    /// Offset where unreadable bytes began, while looking for the next record.
    skipping_from: Option<u64>,
    /// Duration of the last frame that left stack slot 0 (uftrace reuses it
    /// for a return that has no call, e.g. a forked child's `fork`).
    slot0_duration: Option<i64>,
    /// A context switch that happened outside every call: when it began.
    idle_sched_out: Option<i64>,
    /// The task's address space over a stretch of time in which no session
    /// starts (looking it up costs more than decoding a record).
    space: Cell<Option<SpaceMemo>>,
}

/// An address space remembered for times in `from..until`.
#[derive(Clone, Copy)]
struct SpaceMemo {
    from: i64,
    until: i64,
    space: Option<usize>,
}

impl TaskStream {
    /// A stream for thread `thread` (tracer id `tid`) read from `file`.
    pub fn new(tid: &str, file: &str, thread: ThreadRef, perf: VecDeque<PerfEvent>) -> Self {
        TaskStream {
            tid: tid.to_owned(),
            file: file.to_owned(),
            thread,
            carry: Vec::new(),
            carry_offset: 0,
            perf,
            started: false,
            lost_seen: false,
            hidden: 0,
            sched_open: false,
            pending_exec: false,
            pending_longjmp: None,
            setjmp_depth: None,
            last_time: 0,
            skipping_from: None,
            slot0_duration: None,
            idle_sched_out: None,
            space: Cell::new(None),
        }
    }

    /// Decodes the next bytes of the file.
    pub fn feed(&mut self, chunk: &[u8], sh: &mut Shared) {
        // Records are read straight from the chunk; only a record cut by the
        // chunk's end is carried over and joined with the next chunk.
        let mut joined = std::mem::take(&mut self.carry);
        let buf: &[u8] = if joined.is_empty() {
            chunk
        } else {
            joined.extend_from_slice(chunk);
            &joined
        };
        let at = self.feed_buffer(buf, sh);
        let rest = buf.get(at..).unwrap_or(&[]);
        self.carry = rest.to_vec();
        self.carry_offset += at as u64;
    }

    /// Decodes the whole records at the front of `buf` (which starts at file
    /// offset `carry_offset`); how many bytes were used up.
    fn feed_buffer(&mut self, buf: &[u8], sh: &mut Shared) -> usize {
        let big_endian = sh.info.big_endian;
        let mut at = 0usize;
        while buf.len() - at >= RECORD_SIZE {
            at = self.plain_run(buf, at, sh);
            if buf.len() - at < RECORD_SIZE {
                break;
            }
            let mut head = [0u8; RECORD_SIZE];
            head.copy_from_slice(&buf[at..at + RECORD_SIZE]);
            let record = records::parse(&head, big_endian);
            let extra = if records::sane(&record, self.started.then_some(self.last_time)) {
                self.extra_size(&record, &buf[at + RECORD_SIZE..], sh)
            } else {
                Extra::Unknown
            };
            match extra {
                Extra::NeedMore => break,
                Extra::Unknown => match find_next_record(buf, at + 8, big_endian, self.last_time) {
                    Some(next) => {
                        self.skipping_from
                            .get_or_insert(self.carry_offset + at as u64);
                        at = next;
                    }
                    None => {
                        self.skipping_from
                            .get_or_insert(self.carry_offset + at as u64);
                        // Keep the tail not yet searched: the next record may start there.
                        let mut next = at + 8;
                        while next + RECORD_SIZE <= buf.len() {
                            next += 8;
                        }
                        at = next.min(buf.len());
                        break;
                    }
                },
                Extra::Bytes(n) => {
                    if buf.len() - at < RECORD_SIZE + n {
                        break;
                    }
                    self.end_skipping(at, sh);
                    let start = at + RECORD_SIZE;
                    self.process(record, &buf[start..start + n], sh);
                    at = start + n;
                }
            }
        }
        at
    }

    /// The file is complete: reports a cut-off tail and merges the task's
    /// remaining perf events.
    pub fn finish(mut self, sh: &mut Shared) {
        if let Some(from) = self.skipping_from.take() {
            let lost = self.carry_offset + self.carry.len() as u64 - from;
            sh.builder.diagnose(Severity::DataLoss, "unreadable-bytes", Some(&self.file), Some(from), lost, || {
                "bytes that are not valid records (bad magic, or argument data no spec explains) were skipped".into()
            });
        } else if !self.carry.is_empty() {
            let cut = self.carry.len() as u64;
            sh.builder.diagnose(Severity::DataLoss, "truncated-record", Some(&self.file), Some(self.carry_offset), 1, || {
                format!("the file ends inside a record ({cut} of its bytes present): 1 record cut short, and any records after it are missing")
            });
        }
        while let Some(event) = self.perf.pop_front() {
            self.perf_event(event, sh);
        }
    }

    /// The address space this task uses at `time`.
    fn space_at(&self, time: i64, sh: &Shared) -> Option<usize> {
        if let Some(memo) = self.space.get() {
            if memo.from <= time && time < memo.until {
                return memo.space;
            }
        }
        let space = sh.resolver.space_for(&self.tid, time);
        let (from, until) = sh.resolver.session_window(time);
        self.space.set(Some(SpaceMemo { from, until, space }));
        space
    }

    fn end_skipping(&mut self, at: usize, sh: &mut Shared) {
        if let Some(from) = self.skipping_from.take() {
            let lost = self.carry_offset + at as u64 - from;
            sh.builder.diagnose(Severity::DataLoss, "unreadable-bytes", Some(&self.file), Some(from), lost, || {
                "bytes that are not valid records (bad magic, or argument data no spec explains) were skipped".into()
            });
        }
    }

    fn extra_size(&self, record: &Record, after: &[u8], sh: &mut Shared) -> Extra {
        if !record.more {
            return Extra::Bytes(0);
        }
        match record.kind {
            Kind::Lost => Extra::Bytes(0),
            Kind::Event => match after.get(..2) {
                Some(len) => {
                    let raw = [len[0], len[1]];
                    let n = usize::from(if sh.info.big_endian {
                        u16::from_be_bytes(raw)
                    } else {
                        u16::from_le_bytes(raw)
                    });
                    Extra::Bytes((2 + n).div_ceil(8) * 8)
                }
                None => Extra::NeedMore,
            },
            Kind::Entry | Kind::Exit => {
                let time = record.time as i64;
                let info = sh.addr_info(self.space_at(time, sh), time, record.addr);
                let spec = sh.spec(info);
                let specs: &[_] = if record.kind == Kind::Entry {
                    &spec.args
                } else {
                    spec.retval.as_slice()
                };
                if specs.is_empty() {
                    return Extra::Unknown;
                }
                match split_block(after, specs, sh.info.big_endian) {
                    Some((size, _)) => Extra::Bytes(size),
                    None if after.len() > usize::from(u16::MAX) * 8 => Extra::Unknown,
                    None => Extra::NeedMore,
                }
            }
        }
    }

    fn process(&mut self, record: Record, extra: &[u8], sh: &mut Shared) {
        let t = self.thread;
        sh.builder.count_events(t, 1);
        if record.kind == Kind::Lost {
            let lost = record.addr;
            sh.builder.diagnose(Severity::DataLoss, "lost-records", Some(&self.file), Some(self.carry_offset), lost, || {
                "records were lost while recording (uftrace could not get a buffer: LOST records)".into()
            });
            let name = sh.builder.intern("LOST");
            sh.builder.instant(
                t,
                self.last_time,
                name,
                vec![Field::new("records lost", lost.to_string())],
            );
            self.lost_seen = true;
            return;
        }
        let time = record.time as i64;
        self.flush_perf_before(time, sh);
        if record.kind != Kind::Event {
            self.apply_pending(time, sh);
            if !self.started {
                self.started = true;
                let depth = usize::from(record.depth) + usize::from(record.kind == Kind::Exit);
                self.base_stack(depth, time, sh);
            } else if self.lost_seen {
                self.lost_seen = false;
                let depth = usize::from(record.depth) + usize::from(record.kind == Kind::Exit);
                self.rebase_after_lost(depth, time, sh);
            }
        }
        sh.builder.touch(t, time);
        match record.kind {
            Kind::Entry => self.entry(record, extra, sh),
            Kind::Exit => self.exit(record, extra, sh),
            Kind::Event => self.event(record, extra, sh),
            Kind::Lost => {}
        }
        self.last_time = time;
    }

    /// Opens `depth` calls whose entries were not recorded (a forked child
    /// starts inside its parent's stack).
    fn base_stack(&mut self, depth: usize, time: i64, sh: &mut Shared) {
        let depth = depth.min(sh.info.max_stack as usize);
        for _ in 0..depth {
            sh.builder
                .begin(self.thread, time, sh.unknown, SPAN_START_REPAIRED);
        }
        if depth > 0 {
            sh.builder.diagnose(Severity::Info, "inherited-stack", Some(&self.file), Some(0), depth as u64, || {
                "calls were already running when the task's recording began (a forked child inherits its parent's stack); they are named when they return".into()
            });
        }
    }

    fn rebase_after_lost(&mut self, depth: usize, time: i64, sh: &mut Shared) {
        let t = self.thread;
        self.hidden = 0;
        if self.sched_open {
            sh.builder.end(t, self.last_time);
            self.sched_open = false;
        }
        // uftrace restarts every frame just before the next record and never
        // counts what was open before the loss; the names are kept for display.
        let names: Vec<StrId> = (0..depth)
            .map(|level| sh.builder.open_name(t, level).unwrap_or(sh.unknown))
            .collect();
        sh.builder
            .cut_to(t, 0, self.last_time, SPAN_CUT | SPAN_ABANDONED);
        for name in names.into_iter().take(sh.info.max_stack as usize) {
            sh.builder
                .begin(t, time.saturating_sub(1), name, SPAN_START_REPAIRED);
        }
    }

    fn apply_pending(&mut self, time: i64, sh: &mut Shared) {
        let t = self.thread;
        if self.pending_exec {
            self.pending_exec = false;
            self.hidden = 0;
            sh.builder.cut_to(t, 0, time, SPAN_ABANDONED);
        }
        if let Some(setjmp_depth) = self.pending_longjmp.take() {
            // setjmp's second return closes whatever call now holds setjmp's
            // stack slot (uftrace reuses the slot); deeper calls are abandoned.
            if sh.builder.depth(t) >= setjmp_depth {
                sh.builder.cut_to(t, setjmp_depth, time, SPAN_ABANDONED);
                if let Some(slot) = sh.builder.top(t) {
                    sh.builder.add_flags(t, slot, SPAN_START_REPAIRED);
                }
            } else {
                sh.builder.begin(t, time, sh.unknown, SPAN_START_REPAIRED);
            }
        }
    }

    /// Calls on the stack as uftrace counts them (after an `exec` call the
    /// old program's stack is gone at once, though drawn until the new one starts).
    fn user_depth(&self, sh: &Shared) -> usize {
        if self.pending_exec {
            return 0;
        }
        sh.builder
            .depth(self.thread)
            .saturating_sub(usize::from(self.sched_open))
    }

    fn entry(&mut self, record: Record, extra: &[u8], sh: &mut Shared) {
        let t = self.thread;
        let time = record.time as i64;
        if sh.builder.depth(t) + self.hidden as usize >= sh.info.max_stack as usize {
            self.hidden += 1;
            let max = sh.info.max_stack;
            sh.builder.diagnose(
                Severity::Info,
                "max-stack",
                Some(&self.file),
                Some(self.carry_offset),
                1,
                || format!("calls deeper than the recorded max stack ({max}) are not shown"),
            );
            return;
        }
        if self.sched_open {
            // Back on CPU: a call cannot begin inside the off-CPU span.
            sh.builder.end(t, time);
            self.sched_open = false;
        }
        let info = sh.addr_info(self.space_at(time, sh), time, record.addr);
        let span = sh.builder.begin(t, time, info.name, 0);
        if record.more {
            let spec = sh.spec(info);
            let text = self.values(extra, &spec.args, time, sh);
            sh.builder.add_detail(t, span, Field::new("args", text));
        }
        match info.special {
            Special::Exec => self.pending_exec = true,
            Special::Setjmp => self.setjmp_depth = Some(sh.builder.depth(t)),
            Special::Longjmp => self.pending_longjmp = Some(self.setjmp_depth.unwrap_or(1)),
            Special::None => {}
        }
    }

    fn exit(&mut self, record: Record, extra: &[u8], sh: &mut Shared) {
        let t = self.thread;
        let time = record.time as i64;
        if self.hidden > 0 {
            self.hidden -= 1;
            return;
        }
        if self.sched_open {
            sh.builder.end(t, time);
            self.sched_open = false;
        }
        let info = sh.addr_info(self.space_at(time, sh), time, record.addr);
        let span = match sh.builder.top(t) {
            Some(top) => {
                if let Some((name, flags)) = sh.builder.span_info(t, top) {
                    if name != info.name {
                        if flags & SPAN_START_REPAIRED == 0 {
                            sh.builder.diagnose(Severity::Info, "exit-mismatch", Some(&self.file), Some(self.carry_offset), 1, || {
                                "a return's address differs from its call's; the call is named after the return, as uftrace does".into()
                            });
                        }
                        sh.builder.set_name(t, top, info.name);
                    }
                }
                sh.builder.end(t, time);
                self.note_slot0(t, top, sh);
                top
            }
            None => {
                sh.builder.diagnose(
                    Severity::Info,
                    "unmatched-exit",
                    Some(&self.file),
                    Some(self.carry_offset),
                    1,
                    || "returns without a recorded call were given the duration of the last top-level call, as uftrace does".into(),
                );
                let start = self
                    .slot0_duration
                    .map_or(self.last_time, |d| time.saturating_sub(d));
                let span = sh
                    .builder
                    .begin(t, start.min(time), info.name, SPAN_START_REPAIRED);
                sh.builder.end(t, time);
                span
            }
        };
        if record.more {
            let spec = sh.spec(info);
            let text = self.values(extra, spec.retval.as_slice(), time, sh);
            sh.builder.add_detail(t, span, Field::new("return", text));
        }
    }

    /// Remembers a finished top-level call's duration (see `slot0_duration`).
    fn note_slot0(&mut self, t: ThreadRef, span: u32, sh: &Shared) {
        if sh.builder.depth(t) == 0 {
            if let Some((start, end)) = sh.builder.span_times(t, span) {
                self.slot0_duration = Some(end.saturating_sub(start));
            }
        }
    }

    fn values(
        &self,
        extra: &[u8],
        specs: &[super::argspec::ArgSpec],
        time: i64,
        sh: &mut Shared,
    ) -> String {
        let Some((_, raw)) = split_block(extra, specs, sh.info.big_endian) else {
            return String::new();
        };
        let mut cx = TaskValues {
            resolver: &mut sh.resolver,
            enums: &sh.enum_sources,
            tid: &self.tid,
            time,
        };
        raw.iter()
            .zip(specs)
            .map(|(value, spec)| format_value(value, spec, &mut cx))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn event(&mut self, record: Record, extra: &[u8], sh: &mut Shared) {
        let id = record.addr;
        let name = event_name(id, &sh.event_names);
        let fields = event_fields(id, extra, sh.info.big_endian);
        let name = sh.builder.intern(&name);
        sh.builder
            .instant(self.thread, record.time as i64, name, fields);
    }

    fn flush_perf_before(&mut self, time: i64, sh: &mut Shared) {
        while self.perf.front().is_some_and(|e| e.time < time) {
            if let Some(event) = self.perf.pop_front() {
                self.perf_event(event, sh);
            }
        }
    }

    fn perf_event(&mut self, event: PerfEvent, sh: &mut Shared) {
        let t = self.thread;
        sh.builder.count_events(t, 1);
        sh.builder.touch(t, event.time);
        match event.kind {
            PerfKind::SchedOut | PerfKind::SchedOutPreempted => {
                self.started = true;
                if self.user_depth(sh) == 0 && !self.sched_open {
                    self.idle_sched_out = Some(event.time);
                }
                if self.user_depth(sh) > 0 && !self.sched_open {
                    let name = if event.kind == PerfKind::SchedOut {
                        sh.schedule
                    } else {
                        sh.schedule_preempted
                    };
                    sh.builder.begin(t, event.time, name, SPAN_OFF_CPU);
                    self.sched_open = true;
                }
            }
            PerfKind::SchedIn => {
                self.started = true;
                if let Some(out) = self.idle_sched_out.take() {
                    if sh.builder.depth(t) == 0 {
                        self.slot0_duration = Some(event.time.saturating_sub(out));
                    }
                }
                if self.sched_open {
                    sh.builder.end(t, event.time);
                    self.sched_open = false;
                }
            }
            PerfKind::TaskNew | PerfKind::TaskExit => {
                let label = if event.kind == PerfKind::TaskNew {
                    "linux:task-new"
                } else {
                    "linux:task-exit"
                };
                let name = sh.builder.intern(label);
                sh.builder.instant(t, event.time, name, Vec::new());
            }
            PerfKind::Comm(comm) => {
                let name = sh.builder.intern("linux:task-name");
                sh.builder
                    .instant(t, event.time, name, vec![Field::new("comm", comm.clone())]);
                sh.builder.set_thread_name(t, &comm);
            }
        }
    }
}

/// The name `uftrace replay` gives an event id.
fn event_name(id: u64, sdt: &HashMap<u64, String>) -> String {
    let builtin = match id {
        100_001 => "read:proc/statm",
        100_002 => "read:page-fault",
        100_003 => "diff:proc/statm",
        100_004 => "diff:page-fault",
        100_005 => "read:pmu-cycle",
        100_006 => "diff:pmu-cycle",
        100_007 => "read:pmu-cache",
        100_008 => "diff:pmu-cache",
        100_009 => "read:pmu-branch",
        100_010 => "diff:pmu-branch",
        100_011 => "watch:cpu",
        _ => "",
    };
    if !builtin.is_empty() {
        return builtin.to_owned();
    }
    sdt.get(&id)
        .cloned()
        .unwrap_or_else(|| format!("event {id}"))
}

/// The payload of a built-in event as named fields.
fn event_fields(id: u64, extra: &[u8], big_endian: bool) -> Vec<Field> {
    let payload = match extra.get(..2) {
        Some(len) => {
            let n = usize::from(if big_endian {
                u16::from_be_bytes([len[0], len[1]])
            } else {
                u16::from_le_bytes([len[0], len[1]])
            });
            extra.get(2..2 + n).unwrap_or(&[])
        }
        None => &[],
    };
    let names: &[&str] = match id {
        100_001 | 100_003 => &["vmsize KB", "vmrss KB", "shared KB"],
        100_002 | 100_004 => &["major faults", "minor faults"],
        100_005 | 100_006 => &["cycles", "instructions"],
        100_007 | 100_008 => &["cache references", "cache misses"],
        100_009 | 100_010 => &["branches", "branch misses"],
        _ => &[],
    };
    if id == 100_011 {
        if let Some(cpu) = payload.get(..4) {
            let raw = [cpu[0], cpu[1], cpu[2], cpu[3]];
            let cpu = if big_endian {
                u32::from_be_bytes(raw)
            } else {
                u32::from_le_bytes(raw)
            };
            return vec![Field::new("cpu", cpu.to_string())];
        }
    }
    let mut fields: Vec<Field> = names
        .iter()
        .zip(payload.chunks_exact(8))
        .map(|(name, raw)| {
            let mut b = [0u8; 8];
            b.copy_from_slice(raw);
            let v = if big_endian {
                u64::from_be_bytes(b)
            } else {
                u64::from_le_bytes(b)
            };
            let is_diff = matches!(id, 100_003 | 100_004 | 100_006 | 100_008 | 100_010);
            let shown = if is_diff {
                (v as i64).to_string()
            } else {
                v.to_string()
            };
            Field::new(*name, shown)
        })
        .collect();
    if fields.is_empty() && !payload.is_empty() {
        fields.push(Field::new("payload bytes", payload.len().to_string()));
    }
    fields
}
