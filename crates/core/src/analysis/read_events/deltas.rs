//! Which call each `diff:` marker belongs to, and the per-call deltas.
//!
//! libmcount writes a call's `diff:<event>` with the call's exit timestamp,
//! right before its EXIT record, so it belongs to a span of its thread that
//! ends at that time. Two spans can end at the same nanosecond (a call and
//! the callee it returned from last); the one whose entry has a `read:` of
//! the same event (written with the entry timestamp, right after its ENTRY
//! record) is the one the trigger was on, and of several, the innermost
//! gets the first `diff:` (it exits first).

use super::{marker_names, marker_values, Phase, Quantity, ReadEvent};
use crate::model::{Thread, Trace, SPAN_OFF_CPU};
use std::collections::HashMap;

/// One value of one call's entry-to-exit difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallDelta {
    /// The span (index into its thread's spans).
    pub span: u32,
    pub quantity: Quantity,
    pub value: i64,
}

/// The deltas of every call that has them, per thread.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallDeltas {
    /// Per thread (same order as `Trace::threads`), ordered by span, then
    /// in the order of the event's fields.
    threads: Vec<Vec<CallDelta>>,
}

impl CallDeltas {
    /// True when no call has a delta.
    pub fn is_empty(&self) -> bool {
        self.threads.iter().all(Vec::is_empty)
    }

    /// Every delta of thread `thread`, ordered by span.
    pub fn thread(&self, thread: usize) -> &[CallDelta] {
        self.threads.get(thread).map_or(&[], Vec::as_slice)
    }

    /// The deltas of span `span` of thread `thread`.
    pub fn of(&self, thread: usize, span: u32) -> &[CallDelta] {
        let all = self.thread(thread);
        let from = all.partition_point(|d| d.span < span);
        let to = all.partition_point(|d| d.span <= span);
        all.get(from..to).unwrap_or_default()
    }

