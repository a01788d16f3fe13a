//! The common trace model: one columnar shape for every format.
//!
//! processes → threads (tracks) → spans, instants and samples, plus an interned
//! string table and the diagnostics. Columns are plain `Vec`s of numbers so a
//! 20-million-record trace stays compact and can be shipped between the worker
//! and the page as flat buffers (see [`codec`]). A trace is only ever made by
//! [`TraceBuilder`], which keeps the invariants the views rely on.

mod addresses;
mod builder;
mod builder_resources;
mod check;
pub mod codec;
pub mod columns;
mod details;
mod diagnostics;
mod event_log;
pub mod merge;
mod resources;
mod stacks;
mod strings;

pub use addresses::Addresses;
pub use builder::{
    merge_previews, CallSink, PreviewCursor, PreviewLimits, SpanRef, ThreadRef, TraceBuilder,
};
pub use builder_resources::{AllocationRef, CounterRef, ResourceRef, SampleSetRef};
pub use details::{
    kind_slots, Details, Field, Shapes, Value, KIND_FIXED, KIND_HEX, KIND_HEX32, KIND_HEX48,
    KIND_INT, KIND_INT32, KIND_NUMBERED, KIND_TEXT, NO_SHAPE,
};
pub use diagnostics::{Diagnostic, Severity};
pub use event_log::{site_role, value_form, EventLog, TextId};
pub use resources::{Allocations, Column, Counter, Table, NEVER_FREED};
pub use stacks::{SampleSet, StackTable, NO_PARENT};
pub use strings::{StrId, StringTable};

use serde::{Deserialize, Serialize};

/// Which tracer wrote the input. Each one has a row in the format registry
/// (`formats::FORMATS`), which detects and opens it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Uftrace,
    Scaler,
    Swap,
    SpRtrace,
    Selogger,
    /// The test-only example of the "how to add a format" recipe.
    #[cfg(feature = "example-format")]
    Example,
}

impl Format {
    /// Every format, in the order of their codes in the model's binary codec
    /// (1, 2, …): a new format goes at the end.
    pub const ALL: &'static [Format] = &[
        Format::Uftrace,
        Format::Scaler,
        Format::Swap,
        Format::SpRtrace,
        Format::Selogger,
        #[cfg(feature = "example-format")]
        Format::Example,
    ];

    /// The name used in reports and on the page.
    pub fn name(self) -> &'static str {
        match self {
            Format::Uftrace => "uftrace",
            Format::Scaler => "scaler",
            Format::Swap => "swap",
            Format::SpRtrace => "sp-rtrace",
            Format::Selogger => "selogger",
            #[cfg(feature = "example-format")]
            Format::Example => "example",
        }
    }

    /// The format's code in the binary codec: its place in [`Format::ALL`]
    /// from 1 (0 means "no format").
    pub fn code(self) -> u8 {
        let place = Format::ALL.iter().position(|&f| f == self).unwrap_or(0);
        u8::try_from(place + 1).unwrap_or(0)
    }

    /// The format of codec code `code`, if there is one.
    pub fn from_code(code: u8) -> Option<Format> {
        Format::ALL.get(usize::from(code).checked_sub(1)?).copied()
    }
}

/// The unit of every timestamp in a trace. `Events` is a logical clock: the
/// position of an event in the recorded sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUnit {
    Ns,
    Us,
    Events,
}

impl TimeUnit {
    /// The short name used in reports (`ns`, `us`, `events`).
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "us",
            TimeUnit::Events => "events",
        }
    }
}

/// A span flag: the span never ended in the data; it is drawn up to the end of
/// its thread.
pub const SPAN_OPEN_AT_END: u8 = 1;
/// A span flag: its start was not recorded (an exit without an entry) and was
/// set by the repair rule of the format.
pub const SPAN_START_REPAIRED: u8 = 2;
/// A span flag: the span was closed early because its stack was cut (data loss,
/// `exec`, `longjmp`).
pub const SPAN_CUT: u8 = 4;
/// A span flag: the span is not a function but time the thread spent off CPU.
pub const SPAN_OFF_CPU: u8 = 8;
/// A span flag: the call never returned because its stack was replaced
/// (`exec`, `longjmp`); it is drawn up to that point and left out of the
/// report's counts, as the original tools do.
pub const SPAN_ABANDONED: u8 = 16;
/// A span flag: a later piece of a call that a narrowing cut in pieces
/// (collapse recursion takes the calls between an outer and an inner call
/// of a function off the stack while the inner one runs); it is drawn and
/// timed like any span but not counted as another call.
pub const SPAN_CONTINUED: u8 = 32;
/// A span flag: the original tool tells recursion by the functions the stack
/// slots were entered as, not by the names the calls got when they returned
/// (uftrace after a LOST record or a mismatched return), and for this call
/// its answer is the opposite of what the span names say: the report adds
/// its total where the names say recursive, and not where they say outermost.
pub const SPAN_RECURSION_INVERTED: u8 = 64;
/// The key of a span detail (an integer in the trace's time unit): the time
/// the original tool counts for a call whose span could not be drawn that
/// long without overlapping the call before it (uftrace gives a return
/// without a call the duration stack slot 0 last held, which can reach back
/// past the previous record). The report adds it to the function's total
/// in place of the drawn duration. Only spans flagged `SPAN_START_REPAIRED`
/// have it.
pub const COUNTED_DURATION_KEY: &str = "counted duration";

