//! CALLs to the model: every call becomes a one-step span on the process lane
//! (named by the traced function, with resource, size, id, context, arguments
//! and backtrace as details), and an allocation or release of its resource
//! type. Releases are matched to allocations per resource type and id with
//! `sp-rtrace-postproc`'s leak-filter rules, so what stays live at the end is
//! exactly what `postproc -l` lists.
//!
//! Time is the call's ordinal in the file (1 = the first CALL), the same number
//! `postproc` prints before each call: the recorded timestamps are whole
//! milliseconds (often all equal, or all 0 with `-T`), so they are kept as a
//! detail instead of being the clock.

use super::call_details::{set_bits, Caches, CallTexts, Words};
use super::matching::{self, Planned, Step};
use super::modules::Symbolizer;
use super::reserve;
use super::session::{FullCall, Session};
use crate::fast_hash::FastMap;
use crate::model::{
    AllocationRef, CounterRef, ResourceRef, Severity, StrId, ThreadRef, TraceBuilder, Value,
    NO_PARENT,
};
use std::collections::HashMap;

/// The model side of one resource type.
pub struct ResourceSlot {
    pub name: String,
    /// `name`, interned.
    name_id: StrId,
    pub unit: &'static str,
    pub resource: ResourceRef,
    counter: CounterRef,
    /// The allocations made and released (with [`RELEASED`]), in call
    /// order: the live counter is made from them and the allocation table
    /// once the calls are gone. Slot 0's are written over the links instead
    /// ([`Outcome::first_events`]).
    events: Vec<u32>,
}

/// Marks a release in [`ResourceSlot::events`] (an allocation's number
/// is below it: fewer calls than that fit in memory).
const RELEASED: u32 = 1 << 31;

/// In [`Outcome::first_events`]: the call has no event of slot 0 (an
/// allocation's number never reaches `!RELEASED`).
const NO_EVENT: u32 = u32::MAX;

/// A block still live at the end: 12 bytes (a trace can leave most of its
/// blocks live, and they are kept beside the model at the decode's peak).
pub struct LiveBlock {
    pub call: u32,
    /// The allocating call's class (its function and backtrace), an index
    /// into `Session::classes`.
    pub class: u32,
    /// The call's 32-bit size field, unsigned ([`block_size`]).
    pub size: u32,
}

const _: () = assert!(std::mem::size_of::<LiveBlock>() <= 12);

/// What the tables need after the calls are built.
pub struct Outcome {
    pub slots: Vec<ResourceSlot>,
    /// Live blocks at the end, per slot, in call order.
    pub live: Vec<Vec<LiveBlock>>,
    /// Calls per context bit.
    pub context_calls: HashMap<u32, u64>,
    /// Calls per backtrace, by backtrace number.
    pub backtrace_calls: Vec<u64>,
    /// Slot 0's events ([`ResourceSlot::events`]), by call index
    /// ([`NO_EVENT`] for the others): the links' vector, each entry written
    /// once its call was built, so that one slot's events (all of them in a
    /// trace of one resource type) take no memory of their own.
    first_events: Vec<u32>,
    /// The calls' spans' names, in call order ([`span_names`]).
    names: Vec<StrId>,
}

/// The calls' spans' names, the rest of `outcome` let go: the caller writes
/// the spans (`TraceBuilder::step_spans`) once the calls and what the live
/// counters and tables needed are gone, so the span columns, a fifth of the
/// model, fill the memory those held instead of adding to the peak.
pub fn span_names(outcome: Outcome) -> Vec<StrId> {
    outcome.names
}

/// Makes the live counters once the caller has let the calls go (they are
/// all in the model by then): from the slots' events and the allocation
/// tables, so that the calls and the whole model never exist at once
/// (issue 20: the page's memory keeps its high-water mark).
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn live_counters(builder: &mut TraceBuilder, outcome: &mut Outcome) {
    for (at, slot) in outcome.slots.iter_mut().enumerate() {
        let events = match at {
            0 => std::mem::take(&mut outcome.first_events),
            _ => std::mem::take(&mut slot.events),
        };
        live_counter(builder, slot, events);
    }
}

