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

use super::matching::{self, Step};
use super::modules::Symbolizer;
use super::packets::{CALL_ALLOC, CALL_FREE};
use super::session::{Call, Session};
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

/// Builds spans, allocations and live counters from the session's calls.
pub fn build(
    session: &Session,
    builder: &mut TraceBuilder,
    thread: ThreadRef,
    symbolizer: &Symbolizer,
) -> Outcome {
    let plan = matching::plan(session);
    let mut slots = resource_slots(session, builder);
    let mut live: Vec<Vec<LiveBlock>> = slots.iter().map(|_| Vec::new()).collect();
    // Allocation of each allocating call, by call index.
    let mut allocations: FastMap<u32, AllocationRef> = FastMap::default();
    let mut frame_names: FastMap<u64, StrId> = FastMap::default();
    let mut stacks: FastMap<(u32, u32), u32> = FastMap::default();
    let mut function_names: Vec<Option<StrId>> = vec![None; session.functions.len()];
    let mut context_counts = [0u64; 32];
    let (mut unmatched, mut undefined, mut unknown_types) = (0u64, 0u64, 0u64);
    let context_names: HashMap<u32, &str> = session
        .contexts
        .iter()
        .map(|(id, name)| (*id, name.as_str()))
        .collect();
    let no_backtrace = builder.intern("(no backtrace)");
    let words = Words::new(builder);
    let mut caches = Caches::default();
    // The fields of the call being built, written to the span at once.
    let mut fields: Vec<(StrId, Value)> = Vec::new();
    builder.reserve_spans(thread, session.calls.len() as u64);
    builder.reserve_details(thread, detail_count(session, &plan));

    for (index, (call, planned)) in session.calls.iter().zip(&plan.calls).enumerate() {
        let ordinal = index as u32 + 1;
        let time = i64::from(ordinal);
        let name = match function_names.get_mut(call.function as usize) {
            Some(Some(name)) => *name,
            Some(cached) => *cached.insert(builder.intern(session.function(call))),
            None => builder.intern(session.function(call)),
        };
        let span = builder.begin(thread, time, name, 0);
        builder.end(thread, time + 1);
        let slot_index = planned.slot as usize;
        if slot_index >= slots.len() {
            unknown_types += 1;
            let label = if unknown_types == matching::MAX_UNREGISTERED_TYPES {
                "unregistered resources".to_owned()
            } else {
                format!("resource {}", call.resource_type)
            };
            slots.push(new_slot(builder, &label, ""));
            live.push(Vec::new());
        }
        let (Some(slot), Some(live)) = (slots.get_mut(slot_index), live.get_mut(slot_index)) else {
            continue;
        };
        let texts = CallTexts {
            words: &words,
            contexts: &context_names,
        };
        fields.clear();
        texts.add(
            builder,
            &mut fields,
            session,
            (index as u32, call),
            slot.name_id,
            &mut caches,
        );
        for bit in set_bits(call.context) {
            if let Some(count) = context_counts.get_mut(bit as usize) {
                *count += 1;
            }
        }
        match planned.step {
            Step::Reference { count, first } => {
                let text = builder.intern(&format!("count {count} on call #{first}"));
                fields.push((words.reference, Value::Text(text)));
            }
            Step::Allocate { freed_by } => {
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
                let size = block_size(call);
                let allocation =
                    builder.allocate(slot.resource, thread, time, size, call.id, stack);
                slot.live_total = slot.live_total.saturating_add(size);
                builder.counter_value(slot.counter, time, slot.live_total as f64);
                let freed_by = if freed_by == 0 {
                    live.push(LiveBlock {
                        call: ordinal,
                        backtrace: call.backtrace,
                        size,
                    });
                    Value::Fixed(words.never)
                } else {
                    allocations.insert(index as u32, allocation);
                    Value::Numbered(words.call_no, freed_by)
                };
                fields.push((words.freed_by, freed_by));
            }
            Step::Release { block } => {
                let allocation = allocations.remove(&block).unwrap_or(AllocationRef::MAX);
                builder.free(slot.resource, allocation, time);
                let size = session.calls.get(block as usize).map_or(0, block_size);
                slot.live_total = slot.live_total.saturating_sub(size);
                builder.counter_value(slot.counter, time, slot.live_total as f64);
                fields.push((words.frees, Value::Numbered(words.call_no, block + 1)));
            }
            Step::Unmatched => {
                unmatched += 1;
                builder.unmatched_free(slot.resource);
                fields.push((words.frees, Value::Fixed(words.nothing)));
            }
            Step::Undefined => undefined += 1,
        }
        builder.details(thread, span, &fields);
    }

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
    }
}

