//! [`select`](super::select): the allocations of one resource that pass a
//! [`MemoryFilter`], with the rules of `sp-rtrace-timeline`'s filters
//! (`src/rtrace-timeline/filter.h`, `options.cpp`) and `sp-rtrace-postproc`'s
//! `-C` (`src/rtrace-postproc/filter.c`), applied to allocations: a release
//! always follows its allocation (the timeline tool filters release events
//! on their own, so a block whose free falls outside `--filter-time` stays
//! live there; here it is freed when it was). The size bounds apply to
//! every allocation: the timeline tool's `MinSizeFilter` lets any event of
//! size 0 through (`!res_size || …`, meant for release events, whose size
//! is not known yet), so a `malloc(0)` passes its size filter but not this
//! one.

use super::{MemoryError, MemoryFilter, MemoryQuery};
use crate::model::{Allocations, Format, Trace};

/// The allocations of the query's resource that pass its filter, ascending.
pub(super) fn select(trace: &Trace, query: &MemoryQuery) -> Result<Vec<u32>, MemoryError> {
    let a = trace
        .allocations
        .get(query.resource as usize)
        .ok_or(MemoryError::NoResource(query.resource))?;
    let through = query
        .filter
        .through
        .as_deref()
        .map(|name| stacks_through(trace, name));
    let call_index = trace.format == Some(Format::SpRtrace);
    Ok((0..a.len())
        .filter(|&at| {
            passes(a, at, &query.filter, call_index)
                && through.as_ref().is_none_or(|passing| {
                    a.stack
                        .get(at)
                        .and_then(|&s| passing.get(s as usize))
                        .copied()
                        .unwrap_or(false)
                })
        })
        .map(|at| at as u32)
        .collect())
}

/// The allocation's index for `--filter-index`: for sp-rtrace the call
/// number `sp-rtrace-postproc` prints before each call (the decoder keeps it
/// as the allocation's time, `formats/rtrace/calls.rs`), elsewhere the
/// allocation's ordinal in its resource, from 0.
pub fn allocation_index(a: &Allocations, at: usize, call_index: bool) -> u64 {
    if call_index {
        a.time
            .get(at)
            .map_or(at as u64, |&t| u64::try_from(t).unwrap_or(0))
    } else {
        at as u64
    }
}

/// Whether allocation `at` passes the size, time, index and context bounds.
fn passes(a: &Allocations, at: usize, filter: &MemoryFilter, call_index: bool) -> bool {
    let (Some(&size), Some(&time)) = (a.size.get(at), a.time.get(at)) else {
        return false;
    };
    let within =
        |v: u64, bounds: Option<(u64, u64)>| bounds.is_none_or(|(lo, hi)| lo <= v && v <= hi);
    within(size, filter.size)
        && filter.time.is_none_or(|(lo, hi)| lo <= time && time <= hi)
        && within(allocation_index(a, at, call_index), filter.index)
        && filter
            .context
            .is_none_or(|mask| context_passes(mask, a.context_of(at)))
}

/// `sp-rtrace-timeline`'s `ContextFilter::validate` (`filter.h`) and
/// postproc's `fcall_filter_context` (`src/rtrace-postproc/filter.c`):
/// mask 0 keeps what was made outside every context, any other mask what
/// shares a bit with it.
pub fn context_passes(mask: u32, context: u32) -> bool {
    (mask == 0 && context == 0) || mask & context != 0
}

/// Per stack (index into `Trace::stacks`): whether it has a frame named
/// `name`. A parent always comes before its children in the stack table.
fn stacks_through(trace: &Trace, name: &str) -> Vec<bool> {
    let stacks = &trace.stacks;
    let mut passing: Vec<bool> = Vec::with_capacity(stacks.len());
    for (&frame, &parent) in stacks.frame.iter().zip(&stacks.parent) {
        let inherited = passing.get(parent as usize).copied().unwrap_or(false);
        let here = (frame as usize) < trace.strings.len() && trace.str(frame) == name;
        passing.push(inherited || here);
    }
    passing
}
