//! The detail fields of a call span: kind, resource, size, id, contexts,
//! timestamp, arguments and backtrace, with the interned words and the
//! caches that keep them cheap.

use super::matching::Step;
use super::packets::{CALL_ALLOC, CALL_FREE};
use super::session::{FullCall, Session};
use crate::fast_hash::FastMap;
use crate::model::{StrId, TraceBuilder, Value};
use std::collections::HashMap;

/// The interned keys and fixed values of call details, made once.
pub(super) struct Words {
    pub call: StrId,
    pub resource: StrId,
    pub size: StrId,
    pub id: StrId,
    pub context: StrId,
    pub timestamp: StrId,
    pub backtrace: StrId,
    pub reference: StrId,
    pub frees: StrId,
    pub freed_by: StrId,
    /// `call #`, before a call's ordinal.
    pub call_no: StrId,
    /// `#`, before a backtrace's number.
    pub hash: StrId,
    pub none: StrId,
    pub nothing: StrId,
    pub never: StrId,
    pub kinds: [StrId; 3],
}

impl Words {
    pub(super) fn new(builder: &mut TraceBuilder) -> Self {
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
pub(super) struct Caches {
    contexts: [Option<StrId>; 32],
    argument_keys: HashMap<String, StrId>,
    clock_texts: FastMap<u32, StrId>,
}

/// What the detail fields of a call are made from.
pub(super) struct CallTexts<'a> {
    pub words: &'a Words,
    pub contexts: &'a HashMap<u32, &'a str>,
}

impl CallTexts<'_> {
    /// Adds the detail fields of a call span to `fields`: kind, resource, size, id,
    /// contexts, timestamp, arguments and backtrace. `caches` remember the
    /// interned context names and argument keys.
    pub(super) fn add(
        &self,
        builder: &mut TraceBuilder,
        fields: &mut Vec<(StrId, Value)>,
        session: &Session,
        (index, call): (u32, &FullCall),
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

/// How many payload slots the fields of a call take: those
/// [`CallTexts::add`] writes and the one of its step (`calls.rs`), each as
/// [`Value`] stores it (a 32-bit number or text in one slot, a wider number
/// in two, a fixed word in none). Mirrors them, for the exact reservation
/// (`reserve.rs`); a test holds the two together.
pub(super) fn payload_slots(session: &Session, (index, call): (u32, &FullCall), step: Step) -> u64 {
    let size = u64::from(call.kind == CALL_ALLOC);
    // `Value::Hex` takes two slots only at 2^48 and above (`KIND_HEX48`).
    let id = if call.id >> 48 != 0 { 2 } else { 1 };
    let timestamp = u64::from(call.timestamp != 0);
    let arguments = session
        .arguments
        .get(&index)
        .map_or(0, |args| args.len() as u64);
    let backtrace = u64::from(!session.backtrace(call).is_empty());
    let step = match step {
        Step::Reference { .. } | Step::Release { .. } => 1,
        Step::Allocate { freed_by } => u64::from(freed_by != 0),
        Step::Unmatched | Step::Undefined => 0,
    };
    size + id + timestamp + arguments + backtrace + step
}

/// A CALL timestamp (ms of the monotonic clock modulo 24 h) as `postproc`
/// prints it: `HH:MM:SS.mmm`.
pub fn clock_text(ms: u32) -> String {
    let (s, ms) = (ms / 1000, ms % 1000);
    format!("{:02}:{:02}:{:02}.{ms:03}", s / 3600, s / 60 % 60, s % 60)
}

/// The positions of the bits set in `mask`, lowest first.
pub(super) fn set_bits(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let bit = mask.trailing_zeros();
        (mask != 0).then(|| {
            mask &= mask - 1;
            bit
        })
    })
}
