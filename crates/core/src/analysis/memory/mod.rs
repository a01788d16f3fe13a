//! Memory and resource analyses over one allocation resource (sp-rtrace's
//! memory, file descriptors, `FILE` streams and custom types; SWAP's memory
//! and file-descriptor probes): what `sp-rtrace-timeline`, the filters of
//! `sp-rtrace-postproc` and `rtrace-calltree` answer, for any time range.
//!
//! Every analysis takes the allocations a [`MemoryQuery`] selects
//! ([`select`]) and is pure: the CLI's `flamedrop memory`, the page's Memory
//! view and the tests call the same functions. Where sp-rtrace's own tools
//! define a number, the function's doc names the source file whose rule it
//! follows.
//!
//! The types and signatures below are what the page and the CLI build on;
//! each function's body lives in a small file of its own (`filters`,
//! `live`, `groups`, `rates`, `sizes`, `lifetimes`, `weightings`,
//! `summary`), whose doc gives the rule it follows and what "in range"
//! means for its numbers.

mod filters;
mod groups;
mod lifetimes;
mod live;
mod rates;
mod sizes;
mod summary;
mod weightings;

pub use filters::{allocation_index, context_passes};
pub use sizes::size_bucket;

use super::calltree::{CallTree, TimeRange};
use crate::model::Trace;
use serde::Serialize;

/// Which allocations an analysis looks at: `sp-rtrace-timeline`'s
/// `--filter-*` options and `sp-rtrace-postproc`'s `-C`, applied to one
/// resource (choosing the resource is the resource-type filter, `-R` /
/// `--filter-resource`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemoryFilter {
    /// Allocation size, both bounds included (`--filter-size=a-b`).
    pub size: Option<(u64, u64)>,
    /// Allocation time, both bounds included, in the trace's unit
    /// (`--filter-time`).
    pub time: Option<(i64, i64)>,
    /// Allocation index, both bounds included (`--filter-index=a-b`): the
    /// call index postproc prints for sp-rtrace, the allocation's ordinal
    /// (from 0) in its resource elsewhere.
    pub index: Option<(u64, u64)>,
    /// Context mask (`-C` / `--filter-context`): keeps an allocation whose
    /// context mask shares a bit with it; `Some(0)` keeps the allocations
    /// made outside every context. Formats without contexts keep all with
    /// `None` and none with `Some(mask != 0)`.
    pub context: Option<u32>,
    /// Keeps the allocations whose backtrace has a frame named exactly this
    /// (`--call-address` by function, `rtrace-graphs-function`).
    pub through: Option<String>,
}

/// One resource, a filter and the ruler's range.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemoryQuery {
    /// Index into `Trace::allocations`.
    pub resource: u32,
    pub filter: MemoryFilter,
    /// The ruler's range: every number is recomputed for it (see each
    /// function for what "in range" means there). `None`: the whole trace.
    pub range: Option<TimeRange>,
}

/// Why a query cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum MemoryError {
    /// The trace has no allocation resource of this index.
    NoResource(u32),
}

/// The allocations (indices into the resource's columns, ascending) that
/// pass the query's filter. The range is not applied here: each analysis
/// says what it does with it.
pub fn select(trace: &Trace, query: &MemoryQuery) -> Result<Vec<u32>, MemoryError> {
    filters::select(trace, query)
}

/// A moment the live blocks are listed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Moment {
    /// The time live bytes were highest (in the range).
    Peak,
    /// The end of the range, or of the trace.
    End,
    /// A given time in the trace's unit.
    At(i64),
}

/// Live bytes and blocks from `time` until the next point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LivePoint {
    pub time: i64,
    pub bytes: u64,
    pub blocks: u64,
}

/// Live (allocated, not yet freed) bytes and blocks over time.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LiveSeries {
    /// One point per time at which the selected allocations change what is
    /// live (several events at one time give one point), ascending; inside
    /// the range only, with a first point at the range's start carrying what
    /// was live then.
    pub points: Vec<LivePoint>,
    /// The first point with the highest bytes (sp-rtrace-timeline's peak
    /// marker, `totals_generator.cpp`).
    pub peak: LivePoint,
    /// What is live at the end of the range (of the trace without one).
    pub end: LivePoint,
}

/// Live bytes over time of the selected allocations (blocks allocated
/// before the range count while live inside it). A block is live at `t`
/// when allocated at or before `t` and freed after it; without a range the
/// end is the trace's end (what was never freed).
pub fn live_series(trace: &Trace, query: &MemoryQuery, selected: &[u32]) -> LiveSeries {
    live::live_series(trace, query, selected)
}

/// The selected allocations live at a moment (allocated at or before it,
/// freed after it), ascending.
pub fn live_at(trace: &Trace, query: &MemoryQuery, selected: &[u32], at: Moment) -> Vec<u32> {
    live::live_at(trace, query, selected, at)
}

/// The selected allocations made inside the query's range (all of them
/// without a range), ascending.
pub fn allocated_in_range(trace: &Trace, query: &MemoryQuery, selected: &[u32]) -> Vec<u32> {
    live::allocated_in(trace, query.resource, query.range, selected)
}

/// Allocations sharing one backtrace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StackGroup {
    /// Index into `Trace::stacks`.
    pub stack: u32,
    pub bytes: u64,
    pub blocks: u64,
}

/// `allocations` grouped by backtrace, most bytes first (ties: more
/// blocks, then lower stack index).
pub fn group_by_stack(trace: &Trace, resource: u32, allocations: &[u32]) -> Vec<StackGroup> {
    groups::group_by_stack(trace, resource, allocations)
}

