//! The Memory view's model, without web types: what the view asks the core
//! (`analysis::memory`) for — the resource, the filter typed into its inputs,
//! the moment whose live blocks are listed ([`MemoryState`]) and the ruler's
//! range — and the pictures it draws as display lists ([`shapes`]): the live
//! bytes and blocks over time with the rates under them ([`chart`]) and the
//! size and lifetime histograms ([`histograms`]); and the flame-graph
//! sources of live and allocated blocks ([`sources`], with the view's filter
//! as [`filter_key`]). The canvas painter and the
//! SVG writer (`render::memory`, `render::memory_svg`) only draw these.

pub mod chart;
pub mod filter_key;
pub mod histograms;
pub mod inputs;
pub mod shapes;
pub mod sources;
#[cfg(test)]
pub(crate) mod tests_model;

use flamedrop_core::analysis::memory::{
    self, MemoryError, MemoryFilter, MemoryQuery, MemorySummary, Moment,
};
use flamedrop_core::model::Trace;

/// Slices the rates are counted in (one bar each under the chart).
pub const RATE_SLICES: usize = 60;

/// What the Memory view shows: kept in the page's `ViewState` so a script
/// (`flamedrop.memory()`) reads what the view shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryState {
    /// Index into `Trace::allocations` (the resource-type filter).
    pub resource: u32,
    pub filter: MemoryFilter,
    /// Whose live blocks the table lists (a click on the chart sets it).
    pub moment: Moment,
    /// The size histogram weighs buckets by bytes rather than by count.
    pub sizes_by_bytes: bool,
}

impl Default for MemoryState {
    fn default() -> Self {
        MemoryState {
            resource: 0,
            filter: MemoryFilter::default(),
            moment: Moment::Peak,
            sizes_by_bytes: false,
        }
    }
}

impl MemoryState {
    /// The core's query for this state within the ruler's `range`.
    pub fn query(&self, range: Option<(i64, i64)>) -> MemoryQuery {
        MemoryQuery {
            resource: self.resource,
            filter: self.filter.clone(),
            range,
        }
    }

    /// Every number of the view, for this state in `range`.
    pub fn summarize(
        &self,
        trace: &Trace,
        range: Option<(i64, i64)>,
    ) -> Result<MemorySummary, MemoryError> {
        memory::summarize(trace, &self.query(range), self.moment, RATE_SLICES)
    }

    /// This state with a resource the trace has (the first one otherwise).
    pub fn for_trace(&self, trace: &Trace) -> MemoryState {
        let mut state = self.clone();
        if state.resource as usize >= trace.allocations.len() {
            state.resource = 0;
        }
        state
    }
}

/// The time span the chart's axis covers: the ruler's range, else the
/// trace's (origin-relative times are measured from `origin`).
pub fn axis_span(trace: &Trace, range: Option<(i64, i64)>) -> (i64, i64) {
    let (a, b) = range.or_else(|| trace.time_range()).unwrap_or((0, 1));
    (a, b.max(a.saturating_add(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_carries_the_state_and_range() {
        let state = MemoryState {
            resource: 2,
            filter: MemoryFilter {
                size: Some((8, 64)),
                ..Default::default()
            },
            ..Default::default()
        };
        let q = state.query(Some((10, 20)));
        assert_eq!(q.resource, 2);
        assert_eq!(q.filter.size, Some((8, 64)));
        assert_eq!(q.range, Some((10, 20)));
        // A trace without that resource falls back to the first.
        assert_eq!(state.for_trace(&Trace::default()).resource, 0);
    }

    #[test]
    fn the_axis_is_the_range_or_the_trace() {
        let trace = Trace::default();
        assert_eq!(axis_span(&trace, Some((5, 9))), (5, 9));
        assert_eq!(axis_span(&trace, None), (0, 1));
        assert_eq!(axis_span(&trace, Some((7, 7))), (7, 8));
    }
}
