//! What the page shows besides the trace itself: which view is open, which
//! data the aggregated views draw ([`SourceKey`]), the picked function, the
//! search and the time range — and how that state is written to and read
//! from the URL fragment ([`ViewState::to_fragment`]), so a reload restores
//! it. Trace content never goes into the URL: only names of views, indices
//! of sources, one function name (what the user picked or typed) and numbers.
//!
//! No web types here: it is tested natively. [`VIEWS`] lists the views.

use super::source::SourceKey;
use crate::timeline::lane_layout::LaneLayout;

use flamedrop_core::analysis::diff::Side;
use flamedrop_core::analysis::listing::ListingOptions;
use flamedrop_core::analysis::transform::Stack;
use flamedrop_core::model::Trace;
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use std::collections::BTreeMap;

/// The views of the header's switcher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// The time-ordered flame chart, one lane per thread.
    #[default]
    Timeline,
    /// The aggregated, left-heavy flame graph.
    FlameGraph,
    /// Callers and callees of one function.
    Sandwich,
    /// The call-tree table, top-down or bottom-up.
    CallTree,
    /// The time-ordered text each format's own tool prints (`uftrace
    /// replay`, `LogPrinter`, `sp-rtrace-postproc`), as a virtual list.
    Listing,
    /// Two traces compared: differential flame graph and table of changes
    /// (offered only while a comparison trace is open).
    Diff,
    /// Live memory (or any allocation resource) over time, its peak, size
    /// and lifetime histograms (sp-rtrace-timeline, the Dynamic Analyzer's
    /// Memory page).
    Memory,
    /// One row per file per thread: open / closed, reads and writes, locks
    /// (the Dynamic Analyzer's File page).
    Files,
    /// One row per socket: connect, send, receive with payloads (the
    /// Dynamic Analyzer's Network page).
    Network,
    /// Per thread, lock-held and lock-wait intervals per sync object (the
    /// Dynamic Analyzer's Thread page; Scaler's sync objects).
    Threads,
    /// Time by component (library, module): a table per library, the
    /// caller → callee flows and a drill-down icicle (Scaler's analyzer).
    Components,
    /// SELogger: the history of values at one location (data id, variable,
    /// field) in event order, with a chart for numbers (NOD4J, REMViewer).
    Values,
    /// SELogger: a method's source file with each line's observed values
    /// beside it (NOD4J's presentation), or its class/method/lines from
    /// `dataids.txt` when no sources were dropped.
    Source,
}

/// What a view needs the trace (or the page) to have before it is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    /// A comparison trace is open.
    Comparison,
    /// An allocation resource.
    Allocations,
    /// File activity.
    Files,
    /// Socket activity.
    Sockets,
    /// Sync objects (locks, condition variables, semaphores, joins).
    SyncObjects,
    /// An event log with values (SELogger).
    EventLog,
}

/// What the page needs to know about a view: the one list to extend when a
/// view is added (see "How to add a view" in ARCHITECTURE.md).
#[derive(Clone, Copy, Debug)]
pub struct ViewInfo {
    pub view: View,
    /// The name used in `data-view`, ids (`#view-<name>`), the URL and
    /// `flamedrop.view()`.
    pub name: &'static str,
    /// The switcher's label.
    pub label: &'static str,
    /// The key that opens it.
    pub key: &'static str,
    /// The canvas that shows it (what "Export PNG" copies), if any.
    pub canvas: Option<&'static str>,
    /// What must be there for the view to be offered.
    pub needs: Needs,
}

