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

use super::modules::Symbolizer;
use super::packets::{CALL_ALLOC, CALL_FREE};
use super::session::{Call, Session};
use crate::fast_hash::FastMap;
use crate::model::{
    AllocationRef, CounterRef, ResourceRef, Severity, SpanRef, StrId, ThreadRef, TraceBuilder,
    Value, NO_PARENT,
};
use std::collections::HashMap;

/// Resource types not registered by RESR that get their own slot.
const MAX_UNREGISTERED_TYPES: u64 = 16;

/// The model side of one resource type.
pub struct ResourceSlot {
    /// RESR id (the CALL's `res_type_id`).
    pub type_id: u32,
    pub name: String,
    /// `name`, interned.
    name_id: StrId,
    pub refcounted: bool,
    pub unit: &'static str,
    pub resource: ResourceRef,
    counter: CounterRef,
    live_total: u64,
}

/// A block still live at the end.
pub struct LiveBlock {
    pub call: u32,
    pub backtrace: u32,
    pub size: u64,
}

/// What the tables need after the calls are built.
pub struct Outcome {
    pub slots: Vec<ResourceSlot>,
    /// Live blocks at the end, per slot, in call order.
    pub live: Vec<Vec<LiveBlock>>,
    /// Calls per context bit.
    pub context_calls: HashMap<u32, u64>,
}

/// One allocation as this module tracks it.
struct Block {
    allocation: AllocationRef,
    call: u32,
    backtrace: u32,
    size: u64,
    span: SpanRef,
    freed: bool,
}

