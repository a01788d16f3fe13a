//! CALL, CALL_PARAM and CALL_RETURN: a call site is a child span
//! `call Owner.name` of its method, so a woven callee nests inside it.

use super::frames::{Frame, FrameKind, ThreadState};
use super::values::key;
use super::{Known, Replay};
use crate::formats::selogger::statics::ValueDesc;
use crate::model::Severity;

impl Replay {
    /// CALL: a call-site span, with its receiver when it has one.
    pub(super) fn call(&mut self, state: &mut ThreadState, at: Known) {
        let Known { info, event, .. } = at;
        self.settle(state, info.method, false, event.seq);
        let call_id = u32::try_from(event.data_id).unwrap_or(u32::MAX);
        let Some(span) = self.begin_span(state.lane, at) else {
            return;
        };
        if info.value != ValueDesc::Void && event.value != 0 {
            let key = key(&mut self.keys.receiver, &mut self.builder, "receiver");
            self.value_detail(state.lane, span, key, at);
        }
        let frame = Frame::open(FrameKind::Call(call_id), info.method, span, event.millis);
        state.frames.push(frame);
    }

    /// CALL_PARAM: `param N` on the open call site of the same method.
    pub(super) fn call_param(&mut self, state: &mut ThreadState, at: Known) {
        let Some((span, n)) = state.next_param(at.info.method, true) else {
            return;
        };
        let key = self.statics.param_key(&mut self.builder, n);
        self.value_detail(state.lane, span, key, at);
    }

    /// CALL_RETURN: closes the call site it returns from (and any frames an
    /// exception left above it), with the returned value.
    pub(super) fn call_return(&mut self, state: &mut ThreadState, at: Known) {
        let Known { info, event, .. } = at;
        let lane = state.lane;
        let data_id = u32::try_from(event.data_id).unwrap_or(u32::MAX);
        let open = self.statics.call_of_return(data_id).and_then(|c| {
            state
                .frames
                .iter()
                .rposition(|f| f.kind == FrameKind::Call(c))
        });
        let Some(open) = open else {
            self.builder
                .diagnose(Severity::Info, "return-without-call", None, None, 1, || {
                    "CALL_RETURN events had no open CALL of the same call site; they were skipped"
                        .into()
                });
            return;
        };
        self.close_above(state, open, event.seq);
        let Some(frame) = state.frames.pop() else {
            return;
        };
        if info.value != ValueDesc::Void {
            let key = key(&mut self.keys.ret, &mut self.builder, "return");
            self.value_detail(lane, frame.span, key, at);
        }
        self.end_frame(lane, &frame, event.seq + 1, event.millis);
    }
}