/// Every view, in switcher order.
pub const VIEWS: [ViewInfo; 13] = [
    ViewInfo {
        view: View::Timeline,
        name: "timeline",
        label: "Timeline",
        key: "1",
        canvas: Some("flamechart"),
        needs: Needs::Nothing,
    },
    ViewInfo {
        view: View::FlameGraph,
        name: "flamegraph",
        label: "Flame graph",
        key: "2",
        canvas: Some("flamegraph"),
        needs: Needs::Nothing,
    },
    ViewInfo {
        view: View::Sandwich,
        name: "sandwich",
        label: "Sandwich",
        key: "3",
        canvas: Some("sandwich-callees"),
        needs: Needs::Nothing,
    },
    ViewInfo {
        view: View::CallTree,
        name: "calltree",
        label: "Call tree",
        key: "4",
        canvas: None,
        needs: Needs::Nothing,
    },
    ViewInfo {
        view: View::Listing,
        name: "listing",
        label: "Listing",
        key: "6",
        canvas: None,
        needs: Needs::Nothing,
    },
    ViewInfo {
        view: View::Diff,
        name: "diff",
        label: "Diff",
        key: "5",
        canvas: Some("diff-flamegraph"),
        needs: Needs::Comparison,
    },
    ViewInfo {
        view: View::Memory,
        name: "memory",
        label: "Memory",
        key: "7",
        canvas: Some("memory-chart"),
        needs: Needs::Allocations,
    },
    ViewInfo {
        view: View::Files,
        name: "files",
        label: "Files",
        key: "8",
        canvas: Some("files-chart"),
        needs: Needs::Files,
    },
    ViewInfo {
        view: View::Network,
        name: "network",
        label: "Network",
        key: "9",
        canvas: Some("network-chart"),
        needs: Needs::Sockets,
    },
    ViewInfo {
        view: View::Threads,
        name: "threads",
        label: "Threads",
        key: "t",
        canvas: Some("threads-chart"),
        needs: Needs::SyncObjects,
    },
    ViewInfo {
        view: View::Components,
        name: "components",
        label: "Components",
        key: "l",
        canvas: Some("components-chart"),
        needs: Needs::Nothing,
    },
    ViewInfo {
        view: View::Values,
        name: "values",
        label: "Values",
        key: "v",
        canvas: Some("values-chart"),
        needs: Needs::EventLog,
    },
    ViewInfo {
        view: View::Source,
        name: "source",
        label: "Source",
        key: "e",
        canvas: None,
        needs: Needs::EventLog,
    },
];

/// What the trace on screen (and the page) has, for [`View::offered`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Available {
    pub comparison: bool,
    pub allocations: bool,
    pub files: bool,
    pub sockets: bool,
    pub sync_objects: bool,
    pub event_log: bool,
}

impl Available {
    /// What `trace` has, with or without a comparison open.
    pub fn of(trace: &Trace, comparison: bool) -> Available {
        let (files, sockets, sync_objects) = flamedrop_core::analysis::activity::present(trace);
        Available {
            comparison,
            allocations: trace.allocations.iter().any(|a| !a.is_empty()),
            files,
            sockets,
            sync_objects,
            // SELogger's near-omniscient and frequency outputs too: their
            // Values view says why there is no history.
            event_log: !trace.event_log.is_empty()
                || trace.format == Some(flamedrop_core::model::Format::Selogger),
        }
    }

    /// True when the page has what `needs` asks for.
    pub fn has(&self, needs: Needs) -> bool {
        match needs {
            Needs::Nothing => true,
            Needs::Comparison => self.comparison,
            Needs::Allocations => self.allocations,
            Needs::Files => self.files,
            Needs::Sockets => self.sockets,
            Needs::SyncObjects => self.sync_objects,
            Needs::EventLog => self.event_log,
        }
    }
}

impl View {
    /// The view's entry in [`VIEWS`].
    pub fn info(self) -> &'static ViewInfo {
        VIEWS.iter().find(|i| i.view == self).unwrap_or(&VIEWS[0])
    }

    /// The views offered: those whose needs the page meets.
    pub fn offered(available: Available) -> impl Iterator<Item = View> {
        VIEWS
            .iter()
            .filter(move |i| available.has(i.needs))
            .map(|i| i.view)
    }

    /// The name used in `data-view`, ids, the URL and `flamedrop.view()`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The switcher's label.
    pub fn label(self) -> &'static str {
        self.info().label
    }

    /// The canvas that shows the view, if any.
    pub fn canvas_id(self) -> Option<&'static str> {
        self.info().canvas
    }

    /// The view called `name`.
    pub fn parse(name: &str) -> Option<View> {
        VIEWS.iter().find(|i| i.name == name).map(|i| i.view)
    }

    /// The view opened by `key`, given what the page has.
    pub fn for_key(key: &str, available: Available) -> Option<View> {
        View::offered(available).find(|v| v.info().key == key)
    }
}