/// What was allocated and freed in one time slice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RateSlice {
    /// `[start, end)` in the trace's unit.
    pub start: i64,
    pub end: i64,
    pub allocations: u64,
    pub allocated_bytes: u64,
    pub frees: u64,
    pub freed_bytes: u64,
}

/// Allocation and free counts per slice: the range (or the trace) cut into
/// `slices` equal slices; an allocation counts where it was made, a free
/// (with its block's size) where it happened.
pub fn rates(
    trace: &Trace,
    query: &MemoryQuery,
    selected: &[u32],
    slices: usize,
) -> Vec<RateSlice> {
    rates::rates(trace, query, selected, slices)
}

/// One power-of-two size bucket `[low, high)`; a size 0 block falls in
/// `[0, 1)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SizeBucket {
    pub low: u64,
    pub high: u64,
    pub freed_count: u64,
    pub live_count: u64,
    pub freed_bytes: u64,
    pub live_bytes: u64,
}

/// Size histogram of the selected allocations made in range, freed vs still
/// live at the range's end (sp-rtrace-timeline `-c` / `-s`,
/// `histogram_generator.cpp`); buckets from the smallest to the largest
/// size present, empty ones between included. The counts sum to the number
/// of allocations counted.
pub fn size_histogram(trace: &Trace, query: &MemoryQuery, selected: &[u32]) -> Vec<SizeBucket> {
    sizes::size_histogram(trace, query, selected)
}

/// One power-of-two lifetime bucket `[low, high)` in the trace's unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LifetimeBucket {
    pub low: i64,
    pub high: i64,
    pub count: u64,
}

/// How long the selected allocations made in range lived.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Lifetimes {
    /// Freed blocks, by lifetime.
    pub buckets: Vec<LifetimeBucket>,
    pub freed: u64,
    /// Blocks still live at the range's end (not in the buckets).
    pub live: u64,
    /// Of the freed blocks, in the trace's unit; `None` when none was freed.
    pub mean: Option<f64>,
    pub median: Option<i64>,
}

/// Lifetimes of the selected allocations made in range: a block freed by
/// the range's end lived from its allocation to its free.
pub fn lifetimes(trace: &Trace, query: &MemoryQuery, selected: &[u32]) -> Lifetimes {
    lifetimes::lifetimes(trace, query, selected)
}

/// `rtrace-calltree`'s weightings of an allocation graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Weighting {
    /// `--type=graph`: bytes.
    Bytes,
    /// `--type=count`: number of allocations.
    Count,
    /// `--type=topmost`: only the allocations of the `count` backtraces
    /// (`--depth`) whose highest allocated address is highest, by bytes
    /// (heap fragmentation).
    Topmost { count: u32 },
}

/// The call tree (root → outermost frame → … → allocating function) of
/// `allocations`, weighed as `rtrace-calltree` weighs them; the flame
/// graph, call tree and sandwich read it like any other tree.
pub fn call_tree(
    trace: &Trace,
    resource: u32,
    allocations: &[u32],
    weighting: Weighting,
) -> CallTree {
    weightings::call_tree(trace, resource, allocations, weighting)
}

/// Everything `flamedrop memory` prints and the Memory view shows, for one
/// query.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MemorySummary {
    /// The resource's name and unit (`memory`, `bytes`).
    pub resource: String,
    pub unit: String,
    /// How many allocations the filter kept, of how many.
    pub selected: u64,
    pub total: u64,
    pub series: LiveSeries,
    /// The moment asked for and the live blocks there, grouped.
    pub at: i64,
    pub live_groups: Vec<StackGroup>,
    pub sizes: Vec<SizeBucket>,
    pub lifetimes: Lifetimes,
    pub rates: Vec<RateSlice>,
    /// The allocator's bookkeeping bytes a live block costs beyond its
    /// size ([`allocator_overhead`]); 0 for resources without one.
    pub overhead_per_block: u64,
}

/// The bytes the allocator adds to each live block of `resource`, as
/// `sp-rtrace-timeline` draws its overhead line: 8 for `memory` (a malloc
/// chunk header), 0 for every other resource (`resource_registry.cpp`'s
/// overhead map; `totals_generator.cpp` adds `size + overhead` at each
/// allocation and takes it back at its free). So the overhead line at any
/// moment is `bytes + overhead × blocks`.
pub fn allocator_overhead(resource: &str) -> u64 {
    if resource == "memory" {
        8
    } else {
        0
    }
}

impl LivePoint {
    /// Live bytes with the allocator's overhead of each live block added.
    pub fn with_overhead(&self, per_block: u64) -> u64 {
        self.bytes
            .saturating_add(self.blocks.saturating_mul(per_block))
    }
}

/// The whole summary at one moment (`rates` in `slices` slices).
pub fn summarize(
    trace: &Trace,
    query: &MemoryQuery,
    at: Moment,
    slices: usize,
) -> Result<MemorySummary, MemoryError> {
    summary::summarize(trace, query, at, slices)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sp-rtrace-timeline's overhead map has 8 bytes for memory only, and
    /// the overhead line adds it once per live block.
    #[test]
    fn only_memory_has_an_allocator_overhead() {
        assert_eq!(allocator_overhead("memory"), 8);
        assert_eq!(allocator_overhead("file descriptor"), 0);
        let p = LivePoint {
            time: 3,
            bytes: 100,
            blocks: 4,
        };
        assert_eq!(p.with_overhead(8), 132);
        assert_eq!(p.with_overhead(0), 100);
    }
}
