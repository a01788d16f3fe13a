//! Room made ahead, because the page's memory keeps its high-water mark
//! (issue 20): for the calls while they are read ([`room_for_calls`]), and
//! for what the calls' build will write, counted before it starts, so that
//! the model's columns are made exactly that long: detail groups and payload
//! slots, allocations and live-counter points per resource. Columns grown by
//! doubling would hold up to twice their bytes until the end.

use super::call_details::payload_slots;
use super::matching::{Planned, Step};
use super::session::{FullCall, Session};
use crate::model::{ResourceRef, ThreadRef, TraceBuilder};
use std::collections::BTreeMap;

/// The fewest bytes a call takes in a trace: its CALL packet (8 bytes of
/// framing, 16 of fields, a name of at least one byte with its length, a
/// 4-byte size and a 4-byte id) and the BTRC that always follows it (8 of
/// framing, a 4-byte frame count).
const MIN_CALL_BYTES: u64 = 44;

/// The most calls [`room_for_calls`] makes room for at once
/// (512 MiB of them): a bigger trace's calls grow past it by doubling.
const MAX_RESERVED_CALLS: u64 = (512 << 20) / std::mem::size_of::<super::session::Call>() as u64;

/// Makes room in `session` for as many calls as `1 / share` of a trace file
/// of `trace_size` bytes could hold at most (up to [`MAX_RESERVED_CALLS`]),
/// so that the calls' vector is never copied as it grows: each copy would
/// leave the old one behind as memory the page's WebAssembly memory keeps.
/// The room beyond the calls is never written, so it takes address space
/// but no memory, and it is given back before the build
/// (`RtraceDecoder::finish`).
pub(super) fn room_for_calls(session: Option<&mut Session>, trace_size: u64, share: u64) {
    let most = (trace_size / share.max(1) / MIN_CALL_BYTES).min(MAX_RESERVED_CALLS);
    if let Some(session) = session {
        let _ = (session.collected).try_reserve_exact(usize::try_from(most).unwrap_or(0));
    }
}

/// What the build will write, added up call by call as the matcher's first
/// pass steps them.
pub(super) struct Tally {
    calls: u64,
    payload: u64,
    /// Per slot: allocations, counter points, whether a context is set.
    slots: Vec<(usize, usize, bool)>,
}

impl Tally {
    pub(super) fn new() -> Self {
        Tally {
            calls: 0,
            payload: 0,
            slots: Vec::new(),
        }
    }

    /// Counts one call, stepped as `planned` (an allocation's `freed_by`
    /// still unknown).
    pub(super) fn add(&mut self, session: &Session, index: u32, call: &FullCall, planned: Planned) {
        self.calls += 1;
        self.payload += payload_slots(session, (index, call), planned.step);
        let slot = planned.slot as usize;
        if slot >= self.slots.len() {
            self.slots.resize(slot + 1, (0, 0, false));
        }
        let Some((allocations, points, contexts)) = self.slots.get_mut(slot) else {
            return;
        };
        match planned.step {
            Step::Allocate { .. } => {
                *allocations += 1;
                *points += 1;
                *contexts |= call.context != 0;
            }
            Step::Release { .. } => {
                *points += 1;
                // The `freed by` of the block it releases (counted as 0
                // when that allocation was stepped).
                self.payload += 1;
            }
            _ => {}
        }
    }

    /// The live counter's points of slot `slot`: its allocations and
    /// releases.
    pub(super) fn points(&self, slot: usize) -> usize {
        self.slots.get(slot).map_or(0, |s| s.1)
    }

    /// The blocks of slot `slot` live at the end: its allocations less its
    /// releases (each releases one of the slot's allocations).
    pub(super) fn live(&self, slot: usize) -> usize {
        self.slots.get(slot).map_or(0, |&(allocations, points, _)| {
            allocations.saturating_sub(points.saturating_sub(allocations))
        })
    }

    /// Reserves the detail columns of `thread` and the allocation columns
    /// of the resource slots (their tables, in slot order; slots made later
    /// by the build are not reserved). The live counters are made, exactly,
    /// after the calls are gone (`calls.rs`).
    pub(super) fn reserve(
        &self,
        builder: &mut TraceBuilder,
        thread: ThreadRef,
        slots: &[ResourceRef],
    ) {
        // One group per call: its fields are written at once.
        builder.reserve_detail_groups(thread, self.calls, self.payload);
        // Slots of one name share their allocation table.
        let mut by_resource = BTreeMap::new();
        for (&resource, &(allocations, _, contexts)) in slots.iter().zip(&self.slots) {
            let shared = by_resource.entry(resource).or_insert((0, false));
            shared.0 += allocations;
            shared.1 |= contexts;
        }
        for (resource, (allocations, contexts)) in by_resource {
            builder.reserve_allocations(resource, allocations, contexts);
        }
    }
}
