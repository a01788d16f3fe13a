//! The Tizen Dynamic Analyzer's File, Network and Thread pages as data: from
//! a decoded trace, the rows of a lane chart (one per file per thread, per
//! socket, per sync object per thread), the intervals drawn on them (open,
//! read, write, lock held, lock wait, …), the API calls marked on them, and
//! the table under the chart recomputed for any time range (the DA's range
//! inspection, [`summarize`]).
//!
//! SWAP's probes are instants named `file <api>: API #n`, `network <api>: …`
//! and `sync <api>: …` with their details (`fd`, `path`, `size`; `socket`,
//! `destination`, `bytes`, `data`; `sync object`, `sync type`), see
//! `formats::swap::build::probes`. Scaler's pthread and semaphore calls are
//! spans whose details name the object (`formats::scaler::sync`).

mod book;
mod files;
mod network;
mod probes;
mod range;
mod sync;

pub use range::{summarize, RowSummary, STATES};

use crate::model::{Format, StrId, Trace};

/// Which page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActivityKind {
    /// One row per file path per thread.
    Files,
    /// One row per socket.
    Network,
    /// One row per sync object per thread.
    Sync,
}

/// What an interval on a row means (its colour on the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum State {
    /// A file or socket open (from open to close).
    Open,
    /// A read (or receive) in progress.
    Read,
    /// A write (or send) in progress.
    Write,
    /// Waiting for a lock, a condition, a semaphore, a barrier or a thread.
    Wait,
    /// Holding a lock.
    Held,
}

impl State {
    /// The name shown in legends and details.
    pub fn name(self) -> &'static str {
        match self {
            State::Open => "open",
            State::Read => "read",
            State::Write => "write",
            State::Wait => "wait",
            State::Held => "held",
        }
    }
}

/// One row of the chart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Index into `Trace::threads` of the thread whose calls fill the row
    /// (for a socket used by several threads, the first one).
    pub thread: u32,
    /// The file path, the socket, or `kind address` of a sync object.
    pub object: String,
    /// What else identifies it: the socket's destination, the sync type.
    pub note: String,
}

/// A stretch of time a row spends in one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub row: u32,
    pub start: i64,
    pub end: i64,
    pub state: State,
    /// It never ended in the data: drawn up to the end of the trace.
    pub open_at_end: bool,
}

/// Where a mark's event is in the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// An instant of `Trace::threads[thread]`.
    Instant { thread: u32, index: u32 },
    /// A span of `Trace::threads[thread]`.
    Span { thread: u32, index: u32 },
}

/// One API call on a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub row: u32,
    pub time: i64,
    /// The API, as the DA names it (`open`, `read end`, `connect`, …).
    pub api: &'static str,
    /// The event's own name in the trace.
    pub name: StrId,
    /// Bytes read (or received).
    pub read: u64,
    /// Bytes written (or sent).
    pub written: u64,
    /// The call failed (a non-zero errno).
    pub failed: bool,
    pub source: Source,
}

/// A page's rows, intervals (by row, then start) and marks (by row, then
/// time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Activity {
    pub kind: ActivityKind,
    pub rows: Vec<Row>,
    pub intervals: Vec<Interval>,
    pub marks: Vec<Mark>,
}

impl Activity {
    /// True when there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// The page `kind` of `trace` (empty when the trace has no such events).
pub fn build(trace: &Trace, kind: ActivityKind) -> Activity {
    let book = match kind {
        ActivityKind::Files => files::build(trace),
        ActivityKind::Network => network::build(trace),
        ActivityKind::Sync => sync::build(trace),
    };
    book.finish(kind)
}

/// Which pages `trace` has, cheaply (no event is read): for SWAP, whether a
/// probe of the kind was ever named; for Scaler, its sync-objects table.
pub fn present(trace: &Trace) -> (bool, bool, bool) {
    match trace.format {
        Some(Format::Swap) => {
            let named = |prefix: &str| {
                trace
                    .strings
                    .all()
                    .iter()
                    .any(|s| s.starts_with(prefix) && s.contains(": API #"))
            };
            let files = trace.tables.iter().any(|t| t.id == "file-activity");
            (files, named("network "), named("sync "))
        }
        Some(Format::Scaler) => (
            false,
            false,
            trace.tables.iter().any(|t| t.id == "sync-objects"),
        ),
        _ => (false, false, false),
    }
}

/// The API of a SWAP probe named `<kind> <api>: API #n`, if the name is one
/// of kind `kind`.
fn probe_api<'a>(name: &'a str, kind: &str) -> Option<&'a str> {
    let rest = name.strip_prefix(kind)?.strip_prefix(' ')?;
    let (api, _) = rest.split_once(": API #")?;
    Some(api)
}
