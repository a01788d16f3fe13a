//! uftrace's per-task function stack (`utils/fstack.c`: `fstack_account_time`,
//! `fstack_entry`, `fstack_exit`, `fstack_check_filter`; `cmds/report.c`:
//! `build_function_tree`, `add_remaining_fstack`), replayed over the records
//! that reading kept. It decides which calls `uftrace report` counts and with
//! which total and self time:
//!
//! - every record read adds its call's time to the caller's child time,
//!   whether the call is shown or not — so a call dropped by `-N`, `-H` or
//!   `-D` still counts as a child (its caller's self time does not grow),
//!   while a call never read (`-t`, `-C`, `-r`) leaves its time in the
//!   caller's self time;
//! - `-F` / `-N` count nesting (`in_count` / `out_count`), `-D` is a budget
//!   that a `-F` function restores and a hidden (`-H`) call does not spend;
//! - stack slots are indexed by uftrace's own stack count, which the first
//!   record of a task sets from the record's depth (a context switch says
//!   depth 0): a task first read in the middle of a call (`-r`) gets the
//!   numbers uftrace prints for it, odd as they may be.

use super::records::{Kind, Record};
use crate::model::{Spans, SPAN_ABANDONED, SPAN_OPEN_AT_END};

/// [`Fstack::self_time`] of a span uftrace does not report.
pub const NOT_REPORTED: i64 = i64::MIN;

/// uftrace's default depth limit (`OPT_DEPTH_DEFAULT`).
pub const DEFAULT_DEPTH: i32 = 1024;

/// A slot's function is not known (uftrace's address 0).
const UNSET: u32 = u32::MAX;

const FILTERED: u8 = 1;
const NOTRACE: u8 = 2;
const NORECORD: u8 = 4;

/// Per string id: what the filter table says about a function.
pub const NAME_IN: u8 = 1;
pub const NAME_OUT: u8 = 2;
pub const NAME_HIDE: u8 = 4;

/// The options the stack replay needs.
pub struct Settings<'a> {
    /// Per string id, `NAME_*` bits.
    pub name_flags: &'a [u8],
    /// A `-F` function exists: calls outside every `-F` subtree go.
    pub filter_in: bool,
    /// `-D` (or the default).
    pub depth: i32,
    /// `-C` was given: context switches are not reported.
    pub no_sched: bool,
    /// uftrace's `event_skip_out`: a context switch with no function on the
    /// (counted) stack is not reported. Only for uftrace traces: there the
    /// decoder keeps no such span, so it only matters once `-r` started a
    /// task mid-call; other formats' off-CPU spans stand on their own.
    pub skip_events_outside: bool,
    /// `-r`'s end as uftrace keeps it (in the trace's unit; an elapsed end
    /// stays a small number, as in uftrace), for calls still open at the end.
    pub range_stop: Option<i64>,
    /// The name uftrace prints for a call it never saw enter (`<0>`, the
    /// symbol at address 0), when one can be reported.
    pub unknown_name: u32,
}

/// One call as `uftrace report` counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported {
    /// The span of the exit (or of the slot, for a call still open at the end).
    pub span: u32,
    /// The name reported (the exit's function; a context switch's kind).
    pub name: u32,
    pub end: i64,
    pub total: i64,
    pub self_time: i64,
}

#[derive(Clone, Copy)]
struct Slot {
    addr: u32,
    span: u32,
    /// Start time while open, duration once closed (as uftrace's `total_time`).
    total: i64,
    child: i64,
    valid: bool,
    flags: u8,
    orig_depth: i32,
}

/// The replay state of one task.
pub struct Fstack<'a> {
    settings: &'a Settings<'a>,
    spans: &'a Spans,
    slots: Vec<Slot>,
    count: usize,
    /// uftrace's `user_stack_count`: function records only.
    user_count: usize,
    set: bool,
    in_count: i32,
    out_count: i32,
    depth: i32,
    last_time: i64,
    /// Where the decoder ended the calls still open at the end (uftrace's
    /// last record of the task, perf events included).
    open_end: Option<i64>,
    /// Calls that never return (abandoned) whose entry passed the filters:
    /// drawn, not counted.
    pub entered: Vec<u32>,
    /// Per span, the self time uftrace reports for it when it reports the
    /// span as it is (its own start, end and name); `NOT_REPORTED` else.
    pub self_time: Vec<i64>,
    /// Calls reported otherwise (another length, twice, as a slot's kind):
    /// only where uftrace's stack was entered mid-way.
    pub odd: Vec<Reported>,
}

