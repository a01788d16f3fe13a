//! One thread's walk for the span listing's index: its entries, exits and
//! markers in the order uftrace reads their records (an exit before the
//! next call at its depth or above; a marker at an exit's time before it,
//! unless the layout says it follows the exits).

use crate::model::{Thread, SPAN_ABANDONED, SPAN_CUT, SPAN_OPEN_AT_END};

/// The flags of a span whose exit record does not exist.
pub(super) const NO_EXIT: u8 = SPAN_OPEN_AT_END | SPAN_CUT | SPAN_ABANDONED;

/// Where a thread's walk stands.
#[derive(Default)]
pub(super) struct Walk {
    next_span: usize,
    next_marker: usize,
    /// Open spans, outermost first.
    pub(super) open: Vec<u32>,
    pending: Option<(i64, Step)>,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    Entry(u32),
    Exit(u32),
    Marker(u32),
}

impl Walk {
    pub(super) fn time(&self) -> Option<i64> {
        self.pending.map(|(time, _)| time)
    }

    pub(super) fn take(&mut self) -> Option<Step> {
        self.pending.take().map(|(_, step)| step)
    }

    /// Finds the thread's next step (entry, exit or marker).
    /// `follows_exits(m)`: marker `m` comes after the exits at its time.
    pub(super) fn advance(&mut self, thread: &Thread, follows_exits: impl Fn(u32) -> bool) {
        let spans = &thread.spans;
        let instants = &thread.instants;
        let next_start = spans.start.get(self.next_span).copied();
        let next_depth = spans.depth.get(self.next_span).copied();
        let marker_time = instants.time.get(self.next_marker).copied();
        // The innermost open span closes first if it ends before what comes
        // next, or if the next call is at its depth or above.
        if let Some(&top) = self.open.last() {
            let top_end = spans.end.get(top as usize).copied().unwrap_or(i64::MAX);
            let top_depth = spans.depth.get(top as usize).copied().unwrap_or(0);
            let call_outside = next_depth.is_some_and(|d| d <= top_depth);
            let before_call = next_start.is_none_or(|s| top_end <= s) || call_outside;
            // A marker at the very time of an exit comes first: uftrace
            // writes an exit trigger's events (`diff:…`) before the exit,
            // unless the layout says otherwise (a LOST record).
            let recorded = spans
                .flags
                .get(top as usize)
                .is_some_and(|f| f & NO_EXIT == 0);
            let before_marker = marker_time.is_none_or(|m| {
                top_end < m || (top_end == m && recorded && follows_exits(self.next_marker as u32))
            });
            if before_call && before_marker {
                self.open.pop();
                self.pending = Some((top_end, Step::Exit(top)));
                return;
            }
        }
        match (next_start, marker_time) {
            (Some(start), marker) if marker.is_none_or(|m| start <= m) => {
                let span = self.next_span as u32;
                self.next_span += 1;
                self.open.push(span);
                self.pending = Some((start, Step::Entry(span)));
            }
            (_, Some(time)) => {
                let marker = self.next_marker as u32;
                self.next_marker += 1;
                self.pending = Some((time, Step::Marker(marker)));
            }
            _ => self.pending = None,
        }
    }
}
