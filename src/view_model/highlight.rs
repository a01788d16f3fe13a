//! A highlight chosen from a table row: the span detail the row names (for
//! example `mutex = 0x55f7…`) and, per thread, the spans that carry it.
//! The chart paints those spans emphasised and dims the rest.

use flamedrop_core::model::{Field, Trace};

/// The spans that carry one detail field, found once when it is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub field: Field,
    /// Per thread (same order as `Trace::threads`): matching span indices, ascending.
    pub spans: Vec<Vec<u32>>,
}

impl Highlight {
    /// Finds every span of `trace` whose details contain `field`.
    pub fn new(trace: &Trace, field: Field) -> Highlight {
        let spans = trace
            .threads
            .iter()
            .map(|thread| thread.spans.details.owners_with(&field, &trace.strings))
            .collect();
        Highlight { field, spans }
    }

    /// True when span `span` of thread `thread` is highlighted.
    pub fn contains(&self, thread: usize, span: u32) -> bool {
        self.spans
            .get(thread)
            .is_some_and(|s| s.binary_search(&span).is_ok())
    }

    /// Highlighted spans over all threads.
    pub fn count(&self) -> usize {
        self.spans.iter().map(Vec::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};

    #[test]
    fn spans_carrying_the_field_are_found_in_every_thread() {
        let mut b = TraceBuilder::new(Format::Scaler, TimeUnit::Us);
        let p = b.process("1", "prog");
        let lock = b.intern("pthread_mutex_lock");
        for tid in ["a", "b"] {
            let t = b.thread(p, tid, "");
            for (i, mutex) in ["0x10", "0x20", "0x10"].iter().enumerate() {
                let s = b.begin(t, i as i64 * 10, lock, 0);
                b.add_detail(t, s, Field::new("mutex", *mutex));
                b.end(t, i as i64 * 10 + 5);
            }
        }
        let trace = b.finish();
        let h = Highlight::new(&trace, Field::new("mutex", "0x10"));
        assert_eq!(h.spans, vec![vec![0, 2], vec![0, 2]]);
        assert!(h.contains(1, 2) && !h.contains(1, 1) && !h.contains(5, 0));
        assert_eq!(h.count(), 4);
    }
}