impl<'a> Fstack<'a> {
    /// The replay of `spans` (whose taken self time, from earlier steps,
    /// counts as child time).
    pub fn new(settings: &'a Settings<'a>, spans: &'a Spans) -> Self {
        Fstack {
            settings,
            spans,
            slots: Vec::new(),
            count: 0,
            user_count: 0,
            set: false,
            in_count: 0,
            out_count: 0,
            depth: settings.depth,
            last_time: 0,
            open_end: None,
            entered: Vec::new(),
            // Filled as the replay reaches the spans (`reach`): the pages
            // are touched a slice at a time, not all in one.
            self_time: Vec::with_capacity(spans.len()),
            odd: Vec::new(),
        }
    }

    #[inline]
    fn slot(&mut self, index: usize) -> &mut Slot {
        if self.slots.len() <= index {
            self.grow(index);
        }
        &mut self.slots[index]
    }

    /// Room for slot `index` (the stack is deeper than ever before).
    #[cold]
    fn grow(&mut self, index: usize) {
        let empty = Slot {
            addr: UNSET,
            span: u32::MAX,
            total: 0,
            child: 0,
            valid: false,
            flags: 0,
            orig_depth: self.settings.depth,
        };
        self.slots.resize(index + 1, empty);
    }

    /// Fills [`Fstack::self_time`] up to span `span` (records come in span
    /// order, so a record or two at a time).
    #[inline]
    fn reach(&mut self, span: usize) {
        if self.self_time.len() <= span && span < self.spans.len() {
            self.self_time.resize(span + 1, NOT_REPORTED);
        }
    }

    fn name_of(&self, span: u32) -> u32 {
        self.spans.name.get(span as usize).copied().unwrap_or(UNSET)
    }

    /// One record read.
    pub fn read(&mut self, r: Record) {
        self.reach(r.span as usize);
        self.last_time = r.time;
        self.account(r);
        if r.sched {
            // uftrace skips events outside every function (`event_skip_out`,
            // on by default) and, with `-C`, every context switch.
            let outside = self.user_count == 0 && self.settings.skip_events_outside;
            if !outside && !self.settings.no_sched {
                self.report_sched(r);
            }
            return;
        }
        if r.kind == Kind::Entry {
            self.user_count += 1;
        } else {
            self.user_count = self.user_count.saturating_sub(1);
        }
        match r.kind {
            Kind::Entry => {
                let abandons = self.spans.flags.get(r.span as usize).copied().unwrap_or(0)
                    & SPAN_ABANDONED
                    != 0;
                if self.entry() && abandons {
                    self.entered.push(r.span);
                }
            }
            Kind::Exit => self.exit(r),
            Kind::Abandon => self.leave(),
        }
    }

    /// `fstack_account_time` and the stack count update after it.
    fn account(&mut self, r: Record) {
        let is_exit = r.kind != Kind::Entry;
        let flags = self.spans.flags.get(r.span as usize).copied().unwrap_or(0);
        if !is_exit && flags & SPAN_OPEN_AT_END != 0 {
            let end = self.spans.end.get(r.span as usize).copied();
            self.open_end = self.open_end.max(end);
        }
        if !self.set {
            self.count = usize::from(r.depth) + usize::from(is_exit);
            let mut ancestor = r.span;
            for i in (0..self.count).rev() {
                // The span open at depth `i` around the first record.
                let from = if i == usize::from(r.depth) && is_exit {
                    r.span
                } else {
                    ancestor = self.ancestor(ancestor, i);
                    ancestor
                };
                let s = self.slot(i);
                s.total = r.time;
                s.child = 0;
                s.valid = true;
                s.span = from;
            }
            self.set = true;
            self.depth = self.settings.depth;
        }
        if !is_exit {
            let name = self.name_of(r.span);
            let at = self.count;
            let s = self.slot(at);
            s.addr = name;
            s.span = r.span;
            s.total = r.time;
            s.child = 0;
            s.valid = true;
            self.count += 1;
            return;
        }
        if self.count == 0 {
            return;
        }
        let idx = self.count - 1;
        let taken = self.spans.taken_self(r.span as usize);
        let abandon = r.kind == Kind::Abandon;
        let s = self.slot(idx);
        let mut delta = r.time - s.total;
        if !s.valid {
            delta = 0;
        }
        s.valid = false;
        s.total = delta;
        s.child = (s.child + taken).min(delta);
        if idx > 0 && !abandon {
            self.slots[idx - 1].child += delta;
        }
        self.count -= 1;
    }

