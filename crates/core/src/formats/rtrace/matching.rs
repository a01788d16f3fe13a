//! Pairs releases with allocations per resource type and id, with
//! `sp-rtrace-postproc`'s leak-filter rules, before any span is built: each
//! allocation's releasing call is then known when its span's fields are
//! written, so the fields go in span order and need no sorting afterwards.

use super::packets::{CALL_ALLOC, CALL_FREE};
use super::session::{Session, RESOURCE_REFCOUNT};
use crate::fast_hash::FastMap;

/// Resource types not registered by RESR that get their own slot.
pub const MAX_UNREGISTERED_TYPES: u64 = 16;

/// What one call does to its resource type's blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A new block, released by the call with ordinal `freed_by` (0: still
    /// live at the end).
    Allocate { freed_by: u32 },
    /// A reference-counted id gained or lost a reference but stays live:
    /// `count` references now, on the block of the call with ordinal `first`.
    Reference { count: u32, first: u32 },
    /// The release of the block allocated by the call at index `block`.
    Release { block: u32 },
    /// A release that matched no live block.
    Unmatched,
    /// A call of undefined type (neither allocation nor release).
    Undefined,
}

/// A call's resource slot and step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    /// Index of the resource slot: the RESR types in registration order, then
    /// unregistered types in order of first use (see [`Plan::new_types`]).
    pub slot: u32,
    pub step: Step,
}

/// Every call's slot and step, in call order.
pub struct Plan {
    pub calls: Vec<Planned>,
}

/// Plans the calls of `session`.
pub fn plan(session: &Session) -> Plan {
    // (type id, reference counted) of each slot, as the calls need them.
    let mut slots = registered_slots(session);
    let mut unknown_types = 0u64;
    // (slot, resource id) → (index of the allocating call, reference count).
    let mut held: Held = FastMap::default();
    let mut calls: Vec<Planned> = Vec::with_capacity(session.calls.len());
    for (index, call) in session.calls.iter().enumerate() {
        let index = index as u32;
        let slot = match slots.iter().position(|s| s.0 == call.resource_type) {
            Some(i) => i,
            None if session.resources.is_empty() && !slots.is_empty() => 0,
            // Damaged data can name thousands of types: past a few, one
            // catch-all slot holds them all.
            None if unknown_types >= MAX_UNREGISTERED_TYPES => slots.len() - 1,
            None => {
                unknown_types += 1;
                slots.push((call.resource_type, false));
                slots.len() - 1
            }
        };
        let refcounted = slots.get(slot).is_some_and(|s| s.1);
        let key = (slot as u32, call.id);
        let step = match call.kind {
            CALL_ALLOC => match held.get_mut(&key).filter(|_| refcounted) {
                Some((first, count)) => {
                    *count = count.saturating_add(1);
                    Step::Reference {
                        count: *count,
                        first: *first + 1,
                    }
                }
                None => {
                    // An older block with the same id is not released by
                    // this; it stays live (and so counts as leaked), as in
                    // postproc's filter.
                    held.insert(key, (index, 1));
                    Step::Allocate { freed_by: 0 }
                }
            },
            CALL_FREE => release(&mut held, &mut calls, key, refcounted, index + 1),
            _ => Step::Undefined,
        };
        calls.push(Planned {
            slot: slot as u32,
            step,
        });
    }
    Plan { calls }
}

/// The blocks live per (slot, resource id): the index of the allocating
/// call and the reference count.
type Held = FastMap<(u32, u64), (u32, u32)>;

/// (type id, reference counted) of the RESR types in registration order;
/// one slot for every call when the trace registered none.
fn registered_slots(session: &Session) -> Vec<(u32, bool)> {
    if session.resources.is_empty() {
        if session.calls.is_empty() {
            Vec::new()
        } else {
            vec![(0, false)]
        }
    } else {
        session
            .resources
            .iter()
            .map(|r| (r.id, r.flags & RESOURCE_REFCOUNT != 0))
            .collect()
    }
}

/// The step of the releasing call with ordinal `ordinal` on block `key`;
/// a block released for good gets its `freed_by` in `calls`.
fn release(
    held: &mut Held,
    calls: &mut [Planned],
    key: (u32, u64),
    refcounted: bool,
    ordinal: u32,
) -> Step {
    let Some((first, count)) = held.get_mut(&key) else {
        return Step::Unmatched;
    };
    *count = count.saturating_sub(1);
    if refcounted && *count > 0 {
        return Step::Reference {
            count: *count,
            first: *first + 1,
        };
    }
    let block = *first;
    held.remove(&key);
    if let Some(Planned {
        step: Step::Allocate { freed_by },
        ..
    }) = calls.get_mut(block as usize)
    {
        *freed_by = ordinal;
    }
    Step::Release { block }
}
