//! One call as postproc sees it, read from the detail fields the sp-rtrace
//! decoder gave its span (`call`, `resource`, `size`, `id`, `context`,
//! `timestamp`, `$argument`s, `backtrace`), and its line
//! `N. [@ctx ][[hh:mm:ss.mmm] ]name[<type>](size) = 0xid`.

use super::registry::Registry;
use crate::model::{StrId, Trace, Value};

/// A call's kind, as postproc's `type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Undefined,
    Free,
    Alloc,
}

/// The interned keys and kinds of the decoder's call details.
pub(super) struct Keys {
    call: Option<StrId>,
    resource: Option<StrId>,
    size: Option<StrId>,
    id: Option<StrId>,
    context: Option<StrId>,
    timestamp: Option<StrId>,
    backtrace: Option<StrId>,
    alloc: Option<StrId>,
    free: Option<StrId>,
}

impl Keys {
    /// The keys as `trace` interned them.
    pub fn of(trace: &Trace) -> Keys {
        let find = |s: &str| trace.strings.find(s);
        Keys {
            call: find("call"),
            resource: find("resource"),
            size: find("size"),
            id: find("id"),
            context: find("context"),
            timestamp: find("timestamp"),
            backtrace: find("backtrace"),
            alloc: find("alloc"),
            free: find("free"),
        }
    }
}

/// What postproc knows of one call.
#[derive(Clone, Copy, Debug)]
pub(super) struct CallFacts {
    pub kind: Kind,
    /// Index into [`Registry::resources`].
    pub resource: Option<usize>,
    pub size: i32,
    pub id: u64,
    pub context: u32,
    pub timestamp: Option<StrId>,
    /// The backtrace's number (0: no frames).
    pub backtrace: u32,
    /// How many `$argument` fields it has.
    pub arguments: u32,
}

/// The facts of span `span` of `thread`.
pub(super) fn read(
    trace: &Trace,
    thread: usize,
    span: u32,
    keys: &Keys,
    registry: &Registry,
) -> CallFacts {
    let mut facts = CallFacts {
        kind: Kind::Undefined,
        resource: None,
        size: 0,
        id: 0,
        context: 0,
        timestamp: None,
        backtrace: 0,
        arguments: 0,
    };
    let Some(t) = trace.threads.get(thread) else {
        return facts;
    };
    t.spans.details.each_of(span, |key, value| {
        let key = Some(key);
        match value {
            Value::Fixed(v) if key == keys.call => {
                facts.kind = if Some(v) == keys.alloc {
                    Kind::Alloc
                } else if Some(v) == keys.free {
                    Kind::Free
                } else {
                    Kind::Undefined
                }
            }
            Value::Fixed(v) if key == keys.resource => facts.resource = registry.resource_of(v),
            Value::Int(n) if key == keys.size => facts.size = n as i32,
            Value::Hex(n) if key == keys.id => facts.id = n,
            Value::Fixed(v) if key == keys.context => {
                facts.context |= registry.context_mask(trace, v)
            }
            Value::Text(v) if key == keys.timestamp => facts.timestamp = Some(v),
            Value::Numbered(_, n) if key == keys.backtrace => facts.backtrace = n,
            Value::Text(_) if key.is_some_and(|k| trace.str(k).starts_with('$')) => {
                facts.arguments += 1
            }
            _ => {}
        }
    });
    facts
}

/// The `k`-th `$argument` of span `span` as postproc prints it:
/// `\t$name = value`.
pub(super) fn write_argument(trace: &Trace, thread: usize, span: u32, k: u32, out: &mut String) {
    let Some(t) = trace.threads.get(thread) else {
        return;
    };
    let mut seen = 0;
    t.spans.details.each_of(span, |key, value| {
        let name = trace.str(key);
        if let (Value::Text(v), true) = (value, name.starts_with('$')) {
            if seen == k {
                out.push('\t');
                out.push_str(name);
                out.push_str(" = ");
                out.push_str(trace.str(v));
            }
            seen += 1;
        }
    });
}

/// The call line of span `span` with `facts`; the resource type is shown
/// when `show_type` (more than one type listed).
pub(super) fn write_call(
    trace: &Trace,
    thread: usize,
    span: u32,
    facts: &CallFacts,
    registry: &Registry,
    show_type: bool,
    out: &mut String,
) {
    use std::fmt::Write;
    let Some(t) = trace.threads.get(thread) else {
        return;
    };
    let at = span as usize;
    let ordinal = t.spans.start.get(at).copied().unwrap_or(0);
    let _ = write!(out, "{ordinal}. ");
    if facts.context != 0 {
        let _ = write!(out, "@{:x} ", facts.context);
    }
    if let Some(stamp) = facts.timestamp {
        let _ = write!(out, "[{}] ", trace.str(stamp));
    }
    out.push_str(trace.str(t.spans.name.get(at).copied().unwrap_or(0)));
    if show_type {
        if let Some(r) = facts.resource.and_then(|r| registry.resources.get(r)) {
            let _ = write!(out, "<{}>", r.text);
        }
    }
    if facts.kind == Kind::Alloc {
        let _ = write!(out, "({}) = 0x{:x}", facts.size, facts.id);
    } else {
        let _ = write!(out, "(0x{:x})", facts.id);
    }
}
