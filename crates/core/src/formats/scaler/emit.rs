//! Turns one thread's linked tree into spans on the builder.
//!
//! Nodes are visited in call order. A call that never returned (`end` -1) is
//! left open and the builder draws it to the thread's last timestamp, marked
//! open. Should such a call be followed by a later sibling (a corrupt file),
//! it is closed where that sibling starts. A thread whose nodes carry no
//! timestamps at all (upstream's unit-test sample) is laid out on a made-up
//! clock, one unit per call, so its tree can still be seen.

use super::names::Namer;
use super::records::{Kind, Record};
use super::sync;
use super::tree::{Counted, Tree};
use crate::model::{
    Severity, ThreadRef, TraceBuilder, SPAN_CUT, SPAN_OPEN_AT_END, SPAN_START_REPAIRED,
};

/// What emitting a thread counted, for diagnostics.
#[derive(Default)]
pub struct Emitted {
    /// Calls with end -1 (never returned).
    pub open: Counted,
    /// Of those, the ones whose fileID is -1 too (Scaler sets it on return).
    pub open_without_file: u64,
    /// Open calls that had to be closed early because a later call followed.
    pub open_cut: Counted,
    /// Calls without a start timestamp in an otherwise timed thread.
    pub start_missing: Counted,
    /// Extra fields Scaler never set that hold a non-zero value.
    pub garbage_extras: u64,
    /// Records whose type disagrees with commonFuncId.json.
    pub type_mismatch: Counted,
    /// True when no node had a timestamp and the made-up clock was used.
    pub untimed: bool,
}

/// Emits the spans of thread `t` from `records` linked as `tree`.
pub fn emit_thread(
    builder: &mut TraceBuilder,
    t: ThreadRef,
    records: &[Record],
    tree: &Tree,
    namer: &mut Namer,
) -> Emitted {
    let untimed = !records.iter().skip(1).any(|r| r.start >= 0 || r.end >= 0);
    let mut emitter = Emitter {
        builder,
        t,
        namer,
        // The made-up clock of an untimed thread; otherwise the latest time used.
        now: if untimed { 0 } else { earliest_time(records) },
        open: Vec::new(),
        out: Emitted {
            untimed,
            ..Emitted::default()
        },
    };
    tree.walk(|visit| {
        if let Some(record) = records.get(visit.record as usize) {
            emitter.enter(record, usize::from(visit.depth));
        }
    });
    emitter.close_returned();
    emitter.out
}

/// The earliest timestamp of a thread's calls (0 when none has one).
fn earliest_time(records: &[Record]) -> i64 {
    records
        .iter()
        .skip(1)
        .flat_map(|r| [r.start, r.end])
        .filter(|&time| time >= 0)
        .min()
        .unwrap_or(0)
}

/// One thread's spans being emitted in call order.
struct Emitter<'e, 'r, 'n> {
    builder: &'e mut TraceBuilder,
    t: ThreadRef,
    namer: &'e mut Namer<'n>,
    now: i64,
    /// Nodes entered and not yet closed, outermost first.
    open: Vec<&'r Record>,
    out: Emitted,
}

impl<'r> Emitter<'_, 'r, '_> {
    /// Enters the node of `record` at `depth`, closing what it follows.
    fn enter(&mut self, record: &'r Record, depth: usize) {
        let untimed = self.out.untimed;
        let start = self.start_of(record, depth);
        let named = self
            .namer
            .name(self.builder, record.file_id, record.func_id)
            .clone();
        let flags = if record.start < 0 && !untimed {
            SPAN_START_REPAIRED
        } else {
            0
        };
        let span = self.builder.begin(self.t, start, named.name, flags);
        if !untimed {
            self.now = self.now.max(start);
        }
        for field in named.fields {
            self.builder.add_detail(self.t, span, field);
        }
        let (fields, garbage) = sync::details(named.symbol.as_deref(), record.extra);
        self.out.garbage_extras += garbage;
        for field in fields {
            self.builder.add_detail(self.t, span, field);
        }
        check_type(self.namer, record, &mut self.out);
        if record.end < 0 && !untimed {
            self.out.open.add(record.offset);
            if record.file_id < 0 {
                self.out.open_without_file += 1;
            }
        }
        self.open.push(record);
    }

    /// When the node of `record` starts, after closing the open nodes
    /// deeper than `depth`.
    fn start_of(&mut self, record: &Record, depth: usize) -> i64 {
        if self.out.untimed {
            while self.open.len() > depth {
                self.close(self.now, Some(self.now));
            }
            self.now += 1;
            return self.now - 1;
        }
        let start = if record.start >= 0 {
            record.start
        } else {
            self.out.start_missing.add(record.offset);
            self.now
        };
        while self.open.len() > depth {
            self.close(start, None);
        }
        start
    }

