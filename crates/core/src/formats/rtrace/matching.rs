//! Pairs releases with allocations per resource type and id, with
//! `sp-rtrace-postproc`'s leak-filter rules. A first pass over the calls
//! finds each allocation's releasing call before any span is built, so it
//! is known when the allocation's span fields are written (the fields go in
//! span order and need no sorting afterwards); the build steps the calls
//! again with a second [`Matcher`].

use super::packets::{CALL_ALLOC, CALL_FREE};
use super::session::{FullCall, Session, RESOURCE_REFCOUNT};
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
    /// unregistered types in order of first use.
    pub slot: u32,
    pub step: Step,
}

/// Steps the calls of a session one after the other, in call order: the
/// same calls always get the same slots and steps, so a second matcher
/// repeats what a first one found ([`Matcher::replay`], from the first
/// one's [`links`]) instead of a plan of every call being kept (16 bytes a
/// call, beside the model, at the decode's peak).
pub struct Matcher {
    /// (type id, reference counted) of each slot, as the calls need them.
    slots: Vec<(u32, bool)>,
    /// No RESR: every call is of the one default slot.
    unregistered: bool,
    unknown_types: u64,
    /// (slot, resource id) → (index of the allocating call, reference count).
    held: Held,
}

impl Matcher {
    /// A matcher for the calls of `session`.
    pub fn new(session: &Session) -> Self {
        Matcher {
            slots: registered_slots(session),
            unregistered: session.resources.is_empty(),
            unknown_types: 0,
            held: FastMap::default(),
        }
    }

    /// The slot and step of call `index`, the call after the last one
    /// stepped. An allocation's `freed_by` is 0 here: the release comes
    /// later ([`links`] has it).
    pub fn step(&mut self, index: u32, call: &FullCall) -> Planned {
        let (slot, refcounted) = self.slot(call);
        Planned {
            slot: slot as u32,
            step: self.held_step(index, call, slot, refcounted),
        }
    }

    /// [`Matcher::step`] again, for calls a first matcher linked
    /// ([`links`]): what the links say, with the allocation's `freed_by`;
    /// only reference-counted types need the live blocks again.
    pub fn replay(&mut self, index: u32, call: &FullCall, links: &[u32]) -> Planned {
        let (slot, refcounted) = self.slot(call);
        let link = links.get(index as usize).copied().unwrap_or(0);
        let step = match call.kind {
            _ if refcounted => match self.held_step(index, call, slot, true) {
                Step::Allocate { .. } => Step::Allocate { freed_by: link },
                step => step,
            },
            CALL_ALLOC => Step::Allocate { freed_by: link },
            CALL_FREE if link > 0 => Step::Release { block: link - 1 },
            CALL_FREE => Step::Unmatched,
            _ => Step::Undefined,
        };
        Planned {
            slot: slot as u32,
            step,
        }
    }

    /// The slot of a call, and whether its type is reference counted.
    fn slot(&mut self, call: &FullCall) -> (usize, bool) {
        let slots = &mut self.slots;
        let slot = match slots.iter().position(|s| s.0 == call.resource_type) {
            Some(i) => i,
            None if self.unregistered && !slots.is_empty() => 0,
            // Damaged data can name thousands of types: past a few, one
            // catch-all slot holds them all.
            None if self.unknown_types >= MAX_UNREGISTERED_TYPES => slots.len() - 1,
            None => {
                self.unknown_types += 1;
                slots.push((call.resource_type, false));
                slots.len() - 1
            }
        };
        (slot, slots.get(slot).is_some_and(|s| s.1))
    }

    /// The step of call `index` in `slot`, from the blocks held so far.
    fn held_step(&mut self, index: u32, call: &FullCall, slot: usize, refcounted: bool) -> Step {
        let key = (slot as u32, call.id);
        match call.kind {
            CALL_ALLOC => match self.held.get_mut(&key).filter(|_| refcounted) {
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
                    self.held.insert(key, (index, 1));
                    Step::Allocate { freed_by: 0 }
                }
            },
            CALL_FREE => release(&mut self.held, key, refcounted),
            _ => Step::Undefined,
        }
    }
}

/// Steps every call of `session` in order, handing each to `each` (an
/// allocation's `freed_by` still 0); returns each call's link, by call
/// index: for an allocating call the ordinal of the call that releases its
/// block for good, for that releasing call the allocating call's ordinal
/// (0: none). A call is one or the other, so 4 bytes a call hold both.
pub fn links(session: &Session, mut each: impl FnMut(u32, &FullCall, Planned)) -> Vec<u32> {
    let mut matcher = Matcher::new(session);
    let mut links = vec![0u32; session.collected.len()];
    for (index, call) in session.calls().enumerate() {
        let index = index as u32;
        let planned = matcher.step(index, &call);
        if let Step::Release { block } = planned.step {
            if let Some(by) = links.get_mut(block as usize) {
                *by = index + 1;
            }
            if let Some(of) = links.get_mut(index as usize) {
                *of = block + 1;
            }
        }
        each(index, &call, planned);
    }
    links
}

/// The blocks live per (slot, resource id): the index of the allocating
/// call and the reference count.
type Held = FastMap<(u32, u64), (u32, u32)>;

/// (type id, reference counted) of the RESR types in registration order;
/// one slot for every call when the trace registered none.
fn registered_slots(session: &Session) -> Vec<(u32, bool)> {
    if session.resources.is_empty() {
        if session.collected.is_empty() {
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

/// The step of a releasing call on block `key`.
fn release(held: &mut Held, key: (u32, u64), refcounted: bool) -> Step {
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
    Step::Release { block }
}