/// Builds spans, allocations and live counters from the session's calls.
pub fn build(
    session: &Session,
    builder: &mut TraceBuilder,
    thread: ThreadRef,
    symbolizer: &Symbolizer,
) -> Outcome {
    let mut slots = resource_slots(session, builder);
    let mut blocks: Vec<Vec<Block>> = slots.iter().map(|_| Vec::new()).collect();
    // (slot, resource id) → (block index, reference count).
    let mut held: FastMap<(usize, u64), (usize, u32)> = FastMap::default();
    let mut frame_names: FastMap<u64, StrId> = FastMap::default();
    let mut stacks: FastMap<(u32, u32), u32> = FastMap::default();
    let mut context_calls: HashMap<u32, u64> = HashMap::new();
    let (mut unmatched, mut undefined, mut unknown_types) = (0u64, 0u64, 0u64);
    let context_names: HashMap<u32, &str> = session
        .contexts
        .iter()
        .map(|(id, name)| (*id, name.as_str()))
        .collect();
    let no_backtrace = builder.intern("(no backtrace)");
    let words = Words::new(builder);
    let mut context_values: HashMap<u32, StrId> = HashMap::new();
    let mut argument_keys: HashMap<String, StrId> = HashMap::new();
    let mut clock_texts: FastMap<u32, StrId> = FastMap::default();

    for (index, call) in session.calls.iter().enumerate() {
        let ordinal = index as u32 + 1;
        let time = i64::from(ordinal);
        let name = builder.intern(session.function(call));
        let span = builder.begin(thread, time, name, 0);
        builder.end(thread, time + 1);
        let slot_index = match slots.iter().position(|s| s.type_id == call.resource_type) {
            Some(i) => i,
            None if session.resources.is_empty() && !slots.is_empty() => 0,
            // Damaged data can name thousands of types: past a few, one
            // catch-all slot holds them all.
            None if unknown_types >= MAX_UNREGISTERED_TYPES => slots.len() - 1,
            None => {
                unknown_types += 1;
                let label = if unknown_types == MAX_UNREGISTERED_TYPES {
                    "unregistered resources".to_owned()
                } else {
                    format!("resource {}", call.resource_type)
                };
                slots.push(new_slot(builder, call.resource_type, &label, "", 0));
                blocks.push(Vec::new());
                slots.len() - 1
            }
        };
        let resource = slots[slot_index].name_id;
        let texts = CallTexts {
            words: &words,
            contexts: &context_names,
        };
        let mut caches = (&mut context_values, &mut argument_keys, &mut clock_texts);
        texts.add(
            builder,
            (thread, span),
            session,
            (index as u32, call),
            resource,
            &mut caches,
        );
        for bit in (0..32).map(|b| 1u32 << b).filter(|b| call.context & b != 0) {
            *context_calls.entry(bit).or_default() += 1;
        }
        let slot = &mut slots[slot_index];
        let list = &mut blocks[slot_index];
        let key = (slot_index, call.id);
        match call.kind {
            CALL_ALLOC => {
                if let Some((at, count)) = held.get_mut(&key).filter(|_| slot.refcounted) {
                    *count = count.saturating_add(1);
                    let first = list.get(*at).map_or(0, |b| b.call);
                    let text = builder.intern(&format!("count {count} on call #{first}"));
                    builder.detail(thread, span, words.reference, Value::Text(text));
                    continue;
                }
                let stack = *stacks
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
                    });
                let size = u64::from(call.size as u32);
                let allocation =
                    builder.allocate(slot.resource, thread, time, size, call.id, stack);
                slot.live_total = slot.live_total.saturating_add(size);
                builder.counter_value(slot.counter, time, slot.live_total as f64);
                // An older block with the same id is not released by this; it
                // stays live (and so counts as leaked), as in postproc's filter.
                held.insert(key, (list.len(), 1));
                list.push(Block {
                    allocation,
                    call: ordinal,
                    backtrace: call.backtrace,
                    size,
                    span,
                    freed: false,
                });
            }
            CALL_FREE => {
                let Some((at, count)) = held.get_mut(&key) else {
                    unmatched += 1;
                    builder.unmatched_free(slot.resource);
                    builder.detail(thread, span, words.frees, Value::Text(words.nothing));
                    continue;
                };
                *count = count.saturating_sub(1);
                let at = *at;
                let Some(block) = list.get_mut(at) else {
                    continue;
                };
                if slot.refcounted && *count > 0 {
                    let text = builder.intern(&format!("count {count} on call #{}", block.call));
                    builder.detail(thread, span, words.reference, Value::Text(text));
                    continue;
                }
                held.remove(&key);
                block.freed = true;
                builder.free(slot.resource, block.allocation, time);
                slot.live_total = slot.live_total.saturating_sub(block.size);
                builder.counter_value(slot.counter, time, slot.live_total as f64);
                let freed_call = block.call;
                let call_no = words.call_no;
                builder.detail(
                    thread,
                    span,
                    words.frees,
                    Value::Numbered(call_no, freed_call),
                );
                builder.detail(
                    thread,
                    block.span,
                    words.freed_by,
                    Value::Numbered(call_no, ordinal),
                );
            }
            _ => undefined += 1,
        }
    }

    let live = blocks
        .iter()
        .map(|list| {
            list.iter()
                .filter(|b| !b.freed)
                .map(|b| {
                    builder.detail(thread, b.span, words.freed_by, Value::Text(words.never));
                    LiveBlock {
                        call: b.call,
                        backtrace: b.backtrace,
                        size: b.size,
                    }
                })
                .collect()
        })
        .collect();
    report_counts(builder, unmatched, undefined, unknown_types);
    Outcome {
        slots,
        live,
        context_calls,
    }
}

/// One slot per RESR, in registration order; one default slot when the
/// trace registered none (all calls are then one resource type).
fn resource_slots(session: &Session, builder: &mut TraceBuilder) -> Vec<ResourceSlot> {
    if session.resources.is_empty() {
        if session.calls.is_empty() {
            return Vec::new();
        }
        let has_memory = session.modules.iter().any(|(_, _, n)| n == "memory");
        let name = if has_memory { "memory" } else { "resource" };
        return vec![new_slot(builder, 0, name, "", 0)];
    }
    session
        .resources
        .iter()
        .map(|r| new_slot(builder, r.id, &r.name, &r.description, r.flags))
        .collect()
}

fn new_slot(
    builder: &mut TraceBuilder,
    type_id: u32,
    name: &str,
    description: &str,
    flags: u32,
) -> ResourceSlot {
    let unit = if name == "memory" || description.contains("bytes") {
        "bytes"
    } else {
        "count"
    };
    let resource = builder.resource(name, unit);
    let counter = builder.counter(&format!("live {name}"), unit, Some(0), None);
    ResourceSlot {
        type_id,
        name: name.to_owned(),
        name_id: builder.intern(name),
        refcounted: flags & super::session::RESOURCE_REFCOUNT != 0,
        unit,
        resource,
        counter,
        live_total: 0,
    }
}