    /// Closes what returned; calls that never did (with every caller) stay
    /// open for the builder to draw to the thread's end.
    fn close_returned(&mut self) {
        while !self.open.is_empty() {
            if !self.out.untimed && self.open.iter().all(|r| r.end < 0) {
                break;
            }
            let untimed = self.out.untimed;
            let at = if untimed { self.now } else { i64::MIN };
            self.close(at, untimed.then_some(self.now));
            if untimed {
                self.now += 1;
            }
        }
    }

    fn close(&mut self, next: i64, clock: Option<i64>) {
        close_one(
            self.builder,
            self.t,
            &mut self.open,
            next,
            clock,
            &mut self.out,
        );
    }
}

/// Closes the innermost open node. `next` is when the following call
/// starts (an open node is cut there); `clock` is the made-up clock.
fn close_one(
    builder: &mut TraceBuilder,
    t: ThreadRef,
    open: &mut Vec<&Record>,
    next: i64,
    clock: Option<i64>,
    out: &mut Emitted,
) {
    let Some(record) = open.pop() else { return };
    if let Some(clock) = clock {
        builder.end(t, clock);
        return;
    }
    if record.end >= 0 {
        builder.end(t, record.end);
        return;
    }
    // Never returned, yet something after it did: end it at the nearest
    // known time (the next call's start, else its caller's end).
    let at = if next != i64::MIN {
        next
    } else {
        open.iter()
            .rev()
            .find(|r| r.end >= 0)
            .map_or(record.start, |r| r.end)
    };
    if let Some(span) = builder.end(t, at) {
        builder.add_flags(t, span, SPAN_OPEN_AT_END | SPAN_CUT);
    }
    out.open_cut.add(record.offset);
}

/// Counts records whose type byte disagrees with commonFuncId.json.
fn check_type(namer: &Namer, record: &Record, out: &mut Emitted) {
    let (Some(pthread), Some(semaphore)) = (
        namer.listed_as(record.func_id, false),
        namer.listed_as(record.func_id, true),
    ) else {
        return;
    };
    let agrees = match record.kind {
        Kind::Normal => !pthread && !semaphore,
        Kind::Pthread => pthread,
        Kind::Semaphore => semaphore,
    };
    if !agrees {
        out.type_mismatch.add(record.offset);
    }
}

/// Reports what emitting one thread file counted.
pub fn diagnose(builder: &mut TraceBuilder, file: &str, e: &Emitted) {
    if e.open.count > 0 {
        builder.diagnose(
            Severity::Info,
            "scaler-never-returned",
            Some(file),
            e.open.first_offset,
            e.open.count,
            || {
                format!(
                    "calls never returned before the tree was saved (end -1); they are drawn open to the thread's last timestamp ({} of them with fileID -1, which Scaler only sets on return)",
                    e.open_without_file
                )
            },
        );
    }
    if e.open_cut.count > 0 {
        builder.diagnose(
            Severity::DataLoss,
            "scaler-open-then-later-call",
            Some(file),
            e.open_cut.first_offset,
            e.open_cut.count,
            || "calls marked as never returned were followed by a later call or by a caller that returned; they are drawn up to that point".into(),
        );
    }
    if e.start_missing.count > 0 {
        builder.diagnose(
            Severity::DataLoss,
            "scaler-no-start",
            Some(file),
            e.start_missing.first_offset,
            e.start_missing.count,
            || {
                "calls have no start timestamp (-1); they are drawn from the previous known time"
                    .into()
            },
        );
    }
    if e.garbage_extras > 0 {
        builder.diagnose(
            Severity::Info,
            "scaler-unset-extra",
            Some(file),
            None,
            e.garbage_extras,
            || "extra fields that Scaler never sets (pthread_create's, the second field of everything but condition waits) hold leftover memory; they are not shown".into(),
        );
    }
    if e.type_mismatch.count > 0 {
        builder.diagnose(
            Severity::Info,
            "scaler-type-mismatch",
            Some(file),
            e.type_mismatch.first_offset,
            e.type_mismatch.count,
            || "records' type (NORMAL/PTHREAD/SEMAPHORE) disagrees with commonFuncId.json".into(),
        );
    }
    if e.untimed {
        builder.diagnose(
            Severity::Info,
            "scaler-untimed",
            Some(file),
            None,
            1,
            || "no call has a timestamp (as in Scaler's unit-test sample): calls are laid out in call order, one time unit each".into(),
        );
    }
}