/// Everything about the views: what a reload restores (the URL fragment),
/// and the flame graphs' zoom and the diff view's side, which it does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewState {
    pub view: View,
    pub source: SourceKey,
    /// The function the sandwich shows.
    pub function: Option<String>,
    /// The search box's text.
    pub search: String,
    /// The time range the aggregated views are limited to (trace units,
    /// absolute timestamps).
    pub range: Option<(i64, i64)>,
    /// The call-tree table shows the bottom-up tree.
    pub inverted: bool,
    /// The timeline's lane order and hidden lanes.
    pub lanes: LaneLayout,
    /// The node each flame graph canvas (by id) is zoomed into; absent: the
    /// root. Not in the URL: node numbers belong to one tree.
    pub zoom: BTreeMap<String, u32>,
    /// Which trace's totals give the diff flame graph its widths.
    pub diff_side: Side,
    /// The narrowing stack every view reads the trace through (in the URL
    /// under `narrow`, in the stack's text form).
    pub narrow: Stack,
    /// What the listing shows (its columns, `-f`); not in the URL.
    pub listing: ListingOptions,
    /// The Memory view's resource, filter and listed moment; not in the URL.
    pub memory: super::memory::MemoryState,
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            view: View::default(),
            source: SourceKey::default(),
            function: None,
            search: String::new(),
            range: None,
            inverted: false,
            lanes: LaneLayout::default(),
            zoom: BTreeMap::new(),
            diff_side: Side::New,
            narrow: Stack::default(),
            listing: ListingOptions::default(),
            memory: super::memory::MemoryState::default(),
        }
    }
}

/// One change to the [`ViewState`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewChange {
    View(View),
    Source(SourceKey),
    Function(Option<String>),
    Search(String),
    Range(Option<(i64, i64)>),
    Inverted(bool),
    Lanes(LaneLayout),
    /// Zoom the flame graph on canvas `id` into a node (0: the root).
    Zoom(String, u32),
    DiffSide(Side),
    /// The listing's options (its columns).
    Listing(ListingOptions),
    /// The Memory view's state.
    Memory(super::memory::MemoryState),
}

impl ViewState {
    /// Applies a change. Leaving a view forgets its zoom and side, as
    /// changing the trees under a flame graph does (its own component
    /// reports that, see `FlameGraph`).
    pub fn apply(&mut self, change: ViewChange) {
        match change {
            ViewChange::View(v) => {
                if v != self.view {
                    self.forget_zoom();
                }
                self.view = v;
            }
            ViewChange::Source(s) => self.source = s,
            ViewChange::Function(f) => self.function = f,
            ViewChange::Search(q) => self.search = q,
            ViewChange::Range(r) => self.range = r.filter(|(a, b)| a < b),
            ViewChange::Inverted(i) => self.inverted = i,
            ViewChange::Lanes(l) => self.lanes = l,
            ViewChange::Zoom(canvas, 0) => {
                self.zoom.remove(&canvas);
            }
            ViewChange::Zoom(canvas, node) => {
                self.zoom.insert(canvas, node);
            }
            ViewChange::DiffSide(side) => self.diff_side = side,
            ViewChange::Listing(options) => self.listing = options,
            ViewChange::Memory(memory) => self.memory = memory,
        }
    }

    /// The node the flame graph on canvas `id` is zoomed into (0: the root).
    pub fn zoom_of(&self, id: &str) -> u32 {
        self.zoom.get(id).copied().unwrap_or(0)
    }

    /// Back to the whole trees and the new trace's widths (a new trace, or
    /// another view).
    pub fn forget_zoom(&mut self) {
        self.zoom.clear();
        self.diff_side = Side::New;
    }

