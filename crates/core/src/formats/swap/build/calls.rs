//! The stacks of open calls, per lane: an exit closes the latest open entry
//! of the same function on its lane (the pairing rule of notes §3); entries
//! it skips over lost their exit and are cut there; an exit with no open
//! entry is counted and dropped. Samples and allocations ask for the stack
//! of the calls open at their time.

use super::super::values::Value;
use super::{Build, Lane};
use crate::fast_hash::FastMap;
use crate::model::{
    SpanRef, StrId, ThreadRef, TraceBuilder, Value as FieldValue, NO_PARENT, SPAN_CUT,
};

/// Open calls per lane, innermost last, with the key an exit must match.
#[derive(Default)]
pub struct CallStacks {
    open: FastMap<ThreadRef, Vec<OpenCall>>,
    /// Stacks by caller stack and frame, in front of the builder's index.
    children: FastMap<(u32, StrId), u32>,
    pub unmatched_entries: u64,
    pub unmatched_exits: u64,
}

/// A call that has not returned.
struct OpenCall {
    /// What its exit must match (`None`: any exit closes the innermost).
    key: Option<u64>,
    name: StrId,
    span: SpanRef,
    /// The stack of the calls open down to this one, once asked for.
    stack: Option<u32>,
}

impl CallStacks {
    /// The stack `frame` called from stack `parent`, made on first use.
    pub fn child(&mut self, b: &mut TraceBuilder, parent: u32, frame: StrId) -> u32 {
        *self
            .children
            .entry((parent, frame))
            .or_insert_with(|| b.child_stack(parent, frame))
    }

    /// The stack of the calls open on lane `t` ([`NO_PARENT`] when none):
    /// made once per open call, outermost first, as samples ask for it.
    pub fn open_stack(&mut self, b: &mut TraceBuilder, t: ThreadRef) -> u32 {
        let Some(open) = self.open.get_mut(&t) else {
            return NO_PARENT;
        };
        let known = open.iter().rposition(|c| c.stack.is_some());
        let mut stack = known
            .and_then(|i| open.get(i))
            .and_then(|c| c.stack)
            .unwrap_or(NO_PARENT);
        let from = known.map_or(0, |i| i + 1);
        for call in open.iter_mut().skip(from) {
            stack = *self
                .children
                .entry((stack, call.name))
                .or_insert_with(|| b.child_stack(stack, call.name));
            call.stack = Some(stack);
        }
        stack
    }
}

/// A key for matching web function exits by name.
pub(super) fn name_key(name: &str) -> u64 {
    // FNV-1a: stable and dependency-free.
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Build {
    /// Opens a call named `name` with the given fields.
    pub(super) fn open_call(
        &mut self,
        t: ThreadRef,
        time: i64,
        name: StrId,
        key: Option<u64>,
        fields: &[(StrId, FieldValue)],
    ) {
        let span = self.b.begin(t, time, name, 0);
        if self.thread_data {
            for &(key, value) in fields {
                self.b.detail(t, span, key, value);
            }
        }
        self.b.count_events(t, 1);
        self.calls.open.entry(t).or_default().push(OpenCall {
            key,
            name,
            span,
            stack: None,
        });
    }

    /// Closes the latest open call matching `key` (`None`: the innermost);
    /// its return value, if any, becomes a field.
    pub(super) fn close_call(
        &mut self,
        t: ThreadRef,
        time: i64,
        key: Option<u64>,
        ret: Option<&Value>,
    ) {
        self.b.count_events(t, 1);
        let stack = self.calls.open.entry(t).or_default();
        let found = match key {
            Some(k) => stack.iter().rposition(|e| e.key == Some(k)),
            None => stack.len().checked_sub(1),
        };
        let Some(at) = found else {
            self.calls.unmatched_exits += 1;
            self.b.touch(t, time);
            return;
        };
        let skipped = stack.len() - 1 - at;
        let Some(span) = stack.get(at).map(|call| call.span) else {
            return;
        };
        stack.truncate(at);
        self.calls.unmatched_entries += skipped as u64;
        self.b.cut_to(t, at + 1, time, SPAN_CUT);
        self.b.end(t, time);
        if let (Some(ret), true) = (ret, self.thread_data) {
            let key = self.key("return");
            let text = self.values_text(std::slice::from_ref(ret));
            self.b.detail(t, span, key, FieldValue::Text(text));
        }
    }

    /// A call lane of a thread; the function lane first ends off-CPU time.
    pub(super) fn call_lane(&mut self, pid: u32, tid: u32, lane: Lane, time: i64) -> ThreadRef {
        let t = self.lane(pid, tid, lane);
        if lane == Lane::Functions {
            self.end_off_cpu(t, time);
        }
        t
    }
}