/// The interned keys and fixed values of call details, made once.
struct Words {
    call: StrId,
    resource: StrId,
    size: StrId,
    id: StrId,
    context: StrId,
    timestamp: StrId,
    backtrace: StrId,
    reference: StrId,
    frees: StrId,
    freed_by: StrId,
    /// `call #`, before a call's ordinal.
    call_no: StrId,
    /// `#`, before a backtrace's number.
    hash: StrId,
    none: StrId,
    nothing: StrId,
    never: StrId,
    kinds: [StrId; 3],
}

impl Words {
    fn new(builder: &mut TraceBuilder) -> Self {
        Words {
            call: builder.intern("call"),
            resource: builder.intern("resource"),
            size: builder.intern("size"),
            id: builder.intern("id"),
            context: builder.intern("context"),
            timestamp: builder.intern("timestamp"),
            backtrace: builder.intern("backtrace"),
            reference: builder.intern("reference"),
            frees: builder.intern("frees"),
            freed_by: builder.intern("freed by"),
            call_no: builder.intern("call #"),
            hash: builder.intern("#"),
            none: builder.intern("none"),
            nothing: builder.intern("nothing allocated"),
            never: builder.intern("never (live at the end)"),
            kinds: [
                builder.intern("alloc"),
                builder.intern("free"),
                builder.intern("undefined"),
            ],
        }
    }
}

/// Interned context names by bit, argument keys by name, clock texts by
/// timestamp.
type Caches<'a> = (
    &'a mut HashMap<u32, StrId>,
    &'a mut HashMap<String, StrId>,
    &'a mut FastMap<u32, StrId>,
);

/// What the detail fields of a call are made from.
struct CallTexts<'a> {
    words: &'a Words,
    contexts: &'a HashMap<u32, &'a str>,
}

impl CallTexts<'_> {
    /// Adds the detail fields of a call span: kind, resource, size, id,
    /// contexts, timestamp, arguments and backtrace. `caches` remember the
    /// interned context names and argument keys.
    fn add(
        &self,
        builder: &mut TraceBuilder,
        (thread, span): (ThreadRef, SpanRef),
        session: &Session,
        (index, call): (u32, &Call),
        resource: StrId,
        caches: &mut Caches,
    ) {
        let w = self.words;
        let kind = match call.kind {
            CALL_ALLOC => w.kinds[0],
            CALL_FREE => w.kinds[1],
            _ => w.kinds[2],
        };
        builder.detail(thread, span, w.call, Value::Text(kind));
        builder.detail(thread, span, w.resource, Value::Text(resource));
        if call.kind == CALL_ALLOC {
            builder.detail(thread, span, w.size, Value::Int(i64::from(call.size)));
        }
        builder.detail(thread, span, w.id, Value::Hex(call.id));
        for bit in (0..32).map(|b| 1u32 << b).filter(|b| call.context & b != 0) {
            let name = *caches.0.entry(bit).or_insert_with(|| {
                let text = self
                    .contexts
                    .get(&bit)
                    .map_or_else(|| format!("{bit:#x}"), |n| (*n).to_owned());
                builder.intern(&text)
            });
            builder.detail(thread, span, w.context, Value::Text(name));
        }
        if call.timestamp != 0 {
            let text = *caches
                .2
                .entry(call.timestamp)
                .or_insert_with(|| builder.intern(&clock_text(call.timestamp)));
            builder.detail(thread, span, w.timestamp, Value::Text(text));
        }
        if let Some(args) = session.arguments.get(&index) {
            for (name, value) in args {
                let key = match caches.1.get(name) {
                    Some(&key) => key,
                    None => {
                        let key = builder.intern(&format!("${name}"));
                        caches.1.insert(name.clone(), key);
                        key
                    }
                };
                let value = builder.intern(value);
                builder.detail(thread, span, key, Value::Text(value));
            }
        }
        let backtrace = if session.backtrace(call).is_empty() {
            Value::Text(w.none)
        } else {
            Value::Numbered(w.hash, call.backtrace)
        };
        builder.detail(thread, span, w.backtrace, backtrace);
    }
}

/// A CALL timestamp (ms of the monotonic clock modulo 24 h) as `postproc`
/// prints it: `HH:MM:SS.mmm`.
pub fn clock_text(ms: u32) -> String {
    let (s, ms) = (ms / 1000, ms % 1000);
    format!("{:02}:{:02}:{:02}.{ms:03}", s / 3600, s / 60 % 60, s % 60)
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
