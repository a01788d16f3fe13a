//! The trace on screen ([`Loaded`]): the decoded trace, what the views
//! precompute once (row indices, time origin), and the aggregated trees the
//! views built from it so far ([`Trees`]). No web types: it builds natively.

use super::read_events::ReadEvents;
use super::source_view_files::SourceFiles;
use super::trees::Trees;
use crate::view_model::SourceKey;
use flamedrop_core::analysis::listing::{Listing, ListingError, ListingOptions};
use flamedrop_core::analysis::values::Stepper;
use flamedrop_core::analysis::CallTree;
use flamedrop_core::layout::counter::CounterIndex;
use flamedrop_core::layout::ThreadIndex;
use flamedrop_core::model::StrId;
use flamedrop_core::model::Trace;
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

/// A decoded trace with what the views precompute once.
pub struct Loaded {
    pub trace: Trace,
    /// Per thread (same order as `trace.threads`): span indices by depth.
    pub index: Vec<ThreadIndex>,
    /// Per counter (same order as `trace.counters`): its value range and
    /// block maxima, built while unpacking rather than in the first frame.
    pub counter_index: Vec<CounterIndex>,
    /// The trace's first timestamp: view times are offsets from it.
    pub origin: i64,
    /// Length of the trace in its time unit.
    pub duration: i64,
    /// Where the calls are, as offsets from `origin` (first start, last end).
    pub calls: Option<(i64, i64)>,
    /// What was opened ("uftrace.data/", "demo a-simple-nested").
    pub label: String,
    /// The aggregated trees built so far; they go with the trace.
    trees: Trees,
    /// The listing built last, with the options it was built with.
    listing: RefCell<Option<(ListingOptions, Built)>>,
    /// uftrace's read-trigger deltas per call and per tree node.
    pub read_events: ReadEvents,
    /// The screen a reopened `.flamedrop` file was saved on.
    pub reopened: Option<flamedrop_core::saved::Header>,
    /// The traced program's sources dropped with the trace (Source view).
    pub sources: SourceFiles,
    /// The event log's per-thread order and frames (SELogger stepping),
    /// indexed on the first step.
    stepper: OnceCell<Stepper>,
}

/// A built listing of the trace, or why it has none.
pub type Built = Rc<Result<Listing, ListingError>>;

impl Loaded {
    /// A decoded trace with its per-thread and per-counter indices (same
    /// order as its threads and counters).
    pub fn new(
        trace: Trace,
        index: Vec<ThreadIndex>,
        counter_index: Vec<CounterIndex>,
        label: String,
    ) -> Loaded {
        let (origin, end) = trace.time_range().unwrap_or((0, 0));
        // Spans are in start order and nest inside the top-level ones, so a
        // thread's calls run from its first span's start to its last
        // top-level span's end.
        let calls = trace
            .threads
            .iter()
            .zip(&index)
            .filter_map(|(t, ix): (_, &ThreadIndex)| {
                let last_top = ix.row(0).last()? as usize;
                Some((*t.spans.start.first()?, *t.spans.end.get(last_top)?))
            })
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
            .map(|(a, b)| (a - origin, b - origin));
        Loaded {
            read_events: ReadEvents::new(&trace),
            index,
            counter_index,
            origin,
            duration: end.saturating_sub(origin),
            calls,
            label,
            trace,
            trees: Trees::default(),
            listing: RefCell::new(None),
            reopened: None,
            sources: SourceFiles::default(),
            stepper: OnceCell::new(),
        }
    }

    /// The listing built with `options`, if it is built.
    pub fn listing(&self, options: &ListingOptions) -> Option<Built> {
        let kept = self.listing.borrow();
        let (with, built) = kept.as_ref()?;
        (with == options).then(|| built.clone())
    }

    /// The event log's stepper (indexed once, on first use).
    pub fn stepper(&self) -> &Stepper {
        self.stepper
            .get_or_init(|| Stepper::new(&self.trace.event_log))
    }

    /// Keeps a listing built with `options` (it replaces the one kept).
    pub fn keep_listing(&self, options: ListingOptions, built: Built) {
        *self.listing.borrow_mut() = Some((options, built));
    }

    /// The listing with `options`, built now at once if it is not yet (a
    /// script asked for it before the view built it).
    pub fn listing_now(&self, options: &ListingOptions) -> Built {
        if let Some(built) = self.listing(options) {
            return built;
        }
        let built = Rc::new(Listing::new(&self.trace, options));
        self.keep_listing(options.clone(), built.clone());
        built
    }

    /// The trace's time unit name (`ns`, `us`, `events`).
    pub fn unit(&self) -> &'static str {
        self.trace.time_unit.map_or("ns", |u| u.name())
    }

    /// The name of the process that owns thread `t`.
    pub fn process_name(&self, t: usize) -> &str {
        self.trace
            .threads
            .get(t)
            .and_then(|th| self.trace.processes.get(th.process as usize))
            .map_or("", |p| p.name.as_str())
    }

    /// The lane title of thread `t`.
    pub fn thread_title(&self, t: usize) -> String {
        match self.trace.threads.get(t) {
            Some(th) => {
                crate::view_model::text::thread_title(self.process_name(t), &th.name, &th.id)
            }
            None => String::new(),
        }
    }

    /// The top-down tree of `source` within `range` (kept with the trace).
    pub fn top_down(&self, source: SourceKey, range: Option<(i64, i64)>) -> Rc<CallTree> {
        self.trees.top_down(&self.trace, source, range)
    }

    /// The bottom-up tree of `source` within `range`.
    pub fn inverted(&self, source: SourceKey, range: Option<(i64, i64)>) -> Rc<CallTree> {
        self.trees.inverted(&self.trace, source, range)
    }

    /// The bottom-up tree if `inverted`, else the top-down one.
    pub fn tree(
        &self,
        source: SourceKey,
        range: Option<(i64, i64)>,
        inverted: bool,
    ) -> Rc<CallTree> {
        self.trees.tree(&self.trace, source, range, inverted)
    }

    /// The (callers, callees) trees of `function`.
    pub fn sandwich(
        &self,
        source: SourceKey,
        range: Option<(i64, i64)>,
        function: StrId,
    ) -> (Rc<CallTree>, Rc<CallTree>) {
        self.trees.sandwich(&self.trace, source, range, function)
    }

    /// The string id of function `name`, if the trace has it.
    pub fn function_id(&self, name: &str) -> Option<StrId> {
        self.trace
            .strings
            .all()
            .iter()
            .position(|s| s == name)
            .map(|i| i as StrId)
    }

    /// Spans over all threads.
    pub fn span_count(&self) -> usize {
        self.trace.threads.iter().map(|t| t.spans.len()).sum()
    }
}

/// Two `Loaded` are the same trace only if they are the same object (comparing
/// traces by value would be slow and never needed).
impl PartialEq for Loaded {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// Traces for the native tests of the view model and the writers.
#[cfg(test)]
pub(crate) mod test_traces {
    use super::Loaded;
    use flamedrop_core::layout::ThreadIndex;
    use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};

    /// One thread: main(0..100) calling work(10..20).
    pub(crate) fn main_and_work() -> Loaded {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let (main, work) = (b.intern("main"), b.intern("work"));
        b.begin(t, 0, main, 0);
        b.begin(t, 10, work, 0);
        b.end(t, 20);
        b.end(t, 100);
        let trace = b.finish();
        let index = trace
            .threads
            .iter()
            .map(|t| ThreadIndex::new(&t.spans))
            .collect();
        Loaded::new(trace, index, Vec::new(), "test".to_owned())
    }
}
