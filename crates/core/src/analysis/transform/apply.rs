//! Carrying out a stack of steps on a trace: each step in turn, on a copy of
//! the trace that the next step reads.

use super::{firefox, uftrace, Narrowed, Step, StepError};
use crate::model::Trace;

/// The trace after every step of `steps`, in order.
pub fn apply(trace: &Trace, steps: &[Step]) -> Result<Narrowed, StepError> {
    let mut narrowed = Narrowed {
        trace: trace.clone(),
        notes: Vec::new(),
    };
    for (index, step) in steps.iter().enumerate() {
        match step {
            Step::Uftrace(filter) => {
                uftrace::apply_filter(&mut narrowed.trace, filter, index, &mut narrowed.notes)?
            }
            other => {
                firefox::apply_transform(&mut narrowed.trace, other, index, &mut narrowed.notes)?
            }
        }
    }
    Ok(narrowed)
}