/// A decoded trace.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Trace {
    pub format: Option<Format>,
    pub time_unit: Option<TimeUnit>,
    pub strings: StringTable,
    pub processes: Vec<Process>,
    pub threads: Vec<Thread>,
    pub diagnostics: Vec<Diagnostic>,
    /// Facts about the recording (command line, host, versions), shown in the
    /// summary panel, in input order.
    pub metadata: Vec<(String, String)>,
    /// Call stacks referred to by samples and allocations.
    pub stacks: StackTable,
    /// Weighted stacks: CPU samples, frequencies.
    pub sample_sets: Vec<SampleSet>,
    /// Allocations, one entry per resource type.
    pub allocations: Vec<Allocations>,
    /// Counter tracks.
    pub counters: Vec<Counter>,
    /// Format-specific tables (locks, leak groups, file activity, …).
    pub tables: Vec<Table>,
    /// The recorded event sequence, for formats whose own reader lists
    /// every event (SELogger's omniscient streams); empty for the others.
    #[serde(default, skip_serializing_if = "EventLog::is_empty")]
    pub event_log: EventLog,
}

impl Trace {
    /// Earliest and latest timestamp over every thread, or `None` when the
    /// trace holds no timed data.
    pub fn time_range(&self) -> Option<(i64, i64)> {
        let counters = self
            .counters
            .iter()
            .filter_map(|c| Some((*c.time.first()?, *c.time.last()?)));
        self.threads
            .iter()
            .filter_map(Thread::time_range)
            .chain(counters)
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
    }

    /// The string behind an id.
    pub fn str(&self, id: StrId) -> &str {
        self.strings.get(id)
    }
}

/// A process: a group of threads.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Process {
    /// The id the tracer gave it (a pid for uftrace).
    pub id: String,
    pub name: String,
}

/// A thread: one lane in the flame chart.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Thread {
    /// The id the tracer gave it (a tid for uftrace).
    pub id: String,
    pub name: String,
    /// Index into [`Trace::processes`].
    pub process: u32,
    /// Raw records of the input that belong to this thread.
    pub events: u64,
    pub spans: Spans,
    pub instants: Instants,
    /// The address each function was called at (uftrace), for the listing.
    #[serde(default, skip_serializing_if = "Addresses::is_empty")]
    pub addresses: Addresses,
    /// First and last timestamp seen on this thread (records of any kind).
    pub first_time: Option<i64>,
    pub last_time: Option<i64>,
}

impl Thread {
    /// The thread's time range, from every record it owns.
    pub fn time_range(&self) -> Option<(i64, i64)> {
        Some((self.first_time?, self.last_time?))
    }

    /// Deepest span depth (0 for a thread with only top-level spans).
    pub fn max_depth(&self) -> u16 {
        self.spans.depth.iter().copied().max().unwrap_or(0)
    }
}

/// Spans of one thread, in columns, in start order (pre-order: a parent comes
/// before its children). Within one depth, spans never overlap.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Spans {
    pub start: Vec<i64>,
    pub end: Vec<i64>,
    pub depth: Vec<u16>,
    pub name: Vec<StrId>,
    /// `SPAN_*` bits.
    pub flags: Vec<u8>,
    /// Extra fields of the spans that have them (arguments, return
    /// values, classes, sizes …), by span index.
    pub details: Details,
    /// Per span, time a narrowing took out of the span's self time without
    /// giving it to a child it kept: calls it dropped or hid, which uftrace
    /// still counts as children (`analysis::transform`). Empty on a decoded
    /// trace; a narrowed trace is made on the page and never shipped, so the
    /// codec does not carry it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taken_self: Vec<i64>,
}

impl Spans {
    /// Number of spans.
    pub fn len(&self) -> usize {
        self.start.len()
    }

    /// True when there are no spans.
    pub fn is_empty(&self) -> bool {
        self.start.is_empty()
    }

    /// Number of detail fields over all spans.
    pub fn detail_count(&self) -> usize {
        self.details.len()
    }

    /// Time a narrowing took out of span `index`'s self time (0 unless the
    /// trace was narrowed).
    pub fn taken_self(&self, index: usize) -> i64 {
        self.taken_self.get(index).copied().unwrap_or(0)
    }

    /// The extra fields of span `index` as text (empty if it has none);
    /// `strings` is the trace's string table.
    pub fn details_of(&self, index: u32, strings: &StringTable) -> Vec<Field> {
        self.details.fields_of(index, strings)
    }
}

/// Instant markers of one thread, in time order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Instants {
    pub time: Vec<i64>,
    pub name: Vec<StrId>,
    /// Fields of the markers that carry a payload, by marker index.
    pub details: Details,
}

impl Instants {
    /// Number of markers.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    /// True when there are no markers.
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// Number of detail fields over all markers.
    pub fn detail_count(&self) -> usize {
        self.details.len()
    }

    /// The fields of marker `index` as text (empty if it has none).
    pub fn details_of(&self, index: u32, strings: &StringTable) -> Vec<Field> {
        self.details.fields_of(index, strings)
    }
}
