//! Perfetto flows: the causal links between slices that the trace keeps.
//!
//! Of the links our formats record, the model keeps one with both ends
//! known: Scaler's joins. A `pthread_join` family call's `joined thread`
//! detail is the `pthread_t` it waited for, and Scaler names each thread
//! by its `pthread_t`, so the joined thread's last top-level call flows
//! into the join. Both ends are bound to the slices' end events (the
//! thread's end releases the join, which returns after it; trace_processor
//! binds an end event's flows to the slice it ends): Perfetto takes
//! the earlier event of a flow as its source, and a join usually begins
//! before the thread it waits for ends.
//!
//! The links the model does not keep (so no flow is made for them):
//! uftrace's fork parent (`task.txt`'s `FORK ppid=`, read by the decoder
//! for sessions only), sp-rtrace's freeing thread (a free keeps only its
//! time), SWAP's thread probes (creator and created thread are told apart
//! only by a `pthread` detail that no fixture shows on both sides), and
//! Scaler's `pthread_create` (its fields are never set by the hook).

use crate::formats::scaler::sync::JOINED_THREAD;
use crate::model::{Format, Trace};
use std::collections::HashMap;

/// Flow ids per slice end: (thread index, span index) → (flows leaving,
/// flows ending there).
#[derive(Default)]
pub struct Flows {
    at_end: HashMap<(usize, usize), (Vec<u64>, Vec<u64>)>,
    /// Flows made so far (ids are 1, 2, …).
    count: u64,
}

impl Flows {
    /// The flows of `trace`.
    pub fn of(trace: &Trace) -> Flows {
        let mut flows = Flows::default();
        if trace.format == Some(Format::Scaler) {
            flows.add_scaler_joins(trace);
        }
        flows
    }

    /// The flows leaving and ending at the end of span `span` of thread
    /// `thread`.
    pub fn at_end(&self, thread: usize, span: usize) -> Option<&(Vec<u64>, Vec<u64>)> {
        self.at_end.get(&(thread, span))
    }

    fn link(&mut self, from: (usize, usize), to: (usize, usize)) {
        self.count += 1;
        let id = self.count;
        self.at_end.entry(from).or_default().0.push(id);
        self.at_end.entry(to).or_default().1.push(id);
    }

    /// Each join of a recorded thread: from that thread's last top-level
    /// call to the join.
    fn add_scaler_joins(&mut self, trace: &Trace) {
        let thread_of: HashMap<&str, usize> = trace
            .threads
            .iter()
            .enumerate()
            .map(|(t, thread)| (thread.id.as_str(), t))
            .collect();
        for (t, thread) in trace.threads.iter().enumerate() {
            let spans = &thread.spans;
            if spans.details.is_empty() {
                continue;
            }
            for (join, fields) in spans.details.grouped(&trace.strings) {
                let joined = fields
                    .iter()
                    .find(|f| f.key == JOINED_THREAD)
                    .and_then(|f| thread_of.get(f.value.as_str()).copied())
                    .filter(|&j| j != t);
                let Some(joined) = joined else { continue };
                let Some(last) = last_top_level(trace, joined) else {
                    continue;
                };
                let end_of = |t: usize, s: usize| {
                    let spans = &trace.threads.get(t)?.spans;
                    spans.end.get(s).copied()
                };
                let (Some(released), Some(returned)) =
                    (end_of(joined, last), end_of(t, join as usize))
                else {
                    continue;
                };
                if released <= returned {
                    self.link((joined, last), (t, join as usize));
                }
            }
        }
    }
}

/// The index of thread `t`'s last top-level span.
fn last_top_level(trace: &Trace, t: usize) -> Option<usize> {
    let depth = &trace.threads.get(t)?.spans.depth;
    depth.iter().rposition(|&d| d == 0)
}
