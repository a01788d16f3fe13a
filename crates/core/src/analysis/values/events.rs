//! From an event to the call it happened in and back: the innermost span of
//! the event's thread whose time holds the event's place in the recording
//! (spans of an omniscient SELogger trace are timed in event places), and
//! the first event of a span. The page keeps the selected event and the
//! selected call in step with them.

use crate::model::Trace;

/// The innermost span of `event`'s thread that holds it: `(thread, span)`.
pub fn span_of_event(trace: &Trace, event: u32) -> Option<(u32, u32)> {
    let log = &trace.event_log;
    let thread = log.thread_of(event as usize)?;
    let spans = &trace.threads.get(thread as usize)?.spans;
    let seq = log.seq_of(event as usize);
    let after = spans.start.partition_point(|&start| start <= seq);
    // Spans are in start order and nest: the latest-starting span that
    // still runs at `seq` is the innermost. One that ended before `seq`
    // rules out every span at its depth or deeper before it.
    let mut below = u16::MAX;
    for span in (0..after).rev() {
        let depth = spans.depth.get(span).copied().unwrap_or(0);
        if depth >= below {
            continue;
        }
        if spans.end.get(span).is_some_and(|&end| end > seq) {
            return Some((thread, span as u32));
        }
        below = depth;
        if depth == 0 {
            return None;
        }
    }
    None
}

/// The first event of span `span` of thread `thread`.
pub fn first_event_of_span(trace: &Trace, thread: u32, span: u32) -> Option<u32> {
    let log = &trace.event_log;
    let spans = &trace.threads.get(thread as usize)?.spans;
    let start = *spans.start.get(span as usize)?;
    let end = *spans.end.get(span as usize)?;
    let first = if log.seq.is_empty() {
        usize::try_from(start).ok()?
    } else {
        log.seq.partition_point(|&seq| seq < start)
    };
    (first..log.len())
        .take_while(|&event| log.seq_of(event) < end)
        .find(|&event| log.thread_of(event) == Some(thread))
        .map(|event| event as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Spans, Thread};

    /// Thread 0: a call [0, 6) holding a call [1, 3); thread 1 owns event 3.
    fn trace() -> Trace {
        let mut trace = Trace::default();
        for (thread, site) in [0, 0, 0, 1, 0, 0, 0].into_iter().zip(0..) {
            trace.event_log.push(site as i64, thread, site, 0);
        }
        let spans = Spans {
            start: vec![0, 1, 5],
            end: vec![5, 3, 7],
            depth: vec![0, 1, 0],
            name: vec![0, 0, 0],
            flags: vec![0, 0, 0],
            ..Spans::default()
        };
        trace.threads.push(Thread {
            spans,
            ..Thread::default()
        });
        trace.threads.push(Thread::default());
        trace
    }

    #[test]
    fn an_event_belongs_to_the_innermost_call_holding_it() {
        let trace = trace();
        assert_eq!(span_of_event(&trace, 0), Some((0, 0)));
        assert_eq!(span_of_event(&trace, 2), Some((0, 1)));
        assert_eq!(span_of_event(&trace, 4), Some((0, 0)));
        assert_eq!(span_of_event(&trace, 5), Some((0, 2)));
        assert_eq!(span_of_event(&trace, 3), None);
        assert_eq!(span_of_event(&trace, 99), None);
    }

    #[test]
    fn a_span_starts_at_its_first_event_of_its_thread() {
        let trace = trace();
        assert_eq!(first_event_of_span(&trace, 0, 1), Some(1));
        assert_eq!(first_event_of_span(&trace, 0, 2), Some(5));
        assert_eq!(first_event_of_span(&trace, 0, 9), None);
    }
}
