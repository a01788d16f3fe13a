//! What uftrace replay's layout keeps per task: its `--column-view`
//! column, the level a forked child begins at, and the closing note on the
//! calls still open when the recording stopped.

use crate::model::{
    Thread, Trace, SPAN_ABANDONED, SPAN_OFF_CPU, SPAN_OPEN_AT_END, SPAN_START_REPAIRED,
};

/// Each thread's `--column-view` column: threads in the order of their
/// first record.
pub(super) fn columns(trace: &Trace) -> Vec<u16> {
    let first = |t: &Thread| {
        let span = t.spans.start.first().copied().unwrap_or(i64::MAX);
        span.min(t.instants.time.first().copied().unwrap_or(i64::MAX))
    };
    let mut order: Vec<usize> = (0..trace.threads.len()).collect();
    order.sort_by_key(|&t| trace.threads.get(t).map_or(i64::MAX, first));
    let mut column = vec![0u16; trace.threads.len()];
    for (at, t) in order.into_iter().enumerate() {
        if let Some(slot) = column.get_mut(t) {
            *slot = at as u16;
        }
    }
    column
}

/// uftrace's closing note on the calls still open when the recording
/// stopped: per task, innermost first.
pub(super) fn remaining_functions(trace: &Trace) -> Vec<String> {
    let mut lines = Vec::new();
    for lane in &trace.threads {
        let open: Vec<usize> = (0..lane.spans.len())
            .filter(|&s| {
                lane.spans
                    .flags
                    .get(s)
                    .is_some_and(|f| f & SPAN_OPEN_AT_END != 0 && f & SPAN_OFF_CPU == 0)
            })
            .collect();
        if open.is_empty() {
            continue;
        }
        // uftrace leaves out the frames at the bottom whose call it never
        // saw (address 0: a task whose records begin inside calls, as in a
        // time range) and counts the levels from the first it knows.
        let name_of = |s: usize| lane.spans.name.get(s).map_or("", |&id| trace.str(id));
        let unseen = open
            .iter()
            .take_while(|&&s| {
                name_of(s) == "<unknown>"
                    && lane
                        .spans
                        .flags
                        .get(s)
                        .is_some_and(|f| f & SPAN_START_REPAIRED != 0)
            })
            .count();
        if unseen == open.len() {
            continue;
        }
        if lines.is_empty() {
            lines.push(String::new());
            lines.push("uftrace stopped tracing with remaining functions".into());
            lines.push("================================================".into());
        }
        lines.push(format!("task: {}", lane.id));
        for &s in open.iter().skip(unseen).rev() {
            let depth = lane.spans.depth.get(s).copied().unwrap_or(0);
            let depth = usize::from(depth).saturating_sub(unseen);
            lines.push(format!("[{depth}] {}", name_of(s)));
        }
        lines.push(String::new());
    }
    lines
}

/// Every thread's base depth (1 up to a time). uftrace adds the level
/// only when the parent is listed too (`--tid` of the child alone does
/// not): when another thread has calls.
pub(super) fn base_depths(trace: &Trace) -> Vec<(u16, i64)> {
    let with_calls = trace.threads.iter().filter(|t| !t.spans.is_empty()).count();
    trace
        .threads
        .iter()
        .map(|t| {
            if with_calls > 1 {
                base_depth(t)
            } else {
                (0, i64::MIN)
            }
        })
        .collect()
}

/// A thread's base depth (1 up to a time): 1 when its first call's start
/// was repaired (it began inside it), up to the end of its first call left
/// by `exec` (its stack then starts anew).
fn base_depth(thread: &Thread) -> (u16, i64) {
    let flags = &thread.spans.flags;
    if flags.first().is_none_or(|f| f & SPAN_START_REPAIRED == 0) {
        return (0, i64::MIN);
    }
    let exec = (0..flags.len()).find(|&s| {
        let abandoned = flags.get(s).is_some_and(|f| f & SPAN_ABANDONED != 0);
        abandoned && thread.spans.depth.get(s) == Some(&0)
    });
    let until = exec.and_then(|s| thread.spans.end.get(s).copied());
    (1, until.unwrap_or(i64::MAX))
}