/// The live counter of `slot`, from its events and its allocation table:
/// the live total after each allocation and release, at its time.
fn live_counter(builder: &mut TraceBuilder, slot: &ResourceSlot, events: Vec<u32>) {
    let points = events.iter().filter(|&&e| e != NO_EVENT).count();
    builder.reserve_counter(slot.counter, points);
    let mut live = 0u64;
    for event in events.into_iter().filter(|&e| e != NO_EVENT) {
        let at = (event & !RELEASED) as usize;
        let Some(a) = builder.allocations(slot.resource) else {
            return;
        };
        let (Some(&size), Some(&made), Some(&freed)) =
            (a.size.get(at), a.time.get(at), a.free_time.get(at))
        else {
            continue;
        };
        let time = if event & RELEASED == 0 {
            live = live.saturating_add(size);
            made
        } else {
            live = live.saturating_sub(size);
            freed
        };
        builder.counter_value(slot.counter, time, live as f64);
    }
}

/// Builds spans and allocations from the session's calls; the live
/// counters follow ([`live_counters`]).
pub fn build(
    session: &Session,
    builder: &mut TraceBuilder,
    thread: ThreadRef,
    symbolizer: &Symbolizer,
) -> Outcome {
    let mut tally = reserve::Tally::new();
    let links = matching::links(session, |index, call, planned| {
        tally.add(session, index, call, planned)
    });
    let mut building = Building {
        session,
        symbolizer,
        thread,
        live: Vec::new(),
        slots: resource_slots(session, builder),
        links,
        allocations: FastMap::default(),
        frame_names: FastMap::default(),
        stacks: FastMap::default(),
        function_names: vec![None; session.functions.len()],
        context_counts: [0; 32],
        unmatched: 0,
        undefined: 0,
        unknown_types: 0,
        context_names: session
            .contexts
            .iter()
            .map(|(id, name)| (*id, name.as_str()))
            .collect(),
        no_backtrace: builder.intern("(no backtrace)"),
        words: Words::new(builder),
        caches: Caches::default(),
        fields: Vec::new(),
        backtrace_calls: vec![0; session.backtraces.len()],
        names: Vec::new(),
    };
    building.live = building.slots.iter().map(|_| Vec::new()).collect();
    building.names.reserve_exact(session.collected.len());
    let slots: Vec<_> = building.slots.iter().map(|s| s.resource).collect();
    tally.reserve(builder, thread, &slots);
    building.reserve(&tally);
    drop(tally);
    // The same steps again, with each allocation's release from the first pass.
    let mut matcher = matching::Matcher::new(session);
    for (index, call) in session.calls().enumerate() {
        let index = index as u32;
        let planned = matcher.replay(index, &call, &building.links);
        building.call(builder, index, &call, &planned);
    }
    let Building {
        slots,
        live,
        context_counts,
        unmatched,
        undefined,
        unknown_types,
        backtrace_calls,
        links,
        names,
        ..
    } = building;
    report_counts(builder, unmatched, undefined, unknown_types);
    let context_calls = (0..32u32)
        .zip(context_counts)
        .filter(|(_, n)| *n > 0)
        .map(|(bit, n)| (1u32 << bit, n))
        .collect();
    Outcome {
        slots,
        live,
        context_calls,
        backtrace_calls,
        first_events: links,
        names,
    }
}

/// What [`build`] keeps while it walks the calls.
struct Building<'s> {
    session: &'s Session,
    symbolizer: &'s Symbolizer<'s>,
    thread: ThreadRef,
    slots: Vec<ResourceSlot>,
    live: Vec<Vec<LiveBlock>>,
    /// The first pass's links (`matching::links`), by call index; each
    /// read by its call's step, then that call's event of slot 0 or
    /// [`NO_EVENT`] ([`Outcome::first_events`]).
    links: Vec<u32>,
    /// Allocation of each allocating call, by call index.
    allocations: FastMap<u32, AllocationRef>,
    frame_names: FastMap<u64, StrId>,
    stacks: FastMap<(u32, u32), u32>,
    function_names: Vec<Option<StrId>>,
    context_counts: [u64; 32],
    unmatched: u64,
    undefined: u64,
    unknown_types: u64,
    context_names: HashMap<u32, &'s str>,
    no_backtrace: StrId,
    words: Words,
    caches: Caches,
    /// The fields of the call being built, written to the span at once.
    fields: Vec<(StrId, Value)>,
    /// Calls per backtrace, by backtrace number.
    backtrace_calls: Vec<u64>,
    /// Each call's span's name ([`Outcome::names`]).
    names: Vec<StrId>,
}