    /// The state as a URL fragment body (`view=sandwich&fn=main&q=mutex`),
    /// leaving out what is at its default.
    pub fn to_fragment(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.view != View::Timeline {
            parts.push(format!("view={}", self.view.name()));
        }
        if self.source != SourceKey::default() {
            parts.push(format!("source={}", self.source.name()));
        }
        if let Some(f) = &self.function {
            parts.push(format!("fn={}", encode(f)));
        }
        if !self.search.is_empty() {
            parts.push(format!("q={}", encode(&self.search)));
        }
        if let Some((a, b)) = self.range {
            parts.push(format!("range={a},{b}"));
        }
        if self.inverted {
            parts.push("inverted=1".to_owned());
        }
        parts.extend(self.lanes.fragment_parts(encode));
        if !self.narrow.steps.is_empty() {
            parts.push(format!("narrow={}", narrow_to_fragment(&self.narrow)));
        }
        parts.join("&")
    }

    /// Reads a fragment (with or without its `#`); unknown or malformed
    /// parts are ignored.
    pub fn from_fragment(fragment: &str) -> ViewState {
        let mut state = ViewState::default();
        for part in fragment.trim_start_matches('#').split('&') {
            let Some((key, raw)) = part.split_once('=') else {
                continue;
            };
            let value = decode(raw);
            match key {
                "view" => state.view = View::parse(&value).unwrap_or_default(),
                "source" => state.source = SourceKey::parse(&value).unwrap_or_default(),
                "fn" if !value.is_empty() => state.function = Some(value),
                "q" => state.search = value,
                "range" => {
                    state.range = value.split_once(',').and_then(|(a, b)| {
                        let (a, b) = (a.parse().ok()?, b.parse().ok()?);
                        (a < b).then_some((a, b))
                    })
                }
                "inverted" => state.inverted = value == "1",
                // Each item is decoded on its own: an id may hold a comma.
                "lanes" => state.lanes.order = LaneLayout::parse_list(raw, decode),
                "hide" => state.lanes.hidden = LaneLayout::parse_list(raw, decode),
                // The stack's text decodes its own arguments: not `value`.
                "narrow" => state.narrow = narrow_from_fragment(raw).unwrap_or_default(),
                _ => {}
            }
        }
        state
    }
}

/// The stack's text form as the fragment holds it: the text is
/// fragment-safe as it is.
fn narrow_to_fragment(stack: &Stack) -> String {
    stack.to_string()
}

/// Reads [`narrow_to_fragment`]'s value; `None` if it is not a stack.
fn narrow_from_fragment(raw: &str) -> Option<Stack> {
    raw.parse().ok()
}

/// Everything but the unreserved characters of RFC 3986 is escaped.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Percent-encodes everything but unreserved characters.
fn encode(s: &str) -> String {
    utf8_percent_encode(s, ESCAPED).to_string()
}