/// The size an allocating call gives its block (the 32-bit size field,
/// unsigned).
fn block_size(call: &Call) -> u64 {
    u64::from(call.size as u32)
}

/// The positions of the bits set in `mask`, lowest first.
fn set_bits(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let bit = mask.trailing_zeros();
        (mask != 0).then(|| {
            mask &= mask - 1;
            bit
        })
    })
}

/// How many detail fields [`build`] writes: the columns are reserved for
/// exactly that many, instead of growing (and copying) as they fill.
fn detail_count(session: &Session, plan: &matching::Plan) -> u64 {
    session
        .calls
        .iter()
        .zip(&plan.calls)
        .enumerate()
        .map(|(index, (call, planned))| {
            let arguments = session
                .arguments
                .get(&(index as u32))
                .map_or(0, |args| args.len() as u64);
            // call, resource, id, backtrace; size of allocations; one per
            // context; the timestamp when recorded.
            4 + u64::from(call.kind == CALL_ALLOC)
                + u64::from(call.context.count_ones())
                + u64::from(call.timestamp != 0)
                + arguments
                + u64::from(planned.step != Step::Undefined)
        })
        .sum()
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
#[derive(Default)]
struct Caches {
    contexts: [Option<StrId>; 32],
    argument_keys: HashMap<String, StrId>,
    clock_texts: FastMap<u32, StrId>,
}

/// What the detail fields of a call are made from.
struct CallTexts<'a> {
    words: &'a Words,
    contexts: &'a HashMap<u32, &'a str>,
}

impl CallTexts<'_> {
    /// Adds the detail fields of a call span to `fields`: kind, resource, size, id,
    /// contexts, timestamp, arguments and backtrace. `caches` remember the
    /// interned context names and argument keys.
    fn add(
        &self,
        builder: &mut TraceBuilder,
        fields: &mut Vec<(StrId, Value)>,
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
        fields.push((w.call, Value::Fixed(kind)));
        fields.push((w.resource, Value::Fixed(resource)));
        if call.kind == CALL_ALLOC {
            fields.push((w.size, Value::Int(i64::from(call.size))));
        }
        fields.push((w.id, Value::Hex(call.id)));
        for bit in set_bits(call.context) {
            let Some(cached) = caches.contexts.get_mut(bit as usize) else {
                continue;
            };
            let name = match cached {
                Some(name) => *name,
                None => {
                    let mask = 1u32 << bit;
                    let text = self
                        .contexts
                        .get(&mask)
                        .map_or_else(|| format!("{mask:#x}"), |n| (*n).to_owned());
                    *cached.insert(builder.intern(&text))
                }
            };
            fields.push((w.context, Value::Fixed(name)));
        }
        if call.timestamp != 0 {
            let text = *caches
                .clock_texts
                .entry(call.timestamp)
                .or_insert_with(|| builder.intern(&clock_text(call.timestamp)));
            fields.push((w.timestamp, Value::Text(text)));
        }
        if let Some(args) = session.arguments.get(&index) {
            for (name, value) in args {
                let key = match caches.argument_keys.get(name) {
                    Some(&key) => key,
                    None => {
                        let key = builder.intern(&format!("${name}"));
                        caches.argument_keys.insert(name.clone(), key);
                        key
                    }
                };
                let value = builder.intern(value);
                fields.push((key, Value::Text(value)));
            }
        }
        let backtrace = if session.backtrace(call).is_empty() {
            Value::Fixed(w.none)
        } else {
            Value::Numbered(w.hash, call.backtrace)
        };
        fields.push((w.backtrace, backtrace));
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
