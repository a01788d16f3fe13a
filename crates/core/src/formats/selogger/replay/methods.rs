//! METHOD_ENTRY, METHOD_PARAM and the two method exits: a method span opens
//! at its entry, collects `param N` details and closes after its exit.

use super::frames::{find_method, Frame, FrameKind, ThreadState};
use super::values::key;
use super::{Known, Replay};
use crate::formats::selogger::objects::describe_value;
use crate::formats::selogger::statics::{EventKind, ValueDesc};
use crate::model::{Severity, Value};

impl Replay {
    /// METHOD_ENTRY: a method span, with `this` for instance methods.
    pub(super) fn enter(&mut self, state: &mut ThreadState, at: Known) {
        let Known { id, info, event } = at;
        let Some(span) = self.begin_span(state.lane, at) else {
            return;
        };
        if info.value == ValueDesc::Object && event.value != 0 {
            let key = key(&mut self.keys.this, &mut self.builder, "this");
            let text = self.value_text_id(id, event.value, |objects| {
                objects.describe_object(event.value as u64)
            });
            self.builder
                .detail(state.lane, span, key, Value::Text(text));
        }
        let frame = Frame::open(FrameKind::Method, info.method, span, event.millis);
        state.frames.push(frame);
    }

    /// METHOD_PARAM: `param N` (`name = value` when the weaver knew the name)
    /// on the method's own open frame.
    pub(super) fn method_param(&mut self, state: &mut ThreadState, at: Known) {
        let Known { id, info, event } = at;
        self.settle(state, info.method, false, event.seq);
        let Some((span, n)) = state.next_param(info.method, false) else {
            return;
        };
        let key = self.statics.param_key(&mut self.builder, n);
        let shown = self.value_text_id(id, event.value, |objects| {
            let value = describe_value(info.value, event.value, objects);
            match (info.attribute("name"), value) {
                (Some(name), Some(v)) => format!("{name} = {v}"),
                (_, Some(v)) => v,
                (Some(name), None) => name.to_owned(),
                (None, None) => String::new(),
            }
        });
        self.builder
            .detail(state.lane, span, key, Value::Text(shown));
    }

    /// METHOD_NORMAL_EXIT / METHOD_EXCEPTIONAL_EXIT: closes the innermost
    /// frame of the method (and any an exception left above it), with its
    /// return value or exception.
    pub(super) fn method_exit(&mut self, state: &mut ThreadState, at: Known) {
        let Known { id, info, event } = at;
        let lane = state.lane;
        let Some(open) = find_method(&state.frames, info.method) else {
            self.builder.diagnose(
                Severity::Info,
                "exit-without-entry",
                None,
                None,
                1,
                || "method exits had no open entry of the same method on their thread; they were skipped".into(),
            );
            return;
        };
        self.close_above(state, open, event.seq);
        let Some(frame) = state.frames.pop() else {
            return;
        };
        if info.kind == EventKind::ExceptionalExit {
            let key = key(&mut self.keys.exception, &mut self.builder, "exception");
            let text = self.value_text_id(id, event.value, |objects| {
                objects.describe_exception(event.value as u64)
            });
            self.builder
                .detail(lane, frame.span, key, Value::Text(text));
        } else if info.value != ValueDesc::Void {
            let key = key(&mut self.keys.ret, &mut self.builder, "return");
            self.value_detail(lane, frame.span, key, at);
        }
        self.end_frame(lane, &frame, event.seq + 1, event.millis);
    }
}