    /// The quantities some call has a delta of, in [`Quantity`] order.
    pub fn quantities(&self) -> Vec<Quantity> {
        let mut out: Vec<Quantity> = self.threads.iter().flatten().map(|d| d.quantity).collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A `diff:` marker and the call it belongs to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Matched {
    pub span: u32,
    pub event: ReadEvent,
    pub diff: u32,
    /// The `read:` marker at the call's entry, if there is one.
    pub read: Option<u32>,
}

/// The per-call deltas of every thread of `trace`.
pub fn call_deltas(trace: &Trace) -> CallDeltas {
    let Some(names) = marker_names(trace) else {
        return CallDeltas::default();
    };
    let threads = trace
        .threads
        .iter()
        .map(|thread| {
            let mut out: Vec<CallDelta> = Vec::new();
            for m in match_thread(thread, &names) {
                for (quantity, value) in
                    marker_values(trace, &thread.instants.details, m.diff, m.event)
                {
                    if let Some(value) = value {
                        out.push(CallDelta {
                            span: m.span,
                            quantity,
                            value,
                        });
                    }
                }
            }
            out.sort_by_key(|d| d.span);
            out
        })
        .collect();
    CallDeltas { threads }
}

/// Each `diff:` marker of `thread` with its call, in marker order; a
/// marker with no span ending at its time is left out.
pub(super) fn match_thread(thread: &Thread, names: &[Option<(Phase, ReadEvent)>]) -> Vec<Matched> {
    let instants = &thread.instants;
    let marker = |i: usize| {
        instants
            .name
            .get(i)
            .and_then(|&n| names.get(n as usize).copied().flatten())
    };
    let mut diffs: Vec<(u32, i64, ReadEvent)> = Vec::new();
    let mut reads: HashMap<(i64, ReadEvent), u32> = HashMap::new();
    for (i, &time) in instants.time.iter().enumerate() {
        match marker(i) {
            Some((Phase::Diff, event)) => diffs.push((i as u32, time, event)),
            Some((Phase::Read, event)) => {
                reads.entry((time, event)).or_insert(i as u32);
            }
            None => {}
        }
    }
    if diffs.is_empty() {
        return Vec::new();
    }
    let ending = spans_ending_at(thread, diffs.iter().map(|d| d.1));
    // Per (time, event), the candidates not yet given a marker.
    let mut left: HashMap<(i64, ReadEvent), Vec<u32>> = HashMap::new();
    let mut out = Vec::with_capacity(diffs.len());
    for (diff, time, event) in diffs {
        let queue = left.entry((time, event)).or_insert_with(|| {
            candidates(thread, ending.get(&time).map_or(&[], Vec::as_slice), |s| {
                reads.contains_key(&(s, event))
            })
        });
        if queue.is_empty() {
            continue;
        }
        let span = queue.remove(0);
        let start = thread.spans.start.get(span as usize).copied();
        out.push(Matched {
            span,
            event,
            diff,
            read: start.and_then(|s| reads.get(&(s, event)).copied()),
        });
    }
    out
}

/// The calls (not off-CPU spans) of `thread` ending at each of `times`.
fn spans_ending_at(thread: &Thread, times: impl Iterator<Item = i64>) -> HashMap<i64, Vec<u32>> {
    let mut ending: HashMap<i64, Vec<u32>> = times.map(|t| (t, Vec::new())).collect();
    let spans = &thread.spans;
    for (i, (&end, &flags)) in spans.end.iter().zip(&spans.flags).enumerate() {
        if flags & SPAN_OFF_CPU != 0 {
            continue;
        }
        if let Some(list) = ending.get_mut(&end) {
            list.push(i as u32);
        }
    }
    ending
}

/// `spans` in the order they take markers: those whose entry has a `read:`
/// of the event first, innermost first within each kind.
fn candidates(thread: &Thread, spans: &[u32], has_read: impl Fn(i64) -> bool) -> Vec<u32> {
    let mut keyed: Vec<(bool, std::cmp::Reverse<u16>, u32)> = spans
        .iter()
        .map(|&s| {
            let start = thread
                .spans
                .start
                .get(s as usize)
                .copied()
                .unwrap_or(i64::MIN);
            let depth = thread.spans.depth.get(s as usize).copied().unwrap_or(0);
            (!has_read(start), std::cmp::Reverse(depth), s)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, _, s)| s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Field, Format, TimeUnit, TraceBuilder};

    /// main(0..100) calling work(10..100): both return at 100. `reads`
    /// says which of them had a `read:page-fault` at entry; `diffs` are
    /// the minor-fault values of the `diff:` markers at 100, in order.
    fn same_exit(reads: [bool; 2], diffs: &[&str]) -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let (main, work) = (b.intern("main"), b.intern("work"));
        let (read, diff) = (b.intern("read:page-fault"), b.intern("diff:page-fault"));
        let faults = |minor: &str| {
            vec![
                Field::new("major faults", "0"),
                Field::new("minor faults", minor),
            ]
        };
        b.begin(t, 0, main, 0);
        if reads[0] {
            b.instant(t, 0, read, faults("1"));
        }
        b.begin(t, 10, work, 0);
        if reads[1] {
            b.instant(t, 10, read, faults("1"));
        }
        for d in diffs {
            b.instant(t, 100, diff, faults(d));
        }
        b.end(t, 100);
        b.end(t, 100);
        b.finish()
    }

    fn minor_by_span(trace: &Trace) -> Vec<(u32, i64)> {
        call_deltas(trace)
            .thread(0)
            .iter()
            .filter(|d| d.quantity == Quantity::MinorFaults)
            .map(|d| (d.span, d.value))
            .collect()
    }

    #[test]
    fn a_diff_goes_to_the_call_whose_entry_was_read() {
        // Only main was triggered: its diff is not work's, though work
        // ends at the same time and is deeper.
        assert_eq!(
            minor_by_span(&same_exit([true, false], &["7"])),
            vec![(0, 7)]
        );
        assert_eq!(
            minor_by_span(&same_exit([false, true], &["7"])),
            vec![(1, 7)]
        );
    }

    #[test]
    fn of_two_triggered_calls_ending_together_the_inner_exits_first() {
        let trace = same_exit([true, true], &["3", "9"]);
        assert_eq!(minor_by_span(&trace), vec![(0, 9), (1, 3)]);
    }

    #[test]
    fn a_diff_with_no_call_ending_there_is_left_out() {
        let mut trace = same_exit([true, false], &["7"]);
        trace.threads[0].instants.time[1] = 50;
        assert!(call_deltas(&trace).is_empty());
    }
}
