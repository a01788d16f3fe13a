//! [`summarize`](super::summarize): every number of one query at once, for
//! `flamedrop memory` and the Memory view.

use super::{live, MemoryError, MemoryQuery, MemorySummary, Moment};
use crate::model::Trace;

/// See [`super::summarize`].
pub(super) fn summarize(
    trace: &Trace,
    query: &MemoryQuery,
    at: Moment,
    slices: usize,
) -> Result<MemorySummary, MemoryError> {
    let selected = super::select(trace, query)?;
    let a = trace
        .allocations
        .get(query.resource as usize)
        .ok_or(MemoryError::NoResource(query.resource))?;
    let series = super::live_series(trace, query, &selected);
    let at_time = match at {
        Moment::At(time) => time,
        Moment::Peak => series.peak.time,
        Moment::End => series.end.time,
    };
    let live = live::live_at(trace, query, &selected, Moment::At(at_time));
    Ok(MemorySummary {
        resource: a.resource.clone(),
        unit: a.size_unit.clone(),
        selected: selected.len() as u64,
        total: a.len() as u64,
        at: at_time,
        live_groups: super::group_by_stack(trace, query.resource, &live),
        sizes: super::size_histogram(trace, query, &selected),
        lifetimes: super::lifetimes(trace, query, &selected),
        rates: super::rates(trace, query, &selected, slices),
        overhead_per_block: super::allocator_overhead(&a.resource),
        series,
    })
}
