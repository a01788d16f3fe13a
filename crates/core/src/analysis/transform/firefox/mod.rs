//! Firefox Profiler's call-tree transforms on spans, sample sets and
//! allocation stacks.

use super::{Step, StepError, StepNote};
use crate::model::Trace;

/// Carries out `step` (any step but [`Step::Uftrace`]) on `trace`.
pub(super) fn apply_transform(
    _trace: &mut Trace,
    _step: &Step,
    step: usize,
    _notes: &mut Vec<StepNote>,
) -> Result<(), StepError> {
    Err(StepError {
        step,
        message: "transforms are not carried out yet".into(),
    })
}
