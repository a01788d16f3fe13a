//! The stack rules of `uftrace replay`/`report`: depth from the first record
//! and again after LOST, then counting; `exec` and `longjmp` cutting the
//! stack; max-stack; returns without a call; scheduler spans from perf.

use super::{RecordingState, Special, TaskStream};
use crate::formats::uftrace::perf::{PerfEvent, PerfKind};
use crate::formats::uftrace::records::Record;
use crate::model::{
    Field, Severity, StrId, ThreadRef, Value, COUNTED_DURATION_KEY, SPAN_ABANDONED, SPAN_OFF_CPU,
    SPAN_START_REPAIRED,
};

impl TaskStream {
    /// Opens `depth` calls whose entries were not recorded (a forked child
    /// starts inside its parent's stack).
    pub(super) fn base_stack(&mut self, depth: usize, time: i64, rec: &mut RecordingState) {
        let depth = depth.min(rec.info.max_stack as usize);
        for _ in 0..depth {
            rec.builder
                .begin(self.thread, time, rec.unknown, SPAN_START_REPAIRED);
        }
        if depth > 0 {
            rec.builder.diagnose(Severity::Info, "inherited-stack", Some(&self.file), Some(0), depth as u64, || {
                "calls were already running when the task's recording began (a forked child inherits its parent's stack); they are named when they return".into()
            });
        }
    }

    pub(super) fn apply_pending(&mut self, time: i64, rec: &mut RecordingState) {
        let t = self.thread;
        if self.pending_exec {
            self.pending_exec = false;
            self.hidden = 0;
            self.user_count = 0;
            rec.builder.cut_to(t, 0, time, SPAN_ABANDONED);
        }
        if let Some(setjmp_depth) = self.pending_longjmp.take() {
            // setjmp's second return closes whatever call now holds setjmp's
            // stack slot (uftrace reuses the slot); deeper calls are abandoned.
            if rec.builder.depth(t) >= setjmp_depth {
                rec.builder.cut_to(t, setjmp_depth, time, SPAN_ABANDONED);
                if let Some(slot) = rec.builder.top(t) {
                    rec.builder.add_flags(t, slot, SPAN_START_REPAIRED);
                }
            } else {
                rec.builder.begin(t, time, rec.unknown, SPAN_START_REPAIRED);
            }
            self.user_count = rec.builder.depth(t);
        }
    }

    /// User calls on the stack as uftrace counts them; a context switch is
    /// shown only inside one (after an `exec` call the old program's stack
    /// is gone at once, though drawn until the new one starts).
    fn user_depth(&self) -> usize {
        if self.pending_exec {
            return 0;
        }
        self.user_count
    }

    pub(super) fn entry(&mut self, record: Record, extra: &[u8], rec: &mut RecordingState) {
        let t = self.thread;
        let time = record.time as i64;
        self.user_count += 1;
        if rec.builder.depth(t) + self.hidden as usize >= rec.info.max_stack as usize {
            self.hidden += 1;
            let max = rec.info.max_stack;
            rec.builder.diagnose(
                Severity::Info,
                "max-stack",
                Some(&self.file),
                Some(self.buffer_offset),
                1,
                || format!("calls deeper than the recorded max stack ({max}) are not shown"),
            );
            return;
        }
        if self.sched_open {
            // Back on CPU: a call cannot begin inside the off-CPU span.
            rec.builder.end(t, time);
            self.sched_open = false;
        }
        let info = rec.addr_info(self.space_at(time, rec), time, record.addr);
        self.keep_address(info.name, record.addr, rec);
        self.enter_slot(rec.builder.depth(t), info.name);
        let span = rec.builder.begin(t, time, info.name, 0);
        if record.more {
            let spec = rec.spec(info);
            let text = self.values(extra, &spec.args, time, rec);
            rec.builder.add_detail(t, span, Field::new("args", text));
        }
        match info.special {
            Special::Exec => self.pending_exec = true,
            Special::Setjmp => self.setjmp_depth = Some(rec.builder.depth(t)),
            Special::Longjmp => self.pending_longjmp = Some(self.setjmp_depth.unwrap_or(1)),
            Special::None => {}
        }
    }