impl Building<'_> {
    /// Makes room for exactly the slots' events and live blocks that
    /// `tally` counted (slots the build adds grow theirs).
    fn reserve(&mut self, tally: &reserve::Tally) {
        // Slot 0's events go over the links (`Outcome::first_events`).
        for (at, slot) in self.slots.iter_mut().enumerate().skip(1) {
            slot.events.reserve_exact(tally.points(at));
        }
        for (at, live) in self.live.iter_mut().enumerate() {
            live.reserve_exact(tally.live(at));
        }
    }

    /// Call `index`: its span with details, and its step on its resource.
    fn call(&mut self, builder: &mut TraceBuilder, index: u32, call: &FullCall, planned: &Planned) {
        // The step has read this call's link: the entry is its event now.
        if let Some(link) = self.links.get_mut(index as usize) {
            *link = NO_EVENT;
        }
        let name = self.function_name(builder, call);
        if let Some(count) = self.backtrace_calls.get_mut(call.backtrace as usize) {
            *count += 1;
        }
        // Call `index` will be span `index` ([`span_names`]).
        let span = index;
        self.names.push(name);
        let slot_index = planned.slot as usize;
        if slot_index >= self.slots.len() {
            self.unknown_types += 1;
            let label = if self.unknown_types == matching::MAX_UNREGISTERED_TYPES {
                "unregistered resources".to_owned()
            } else {
                format!("resource {}", call.resource_type)
            };
            self.slots.push(new_slot(builder, &label, ""));
            self.live.push(Vec::new());
        }
        let Some(resource_name) = self.slots.get(slot_index).map(|s| s.name_id) else {
            return;
        };
        let texts = CallTexts {
            words: &self.words,
            contexts: &self.context_names,
        };
        self.fields.clear();
        texts.add(
            builder,
            &mut self.fields,
            self.session,
            (index, call),
            resource_name,
            &mut self.caches,
        );
        for bit in set_bits(call.context) {
            if let Some(count) = self.context_counts.get_mut(bit as usize) {
                *count += 1;
            }
        }
        self.step(builder, (index, call), name, slot_index, planned.step);
        builder.details(self.thread, span, &self.fields);
    }

    /// The interned name of the call's function.
    fn function_name(&mut self, builder: &mut TraceBuilder, call: &FullCall) -> StrId {
        match self.function_names.get_mut(call.function as usize) {
            Some(Some(name)) => *name,
            Some(cached) => *cached.insert(builder.intern(self.session.function(call.function))),
            None => builder.intern(self.session.function(call.function)),
        }
    }

    /// What the call does to its resource (slot `slot`), as the plan says.
    fn step(
        &mut self,
        builder: &mut TraceBuilder,
        (index, call): (u32, &FullCall),
        name: StrId,
        slot: usize,
        step: Step,
    ) {
        let time = i64::from(index + 1);
        let words = &self.words;
        match step {
            Step::Reference { count, first } => {
                let text = builder.intern(&format!("count {count} on call #{first}"));
                self.fields.push((words.reference, Value::Text(text)));
            }
            Step::Allocate { freed_by } => {
                let freed_by = self.allocate(builder, (index, call), name, slot, freed_by);
                self.fields.push((self.words.freed_by, freed_by));
            }
            Step::Release { block } => {
                // Always there: the first pass gave the block this call as
                // its `freed_by`, so `allocate` kept it.
                let allocation = self.allocations.remove(&block);
                let at = slot;
                if let (Some(slot), Some(allocation)) = (self.slots.get_mut(at), allocation) {
                    builder.free(slot.resource, allocation, time);
                    let event = event(allocation) | RELEASED;
                    record(&mut self.links, at, index, slot, event);
                }
                let frees = Value::Numbered(words.call_no, block + 1);
                self.fields.push((words.frees, frees));
            }
            Step::Unmatched => {
                self.unmatched += 1;
                if let Some(slot) = self.slots.get(slot) {
                    builder.unmatched_free(slot.resource);
                }
                self.fields.push((words.frees, Value::Fixed(words.nothing)));
            }
            Step::Undefined => self.undefined += 1,
        }
    }

    /// Allocates the call's block; the `freed by` detail it gets.
    fn allocate(
        &mut self,
        builder: &mut TraceBuilder,
        (index, call): (u32, &FullCall),
        name: StrId,
        slot: usize,
        freed_by: u32,
    ) -> Value {
        let ordinal = index + 1;
        let time = i64::from(ordinal);
        let stack = self.stack(builder, call, name);
        let size = u64::from(block_size(call));
        let at = slot;
        let (Some(slot), Some(live)) = (self.slots.get_mut(at), self.live.get_mut(at)) else {
            return Value::Fixed(self.words.never);
        };
        let allocation = builder.allocate(slot.resource, self.thread, time, size, call.id, stack);
        builder.allocation_context(slot.resource, allocation, call.context);
        record(&mut self.links, at, index, slot, event(allocation));
        if freed_by == 0 {
            live.push(LiveBlock {
                call: ordinal,
                class: call.class,
                size: block_size(call),
            });
            Value::Fixed(self.words.never)
        } else {
            self.allocations.insert(index, allocation);
            Value::Numbered(self.words.call_no, freed_by)
        }
    }

    /// The allocation stack of the call: its backtrace, outermost first,
    /// then the allocating function.
    fn stack(&mut self, builder: &mut TraceBuilder, call: &FullCall, name: StrId) -> u32 {
        let (session, symbolizer) = (self.session, self.symbolizer);
        let (frame_names, no_backtrace) = (&mut self.frame_names, self.no_backtrace);
        *self
            .stacks
            .entry((call.backtrace, call.function))
            .or_insert_with(|| {
                let frames: Vec<StrId> = session
                    .backtrace(call)
                    .iter()
                    .rev()
                    .map(|&a| {
                        *frame_names
                            .entry(a)
                            .or_insert_with(|| builder.intern(&symbolizer.frame_name(a)))
                    })
                    .collect();
                let base = builder
                    .stack(&frames)
                    .unwrap_or_else(|| builder.child_stack(NO_PARENT, no_backtrace));
                builder.child_stack(base, name)
            })
    }
}

