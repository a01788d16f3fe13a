//! What the calls' build will write, counted before it starts, so that the
//! model's columns are made exactly that long: detail groups and payload
//! slots, allocations and live-counter points per resource. Columns grown by
//! doubling would hold up to twice their bytes until the end, and the page's
//! memory keeps its high-water mark (issue 20).

use super::call_details::payload_slots;
use super::matching::{Plan, Step};
use super::session::Session;
use crate::model::{CounterRef, ResourceRef, ThreadRef, TraceBuilder};
use std::collections::BTreeMap;

/// Reserves the detail columns of `thread` and the allocation and counter
/// columns of the resource slots (their table and live counter, in slot
/// order) for the calls of `session` as `plan` steps them.
pub(super) fn exactly(
    builder: &mut TraceBuilder,
    session: &Session,
    plan: &Plan,
    thread: ThreadRef,
    slots: &[(ResourceRef, CounterRef)],
) {
    let mut payload = 0u64;
    // Per slot: allocations, counter points, whether a context is set.
    let mut steps = vec![(0usize, 0usize, false); slots.len()];
    for (index, (call, planned)) in session.calls.iter().zip(&plan.calls).enumerate() {
        payload += payload_slots(session, (index as u32, call), planned.step);
        let Some((allocations, points, contexts)) = steps.get_mut(planned.slot as usize) else {
            continue;
        };
        match planned.step {
            Step::Allocate { .. } => {
                *allocations += 1;
                *points += 1;
                *contexts |= call.context != 0;
            }
            Step::Release { .. } => *points += 1,
            _ => {}
        }
    }
    // One group per call: its fields are written at once.
    builder.reserve_detail_groups(thread, session.calls.len() as u64, payload);
    // Slots of one name share their allocation table.
    let mut by_resource = BTreeMap::new();
    for (&(resource, counter), &(allocations, points, contexts)) in slots.iter().zip(&steps) {
        let shared = by_resource.entry(resource).or_insert((0, false));
        shared.0 += allocations;
        shared.1 |= contexts;
        builder.reserve_counter(counter, points);
    }
    for (resource, (allocations, contexts)) in by_resource {
        builder.reserve_allocations(resource, allocations, contexts);
    }
}
