//! Where the decoder's diagnostics go: the trace builder, or, in a part of
//! the stream decoded apart (`parts.rs`), a record that the join replays
//! into part 0's builder in order, so the counts, first offsets and
//! messages come out as if the stream had been decoded whole.

use crate::fast_hash::FastMap;
use crate::model::{Severity, TraceBuilder};

/// Takes diagnostics the way [`TraceBuilder::diagnose`] does.
pub trait Diagnose {
    /// See [`TraceBuilder::diagnose`]; `awaited` makes it hold only if the
    /// call before the part did (or did not) await its BTRC.
    fn said(&mut self, head: Head, awaited: Option<bool>, message: impl FnOnce() -> String);
}

/// What a diagnostic is, besides its message.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Head {
    pub severity: Severity,
    pub kind: &'static str,
    pub offset: Option<u64>,
    pub count: u64,
}

/// One diagnostic as the decoder said it.
#[derive(Clone, Debug, PartialEq)]
struct Said {
    head: Head,
    message: String,
}

impl Head {
    /// Into `builder`, for the trace file `file`.
    fn into_builder(
        self,
        builder: &mut TraceBuilder,
        file: Option<&str>,
        message: impl FnOnce() -> String,
    ) {
        let Head {
            severity,
            kind,
            offset,
            count,
        } = self;
        builder.diagnose(severity, kind, file, offset, count, message);
    }
}

/// A builder writing for one trace file.
pub struct ToBuilder<'a> {
    pub builder: &'a mut TraceBuilder,
    pub file: Option<&'a str>,
}

impl Diagnose for ToBuilder<'_> {
    fn said(&mut self, head: Head, _awaited: Option<bool>, message: impl FnOnce() -> String) {
        head.into_builder(self.builder, self.file, message);
    }
}

/// A part's diagnostics, folded per kind as the builder folds them (the
/// first message and offset, the counts added up), in order of first
/// appearance; the ones that depend on the parts before stay apart.
#[derive(Debug, Default)]
pub struct Record {
    entries: Vec<(Said, Option<bool>)>,
    index: FastMap<&'static str, usize>,
}

impl Diagnose for Record {
    fn said(&mut self, head: Head, awaited: Option<bool>, message: impl FnOnce() -> String) {
        if awaited.is_none() {
            if let Some(entry) = self
                .index
                .get(head.kind)
                .and_then(|&i| self.entries.get_mut(i))
            {
                entry.0.head.count += head.count;
                if entry.0.head.offset.is_none() {
                    entry.0.head.offset = head.offset;
                }
                return;
            }
            self.index.insert(head.kind, self.entries.len());
        }
        let message = message();
        self.entries.push((Said { head, message }, awaited));
    }
}

impl Record {
    /// Says it all again into `builder`, in order; `awaited` tells whether
    /// the call before the part awaited its BTRC.
    pub fn replay(self, builder: &mut TraceBuilder, file: Option<&str>, awaited: bool) {
        for (said, condition) in self.entries {
            if condition.is_none_or(|c| c == awaited) {
                said.head.into_builder(builder, file, || said.message);
            }
        }
    }
}
