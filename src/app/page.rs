//! [`PageState`]: everything the page shows, owned by the app in one place —
//! the trace on screen and the comparison trace (each behind one
//! [`LoadSlot`]), the views' state, the selection, the highlight, the search
//! and the theme. The components get it as props; `window.flamedrop` reads
//! a copy the app publishes after each change ([`PageState::publish`]).

use super::listing::ListingState;
use crate::loading::slot::{LoadSlot, Progress};
use crate::render::colors::Colouring;
use crate::script_api::narrow::NarrowReport;
use crate::script_api::Snapshot;
use crate::timeline::SpanRef;
use crate::ui::sidebar::Tab;
use crate::view_model::highlight::Highlight;
use crate::view_model::narrowing::Narrowing;
use crate::view_model::ViewState;
use crate::view_model::{Compared, Loaded};
use flamedrop_core::analysis::search::{count, MatchCount, Matcher};
use std::rc::Rc;

/// The page's phase; its name is mirrored to `document.body.dataset.state`.
#[derive(Clone, PartialEq)]
pub enum Phase {
    Idle,
    Loading(Progress),
    Ready(Rc<Loaded>),
    Error(String),
}

impl Phase {
    /// The `data-state` name.
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Loading(_) => "loading",
            Phase::Ready(_) => "ready",
            Phase::Error(_) => "error",
        }
    }
}

/// The comparison trace's side of the page.
pub struct CompareState {
    pub slot: LoadSlot,
    /// The comparison, once its trace is loaded: the trace on screen and
    /// the comparison trace, both narrowed by the stack.
    pub compared: Option<Rc<Compared>>,
    /// The comparison trace as decoded.
    pub decoded: Option<Rc<Loaded>>,
    /// Counts the comparison's narrowings; an older one's result is dropped.
    pub narrowings: u32,
    /// Why the last comparison load failed.
    pub error: Option<String>,
    /// The compare panel is open.
    pub panel: bool,
}

/// What the page shows.
pub struct PageState {
    /// The load of the trace on screen.
    pub main: LoadSlot,
    /// The trace on screen, as the narrowing stack leaves it: what every
    /// view reads.
    pub trace: Option<Rc<Loaded>>,
    /// The trace on screen as decoded.
    pub base: Option<Rc<Loaded>>,
    /// The narrowing stack's results (the stack itself is `views.narrow`).
    pub narrowing: Narrowing,
    /// Counts the traces shown since the load (a narrowing shows another):
    /// the timeline starts afresh on each.
    pub shown_version: u32,
    /// Why the last load failed.
    pub error: Option<String>,
    pub compare: CompareState,
    /// View, source, function, search, range, lanes (in the URL fragment),
    /// flame graph zoom and diff side.
    pub views: ViewState,
    pub selected: Option<SpanRef>,
    /// The selected event of the trace's event log (SELogger): where the
    /// Values view's jumps, the Source view and stepping stand.
    pub event: Option<u32>,
    /// The location the Values view shows.
    pub values_at: Option<flamedrop_core::analysis::values::Location>,
    /// A span to bring into view in the timeline: (request number, span).
    pub focus: Option<(u32, SpanRef)>,
    pub tab: Tab,
    /// The spans carrying a detail chosen in a table.
    pub highlight: Option<Rc<Highlight>>,
    /// Per string id: matches the search.
    pub marks: Option<Rc<Vec<bool>>>,
    pub count: Option<Result<MatchCount, String>>,
    /// The last search jump in a tree view: (node, bump).
    pub reveal: Option<(u32, u32)>,
    /// The theme and how calls are coloured.
    pub colouring: Colouring,
    pub help: bool,
    /// The Listing view's build, its timing and its search jumps.
    pub listing: ListingState,
    /// A reopened `.flamedrop` file's selection, tab and zoom, waiting for
    /// the trace to be narrowed as saved (`app::save::restore`).
    pub reopened: Option<flamedrop_core::saved::Header>,
    /// The timeline's window a reopened file was saved with (start, end,
    /// scroll), which the chart starts from; `None` once another trace is
    /// shown.
    pub timeline_window: Option<(f64, f64, f64)>,
}

impl PageState {
    pub fn new(views: ViewState, dark: bool) -> PageState {
        PageState {
            main: LoadSlot::new(true),
            trace: None,
            base: None,
            narrowing: Narrowing::default(),
            shown_version: 0,
            error: None,
            compare: CompareState {
                // One worker decodes a comparison: it is never split.
                slot: LoadSlot::new(false),
                compared: None,
                decoded: None,
                narrowings: 0,
                error: None,
                panel: false,
            },
            views,
            selected: None,
            event: None,
            values_at: None,
            focus: None,
            tab: Tab::Summary,
            highlight: None,
            marks: None,
            count: None,
            reveal: None,
            colouring: Colouring {
                dark,
                by_group: false,
            },
            help: false,
            listing: ListingState::default(),
            reopened: None,
            timeline_window: None,
        }
    }

    /// What the page is doing.
    pub fn phase(&self) -> Phase {
        if let Some(progress) = &self.main.progress {
            Phase::Loading(progress.clone())
        } else if let Some(message) = &self.error {
            Phase::Error(message.clone())
        } else if let Some(trace) = &self.trace {
            Phase::Ready(trace.clone())
        } else {
            Phase::Idle
        }
    }

    /// A new load starts: forget the trace on screen and everything that
    /// belongs to it (a comparison belongs to the trace it was opened
    /// against).
    pub fn forget_trace(&mut self) {
        self.trace = None;
        self.base = None;
        self.narrowing.reset();
        self.error = None;
        self.selected = None;
        self.event = None;
        self.values_at = None;
        self.focus = None;
        self.tab = Tab::Summary;
        self.highlight = None;
        self.views.forget_zoom();
        self.timeline_window = None;
        self.forget_comparison();
    }

    /// Forgets the comparison trace (and stops its load).
    pub fn forget_comparison(&mut self) {
        let c = &mut self.compare;
        c.slot.cancel();
        c.error = None;
        c.compared = None;
        c.decoded = None;
        c.narrowings = c.narrowings.wrapping_add(1);
    }

    /// Recompiles the search against the trace on screen.
    pub fn refresh_search(&mut self) {
        self.reveal = None;
        let Some(loaded) = &self.trace else {
            return;
        };
        match Matcher::parse(&self.views.search) {
            Ok(Some(m)) => {
                let marks = m.mark(&loaded.trace.strings);
                self.count = Some(Ok(count(&loaded.trace, &marks)));
                self.marks = Some(Rc::new(marks));
            }
            Ok(None) => {
                self.count = None;
                self.marks = None;
            }
            Err(e) => {
                self.count = Some(Err(e));
                self.marks = None;
            }
        }
    }

    /// Copies what `window.flamedrop` reads into `snapshot`.
    pub fn publish(&self, snapshot: &mut Snapshot) {
        snapshot.loaded.clone_from(&self.trace);
        snapshot.comparison.clone_from(&self.compare.compared);
        snapshot.views.clone_from(&self.views);
        snapshot.highlight.clone_from(&self.highlight);
        snapshot.colouring = self.colouring;
        snapshot.narrowing = NarrowReport::of(&self.narrowing);
        snapshot.listing_timing = self.listing.timing;
        snapshot.listing_building = self.listing.building.is_some();
        snapshot.event = self.event;
        snapshot.values_at.clone_from(&self.values_at);
    }
}
