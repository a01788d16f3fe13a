//! Allocations of memory and other resources, counter tracks and the
//! format-specific tables (lock lists, leak groups, file activity, hot
//! methods) that travel with a trace.

use super::Field;
use serde::{Deserialize, Serialize};

/// `free_time` of a block still live when the recording ended.
pub const NEVER_FREED: i64 = i64::MAX;

/// Every allocation of one resource type (heap memory, file descriptors,
/// `FILE` streams, …), in allocation order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Allocations {
    /// The resource type, as the tracer names it ("memory", "file descriptor").
    pub resource: String,
    /// What `size` counts ("bytes", or "count" for resources without a size).
    pub size_unit: String,
    /// Thread index (into `Trace::threads`) of each allocation, or one
    /// entry while every allocation was made on that one thread (sp-rtrace's
    /// one lane: 4 bytes an allocation saved); read it with
    /// [`Allocations::thread_of`].
    pub thread: Vec<u32>,
    pub time: Vec<i64>,
    pub size: Vec<u64>,
    /// The resource id (address, descriptor number).
    pub address: Vec<u64>,
    /// Allocation backtrace, an index into `Trace::stacks`.
    pub stack: Vec<u32>,
    /// When it was released, or [`NEVER_FREED`].
    pub free_time: Vec<i64>,
    /// The context mask each allocation was made in (sp-rtrace's contexts,
    /// one bit per context, 0 outside every context); empty for formats
    /// without contexts and for traces that never entered one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<u32>,
    /// Releases that matched no allocation (counted, not stored).
    pub unmatched_frees: u64,
}

impl Allocations {
    /// Number of allocations.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    /// True when nothing was allocated.
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// The thread allocation `at` was made on.
    pub fn thread_of(&self, at: usize) -> Option<u32> {
        match self.thread.as_slice() {
            [only] => (at < self.len()).then_some(*only),
            all => all.get(at).copied(),
        }
    }

    /// True when the thread column has one entry per allocation, or one for
    /// all of them.
    pub fn threads_agree(&self) -> bool {
        let n = self.thread.len();
        n == self.len() || (n == 1 && !self.is_empty())
    }

    /// Records allocation number `self.len()`'s thread (before its other
    /// columns): while all are on one thread, the column keeps one entry.
    pub(super) fn push_thread(&mut self, thread: u32) {
        let at = self.len();
        match self.thread.as_slice() {
            [only] if *only == thread && at >= 1 => {}
            &[only] if at > 1 => {
                // A second thread: the column is written out, as long as
                // the times' column can grow without a copy.
                self.thread = Vec::with_capacity(self.time.capacity().max(at + 1));
                self.thread.resize(at, only);
                self.thread.push(thread);
            }
            _ => self.thread.push(thread),
        }
    }

    /// The context mask of allocation `at` (0 when the trace has none).
    pub fn context_of(&self, at: usize) -> u32 {
        self.context.get(at).copied().unwrap_or(0)
    }

    /// Keeps the allocations where `keep` says so, in every column (the
    /// context too, when the trace has one): what a narrowing does to them.
    pub fn retain_where(&mut self, keep: &[bool]) {
        let one_thread = self.thread.len() == 1;
        if !one_thread {
            retain_where(&mut self.thread, keep);
        }
        retain_where(&mut self.time, keep);
        retain_where(&mut self.size, keep);
        retain_where(&mut self.address, keep);
        retain_where(&mut self.stack, keep);
        retain_where(&mut self.free_time, keep);
        retain_where(&mut self.context, keep);
        if self.is_empty() {
            self.thread.clear();
        }
    }
}

/// Keeps the elements of `column` where `keep` is true (false past its end).
fn retain_where<T>(column: &mut Vec<T>, keep: &[bool]) {
    let mut i = 0;
    column.retain(|_| {
        let k = keep.get(i).copied().unwrap_or(false);
        i += 1;
        k
    });
}

/// A series of numeric values over time: CPU load, live bytes, frequency.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counter {
    /// Track title ("CPU 0 load", "live heap").
    pub name: String,
    /// Unit of the values ("%", "bytes", "MHz").
    pub unit: String,
    /// The process it belongs to (index into `Trace::processes`), if any.
    pub process: Option<u32>,
    /// The thread it belongs to (index into `Trace::threads`), if any.
    pub thread: Option<u32>,
    /// Times in the trace's unit, ascending.
    pub time: Vec<i64>,
    /// The value from each time until the next.
    pub value: Vec<f64>,
}

/// A table the decoder computed for its format: shown as a sortable list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// A stable id for scripts and tests ("sync-objects", "leaks").
    pub id: String,
    pub title: String,
    pub columns: Vec<Column>,
    /// One string per column and row; numeric columns hold plain numbers.
    pub rows: Vec<Vec<String>>,
    /// Per row, the span detail that selecting the row highlights in every
    /// lane (for example `mutex = 0x7f…`); empty, or as long as `rows`.
    pub row_highlight: Vec<Option<Field>>,
    /// Explains the table, or why a view is missing.
    pub note: String,
}

/// A column of a [`Table`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    /// Sort as numbers rather than text.
    pub numeric: bool,
}

impl Column {
    /// A text column.
    pub fn text(name: &str) -> Self {
        Column {
            name: name.to_owned(),
            numeric: false,
        }
    }

    /// A numeric column.
    pub fn number(name: &str) -> Self {
        Column {
            name: name.to_owned(),
            numeric: true,
        }
    }
}