    /// The last span before `span` at depth `depth` (its ancestor there).
    fn ancestor(&self, span: u32, depth: usize) -> u32 {
        let depths = &self.spans.depth;
        (0..span as usize)
            .rev()
            .find(|&j| depths.get(j).is_some_and(|&d| usize::from(d) == depth))
            .map_or(u32::MAX, |j| j as u32)
    }

    /// `fstack_entry`: true when the call is shown.
    fn entry(&mut self) -> bool {
        let Some(at) = self.count.checked_sub(1) else {
            return false;
        };
        let name = self.slots.get(at).map_or(UNSET, |s| s.addr);
        let flags = self
            .settings
            .name_flags
            .get(name as usize)
            .copied()
            .unwrap_or(0);
        let depth = self.depth;
        let s = self.slot(at);
        s.orig_depth = depth;
        s.flags = 0;
        if self.out_count > 0 {
            self.slots[at].flags |= NORECORD;
            return false;
        }
        if flags & NAME_IN != 0 {
            self.in_count += 1;
            self.slots[at].flags |= FILTERED;
            self.depth = self.settings.depth;
        } else if flags & NAME_OUT != 0 {
            self.out_count += 1;
            self.slots[at].flags |= NOTRACE | NORECORD;
            return false;
        } else if self.settings.filter_in && self.in_count == 0 {
            self.slots[at].flags |= NORECORD;
            return false;
        }
        if self.depth <= 0 || flags & NAME_HIDE != 0 {
            self.slots[at].flags |= NORECORD;
            return false;
        }
        self.depth -= 1;
        true
    }

    /// `fstack_check_filter` on an exit, the report, then `fstack_exit`.
    fn exit(&mut self, r: Record) {
        let at = self.count;
        let flags = self.slot(at).flags;
        if flags & NORECORD == 0 {
            let name = self.name_of(r.span);
            self.report(at, r.span, name, r.time);
        }
        self.leave();
    }

    /// `fstack_exit`.
    fn leave(&mut self) {
        let at = self.count;
        let s = *self.slot(at);
        if s.flags & FILTERED != 0 {
            self.in_count -= 1;
        } else if s.flags & NOTRACE != 0 {
            self.out_count -= 1;
        }
        self.slots[at].flags = 0;
        self.depth = s.orig_depth;
    }

    /// A context switch back in is counted as a call of the slot's kind.
    fn report_sched(&mut self, r: Record) {
        if r.kind == Kind::Entry {
            return;
        }
        if self.out_count > 0 || self.depth <= 0 || (self.settings.filter_in && self.in_count == 0)
        {
            return;
        }
        let at = self.count;
        let addr = self.slot(at).addr;
        if addr != UNSET {
            self.report(at, r.span, addr, r.time);
        }
    }

    fn report(&mut self, at: usize, span: u32, name: u32, end: i64) {
        let s = *self.slot(at);
        let at_span = span as usize;
        let as_it_is = self.spans.start.get(at_span).map(|&start| end - start) == Some(s.total)
            && self.spans.end.get(at_span) == Some(&end)
            && self.spans.name.get(at_span) == Some(&name);
        self.reach(at_span);
        match self.self_time.get_mut(at_span) {
            Some(slot) if as_it_is && *slot == NOT_REPORTED => *slot = s.total - s.child,
            _ => self.odd.push(Reported {
                span,
                name,
                end,
                total: s.total,
                self_time: s.total - s.child,
            }),
        }
    }

    /// `add_remaining_fstack`: calls still open when the task's data ends
    /// are counted up to its last record (or to `-r`'s end as uftrace
    /// keeps it), shown or not.
    pub fn finish(&mut self) {
        self.self_time.resize(self.spans.len(), NOT_REPORTED);
        let last = self
            .settings
            .range_stop
            .unwrap_or(self.last_time.max(self.open_end.unwrap_or(i64::MIN)));
        while self.count > 0 {
            self.count -= 1;
            let at = self.count;
            let s = *self.slot(at);
            if s.total > last {
                continue;
            }
            let total = (last - s.total).max(s.child);
            self.slots[at].total = total;
            if at > 0 {
                self.slots[at - 1].child += total;
            }
            let name = if s.addr == UNSET {
                self.settings.unknown_name
            } else {
                s.addr
            };
            if s.span != u32::MAX && name != UNSET {
                self.report(at, s.span, name, last);
            }
        }
    }
}
