//! CATCH / CATCH_LABEL and METHOD_THROW: instants on the lane, and the
//! frames a caught exception left behind are closed.

use super::frames::ThreadState;
use super::{Known, Replay};
use crate::formats::selogger::statics::EventKind;
use crate::model::Field;

impl Replay {
    /// CATCH / CATCH_LABEL: control is back in the handler's method, its open
    /// call site included; a real catch (not the weaver's own catch-all
    /// before METHOD_EXCEPTIONAL_EXIT) is a `catch` instant.
    pub(super) fn catch(&mut self, state: &mut ThreadState, at: Known) {
        let Known { info, event, .. } = at;
        self.settle(state, info.method, true, event.seq);
        let generated = info.attribute("location") == Some("exceptional-exit")
            || info.attribute("exceptionalexit").is_some();
        if info.kind == EventKind::Catch && !generated {
            let text = self.statics.objects.describe_exception(event.value as u64);
            let name = self.builder.intern("catch");
            let fields = vec![
                Field::new("exception", text),
                Field::new("location", info.attribute("location").unwrap_or("handler")),
            ];
            self.builder.instant(state.lane, event.seq, name, fields);
        }
    }

    /// METHOD_THROW: a `throw` instant with the exception and line.
    pub(super) fn throw(&mut self, state: &mut ThreadState, at: Known) {
        let Known { info, event, .. } = at;
        self.settle(state, info.method, false, event.seq);
        let text = self.statics.objects.describe_exception(event.value as u64);
        let name = self.builder.intern("throw");
        let mut fields = vec![Field::new("exception", text)];
        if info.line > 0 {
            fields.push(Field::new("line", info.line.to_string()));
        }
        self.builder.instant(state.lane, event.seq, name, fields);
    }
}
