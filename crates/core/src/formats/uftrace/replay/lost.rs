//! The stack around a LOST record, as uftrace v0.13 keeps it
//! (`utils/fstack.c` `fstack_account_time()`, `cmds/report.c`
//! `add_lost_fstack()`):
//!
//! - At the LOST record uftrace closes only the stack slots from its count of
//!   user calls (`user_stack_count`) up to the slot above the top: normally
//!   just that slot, the last finished call at that depth, which is counted
//!   again (1 ns) only when it still holds a call that never returned.
//!   Every call that is open stays open, with its start.
//! - The next record (a perf context switch counts as a record at depth 0)
//!   sets the depth again: calls below it are kept and return with their
//!   full time; calls above it are dropped without being counted, but their
//!   slots keep them (a later loss can find them there); the slots from
//!   `user_stack_count` up (as many as the record's depth + 1) restart at
//!   the record's time - 1. A call that the new depth opens in a slot whose
//!   last call returned counts 0 ns when it returns.

use super::{RecordingState, TaskStream};
use crate::model::{StrId, SPAN_ABANDONED, SPAN_CUT, SPAN_START_REPAIRED};

/// A stack slot above the stack that still holds a call which never
/// returned (uftrace's `valid` flag): its start and name.
#[derive(Clone, Copy, Debug)]
pub(super) struct StaleCall {
    pub(super) start: i64,
    pub(super) name: StrId,
}

impl TaskStream {
    /// A LOST record: what uftrace closes at once.
    pub(super) fn lost(&mut self, rec: &mut RecordingState) {
        if self.lost_seen {
            return; // uftrace skips a LOST right after a LOST
        }
        self.lost_seen = true;
        let t = self.thread;
        if self.sched_open {
            rec.builder.end(t, self.last_time);
            self.sched_open = false;
        }
        if rec.builder.depth(t) + (self.hidden as usize) < self.user_count {
            return; // no slot from `user_stack_count` up to the top
        }
        // Open calls from `user_stack_count` up are counted with the time
        // they ran (uftrace's own arithmetic wraps around here).
        rec.builder
            .cut_to(t, self.user_count, self.last_time, SPAN_CUT);
        let above = rec.builder.depth(t);
        if let Some(stale) = self.stale.get_mut(above).and_then(Option::take) {
            rec.builder.begin(t, self.last_time, stale.name, SPAN_CUT);
            rec.builder.end(t, self.last_time + 1);
            self.set_stale(above, stale);
        }
    }

    /// The first record after a LOST sets the stack to `depth` slots;
    /// `record_depth` and `time` are the record's.
    pub(super) fn rebase_after_lost(
        &mut self,
        depth: usize,
        record_depth: usize,
        time: i64,
        rec: &mut RecordingState,
    ) {
        let t = self.thread;
        self.lost_seen = false;
        self.hidden = 0;
        if self.sched_open {
            rec.builder.end(t, self.last_time);
            self.sched_open = false;
        }
        let restart = time.saturating_sub(1);
        let reset = self.user_count..=self.user_count + record_depth;
        let open = rec.builder.depth(t);
        // Calls above the new depth are dropped but stay in their slots.
        for (level, call) in self.drop_to(depth, rec) {
            if !self.zero_levels.contains(&level) {
                self.set_stale(level, call);
            }
        }
        self.zero_levels.retain(|&l| l < depth);
        // Kept calls whose slot restarts begin again at `restart`.
        let kept = open.min(depth);
        if let Some(first) = (0..kept).find(|l| reset.contains(l)) {
            for (_, call) in self.drop_to(first, rec) {
                rec.builder
                    .begin(t, restart, call.name, SPAN_START_REPAIRED);
            }
        }
        // Slots the new depth opens: a call that never returned (restarted
        // or not), or an empty slot whose return will count 0 ns.
        for level in kept..depth.min(rec.info.max_stack as usize) {
            let stale = self.stale.get_mut(level).and_then(Option::take);
            let last = self.entered.get(level).copied().unwrap_or(rec.unknown);
            let name = stale.map_or(last, |s| s.name);
            let start = match stale {
                Some(_) if reset.contains(&level) => restart,
                Some(s) => s.start,
                None => {
                    self.zero_levels.push(level);
                    restart
                }
            };
            rec.builder.begin(t, start, name, SPAN_START_REPAIRED);
        }
        // Slots above the stack that restart keep their call with a new start.
        for level in reset {
            if let Some(Some(stale)) = self.stale.get_mut(level) {
                stale.start = restart;
            }
        }
    }

    /// Closes the open calls above `depth` as abandoned at the last record's
    /// time; their levels, starts and names, outermost first.
    fn drop_to(&mut self, depth: usize, rec: &mut RecordingState) -> Vec<(usize, StaleCall)> {
        let t = self.thread;
        let mut dropped = Vec::new();
        while rec.builder.depth(t) > depth {
            let level = rec.builder.depth(t) - 1;
            let Some(span) = rec.builder.end(t, self.last_time) else {
                break;
            };
            rec.builder.add_flags(t, span, SPAN_CUT | SPAN_ABANDONED);
            if let (Some((name, _)), Some((start, _))) = (
                rec.builder.span_info(t, span),
                rec.builder.span_times(t, span),
            ) {
                dropped.push((level, StaleCall { start, name }));
            }
        }
        dropped.reverse();
        dropped
    }

    fn set_stale(&mut self, level: usize, call: StaleCall) {
        if self.stale.len() <= level {
            self.stale.resize(level + 1, None);
        }
        if let Some(slot) = self.stale.get_mut(level) {
            *slot = Some(call);
        }
    }
}