/// Records call `index`'s event of slot `at`: slot 0's in the call's entry
/// of the links ([`Outcome::first_events`]), the others' in their events.
fn record(links: &mut [u32], at: usize, index: u32, slot: &mut ResourceSlot, event: u32) {
    match at {
        0 => {
            if let Some(entry) = links.get_mut(index as usize) {
                *entry = event;
            }
        }
        _ => slot.events.push(event),
    }
}

/// An allocation's number in [`ResourceSlot::events`].
fn event(allocation: AllocationRef) -> u32 {
    (allocation as u32) & !RELEASED
}

/// The size an allocating call gives its block (the 32-bit size field,
/// unsigned).
fn block_size(call: &FullCall) -> u32 {
    call.size as u32
}

/// One slot per RESR, in registration order; one default slot when the
/// trace registered none (all calls are then one resource type).
fn resource_slots(session: &Session, builder: &mut TraceBuilder) -> Vec<ResourceSlot> {
    if session.resources.is_empty() {
        if session.collected.is_empty() {
            return Vec::new();
        }
        let has_memory = session.modules.iter().any(|(_, _, n)| n == "memory");
        let name = if has_memory { "memory" } else { "resource" };
        return vec![new_slot(builder, name, "")];
    }
    session
        .resources
        .iter()
        .map(|r| new_slot(builder, &r.name, &r.description))
        .collect()
}

fn new_slot(builder: &mut TraceBuilder, name: &str, description: &str) -> ResourceSlot {
    let unit = if name == "memory" || description.contains("bytes") {
        "bytes"
    } else {
        "count"
    };
    let resource = builder.resource(name, unit);
    let counter = builder.counter(&format!("live {name}"), unit, Some(0), None);
    ResourceSlot {
        name: name.to_owned(),
        name_id: builder.intern(name),
        unit,
        resource,
        counter,
        events: Vec::new(),
    }
}

fn report_counts(builder: &mut TraceBuilder, unmatched: u64, undefined: u64, unknown: u64) {
    if unmatched > 0 {
        builder.diagnose(Severity::Info, "unmatched-free", None, None, unmatched, || {
            "releases matched no allocation (freeing NULL, or a resource allocated before tracing or by an unhooked function)".into()
        });
    }
    if undefined > 0 {
        builder.diagnose(
            Severity::Info,
            "undefined-call",
            None,
            None,
            undefined,
            || {
                "calls of undefined type (neither allocation nor release) are shown but not counted"
                    .into()
            },
        );
    }
    if unknown > 0 {
        builder.diagnose(Severity::DataLoss, "unknown-resource", None, None, unknown, || {
            "resource types used by calls were not registered by a RESR packet; their calls are kept under \"resource <id>\" (past 16 types, under \"unregistered resources\")".into()
        });
    }
}
