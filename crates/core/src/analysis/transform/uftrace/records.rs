//! One thread's spans as the entry / exit records uftrace reads, and the
//! filters uftrace applies while reading them (`get_task_ustack` and
//! `process_perf_event` in uftrace's `utils/fstack.c` / `utils/perf.c`):
//!
//! - `-r`: a record outside the range is not read at all (each record on
//!   its own: a call open at the range's start is read from its exit);
//! - `-t`: a call shorter than the threshold is not read, nor is anything
//!   recorded inside it — so its time is nobody's child time and stays in
//!   its caller's self time; a context switch shorter than the threshold
//!   goes too;
//! - `-C`: a call whose function is not a caller-filter function is
//!   dropped in the same way, unless it returns after a kept call inside it
//!   (the records already passed on are not taken back), which is what
//!   keeps the callers of the function.
//!
//! Off-CPU spans (`linux:schedule`) come from perf events in uftrace: the
//! threshold and the range apply to them, the caller filter does not.

use crate::analysis::meter::Meter;
use crate::model::{Spans, SPAN_ABANDONED, SPAN_OFF_CPU, SPAN_OPEN_AT_END, SPAN_START_REPAIRED};

/// What a record says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Entry,
    Exit,
    /// The call's stack was replaced (`exec`, `longjmp`): it ends without
    /// returning, as the decoder marked it.
    Abandon,
}

/// One record of a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub time: i64,
    pub kind: Kind,
    /// The record's own depth field (0 for a context switch, as uftrace
    /// makes its scheduler records).
    pub depth: u16,
    /// The span the record belongs to.
    pub span: u32,
    /// A context switch (an off-CPU span), not a function.
    pub sched: bool,
}

/// Calls `emit` with every record of `spans` in time order: a span's entry
/// at its start (none for the stack a task inherits: the data has no entry
/// for it), its exit at its end (none for a span still open at the end of
/// the data: uftrace closes those itself). Spends one unit of `meter` a
/// span, pausing when it is spent.
pub async fn read_records(spans: &Spans, meter: &Meter, mut emit: impl FnMut(Record)) {
    let mut open: Vec<u32> = Vec::new();
    // The stack a task inherits (a forked child's) comes before its first
    // record: the decoder repaired those starts; no entry was recorded.
    let mut inherited = true;
    let close = |i: u32, emit: &mut dyn FnMut(Record)| {
        let i_us = i as usize;
        let flags = spans.flags.get(i_us).copied().unwrap_or(0);
        if flags & SPAN_OPEN_AT_END != 0 {
            return;
        }
        let kind = if flags & SPAN_ABANDONED != 0 {
            Kind::Abandon
        } else {
            Kind::Exit
        };
        emit(record(spans, i, kind));
    };
    for i in 0..spans.len() {
        meter.tick().await;
        let depth = usize::from(spans.depth.get(i).copied().unwrap_or(0));
        while open.len() > depth {
            if let Some(j) = open.pop() {
                close(j, &mut emit);
            }
        }
        inherited &= spans.flags.get(i).copied().unwrap_or(0) & SPAN_START_REPAIRED != 0;
        if !inherited {
            emit(record(spans, i as u32, Kind::Entry));
        }
        open.push(i as u32);
    }
    while let Some(j) = open.pop() {
        close(j, &mut emit);
    }
}

fn record(spans: &Spans, i: u32, kind: Kind) -> Record {
    let at = i as usize;
    let sched = spans.flags.get(at).copied().unwrap_or(0) & SPAN_OFF_CPU != 0;
    let time = match kind {
        Kind::Entry => spans.start.get(at),
        Kind::Exit | Kind::Abandon => spans.end.get(at),
    };
    Record {
        time: time.copied().unwrap_or(0),
        kind,
        depth: if sched {
            0
        } else {
            spans.depth.get(at).copied().unwrap_or(0)
        },
        span: i,
        sched,
    }
}