/// Undoes [`encode`] (and `+` as a space); bad escapes are kept as written.
fn decode(s: &str) -> String {
    percent_decode_str(&s.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::lane_layout::LaneKey;

    #[test]
    fn state_survives_the_fragment() {
        let state = ViewState {
            view: View::Sandwich,
            source: SourceKey::Thread(2),
            function: Some("std::vector<int>::push_back & co".to_owned()),
            search: "/^pthread_/".to_owned(),
            range: Some((100, 2000)),
            inverted: true,
            lanes: LaneLayout {
                order: vec![LaneKey::Thread("a,b &c".to_owned()), LaneKey::Counter(3)],
                hidden: vec![LaneKey::Thread("7".to_owned())],
            },
            ..ViewState::default()
        };
        let fragment = state.to_fragment();
        assert!(!fragment.contains(' ') && !fragment.contains('<'));
        assert_eq!(ViewState::from_fragment(&format!("#{fragment}")), state);
    }

    #[test]
    fn defaults_write_nothing_and_junk_is_ignored() {
        assert_eq!(ViewState::default().to_fragment(), "");
        let state = ViewState::from_fragment("#view=nope&range=9,1&x&q=%zz");
        assert_eq!(state.view, View::Timeline);
        assert_eq!(state.range, None);
        assert_eq!(state.search, "%zz");
        let state = ViewState::from_fragment("q=a+b%2Bc%20%E2%86%92&fn=x%2");
        assert_eq!(state.search, "a b+c →");
        assert_eq!(state.function.as_deref(), Some("x%2"));
        assert_eq!(encode("a b+c→~"), "a%20b%2Bc%E2%86%92~");
    }

    /// Walks "How to add a view" in ARCHITECTURE.md: every view is in the
    /// registry once, with a name that survives the URL, a label, a key and
    /// a canvas id where it draws one.
    #[test]
    fn every_view_is_registered() {
        let mut keys = std::collections::HashSet::new();
        for info in VIEWS {
            assert_eq!(info.view.info().name, info.name, "{info:?} is listed once");
            assert!(!info.label.is_empty());
            assert!(keys.insert(info.key), "key {} is taken twice", info.key);
            assert_eq!(View::parse(info.name), Some(info.view));
            let state = ViewState {
                view: info.view,
                ..ViewState::default()
            };
            let fragment = state.to_fragment();
            assert_eq!(ViewState::from_fragment(&fragment).view, info.view);
            let everything = Available {
                comparison: true,
                allocations: true,
                files: true,
                sockets: true,
                sync_objects: true,
                event_log: true,
            };
            assert_eq!(View::for_key(info.key, everything), Some(info.view));
            assert_eq!(
                View::for_key(info.key, Available::default()).is_some(),
                info.needs == Needs::Nothing
            );
            if let Some(id) = info.canvas {
                assert!(id.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
            }
        }
        assert_eq!(View::offered(Available::default()).count(), 6);
    }

    /// The stack goes into the URL as its text (decoded once, by the text
    /// form), survives the browser escaping `>`, and a bad stack is ignored.
    #[test]
    fn narrowing_stack_survives_the_fragment() {
        use flamedrop_core::analysis::transform::Step;
        let narrow = Stack {
            steps: vec![
                Step::Uftrace("-F main -N ^std:: -D 4".parse().unwrap()),
                Step::MergeCallNode(vec!["main".into(), "std::vector<int>".into()]),
                Step::DropFunction("a%20b + c".into()),
            ],
        };
        let state = ViewState {
            narrow: narrow.clone(),
            ..ViewState::default()
        };
        let fragment = state.to_fragment();
        assert!(fragment.starts_with("narrow=u:-F%20main"), "{fragment}");
        assert!(!fragment.contains('>') && !fragment.contains(' '));
        assert_eq!(ViewState::from_fragment(&fragment).narrow, narrow);
        // As typed by hand.
        let typed = ViewState::from_fragment("view=flamegraph&narrow=mcn:main,work~df:x");
        assert_eq!(
            typed.narrow.steps,
            vec![
                Step::MergeCallNode(vec!["main".into(), "work".into()]),
                Step::DropFunction("x".into())
            ]
        );
        assert_eq!(
            ViewState::from_fragment("narrow=zz:1").narrow,
            Stack::default()
        );
    }

    #[test]
    fn zoom_stays_with_its_view() {
        let mut state = ViewState::default();
        state.apply(ViewChange::View(View::FlameGraph));
        state.apply(ViewChange::Zoom("flamegraph".to_owned(), 7));
        state.apply(ViewChange::DiffSide(Side::Base));
        state.apply(ViewChange::Search("main".to_owned()));
        assert_eq!(state.zoom_of("flamegraph"), 7);
        // Zoom and side stay out of the URL.
        assert_eq!(state.to_fragment(), "view=flamegraph&q=main");
        state.apply(ViewChange::View(View::FlameGraph));
        assert_eq!(state.zoom_of("flamegraph"), 7);
        state.apply(ViewChange::View(View::Sandwich));
        assert_eq!(state.zoom_of("flamegraph"), 0);
        assert_eq!(state.diff_side, Side::New);
    }
}