    pub(super) fn exit(&mut self, record: Record, extra: &[u8], rec: &mut RecordingState) {
        let t = self.thread;
        let time = record.time as i64;
        self.user_count = self.user_count.saturating_sub(1);
        if self.hidden > 0 {
            self.hidden -= 1;
            return;
        }
        if self.sched_open {
            rec.builder.end(t, time);
            self.sched_open = false;
        }
        let info = rec.addr_info(self.space_at(time, rec), time, record.addr);
        let span = match rec.builder.top(t) {
            Some(top) => {
                let zero = self
                    .zero_levels
                    .contains(&rec.builder.depth(t).saturating_sub(1));
                if let Some((name, flags)) = rec.builder.span_info(t, top).filter(|_| !zero) {
                    if name != info.name {
                        if flags & SPAN_START_REPAIRED == 0 {
                            rec.builder.diagnose(Severity::Info, "exit-mismatch", Some(&self.file), Some(self.buffer_offset), 1, || {
                                "a return's address differs from its call's; the call is named after the return, as uftrace does".into()
                            });
                        }
                        rec.builder.set_name(t, top, info.name);
                        self.note_entered_as(top, name);
                    }
                }
                let level = rec.builder.depth(t).saturating_sub(1);
                let span = if let Some(i) = self.zero_levels.iter().position(|&l| l == level) {
                    // uftrace counts this return 0 ns: the drawn call is left
                    // out and an empty one takes its place in the counts.
                    self.zero_levels.swap_remove(i);
                    rec.builder.end(t, time);
                    rec.builder.add_flags(t, top, SPAN_ABANDONED);
                    let span = rec.builder.begin(t, time, info.name, SPAN_START_REPAIRED);
                    rec.builder.end(t, time);
                    let entered = self.entered.get(level).copied().unwrap_or(info.name);
                    if entered != info.name {
                        self.note_entered_as(span, entered);
                    }
                    span
                } else {
                    rec.builder.end(t, time);
                    top
                };
                self.note_slot0(t, span, rec);
                span
            }
            None => {
                rec.builder.diagnose(
                    Severity::Info,
                    "unmatched-exit",
                    Some(&self.file),
                    Some(self.buffer_offset),
                    1,
                    || "returns without a recorded call were given the duration of the last top-level call, as uftrace does".into(),
                );
                let start = time.saturating_sub(self.slot0_duration);
                let span = rec
                    .builder
                    .begin(t, start.min(time), info.name, SPAN_START_REPAIRED);
                rec.builder.end(t, time);
                self.keep_counted_duration(t, span, time - start.min(time), rec);
                span
            }
        };
        if record.more {
            let spec = rec.spec(info);
            let text = self.values(extra, spec.retval.as_slice(), time, rec);
            rec.builder.add_detail(t, span, Field::new("return", text));
        }
    }

    /// A span drawn shorter than `duration` (it cannot start before the
    /// previous record) keeps the time uftrace counts as a detail.
    fn keep_counted_duration(
        &self,
        t: ThreadRef,
        span: u32,
        duration: i64,
        rec: &mut RecordingState,
    ) {
        let drawn = rec.builder.span_times(t, span).map(|(s, e)| e - s);
        if drawn.is_some_and(|d| d < duration) {
            let key = rec.builder.intern(COUNTED_DURATION_KEY);
            rec.builder.detail(t, span, key, Value::Int(duration));
        }
    }

    /// A call takes stack slot `level` over.
    fn enter_slot(&mut self, level: usize, name: StrId) {
        if self.entered.len() <= level {
            self.entered.resize(level + 1, name);
        }
        if let Some(entered) = self.entered.get_mut(level) {
            *entered = name;
        }
        if let Some(slot) = self.stale.get_mut(level) {
            *slot = None;
        }
    }

    /// The file and its perf events are done: calls still open end where
    /// `uftrace report` ends them. That is the task's last record, but when
    /// that record is a perf event uftrace reads the time from the one
    /// buffer all perf events share (`get_perf_record()` in `utils/perf.c`),
    /// so it is the time of the recording's last perf event.
    pub(super) fn end_open_calls(&mut self, rec: &mut RecordingState) {
        if self.last_was_perf && rec.builder.depth(self.thread) > 0 {
            if let Some(last) = rec.last_perf_time {
                rec.builder.touch(self.thread, last);
            }
        }
    }

    /// Remembers a finished top-level call's duration (see `slot0_duration`).
    fn note_slot0(&mut self, t: ThreadRef, span: u32, rec: &RecordingState) {
        if rec.builder.depth(t) == 0 {
            if let Some((start, end)) = rec.builder.span_times(t, span) {
                self.slot0_duration = end.saturating_sub(start);
            }
        }
    }

    /// A context switch: the time off CPU becomes a `linux:schedule` span.
    pub(super) fn sched_event(&mut self, event: &PerfEvent, rec: &mut RecordingState) {
        let t = self.thread;
        match event.kind {
            PerfKind::SchedOut | PerfKind::SchedOutPreempted => {
                self.started = true;
                if self.lost_seen {
                    self.rebase_after_lost(0, 0, event.time, rec);
                }
                if self.user_depth() == 0 && !self.sched_open {
                    self.idle_sched_out = Some(event.time);
                }
                if self.user_depth() > 0 && !self.sched_open {
                    let name = if event.kind == PerfKind::SchedOut {
                        rec.schedule
                    } else {
                        rec.schedule_preempted
                    };
                    self.enter_slot(rec.builder.depth(t), name);
                    rec.builder.begin(t, event.time, name, SPAN_OFF_CPU);
                    self.sched_open = true;
                }
            }
            PerfKind::SchedIn => {
                if !self.started {
                    // uftrace bases the stack on this event as on a return
                    // at depth 0: slot 0 opens and closes at once.
                    self.slot0_duration = 0;
                }
                self.started = true;
                if self.lost_seen {
                    // A switch back is a return at depth 0: it sets the stack
                    // to one slot and closes it.
                    self.rebase_after_lost(1, 0, event.time, rec);
                    let empty_slot = self.zero_levels.contains(&0);
                    self.zero_levels.clear();
                    if let Some(top) = rec.builder.end(t, event.time) {
                        rec.builder.add_flags(t, top, SPAN_ABANDONED);
                        if let Some((start, end)) = rec.builder.span_times(t, top) {
                            self.slot0_duration = if empty_slot { 0 } else { end - start };
                        }
                    }
                }
                if let Some(out) = self.idle_sched_out.take() {
                    if rec.builder.depth(t) == 0 {
                        self.slot0_duration = event.time.saturating_sub(out);
                    }
                }
                if self.sched_open {
                    rec.builder.end(t, event.time);
                    self.sched_open = false;
                }
            }
            _ => {}
        }
    }
}
