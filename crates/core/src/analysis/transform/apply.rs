//! Carrying out a stack of steps on a trace: each step in turn, on the
//! trace the previous step made. The first step reads the spans of the
//! trace it is given instead of copying them first (every step rebuilds the
//! spans of the threads it touches), so narrowing a big trace costs one
//! pass per step and one copy of what no step rebuilds.

use super::{firefox, uftrace, Narrowed, Step, StepError};
use crate::analysis::meter::{run_to_end, Meter};
use crate::model::{Spans, Thread, Trace};
use std::borrow::Cow;

/// The trace after every step of `steps`, in order.
pub fn apply(trace: &Trace, steps: &[Step]) -> Result<Narrowed, StepError> {
    run_to_end(apply_metered(trace, steps, Meter::unlimited()))
}

/// Carries out `more` steps on a trace `apply` (or this) already narrowed,
/// whose stack they continue from step index `first`: pushing one step on
/// the page costs that step alone, not the whole stack again.
pub fn apply_more(narrowed: Narrowed, more: &[Step], first: usize) -> Result<Narrowed, StepError> {
    run_to_end(apply_more_metered(
        narrowed,
        more,
        first,
        Meter::unlimited(),
    ))
}

/// [`apply`], pausing whenever `meter` is spent (see [`super::Narrowing`]).
pub(super) async fn apply_metered(
    trace: &Trace,
    steps: &[Step],
    meter: Meter,
) -> Result<Narrowed, StepError> {
    let mut notes = Vec::new();
    let Some((first, rest)) = steps.split_first() else {
        return Ok(Narrowed {
            trace: trace.clone(),
            notes,
        });
    };
    let mut copy = without_spans(trace);
    let spans: Vec<Cow<'_, Spans>> = trace
        .threads
        .iter()
        .map(|t| Cow::Borrowed(&t.spans))
        .collect();
    match first {
        Step::Uftrace(filter) => {
            let plan = uftrace::plan(trace, filter, 0)?;
            uftrace::filter_spans(&mut copy, spans, plan, filter, 0, &mut notes, &meter).await;
        }
        other => firefox::carry_out(&mut copy, spans, other, 0, &mut notes, &meter).await?,
    }
    let narrowed = Narrowed { trace: copy, notes };
    apply_more_metered(narrowed, rest, 1, meter).await
}

/// [`apply_more`], pausing whenever `meter` is spent.
pub(super) async fn apply_more_metered(
    mut narrowed: Narrowed,
    more: &[Step],
    first: usize,
    meter: Meter,
) -> Result<Narrowed, StepError> {
    for (offset, step) in more.iter().enumerate() {
        let index = first + offset;
        let (trace, notes) = (&mut narrowed.trace, &mut narrowed.notes);
        let plan = match step {
            Step::Uftrace(filter) => Some(uftrace::plan(trace, filter, index)?),
            _ => None,
        };
        let spans: Vec<Cow<'_, Spans>> = trace
            .threads
            .iter_mut()
            .map(|t| Cow::Owned(std::mem::take(&mut t.spans)))
            .collect();
        match (step, plan) {
            (Step::Uftrace(filter), Some(plan)) => {
                uftrace::filter_spans(trace, spans, plan, filter, index, notes, &meter).await
            }
            (other, _) => firefox::carry_out(trace, spans, other, index, notes, &meter).await?,
        }
    }
    Ok(narrowed)
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
            addresses: t.addresses.clone(),
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
        event_log: trace.event_log.clone(),
    }
}
