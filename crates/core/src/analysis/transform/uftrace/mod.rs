//! uftrace's filter options carried out as `uftrace replay` and `report`
//! carry them out.

use super::{StepError, StepNote, UftraceFilter};
use crate::model::Trace;

/// Narrows `trace` by one line of uftrace options (step `step` of the stack).
pub(super) fn apply_filter(
    _trace: &mut Trace,
    _filter: &UftraceFilter,
    step: usize,
    _notes: &mut Vec<StepNote>,
) -> Result<(), StepError> {
    Err(StepError {
        step,
        message: "uftrace filters are not carried out yet".into(),
    })
}