/// The read-time filters of one thread.
pub struct ReadFilter<'a> {
    /// First and last time read (inclusive), in the trace's unit.
    pub start: Option<i64>,
    pub stop: Option<i64>,
    /// `-t`, in the trace's unit (0: none).
    pub threshold: i64,
    /// `-C`: per string id, whether the function is a caller-filter
    /// function; `None` when no caller filter is set.
    pub callers: Option<&'a [bool]>,
    /// Names of the spans (to look the caller filter up).
    pub names: &'a [u32],
    /// Records read but not passed on yet: uftrace holds them until a call
    /// long enough (or a caller) returns.
    pending: Vec<Record>,
    /// A context switch out, held until it is known to be long enough.
    sched_out: Option<Record>,
}

impl<'a> ReadFilter<'a> {
    pub fn new(start: Option<i64>, stop: Option<i64>, threshold: i64, names: &'a [u32]) -> Self {
        ReadFilter {
            start,
            stop,
            threshold,
            callers: None,
            names,
            pending: Vec::new(),
            sched_out: None,
        }
    }

    fn holds_calls(&self) -> bool {
        self.threshold > 0 || self.callers.is_some()
    }

    /// Reads one record; passes on to `out` what uftrace would read.
    pub fn push(&mut self, r: Record, out: &mut impl FnMut(Record)) {
        if self.start.is_some_and(|s| r.time < s) || self.stop.is_some_and(|s| r.time > s) {
            return;
        }
        if r.sched {
            self.push_sched(r, out);
        } else if !self.holds_calls() {
            out(r);
        } else {
            self.push_call(r, out);
        }
    }

    fn push_sched(&mut self, r: Record, out: &mut impl FnMut(Record)) {
        if self.threshold == 0 {
            return self.pass_sched(r, out);
        }
        match r.kind {
            Kind::Entry => {
                if let Some(held) = self.sched_out.replace(r) {
                    self.pass_sched(held, out);
                }
            }
            _ => match self.sched_out.take() {
                Some(held) if r.time - held.time < self.threshold => {}
                Some(held) => {
                    self.pass_sched(held, out);
                    self.pass_sched(r, out);
                }
                None => self.pass_sched(r, out),
            },
        }
    }

    /// A context switch goes after the calls still held, which come first
    /// in time, and stays when they are dropped.
    fn pass_sched(&mut self, r: Record, out: &mut impl FnMut(Record)) {
        if self.pending.is_empty() {
            out(r);
        } else {
            self.pending.push(r);
        }
    }

    fn push_call(&mut self, r: Record, out: &mut impl FnMut(Record)) {
        if r.kind == Kind::Entry {
            self.pending.push(r);
            return;
        }
        let last_entry = self
            .pending
            .iter()
            .rposition(|p| !p.sched && p.kind == Kind::Entry);
        let Some(at) = last_entry.filter(|_| r.kind == Kind::Exit) else {
            // Already passed on (or never read): the exit goes through.
            self.pending.push(r);
            return self.flush(out);
        };
        let entry_time = self.pending.get(at).map_or(r.time, |p| p.time);
        let short = r.time - entry_time < self.threshold;
        let not_caller = self.callers.is_some_and(|callers| {
            let name = self.names.get(r.span as usize).copied().unwrap_or(u32::MAX);
            !callers.get(name as usize).copied().unwrap_or(false)
        });
        if short || not_caller {
            // The call and everything read inside it go; context switches stay.
            let tail = self.pending.split_off(at);
            self.pending.extend(tail.into_iter().filter(|p| p.sched));
            if self.pending.iter().all(|p| p.sched) {
                self.flush(out);
            }
        } else {
            self.pending.push(r);
            self.flush(out);
        }
    }

    fn flush(&mut self, out: &mut impl FnMut(Record)) {
        for r in self.pending.drain(..) {
            out(r);
        }
    }

    /// The end of the thread's data: what is still held is read.
    pub fn finish(&mut self, out: &mut impl FnMut(Record)) {
        if let Some(held) = self.sched_out.take() {
            self.pass_sched(held, out);
        }
        self.flush(out);
    }
}
