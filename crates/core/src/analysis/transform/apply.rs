//! Carrying out a stack of steps on a trace: each step in turn, on the
//! trace the previous step made. The first step reads the spans of the
//! trace it is given instead of copying them first (every step rebuilds the
//! spans of the threads it touches), so narrowing a big trace costs one
//! pass per step and one copy of what no step rebuilds.

use super::{firefox, uftrace, Narrowed, Step, StepError};
use crate::model::{Spans, Thread, Trace};
use std::borrow::Cow;

/// The trace after every step of `steps`, in order.
pub fn apply(trace: &Trace, steps: &[Step]) -> Result<Narrowed, StepError> {
    let mut notes = Vec::new();
    let Some((first, rest)) = steps.split_first() else {
        return Ok(Narrowed {
            trace: trace.clone(),
            notes,
        });
    };
    let mut narrowed = match first {
        Step::Uftrace(filter) => {
            let mut copy = trace.clone();
            uftrace::apply_filter(&mut copy, filter, 0, &mut notes)?;
            copy
        }
        other => {
            let mut copy = without_spans(trace);
            let spans: Vec<Cow<'_, Spans>> = trace
                .threads
                .iter()
                .map(|t| Cow::Borrowed(&t.spans))
                .collect();
            firefox::carry_out(&mut copy, spans, other, 0, &mut notes)?;
            copy
        }
    };
    for (index, step) in rest.iter().enumerate() {
        let index = index + 1;
        match step {
            Step::Uftrace(filter) => {
                uftrace::apply_filter(&mut narrowed, filter, index, &mut notes)?
            }
            other => firefox::apply_transform(&mut narrowed, other, index, &mut notes)?,
        }
    }
    Ok(Narrowed {
        trace: narrowed,
        notes,
    })
}

/// A copy of `trace` whose threads have no spans (written by the first step).
fn without_spans(trace: &Trace) -> Trace {
    let threads = trace
        .threads
        .iter()
        .map(|t| Thread {
            id: t.id.clone(),
            name: t.name.clone(),
            process: t.process,
            events: t.events,
            spans: Spans::default(),
            instants: t.instants.clone(),
            first_time: t.first_time,
            last_time: t.last_time,
        })
        .collect();
    Trace {
        format: trace.format,
        time_unit: trace.time_unit,
        strings: trace.strings.clone(),
        processes: trace.processes.clone(),
        threads,
        diagnostics: trace.diagnostics.clone(),
        metadata: trace.metadata.clone(),
        stacks: trace.stacks.clone(),
        sample_sets: trace.sample_sets.clone(),
        allocations: trace.allocations.clone(),
        counters: trace.counters.clone(),
        tables: trace.tables.clone(),
    }
}
