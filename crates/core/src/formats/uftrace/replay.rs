//! One task's records → spans, the way `uftrace replay`/`report` rebuild the
//! call stack: depth from the first record (and after LOST), then counting;
//! scheduler events from perf merged in as `linux:schedule` spans; `exec` and
//! `longjmp` cutting the stack; arguments, return values and events decoded.

mod events;
mod framing;
mod lost;
mod plain;
mod recording;
mod recursion;
mod stack;
mod values;

use super::perf::{PerfEvent, PerfKind};
use super::records::{Kind, Record, MAX_GAP_NS};
use crate::formats::common::Carry;
use crate::model::{Field, Severity, StrId, ThreadRef};
use lost::StaleCall;
pub use recording::RecordingState;
use recording::{recent_slot, Special};
use std::cell::Cell;
use std::collections::VecDeque;

/// Decodes one `<tid>.dat`, fed in chunks.
pub struct TaskStream {
    tid: String,
    file: String,
    thread: ThreadRef,
    /// The bytes of a record cut by a chunk's end.
    carry: Carry,
    /// File offset of the first byte of the bytes being decoded.
    buffer_offset: u64,
    perf: VecDeque<PerfEvent>,
    /// The stack was based on a first record (uftrace's `fstack_set`).
    started: bool,
    lost_seen: bool,
    /// uftrace's count of user calls on the stack (`user_stack_count`): it
    /// moves with calls and returns (never below 0) but not with a LOST.
    user_count: usize,
    /// Slots above the stack that still hold a call that never returned
    /// (dropped at a LOST), by level.
    stale: Vec<Option<StaleCall>>,
    /// The function last called at each stack slot: uftrace keeps it in the
    /// slot after the call returns, and a slot a LOST reopens shows it again
    /// (also to tell recursion).
    entered: Vec<StrId>,
    /// Open calls whose slot had no call when a LOST set the depth: their
    /// return counts 0 ns.
    zero_levels: Vec<usize>,
    /// Calls that returned as another function than their stack slot was
    /// entered as: the span and the slot's function (uftrace's recursion
    /// test reads the latter).
    entered_as: Vec<(u32, StrId)>,
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
    /// for a return that has no call, e.g. a forked child's `fork`); 0 while
    /// the slot was never used.
    slot0_duration: i64,
    /// The task's latest record (in time order) was a perf event.
    last_was_perf: bool,
    /// A context switch that happened outside every call: when it began.
    idle_sched_out: Option<i64>,
    /// The task's address space over a stretch of time in which no session
    /// starts (looking it up costs more than decoding a record).
    space: Cell<Option<SpaceMemo>>,
    /// Bit per function name: its address is kept already (the listing's
    /// `addr` column).
    addressed: Vec<u64>,
    /// Records before `keep_from` or after `keep_until` are skipped, as
    /// `uftrace --time-range` skips them ([`TaskStream::keep_window`]).
    keep_from: i64,
    keep_until: i64,
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
            carry: Carry::new(),
            buffer_offset: 0,
            perf,
            started: false,
            lost_seen: false,
            user_count: 0,
            stale: Vec::new(),
            entered: Vec::new(),
            zero_levels: Vec::new(),
            entered_as: Vec::new(),
            hidden: 0,
            sched_open: false,
            pending_exec: false,
            pending_longjmp: None,
            setjmp_depth: None,
            last_time: 0,
            skipping_from: None,
            slot0_duration: 0,
            last_was_perf: false,
            idle_sched_out: None,
            space: Cell::new(None),
            addressed: Vec::new(),
            keep_from: i64::MIN,
            keep_until: i64::MAX,
        }
    }

    /// Keeps only the records (and scheduler events) at times in
    /// `from..=until`, by uftrace's `--time-range` rule: every record
    /// outside is skipped, so the stack is based on the first record inside
    /// (calls already running then start there, named when they return) and
    /// calls still running at the end stay open.
    pub fn keep_window(mut self, window: Option<(i64, i64)>) -> Self {
        if let Some((from, until)) = window {
            (self.keep_from, self.keep_until) = (from, until);
            self.perf.retain(|e| from <= e.time && e.time <= until);
        }
        self
    }

    /// A record at `time` is inside the window.
    pub(super) fn keeps(&self, time: u64) -> bool {
        let time = i64::try_from(time).unwrap_or(i64::MAX);
        self.keep_from <= time && time <= self.keep_until
    }

    /// The file is complete: reports a cut-off tail and merges the task's
    /// remaining perf events.
    pub fn finish(mut self, rec: &mut RecordingState) {
        self.report_tail(rec);
        while let Some(event) = self.perf.pop_front() {
            self.perf_event(event, rec);
        }
        self.end_open_calls(rec);
        self.mark_inverted_recursion(rec);
    }

    /// The address space this task uses at `time`.
    pub(super) fn space_at(&self, time: i64, rec: &RecordingState) -> Option<usize> {
        if let Some(memo) = self.space.get() {
            if memo.from <= time && time < memo.until {
                return memo.space;
            }
        }
        let space = rec.resolver.space_for(&self.tid, time);
        let (from, until) = rec.resolver.session_window(time);
        self.space.set(Some(SpaceMemo { from, until, space }));
        space
    }

    /// Keeps the address of function `name` the first time this task calls it.
    pub(super) fn keep_address(&mut self, name: StrId, addr: u64, rec: &mut RecordingState) {
        let (word, bit) = (name as usize / 64, name % 64);
        if word >= self.addressed.len() {
            self.addressed.resize(word + 1, 0);
        }
        if let Some(bits) = self.addressed.get_mut(word) {
            if *bits & (1 << bit) == 0 {
                *bits |= 1 << bit;
                rec.builder.function_address(self.thread, name, addr);
            }
        }
    }

    /// Applies one whole record (and the data after it).
    pub(super) fn process(&mut self, record: Record, extra: &[u8], rec: &mut RecordingState) {
        let t = self.thread;
        rec.builder.count_events(t, 1);
        if record.kind == Kind::Lost {
            let lost = record.addr;
            rec.builder.diagnose(Severity::DataLoss, "lost-records", Some(&self.file), Some(self.buffer_offset), lost, || {
                "records were lost while recording (uftrace could not get a buffer: LOST records)".into()
            });
            let name = rec.builder.intern("LOST");
            rec.builder.instant(
                t,
                self.last_time,
                name,
                vec![Field::new("records lost", lost.to_string())],
            );
            self.lost(rec);
            return;
        }
        let time = record.time as i64;
        self.flush_perf_before(time, rec);
        self.last_was_perf = false;
        if record.kind != Kind::Event {
            self.apply_pending(time, rec);
            if !self.started {
                self.started = true;
                let depth = usize::from(record.depth) + usize::from(record.kind == Kind::Exit);
                self.base_stack(depth, time, rec);
            } else if self.lost_seen {
                let depth = usize::from(record.depth) + usize::from(record.kind == Kind::Exit);
                self.rebase_after_lost(depth, usize::from(record.depth), time, rec);
            }
        }
        rec.builder.touch(t, time);
        match record.kind {
            Kind::Entry => self.entry(record, extra, rec),
            Kind::Exit => self.exit(record, extra, rec),
            Kind::Event => self.event(record, extra, rec),
            Kind::Lost => {}
        }
        self.last_time = time;
    }

    /// Merges in the task's perf events that happened before `time`.
    pub(super) fn flush_perf_before(&mut self, time: i64, rec: &mut RecordingState) {
        while self.perf.front().is_some_and(|e| e.time < time) {
            if let Some(event) = self.perf.pop_front() {
                self.perf_event(event, rec);
            }
        }
    }

    pub(super) fn perf_event(&mut self, event: PerfEvent, rec: &mut RecordingState) {
        let t = self.thread;
        rec.builder.count_events(t, 1);
        rec.builder.touch(t, event.time);
        self.last_was_perf = true;
        match event.kind {
            PerfKind::SchedOut | PerfKind::SchedOutPreempted | PerfKind::SchedIn => {
                self.sched_event(&event, rec)
            }
            _ => self.task_event(event, rec),
        }
    }
}
